/* call-inliner: inlines `call` instructions (XLA's CallInliner, name
 * "call-inliner").
 *
 * Rewrites: each call(a0..an), to_apply=F, becomes a copy of F's body in
 * the caller: F's parameter k is replaced by ak, every other instruction is
 * cloned (fresh unique names, attributes, metadata and called computations
 * kept, control edges inside F relayed between the clones), and the
 * call's users use the clone of F's root. Computations are visited callees
 * first, so a callee's own calls are already inlined when it is copied.
 * Afterwards dce runs, as in XLA, so callees nothing calls any more go.
 *
 * Metadata (XLA's PropagateCallMetadata::UpdateOpName): with P the call's
 * op_name without a trailing '/', a clone's op_name N (leading and
 * trailing '/' stripped) becomes "P/N"; an empty or absent N becomes P;
 * N is kept when it already starts with P, when P is empty, or when the
 * result would reach 1024 characters. The same prefix goes, recursively,
 * onto every instruction of the computations called by control-flow
 * clones (while condition and body, conditional branches, async ops; not
 * embedded computations such as a reduce's to_apply or a fusion), in place
 * as XLA does. Index tokens (docs/tokens.md: dsidxnow= / dusidxnow= /
 * iterationidx=) travel with the op_name text; an op_name that starts with
 * a token gets "P," in front instead of "P/" so the token stays readable.
 *
 * Frontend attributes (XLA's CallInliner::Inline): MUST_FUSE (else
 * MAXIMAL_FUSE) and mosaic_fusion_group of the call are set on every
 * fusible clone (not parameters, while, conditional, call, domain or
 * side-effecting instructions), overwriting an inner value; the call's
 * other frontend attributes are not carried.
 *
 * Control dependencies (XLA's SubcomputationInsertionVisitor): every clone
 * gets the call's control predecessors, and the call's control successors
 * get the clone of the callee's root and every clone that performs an
 * effect (an outfeed outside the root's cone happened before the call's
 * successors; waiting for the root alone would let them overtake it:
 * docs/proof.md, "Effects are events"); when that root is a parameter (the
 * replacement is one of the call's operands) the successors also get the
 * call's predecessors directly, so nothing ordered after them by the call
 * loses that order.
 *
 * Declined (with a remark): calls with a backend_config, with frontend
 * attribute inlineable="false" or "xla_late", calls in or to computations
 * on a non-main execution thread, and calls whose operand count does not
 * match the callee's parameters.
 *
 * Why it is sound: a call evaluates its callee on its operands; the copy
 * computes the same values from the same operands in the same order
 * constraints (control edges inside the body are kept, and every edge of
 * the call still orders the same effects). Metadata and the fusion
 * frontend attributes are hints, not semantics.
 *
 * Seed: none (XLA semantics, reference/xla-equivalents.md item 5); seed
 * 003's neuron-dus-ds-index-simplifier inlines calls in a clone.
 */
#include "hilo/pass.h"
#include "variants.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_OP_NAME = 1024 };

static bool starts_with_token(const char *s)
{
	return !strncmp(s, "dsidxnow=", 9) || !strncmp(s, "dusidxnow=", 10) ||
		!strncmp(s, "iterationidx=", 13);
}

/* XLA's UpdateOpName: the prefix without a trailing '/', the name without
 * a leading or trailing '/'; a name that already starts with the prefix, or
 * a result of 1024 characters or more, is left alone; an empty name
 * becomes the prefix. */
static void prefix_op_name(hilo_module *m, hilo_instr *i, const char *prefix)
{
	size_t pl = strlen(prefix);
	while (pl && prefix[pl - 1] == '/')
		pl--;
	if (!pl)
		return;
	const char *name = hilo_instr_op_name(m, i);
	if (!name)
		name = "";
	while (*name == '/')
		name++;
	size_t nl = strlen(name);
	while (nl && name[nl - 1] == '/')
		nl--;
	if (nl >= pl && !strncmp(name, prefix, pl))
		return; /* already prefixed */
	if (pl + nl >= MAX_OP_NAME)
		return;
	char *buf = hilo_heap_alloc(m->arena, pl + nl + 2);
	if (!buf)
		return;
	memcpy(buf, prefix, pl);
	size_t o = pl;
	if (nl) {
		buf[o++] = starts_with_token(name) ? ',' : '/';
		memcpy(buf + o, name, nl);
		o += nl;
	}
	buf[o] = 0;
	hilo_instr_set_op_name(m, i, buf);
	hilo_heap_free(m->arena, buf);
}

