/* while-loop-unroller (#112): fully unrolls while loops with a statically
 * known trip count into a chain of calls (seed 003, "While-Loop Unroll"
 * upstream step).
 *
 * Rewrites: `while(init), condition=C, body=B` becomes
 *   s1 = call(init), to_apply=B.iter0 ; s2 = call(s1), to_apply=B.iter1 ; ...
 * one call per iteration, each to its own clone of B (calls after the first
 * take `tuple(get-tuple-element(previous call), ...)`, an identity that
 * gives every call a tuple operand); every use of the
 * while is redirected to the last call (or to init when the trip count is
 * zero) and the while is removed. Every cloned dynamic-slice,
 * dynamic-update-slice and call, and the new per-iteration call, gets the
 * token `iterationidx=k` (docs/tokens.md). With ctx->unroll_markers the
 * root r of each clone becomes
 *   custom-call(custom-call(r), custom_call_target="NeuronBoundaryMarker-Start"),
 *   custom_call_target="NeuronBoundaryMarker-End".
 *
 * Exact conditions (all must hold; otherwise the loop is declined with a
 * remark):
 *  - the while has exactly one operand and no control edges; its state is
 *    a tuple, or a scalar integer that is itself the induction variable
 *    (then "element k" below means the whole state);
 *  - C has one parameter and its root is `compare(a, b)` where one side is
 *    `get-tuple-element(param), index=k` and the other a loop constant,
 *    either order; direction LT, LE, GT, GE, EQ or NE; nothing in C (or
 *    what it calls) has a side effect. A loop constant is a scalar integer
 *    constant, or a loop-invariant tuple element: `get-tuple-element(param),
 *    index=b`, b != k, that B's root passes through unchanged and whose
 *    init (tuple operand or tuple-constant element) is a scalar integer
 *    constant (JAX's fori_loop with the bound or the step in the carry; the
 *    fact XLA's WhileLoopUnroller gets by sinking constants into the loop
 *    before its trip-count analysis);
 *  - B's root is a tuple whose element k is `add(gte_k, s)`,
 *    `add(s, gte_k)` or `subtract(gte_k, s)` with gte_k =
 *    get-tuple-element(B's parameter), index=k and s a loop constant (the
 *    step);
 *  - the while operand is a `tuple` instruction whose element k is a scalar
 *    integer constant, or a tuple constant;
 *  - simulating i = init; while cmp(i, bound): i += step (in the
 *    induction variable's integer type, wrapping as it does) terminates
 *    within the budget: trip count <= 1000, instructions in B <= 100000,
 *    trip count x instructions <= 800000.
 *
 * Why it is sound: the condition reads only the induction variable, which
 * only the body's own add/subtract of a constant changes, so the sequence
 * of condition values is exactly the simulated one, independent of all
 * other state; the while therefore runs the body exactly `trip` times on
 * the threaded state, which is what the call chain computes. Body clones
 * are fresh computations (nested computations they call are shared, which
 * is harmless since computations are pure functions of their operands).
 * The markers are identity custom-calls that later passes strip.
 */
#include "hilo/float.h"
#include "hilo/pass.h"
#include "hilo/tokens.h"

#include <string.h>

enum {
	MAX_TRIP = 1000,
	MAX_BODY = 100000,
	MAX_TOTAL = 800000,
};

static const hilo_instr *through_copy(const hilo_instr *i);

static bool scalar_int_const(const hilo_instr *i, int64_t *v)
{
	i = through_copy(i);
	return i->shape->rank == 0 && i->shape->type != HILO_T_PRED && hilo_instr_const_int_at(i, 0, v);
}

static bool is_gte_of(const hilo_instr *i, const hilo_instr *param, int64_t *index)
{
	int64_t k;
	if (i->op != HILO_OP_GET_TUPLE_ELEMENT || i->noperands != 1 || i->operands[0] != param)
		return false;
	if (!hilo_instr_get_int(i, HILO_A_INDEX, &k))
		return false;
	*index = k;
	return true;
}

/* XLA's optimized loops (what hilo.jax gets from XLA's pipeline) wrap the
 * loop's scalar ops: the induction variable's init is copy(constant), the
 * body reads it through a copy, and the step and the condition's compare
 * are each a loop fusion around that one op. A copy is the value it
 * copies; such a fusion computes exactly its op on its operands. */
