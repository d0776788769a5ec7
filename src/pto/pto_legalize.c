/* pto_legalize.c - legalize-graph-boundary, Steps A-C and the driver.
 *
 * What (seed 002): makes every FunctionType::Graph function legal for the
 * host_build_graph runtime to record and replay.
 *   Step A  a scalar the body derives only from its own scalar parameters
 *           and constants is hoisted: it becomes an appended In parameter
 *           and every call site computes it. A bare rename (`n = batch`) is
 *           substituted away and its binding erased; chains collapse to
 *           their root and an alias of a hoisted value lands on the new
 *           parameter.
 *   Step B  a tensor.slice/tensor.view of a boundary tensor (a parameter,
 *           a bare alias, an in-place rebind through the callee's explicit
 *           return -> parameter map, a hoisted allocation, a hoisted view)
 *           has three outcomes: every window operand derivable -> hoisted
 *           as an appended tensor parameter taking its root's direction;
 *           all replay-invariant -> left in place; otherwise GB019. A view
 *           with a shape that is not replay-invariant is GB020.
 *   Step C  a pl.tensor.create at the top level of the body (not under a
 *           loop) becomes an appended InOut parameter, created at the call.
 *   Scalar intrinsics (pl.min, pl.max, pl.cast, abs) are arithmetic like +;
 *   pl.tensor.dim of a tensor the call site names is derivable in a value
 *   that is not already replay-invariant.
 * New parameters are appended tensors first (allocations, then views),
 * then scalars. Each call site binds every hoisted value to a local
 * `<name>__graph_arg<N>` (one counter per program, skipping names the
 * caller uses) immediately before the call, in a topological order of
 * what the values read that prefers scalars (order_hoists), appends those
 * locals as arguments and extends `arg_directions`. Non-SSA input is
 * rejected (GB023) before anything is analysed. A Graph that hoisting takes
 * over 128 tensor parameters has its Step C allocations packed into
 * call-site arenas (pto_arena.c).
 *
 * When: the driver (hilo_pto_legalize_graph_boundary) runs Step D part 1,
 * plans every Graph, rewrites bodies, signatures and call sites, then runs
 * Step D part 2 on the result (pto_legalize_check.c).
 *
 * Why sound: a hoisted value is recomputed at the call site from exactly
 * the arguments the callee's parameters are bound to, and it is bound
 * before the call, so the callee sees the same value as before; a hoisted
 * view or allocation names the same buffer window. Each value is bound
 * after everything it reads, so every reference resolves; a fresh local
 * never shadows a caller name. A view of a value the call site cannot name
 * (loop-carried, branch-merged) is never hoisted, only accepted in place
 * when its window is replay-invariant.
 */
#include "pto/pto_arena.h"
#include "pto/pto_legalize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the collector (Steps A-C analysis) ------------------------------ */

const char *lg_root_of(coll *k, const pto_expr *e)
{
	if (!e || e->kind != PTO_E_NAME)
		return NULL;
	if (pto_map_has(&k->tensor_params, e->name))
		return e->name;
	return pto_map_get(&k->root, e->name);
}

static bool derivable(coll *k, const pto_expr *e)
{
	if (!e)
		return false;
	switch (e->kind) {
	case PTO_E_CALL: {
		/* pl.tensor.dim(t, <literal>) of a tensor the call site names (a
		 * parameter, an alias or rebind of one, a hoisted view or allocation):
		 * the caller reads the same extent from its own argument */
		if (k->allow_dim && pto_expr_nitems(e) == 2 && pto_expr_base(e)->kind == PTO_E_ATTR && !strcmp(pto_expr_base(e)->name, "dim") &&
		    pto_expr_base(e->base)->kind == PTO_E_ATTR && !strcmp(pto_expr_base(e->base)->name, "tensor")) {
			int64_t axis;
			const char *r = lg_root_of(k, e->items[0]);
			return r && !pto_map_has(&k->in_place, e->items[0]->name) && pto_const_int(e->items[1], &axis);
		}
		/* scalar intrinsics are arithmetic; any other call is a leaf the
		 * call site cannot recompute */
		size_t n = pto_scalar_intrinsic(e);
		for (size_t i = 0; i < n; i++)
			if (!derivable(k, e->items[i]))
				return false;
		return n > 0;
	}
	case PTO_E_NAME:
		if (!strcmp(e->name, "True") || !strcmp(e->name, "False"))
			return true;
		return pto_map_has(&k->scalar_params, e->name) || lg_marked(k, e->name, LG_DERIVED | LG_PASSTHROUGH);
	case PTO_E_ATTR:
	case PTO_E_INT:
	case PTO_E_FLOAT:
	case PTO_E_STR:
		return true;
	default:
		break;
	}
	if (pto_expr_base(e) && !derivable(k, pto_expr_base(e)))
		return false;
	if (pto_expr_rhs(e) && !derivable(k, pto_expr_rhs(e)))
		return false;
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		if (!derivable(k, e->items[i]))
			return false;
	return true;
}

/* Derivable, where a boundary extent counts only for a value that is not
 * already replay-invariant (an invariant one stays in place, as in PyPTO). */
static bool derivable_at_site(coll *k, const pto_expr *e)
{
	if (derivable(k, e))
		return true;
	if (pto_inv_is_invariant(&k->inv, e))
		return false;
	k->allow_dim = true;
	bool d = derivable(k, e);
	k->allow_dim = false;
	return d;
}

static void set_def(coll *k, const char *name)
{
	(void)name;
	++k->next_def; /* definition order of hoists and aliases */
}

static void push_hoist(coll *k, vec *v, const char *name, pto_expr *value, const pto_expr *ann)
{
	hoist *h = vec_push(k->pa, v, sizeof *h);
	memset(h, 0, sizeof *h);
	h->name = name;
	h->value = value;
	h->ann = ann;
	h->defidx = k->next_def;
}

/* alias (a variable) denotes target: it resolves to the hoist or non-alias
 * name target denotes. A target is defined before its alias (SSA
 * definition order), so its own entry is final and the root is memoized
 * as the aliases are met: linear in the number of aliases. */
static void push_pass(coll *k, const char *alias, const char *target)
{
	const pto_vartab *t = k->c->vars;
	size_t a = pto_vars_index(t, alias), ti = pto_vars_index(t, target);
	if (a >= k->pl->nvars || ti == PTO_NO_VAR || pto_vars_at(t, a)->kind != PTO_V_LOCAL) /* both are the Graph's: */
		HILO_PANIC("alias or target is not a variable");                            /* locals, parameters */
	pto_var *av = pto_vars_at(t, a);
	uint32_t tc = lg_canon(t, ti);
	av->scratch = tc ? tc : (uint32_t)ti + 1;
	k->pl->nrepl += (av->lg_mark & LG_PASSTHROUGH) != 0;
}

