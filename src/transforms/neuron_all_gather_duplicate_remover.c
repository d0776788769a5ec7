/* neuron_all_gather_duplicate_remover (#106, seed 004 "#106 -
 * NeuronDuplicateParameterAllGatherRemover").
 *
 * What it rewrites: within one computation, an all-gather that gathers the
 * same parameter value as an earlier all-gather (post order), with the same
 * collective configuration, is replaced by the earlier one: every user (and
 * the root slot) is redirected, control edges are moved over, and the dce
 * pass (XLA's HloDCE) then removes the orphan if it has no side effect.
 *
 * Exact conditions. For each operand of an `all-gather` the value is traced
 * upwards (the seed's FindRawParameter):
 *   get-tuple-element  pushes its index and descends;
 *   tuple              pops the most recent index and follows that operand;
 *   opt-barrier        descends (it is the identity on values);
 *   convert            descends only when operand and result shapes are
 *                      equal (element type and layout included): a
 *                      dtype-changing convert stops the walk;
 *   all-gather         (single operand, array result) descends, and its
 *                      whole configuration becomes part of the key;
 *   all-gather-start   (single array operand, read through a
 *                      get-tuple-element: the seed's FindRawParameter
 *                      walks the all-gather family, (opcode & ~2) ==
 *                      kAllGather) pops the element index and descends;
 *                      the index and the start's whole configuration
 *                      become part of the key (all-gather-done, like any
 *                      other op, stops the walk, as in the seed);
 *   parameter          ends the walk; the unconsumed indices are the path
 *                      into the parameter.
 * Any other instruction stops the walk and the gather is skipped with a
 * remark. The key is: per operand (parameter id, index path, nested
 * gathers' configs), then the gather's output shape with layout (so the
 * element type), all_gather dimension, use_global_device_ids, whether a
 * channel_id is present, constrain_layout, and the replica groups compared
 * by meaning (list `{{0,1},{2,3}}` and iota `[2,2]<=[4]` / `[G,S]<=[d..]T(p..)`
 * forms expanded to explicit lists; the order of groups is irrelevant, the
 * order inside a group is kept). Groups that cannot be parsed are compared
 * by their text. The map starts empty in every computation.
 *
 * Why it is sound. Two all-gathers with the same operand values and the
 * same collective mode, dimension and device groups deliver identical
 * results on every device. The walk only crosses value-preserving ops
 * (tuple plumbing, opt-barrier, same-shape convert), so equal keys mean
 * equal operand values within one execution of the computation. Deviations
 * from the seed, all towards soundness:
 *  - the seed keys on groups alone; the same group list means different
 *    devices under different modes (cross-replica vs. cross-partition vs.
 *    global ids, see XLA PR #45395), so the mode and the dimension are in
 *    the key;
 *  - the seed forgets the configuration of all-gathers crossed by the walk;
 *    two differently grouped inner gathers of one parameter can have equal
 *    shapes, so each crossed gather's configuration is part of the key;
 *  - the seed keeps only two index scalars; the full index path is kept;
 *  - variadic all-gathers are keyed on every operand, not operand 0;
 *  - a control successor of the duplicate that is an ancestor of the kept
 *    gather would form a cycle: that duplicate is declined;
 *  - every other attribute the evaluator's uninterpreted all-gather reads
 *    (backend_config, unmodelled attributes) is in the key verbatim.
 * Async all-gather-start/-done pairs themselves are declined with a
 * remark (only all-gathers are deduplicated, as in the seed). The
 * duplicate's redirected users see the kept gather, which precedes it in
 * post order, so no cycle can appear.
 */
#include "hilo/pass.h"
#include "variants.h"

#include <stdlib.h>
#include <string.h>

/* ---- replica groups ------------------------------------------------- */

/* Orders groups lexicographically; the order of groups has no meaning. */
typedef struct grp_ref {
	const int64_t *v;
	int64_t n;
} grp_ref;

