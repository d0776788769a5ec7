/* dce: dead code elimination (XLA's HloDCE, name "dce").
 *
 * Rewrites: removes every instruction that is dead, then every
 * computation the entry computation can no longer reach.
 *
 * Exact conditions. An instruction is removed when it
 *  - has no users and is not its computation's root,
 *  - has neither control predecessors nor control successors,
 *  - is not a parameter (parameters of non-entry computations would need
 *    every caller rewritten; entry parameters are the module's signature),
 *  - has no side effect, looking into every computation it calls
 *    (hilo_instr_has_side_effect_deep, include/hilo/ir.h), and
 *  - is not an asynchronous start/update/done or copy-start/done (their
 *    pairs live and die together; we never split them), and
 *  - is not a sharding annotation: a custom-call with target "Sharding"
 *    or "xla.sdy.FuncResultSharding". The annotation tells the SPMD
 *    partitioner how its operand is split, so it is part of the program
 *    even without users (issue 12: sharding annotations are never removed
 *    as dead code). XLA's HloDCE keeps it whenever its operand is live (a
 *    parameter, the root, or used elsewhere) and removes it with an
 *    operand nothing else uses; hilo keeps it in every case (and so its
 *    operand), which only removes less, and agrees with the rewrite
 *    validator, which counts a removed Sharding as a dropped effect.
 * Removing an instruction may make its operands dead; they are visited in
 * turn (a worklist, so the pass is linear in the instruction count).
 * A computation is removed when no instruction reachable from the entry
 * computation calls it (directly or through other computations).
 *
 * Multi-output fusions (XLA's RemoveMultiOutputFusionsUnusedOutputs): a
 * fusion that is the only caller of its fused computation, whose fused
 * root is a tuple (without sharding, users or control edges) and whose
 * users are all get-tuple-elements loses the outputs no get-tuple-element
 * reads, unless the output is side-effecting: the root tuple keeps the
 * rest in order, the fusion's shape follows, get-tuple-element indices are
 * renumbered; with one output left the fusion returns it directly and its
 * get-tuple-elements are replaced by the fusion (their control edges move
 * to it). Then dead code of the fused computation goes, and so do its
 * parameters nothing reads, with the fusion's matching operands; its
 * output_to_operand_aliasing, which names operands by number, is
 * renumbered with them (hilo_instr_renumber_operand_attrs), and a
 * parameter the aliasing names is kept (remark). Declined
 * (remark) for fusions with control dependencies, output_to_operand_
 * aliasing, kind=kCustom, a sharding (hilo only: a tuple sharding would no
 * longer match the shape), or that are their computation's root.
 *
 * Unused parameters of called computations (XLA's UnusedCalledParameter):
 * a computation other than the entry whose every caller is a `call`
 * (to_apply, its only callee) loses each parameter nothing reads (no
 * users, not the root, no control edges), the later ones renumbered, and
 * every call site loses the matching operand; then what only fed it is
 * dead code of the caller. Declined (remark) when a call site carries
 * output_to_operand_aliasing (operand-indexed) or control edges.
 * Computations reached only through removed instructions go with the
 * unreachable ones (XLA's IndirectComputationRemoval).
 *
 * Why it is sound: a dead, effect-free instruction cannot influence any
 * value the program returns or any effect it performs; an unreachable
 * computation is never executed. An output no one reads is dead code of
 * the fused computation (effects are kept), and a fusion's parameter that
 * nothing in its only fused computation reads is an unused argument.
 *
 * Seed: none (XLA semantics, reference/xla-equivalents.md item 4); the
 * seed passes call it as their final clean-up.
 */
#include "variants.h"

#include <stdlib.h>
#include <string.h>

/* A sharding annotation, never removed (see the header). */
static bool is_sharding_annotation(const hilo_instr *i)
{
	if (i->op != HILO_OP_CUSTOM_CALL)
		return false;
	const char *t = hilo_instr_get_string(i, HILO_A_CUSTOM_CALL_TARGET);
	return t && (strcmp(t, "Sharding") == 0 || strcmp(t, "xla.sdy.FuncResultSharding") == 0);
}

static bool is_async_piece(hilo_opcode op)
{
	switch (op) {
	case HILO_OP_ASYNC_START:
	case HILO_OP_ASYNC_UPDATE:
	case HILO_OP_ASYNC_DONE:
	case HILO_OP_COPY_START:
	case HILO_OP_COPY_DONE:
		return true;
	default:
		return false;
	}
}

