/* pto_host_control.c - host control tensors under host_build_graph (seed
 * 002, "Host control tensors"): static checks GB025 and GB026.
 *
 * What: with host_build_graph, orchestration-level pl.tensor.read and
 * pl.tensor.write (statements of an Orchestration or Graph function, which
 * run on the host while the graph is built) operate on host CPU tensors;
 * codegen gives those arguments HOST/NONE transfers. Two things cannot
 * work and are rejected with located errors:
 *   GB025  one tensor - or a view of it, an alias, a loop-carried iter_arg,
 *          a branch or loop result, an in-place rebind through a callee's
 *          explicit return - used both by a host read/write and as an
 *          argument of a device task launch: host writes never upload and
 *          the device copy is never downloaded, so one side reads stale data.
 *   GB026  a host read of a runtime allocation (pl.tensor.create in the same
 *          function) or of a tensor a device task in the same function
 *          produced (a launch result that is none of the caller's
 *          arguments): neither exists on the host while the graph is built.
 *
 * When: in legalize-graph-boundary's Step D part 1, on what the user
 * wrote (a view the pass hoists out of a Graph would otherwise hide its
 * root behind a new parameter), and in verify-graph-boundary. Both run the
 * same provenance walk below: these are rejections of the input, not
 * post-conditions of a rewrite, so there is nothing for the verifier to
 * re-derive differently.
 *
 * Why sound: only rejects. Provenance over-approximates: a value whose
 * buffer might be the host tensor's (any alias, view, loop-carried or
 * merged value, write-back) is treated as that tensor, so a host/device
 * mix cannot hide behind a rename.
 */
#include "pto/pto_legalize.h"

#include <string.h>

typedef struct hc {
	hilo_pto_program *p;
	pto_func *f;
	hilo_diags *d;
	bool all;              /* report every violation (verifier) */
	int errors;
	size_t nroot;          /* the variables whose root is their `scratch` (locals: every alias
	                        * of a 100k-name chain has one, 4 bytes in the variable instead of
	                        * an array by index) */
	pto_map root_other;    /* name -> root name, for an iter arg, a name that is no variable
	                        * (a module-level name; none on SSA input) or a root that is none */
	pto_map alloc;         /* root -> the pl.tensor.create expression */
	pto_map produced;      /* root -> the launch that produced it */
	pto_map tuples;        /* tuple literal / tuple-valued launch result */
	pto_map host;          /* root -> first host read/write expression */
	pto_map device;        /* root -> first launch argument expression */
	pto_fctx c;
} hc;

/* 1 + the index of variable i's root, 0 for none or when it is not kept
 * in the variable. */
static uint32_t hc_root(const hc *h, size_t i)
{
	return i < h->nroot ? pto_vars_scratch(h->c.vars, i) : 0;
}

static const char *root_name(hc *h, const pto_expr *e)
{
	while (e && e->kind == PTO_E_PAREN)
		e = pto_expr_base(e);
	if (!e || e->kind != PTO_E_NAME)
		return NULL;
	uint32_t ri = hc_root(h, pto_vars_index(h->c.vars, e->name));
	const char *r = ri ? pto_vars_at(h->c.vars, ri - 1)->name : pto_map_get(&h->root_other, e->name);
	return r ? r : e->name;
}

/* var is an assignment target or an iter_arg (a variable of the function;
 * the input is SSA): the first root set stays. */
static void set_root(hc *h, const char *var, const char *r)
{
	if (!var || !r || var == r)
		return;
	size_t i = pto_vars_index(h->c.vars, var), ri = pto_vars_index(h->c.vars, r);
	if (hc_root(h, i) || pto_map_has(&h->root_other, var))
		return;
	if (i < h->nroot && ri != PTO_NO_VAR && pto_vars_at(h->c.vars, i)->kind == PTO_V_LOCAL)
		pto_vars_at(h->c.vars, i)->scratch = (uint32_t)ri + 1;
	else
		pto_map_put(&h->root_other, var, (void *)r);
}

/* The caller argument a launch result at position pos is (explicit
 * return -> parameter map), or NULL for a runtime-produced tensor. */
static const pto_expr *result_arg(hc *h, pto_expr *call, size_t pos)
{
	pto_call cl;
	if (!pto_call_decode(h->p, call, &cl) || (cl.kind != PTO_C_FUNC && cl.kind != PTO_C_SUBMIT) || !cl.callee)
		return NULL;
	size_t k;
	if (!pto_explicit_returned_param(cl.callee, pos, &k) || k >= cl.nargs)
		return NULL;
	return cl.args[k];
}

