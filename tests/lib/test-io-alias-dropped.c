/* test-io-alias-dropped: drop the module's input_output_alias. A
 * deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a pass that rebuilds the module header and loses the
 * entry's aliasing (say, a writer that does not carry the field over).
 * Every value is unchanged; what changes is the contract with the caller:
 * a donated parameter buffer is no longer reused for the result (or, the
 * other way round, a buffer the caller still holds would be overwritten).
 *
 * Validator hole it probes: the module header played no part in any
 * record. The aliasing record (src/check/alias.c) compares
 * input_output_alias and buffer_donor: --check-equivalence must fail
 * (exit 4) (tests/lit/test-passes/io_alias_dropped.hlo). Never in a
 * pipeline; only an explicit --passes= runs it.
 */
#include "planted.h"

#include <string.h>

hilo_pass_result hilo_pass_test_io_alias_dropped(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	for (uint32_t k = 0; k < m->nattrs; k++) {
		if (strcmp(m->attrs[k].key, "input_output_alias"))
			continue;
		memmove(&m->attrs[k], &m->attrs[k + 1], (m->nattrs - k - 1) * sizeof *m->attrs);
		m->nattrs--;
		hilo_remark(ctx, m->entry, NULL, "rewritten", "test only: input_output_alias dropped (a "
			"deliberately wrong rewrite)");
		ctx->rewrites++;
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, m->entry, NULL, "declined", "no input_output_alias");
	return HILO_PASS_UNCHANGED;
}
