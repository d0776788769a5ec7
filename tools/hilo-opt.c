/* hilo-opt: read an HLO module (text or binary proto), verify it, run
 * passes, print it. USAGE below is the synopsis, help() every option with
 * its default (man/hilo-opt.1 says the same); tools/common/cli.c parses.
 *
 * --list-passes shows the passes a user runs; --all adds the test-only ones
 * (deliberately unsound, marked "test only").
 *
 * Environment: NEURON_DISABLE_MOVEMENT_OF_SLICE_FROM_PARAM=1 is read here
 * (never in the library) and handed to the passes through their context.
 *
 * Exit status: 0 ok; 1 bad input (or a pass rejected it); 2 usage error
 * (unknown flag or pass); 3 internal error (a pass produced IR the
 * verifier rejects: the driver verifies the final module even without
 * --verify-each, so nothing invalid is ever written); 4 equivalence check
 * failed.
 *
 * --dump-after-each=DIR writes the module after every pass that runs (or
 * those --dump-pass-re matches) as DIR/NNNN.after_PASS.hlo, through the
 * driver's after_pass hook, as XLA's --xla_dump_to with
 * --xla_dump_hlo_pass_re does.
 *
 * --load-pass-plugin=FILE.so (any number of times) loads a pass plugin
 * (hilo/plugin.h, docs/plugins.md) into a registry main() owns; its passes
 * are found by name after the built-in ones and run through the same
 * driver. --passes and --pipeline are resolved once every plugin is
 * loaded, so the flags may come in any order (as LLVM opt takes them).
 */
#include "hilo/driver.h"
#include "hilo/eval.h"
#include "hilo/hlo_text.h"
#include "hilo/plugin.h"
#include "hilo/proto.h"
#include "hilo/verify.h"
#include "hilo/version.h"
#include "hilo/viz.h"
#include "common/batch.h"
#include "common/cli.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3, EXIT_EQUIV = 4 };

enum { MAX_PASSES = 256 };

typedef struct options {
	const char *input;
	const char *output;
	hilo_print_style style;
	bool split;
	int format;               /* 0 detect from content, 1 HLO text, 2 binary proto, 3 text proto */
	bool emit_pbtxt;          /* --emit=pbtxt or -o X.pbtxt */
	bool emit_proto;          /* --emit-proto or -o X.pb */
	hilo_proto_form form;     /* --proto-form */
	bool list_passes;
	bool list_all;            /* --all: --list-passes shows test-only passes too */
	bool verify_each;
	bool stats;
	bool unroll_markers;
	bool assume_equivalent_kernels; /* --assume-equivalent-kernels */
	bool assume_no_signed_zeros; /* --assume-no-signed-zeros (LLVM's nsz) */
	bool disable_slice_move;
	const char *remarks_path;
	int equiv_n;              /* 0 = no equivalence check; else inputs per test */
	bool equiv_module;        /* =module: whole-module comparison */
	bool equiv_strict;        /* =strict: a skipped rewrite fails too */
	uint64_t seed;
	uint64_t eval_budget;      /* --eval-budget: element-ops, 0 = default */
	const hilo_pass *passes[MAX_PASSES];
	size_t npasses;
	const hilo_plugins *plugins; /* --load-pass-plugin's passes (owned by main) */
	/* views written instead of the module (docs/viz.md) */
	bool emit_dot;            /* --emit=dot */
	const char *around;       /* --around=NAME */
	int depth;                /* --depth=N (with --around) */
	int stats_ops;            /* --stats=ops: 1 text, 2 JSON (--stats=ops-json) */
	const char *extract;      /* --extract=NAME */
	int height;               /* --height=N, -1 = the whole cone */
	const char *report_path;  /* --report=FILE.html */
	const char *dump_dir;     /* --dump-after-each=DIR */
	bool dump_re_set;         /* --dump-pass-re given: dump_re holds it */
	regex_t dump_re;
	bool batch;               /* --batch: the operands are inputs[0..ninputs) */
	char *const *inputs;
	size_t ninputs;
	unsigned jobs;            /* -j N; 0 = the online CPUs */
	const char *out_dir;      /* --out-dir=DIR */
	const char *batch_summary; /* --batch-summary=FILE.json */
	int argc;                 /* the command line, for the report's header */
	const char *const *argv;
	/* run-time state */
	FILE *remarks;
	char **remarks_data;      /* what the remarks stream holds so far */
	size_t *remarks_len;
	size_t *dump_seq;         /* --dump-after-each: passes run so far, over all modules */
} options;

#define USAGE \
	"usage: hilo-opt [INPUT|-] [-o OUT] [--passes=a,b,...] [--pipeline=neuron]\n" \
	"                [--load-pass-plugin=FILE.so]... [--list-passes [--all]]\n" \
	"                [--verify-each] [--stats[=ops|ops-json]]\n" \
	"                [--remarks=FILE] [--check-equivalence[=N|module|strict]]\n" \
	"                [--seed=S] [--eval-budget=N] [--unroll-markers]\n" \
	"                [--assume-equivalent-kernels] [--assume-no-signed-zeros]\n" \
	"                [--print-style=STYLE] [--proto-form=FORM]\n" \
	"                [--format=hlo|pb|pbtxt] [--emit-proto] [--split-input-file]\n" \
	"                [--emit=hlo|dot|pbtxt [--around=NAME [--depth=N]]]\n" \
	"                [--extract=NAME [--height=N]] [--report=FILE.html]\n" \
	"                [--dump-after-each=DIR [--dump-pass-re=REGEX]]\n" \
	"                [-h|--help] [--version]\n" \
	"       hilo-opt --batch [-j N] --out-dir=DIR [--batch-summary=FILE.json]\n" \
	"                [--passes=...|--pipeline=...] [--check-equivalence[=...]]\n" \
	"                FILE|DIR...\n"

/* --help: what the tool does, every option with its default, the exit
 * status, the environment it reads, examples (man/hilo-opt.1 says the same). */