static const hilo_instr *through_copy(const hilo_instr *i)
{
	while (i->op == HILO_OP_COPY && i->noperands == 1)
		i = i->operands[0];
	return i;
}

/* The one instruction a fusion wraps, op(p0, ..., pn-1) on the fused
 * computation's parameters in order and nothing else in it (its operands
 * are then the fusion's, slot by slot); NULL for any other fusion. */
static const hilo_instr *wrapped_op(const hilo_instr *f)
{
	if (f->op != HILO_OP_FUSION || hilo_instr_ncalled(f) != 1)
		return NULL;
	const hilo_comp *fc = hilo_instr_called(f)[0];
	const hilo_instr *r = fc ? fc->root : NULL;
	if (!r || r->op == HILO_OP_PARAMETER || r->noperands != f->noperands || fc->nparams != f->noperands ||
	    fc->ninstrs != fc->nparams + 1 || hilo_instr_ncalled(r))
		return NULL;
	for (uint32_t k = 0; k < r->noperands; k++)
		if (r->operands[k] != fc->params[k])
			return NULL;
	return r;
}

/* Reference to the induction variable: element k of the tuple parameter,
 * or (scalar state, k = -1) the parameter itself (through copies). */
static bool iv_ref(const hilo_instr *i, const hilo_instr *param, bool scalar, int64_t *k)
{
	i = through_copy(i);
	if (scalar) {
		*k = -1;
		return i == param;
	}
	return is_gte_of(i, param, k);
}

/* Wraps v to the width and signedness of integer type t. */
static int64_t wrap(hilo_ptype t, int64_t v)
{
	int bits = hilo_ptype_bits(t);
	if (bits >= 64)
		return v;
	uint64_t mask = (UINT64_C(1) << bits) - 1;
	uint64_t u = (uint64_t)v & mask;
	if (hilo_ptype_is_signed_int(t) && (u >> (bits - 1)) & 1)
		u |= ~mask;
	return (int64_t)u;
}

static bool cmp_holds(const char *dir, hilo_ptype t, int64_t a, int64_t b)
{
	bool uns = hilo_ptype_is_unsigned_int(t);
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	if (strcmp(dir, "LT") == 0)
		return uns ? ua < ub : a < b;
	if (strcmp(dir, "LE") == 0)
		return uns ? ua <= ub : a <= b;
	if (strcmp(dir, "GT") == 0)
		return uns ? ua > ub : a > b;
	if (strcmp(dir, "GE") == 0)
		return uns ? ua >= ub : a >= b;
	if (strcmp(dir, "EQ") == 0)
		return a == b;
	return a != b; /* NE */
}

/* The scalar integer element e of the while's init: an element of a
 * tuple instruction or of a tuple constant. */
static bool init_elem_const(const hilo_instr *init, int64_t e, int64_t *v)
{
	if (e < 0)
		return false;
	if (init->op == HILO_OP_TUPLE)
		return (uint64_t)e < init->noperands && scalar_int_const(init->operands[e], v);
	if (init->op == HILO_OP_CONSTANT && hilo_instr_literal(init) && !hilo_instr_literal(init)->elided &&
	    hilo_instr_literal(init)->ntuple > e) {
		const hilo_literal *l = hilo_instr_literal(init)->elems[e];
		if (!l || !l->data || !l->shape || !hilo_shape_is_array(l->shape) || l->shape->rank != 0 ||
		    !hilo_ptype_is_int(l->shape->type) || l->nbytes < (size_t)hilo_ptype_bytes(l->shape->type))
			return false;
		*v = hilo_elem_get_i64(l->shape->type, l->data, 0);
		return true;
	}
	return false;
}

/* A loop-invariant constant (XLA prepares loops by sinking constants into
 * the body and condition before trip-count analysis; this is the same
 * fact found in place): `get-tuple-element(param of comp), index=b`, comp
 * the condition or the body, where the body's root passes element b
 * through unchanged (get-tuple-element(body param), index=b) and the init
 * holds a scalar integer constant there. Every iteration then sees that
 * constant. */
static bool invariant_const(const hilo_instr *g, const hilo_comp *comp, const hilo_comp *body,
	const hilo_instr *init, int64_t *v)
{
	int64_t b, bb;
	if (!is_gte_of(g, comp->params[0], &b) || b < 0)
		return false;
	const hilo_instr *br = body->root;
	if (!br || br->op != HILO_OP_TUPLE || (uint64_t)b >= br->noperands)
		return false;
	if (!is_gte_of(br->operands[b], body->params[0], &bb) || bb != b)
		return false;
	return init_elem_const(init, b, v);
}

