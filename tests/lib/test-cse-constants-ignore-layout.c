/* test-cse-constants-ignore-layout: constants merged when their values are
 * equal, whatever their layouts. A deliberately WRONG rewrite, testing
 * only.
 *
 * The bug it plants: a CSE that compares constants by element type,
 * dimensions and values but not layout. In the entry computation, the
 * uses of the first constant that a bitcast reads and that has the same
 * values as an earlier constant of another layout are given to the earlier
 * one. Wrong: the bitcast reinterprets the physical buffer, which the
 * layout orders.
 *
 * Validator hole it probes: constants equal up to layout are one
 * hash-consed term, holding the first one's literal, and a bitcast of a
 * constant was folded with that literal: both bitcasts folded to the same
 * value and the rewrite was proved. A bitcast is no longer folded; its
 * term hashes the layouts it reads (src/check/terms.c, never_fold).
 * --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/cse_constants_ignore_layout.hlo). Never in a
 * pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

#include <string.h>

static bool read_by_bitcast(const hilo_instr *i)
{
	for (uint32_t u = 0; u < i->nusers; u++)
		if (i->users[u].user->op == HILO_OP_BITCAST)
			return true;
	return false;
}

static bool same_values(const hilo_instr *a, const hilo_instr *b)
{
	const hilo_literal *x = hilo_instr_literal(a), *y = hilo_instr_literal(b);
	return x && y && !x->elided && !y->elided && !x->ntuple && !y->ntuple &&
	       hilo_shape_compatible(a->shape, b->shape) && x->nbytes == y->nbytes &&
	       (!x->nbytes || !memcmp(x->data, y->data, x->nbytes));
}

hilo_pass_result hilo_pass_test_cse_constants_ignore_layout(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *j = c ? c->first : NULL; j; j = j->next) {
		if (j->op != HILO_OP_CONSTANT || !read_by_bitcast(j))
			continue;
		for (hilo_instr *i = c->first; i != j; i = i->next) {
			if (i->op != HILO_OP_CONSTANT || hilo_shape_equal(i->shape, j->shape) ||
			    !same_values(i, j))
				continue;
			hilo_instr_replace_all_uses(m, j, i);
			ctx->rewrites++;
			hilo_remark(ctx, c, j, "rewritten",
				"test only: uses of %s given to %s (equal values, another layout; a "
				"deliberately wrong rewrite)", j->name, i->name);
			return HILO_PASS_CHANGED;
		}
	}
	hilo_remark(ctx, c, NULL, "declined", "no constant equal to another up to layout");
	return HILO_PASS_UNCHANGED;
}