static void help(void)
{
	static const char *const text[] = {
		"Reads an HLO module (HLO text or a binary HloModuleProto, told apart by content)",
		"from INPUT or standard input, verifies it, runs the passes asked for and writes",
		"the module back in the style it came in: an unchanged module prints back byte",
		"for byte.",
		"",
		"Options (a value goes after '=' or in the next argument; -oFILE is -o FILE; '--'",
		"ends the options; long options are never abbreviated; one dash works too,",
		"as absl writes flags: -passes=dce, unless it could be -o VALUE):",
		"  -o OUT                    write the result to OUT (default: standard output,",
		"                            also '-'); a file is replaced atomically, only on",
		"                            success; OUT ending in .pb writes a binary",
		"                            HloModuleProto",
		"  --passes=a,b,...          run these passes in order (default: none);",
		"                            --list-passes names them, XLA's names",
		"                            (constant_folding, ...) work too; an empty name",
		"                            (dce,,cse) is a usage error",
		"  --pipeline=neuron         run the Neuron pipeline: simplify-concat,",
		"                            neuron-preprocess-kernel-duplicate-remover,",
		"                            neuron-dus-ds-index-simplifier, dynamic-slice-mover,",
		"                            neuron_all_gather_duplicate_remover,",
		"                            slice-of-concat-optimizer,",
		"                            neuron_repeated_dus_to_concat, dce",
		"  --load-pass-plugin=FILE.so",
		"                            load a pass plugin (a shared object built against",
		"                            hilo's installed headers, docs/plugins.md): its",
		"                            passes run in --passes like the built-in ones and",
		"                            are judged alike; may be given several times; a",
		"                            plugin that cannot be loaded, or a pass name that",
		"                            is taken, is an error (exit 1)",
		"  --list-passes             print each pass a user runs, with its aliases (and",
		"                            each plugin pass with its plugin), and exit",
		"  --all                     with --list-passes: the deliberately unsound test",
		"                            passes too",
		"  --verify-each             run the verifier after every pass (default: once at",
		"                            the end)",
		"  --stats                   per pass: time, instructions before/after, rewrites",
		"                            and, with --check-equivalence, validation time",
		"                            (stderr)",
		"  --stats=ops|ops-json      write opcode counts, bytes and a cost estimate",
		"                            (FLOPs with dot/convolution apart, transcendentals,",
		"                            bytes accessed) for the module, then per",
		"                            computation (text; JSON adds every instruction's",
		"                            cost) instead of the module",
		"  --remarks=FILE            write one JSON object per rewrite and per declined",
		"                            candidate to FILE ('-' = stdout; keys in",
		"                            docs/remarks.md)",
		"  --check-equivalence[=N|module|strict]",
		"                            judge every rewrite with the reference evaluator:",
		"                            proved, or tested on N seeded inputs (default 3) bit",
		"                            for bit; exit 4 when one changes the result. =module",
		"                            compares the whole module before and after instead;",
		"                            =strict also fails when a rewrite could not be",
		"                            judged (skipped)",
		"  --seed=S                  with --check-equivalence or --report: seed of the",
		"                            generated inputs (default 0)",
		"  --eval-budget=N           with --check-equivalence or --report: work limit",
		"                            of each equivalence check, in element",
		"                            operations (default 100000000); a rewrite over it is",
		"                            reported skipped, with the budget and this flag",
		"  --unroll-markers          while-loop-unroller wraps the root of every unrolled",
		"                            iteration in a NeuronBoundaryMarker-Start and a",
		"                            NeuronBoundaryMarker-End custom-call, which mark",
		"                            where each iteration ends for the Neuron passes",
		"                            after it (they strip the markers); default: no",
		"                            markers",
		"  --assume-equivalent-kernels",
		"                            neuron-preprocess-kernel-duplicate-remover replaces",
		"                            a kernel configured differently by a copy of the",
		"                            first one; this cannot be proved and",
		"                            --check-equivalence reports it as assumed (default:",
		"                            such kernels are left alone)",
		"  --assume-no-signed-zeros  passes may treat -0 and +0 as one value (LLVM's",
		"                            nsz): simplify-concat counts +0 pads as additive",
		"                            identities; --check-equivalence then compares",
		"                            modulo the sign of zero and says so (default: only",
		"                            -0 is an additive identity)",
		"  --print-style=STYLE       auto (default: keep the input's style and every",
		"                            field), default (XLA's ToString), long (adds operand",
		"                            shapes), short (XLA's short form; drops metadata)",
		"  --format=hlo|pb|pbtxt     read INPUT as HLO text, a binary proto or a text",
		"                            proto (protobuf's text format, as XLA's hlo-opt",
		"                            reads .pbtxt)",
		"                            (default: detect)",
		"  --emit-proto              write a binary proto (default: HLO text): in the",
		"                            form the input came in (HloModuleProto, HloProto",
		"                            or HloSnapshot; text: HloModuleProto)",
		"  --proto-form=FORM         with --emit-proto: as-read (default), module",
		"                            (HloModuleProto), hlo-proto (HloProto) or snapshot",
		"                            (HloSnapshot); implies --emit-proto",
		"  --split-input-file        process each '// -----'-separated module of INPUT on",
		"                            its own; not with --emit-proto or -o FILE.pb (exit",
		"                            2)",
		"  --emit=hlo|dot|pbtxt      write the module (hlo, default), its Graphviz DOT",
		"                            graph or a text proto (also -o FILE.pbtxt; the form",
		"                            as --emit-proto's)",
		"  --around=NAME             with --emit=dot: only the neighbourhood of",
		"                            instruction NAME; a node whose operands lie",
		"                            beyond --depth gets a dashed 'N more inputs' stub",
		"  --depth=N                 with --around: edges away from NAME (default 2)",
		"  --extract=NAME            write a standalone module computing instruction NAME",
		"                            (or %NAME); a name the module lacks is a usage",
		"                            error, as for --around",
		"  --height=N                with --extract: levels of operands kept above NAME,",
		"                            the rest become parameters (default: all)",
		"  --report=FILE.html        write one page with a before/after picture of every",
		"                            rewrite and its verdict, the pass statistics, the",
		"                            metadata-only rewrites, the removed computations and",
		"                            the declined candidates, headed by the command line",
		"                            and hilo's version (implies --check-equivalence)",
		"  --dump-after-each=DIR     write the module after each pass that runs as",
		"                            DIR/NNNN.after_PASS.hlo (NNNN: the pass's 0-based",
		"                            number among all passes run, 4 digits; HLO text in",
		"                            --print-style), as XLA's xla_dump_to; DIR is",
		"                            created before any pass runs (its parent must",
		"                            exist); files written stay when a later pass fails",
		"  --dump-pass-re=REGEX      with --dump-after-each: only the passes whose name",
		"                            (or an alias) REGEX, a POSIX extended regular",
		"                            expression, matches anywhere in, as",
		"                            xla_dump_hlo_pass_re; a bad REGEX is a usage error",
		"  --batch                   run the passes over every FILE operand and every",
		"                            *.hlo, *.pb and *.pbtxt of a DIR operand (not",
		"                            recursive, sorted), on -j threads; each result is",
		"                            written atomically to --out-dir under its input's",
		"                            file name (.pb binary proto, .pbtxt text proto, else",
		"                            HLO text), byte for byte what -o writes; a module",
		"                            that fails gets no file and does not stop the",
		"                            others; one summary table on stdout (per module:",
		"                            instructions before/after, rewrites, verdicts with",
		"                            --check-equivalence, time, status ok, error or",
		"                            check-failed with its first diagnostic); each",
		"                            module's diagnostics on stderr in input order.",
		"                            Goes with --passes, --pipeline,",
		"                            --check-equivalence, --seed, --eval-budget,",
		"                            --print-style, --format, --verify-each,",
		"                            --unroll-markers, --assume-equivalent-kernels and",
		"                            --assume-no-signed-zeros; not with -o, --report,",
		"                            --remarks, --stats, --emit, ... (exit 2). Two",
		"                            inputs of one file name, or --out-dir being an",
		"                            input's folder, are refused before anything runs",
		"                            (exit 2)",
		"  -j N, --jobs=N            with --batch: threads (1 to 4096; default: the",
		"                            online CPUs; 1 runs the modules one by one)",
		"  --out-dir=DIR             with --batch: the folder of the results, created",
		"                            when missing (its parent must exist)",
		"  --batch-summary=FILE.json",
		"                            with --batch: the summary table as JSON, written",
		"                            atomically (keys in man/hilo-opt.1)",
		"  -h, --help                print this help and exit",
		"  --version                 print the version and exit",
		"",
		"Exit status:",
		"  0  success",
		"  1  bad input: parse or verify error, unreadable or empty file, a pass rejected",
		"     the module, a pass plugin could not be loaded; or out of memory",
		"  2  usage error: unknown option or pass, bad option value, an empty pass",
		"     name, an option without the one it goes with (--around without",
		"     --emit=dot, --height without --extract, --seed without a check, ...)",
		"  3  internal error: a pass produced a module the verifier rejects (nothing is",
		"     written)",
		"  4  the equivalence check failed: a rewrite changed the program's result",
		"  With --batch: 0 when every module succeeded, else the highest status of a",
		"  module (4 over 3 over 1, as --split-input-file); 2 also for inputs refused",
		"  before any module runs",
		"",
		"Environment:",
		"  NEURON_DISABLE_MOVEMENT_OF_SLICE_FROM_PARAM=1",
		"                            dynamic-slice-mover leaves in place the slices of",
		"                            values that come from an entry parameter, as the",
		"                            Neuron compiler does",
		"  TMPDIR                    folder for the temporary files of --report (default",
		"                            /tmp)",
		"  HILO_FAIL_ALLOC=K, HILO_FAIL_WRITE=K",
		"                            only in builds configured with",
		"                            -DHILO_FAULT_INJECTION=ON: the K-th memory",
		"                            allocation fails (reported as out of memory, exit",
		"                            1), or the K-th write of -o/--remarks output fails",
		"                            (for testing error paths)",
		"",
		"Examples:",
		"  hilo-opt model.hlo --pipeline=neuron --check-equivalence -o model.opt.hlo",
		"  hilo-opt model.pb --passes=dce,cse,constant_folding --stats --remarks=r.jsonl",
		"  hilo-opt loop.hlo --passes=while_loop_unroller --unroll-markers -o out.hlo",
		"  hilo-opt model.hlo --passes=dce,cse --dump-after-each=dumps --dump-pass-re=cse",
		"  hilo-opt in.hlo --load-pass-plugin=./my.so --passes=mine --check-equivalence",
		"  hilo-opt --batch -j 8 --pipeline=neuron --out-dir=opt --batch-summary=s.json d",
	};
	fputs(USAGE "\n", stdout);
	for (size_t k = 0; k < sizeof text / sizeof *text; k++)
		puts(text[k]);
}