static int grp_cmp(const void *a, const void *b)
{
	const grp_ref *x = a, *y = b;
	for (int64_t k = 0; k < x->n && k < y->n; k++)
		if (x->v[k] != y->v[k])
			return x->v[k] < y->v[k] ? -1 : 1;
	return (x->n > y->n) - (x->n < y->n);
}

/* Appends a canonical rendering of the groups attribute to b. */
static void put_groups(hilo_buf *b, const hilo_instr *ag)
{
	const hilo_attr *a = hilo_instr_attr(ag, HILO_A_REPLICA_GROUPS);
	const char *text = a && a->kind == HILO_ATTR_RAW ? a->v.text : a ? NULL : "{}";
	if (!text) {
		hilo_buf_puts(b, "groups?");
		hilo_buf_put_i64(b, (int64_t)(uintptr_t)ag);
		return;
	}
	hilo_replica_groups g;
	bool ok = hilo_replica_groups_parse(b->arena, text, strlen(text), true, &g);
	grp_ref *refs = ok ? hilo_heap_alloc(b->arena, (size_t)(g.ngroups + 1) * sizeof *refs) : NULL;
	if (!ok || !refs) {
		hilo_buf_puts(b, "groups-text:");
		hilo_buf_puts(b, text);
		hilo_heap_free(b->arena, refs);
		if (ok)
			hilo_replica_groups_free(b->arena, &g);
		return;
	}
	for (int64_t k = 0; k < g.ngroups; k++) {
		refs[k].v = g.ids + g.start[k];
		refs[k].n = g.start[k + 1] - g.start[k];
	}
	qsort(refs, (size_t)g.ngroups, sizeof *refs, grp_cmp);
	hilo_buf_puts(b, "groups{");
	for (int64_t k = 0; k < g.ngroups; k++) {
		hilo_buf_putc(b, '{');
		for (int64_t j = 0; j < refs[k].n; j++) {
			if (j)
				hilo_buf_putc(b, ',');
			hilo_buf_put_i64(b, refs[k].v[j]);
		}
		hilo_buf_putc(b, '}');
	}
	hilo_buf_putc(b, '}');
	hilo_heap_free(b->arena, refs);
	hilo_replica_groups_free(b->arena, &g);
}

/* Attributes the key above does not model (backend_config, unknown ones)
 * go in verbatim: the evaluator's uninterpreted all-gather depends on them
 * (src/eval/eval_opaque.c), so two gathers that differ in one are not
 * duplicates. Only what the evaluator ignores is left out. */
static void put_other_attrs(hilo_buf *b, const hilo_instr *ag)
{
	for (uint32_t k = 0; k < ag->nattrs; k++) {
		const hilo_attr *a = &ag->attrs[k];
		if (!hilo_attr_is_semantic(a))
			continue;
		switch (a->id) { /* modelled by the key above */
		case HILO_A_REPLICA_GROUPS: case HILO_A_DIMENSIONS: case HILO_A_USE_GLOBAL_DEVICE_IDS:
		case HILO_A_CONSTRAIN_LAYOUT: case HILO_A_CHANNEL_ID:
			continue;
		}
		hilo_buf_printf(b, ";%s:%d=", a->key, (int)a->kind);
		switch (a->kind) {
		case HILO_ATTR_RAW: case HILO_ATTR_STRING: case HILO_ATTR_ENUM: {
			const char *t = a->v.text ? a->v.text : "";
			hilo_buf_printf(b, "%zu:%s", strlen(t), t); /* length first: no ambiguity */
			break;
		}
		case HILO_ATTR_INT: case HILO_ATTR_BOOL: case HILO_ATTR_COMP:
			hilo_buf_put_i64(b, a->v.i);
			break;
		case HILO_ATTR_INTS:
			for (int j = 0; j < a->n; j++) {
				hilo_buf_put_i64(b, a->v.ints[j]);
				hilo_buf_putc(b, ',');
			}
			break;
		default: /* slices, paddings, computations: never on a gather */
			hilo_buf_printf(b, "%u", k);
			break;
		}
	}
}

