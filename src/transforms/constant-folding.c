/* constant-folding: replaces instructions whose operands are all known
 * constants with the constant they compute (XLA's HloConstantFolding, name
 * "constant_folding" there; "constant-folding" here), evaluating with the
 * reference evaluator (hilo_eval_instr).
 *
 * Exact conditions. An instruction is folded when
 *  - every operand is a constant with known values, a broadcast of such a
 *    constant, or an iota, and at least one operand is a constant (XLA's
 *    default level; an instruction without operands is never folded);
 *  - it is not a parameter, constant, tuple, broadcast or iota (folding
 *    those only grows the module), nor a while, conditional, fft,
 *    custom-call, collective, domain, opt-barrier, get-dimension-size,
 *    partition-id, replica-id, rng, after-all, infeed/outfeed/send/recv or
 *    an asynchronous op; not pad(broadcast, ...); not a bitcast-convert
 *    that changes a sub-byte element width; not a bitcast unless both
 *    shapes are row-major (a bitcast reinterprets the physical layout,
 *    the evaluator works in logical order);
 *  - it has no side effect (looking into called computations, where rng
 *    and after-all also disqualify) and no control dependencies;
 *  - its result is an array (no tuples, no dynamic dimensions) and neither
 *    the result nor any operand has more than 45,000,000 elements;
 *  - the evaluator computes it (anything it cannot evaluate is declined
 *    with its reason as the remark).
 *  - a call is folded like any instruction (the evaluator runs its
 *    callee) when every instruction of the callee, recursively through
 *    nested calls, would be foldable itself: parameters, constants and
 *    tuples are, broadcasts, iotas, opt-barriers, custom-calls, whiles,
 *    rng, side effects and the other exclusions above are not (XLA's
 *    IsFoldable over the called computation; FoldCall,
 *    DontFoldCallContainingOptimizationBarrier, FoldCallToFft).
 * The folded constant keeps the replaced instruction's metadata (as XLA's).
 *
 * Interprocedural first step (XLA's): before folding, a parameter of a
 * non-entry computation that only `call` instructions call, each with
 * some non-constant operand (a call whose operands are all constants is
 * folded instead, or not at all), and that receives the same known
 * constant (equal shape, layout included, and bytes) at every call site,
 * is replaced in the callee by a fresh constant of that value; parameters
 * nothing reads are left alone. The call sites keep their operands (dce
 * may later remove the callee's dead parameters only with the callers').
 *
 * Elided constants (`{...}`, values unknown) are never read: a user of one
 * is declined. Instructions are visited in post order, so folded values
 * feed later folds; the folded instruction is removed, and so are operands
 * it leaves dead when they are constants, broadcasts or iotas.
 *
 * Why it is sound: the evaluator computes exactly the HLO semantics of the
 * instruction on its only possible operand values; the replacement
 * constant therefore holds the value every execution would compute. A
 * callee only calls reach gets, in every execution, one of its callers'
 * operands as the parameter's value; when all of them are the same
 * constant, the parameter is that constant.
 *
 * Seed: none (XLA semantics, reference/xla-equivalents.md item 6); seed
 * 003's neuron-dus-ds-index-simplifier folds a clone of the module.
 */
#include "hilo/eval.h"
#include "hilo/pass.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FOLD_ELEMENTS 45000000

static bool never_folded(const hilo_instr *i)
{
	switch (i->op) {
	case HILO_OP_PARAMETER:
	case HILO_OP_CONSTANT:
	case HILO_OP_TUPLE:
	case HILO_OP_BROADCAST:
	case HILO_OP_IOTA:
	case HILO_OP_WHILE:
	case HILO_OP_CONDITIONAL:
	case HILO_OP_FFT:
	case HILO_OP_CUSTOM_CALL:
	case HILO_OP_DOMAIN:
	case HILO_OP_OPT_BARRIER:
	case HILO_OP_GET_DIMENSION_SIZE:
	case HILO_OP_PARTITION_ID:
	case HILO_OP_REPLICA_ID:
	case HILO_OP_RNG:
	case HILO_OP_RNG_GET_AND_UPDATE_STATE:
	case HILO_OP_RNG_BIT_GENERATOR:
	case HILO_OP_AFTER_ALL:
	case HILO_OP_ADD_DEPENDENCY:
	case HILO_OP_INFEED:
	case HILO_OP_OUTFEED:
	case HILO_OP_SEND:
	case HILO_OP_SEND_DONE:
	case HILO_OP_RECV:
	case HILO_OP_RECV_DONE:
	case HILO_OP_ASYNC_START:
	case HILO_OP_ASYNC_UPDATE:
	case HILO_OP_ASYNC_DONE:
	case HILO_OP_COPY_START:
	case HILO_OP_COPY_DONE:
		return true;
	default:
		return (hilo_opcode_flags(i->op) & (HILO_OPF_COLL | HILO_OPF_SE)) != 0;
	}
}

