/* hilo-run - evaluates an HLO module's entry computation with the
 * reference evaluator.
 *
 *   hilo-run MODULE [--seed=S] [--input=FILE ...] [--print] [--budget=N]
 *            [-o OUT] [--output-dir=DIR] [--snapshot=FILE]
 *            [--compare=OTHER [--rtol=R] [--atol=A]]
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
 * (tuple leaves as output_K_J.npy).
 *
 * --compare=OTHER runs a second module (loaded as MODULE is) on the same
 * inputs and compares each output with OTHER's, the reference, within
 * tolerances (hilo_literal_compare_near, as XLA's run_hlo_module compares
 * its test platform's result against its reference platform's); the
 * output lines then say, per output, ok or how many elements mismatch and
 * the worst one.
 *
 * Exit status: 0 ok (with --compare: every output agrees), 1 bad input or
 * evaluation failure, 2 usage error, 3 out of memory before the module was
 * read, 4 with --compare: an output differs (hilo-opt's exit status when
 * its equivalence check finds a changed result).
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
#include <unistd.h>

#define USAGE \
	"usage: hilo-run MODULE [--seed=S] [--input=FILE ...] [--print] [--budget=N]\n" \
	"                [-o OUT] [--output-dir=DIR] [--snapshot=FILE]\n" \
	"                [--compare=OTHER [--rtol=R] [--atol=A]]\n" \
	"                [-h|--help] [--version]\n"

/* --compare's default tolerances: run_hlo_module's (its abs_error_bound
 * and rel_error_bound flags) */
#define DEFAULT_RTOL 1e-3
#define DEFAULT_ATOL 1e-3

enum { EXIT_DIFFER = 4 }; /* --compare: an output is outside the tolerance */

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
		"  --compare=OTHER           also run OTHER (HLO text or proto, read as MODULE",
		"                            is) on the same inputs and compare its outputs, the",
		"                            reference, with MODULE's: one line per output, 'ok'",
		"                            or 'mismatch' with the count of elements outside",
		"                            the tolerance, and the worst element (index, both",
		"                            values, absolute and relative error); exit 4 when",
		"                            an output differs. The entry parameters and results",
		"                            must have the same shapes (else exit 1, naming the",
		"                            first that differs). Not with --print",
		"  --rtol=R, --atol=A        with --compare: a float element agrees when",
		"                            |x - ref| <= A + R * |ref| (default 1e-3 each, as",
		"                            run_hlo_module's error bounds); NaN agrees with",
		"                            NaN, an infinity only with itself, complex values",
		"                            per component, integers and pred exactly",
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
		"  4  with --compare: an output of MODULE differs from OTHER's",
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
		"  hilo-run opt.hlo --compare=model.hlo --seed=1 --rtol=1e-5 --atol=1e-6",
	};
	fputs(USAGE "\n", stdout);
	for (size_t k = 0; k < sizeof text / sizeof *text; k++)
		puts(text[k]);
}

enum {
	O_SEED = CLI_LONG, O_BUDGET, O_INPUT, O_PRINT, O_OUTPUT_DIR, O_SNAPSHOT, O_COMPARE, O_RTOL,
	O_ATOL, O_VERSION,
};

static const struct option long_options[] = {
	{"seed", required_argument, NULL, O_SEED},
	{"budget", required_argument, NULL, O_BUDGET},
	{"input", required_argument, NULL, O_INPUT},
	{"print", no_argument, NULL, O_PRINT},
	{"output-dir", required_argument, NULL, O_OUTPUT_DIR},
	{"snapshot", required_argument, NULL, O_SNAPSHOT},
	{"compare", required_argument, NULL, O_COMPARE},
	{"rtol", required_argument, NULL, O_RTOL},
	{"atol", required_argument, NULL, O_ATOL},
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

/* Reads MODULE (or --compare's OTHER): HLO text, a binary or text proto
 * told apart by content, verified, with an entry computation. NULL (+
 * diagnostic) otherwise; *src holds the file's text, freed by the caller
 * after the module. */
static hilo_module *load_module(const char *path, const char *fname, char **src, hilo_diags *d)
{
	size_t len = 0;
	*src = cli_read_input(path, "'HloModule'", &len, d);
	hilo_module *m = !*src ? NULL
		: hilo_proto_looks_binary(*src, len) ? hilo_proto_read(*src, len, fname, d)
		: hilo_proto_looks_text(*src, len) ? hilo_proto_read_text(*src, len, fname, d)
		: hilo_parse_text(*src, len, fname, d);
	if (m && hilo_verify(m, fname, d) && m->entry)
		return m;
	if (m && !d->nerrors)
		hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0, "module has no entry computation");
	if (m)
		hilo_module_destroy(m);
	return NULL;
}

