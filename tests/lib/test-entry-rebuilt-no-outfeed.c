/* test-entry-rebuilt-no-outfeed: rebuild the entry computation under a
 * new name without its outfeed. A deliberately WRONG rewrite, testing
 * only.
 *
 * The bug it plants: a pass that rebuilds a computation from scratch (a
 * new signature, a cleaned copy) and copies only what the root reaches,
 * so an effect whose token nothing reads is left behind. Every returned
 * value is the same; the host no longer receives the value.
 *
 * Validator hole it probes: effects were named by source position and
 * computation, so an entry under a new name was matched by its result
 * alone and proved. Effects are events (src/check/events.c), compared
 * whatever computation performs them. --check-equivalence must fail
 * (exit 4) naming this pass
 * (tests/lit/test-passes/effects_entry_rebuilt_no_outfeed.hlo). Never in
 * a pipeline; only an explicit --passes= runs it.
 */
#include "planted.h"

hilo_pass_result hilo_pass_test_entry_rebuilt_no_outfeed(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *e = m->entry;
	bool has = false;
	for (hilo_instr *q = e ? e->first : NULL; q && !has; q = q->next)
		has = q->op == HILO_OP_OUTFEED;
	if (!has) {
		hilo_remark(ctx, e, NULL, "declined", "no outfeed in the entry computation");
		return HILO_PASS_UNCHANGED;
	}
	const char *nm = hilo_arena_printf(m->arena, "%s.rebuilt", e->name);
	for (int sfx = 1; hilo_module_find_comp(m, nm); sfx++)
		nm = hilo_arena_printf(m->arena, "%s.rebuilt.%d", e->name, sfx);
	hilo_comp *cl = hilo_comp_clone(m, e, nm);
	if (!cl || !hilo_plant_drop_outfeed(m, cl))
		return HILO_PASS_UNCHANGED;
	hilo_module_add_comp(m, cl, e);
	if (!hilo_module_set_entry(m, cl))
		return HILO_PASS_UNCHANGED;
	hilo_module_remove_comp(m, e);
	ctx->rewrites++;
	hilo_remark(ctx, cl, NULL, "rewritten",
		"test only: the entry rebuilt as %s without its outfeed (a deliberately wrong rewrite)", cl->name);
	return HILO_PASS_CHANGED;
}
