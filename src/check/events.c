/* events.c - effects as events for the rewrite validator (docs/proof.md,
 * "Effects are events").
 *
 * What a computation does is its result and its effects. Each effect
 * (infeed, outfeed, send, recv, rng, a side-effecting custom-call; not a
 * collective, which is a function of every participant's operands, nor a
 * boundary marker, an identity) is an *event*: its term is (kind,
 * meaningful attributes, operand terms, T_ORDER), built by terms.c, where
 * T_ORDER holds the events it must follow beyond its operands: the events
 * of its control predecessors, the order of the calling context (a call's
 * own control predecessors reach every effect of the callee), and its
 * ordinal among identical instructions (two infeeds of one token are two
 * reads). Tokens are terms of the events they follow (after-all is the
 * minimal set of its operands' events), so an event's term holds its
 * whole past: two events are equal exactly when they have the same kind,
 * attributes, operand values and past. Never a source position or a name.
 *
 * The events of a context (a computation inlined on its arguments, or at
 * the top level) are a multiset: every event instruction's term, the
 * events of inlined calls (flattened), of a conditional (with a constant
 * selector its branch's; otherwise the events common to every branch,
 * then one T_COND_EV of the selector and each branch's remaining events),
 * of a while (unrolled while its condition folds, as terms.c unrolls its
 * value; otherwise one T_WHILE_EV of its operand, order and callees). Two
 * equal terms in one multiset are two events nothing tells apart: the
 * multiset is not built (no proof). Two modules do the same when their
 * entries' multisets are equal (records.c, the effects record): the same
 * events, none added, dropped or duplicated, each after the same events.
 */
#include "check_internal.h"

#include <stdlib.h>

enum { ORDER_WALK_MAX = 1 << 16, MAX_BRANCHES = 64 };

bool events_is_event(const hilo_module *m, const hilo_instr *i)
{
	return !(hilo_opcode_flags(i->op) & HILO_OPF_COLL) && !hilo_instr_is_boundary_marker(i) &&
	       hilo_instr_has_side_effect(m, i);
}

bool events_deep(pairctx *P, int sk, const hilo_instr *i)
{
	const hilo_module *m = P->s[sk].m;
	if (events_is_event(m, i))
		return true;
	return hilo_instr_ncalled(i) && !hilo_instr_is_boundary_marker(i) &&
	       hilo_instr_has_side_effect_deep(m, i, &P->effmemo);
}

/* ---- growable tid lists ---------------------------------------------------- */

typedef struct tlist {
	tid *v;
	const hilo_instr **src;    /* who contributed each (NULL: not tracked) */
	uint32_t n, cap;
	bool oom;
} tlist;

static void tl_push(tlist *l, tid t, const hilo_instr *src)
{
	if (l->oom)
		return;
	if (t == TID_NONE) {
		l->oom = true;
		return;
	}
	if (l->n == l->cap) {
		uint32_t nc = l->cap ? 2 * l->cap : 8;
		tid *nv = realloc(l->v, nc * sizeof *nv);
		const hilo_instr **ns = nv ? realloc(l->src, nc * sizeof *ns) : NULL;
		if (nv)
			l->v = nv;
		if (!nv || !ns) {
			l->oom = true;
			return;
		}
		l->src = ns;
		l->cap = nc;
	}
	l->src[l->n] = src;
	l->v[l->n++] = t;
}

static void tl_free(tlist *l)
{
	free(l->v);
	free(l->src);
}

static int cmp_tid(const void *a, const void *b)
{
	tid x = *(const tid *)a, y = *(const tid *)b;
	return x < y ? -1 : x > y;
}

/* Appends the elements of T_EVENTS e. */
static void tl_push_events(pairctx *P, tlist *l, tid e, const hilo_instr *src)
{
	if (e == TID_NONE) {
		l->oom = true;
		return;
	}
	const term *E = terms_get(P, e);
	for (uint32_t k = 0; k < E->n; k++)
		tl_push(l, E->ops[k], src);
}

static const hilo_shape *token_shape(pairctx *P, int sk)
{
	return hilo_shape_scalar(P->s[sk].m->shapes, HILO_T_TOKEN);
}