static void propagate(coll *k, const char *var, pto_expr *call, size_t pos)
{
	pto_call cl;
	if (!pto_call_decode(k->p, call, &cl) || (cl.kind != PTO_C_FUNC && cl.kind != PTO_C_SUBMIT) || !cl.callee)
		return;
	size_t param;
	if (!pto_explicit_returned_param(cl.callee, pos, &param))
		return;
	/* a Submit may omit a runtime-allocated Out tail: its caller-supplied
	 * prefix still maps positionally, and a parameter in the gap has no
	 * caller-side root */
	if (param >= cl.nargs)
		return;
	const pto_expr *src = cl.args[param];
	const char *r = lg_root_of(k, src);
	if (!r)
		return;
	pto_map_put(&k->root, var, (void *)r);
	if (pto_map_has(&k->in_place, src->name))
		pto_map_put(&k->in_place, var, (void *)1);
	set_def(k, var);
	push_pass(k, var, src->name);
}

/* var names a value rooted at boundary tensor r that the call site cannot
 * name (a loop-carried or branch-merged value): a view of it is held to the
 * in-place rule - replay-invariant window or GB019 - never hoisted. */
static void root_in_place(coll *k, const char *var, const char *r)
{
	pto_map_put(&k->root, var, (void *)r);
	pto_map_put(&k->in_place, var, (void *)1);
}

/* pl.yield_(x): the result of a loop or branch. Its buffer is x's on the
 * last iteration / the taken arm, so it inherits x's root - in place, since
 * the call site has no single name for it. */
static bool visit_yield(coll *k, const char *var, const pto_expr *val)
{
	if (val->kind != PTO_E_CALL || pto_expr_nitems(val) != 1 || pto_expr_base(val)->kind != PTO_E_ATTR ||
	    strcmp(pto_expr_base(val)->name, "yield_"))
		return false;
	const char *r = lg_root_of(k, val->items[0]);
	if (r)
		root_in_place(k, var, r);
	return true;
}

/* A literal extent list, or false. */
bool lg_literal_extents(const pto_expr *l, int64_t *ext, size_t max, size_t *n)
{
	if (!l || l->kind != PTO_E_LIST || !pto_expr_nitems(l) || pto_expr_nitems(l) > max)
		return false;
	for (size_t i = 0; i < pto_expr_nitems(l); i++)
		if (!pto_const_int(l->items[i], &ext[i]) || ext[i] <= 0)
			return false;
	*n = pto_expr_nitems(l);
	return true;
}

/* Beyond PyPTO (seed 002 "Not yet handled"): a pl.tensor.create directly in
 * the body of a constant-trip loop is a fresh buffer per iteration. The
 * call site allocates one buffer whose leading extent is the trip count
 * times the allocation's (pl.tensor.slice keeps rank, so slot i is rows
 * [i*d0, (i+1)*d0)), passed as an appended InOut parameter, and the create
 * becomes the view of slot (j - start) // step. That offset is
 * replay-invariant (a constant-trip induction variable), so the view is
 * legal in place, and iterations keep disjoint windows as they kept
 * distinct buffers. Only literal shapes (the annotation's equal to the
 * create's) and one level of loop; anything else stays as before. */
static void slot_alloc(coll *k, pto_stmt *s, const char *var, const pto_call *cl)
{
	hilo_pto_program *p = k->p;
	const pto_stmt *loop = k->loop;
	uint64_t trips;
	const pto_expr *lv = loop->target->kind == PTO_E_TUPLE ? loop->target->items[0] : loop->target;
	const pto_expr *rc = loop->value;
	if (!pto_trip_count(loop, &trips) || trips < 1 || trips > 1u << 20 || lv->kind != PTO_E_NAME || rc->nkw > 1 ||
	    (rc->nkw == 1 && strcmp(rc->kwnames[0], "init_values")))
		return;
	int64_t rg[3] = { 0, 0, 1 };
	if (pto_expr_nitems(rc) == 1) {
		pto_const_int(rc->items[0], &rg[1]);
	} else {
		for (size_t i = 0; i < pto_expr_nitems(rc) && i < 3; i++)
			pto_const_int(rc->items[i], &rg[i]);
	}
	int64_t ext[8], aext[8];
	size_t n = 0, an = 0;
	pto_expr *const *ashape = pto_type_shape(s->ann, &an);
	if (!cl->nargs || !lg_literal_extents(cl->args[0], ext, 8, &n) || !ashape || an != n)
		return;
	for (size_t i = 0; i < n; i++)
		if (!pto_const_int(ashape[i], &aext[i]) || aext[i] != ext[i])
			return;
	if ((uint64_t)ext[0] > (uint64_t)INT64_MAX / trips)
		return;
	/* the parameter: <var>__slots, unless the Graph already uses that name */
	const char *pname = pto_intern(p, hilo_arena_printf(k->pa, "%s__slots", var));
	for (int q = 1; pto_vars_has(k->c->vars, pname); q++)
		pname = pto_intern(p, hilo_arena_printf(k->pa, "%s__slots%d", var, q));
	pto_vars_add(k->c->vars, pname, PTO_V_LOCAL)->tensor = true; /* reserve the name */
	/* call site: the same create with the leading extent scaled */
	pto_expr *big = pto_expr_clone(p, cl->e);
	big->items[0]->items[0] = pto_int(p, ext[0] * (int64_t)trips);
	pto_expr *bann = pto_expr_clone(p, s->ann);
	pto_expr *bl = (pto_expr *)pto_type_unwrap(bann, NULL)->items[0];
	bl->items[0] = pto_int(p, ext[0] * (int64_t)trips);
	/* body: pl.tensor.slice(slots, [extents], [((j - start) // step) * d0, 0, ...]) */
	pto_expr *slot = pto_name(p, lv->name);
	if (rg[0]) {
		pto_expr *b = pto_expr_new(p, PTO_E_BIN, 0);
		b->op = "-";
		b->base = slot;
		b->rhs = pto_int(p, rg[0]);
		slot = b;
	}
	if (rg[2] != 1) {
		pto_expr *b = pto_expr_new(p, PTO_E_BIN, 0);
		b->op = "//";
		b->base = slot;
		b->rhs = pto_int(p, rg[2]);
		slot = b;
	}
	pto_expr *off = slot;
	if (ext[0] != 1) {
		off = pto_expr_new(p, PTO_E_BIN, 0);
		off->op = "*";
		off->base = slot;
		off->rhs = pto_int(p, ext[0]);
	}
	pto_expr *view = pto_expr_new(p, PTO_E_CALL, cl->e->pos);
	view->base = pto_attr(p, pto_attr(p, pto_name(p, "pl"), "tensor"), "slice");
	pto_items_push(p, &view->items, &view->nitems, pto_name(p, pname));
	pto_items_push(p, &view->items, &view->nitems, pto_expr_clone(p, cl->args[0]));
	pto_expr *offs = pto_expr_new(p, PTO_E_LIST, 0);
	pto_items_push(p, &offs->items, &offs->nitems, off);
	for (size_t i = 1; i < n; i++)
		pto_items_push(p, &offs->items, &offs->nitems, pto_int(p, 0));
	pto_items_push(p, &view->items, &view->nitems, offs);
	pto_map_put(&k->pl->slot_view, s, view);
	/* the slot view is a view of a boundary tensor the call site cannot name */
	pto_map_put(&k->root, pname, (void *)pname);
	pto_map_put(&k->created, pname, (void *)1);
	root_in_place(k, var, pname);
	set_def(k, pname);
	push_hoist(k, &k->creates_l, pname, big, bann);
}

