/* pto_legalize_check.c - legalize-graph-boundary, Step D: boundary legality.
 *
 * What: the statically decidable host_build_graph constraints on every
 * FunctionType::Graph function (seed 002, "Step D" table): runtime gate
 * (GB001), boundary signature (GB002-GB006), returns (GB007), node count
 * with loops counted per iteration and allocations batched 16 per
 * alloc_tensors node (GB008), allocations and launches under runtime
 * control flow (GB009/GB012), allocation shapes (GB010), tensor.full
 * (GB011), call-varying scalars reaching a task (GB013/GB018), nested
 * graphs (GB014), call sites (GB015-GB017) and launch core_num (GB021).
 *
 * When: part 1 (signature, allocations, launch spec, nesting, returns)
 * runs before any rewrite so diagnostics name what the user wrote; part 2
 * (signature again, scalar arguments, launch spec, node count, call sites)
 * runs on the rewritten program, because Step A adds scalar parameters and
 * Step C removes allocation nodes - what is checked is what codegen sees.
 *
 * Why sound: every check only rejects; none rewrites. A rejected shape is
 * one the runtime would refuse or silently replay wrongly (see the seed).
 */
#include "pto/pto_legalize.h"

#include <string.h>

#define MAX_NODES 1024
#define ALLOC_BATCH 16

static const char *fname(const pto_func *f) { return f->name; }

/* ---- signature -------------------------------------------------------- */

bool lg_check_signature(hilo_pto_program *p, pto_func *f, hilo_diags *d)
{
	size_t tensors = 0, scalars = 0;
	for (size_t i = 0; i < f->nparams; i++) {
		pto_dir dir;
		const pto_expr *t = pto_type_unwrap(f->params[i].ann, &dir);
		int line = f->params[i].line ? f->params[i].line : f->line;
		int col = f->params[i].line ? f->params[i].col : f->col;
		if (pto_type_is_scalar(t)) {
			if (dir != PTO_DIR_IN) {
				pto_error(p, d, line, col, "GB006",
					"Graph function '%s' declares scalar parameter '%s' as %s. A boundary scalar is "
					"passed by value and replayed from the call site, so it can only be an input.",
					fname(f), f->params[i].name, dir == PTO_DIR_OUT ? "Out" : "InOut");
				return false;
			}
			scalars++;
			continue;
		}
		if (!pto_type_is_tensor(t)) {
			pto_error(p, d, line, col, "GB024",
				"Graph function '%s' declares parameter '%s' as neither a tensor nor a scalar. A Graph "
				"boundary carries only tensors (patched by address on replay) and scalars (patched by "
				"value); codegen would bind any other type through the scalar argument slot. Pass a "
				"pl.Tensor, or load the tile inside the region.", fname(f), f->params[i].name);
			return false;
		}
		tensors++;
		if (dir == PTO_DIR_OUT) {
			pto_error(p, d, line, col, "GB005",
				"Graph function '%s' declares tensor parameter '%s' as Out, meaning the runtime "
				"allocates it. A recorded graph's boundary tensors must already exist so replay can "
				"patch their addresses, so allocate it at the call site and pass it in as InOut.",
				fname(f), f->params[i].name);
			return false;
		}
	}
	if (tensors < 1) {
		pto_error(p, d, f->line, f->col, "GB002",
			"Graph function '%s' takes no tensor parameters. A graph with an empty boundary has "
			"nothing to patch on replay and the runtime refuses to cache it.", fname(f));
		return false;
	}
	if (tensors > PTO_GRAPH_MAX_TENSORS) {
		pto_error(p, d, f->line, f->col, "GB003",
			"Graph function '%s' takes %zu tensor parameters, over the runtime's boundary limit of "
			"%d. Pack several of them into one larger tensor and slice it inside the region.",
			fname(f), tensors, PTO_GRAPH_MAX_TENSORS);
		return false;
	}
	if (scalars > PTO_GRAPH_MAX_SCALARS) {
		pto_error(p, d, f->line, f->col, "GB004",
			"Graph function '%s' takes %zu scalar parameters, over the runtime's boundary limit of "
			"%d. Some of these may have been added by hoisting values the body derived; compute them "
			"at the call site and pass fewer, or split the region.", fname(f), scalars, PTO_GRAPH_MAX_SCALARS);
		return false;
	}
	return true;
}

