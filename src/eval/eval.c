/* eval.c - the evaluator's driver: literals, budget, computation walks,
 * dispatch, and the structural / control-flow ops (parameter, constant,
 * tuple, get-tuple-element, call, fusion, while, conditional, async
 * wrappers, opt-barrier, copy, identity-like ops).
 *
 * A computation is evaluated from its root only (dead instructions are not
 * run: they cannot affect the result). The walk is an explicit-stack DFS,
 * so deep graphs cannot overflow the C stack. Operand literals are never
 * mutated: constants are returned by pointer and shared.
 *
 * Memory: a while loop evaluates each iteration in a fresh arena and copies
 * only the loop state out, so long loops run in bounded memory.
 */
#include "eval_internal.h"

#include <stdlib.h>

/* ---- diagnostics and budget ------------------------------------------ */

void *ev_err(ev *e, const hilo_instr *i, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	e->failed = true;
	if (i)
		hilo_diag_add(e->d, HILO_SEV_ERROR, NULL, i->line, i->col, NULL, 0,
			"evaluating %s (%s): %s", i->name ? i->name : "?",
			hilo_opcode_name(i->op), msg);
	else
		hilo_diag_add(e->d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0, "evaluator: %s", msg);
	return NULL;
}

bool ev_charge(ev *e, const hilo_instr *i, uint64_t n)
{
	if (n == 0)
		n = 1;
	if (n > e->budget || e->used > e->budget - n) {
		ev_err(e, i, "over the evaluation budget of %llu element-ops",
			(unsigned long long)e->budget);
		return false;
	}
	e->used += n;
	return true;
}

/* ---- literals ---------------------------------------------------------- */

hilo_literal *ev_lit_new(ev *e, const hilo_instr *i, const hilo_shape *s)
{
	size_t cap = EV_MAX_BYTES;
	hilo_literal *l = hilo_literal_alloc(e->a, s, &cap);
	if (!l)
		return ev_err(e, i, "result %s is too large to evaluate",
			hilo_shape_str(e->m->arena, s));
	return l;
}

/* ---- splats ------------------------------------------------------------ */

hilo_literal *ev_splat_new(ev *e, const hilo_instr *i, const hilo_shape *s, const void *elem)
{
	size_t eb = (size_t)hilo_ptype_bytes(s->type);
	if (!ev_charge(e, i, 1))
		return NULL;
	hilo_literal *r = hilo_arena_alloc(e->a, sizeof *r);
	if (!r || !(r->data = hilo_arena_alloc(e->a, eb ? eb : 1)))
		return ev_err(e, i, "out of memory");
	r->shape = (hilo_shape *)s;
	r->splat = true;
	r->nbytes = eb;
	memcpy(r->data, elem, eb);
	return r;
}

/* Elements the splats of l stand for. */
static uint64_t splat_elements(const hilo_literal *l)
{
	uint64_t n = 0;
	for (int k = 0; k < l->ntuple; k++)
		n += splat_elements(l->elems[k]);
	return n + (l->splat && !l->elided ? hilo_literal_count(l) : 0);
}

hilo_literal *ev_dense(ev *e, const hilo_instr *i, const hilo_literal *l)
{
	if (!hilo_literal_has_splat(l))
		return (hilo_literal *)l;
	if (!ev_charge(e, i, splat_elements(l)))
		return NULL;
	size_t cap = EV_MAX_BYTES;
	hilo_literal *r = hilo_literal_dense_in(e->a, l, &cap);
	if (!r)
		return ev_err(e, i, "a splat of %s is too large to expand",
			hilo_shape_str(e->m->arena, l->shape));
	return r;
}

/* Ops that take a splat operand as it is: they only pass literals on
 * (tuples, calls) or are splat-aware (broadcast, reshape). Every other op
 * gets its splat operands expanded, under the budget. */
