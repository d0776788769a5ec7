/* neuron-dus-ds-index-simplifier (#80): proves now-constant start indices
 * of dynamic-slice / dynamic-update-slice, records them for later passes
 * of the same run and writes them as index tokens (seed 003,
 * "NeuronDynamicUpdateSliceDynamicSliceSimplifier";
 * docs/tokens.md).
 *
 * What it does (no structural DUS/DS rewrite):
 *  1. strips NeuronBoundaryMarker-Start/-End custom-calls, each replaced by
 *     its single operand (tuple operands included), with the one stripping
 *     the marker passes share (hilo_pu_strip_boundary_markers,
 *     src/transforms/pass_util.h): a marker without exactly one operand, or
 *     whose shape is not its operand's, is no identity and is kept with a
 *     declined remark (the first in the seed's CHECK wording
 *     "NeuronBoundaryMarker-Start expected to have 1 operand but has N");
 *     control edges are relayed, not dropped;
 *  2. finds, for every dynamic-slice and dynamic-update-slice, the value of
 *     its start indices as constant folding of the call-inlined module
 *     would see them. Proved starts (effective, clamped) are recorded in
 *     the run state by instruction id (hilo_proven_starts_set: the only
 *     thing consumers act on) and written onto the instruction as
 *     `dsidxnow=` / `dusidxnow=` tokens, one entry per dimension
 *     (hilo_tokens_set: idempotent, other op_name text kept). Tokens it
 *     cannot confirm are removed: all of the op's own key when nothing is
 *     proved, differing backend_config entries when something is, and the
 *     other op's key always. Input tokens are never read as values;
 *  3. splices get-tuple-elements whose value folded to a constant, arrays
 *     of at most 1024 elements included: the get-tuple-element is replaced
 *     by that constant (the seed's pass 4); one carrying a sharding is
 *     kept (a sharding is semantics);
 *  4. remarks every dynamic-slice / dynamic-update-slice whose indices did
 *     not become constant.
 *
 * How "clone, inline calls, constant-fold" is done: instead of
 * materialising the inlined clone, values are folded on demand in a call
 * context -- the chain of `call` instructions from the entry computation
 * down to the instruction (a persistent linked list, so each inlined copy
 * of a body is one context). A parameter of a called computation evaluates
 * to the call's operand in the caller's context; get-tuple-element of a
 * tuple / call / tuple constant is followed structurally; a `call` result
 * is its callee's root in the extended context; pure index ops
 * (hilo_index_op_foldable: what constant folding folds, so never
 * broadcast or iota) with all-constant operands of at most 1024 elements
 * are evaluated with hilo_eval_instr -- the evaluator is the one
 * definition of every op's semantics; there is no folder of our own. The
 * instruction itself is the stable id that maps a value found in any
 * inlined copy back to the original; when one original instruction has
 * several inlined copies (a body called from several sites), the copies
 * must all agree or nothing is proved. Entry parameters, while loops,
 * opaque ops (custom-calls, collectives, rng) and computations reached
 * other than through `call` are never constant.
 *
 * Why it is sound: the proven starts, tokens and spliced constants are the
 * values the instructions take on every execution (each execution happens
 * in one of the enumerated call contexts, and all agree); clamping follows
 * dynamic-slice/-update-slice semantics. Markers are identity functions.
 */
#include "hilo/eval.h"
#include "hilo/float.h"
#include "hilo/pass.h"
#include "hilo/tokens.h"
#include "pass_util.h"

#include <stdlib.h>
#include <string.h>

enum {
	MAX_ELEMS = 1024,     /* largest value folded */
	MAX_PATH = 16,        /* tuple nesting followed */
	MAX_DEPTH = 20000,    /* recursion guard */
	MAX_CONTEXTS = 64,    /* call contexts per computation */
};

typedef struct frame {
	hilo_instr *call;
	int parent;           /* index of the caller's frame, -1 = entry */
} frame;

typedef struct fold {
	hilo_pass_ctx *ctx;
	hilo_module *m;
	frame *frames;
	int nframes, capframes;
	uint64_t steps, budget;
	bool oom;
	hilo_ptrmap memo;     /* instr -> memo_entry: last (frame, value) */
} fold;

/* One cached whole-value result per instruction: the frame it was
 * computed in and the value (NULL = not constant). Enough to keep
 * DAG-shaped index arithmetic linear within one call context. */
typedef struct memo_entry {
	int fr;
	hilo_literal *val;
} memo_entry;