/* ---- minimal sets of events ------------------------------------------------- */

/* Is t reachable from r through operands (r != t)? *budget bounds the walk;
 * when it runs out the answer is false (the set stays larger: an order
 * said twice, a possible false alarm, never a lost one). */
static bool reaches(pairctx *P, tid r, tid t, hilo_ptrmap *seen, int64_t *budget)
{
	tid stack[256];
	uint32_t sp = 0;
	stack[sp++] = r;
	while (sp) {
		tid u = stack[--sp];
		const term *U = terms_get(P, u);
		if (!U->ev)
			continue; /* nothing below an event-free term is an event */
		for (uint32_t k = 0; k < U->n; k++) {
			tid o = U->ops[k];
			if (o == t)
				return true;
			if (--*budget < 0)
				return false;
			if (hilo_ptrmap_get(seen, (void *)(uintptr_t)((uint64_t)o + 1)))
				continue;
			hilo_ptrmap_put(seen, (void *)(uintptr_t)((uint64_t)o + 1), (void *)1);
			if (sp < 256)
				stack[sp++] = o;
			else
				*budget = -1;
		}
	}
	return false;
}

/* Sorts v[0..n), drops repeats and the elements some other element is
 * built over (an event already in another's past adds no order). */
static uint32_t minimise(pairctx *P, tid *v, uint32_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_tid);
	uint32_t m = 0;
	for (uint32_t k = 0; k < n; k++)
		if (!m || v[m - 1] != v[k])
			v[m++] = v[k];
	if (m < 2)
		return m;
	int64_t budget = ORDER_WALK_MAX;
	uint8_t *drop = calloc(m, 1);
	if (!drop)
		return m;
	for (uint32_t a = 0; a < m; a++) {
		hilo_ptrmap seen;
		hilo_ptrmap_init_in(&seen, P->scratch->arena);
		for (uint32_t b = 0; b < m && !drop[b]; b++)
			if (a != b && !drop[a] && reaches(P, v[a], v[b], &seen, &budget))
				drop[b] = 1;
		hilo_ptrmap_free(&seen);
	}
	uint32_t q = 0;
	for (uint32_t k = 0; k < m; k++)
		if (!drop[k])
			v[q++] = v[k];
	free(drop);
	return q;
}

tid events_after_all(pairctx *P, const tid *ops, uint32_t n, const hilo_shape *token)
{
	tlist l = {0};
	for (uint32_t k = 0; k < n; k++) {
		const term *O = terms_get(P, ops[k]);
		if (O->op == HILO_OP_AFTER_ALL)
			for (uint32_t q = 0; q < O->n; q++)
				tl_push(&l, O->ops[q], NULL);
		else if (O->ev)
			tl_push(&l, ops[k], NULL); /* a token without events orders nothing */
	}
	tid r = TID_NONE;
	if (!l.oom) {
		uint32_t m = minimise(P, l.v, l.n);
		r = m == 1 ? l.v[0] : terms_mk(P, HILO_OP_AFTER_ALL, token, 0xaf, l.v, m, NULL, NULL, 0);
	}
	tl_free(&l);
	return r;
}

/* ---- ordinals ------------------------------------------------------------------ */

/* Two instructions that nothing tells apart: the same definition, the same
 * operand instructions, the same control predecessors. */
static bool twins(const hilo_instr *a, const hilo_instr *b)
{
	if (a->noperands != b->noperands || hilo_instr_nctrl_preds(a) != hilo_instr_nctrl_preds(b) ||
	    !chk_same_def(a, b))
		return false;
	for (uint32_t k = 0; k < a->noperands; k++)
		if (a->operands[k] != b->operands[k])
			return false;
	for (uint32_t k = 0; k < hilo_instr_nctrl_preds(a); k++)
		if (hilo_instr_ctrl_preds(a)[k] != hilo_instr_ctrl_preds(b)[k])
			return false;
	return true;
}

/* The ordinal of effectful i among its twins earlier in its computation's
 * order (0 for the first). Computed for the whole computation at once:
 * bucketed by (opcode, first operand), each earlier twin counted. */