/* The call sites of every computation: the instructions that call
 * something, in list order, gathered by the first sweep of dce_comp
 * over each computation. The pass only removes instructions and never
 * gives one a callee, so the sites of c still in c (parent == c) are c's
 * call sites at any later point of the pass: the call graph walks below
 * read them instead of walking every instruction again (they were three
 * more walks of the whole module, per dce run). */
typedef struct sites {
	hilo_arena *a;
	hilo_ptrmap range; /* comp -> (index into begin/end) + 1 */
	hilo_instr **v;
	size_t n, cap;
	size_t *begin, *end;
	uint32_t nranges, cap_ranges;
	bool failed; /* an allocation failed (only without a guard): not used */
} sites;

static void sites_push(sites *S, hilo_instr *i)
{
	if (S->n == S->cap) {
		size_t cap = S->cap ? 2 * S->cap : 64;
		hilo_instr **v = hilo_heap_realloc(S->a, S->v, cap * sizeof *v);
		if (!v) {
			S->failed = true;
			return;
		}
		S->v = v;
		S->cap = cap;
	}
	S->v[S->n++] = i;
}

static void sites_open(sites *S, hilo_comp *c)
{
	if (S->nranges == S->cap_ranges) {
		uint32_t cap = S->cap_ranges ? 2 * S->cap_ranges : 16;
		size_t *b = hilo_heap_realloc(S->a, S->begin, cap * sizeof *b);
		if (b)
			S->begin = b;
		size_t *e = b ? hilo_heap_realloc(S->a, S->end, cap * sizeof *e) : NULL;
		if (!e) {
			S->failed = true;
			return;
		}
		S->end = e;
		S->cap_ranges = cap;
	}
	S->begin[S->nranges] = S->end[S->nranges] = S->n;
	if (!hilo_ptrmap_put(&S->range, c, (void *)(uintptr_t)(S->nranges + 1)))
		S->failed = true;
	S->nranges++;
}

/* The range of a computation that was swept. */
static size_t range_index(const sites *S, const hilo_comp *c)
{
	return (size_t)(uintptr_t)hilo_ptrmap_get(&S->range, c) - 1;
}

/* The sites of c as [*b, *e) of S->v; false when c was not swept. */
static bool sites_of(const sites *S, const hilo_comp *c, size_t *b, size_t *e)
{
	uintptr_t r = (uintptr_t)hilo_ptrmap_get(&S->range, c);
	if (!r)
		return false;
	*b = S->begin[r - 1];
	*e = S->end[r - 1];
	return true;
}

/* Removes dead instructions of c; returns the number removed. With S,
 * also records c's call sites (the first sweep). */
static uint64_t dce_comp(hilo_pass_ctx *ctx, hilo_comp *c, hilo_ptrmap *memo, sites *S,
	hilo_dce_effect_fn has_effect)
{
	hilo_module *m = ctx->m;
	size_t cap = c->ninstrs + 1, n = 0;
	hilo_instr **work = hilo_heap_alloc(m->arena, cap * sizeof *work);
	if (!work) {
		if (S)
			S->failed = true;
		return 0;
	}
	if (S && !S->failed)
		sites_open(S, c);
	if (S && !S->failed) {
		for (hilo_instr *i = c->first; i; i = i->next) {
			if (i->nusers == 0 && i != c->root)
				work[n++] = i;
			if (hilo_instr_ncalled(i))
				sites_push(S, i);
		}
		if (!S->failed)
			S->end[S->nranges - 1] = S->n;
	} else {
		for (hilo_instr *i = c->first; i; i = i->next)
			if (i->nusers == 0 && i != c->root)
				work[n++] = i;
	}
	uint64_t removed = 0;
	while (n) {
		hilo_instr *i = work[--n];
		if (i->parent != c || i->nusers || i == c->root)
			continue;
		if (i->op == HILO_OP_PARAMETER)
			continue;
		if (hilo_instr_nctrl_preds(i) || hilo_instr_nctrl_succs(i)) {
			hilo_remark(ctx, c, i, "declined", "dead but has control dependencies");
			continue;
		}
		if (is_sharding_annotation(i)) {
			hilo_remark(ctx, c, i, "declined", "dead but a sharding annotation");
			continue;
		}
		bool effect = has_effect(m, i, memo);
		if (is_async_piece(i->op) || effect) {
			hilo_remark(ctx, c, i, "declined", "dead but has side effects");
			continue;
		}
		/* operands may become dead: queue each once it has no users left */
		uint32_t nops = i->noperands;
		hilo_instr **ops = nops ? hilo_heap_alloc(m->arena, nops * sizeof *ops) : NULL;
		if (nops && !ops)
			break;
		for (uint32_t k = 0; k < nops; k++)
			ops[k] = i->operands[k];
		hilo_remark(ctx, c, i, "rewritten", "removed dead instruction");
		hilo_comp_remove(c, i);
		removed++;
		for (uint32_t k = 0; k < nops; k++) {
			hilo_instr *o = ops[k];
			bool seen = false;
			for (uint32_t j = 0; j < k; j++)
				seen |= ops[j] == o;
			if (!seen && o->parent == c && o->nusers == 0 && o != c->root && n < cap)
				work[n++] = o;
		}
		hilo_heap_free(m->arena, ops);
	}
	hilo_heap_free(m->arena, work);
	return removed;
}

