/* test-token-chain-reordered: two infeeds of one token chain swapped. A
 * deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a pass that rethreads a token chain (after moving
 * effects around) and threads them in the wrong order. In the entry
 * computation, for the first infeed B whose token operand is
 * get-tuple-element 1 of an infeed A: B takes A's token, A takes B's
 * output token, and every other user of B's output token takes A's
 * instead. Wrong: A and B read their items in the other order.
 *
 * Validator hole it probes: token values all compare equal, so the
 * rethreaded chain was "tested". Tokens are now terms of the events they
 * follow (src/check/events.c). --check-equivalence must fail (exit 4)
 * naming this pass (tests/lit/test-passes/effects_events.hlo). Never in a
 * pipeline; only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

/* get-tuple-element k of x in c, or NULL */
static hilo_instr *gte_of(hilo_instr *x, int64_t k)
{
	for (uint32_t u = 0; u < x->nusers; u++) {
		hilo_instr *g = x->users[u].user;
		int64_t v;
		if (g->op == HILO_OP_GET_TUPLE_ELEMENT && hilo_instr_get_int(g, HILO_A_INDEX, &v) && v == k)
			return g;
	}
	return NULL;
}

hilo_pass_result hilo_pass_test_token_chain_reordered(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *b = c ? c->first : NULL; b; b = b->next) {
		if (b->op != HILO_OP_INFEED || b->noperands != 1)
			continue;
		hilo_instr *ta = b->operands[0];
		int64_t k;
		if (ta->op != HILO_OP_GET_TUPLE_ELEMENT || !hilo_instr_get_int(ta, HILO_A_INDEX, &k) ||
		    k != 1 || ta->operands[0]->op != HILO_OP_INFEED || ta->operands[0]->noperands != 1)
			continue;
		hilo_instr *a = ta->operands[0];
		hilo_instr *tb = gte_of(b, 1);
		if (!tb)
			continue;
		hilo_instr *t0 = a->operands[0];
		hilo_instr_replace_all_uses(m, tb, ta); /* the chain's end: A's token */
		/* B and its token output move before A (definitions before uses) */
		hilo_comp_remove(c, tb);
		hilo_comp_remove(c, b);
		hilo_comp_insert_before(c, a, b);
		hilo_instr_add_operand(m, b, t0);
		hilo_comp_insert_before(c, a, tb);
		hilo_instr_add_operand(m, tb, b);
		hilo_instr_set_operand(m, a, 0, tb);
		ctx->rewrites++;
		hilo_remark(ctx, c, b, "rewritten",
			"test only: %s threaded before %s (a deliberately wrong rewrite)", b->name, a->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no two infeeds on one token chain");
	return HILO_PASS_UNCHANGED;
}