static uint32_t ordinal(pairctx *P, int sk, const hilo_instr *i)
{
	void *got = hilo_ptrmap_get(&P->ordmemo, i);
	if (got)
		return (uint32_t)((uintptr_t)got - 1);
	const hilo_comp *c = i->parent;
	if (hilo_ptrmap_get(&P->ordmemo, c))
		return 0; /* not effectful when its computation was numbered */
	hilo_ptrmap bucket, chain;
	hilo_ptrmap_init_in(&bucket, P->scratch->arena);
	hilo_ptrmap_init_in(&chain, P->scratch->arena);
	for (const hilo_instr *j = c->first; j; j = j->next) {
		if (!events_deep(P, sk, j))
			continue;
		uint64_t h = ((uint64_t)j->op * 0x9e3779b97f4a7c15ull) ^
			(uint64_t)(uintptr_t)(j->noperands ? j->operands[0] : NULL);
		const void *key = (const void *)(uintptr_t)(h | 1);
		const hilo_instr *prev = hilo_ptrmap_get(&bucket, key);
		uint32_t n = 0;
		for (const hilo_instr *q = prev; q; q = hilo_ptrmap_get(&chain, q))
			n += twins(q, j);
		hilo_ptrmap_put(&chain, j, (void *)prev);
		hilo_ptrmap_put(&bucket, key, (void *)j);
		hilo_ptrmap_put(&P->ordmemo, j, (void *)(uintptr_t)(n + 1));
	}
	hilo_ptrmap_put(&P->ordmemo, c, (void *)1);
	hilo_ptrmap_free(&bucket);
	hilo_ptrmap_free(&chain);
	got = hilo_ptrmap_get(&P->ordmemo, i);
	return got ? (uint32_t)((uintptr_t)got - 1) : 0;
}

/* ---- events of one instruction ------------------------------------------------- */

static void instr_events(pairctx *P, bctx *x, const hilo_instr *j, tlist *out);

/* What control predecessor p orders: its events, its value when that is
 * built over events (a value read from an infeed), and what its own
 * control predecessors order (an order through an instruction without
 * effects still holds: x -> call of a pure callee -> y keeps x before y). */
static void completion(pairctx *P, bctx *x, const hilo_instr *p, tlist *out, int depth)
{
	if (depth > 256) {
		out->oom = true;
		return;
	}
	tid t = terms_build(P, x, p);
	if (t == TID_NONE) {
		out->oom = true;
		return;
	}
	if (events_is_event(P->s[x->sk].m, p)) {
		tl_push(out, t, NULL);
		return;
	}
	if (terms_get(P, t)->ev)
		tl_push(out, t, NULL);
	if (events_deep(P, x->sk, p))
		instr_events(P, x, p, out);
	for (uint32_t k = 0; k < hilo_instr_nctrl_preds(p); k++)
		if (hilo_instr_ctrl_preds(p)[k]->parent == x->c)
			completion(P, x, hilo_instr_ctrl_preds(p)[k], out, depth + 1);
}

tid events_order(pairctx *P, bctx *x, const hilo_instr *i)
{
	if (!events_deep(P, x->sk, i))
		return TID_NONE;
	tlist l = {0};
	uint64_t ah = ordinal(P, x->sk, i);
	if (x->order != TID_NONE) {
		/* the calling context's order, flattened, so that an inlined
		 * effect with the call's control predecessors is the same event;
		 * the call's ordinal combined with this one */
		const term *O = terms_get(P, x->order);
		for (uint32_t k = 0; k < O->n; k++)
			tl_push(&l, O->ops[k], NULL);
		if (O->ah)
			ah = (O->ah * 0x100000001b3ull + ah) | 0x8000000000000000ull;
	}
	for (uint32_t k = 0; k < hilo_instr_nctrl_preds(i); k++) {
		const hilo_instr *p = hilo_instr_ctrl_preds(i)[k];
		if (p->parent == x->c)
			completion(P, x, p, &l, 0);
	}
	tid r = TID_NONE;
	if (!l.oom) {
		uint32_t m = minimise(P, l.v, l.n);
		if (m || ah)
			r = terms_mk(P, T_ORDER, token_shape(P, x->sk), ah, l.v, m, NULL, NULL, 0);
	}
	tl_free(&l);
	return r;
}