/* A scalar integer constant, or (tuple state) a loop-invariant one. */
static bool loop_const(const hilo_instr *i, const hilo_comp *comp, const hilo_comp *body,
	const hilo_instr *init, bool scalar, int64_t iv_index, int64_t *v)
{
	if (scalar_int_const(i, v))
		return true;
	int64_t b;
	return !scalar && is_gte_of(i, comp->params[0], &b) && b != iv_index &&
		invariant_const(i, comp, body, init, v);
}

typedef struct loop_info {
	int64_t index;    /* tuple element of the induction variable */
	int64_t trip;
} loop_info;

/* Returns NULL on success, else the reason to decline. */
static const char *analyse(hilo_pass_ctx *ctx, hilo_instr *w, loop_info *li)
{
	hilo_module *m = ctx->m;
	hilo_comp *cond = hilo_instr_get_comp(w, HILO_A_CONDITION);
	hilo_comp *body = hilo_instr_get_comp(w, HILO_A_BODY);
	if (!cond || !body)
		return "while without condition or body computation";
	bool scalar = !hilo_shape_is_tuple(w->shape);
	if (w->noperands != 1)
		return "while does not have exactly one operand";
	if (scalar && (!hilo_shape_is_array(w->shape) || w->shape->rank != 0 ||
		!hilo_ptype_is_int(w->shape->type)))
		return "unknown trip count: while state is neither a tuple nor a scalar integer";
	if (hilo_instr_nctrl_preds(w) || hilo_instr_nctrl_succs(w))
		return "while has control dependencies";
	if (cond->nparams != 1 || body->nparams != 1)
		return "condition or body does not take exactly one parameter";
	if (hilo_comp_has_side_effect(m, cond, NULL))
		return "condition has side effects";

	/* condition: compare(gte(param, k), constant) in either order */
	hilo_instr *r = cond->root;
	const hilo_instr *cmp = r && r->op == HILO_OP_FUSION ? wrapped_op(r) : r;
	if (!cmp || cmp->op != HILO_OP_COMPARE || r->noperands != 2)
		return "unknown trip count: condition root is not a compare";
	const char *dir = hilo_instr_get_enum(cmp, HILO_A_DIRECTION);
	if (!dir)
		return "unknown trip count: compare without direction";
	int64_t k = -1, bound = 0;
	bool swapped = false;
	hilo_instr *init0 = w->operands[0];
	if (iv_ref(r->operands[0], cond->params[0], scalar, &k) &&
	    loop_const(r->operands[1], cond, body, init0, scalar, k, &bound)) {
		swapped = false;
	} else if (iv_ref(r->operands[1], cond->params[0], scalar, &k) &&
	           loop_const(r->operands[0], cond, body, init0, scalar, k, &bound)) {
		swapped = true;
	} else {
		return "unknown trip count: condition does not compare a tuple element with a constant";
	}
	static const char *const dirs[] = {"LT", "LE", "GT", "GE", "EQ", "NE"};
	static const char *const swapdirs[] = {"GT", "GE", "LT", "LE", "EQ", "NE"};
	const char *eff = NULL;
	for (int d = 0; d < 6; d++)
		if (strcmp(dir, dirs[d]) == 0)
			eff = swapped ? swapdirs[d] : dirs[d];
	if (!eff)
		return "unknown trip count: unsupported compare direction";
	if (!scalar && (k < 0 || k >= w->shape->ntuple))
		return "unknown trip count: induction index out of range";
	const hilo_shape *ivs = scalar ? w->shape : w->shape->elems[k];
	if (!hilo_shape_is_array(ivs) || ivs->rank != 0 || !hilo_ptype_is_int(ivs->type))
		return "unknown trip count: induction variable is not a scalar integer";
	hilo_ptype t = ivs->type;

	/* body: root tuple element k = gte_k +/- constant */
	hilo_instr *br = body->root;
	if (!br || (!scalar && (br->op != HILO_OP_TUPLE || (int64_t)br->noperands != w->shape->ntuple)))
		return "unknown trip count: body root is not a tuple";
	hilo_instr *upd = scalar ? br : br->operands[k];
	const hilo_instr *uop = upd->op == HILO_OP_FUSION ? wrapped_op(upd) : upd;
	hilo_opcode uopc = uop ? uop->op : HILO_OP_FUSION;
	hilo_instr *bp = body->params[0];
	int64_t step = 0, gk = -2;
	bool found = false;
	if (uopc == HILO_OP_ADD && upd->noperands == 2) {
		if (iv_ref(upd->operands[0], bp, scalar, &gk) &&
		    loop_const(upd->operands[1], body, body, init0, scalar, k, &step))
			found = true;
		else if (iv_ref(upd->operands[1], bp, scalar, &gk) &&
		         loop_const(upd->operands[0], body, body, init0, scalar, k, &step))
			found = true;
	} else if (uopc == HILO_OP_SUBTRACT && upd->noperands == 2) {
		if (iv_ref(upd->operands[0], bp, scalar, &gk) &&
		    loop_const(upd->operands[1], body, body, init0, scalar, k, &step)) {
			step = wrap(t, (int64_t)(0 - (uint64_t)step));
			found = true;
		}
	}
	if (!found || gk != k)
		return "unknown trip count: induction variable is not updated by a constant step";

	/* init */
	hilo_instr *init = w->operands[0];
	int64_t iv = 0;
	if (scalar) {
		if (!scalar_int_const(init, &iv))
			return "unknown trip count: induction variable init is not a constant";
	} else if (init->op == HILO_OP_TUPLE && (int64_t)init->noperands > k) {
		if (!scalar_int_const(init->operands[k], &iv))
			return "unknown trip count: induction variable init is not a constant";
	} else if (init->op == HILO_OP_CONSTANT) {
		if (!init_elem_const(init, k, &iv))
			return "unknown trip count: induction variable init is not a constant";
	} else {
		return "unknown trip count: loop init is not a tuple with a constant induction variable";
	}

	int64_t trip = 0;
	iv = wrap(t, iv);
	bound = wrap(t, bound);
	while (cmp_holds(eff, t, iv, bound)) {
		if (++trip > MAX_TRIP)
			return "budget exceeded: trip count above 1000 (or the loop does not terminate)";
		iv = wrap(t, (int64_t)((uint64_t)iv + (uint64_t)step));
	}
	if (body->ninstrs > MAX_BODY)
		return "budget exceeded: body has more than 100000 instructions";
	if ((uint64_t)trip * body->ninstrs > MAX_TOTAL)
		return "budget exceeded: trip count x body instructions above 800000";
	li->index = k;
	li->trip = trip;
	return NULL;
}

