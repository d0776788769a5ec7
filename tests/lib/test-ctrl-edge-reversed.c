/* test-ctrl-edge-reversed: a control edge between two effects turned
 * round. A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a scheduler or a pass that rebuilds control edges
 * and swaps an edge's ends. In the entry computation, the first effect
 * (side-effecting instruction) with a control predecessor that is an
 * effect too loses its control edges, and the predecessor waits for it
 * instead. Wrong: two infeeds on one token read their items in the other
 * order (the first user now sees the second item).
 *
 * Validator hole it probes: tokens and control edges were not judged at
 * all (token values all compare equal), so this was "tested". An event's
 * term now holds the events it follows, control predecessors included
 * (src/check/events.c). --check-equivalence must fail (exit 4) naming this
 * pass (tests/lit/test-passes/effects_events.hlo). Never in a pipeline;
 * only an explicit --passes= runs it.
 */
#include "hilo/pass.h"

hilo_pass_result hilo_pass_test_ctrl_edge_reversed(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	for (hilo_instr *i = c ? c->first : NULL; i; i = i->next) {
		if (!hilo_instr_has_side_effect(m, i) || hilo_instr_nctrl_preds(i) != 1 ||
		    hilo_instr_nctrl_succs(i))
			continue;
		hilo_instr *p = hilo_instr_ctrl_preds(i)[0];
		if (!hilo_instr_has_side_effect(m, p) || hilo_instr_nctrl_preds(p))
			continue;
		hilo_instr_remove_ctrl_deps(i);
		hilo_instr_add_ctrl_pred(m, p, i);
		ctx->rewrites++;
		hilo_remark(ctx, c, i, "rewritten",
			"test only: the control edge %s -> %s reversed (a deliberately wrong rewrite)",
			p->name, i->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no control edge between two effects");
	return HILO_PASS_UNCHANGED;
}