/* ---- region allocations, launch spec, nesting (walks) ---------------- */

typedef struct walk {
	hilo_pto_program *p;
	pto_func *f;
	pto_fctx *c;
	pto_invset *inv;
	hilo_diags *d;
	bool failed;
	const pto_stmt *stmt;  /* statement being walked */
	int mode;
	bool scalar_shapes;    /* W_ALLOC: a shape outside loops is left to Step C */
	int loops;             /* enclosing for/while statements */
} walk;

enum { W_ALLOC, W_LAUNCH_SPEC, W_NESTED, W_SCALARS, W_CALLSITE, W_ARITY };

static bool expr_scalar(pto_fctx *c, const pto_expr *e, bool *task_id)
{
	*task_id = false;
	switch (e->kind) {
	case PTO_E_INT:
	case PTO_E_FLOAT:
	case PTO_E_BIN:
	case PTO_E_UNARY:
		return true;
	case PTO_E_PAREN:
		return expr_scalar(c, pto_expr_base(e), task_id);
	case PTO_E_NAME: {
		pto_var *v = pto_lookup(c, e);
		if (!v)
			return !strcmp(e->name, "True") || !strcmp(e->name, "False");
		*task_id = v->task_id;
		return v->scalar;
	}
	case PTO_E_CALL: {
		if (pto_scalar_intrinsic(e))
			return true; /* pl.min / pl.max / pl.cast / abs: scalar arithmetic */
		pto_call cl;
		pto_call_decode(c->p, (pto_expr *)e, &cl);
		if (pto_call_is_op(&cl, "tensor.dim") || pto_call_is_op(&cl, "tensor.read"))
			return true;
		if (pto_call_is_op(&cl, "array.get_element") && cl.nargs >= 1) {
			pto_var *av = pto_lookup(c, cl.args[0]);
			*task_id = av && av->ann_task_dtype; /* its annotation's dtype */
			return true;
		}
		return false;
	}
	default:
		return false;
	}
}

bool lg_expr_scalar(pto_fctx *c, const pto_expr *e, bool *task_id) { return expr_scalar(c, e, task_id); }