enum { ST_NO = 1, ST_YES = 2, ST_BUSY = 3 };

static bool callee_unfoldable(hilo_module *m, hilo_comp *c, hilo_ptrmap *memo);

/* Whether an instruction inside a called computation keeps its caller
 * from being folded: XLA's IsFoldable on every instruction of the callee
 * (broadcast, iota, fft, while, rng, after-all, side effects, ... are not
 * foldable; parameters, constants and tuples are, and nested calls when
 * their callees are). */
static bool instr_blocks_call_fold(hilo_module *m, const hilo_instr *i, hilo_ptrmap *memo)
{
	switch (i->op) {
	case HILO_OP_PARAMETER:
	case HILO_OP_CONSTANT:
	case HILO_OP_TUPLE:
		return false;
	case HILO_OP_CALL:
		return hilo_instr_ncalled(i) != 1 || hilo_instr_nctrl_preds(i) || hilo_instr_nctrl_succs(i) ||
			callee_unfoldable(m, hilo_instr_called(i)[0], memo);
	default:
		return never_folded(i) || hilo_instr_nctrl_preds(i) || hilo_instr_nctrl_succs(i) ||
			hilo_instr_has_side_effect(m, i);
	}
}

static bool callee_unfoldable(hilo_module *m, hilo_comp *c, hilo_ptrmap *memo)
{
	uintptr_t s = (uintptr_t)hilo_ptrmap_get(memo, c);
	if (s)
		return s != ST_NO;
	hilo_ptrmap_put(memo, c, (void *)(uintptr_t)ST_BUSY);
	bool bad = false;
	for (hilo_instr *i = c->first; i && !bad; i = i->next)
		bad = instr_blocks_call_fold(m, i, memo);
	hilo_ptrmap_put(memo, c, (void *)(uintptr_t)(bad ? ST_YES : ST_NO));
	return bad;
}

static bool comp_unfoldable(hilo_module *m, hilo_comp *c, hilo_ptrmap *memo)
{
	uintptr_t s = (uintptr_t)hilo_ptrmap_get(memo, c);
	if (s)
		return s != ST_NO;
	hilo_ptrmap_put(memo, c, (void *)(uintptr_t)ST_BUSY);
	bool bad = false;
	for (hilo_instr *i = c->first; i && !bad; i = i->next) {
		bad = i->op == HILO_OP_RNG || i->op == HILO_OP_RNG_GET_AND_UPDATE_STATE ||
			i->op == HILO_OP_RNG_BIT_GENERATOR || i->op == HILO_OP_AFTER_ALL ||
			hilo_instr_has_side_effect(m, i);
		for (uint32_t k = 0; k < hilo_instr_ncalled(i) && !bad; k++)
			bad = comp_unfoldable(m, hilo_instr_called(i)[k], memo);
	}
	hilo_ptrmap_put(memo, c, (void *)(uintptr_t)(bad ? ST_YES : ST_NO));
	return bad;
}

static bool has_dynamic_dims(const hilo_shape *s)
{
	if (!s->dyn)
		return false;
	for (int k = 0; k < s->rank; k++)
		if (s->dyn[k] != HILO_DIM_STATIC)
			return true;
	return false;
}

static bool small_array(const hilo_shape *s)
{
	if (!hilo_shape_is_array(s) || has_dynamic_dims(s))
		return false;
	int64_t n = hilo_shape_elements(s);
	return n >= 0 && n <= MAX_FOLD_ELEMENTS;
}

static bool known_constant(const hilo_instr *i)
{
	return i->op == HILO_OP_CONSTANT && hilo_instr_literal(i) && !hilo_instr_literal(i)->elided &&
		!hilo_instr_literal(i)->ntuple && hilo_instr_literal(i)->data;
}

