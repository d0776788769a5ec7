/* fuzz_passes.c - libFuzzer target for the pass pipeline.
 *
 * Any input that parses and verifies is run through --pipeline=neuron
 * with the verifier after every pass, then checked against an independent
 * parse of the same input with the evaluator (one random input set, a
 * small budget so that each run stays fast). Pass errors on odd input are
 * fine; a verifier failure after a pass, a failed equivalence check, a
 * crash, a leak or UB are findings (abort()).
 */
#include "fuzz_limits.h"
#include "hilo/driver.h"
#include "hilo/eval.h"
#include "hilo/hlo_text.h"
#include "hilo/verify.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PIPELINE 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_declares_huge_shapes(data, size))
		return 0; /* fuzz_limits.h */
	size_t n = 0;
	const char *const *names = hilo_pipeline_passes("neuron", &n);
	const hilo_pass *passes[MAX_PIPELINE];
	size_t np = 0;
	for (size_t k = 0; names && k < n && np < MAX_PIPELINE; k++) {
		const hilo_pass *p = hilo_pass_find(names[k]);
		if (p)
			passes[np++] = p;
	}
	hilo_diags d;
	hilo_diags_init(&d);
	d.max_errors = 20;
	const char *src = (const char *)data;
	hilo_module *m = hilo_parse_text(src, size, "fuzz.hlo", &d);
	if (m && hilo_verify(m, "fuzz.hlo", &d)) {
		hilo_driver_opts o = {.filename = "fuzz.hlo", .verify_each = true};
		hilo_driver_status s = hilo_run_passes(m, passes, np, &o, &d, NULL);
		if (s == HILO_DRIVER_VERIFY_ERROR) {
			hilo_diags_print(stderr, &d);
			abort(); /* a pass wrote IR the verifier rejects */
		}
		if (s == HILO_DRIVER_OK) {
			hilo_diags rd;
			hilo_diags_init(&rd);
			hilo_module *ref = hilo_parse_text(src, size, "fuzz.hlo", &rd);
			if (!ref)
				abort(); /* the same text parsed a moment ago */
			hilo_eval_opts eo = {.budget = 200000};
			hilo_equiv_report r;
			memset(&r, 0, sizeof r);
			hilo_check_equivalence(ref, m, 1, 0, &eo, &r);
			if (r.status == 1) {
				fprintf(stderr, "equivalence check failed: %s\n", r.message);
				abort(); /* a rewrite changed the program's result */
			}
			hilo_module_destroy(ref);
			hilo_diags_free(&rd);
		}
	}
	hilo_module_destroy(m);
	hilo_diags_free(&d);
	return 0;
}