static bool takes_splats(hilo_opcode op)
{
	switch (op) {
	case HILO_OP_TUPLE: case HILO_OP_GET_TUPLE_ELEMENT: case HILO_OP_CALL:
	case HILO_OP_FUSION: case HILO_OP_OPT_BARRIER: case HILO_OP_DOMAIN:
	case HILO_OP_ADD_DEPENDENCY: case HILO_OP_ASYNC_UPDATE: case HILO_OP_COPY_START:
	case HILO_OP_COPY_DONE: case HILO_OP_BROADCAST: case HILO_OP_RESHAPE:
		return true;
	default:
		return false;
	}
}

/* Does literal l have the structure of shape s (types, dims, sizes)? */
static bool lit_fits(const hilo_literal *l, const hilo_shape *s)
{
	if (!l || !l->shape)
		return false;
	if (s->type == HILO_T_TUPLE) {
		if (l->ntuple != s->ntuple || !l->elems)
			return false;
		for (int k = 0; k < s->ntuple; k++)
			if (!lit_fits(l->elems[k], s->elems[k]))
				return false;
		return true;
	}
	if (l->shape->type == HILO_T_TUPLE || l->elided)
		return false;
	if (!hilo_shape_compatible(l->shape, s))
		return false;
	int64_t n = hilo_shape_elements(s);
	size_t eb = (size_t)hilo_ptype_bytes(s->type);
	if (l->splat)
		return n > 0 && l->nbytes == eb && l->data;
	return n >= 0 && l->nbytes == (size_t)n * eb;
}

double ev_get_f(const hilo_literal *l, size_t k)
{
	return hilo_elem_get_f64(l->shape->type, l->data, k);
}

int64_t ev_get_i(const hilo_literal *l, size_t k)
{
	return hilo_elem_get_i64(l->shape->type, l->data, k);
}

int64_t ev_get_index(const hilo_literal *l, size_t k)
{
	hilo_ptype t = l->shape->type;
	int64_t v = hilo_elem_get_i64(t, l->data, k);
	if (t == HILO_T_U64 && v < 0)
		return INT64_MAX; /* huge unsigned: clamps like any large start */
	return v;
}

/* ---- computation walk -------------------------------------------------- */

/* Instructions reachable from the root, operands first. */
typedef struct order {
	uint32_t n;
	uint64_t cost;    /* result elements of all instructions (a lower bound) */
	const hilo_instr **v;
	hilo_ptrmap pos; /* instr -> position + 1 */
} order;

