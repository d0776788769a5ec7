/* fuzz_pto.c - libFuzzer target for the PTO parser, printer and passes.
 *
 * Any input: parse (errors are fine, crashes and leaks are not). A parsed
 * program must print to text that parses again and prints identically
 * (the printer is a fixed point), and legalize-graph-boundary plus the
 * verifier must run to completion on it.
 */
#include "hilo/pto.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_pto_program *p = hilo_pto_parse("fuzz.py", (const char *)data, size, &d);
	if (p) {
		hilo_buf a;
		hilo_buf_init(&a);
		hilo_pto_print(p, &a);
		hilo_pto_program *q = hilo_pto_parse("fuzz2.py", a.data ? a.data : "", a.len, &d);
		if (!q)
			abort(); /* printed text must parse again */
		hilo_buf b;
		hilo_buf_init(&b);
		hilo_pto_print(q, &b);
		if (a.len != b.len || (a.len && memcmp(a.data, b.data, a.len)))
			abort(); /* print(parse(print(x))) == print(x) */
		if (hilo_pto_legalize_graph_boundary(q, HILO_PTO_RUNTIME_HOST_BUILD_GRAPH, &d) == 0) {
			hilo_pto_verify_graph_boundary(q, &d);
			hilo_buf c;
			hilo_buf_init(&c);
			hilo_pto_print(q, &c);
			hilo_buf_free(&c);
		}
		hilo_buf_free(&a);
		hilo_buf_free(&b);
		hilo_pto_program_destroy(q);
		hilo_pto_program_destroy(p);
	}
	hilo_diags_free(&d);
	return 0;
}