static void on_call(void *ud, pto_call *cl)
{
	walk *w = ud;
	if (w->failed)
		return;
	const pto_expr *at = cl->e; /* where a message points (its line is found only then) */
	switch (w->mode) {
	case W_ALLOC:
		if (pto_call_is_op(cl, "tensor.full")) {
			pto_error_at(w->p, w->d, at, "GB011",
				"Graph function '%s' calls tensor.full inside the region. Orchestration codegen has "
				"no lowering for it and rejects it as a misplaced tensor op, so the Graph would fail "
				"in codegen rather than here. Allocate in the caller and pass the tensor in as a "
				"pl.InOut parameter.", fname(w->f));
			w->failed = true;
		} else if (pto_call_is_op(cl, "tensor.create")) {
			size_t n = 0;
			pto_expr *const *shape = NULL;
			if (w->stmt && w->stmt->kind == PTO_S_ASSIGN && w->stmt->value == cl->e && w->stmt->ann)
				shape = pto_type_shape(w->stmt->ann, &n);
			else if (cl->nargs && cl->args[0]->kind == PTO_E_LIST) {
				shape = cl->args[0]->items;
				n = pto_expr_nitems(cl->args[0]);
			}
			/* HILO_PTO_HOIST_SCALAR_SHAPED_ALLOCATIONS: outside loops Step C
			 * hoists it when the call site can compute the shape, and rejects
			 * it (GB010) otherwise */
			for (size_t i = 0; i < n && !(w->scalar_shapes && !w->loops); i++)
				if (!pto_is_literal(shape[i])) {
					pto_error_at(w->p, w->d, at, "GB010",
						"Graph function '%s' allocates a tensor whose shape is not a compile-time "
						"constant. Recording copies the shape into the node and derives the buffer's "
						"address from it, and replay never re-runs the body - so a later call with a "
						"different extent would reuse the first call's buffer. Allocate it in the "
						"caller and pass it in as a pl.InOut parameter.", fname(w->f));
					w->failed = true;
					return;
				}
		}
		break;
	case W_LAUNCH_SPEC: {
		const pto_expr *cn = pto_call_core_num(cl);
		if (cn && !pto_is_literal(cn)) {
			pto_error_at(w->p, w->d, at, "GB021",
				"Graph function '%s' launches a task whose core_num is not a compile-time constant. "
				"Recording copies the launch spec into the node and replay restores it unchanged - "
				"only boundary tensors and scalars are patched - so the first call's block count "
				"would be replayed for every later call, leaving the rest of the work unexecuted. "
				"Use a constant core_num inside the Graph, or move the launch to the call site.",
				fname(w->f));
			w->failed = true;
		}
		break;
	}
	case W_NESTED:
		if ((cl->kind == PTO_C_FUNC || cl->kind == PTO_C_SUBMIT) && cl->callee &&
		    cl->callee->type == PTO_FT_GRAPH) {
			pto_error_at(w->p, w->d, at, "GB014",
				"Graph function '%s' calls Graph function '%s'. Nested graphs are not supported: "
				"the runtime cannot record a graph from inside one it is already recording, so the "
				"inner call would make the whole region uncacheable. Inline one of them, or call "
				"both from the orchestration entry.", fname(w->f), cl->callee->name);
			w->failed = true;
		}
		break;
	case W_SCALARS:
		/* scalars reaching a task: the arguments of a launch */
		if (cl->kind != PTO_C_FUNC && cl->kind != PTO_C_SUBMIT && !pto_call_is_op(cl, "system.task_dummy"))
			break;
		for (size_t i = 0; i < cl->nargs && !w->failed; i++) {
			const pto_expr *a = cl->args[i];
			bool tid;
			if (!expr_scalar(w->c, a, &tid) || tid)
				continue;
			pto_var *v = pto_lookup(w->c, a);
			if (!v) {
				if (pto_inv_is_invariant(w->inv, a))
					continue;
				pto_error_at(w->p, w->d, a->pos ? a : at, "GB013",
					"Graph function '%s' computes a scalar inline in a task argument. Under "
					"host_build_graph a boundary scalar is tracked by the address of its argument "
					"slot; a value computed inside the region has no slot, so the runtime would "
					"freeze the first call's value into the recorded graph and silently reuse it on "
					"every replay. Bind it to a name first - a named value derived from this "
					"function's scalar parameters and constants is hoisted to the call site "
					"automatically.", fname(w->f));
				w->failed = true;
				break;
			}
			if (v->kind == PTO_V_PARAM || pto_inv_is_invariant(w->inv, a))
				continue;
			pto_error_at(w->p, w->d, a->pos ? a : at, "GB018",
				"Graph function '%s' passes scalar '%s' to a task, but its value can differ between "
				"calls and has nowhere to be patched. Under host_build_graph a boundary scalar is "
				"tracked by the address of its argument slot; a value computed inside the region "
				"has no slot, so the runtime would freeze the first call's value into the recorded "
				"graph and silently reuse it on every replay. Compute '%s' at the call site and pass "
				"it in, or derive it only from this function's scalar parameters, constant-trip loop "
				"variables and constants.", fname(w->f), v->name, v->name);
			w->failed = true;
		}
		break;
	case W_ARITY:
		/* tasks a Graph launches: a call supplies every parameter; a submit
		 * may omit only a runtime-allocated Out tail */
		if ((cl->kind == PTO_C_FUNC || cl->kind == PTO_C_SUBMIT) && cl->callee &&
		    cl->callee->type != PTO_FT_GRAPH) {
			size_t np = cl->callee->nparams;
			if (cl->nargs > np || (cl->kind == PTO_C_FUNC && cl->nargs != np)) {
				pto_error_at(w->p, w->d, at, "GB015",
					"Graph function '%s' launches '%s' with %zu arguments for %zu parameters.",
					fname(w->f), cl->callee->name, cl->nargs, np);
				w->failed = true;
				return;
			}
			for (size_t i = cl->nargs; i < np; i++) {
				pto_dir dir;
				pto_type_unwrap(cl->callee->params[i].ann, &dir);
				if (dir == PTO_DIR_OUT)
					continue;
				pto_error_at(w->p, w->d, at, "GB015",
					"Graph function '%s' launches '%s' without supplying '%s', which is not an Out "
					"parameter. A Submit may omit only a runtime-allocated Out tail.",
					fname(w->f), cl->callee->name, cl->callee->params[i].name);
				w->failed = true;
				return;
			}
		}
		break;
	case W_CALLSITE:
		if ((cl->kind == PTO_C_FUNC || cl->kind == PTO_C_SUBMIT) && cl->callee &&
		    cl->callee->type == PTO_FT_GRAPH) {
			if (w->f->type != PTO_FT_ORCHESTRATION && w->f->type != PTO_FT_OPAQUE) {
				pto_error_at(w->p, w->d, at, "GB014",
					"Graph function '%s' is called from '%s', which is not an orchestration "
					"entry. A graph is a task launch, so only an Orchestration entry may call it.",
					cl->callee->name, fname(w->f));
				w->failed = true;
				return;
			}
			if (cl->nargs != cl->callee->nparams) {
				pto_error_at(w->p, w->d, at, "GB015",
					"Graph function '%s' is called from '%s' with %zu argument(s) but declares %zu "
					"parameter(s). A graph cannot leave outputs for the runtime to allocate, so "
					"every parameter must be passed at the call site.", cl->callee->name,
					fname(w->f), cl->nargs, cl->callee->nparams);
				w->failed = true;
				return;
			}
			if (cl->kind == PTO_C_SUBMIT && cl->deps &&
			    !(cl->deps->kind == PTO_E_LIST && pto_expr_nitems(cl->deps) == 0)) {
				pto_error_at(w->p, w->d, at, "GB016",
					"Graph function '%s' is submitted from '%s' with explicit dependencies. An "
					"explicit dependency edge makes the launch uncacheable, so the region would "
					"silently run as ordinary tasks with no graph replay. Order the graph against "
					"its producers through its boundary tensors instead.", cl->callee->name,
					fname(w->f));
				w->failed = true;
				return;
			}
			if (cl->kind == PTO_C_SUBMIT && cl->predicate &&
			    !(cl->predicate->kind == PTO_E_NAME && !strcmp(cl->predicate->name, "None"))) {
				pto_error_at(w->p, w->d, at, "GB017",
					"Graph function '%s' is submitted from '%s' with a dispatch predicate. A "
					"predicate on a graph launch is neither honoured nor rejected by the runtime - "
					"it is silently zeroed - so the region would run unconditionally.",
					cl->callee->name, fname(w->f));
				w->failed = true;
			}
		}
		break;
	}
}

