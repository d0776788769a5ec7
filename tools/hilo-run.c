/* hilo-run - evaluates an HLO module's entry computation with the
 * reference evaluator.
 *
 *   hilo-run MODULE [--seed=S] [--input=FILE ...] [--print] [--budget=N]
 *            [-o OUT] [--output-dir=DIR]
 *
 * MODULE is HLO text or a binary HloModuleProto, HloProto or HloSnapshot
 * (detected from content). A snapshot runs on its own argument literals,
 * as XLA's run_hlo_module replays it, unless --input or --seed is given;
 * --snapshot=FILE writes one (the module, the inputs used and the result)
 * that either tool replays. Otherwise inputs are seeded pseudo-random
 * values (--seed, default 0), or files,
 * one --input per entry parameter in order: NumPy .npy files (detected by
 * their magic; include/hilo/npy.h says how bf16 and f8 are stored) or HLO
 * literal text (e.g. "f32[2] {1, 2}"). Standard error names the inputs
 * used (seed and shapes); --print also prints each input there. Outputs
 * are printed as HLO literals with --print, otherwise as one summary line
 * per output (shape and a hash of the bytes), to standard output or -o
 * OUT; --output-dir=DIR also writes each output as DIR/output_K.npy
 * (tuple leaves as output_K_J.npy). Exit status: 0 ok, 1 bad input or
 * evaluation failure, 2 usage error.
 */
#include "hilo/eval.h"
#include "hilo/hlo_text.h"
#include "hilo/npy.h"
#include "hilo/proto.h"
#include "hilo/verify.h"
#include "hilo/version.h"
#include "common/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define USAGE \
	"usage: hilo-run MODULE [--seed=S] [--input=FILE ...] [--print] [--budget=N]\n" \
	"                [-o OUT] [--output-dir=DIR] [--snapshot=FILE]\n" \
	"                [-h|--help] [--version]\n"

/* --help: what the tool does, every option with its default, the exit
 * status, the environment it reads, examples (man/hilo-run.1 says the same). */
static void help(void)
{
	static const char *const text[] = {
		"Evaluates the entry computation of an HLO module (HLO text or a binary",
		"HloModuleProto, HloProto or HloSnapshot, told apart by content) with the",
		"reference evaluator and prints its outputs. Standard error names the inputs",
		"used (the seed and the shapes). An HloSnapshot runs on its own arguments, as",
		"XLA's run_hlo_module replays it, unless --input or --seed is given.",
		"",
		"Options (a value goes after '=' or in the next argument; -oFILE is -o FILE; '--'",
		"ends the options; long options are never abbreviated; one dash works too,",
		"as absl writes flags: -passes=dce, unless it could be -o VALUE):",
		"  --input=FILE              the value of the next entry parameter, one --input",
		"                            per parameter in order: a NumPy .npy file (np.save;",
		"                            bf16 and f8 as raw unsigned views, see",
		"                            include/hilo/npy.h) or HLO literal text such as",
		"                            \"f32[2] {1, 2}\" (default: seeded pseudo-random",
		"                            values for every parameter; an HloSnapshot's own",
		"                            arguments)",
		"  --seed=S                  seed of the generated inputs (default 0); not with",
		"                            --input (a usage error)",
		"  --print                   print each output as an HLO literal ('output K:",
		"                            LITERAL'), and each input on standard error",
		"                            (default: 'output K: SHAPE hash=H', one line per",
		"                            output); an entry without parameters names no inputs",
		"  --budget=N                work limit of the evaluation in element operations",
		"                            (default 100000000); over it is an error (exit 1)",
		"                            located in MODULE that names this flag",
		"  -o OUT                    write the outputs to OUT (default: standard output,",
		"                            also '-'); a file is replaced atomically, only on",
		"                            success",
		"  --output-dir=DIR          also write output K as DIR/output_K.npy (the",
		"                            elements of a tuple output as DIR/output_K_J.npy);",
		"                            DIR is created before anything is computed (its",
		"                            parent must exist) and removed, still empty, when",
		"                            the run fails",
		"  --snapshot=FILE           also write an HloSnapshot to FILE: the module, the",
		"                            inputs used and the result, which hilo-run and",
		"                            XLA's run_hlo_module replay",
		"  -h, --help                print this help and exit",
		"  --version                 print the version and exit",
		"",
		"Exit status:",
		"  0  success",
		"  1  bad input: parse or verify error, unreadable or empty file, an --input that",
		"     does not match its parameter, or an evaluation that fails (over the budget,",
		"     an elided constant, an unsupported operation)",
		"  2  usage error: unknown option, bad option value, no MODULE",
		"  3  out of memory before the module was read",
		"",
		"Environment:",
		"  HILO_FAIL_ALLOC=K, HILO_FAIL_WRITE=K",
		"                            only in builds configured with",
		"                            -DHILO_FAULT_INJECTION=ON: the K-th memory",
		"                            allocation fails (reported as out of memory, exit",
		"                            1), or the K-th write of -o/--output-dir output",
		"                            fails (for testing error paths)",
		"",
		"Examples:",
		"  hilo-run model.hlo --seed=3 --print",
		"  hilo-run model.pb --input=x.npy --input=w.npy --output-dir=out",
		"  hilo-run model.hlo --input=x.txt -o outputs.txt",
	};
	fputs(USAGE "\n", stdout);
	for (size_t k = 0; k < sizeof text / sizeof *text; k++)
		puts(text[k]);
}