static hilo_instr *marker(hilo_module *m, hilo_comp *c, hilo_instr *op, const char *target)
{
	hilo_instr *i = hilo_instr_create(m, HILO_OP_CUSTOM_CALL, op->shape, "custom-call");
	hilo_instr_add_operand(m, i, op);
	hilo_attr *a = hilo_instr_set_attr(m, i, HILO_A_CUSTOM_CALL_TARGET, HILO_ATTR_STRING);
	a->v.text = hilo_intern_cstr(m->strings, target);
	hilo_comp_append(c, i);
	return i;
}

/* XLA gives each fused computation exactly one fusion instruction (its
 * reader refuses two sharing one: "Instruction of fused computation does
 * not match expected instruction"), so a body clone's fusions call
 * clones of their fused computations, nested fusions too. */
static void clone_fusions(hilo_module *m, hilo_comp *c, int64_t it)
{
	for (hilo_instr *i = c->first; i; i = i->next) {
		if (i->op != HILO_OP_FUSION)
			continue;
		hilo_comp **called = hilo_instr_called(i);
		for (uint32_t j = 0; j < hilo_instr_ncalled(i); j++) {
			const char *fname = hilo_arena_printf(m->arena, "%s.unrolled.%lld", called[j]->name, (long long)it);
			for (int sfx = 1; hilo_module_find_comp(m, fname); sfx++)
				fname = hilo_arena_printf(m->arena, "%s.unrolled.%lld.%d", called[j]->name, (long long)it, sfx);
			hilo_comp *fc = hilo_comp_clone(m, called[j], fname);
			hilo_module_add_comp(m, fc, c);
			called[j] = fc;
			clone_fusions(m, fc, it);
		}
	}
}