/* Every extent of the list (a literal, or with
 * HILO_PTO_HOIST_SCALAR_SHAPED_ALLOCATIONS one the call site computes);
 * false when some is neither. */
static bool extents_at_site(coll *k, pto_expr *const *ext, size_t n, bool *literal)
{
	for (size_t i = 0; i < n; i++) {
		if (pto_is_literal(ext[i]))
			continue;
		*literal = false;
		k->allow_dim = true;
		bool d = derivable(k, ext[i]);
		k->allow_dim = false;
		if (!d)
			return false;
	}
	return true;
}

/* A top-level allocation's shape. Literal: Step C as in PyPTO. Otherwise
 * (only reached with HILO_PTO_HOIST_SCALAR_SHAPED_ALLOCATIONS; Step D part
 * 1 rejects it before) it is hoisted when the call site can compute every
 * extent of the create and of its annotation - boundary scalars, values
 * derived from them, extents of tensors the call site names - and
 * rejected (GB010) when one reads something only the region has. */
static bool shape_at_site(coll *k, const pto_stmt *s, const pto_call *cl)
{
	bool literal = true, ok = cl->nargs && cl->args[0]->kind == PTO_E_LIST &&
		extents_at_site(k, cl->args[0]->items, pto_expr_nitems(cl->args[0]), &literal);
	size_t an = 0;
	pto_expr *const *ashape = s->ann ? pto_type_shape(s->ann, &an) : NULL;
	if (ok && ashape)
		ok = extents_at_site(k, ashape, an, &literal);
	if (ok || !k->scalar_shapes)
		return true;
	pto_error_at(k->p, k->d, cl->e, "GB010",
		"Graph function '%s' allocates '%s' with a shape the call site cannot compute: an extent "
		"reads a value only the region has (a tensor read, a task result, a loop variable). "
		"Recording copies the shape into the node and replay never re-runs the body, so a later "
		"call with a different extent would reuse the first call's buffer. Build the shape from "
		"the Graph's scalar parameters and constants, or allocate it in the caller.",
		k->c->f->name, s->target->name);
	k->failed = true;
	return false;
}

static void visit_assign(coll *k, pto_stmt *s)
{
	if (s->target->kind != PTO_E_NAME)
		return;
	const char *var = s->target->name;
	pto_var *v = pto_vars_get(k->c->vars, var);
	pto_expr *val = s->value;
	if (v && !v->scalar && v->kind == PTO_V_LOCAL && v->ndefs <= 2 && visit_yield(k, var, val))
		return;
	/* Only single definitions of locals are hoisted or followed: the input is
	 * SSA, and a rebinding of a parameter or a name bound twice (outside
	 * if/else phis, which are never hoistable) cannot be moved soundly. */
	if (!v || v->kind == PTO_V_PARAM || v->ndefs != 1)
		return;
	if (v && v->scalar) {
		if (!derivable_at_site(k, val))
			return;
		set_def(k, var);
		if (val->kind == PTO_E_NAME && strcmp(val->name, "True") && strcmp(val->name, "False")) {
			v->lg_mark |= LG_PASSTHROUGH;
			push_pass(k, var, val->name);
			return;
		}
		v->lg_mark |= LG_DERIVED;
		push_hoist(k, &k->derived_l, var, val, s->ann);
		return;
	}
	if (val->kind == PTO_E_TUPLE) {
		pto_map_put(&k->tuple_lit, var, val);
		return;
	}
	const pto_expr *elem = NULL; /* tp[i] of a tuple literal: an alias of its element */
	if (val->kind == PTO_E_SUB && pto_expr_nitems(val) == 1 && pto_expr_base(val)->kind == PTO_E_NAME) {
		const pto_expr *tl = pto_map_get(&k->tuple_lit, pto_expr_base(val)->name);
		int64_t idx;
		if (tl && pto_const_int(val->items[0], &idx) && idx >= 0 && (uint64_t)idx < pto_expr_nitems(tl))
			elem = tl->items[idx];
		while (elem && elem->kind == PTO_E_PAREN)
			elem = pto_expr_base(elem);
		if (elem && elem->kind != PTO_E_NAME)
			return;
	}
	if (val->kind == PTO_E_NAME || elem) {
		const pto_expr *src = elem ? elem : val;
		const char *r = lg_root_of(k, src);
		if (r) {
			pto_map_put(&k->root, var, (void *)r);
			if (pto_map_has(&k->in_place, src->name))
				pto_map_put(&k->in_place, var, (void *)1);
			set_def(k, var);
			push_pass(k, var, src->name);
		}
		return;
	}
	pto_call cl;
	bool is_call = pto_call_decode(k->p, val, &cl);
	if (is_call && (cl.kind == PTO_C_FUNC || cl.kind == PTO_C_SUBMIT) && s->ann &&
	    s->ann->kind == PTO_E_SUB && pto_expr_base(s->ann)->kind == PTO_E_ATTR && !strcmp(pto_expr_base(s->ann)->name, "Tuple")) {
		pto_map_put(&k->tuple_result, var, val);
		return;
	}
	if (val->kind == PTO_E_SUB && pto_expr_nitems(val) == 1 && pto_expr_base(val)->kind == PTO_E_NAME) {
		pto_expr *call = pto_map_get(&k->tuple_result, pto_expr_base(val)->name);
		int64_t idx;
		if (call && pto_const_int(val->items[0], &idx) && idx >= 0)
			propagate(k, var, call, (size_t)idx);
		return;
	}
	if (!is_call)
		return;
	if (pto_call_is_op(&cl, "tensor.create") || pto_call_is_op(&cl, "tensor.full")) {
		if (k->slots && k->loop_depth == 1 && pto_call_is_op(&cl, "tensor.create") && k->enclosing == k->loop) {
			slot_alloc(k, s, var, &cl);
			return;
		}
		if (k->loop_depth == 0 && pto_call_is_op(&cl, "tensor.create")) {
			if (!shape_at_site(k, s, &cl))
				return;
			pto_map_put(&k->root, var, (void *)var);
			pto_map_put(&k->created, var, (void *)1);
			set_def(k, var);
			push_hoist(k, &k->creates_l, var, val, s->ann);
			((hoist *)k->creates_l.data)[k->creates_l.n - 1].stmt = s;
		}
		return;
	}
	if (cl.kind == PTO_C_FUNC) {
		propagate(k, var, val, 0);
		return;
	}
	if (!pto_call_is_op(&cl, "tensor.slice") && !pto_call_is_op(&cl, "tensor.view"))
		return;
	if (!cl.nargs)
		return;
	const pto_expr *src = cl.args[0];
	const char *r = lg_root_of(k, src);
	if (!r)
		return;
	bool all_derivable = true, all_invariant = true;
	for (size_t i = 1; i < cl.nargs; i++) {
		if (!derivable_at_site(k, cl.args[i]))
			all_derivable = false;
		if (!pto_inv_is_invariant(&k->inv, cl.args[i]))
			all_invariant = false;
	}
	bool hoistable = all_derivable && !pto_map_has(&k->in_place, src->name);
	if (!hoistable && !all_invariant) {
		pto_error_at(k->p, k->d, val, "GB019",
			"Graph function '%s' derives '%s' from boundary tensor '%s' using a value that is neither "
			"reconstructible at the call site nor the same on every replay. Replay patches the "
			"boundary tensor's address but keeps the offset recorded on the first call, so the view "
			"would silently address the first call's window. Take the view at the call site and pass "
			"it in, or index it only by constant-trip loop variables and constants.",
			k->c->f->name, var, src->name);
		k->failed = true;
		return;
	}
	size_t n;
	pto_expr *const *shape = pto_type_shape(s->ann, &n);
	for (size_t i = 0; shape && i < n; i++)
		if (!pto_inv_is_invariant(&k->inv, shape[i])) {
			pto_error_at(k->p, k->d, val, "GB020",
				"Graph function '%s' takes a view '%s' of boundary tensor '%s' whose shape is not a "
				"compile-time constant. Recording freezes a view's shape and strides into the node "
				"and replay patches only its address, so a later call with a different extent would "
				"replay the first call's shape. Give the view a fixed shape - a constant, or an "
				"extent of a boundary tensor, and a varying offset is fine - or take it at the call "
				"site.", k->c->f->name, var, src->name);
			k->failed = true;
			return;
		}
	pto_map_put(&k->root, var, (void *)r);
	if (!hoistable) {
		/* left in place: frozen == correct; views of it face the same rule */
		pto_map_put(&k->in_place, var, (void *)1);
		return;
	}
	set_def(k, var);
	push_hoist(k, &k->slices_l, var, val, s->ann);
}

