/* tuple-simplifier: removes tuple/get-tuple-element round trips (XLA's
 * TupleSimplifier, name "tuple-simplifier").
 *
 * Rewrites, in every computation:
 *  1. tuple(gte(X,0), gte(X,1), ..., gte(X,n-1)) -> X, when all n >= 1
 *     operands are get-tuple-elements of the same X in index order, X's
 *     tuple shape has exactly n elements and is compatible with the
 *     tuple's shape (same element types and dims; layouts ignored).
 *  2. get-tuple-element(tuple(e0, ..., en), i) -> ei (nested chains fold
 *     one level at a time in post order, so gte(gte(tuple(tuple(..)))) ends
 *     at the innermost element), when ei's shape is compatible with the
 *     gte's.
 * A replaced instruction left without users is removed (its now-dead
 * operands are left to dce).
 *
 * Control dependencies (XLA's RelayControlDependenciesSafely): each
 * control predecessor P of the replaced instruction I becomes a control
 * predecessor of every user of I (of every control successor of I when I
 * has no users), and the replacement R becomes a control predecessor of
 * every control successor of I; then I's edges are dropped. P is not put
 * on R: R is computed before I and may have to stay before P. Every order
 * the old edges forced on an effect is still forced: what waited for I
 * waits for R (R is I's value) and for P through I's users or successors.
 *
 * Shardings (XLA replaces with preserve_sharding=true): when the replaced
 * tuple / get-tuple-element carries a `sharding`, the replacement must
 * carry the same one (compared by its text), else the rewrite is declined
 * with a remark. A sharding tells the SPMD partitioner how the value is
 * laid out across devices; dropping or changing it changes what the
 * partitioned program does. XLA, when the replacement has no sharding,
 * copies the old one onto it; hilo declines instead, because the copy
 * would also re-annotate the replacement for its other users (and would
 * change an entry parameter's sharding, part of the module's signature).
 * A replaced instruction without a sharding may be replaced by one with
 * a sharding (nothing is lost; XLA does the same).
 *
 * Why it is sound: a tuple of all of X's elements in order is X, and the
 * i-th element of a tuple is its i-th operand; tuple and get-tuple-element
 * have no side effects, so dropping one changes nothing else.
 *
 * Seed: none (XLA semantics, reference/xla-equivalents.md item 3); seed 000
 * (neuron_repeated_dus_to_concat) runs it as a clean-up.
 */
#include "hilo/pass.h"
#include "pass_util.h"

#include <string.h>

static bool has_ctrl(const hilo_instr *i)
{
	return hilo_instr_nctrl_preds(i) || hilo_instr_nctrl_succs(i);
}

/* The sharding attribute's text, or NULL when there is none. */
static const char *sharding_text(const hilo_instr *i)
{
	const hilo_attr *a = hilo_instr_attr(i, HILO_A_SHARDING);
	if (!a)
		return NULL;
	return a->v.text ? a->v.text : "";
}

/* May `with` stand in for `old` as far as shardings go? */
static bool sharding_preserved(const hilo_instr *old, const hilo_instr *with)
{
	const char *so = sharding_text(old);
	if (!so)
		return true;
	const char *sw = sharding_text(with);
	return sw && strcmp(so, sw) == 0;
}

/* Rule 1: the common source X, or NULL. */
static hilo_instr *whole_tuple_source(const hilo_instr *t)
{
	if (t->noperands == 0)
		return NULL;
	hilo_instr *x = NULL;
	for (uint32_t k = 0; k < t->noperands; k++) {
		const hilo_instr *g = t->operands[k];
		int64_t idx;
		if (g->op != HILO_OP_GET_TUPLE_ELEMENT || g->noperands != 1 ||
		    !hilo_instr_get_int(g, HILO_A_INDEX, &idx) || idx != (int64_t)k)
			return NULL;
		if (x && g->operands[0] != x)
			return NULL;
		x = g->operands[0];
	}
	if (!hilo_shape_is_tuple(x->shape) || x->shape->ntuple != (int)t->noperands ||
	    !hilo_shape_compatible(x->shape, t->shape))
		return NULL;
	return x;
}

static void replace(hilo_pass_ctx *ctx, hilo_comp *c, hilo_instr *old, hilo_instr *with,
	const char *why)
{
	if (has_ctrl(old))
		hilo_pu_relay_control(ctx->m, old, with);
	hilo_remark(ctx, c, old, "rewritten", "%s -> %s", why, with->name);
	hilo_instr_replace_all_uses(ctx->m, old, with);
	if (old->nusers == 0 && c->root != old)
		hilo_comp_remove(c, old);
	ctx->rewrites++;
}

static bool simplify_comp(hilo_pass_ctx *ctx, hilo_comp *c)
{
	uint32_t n;
	hilo_instr **order = hilo_comp_post_order(ctx->m, c, &n);
	bool changed = false;
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *i = order[k];
		if (!i->parent)
			continue; /* removed earlier in this walk */
		if (i->op == HILO_OP_TUPLE) {
			hilo_instr *x = whole_tuple_source(i);
			if (!x)
				continue;
			if (!sharding_preserved(i, x)) {
				hilo_remark(ctx, c, i, "declined",
					"tuple carries a sharding that %s does not have", x->name);
				continue;
			}
			replace(ctx, c, i, x, "tuple of all elements of its source");
			changed = true;
		} else if (i->op == HILO_OP_GET_TUPLE_ELEMENT && i->noperands == 1 &&
		           i->operands[0]->op == HILO_OP_TUPLE) {
			hilo_instr *t = i->operands[0];
			int64_t idx;
			if (!hilo_instr_get_int(i, HILO_A_INDEX, &idx) || idx < 0 ||
			    idx >= (int64_t)t->noperands)
				continue;
			hilo_instr *e = t->operands[idx];
			if (!hilo_shape_compatible(e->shape, i->shape)) {
				hilo_remark(ctx, c, i, "declined", "tuple element shape differs from the get-tuple-element's");
				continue;
			}
			if (!sharding_preserved(i, e)) {
				hilo_remark(ctx, c, i, "declined",
					"get-tuple-element carries a sharding that its tuple element %s does not have", e->name);
				continue;
			}
			replace(ctx, c, i, e, "get-tuple-element of a tuple");
			changed = true;
		}
	}
	return changed;
}

hilo_pass_result hilo_pass_tuple_simplifier(hilo_pass_ctx *ctx)
{
	bool changed = false;
	for (uint32_t k = 0; k < ctx->m->ncomps; k++) {
		hilo_comp *c = ctx->m->comps[k];
		/* a rewrite can expose another (gte of a tuple that replaced a
		 * tuple); a few rounds reach the fixed point */
		for (int round = 0; round < 8 && simplify_comp(ctx, c); round++)
			changed = true;
	}
	return changed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
