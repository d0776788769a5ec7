/* test-hoist-branch-outfeed: an outfeed that every branch of a conditional
 * performs, hoisted above the conditional. A SOUND rewrite, testing only
 * (it pins a false failure of the validator, issue 30 section 5).
 *
 * What it rewrites: a conditional in the entry computation whose operands
 * (after the selector) are all one tuple instruction T = tuple(..., t)
 * with t a token at index k, and each of whose branches is called by that
 * conditional only and has root tuple(..., o, ...) where o = outfeed(gte(p,
 * j), gte(p, k)) is the branch's only effect, on the branch parameter p,
 * with the same j and the same outfeed attributes in every branch, and o
 * used only by the root. Then o' = outfeed(T's operand j, t) goes before
 * the conditional, T's token becomes o', and each branch returns its
 * parameter's token gte(p, k) in o's place (o is removed).
 *
 * Why it is sound: whichever branch runs, it first sends element j of the
 * operand on the operand's token and returns that outfeed's token; the
 * hoisted outfeed sends the same value on the same token, and every branch
 * then returns the token it is given, the hoisted outfeed's. The same
 * event happens in the same order. --check-equivalence must not fail
 * (tests/lit/test-passes/effects_sound.hlo); before issue 30 the removed
 * outfeeds were "a live side effect dropped" (2 failed, structure).
 */
#include "hilo/pass.h"

#include <string.h>

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The outfeed o of branch b's root at position *at, on gte(p, j) and
 * gte(p, k) of b's parameter p, or NULL. */
static hilo_instr *branch_outfeed(hilo_module *m, hilo_comp *b, int64_t k, int64_t *j, int *at)
{
	hilo_instr *r = b->root;
	if (!r || r->op != HILO_OP_TUPLE || b->nparams != 1 || !b->params[0])
		return NULL;
	hilo_instr *o = NULL;
	int n = 0;
	for (hilo_instr *i = b->first; i; i = i->next)
		if (hilo_instr_has_side_effect_deep(m, i, NULL)) {
			o = i;
			n++;
		}
	if (n != 1 || o->op != HILO_OP_OUTFEED || o->noperands != 2 || o->nusers != 1 ||
	    o->users[0].user != r || hilo_instr_nctrl_preds(o) || hilo_instr_nctrl_succs(o))
		return NULL;
	hilo_instr *v = o->operands[0], *t = o->operands[1];
	int64_t vj, tk;
	if (v->op != HILO_OP_GET_TUPLE_ELEMENT || t->op != HILO_OP_GET_TUPLE_ELEMENT ||
	    v->operands[0] != b->params[0] || t->operands[0] != b->params[0] ||
	    !hilo_instr_get_int(v, HILO_A_INDEX, &vj) || !hilo_instr_get_int(t, HILO_A_INDEX, &tk) ||
	    tk != k)
		return NULL;
	*j = vj;
	*at = (int)o->users[0].slot;
	return o;
}

hilo_pass_result hilo_pass_test_hoist_branch_outfeed(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *ci = c ? c->first : NULL; ci; ci = ci->next) {
		if (ci->op != HILO_OP_CONDITIONAL || ci->noperands < 3 || hilo_instr_ncalled(ci) + 1 != ci->noperands)
			continue;
		hilo_instr *T = ci->operands[1];
		bool ok = T->op == HILO_OP_TUPLE;
		for (uint32_t q = 2; ok && q < ci->noperands; q++)
			ok = ci->operands[q] == T;
		int64_t k = -1;
		for (uint32_t q = 0; ok && q < T->noperands; q++)
			if (T->operands[q]->shape->type == HILO_T_TOKEN)
				k = q;
		if (!ok || k < 0)
			continue;
		hilo_instr *outs[64];
		int at[64];
		int64_t j0 = -1;
		uint32_t nb = hilo_instr_ncalled(ci);
		for (uint32_t q = 0; ok && q < nb && q < 64; q++) {
			hilo_comp *b = hilo_instr_called(ci)[q];
			int64_t j = -1;
			for (uint32_t u = 0; u < q; u++)
				ok = ok && hilo_instr_called(ci)[u] != b;
			outs[q] = ok ? branch_outfeed(m, b, k, &j, &at[q]) : NULL;
			ok = outs[q] && (q == 0 || j == j0) && j < (int64_t)T->noperands && j >= 0 &&
			     (q == 0 || same_text(hilo_instr_get_string(outs[q], HILO_A_OUTFEED_CONFIG),
			                          hilo_instr_get_string(outs[0], HILO_A_OUTFEED_CONFIG)));
			j0 = j;
		}
		if (!ok || nb > 64)
			continue;
		hilo_instr *o = hilo_instr_clone(m, outs[0], NULL);
		hilo_instr_add_operand(m, o, T->operands[j0]);
		hilo_instr_add_operand(m, o, T->operands[k]);
		hilo_comp_insert_before(c, T, o);
		hilo_instr_set_operand(m, T, (uint32_t)k, o);
		for (uint32_t q = 0; q < nb; q++) {
			hilo_comp *b = hilo_instr_called(ci)[q];
			hilo_instr *tok = outs[q]->operands[1];
			hilo_instr_set_operand(m, b->root, (uint32_t)at[q], tok);
			hilo_comp_remove(b, outs[q]);
		}
		ctx->rewrites++;
		hilo_remark(ctx, c, o, "rewritten", "test only: the outfeed of every branch of %s "
			"hoisted above it (sound)", ci->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no conditional whose branches all outfeed alike");
	return HILO_PASS_UNCHANGED;
}