static order *order_build(ev *e, const hilo_comp *c)
{
	order *o = hilo_heap_alloc(e->m->arena, (1) * sizeof *o);
	if (!o)
		return NULL;
	hilo_ptrmap_init_in(&o->pos, e->m->arena);
	size_t cap = (size_t)c->ninstrs + 1;
	o->v = hilo_heap_alloc(e->m->arena, cap * sizeof *o->v);
	typedef struct { const hilo_instr *i; uint32_t k; } frame;
	frame *st = hilo_heap_alloc(e->m->arena, cap * sizeof *st);
	hilo_ptrmap seen; /* 1 = on stack, 2 = done, 3 = done and may be a splat */
	hilo_ptrmap_init_in(&seen, e->m->arena);
	bool ok = o->v && st && c->root;
	uint32_t sp = 0;
	if (ok) {
		st[sp++] = (frame){c->root, 0};
		ok = hilo_ptrmap_put(&seen, c->root, (void *)1);
	}
	while (ok && sp) {
		frame *f = &st[sp - 1];
		if (f->k < f->i->noperands) {
			const hilo_instr *x = f->i->operands[f->k++];
			void *s = hilo_ptrmap_get(&seen, x);
			if (s == (void *)1) {
				ev_err(e, f->i, "operand cycle through %s", x->name);
				ok = false;
			} else if (!s) {
				if (sp >= cap || o->n >= cap) {
					ev_err(e, f->i, "operand outside its computation");
					ok = false;
				} else {
					st[sp++] = (frame){x, 0};
					ok = hilo_ptrmap_put(&seen, x, (void *)1);
				}
			}
			continue;
		}
		/* a value that may be a splat (a splat constant, a parameter, an
		 * op computed on splats) costs one element-op, not its size */
		const hilo_instr *x = f->i;
		bool splat = x->op == HILO_OP_PARAMETER ||
		             (x->op == HILO_OP_CONSTANT && hilo_literal_has_splat(hilo_instr_literal(x)));
		for (uint32_t q = 0; !splat && ev_splat_capable(x->op) && q < x->noperands; q++)
			splat = hilo_ptrmap_get(&seen, x->operands[q]) == (void *)3;
		if (x->shape->type != HILO_T_TUPLE) {
			int64_t ne = splat ? 1 : hilo_shape_elements(x->shape);
			o->cost += ne < 0 ? UINT64_MAX / 4 : (uint64_t)ne;
			if (o->cost > UINT64_MAX / 4)
				o->cost = UINT64_MAX / 4;
		}
		ok = hilo_ptrmap_put(&seen, f->i, (void *)(uintptr_t)(splat ? 3 : 2)) &&
		     hilo_ptrmap_put(&o->pos, f->i, (void *)(uintptr_t)(o->n + 1));
		o->v[o->n++] = f->i;
		sp--;
	}
	hilo_heap_free(e->m->arena, st);
	hilo_ptrmap_free(&seen);
	if (!ok) {
		if (!e->failed)
			ev_err(e, NULL, "out of memory ordering computation %s", c->name);
		hilo_ptrmap_free(&o->pos);
		hilo_heap_free(e->m->arena, o->v);
		hilo_heap_free(e->m->arena, o);
		return NULL;
	}
	return o;
}

/* Orders are cached per computation for the whole evaluation. */
typedef struct ev_top {
	ev e;
	hilo_ptrmap orders;
} ev_top;

static order *order_get(ev *e, const hilo_comp *c)
{
	ev_top *t = (ev_top *)e;
	order *o = hilo_ptrmap_get(&t->orders, c);
	if (o)
		return o;
	o = order_build(e, c);
	if (o && !hilo_ptrmap_put(&t->orders, c, o)) {
		hilo_ptrmap_free(&o->pos);
		hilo_heap_free(e->m->arena, o->v);
		hilo_heap_free(e->m->arena, o);
		return ev_err(e, NULL, "out of memory");
	}
	return o;
}

static void top_init(ev_top *t, hilo_module *m, hilo_arena *a, hilo_diags *d, uint64_t budget)
{
	memset(t, 0, sizeof *t);
	t->e.m = m;
	t->e.a = a;
	t->e.d = d;
	t->e.budget = budget ? budget : HILO_EVAL_DEFAULT_BUDGET;
	t->e.allow_opaque = true;
	hilo_ptrmap_init_in(&t->orders, m->arena);
}

static void top_fini(ev_top *t)
{
	for (size_t k = 0; k < t->orders.cap; k++) {
		if (!t->orders.keys[k])
			continue;
		order *o = t->orders.vals[k];
		hilo_ptrmap_free(&o->pos);
		hilo_heap_free(t->e.m->arena, o->v);
		hilo_heap_free(t->e.m->arena, o);
	}
	hilo_ptrmap_free(&t->orders);
}