/* ---- multi-output fusions (XLA's RemoveMultiOutputFusionsUnusedOutputs) ---- */

/* For every computation, its only caller when that is a fusion calling
 * nothing else; (void *)1 when it has other or several callers. One walk
 * over the module (linear). */
static void fusion_call(hilo_ptrmap *out, const hilo_instr *i)
{
	for (uint32_t j = 0; j < hilo_instr_ncalled(i); j++) {
		hilo_comp *c = hilo_instr_called(i)[j];
		bool first = !hilo_ptrmap_get(out, c);
		bool fusion = i->op == HILO_OP_FUSION && hilo_instr_ncalled(i) == 1;
		hilo_ptrmap_put(out, c, first && fusion ? (void *)i : (void *)1);
	}
}

/* From the recorded call sites when every computation has them (the
 * same instructions in the same order as the walk). */
static void fusion_callers(hilo_module *m, const sites *S, hilo_ptrmap *out)
{
	for (uint32_t k = 0; k < m->ncomps; k++) {
		hilo_comp *c = m->comps[k];
		size_t b, e;
		if (S && sites_of(S, c, &b, &e)) {
			for (size_t q = b; q < e; q++)
				if (S->v[q]->parent == c)
					fusion_call(out, S->v[q]);
			continue;
		}
		for (hilo_instr *i = c->first; i; i = i->next)
			fusion_call(out, i);
	}
}

/* hilo_module_comp_post_order from the recorded call sites: the same DFS
 * (roots in module order, callees in list and operand order), reading
 * only the instructions that call something. Falls back to the walk when
 * a callee was not swept (not a computation of the module). */
static hilo_comp **comp_post_order(hilo_module *m, const sites *S, uint32_t *n)
{
	if (!S)
		return hilo_module_comp_post_order(m, n);
	for (size_t q = 0; q < S->n; q++)
		for (uint32_t k = 0; k < hilo_instr_ncalled(S->v[q]); k++)
			if (!hilo_ptrmap_get(&S->range, hilo_instr_called(S->v[q])[k]))
				return hilo_module_comp_post_order(m, n);
	for (uint32_t k = 0; k < m->ncomps; k++)
		if (!hilo_ptrmap_get(&S->range, m->comps[k]))
			return hilo_module_comp_post_order(m, n);
	hilo_comp **out = hilo_arena_alloc(m->arena, (m->ncomps + 1) * sizeof *out);
	typedef struct { hilo_comp *c; size_t q, e; uint32_t k; } frame;
	frame *st = out ? hilo_heap_alloc(m->arena, (m->ncomps + 1) * sizeof *st) : NULL;
	/* visited, by range index (every computation has one, checked above) */
	unsigned char *seen = st ? hilo_heap_alloc(m->arena, (size_t)S->nranges + 1) : NULL;
	if (!seen) { /* only without an out-of-memory guard */
		hilo_heap_free(m->arena, st);
		return hilo_module_comp_post_order(m, n);
	}
	uint32_t no = 0;
	for (uint32_t r = 0; r < m->ncomps; r++) {
		hilo_comp *root = m->comps[r];
		if (seen[range_index(S, root)])
			continue;
		uint32_t sp = 0;
		seen[range_index(S, root)] = 1;
		size_t b = 0, e = 0; /* every computation and callee has sites (checked) */
		sites_of(S, root, &b, &e);
		st[sp++] = (frame){root, b, e, 0};
		while (sp) {
			frame *f = &st[sp - 1];
			while (f->q < f->e && (S->v[f->q]->parent != f->c || f->k >= hilo_instr_ncalled(S->v[f->q]))) {
				f->q++;
				f->k = 0;
			}
			if (f->q == f->e) {
				out[no++] = f->c;
				sp--;
				continue;
			}
			hilo_comp *callee = hilo_instr_called(S->v[f->q])[f->k++];
			if (!seen[range_index(S, callee)] && sp < m->ncomps) {
				seen[range_index(S, callee)] = 1;
				sites_of(S, callee, &b, &e);
				st[sp++] = (frame){callee, b, e, 0};
			}
		}
	}
	hilo_heap_free(m->arena, st);
	hilo_heap_free(m->arena, seen);
	*n = no;
	return out;
}

