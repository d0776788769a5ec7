/* fuzz_literal.c - libFuzzer target for the HLO literal reader behind
 * `hilo-run --input` (hilo_read_input_literal).
 *
 * Any bytes: read (errors are fine; crashes, hangs, leaks and UB are
 * not). A literal that reads is printed with its shape and the printout
 * must read back to the same shape and the same bits (NaN == NaN).
 */
#include "hilo/eval.h"
#include "hilo/hlo_text.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hilo_module *m = hilo_module_create("fuzz");
	if (!m)
		return 0;
	hilo_diags d;
	hilo_diags_init(&d);
	d.max_errors = 20;
	hilo_literal *l = hilo_read_input_literal(m, (const char *)data, size, "fuzz.lit", &d);
	if (l) {
		hilo_buf b;
		hilo_buf_init(&b);
		hilo_print_literal(&b, l, true);
		if (b.oom)
			abort();
		hilo_literal *l2 = hilo_read_input_literal(m, b.data ? b.data : "", b.len, "print.lit", &d);
		if (!l2 || !hilo_literal_equal(l, l2)) {
			fprintf(stderr, "literal does not read back: %.*s\n", (int)(b.len > 400 ? 400 : b.len), b.data ? b.data : "");
			hilo_diags_print(stderr, &d);
			abort();
		}
		hilo_buf_free(&b);
	}
	hilo_module_destroy(m);
	hilo_diags_free(&d);
	return 0;
}