static void walk_block(walk *w, const pto_block *b)
{
	for (size_t i = 0; i < b->n && !w->failed; i++) {
		pto_stmt *s = b->stmts[i];
		w->stmt = s;
		pto_stmt_walk_calls(w->p, s, on_call, w);
		bool loop = s->kind == PTO_S_FOR || s->kind == PTO_S_WHILE;
		w->loops += loop;
		if (pto_stmt_has_body(s->kind))
			walk_block(w, &s->body);
		w->loops -= loop;
		if (s->kind == PTO_S_IF)
			walk_block(w, &s->orelse);
	}
}

bool lg_walk_check(hilo_pto_program *p, pto_func *f, int mode, hilo_diags *d)
{
	pto_fctx c;
	pto_invset inv;
	walk w = { p, f, NULL, NULL, d, false, NULL, 0, false, 0 };
	if (mode == W_SCALARS) {
		pto_fctx_init(&c, p, f);
		pto_inv_init(&inv, &c);
		w.c = &c;
		w.inv = &inv;
	}
	w.mode = mode;
	walk_block(&w, &f->body);
	return !w.failed;
}

bool lg_check_alloc(hilo_pto_program *p, pto_func *f, unsigned flags, hilo_diags *d)
{
	walk w = { p, f, NULL, NULL, d, false, NULL, W_ALLOC, false, 0 };
	w.scalar_shapes = (flags & HILO_PTO_HOIST_SCALAR_SHAPED_ALLOCATIONS) != 0;
	walk_block(&w, &f->body);
	return !w.failed;
}
bool lg_check_launch_spec(hilo_pto_program *p, pto_func *f, hilo_diags *d) { return lg_walk_check(p, f, W_LAUNCH_SPEC, d); }
bool lg_check_nested(hilo_pto_program *p, pto_func *f, hilo_diags *d) { return lg_walk_check(p, f, W_NESTED, d); }
bool lg_check_scalars(hilo_pto_program *p, pto_func *f, hilo_diags *d) { return lg_walk_check(p, f, W_SCALARS, d); }
bool lg_check_call_sites(hilo_pto_program *p, pto_func *f, hilo_diags *d) { return lg_walk_check(p, f, W_CALLSITE, d); }
bool lg_check_task_arity(hilo_pto_program *p, pto_func *f, hilo_diags *d) { return lg_walk_check(p, f, W_ARITY, d); }