/* A loop's iter_arg initialised from a boundary tensor is that tensor on
 * the first iteration and whatever the body yields afterwards. */
static void visit_iter_args(coll *k, pto_stmt *s)
{
	const pto_expr *t = s->target;
	if (t->kind != PTO_E_TUPLE || pto_expr_nitems(t) != 2 || t->items[1]->kind != PTO_E_TUPLE)
		return;
	const pto_expr *iters = t->items[1], *inits = NULL;
	if (s->value->kind == PTO_E_CALL)
		for (size_t q = 0; q < s->value->nkw; q++)
			if (!strcmp(s->value->kwnames[q], "init_values") && s->value->kwvals[q]->kind == PTO_E_TUPLE)
				inits = s->value->kwvals[q];
	for (size_t i = 0; inits && i < pto_expr_nitems(iters) && i < pto_expr_nitems(inits); i++) {
		const char *r = lg_root_of(k, inits->items[i]);
		if (r && iters->items[i]->kind == PTO_E_NAME)
			root_in_place(k, iters->items[i]->name, r);
	}
}

static void visit_block(coll *k, pto_block *b)
{
	for (size_t i = 0; i < b->n && !k->failed; i++) {
		pto_stmt *s = b->stmts[i];
		switch (s->kind) {
		case PTO_S_ASSIGN:
			visit_assign(k, s);
			break;
		case PTO_S_FOR:
		case PTO_S_WHILE: {
			if (s->kind == PTO_S_FOR)
				visit_iter_args(k, s);
			pto_stmt *outer = k->loop, *enc = k->enclosing;
			k->loop = s->kind == PTO_S_FOR ? s : NULL;
			k->enclosing = s;
			k->loop_depth++;
			visit_block(k, &s->body);
			k->loop_depth--;
			k->loop = outer;
			k->enclosing = enc;
			break;
		}
		case PTO_S_IF:
		case PTO_S_WITH: {
			pto_stmt *enc = k->enclosing;
			k->enclosing = s;
			visit_block(k, &s->body);
			if (s->kind == PTO_S_IF)
				visit_block(k, &s->orelse);
			k->enclosing = enc;
			break;
		}
		default:
			break;
		}
	}
}

/* The name an expression's NAME denotes once aliases are followed. */
static const char *canon_name(const plan *pl, const char *n)
{
	uint32_t c = lg_canon(pl->vars, pto_vars_index(pl->vars, n));
	return c ? pto_vars_at(pl->vars, c - 1)->name : n;
}

/* The name a scalar rename n is substituted by (its binding is erased),
 * or NULL when n is none. */
static const char *repl_name(const plan *pl, const char *n)
{
	size_t i = pto_vars_index(pl->vars, n);
	uint32_t c = lg_canon(pl->vars, i);
	if (!c || !(pto_vars_at(pl->vars, i)->lg_mark & LG_PASSTHROUGH))
		return NULL;
	return pto_vars_at(pl->vars, c - 1)->name;
}

static void collect_deps(hilo_pto_program *p, const plan *pl, hoist *h, const pto_expr *e)
{
	if (!e)
		return;
	if (e->kind == PTO_E_NAME) {
		hoist *d = pto_map_get(&pl->hoisted_set, canon_name(pl, e->name));
		if (d && d != h) {
			h->deps = hilo_arena_grow(pl->a, h->deps, h->ndeps, h->ndeps + 1, sizeof *h->deps);
			if (!h->deps)
				pto_oom(pl->a);
			h->deps[h->ndeps++] = d->pos;
		}
		return;
	}
	if (e->kind == PTO_E_ATTR)
		return;
	collect_deps(p, pl, h, pto_expr_base(e));
	collect_deps(p, pl, h, pto_expr_rhs(e));
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		collect_deps(p, pl, h, e->items[i]);
	for (size_t i = 0; i < e->nkw; i++)
		collect_deps(p, pl, h, e->kwvals[i]);
}

/* min-heap of definition positions */
typedef struct heap {
	size_t *v;
	size_t n;
} heap;

static void heap_push(heap *hp, size_t x)
{
	size_t i = hp->n++;
	while (i && hp->v[(i - 1) / 2] > x) {
		hp->v[i] = hp->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	hp->v[i] = x;
}

static size_t heap_pop(heap *hp)
{
	size_t top = hp->v[0], x = hp->v[--hp->n], i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= hp->n)
			break;
		if (c + 1 < hp->n && hp->v[c + 1] < hp->v[c])
			c++;
		if (hp->v[c] >= x)
			break;
		hp->v[i] = hp->v[c];
		i = c;
	}
	if (hp->n)
		hp->v[i] = x;
	return top;
}

static int cmp_defidx(const void *a, const void *b)
{
	const hoist *x = *(hoist *const *)a, *y = *(hoist *const *)b;
	return x->defidx < y->defidx ? -1 : x->defidx > y->defidx;
}

/* Call-site binding order. Seed 002 emits the hoisted scalars first, then
 * the tensors (a view's offset is typically a Step A scalar); but a value is
 * never bound before one it reads (a scalar computed from a hoisted view's
 * pl.tensor.dim follows the view). So: a topological order of the
 * read-dependencies that, among the ready hoists, takes a scalar before a
 * tensor and the earlier definition first (Kahn's algorithm with two
 * heaps). SSA definition order is a topological order, so one always
 * exists. */