static int push_frame(fold *f, hilo_instr *call, int parent)
{
	if (f->nframes == f->capframes) {
		int cap = f->capframes ? f->capframes * 2 : 256;
		frame *nf = hilo_heap_realloc(f->m->arena, f->frames, (size_t)cap * sizeof *nf);
		if (!nf) {
			f->oom = true;
			return -2;
		}
		f->frames = nf;
		f->capframes = cap;
	}
	f->frames[f->nframes] = (frame){call, parent};
	return f->nframes++;
}

static bool small_array(const hilo_shape *s)
{
	if (!hilo_shape_is_array(s))
		return false;
	int64_t n = hilo_shape_elements(s);
	return n >= 0 && n <= MAX_ELEMS;
}

/* The value of element `path` of instruction i in call context fr, or
 * NULL when it is not a compile-time constant. */
static hilo_literal *value_uncached(fold *f, hilo_instr *i, int fr, const int64_t *path, int npath, int depth);

static hilo_literal *value(fold *f, hilo_instr *i, int fr, const int64_t *path, int npath, int depth)
{
	if (npath)
		return value_uncached(f, i, fr, path, npath, depth);
	memo_entry *e = hilo_ptrmap_get(&f->memo, i);
	if (e && e->fr == fr)
		return e->val;
	hilo_literal *v = value_uncached(f, i, fr, path, npath, depth);
	if (!e) {
		e = hilo_heap_alloc(f->m->arena, sizeof *e);
		if (!e || !hilo_ptrmap_put(&f->memo, i, e)) {
			hilo_heap_free(f->m->arena, e);
			return v;
		}
	}
	e->fr = fr;
	e->val = v;
	return v;
}

static hilo_literal *value_uncached(fold *f, hilo_instr *i, int fr, const int64_t *path, int npath, int depth)
{
	if (depth > MAX_DEPTH || f->oom || ++f->steps > f->budget)
		return NULL;
	switch (i->op) {
	case HILO_OP_CONSTANT: {
		hilo_literal *l = hilo_instr_literal(i);
		for (int k = 0; l && k < npath; k++)
			l = (path[k] >= 0 && path[k] < l->ntuple) ? l->elems[path[k]] : NULL;
		if (!l || l->elided || l->ntuple || !l->shape || !small_array(l->shape) || !l->data)
			return NULL;
		return l;
	}
	case HILO_OP_GET_TUPLE_ELEMENT: {
		int64_t k;
		if (npath >= MAX_PATH || !hilo_instr_get_int(i, HILO_A_INDEX, &k) || i->noperands != 1)
			return NULL;
		int64_t np[MAX_PATH];
		np[0] = k;
		if (npath)
			memcpy(np + 1, path, (size_t)npath * sizeof *path);
		return value(f, i->operands[0], fr, np, npath + 1, depth + 1);
	}
	case HILO_OP_TUPLE:
		if (npath == 0 || path[0] < 0 || (uint64_t)path[0] >= i->noperands)
			return NULL;
		return value(f, i->operands[path[0]], fr, path + 1, npath - 1, depth + 1);
	case HILO_OP_PARAMETER: {
		if (fr < 0)
			return NULL; /* entry parameter: a runtime input */
		hilo_instr *call = f->frames[fr].call;
		if (hilo_instr_param_no(i) < 0 || (uint64_t)hilo_instr_param_no(i) >= call->noperands)
			return NULL;
		return value(f, call->operands[hilo_instr_param_no(i)], f->frames[fr].parent, path, npath, depth + 1);
	}
	case HILO_OP_CALL: {
		if (hilo_instr_ncalled(i) != 1 || !hilo_instr_called(i)[0]->root)
			return NULL;
		int nf = push_frame(f, i, fr);
		if (nf < 0)
			return NULL;
		return value(f, hilo_instr_called(i)[0]->root, nf, path, npath, depth + 1);
	}
	default:
		break;
	}
	if (npath != 0 || !hilo_index_op_foldable(i->op) || !small_array(i->shape) || i->noperands > 16 ||
		hilo_instr_has_side_effect(f->m, i))
		return NULL;
	hilo_literal *ops[16];
	for (uint32_t k = 0; k < i->noperands; k++) {
		if (!small_array(i->operands[k]->shape))
			return NULL;
		ops[k] = value(f, i->operands[k], fr, NULL, 0, depth + 1);
		if (!ops[k])
			return NULL;
	}
	/* the evaluator is the one definition of every op's semantics */
	hilo_diags d;
	hilo_diags_init_in(&d, f->m->arena);
	hilo_literal *r = hilo_eval_instr(f->m, i, ops, &d);
	hilo_diags_free(&d);
	if (r && (r->ntuple || !r->data))
		r = NULL;
	return r;
}