/* The evaluator locates its errors by line and column only: the
 * diagnostics from `first` on that have a line but no file get fname
 * (malloc'ed: the list is the tool's own). */
static void name_file(hilo_diags *d, size_t first, const char *fname)
{
	for (size_t k = first; k < d->n; k++)
		if (!d->items[k].file && d->items[k].line > 0)
			d->items[k].file = strdup(fname);
}

/* --compare: both entries take the same parameters and give the same
 * result (element types and dims; layouts aside, as literals are
 * row-major). Otherwise an error at OTHER naming the first difference,
 * the shapes as signatures print them (without layouts). */
static bool same_signature(const hilo_module *m, const char *mname, const hilo_module *o,
	const char *oname, hilo_diags *d)
{
	const hilo_comp *a = m->entry, *b = o->entry;
	uint32_t n = a->nparams < b->nparams ? a->nparams : b->nparams, k = 0;
	while (k < n && hilo_shape_compatible(a->params[k]->shape, b->params[k]->shape))
		k++;
	bool results = k == n && a->nparams == b->nparams;
	if (results && hilo_shape_compatible(a->root->shape, b->root->shape))
		return true;
	hilo_buf sa, sb;
	hilo_buf_init(&sa);
	hilo_buf_init(&sb);
	if (k < n || results) {
		hilo_shape_print_human(&sa, results ? a->root->shape : a->params[k]->shape);
		hilo_shape_print_human(&sb, results ? b->root->shape : b->params[k]->shape);
	}
	if (results)
		hilo_diag_add(d, HILO_SEV_ERROR, oname, 0, 0, NULL, 0,
			"--compare: the entry results differ: %s in %s, %s in %s",
			hilo_buf_cstr(&sb), oname, hilo_buf_cstr(&sa), mname);
	else if (k < n)
		hilo_diag_add(d, HILO_SEV_ERROR, oname, 0, 0, NULL, 0,
			"--compare: entry parameter %u differs: %s (%%%s) in %s, %s (%%%s) in %s", k,
			hilo_buf_cstr(&sb), b->params[k]->name, oname, hilo_buf_cstr(&sa),
			a->params[k]->name, mname);
	else
		hilo_diag_add(d, HILO_SEV_ERROR, oname, 0, 0, NULL, 0,
			"--compare: entry parameter %u (%%%s) is only in %s (%s has %u parameters, %s %u)", n,
			(a->nparams > n ? a : b)->params[n]->name, a->nparams > n ? mname : oname,
			mname, a->nparams, oname, b->nparams);
	hilo_buf_free(&sa);
	hilo_buf_free(&sb);
	return false;
}

/* --compare's report: one line per output of r (MODULE's) against ref
 * (OTHER's); true when every output agrees. */
