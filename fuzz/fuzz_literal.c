/* fuzz_literal.c - libFuzzer target for the HLO literal reader behind
 * `hilo-run --input` (hilo_read_input_literal).
 *
 * Any bytes: read (errors are fine; crashes, hangs, leaks and UB are
 * not). A literal that reads is printed with its shape and the printout
 * must read back to the same shape and the same bits (NaN == NaN).
 */
#include "fuzz_limits.h"
#include "hilo/eval.h"
#include "hilo/hlo_text.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t count_elements(const hilo_literal *l)
{
	if (l->shape->type == HILO_T_TUPLE) {
		uint64_t n = 0;
		for (int k = 0; k < l->ntuple; k++)
			n += count_elements(l->elems[k]);
		return n;
	}
	int64_t n = hilo_shape_elements(l->shape);
	return n < 0 ? UINT64_MAX : (uint64_t)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_declares_huge_shapes(data, size))
		return 0; /* fuzz_limits.h */
	hilo_module *m = hilo_module_create("fuzz");
	if (!m)
		return 0;
	hilo_diags d;
	hilo_diags_init(&d);
	d.max_errors = 20;
	hilo_literal *l = hilo_read_input_literal(m, (const char *)data, size, "fuzz.lit", &d);
	/* the round trip only for literals of up to 2^16 elements: a few bytes
	 * (f32[9619742] 1, one value filling the array) otherwise print as
	 * tens of megabytes whose re-read takes the fuzzer's whole timeout
	 * under ASan -- linear work, the same code as for small literals */
	if (l && count_elements(l) <= ((uint64_t)1 << 16)) {
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