enum { O_SEED = CLI_LONG, O_BUDGET, O_INPUT, O_PRINT, O_OUTPUT_DIR, O_SNAPSHOT, O_VERSION };

static const struct option long_options[] = {
	{"seed", required_argument, NULL, O_SEED},
	{"budget", required_argument, NULL, O_BUDGET},
	{"input", required_argument, NULL, O_INPUT},
	{"print", no_argument, NULL, O_PRINT},
	{"output-dir", required_argument, NULL, O_OUTPUT_DIR},
	{"snapshot", required_argument, NULL, O_SNAPSHOT},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, O_VERSION},
	{NULL, 0, NULL, 0},
};

static uint64_t fnv(const hilo_literal *l, uint64_t h)
{
	if (l->shape->type == HILO_T_TUPLE) {
		for (int k = 0; k < l->ntuple; k++)
			h = fnv(l->elems[k], h);
		return h;
	}
	const unsigned char *p = l->data;
	for (size_t k = 0; k < l->nbytes; k++) {
		h ^= p[k];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Reads an input file as a literal: a .npy file for parameter shape
 * `want`, else HLO literal text (hilo_read_input_literal). */
static hilo_literal *read_input(hilo_module *m, const char *path, const hilo_shape *want,
	hilo_diags *d)
{
	size_t len = 0;
	char *txt = hilo_read_file(path, &len, d);
	if (!txt)
		return NULL;
	hilo_literal *l = len >= 6 && !memcmp(txt, "\x93NUMPY", 6)
		? hilo_npy_read(m, txt, len, want, path, d)
		: hilo_read_input_literal(m, txt, len, path, d);
	free(txt);
	return l;
}

/* Writes each array leaf of r as DIR/output_K[_J...].npy. */
static bool write_npys(const char *dir, const hilo_literal *l, char *name, size_t at,
	size_t cap, hilo_diags *d)
{
	if (l->shape->type == HILO_T_TUPLE) {
		for (int k = 0; k < l->ntuple; k++) {
			int n = snprintf(name + at, cap - at, "_%d", k);
			if (n < 0 || (size_t)n >= cap - at || !write_npys(dir, l->elems[k], name, at + (size_t)n, cap, d))
				return false;
		}
		return true;
	}
	hilo_buf b;
	hilo_buf_init(&b);
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.npy", dir, name);
	bool ok = hilo_npy_write(&b, l);
	if (!ok)
		hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0,
			"cannot write %s as .npy (element type without a storage form, or elided)",
			hilo_ptype_name(l->shape->type));
	else
		ok = hilo_write_output(path, b.data, b.len, d);
	hilo_buf_free(&b);
	return ok;
}

/* --output-dir: an existing folder, or one created now, before the module
 * is read and evaluated (a run that fails there would otherwise compute
 * everything first). A missing parent or a file in the way is an error. */
static bool make_output_dir(const char *dir, bool *made, hilo_diags *d)
{
	struct stat st;
	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return true;
		hilo_diag_add(d, HILO_SEV_ERROR, dir, 0, 0, NULL, 0,
			"--output-dir is not a directory");
		return false;
	}
	if (mkdir(dir, 0777) == 0) {
		*made = true;
		return true;
	}
	int e = errno;
	if (e == ENOENT || e == ENOTDIR) {
		/* the parent is what is missing: name it */
		size_t n = strlen(dir);
		while (n > 1 && dir[n - 1] == '/')
			n--;
		while (n > 0 && dir[n - 1] != '/')
			n--;
		while (n > 1 && dir[n - 1] == '/')
			n--;
		hilo_diag_add(d, HILO_SEV_ERROR, dir, 0, 0, NULL, 0,
			"cannot create the --output-dir directory: '%.*s' %s", n ? (int)n : 1, n ? dir : ".",
			e == ENOENT ? "does not exist" : "is not a directory");
	} else {
		hilo_diag_add(d, HILO_SEV_ERROR, dir, 0, 0, NULL, 0,
			"cannot create the --output-dir directory: %s", strerror(e));
	}
	return false;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
	int ninputs = 0;
	uint64_t seed = 0, budget = 0;
	bool print = false, seeded = false;
	const char *outpath = NULL, *outdir = NULL, *snappath = NULL;
	if (!inputs)
		return 3;
	cli cl;
	cli_init(&cl, "hilo-run", USAGE, "o:h", long_options, argc, argv);
	int usage_rc = -1; /* set: stop with this status */
	for (int opt; usage_rc < 0 && (opt = cli_next(&cl)) != -1;) {
		switch (opt) {
		case CLI_ERROR:
			usage_rc = CLI_EXIT_USAGE;
			break;
		case O_SEED:
			if (!cli_uint(&cl, optarg, 0, UINT64_MAX, &seed))
				usage_rc = CLI_EXIT_USAGE;
			seeded = true;
			break;
		case O_BUDGET:
			if (!cli_uint(&cl, optarg, 1, UINT64_MAX, &budget))
				usage_rc = CLI_EXIT_USAGE;
			break;
		case O_INPUT:
			inputs[ninputs++] = optarg;
			break;
		case O_PRINT:
			print = true;
			break;
		case 'o':
			outpath = optarg;
			break;
		case O_SNAPSHOT:
			if (!*optarg)
				usage_rc = cli_invalid(&cl, optarg, "a file");
			snappath = optarg;
			break;
		case O_OUTPUT_DIR:
			if (!*optarg)
				usage_rc = cli_invalid(&cl, optarg, "a folder");
			outdir = optarg;
			break;
		case 'h':
			help();
			usage_rc = 0;
			break;
		case O_VERSION:
			printf("hilo-run (hilo) %s\n", hilo_version());
			usage_rc = 0;
			break;
		default:
			usage_rc = cli_error(&cl, "option %d not handled", opt); /* a bug */
		}
	}
	if (usage_rc < 0 && optind < argc)
		path = argv[optind];
	if (usage_rc < 0 && optind + 1 < argc)
		usage_rc = cli_error(&cl, "more than one module given ('%s' and '%s')", argv[optind],
			argv[optind + 1]);
	if (usage_rc < 0 && seeded && ninputs) /* it would be silently ignored */
		usage_rc = cli_error(&cl, "--seed only goes with generated inputs: --input gives every parameter");
	if (usage_rc < 0 && !path) {
		cli_error(&cl, "no module given");
		cli_usage(&cl, stderr);
		usage_rc = CLI_EXIT_USAGE;
	}
	if (usage_rc >= 0) {
		free(inputs);
		return usage_rc;
	}
	int rc = 1;
	hilo_diags d;
	hilo_diags_init(&d);
	size_t len = 0;
	char *src = NULL;
	hilo_module *m = NULL;
	bool made_dir = false; /* --output-dir created here: removed again on failure */
	const char *fname = strcmp(path, "-") ? path : "<stdin>"; /* in messages, as hilo-opt names it */
	if (outdir && !make_output_dir(outdir, &made_dir, &d))
		goto done;
	src = cli_read_input(path, "'HloModule'", &len, &d);
	m = !src ? NULL : hilo_proto_looks_binary(src, len) ? hilo_proto_read(src, len, fname, &d)
		: hilo_proto_looks_text(src, len) ? hilo_proto_read_text(src, len, fname, &d)
		: hilo_parse_text(src, len, fname, &d);
	if (!m || !hilo_verify(m, fname, &d))
		goto done;
	const hilo_comp *c = m->entry;
	if (!c) {
		hilo_diag_add(&d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0, "module has no entry computation");
		goto done;
	}
	hilo_literal **args, **snap_args;
	size_t nsnap = 0;
	if (!hilo_proto_snapshot_args(m, &snap_args, &nsnap, &d))
		goto done;
	bool from_snapshot = nsnap && !ninputs && !seeded;
	if (from_snapshot) {
		if (nsnap != c->nparams) {
			hilo_diag_add(&d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0,
				"the snapshot has %zu arguments for %u entry parameters", nsnap, c->nparams);
			goto done;
		}
		for (uint32_t k = 0; k < c->nparams; k++)
			if (!hilo_shape_compatible(snap_args[k]->shape, c->params[k]->shape)) {
				hilo_diag_add(&d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0,
					"snapshot argument %u has shape %s, parameter %u's is %s", k,
					hilo_shape_str(m->arena, snap_args[k]->shape), k,
					hilo_shape_str(m->arena, c->params[k]->shape));
				goto done;
			}
		args = snap_args;
	} else if (ninputs) {
		if ((uint32_t)ninputs != c->nparams) {
			hilo_diag_add(&d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0,
				"%d --input files for %u entry parameters", ninputs, c->nparams);
			goto done;
		}
		args = hilo_arena_alloc(m->arena, ((size_t)ninputs + 1) * sizeof *args);
		for (int k = 0; args && k < ninputs; k++) {
			args[k] = read_input(m, inputs[k], c->params[k]->shape, &d);
			if (!args[k])
				goto done;
			if (!hilo_shape_compatible(args[k]->shape, c->params[k]->shape)) {
				hilo_diag_add(&d, HILO_SEV_ERROR, inputs[k], 0, 0, NULL, 0,
					"input shape %s does not match parameter %d's shape %s",
					hilo_shape_str(m->arena, args[k]->shape), k,
					hilo_shape_str(m->arena, c->params[k]->shape));
				goto done;
			}
		}
	} else {
		args = hilo_eval_random_args(m, c, seed, budget, &d);
	}
	if (!args)
		goto done;
	/* say what went in (nothing for an entry without parameters) */
	if (c->nparams) {
		hilo_buf in;
		hilo_buf_init(&in);
		if (from_snapshot)
			hilo_buf_puts(&in, "hilo-run: inputs from the snapshot:");
		else if (ninputs)
			hilo_buf_puts(&in, "hilo-run: inputs from files:");
		else
			hilo_buf_printf(&in, "hilo-run: random inputs (seed %llu):", (unsigned long long)seed);
		for (uint32_t k = 0; k < c->nparams; k++) {
			hilo_buf_puts(&in, k ? ", " : " ");
			hilo_shape_print_human(&in, c->params[k]->shape);
		}
		hilo_buf_putc(&in, '\n');
		for (uint32_t k = 0; print && k < c->nparams; k++) {
			hilo_buf_printf(&in, "input %u: ", k);
			hilo_print_literal(&in, args[k], true);
			hilo_buf_putc(&in, '\n');
		}
		fwrite(in.data ? in.data : "", 1, in.len, stderr);
		hilo_buf_free(&in);
	}
	hilo_eval_opts o = {budget};
	hilo_literal *r = hilo_eval_comp(m, c, args, &o, &d);
	if (!r)
		goto done;
	hilo_buf b;
	hilo_buf_init(&b);
	int nout = r->shape->type == HILO_T_TUPLE ? r->ntuple : 1;
	for (int k = 0; k < nout; k++) {
		const hilo_literal *l = r->shape->type == HILO_T_TUPLE ? r->elems[k] : r;
		hilo_buf_printf(&b, "output %d: ", k);
		if (print) {
			hilo_print_literal(&b, l, true);
			hilo_buf_putc(&b, '\n');
		} else {
			hilo_shape_print(&b, l->shape);
			hilo_buf_printf(&b, " hash=%016llx\n",
				(unsigned long long)fnv(l, 0xcbf29ce484222325ull));
		}
	}
	/* -o or standard output: the one output routine ("-" unbuffered,
	 * write errors reported) */
	bool wrote = !b.oom && hilo_write_output(outpath ? outpath : "-", b.data ? b.data : "", b.len, &d);
	if (b.oom)
		hilo_diag_oom(&d, NULL);
	hilo_buf_free(&b);
	if (!wrote)
		goto done;
	if (snappath) {
		hilo_buf sb;
		hilo_buf_init(&sb);
		bool ok = hilo_proto_write_snapshot(&sb, m, (const hilo_literal *const *)args, c->nparams, r, &d) &&
			hilo_write_output(snappath, sb.data ? sb.data : "", sb.len, &d);
		hilo_buf_free(&sb);
		if (!ok)
			goto done;
	}
	if (outdir) {
		char name[256];
		for (int k = 0; k < nout; k++) {
			const hilo_literal *l = r->shape->type == HILO_T_TUPLE ? r->elems[k] : r;
			int n = snprintf(name, sizeof name, "output_%d", k);
			if (!write_npys(outdir, l, name, (size_t)n, sizeof name, &d))
				goto done;
		}
	}
	rc = 0;
done:
	if (rc && made_dir)
		rmdir(outdir); /* only when still empty */
	/* the evaluator locates its errors by line and column: name the file;
	 * a budget it ran over: name the flag that raises it (the library's
	 * message does not know the tool's flags; this list is the tool's own,
	 * malloc'ed) */
	for (size_t k = 0; k < d.n; k++) {
		hilo_diag *g = &d.items[k];
		if (!g->file && g->line > 0)
			g->file = strdup(fname);
		static const char hint[] = "; --budget=N raises it";
		char *more = g->msg && strstr(g->msg, "over the evaluation budget of")
			? malloc(strlen(g->msg) + sizeof hint) : NULL;
		if (more) {
			strcat(strcpy(more, g->msg), hint);
			free(g->msg);
			g->msg = more;
		}
	}
	hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	if (m)
		hilo_module_destroy(m);
	free(src);
	free(inputs);
	return rc;
}
