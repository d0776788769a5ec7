/* test-dus-concat-gap-filled: neuron_repeated_dus_to_concat collapsing a
 * dynamic-update-slice chain that leaves a gap, the missing tile filled
 * with its neighbour. A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a broadcast -> DUS -> ... -> DUS chain whose constant,
 * clamped windows tile the buffer along one axis except for exactly one
 * gap, as long as the slab next to it (the one before it; the one after it
 * for a gap at offset 0), is treated as if that slab had been written
 * twice -- the mistake of a tiling check that compares slab lengths
 * instead of offsets. It is planted by adding the phantom link the buggy
 * pass believes in (DUS(<chain>, neighbour's update, gap offset), placed
 * just before the last link, so the chain's result is still the last
 * link) and then running the real pass, whose own code turns the chain
 * into concatenate(..., u_prev, u_prev, ...). Chains the real pass then
 * declines get their phantom link taken out again, so nothing else
 * changes. Only flat chains with scalar constant starts are considered.
 *
 * Why it must be caught: the gap of the original buffer holds the
 * broadcast value (nothing wrote it); the concatenate holds the
 * neighbour's update there, so the result differs whenever the update is
 * not exactly the broadcast value. --check-equivalence must fail (exit 4)
 * naming this pass (tests/lit/test-passes/dus_concat_gap_filled.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "concat_util.h"

#include <stdlib.h>

enum { MAX_LINKS = 1024 };

typedef struct win {
	hilo_instr *dus;
	int64_t start; /* clamped start on the tiling axis */
	int64_t len;
} win;

/* Clamped constant starts of DUS d (one scalar constant per dimension). */
static bool const_starts(hilo_pass_ctx *ctx, const hilo_instr *d, const hilo_shape *base, int64_t *st)
{
	int rank = base->rank;
	if (d->noperands != 2u + (uint32_t)rank)
		return false;
	const hilo_shape *us = d->operands[1]->shape;
	if (!hilo_shape_is_array(us) || us->rank != rank || us->type != base->type)
		return false;
	return hilo_known_starts(ctx, d, st, HILO_MAX_RANK) == rank;
}

/* Plants the phantom link in the chain b -> d1 -> ...; returns it, or NULL
 * when the chain does not have exactly one neighbour-sized gap. */