/* Per-instruction result merged over all call contexts. */
typedef struct finding {
	hilo_instr *instr;
	int n;                 /* dims, or -1 unknown */
	int64_t v[HILO_MAX_RANK];
	hilo_literal *lit;     /* GTE splice candidate */
	bool conflict;
	bool seen;
} finding;

typedef struct state {
	fold f;
	hilo_ptrmap map;      /* instr -> finding* */
	finding **list;
	size_t nlist, caplist;
	hilo_ptrmap ctxcount; /* comp -> contexts visited */
	hilo_ptrmap poison;   /* comp -> 1: some executions not enumerated */
} state;

static finding *get_finding(state *s, hilo_instr *i)
{
	finding *fd = hilo_ptrmap_get(&s->map, i);
	if (fd)
		return fd;
	fd = hilo_heap_alloc(s->f.m->arena, (1) * sizeof *fd);
	if (!fd)
		return NULL;
	fd->instr = i;
	fd->n = -1;
	if (s->nlist == s->caplist) {
		size_t cap = s->caplist ? s->caplist * 2 : 64;
		finding **nl = hilo_heap_realloc(s->f.m->arena, s->list, cap * sizeof *nl);
		if (!nl) {
			hilo_heap_free(s->f.m->arena, fd);
			return NULL;
		}
		s->list = nl;
		s->caplist = cap;
	}
	s->list[s->nlist++] = fd;
	hilo_ptrmap_put(&s->map, i, fd);
	return fd;
}

/* Effective starts of a DS/DUS in context fr; false when not constant. */
static bool starts_in(state *s, hilo_instr *i, int fr, int64_t *out, int *rank)
{
	bool dus = i->op == HILO_OP_DYNAMIC_UPDATE_SLICE;
	const hilo_shape *in = i->operands[0]->shape;
	if (!hilo_shape_is_array(in) || in->rank > HILO_MAX_RANK)
		return false;
	int r = in->rank;
	uint32_t first = dus ? 2 : 1;
	if (i->noperands != first + (uint32_t)r)
		return false;
	const int64_t *extent;
	int next = 0;
	if (dus) {
		const hilo_shape *u = i->operands[1]->shape;
		if (!hilo_shape_is_array(u) || u->rank != r)
			return false;
		extent = u->dims;
	} else {
		extent = hilo_instr_get_ints(i, HILO_A_DYNAMIC_SLICE_SIZES, &next);
		if (!extent || next != r)
			return false;
	}
	for (int k = 0; k < r; k++) {
		hilo_instr *ix = i->operands[first + k];
		if (!hilo_shape_is_array(ix->shape) || ix->shape->rank != 0 || !hilo_ptype_is_int(ix->shape->type))
			return false;
		hilo_literal *l = value(&s->f, ix, fr, NULL, 0, 0);
		if (!l)
			return false;
		int64_t v = hilo_elem_get_i64(ix->shape->type, l->data, 0);
		if (ix->shape->type == HILO_T_U64 && v < 0)
			v = INT64_MAX;
		int64_t hi = in->dims[k] - extent[k];
		if (hi < 0)
			return false;
		out[k] = v < 0 ? 0 : v > hi ? hi : v;
	}
	*rank = r;
	return true;
}

static void merge_starts(finding *fd, const int64_t *v, int n, bool ok)
{
	if (fd->conflict)
		return;
	if (!ok) {
		fd->conflict = true;
		return;
	}
	if (!fd->seen) {
		fd->seen = true;
		fd->n = n;
		memcpy(fd->v, v, (size_t)n * sizeof *v);
		return;
	}
	if (fd->n != n || memcmp(fd->v, v, (size_t)n * sizeof *v) != 0)
		fd->conflict = true;
}

static bool lit_equal(const hilo_literal *a, const hilo_literal *b)
{
	return a->nbytes == b->nbytes && a->splat == b->splat && hilo_shape_compatible(a->shape, b->shape) &&
		memcmp(a->data, b->data, a->nbytes) == 0;
}

