/* pto_verify.c - verify-graph-boundary: the GraphBoundaryLegalized property.
 *
 * What: re-states, over the whole program, the invariants
 * legalize-graph-boundary establishes: Graph signatures (GB002-GB006),
 * returns (GB007), node count including batched allocations and loops per
 * iteration (GB008), topology fixed across calls (GB009/GB012), allocation
 * shapes and tensor.full (GB010/GB011), hoisting post-conditions - every
 * scalar reaching a task has an argument slot or is replay-invariant, and
 * no surviving bare rename of a scalar parameter (GB013/GB018/GB022), no
 * boundary view whose window can move (GB019/GB020) - launch arity
 * (GB015), core_num (GB021), and references to Graphs from other functions
 * (GB014-GB017).
 *
 * When: after legalize-graph-boundary by default (pto-opt), or alone.
 *
 * Why independent: it re-derives boundary provenance, the node count and
 * every check from the IR rather than calling the pass's code, so a later
 * rewrite that reintroduces a rejected state is caught. The only analysis
 * shared with the pass is ReplayInvariantSet (pto_sema.c), a reading of
 * the runtime's contract that two copies could disagree about. Unlike the
 * pass it reports every violation, not just the first.
 */
#include "pto/pto_legalize.h"

#include <string.h>

typedef struct vctx {
	hilo_pto_program *p;
	pto_func *f;
	pto_fctx c;
	pto_invset inv;
	hilo_diags *d;
	int errors;
	pto_map roots;        /* tensor names rooted at a boundary parameter */
	pto_map tuples;       /* tuple-valued call results */
	pto_map tlits;        /* tuple literals */
	uint64_t count, launches;
	const pto_stmt *stmt;
} vctx;

#define REPORT(v, line, col, code, ...) \
	do { pto_error((v)->p, (v)->d, (line), (col), (code), __VA_ARGS__); (v)->errors++; } while (0)
/* The same at a statement, and at an expression (their place is found
 * only for a kept message). */
#define REPORT_STMT(v, s, code, ...) \
	do { pto_error_stmt((v)->p, (v)->d, (s), (code), __VA_ARGS__); (v)->errors++; } while (0)
#define REPORT_AT(v, e, code, ...) \
	do { pto_error_at((v)->p, (v)->d, (e), (code), __VA_ARGS__); (v)->errors++; } while (0)

