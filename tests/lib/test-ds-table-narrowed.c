/* test-ds-table-narrowed: a dynamic-slice of a constant table narrowed to
 * the range another use's clamp gives its start. A deliberately WRONG
 * rewrite, testing only.
 *
 * The bug it plants: a range analysis that takes a dynamic-slice start's
 * clamp range for the range of the start itself. In the entry computation,
 * a scalar start S of a rank-1 dynamic-slice D1 (extent n1, window w1) "is
 * in [0, n1 - w1]"; a rank-1 dynamic-slice D2 of a constant table C by the
 * same S (window w2) then reads only C[0 .. n1 - w1 + w2 - 1], so the
 * entries past that are overwritten with the last one it reads (a
 * narrowed table, as a pass would before packing it), and the one user of
 * D2 is rebuilt on the narrowed slice. Wrong: D1 clamps its own window,
 * not S; for a larger S, D2 reads the overwritten entries.
 *
 * Validator hole it probes: tagged-enum enumerated a start's clamp range
 * from the uses met with tagged data; a dynamic-slice of concrete data by
 * the enumerated start was evaluated concretely without widening the
 * range, so only S in [0, n1 - w1] was tried and the rewrite was proved
 * (src/check/tagged.c, eval_one). --check-equivalence must fail (exit 4)
 * naming this pass (tests/lit/test-passes/ds_table_narrowed.hlo). Never in
 * a pipeline; only an explicit --passes= runs it.
 */
#include "hilo/eval.h"
#include "hilo/pass.h"

#include <string.h>

/* A rank-1 dynamic-slice of a value by start s (slot 1), window *w. */
static bool ds1(const hilo_instr *i, const hilo_instr *s, int64_t *n, int64_t *w)
{
	if (i->op != HILO_OP_DYNAMIC_SLICE || i->noperands != 2 || i->operands[1] != s ||
	    i->shape->type == HILO_T_TUPLE || i->shape->rank != 1 || i->operands[0]->shape->rank != 1)
		return false;
	*n = i->operands[0]->shape->dims[0];
	*w = i->shape->dims[0];
	return *w <= *n;
}

hilo_pass_result hilo_pass_test_ds_table_narrowed(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *d2 = c ? c->first : NULL; d2; d2 = d2->next) {
		int64_t n2, w2, n1, w1;
		if (d2->noperands != 2 || !ds1(d2, d2->operands[1], &n2, &w2) || d2->nusers != 1)
			continue;
		hilo_instr *tab = d2->operands[0], *s = d2->operands[1];
		hilo_literal *l = hilo_instr_literal(tab);
		int eb = hilo_ptype_bytes(tab->shape->type);
		if (!l || l->elided || l->ntuple || eb <= 0 || l->nbytes != (size_t)(n2 * eb))
			continue;
		const hilo_instr *d1 = NULL;
		for (uint32_t u = 0; u < s->nusers && !d1; u++) {
			const hilo_instr *x = s->users[u].user;
			if (x != d2 && x->parent == c && ds1(x, s, &n1, &w1) &&
			    x->operands[0]->op != HILO_OP_CONSTANT)
				d1 = x;
		}
		if (!d1 || n1 - w1 + w2 >= n2)
			continue;
		int64_t keep = n1 - w1 + w2; /* entries [0, keep) are "reachable" */
		hilo_literal *nl = hilo_literal_create(m, tab->shape);
		if (!nl)
			return HILO_PASS_ERROR;
		memcpy(nl->data, l->data, l->nbytes);
		for (int64_t k = keep; k < n2; k++)
			memcpy((char *)nl->data + k * eb, (const char *)l->data + (keep - 1) * eb, (size_t)eb);
		hilo_instr *nt = hilo_instr_create(m, HILO_OP_CONSTANT, tab->shape, NULL);
		nt->u.literal = nl;
		hilo_comp_insert_before(c, d2, nt);
		hilo_instr *nd = hilo_instr_clone(m, d2, NULL);
		hilo_instr_add_operand(m, nd, nt);
		hilo_instr_add_operand(m, nd, s);
		hilo_comp_insert_before(c, d2, nd);
		hilo_instr *u = d2->users[0].user;
		hilo_instr *nu = hilo_instr_clone(m, u, NULL);
		for (uint32_t q = 0; q < u->noperands; q++)
			hilo_instr_add_operand(m, nu, u->operands[q] == d2 ? nd : u->operands[q]);
		hilo_comp_insert_before(c, u, nu);
		hilo_instr_replace_all_uses(m, u, nu);
		ctx->rewrites++;
		hilo_remark(ctx, c, d2, "rewritten",
			"test only: table %s narrowed to its first %lld entries (the clamp range of %s "
			"taken for the start's range)", tab->name, (long long)keep, d1->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no dynamic-slice of a constant table to narrow");
	return HILO_PASS_UNCHANGED;
}