hilo_literal *ev_comp(ev *e, const hilo_comp *c, hilo_literal *const *args)
{
	if (!c)
		return ev_err(e, NULL, "missing called computation");
	if (e->depth >= EV_MAX_DEPTH)
		return ev_err(e, c->root, "computations nested deeper than %d", EV_MAX_DEPTH);
	order *o = order_get(e, c);
	if (!o)
		return NULL;
	/* fail fast when one run of this computation cannot fit the budget */
	if (o->cost > e->budget - e->used)
		return ev_err(e, c->root, "over the evaluation budget of %llu element-ops "
			"(computation %s needs at least %llu)", (unsigned long long)e->budget,
			c->name, (unsigned long long)o->cost);
	hilo_literal **val = hilo_heap_alloc(e->m->arena, ((size_t)o->n + 1) * sizeof *val);
	hilo_literal **ops = NULL;
	uint32_t opcap = 0;
	if (!val)
		return ev_err(e, NULL, "out of memory");
	e->depth++;
	hilo_literal *res = NULL;
	for (uint32_t k = 0; k < o->n; k++) {
		const hilo_instr *i = o->v[k];
		hilo_literal *r;
		if (i->op == HILO_OP_PARAMETER) {
			if (hilo_instr_param_no(i) < 0 || (uint64_t)hilo_instr_param_no(i) >= c->nparams || !args ||
			    !args[hilo_instr_param_no(i)]) {
				ev_err(e, i, "no argument for parameter %lld", (long long)hilo_instr_param_no(i));
				goto out;
			}
			r = args[hilo_instr_param_no(i)];
			if (!lit_fits(r, i->shape)) {
				ev_err(e, i, "argument does not have the parameter's shape %s",
					hilo_shape_str(e->m->arena, i->shape));
				goto out;
			}
		} else {
			if (i->noperands > opcap) {
				hilo_heap_free(e->m->arena, ops);
				opcap = i->noperands * 2;
				if (!(ops = hilo_heap_alloc(e->m->arena, opcap * sizeof *ops))) {
					ev_err(e, i, "out of memory");
					goto out;
				}
			}
			for (uint32_t q = 0; q < i->noperands; q++) {
				uintptr_t p = (uintptr_t)hilo_ptrmap_get(&o->pos, i->operands[q]);
				ops[q] = p ? val[p - 1] : NULL;
				if (!ops[q]) {
					ev_err(e, i, "operand %u has no value", q);
					goto out;
				}
			}
			r = ev_instr(e, i, ops);
			if (!r)
				goto out;
		}
		val[k] = r;
	}
	res = o->n ? val[o->n - 1] : NULL;
	if (!res)
		ev_err(e, NULL, "computation %s has no root", c->name);
out:
	e->depth--;
	hilo_heap_free(e->m->arena, ops);
	hilo_heap_free(e->m->arena, val);
	return res;
}

/* ---- structural and control-flow ops ----------------------------------- */

static bool is_pred_scalar(const hilo_literal *l)
{
	return l && l->shape && l->shape->type == HILO_T_PRED && l->nbytes == 1;
}

static hilo_literal *eval_while(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	hilo_comp *cond = hilo_instr_get_comp(i, HILO_A_CONDITION);
	hilo_comp *body = hilo_instr_get_comp(i, HILO_A_BODY);
	if (!cond || !body || i->noperands != 1)
		return ev_err(e, i, "while needs one operand, condition and body");
	hilo_arena *outer = e->a, *state_arena = NULL;
	hilo_literal *state = ops[0], *res = NULL;
	for (;;) {
		/* an iteration's bookkeeping (two arenas, two walks) costs about as
		 * much as a few dozen element-ops: charge it, so the budget also
		 * bounds the time spent in long loops of tiny bodies */
		if (!ev_charge(e, i, 32))
			break;
		hilo_arena *it = hilo_arena_create_in(e->m->arena);
		if (!it) {
			ev_err(e, i, "out of memory");
			break;
		}
		e->a = it;
		hilo_literal *p = ev_comp(e, cond, &state);
		if (p && !is_pred_scalar(p))
			p = ev_err(e, i, "condition did not return pred[]");
		if (!p) {
			hilo_arena_destroy(it);
			break;
		}
		if (!*(unsigned char *)p->data) {
			res = hilo_literal_copy_in(outer, state);
			if (!res)
				ev_err(e, i, "out of memory");
			hilo_arena_destroy(it);
			break;
		}
		hilo_literal *ns = ev_comp(e, body, &state);
		hilo_arena *na = ns ? hilo_arena_create_in(e->m->arena) : NULL;
		hilo_literal *copy = na ? hilo_literal_copy_in(na, ns) : NULL;
		hilo_arena_destroy(it);
		if (!copy) {
			if (ns)
				ev_err(e, i, "out of memory");
			if (na)
				hilo_arena_destroy(na);
			break;
		}
		if (state_arena)
			hilo_arena_destroy(state_arena);
		state_arena = na;
		state = copy;
	}
	e->a = outer;
	if (state_arena)
		hilo_arena_destroy(state_arena);
	return res;
}