static void list_known(FILE *f, const hilo_plugins *plugins)
{
	size_t n;
	const hilo_pass *p = hilo_pass_list(&n);
	fputs("known passes:", f);
	size_t shown = 0;
	for (size_t k = 0; k < n; k++)
		if (!p[k].test_only)
			fprintf(f, "%s %s", shown++ ? "," : "", p[k].name);
	for (size_t k = 0; (p = hilo_plugins_pass(plugins, k, NULL)); k++)
		fprintf(f, "%s %s", shown++ ? "," : "", p->name);
	fputs(shown ? "\n" : " (none)\n", f);
}

/* " (did you mean 'dce'?)" for the user pass or alias closest to name, or
 * "" (the test-only passes are not suggested: --list-passes hides them). */
static const char *suggest_pass(const char *name, const hilo_plugins *plugins)
{
	static char hint[300];
	size_t n;
	const hilo_pass *p = hilo_pass_list(&n);
	cli_near s;
	cli_near_init(&s, name, strlen(name));
	for (size_t k = 0; k < n; k++) {
		if (p[k].test_only)
			continue;
		cli_near_offer(&s, p[k].name);
		for (size_t a = 0; hilo_pass_alias(&p[k], a); a++)
			cli_near_offer(&s, hilo_pass_alias(&p[k], a));
	}
	for (size_t k = 0; (p = hilo_plugins_pass(plugins, k, NULL)); k++)
		cli_near_offer(&s, p->name);
	if (!cli_near_best(&s))
		return "";
	snprintf(hint, sizeof hint, " (did you mean '%s'?)", cli_near_best(&s));
	return hint;
}

static int add_pass(options *o, const char *name, size_t len, const char *origin)
{
	char buf[256];
	if (len >= sizeof buf) {
		fprintf(stderr, "hilo-opt: error: unknown pass '%.*s...'\n", 64, name);
		list_known(stderr, o->plugins);
		return EXIT_USAGE;
	}
	memcpy(buf, name, len);
	buf[len] = 0;
	const hilo_pass *p = hilo_pass_find(buf);
	if (!p)
		p = hilo_plugins_find(o->plugins, buf);
	if (!p) {
		if (origin)
			fprintf(stderr, "hilo-opt: error: pipeline '%s' needs pass '%s', which is not registered in this build\n",
				origin, buf);
		else
			fprintf(stderr, "hilo-opt: error: unknown pass '%s'%s\n", buf, suggest_pass(buf, o->plugins));
		list_known(stderr, o->plugins);
		return EXIT_USAGE;
	}
	if (o->npasses == MAX_PASSES) {
		fprintf(stderr, "hilo-opt: error: more than %d passes\n", MAX_PASSES);
		return EXIT_USAGE;
	}
	o->passes[o->npasses++] = p;
	return EXIT_OK;
}

/* Adds the passes of a comma-separated list. An empty list ("--passes=")
 * runs none; an empty name in a list ("dce,,cse", a trailing comma) is a
 * usage error: a pass name lost to a typo would otherwise go unnoticed. */
static int add_pass_list(options *o, const char *s)
{
	const char *list = s;
	if (!*s)
		return EXIT_OK;
	for (;;) {
		const char *c = strchr(s, ',');
		size_t len = c ? (size_t)(c - s) : strlen(s);
		if (!len) {
			fprintf(stderr, "hilo-opt: error: empty pass name in --passes '%s'\n", list);
			return EXIT_USAGE;
		}
		int rc = add_pass(o, s, len, NULL);
		if (rc != EXIT_OK)
			return rc;
		if (!c)
			return EXIT_OK;
		s = c + 1;
	}
}

enum {
	O_PASSES = CLI_LONG, O_PIPELINE, O_PRINT_STYLE, O_SPLIT, O_FORMAT, O_EMIT_PROTO, O_PROTO_FORM,
	O_LIST_PASSES, O_ALL, O_VERIFY_EACH, O_STATS, O_REMARKS, O_CHECK, O_SEED, O_UNROLL,
	O_EVAL_BUDGET, O_ASSUME, O_NSZ, O_EMIT, O_AROUND, O_DEPTH, O_EXTRACT, O_HEIGHT, O_REPORT,
	O_DUMP_AFTER_EACH, O_DUMP_PASS_RE, O_VERSION, O_LOAD_PLUGIN, O_BATCH, O_OUT_DIR, O_BATCH_SUMMARY,
};

static const struct option long_options[] = {
	{"passes", required_argument, NULL, O_PASSES},
	{"pipeline", required_argument, NULL, O_PIPELINE},
	{"print-style", required_argument, NULL, O_PRINT_STYLE},
	{"split-input-file", no_argument, NULL, O_SPLIT},
	{"format", required_argument, NULL, O_FORMAT},
	{"emit-proto", no_argument, NULL, O_EMIT_PROTO},
	{"proto-form", required_argument, NULL, O_PROTO_FORM},
	{"list-passes", no_argument, NULL, O_LIST_PASSES},
	{"all", no_argument, NULL, O_ALL},
	{"verify-each", no_argument, NULL, O_VERIFY_EACH},
	{"stats", optional_argument, NULL, O_STATS},
	{"remarks", required_argument, NULL, O_REMARKS},
	{"check-equivalence", optional_argument, NULL, O_CHECK},
	{"seed", required_argument, NULL, O_SEED},
	{"unroll-markers", no_argument, NULL, O_UNROLL},
	{"eval-budget", required_argument, NULL, O_EVAL_BUDGET},
	{"assume-equivalent-kernels", no_argument, NULL, O_ASSUME},
	{"assume-no-signed-zeros", no_argument, NULL, O_NSZ},
	{"emit", required_argument, NULL, O_EMIT},
	{"around", required_argument, NULL, O_AROUND},
	{"depth", required_argument, NULL, O_DEPTH},
	{"extract", required_argument, NULL, O_EXTRACT},
	{"height", required_argument, NULL, O_HEIGHT},
	{"report", required_argument, NULL, O_REPORT},
	{"dump-after-each", required_argument, NULL, O_DUMP_AFTER_EACH},
	{"dump-pass-re", required_argument, NULL, O_DUMP_PASS_RE},
	{"load-pass-plugin", required_argument, NULL, O_LOAD_PLUGIN},
	{"batch", no_argument, NULL, O_BATCH},
	{"jobs", required_argument, NULL, 'j'},
	{"out-dir", required_argument, NULL, O_OUT_DIR},
	{"batch-summary", required_argument, NULL, O_BATCH_SUMMARY},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, O_VERSION},
	{NULL, 0, NULL, 0},
};