/* The value of an operand, or NULL with *why set. */
static hilo_literal *operand_value(hilo_module *m, hilo_instr *o, const char **why)
{
	if (o->op == HILO_OP_CONSTANT) {
		if (!known_constant(o)) {
			*why = "operand is an elided constant (values unknown)";
			return NULL;
		}
		return hilo_instr_literal(o);
	}
	if (!small_array(o->shape)) {
		*why = "operand too large or not an array";
		return NULL;
	}
	hilo_diags d;
	hilo_diags_init_in(&d, m->arena);
	hilo_literal *r = NULL;
	if (o->op == HILO_OP_BROADCAST && o->noperands == 1 && known_constant(o->operands[0])) {
		hilo_literal *in = hilo_instr_literal(o->operands[0]);
		r = hilo_eval_instr(m, o, &in, &d);
	} else if (o->op == HILO_OP_IOTA && o->noperands == 0) {
		r = hilo_eval_instr(m, o, NULL, &d);
	}
	hilo_diags_free(&d);
	if (!r)
		*why = "an operand is not a constant";
	return r;
}

/* Row-major (descending minor_to_major) or no layout at all. */
static bool default_layout(const hilo_shape *s)
{
	if (!s->layout)
		return true;
	for (int k = 0; k < s->layout->n; k++)
		if (s->layout->minor_to_major[k] != s->layout->n - 1 - k)
			return false;
	return true;
}

/* A bitcast reinterprets the physical buffer, which depends on layouts;
 * the evaluator works in logical (row-major) order, so only bitcasts
 * between row-major shapes are folded. */
static bool layout_dependent_bitcast(const hilo_instr *i)
{
	return i->op == HILO_OP_BITCAST && i->noperands == 1 &&
		!(default_layout(i->shape) && default_layout(i->operands[0]->shape));
}

static bool width_changing_subbyte_bitcast(const hilo_instr *i)
{
	if (i->op != HILO_OP_BITCAST_CONVERT || i->noperands != 1)
		return false;
	int a = hilo_ptype_bits(i->shape->type), b = hilo_ptype_bits(i->operands[0]->shape->type);
	return a != b && (a < 8 || b < 8);
}

/* Removes i if it is dead and a constant/broadcast/iota, then its
 * operands likewise (they are few and shallow). */
static void remove_dead_feeders(hilo_comp *c, hilo_instr *i, int depth)
{
	if (!i->parent || i->nusers || i == c->root || hilo_instr_nctrl_preds(i) || hilo_instr_nctrl_succs(i))
		return;
	if (i->op != HILO_OP_CONSTANT && i->op != HILO_OP_BROADCAST && i->op != HILO_OP_IOTA)
		return;
	hilo_instr *op0 = i->noperands == 1 ? i->operands[0] : NULL;
	hilo_comp_remove(c, i);
	if (op0 && depth < 4)
		remove_dead_feeders(c, op0, depth + 1);
}

