/* test-callee-effect-dropped: point a call at a clone of its callee that
 * lacks the callee's outfeed. A deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a pass that specializes a callee for one call site
 * (as dynamic-slice-mover clones a shared body) and, in the clone, drops
 * an instruction it takes for dead because nothing reads its token. The
 * call's result is the same; the host no longer receives the value.
 *
 * Validator hole it probes: a removed call whose callee had an effect
 * counted as "carried" by any new instruction of the same kind, so the
 * clone's call stood for the old one and this was proved. Effects are
 * events (src/check/events.c): the outfeed is one the module no longer
 * performs. --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/effects_callee_effect_dropped.hlo). Never in a
 * pipeline; only an explicit --passes= runs it.
 */
#include "planted.h"

hilo_pass_result hilo_pass_test_callee_effect_dropped(hilo_pass_ctx *ctx) /* not a private helper copy */
{
	hilo_module *m = ctx->m;
	for (uint32_t k = 0; k < m->ncomps; k++) {
		hilo_comp *c = m->comps[k];
		for (hilo_instr *i = c->first; i; i = i->next) {
			if (i->op != HILO_OP_CALL || hilo_instr_ncalled(i) != 1)
				continue;
			hilo_comp *callee = hilo_instr_called(i)[0];
			bool has = false;
			for (hilo_instr *q = callee->first; q && !has; q = q->next)
				has = q->op == HILO_OP_OUTFEED;
			if (!has)
				continue;
			const char *nm = hilo_arena_printf(m->arena, "%s.specialized", callee->name);
			for (int sfx = 1; hilo_module_find_comp(m, nm); sfx++)
				nm = hilo_arena_printf(m->arena, "%s.specialized.%d", callee->name, sfx);
			hilo_comp *cl = hilo_comp_clone(m, callee, nm);
			if (!cl || !hilo_plant_drop_outfeed(m, cl))
				return HILO_PASS_UNCHANGED;
			hilo_module_add_comp(m, cl, c);
			hilo_instr_called(i)[0] = cl;
			ctx->rewrites++;
			hilo_remark(ctx, c, i, "rewritten",
				"test only: %s calls %s, a clone of %s without its outfeed (a deliberately wrong rewrite)",
				i->name, cl->name, callee->name);
			return HILO_PASS_CHANGED;
		}
	}
	hilo_remark(ctx, m->entry, NULL, "declined", "no call of a computation with an outfeed");
	return HILO_PASS_UNCHANGED;
}