/* Control-flow callees (while, conditional, async ops; not call, whose
 * callees are inlined in turn; not embedded computations such as a
 * reduce's to_apply or a fusion) share the prefix, recursively, as XLA's
 * PropagateCallMetadata does. Each computation once per inlined call. */
static void prefix_called(hilo_module *m, const hilo_instr *i, const char *prefix,
	hilo_ptrmap *seen)
{
	switch (i->op) {
	case HILO_OP_WHILE:
	case HILO_OP_CONDITIONAL:
	case HILO_OP_ASYNC_START:
	case HILO_OP_ASYNC_UPDATE:
	case HILO_OP_ASYNC_DONE:
		break;
	default:
		return;
	}
	for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++) {
		hilo_comp *cc = hilo_instr_called(i)[k];
		if (hilo_ptrmap_get(seen, cc))
			continue;
		hilo_ptrmap_put(seen, cc, cc);
		for (hilo_instr *j = cc->first; j; j = j->next) {
			prefix_called(m, j, prefix, seen);
			prefix_op_name(m, j, prefix);
		}
	}
}

/* XLA's HloInstruction::IsFusible, as far as hilo models it. */
static bool fusible(const hilo_module *m, const hilo_instr *i)
{
	switch (i->op) {
	case HILO_OP_DOMAIN:
	case HILO_OP_PARAMETER:
	case HILO_OP_WHILE:
	case HILO_OP_CONDITIONAL:
	case HILO_OP_CALL:
		return false;
	case HILO_OP_FUSION:
	case HILO_OP_MAP:
	case HILO_OP_REDUCE:
	case HILO_OP_REDUCE_WINDOW:
		return true;
	default:
		return !hilo_instr_has_side_effect(m, i);
	}
}

/* Why a call cannot be inlined, or NULL. */
static const char *decline_reason(const hilo_instr *call, const hilo_comp *callee)
{
	char v[64];
	if (hilo_instr_attr(call, HILO_A_BACKEND_CONFIG))
		return "call has a backend_config";
	if (hilo_instr_frontend_attr(call, "inlineable", v, sizeof v) &&
	    (!strcmp(v, "false") || !strcmp(v, "xla_late")))
		return "call is marked inlineable=false or xla_late";
	if (call->parent->execution_thread || callee->execution_thread)
		return "call on a non-main execution thread";
	if (callee->nparams != call->noperands)
		return "operand count differs from the callee's parameter count";
	for (uint32_t k = 0; k < callee->nparams; k++)
		if (!callee->params[k])
			return "callee has a missing parameter";
	if (!callee->root)
		return "callee has no root";
	if (callee == call->parent)
		return "recursive call";
	return NULL;
}