static hilo_literal *eval_conditional(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	hilo_attr *bc = hilo_instr_attr(i, HILO_A_BRANCH_COMPUTATIONS);
	hilo_comp *tc = hilo_instr_get_comp(i, HILO_A_TRUE_COMPUTATION);
	hilo_comp *fc = hilo_instr_get_comp(i, HILO_A_FALSE_COMPUTATION);
	int64_t nb;
	const hilo_comp *br = NULL;
	if (i->noperands < 1)
		return ev_err(e, i, "conditional without a selector");
	const hilo_literal *sel = ops[0];
	if (sel->shape->type == HILO_T_TUPLE || sel->nbytes == 0 ||
	    hilo_shape_elements(sel->shape) != 1)
		return ev_err(e, i, "selector must be a scalar");
	int64_t v = ev_get_i(sel, 0);
	if (bc && bc->kind == HILO_ATTR_COMPS) {
		nb = bc->n;
		if (nb <= 0 || bc->v.i < 0 || bc->v.i + nb > (int64_t)hilo_instr_ncalled(i))
			return ev_err(e, i, "bad branch_computations");
		if (sel->shape->type == HILO_T_PRED)
			v = v ? 0 : 1;
		if (v < 0 || v >= nb)
			v = nb - 1; /* out of range: the last branch, as XLA does */
		br = hilo_instr_called(i)[bc->v.i + v];
	} else if (tc && fc) {
		nb = 2;
		v = v ? 0 : 1;
		br = v == 0 ? tc : fc;
	} else {
		return ev_err(e, i, "conditional without branch computations");
	}
	if ((int64_t)i->noperands != nb + 1)
		return ev_err(e, i, "conditional needs one operand per branch");
	return ev_comp(e, br, &ops[1 + v]);
}

/* async-start's value: ((operands...), result, context...). */
static hilo_literal *eval_async_start(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	const hilo_shape *s = i->shape;
	if (s->type != HILO_T_TUPLE || s->ntuple < 2 || hilo_instr_ncalled(i) < 1)
		return NULL; /* not the structured form: caller hashes it */
	hilo_literal *r = ev_comp(e, hilo_instr_called(i)[0], ops);
	if (!r)
		return NULL;
	hilo_literal *out = ev_lit_new(e, i, s);
	if (!out)
		return NULL;
	const hilo_shape *s0 = s->elems[0];
	if (s0->type == HILO_T_TUPLE && s0->ntuple == (int)i->noperands) {
		for (uint32_t k = 0; k < i->noperands; k++)
			out->elems[0]->elems[k] = ops[k];
	} else if (i->noperands == 1) {
		out->elems[0] = ops[0];
	}
	out->elems[1] = r;
	return out;
}

static hilo_literal *tuple_elem(ev *e, const hilo_instr *i, hilo_literal *t, int64_t k)
{
	if (!t->shape || t->shape->type != HILO_T_TUPLE || k < 0 || k >= t->ntuple)
		return ev_err(e, i, "tuple index %lld out of range", (long long)k);
	return t->elems[k];
}

