/* pto-opt - the PyPTO-program CLI for LegalizeGraphBoundary (docs/pto.md).
 *
 *   pto-opt [INPUT|-] [-o OUT] [--passes=legalize-graph-boundary[,verify-graph-boundary]]
 *           [--runtime=host_build_graph|tensormap_and_ringbuffer] [--no-verify]
 *
 * Default: --passes=legalize-graph-boundary under the tensormap_and_ringbuffer
 * runtime (PyPTO's default), so a Graph program needs --runtime=host_build_graph.
 * verify-graph-boundary runs after legalize-graph-boundary unless --no-verify.
 * --passes= (empty) parses and prints the program unchanged (round trip).
 *
 * Exit status: 0 ok; 1 bad input or rejected program; 2 usage error;
 * 3 internal error (the pass produced a program its verifier rejects).
 * -o goes through the library's output routine (hilo_output_open, streamed
 * as the program is printed; the same rules as hilo_write_output): "-" is
 * stdout, a file is replaced atomically only on success, a device or FIFO
 * is written in place.
 */
#include "hilo/pto.h"
#include "hilo/version.h"
#include "common/cli.h"

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static const char *known_passes[] = { "legalize-graph-boundary", "verify-graph-boundary", NULL };

#define USAGE \
	"usage: pto-opt [INPUT|-] [-o OUT] [--passes=P1,P2,...] [--runtime=RT]\n" \
	"               [--no-verify] [--slot-loop-allocations]\n" \
	"               [--hoist-scalar-shaped-allocations] [--list-passes]\n" \
	"               [-h|--help] [--version]\n"

/* --help: what the tool does, every option with its default, the exit
 * status, the environment it reads, examples (man/pto-opt.1 says the same). */
static void help(void)
{
	static const char *const text[] = {
		"Reads a PyPTO program (as PyPTO's printer writes it) from INPUT or standard",
		"input, runs the passes and prints the program in the same style; an unchanged",
		"program prints back byte for byte.",
		"",
		"The default runtime is tensormap_and_ringbuffer, PyPTO's default: a program with",
		"a FunctionType.Graph function is rejected there (error GB001) and needs",
		"--runtime=host_build_graph.",
		"",
		"Options (a value goes after '=' or in the next argument; -oFILE is -o FILE; '--'",
		"ends the options; long options are never abbreviated; one dash works too,",
		"as absl writes flags: -passes=dce, unless it could be -o VALUE):",
		"  -o OUT                    write the program to OUT (default: standard output,",
		"                            also '-'); a file is replaced atomically, only on",
		"                            success",
		"  --passes=P1,P2,...        run these passes in order (default:",
		"                            legalize-graph-boundary); empty (--passes=) prints",
		"                            the input unchanged",
		"  --runtime=RT              the runtime the program is compiled for:",
		"                            host_build_graph or tensormap_and_ringbuffer",
		"                            (default: tensormap_and_ringbuffer)",
		"  --no-verify               do not run verify-graph-boundary after",
		"                            legalize-graph-boundary (default: it runs, and a",
		"                            violation is an internal error)",
		"  --slot-loop-allocations   beyond PyPTO: an allocation in a loop with a",
		"                            constant trip count becomes a slot of one buffer",
		"                            allocated at the call site (default: it stays in the",
		"                            loop)",
		"  --hoist-scalar-shaped-allocations",
		"                            beyond PyPTO: an allocation whose shape reads",
		"                            boundary scalars is created at the call site, which",
		"                            computes the shape, and passed in (default: GB010)",
		"  --list-passes             print the known passes and exit",
		"  -h, --help                print this help and exit",
		"  --version                 print the version and exit",
		"",
		"Exit status:",
		"  0  success",
		"  1  bad input (unreadable or empty file, located parse error, a file that",
		"     defines no function: not a PyPTO program) or a rejected program (error",
		"     GBnnn)",
		"  2  usage error: unknown option, pass or runtime, an empty pass name",
		"  3  internal error: legalize-graph-boundary produced a program its verifier",
		"     rejects",
		"",
		"Environment:",
		"  HILO_FAIL_ALLOC=K, HILO_FAIL_WRITE=K",
		"                            only in builds configured with",
		"                            -DHILO_FAULT_INJECTION=ON: the K-th memory",
		"                            allocation fails (reported as out of memory), or the",
		"                            K-th write of -o output fails (for testing error",
		"                            paths)",
		"",
		"Examples:",
		"  pto-opt --runtime=host_build_graph examples/pto/decoder_layer.py",
		"  pto-opt --runtime=host_build_graph model.py -o model.legal.py",
		"  pto-opt --passes=verify-graph-boundary --runtime=host_build_graph model.py",
	};
	fputs(USAGE "\n", stdout);
	for (size_t k = 0; k < sizeof text / sizeof *text; k++)
		puts(text[k]);
}