static hilo_instr *plant(hilo_pass_ctx *ctx, hilo_instr *b, hilo_instr *d1)
{
	hilo_module *m = ctx->m;
	const hilo_shape *base = b->shape;
	int rank = base->rank;
	if (!hilo_shape_is_array(base) || rank == 0 || rank > HILO_MAX_RANK)
		return NULL;
	hilo_instr *chain[MAX_LINKS];
	int n = 0;
	for (hilo_instr *cur = d1;;) {
		if (n == MAX_LINKS || cur->op != HILO_OP_DYNAMIC_UPDATE_SLICE)
			return NULL;
		chain[n++] = cur;
		if (cur->nusers != 1 || cur->users[0].slot != 0 ||
		    cur->users[0].user->op != HILO_OP_DYNAMIC_UPDATE_SLICE)
			break;
		cur = cur->users[0].user;
	}
	win *w = hilo_heap_alloc(ctx->m->arena, (size_t)n * sizeof *w);
	if (!w)
		return NULL;
	int64_t st[HILO_MAX_RANK];
	int axis = -1;
	for (int a = 0; a < rank && axis < 0; a++) {
		bool ok = true;
		for (int i = 0; i < n && ok; i++) {
			const hilo_shape *us = chain[i]->operands[1]->shape;
			ok = const_starts(ctx, chain[i], base, st);
			for (int d = 0; ok && d < rank; d++)
				ok = d == a || us->dims[d] == base->dims[d];
			if (ok)
				w[i] = (win){chain[i], st[a], us->dims[a]};
		}
		if (ok)
			axis = a;
	}
	hilo_instr *ph = NULL;
	if (axis < 0)
		goto out;
	for (int i = 1; i < n; i++) /* insertion sort by start */
		for (int j = i; j > 0 && w[j - 1].start > w[j].start; j--) {
			win t = w[j];
			w[j] = w[j - 1];
			w[j - 1] = t;
		}
	int gaps = 0;
	int64_t at = 0, gap_at = 0, gap_len = 0;
	const win *nb = NULL;
	for (int i = 0; i < n; i++) {
		if (w[i].start < at)
			goto out; /* overlap: not this bug's case */
		if (w[i].start > at) {
			gaps++;
			gap_at = at;
			gap_len = w[i].start - at;
			nb = i ? &w[i - 1] : &w[i];
		}
		at = w[i].start + w[i].len;
	}
	if (at < base->dims[axis]) {
		gaps++;
		gap_at = at;
		gap_len = base->dims[axis] - at;
		nb = &w[n - 1];
	}
	if (gaps != 1 || gap_len != nb->len)
		goto out;
	/* the phantom link, just before the last one */
	hilo_instr *last = chain[n - 1];
	hilo_comp *c = last->parent;
	hilo_ptype it = last->operands[2]->shape->type;
	ph = hilo_instr_create(m, HILO_OP_DYNAMIC_UPDATE_SLICE, last->shape, "dynamic-update-slice");
	hilo_instr_add_operand(m, ph, last->operands[0]);
	hilo_instr_add_operand(m, ph, nb->dus->operands[1]);
	for (int d = 0; d < rank; d++) {
		hilo_instr *ci = hilo_cu_int_constant(m, c, last, it, d == axis ? gap_at : 0);
		if (!ci) {
			hilo_instr_clear_operands(ph);
			ph = NULL;
			goto out;
		}
		hilo_instr_add_operand(m, ph, ci);
	}
	hilo_comp_insert_before(c, last, ph);
	hilo_instr_set_operand(m, last, 0, ph);
	hilo_remark(ctx, c, last, "planted",
		"test only: gap [%lld, %lld) on dimension %d filled with the update of %s",
		(long long)gap_at, (long long)(gap_at + gap_len), axis, nb->dus->name);
out:
	hilo_heap_free(ctx->m->arena, w);
	return ph;
}

hilo_pass_result hilo_pass_test_dus_concat_gap_filled(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	size_t n = 0, cap = 0;
	hilo_instr **phantoms = NULL;
	for (uint32_t ci = 0; ci < m->ncomps; ci++) {
		hilo_comp *c = m->comps[ci];
		for (hilo_instr *d = c->first; d; d = d->next) {
			if (d->op != HILO_OP_DYNAMIC_UPDATE_SLICE || d->noperands < 3 ||
			    d->operands[0]->op != HILO_OP_BROADCAST)
				continue;
			hilo_instr *ph = plant(ctx, d->operands[0], d);
			if (!ph)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 8;
				hilo_instr **g = hilo_heap_realloc(m->arena, phantoms, cap * sizeof *g);
				if (!g) {
					hilo_heap_free(m->arena, phantoms);
					hilo_diag_add(ctx->diags, HILO_SEV_ERROR, ctx->filename, 0, 0, NULL, 0,
						"%s: out of memory", ctx->pass ? ctx->pass : "test-dus-concat-gap-filled");
					return HILO_PASS_ERROR;
				}
				phantoms = g;
			}
			phantoms[n++] = ph;
		}
	}
	hilo_pass_result r = hilo_pass_neuron_repeated_dus_to_concat(ctx);
	/* a phantom the real pass left in place comes out again */
	for (size_t k = 0; k < n; k++) {
		hilo_instr *ph = phantoms[k];
		if (!ph->parent)
			continue;
		hilo_instr_replace_all_uses(m, ph, ph->operands[0]);
		hilo_cu_erase_dead(m, ph);
	}
	hilo_heap_free(m->arena, phantoms);
	return r;
}
