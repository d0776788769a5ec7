/* neuron-preprocess-kernel-duplicate-remover (#76, seed 004 "#76 -
 * NeuronPreprocessKernelDuplicateRemover").
 *
 * What it rewrites, only with --assume-equivalent-kernels (see below): a
 * flash-attention kernel (an AwsNeuronCustomNativeKernel custom-call)
 * recognised as a duplicate of the canonical preprocess kernel is replaced
 * by a clone of that canonical kernel on the duplicate's operands, where an
 * operand that is identical to the canonical q (kv) reshape is replaced by
 * the canonical q (kv) tile; then a dead-code sweep runs over the module
 * (unconditionally once a first kernel was found).
 *
 * Exact conditions (the seed's procedure):
 *  1. FindFirstPreprocessKernel: the first custom-call (computations in
 *     module order, instructions in list order) with target
 *     AwsNeuronCustomNativeKernel, exactly one operand of rank 3 with
 *     dims[0] == 1, and a rank-3 result whose dims[2] is twice the
 *     operand's. None: the pass does nothing.
 *  2. Four RET_CHECKs on that first kernel; a failure is HILO_PASS_ERROR
 *     with a diagnostic naming the check: it has exactly two users; both
 *     are slices; the slice with the smaller start (q) has exactly one
 *     user, a reshape; so does the other slice (kv).
 *  3. IsFlashAttentionKernel: a duplicate is another custom-call with the
 *     same target, a backend_config that differs from the first kernel's,
 *     at least 8 operands, and the fixed operand(0) descent
 *     from its last operand (operand(n-1) -> op0 -> op0, then op0 -> op0 ->
 *     op0 must be a custom-call, then op0 -> op0 -> op0 is the inner kernel)
 *     ending at an instruction whose backend_config is byte-identical to
 *     the first kernel's. Each hop must exist (no hop is assumed).
 *  4. Operand substitution (the seed's two IdenticalInternal calls:
 *     same opcode, layout-sensitive shape, pointer-equal operands and
 *     called computations, equal attributes): operand n-2 identical to the
 *     canonical q reshape becomes the q slice, operand n-1 identical to the
 *     kv reshape becomes the kv slice, when the slice has the operand's
 *     shape; otherwise the canonical reshape itself is used.
 *
 * Candidates configured exactly like the first kernel (same outer
 * backend_config) are not duplicates: the seed's IsFlashAttentionKernel
 * excludes them (its early memcmp), and so does this pass (a remark says
 * so; nothing is rewritten, nothing is reported as changed).
 *
 * Why the rewrite is opt-in. The seed's duplicates are, by definition,
 * kernels whose own backend_config differs from the first's; cloning the
 * first onto a duplicate's operands swaps the called kernel configuration.
 * Two custom-calls with different configurations are different functions
 * as far as anything hilo can check is concerned (the evaluator treats a
 * custom-call as a function of its target and attributes), so the rewrite
 * cannot be proved. By default every duplicate is declined with a remark
 * naming the flag. With ctx->assume_equivalent_kernels (hilo-opt
 * --assume-equivalent-kernels) the pass does what the seed describes, and
 * registers each rewrite with hilo_rewrite_assume(): the rewrite validator
 * reports it as assumed, not proved.
 *
 * What still holds with the flag (each failure declines with a remark):
 * the clone has the first kernel's result shape, so a duplicate with
 * another shape is declined; a duplicate with side
 * effects or control edges is declined (the clone would run the effect
 * twice, or the edges would need rewiring); when the first kernel carries
 * per-operand attributes (operand_layout_constraints,
 * output_to_operand_aliasing) and the duplicate has another operand count,
 * the clone would be malformed: declined. The q/kv substitution replaces
 * an operand identical to the canonical reshape (same opcode, shape,
 * attributes and the very same operand, so the same value) by the
 * canonical slice when it has the operand's shape, else by the canonical
 * reshape itself: the operand value never changes, only the kernel
 * configuration is assumed. A rewrite whose clone would be identical to
 * the duplicate (same attributes and operands) is not a change and is not
 * made.
 */
#include "hilo/pass.h"

#include <stdlib.h>
#include <string.h>

#define TARGET "AwsNeuronCustomNativeKernel"
#define PASS_NAME "neuron-preprocess-kernel-duplicate-remover"

static bool is_kernel(const hilo_instr *i)
{
	if (i->op != HILO_OP_CUSTOM_CALL)
		return false;
	const char *t = hilo_instr_get_string(i, HILO_A_CUSTOM_CALL_TARGET);
	return t && strcmp(t, TARGET) == 0;
}