enum { O_PASSES = CLI_LONG, O_RUNTIME, O_SLOT, O_SCALAR_SHAPES, O_NO_VERIFY, O_LIST_PASSES, O_VERSION };

static const struct option long_options[] = {
	{"passes", required_argument, NULL, O_PASSES},
	{"runtime", required_argument, NULL, O_RUNTIME},
	{"slot-loop-allocations", no_argument, NULL, O_SLOT},
	{"hoist-scalar-shaped-allocations", no_argument, NULL, O_SCALAR_SHAPES},
	{"no-verify", no_argument, NULL, O_NO_VERIFY},
	{"list-passes", no_argument, NULL, O_LIST_PASSES},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, O_VERSION},
	{NULL, 0, NULL, 0},
};

static void list_passes(FILE *f)
{
	fprintf(f, "known passes:\n");
	for (int i = 0; known_passes[i]; i++)
		fprintf(f, "  %s\n", known_passes[i]);
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
	/* A fixed mmap threshold: glibc's dynamic one rises to the size of a
	 * freed scratch table (the passes free theirs as they go), after which
	 * tables of that size come from the brk heap and stay resident once
	 * freed - several MB of the peak on 100k-statement programs. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	const char *input = NULL, *output = NULL, *passes = "legalize-graph-boundary";
	hilo_pto_runtime rt = HILO_PTO_RUNTIME_TENSORMAP_AND_RINGBUFFER;
	bool verify_after = true, list = false;
	unsigned flags = 0;
	cli c;
	cli_init(&c, "pto-opt", USAGE, "o:h", long_options, argc, argv);
	for (int opt; (opt = cli_next(&c)) != -1;) {
		const char *a = optarg;
		switch (opt) {
		case CLI_ERROR:
			return CLI_EXIT_USAGE;
		case 'o':
			output = a;
			break;
		case O_PASSES:
			passes = a;
			break;
		case O_RUNTIME:
			if (!strcmp(a, "host_build_graph"))
				rt = HILO_PTO_RUNTIME_HOST_BUILD_GRAPH;
			else if (!strcmp(a, "tensormap_and_ringbuffer"))
				rt = HILO_PTO_RUNTIME_TENSORMAP_AND_RINGBUFFER;
			else
				return cli_error(&c, "unknown runtime '%s' (known: host_build_graph, "
					"tensormap_and_ringbuffer)", a);
			break;
		case O_SLOT:
			flags |= HILO_PTO_SLOT_LOOP_ALLOCATIONS;
			break;
		case O_SCALAR_SHAPES:
			flags |= HILO_PTO_HOIST_SCALAR_SHAPED_ALLOCATIONS;
			break;
		case O_NO_VERIFY:
			verify_after = false;
			break;
		case O_LIST_PASSES:
			list = true;
			break;
		case 'h':
			help();
			return 0;
		case O_VERSION:
			printf("pto-opt (hilo) %s\n", hilo_version());
			return 0;
		default:
			return cli_error(&c, "option %d not handled", opt); /* a bug */
		}
	}
	if (list) {
		list_passes(stdout);
		return 0;
	}
	if (optind < argc)
		input = argv[optind];
	if (optind + 1 < argc)
		return cli_error(&c, "more than one input ('%s' and '%s')", argv[optind], argv[optind + 1]);
	/* validate the pass list before touching the input; "--passes=" is
	 * print-only, an empty name in a list ("a,,b") a usage error */
	size_t plen = strlen(passes);
	if (plen && (passes[0] == ',' || passes[plen - 1] == ',' || strstr(passes, ",,")))
		return cli_error(&c, "empty pass name in --passes '%s'", passes);
	char *plist = strdup(passes);
	if (!plist)
		return 3;
	const char *pass_v[16];
	int npass = 0;
	for (char *save = NULL, *tok = strtok_r(plist, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool known = false;
		for (int k = 0; known_passes[k]; k++)
			known |= !strcmp(tok, known_passes[k]);
		if (!known) {
			cli_near near;
			cli_near_init(&near, tok, strlen(tok));
			for (int k = 0; known_passes[k]; k++)
				cli_near_offer(&near, known_passes[k]);
			fprintf(stderr, "pto-opt: error: unknown pass '%s'", tok);
			if (cli_near_best(&near))
				fprintf(stderr, " (did you mean '%s'?)", cli_near_best(&near));
			fputc('\n', stderr);
			list_passes(stderr);
			free(plist);
			return 2;
		}
		if (npass == 16) {
			fprintf(stderr, "pto-opt: error: too many passes\n");
			free(plist);
			return 2;
		}
		pass_v[npass++] = tok;
	}

	const char *name = input && strcmp(input, "-") ? input : "<stdin>";
	hilo_diags d;
	hilo_diags_init(&d);
	d.max_errors = 50;
	int rc = 0;
	/* the file entry point: the text is freed once parsed (a file's; stdin
	 * is kept), and the checks of cli_read_input (unreadable, directory,
	 * only whitespace) with its messages */
	hilo_pto_program *p = hilo_pto_parse_file(input ? input : "-", name, &d);
	if (!p) {
		rc = 1;
		goto done;
	}
	bool verified_explicitly = false;
	for (int i = 0; i < npass; i++)
		verified_explicitly |= !strcmp(pass_v[i], "verify-graph-boundary");
	for (int i = 0; i < npass && !rc; i++) {
		if (!strcmp(pass_v[i], "legalize-graph-boundary")) {
			if (hilo_pto_legalize_graph_boundary_ex(p, rt, flags, &d) != 0) {
				rc = 1;
				break;
			}
			if (verify_after && !verified_explicitly && hilo_pto_verify_graph_boundary(p, &d) != 0) {
				rc = 1;
				if (d.oom) /* reported as such: not a pass bug */
					break;
				fprintf(stderr, "pto-opt: internal error: legalize-graph-boundary produced a program "
					"verify-graph-boundary rejects\n");
				rc = 3;
			}
		} else if (hilo_pto_verify_graph_boundary(p, &d) != 0) {
			rc = 1;
		}
	}
	hilo_output *out = rc ? NULL : hilo_output_open(output ? output : "-", &d);
	if (!rc && !out)
		rc = 1;
	if (out) {
		/* streamed: a file output is written as it is printed (the
		 * printed program is not held whole); published only at the end */
		hilo_buf b;
		hilo_buf_init(&b);
		hilo_buf_stream_to(&b, out);
		hilo_pto_print(p, &b);
		hilo_buf_stream_end(&b);
		if (b.oom && hilo_output_ok(out)) {
			fprintf(stderr, "pto-opt: error: out of memory\n");
			hilo_output_close(out, false);
			rc = 1;
		} else if (!hilo_output_close(out, true)) {
			rc = 1;
		}
		hilo_buf_free(&b);
	}
done:
	hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	hilo_pto_program_destroy(p);
	free(plist);
	return rc;
}