/* The branches of conditional i (the evaluator's index order: a pred's
 * true branch first), or 0. */
static uint32_t branches(const hilo_instr *i, const hilo_comp **br)
{
	hilo_attr *bc = hilo_instr_attr(i, HILO_A_BRANCH_COMPUTATIONS);
	if (bc && bc->kind == HILO_ATTR_COMPS && bc->n > 0 && bc->n < MAX_BRANCHES && bc->v.i >= 0 &&
	    bc->v.i + bc->n <= (int64_t)hilo_instr_ncalled(i) && (int64_t)i->noperands == bc->n + 1) {
		for (int k = 0; k < bc->n; k++)
			br[k] = hilo_instr_called(i)[bc->v.i + k];
		return (uint32_t)bc->n;
	}
	if (i->noperands == 3) {
		br[0] = hilo_instr_get_comp(i, HILO_A_TRUE_COMPUTATION);
		br[1] = hilo_instr_get_comp(i, HILO_A_FALSE_COMPUTATION);
		return br[0] && br[1] ? 2 : 0;
	}
	return 0;
}

static void cond_events(pairctx *P, bctx *x, const hilo_instr *j, const tid *ops, tid order,
	tlist *out)
{
	const hilo_comp *br[MAX_BRANCHES];
	uint32_t nb = branches(j, br);
	if (!nb) {
		out->oom = true;
		return;
	}
	const hilo_literal *sel = terms_const(P, ops[0]);
	if (sel && sel->shape->rank == 0 && sel->nbytes) {
		int64_t v = hilo_elem_get_i64(sel->shape->type, sel->data, 0);
		if (sel->shape->type == HILO_T_PRED)
			v = v ? 0 : 1;
		if (v < 0 || v >= (int64_t)nb)
			v = nb - 1;
		tl_push_events(P, out, terms_inline_events(P, x->sk, br[v], &ops[1 + v], 1, order), j);
		return;
	}
	tid ev[MAX_BRANCHES];
	for (uint32_t k = 0; k < nb; k++) {
		ev[k] = terms_inline_events(P, x->sk, br[k], &ops[1 + k], 1, order);
		if (ev[k] == TID_NONE) {
			out->oom = true;
			return;
		}
	}
	/* an event every branch performs (the same term: the same kind,
	 * operands and past) happens whichever branch runs: it is the
	 * conditional's own; the rest depend on the selector */
	tlist rest[MAX_BRANCHES];
	memset(rest, 0, sizeof rest);
	const term *E0 = terms_get(P, ev[0]);
	for (uint32_t q = 0; q < E0->n; q++) {
		tid e = E0->ops[q];
		bool all = true;
		for (uint32_t k = 1; k < nb && all; k++) {
			const term *Ek = terms_get(P, ev[k]);
			all = Ek->n && bsearch(&e, Ek->ops, Ek->n, sizeof e, cmp_tid) != NULL;
		}
		if (all)
			tl_push(out, e, j);
	}
	bool any = false;
	tid parts[MAX_BRANCHES + 1];
	parts[0] = ops[0];
	for (uint32_t k = 0; k < nb; k++) {
		const term *Ek = terms_get(P, ev[k]);
		for (uint32_t q = 0; q < Ek->n; q++) {
			tid e = Ek->ops[q];
			bool all = true;
			for (uint32_t b = 0; b < nb && all; b++) {
				const term *Eb = terms_get(P, ev[b]);
				all = Eb->n && bsearch(&e, Eb->ops, Eb->n, sizeof e, cmp_tid) != NULL;
			}
			if (!all)
				tl_push(&rest[k], e, NULL);
		}
		parts[1 + k] = rest[k].oom ? TID_NONE
			: terms_mk(P, T_EVENTS, token_shape(P, x->sk), 0, rest[k].v, rest[k].n, NULL, NULL, 0);
		any = any || rest[k].n;
		tl_free(&rest[k]);
	}
	if (any) {
		tid c = terms_mk(P, T_COND_EV, token_shape(P, x->sk), nb, parts, nb + 1, NULL, NULL, 0);
		if (c != TID_NONE)
			terms_set_event(P, c);
		tl_push(out, c, j);
	}
}