static bool report_compare(hilo_buf *b, const hilo_literal *r, const hilo_literal *ref,
	const hilo_near_opts *tol)
{
	bool tuple = r->shape->type == HILO_T_TUPLE;
	int nout = tuple ? r->ntuple : 1, bad = 0;
	for (int k = 0; k < nout; k++) {
		const hilo_literal *x = tuple ? r->elems[k] : r, *y = tuple ? ref->elems[k] : ref;
		hilo_near_result nr;
		hilo_literal_compare_near(x, y, tol, &nr);
		hilo_buf_printf(b, "output %d: ", k);
		hilo_shape_print_human(b, x->shape);
		if (nr.shape_differs) {
			/* the signatures agreed: a shape differing here is the evaluator's */
			hilo_buf_puts(b, " mismatch: the shapes differ\n");
			bad++;
			continue;
		}
		if (nr.mismatches)
			hilo_buf_printf(b, " mismatch: %llu of %llu elements", (unsigned long long)nr.mismatches,
				(unsigned long long)nr.elements);
		else
			hilo_buf_puts(b, " ok");
		if (nr.has_worst) {
			/* %g writes an infinite error (a NaN or infinity mismatch) as inf */
			hilo_buf_printf(b, "; %s %s: %s vs %s, abs error %.6g, rel error %.6g",
				nr.worst_mismatch ? "worst" : "largest difference", nr.where, nr.test, nr.ref,
				nr.abs_err, nr.rel_err);
		}
		hilo_buf_putc(b, '\n');
		bad += nr.mismatches != 0;
	}
	if (bad)
		hilo_buf_printf(b, "compare: mismatch in %d of %d output%s (rtol=%g, atol=%g)\n", bad,
			nout, nout == 1 ? "" : "s", tol->rtol, tol->atol);
	else
		hilo_buf_printf(b, "compare: ok, %d output%s within rtol=%g, atol=%g\n", nout,
			nout == 1 ? "" : "s", tol->rtol, tol->atol);
	return !bad;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
	int ninputs = 0;
	uint64_t seed = 0, budget = 0;
	bool print = false, seeded = false;
	const char *outpath = NULL, *outdir = NULL, *snappath = NULL, *other_path = NULL;
	hilo_near_opts tol = {DEFAULT_RTOL, DEFAULT_ATOL};
	const char *tol_flag = NULL; /* --rtol or --atol given: needs --compare */
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
		case O_COMPARE:
			if (!*optarg)
				usage_rc = cli_invalid(&cl, optarg, "a module file");
			other_path = optarg;
			break;
		case O_RTOL:
		case O_ATOL:
			if (!cli_double(&cl, optarg, 0, 1e300, opt == O_RTOL ? &tol.rtol : &tol.atol))
				usage_rc = CLI_EXIT_USAGE;
			tol_flag = opt == O_RTOL ? "--rtol" : "--atol";
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
	if (usage_rc < 0 && tol_flag && !other_path) /* it would be silently ignored */
		usage_rc = cli_error(&cl, "%s only goes with --compare", tol_flag);
	if (usage_rc < 0 && other_path && print)
		usage_rc = cli_error(&cl, "--print cannot be combined with --compare: the output is the "
			"comparison (run each module with --print to see its values)");
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
	char *src = NULL, *other_src = NULL;
	hilo_module *m = NULL, *other = NULL;
	bool made_dir = false; /* --output-dir created here: removed again on failure */
	const char *fname = strcmp(path, "-") ? path : "<stdin>"; /* in messages, as hilo-opt names it */
	const char *oname = other_path && strcmp(other_path, "-") ? other_path : "<stdin>";
	if (other_path && !strcmp(path, "-") && !strcmp(other_path, "-")) {
		hilo_diag_add(&d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0,
			"MODULE and --compare cannot both be standard input");
		goto done;
	}
	if (outdir && !cli_make_dir(outdir, "--output-dir", &made_dir, &d))
		goto done;
	if (!(m = load_module(path, fname, &src, &d)))
		goto done;
	/* OTHER is read and checked before anything is evaluated: a module
	 * that cannot be compared fails at once */
	if (other_path && (!(other = load_module(other_path, oname, &other_src, &d)) ||
			   !same_signature(m, fname, other, oname, &d)))
		goto done;
	const hilo_comp *c = m->entry;
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
	hilo_literal *ref = NULL; /* --compare: OTHER's result on the same inputs */
	if (other) {
		/* the inputs, copied into OTHER's arena (a snapshot OTHER's own
		 * arguments are not used: both run on MODULE's) */
		hilo_literal **oargs = hilo_arena_alloc(other->arena, ((size_t)c->nparams + 1) * sizeof *oargs);
		for (uint32_t k = 0; oargs && k < c->nparams; k++)
			if (!(oargs[k] = hilo_literal_copy(other, args[k])))
				oargs = NULL;
		if (!oargs) {
			hilo_diag_oom(&d, oname);
			goto done;
		}
		size_t first = d.n;
		ref = hilo_eval_comp(other, other->entry, oargs, &o, &d);
		name_file(&d, first, oname);
		if (!ref)
			goto done;
	}
	hilo_buf b;
	hilo_buf_init(&b);
	int nout = r->shape->type == HILO_T_TUPLE ? r->ntuple : 1;
	bool agree = !ref || report_compare(&b, r, ref, &tol);
	for (int k = 0; !ref && k < nout; k++) {
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
	rc = agree ? 0 : EXIT_DIFFER;
done:
	if (rc && made_dir)
		rmdir(outdir); /* only when still empty */
	/* the evaluator locates its errors by line and column: name the file;
	 * a budget it ran over: name the flag that raises it (the library's
	 * message does not know the tool's flags; this list is the tool's own,
	 * malloc'ed) */
	name_file(&d, 0, fname);
	for (size_t k = 0; k < d.n; k++) {
		hilo_diag *g = &d.items[k];
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
	if (other)
		hilo_module_destroy(other);
	free(src);
	free(other_src);
	free(inputs);
	return rc;
}
