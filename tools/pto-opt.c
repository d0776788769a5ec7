/* pto-opt - the PyPTO-program CLI for LegalizeGraphBoundary (SPEC §3, §7).
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
 * -o goes through the library's output routine (hilo_write_output): "-" is
 * stdout, a file is replaced atomically only on success, a device or FIFO
 * is written in place.
 */
#include "hilo/pto.h"
#include "hilo/version.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *known_passes[] = { "legalize-graph-boundary", "verify-graph-boundary", NULL };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pto-opt [INPUT|-] [-o OUT] [--passes=P1,P2,...] [--runtime=RT] [--no-verify]\n"
		"               [--slot-loop-allocations]\n"
		"  --passes=       comma-separated passes; empty prints the input unchanged\n"
		"                  (default: legalize-graph-boundary)\n"
		"  --runtime=      host_build_graph | tensormap_and_ringbuffer (default)\n"
		"  --no-verify     do not run verify-graph-boundary after legalize-graph-boundary\n"
		"  --slot-loop-allocations\n"
		"                  beyond PyPTO: an allocation in a constant-trip loop becomes a slot\n"
		"                  of one call-site buffer instead of staying in the region\n"
		"  --list-passes   print the known passes\n"
		"exit status: 0 ok, 1 bad input or rejected program, 2 usage error, 3 internal error\n");
}

static void list_passes(FILE *f)
{
	fprintf(f, "known passes:\n");
	for (int i = 0; known_passes[i]; i++)
		fprintf(f, "  %s\n", known_passes[i]);
}

static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SIZE_MAX / 2)
		cap = (size_t)st.st_size + 1; /* one read, no regrowth */
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
	for (;;) {
		if (n == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0) {
			if (ferror(f)) {
				free(buf);
				return NULL;
			}
			break;
		}
	}
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	const char *input = NULL, *output = NULL, *passes = "legalize-graph-boundary";
	hilo_pto_runtime rt = HILO_PTO_RUNTIME_TENSORMAP_AND_RINGBUFFER;
	bool verify_after = true;
	unsigned flags = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-o")) {
			if (++i >= argc) {
				fprintf(stderr, "pto-opt: error: -o needs a file name\n");
				return 2;
			}
			output = argv[i];
		} else if (!strncmp(a, "-o", 2) && a[2]) {
			output = a + 2;
		} else if (!strncmp(a, "--passes=", 9)) {
			passes = a + 9;
		} else if (!strncmp(a, "--runtime=", 10)) {
			if (!strcmp(a + 10, "host_build_graph")) {
				rt = HILO_PTO_RUNTIME_HOST_BUILD_GRAPH;
			} else if (!strcmp(a + 10, "tensormap_and_ringbuffer")) {
				rt = HILO_PTO_RUNTIME_TENSORMAP_AND_RINGBUFFER;
			} else {
				fprintf(stderr, "pto-opt: error: unknown runtime '%s' (known: host_build_graph, "
					"tensormap_and_ringbuffer)\n", a + 10);
				return 2;
			}
		} else if (!strcmp(a, "--slot-loop-allocations")) {
			flags |= HILO_PTO_SLOT_LOOP_ALLOCATIONS;
		} else if (!strcmp(a, "--no-verify")) {
			verify_after = false;
		} else if (!strcmp(a, "--list-passes")) {
			list_passes(stdout);
			return 0;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--version")) {
			printf("pto-opt (hilo) %s\n", hilo_version());
			return 0;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "pto-opt: error: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		} else if (input) {
			fprintf(stderr, "pto-opt: error: more than one input ('%s' and '%s')\n", input, a);
			return 2;
		} else {
			input = a;
		}
	}
	/* validate the pass list before touching the input */
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
			fprintf(stderr, "pto-opt: error: unknown pass '%s'\n", tok);
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
	FILE *in = input && strcmp(input, "-") ? fopen(input, "rb") : stdin;
	if (!in) {
		fprintf(stderr, "%s: error: cannot open: %s\n", name, strerror(errno));
		free(plist);
		return 1;
	}
	size_t len = 0;
	char *src = read_all(in, &len);
	if (in != stdin)
		fclose(in);
	if (!src) {
		fprintf(stderr, "%s: error: cannot read input\n", name);
		free(plist);
		return 1;
	}
	hilo_diags d;
	hilo_diags_init(&d);
	d.max_errors = 50;
	int rc = 0;
	hilo_pto_program *p = hilo_pto_parse(name, src, len, &d);
	/* the program keeps its own copy of the text: ours would double the
	 * input's share of the peak memory */
	free(src);
	src = NULL;
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
				fprintf(stderr, "pto-opt: internal error: legalize-graph-boundary produced a program "
					"verify-graph-boundary rejects\n");
				rc = 3;
			}
		} else if (hilo_pto_verify_graph_boundary(p, &d) != 0) {
			rc = 1;
		}
	}
	if (!rc) {
		hilo_buf b;
		hilo_buf_init(&b);
		hilo_pto_print(p, &b);
		if (b.oom) {
			fprintf(stderr, "pto-opt: error: out of memory\n");
			rc = 3;
		} else if (!hilo_write_output(output ? output : "-", b.data, b.len, &d)) {
			rc = 1;
		}
		hilo_buf_free(&b);
	}
done:
	hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	hilo_pto_program_destroy(p);
	free(src);
	free(plist);
	return rc;
}