/* The gather's own configuration (everything except its operands); the
 * gather dimensions only with_dim (variants.h). */
void hilo_ag_put_config(hilo_buf *b, const hilo_instr *ag, bool with_dim)
{
	hilo_buf_puts(b, "shape=");
	hilo_shape_print(b, ag->shape);
	int n = 0;
	const int64_t *d = with_dim ? hilo_instr_get_ints(ag, HILO_A_DIMENSIONS, &n) : NULL;
	hilo_buf_puts(b, ";dim=");
	for (int k = 0; d && k < n; k++) {
		hilo_buf_put_i64(b, d[k]);
		hilo_buf_putc(b, ',');
	}
	bool v = false;
	hilo_buf_puts(b, ";global=");
	hilo_buf_putc(b, hilo_instr_get_bool(ag, HILO_A_USE_GLOBAL_DEVICE_IDS, &v) && v ? '1' : '0');
	v = false;
	hilo_buf_puts(b, ";constrain=");
	hilo_buf_putc(b, hilo_instr_get_bool(ag, HILO_A_CONSTRAIN_LAYOUT, &v) && v ? '1' : '0');
	hilo_buf_puts(b, ";channel=");
	hilo_buf_putc(b, hilo_instr_attr(ag, HILO_A_CHANNEL_ID) ? '1' : '0');
	hilo_buf_putc(b, ';');
	put_groups(b, ag);
	put_other_attrs(b, ag);
}

/* ---- the up-walk (FindRawParameter) ---------------------------------- */

/* Appends the operand's key to b (the all-gathers it crosses written by
 * put_config). Returns NULL on success, else the instruction where the
 * walk stopped (and *why explains). */
static const hilo_instr *walk_to_param(hilo_buf *b, const hilo_instr *node, const char **why,
	hilo_ag_config_fn put_config)
{
	int64_t *stack = NULL;
	size_t n = 0, cap = 0;
	const hilo_instr *stop = NULL;
	for (;;) {
		switch (node->op) {
		case HILO_OP_PARAMETER:
			hilo_buf_puts(b, "param#");
			hilo_buf_put_i64(b, node->id);
			hilo_buf_puts(b, "path");
			while (n)
				hilo_buf_printf(b, ".%lld", (long long)stack[--n]);
			hilo_heap_free(b->arena, stack);
			return NULL;
		case HILO_OP_GET_TUPLE_ELEMENT: {
			int64_t idx;
			if (node->noperands != 1 || !hilo_instr_get_int(node, HILO_A_INDEX, &idx)) {
				*why = "get-tuple-element without an index";
				stop = node;
				goto out;
			}
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				int64_t *s = hilo_heap_realloc(b->arena, stack, cap * sizeof *s);
				if (!s) {
					*why = "out of memory";
					stop = node;
					goto out;
				}
				stack = s;
			}
			stack[n++] = idx;
			node = node->operands[0];
			break;
		}
		case HILO_OP_TUPLE: {
			if (!n) {
				*why = "a tuple reached without a pending get-tuple-element index";
				stop = node;
				goto out;
			}
			int64_t idx = stack[--n];
			if (idx < 0 || (uint64_t)idx >= node->noperands) {
				*why = "tuple index out of range";
				stop = node;
				goto out;
			}
			node = node->operands[idx];
			break;
		}
		case HILO_OP_OPT_BARRIER:
			if (node->noperands != 1) {
				*why = "opt-barrier without exactly one operand";
				stop = node;
				goto out;
			}
			node = node->operands[0];
			break;
		case HILO_OP_CONVERT:
			if (node->noperands != 1 || !hilo_shape_equal(node->operands[0]->shape, node->shape)) {
				*why = "convert changes the shape or element type";
				stop = node;
				goto out;
			}
			node = node->operands[0];
			break;
		case HILO_OP_ALL_GATHER_START: {
			/* the seed's (opcode & ~2) == kAllGather arm: the start's
			 * result is (operand, gathered); the pending index picks the
			 * element, the start's settings join the key */
			if (node->noperands != 1 || !n || !hilo_shape_is_tuple(node->shape) ||
			    !hilo_shape_is_array(node->operands[0]->shape)) {
				*why = "an all-gather-start on the path that is variadic or not read through a get-tuple-element";
				stop = node;
				goto out;
			}
			int64_t elem = stack[--n];
			if (elem < 0 || elem >= node->shape->ntuple) {
				*why = "all-gather-start element index out of range";
				stop = node;
				goto out;
			}
			hilo_buf_printf(b, "via-ag-start.%lld[", (long long)elem);
			put_config(b, node, true);
			hilo_buf_puts(b, "]");
			node = node->operands[0];
			break;
		}
		case HILO_OP_ALL_GATHER:
			if (node->noperands != 1 || n || !hilo_shape_is_array(node->shape)) {
				*why = "a variadic or tuple-shaped all-gather on the path";
				stop = node;
				goto out;
			}
			hilo_buf_puts(b, "via-ag[");
			put_config(b, node, true);
			hilo_buf_puts(b, "]");
			node = node->operands[0];
			break;
		default:
			*why = "not a forwarding op";
			stop = node;
			goto out;
		}
	}