static void while_events(pairctx *P, bctx *x, const hilo_instr *j, const tid *ops, tid order,
	tlist *out)
{
	hilo_comp *cond = hilo_instr_get_comp(j, HILO_A_CONDITION);
	hilo_comp *body = hilo_instr_get_comp(j, HILO_A_BODY);
	if (!cond || !body || j->noperands != 1) {
		out->oom = true;
		return;
	}
	/* unrolled as terms.c unrolls the value (the same budgets) */
	tlist l = {0};
	tid s = ops[0];
	uint64_t work = 0;
	for (int trip = 0; trip <= 1000 && s != TID_NONE && !l.oom; trip++) {
		tl_push_events(P, &l, terms_inline_events(P, x->sk, cond, &s, 1, order), j);
		tid c = terms_inline(P, x->sk, cond, &s, 1, order);
		const hilo_literal *cl = c != TID_NONE ? terms_const(P, c) : NULL;
		if (!cl || cl->shape->type != HILO_T_PRED || cl->nbytes != 1)
			break;
		if (!*(const unsigned char *)cl->data) {
			for (uint32_t k = 0; k < l.n; k++)
				tl_push(out, l.v[k], j);
			if (l.oom)
				out->oom = true;
			tl_free(&l);
			return;
		}
		work += body->ninstrs;
		if (trip == 1000 || work > 800000)
			break;
		tl_push_events(P, &l, terms_inline_events(P, x->sk, body, &s, 1, order), j);
		s = terms_inline(P, x->sk, body, &s, 1, order);
	}
	tl_free(&l);
	/* not unrolled: one event, the loop over its initial state, in its
	 * order, with its callees' terms (their events included) */
	tid t = terms_build(P, x, j);
	tid parts[3] = {t, order != TID_NONE ? order : ops[0], ops[0]};
	tid w = t == TID_NONE ? TID_NONE
		: terms_mk(P, T_WHILE_EV, token_shape(P, x->sk), 0x3e, parts, 3, NULL, NULL, 0);
	if (w != TID_NONE)
		terms_set_event(P, w);
	tl_push(out, w, j);
}

/* Appends the events instruction j of x performs. */
static void instr_events(pairctx *P, bctx *x, const hilo_instr *j, tlist *out)
{
	const hilo_module *m = P->s[x->sk].m;
	tid t = terms_build(P, x, j);
	if (t == TID_NONE) {
		out->oom = true;
		return;
	}
	if (events_is_event(m, j)) {
		tl_push(out, t, j);
		return;
	}
	uint32_t n = j->noperands;
	tid *ops = malloc(((size_t)n + 1) * sizeof *ops);
	if (!ops) {
		out->oom = true;
		return;
	}
	for (uint32_t k = 0; k < n; k++)
		if ((ops[k] = terms_build(P, x, j->operands[k])) == TID_NONE)
			out->oom = true;
	tid order = events_order(P, x, j);
	if (out->oom) {
		/* nothing */
	} else if ((j->op == HILO_OP_CALL || j->op == HILO_OP_FUSION) && hilo_instr_ncalled(j) >= 1) {
		tl_push_events(P, out, terms_inline_events(P, x->sk, hilo_instr_called(j)[0], ops, n, order), j);
	} else if (j->op == HILO_OP_CONDITIONAL && n >= 2) {
		cond_events(P, x, j, ops, order, out);
	} else if (j->op == HILO_OP_WHILE) {
		while_events(P, x, j, ops, order, out);
	} else {
		/* effects in callees this op does not inline (an async wrapper, a
		 * reducer that sends): the op is one event over its term */
		tid parts[2] = {t, order != TID_NONE ? order : t};
		tid w = terms_mk(P, T_EV_WRAP, token_shape(P, x->sk), 0x77, parts, 2, NULL, NULL, 0);
		if (w != TID_NONE)
			terms_set_event(P, w);
		tl_push(out, w, j);
	}
	free(ops);
}