/* Tries to fold i; returns true when it was replaced. */
static bool fold(hilo_pass_ctx *ctx, hilo_comp *c, hilo_instr *i, hilo_ptrmap *memo,
	hilo_ptrmap *call_memo)
{
	hilo_module *m = ctx->m;
	if (i->noperands == 0 || never_folded(i))
		return false;
	bool any_constant = false;
	for (uint32_t k = 0; k < i->noperands; k++) {
		hilo_opcode op = i->operands[k]->op;
		if (op != HILO_OP_CONSTANT && op != HILO_OP_BROADCAST && op != HILO_OP_IOTA)
			return false;
		if (op == HILO_OP_BROADCAST &&
		    (i->operands[k]->noperands != 1 || i->operands[k]->operands[0]->op != HILO_OP_CONSTANT))
			return false;
		any_constant |= op == HILO_OP_CONSTANT;
	}
	if (!any_constant)
		return false;
	/* from here on the instruction looks foldable: say why when it is not */
	if (hilo_instr_nctrl_preds(i) || hilo_instr_nctrl_succs(i)) {
		hilo_remark(ctx, c, i, "declined", "has control dependencies");
		return false;
	}
	if (hilo_instr_has_side_effect(m, i)) {
		hilo_remark(ctx, c, i, "declined", "has side effects");
		return false;
	}
	if (i->op == HILO_OP_CALL &&
	    (hilo_instr_ncalled(i) != 1 || callee_unfoldable(m, hilo_instr_called(i)[0], call_memo))) {
		hilo_remark(ctx, c, i, "declined", "callee has an instruction that is not foldable "
			"(broadcast, iota, fft, while, opt-barrier, custom-call, rng, side effects, ...)");
		return false;
	}
	for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++)
		if (comp_unfoldable(m, hilo_instr_called(i)[k], memo)) {
			hilo_remark(ctx, c, i, "declined", "called computation has rng, after-all or side effects");
			return false;
		}
	if (i->op == HILO_OP_PAD && i->operands[0]->op == HILO_OP_BROADCAST) {
		hilo_remark(ctx, c, i, "declined", "pad of a broadcast (folding only grows the module)");
		return false;
	}
	if (layout_dependent_bitcast(i)) {
		hilo_remark(ctx, c, i, "declined", "bitcast with a non-row-major layout (physical reinterpretation)");
		return false;
	}
	if (width_changing_subbyte_bitcast(i)) {
		hilo_remark(ctx, c, i, "declined", "sub-byte bitcast-convert that changes the element width");
		return false;
	}
	if (!small_array(i->shape)) {
		hilo_remark(ctx, c, i, "declined", "result is not an array of at most 45000000 elements");
		return false;
	}
	hilo_literal **ops = hilo_heap_alloc(m->arena, i->noperands * sizeof *ops);
	if (!ops)
		return false;
	const char *why = NULL;
	for (uint32_t k = 0; k < i->noperands && !why; k++) {
		if (!small_array(i->operands[k]->shape))
			why = "operand is not an array of at most 45000000 elements";
		else
			ops[k] = operand_value(m, i->operands[k], &why);
	}
	if (why) {
		hilo_heap_free(m->arena, ops);
		hilo_remark(ctx, c, i, "declined", "%s", why);
		return false;
	}
	hilo_diags d;
	hilo_diags_init_in(&d, m->arena);
	hilo_literal *r = hilo_eval_instr(m, i, ops, &d);
	hilo_heap_free(m->arena, ops);
	if (!r || r->ntuple || r->elided || !hilo_shape_compatible(r->shape, i->shape)) {
		hilo_remark(ctx, c, i, "declined", "evaluator: %s",
			d.n ? d.items[0].msg : "result does not match the instruction's shape");
		hilo_diags_free(&d);
		return false;
	}
	hilo_diags_free(&d);
	r->shape = i->shape; /* keep the instruction's layout */
	hilo_instr *k = hilo_instr_create(m, HILO_OP_CONSTANT, i->shape, NULL);
	k->u.literal = r;
	hilo_instr_copy_metadata(m, k, i); /* XLA: the constant keeps the metadata */
	hilo_comp_insert_before(c, i, k);
	hilo_remark(ctx, c, i, "rewritten", "folded to %s", k->name);
	hilo_instr_replace_all_uses(m, i, k);
	uint32_t nops = i->noperands;
	hilo_instr *opnds[8];
	uint32_t keep = nops < 8 ? nops : 8;
	memcpy(opnds, i->operands, keep * sizeof *opnds);
	hilo_comp_remove(c, i);
	for (uint32_t j = 0; j < keep; j++)
		remove_dead_feeders(c, opnds[j], 0);
	return true;
}

static bool same_constant(const hilo_instr *a, const hilo_instr *b)
{
	if (a == b)
		return true;
	const hilo_literal *x = hilo_instr_literal(a), *y = hilo_instr_literal(b);
	return hilo_shape_equal(a->shape, b->shape) && x->nbytes == y->nbytes && x->splat == y->splat &&
		(x->nbytes == 0 || !memcmp(x->data, y->data, x->nbytes));
}

typedef struct callsite {
	hilo_comp *callee;
	hilo_instr *caller;
} callsite;

/* By callee, then by the caller's id (a deterministic order). */
static int callsite_cmp(const void *a, const void *b)
{
	const callsite *x = a, *y = b;
	if (x->callee != y->callee)
		return (uintptr_t)x->callee < (uintptr_t)y->callee ? -1 : 1;
	return x->caller->id < y->caller->id ? -1 : x->caller->id > y->caller->id;
}

/* XLA's interprocedural step: a parameter of a computation that only
 * `call` instructions call, which receives the same known constant (equal
 * shape, layout included, and bytes) at every call site, is replaced in
 * the callee by that constant; the in-callee folding then follows. The
 * call sites keep their operands. Parameters nothing reads are left alone.
 * Returns the number of parameters replaced. */
