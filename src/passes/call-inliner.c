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
 * Metadata: a clone's op_name N becomes "P/N" where P is the call's
 * op_name, unless N already starts with "P/", P is empty, or the result
 * would exceed 1024 characters (XLA's rule). Index tokens (docs/tokens.md:
 * dsidxnow= / dusidxnow= / iterationidx=) travel with the op_name text; an
 * op_name that starts with a token gets "P," in front instead of "P/" so
 * the token stays readable.
 *
 * Declined (with a remark): calls with a backend_config, with frontend
 * attribute inlineable="false" or "xla_late", calls with control
 * predecessors or successors, calls in or to computations on a non-main
 * execution thread, and calls whose operand count does not match the
 * callee's parameters.
 *
 * Why it is sound: a call evaluates its callee on its operands; the copy
 * computes the same values from the same operands in the same order
 * constraints (control edges inside the body are kept).
 *
 * Seed: none (XLA semantics, reference/xla-equivalents.md item 5); seed
 * 003's neuron-dus-ds-index-simplifier inlines calls in a clone.
 */
#include "hilo/pass.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_OP_NAME = 1024 };

static bool starts_with_token(const char *s)
{
	return !strncmp(s, "dsidxnow=", 9) || !strncmp(s, "dusidxnow=", 10) ||
		!strncmp(s, "iterationidx=", 13);
}

static void prefix_op_name(hilo_module *m, hilo_instr *clone, const char *prefix)
{
	const char *name = hilo_instr_op_name(m, clone);
	if (!name || !*name)
		return;
	size_t pl = strlen(prefix), nl = strlen(name);
	if (nl > pl && !strncmp(name, prefix, pl) && name[pl] == '/')
		return; /* already prefixed */
	if (pl + 1 + nl > MAX_OP_NAME)
		return;
	char *buf = hilo_heap_alloc(m->arena, pl + nl + 2);
	if (!buf)
		return;
	memcpy(buf, prefix, pl);
	buf[pl] = starts_with_token(name) ? ',' : '/';
	memcpy(buf + pl + 1, name, nl + 1);
	hilo_instr_set_op_name(m, clone, buf);
	hilo_heap_free(m->arena, buf);
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
	if (call->nctrl_preds || call->nctrl_succs)
		return "call has control dependencies";
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

static void inline_call(hilo_pass_ctx *ctx, hilo_comp *c, hilo_instr *call, hilo_comp *callee)
{
	hilo_module *m = ctx->m;
	const char *prefix = hilo_instr_op_name(m, call);
	for (hilo_instr *i = callee->first; i; i = i->next)
		i->aux = NULL;
	for (uint32_t k = 0; k < callee->nparams; k++)
		callee->params[k]->aux = call->operands[k];
	uint32_t n;
	hilo_instr **order = hilo_comp_post_order(m, callee, &n);
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *i = order[k];
		if (i->op == HILO_OP_PARAMETER)
			continue;
		hilo_instr *cl = hilo_instr_clone(m, i, NULL);
		for (uint32_t j = 0; j < i->noperands; j++)
			hilo_instr_add_operand(m, cl, i->operands[j]->aux);
		if (prefix && *prefix)
			prefix_op_name(m, cl, prefix);
		hilo_comp_insert_before(c, call, cl);
		i->aux = cl;
	}
	for (uint32_t k = 0; k < n; k++) {
		hilo_instr *i = order[k];
		if (i->op == HILO_OP_PARAMETER)
			continue;
		for (uint32_t j = 0; j < i->nctrl_preds; j++) {
			hilo_instr *p = i->ctrl_preds[j];
			if (p->op != HILO_OP_PARAMETER && p->aux)
				hilo_instr_add_ctrl_pred(m, i->aux, p->aux);
		}
	}
	hilo_instr *result = callee->root->aux;
	hilo_remark(ctx, c, call, "rewritten", "inlined %s (%u instructions)", callee->name, n);
	hilo_instr_replace_all_uses(m, call, result);
	hilo_comp_remove(c, call);
	ctx->rewrites++;
}

hilo_pass_result hilo_pass_call_inliner(hilo_pass_ctx *ctx)
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
			if (i->op != HILO_OP_CALL || i->ncalled != 1)
				continue;
			hilo_comp *callee = i->called[0];
			const char *why = decline_reason(i, callee);
			if (why) {
				hilo_remark(ctx, c, i, "declined", "%s", why);
				continue;
			}
			inline_call(ctx, c, i, callee);
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