/* Does a value of this shape hold anything but tokens? */
static bool returns_data(const hilo_shape *s)
{
	if (s->type == HILO_T_TOKEN)
		return false;
	if (s->type != HILO_T_TUPLE)
		return true;
	for (int k = 0; k < s->ntuple; k++)
		if (returns_data(s->elems[k]))
			return true;
	return false;
}

tid events_of_ctx(pairctx *P, bctx *x)
{
	if (x->ev_done)
		return x->events;
	x->ev_busy = true;
	tlist l = {0};
	for (const hilo_instr *j = x->c->first; j && !l.oom; j = j->next)
		if (events_deep(P, x->sk, j))
			instr_events(P, x, j, &l);
	tid r = TID_NONE;
	if (!l.oom) {
		if (l.n > 1)
			qsort(l.v, l.n, sizeof *l.v, cmp_tid);
		bool twice = false;
		for (uint32_t k = 1; k < l.n && !twice; k++)
			twice = l.v[k] == l.v[k - 1] && returns_data(terms_get(P, l.v[k])->shape);
		/* two events with one term that return data (two infeeds of one
		 * token on different after-alls): nothing tells which one a value
		 * read comes from. Two equal outfeeds are counted: the multiset
		 * holds them twice */
		if (!twice)
			r = terms_mk(P, T_EVENTS, token_shape(P, x->sk), 0, l.v, l.n, NULL, NULL, 0);
	}
	tl_free(&l);
	x->ev_busy = false;
	x->ev_done = true;
	x->events = r;
	return r;
}

tid events_module(pairctx *P, int sk)
{
	const hilo_comp *e = P->s[sk].m->entry;
	if (!e)
		return TID_NONE;
	bctx *x = terms_top(P, sk, e, true);
	return x ? events_of_ctx(P, x) : TID_NONE;
}

/* ---- messages ------------------------------------------------------------------- */

static void describe_event(pairctx *P, tid e, char *buf, size_t cap)
{
	const term *E = terms_get(P, e);
	const hilo_instr *s = E->src;
	const char *what = E->op == T_COND_EV ? "events of a conditional"
		: E->op == T_WHILE_EV ? "events of a while loop"
		: E->op == T_EV_WRAP ? "effects of an op"
		: E->op < HILO_OP_COUNT ? hilo_opcode_name((hilo_opcode)E->op) : "event";
	const char *t = s && s->op == HILO_OP_CUSTOM_CALL
		? hilo_instr_get_string(s, HILO_A_CUSTOM_CALL_TARGET) : NULL;
	if (s && s->line)
		snprintf(buf, cap, "%s%s%s%s (%s, %d:%d)", what, t ? " \"" : "", t ? t : "", t ? "\"" : "",
			s->name, s->line, s->col);
	else if (s)
		snprintf(buf, cap, "%s%s%s%s (%s)", what, t ? " \"" : "", t ? t : "", t ? "\"" : "", s->name);
	else
		snprintf(buf, cap, "%s", what);
}

bool events_describe_diff(pairctx *P, tid tb, tid ta, char *buf, size_t cap)
{
	if (tb == ta)
		return false;
	const term *B = terms_get(P, tb), *A = terms_get(P, ta);
	uint32_t p = 0, q = 0;
	char d[300];
	while (p < B->n || q < A->n) {
		if (q == A->n || (p < B->n && B->ops[p] < A->ops[q])) {
			describe_event(P, B->ops[p], d, sizeof d);
			/* an event of the same kind and instruction changed? */
			snprintf(buf, cap, "the event %s is not performed after the pass (%u events before, "
				"%u after; one added, dropped or changed in kind, attributes, operand values or "
				"order)", d, B->n, A->n);
			return true;
		}
		if (p == B->n || A->ops[q] < B->ops[p]) {
			describe_event(P, A->ops[q], d, sizeof d);
			snprintf(buf, cap, "the event %s was not performed before the pass (%u events before, "
				"%u after; one added, or changed in kind, attributes, operand values or order)",
				d, B->n, A->n);
			return true;
		}
		p++;
		q++;
	}
	snprintf(buf, cap, "the events differ");
	return true;
}