/* The fusion instruction that is the only caller of c, or NULL. */
static hilo_instr *sole_fusion_caller(const hilo_ptrmap *callers, const hilo_comp *c)
{
	void *v = hilo_ptrmap_get(callers, c);
	return v == (void *)1 ? NULL : v;
}

/* Why the outputs of fusion f (calling fc, root a tuple) are left alone,
 * or NULL. */
static const char *mof_decline(const hilo_instr *f, const hilo_comp *fc)
{
	const hilo_instr *r = fc->root;
	if (!r || r->op != HILO_OP_TUPLE || !hilo_shape_is_tuple(f->shape) ||
	    f->shape->ntuple != (int)r->noperands)
		return NULL; /* not a multi-output fusion: nothing to say */
	if (hilo_instr_attr(r, HILO_A_SHARDING))
		return "fused root tuple has a sharding";
	if (r->nusers || hilo_instr_nctrl_preds(r) || hilo_instr_nctrl_succs(r))
		return "fused root tuple has users or control dependencies";
	if (hilo_instr_attr(f, HILO_A_SHARDING))
		return "fusion has a sharding";
	if (hilo_instr_attr(f, HILO_A_OUTPUT_TO_OPERAND_ALIASING))
		return "fusion has output_to_operand_aliasing";
	if (hilo_instr_nctrl_preds(f) || hilo_instr_nctrl_succs(f))
		return "fusion has control dependencies";
	const char *kind = hilo_instr_get_enum(f, HILO_A_KIND);
	if (kind && !strcmp(kind, "kCustom"))
		return "custom fusion";
	if (f->parent && f->parent->root == f)
		return "fusion is its computation's root";
	if (!f->nusers)
		return "fusion has no users";
	for (uint32_t k = 0; k < f->nusers; k++)
		if (f->users[k].user->op != HILO_OP_GET_TUPLE_ELEMENT)
			return "a user of the fusion is not a get-tuple-element";
	return "";
}

/* The tuple shape of old's elements k with newidx[k] >= 0, in order. */
static hilo_shape *tuple_subset(hilo_module *m, const hilo_shape *old, const int64_t *newidx,
	uint32_t used)
{
	hilo_shape **el = hilo_heap_alloc(m->arena, (used + 1) * sizeof *el);
	for (int k = 0; k < old->ntuple; k++)
		if (newidx[k] >= 0)
			el[newidx[k]] = old->elems[k];
	hilo_shape *s = hilo_shape_with_buffer(m->shapes, hilo_shape_tuple(m->shapes, (int)used, el),
		old->buffer);
	hilo_heap_free(m->arena, el);
	return s;
}

/* Drops the unused outputs of fusion f: the fused root tuple keeps the
 * used (and side-effecting) elements in order, the fusion's shape
 * follows, get-tuple-elements are renumbered; with one output left the
 * fusion returns it directly and its get-tuple-elements are replaced by
 * the fusion (their control successors move to the fusion). Returns
 * whether it changed anything. */