/* --pipeline=NAME: its passes, in order. */
static int add_pipeline(const cli *c, options *o, const char *a)
{
	size_t n;
	const char *const *names = hilo_pipeline_passes(a, &n);
	if (!names)
		return cli_error(c, "unknown pipeline '%s' (known: neuron)", a);
	for (size_t j = 0; j < n; j++) {
		int rc = add_pass(o, names[j], strlen(names[j]), a);
		if (rc != EXIT_OK)
			return rc;
	}
	return EXIT_OK;
}

/* --load-pass-plugin=FILE: a plugin that cannot be loaded is
 * "hilo-opt: error: cannot load pass plugin 'FILE': WHY", exit 1. */
static int load_plugin(hilo_plugins *plugins, const char *path)
{
	hilo_diags d;
	hilo_diags_init(&d);
	bool ok = plugins ? hilo_plugins_load(plugins, path, &d) : false;
	if (!plugins)
		fprintf(stderr, "hilo-opt: error: out of memory\n");
	for (size_t k = 0; k < d.n; k++)
		fprintf(stderr, "hilo-opt: error: %s\n", d.items[k].msg ? d.items[k].msg : "out of memory");
	hilo_diags_free(&d);
	return ok ? EXIT_OK : EXIT_INPUT;
}

/* --batch writes each module's result to --out-dir under its input's name
 * (tools/common/batch.h): the flags that pick one output, or print per
 * module, are usage errors with it, as the batch flags are without it. */
static int batch_flags(const cli *c, const options *o, const char *jobs_flag)
{
	if (!o->batch) {
		const char *f = jobs_flag ? jobs_flag : o->out_dir ? "--out-dir"
			: o->batch_summary ? "--batch-summary" : NULL;
		return f ? cli_error(c, "%s only goes with --batch", f) : EXIT_OK;
	}
	const char *f = o->output ? "-o" : o->report_path ? "--report" : o->remarks_path ? "--remarks"
		: o->split ? "--split-input-file" : o->stats ? "--stats" : o->stats_ops ? "--stats=ops"
		: o->emit_dot || o->emit_pbtxt ? "--emit" : o->emit_proto ? "--emit-proto (or --proto-form)"
		: o->extract ? "--extract" : o->dump_dir ? "--dump-after-each"
		: o->list_passes ? "--list-passes" : NULL;
	if (f)
		return cli_error(c, "%s does not go with --batch (each result is written to --out-dir under "
			"its input's name, in the form the name says; the summary table gives the counts)", f);
	if (!o->out_dir)
		return cli_error(c, "--batch needs --out-dir=DIR (the folder the results go to)");
	if (!o->ninputs)
		return cli_error(c, "--batch needs input files or folders");
	return EXIT_OK;
}