/* ---- returns ---------------------------------------------------------- */

bool lg_check_returns(hilo_pto_program *p, pto_func *f, hilo_diags *d)
{
	pto_stmt *r = pto_first_return(&f->body);
	if (!r || !r->value)
		return true;
	pto_fctx c;
	pto_fctx_init(&c, p, f);
	size_t n = r->value->kind == PTO_E_TUPLE ? pto_expr_nitems(r->value) : 1;
	for (size_t i = 0; i < n; i++) {
		const pto_expr *v = r->value->kind == PTO_E_TUPLE ? r->value->items[i] : r->value;
		if (pto_returned_param(p, &c, v, 0))
			continue;
		pto_error_stmt(p, d, r, "GB007",
			"Graph function '%s' returns a value it computed rather than one of its own parameters. "
			"A graph call is a task launch whose result is a recording handle - valid only once the "
			"graph is already cached - so nothing can depend on it. Write the result into an InOut "
			"parameter and return that parameter instead.", fname(f));
		return false;
	}
	return true;
}

/* ---- node count ------------------------------------------------------- */

typedef struct counter {
	hilo_pto_program *p;
	pto_func *f;
	hilo_diags *d;
	bool failed;
	uint64_t nodes, launches;
} counter;

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	if (!a || !b)
		return 0;
	return a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static void count_call(void *ud, pto_call *cl)
{
	counter *k = ud;
	if (cl->kind == PTO_C_FUNC || cl->kind == PTO_C_SUBMIT || pto_call_is_op(cl, "system.task_dummy")) {
		k->nodes = sat_add(k->nodes, 1);
		k->launches = sat_add(k->launches, 1);
	}
}

bool lg_block_has_gm_pipe(const pto_block *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const pto_stmt *s = b->stmts[i];
		if (s->kind == PTO_S_ASSIGN && s->target->kind == PTO_E_NAME &&
		    !strncmp(s->target->name, "gm_pipe_buffer_", 15))
			return true;
	}
	return false;
}

/* The core_num of the first launch consuming the injected GM pipe buffer
 * created at b->stmts[at]; NULL when there is none. */
const pto_expr *lg_gm_pipe_core_num(hilo_pto_program *p, const pto_block *b, size_t at, const char *var)
{
	for (size_t i = at + 1; i < b->n; i++) {
		const pto_stmt *s = b->stmts[i];
		if (s->kind == PTO_S_ASSIGN && s->target->kind == PTO_E_NAME && s->target->name == var)
			break;
		if (s->kind != PTO_S_ASSIGN && s->kind != PTO_S_EXPR)
			continue;
		pto_call cl;
		if (!pto_call_decode(p, s->value, &cl))
			continue;
		bool uses = false;
		for (size_t k = 0; k < cl.nargs; k++)
			if (cl.args[k]->kind == PTO_E_NAME && cl.args[k]->name == var)
				uses = true;
		if (!uses)
			continue;
		if (cl.kind != PTO_C_FUNC && cl.kind != PTO_C_SUBMIT)
			return NULL;
		return pto_call_core_num(&cl);
	}
	return NULL;
}

static void count_block(counter *k, const pto_block *b);

static void count_sub(counter *k, const pto_block *b, uint64_t *nodes, uint64_t *launches)
{
	uint64_t sn = k->nodes, sl = k->launches;
	k->nodes = k->launches = 0;
	count_block(k, b);
	*nodes = k->nodes;
	*launches = k->launches;
	k->nodes = sn;
	k->launches = sl;
}