static void order_hoists(hilo_pto_program *p, plan *pl)
{
	size_t n = pl->hoisted.n;
	hoist **byd = hilo_arena_alloc(pl->a, (n + 1) * sizeof *byd);
	pl->order = hilo_arena_alloc(pl->a, (n + 1) * sizeof *pl->order);
	heap hs = { hilo_arena_alloc(pl->a, (n + 1) * sizeof(size_t)), 0 };
	heap ht = { hilo_arena_alloc(pl->a, (n + 1) * sizeof(size_t)), 0 };
	if (!byd || !pl->order || !hs.v || !ht.v)
		pto_oom(pl->a);
	for (size_t i = 0; i < n; i++)
		byd[i] = &((hoist *)pl->hoisted.data)[i];
	qsort(byd, n, sizeof *byd, cmp_defidx);
	for (size_t i = 0; i < n; i++)
		byd[i]->pos = i;
	for (size_t i = 0; i < n; i++) {
		hoist *h = byd[i];
		collect_deps(p, pl, h, h->value);
		collect_deps(p, pl, h, h->ann);
		h->nwait = h->ndeps;
		for (size_t k = 0; k < h->ndeps; k++) {
			hoist *d = byd[h->deps[k]];
			if (d->nusers == d->capusers) {
				size_t nc = d->capusers ? d->capusers * 2 : 4;
				d->users = hilo_arena_grow(pl->a, d->users, d->nusers, nc, sizeof *d->users);
				if (!d->users)
					pto_oom(pl->a);
				d->capusers = nc;
			}
			d->users[d->nusers++] = i;
		}
		if (!h->nwait)
			heap_push(h->tensor ? &ht : &hs, i);
	}
	size_t out = 0;
	while (hs.n || ht.n) {
		hoist *h = byd[heap_pop(hs.n ? &hs : &ht)];
		pl->order[out++] = h;
		for (size_t k = 0; k < h->nusers; k++) {
			hoist *u = byd[h->users[k]];
			if (--u->nwait == 0)
				heap_push(u->tensor ? &ht : &hs, u->pos);
		}
	}
	if (out != n) /* a cycle: impossible on SSA input, which was checked */
		HILO_PANIC("hoist dependency cycle");
}

/* Builds the plan for one Graph in pa (the plans' arena, alive until the
 * call sites are rewritten); false after a Step B rejection. */
static bool build_plan(hilo_pto_program *p, pto_func *f, plan *pl, unsigned flags, hilo_diags *d, hilo_arena *pa)
{
	pto_fctx c;
	pto_fctx_init(&c, p, f);
	coll k;
	memset(&k, 0, sizeof k);
	k.p = p;
	k.c = &c;
	k.d = d;
	k.pa = pa;
	k.pl = pl;
	k.slots = (flags & HILO_PTO_SLOT_LOOP_ALLOCATIONS) != 0;
	k.scalar_shapes = (flags & HILO_PTO_HOIST_SCALAR_SHAPED_ALLOCATIONS) != 0;
	pto_inv_init(&k.inv, &c);
	memset(pl, 0, sizeof *pl);
	pl->p = p;
	pl->f = f;
	pl->a = pa;
	pl->vars = c.vars;
	/* every alias's resolution is in its variable (lg_canon: on 100k
	 * aliases a map of them and the list they were resolved from were a
	 * third of the peak, then an array by variable index 0.6 MB of it);
	 * the variables the pass reserves later are never aliases */
	pl->nvars = pto_vars_count(c.vars);
	/* The collector's tables are dead once the plan is built: a scratch
	 * arena. slot_view moves into the plan (its arena). */
	hilo_arena *tmp = hilo_arena_create_in(p->arena);
	if (!tmp)
		pto_oom(p->arena);
	/* derived scalars, scalar renames and alias resolutions are in the
	 * variables (a table of them cost as much as the variable table):
	 * clear what an earlier collection left */
	for (size_t i = 0; i < pto_vars_count(c.vars); i++) {
		pto_var *v = pto_vars_at(c.vars, i);
		v->lg_mark = 0;
		if (v->kind == PTO_V_LOCAL)
			v->scratch = 0;
	}
	pto_map *maps[] = { &k.scalar_params, &k.tensor_params, &k.root,
		&k.in_place, &k.created, &k.tuple_result, &k.tuple_lit };
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
		pto_map_init_scratch(maps[i], tmp);
	pto_map_init_scratch(&pl->slot_view, pa);
	for (size_t i = 0; i < f->nparams; i++) {
		pto_var *v = pto_vars_get(c.vars, f->params[i].name);
		pto_map_put(v->scalar ? &k.scalar_params : &k.tensor_params, v->name, v);
	}
	visit_block(&k, &f->body);
	if (k.failed) {
		hilo_arena_destroy(tmp);
		return false;
	}

	pl->orig_nparams = f->nparams;
	pl->orig_names = hilo_arena_alloc(pa, (f->nparams + 1) * sizeof *pl->orig_names);
	if (!pl->orig_names)
		pto_oom(pa);
	for (size_t i = 0; i < f->nparams; i++)
		pl->orig_names[i] = f->params[i].name;
	pto_map_init_scratch(&pl->hoisted_set, pa);
	hoist *h;
	for (size_t i = 0; i < k.creates_l.n; i++) {
		h = vec_push(pa, &pl->hoisted, sizeof *h);
		*h = ((hoist *)k.creates_l.data)[i];
		h->dir = PTO_DIR_INOUT;
		h->tensor = true;
	}
	for (size_t i = 0; i < k.slices_l.n; i++) {
		h = vec_push(pa, &pl->hoisted, sizeof *h);
		*h = ((hoist *)k.slices_l.data)[i];
		h->tensor = true;
		h->dir = PTO_DIR_IN;
		const char *r = pto_map_get(&k.root, h->name);
		if (r && pto_map_has(&k.created, r)) {
			h->dir = PTO_DIR_INOUT;
		} else if (r) {
			pto_var *rv = pto_vars_get(c.vars, r);
			if (rv && rv->kind == PTO_V_PARAM)
				h->dir = rv->dir;
		}
	}
	for (size_t i = 0; i < k.derived_l.n; i++) {
		h = vec_push(pa, &pl->hoisted, sizeof *h);
		*h = ((hoist *)k.derived_l.data)[i];
		h->dir = PTO_DIR_IN;
		h->tensor = false;
	}
	hilo_heap_free(pa, k.creates_l.data);
	hilo_heap_free(pa, k.slices_l.data);
	hilo_heap_free(pa, k.derived_l.data);
	if (!lg_pack_allocations(&k, pl)) {
		hilo_arena_destroy(tmp);
		return false;
	}
	for (size_t i = 0; i < pl->hoisted.n; i++) {
		h = &((hoist *)pl->hoisted.data)[i];
		pto_map_put(&pl->hoisted_set, h->name, h);
	}
	hilo_arena_destroy(tmp);
	order_hoists(p, pl);
	return true;
}

static bool plan_empty(const plan *pl) { return pl->hoisted.n == 0 && pl->nrepl == 0; }
/* (slotted allocations are hoists too, so a plan with one is not empty) */

/* A binding the rewrite erases: a hoisted value or a scalar rename. */
static bool deleted(const plan *pl, const char *name)
{
	return pto_map_has(&pl->hoisted_set, name) || repl_name(pl, name);
}

/* ---- body rewrite ----------------------------------------------------- */