static void visit(state *s, hilo_comp *c, int fr, int depth)
{
	if (depth > 256 || s->f.oom)
		return;
	uintptr_t cnt = (uintptr_t)hilo_ptrmap_get(&s->ctxcount, c);
	if (cnt >= MAX_CONTEXTS || hilo_ptrmap_get(&s->poison, c)) {
		/* not every execution of c is enumerated: nothing in c (or what
		 * it calls, see poison_callees) can be proven constant */
		hilo_ptrmap_put(&s->poison, c, (void *)1);
		return;
	}
	hilo_ptrmap_put(&s->ctxcount, c, (void *)(cnt + 1));
	for (hilo_instr *i = c->first; i; i = i->next) {
		if (i->op == HILO_OP_DYNAMIC_SLICE || i->op == HILO_OP_DYNAMIC_UPDATE_SLICE) {
			int64_t v[HILO_MAX_RANK];
			int n = 0;
			bool ok = starts_in(s, i, fr, v, &n);
			finding *fd = get_finding(s, i);
			if (fd)
				merge_starts(fd, v, n, ok);
		} else if (i->op == HILO_OP_GET_TUPLE_ELEMENT && small_array(i->shape) && i->nusers > 0) {
			hilo_literal *l = value(&s->f, i, fr, NULL, 0, 0);
			finding *fd = get_finding(s, i);
			if (!fd || fd->conflict)
				continue;
			if (!l)
				fd->conflict = true;
			else if (!fd->lit)
				fd->lit = l;
			else if (!lit_equal(fd->lit, l))
				fd->conflict = true;
		} else if (i->op == HILO_OP_CALL && hilo_instr_ncalled(i) == 1) {
			int nf = push_frame(&s->f, i, fr);
			if (nf >= 0)
				visit(s, hilo_instr_called(i)[0], nf, depth + 1);
		}
	}
}

/* Poisons what caller i refers to other than by a call, and the entry
 * called (for hilo_module_comp_post_order_calls: st is the state). */
static void poison_non_call_refs(hilo_instr *i, void *st)
{
	state *s = st;
	for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++)
		if (i->op != HILO_OP_CALL || hilo_instr_called(i)[k] == s->f.m->entry)
			hilo_ptrmap_put(&s->poison, hilo_instr_called(i)[k], (void *)1);
}

/* Records what was proved about DS/DUS i (run state, by instruction id)
 * and makes its tokens say exactly that: the proven effective starts in
 * op_name; tokens it cannot confirm (no proof, or a backend_config value
 * that differs, or the other op's key) removed. True when i changed. */
static bool record_starts(hilo_pass_ctx *ctx, hilo_comp *comp, hilo_instr *i, const finding *fd)
{
	hilo_module *m = ctx->m;
	bool ds = i->op == HILO_OP_DYNAMIC_SLICE;
	const char *key = ds ? HILO_TOK_DS : HILO_TOK_DUS, *other = ds ? HILO_TOK_DUS : HILO_TOK_DS;
	bool changed = false;
	if (hilo_tokens_malformed(m, i, key) > 0)
		hilo_remark(ctx, comp, i, "declined", "malformed %s token ignored", key);
	changed |= hilo_tokens_remove(m, i, other, true, true);
	if (!fd || !fd->seen || fd->conflict) {
		hilo_proven_starts_clear(ctx, i);
		bool had = hilo_tokens_get(m, i, key, NULL, 0) > 0 || hilo_tokens_malformed(m, i, key) > 0;
		hilo_remark(ctx, comp, i, "declined", "%s%s",
			!fd ? "start indices did not become constant (not reached through calls from the entry computation)"
			: fd->seen && fd->conflict ? "start indices differ between call sites"
			: "start indices did not become constant",
			had ? "; unconfirmed index tokens removed" : "");
		if (hilo_tokens_remove(m, i, key, true, true)) {
			changed = true;
			ctx->rewrites++;
		}
		return changed;
	}
	hilo_proven_starts_set(ctx, i, fd->v, fd->n);
	int64_t bv[HILO_MAX_RANK];
	int nb = hilo_tokens_get_backend(m, i, key, bv, HILO_MAX_RANK);
	if ((nb && (nb != fd->n || memcmp(bv, fd->v, (size_t)fd->n * sizeof *bv) != 0)) ||
	    (!hilo_tokens_get(m, i, key, NULL, 0) && hilo_tokens_malformed(m, i, key)))
		changed |= hilo_tokens_remove(m, i, key, false, true);
	const char *before = hilo_instr_op_name(m, i);
	char *copy = before ? hilo_arena_strdup(m->arena, before) : NULL;
	hilo_tokens_set(m, i, key, fd->v, fd->n);
	const char *after = hilo_instr_op_name(m, i);
	if (!(copy && after && strcmp(copy, after) == 0)) {
		changed = true;
		ctx->rewrites++;
		hilo_remark(ctx, comp, i, "rewritten", "wrote %s tokens for %d dimension(s)", key, fd->n);
	}
	return changed;
}