out:
	hilo_heap_free(b->arena, stack);
	return stop;
}

/* ---- the per-computation key map (string -> kept gather) ------------- */

typedef struct key_map {
	char **keys;
	hilo_instr **vals;
	size_t cap, n;
	hilo_arena *a;  /* the module's: tracked heap */
} key_map;

static uint64_t hash_str(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t k = 0; k < len; k++)
		h = (h ^ (unsigned char)s[k]) * 1099511628211ull;
	return h;
}

static void map_free(key_map *mp)
{
	for (size_t k = 0; k < mp->cap; k++)
		hilo_heap_free(mp->a, mp->keys[k]);
	hilo_heap_free(mp->a, mp->keys);
	hilo_heap_free(mp->a, mp->vals);
	*mp = (key_map){.a = mp->a};
}

static bool map_grow(key_map *mp)
{
	size_t nc = mp->cap ? mp->cap * 2 : 64;
	char **nk = hilo_heap_alloc(mp->a, (nc) * sizeof *nk);
	hilo_instr **nv = hilo_heap_alloc(mp->a, (nc) * sizeof *nv);
	if (!nk || !nv) {
		hilo_heap_free(mp->a, nk);
		hilo_heap_free(mp->a, nv);
		return false;
	}
	for (size_t k = 0; k < mp->cap; k++) {
		if (!mp->keys[k])
			continue;
		size_t h = hash_str(mp->keys[k], strlen(mp->keys[k])) & (nc - 1);
		while (nk[h])
			h = (h + 1) & (nc - 1);
		nk[h] = mp->keys[k];
		nv[h] = mp->vals[k];
	}
	hilo_heap_free(mp->a, mp->keys);
	hilo_heap_free(mp->a, mp->vals);
	mp->keys = nk;
	mp->vals = nv;
	mp->cap = nc;
	return true;
}

/* Returns the stored gather for key, or stores val and returns NULL.
 * *oom is set when memory ran out (nothing stored). */
static hilo_instr *map_find_or_put(key_map *mp, const char *key, size_t len, hilo_instr *val, bool *oom)
{
	if ((mp->n + 1) * 2 > mp->cap && !map_grow(mp)) {
		*oom = true;
		return NULL;
	}
	size_t h = hash_str(key, len) & (mp->cap - 1);
	while (mp->keys[h]) {
		if (strcmp(mp->keys[h], key) == 0)
			return mp->vals[h];
		h = (h + 1) & (mp->cap - 1);
	}
	char *k = hilo_heap_alloc(mp->a, len + 1);
	if (!k) {
		*oom = true;
		return NULL;
	}
	memcpy(k, key, len + 1);
	mp->keys[h] = k;
	mp->vals[h] = val;
	mp->n++;
	return NULL;
}