hilo_literal *ev_instr(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	hilo_literal *r;
	bool handled = true;
	if (!hilo_opcode_operands_ok(i->op, i->noperands))
		return ev_err(e, i, "expected %d operands, got %u", hilo_opcode_arity(i->op), i->noperands);
	bool splats = false;
	for (uint32_t q = 0; q < i->noperands && !splats; q++)
		splats = hilo_literal_has_splat(ops[q]);
	if (splats && !takes_splats(i->op)) {
		/* computed once on the one elements, or expanded for the op */
		bool h = true;
		r = ev_elementwise_splat(e, i, ops, &h);
		if (h)
			return r || e->failed ? r : ev_err(e, i, "evaluation failed");
		hilo_literal **dense = hilo_arena_alloc(e->a, (size_t)i->noperands * sizeof *dense);
		if (!dense)
			return ev_err(e, i, "out of memory");
		for (uint32_t q = 0; q < i->noperands; q++)
			if (!(dense[q] = ev_dense(e, i, ops[q])))
				return NULL;
		ops = dense;
	}
	switch (i->op) {
	case HILO_OP_CONSTANT:
		if (!hilo_instr_literal(i))
			return ev_err(e, i, "constant without a value");
		if (hilo_instr_literal(i)->elided && e->elided_random && i->line > 0) {
			/* unknown values, the same for every copy of the source
			 * constant (clones keep its position) */
			int64_t n = hilo_shape_elements(i->shape);
			if (n < 0 || !ev_charge(e, i, (uint64_t)n) || !(r = ev_lit_new(e, i, i->shape)))
				return NULL;
			hilo_literal_fill_random(r, e->elided_seed, 0x4000000000000000ull |
				((uint64_t)(uint32_t)i->line << 24) | ((uint32_t)i->col & 0xffffffu));
			return r;
		}
		if (hilo_instr_literal(i)->elided)
			return ev_err(e, i, "constant values are elided ({...}); cannot evaluate");
		if (!lit_fits(hilo_instr_literal(i), i->shape))
			return ev_err(e, i, "constant literal does not match its shape");
		return hilo_instr_literal(i);
	case HILO_OP_PARAMETER:
		return ev_err(e, i, "parameters have no value outside a computation");
	case HILO_OP_TUPLE: {
		if (!ev_charge(e, i, i->noperands))
			return NULL;
		r = hilo_arena_alloc(e->a, sizeof *r);
		if (!r || !(r->elems = hilo_arena_alloc(e->a, ((size_t)i->noperands + 1) * sizeof *r->elems)))
			return ev_err(e, i, "out of memory");
		r->shape = i->shape;
		r->ntuple = (int)i->noperands;
		for (uint32_t k = 0; k < i->noperands; k++)
			r->elems[k] = ops[k];
		break;
	}
	case HILO_OP_GET_TUPLE_ELEMENT: {
		int64_t k = 0;
		if (!hilo_instr_get_int(i, HILO_A_INDEX, &k))
			return ev_err(e, i, "get-tuple-element without index");
		r = tuple_elem(e, i, ops[0], k);
		break;
	}
	case HILO_OP_CALL:
	case HILO_OP_FUSION:
		if (hilo_instr_ncalled(i) < 1)
			return ev_err(e, i, "no called computation");
		if (hilo_instr_called(i)[0]->nparams != i->noperands)
			return ev_err(e, i, "operand count differs from the callee's parameters");
		r = ev_comp(e, hilo_instr_called(i)[0], ops);
		break;
	case HILO_OP_WHILE:
		r = eval_while(e, i, ops);
		break;
	case HILO_OP_CONDITIONAL:
		r = eval_conditional(e, i, ops);
		break;
	case HILO_OP_ASYNC_START:
		if (i->async_op == HILO_OP_COUNT && hilo_instr_ncalled(i) >= 1) {
			r = eval_async_start(e, i, ops);
			if (!r && e->failed)
				return NULL;
			if (r)
				break;
		}
		r = ev_opaque(e, i, ops, &handled);
		break;
	case HILO_OP_ASYNC_UPDATE:
		if (i->noperands != 1)
			return ev_err(e, i, "async-update needs one operand");
		r = ops[0];
		break;
	case HILO_OP_ASYNC_DONE:
		if (i->noperands == 1 && ops[0]->shape->type == HILO_T_TUPLE &&
		    ops[0]->ntuple >= 2 && lit_fits(ops[0]->elems[1], i->shape) &&
		    i->operands[0]->op != HILO_OP_ASYNC_START) {
			r = ops[0]->elems[1];
			break;
		}
		if (i->noperands == 1 && i->operands[0]->op == HILO_OP_ASYNC_START &&
		    i->operands[0]->async_op == HILO_OP_COUNT && ops[0]->ntuple >= 2) {
			r = ops[0]->elems[1];
			break;
		}
		r = ev_opaque(e, i, ops, &handled);
		break;
	case HILO_OP_COPY_START: {
		if (i->shape->type != HILO_T_TUPLE || i->shape->ntuple < 2)
			return ev_err(e, i, "copy-start must produce a tuple");
		r = ev_lit_new(e, i, i->shape);
		if (!r)
			return NULL;
		r->elems[0] = ops[0];
		r->elems[1] = ops[0];
		break;
	}
	case HILO_OP_COPY_DONE:
		r = tuple_elem(e, i, ops[0], 0);
		break;
	case HILO_OP_OPT_BARRIER:
	case HILO_OP_DOMAIN:
	case HILO_OP_ADD_DEPENDENCY:
	case HILO_OP_SET_DIMENSION_SIZE:
		if (i->noperands < 1)
			return ev_err(e, i, "missing operand");
		r = ops[0];
		break;
	case HILO_OP_AFTER_ALL:
		r = ev_lit_new(e, i, i->shape);
		break;
	case HILO_OP_PARTITION_ID:
	case HILO_OP_REPLICA_ID:
		/* a single-device program: ids are 0 */
		r = ev_lit_new(e, i, i->shape);
		break;
	case HILO_OP_GET_DIMENSION_SIZE: {
		int64_t d = -1;
		const int64_t *dv;
		int nd = 0;
		if ((dv = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &nd)) && nd == 1)
			d = dv[0];
		if (d < 0 || d >= ops[0]->shape->rank)
			return ev_err(e, i, "bad dimension");
		r = ev_lit_new(e, i, i->shape);
		if (!r)
			return NULL;
		hilo_elem_set_i64(i->shape->type, r->data, 0, ops[0]->shape->dims[d]);
		break;
	}
	default:
		r = ev_elementwise(e, i, ops, &handled);
		if (!handled) {
			handled = true;
			r = ev_shape_op(e, i, ops, &handled);
		}
		if (!handled) {
			handled = true;
			r = ev_reduce_op(e, i, ops, &handled);
		}
		if (!handled) {
			handled = true;
			r = ev_opaque(e, i, ops, &handled);
		}
		if (!handled)
			return ev_err(e, i, "opcode not supported by the evaluator");
		break;
	}
	if (!r)
		return e->failed ? NULL : ev_err(e, i, "evaluation failed");
	if (!lit_fits(r, i->shape))
		return ev_err(e, i, "result does not match the instruction's shape %s",
			hilo_shape_str(e->m->arena, i->shape));
	return r;
}