/* Substitutes every scalar rename in e by the name it denotes. */
static void rename_expr(pto_expr *e, const plan *pl)
{
	if (!e)
		return;
	if (e->kind == PTO_E_NAME) {
		const char *r = repl_name(pl, e->name);
		if (r)
			e->name = r;
		return;
	}
	if (e->kind == PTO_E_ATTR)
		return;
	rename_expr(pto_expr_base(e), pl);
	rename_expr(pto_expr_rhs(e), pl);
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		rename_expr(e->items[i], pl);
	for (size_t i = 0; i < e->nkw; i++)
		rename_expr(e->kwvals[i], pl);
}

/* Does e read a scalar rename? */
static bool mentions_repl(const pto_expr *e, const plan *pl)
{
	if (!e)
		return false;
	if (e->kind == PTO_E_NAME)
		return repl_name(pl, e->name) != NULL;
	if (e->kind == PTO_E_ATTR)
		return false;
	if (mentions_repl(pto_expr_base(e), pl) || mentions_repl(pto_expr_rhs(e), pl))
		return true;
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		if (mentions_repl(e->items[i], pl))
			return true;
	for (size_t i = 0; i < e->nkw; i++)
		if (mentions_repl(e->kwvals[i], pl))
			return true;
	return false;
}

/* Appends the comment lines of statement s to *lead. */
static void keep_lead(hilo_pto_program *p, const char ***lead, uint32_t *n, const pto_stmt *s)
{
	uint32_t sn;
	const char *const *sl = pto_stmt_lead(p, s, &sn);
	if (!sn)
		return;
	const char **nl = hilo_arena_alloc(p->arena, (*n + sn) * sizeof *nl);
	if (!nl)
		pto_oom(p->arena);
	if (*n)
		memcpy(nl, *lead, *n * sizeof *nl);
	memcpy(nl + *n, sl, sn * sizeof *nl);
	*lead = nl;
	*n += sn;
}

static void rewrite_block(pto_block *b, const plan *pl)
{
	size_t w = 0;
	const char **lead = NULL; /* comment lines of deleted statements move to the next one */
	uint32_t nlead = 0;
	for (size_t i = 0; i < b->n; i++) {
		pto_stmt *s = b->stmts[i];
		if (s->kind == PTO_S_ASSIGN && s->target->kind == PTO_E_NAME && deleted(pl, s->target->name)) {
			keep_lead(pl->p, &lead, &nlead, s);
			continue;
		}
		if (nlead) {
			/* the deleted statements' lines, then s's own */
			keep_lead(pl->p, &lead, &nlead, s);
			pto_stmt_set_lead(pl->p, s, lead, nlead);
			lead = NULL;
			nlead = 0;
		}
		pto_expr *slot = pto_map_get(&pl->slot_view, s);
		if (slot)
			s->value = slot; /* an in-loop allocation becomes the view of its slot */
		if (s->kind != PTO_S_ASSIGN)
			rename_expr(s->target, pl);
		rename_expr(s->value, pl);
		if (mentions_repl(s->ann, pl)) {
			/* annotations are shared between statements: copy on write */
			s->ann = pto_expr_clone(pl->p, s->ann);
			rename_expr(s->ann, pl);
		}
		if (pto_stmt_has_body(s->kind))
			rewrite_block(&s->body, pl);
		if (s->kind == PTO_S_IF)
			rewrite_block(&s->orelse, pl);
		b->stmts[w++] = s;
	}
	b->n = w;
	if (nlead) {
		pto_stmt *c = pto_stmt_new(pl->p, PTO_S_COMMENT);
		pto_stmt_set_lead(pl->p, c, lead, nlead);
		pto_block_push(pl->p, b, c);
	}
}

static pto_expr *wrap_dir(hilo_pto_program *p, const pto_expr *ann, pto_dir dir)
{
	pto_expr *t = ann ? pto_expr_clone(p, ann) :
		pto_sub1(p, pto_attr(p, pto_name(p, "pl"), "Scalar"), pto_attr(p, pto_name(p, "pl"), "INDEX"));
	if (dir == PTO_DIR_IN)
		return t;
	return pto_sub1(p, pto_attr(p, pto_name(p, "pl"), dir == PTO_DIR_INOUT ? "InOut" : "Out"), t);
}

static void extend_signature(hilo_pto_program *p, const plan *pl)
{
	for (size_t i = 0; i < pl->hoisted.n; i++) {
		const hoist *h = &((hoist *)pl->hoisted.data)[i];
		pto_expr *ann = wrap_dir(p, h->ann, h->dir);
		rename_expr(ann, pl); /* a shape may read a renamed alias */
		pto_func_add_param(p, pl->f, h->name, ann);
	}
}

/* The cached variable table of a rewritten Graph stays valid for every name
 * still in the body, except that each hoisted local is now a parameter. */
static void retarget_cached_vars(hilo_pto_program *p, const plan *pl)
{
	pto_fctx c;
	pto_fctx_init(&c, p, pl->f); /* the cached table, built by build_plan */
	for (size_t i = 0; i < pl->hoisted.n; i++) {
		const hoist *h = &((hoist *)pl->hoisted.data)[i];
		pto_var *v = pto_vars_get(c.vars, h->name);
		if (!v)
			continue;
		v->kind = PTO_V_PARAM;
		v->index = pl->orig_nparams + i;
		v->def = NULL;
		pto_var_set_ann(v, pl->f->params[v->index].ann);
		v->dir = h->dir;
	}
	/* new boundary tensors change what ReplayInvariantSet admits
	 * (tensor.dim of a hoisted view): rebuild it */
	c.vars->inv_built = false;
}

/* ---- call sites ------------------------------------------------------- */

typedef struct site {
	hilo_pto_program *p;
	pto_map *plans;       /* graph name -> plan */
	hilo_arena *pa;       /* the plans' arena */
	vec prefix;           /* pto_stmt* to insert before the statement */
	const char *indent;
	pto_func *fn;         /* the function being rewritten */
	hilo_arena *fa;       /* fn's names: built at its first call site, freed after fn */
	pto_map names;        /* every name fn uses */
	pto_map bind;         /* Graph name -> caller expression at one call (cleared per call) */
} site;

static void collect_names(const pto_block *b, pto_map *names);

/* The names the function being rewritten binds or reads (built only for a
 * function that calls a rewritten Graph: a table of every name of a large
 * body is the bulk of a pass's memory). */
static pto_map *site_names(site *st)
{
	if (!st->fa) {
		st->fa = hilo_arena_create_in(st->pa);
		if (!st->fa)
			pto_oom(st->pa);
		pto_map_init_scratch(&st->names, st->fa);
		for (size_t k = 0; k < st->fn->nparams; k++)
			pto_map_put(&st->names, st->fn->params[k].name, (void *)1);
		collect_names(&st->fn->body, &st->names);
	}
	return &st->names;
}

/* The caller-side expression a Graph name is bound to at this call site. */
static const pto_expr *bound_to(const plan *pl, const pto_map *bind, const char *name)
{
	return pto_map_get(bind, canon_name(pl, name));
}

static bool mentions_bound(const plan *pl, const pto_map *bind, const pto_expr *e)
{
	if (!e)
		return false;
	if (e->kind == PTO_E_NAME)
		return bound_to(pl, bind, e->name) != NULL;
	if (e->kind == PTO_E_ATTR)
		return false;
	if (mentions_bound(pl, bind, pto_expr_base(e)) || mentions_bound(pl, bind, pto_expr_rhs(e)))
		return true;
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		if (mentions_bound(pl, bind, e->items[i]))
			return true;
	for (size_t i = 0; i < e->nkw; i++)
		if (mentions_bound(pl, bind, e->kwvals[i]))
			return true;
	return false;
}