static uint64_t sadd(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static bool window_invariant(vctx *v, const pto_call *cl, bool *offsets_ok)
{
	*offsets_ok = true;
	for (size_t i = 1; i < cl->nargs; i++)
		if (!pto_inv_is_invariant(&v->inv, cl->args[i]))
			*offsets_ok = false;
	if (!*offsets_ok)
		return false;
	if (!v->stmt || v->stmt->kind != PTO_S_ASSIGN || v->stmt->value != cl->e)
		return true;
	size_t n;
	pto_expr *const *shape = pto_type_shape(v->stmt->ann, &n);
	for (size_t i = 0; shape && i < n; i++)
		if (!pto_inv_is_invariant(&v->inv, shape[i]))
			return false;
	return true;
}

/* A scalar local bound to a bare name that leads back to a scalar param. */
static const char *surviving_rename(vctx *v, const pto_expr *a)
{
	for (int steps = 0; steps < 64; steps++) {
		pto_var *x = pto_lookup(&v->c, a);
		if (!x || x->kind != PTO_V_LOCAL || !x->def || x->def->kind != PTO_S_ASSIGN ||
		    x->def->value->kind != PTO_E_NAME)
			return NULL;
		a = x->def->value;
		pto_var *t = pto_lookup(&v->c, a);
		if (t && t->kind == PTO_V_PARAM && t->scalar)
			return t->name;
	}
	return NULL;
}

static void body_call(void *ud, pto_call *cl)
{
	vctx *v = ud;
	const char *F = v->f->name;
	const pto_expr *at = cl->e; /* where a message points (its line is found only then) */
	if (pto_call_is_op(cl, "tensor.full"))
		REPORT_AT(v, at, "GB011", "Graph function '%s' calls tensor.full inside the region; "
			"orchestration codegen has no lowering for it.", F);
	if (pto_call_is_op(cl, "tensor.create")) {
		size_t n = 0;
		pto_expr *const *shape = NULL;
		if (v->stmt && v->stmt->kind == PTO_S_ASSIGN && v->stmt->value == cl->e)
			shape = pto_type_shape(v->stmt->ann, &n);
		if (!shape && cl->nargs && cl->args[0]->kind == PTO_E_LIST) {
			shape = cl->args[0]->items;
			n = pto_expr_nitems(cl->args[0]);
		}
		for (size_t i = 0; i < n; i++)
			if (!pto_is_literal(shape[i])) {
				REPORT_AT(v, at, "GB010", "Graph function '%s' allocates a tensor whose shape is "
					"not a compile-time constant; recording freezes the shape and replay never "
					"re-runs the body.", F);
				break;
			}
	}
	const pto_expr *cn = pto_call_core_num(cl);
	if (cn && !pto_is_literal(cn))
		REPORT_AT(v, at, "GB021", "Graph function '%s' launches a task whose core_num is not a "
			"compile-time constant; recording freezes the launch spec into the node and replay "
			"restores it unchanged.", F);
	if ((pto_call_is_op(cl, "tensor.slice") || pto_call_is_op(cl, "tensor.view")) && cl->nargs &&
	    cl->args[0]->kind == PTO_E_NAME && pto_map_has(&v->roots, cl->args[0]->name)) {
		bool offsets_ok;
		if (!window_invariant(v, cl, &offsets_ok))
			REPORT_AT(v, at, offsets_ok ? "GB020" : "GB019",
				"Graph function '%s' takes a view of boundary tensor '%s' inside the region whose "
				"window can differ between calls%s; replay patches the boundary address but keeps "
				"the offset and shape recorded on the first call, so the view must be taken at the "
				"call site.", F, cl->args[0]->name,
				offsets_ok ? " (its shape is not a compile-time constant)" : "");
	}
	bool launch = cl->kind == PTO_C_FUNC || cl->kind == PTO_C_SUBMIT || pto_call_is_op(cl, "system.task_dummy");
	if (!launch)
		return;
	v->count = sadd(v->count, 1);
	v->launches = sadd(v->launches, 1);
	if (cl->callee && cl->callee->type != PTO_FT_GRAPH) {
		size_t np = cl->callee->nparams;
		if (cl->nargs > np || (cl->kind == PTO_C_FUNC && cl->nargs != np)) {
			REPORT_AT(v, at, "GB015", "Graph function '%s' launches '%s' with %zu arguments for "
				"%zu parameters.", F, cl->callee->name, cl->nargs, np);
		} else {
			for (size_t i = cl->nargs; i < np; i++) {
				pto_dir dir;
				pto_type_unwrap(cl->callee->params[i].ann, &dir);
				if (dir == PTO_DIR_OUT)
					continue;
				REPORT_AT(v, at, "GB015", "Graph function '%s' launches '%s' without supplying "
					"'%s', which is not an Out parameter. A Submit may omit only a runtime-allocated "
					"Out tail.", F, cl->callee->name, cl->callee->params[i].name);
				break;
			}
		}
	}
	for (size_t i = 0; i < cl->nargs; i++) {
		const pto_expr *a = cl->args[i];
		bool tid;
		if (!lg_expr_scalar(&v->c, a, &tid) || tid || pto_is_literal(a))
			continue;
		pto_var *x = pto_lookup(&v->c, a);
		if (x && x->kind == PTO_V_PARAM && x->scalar)
			continue;
		if (pto_inv_is_invariant(&v->inv, a))
			continue;
		const char *root = x ? surviving_rename(v, a) : NULL;
		const pto_expr *aat = a->pos ? a : at;
		if (root)
			REPORT_AT(v, aat, "GB022", "Graph function '%s' passes scalar '%s', a surviving bare "
				"rename of boundary scalar '%s', to a task. It passes a scalar to a task that has no "
				"argument slot and can differ between calls, so the runtime would freeze the first "
				"call's value into the recording; the rename must be substituted away.", F, x->name, root);
		else if (!x)
			REPORT_AT(v, aat, "GB013", "Graph function '%s' computes a scalar inline in a task "
				"argument: it passes a scalar to a task that has no argument slot and can differ "
				"between calls, so the runtime would freeze the first call's value into the "
				"recording.", F);
		else
			REPORT_AT(v, aat, "GB018", "Graph function '%s' passes scalar '%s' to a task: it passes a "
				"scalar to a task that has no argument slot and can differ between calls, so the "
				"runtime would freeze the first call's value into the recording.", F, x->name);
	}
}

static void track_writeback(vctx *v, const char *var, pto_expr *call, size_t pos)
{
	pto_call cl;
	if (!pto_call_decode(v->p, call, &cl) || (cl.kind != PTO_C_FUNC && cl.kind != PTO_C_SUBMIT) || !cl.callee)
		return;
	size_t k;
	if (!pto_explicit_returned_param(cl.callee, pos, &k) || k >= cl.nargs)
		return;
	const pto_expr *src = cl.args[k];
	if (src->kind == PTO_E_NAME && pto_map_has(&v->roots, src->name))
		pto_map_put(&v->roots, var, (void *)1);
}

static bool rooted(const vctx *v, const pto_expr *e)
{
	while (e && e->kind == PTO_E_PAREN)
		e = pto_expr_base(e);
	return e && e->kind == PTO_E_NAME && pto_map_has(&v->roots, e->name);
}

static void track(vctx *v, const pto_stmt *s)
{
	if (s->kind == PTO_S_FOR) {
		/* loop-carried values: an iter_arg starts as its init value */
		const pto_expr *t = s->target, *inits = NULL;
		if (t->kind != PTO_E_TUPLE || pto_expr_nitems(t) != 2 || t->items[1]->kind != PTO_E_TUPLE ||
		    s->value->kind != PTO_E_CALL)
			return;
		for (size_t q = 0; q < s->value->nkw; q++)
			if (!strcmp(s->value->kwnames[q], "init_values") && s->value->kwvals[q]->kind == PTO_E_TUPLE)
				inits = s->value->kwvals[q];
		for (size_t i = 0; inits && i < pto_expr_nitems(t->items[1]) && i < pto_expr_nitems(inits); i++)
			if (t->items[1]->items[i]->kind == PTO_E_NAME && rooted(v, inits->items[i]))
				pto_map_put(&v->roots, t->items[1]->items[i]->name, (void *)1);
		return;
	}
	if (s->kind != PTO_S_ASSIGN || s->target->kind != PTO_E_NAME)
		return;
	pto_var *x = pto_lookup(&v->c, s->target);
	if (x && x->scalar)
		return;
	const char *var = s->target->name;
	pto_expr *val = s->value;
	if (val->kind == PTO_E_NAME) {
		if (pto_map_has(&v->roots, val->name))
			pto_map_put(&v->roots, var, (void *)1);
		return;
	}
	if (val->kind == PTO_E_TUPLE) {
		pto_map_put(&v->tlits, var, val);
		return;
	}
	if (val->kind == PTO_E_CALL && pto_expr_base(val)->kind == PTO_E_ATTR && !strcmp(pto_expr_base(val)->name, "yield_")) {
		/* a loop's or branch's result is one of the values yielded */
		for (size_t i = 0; i < pto_expr_nitems(val); i++)
			if (rooted(v, val->items[i]))
				pto_map_put(&v->roots, var, (void *)1);
		return;
	}
	if (val->kind == PTO_E_SUB && pto_expr_nitems(val) == 1 && pto_expr_base(val)->kind == PTO_E_NAME) {
		pto_expr *call = pto_map_get(&v->tuples, pto_expr_base(val)->name);
		const pto_expr *tl = pto_map_get(&v->tlits, pto_expr_base(val)->name);
		int64_t idx;
		if (tl && pto_const_int(val->items[0], &idx) && idx >= 0 && (uint64_t)idx < pto_expr_nitems(tl) &&
		    rooted(v, tl->items[idx]))
			pto_map_put(&v->roots, var, (void *)1);
		if (call && pto_const_int(val->items[0], &idx) && idx >= 0)
			track_writeback(v, var, call, (size_t)idx);
		return;
	}
	pto_call cl;
	if (!pto_call_decode(v->p, val, &cl) || (cl.kind != PTO_C_FUNC && cl.kind != PTO_C_SUBMIT))
		return;
	if (s->ann && s->ann->kind == PTO_E_SUB && pto_expr_base(s->ann)->kind == PTO_E_ATTR &&
	    !strcmp(pto_expr_base(s->ann)->name, "Tuple")) {
		pto_map_put(&v->tuples, var, val);
		return;
	}
	track_writeback(v, var, val, 0);
}

static void body_block(vctx *v, const pto_block *b);

static void sub_count(vctx *v, const pto_block *b, uint64_t *n, uint64_t *l)
{
	uint64_t sc = v->count, sl = v->launches;
	v->count = v->launches = 0;
	body_block(v, b);
	*n = v->count;
	*l = v->launches;
	v->count = sc;
	v->launches = sl;
}

static void body_block(vctx *v, const pto_block *b)
{
	uint64_t batchable = 0;
	pto_map local;
	pto_map_init(&local, v->p->arena);
	bool gm = lg_block_has_gm_pipe(b);
	for (size_t i = 0; i < b->n; i++) {
		const pto_stmt *s = b->stmts[i];
		if (s->kind == PTO_S_ASSIGN && s->target->kind == PTO_E_NAME) {
			pto_call cl;
			if (pto_call_decode(v->p, s->value, &cl) && pto_call_is_op(&cl, "tensor.create")) {
				bool joins = strncmp(s->target->name, "gm_pipe_buffer_", 15) != 0 ||
					!pto_expr_refs(lg_gm_pipe_core_num(v->p, b, i, s->target->name), &local);
				if (joins) {
					batchable++;
				} else {
					v->count = sadd(v->count, 1);
					pto_map_put(&local, s->target->name, (void *)1);
				}
			} else if (gm) {
				pto_map_put(&local, s->target->name, (void *)1);
			}
		}
		v->stmt = s;
		pto_stmt_walk_calls(v->p, (pto_stmt *)s, body_call, v);
		track(v, s);
		uint64_t n1 = 0, l1 = 0, n2 = 0, l2 = 0, trips;
		switch (s->kind) {
		case PTO_S_FOR:
			sub_count(v, &s->body, &n1, &l1);
			if (!n1)
				break;
			if (!pto_trip_count(s, &trips)) {
				REPORT_STMT(v, s, l1 ? "GB012" : "GB009", "Graph function '%s' %s inside a "
					"loop whose trip count is not a compile-time constant.", v->f->name,
					l1 ? "launches tasks" : "allocates tensors");
				break;
			}
			v->count = sadd(v->count, n1 > UINT64_MAX / (trips ? trips : 1) ? UINT64_MAX : n1 * trips);
			break;
		case PTO_S_WHILE:
			sub_count(v, &s->body, &n1, &l1);
			if (n1)
				REPORT_STMT(v, s, l1 ? "GB012" : "GB009", "Graph function '%s' %s inside a "
					"while loop, whose iteration count is a runtime value.", v->f->name,
					l1 ? "launches tasks" : "allocates tensors");
			break;
		case PTO_S_IF:
			sub_count(v, &s->body, &n1, &l1);
			sub_count(v, &s->orelse, &n2, &l2);
			if (n1 || n2)
				REPORT_STMT(v, s, (l1 || l2) ? "GB012" : "GB009", "Graph function '%s' %s "
					"inside a conditional, so the recorded topology depends on the branch the first "
					"call happened to take.", v->f->name, (l1 || l2) ? "launches tasks" : "allocates tensors");
			break;
		case PTO_S_WITH:
			sub_count(v, &s->body, &n1, &l1);
			v->count = sadd(v->count, n1);
			v->launches = sadd(v->launches, l1);
			break;
		default:
			break;
		}
	}
	v->count = sadd(v->count, (batchable + 15) / 16);
}

/* ---- packed allocation arenas (GB027) ---------------------------------- */

typedef struct arena_chk {
	vctx *v;
	const char *name;
	int64_t ext[8];
	size_t rank;
	int64_t (*win)[2][8]; /* per view: offsets, extents */
	size_t nwin, capwin, views, refs;
} arena_chk;

static size_t count_refs(const pto_expr *e, const char *name)
{
	if (!e)
		return 0;
	if (e->kind == PTO_E_NAME)
		return e->name == name;
	if (e->kind == PTO_E_ATTR)
		return 0;
	size_t n = count_refs(pto_expr_base(e), name) + count_refs(pto_expr_rhs(e), name);
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		n += count_refs(e->items[i], name);
	for (size_t i = 0; i < e->nkw; i++)
		n += count_refs(e->kwvals[i], name);
	return n;
}

static bool literal_list(const pto_expr *l, int64_t *out, size_t rank)
{
	if (!l || l->kind != PTO_E_LIST || pto_expr_nitems(l) != rank)
		return false;
	for (size_t i = 0; i < rank; i++)
		if (!pto_const_int(l->items[i], &out[i]))
			return false;
	return true;
}

static void arena_block(arena_chk *a, const pto_block *b)
{
	vctx *v = a->v;
	for (size_t i = 0; i < b->n; i++) {
		const pto_stmt *s = b->stmts[i];
		a->refs += count_refs(s->target, a->name) + count_refs(s->value, a->name);
		pto_call cl;
		if (s->kind == PTO_S_ASSIGN && pto_call_decode(v->p, s->value, &cl) &&
		    pto_call_is_op(&cl, "tensor.slice") && cl.nargs == 3 && cl.args[0]->kind == PTO_E_NAME &&
		    cl.args[0]->name == a->name) {
			a->views++;
			int64_t off[8], ext[8];
			bool ok = literal_list(cl.args[1], ext, a->rank) && literal_list(cl.args[2], off, a->rank);
			for (size_t d = 0; ok && d < a->rank; d++)
				ok = off[d] >= 0 && ext[d] > 0 && ext[d] <= a->ext[d] && off[d] <= a->ext[d] - ext[d];
			if (!ok) {
				REPORT_STMT(v, s, "GB027", "Graph function '%s' takes a view of packed allocation "
					"arena '%s' that is not a literal window inside it. Each packed allocation is a "
					"fixed, in-bounds window of the arena.", v->f->name, a->name);
			} else {
				for (size_t w = 0; w < a->nwin; w++) {
					bool overlap = true;
					for (size_t d = 0; d < a->rank && overlap; d++)
						overlap = off[d] < a->win[w][0][d] + a->win[w][1][d] &&
							a->win[w][0][d] < off[d] + ext[d];
					if (overlap) {
						REPORT_STMT(v, s, "GB027", "Graph function '%s' takes overlapping "
							"views of packed allocation arena '%s'. Packed allocations were distinct "
							"buffers, so their windows must be disjoint.", v->f->name, a->name);
						break;
					}
				}
				if (a->nwin == a->capwin) {
					size_t nc = a->capwin ? a->capwin * 2 : 8;
					a->win = hilo_arena_grow(v->p->arena, a->win, a->nwin, nc, sizeof *a->win);
					if (!a->win)
						pto_oom(v->p->arena);
					a->capwin = nc;
				}
				memcpy(a->win[a->nwin][0], off, sizeof off);
				memcpy(a->win[a->nwin][1], ext, sizeof ext);
				a->nwin++;
			}
		}
		if (pto_stmt_has_body(s->kind))
			arena_block(a, &s->body);
		if (s->kind == PTO_S_IF)
			arena_block(a, &s->orelse);
	}
}

/* A parameter named `<graph>__arena<N>` is the call-site buffer the pass
 * packed hoisted allocations into: it is read only through literal,
 * in-bounds, pairwise disjoint pl.tensor.slice windows, each the whole
 * value of an assignment (the allocation it replaced). */
static void verify_arenas(vctx *v)
{
	pto_func *f = v->f;
	size_t fl = strlen(f->name);
	for (size_t i = 0; i < f->nparams; i++) {
		const char *n = f->params[i].name;
		if (strncmp(n, f->name, fl) || strncmp(n + fl, "__arena", 7))
			continue;
		const char *q = n + fl + 7;
		if (!*q || strspn(q, "0123456789") != strlen(q))
			continue;
		arena_chk a;
		memset(&a, 0, sizeof a);
		a.v = v;
		a.name = n;
		size_t rank = 0;
		pto_expr *const *shape = pto_type_shape(pto_type_unwrap(f->params[i].ann, NULL), &rank);
		bool ok = shape && rank >= 1 && rank <= 8;
		for (size_t d = 0; ok && d < rank; d++)
			ok = pto_const_int(shape[d], &a.ext[d]) && a.ext[d] > 0;
		int line = f->params[i].line ? f->params[i].line : f->line;
		int col = f->params[i].line ? f->params[i].col : f->col;
		if (!ok) /* the pass gives an arena a literal shape: not one of its arenas */
			continue;
		a.rank = rank;
		arena_block(&a, &f->body);
		/* a parameter of that name the region never slices is the user's
		 * own tensor, not an arena the pass packed */
		if (a.views && a.refs != a.views)
			REPORT(v, line, col, "GB027", "Graph function '%s' uses packed allocation arena '%s' other "
				"than through its views. The region may only address the windows of the allocations "
				"packed into it.", f->name, n);
	}
}

static void verify_graph(vctx *v)
{
	pto_func *f = v->f;
	size_t tensors = 0, scalars = 0;
	for (size_t i = 0; i < f->nparams; i++) {
		pto_dir dir;
		const pto_expr *t = pto_type_unwrap(f->params[i].ann, &dir);
		int line = f->params[i].line ? f->params[i].line : f->line;
		int col = f->params[i].line ? f->params[i].col : f->col;
		if (pto_type_is_scalar(t)) {
			if (dir != PTO_DIR_IN)
				REPORT(v, line, col, "GB006", "Graph function '%s' declares scalar parameter '%s' as an "
					"output. A boundary scalar is passed by value and replayed from the call site, so "
					"it can only be an input.", f->name, f->params[i].name);
			scalars++;
			continue;
		}
		if (!pto_type_is_tensor(t)) {
			REPORT(v, line, col, "GB024", "Graph function '%s' declares parameter '%s' as neither a tensor "
				"nor a scalar. A Graph boundary carries only tensors and scalars.", f->name,
				f->params[i].name);
			continue;
		}
		tensors++;
		if (dir == PTO_DIR_OUT)
			REPORT(v, line, col, "GB005", "Graph function '%s' declares tensor parameter '%s' as Out, "
				"meaning the runtime allocates it. A recorded graph's boundary tensors must already "
				"exist so replay can patch their addresses.", f->name, f->params[i].name);
	}
	if (!tensors)
		REPORT(v, f->line, f->col, "GB002", "Graph function '%s' takes no tensor parameters. A graph "
			"with an empty boundary has nothing to patch on replay and the runtime refuses to cache it.",
			f->name);
	if (tensors > PTO_GRAPH_MAX_TENSORS)
		REPORT(v, f->line, f->col, "GB003", "Graph function '%s' takes %zu tensor parameters, over the "
			"runtime's boundary limit of %d.", f->name, tensors, PTO_GRAPH_MAX_TENSORS);
	if (scalars > PTO_GRAPH_MAX_SCALARS)
		REPORT(v, f->line, f->col, "GB004", "Graph function '%s' takes %zu scalar parameters, over the "
			"runtime's boundary limit of %d.", f->name, scalars, PTO_GRAPH_MAX_SCALARS);
	pto_stmt *r = pto_first_return(&f->body);
	if (r && r->value) {
		size_t n = r->value->kind == PTO_E_TUPLE ? pto_expr_nitems(r->value) : 1;
		for (size_t i = 0; i < n; i++) {
			const pto_expr *e = r->value->kind == PTO_E_TUPLE ? r->value->items[i] : r->value;
			if (!pto_returned_param(v->p, &v->c, e, 0))
				REPORT_STMT(v, r, "GB007", "Graph function '%s' returns a value it computed "
					"rather than one of its own parameters. A graph call's result is a recording "
					"handle, valid only on a cache hit, so nothing can depend on it.", f->name);
		}
	}
	for (size_t i = 0; i < f->nparams; i++) {
		pto_var *x = pto_vars_get(v->c.vars, f->params[i].name);
		if (x && !x->scalar)
			pto_map_put(&v->roots, x->name, (void *)1);
	}
	body_block(v, &f->body);
	if (v->count == 0)
		REPORT(v, f->line, f->col, "GB008", "Graph function '%s' launches no tasks; the runtime "
			"refuses a node count of zero.", f->name);
	if (v->count > 1024)
		REPORT(v, f->line, f->col, "GB008", "Graph function '%s' launches %llu tasks, over the runtime's "
			"per-graph limit of 1024.", f->name, (unsigned long long)v->count);
}

static void ref_call(void *ud, pto_call *cl)
{
	vctx *v = ud;
	if ((cl->kind != PTO_C_FUNC && cl->kind != PTO_C_SUBMIT) || !cl->callee || cl->callee->type != PTO_FT_GRAPH)
		return;
	const char *G = cl->callee->name, *F = v->f->name;
	const pto_expr *at = cl->e; /* where a message points (its line is found only then) */
	if (v->f->type == PTO_FT_GRAPH)
		REPORT_AT(v, at, "GB014", "Graph function '%s', referenced from '%s', is called from another "
			"Graph function. The runtime cannot record a graph from inside one it is already "
			"recording, so the whole region becomes uncacheable.", G, F);
	else if (v->f->type != PTO_FT_ORCHESTRATION && v->f->type != PTO_FT_OPAQUE)
		REPORT_AT(v, at, "GB014", "Graph function '%s', referenced from '%s', is called from a "
			"function that is not an orchestration entry. A graph is a task launch, so only an "
			"Orchestration entry may call it.", G, F);
	if (cl->nargs != cl->callee->nparams)
		REPORT_AT(v, at, "GB015", "Graph function '%s', referenced from '%s', is launched with %zu "
			"arguments for %zu parameters. A graph boundary has no runtime-allocated tail, so every "
			"parameter must be supplied at the call.", G, F, cl->nargs, cl->callee->nparams);
	if (cl->kind == PTO_C_SUBMIT && cl->deps && !(cl->deps->kind == PTO_E_LIST && pto_expr_nitems(cl->deps) == 0))
		REPORT_AT(v, at, "GB016", "Graph function '%s', referenced from '%s', is submitted with "
			"explicit dependencies. An explicit dependency edge makes the launch uncacheable.", G, F);
	if (cl->kind == PTO_C_SUBMIT && cl->predicate &&
	    !(cl->predicate->kind == PTO_E_NAME && !strcmp(cl->predicate->name, "None")))
		REPORT_AT(v, at, "GB017", "Graph function '%s', referenced from '%s', is submitted with a "
			"dispatch predicate, which the runtime silently zeroes, so the region would run "
			"unconditionally.", G, F);
}

static void ref_block(vctx *v, const pto_block *b)
{
	for (size_t i = 0; i < b->n; i++) {
		pto_stmt_walk_calls(v->p, b->stmts[i], ref_call, v);
		if (pto_stmt_has_body(b->stmts[i]->kind))
			ref_block(v, &b->stmts[i]->body);
		if (b->stmts[i]->kind == PTO_S_IF)
			ref_block(v, &b->stmts[i]->orelse);
	}
}

/* ---- call-site bindings (GB028) ---------------------------------------- */

/* Is name bound at module level (a verbatim `NAME = ...` line)? */
static bool module_name(const hilo_pto_program *p, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < p->nitems; i++) {
		const char *r = p->items[i].raw;
		while (r && (*r == ' ' || *r == '\t'))
			r++;
		if (r && !strncmp(r, name, n) && (r[n] == ' ' || r[n] == '=' || r[n] == ':'))
			return true;
	}
	return false;
}

