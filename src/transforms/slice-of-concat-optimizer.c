/* slice-of-concat-optimizer (#107; seed 000, "NeuronSliceOfConcatOptimizer").
 *
 * Rewrites
 *   slice(concatenate(x0, ..., xn-1), slice={...})          -> xk
 *   dynamic-slice(concatenate(x0, ..., xn-1), i0, ..., ir-1) -> xk
 * when the window is exactly operand k of the concatenate.
 *
 * Exact conditions. Let cdim be the concatenate dimension and
 * B[k] = sum_{j<k} xj.dims[cdim] (the prefix-sum boundary). For a slice:
 *   - every stride is 1;
 *   - starts[cdim] == B[k] and limits[cdim] == B[k] + xk.dims[cdim];
 *   - for every d != cdim: starts[d] == 0 and limits[d] == xk.dims[d]
 *     (compared with the operand's dims, never the slice's, so a window
 *     that is cropped on another axis never matches).
 * For a dynamic-slice the window is [s[d], s[d] + sizes[d]) with
 * sizes = dynamic_slice_sizes and s[d] the start index of dimension d
 * *after* the clamp dynamic-slice applies (into [0, dim - size]), as
 * hilo_known_starts() gives it (include/hilo/pass.h): a start operand that
 * folds to a constant (evaluator), an axis where sizes[d] == concat.dims[d]
 * (the clamp pins it at 0), or the start neuron-dus-ds-index-simplifier
 * proved for this instruction earlier in the same run. `dsidxnow=` tokens
 * in the input are never taken as the start (docs/tokens.md: a stale token
 * would pick the wrong operand); a decline mentions them ("token ignored:
 * not proven"). "iterationidx=" is a loop iteration number, not an element
 * offset, and is never used as a start.
 *   The same boundary match then applies with limits = s + sizes.
 * Both: the replacement's shape must be interchangeable with the slice's
 * (same type and dims; equal layouts when both print one).
 *
 * Why it is sound: concatenate places xk at offsets [B[k], B[k+1]) on cdim
 * and [0, dims[d]) elsewhere, so a unit-stride window with exactly those
 * bounds reads xk element for element. Dynamic-slice reads the window at the
 * clamped start, which is the start we match on.
 *
 * Driver: every computation; each one's instructions are snapshotted
 * before any rewrite (collect-then-process); then the dce pass runs,
 * rewrite or not (the seed's Run ends with HloDCE::Run unconditionally),
 * removing the concatenates and slices left without users. Declines are reported
 * as remarks with the seed's diagnostic strings.
 */
#include "concat_util.h"
#include "variants.h"

#include <stdlib.h>


/* Finds k such that window [start, limit) on cdim and full extent elsewhere
 * is exactly operand k (starting at v->operand_start of the extents before
 * it); -1 when none. */
static int match_operand(const hilo_instr *concat, int64_t cdim, const int64_t *start,
	const int64_t *limit, int rank, const hilo_soc_variant *v)
{
	int64_t running = 0;
	for (uint32_t k = 0; k < concat->noperands; k++) {
		const hilo_shape *os = concat->operands[k]->shape;
		int64_t ext = os->dims[cdim];
		int64_t b = v->operand_start(running);
		if (start[cdim] == b && limit[cdim] - b == ext) {
			bool full = true;
			for (int d = 0; d < rank && full; d++)
				if (d != cdim && (start[d] != 0 || limit[d] != os->dims[d]))
					full = false;
			return full ? (int)k : -1;
		}
		running += ext;
	}
	return -1;
}

static bool concat_dim(const hilo_instr *concat, int64_t *cdim)
{
	int n;
	const int64_t *v = hilo_instr_get_ints(concat, HILO_A_DIMENSIONS, &n);
	if (!v || n != 1 || v[0] < 0 || v[0] >= concat->shape->rank)
		return false;
	*cdim = v[0];
	return true;
}

static bool replace_with(hilo_pass_ctx *ctx, hilo_instr *s, hilo_instr *concat, int k)
{
	hilo_instr *op = concat->operands[k];
	if (!hilo_cu_interchangeable(s->shape, op->shape)) {
		hilo_remark(ctx, s->parent, s, "declined",
			"Skipping optimization for %s instruction=%s: operand %d has another layout or shape",
			hilo_opcode_name(s->op), s->name, k);
		return false;
	}
	hilo_remark(ctx, s->parent, s, "rewritten", "window is operand %d (%s) of concat instruction=%s",
		k, op->name, concat->name);
	hilo_instr_replace_all_uses(ctx->m, s, op);
	ctx->rewrites++;
	return true;
}