static int parse_args(int argc, char **argv, options *o, hilo_plugins *plugins)
{
	memset(o, 0, sizeof *o);
	o->plugins = plugins;
	o->style = HILO_STYLE_AUTO;
	o->height = -1;
	int rc;
	uint64_t v;
	/* flags that only act with another: given alone they would be
	 * silently ignored, so they are usage errors (checked at the end) */
	const char *seed_flag = NULL, *budget_flag = NULL, *depth_flag = NULL, *height_flag = NULL;
	const char *jobs_flag = NULL;
	/* the command line as typed, for the report's header (getopt_long
	 * permutes argv); static, as cli's rewrite buffer: one parse per
	 * process. Out of memory: shown as parsed. */
	static const char **typed;
	free(typed);
	if ((typed = malloc(((size_t)argc + 1) * sizeof *typed)))
		memcpy(typed, argv, ((size_t)argc + 1) * sizeof *typed);
	o->argc = argc;
	o->argv = typed ? typed : (const char *const *)argv;
	/* --passes and --pipeline in order, resolved after the loop: a plugin
	 * pass may be named before its --load-pass-plugin */
	struct { int opt; const char *arg; } lists[MAX_PASSES];
	size_t nlists = 0;
	cli c;
	cli_init(&c, "hilo-opt", USAGE, "o:hj:", long_options, argc, argv);
	for (int opt; (opt = cli_next(&c)) != -1;) {
		const char *a = optarg;
		switch (opt) {
		case CLI_ERROR:
			return EXIT_USAGE;
		case 'o':
			o->output = a;
			break;
		case 'h':
			help();
			return -1;
		case O_VERSION:
			printf("hilo-opt (hilo) %s\n", hilo_version());
			return -1;
		case O_BATCH:
			o->batch = true;
			break;
		case 'j':
			if (!cli_uint(&c, a, 1, 4096, &v))
				return EXIT_USAGE;
			o->jobs = (unsigned)v;
			jobs_flag = c.name ? "--jobs" : "-j";
			break;
		case O_OUT_DIR:
		case O_BATCH_SUMMARY:
			if (!*a)
				return cli_invalid(&c, a, opt == O_OUT_DIR ? "a folder" : "a file name");
			*(opt == O_OUT_DIR ? &o->out_dir : &o->batch_summary) = a;
			break;
		case O_PRINT_STYLE:
			if (!strcmp(a, "auto"))
				o->style = HILO_STYLE_AUTO;
			else if (!strcmp(a, "default"))
				o->style = HILO_STYLE_DEFAULT;
			else if (!strcmp(a, "long"))
				o->style = HILO_STYLE_LONG;
			else if (!strcmp(a, "short"))
				o->style = HILO_STYLE_SHORT;
			else
				return cli_invalid(&c, a, "auto, default, long or short");
			break;
		case O_PASSES:
		case O_PIPELINE:
			if (nlists == MAX_PASSES)
				return cli_error(&c, "more than %d --passes and --pipeline options", MAX_PASSES);
			lists[nlists].opt = opt;
			lists[nlists++].arg = a;
			break;
		case O_LOAD_PLUGIN:
			if (!*a)
				return cli_invalid(&c, a, "a plugin file (a shared object)");
			if ((rc = load_plugin(plugins, a)) != EXIT_OK)
				return rc;
			break;
		case O_LIST_PASSES:
			o->list_passes = true;
			break;
		case O_ALL:
			o->list_all = true;
			break;
		case O_VERIFY_EACH:
			o->verify_each = true;
			break;
		case O_EMIT:
			o->emit_dot = !strcmp(a, "dot");
			o->emit_pbtxt = !strcmp(a, "pbtxt");
			if (strcmp(a, "dot") && strcmp(a, "hlo") && strcmp(a, "pbtxt"))
				return cli_invalid(&c, a, "hlo, dot or pbtxt");
			break;
		case O_AROUND:
		case O_EXTRACT:
			if (!*a)
				return cli_invalid(&c, a, "an instruction name");
			*(opt == O_AROUND ? &o->around : &o->extract) = a;
			break;
		case O_DEPTH:
		case O_HEIGHT:
			if (!cli_uint(&c, a, 0, 1000000, &v))
				return EXIT_USAGE;
			*(opt == O_DEPTH ? &o->depth : &o->height) = (int)v;
			*(opt == O_DEPTH ? &depth_flag : &height_flag) = opt == O_DEPTH ? "--depth" : "--height";
			break;
		case O_REPORT:
			if (!*a)
				return cli_invalid(&c, a, "a file name");
			o->report_path = a;
			break;
		case O_STATS:
			if (!a)
				o->stats = true;
			else if (!strcmp(a, "ops"))
				o->stats_ops = 1;
			else if (!strcmp(a, "ops-json"))
				o->stats_ops = 2;
			else
				return cli_invalid(&c, a, "ops or ops-json (or --stats alone)");
			break;
		case O_DUMP_AFTER_EACH:
			if (!*a)
				return cli_invalid(&c, a, "a folder");
			o->dump_dir = a;
			break;
		case O_DUMP_PASS_RE: {
			if (o->dump_re_set)
				regfree(&o->dump_re);
			o->dump_re_set = false;
			int e = regcomp(&o->dump_re, a, REG_EXTENDED | REG_NOSUB);
			if (e) {
				char why[256];
				regerror(e, &o->dump_re, why, sizeof why);
				return cli_error(&c, "invalid value '%s' for --dump-pass-re: %s (expected a POSIX "
					"extended regular expression)", a, why);
			}
			o->dump_re_set = true;
			break;
		}
		case O_UNROLL:
			o->unroll_markers = true;
			break;
		case O_ASSUME:
			o->assume_equivalent_kernels = true;
			break;
		case O_NSZ:
			o->assume_no_signed_zeros = true;
			break;
		case O_REMARKS:
			if (!*a)
				return cli_invalid(&c, a, "a file name");
			o->remarks_path = a;
			break;
		case O_CHECK:
			o->equiv_n = 3;
			if (!a)
				break;
			if (!strcmp(a, "module"))
				o->equiv_module = true;
			else if (!strcmp(a, "strict"))
				o->equiv_strict = true;
			else if (!(*a >= '0' && *a <= '9'))
				return cli_invalid(&c, a, "N (1 to 1000), module or strict");
			else if (!cli_uint(&c, a, 1, 1000, &v))
				return EXIT_USAGE;
			else
				o->equiv_n = (int)v;
			break;
		case O_EVAL_BUDGET:
			if (!cli_uint(&c, a, 1, UINT64_MAX, &o->eval_budget))
				return EXIT_USAGE;
			budget_flag = "--eval-budget";
			break;
		case O_SEED:
			if (!cli_uint(&c, a, 0, UINT64_MAX, &o->seed))
				return EXIT_USAGE;
			seed_flag = "--seed";
			break;
		case O_SPLIT:
			o->split = true;
			break;
		case O_FORMAT:
			if (!strcmp(a, "hlo"))
				o->format = 1;
			else if (!strcmp(a, "pb"))
				o->format = 2;
			else if (!strcmp(a, "pbtxt"))
				o->format = 3;
			else
				return cli_invalid(&c, a, "hlo, pb or pbtxt");
			break;
		case O_EMIT_PROTO:
			o->emit_proto = true;
			break;
		case O_PROTO_FORM:
			if (!strcmp(a, "as-read"))
				o->form = HILO_PROTO_AS_READ;
			else if (!strcmp(a, "module"))
				o->form = HILO_PROTO_MODULE;
			else if (!strcmp(a, "hlo-proto"))
				o->form = HILO_PROTO_HLO_PROTO;
			else if (!strcmp(a, "snapshot"))
				o->form = HILO_PROTO_SNAPSHOT;
			else
				return cli_invalid(&c, a, "as-read, module, hlo-proto or snapshot");
			o->emit_proto = true;
			break;
		default:
			return cli_error(&c, "option %d not handled", opt); /* a bug */
		}
	}
	for (size_t k = 0; k < nlists; k++)
		if ((rc = lists[k].opt == O_PASSES ? add_pass_list(o, lists[k].arg)
		                                   : add_pipeline(&c, o, lists[k].arg)) != EXIT_OK)
			return rc;
	o->inputs = argv + optind;
	o->ninputs = (size_t)(argc - optind);
	if ((rc = batch_flags(&c, o, jobs_flag)) != EXIT_OK)
		return rc;
	for (int k = optind; k < argc && !o->batch; k++) {
		if (o->input)
			return cli_error(&c, "more than one input file ('%s' and '%s')", o->input, argv[k]);
		o->input = argv[k];
	}
	if (o->list_all && !o->list_passes) {
		return cli_error(&c, "--all only goes with --list-passes");
	}
	if (o->around && !o->emit_dot)
		return cli_error(&c, "--around only goes with --emit=dot (it picks what the graph shows)");
	if (depth_flag && !o->around)
		return cli_error(&c, "--depth only goes with --around (and --emit=dot)");
	if (height_flag && !o->extract)
		return cli_error(&c, "--height only goes with --extract");
	if (o->dump_re_set && !o->dump_dir)
		return cli_error(&c, "--dump-pass-re only goes with --dump-after-each");
	if (o->dump_dir && !o->npasses)
		return cli_error(&c, "--dump-after-each writes the module after each pass: give "
			"--passes or --pipeline");
	if ((seed_flag || budget_flag) && !o->equiv_n && !o->report_path)
		return cli_error(&c, "%s only goes with --check-equivalence (or --report): nothing "
			"else evaluates the module", seed_flag ? seed_flag : budget_flag);
	if (!o->input)
		o->input = "-";
	if (o->output && strlen(o->output) > 3 && !strcmp(o->output + strlen(o->output) - 3, ".pb"))
		o->emit_proto = true;
	if (o->output && strlen(o->output) > 6 && !strcmp(o->output + strlen(o->output) - 6, ".pbtxt"))
		o->emit_pbtxt = true;
	if (o->split && o->emit_proto) {
		fprintf(stderr, "hilo-opt: error: --split-input-file cannot be combined with --emit-proto "
			"(or -o FILE.pb): a binary HloModuleProto holds one module; convert one module per run\n");
		return EXIT_USAGE;
	}
	if (o->report_path && o->split) {
		fprintf(stderr, "hilo-opt: error: --report draws one module: it cannot be combined with "
			"--split-input-file\n");
		return EXIT_USAGE;
	}
	if (o->report_path && o->equiv_module) {
		fprintf(stderr, "hilo-opt: error: --report shows each rewrite's verdict: use it with the "
			"default --check-equivalence, not =module\n");
		return EXIT_USAGE;
	}
	if (o->report_path && !o->equiv_n)
		o->equiv_n = 3; /* the report shows every rewrite's verdict */
	const char *env = getenv("NEURON_DISABLE_MOVEMENT_OF_SLICE_FROM_PARAM");
	o->disable_slice_move = env && !strcmp(env, "1");
	return EXIT_OK;
}

/* checked: --check-equivalence ran; each pass's validation time is a
 * last column (snapshot and judging). */