static bool shrink_fusion_outputs(hilo_pass_ctx *ctx, hilo_instr *f, hilo_comp *fc,
	hilo_ptrmap *memo)
{
	hilo_module *m = ctx->m;
	const char *why = mof_decline(f, fc);
	if (!why)
		return false;
	if (*why) {
		hilo_remark(ctx, f->parent, f, "declined", "unused fusion outputs kept: %s", why);
		return false;
	}
	hilo_instr *r = fc->root;
	uint32_t n = r->noperands;
	int64_t *newidx = hilo_heap_alloc(m->arena, (size_t)n * sizeof *newidx);
	if (!newidx)
		return false;
	for (uint32_t k = 0; k < n; k++)
		newidx[k] = -1;
	for (uint32_t k = 0; k < f->nusers; k++) {
		int64_t idx;
		if (!hilo_instr_get_int(f->users[k].user, HILO_A_INDEX, &idx) || idx < 0 ||
		    idx >= (int64_t)n) {
			hilo_heap_free(m->arena, newidx);
			return false;
		}
		newidx[idx] = 0;
	}
	uint32_t used = 0;
	for (uint32_t k = 0; k < n; k++) {
		if (newidx[k] < 0 && hilo_instr_has_side_effect_deep(m, r->operands[k], memo))
			newidx[k] = 0; /* side-effecting outputs stay */
		if (newidx[k] >= 0)
			newidx[k] = used++;
	}
	if (used == n) {
		hilo_heap_free(m->arena, newidx);
		return false;
	}
	hilo_instr **keep = hilo_heap_alloc(m->arena, (size_t)used * sizeof *keep);
	hilo_shape **shapes = hilo_heap_alloc(m->arena, (size_t)used * sizeof *shapes);
	if (!keep || !shapes) {
		hilo_heap_free(m->arena, newidx);
		hilo_heap_free(m->arena, keep);
		hilo_heap_free(m->arena, shapes);
		return false;
	}
	for (uint32_t k = 0; k < n; k++)
		if (newidx[k] >= 0) {
			keep[newidx[k]] = r->operands[k];
			shapes[newidx[k]] = f->shape->elems[k];
		}
	hilo_remark(ctx, f->parent, f, "rewritten", "removed %u unused fusion outputs of %u",
		n - used, n);
	if (used == 1) {
		/* the fusion returns its one output; its get-tuple-elements go */
		uint32_t ng = f->nusers;
		hilo_instr **gtes = hilo_heap_alloc(m->arena, (size_t)ng * sizeof *gtes);
		if (!gtes) {
			hilo_heap_free(m->arena, newidx);
			hilo_heap_free(m->arena, keep);
			hilo_heap_free(m->arena, shapes);
			return false;
		}
		for (uint32_t k = 0; k < ng; k++)
			gtes[k] = f->users[k].user;
		hilo_instr_set_shape(m, f, shapes[0]);
		for (uint32_t q = 0; q < ng; q++) {
			hilo_instr *g = gtes[q];
			if (!g->parent)
				continue; /* read the fusion twice: already replaced */
			for (uint32_t k = 0; k < hilo_instr_nctrl_preds(g); k++)
				hilo_instr_add_ctrl_pred(m, f, hilo_instr_ctrl_preds(g)[k]);
			for (uint32_t k = 0; k < hilo_instr_nctrl_succs(g); k++)
				hilo_instr_add_ctrl_pred(m, hilo_instr_ctrl_succs(g)[k], f);
			hilo_instr_remove_ctrl_deps(g);
			hilo_instr_replace_all_uses(m, g, f);
			hilo_comp_remove(g->parent, g);
		}
		hilo_heap_free(m->arena, gtes);
		hilo_comp_set_root(fc, keep[0]);
	} else {
		hilo_instr_set_shape(m, f, tuple_subset(m, f->shape, newidx, used));
		for (uint32_t k = 0; k < f->nusers; k++) {
			hilo_instr *g = f->users[k].user;
			int64_t idx;
			hilo_instr_get_int(g, HILO_A_INDEX, &idx);
			hilo_instr_set_attr(m, g, HILO_A_INDEX, HILO_ATTR_INT)->v.i = newidx[idx];
		}
		/* the fused root tuple keeps its name and metadata */
		hilo_instr_set_shape(m, r, tuple_subset(m, r->shape, newidx, used));
		hilo_instr_clear_operands(r);
		for (uint32_t k = 0; k < used; k++)
			hilo_instr_add_operand(m, r, keep[k]);
	}
	if (used == 1)
		hilo_comp_remove(fc, r);
	hilo_heap_free(m->arena, newidx);
	hilo_heap_free(m->arena, keep);
	hilo_heap_free(m->arena, shapes);
	return true;
}