/* The raw backend_config text ("" when absent). */
static const char *backend_config(const hilo_instr *i)
{
	const hilo_attr *a = hilo_instr_attr(i, HILO_A_BACKEND_CONFIG);
	if (!a || (a->kind != HILO_ATTR_RAW && a->kind != HILO_ATTR_STRING) || !a->v.text)
		return "";
	return a->v.text;
}

static bool rank3(const hilo_shape *s)
{
	return hilo_shape_is_array(s) && s->rank == 3;
}

static hilo_instr *find_first_preprocess_kernel(hilo_module *m)
{
	for (uint32_t ci = 0; ci < m->ncomps; ci++)
		for (hilo_instr *i = m->comps[ci]->first; i; i = i->next) {
			if (!is_kernel(i) || i->noperands != 1)
				continue;
			const hilo_shape *op = i->operands[0]->shape;
			if (!rank3(op) || op->dims[0] != 1 || !rank3(i->shape))
				continue;
			if (2 * op->dims[2] != i->shape->dims[2])
				continue;
			return i;
		}
	return NULL;
}

/* operand(0), or NULL when there is none. */
static hilo_instr *op0(const hilo_instr *i)
{
	return i && i->noperands ? i->operands[0] : NULL;
}

/* The seed's IsFlashAttentionKernel descent (the exclusion of kernels
 * configured like the first is the caller's, for its remark). */
static bool is_flash_attention_kernel(const hilo_instr *i, const hilo_instr *first, const char *name)
{
	if (i == first || !is_kernel(i) || i->noperands < 8)
		return false;
	hilo_instr *o = op0(op0(i->operands[i->noperands - 1]));
	o = op0(op0(op0(o)));
	if (!o || o->op != HILO_OP_CUSTOM_CALL)
		return false;
	hilo_instr *inner = op0(op0(op0(o)));
	return inner && strcmp(backend_config(inner), name) == 0;
}