/* The first name e reads that the caller does not define, or NULL. */
static const char *unbound_name(vctx *v, const pto_expr *e)
{
	if (!e)
		return NULL;
	if (e->kind == PTO_E_NAME) {
		const char *n = e->name;
		if (pto_lookup(&v->c, e) || !strcmp(n, "pl") || !strcmp(n, "True") || !strcmp(n, "False") ||
		    !strcmp(n, "None") || !strcmp(n, "abs") || module_name(v->p, n))
			return NULL;
		return n;
	}
	if (e->kind == PTO_E_ATTR)
		return unbound_name(v, pto_expr_base(e));
	const char *n = unbound_name(v, pto_expr_base(e));
	if (!n)
		n = unbound_name(v, pto_expr_rhs(e));
	for (size_t i = 0; !n && i < pto_expr_nitems(e); i++)
		n = unbound_name(v, e->items[i]);
	for (size_t i = 0; !n && i < e->nkw; i++)
		n = unbound_name(v, e->kwvals[i]);
	return n;
}

/* Every `<name>__graph_arg<N>` binding the pass put before a call site
 * reads only names the caller has: a value hoisted out of a Graph that
 * still named one of the Graph's locals would read an unbound (or an
 * unrelated) caller variable. */
static void verify_bindings(vctx *v, const pto_block *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const pto_stmt *s = b->stmts[i];
		if (s->kind == PTO_S_ASSIGN && s->target->kind == PTO_E_NAME && strstr(s->target->name, "__graph_arg")) {
			const char *n = unbound_name(v, s->value);
			if (!n)
				n = unbound_name(v, s->ann);
			if (n)
				REPORT_STMT(v, s, "GB028", "function '%s' binds '%s' for a Graph call from "
					"the name '%s', which '%s' never defines. A value hoisted to a call site may read "
					"only the caller's arguments, its own names and module-level names.", v->f->name,
					s->target->name, n, v->f->name);
		}
		if (pto_stmt_has_body(s->kind))
			verify_bindings(v, &s->body);
		if (s->kind == PTO_S_IF)
			verify_bindings(v, &s->orelse);
	}
}

