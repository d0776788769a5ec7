/* dce: dead code elimination (XLA's HloDCE, name "dce").
 *
 * Rewrites: removes every instruction that is dead, then every
 * computation the entry computation can no longer reach.
 *
 * Exact conditions. An instruction is removed when it
 *  - has no users and is not its computation's root,
 *  - has neither control predecessors nor control successors,
 *  - is not a parameter (parameters of non-entry computations would need
 *    every caller rewritten; entry parameters are the module's signature),
 *  - has no side effect, looking into every computation it calls
 *    (hilo_instr_has_side_effect per instruction, recursively), and
 *  - is not an asynchronous start/update/done or copy-start/done (their
 *    pairs live and die together; we never split them), and
 *  - is not a sharding annotation: a custom-call with target "Sharding"
 *    or "xla.sdy.FuncResultSharding". The annotation tells the SPMD
 *    partitioner how its operand is split, so it is part of the program
 *    even without users (issue 12: sharding annotations are never removed
 *    as dead code). XLA's HloDCE keeps it whenever its operand is live (a
 *    parameter, the root, or used elsewhere) and removes it with an
 *    operand nothing else uses; hilo keeps it in every case (and so its
 *    operand), which only removes less, and agrees with the rewrite
 *    validator, which counts a removed Sharding as a dropped effect.
 * Removing an instruction may make its operands dead; they are visited in
 * turn (a worklist, so the pass is linear in the instruction count).
 * A computation is removed when no instruction reachable from the entry
 * computation calls it (directly or through other computations).
 *
 * Why it is sound: a dead, effect-free instruction cannot influence any
 * value the program returns or any effect it performs; an unreachable
 * computation is never executed.
 *
 * Seed: none (XLA semantics, reference/xla-equivalents.md item 4); the
 * seed passes call it as their final clean-up.
 */
#include "hilo/pass.h"

#include <stdlib.h>
#include <string.h>

enum { SE_UNKNOWN = 0, SE_NO = 1, SE_YES = 2, SE_BUSY = 3 };

static bool comp_has_side_effect(hilo_module *m, hilo_comp *c, hilo_ptrmap *memo);

static bool instr_has_effect(hilo_module *m, const hilo_instr *i, hilo_ptrmap *memo)
{
	if (hilo_instr_has_side_effect(m, i))
		return true;
	for (uint32_t k = 0; k < i->ncalled; k++)
		if (comp_has_side_effect(m, i->called[k], memo))
			return true;
	return false;
}

/* Call graphs are acyclic in valid HLO; a cycle (SE_BUSY) is treated as
 * side-effecting so nothing is removed on its account. The recursion
 * depth is the call-graph depth, which is small. */
static bool comp_has_side_effect(hilo_module *m, hilo_comp *c, hilo_ptrmap *memo)
{
	uintptr_t s = (uintptr_t)hilo_ptrmap_get(memo, c);
	if (s == SE_YES || s == SE_BUSY)
		return true;
	if (s == SE_NO)
		return false;
	hilo_ptrmap_put(memo, c, (void *)(uintptr_t)SE_BUSY);
	bool se = false;
	for (hilo_instr *i = c->first; i && !se; i = i->next)
		se = instr_has_effect(m, i, memo);
	hilo_ptrmap_put(memo, c, (void *)(uintptr_t)(se ? SE_YES : SE_NO));
	return se;
}

/* A sharding annotation, never removed (see the header). */
static bool is_sharding_annotation(const hilo_instr *i)
{
	if (i->op != HILO_OP_CUSTOM_CALL)
		return false;
	const char *t = hilo_instr_get_string(i, HILO_A_CUSTOM_CALL_TARGET);
	return t && (strcmp(t, "Sharding") == 0 || strcmp(t, "xla.sdy.FuncResultSharding") == 0);
}

static bool is_async_piece(hilo_opcode op)
{
	switch (op) {
	case HILO_OP_ASYNC_START:
	case HILO_OP_ASYNC_UPDATE:
	case HILO_OP_ASYNC_DONE:
	case HILO_OP_COPY_START:
	case HILO_OP_COPY_DONE:
		return true;
	default:
		return false;
	}
}