static void unroll(hilo_pass_ctx *ctx, hilo_instr *w, const loop_info *li)
{
	hilo_module *m = ctx->m;
	hilo_comp *parent = w->parent;
	hilo_comp *body = hilo_instr_get_comp(w, HILO_A_BODY);
	hilo_instr *state = w->operands[0];
	for (int64_t it = 0; it < li->trip; it++) {
		const char *cname = hilo_arena_printf(m->arena, "%s.unrolled.%lld", body->name, (long long)it);
		/* computation names must be unique too */
		for (int sfx = 1; hilo_module_find_comp(m, cname); sfx++)
			cname = hilo_arena_printf(m->arena, "%s.unrolled.%lld.%d", body->name, (long long)it, sfx);
		hilo_comp *cl = hilo_comp_clone(m, body, cname);
		hilo_module_add_comp(m, cl, parent);
		clone_fusions(m, cl, it);
		for (hilo_instr *i = cl->first; i; i = i->next)
			if (i->op == HILO_OP_DYNAMIC_SLICE || i->op == HILO_OP_DYNAMIC_UPDATE_SLICE ||
				i->op == HILO_OP_CALL)
				hilo_tokens_set(m, i, HILO_TOK_ITER, &it, 1);
		if (ctx->unroll_markers && cl->root) {
			hilo_instr *s = marker(m, cl, cl->root, "NeuronBoundaryMarker-Start");
			hilo_instr *e = marker(m, cl, s, "NeuronBoundaryMarker-End");
			hilo_comp_set_root(cl, e);
		}
		if (it > 0 && hilo_shape_is_tuple(w->shape)) {
			/* re-tuple the previous iteration's state so every call takes
			 * a tuple instruction (what dynamic-slice-mover and
			 * neuron_repeated_dus_to_concat look through); an identity */
			hilo_instr *t = hilo_instr_create(m, HILO_OP_TUPLE, w->shape, "tuple");
			for (int e = 0; e < w->shape->ntuple; e++) {
				hilo_instr *g = hilo_instr_create(m, HILO_OP_GET_TUPLE_ELEMENT,
					w->shape->elems[e], "get-tuple-element");
				hilo_instr_add_operand(m, g, state);
				hilo_attr *ia = hilo_instr_set_attr(m, g, HILO_A_INDEX, HILO_ATTR_INT);
				ia->v.i = e;
				hilo_comp_insert_before(parent, w, g);
				hilo_instr_add_operand(m, t, g);
			}
			hilo_comp_insert_before(parent, w, t);
			state = t;
		}
		hilo_instr *call = hilo_instr_create(m, HILO_OP_CALL, w->shape, "call");
		hilo_instr_add_operand(m, call, state);
		hilo_instr_add_called(m, call, cl);
		hilo_attr *a = hilo_instr_set_attr(m, call, HILO_A_TO_APPLY, HILO_ATTR_COMP);
		a->v.i = (int64_t)hilo_instr_ncalled(call) - 1;
		hilo_tokens_set(m, call, HILO_TOK_ITER, &it, 1);
		hilo_comp_insert_before(parent, w, call);
		state = call;
	}
	hilo_instr_replace_all_uses(m, w, state);
	if (parent->root == w)
		hilo_comp_set_root(parent, state);
	hilo_comp_remove(parent, w);
}

hilo_pass_result hilo_pass_while_loop_unroller(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	uint32_t nc = 0;
	hilo_comp **order = hilo_module_comp_post_order(m, &nc);
	bool changed = false;
	/* snapshot: unrolling adds computations */
	for (uint32_t c = 0; c < nc; c++) {
		hilo_comp *comp = order[c];
		uint32_t n = 0;
		hilo_instr **instrs = hilo_comp_post_order(m, comp, &n);
		for (uint32_t k = 0; k < n; k++) {
			hilo_instr *w = instrs[k];
			if (w->op != HILO_OP_WHILE)
				continue;
			loop_info li;
			const char *why = analyse(ctx, w, &li);
			if (why) {
				hilo_remark(ctx, comp, w, "declined", "%s", why);
				continue;
			}
			unroll(ctx, w, &li);
			hilo_remark(ctx, comp, w, "rewritten", "unrolled %lld iterations into calls%s",
				(long long)li.trip, ctx->unroll_markers ? " with boundary markers" : "");
			ctx->rewrites++;
			changed = true;
		}
	}
	return changed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
