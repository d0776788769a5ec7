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
 *   GB026  a host read of a runtime allocation (pl.tensor.create) or of a
 *          tensor a device task produced (a launch result that is none of
 *          the caller's arguments): neither exists on the host while the
 *          graph is built.
 *
 * Interprocedural: the tensor and its uses may sit in different functions.
 * Each Orchestration or Graph function is walked once, callees first (a
 * post-order of the call graph of orchestration-level launches: a Graph
 * or Orchestration callee; device kernels are leaves), and leaves a
 * summary by tensor parameter: its first host use, first host read and
 * first device-kernel use, in the function or, through a call's argument,
 * in a function it calls. A caller's walk treats a launch of a summarised
 * callee as those uses of the argument's root, in statement order, so
 * the per-function rules apply across calls in both directions: a host
 * write in main and a device kernel in the Graph, a host write in the
 * Graph and a device kernel in main, a Graph host-reading main's
 * allocation or device output. Results flow back as in one function: a
 * call's result is the argument its callee explicitly returns (GB007 holds
 * a Graph to that), else a runtime-produced tensor. The error is at the
 * later use in the caller's order (a callee's use counts at its call),
 * which may be inside the callee; notes give the other side's line and the
 * call through which a callee's use is reached. A callee in a call cycle
 * is walked after its caller there and contributes nothing to it (the
 * check only rejects; PyPTO programs have no recursion).
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
 * mix cannot hide behind a rename or a call.
 */
#include "pto/pto_legalize.h"

#include <string.h>

/* One use of a tensor: the expression (a pl.tensor.read/write call or a
 * device launch argument), the function it is in, the name the tensor has
 * there, and - seen from a caller - the call through which it is reached
 * (NULL: in the function being walked). */
typedef struct hc_use {
	const pto_expr *e;
	const pto_func *in;
	const char *name;
	const pto_expr *via;
	bool read;
} hc_use;

/* What a function does with its tensor parameter: its first host use,
 * first host read and first device-kernel use (NULL: none). */
typedef struct hc_param_sum {
	const hc_use *host, *read, *device;
} hc_param_sum;

/* A function of the program in the walk over its call graph. */
typedef struct hc_fn {
	pto_func **callees;    /* orchestration-level callees (Graph, Orchestration) */
	size_t ncallees, next; /* next: the DFS's position in callees */
	hc_param_sum *sum;     /* by parameter, once the function was walked */
	uint8_t state;         /* 0 unseen, 1 on the DFS stack, 2 done */
} hc_fn;

typedef struct hc_prog {
	hilo_pto_program *p;
	hilo_diags *d;
	hilo_arena *a;         /* every table below */
	bool all;              /* report every violation (verifier) */
	int errors;
	pto_map index;         /* pto_func -> 1 + its index in p->funcs */
	hc_fn *fns;
} hc_prog;