/* Removes dead instructions of c; returns the number removed. */
static uint64_t dce_comp(hilo_pass_ctx *ctx, hilo_comp *c, hilo_ptrmap *memo)
{
	hilo_module *m = ctx->m;
	size_t cap = c->ninstrs + 1, n = 0;
	hilo_instr **work = hilo_heap_alloc(m->arena, cap * sizeof *work);
	if (!work)
		return 0;
	for (hilo_instr *i = c->first; i; i = i->next)
		if (i->nusers == 0 && i != c->root)
			work[n++] = i;
	uint64_t removed = 0;
	while (n) {
		hilo_instr *i = work[--n];
		if (i->parent != c || i->nusers || i == c->root)
			continue;
		if (i->op == HILO_OP_PARAMETER)
			continue;
		if (i->nctrl_preds || i->nctrl_succs) {
			hilo_remark(ctx, c, i, "declined", "dead but has control dependencies");
			continue;
		}
		if (is_sharding_annotation(i)) {
			hilo_remark(ctx, c, i, "declined", "dead but a sharding annotation");
			continue;
		}
		if (is_async_piece(i->op) || instr_has_effect(m, i, memo)) {
			hilo_remark(ctx, c, i, "declined", "dead but has side effects");
			continue;
		}
		/* operands may become dead: queue each once it has no users left */
		uint32_t nops = i->noperands;
		hilo_instr **ops = nops ? hilo_heap_alloc(m->arena, nops * sizeof *ops) : NULL;
		if (nops && !ops)
			break;
		for (uint32_t k = 0; k < nops; k++)
			ops[k] = i->operands[k];
		hilo_remark(ctx, c, i, "rewritten", "removed dead instruction");
		hilo_comp_remove(c, i);
		removed++;
		for (uint32_t k = 0; k < nops; k++) {
			hilo_instr *o = ops[k];
			bool seen = false;
			for (uint32_t j = 0; j < k; j++)
				seen |= ops[j] == o;
			if (!seen && o->parent == c && o->nusers == 0 && o != c->root && n < cap)
				work[n++] = o;
		}
		hilo_heap_free(m->arena, ops);
	}
	hilo_heap_free(m->arena, work);
	return removed;
}

/* Removes computations the entry cannot reach; returns how many. */
static uint64_t remove_unreachable(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	if (!m->entry)
		return 0;
	hilo_ptrmap reached;
	hilo_ptrmap_init_in(&reached, m->arena);
	hilo_comp **stack = hilo_heap_alloc(m->arena, (m->ncomps + 1) * sizeof *stack);
	if (!stack)
		return 0;
	size_t sp = 0;
	hilo_ptrmap_put(&reached, m->entry, m->entry);
	stack[sp++] = m->entry;
	while (sp) {
		hilo_comp *c = stack[--sp];
		for (hilo_instr *i = c->first; i; i = i->next)
			for (uint32_t k = 0; k < i->ncalled; k++) {
				hilo_comp *cc = i->called[k];
				if (!hilo_ptrmap_get(&reached, cc) && sp < m->ncomps) {
					hilo_ptrmap_put(&reached, cc, cc);
					stack[sp++] = cc;
				}
			}
	}
	hilo_heap_free(m->arena, stack);
	uint64_t removed = 0;
	for (uint32_t k = m->ncomps; k-- > 0;) {
		hilo_comp *c = m->comps[k];
		if (hilo_ptrmap_get(&reached, c))
			continue;
		hilo_remark(ctx, c, NULL, "rewritten", "removed unreachable computation");
		hilo_module_remove_comp(m, c);
		removed++;
	}
	hilo_ptrmap_free(&reached);
	return removed;
}

hilo_pass_result hilo_pass_dce(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_ptrmap memo;
	hilo_ptrmap_init_in(&memo, m->arena);
	uint64_t removed = 0;
	/* entry first, then the rest in print order: removing dead callers
	 * first lets their callees become unreachable */
	if (m->entry)
		removed += dce_comp(ctx, m->entry, &memo);
	for (uint32_t k = 0; k < m->ncomps; k++)
		if (m->comps[k] != m->entry)
			removed += dce_comp(ctx, m->comps[k], &memo);
	hilo_ptrmap_free(&memo);
	removed += remove_unreachable(ctx);
	ctx->rewrites += removed;
	return removed ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