/* Removes parameters of fusion computation fc (called only by f) that
 * nothing uses, with the matching operands of f; the rest renumbered. */
static uint64_t remove_dead_fusion_params(hilo_pass_ctx *ctx, hilo_instr *f, hilo_comp *fc,
	const hilo_dce_variant *v)
{
	hilo_module *m = ctx->m;
	if (f->noperands != fc->nparams)
		return 0;
	uint64_t removed = 0;
	for (uint32_t k = fc->nparams; k-- > 0;) {
		hilo_instr *p = fc->params[k];
		if (!p || p->nusers || hilo_instr_nctrl_preds(p) || hilo_instr_nctrl_succs(p) || fc->root == p)
			continue;
		uint32_t nops = f->noperands;
		/* operand-indexed attributes (output_to_operand_aliasing) name
		 * operands by number: renumbered with the operands, else an alias
		 * would name another operand (issue 30: an entry parameter the
		 * program returns, which an in-place kernel would overwrite) or
		 * none. An alias of the unused operand itself keeps it. */
		int64_t *map = hilo_heap_alloc(m->arena, (size_t)nops * sizeof *map);
		if (!map)
			return removed;
		for (uint32_t j = 0; j < nops; j++)
			map[j] = j < k ? (int64_t)j : j == k ? -1 : (int64_t)j - 1;
		bool renumbered = v->renumber(m, f, map, nops);
		hilo_heap_free(m->arena, map);
		if (!renumbered) {
			hilo_remark(ctx, fc, p, "declined", "unused fusion parameter %u kept: the fusion's "
				"output_to_operand_aliasing names it", k);
			continue;
		}
		hilo_instr **ops = hilo_heap_alloc(m->arena, (size_t)nops * sizeof *ops);
		if (!ops)
			return removed;
		memcpy(ops, f->operands, nops * sizeof *ops);
		hilo_instr_clear_operands(f);
		for (uint32_t j = 0; j < nops; j++)
			if (j != k)
				hilo_instr_add_operand(m, f, ops[j]);
		hilo_remark(ctx, fc, p, "rewritten", "removed unused fusion parameter %u", k);
		hilo_comp_remove(fc, p);
		for (uint32_t j = k + 1; j < fc->nparams; j++) {
			fc->params[j - 1] = fc->params[j];
			if (fc->params[j - 1])
				fc->params[j - 1]->u.param_no = j - 1;
		}
		fc->nparams--;
		removed++;
		hilo_heap_free(m->arena, ops);
	}
	return removed;
}

/* Drops operand k of call site f. */
static void drop_operand(hilo_module *m, hilo_instr *f, uint32_t k)
{
	hilo_instr **ops = hilo_heap_alloc(m->arena, (size_t)f->noperands * sizeof *ops);
	if (!ops)
		return;
	uint32_t nops = f->noperands;
	memcpy(ops, f->operands, nops * sizeof *ops);
	hilo_instr_clear_operands(f);
	for (uint32_t j = 0; j < nops; j++)
		if (j != k)
			hilo_instr_add_operand(m, f, ops[j]);
	hilo_heap_free(m->arena, ops);
}

/* Unused parameters of computations only `call`s call (see the header);
 * returns how many went. */