/* ---- rewriting ------------------------------------------------------- */

/* Visited stamps per instruction id, in the pass run's scratch memory
 * (hilo_pass_scratch_by_id): one walk per stamp, no reset. */
typedef struct walk {
	hilo_pass_ctx *ctx;
	uint32_t *seen;
	uint32_t n, stamp;
} walk;

/* True if `anc` is `i` or reaches it through operands / control preds
 * (also when unsure: an instruction newer than the stamps, no memory). */
static bool reaches(walk *w, hilo_instr *anc, hilo_instr *i)
{
	if (!w->seen)
		w->seen = hilo_pass_scratch_by_id(w->ctx, sizeof *w->seen, &w->n);
	hilo_arena *a = hilo_pass_scratch(w->ctx);
	uint32_t stamp = ++w->stamp;
	size_t n = 0, cap = 16;
	hilo_instr **st = w->seen ? hilo_heap_alloc(a, cap * sizeof *st) : NULL;
	if (!st || i->id >= w->n || stamp == 0)
		return true; /* be conservative */
	bool found = false;
	st[n++] = i;
	w->seen[i->id] = stamp;
	while (n && !found) {
		hilo_instr *x = st[--n];
		if (x == anc) {
			found = true;
			break;
		}
		for (uint32_t k = 0; k < x->noperands + hilo_instr_nctrl_preds(x); k++) {
			hilo_instr *y = k < x->noperands ? x->operands[k] : hilo_instr_ctrl_preds(x)[k - x->noperands];
			if (y->id >= w->n) {
				found = true;
				break;
			}
			if (w->seen[y->id] == stamp)
				continue;
			w->seen[y->id] = stamp;
			if (n == cap) {
				hilo_instr **ns = hilo_heap_realloc(a, st, cap * 2 * sizeof *ns);
				if (!ns) {
					found = true;
					break;
				}
				st = ns;
				cap *= 2;
			}
			st[n++] = y;
		}
	}
	hilo_heap_free(a, st);
	return found;
}

/* Moves dup's control edges away before it dies: each successor is
 * ordered after keep and after dup's predecessors, so no ordering the
 * program asked for is lost. False (nothing changed) if that would form a
 * cycle (a successor that keep depends on). */
static bool move_ctrl_edges(hilo_module *m, hilo_instr *dup, hilo_instr *keep, walk *w)
{
	if (!hilo_instr_nctrl_succs(dup) && !hilo_instr_nctrl_preds(dup))
		return true;
	for (uint32_t k = 0; k < hilo_instr_nctrl_succs(dup); k++)
		if (reaches(w, hilo_instr_ctrl_succs(dup)[k], keep))
			return false;
	uint32_t np = hilo_instr_nctrl_preds(dup), ns = hilo_instr_nctrl_succs(dup);
	hilo_instr **preds = hilo_heap_alloc(m->arena, (np + 1) * sizeof *preds);
	hilo_instr **succs = hilo_heap_alloc(m->arena, (ns + 1) * sizeof *succs);
	if (!preds || !succs) {
		hilo_heap_free(m->arena, preds);
		hilo_heap_free(m->arena, succs);
		return false;
	}
	if (np) /* the arrays are NULL when empty: no memcpy from NULL */
		memcpy(preds, hilo_instr_ctrl_preds(dup), np * sizeof *preds);
	if (ns)
		memcpy(succs, hilo_instr_ctrl_succs(dup), ns * sizeof *succs);
	hilo_instr_remove_ctrl_deps(dup);
	for (uint32_t s = 0; s < ns; s++) {
		hilo_instr_add_ctrl_pred(m, succs[s], keep);
		for (uint32_t k = 0; k < np; k++)
			hilo_instr_add_ctrl_pred(m, succs[s], preds[k]);
	}
	hilo_heap_free(m->arena, preds);
	hilo_heap_free(m->arena, succs);
	return true;
}