/* ---- public entry points ----------------------------------------------- */

static hilo_literal *eval_instr(hilo_module *m, const hilo_instr *i,
	hilo_literal *const *operands, hilo_diags *d)
{
	ev_top t;
	top_init(&t, m, m->arena, d, 0);
	t.e.allow_opaque = false; /* never fold an uninterpreted op to a hash */
	hilo_literal *r = NULL;
	bool ok = true;
	for (uint32_t k = 0; k < i->noperands; k++)
		if (!operands || !lit_fits(operands[k], i->operands[k]->shape))
			ok = false;
	if (!ok)
		ev_err(&t.e, i, "operand literals do not match the operand shapes");
	else
		r = ev_instr(&t.e, i, operands);
	if (r) /* results leave the evaluator with every element stored */
		r = ev_dense(&t.e, i, r);
	top_fini(&t);
	return r;
}

static hilo_literal *eval_instr_in(hilo_module *m, const hilo_instr *i,
	hilo_literal *const *operands, const hilo_eval_opts *o, uint64_t *used, hilo_diags *d)
{
	return ev_instr_in_elided(m, i, operands, o, used, false, 0, d);
}

hilo_literal *ev_instr_in_elided(hilo_module *m, const hilo_instr *i,
	hilo_literal *const *operands, const hilo_eval_opts *o, uint64_t *used, bool elided_random,
	uint64_t elided_seed, hilo_diags *d)
{
	ev_top t;
	top_init(&t, m, m->arena, d, o ? o->budget : 0);
	t.e.used = used ? *used : 0;
	t.e.elided_random = elided_random;
	t.e.elided_seed = elided_seed;
	hilo_literal *r = NULL;
	bool ok = true;
	for (uint32_t k = 0; ok && k < i->noperands; k++)
		if (!operands || !lit_fits(operands[k], i->operands[k]->shape))
			ok = false;
	if (t.e.used > t.e.budget)
		ev_err(&t.e, i, "over the evaluation budget of %llu element-ops",
			(unsigned long long)t.e.budget);
	else if (!ok)
		ev_err(&t.e, i, "operand literals do not match the operand shapes");
	else
		r = ev_instr(&t.e, i, operands);
	if (r) /* results leave the evaluator with every element stored */
		r = ev_dense(&t.e, i, r);
	if (used)
		*used = t.e.used;
	top_fini(&t);
	return r;
}