static void print_stats(const options *o, const char *fname, const hilo_pass_stat *st,
	size_t n, uint64_t total_before, uint64_t total_after, bool checked)
{
	double total = 0;
	uint64_t rewrites = 0;
	fprintf(stderr, "hilo-opt: stats for %s\n", fname);
	fprintf(stderr, "  %-44s %10s %10s %10s %9s  %s%s\n", "pass", "time_ms", "before",
		"after", "rewrites", checked ? "result   " : "result", checked ? "   check_ms" : "");
	for (size_t k = 0; k < n; k++) {
		const char *r = st[k].result == HILO_PASS_CHANGED ? "changed"
			: st[k].result == HILO_PASS_UNCHANGED ? "unchanged" : "error";
		char cm[48];
		if (checked)
			snprintf(cm, sizeof cm, "%-9s %10.3f", r, st[k].check_seconds * 1e3);
		else
			snprintf(cm, sizeof cm, "%s", r);
		fprintf(stderr, "  %-44s %10.3f %10llu %10llu %9llu  %s\n", st[k].pass,
			st[k].seconds * 1e3, (unsigned long long)st[k].instrs_before,
			(unsigned long long)st[k].instrs_after, (unsigned long long)st[k].rewrites, cm);
		total += st[k].seconds;
		rewrites += st[k].rewrites;
	}
	fprintf(stderr, "  %-44s %10.3f %10llu %10llu %9llu\n", "total", total * 1e3,
		(unsigned long long)total_before, (unsigned long long)total_after,
		(unsigned long long)rewrites);
	(void)o;
}

/* Writes the rewrite report (--report) after the passes ran. */
static int write_report(const options *o, const char *fname, hilo_report *rep,
	const hilo_module *result, const hilo_pass_stat *st, size_t ran,
	const hilo_validate_summary *vs, hilo_diags *d)
{
	hilo_report_pass ps[MAX_PASSES];
	for (size_t k = 0; k < ran; k++)
		ps[k] = (hilo_report_pass){st[k].pass, st[k].seconds, st[k].instrs_before,
			st[k].instrs_after, st[k].rewrites, st[k].result == HILO_PASS_CHANGED ? "changed"
			: st[k].result == HILO_PASS_UNCHANGED ? "unchanged" : "error"};
	char line[256];
	snprintf(line, sizeof line, "equivalence: %llu rewrites: %llu proved, %llu tested (%d inputs), "
		"%llu skipped, %llu failed", (unsigned long long)vs->rewrites,
		(unsigned long long)vs->proved, (unsigned long long)vs->tested, vs->inputs,
		(unsigned long long)vs->skipped, (unsigned long long)vs->failed);
	if (o->remarks)
		fflush(o->remarks);
	hilo_report_info info = {fname, line, ps, ran,
		o->remarks_data ? *o->remarks_data : NULL, o->remarks_len ? *o->remarks_len : 0,
		o->argv, o->argc, result};
	hilo_buf b;
	hilo_buf_init(&b);
	int rc = EXIT_OK;
	if (!hilo_report_write(rep, &b, &info)) {
		hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0, "out of memory writing the report");
		rc = EXIT_INPUT;
	} else if (!hilo_write_output(o->report_path, b.data ? b.data : "", b.len, d)) {
		rc = EXIT_INPUT;
	} else {
		fprintf(stderr, "hilo-opt: report written to %s\n", o->report_path);
	}
	hilo_buf_free(&b);
	return rc;
}

/* Why the validator skipped rewrites, counted from its records (and the
 * records handed on to the report). */
typedef struct skip_tally {
	hilo_report *report;
	uint64_t over_budget, other;
} skip_tally;

static void on_record(void *arg, const hilo_check_record *r)
{
	skip_tally *t = arg;
	if (t->report)
		hilo_report_on_record(t->report, r);
	if (!strcmp(r->verdict, "skipped")) {
		if (r->reason && strstr(r->reason, "budget"))
			t->over_budget++;
		else
			t->other++;
	}
}

/* After the summary line: which budget the skipped rewrites exceeded and
 * the flag that raises it, and where the other reasons are. */
static void say_skipped(const options *o, const skip_tally *t)
{
	if (t->over_budget)
		fprintf(stderr, "equivalence: %llu rewrite%s skipped over the evaluation budget of %llu "
			"element-ops per check; --eval-budget=N raises it\n",
			(unsigned long long)t->over_budget, t->over_budget == 1 ? "" : "s",
			(unsigned long long)(o->eval_budget ? o->eval_budget : HILO_EVAL_DEFAULT_BUDGET));
	if (t->other)
		fprintf(stderr, "equivalence: %llu rewrite%s skipped for another reason (an operation "
			"the evaluator cannot run, elided constants, ...)%s\n",
			(unsigned long long)t->other, t->other == 1 ? "" : "s",
			o->remarks_path ? "; the remarks give each reason" : "; --remarks=FILE gives each reason");
}

/* --dump-pass-re: does the regular expression match the pass's name or
 * one of its aliases (XLA's names, which XLA users write) anywhere, as
 * XLA's RE2::PartialMatch does? */
static bool dump_matches(const options *o, const hilo_pass *p)
{
	if (!o->dump_re_set || !regexec(&o->dump_re, p->name, 0, NULL, 0))
		return true;
	for (size_t a = 0; hilo_pass_alias(p, a); a++)
		if (!regexec(&o->dump_re, hilo_pass_alias(p, a), 0, NULL, 0))
			return true;
	return false;
}

/* The driver's after_pass hook for --dump-after-each: the module after
 * pass p as DIR/NNNN.after_PASS.hlo, NNNN counting every pass run in this
 * invocation (dumped or not, over all modules of --split-input-file, so
 * no file is written twice), each file written atomically by the output
 * routine. XLA names its files module_M.NAME.SSSS.PIPELINE.after_PASS.
 * before_NEXT.txt, SSSS counting the dumps only: hilo's shorter names
 * (one module, one pipeline) number every pass run, so a file keeps its
 * name whatever --dump-pass-re picks (man/hilo-opt.1 says so). */
static bool dump_after(void *arg, const hilo_module *m, const hilo_pass *p, size_t k,
	hilo_diags *d)
{
	const options *o = arg;
	size_t seq = (*o->dump_seq)++;
	(void)k; /* the position in this module's list: seq counts over all modules */
	if (!dump_matches(o, p))
		return true;
	char path[4096];
	int n = snprintf(path, sizeof path, "%s/%04zu.after_%s.hlo", o->dump_dir, seq, p->name);
	if (n < 0 || (size_t)n >= sizeof path) {
		hilo_diag_add(d, HILO_SEV_ERROR, o->dump_dir, 0, 0, NULL, 0,
			"--dump-after-each: the path of the dump after pass '%s' is too long", p->name);
		return false;
	}
	hilo_buf b;
	hilo_buf_init(&b);
	bool ok = hilo_print_text(&b, m, o->style) && !b.oom;
	if (!ok)
		hilo_diag_oom(d, path);
	else
		ok = hilo_write_output(path, b.data ? b.data : "", b.len, d);
	hilo_buf_free(&b);
	return ok;
}