static uint64_t remove_dead_call_params(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	/* comp -> 1: called by plain calls only; other: called otherwise too */
	hilo_ptrmap role;
	hilo_ptrmap_init_in(&role, m->arena);
	void *const other = (void *)(uintptr_t)-1;
	hilo_instr **calls = NULL;
	size_t ncalls = 0, cap = 0;
	uint64_t removed = 0;
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next)
			for (uint32_t j = 0; j < hilo_instr_ncalled(i); j++) {
				hilo_comp *c = hilo_instr_called(i)[j];
				bool plain = i->op == HILO_OP_CALL && hilo_instr_ncalled(i) == 1 &&
				             i->noperands == c->nparams;
				if (!plain) {
					hilo_ptrmap_put(&role, c, other);
					continue;
				}
				if (ncalls == cap) {
					cap = cap ? 2 * cap : 16;
					hilo_instr **nv = hilo_heap_realloc(m->arena, calls, cap * sizeof *nv);
					if (!nv)
						goto out;
					calls = nv;
				}
				calls[ncalls++] = i;
				if (!hilo_ptrmap_get(&role, c))
					hilo_ptrmap_put(&role, c, (void *)1);
			}
	/* each callee's call sites as a list in input order (first[c] is the
	 * head, next[q] the one after site q; both index + 1), so that a
	 * computation's sites are visited without a scan over every call:
	 * linear on a chain of 10^5 calls */
	hilo_ptrmap first;
	hilo_ptrmap_init_in(&first, m->arena);
	size_t *next = ncalls ? hilo_heap_alloc(m->arena, ncalls * sizeof *next) : NULL;
	if (ncalls && !next)
		goto out_first;
	for (size_t q = ncalls; q-- > 0;) {
		hilo_comp *c = hilo_instr_called(calls[q])[0];
		next[q] = (size_t)(uintptr_t)hilo_ptrmap_get(&first, c);
		hilo_ptrmap_put(&first, c, (void *)(uintptr_t)(q + 1));
	}
	for (uint32_t k = 0; k < m->ncomps; k++) {
		hilo_comp *c = m->comps[k];
		if (c == m->entry || hilo_ptrmap_get(&role, c) != (void *)1)
			continue;
		size_t head = (size_t)(uintptr_t)hilo_ptrmap_get(&first, c);
		const char *why = NULL;
		for (size_t q1 = head; q1 && !why; q1 = next[q1 - 1]) {
			hilo_instr *f = calls[q1 - 1];
			if (hilo_instr_attr(f, HILO_A_OUTPUT_TO_OPERAND_ALIASING))
				why = "a call site has output_to_operand_aliasing";
			else if (hilo_instr_nctrl_preds(f) || hilo_instr_nctrl_succs(f))
				why = "a call site has control dependencies";
		}
		for (uint32_t p = c->nparams; p-- > 0;) {
			hilo_instr *pi = c->params[p];
			if (!pi || pi->nusers || hilo_instr_nctrl_preds(pi) || hilo_instr_nctrl_succs(pi) || c->root == pi)
				continue;
			if (why) {
				hilo_remark(ctx, c, pi, "declined", "unused parameter %u kept: %s", p, why);
				continue;
			}
			for (size_t q1 = head; q1; q1 = next[q1 - 1])
				if (calls[q1 - 1]->parent)
					drop_operand(m, calls[q1 - 1], p);
			hilo_remark(ctx, c, pi, "rewritten", "removed unused parameter %u of a called computation", p);
			hilo_comp_remove(c, pi);
			for (uint32_t j = p + 1; j < c->nparams; j++) {
				c->params[j - 1] = c->params[j];
				if (c->params[j - 1])
					c->params[j - 1]->u.param_no = j - 1;
			}
			c->nparams--;
			removed++;
		}
	}
	hilo_heap_free(m->arena, next);
out_first:
	hilo_ptrmap_free(&first);
out:
	hilo_heap_free(m->arena, calls);
	hilo_ptrmap_free(&role);
	return removed;
}

/* Removes computations the entry cannot reach; returns how many. */
static bool comp_reached(const hilo_comp *c, void *reached)
{
	return hilo_ptrmap_get(reached, c) != NULL;
}

/* Marks and stacks the computations i calls that are not reached yet. */
static void reach_calls(const hilo_instr *i, hilo_ptrmap *reached, hilo_comp **stack, size_t *sp,
	uint32_t ncomps)
{
	for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++) {
		hilo_comp *cc = hilo_instr_called(i)[k];
		if (!hilo_ptrmap_get(reached, cc) && *sp < ncomps) {
			hilo_ptrmap_put(reached, cc, cc);
			stack[(*sp)++] = cc;
		}
	}
}

/* Removes computations the entry cannot reach; returns how many. The
 * call sites S (or NULL: walk the lists) say what each one calls. */