static bool optimize_slice(hilo_pass_ctx *ctx, hilo_instr *s, const hilo_soc_variant *v)
{
	hilo_instr *concat = s->operands[0];
	if (concat->op != HILO_OP_CONCATENATE) {
		hilo_remark(ctx, s->parent, s, "declined",
			"Skipping optimization as slice instruction=%s doesn't have concat operand as input", s->name);
		return false;
	}
	hilo_attr *a = hilo_instr_attr(s, HILO_A_SLICE);
	int64_t cdim;
	int rank = concat->shape->rank;
	if (!a || a->kind != HILO_ATTR_SLICE || a->n != rank || rank > HILO_MAX_RANK || !concat_dim(concat, &cdim)) {
		hilo_remark(ctx, s->parent, s, "declined",
			"Skipping optimization for slice instruction=%s: malformed slice or concat", s->name);
		return false;
	}
	int64_t start[HILO_MAX_RANK], limit[HILO_MAX_RANK];
	for (int d = 0; d < rank; d++) {
		if (a->v.ints[3 * d + 2] != 1) {
			hilo_remark(ctx, s->parent, s, "declined",
				"Skipping optimization for slice instruction=%s: stride %lld on dimension %d",
				s->name, (long long)a->v.ints[3 * d + 2], d);
			return false;
		}
		start[d] = a->v.ints[3 * d];
		limit[d] = a->v.ints[3 * d + 1];
	}
	int k = match_operand(concat, cdim, start, limit, rank, v);
	if (k < 0) {
		hilo_remark(ctx, s->parent, s, "declined",
			"instruction=%s operand doesnt match input of concat instruction exactly", s->name);
		return false;
	}
	return replace_with(ctx, s, concat, k);
}

static bool optimize_dynamic_slice(hilo_pass_ctx *ctx, hilo_instr *s, const hilo_soc_variant *v)
{
	hilo_instr *concat = s->operands[0];
	if (concat->op != HILO_OP_CONCATENATE) {
		hilo_remark(ctx, s->parent, s, "declined",
			"Skipping optimization as dynamic-slice instruction=%s doesn't have concat operand as input",
			s->name);
		return false;
	}
	int rank = concat->shape->rank, nsz;
	int64_t cdim;
	const int64_t *sizes = hilo_instr_get_ints(s, HILO_A_DYNAMIC_SLICE_SIZES, &nsz);
	bool vec = s->noperands == 2 && s->operands[1]->shape->rank == 1 && rank != 1;
	if (!sizes || nsz != rank || rank > HILO_MAX_RANK || !concat_dim(concat, &cdim) ||
	    (!vec && s->noperands != 1 + (uint32_t)rank)) {
		hilo_remark(ctx, s->parent, s, "declined",
			"Skipping optimization for dynamic-slice instruction=%s: malformed sizes or indices", s->name);
		return false;
	}
	int64_t start[HILO_MAX_RANK], limit[HILO_MAX_RANK];
	if (hilo_known_starts(ctx, s, start, HILO_MAX_RANK) != rank) {
		char why[256];
		hilo_known_starts_why(ctx, s, why, sizeof why);
		hilo_remark(ctx, s->parent, s, "declined",
			"Failed to obtain start indices for instruction=%s (%s)", s->name, why);
		return false;
	}
	for (int d = 0; d < rank; d++) {
		start[d] = v->slice_start(s, d, start[d]);
		limit[d] = start[d] + sizes[d];
	}
	int k = match_operand(concat, cdim, start, limit, rank, v);
	if (k < 0) {
		hilo_remark(ctx, s->parent, s, "declined",
			"instruction=%s operand doesnt match input of concat instruction exactly", s->name);
		return false;
	}
	return replace_with(ctx, s, concat, k);
}

static int64_t sum_start(int64_t running)
{
	return running;
}

static int64_t clamped_start(const hilo_instr *ds, int d, int64_t clamped)
{
	return clamped;
}

hilo_pass_result hilo_pass_slice_of_concat_optimizer(hilo_pass_ctx *ctx)
{
	static const hilo_soc_variant sound = {sum_start, clamped_start};
	return hilo_soc_run(ctx, &sound);
}

hilo_pass_result hilo_soc_run(hilo_pass_ctx *ctx, const hilo_soc_variant *v)
{
	hilo_module *m = ctx->m;
	bool changed = false;
	for (uint32_t c = 0; c < m->ncomps; c++) {
		hilo_comp *comp = m->comps[c];
		/* snapshot: rewrites must not disturb the walk */
		uint32_t n = 0;
		hilo_instr **work = hilo_heap_alloc(m->arena, ((size_t)comp->ninstrs + 1) * sizeof *work);
		if (!work) {
			hilo_diag_add(ctx->diags, HILO_SEV_ERROR, ctx->filename, 0, 0, NULL, 0,
				"slice-of-concat-optimizer: out of memory");
			return HILO_PASS_ERROR;
		}
		for (hilo_instr *i = comp->first; i; i = i->next)
			work[n++] = i;
		bool comp_changed = false;
		for (uint32_t k = 0; k < n; k++) {
			hilo_instr *i = work[k];
			if (i->op == HILO_OP_SLICE && i->noperands == 1)
				comp_changed |= optimize_slice(ctx, i, v);
			else if (i->op == HILO_OP_DYNAMIC_SLICE && i->noperands >= 2)
				comp_changed |= optimize_dynamic_slice(ctx, i, v);
		}
		hilo_heap_free(m->arena, work);
		changed |= comp_changed;
	}
	/* unconditional, as the seed's Run ends */
	changed |= hilo_cu_dce(ctx) == HILO_PASS_CHANGED;
	return changed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