/* Runs the passes (and the equivalence check) on a parsed, verified module. */
static int run_passes(const options *o, const char *fname, hilo_module *m,
	const char *text, size_t len, hilo_diags *d)
{
	if (!o->npasses && !o->equiv_n)
		return EXIT_OK;
	hilo_driver_opts dopts = {
		.filename = fname,
		.verify_each = o->verify_each,
		.remarks = o->remarks,
		.unroll_markers = o->unroll_markers,
		.assume_equivalent_kernels = o->assume_equivalent_kernels,
		.assume_no_signed_zeros = o->assume_no_signed_zeros,
		.disable_slice_move_from_param = o->disable_slice_move,
		.after_pass = o->dump_dir ? dump_after : NULL,
		.after_pass_arg = (void *)o,
	};
	hilo_validator *val = NULL;
	hilo_report *report = NULL;
	skip_tally tally = {0};
	if (o->equiv_n && !o->equiv_module) {
		hilo_validate_opts vo = {.inputs = o->equiv_n, .seed = o->seed,
			.budget = o->eval_budget, .remarks = o->remarks, .filename = fname,
			.zero_sign_insensitive = o->assume_no_signed_zeros};
		if (o->report_path && (!(report = hilo_report_create(fname)) ||
			!hilo_report_note_input(report, m))) {
			hilo_report_destroy(report);
			hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0, "out of memory");
			return EXIT_INPUT;
		}
		tally.report = report;
		vo.on_record = on_record;
		vo.on_record_arg = &tally;
		if (!(val = hilo_validator_create(&vo))) {
			hilo_report_destroy(report);
			hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0, "out of memory");
			return EXIT_INPUT;
		}
		dopts.validate = val;
	}
	hilo_pass_stat st[MAX_PASSES];
	memset(st, 0, sizeof st);
	uint64_t before = hilo_module_instr_count(m);
	hilo_driver_status s = hilo_run_passes(m, o->passes, o->npasses, &dopts, d, st);
	if (o->stats) {
		size_t ran = 0;
		while (ran < o->npasses && st[ran].pass)
			ran++;
		print_stats(o, fname, st, ran, before, hilo_module_instr_count(m), val != NULL);
		if (val) {
			double cs = 0;
			for (size_t k = 0; k < ran; k++)
				cs += st[k].check_seconds;
			fprintf(stderr, "  %-44s %10.3f\n", "rewrite validation", cs * 1e3);
		}
	}
	if (val) {
		hilo_validate_summary vs;
		hilo_validator_summary(val, &vs);
		hilo_validator_destroy(val);
		if (report) {
			size_t ran = 0;
			while (ran < o->npasses && st[ran].pass)
				ran++;
			int wr = write_report(o, fname, report, m, st, ran, &vs, d);
			hilo_report_destroy(report);
			if (wr != EXIT_OK && s == HILO_DRIVER_OK && !vs.failed)
				return wr;
		}
		if (s == HILO_DRIVER_PASS_ERROR)
			return EXIT_INPUT;
		if (s == HILO_DRIVER_VERIFY_ERROR)
			return EXIT_INTERNAL;
		fprintf(stderr, "equivalence: %llu rewrites: %llu proved, %llu tested (%d inputs), "
			"%llu skipped, %llu failed", (unsigned long long)vs.rewrites,
			(unsigned long long)vs.proved, (unsigned long long)vs.tested, vs.inputs,
			(unsigned long long)vs.skipped, (unsigned long long)vs.failed);
		if (vs.assumed)
			fprintf(stderr, "; %llu assumed", (unsigned long long)vs.assumed);
		if (o->assume_no_signed_zeros)
			fputs("; compared modulo the sign of zero (--assume-no-signed-zeros)", stderr);
		fputc('\n', stderr);
		say_skipped(o, &tally);
		if (vs.failed)
			return EXIT_EQUIV;
		if (o->equiv_strict && vs.skipped) {
			hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0,
				"equivalence check failed: %llu rewrite%s skipped (--check-equivalence=strict; "
				"--remarks gives the reasons)", (unsigned long long)vs.skipped,
				vs.skipped == 1 ? "" : "s");
			return EXIT_EQUIV;
		}
		return EXIT_OK;
	}
	if (s == HILO_DRIVER_PASS_ERROR)
		return EXIT_INPUT;
	if (s == HILO_DRIVER_VERIFY_ERROR)
		return EXIT_INTERNAL;
	if (!o->equiv_n)
		return EXIT_OK;
	/* the "before" program: the input parsed again */
	hilo_equiv_report r;
	cli_check_module(o->format, text, len, fname, m, o->equiv_n, o->seed, o->eval_budget,
		o->assume_no_signed_zeros, &r);
	if (r.status == 1) {
		/* the whole-module comparison cannot say which rewrite broke it;
		 * it names the passes that changed the module */
		char who[512] = "";
		size_t wl = 0;
		for (size_t k = 0; k < o->npasses && st[k].pass; k++)
			if (st[k].result == HILO_PASS_CHANGED && wl < sizeof who)
				wl += (size_t)snprintf(who + wl, sizeof who - wl, "%s%s", wl ? ", " : "",
					st[k].pass);
		hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0,
			"equivalence check failed: %s; module changed by pass %s", r.message,
			who[0] ? who : "(none)");
		return EXIT_EQUIV;
	}
	if (r.status == 3) {
		hilo_diag_oom(d, fname);
		return EXIT_INPUT;
	}
	if (r.status == 2)
		fprintf(stderr, "equivalence: skipped (%s)%s\n", r.message,
			strstr(r.message, "budget") ? "; --eval-budget=N raises the budget" : "");
	else if (o->assume_no_signed_zeros)
		fprintf(stderr, "equivalence: module outputs agree, compared modulo the sign of zero "
			"(--assume-no-signed-zeros)\n");
	return EXIT_OK;
}

/* --extract=NAME and --around=NAME name an instruction of the module (as
 * the passes left it; a leading '%' as the text writes it): a name it does
 * not hold is a usage error, "hilo-opt: error: --extract: no instruction
 * named 'X' in FILE", with the closest name. */
static bool names_instr(const hilo_module *m, const char *flag, const char *name, const char *fname)
{
	const char *want = name[0] == '%' ? name + 1 : name;
	cli_near s;
	cli_near_init(&s, want, strlen(want));
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (const hilo_instr *i = m->comps[c]->first; i; i = i->next) {
			if (!strcmp(i->name, want))
				return true;
			cli_near_offer(&s, i->name);
		}
	fprintf(stderr, "hilo-opt: error: %s: no instruction named '%s' in %s", flag, name, fname);
	if (cli_near_best(&s))
		fprintf(stderr, " (did you mean '%s'?)", cli_near_best(&s));
	fputc('\n', stderr);
	return false;
}

/* Appends what the user asked for to out: the module (text or proto),
 * its DOT picture, its statistics, or an extracted sub-module. */
static int write_result(const options *o, const char *fname, hilo_module *m,
	hilo_buf *out, hilo_diags *d)
{
	hilo_module *x = NULL;
	if (o->extract && !names_instr(m, "--extract", o->extract, fname))
		return EXIT_USAGE;
	if (o->extract) {
		if (!(x = hilo_extract(m, o->extract, o->height, d)))
			return EXIT_INPUT;
		m = x;
	}
	if (o->around && !names_instr(m, "--around", o->around, fname)) {
		hilo_module_destroy(x); /* --around names an instruction of the extracted module */
		return EXIT_USAGE;
	}
	int rc = EXIT_OK;
	if (o->emit_dot) {
		hilo_dot_opts dopt = {.around = o->around, .depth = o->depth,
			.max_nodes = o->around ? 0 : 20000};
		if (!hilo_write_dot(out, m, &dopt, d))
			rc = d->oom ? EXIT_INPUT : EXIT_USAGE;
	} else if (o->stats_ops) {
		hilo_write_stats(out, m, o->stats_ops == 2);
	} else if (o->emit_pbtxt) {
		if (!hilo_proto_write_text(out, m, o->form, d))
			rc = EXIT_INPUT;
	} else if (o->emit_proto) {
		if (!hilo_proto_write_as(out, m, o->form, d))
			rc = EXIT_INPUT;
	} else if (!hilo_print_text(out, m, o->style)) {
		hilo_diag_oom(d, fname);
		rc = EXIT_INPUT;
	}
	if (x)
		hilo_module_destroy(x);
	return rc;
}