static uint64_t propagate_call_constants(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	uint64_t replaced = 0;
	/* every (callee, calling instruction) pair, sorted by callee: one walk
	 * and a sort, so the step stays linear-ish in the module's size */
	size_t total = 0;
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next)
			total += hilo_instr_ncalled(i);
	if (!total)
		return 0;
	callsite *sites = hilo_heap_alloc(m->arena, total * sizeof *sites);
	hilo_instr **calls = hilo_heap_alloc(m->arena, total * sizeof *calls);
	if (!sites || !calls) {
		hilo_heap_free(m->arena, sites);
		hilo_heap_free(m->arena, calls);
		return 0;
	}
	size_t ns = 0;
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next)
			for (uint32_t j = 0; j < hilo_instr_ncalled(i); j++)
				sites[ns++] = (callsite){hilo_instr_called(i)[j], i};
	qsort(sites, ns, sizeof *sites, callsite_cmp);
	for (uint32_t ci = 0; ci < m->ncomps; ci++) {
		hilo_comp *callee = m->comps[ci];
		if (callee == m->entry || callee->execution_thread || !callee->nparams)
			continue;
		/* the callers: all of them `call`s with one operand per parameter */
		size_t lo = 0, hi = ns;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if ((uintptr_t)sites[mid].callee < (uintptr_t)callee)
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t ncalls = 0;
		bool only_calls = true;
		for (size_t k = lo; k < ns && sites[k].callee == callee && only_calls; k++) {
			hilo_instr *i = sites[k].caller;
			if (i->op != HILO_OP_CALL || hilo_instr_ncalled(i) != 1 || i->noperands != callee->nparams)
				only_calls = false;
			else
				calls[ncalls++] = i;
		}
		/* a call site whose operands are all constants is folded itself
		 * (or not at all): the step is for calls with some constant
		 * operands (XLA's DontFoldCallContainingOptimizationBarrier
		 * leaves such a callee untouched) */
		for (size_t k = 0; k < ncalls && only_calls; k++) {
			bool all = true;
			for (uint32_t j = 0; j < calls[k]->noperands; j++)
				all &= known_constant(calls[k]->operands[j]);
			if (all)
				only_calls = false;
		}
		hilo_instr *at = callee->first;
		for (uint32_t p = 0; only_calls && ncalls && p < callee->nparams; p++) {
			hilo_instr *param = callee->params[p];
			if (!param || !param->nusers)
				continue;
			hilo_instr *first = calls[0]->operands[p];
			bool same = known_constant(first) && hilo_shape_equal(first->shape, param->shape);
			for (size_t k = 1; k < ncalls && same; k++)
				same = known_constant(calls[k]->operands[p]) &&
					same_constant(first, calls[k]->operands[p]);
			if (!same)
				continue;
			hilo_instr *k = hilo_instr_create(m, HILO_OP_CONSTANT, param->shape, NULL);
			k->u.literal = hilo_instr_literal(first); /* literals are immutable: share */
			hilo_comp_insert_before(callee, at, k);
			hilo_remark(ctx, callee, param, "rewritten",
				"every call passes the same constant (%s): replaced by %s in the callee",
				first->name, k->name);
			hilo_instr_replace_all_uses(m, param, k);
			replaced++;
		}
	}
	hilo_heap_free(m->arena, sites);
	hilo_heap_free(m->arena, calls);
	return replaced;
}

hilo_pass_result hilo_pass_constant_folding(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_ptrmap memo, call_memo;
	hilo_ptrmap_init_in(&memo, m->arena);
	hilo_ptrmap_init_in(&call_memo, m->arena);
	uint64_t folded = propagate_call_constants(ctx);
	for (uint32_t ci = 0; ci < m->ncomps; ci++) {
		hilo_comp *c = m->comps[ci];
		uint32_t n;
		hilo_instr **order = hilo_comp_post_order(m, c, &n);
		for (uint32_t k = 0; k < n; k++) {
			hilo_instr *i = order[k];
			if (i->parent == c && fold(ctx, c, i, &memo, &call_memo))
				folded++;
		}
	}
	hilo_ptrmap_free(&memo);
	hilo_ptrmap_free(&call_memo);
	ctx->rewrites += folded;
	return folded ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