static pto_expr *subst(hilo_pto_program *p, const plan *pl, const pto_expr *e, const pto_map *bind)
{
	if (!e)
		return NULL;
	if (e->kind == PTO_E_NAME) {
		const pto_expr *b = bound_to(pl, bind, e->name);
		return pto_expr_clone(p, b ? b : e);
	}
	if (e->kind == PTO_E_ATTR)
		return pto_expr_clone(p, e);
	/* shallow copy of this node, children substituted */
	pto_expr *c = pto_expr_new(p, e->kind, e->pos);
	memcpy(c, e, pto_expr_size(e->kind));
	if (pto_expr_base(e)) /* literals end before `base`: never written past */
		c->base = subst(p, pl, pto_expr_base(e), bind);
	if (e->kind == PTO_E_BIN)
		c->rhs = subst(p, pl, e->rhs, bind);
	if (pto_expr_nitems(e)) {
		size_t cap = 2; /* pto_items_push expects power-of-two capacity */
		while (cap < pto_expr_nitems(e))
			cap <<= 1;
		c->items = hilo_arena_alloc(p->arena, cap * sizeof *c->items);
		for (size_t i = 0; i < pto_expr_nitems(e); i++)
			c->items[i] = subst(p, pl, e->items[i], bind);
	}
	if (e->nkw) {
		c->kwvals = hilo_arena_alloc(p->arena, e->nkw * sizeof *c->kwvals);
		for (size_t i = 0; i < e->nkw; i++)
			c->kwvals[i] = subst(p, pl, e->kwvals[i], bind);
	}
	return c;
}

static void extend_arg_directions(hilo_pto_program *p, pto_call *cl, const plan *pl)
{
	if (!cl->attrs || cl->attrs->kind != PTO_E_DICT)
		return;
	for (size_t i = 0; i < pto_expr_nitems(cl->attrs); i++) {
		const pto_expr *key = cl->attrs->keys[i];
		pto_expr *lst = cl->attrs->items[i];
		if (key->kind != PTO_E_STR || strlen(key->text) != 16 || strncmp(key->text + 1, "arg_directions", 14) ||
		    lst->kind != PTO_E_LIST)
			continue;
		const pto_expr *proto = pto_expr_nitems(lst) && lst->items[0]->kind == PTO_E_ATTR ? pto_expr_base(lst->items[0]) : NULL;
		/* PyPTO's printer spells a call's directions pl.adir.input / inout / scalar
		 * (python_print's ArgDirectionToDslName) and its parser accepts only that
		 * form; the enum's own spelling (pl.ArgDirection.Input) is kept where the
		 * list already uses it. */
		bool adir = !proto || (proto->kind == PTO_E_ATTR && !strcmp(proto->name, "adir"));
		for (size_t k = 0; k < pl->hoisted.n; k++) {
			const hoist *h = &((hoist *)pl->hoisted.data)[k];
			const char *nm = !h->tensor ? "Scalar" : h->dir == PTO_DIR_INOUT ? "InOut" : "Input";
			if (adir)
				nm = !h->tensor ? "scalar" : h->dir == PTO_DIR_INOUT ? "inout" : "input";
			pto_expr *base = proto ? pto_expr_clone(p, proto) : pto_attr(p, pto_name(p, "pl"), "adir");
			pto_items_push(p, &lst->items, &lst->nitems, pto_attr(p, base, nm));
		}
	}
}

static void rewrite_call(void *ud, pto_call *cl)
{
	site *st = ud;
	hilo_pto_program *p = st->p;
	if ((cl->kind != PTO_C_FUNC && cl->kind != PTO_C_SUBMIT) || !cl->callee_name)
		return;
	plan *pl = pto_map_get(st->plans, cl->callee_name);
	if (!pl)
		return;
	pto_map *bind = &st->bind;
	pto_map_clear(bind);
	size_t bound = cl->nargs < pl->orig_nparams ? cl->nargs : pl->orig_nparams;
	for (size_t i = 0; i < bound; i++)
		pto_map_put(bind, pl->orig_names[i], cl->args[i]);
	size_t nh = pl->hoisted.n;
	for (size_t i = 0; i < nh; i++) {
		hoist *h = pl->order[i];
		/* <name>__graph_arg<N>: one counter per program, skipping any N whose
		 * name the caller already uses (it would be overwritten) */
		const char *local;
		do {
			local = pto_intern(p, hilo_arena_printf(st->pa, "%s__graph_arg%d", h->name,
				p->graph_arg_counter++));
		} while (pto_map_has(site_names(st), local));
		pto_map_put(site_names(st), local, (void *)1);
		pto_stmt *s = pto_stmt_new(p, PTO_S_ASSIGN);
		pto_stmt_place_at(s, cl->e->pos); /* the bindings are placed at the call */
		pto_stmt_set_indent(p, s, st->indent);
		s->target = pto_name(p, local);
		/* annotations are shared; copy only one that names a bound value */
		s->ann = h->ann && mentions_bound(pl, bind, h->ann) ? subst(p, pl, h->ann, bind) : (pto_expr *)h->ann;
		s->value = subst(p, pl, h->value, bind);
		*(pto_stmt **)vec_push(st->pa, &st->prefix, sizeof s) = s;
		h->local = s->target->name;
		pto_map_put(bind, h->name, s->target);
	}
	for (size_t i = 0; i < nh; i++) {
		const hoist *h = &((hoist *)pl->hoisted.data)[i];
		pto_items_push(p, &cl->e->items, &cl->e->nitems, pto_name(p, h->local));
	}
	extend_arg_directions(p, cl, pl);
}

static void expr_names(const pto_expr *e, pto_map *names)
{
	if (!e)
		return;
	if (e->kind == PTO_E_NAME) {
		pto_map_put(names, e->name, (void *)1);
		return;
	}
	expr_names(pto_expr_base(e), names);
	expr_names(pto_expr_rhs(e), names);
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		expr_names(e->items[i], names);
	for (size_t i = 0; i < e->nkw; i++)
		expr_names(e->kwvals[i], names);
}

/* Every name a body binds or reads (module-level names included). */
static void collect_names(const pto_block *b, pto_map *names)
{
	for (size_t i = 0; i < b->n; i++) {
		const pto_stmt *s = b->stmts[i];
		expr_names(s->target, names);
		expr_names(s->value, names);
		if (pto_stmt_has_body(s->kind))
			collect_names(&s->body, names);
		if (s->kind == PTO_S_IF)
			collect_names(&s->orelse, names);
	}
}