static int verify(hilo_pto_program *p, hilo_diags *d);

int hilo_pto_verify_graph_boundary(const hilo_pto_program *cp, hilo_diags *d)
{
	hilo_pto_program *p = (hilo_pto_program *)cp; /* analyses allocate from the arena only */
	HILO_OOM_CATCH(g, p->arena) {
		hilo_diag_oom(d, p->file);
		return 1;
	}
	int r = verify(p, d);
	pto_program_drop_caches(p);
	hilo_oom_end(&g);
	return r;
}

static int verify(hilo_pto_program *p, hilo_diags *d)
{
	int errors = lg_check_keywords(p, d, true);
	if (errors)
		return errors;
	bool any = false;
	for (size_t i = 0; i < p->nfuncs; i++)
		any |= p->funcs[i]->type == PTO_FT_GRAPH;
	if (!any)
		return 0;
	/* provenance is only defined on SSA input */
	for (size_t i = 0; i < p->nfuncs; i++)
		if (!pto_check_ssa(p, p->funcs[i], d))
			errors++;
	if (errors)
		return errors;
	for (size_t i = 0; i < p->nfuncs; i++) {
		vctx v;
		memset(&v, 0, sizeof v);
		v.p = p;
		v.f = p->funcs[i];
		v.d = d;
		pto_fctx_init(&v.c, p, v.f);
		/* the provenance maps are dead once the function is checked */
		hilo_arena *tmp = hilo_arena_create_in(p->arena);
		if (!tmp)
			pto_oom(p->arena);
		pto_map_init_scratch(&v.roots, tmp);
		pto_map_init_scratch(&v.tuples, tmp);
		pto_map_init_scratch(&v.tlits, tmp);
		if (v.f->type == PTO_FT_GRAPH) {
			pto_inv_init(&v.inv, &v.c);
			verify_graph(&v);
			verify_arenas(&v);
		}
		ref_block(&v, &v.f->body);
		if (v.f->type != PTO_FT_GRAPH)
			verify_bindings(&v, &v.f->body);
		hilo_arena_destroy(tmp);
		errors += v.errors;
	}
	/* across functions: one walk of the program, callees first */
	return errors + lg_check_host_control(p, d, true);
}