static void count_block(counter *k, const pto_block *b)
{
	uint64_t batchable = 0;
	pto_map local; /* names defined so far; only needed for GM pipe buffers */
	pto_map_init(&local, k->p->arena);
	bool gm = lg_block_has_gm_pipe(b);
	for (size_t i = 0; i < b->n && !k->failed; i++) {
		pto_stmt *s = b->stmts[i];
		if (s->kind == PTO_S_ASSIGN && s->target->kind == PTO_E_NAME) {
			pto_call cl;
			if (pto_call_decode(k->p, s->value, &cl) && pto_call_is_op(&cl, "tensor.create")) {
				bool joins = true;
				if (!strncmp(s->target->name, "gm_pipe_buffer_", 15)) {
					const pto_expr *cn = lg_gm_pipe_core_num(k->p, b, i, s->target->name);
					joins = !pto_expr_refs(cn, &local);
				}
				if (joins) {
					batchable++;
				} else {
					k->nodes = sat_add(k->nodes, 1);
					pto_map_put(&local, s->target->name, (void *)1);
				}
			} else if (gm) {
				pto_map_put(&local, s->target->name, (void *)1);
			}
		}
		pto_stmt_walk_calls(k->p, s, count_call, k);
		uint64_t n1 = 0, l1 = 0, n2 = 0, l2 = 0;
		switch (s->kind) {
		case PTO_S_FOR: {
			count_sub(k, &s->body, &n1, &l1);
			if (k->failed || !n1)
				break;
			uint64_t trips;
			if (!pto_trip_count(s, &trips)) {
				if (l1)
					pto_error_stmt(k->p, k->d, s, "GB012",
						"Graph function '%s' launches tasks inside a loop whose trip count is not "
						"a compile-time constant. The recorded graph fixes the task topology on the "
						"first call and replays it unchanged, so a launch count that can differ "
						"between calls would silently replay the first call's topology. Give the "
						"loop constant bounds, or move it outside the Graph function.", k->f->name);
				else
					pto_error_stmt(k->p, k->d, s, "GB009",
						"Graph function '%s' allocates tensors inside a loop whose trip count is not "
						"a compile-time constant. Each allocation records a node, so a node count "
						"that can differ between calls is a topology the first call's recording "
						"would silently replay. Give the loop constant bounds, or allocate in the "
						"caller and pass the tensor in as a pl.InOut parameter.", k->f->name);
				k->failed = true;
				break;
			}
			k->nodes = sat_add(k->nodes, sat_mul(n1, trips));
			k->launches = sat_add(k->launches, sat_mul(l1, trips));
			break;
		}
		case PTO_S_WHILE:
			count_sub(k, &s->body, &n1, &l1);
			if (k->failed || !n1)
				break;
			pto_error_stmt(k->p, k->d, s, l1 ? "GB012" : "GB009",
				"Graph function '%s' %s inside a while loop. Its iteration count is a runtime "
				"value, so the recorded topology would be whatever the first call happened to "
				"produce. Move the loop outside the Graph function.", k->f->name,
				l1 ? "launches tasks" : "allocates tensors");
			k->failed = true;
			break;
		case PTO_S_IF:
			count_sub(k, &s->body, &n1, &l1);
			if (!k->failed)
				count_sub(k, &s->orelse, &n2, &l2);
			if (k->failed || !(n1 || n2))
				break;
			pto_error_stmt(k->p, k->d, s, (l1 || l2) ? "GB012" : "GB009",
				"Graph function '%s' %s inside a conditional. Which branch ran on the first call is "
				"baked into the recording and replayed for every later call, so the condition would "
				"stop having any effect. Hoist the branch to the call site and give each arm its own "
				"Graph function.", k->f->name, (l1 || l2) ? "launches tasks" : "allocates tensors");
			k->failed = true;
			break;
		case PTO_S_WITH:
			count_sub(k, &s->body, &n1, &l1);
			k->nodes = sat_add(k->nodes, n1);
			k->launches = sat_add(k->launches, l1);
			break;
		default:
			break;
		}
	}
	k->nodes = sat_add(k->nodes, (batchable + ALLOC_BATCH - 1) / ALLOC_BATCH);
}

bool lg_check_node_count(hilo_pto_program *p, pto_func *f, hilo_diags *d)
{
	counter k = { p, f, d, false, 0, 0 };
	count_block(&k, &f->body);
	if (k.failed)
		return false;
	if (k.nodes < 1) {
		pto_error(p, d, f->line, f->col, "GB008",
			"Graph function '%s' launches no tasks. The runtime refuses a node count of zero, so the "
			"region would never be cached; call it directly instead of marking it a Graph.", f->name);
		return false;
	}
	if (k.nodes > MAX_NODES) {
		pto_error(p, d, f->line, f->col, "GB008",
			"Graph function '%s' launches %llu tasks, over the runtime's per-graph limit of %d. "
			"Split the region into several graphs.", f->name, (unsigned long long)k.nodes, MAX_NODES);
		return false;
	}
	return true;
}