static bool rewrite_sites(site *st, pto_block *b)
{
	hilo_pto_program *p = st->p;
	pto_block out = { NULL, 0, 0 };
	bool inserted = false, changed = false; /* out is built from the first insertion on */
	for (size_t i = 0; i < b->n; i++) {
		pto_stmt *s = b->stmts[i];
		if (s->kind == PTO_S_ASSIGN || s->kind == PTO_S_EXPR || s->kind == PTO_S_RETURN) {
			st->prefix.n = 0;
			st->indent = pto_stmt_indent(p, s);
			pto_walk_calls(p, s->value, rewrite_call, st);
			if (st->prefix.n && !inserted) {
				for (size_t k = 0; k < i; k++)
					pto_block_push(p, &out, b->stmts[k]);
				inserted = true;
			}
			for (size_t k = 0; k < st->prefix.n; k++)
				pto_block_push(p, &out, ((pto_stmt **)st->prefix.data)[k]);
		}
		if (pto_stmt_has_body(s->kind))
			changed |= rewrite_sites(st, &s->body);
		if (s->kind == PTO_S_IF)
			changed |= rewrite_sites(st, &s->orelse);
		if (inserted)
			pto_block_push(p, &out, s);
	}
	if (inserted) {
		hilo_heap_free(p->arena, b->stmts); /* tracked heap (pto_block_push), replaced */
		*b = out;
	}
	return changed || inserted;
}

/* ---- driver ----------------------------------------------------------- */

int hilo_pto_legalize_graph_boundary(hilo_pto_program *p, hilo_pto_runtime rt, hilo_diags *d)
{
	return hilo_pto_legalize_graph_boundary_ex(p, rt, 0, d);
}

static int legalize(hilo_pto_program *p, hilo_pto_runtime rt, unsigned flags, hilo_diags *d);

/* Out of memory during the pass jumps here: the program may be half
 * rewritten (destroy it), the status is an error. */
int hilo_pto_legalize_graph_boundary_ex(hilo_pto_program *p, hilo_pto_runtime rt, unsigned flags, hilo_diags *d)
{
	HILO_OOM_CATCH(g, p->arena) {
		hilo_diag_oom(d, p->file);
		return -1;
	}
	int r = legalize(p, rt, flags, d);
	pto_program_drop_caches(p);
	hilo_oom_end(&g);
	return r;
}

/* Steps A-C for every Graph: false after a rejection. */
static bool plan_and_rewrite(hilo_pto_program *p, unsigned flags, hilo_diags *d, hilo_arena *pa)
{
	pto_map plans;
	pto_map_init_scratch(&plans, pa);
	for (size_t i = 0; i < p->nfuncs; i++) {
		pto_func *f = p->funcs[i];
		if (f->type != PTO_FT_GRAPH)
			continue;
		plan *pl = hilo_arena_alloc(pa, sizeof *pl);
		if (!pl)
			pto_oom(pa);
		if (!build_plan(p, f, pl, flags, d, pa))
			return false;
		if (!plan_empty(pl))
			pto_map_put(&plans, f->name, pl);
	}
	if (!plans.n)
		return true;
	for (size_t i = 0; i < p->nfuncs; i++) {
		plan *pl = pto_map_get(&plans, p->funcs[i]->name);
		if (!pl)
			continue;
		rewrite_block(&pl->f->body, pl);
		extend_signature(p, pl);
		retarget_cached_vars(p, pl);
	}
	site st;
	memset(&st, 0, sizeof st);
	st.p = p;
	st.plans = &plans;
	st.pa = pa;
	pto_map_init_scratch(&st.bind, pa);
	bool *stale = hilo_arena_alloc(pa, (p->nfuncs + 1) * sizeof *stale);
	if (!stale)
		pto_oom(pa);
	for (size_t i = 0; i < p->nfuncs; i++) {
		st.fn = p->funcs[i];
		bool changed = rewrite_sites(&st, &p->funcs[i]->body);
		hilo_arena_destroy(st.fa);
		st.fa = NULL;
		/* a Graph's own rewrite only deleted bindings, renamed aliases to
		 * their roots and turned hoisted locals into parameters, which
		 * retarget_cached_vars recorded; new call-site locals need a fresh
		 * table. A planned Graph's table is dropped only after every call
		 * site is done: its plan reads it (a Graph calls no Graph, GB014,
		 * so that never happens) */
		if (!pto_map_has(&plans, p->funcs[i]->name))
			pto_func_invalidate(p->funcs[i]);
		else
			stale[i] = changed;
	}
	for (size_t i = 0; i < p->nfuncs; i++)
		if (stale[i])
			pto_func_invalidate(p->funcs[i]);
	return true;
}

static int legalize(hilo_pto_program *p, hilo_pto_runtime rt, unsigned flags, hilo_diags *d)
{
	/* a keyword the pass would not see is an error before anything is read */
	if (lg_check_keywords(p, d, false))
		return -1;
	bool any = false;
	for (size_t i = 0; i < p->nfuncs; i++)
		any |= p->funcs[i]->type == PTO_FT_GRAPH;
	if (!any)
		return 0;
	if (rt != HILO_PTO_RUNTIME_HOST_BUILD_GRAPH) {
		for (size_t i = 0; i < p->nfuncs; i++) {
			pto_func *f = p->funcs[i];
			if (f->type != PTO_FT_GRAPH)
				continue;
			pto_error(p, d, f->line, f->col, "GB001",
				"Graph function '%s' requires the host_build_graph runtime, but this compilation "
				"targets 'tensormap_and_ringbuffer'. `rt_submit_graph` and `GraphTaskArgs` exist only "
				"in that runtime's orchestration API, so the generated orchestration would not "
				"compile. Pass --runtime=host_build_graph, or drop type=pl.FunctionType.Graph from "
				"the function.", f->name);
			return -1;
		}
	}
	/* non-SSA input is rejected, never analysed */
	for (size_t i = 0; i < p->nfuncs; i++)
		if (!pto_check_ssa(p, p->funcs[i], d))
			return -1;
	/* Step D, part 1: what the user wrote */
	for (size_t i = 0; i < p->nfuncs; i++) {
		pto_func *f = p->funcs[i];
		if (f->type != PTO_FT_GRAPH)
			continue;
		if (!lg_check_signature(p, f, d) || !lg_check_alloc(p, f, flags, d) || !lg_check_launch_spec(p, f, d) ||
		    !lg_check_nested(p, f, d) || !lg_check_task_arity(p, f, d) || !lg_check_returns(p, f, d))
			return -1;
	}
	/* host control tensors, on what the user wrote: a view the pass hoists
	 * out of a Graph would hide its root behind a new parameter */
	if (lg_check_host_control(p, d, false))
		return -1;
	/* Steps A-C: plan every Graph, then rewrite bodies and call sites;
	 * the plans live in their own arena, freed once the sites are done */
	hilo_arena *pa = hilo_arena_create_in(p->arena);
	if (!pa)
		pto_oom(p->arena);
	bool ok = plan_and_rewrite(p, flags, d, pa);
	hilo_arena_destroy(pa);
	if (!ok)
		return -1;
	/* Step D, part 2: what codegen will see */
	for (size_t i = 0; i < p->nfuncs; i++) {
		pto_func *f = p->funcs[i];
		if (f->type == PTO_FT_GRAPH) {
			if (!lg_check_signature(p, f, d) || !lg_check_scalars(p, f, d) ||
			    !lg_check_launch_spec(p, f, d) || !lg_check_node_count(p, f, d))
				return -1;
			continue;
		}
		if (!lg_check_call_sites(p, f, d))
			return -1;
	}
	return 0;
}