static bool is_launch(const pto_call *cl)
{
	return (cl->kind == PTO_C_FUNC || cl->kind == PTO_C_SUBMIT) && cl->callee;
}

/* A launch of a device kernel (not a Graph or another orchestration
 * function, whose tensor parameters may themselves be host control). */
static bool is_device_launch(const pto_call *cl)
{
	if (!is_launch(cl))
		return false;
	switch (cl->callee->type) {
	case PTO_FT_INCORE:
	case PTO_FT_AIC:
	case PTO_FT_AIV:
	case PTO_FT_GROUP:
	case PTO_FT_SPMD:
		return true;
	default:
		return false;
	}
}

static void track_assign(hc *h, const pto_stmt *s)
{
	if (s->target->kind != PTO_E_NAME)
		return;
	const char *var = s->target->name;
	pto_expr *val = s->value;
	if (val->kind == PTO_E_NAME || val->kind == PTO_E_PAREN) {
		set_root(h, var, root_name(h, val));
		return;
	}
	if (val->kind == PTO_E_TUPLE) {
		pto_map_put(&h->tuples, var, val);
		return;
	}
	if (val->kind == PTO_E_SUB && pto_expr_nitems(val) == 1 && pto_expr_base(val)->kind == PTO_E_NAME) {
		pto_expr *t = pto_map_get(&h->tuples, pto_expr_base(val)->name);
		int64_t idx;
		if (!t || !pto_const_int(val->items[0], &idx) || idx < 0)
			return;
		if (t->kind == PTO_E_TUPLE) {
			if ((uint64_t)idx < pto_expr_nitems(t))
				set_root(h, var, root_name(h, t->items[idx]));
			return;
		}
		const pto_expr *a = result_arg(h, t, (size_t)idx);
		if (a)
			set_root(h, var, root_name(h, a));
		else
			pto_map_put(&h->produced, var, t);
		return;
	}
	pto_call cl;
	if (!pto_call_decode(h->p, val, &cl))
		return;
	if (pto_call_is_op(&cl, "yield_")) {
		for (size_t i = 0; i < pto_expr_nitems(val); i++)
			set_root(h, var, root_name(h, val->items[i]));
		return;
	}
	if (pto_call_is_op(&cl, "tensor.create")) {
		pto_map_put(&h->alloc, var, val);
		return;
	}
	if ((pto_call_is_op(&cl, "tensor.slice") || pto_call_is_op(&cl, "tensor.view") ||
	     pto_call_is_op(&cl, "tensor.reshape")) && cl.nargs) {
		set_root(h, var, root_name(h, cl.args[0]));
		return;
	}
	if (is_launch(&cl)) {
		if (s->ann && s->ann->kind == PTO_E_SUB && pto_expr_base(s->ann)->kind == PTO_E_ATTR &&
		    !strcmp(pto_expr_base(s->ann)->name, "Tuple")) {
			pto_map_put(&h->tuples, var, val);
			return;
		}
		const pto_expr *a = result_arg(h, val, 0);
		if (a)
			set_root(h, var, root_name(h, a));
		else
			pto_map_put(&h->produced, var, val);
	}
}

static void track_for(hc *h, const pto_stmt *s)
{
	const pto_expr *t = s->target, *inits = NULL;
	if (t->kind != PTO_E_TUPLE || pto_expr_nitems(t) != 2 || t->items[1]->kind != PTO_E_TUPLE || s->value->kind != PTO_E_CALL)
		return;
	for (size_t q = 0; q < s->value->nkw; q++)
		if (!strcmp(s->value->kwnames[q], "init_values") && s->value->kwvals[q]->kind == PTO_E_TUPLE)
			inits = s->value->kwvals[q];
	for (size_t i = 0; inits && i < pto_expr_nitems(t->items[1]) && i < pto_expr_nitems(inits); i++)
		if (t->items[1]->items[i]->kind == PTO_E_NAME)
			set_root(h, t->items[1]->items[i]->name, root_name(h, inits->items[i]));
}

