/* test-unroll-wrong-induction: while-loop-unroller giving one unrolled
 * iteration the next iteration's induction value. A deliberately WRONG
 * rewrite, testing only.
 *
 * The bug it plants: an unroller that specialises each iteration's clone
 * for its induction value (as XLA's unroller does before constant-folding
 * the indices) and uses the post-increment value in one clone: iteration 0
 * computes with i + step wherever the
 * body reads the induction variable, while the clone still passes i + step
 * on as the carried value, so the trip count and every other iteration
 * are right. It is planted as a thin wrapper: the loops' induction
 * elements are found the way the real pass finds them (the condition
 * compares element k of the state; the body's root returns element k plus
 * or minus a constant), the real pass unrolls, and in the clone
 * `<body>.unrolled.0` every read of element k except the step itself is
 * redirected to a fresh `element k (+|-) step`. (Iteration 0, not the
 * last one: in the last iteration the next value often indexes past the
 * end of a stacked array, and dynamic-slice's clamp maps it back to the
 * same slab, which the validator rightly proves equal -- a vacuous bug.)
 *
 * Why it must be caught: that iteration reads slices, writes updates or
 * computes values at the next iteration's position (in an unrolled layer
 * stack: the next layer's weights), so the loop's result differs for any
 * input where those positions hold different values. --check-equivalence
 * must fail (exit 4) naming this pass
 * (tests/lit/test-passes/unroll_wrong_induction.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "concat_util.h"
#include "planted.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct loop {
	const char *body;
	int64_t k;
} loop;

static bool gte_index(const hilo_instr *i, const hilo_instr *param, int64_t *k)
{
	return i->op == HILO_OP_GET_TUPLE_ELEMENT && i->noperands == 1 && i->operands[0] == param &&
		hilo_instr_get_int(i, HILO_A_INDEX, k);
}

/* The update of element k in a body whose root is a tuple: add/subtract of
 * get-tuple-element(param, k) and a scalar integer constant, or NULL. */
static hilo_instr *step_of(hilo_comp *body, int64_t k, int *iv_slot)
{
	hilo_instr *r = body->root;
	while (r && r->op == HILO_OP_CUSTOM_CALL && r->noperands == 1) /* boundary markers */
		r = r->operands[0];
	if (!r || r->op != HILO_OP_TUPLE || body->nparams != 1 || k < 0 || (uint64_t)k >= r->noperands)
		return NULL;
	hilo_instr *u = r->operands[k];
	if ((u->op != HILO_OP_ADD && u->op != HILO_OP_SUBTRACT) || u->noperands != 2)
		return NULL;
	int64_t gk, v;
	for (int s = 0; s < 2; s++)
		if (gte_index(u->operands[s], body->params[0], &gk) && gk == k &&
		    hilo_plant_const_int(u->operands[1 - s], 0, &v) && (s == 0 || u->op == HILO_OP_ADD)) {
			*iv_slot = s;
			return u;
		}
	return NULL;
}

/* Element k of the state is the induction variable of while w. */
static bool induction_index(hilo_instr *w, int64_t *k)
{
	hilo_comp *cond = hilo_instr_get_comp(w, HILO_A_CONDITION);
	hilo_comp *body = hilo_instr_get_comp(w, HILO_A_BODY);
	if (!cond || !body || cond->nparams != 1 || !cond->root || cond->root->op != HILO_OP_COMPARE ||
	    cond->root->noperands != 2)
		return false;
	int slot;
	for (int s = 0; s < 2; s++)
		if (gte_index(cond->root->operands[s], cond->params[0], k) && step_of(body, *k, &slot))
			return true;
	return false;
}

/* Redirects the reads of element k in clone cl to element k (+|-) step. */
static int plant(hilo_pass_ctx *ctx, hilo_comp *cl, int64_t k)
{
	hilo_module *m = ctx->m;
	int slot;
	hilo_instr *upd = step_of(cl, k, &slot);
	hilo_instr *p = cl->params[0];
	if (!upd || !p || !p->next)
		return 0;
	hilo_instr *c = upd->operands[1 - slot];
	int64_t step = 0;
	hilo_plant_const_int(c, 0, &step);
	hilo_instr *g = hilo_instr_create(m, HILO_OP_GET_TUPLE_ELEMENT, upd->operands[slot]->shape,
		"get-tuple-element");
	hilo_instr_add_operand(m, g, p);
	hilo_instr_set_attr(m, g, HILO_A_INDEX, HILO_ATTR_INT)->v.i = k;
	hilo_comp_insert_before(cl, p->next, g);
	hilo_instr *c2 = hilo_cu_int_constant(m, cl, g->next, c->shape->type, step);
	if (!c2)
		return 0;
	hilo_instr *nv = hilo_instr_create(m, upd->op, upd->shape, upd->op == HILO_OP_ADD ? "add" : "subtract");
	hilo_instr_add_operand(m, nv, slot == 0 ? g : c2);
	hilo_instr_add_operand(m, nv, slot == 0 ? c2 : g);
	hilo_comp_insert_before(cl, c2->next, nv);
	int n = 0;
	for (hilo_instr *x = cl->first; x; x = x->next) {
		int64_t xk;
		if (x == g || !gte_index(x, p, &xk) || xk != k)
			continue;
		for (uint32_t u = x->nusers; u-- > 0;) {
			hilo_instr *us = x->users[u].user;
			if (us == upd)
				continue;
			hilo_instr_set_operand(m, us, x->users[u].slot, nv);
			n++;
		}
	}
	if (!n)
		hilo_cu_erase_dead(m, nv);
	return n;
}

hilo_pass_result hilo_pass_test_unroll_wrong_induction(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	size_t n = 0, cap = 0;
	loop *ls = NULL;
	for (uint32_t ci = 0; ci < m->ncomps; ci++)
		for (hilo_instr *w = m->comps[ci]->first; w; w = w->next) {
			int64_t k;
			if (w->op != HILO_OP_WHILE || !induction_index(w, &k))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				loop *g = hilo_heap_realloc(m->arena, ls, cap * sizeof *g);
				if (!g) {
					hilo_heap_free(m->arena, ls);
					hilo_diag_add(ctx->diags, HILO_SEV_ERROR, ctx->filename, 0, 0, NULL, 0,
						"%s: out of memory", ctx->pass ? ctx->pass : "test-unroll-wrong-induction");
					return HILO_PASS_ERROR;
				}
				ls = g;
			}
			ls[n++] = (loop){hilo_instr_get_comp(w, HILO_A_BODY)->name, k};
		}
	hilo_pass_result r = hilo_pass_while_loop_unroller(ctx);
	for (size_t j = 0; r == HILO_PASS_CHANGED && j < n; j++) {
		char name[1024];
		snprintf(name, sizeof name, "%s.unrolled.0", ls[j].body);
		hilo_comp *cl = hilo_module_find_comp(m, name);
		if (!cl)
			continue;
		int reads = plant(ctx, cl, ls[j].k);
		hilo_remark(ctx, cl, NULL, reads ? "planted" : "declined",
			"test only: %d read(s) of induction element %lld in %s see the next iteration's value",
			reads, (long long)ls[j].k, cl->name);
	}
	hilo_heap_free(m->arena, ls);
	return r;
}