static void full_config(hilo_buf *b, const hilo_instr *ag, bool crossed)
{
	hilo_ag_put_config(b, ag, true);
}

hilo_pass_result hilo_pass_neuron_all_gather_duplicate_remover(hilo_pass_ctx *ctx)
{
	return hilo_ag_dedup_run(ctx, full_config);
}

hilo_pass_result hilo_ag_dedup_run(hilo_pass_ctx *ctx, hilo_ag_config_fn put_config)
{
	hilo_module *m = ctx->m;
	bool changed = false;
	walk w = {.ctx = ctx};
	hilo_buf key;
	hilo_buf_init_in(&key, m->arena);
	key_map seen = {.a = m->arena};
	for (uint32_t ci = 0; ci < m->ncomps; ci++) {
		hilo_comp *c = m->comps[ci];
		uint32_t n = 0;
		hilo_instr **po = hilo_comp_post_order(m, c, &n);
		map_free(&seen); /* per computation, as the seed */
		for (uint32_t k = 0; k < n; k++) {
			hilo_instr *ag = po[k];
			if (ag->op == HILO_OP_ALL_GATHER_START) {
				hilo_remark(ctx, c, ag, "declined",
					"async all-gather-start/-done pairs are not deduplicated");
				continue;
			}
			if (ag->op != HILO_OP_ALL_GATHER || !ag->noperands)
				continue;
			key.len = 0;
			hilo_buf_printf(&key, "n=%u;", ag->noperands);
			const hilo_instr *stop = NULL;
			const char *why = "";
			for (uint32_t o = 0; o < ag->noperands && !stop; o++) {
				stop = walk_to_param(&key, ag->operands[o], &why, put_config);
				hilo_buf_putc(&key, '|');
			}
			if (stop) {
				hilo_remark(ctx, c, ag, "declined",
					"operand does not trace to a parameter: stopped at %s %s (%s)",
					hilo_opcode_name(stop->op), stop->name, why);
				continue;
			}
			put_config(&key, ag, false);
			if (key.oom) {
				hilo_buf_free(&key);
				map_free(&seen);
				hilo_diag_add(ctx->diags, HILO_SEV_ERROR, ctx->filename, ag->line, ag->col,
					NULL, 0, "%s: out of memory", ctx->pass ? ctx->pass : "neuron_all_gather_duplicate_remover");
				return HILO_PASS_ERROR;
			}
			bool oom = false;
			hilo_instr *keep = map_find_or_put(&seen, hilo_buf_cstr(&key), key.len, ag, &oom);
			if (oom) {
				hilo_buf_free(&key);
				map_free(&seen);
				hilo_diag_add(ctx->diags, HILO_SEV_ERROR, ctx->filename, ag->line, ag->col,
					NULL, 0, "%s: out of memory", ctx->pass ? ctx->pass : "neuron_all_gather_duplicate_remover");
				return HILO_PASS_ERROR;
			}
			if (!keep)
				continue; /* first of its key: stored for future use */
			if (!move_ctrl_edges(m, ag, keep, &w)) {
				hilo_remark(ctx, c, ag, "declined",
					"a control successor of the duplicate precedes %s; merging would create a cycle",
					keep->name);
				continue;
			}
			hilo_instr_replace_all_uses(m, ag, keep);
			hilo_remark(ctx, c, ag, "rewritten",
				"Replacing all-gather with previous result: %s", keep->name);
			ctx->rewrites++;
			changed = true;
		}
	}
	hilo_buf_free(&key);
	map_free(&seen);
	if (changed) {
		/* XLA's HloDCE, as the seed; its removals are not our rewrites */
		uint64_t r = ctx->rewrites;
		if (hilo_pass_dce(ctx) == HILO_PASS_ERROR)
			return HILO_PASS_ERROR;
		ctx->rewrites = r;
	}
	return changed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