static hilo_literal *eval_comp(hilo_module *m, const hilo_comp *c,
	hilo_literal *const *args, const hilo_eval_opts *o, hilo_diags *d, uint64_t *used)
{
	hilo_arena *scratch = hilo_arena_create_in(m->arena);
	if (!scratch) {
		hilo_diag_add(d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0, "evaluator: out of memory");
		return NULL;
	}
	ev_top t;
	top_init(&t, m, scratch, d, o ? o->budget : 0);
	hilo_literal *r = ev_comp(&t.e, c, args);
	hilo_literal *out = r ? hilo_literal_copy_in(m->arena, r) : NULL;
	if (r && !out)
		ev_err(&t.e, NULL, "out of memory");
	if (out && hilo_literal_has_splat(out)) {
		/* results leave the evaluator with every element stored */
		t.e.a = m->arena;
		out = ev_dense(&t.e, c->root, out);
	}
	if (used)
		*used = t.e.used;
	top_fini(&t);
	hilo_arena_destroy(scratch);
	return out;
}

/* The entry points run under an out-of-memory guard on m's arena (scratch
 * arenas are its children, side tables its tracked heap). */
hilo_literal *hilo_eval_instr(hilo_module *m, const hilo_instr *i,
	hilo_literal *const *operands, hilo_diags *d)
{
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(d, NULL);
		return NULL;
	}
	hilo_literal *r = eval_instr(m, i, operands, d);
	hilo_oom_end(&g);
	return r;
}

hilo_literal *hilo_eval_instr_in(hilo_module *m, const hilo_instr *i,
	hilo_literal *const *operands, const hilo_eval_opts *o, uint64_t *used, hilo_diags *d)
{
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(d, NULL);
		return NULL;
	}
	hilo_literal *r = eval_instr_in(m, i, operands, o, used, d);
	hilo_oom_end(&g);
	return r;
}

hilo_literal *hilo_eval_comp(hilo_module *m, const hilo_comp *c,
	hilo_literal *const *args, const hilo_eval_opts *o, hilo_diags *d)
{
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(d, NULL);
		return NULL;
	}
	hilo_literal *r = eval_comp(m, c, args, o, d, NULL);
	hilo_oom_end(&g);
	return r;
}

hilo_literal *ev_comp_used(hilo_module *m, const hilo_comp *c, hilo_literal *const *args,
	const hilo_eval_opts *o, hilo_diags *d, uint64_t *used)
{
	*used = 0;
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(d, NULL);
		return NULL;
	}
	hilo_literal *r = eval_comp(m, c, args, o, d, used);
	hilo_oom_end(&g);
	return r;
}