static void inline_call(hilo_pass_ctx *ctx, hilo_comp *c, hilo_instr *call, hilo_comp *callee,
	hilo_inline_waits_fn waits)
{
	hilo_module *m = ctx->m;
	const char *prefix = hilo_instr_op_name(m, call);
	/* the fusion attributes XLA carries from the call to every fusible
	 * inlined instruction (MUST_FUSE, else MAXIMAL_FUSE; and
	 * mosaic_fusion_group), overwriting inner values */
	char fuse[256], group[256];
	const char *fuse_key = hilo_instr_frontend_attr(call, "MUST_FUSE", fuse, sizeof fuse)
		? "MUST_FUSE"
		: hilo_instr_frontend_attr(call, "MAXIMAL_FUSE", fuse, sizeof fuse) ? "MAXIMAL_FUSE"
		                                                                   : NULL;
	bool has_group = hilo_instr_frontend_attr(call, "mosaic_fusion_group", group, sizeof group);
	/* callee instruction -> its clone (parameters -> the call's operands),
	 * in the pass run's scratch memory */
	hilo_ptrmap seen, map;
	hilo_ptrmap_init_in(&seen, hilo_pass_scratch(ctx));
	hilo_ptrmap_init_in(&map, hilo_pass_scratch(ctx));
	for (uint32_t k = 0; k < callee->nparams; k++)
		hilo_ptrmap_put(&map, callee->params[k], call->operands[k]);
	uint32_t n;
	hilo_instr **order = hilo_comp_post_order(m, callee, &n);
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *i = order[k];
		if (i->op == HILO_OP_PARAMETER)
			continue;
		hilo_instr *cl = hilo_instr_clone(m, i, NULL);
		for (uint32_t j = 0; j < i->noperands; j++)
			hilo_instr_add_operand(m, cl, hilo_ptrmap_get(&map, i->operands[j]));
		if (prefix && *prefix) {
			prefix_called(m, cl, prefix, &seen);
			prefix_op_name(m, cl, prefix);
		}
		if (fusible(m, cl)) {
			if (fuse_key)
				hilo_instr_set_frontend_attr(m, cl, fuse_key, fuse);
			if (has_group)
				hilo_instr_set_frontend_attr(m, cl, "mosaic_fusion_group", group);
		}
		hilo_comp_insert_before(c, call, cl);
		hilo_ptrmap_put(&map, i, cl);
	}
	hilo_ptrmap_free(&seen);
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *i = order[k];
		if (i->op == HILO_OP_PARAMETER)
			continue;
		hilo_instr *cl = hilo_ptrmap_get(&map, i);
		for (uint32_t j = 0; j < hilo_instr_nctrl_preds(i); j++) {
			hilo_instr *p = hilo_instr_ctrl_preds(i)[j];
			hilo_instr *pc = p->op != HILO_OP_PARAMETER ? hilo_ptrmap_get(&map, p) : NULL;
			if (pc)
				hilo_instr_add_ctrl_pred(m, cl, pc);
		}
		/* every inlined instruction waits for what the call waited for */
		for (uint32_t j = 0; j < hilo_instr_nctrl_preds(call); j++)
			hilo_instr_add_ctrl_pred(m, cl, hilo_instr_ctrl_preds(call)[j]);
	}
	hilo_instr *result = hilo_ptrmap_get(&map, callee->root);
	/* what waited for the call waits for every inlined effect */
	hilo_ptrmap effmemo;
	hilo_ptrmap_init_in(&effmemo, hilo_pass_scratch(ctx));
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *cl = order[k]->op != HILO_OP_PARAMETER ? hilo_ptrmap_get(&map, order[k]) : NULL;
		if (!cl || cl == result || !waits(m, cl, &effmemo))
			continue;
		for (uint32_t j = 0; j < hilo_instr_nctrl_succs(call); j++)
			hilo_instr_add_ctrl_pred(m, hilo_instr_ctrl_succs(call)[j], cl);
	}
	hilo_ptrmap_free(&effmemo);
	hilo_ptrmap_free(&map);
	/* what waited for the call waits for the inlined root; when the root
	 * is one of the call's operands (the callee returns a parameter) also
	 * for the call's predecessors, which nothing inlined carries then */
	bool root_inlined = callee->root->op != HILO_OP_PARAMETER;
	for (uint32_t j = 0; j < hilo_instr_nctrl_succs(call); j++) {
		hilo_instr *s = hilo_instr_ctrl_succs(call)[j];
		hilo_instr_add_ctrl_pred(m, s, result);
		if (!root_inlined)
			for (uint32_t q = 0; q < hilo_instr_nctrl_preds(call); q++)
				hilo_instr_add_ctrl_pred(m, s, hilo_instr_ctrl_preds(call)[q]);
	}
	hilo_instr_remove_ctrl_deps(call);
	hilo_remark(ctx, c, call, "rewritten", "inlined %s (%u instructions)", callee->name, n);
	hilo_instr_replace_all_uses(m, call, result);
	hilo_comp_remove(c, call);
	ctx->rewrites++;
}

/* The sound variant: a control successor of the call waits for every
 * inlined clone that performs an effect. */
static bool waits_for_effects(const hilo_module *m, const hilo_instr *cl, hilo_ptrmap *memo)
{
	return hilo_instr_has_side_effect_deep(m, cl, memo);
}

hilo_pass_result hilo_pass_call_inliner(hilo_pass_ctx *ctx)
{
	return hilo_inliner_run(ctx, waits_for_effects);
}

hilo_pass_result hilo_inliner_run(hilo_pass_ctx *ctx, hilo_inline_waits_fn waits)
{
	hilo_module *m = ctx->m;
	uint32_t nc;
	hilo_comp **comps = hilo_module_comp_post_order(m, &nc);
	bool changed = false;
	for (uint32_t k = 0; k < nc; k++) {
		hilo_comp *c = comps[k];
		hilo_instr *next;
		for (hilo_instr *i = c->first; i; i = next) {
			next = i->next;
			if (i->op != HILO_OP_CALL || hilo_instr_ncalled(i) != 1)
				continue;
			hilo_comp *callee = hilo_instr_called(i)[0];
			const char *why = decline_reason(i, callee);
			if (why) {
				hilo_remark(ctx, c, i, "declined", "%s", why);
				continue;
			}
			inline_call(ctx, c, i, callee, waits);
			changed = true;
		}
	}
	if (changed) {
		/* XLA runs HloDCE after inlining: dead clones and callees go */
		uint64_t rewrites = ctx->rewrites;
		const char *pass = ctx->pass;
		hilo_pass_dce(ctx);
		ctx->rewrites = rewrites;
		ctx->pass = pass;
	}
	return changed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