static uint64_t remove_unreachable(hilo_pass_ctx *ctx, const sites *S)
{
	hilo_module *m = ctx->m;
	if (!m->entry)
		return 0;
	hilo_ptrmap reached;
	hilo_ptrmap_init_in(&reached, m->arena);
	hilo_comp **stack = hilo_heap_alloc(m->arena, (m->ncomps + 1) * sizeof *stack);
	if (!stack)
		return 0;
	size_t sp = 0;
	hilo_ptrmap_put(&reached, m->entry, m->entry);
	stack[sp++] = m->entry;
	while (sp) {
		hilo_comp *c = stack[--sp];
		size_t b, e;
		if (S && sites_of(S, c, &b, &e)) {
			for (size_t q = b; q < e; q++)
				if (S->v[q]->parent == c)
					reach_calls(S->v[q], &reached, stack, &sp, m->ncomps);
		} else {
			for (hilo_instr *i = c->first; i; i = i->next)
				reach_calls(i, &reached, stack, &sp, m->ncomps);
		}
	}
	hilo_heap_free(m->arena, stack);
	uint64_t removed = 0;
	for (uint32_t k = m->ncomps; k-- > 0;) {
		hilo_comp *c = m->comps[k];
		if (hilo_ptrmap_get(&reached, c))
			continue;
		hilo_remark(ctx, c, NULL, "rewritten", "removed unreachable computation");
		removed++;
	}
	/* in one pass: one removal at a time was quadratic (10^5 inlined
	 * callees took seconds) */
	if (removed)
		hilo_module_retain_comps(m, comp_reached, &reached);
	hilo_ptrmap_free(&reached);
	return removed;
}

hilo_pass_result hilo_pass_dce(hilo_pass_ctx *ctx)
{
	const hilo_dce_variant sound = {hilo_instr_has_side_effect_deep, hilo_instr_renumber_operand_attrs};
	return hilo_dce_run(ctx, &sound);
}

hilo_pass_result hilo_dce_run(hilo_pass_ctx *ctx, const hilo_dce_variant *v)
{
	hilo_module *m = ctx->m;
	hilo_dce_effect_fn has_effect = v->has_effect;
	hilo_ptrmap memo;
	hilo_ptrmap_init_in(&memo, m->arena);
	sites S = {.a = m->arena};
	hilo_ptrmap_init_in(&S.range, m->arena);
	uint64_t removed = 0;
	/* entry first, then the rest in print order: removing dead callers
	 * first lets their callees become unreachable */
	if (m->entry)
		removed += dce_comp(ctx, m->entry, &memo, &S, has_effect);
	for (uint32_t k = 0; k < m->ncomps; k++)
		if (m->comps[k] != m->entry)
			removed += dce_comp(ctx, m->comps[k], &memo, &S, has_effect);
	const sites *cs = S.failed ? NULL : &S;
	/* multi-output fusions: drop outputs no get-tuple-element reads, then
	 * what they alone computed, then parameters nothing reads any more;
	 * callers first (reverse call-graph post order), so a fusion nested in
	 * a fused computation is seen after its caller lost its outputs */
	uint32_t nc;
	hilo_comp **post = comp_post_order(m, cs, &nc);
	hilo_ptrmap callers;
	hilo_ptrmap_init_in(&callers, m->arena);
	fusion_callers(m, cs, &callers);
	bool again = false;
	for (uint32_t k = nc; k-- > 0;) {
		hilo_comp *fc = post[k];
		hilo_instr *f = fc->root ? sole_fusion_caller(&callers, fc) : NULL;
		if (!f || !f->parent)
			continue;
		if (shrink_fusion_outputs(ctx, f, fc, &memo)) {
			removed++;
			removed += dce_comp(ctx, fc, &memo, NULL, has_effect);
		}
		uint64_t params = remove_dead_fusion_params(ctx, f, fc, v);
		removed += params;
		again |= params != 0;
	}
	hilo_ptrmap_free(&callers);
	uint64_t params = remove_dead_call_params(ctx);
	removed += params;
	again |= params != 0;
	/* operands of fusions that lost parameters may be dead now: one more
	 * linear sweep (not one per fusion) */
	for (uint32_t k = 0; again && k < m->ncomps; k++)
		removed += dce_comp(ctx, m->comps[k], &memo, NULL, has_effect);
	hilo_ptrmap_free(&memo);
	removed += remove_unreachable(ctx, cs);
	hilo_heap_free(m->arena, S.v);
	hilo_heap_free(m->arena, S.begin);
	hilo_heap_free(m->arena, S.end);
	hilo_ptrmap_free(&S.range);
	ctx->rewrites += removed;
	return removed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