static bool ints_equal(const int64_t *a, const int64_t *b, int n)
{
	return n <= 0 || memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

static bool attr_equal(const hilo_instr *ia, const hilo_attr *a, const hilo_instr *ib, const hilo_attr *b)
{
	if (a->kind != b->kind || a->n != b->n)
		return false;
	switch (a->kind) {
	case HILO_ATTR_RAW:
	case HILO_ATTR_STRING:
	case HILO_ATTR_ENUM:
		return strcmp(a->v.text ? a->v.text : "", b->v.text ? b->v.text : "") == 0;
	case HILO_ATTR_INT:
	case HILO_ATTR_BOOL:
		return a->v.i == b->v.i;
	case HILO_ATTR_INTS:
		return ints_equal(a->v.ints, b->v.ints, a->n);
	case HILO_ATTR_SLICE:
	case HILO_ATTR_PADDING:
		return ints_equal(a->v.ints, b->v.ints, 3 * a->n);
	case HILO_ATTR_COMP:
		return a->v.i >= 0 && b->v.i >= 0 && (uint64_t)a->v.i < hilo_instr_ncalled(ia) &&
			(uint64_t)b->v.i < hilo_instr_ncalled(ib) && hilo_instr_called(ia)[a->v.i] == hilo_instr_called(ib)[b->v.i];
	case HILO_ATTR_COMPS:
		for (int k = 0; k < a->n; k++) {
			uint64_t x = (uint64_t)(a->v.i + k), y = (uint64_t)(b->v.i + k);
			if (x >= hilo_instr_ncalled(ia) || y >= hilo_instr_ncalled(ib) || hilo_instr_called(ia)[x] != hilo_instr_called(ib)[y])
				return false;
		}
		return true;
	case HILO_ATTR_CONTROL:
	case HILO_ATTR_METADATA:
		return true;
	}
	return false;
}

static bool ignored_attr(const hilo_attr *a)
{
	return a->kind == HILO_ATTR_CONTROL || a->kind == HILO_ATTR_METADATA;
}

/* Every attribute other than metadata / control marks equal, both ways. */
static bool attrs_equal(const hilo_instr *a, const hilo_instr *b)
{
	uint32_t na = 0, nb = 0;
	for (uint32_t k = 0; k < a->nattrs; k++) {
		const hilo_attr *x = &a->attrs[k];
		if (ignored_attr(x))
			continue;
		na++;
		const hilo_attr *y = hilo_instr_attr_match(b, x);
		if (!y || !attr_equal(a, x, b, y))
			return false;
	}
	for (uint32_t k = 0; k < b->nattrs; k++)
		if (!ignored_attr(&b->attrs[k]))
			nb++;
	return na == nb;
}

/* The seed's IdenticalInternal(a, b) with pointer-equal operands and
 * called computations, layout-sensitive. */
static bool identical(const hilo_instr *a, const hilo_instr *b)
{
	if (a == b)
		return true;
	if (a->op != b->op || !hilo_shape_equal(a->shape, b->shape) || a->noperands != b->noperands ||
	    hilo_instr_ncalled(a) != hilo_instr_ncalled(b))
		return false;
	for (uint32_t k = 0; k < a->noperands; k++)
		if (a->operands[k] != b->operands[k])
			return false;
	for (uint32_t k = 0; k < hilo_instr_ncalled(a); k++)
		if (hilo_instr_called(a)[k] != hilo_instr_called(b)[k])
			return false;
	return attrs_equal(a, b);
}

/* Would clone(first) on d's operands, with the q/kv substitutions, be
 * the instruction d already is? */
static bool same_as_clone(const hilo_instr *d, const hilo_instr *first, const hilo_instr *q,
	const hilo_instr *kv)
{
	uint32_t n = d->noperands;
	if (!hilo_shape_equal(d->shape, first->shape) || hilo_instr_ncalled(d) != hilo_instr_ncalled(first) ||
	    d->operands[n - 2] != q || d->operands[n - 1] != kv)
		return false;
	for (uint32_t k = 0; k < hilo_instr_ncalled(d); k++)
		if (hilo_instr_called(d)[k] != hilo_instr_called(first)[k])
			return false;
	return attrs_equal(d, first);
}

/* Lexicographic compare of slice starts: < 0 when a starts first. */
static int cmp_starts(const hilo_instr *a, const hilo_instr *b)
{
	const hilo_attr *x = hilo_instr_attr(a, HILO_A_SLICE), *y = hilo_instr_attr(b, HILO_A_SLICE);
	if (!x || !y || x->kind != HILO_ATTR_SLICE || y->kind != HILO_ATTR_SLICE)
		return 0;
	for (int k = 0; k < x->n && k < y->n; k++)
		if (x->v.ints[3 * k] != y->v.ints[3 * k])
			return x->v.ints[3 * k] < y->v.ints[3 * k] ? -1 : 1;
	return 0;
}

static hilo_pass_result ret_check_failed(hilo_pass_ctx *ctx, const hilo_instr *at, const char *check,
	const char *detail)
{
	hilo_diag_add(ctx->diags, HILO_SEV_ERROR, ctx->filename, at->line, at->col, NULL, 0,
		"%s: RET_CHECK failure: %s (%s)", ctx->pass ? ctx->pass : PASS_NAME, check, detail);
	hilo_remark(ctx, NULL, at, "error", "RET_CHECK failure: %s (%s)", check, detail);
	return HILO_PASS_ERROR;
}

static uint32_t distinct_users(const hilo_instr *i, hilo_instr **out, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t k = 0; k < i->nusers; k++) {
		hilo_instr *u = i->users[k].user;
		bool dup = false;
		for (uint32_t j = 0; j < n && j < max; j++)
			dup |= out[j] == u;
		if (dup)
			continue;
		if (n < max)
			out[n] = u;
		n++;
	}
	return n;
}

