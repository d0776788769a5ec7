/* test-aliasing-retargeted: point a fusion's or custom-call's
 * output_to_operand_aliasing at another operand of the same shape. A
 * deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a pass that rebuilds an in-place instruction and
 * carries its aliasing over to the wrong operand slot (say, after sorting
 * or deduplicating operands). It takes the first instruction with
 * aliasing whose first pair names operand k and retargets that pair to
 * the first other operand j of the same shape (a different instruction),
 * through the shared parser and printer (src/ir/aliasing.c). The result
 * verifies and every value is unchanged: only which buffer the kernel
 * overwrites differs (an in-place kernel would clobber j's value).
 *
 * Validator hole it probes: attributes of called instructions were only
 * seen through their inlined bodies. --check-equivalence must fail
 * (exit 4) (tests/lit/test-passes/aliasing_retargeted.hlo). Never in a
 * pipeline; only an explicit --passes= runs it.
 */
#include "planted.h"

#include <string.h>

hilo_pass_result hilo_pass_test_aliasing_retargeted(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (hilo_instr *i = m->comps[c]->first; i; i = i->next) {
			hilo_aliasing al;
			if (!hilo_instr_aliasing(m->arena, i, &al) || al.n == 0)
				continue;
			int64_t k = al.pairs[0].operand;
			if (k < 0 || k >= (int64_t)i->noperands)
				continue;
			for (uint32_t j = 0; j < i->noperands; j++) {
				if ((int64_t)j == k || i->operands[j] == i->operands[k] ||
				    !hilo_shape_equal(i->operands[j]->shape, i->operands[k]->shape))
					continue;
				al.pairs[0].operand = j;
				hilo_buf b;
				hilo_buf_init_in(&b, m->arena);
				hilo_aliasing_print(&b, &al);
				const char *text = b.oom ? NULL : hilo_intern(m->strings, b.data, b.len);
				hilo_buf_free(&b);
				if (!text)
					return HILO_PASS_UNCHANGED;
				hilo_instr_attr(i, HILO_A_OUTPUT_TO_OPERAND_ALIASING)->v.text = text;
				hilo_remark(ctx, m->comps[c], i, "rewritten", "test only: %s's aliasing moved "
					"from operand %lld to %u (a deliberately wrong rewrite)", i->name,
					(long long)k, j);
				ctx->rewrites++;
				return HILO_PASS_CHANGED;
			}
		}
	hilo_remark(ctx, m->entry, NULL, "declined", "no aliasing with another operand of its shape");
	return HILO_PASS_UNCHANGED;
}