static void report(hc *h, const pto_expr *at, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void report(hc *h, const pto_expr *at, const char *code, const char *fmt, ...)
{
	if (h->errors && !h->all)
		return;
	va_list ap;
	va_start(ap, fmt);
	pto_error_atv(h->p, h->d, at, code, fmt, ap);
	va_end(ap);
	h->errors++;
}

static void on_call(void *ud, pto_call *cl)
{
	hc *h = ud;
	if ((pto_call_is_op(cl, "tensor.read") || pto_call_is_op(cl, "tensor.write")) && cl->nargs) {
		const char *r = root_name(h, cl->args[0]);
		if (!r)
			return;
		bool read = pto_call_is_op(cl, "tensor.read");
		const pto_expr *a = pto_map_get(&h->alloc, r), *pr = pto_map_get(&h->produced, r);
		if (read && (a || pr))
			report(h, cl->e, "GB026",
				"function '%s' reads '%s' on the host with pl.tensor.read, but it is %s (line %d). "
				"Under host_build_graph an orchestration-level read runs while the graph is built, on "
				"a host tensor argument; a runtime allocation and a device task's output do not exist "
				"on the host then. Pass the control values in as a separate host tensor parameter.",
				h->f->name, cl->args[0]->kind == PTO_E_NAME ? cl->args[0]->name : r,
				a ? "a runtime allocation (pl.tensor.create)" : "produced by a device task in the same graph",
				pto_expr_line(h->p, h->d, a ? a : pr));
		if (!pto_map_has(&h->host, r))
			pto_map_put(&h->host, r, cl->e);
		const pto_expr *dev = pto_map_get(&h->device, r);
		if (dev)
			report(h, cl->e, "GB025",
				"function '%s' %s '%s' on the host, but the same tensor (root '%s') is an argument of "
				"a device task launch at line %d. A host control tensor gets a HOST/NONE transfer: host "
				"writes never upload to device storage and device writes never come back, so one side "
				"would read stale data. Pass host control data and device data in separate parameters.",
				h->f->name, read ? "reads" : "writes",
				cl->args[0]->kind == PTO_E_NAME ? cl->args[0]->name : r, r, pto_expr_line(h->p, h->d, dev));
		return;
	}
	if (!is_device_launch(cl))
		return;
	for (size_t i = 0; i < cl->nargs; i++) {
		const pto_expr *a = cl->args[i];
		while (a->kind == PTO_E_PAREN)
			a = pto_expr_base(a);
		if (a->kind != PTO_E_NAME)
			continue;
		pto_var *v = pto_lookup(&h->c, a);
		if (!v || v->scalar)
			continue;
		const char *r = root_name(h, a);
		if (!pto_map_has(&h->device, r))
			pto_map_put(&h->device, r, (void *)a);
		const pto_expr *host = pto_map_get(&h->host, r);
		if (host)
			report(h, a, "GB025",
				"function '%s' passes '%s' to a device task launch, but the same tensor (root '%s') is "
				"read or written on the host with pl.tensor.read/write at line %d. A host control "
				"tensor gets a HOST/NONE transfer: host writes never upload to device storage and "
				"device writes never come back, so one side would read stale data. Pass host control "
				"data and device data in separate parameters.", h->f->name, a->name, r,
				pto_expr_line(h->p, h->d, host));
	}
}

static void walk(hc *h, const pto_block *b)
{
	for (size_t i = 0; i < b->n && (h->all || !h->errors); i++) {
		pto_stmt *s = b->stmts[i];
		if (s->kind == PTO_S_FOR)
			track_for(h, s);
		pto_stmt_walk_calls(h->p, s, on_call, h);
		if (s->kind == PTO_S_ASSIGN)
			track_assign(h, s);
		if (pto_stmt_has_body(s->kind))
			walk(h, &s->body);
		if (s->kind == PTO_S_IF)
			walk(h, &s->orelse);
	}
}

int lg_check_host_control(hilo_pto_program *p, pto_func *f, hilo_diags *d, bool all)
{
	if (f->type != PTO_FT_GRAPH && f->type != PTO_FT_ORCHESTRATION)
		return 0;
	hilo_arena *tmp = hilo_arena_create_in(p->arena);
	if (!tmp)
		pto_oom(p->arena);
	hc h;
	memset(&h, 0, sizeof h);
	h.p = p;
	h.f = f;
	h.d = d;
	h.all = all;
	pto_fctx_init(&h.c, p, f);
	h.nroot = pto_vars_count(h.c.vars);
	for (size_t i = 0; i < h.nroot; i++) { /* what an earlier analysis left */
		pto_var *v = pto_vars_at(h.c.vars, i);
		if (v->kind == PTO_V_LOCAL)
			v->scratch = 0;
	}
	pto_map *maps[] = { &h.root_other, &h.alloc, &h.produced, &h.tuples, &h.host, &h.device };
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
		pto_map_init_scratch(maps[i], tmp);
	walk(&h, &f->body);
	hilo_arena_destroy(tmp);
	return h.errors;
}