typedef struct hc {
	hc_prog *g;
	hilo_pto_program *p;
	pto_func *f;
	hilo_diags *d;
	size_t nroot;          /* the variables whose root is their `scratch` (locals: every alias
	                        * of a 100k-name chain has one, 4 bytes in the variable instead of
	                        * an array by index) */
	hc_param_sum *sum;     /* f's summary, filled as the walk goes */
	pto_map root_other;    /* name -> root name, for an iter arg, a name that is no variable
	                        * (a module-level name; none on SSA input) or a root that is none */
	pto_map alloc;         /* root -> the pl.tensor.create expression */
	pto_map produced;      /* root -> the launch that produced it */
	pto_map tuples;        /* tuple literal / tuple-valued launch result */
	pto_map host;          /* root -> first host use (hc_use) */
	pto_map device;        /* root -> first device-kernel use (hc_use) */
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

/* Functions whose statements run on the host under host_build_graph. */
static bool is_host_level(const pto_func *f)
{
	return f->type == PTO_FT_GRAPH || f->type == PTO_FT_ORCHESTRATION;
}

/* A launch of an orchestration-level function: its summary stands for
 * what it does with the arguments. */
static bool is_host_launch(const pto_call *cl)
{
	return is_launch(cl) && is_host_level(cl->callee);
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
	/* a view, and pl.tensor.write's result: the tensor it wrote in place */
	if ((pto_call_is_op(&cl, "tensor.slice") || pto_call_is_op(&cl, "tensor.view") ||
	     pto_call_is_op(&cl, "tensor.reshape") || pto_call_is_op(&cl, "tensor.write")) && cl.nargs) {
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
	va_list ap;
	va_start(ap, fmt);
	pto_error_atv(h->p, h->d, at, code, fmt, ap);
	va_end(ap);
	h->g->errors++;
}

/* Reporting stops after the first violation unless every one is asked for. */
static bool reporting(const hc *h)
{
	return h->g->all || !h->g->errors;
}

/* ---- the rules at one use ---------------------------------------------
 * A use reached through a call carries that call (`via`); the message
 * says where each side is and the notes point at the other side and at
 * the calls, so a violation across functions reads like one within. */

/* Where use u is, for a message: "at line N" in the function walked, or
 * "in function 'g' at line N, reached through the call at line M". */
static const char *use_place(hc *h, const hc_use *u, char *buf, size_t n)
{
	int line = pto_expr_line(h->p, h->d, u->e);
	if (!u->via)
		snprintf(buf, n, "at line %d", line);
	else
		snprintf(buf, n, "in function '%.200s' at line %d, reached through the call at line %d", u->in->name,
			line, pto_expr_line(h->p, h->d, u->via));
	return buf;
}

static void note_via(hc *h, const hc_use *u)
{
	if (u && u->via)
		pto_note_at(h->p, h->d, u->via, "the tensor reaches '%s' in function '%s' through this call",
			u->name, u->in->name);
}

/* " (passed in by 'main' at line M)" after a use inside a callee: the
 * function walked and its call that reaches the use. */
static const char *via_text(hc *h, const hc_use *u, char *buf, size_t n)
{
	buf[0] = '\0';
	if (u->via)
		snprintf(buf, n, " (passed in by '%.200s' at line %d)", h->f->name,
			pto_expr_line(h->p, h->d, u->via));
	return buf;
}

/* Records use u of root r (a device-kernel use, or a host one) in f's
 * summary when r is one of f's parameters and it is the first of its kind:
 * what f's callers will see of that parameter. */
static void summarise(hc *h, const char *r, const hc_use *u, bool device)
{
	pto_var *v = pto_vars_get(h->c.vars, r);
	if (!v || v->kind != PTO_V_PARAM || v->index >= h->f->nparams)
		return;
	hc_param_sum *ps = &h->sum[v->index];
	if (device) {
		if (!ps->device)
			ps->device = u;
		return;
	}
	if (!ps->host)
		ps->host = u;
	if (u->read && !ps->read)
		ps->read = u;
}

/* GB026 at host read u of root r: a runtime allocation or a device task's
 * output of the function walked. */
static void check_read(hc *h, const char *r, const hc_use *u)
{
	const pto_expr *a = pto_map_get(&h->alloc, r), *pr = pto_map_get(&h->produced, r);
	if (!u->read || (!a && !pr) || !reporting(h))
		return;
	char vb[300], what[300];
	if (u->via)
		snprintf(what, sizeof what, "%s in function '%.200s'",
			a ? "a runtime allocation (pl.tensor.create)" : "produced by a device task", h->f->name);
	else
		snprintf(what, sizeof what, "%s", a ? "a runtime allocation (pl.tensor.create)" :
			"produced by a device task in the same graph");
	report(h, u->e, "GB026",
		"function '%s' reads '%s' on the host with pl.tensor.read%s, but it is %s (line %d). "
		"Under host_build_graph an orchestration-level read runs while the graph is built, on "
		"a host tensor argument; a runtime allocation and a device task's output do not exist "
		"on the host then. Pass the control values in as a separate host tensor parameter.",
		u->in->name, u->name, via_text(h, u, vb, sizeof vb), what, pto_expr_line(h->p, h->d, a ? a : pr));
	note_via(h, u);
	pto_note_at(h->p, h->d, a ? a : pr, "%s in function '%s'", a ? "the runtime allocation" :
		"the device task whose output it is", h->f->name);
}

/* A host use u of root r (a read or write here, or one a callee makes of
 * the argument): GB026, then GB025 against an earlier device use. */
static void host_use(hc *h, const char *r, const hc_use *u)
{
	check_read(h, r, u);
	if (!pto_map_has(&h->host, r))
		pto_map_put(&h->host, r, (void *)u);
	summarise(h, r, u, false);
	const hc_use *dev = pto_map_get(&h->device, r);
	if (!dev || !reporting(h))
		return;
	char vb[300], pb[400];
	report(h, u->e, "GB025",
		"function '%s' %s '%s' on the host%s, but the same tensor (root '%s') is an argument of "
		"a device task launch %s. A host control tensor gets a HOST/NONE transfer: host "
		"writes never upload to device storage and device writes never come back, so one side "
		"would read stale data. Pass host control data and device data in separate parameters.",
		u->in->name, u->read ? "reads" : "writes", u->name, via_text(h, u, vb, sizeof vb), r,
		use_place(h, dev, pb, sizeof pb));
	note_via(h, u);
	pto_note_at(h->p, h->d, dev->e, "the device task launch argument '%s' in function '%s'", dev->name, dev->in->name);
	note_via(h, dev);
}

/* A device-kernel use u of root r: GB025 against an earlier host use. */
static void device_use(hc *h, const char *r, const hc_use *u)
{
	if (!pto_map_has(&h->device, r))
		pto_map_put(&h->device, r, (void *)u);
	summarise(h, r, u, true);
	const hc_use *host = pto_map_get(&h->host, r);
	if (!host || !reporting(h))
		return;
	char vb[300], pb[400];
	report(h, u->e, "GB025",
		"function '%s' passes '%s' to a device task launch%s, but the same tensor (root '%s') is "
		"read or written on the host with pl.tensor.read/write %s. A host control "
		"tensor gets a HOST/NONE transfer: host writes never upload to device storage and "
		"device writes never come back, so one side would read stale data. Pass host control "
		"data and device data in separate parameters.", u->in->name, u->name, via_text(h, u, vb, sizeof vb),
		r, use_place(h, host, pb, sizeof pb));
	note_via(h, u);
	pto_note_at(h->p, h->d, host->e, "the host %s of '%s' in function '%s'", host->read ? "read" : "write",
		host->name, host->in->name);
	note_via(h, host);
}

static hc_use *new_use(hc *h, const pto_expr *e, const pto_func *in, const char *name, const pto_expr *via, bool read)
{
	hc_use *u = hilo_arena_alloc(h->g->a, sizeof *u);
	if (!u)
		pto_oom(h->g->a);
	*u = (hc_use){ e, in, name, via, read };
	return u;
}

/* A tensor argument of a launch: its name, or NULL for a scalar or an
 * expression that names no variable of the function. */
static const pto_expr *tensor_arg(hc *h, const pto_expr *a)
{
	while (a->kind == PTO_E_PAREN)
		a = pto_expr_base(a);
	if (a->kind != PTO_E_NAME)
		return NULL;
	pto_var *v = pto_lookup(&h->c, a);
	return v && !v->scalar ? a : NULL;
}

/* A launch of a walked orchestration-level callee: what its summary says
 * it does with each parameter, done to the argument's root here. */
static void lift_callee(hc *h, pto_call *cl)
{
	const hc_fn *cf = &h->g->fns[(uintptr_t)pto_map_get(&h->g->index, cl->callee) - 1];
	if (cf->state != 2 || !cf->sum)
		return;
	for (size_t i = 0; i < cl->nargs && i < cl->callee->nparams && reporting(h); i++) {
		const pto_expr *a = tensor_arg(h, cl->args[i]);
		const hc_param_sum *ps = &cf->sum[i];
		if (!a || (!ps->host && !ps->read && !ps->device))
			continue;
		const char *r = root_name(h, a);
		/* the callee reported a mix within one parameter itself: this
		 * argument's own sides are not checked against each other */
		const hc_use *earlier_host = pto_map_get(&h->host, r);
		if (ps->host)
			host_use(h, r, new_use(h, ps->host->e, ps->host->in, ps->host->name, cl->e, ps->host->read));
		if (ps->read && ps->read != ps->host) {
			const hc_use *u = new_use(h, ps->read->e, ps->read->in, ps->read->name, cl->e, true);
			check_read(h, r, u);
			summarise(h, r, u, false);
		}
		if (!ps->device)
			continue;
		const hc_use *dev = new_use(h, ps->device->e, ps->device->in, ps->device->name, cl->e, false);
		if (ps->host && !earlier_host) { /* the only host use is this argument's own */
			if (!pto_map_has(&h->device, r))
				pto_map_put(&h->device, r, (void *)dev);
			summarise(h, r, dev, true);
		} else {
			device_use(h, r, dev);
		}
	}
}

static void on_call(void *ud, pto_call *cl)
{
	hc *h = ud;
	if ((pto_call_is_op(cl, "tensor.read") || pto_call_is_op(cl, "tensor.write")) && cl->nargs) {
		const char *r = root_name(h, cl->args[0]);
		if (!r)
			return;
		const pto_expr *a0 = cl->args[0];
		host_use(h, r, new_use(h, cl->e, h->f, a0->kind == PTO_E_NAME ? a0->name : r, NULL,
			pto_call_is_op(cl, "tensor.read")));
		return;
	}
	if (is_host_launch(cl)) {
		lift_callee(h, cl);
		return;
	}
	if (!is_device_launch(cl))
		return;
	for (size_t i = 0; i < cl->nargs && reporting(h); i++) {
		const pto_expr *a = tensor_arg(h, cl->args[i]);
		if (a)
			device_use(h, root_name(h, a), new_use(h, a, h->f, a->name, NULL, false));
	}
}

static void walk(hc *h, const pto_block *b)
{
	for (size_t i = 0; i < b->n && reporting(h); i++) {
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

/* Walks one orchestration-level function, its callees' summaries at hand,
 * and leaves its own summary in fn. */
static void check_function(hc_prog *g, pto_func *f, hc_fn *fn)
{
	hilo_arena *tmp = hilo_arena_create_in(g->a);
	if (!tmp)
		pto_oom(g->a);
	hc h;
	memset(&h, 0, sizeof h);
	h.g = g;
	h.p = g->p;
	h.f = f;
	h.d = g->d;
	h.sum = hilo_arena_alloc(g->a, (f->nparams + 1) * sizeof *h.sum);
	if (!h.sum)
		pto_oom(g->a);
	pto_fctx_init(&h.c, g->p, f);
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
	fn->sum = h.sum;
}

/* ---- the call graph -----------------------------------------------------
 * Callees are walked before their callers, so a caller meets finished
 * summaries: an iterative post-order DFS (a call chain as long as the
 * program cannot exhaust the stack). */

typedef struct hc_collect {
	hc_prog *g;
	hc_fn *fn;
	size_t cap;
} hc_collect;

static void collect_callee(void *ud, pto_call *cl)
{
	hc_collect *k = ud;
	if (!is_host_launch(cl))
		return;
	hc_fn *fn = k->fn;
	if (fn->ncallees == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 4;
		fn->callees = hilo_arena_grow(k->g->a, fn->callees, fn->ncallees, k->cap, sizeof *fn->callees);
		if (!fn->callees)
			pto_oom(k->g->a);
	}
	fn->callees[fn->ncallees++] = cl->callee;
}

static void collect_block(hc_collect *k, const pto_block *b)
{
	for (size_t i = 0; i < b->n; i++) {
		pto_stmt *s = b->stmts[i];
		pto_stmt_walk_calls(k->g->p, s, collect_callee, k);
		if (pto_stmt_has_body(s->kind))
			collect_block(k, &s->body);
		if (s->kind == PTO_S_IF)
			collect_block(k, &s->orelse);
	}
}

int lg_check_host_control(hilo_pto_program *p, hilo_diags *d, bool all)
{
	hc_prog g;
	memset(&g, 0, sizeof g);
	g.p = p;
	g.d = d;
	g.all = all;
	g.a = hilo_arena_create_in(p->arena);
	if (!g.a)
		pto_oom(p->arena);
	size_t n = p->nfuncs;
	g.fns = hilo_arena_alloc(g.a, (n + 1) * sizeof *g.fns);
	size_t *stack = hilo_arena_alloc(g.a, (n + 1) * sizeof *stack);
	if (!g.fns || !stack)
		pto_oom(g.a);
	pto_map_init_scratch(&g.index, g.a);
	for (size_t i = 0; i < n; i++) {
		pto_map_put(&g.index, p->funcs[i], (void *)(uintptr_t)(i + 1));
	}
	for (size_t i = 0; i < n; i++) {
		if (!is_host_level(p->funcs[i]))
			continue;
		hc_collect k = { &g, &g.fns[i], 0 };
		collect_block(&k, &p->funcs[i]->body);
	}
	for (size_t i = 0; i < n && (all || !g.errors); i++) {
		if (!is_host_level(p->funcs[i]) || g.fns[i].state)
			continue;
		size_t sp = 0;
		stack[sp++] = i;
		g.fns[i].state = 1;
		while (sp && (all || !g.errors)) {
			hc_fn *top = &g.fns[stack[sp - 1]];
			if (top->next < top->ncallees) {
				size_t c = (uintptr_t)pto_map_get(&g.index, top->callees[top->next++]) - 1;
				if (!g.fns[c].state) {
					g.fns[c].state = 1;
					stack[sp++] = c;
				}
				continue;
			}
			check_function(&g, p->funcs[stack[sp - 1]], top);
			top->state = 2;
			sp--;
		}
	}
	int errors = g.errors;
	hilo_arena_destroy(g.a);
	return errors;
}