hilo_pass_result hilo_pass_neuron_preprocess_kernel_duplicate_remover(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_instr *first = find_first_preprocess_kernel(m);
	if (!first)
		return HILO_PASS_UNCHANGED;
	const char *name = backend_config(first);

	hilo_instr *u[2] = {NULL, NULL};
	uint32_t nu = distinct_users(first, u, 2);
	if (nu != 2)
		return ret_check_failed(ctx, first, "first->user_count() == 2",
			hilo_arena_printf(m->arena, "%s has %u users", first->name, nu));
	if (u[0]->op != HILO_OP_SLICE || u[1]->op != HILO_OP_SLICE)
		return ret_check_failed(ctx, first,
			"users()[0]->opcode() == kSlice && users()[1]->opcode() == kSlice",
			hilo_arena_printf(m->arena, "users of %s are %s %s and %s %s", first->name,
				hilo_opcode_name(u[0]->op), u[0]->name, hilo_opcode_name(u[1]->op), u[1]->name));
	hilo_instr *q_slice = u[0], *kv_slice = u[1];
	if (cmp_starts(q_slice, kv_slice) > 0) {
		q_slice = u[1];
		kv_slice = u[0];
	}
	hilo_instr *r[1];
	if (distinct_users(q_slice, r, 1) != 1 || r[0]->op != HILO_OP_RESHAPE)
		return ret_check_failed(ctx, q_slice,
			"q_slice->user_count() == 1 && q_slice->users()[0]->opcode() == kReshape",
			hilo_arena_printf(m->arena, "q slice %s", q_slice->name));
	hilo_instr *q_reshape = r[0];
	if (distinct_users(kv_slice, r, 1) != 1 || r[0]->op != HILO_OP_RESHAPE)
		return ret_check_failed(ctx, kv_slice,
			"kv_slice->user_count() == 1 && kv_slice->users()[0]->opcode() == kReshape",
			hilo_arena_printf(m->arena, "kv slice %s", kv_slice->name));
	hilo_instr *kv_reshape = r[0];
	uint64_t rewrites = 0;

	for (uint32_t ci = 0; ci < m->ncomps; ci++) {
		hilo_comp *c = m->comps[ci];
		for (hilo_instr *d = c->first, *next; d; d = next) {
			next = d->next;
			if (!is_flash_attention_kernel(d, first, name))
				continue;
			if (strcmp(backend_config(d), name) == 0) {
				hilo_remark(ctx, c, d, "declined",
					"configured exactly like the first kernel %s: not a duplicate (the seed "
					"excludes it)", first->name);
				continue;
			}
			if (!ctx->assume_equivalent_kernels) {
				hilo_remark(ctx, c, d, "declined",
					"duplicate of %s by its inner kernel's backend_config, but its own "
					"backend_config differs: two custom-calls with different configurations are "
					"different functions, so the seed's rewrite cannot be proved "
					"(--assume-equivalent-kernels performs it as an assumption)", first->name);
				continue;
			}
			if (!hilo_shape_equal(d->shape, first->shape)) {
				hilo_remark(ctx, c, d, "declined",
					"duplicate's result shape differs from the first kernel's (%s)", first->name);
				continue;
			}
			if (hilo_instr_has_side_effect(m, d) || hilo_instr_nctrl_preds(d) || hilo_instr_nctrl_succs(d) ||
			    hilo_instr_has_side_effect(m, first)) {
				hilo_remark(ctx, c, d, "declined",
					"duplicate (or %s) has side effects or control dependencies", first->name);
				continue;
			}
			uint32_t n = d->noperands;
			if (n != first->noperands && (hilo_instr_attr(first, HILO_A_OPERAND_LAYOUT_CONSTRAINTS) ||
			    hilo_instr_attr(first, HILO_A_OUTPUT_TO_OPERAND_ALIASING))) {
				hilo_remark(ctx, c, d, "declined",
					"%s has per-operand attributes for %u operands; a clone on %u operands "
					"would be malformed", first->name, first->noperands, n);
				continue;
			}
			hilo_instr *ops_q = d->operands[n - 2], *ops_kv = d->operands[n - 1];
			if (identical(ops_q, q_reshape))
				ops_q = hilo_shape_equal(q_slice->shape, ops_q->shape) ? q_slice : q_reshape;
			if (identical(ops_kv, kv_reshape))
				ops_kv = hilo_shape_equal(kv_slice->shape, ops_kv->shape) ? kv_slice : kv_reshape;
			if (same_as_clone(d, first, ops_q, ops_kv)) {
				hilo_remark(ctx, c, d, "declined",
					"the clone of %s would be identical to it: not a change", first->name);
				continue;
			}
			hilo_instr *clone = hilo_instr_clone(m, first, NULL);
			for (uint32_t k = 0; k < n; k++)
				hilo_instr_add_operand(m, clone, k == n - 2 ? ops_q : k == n - 1 ? ops_kv : d->operands[k]);
			hilo_comp_insert_before(c, d, clone);
			hilo_instr_replace_all_uses(m, d, clone);
			hilo_rewrite_assume(ctx, d, clone,
				hilo_arena_printf(m->arena, "kernel %s assumed equivalent to a clone of %s "
					"(--assume-equivalent-kernels)", d->name, first->name));
			hilo_remark(ctx, c, d, "rewritten",
				"replaced by %s, a clone of %s on its operands (assumed equivalent, not proved: "
				"--assume-equivalent-kernels)", clone->name, first->name);
			ctx->rewrites++;
			rewrites++;
		}
	}
	/* The seed's trailing HloDCE runs unconditionally. */
	uint64_t before = ctx->rewrites;
	hilo_pass_result dr = hilo_pass_dce(ctx);
	ctx->rewrites = before;
	if (dr == HILO_PASS_ERROR)
		return dr;
	return rewrites || dr == HILO_PASS_CHANGED ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