/* Processes one module's text; appends the output to out. */
static int process(const options *o, const char *text, size_t len, int line_offset,
	hilo_buf *out, hilo_diags *d)
{
	const char *fname = strcmp(o->input, "-") ? o->input : "<stdin>";
	size_t first = d->n;
	hilo_module *m = cli_parse_module(o->format, text, len, fname, d);
	if (!m) {
		for (size_t k = first; k < d->n; k++)
			if (d->items[k].line)
				d->items[k].line += line_offset;
		return EXIT_INPUT;
	}
	int rc = EXIT_OK;
	if (!hilo_verify(m, fname, d)) {
		rc = EXIT_INPUT;
	} else if ((rc = run_passes(o, fname, m, text, len, d)) != EXIT_OK) {
		/* diagnostics say why */
	} else {
		rc = write_result(o, fname, m, out, d);
	}
	/* show the source line under verifier errors too */
	cli_attach_source_lines(d, first, text, len);
	for (size_t k = first; k < d->n; k++)
		if (d->items[k].line)
			d->items[k].line += line_offset;
	hilo_module_destroy(m);
	return rc;
}

/* True when text has only blank lines and // comment lines. */
static bool chunk_is_empty(const char *text, size_t len)
{
	const char *p = text, *e = text + len;
	while (p < e) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < e && *p != '\n' && !(e - p >= 2 && p[0] == '/' && p[1] == '/'))
			return false;
		while (p < e && *p != '\n')
			p++;
		p++;
	}
	return true;
}

static void print_pass_list(bool all, const hilo_plugins *plugins)
{
	size_t n;
	const hilo_pass *p = hilo_pass_list(&n);
	const char *path;
	for (size_t k = 0; k < n; k++)
		if (all || !p[k].test_only) {
			printf("%-44s %s%s", p[k].name, p[k].test_only ? "(test only) " : "",
				p[k].description);
			for (size_t a = 0; hilo_pass_alias(&p[k], a); a++)
				printf("%s%s", a ? ", " : " (alias: ", hilo_pass_alias(&p[k], a));
			puts(hilo_pass_alias(&p[k], 0) ? ")" : "");
		}
	for (size_t k = 0; (p = hilo_plugins_pass(plugins, k, &path)); k++)
		printf("%-44s (plugin %s) %s\n", p->name, path, p->description);
}

static int hilo_opt(int argc, char **argv, hilo_plugins *plugins)
{
	options o;
	int rc = parse_args(argc, argv, &o, plugins);
	if (rc == EXIT_OK && o.batch) {
		batch_config bc = {"hilo-opt", o.passes, o.npasses, o.style, o.format, o.verify_each,
			o.unroll_markers, o.assume_equivalent_kernels, o.assume_no_signed_zeros,
			o.disable_slice_move, o.equiv_n, o.equiv_module, o.equiv_strict, o.seed,
			o.eval_budget, o.jobs, o.out_dir, o.batch_summary, o.inputs, o.ninputs};
		return batch_run(&bc);
	}
	if (rc != EXIT_OK || o.list_passes) {
		if (rc == EXIT_OK)
			print_pass_list(o.list_all, plugins);
		if (o.dump_re_set)
			regfree(&o.dump_re);
		return rc == -1 ? EXIT_OK : rc;
	}
	hilo_diags d;
	hilo_diags_init(&d);
	d.max_errors = 20;
	size_t len, dump_seq = 0;
	o.dump_seq = &dump_seq;
	/* --dump-after-each: the folder exists before anything runs */
	char *text = !o.dump_dir || cli_make_dir(o.dump_dir, "--dump-after-each", NULL, &d)
		? cli_read_input(o.input, "'HloModule'", &len, &d) : NULL;
	if (!text) {
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
		if (o.dump_re_set)
			regfree(&o.dump_re);
		return EXIT_INPUT;
	}
	char *remarks_data = NULL;
	size_t remarks_len = 0;
	o.remarks_data = &remarks_data;
	o.remarks_len = &remarks_len;
	if (o.remarks_path || o.report_path) {
		/* collected in memory, written at the end by the output routine
		 * (the report reads the declined candidates from them) */
		o.remarks = open_memstream(&remarks_data, &remarks_len);
		if (!o.remarks) {
			fprintf(stderr, "hilo-opt: error: out of memory for the remarks\n");
			hilo_diags_free(&d);
			free(text);
			return EXIT_INPUT;
		}
	}
	hilo_buf out;
	hilo_buf_init(&out);
	if (o.split && !(o.format == 2 || (o.format == 0 && hilo_proto_looks_binary(text, len)))) {
		/* chunks separated by lines that start with "// -----" */
		const char *p = text, *e = text + len, *chunk = text;
		int line = 0, chunk_line = 0;
		bool first = true;
		while (p <= e) {
			const char *nl = memchr(p, '\n', (size_t)(e - p));
			const char *le = nl ? nl : e;
			bool sep = le - p >= 8 && !memcmp(p, "// -----", 8);
			if (sep || p >= e || !nl) {
				const char *cend = sep ? p : e;
				/* a chunk of only blank and comment lines (a trailing
				 * separator, say) holds no module: skipped, as XLA's
				 * tools skip it */
				if (!chunk_is_empty(chunk, (size_t)(cend - chunk))) {
					if (!first)
						hilo_buf_puts(&out, "// -----\n");
					int r = process(&o, chunk, (size_t)(cend - chunk), chunk_line, &out, &d);
					if (r > rc)
						rc = r;
					first = false;
				}
				if (!sep)
					break;
				chunk = nl ? nl + 1 : e;
				chunk_line = line + 1;
			}
			line++;
			if (!nl)
				break;
			p = nl + 1;
		}
	} else {
		rc = process(&o, text, len, 0, &out, &d);
	}
	hilo_diags_print(stderr, &d);
	/* -o and --remarks: one output routine ("-" = stdout, devices and
	 * FIFOs in place, files atomically); remarks are written even when
	 * a pass failed, the output only on success */
	hilo_diags wd;
	hilo_diags_init(&wd);
	if (o.remarks && fclose(o.remarks) != 0) {
		fprintf(stderr, "hilo-opt: error: out of memory for the remarks\n");
		rc = rc == EXIT_OK ? EXIT_INPUT : rc;
	} else if (o.remarks_path && !hilo_write_output(o.remarks_path, remarks_data, remarks_len, &wd)) {
		rc = rc == EXIT_OK ? EXIT_INPUT : rc;
	}
	if (rc == EXIT_OK && out.oom) {
		fprintf(stderr, "hilo-opt: error: out of memory\n");
		rc = EXIT_INPUT;
	} else if (rc == EXIT_OK && !hilo_write_output(o.output ? o.output : "-", out.data, out.len, &wd)) {
		rc = EXIT_INPUT;
	}
	hilo_diags_print(stderr, &wd);
	hilo_diags_free(&wd);
	free(remarks_data);
	hilo_buf_free(&out);
	hilo_diags_free(&d);
	free(text);
	if (o.dump_re_set)
		regfree(&o.dump_re);
	return rc;
}

/* The plugin registry outlives every pass run: their code is unloaded last. */
int main(int argc, char **argv)
{
	hilo_plugins *plugins = hilo_plugins_create();
	int rc = hilo_opt(argc, argv, plugins);
	hilo_plugins_destroy(plugins);
	return rc;
}