hilo_pass_result hilo_pass_neuron_dus_ds_index_simplifier(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	bool changed = hilo_pu_strip_boundary_markers(ctx) > 0;
	if (!m->entry)
		return changed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;

	state s;
	memset(&s, 0, sizeof s);
	s.f.ctx = ctx;
	s.f.m = m;
	s.f.budget = 50000000;
	hilo_ptrmap_init_in(&s.map, m->arena);
	hilo_ptrmap_init_in(&s.ctxcount, m->arena);
	hilo_ptrmap_init_in(&s.f.memo, m->arena);
	hilo_ptrmap_init_in(&s.poison, m->arena);
	/* A computation's executions are all enumerated only when every
	 * reference to it is a `call` in a computation with the same property
	 * (or it is the entry); callers first. */
	uint32_t nco = 0;
	hilo_comp **order = hilo_module_comp_post_order_calls(m, &nco, poison_non_call_refs, &s);
	visit(&s, m->entry, -1, 0);
	for (uint32_t c = nco; c-- > 0;) {
		hilo_comp *comp = order[c];
		bool reached = comp == m->entry || hilo_ptrmap_get(&s.ctxcount, comp);
		if (!reached)
			hilo_ptrmap_put(&s.poison, comp, (void *)1);
		if (!hilo_ptrmap_get(&s.poison, comp))
			continue;
		for (hilo_instr *i = comp->first; i; i = i->next) {
			for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++)
				hilo_ptrmap_put(&s.poison, hilo_instr_called(i)[k], (void *)1);
			finding *fd = hilo_ptrmap_get(&s.map, i);
			if (fd)
				fd->conflict = true;
		}
	}

	/* proven starts and tokens (before any splice changes operands) */
	for (uint32_t c = 0; c < m->ncomps; c++) {
		hilo_comp *comp = m->comps[c];
		for (hilo_instr *i = comp->first; i; i = i->next)
			if (i->op == HILO_OP_DYNAMIC_SLICE || i->op == HILO_OP_DYNAMIC_UPDATE_SLICE)
				changed |= record_starts(ctx, comp, i, hilo_ptrmap_get(&s.map, i));
	}

	/* splice get-tuple-elements that folded to constants */
	for (size_t k = 0; k < s.nlist; k++) {
		finding *fd = s.list[k];
		hilo_instr *g = fd->instr;
		if (g->op != HILO_OP_GET_TUPLE_ELEMENT || fd->conflict || !fd->lit || !g->parent ||
			hilo_instr_nctrl_preds(g) || hilo_instr_nctrl_succs(g))
			continue;
		if (hilo_instr_attr(g, HILO_A_SHARDING)) {
			/* a sharding is semantics (issue 12 item 5): keep the element */
			hilo_remark(ctx, g->parent, g, "declined",
				"get-tuple-element folded to a constant but carries a sharding; not spliced");
			continue;
		}
		hilo_instr *cst = hilo_instr_create(m, HILO_OP_CONSTANT, g->shape, "constant");
		hilo_literal *l = hilo_arena_alloc(m->arena, sizeof *l);
		*l = *fd->lit;
		l->shape = g->shape;
		cst->u.literal = l;
		hilo_comp_insert_before(g->parent, g, cst);
		hilo_comp *comp = g->parent;
		hilo_instr_replace_all_uses(m, g, cst);
		hilo_comp_remove(comp, g);
		hilo_remark(ctx, comp, g, "rewritten", "get-tuple-element folded to a constant; spliced");
		ctx->rewrites++;
		changed = true;
	}

	for (size_t k = 0; k < s.nlist; k++)
		hilo_heap_free(m->arena, s.list[k]);
	hilo_heap_free(m->arena, s.list);
	hilo_heap_free(m->arena, s.f.frames);
	hilo_ptrmap_free(&s.map);
	hilo_ptrmap_free(&s.ctxcount);
	hilo_ptrmap_free(&s.poison);
	for (size_t k = 0; k < s.f.memo.cap; k++)
		if (s.f.memo.keys && s.f.memo.keys[k])
			hilo_heap_free(m->arena, s.f.memo.vals[k]);
	hilo_ptrmap_free(&s.f.memo);
	return changed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
