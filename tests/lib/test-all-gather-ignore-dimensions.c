/* test-all-gather-ignore-dimensions: neuron_all_gather_duplicate_remover
 * merging all-gathers while ignoring the gather dimensions. A deliberately
 * WRONG rewrite, testing only.
 *
 * The bug it plants: seed 004's key has no gather dimension; it relies on
 * the output shape to encode it ("GOTCHA -- the gather dimension is NOT a
 * key column"). For the gather being keyed that holds: gathering one
 * operand along another dimension gives another shape (unless a group has
 * a single device, where the dimension does not matter). But the seed's
 * walk also tunnels through the all-gathers between the keyed gather and
 * the parameter without keying them, so their dimensions are ignored
 * altogether: with p[4,4] on 2 devices, ag(ag(p, dim 0), dim 1) and
 * ag(ag(p, dim 1), dim 0) are both [8,8], same parameter, same groups, and
 * get merged. The real pass's own code runs with seed_key as its
 * configuration writer (src/transforms/variants.h), which leaves the dimensions and the crossed gathers'
 * configuration out of the key exactly as the seed does.
 *
 * Why it must be caught: on 2 devices holding p0 and p1 the first gather
 * is [[p0,p0],[p1,p1]] and the second [[p0,p1],[p0,p1]] (4x4 blocks): they
 * deliver different values whenever p0 != p1. The evaluator models
 * collectives as uninterpreted functions of (opcode, attributes, operand
 * values), which tells the inner gathers apart, so --check-equivalence
 * must fail (exit 4) naming this pass
 * (tests/lit/test-passes/all_gather_ignore_dimensions.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "planted.h"

/* the bug: seed 004's key, the candidate's configuration without its
 * gather dimensions and nothing of the all-gathers the walk crosses */
static void seed_key(hilo_buf *b, const hilo_instr *ag, bool crossed)
{
	if (!crossed)
		hilo_ag_put_config(b, ag, false);
}

hilo_pass_result hilo_pass_test_all_gather_ignore_dimensions(hilo_pass_ctx *ctx)
{
	return hilo_ag_dedup_run(ctx, seed_key);
}
