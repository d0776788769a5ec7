/* test-dus-concat-iteration-order: neuron_repeated_dus_to_concat putting
 * the updates in iterationidx= order instead of offset order. A
 * deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: seed 000's summary of #108 ("recovers the per-slab
 * order from an iterationidx= tag") taken literally: once a chain is known
 * to tile its buffer exactly, the concatenate lists the updates by their
 * iterationidx= token rather than by their clamped offsets. An unrolled
 * loop that writes slabs back to front (offset = (n-1-k) * len, common in
 * reversed scans and in KV caches filled from the end) then comes out
 * reversed. The real pass's code runs (chain collection, known-start
 * rules, clamping, the exact-tiling check, call hoisting, clean-up) with
 * iterationidx= as the key the tiled links are sorted by just before the
 * concatenate is built (variants.h).
 *
 * Why it must be caught: when the iteration order differs from the offset
 * order, slab j of the concatenate is another update than the one the
 * chain wrote at offset j, so the buffer's contents change for any input
 * whose updates differ. --check-equivalence must fail (exit 4) naming this
 * pass (tests/lit/test-passes/dus_concat_iteration_order.hlo).
 * Never in a pipeline; only an explicit --passes= runs it.
 */
#include "planted.h"

static int64_t iteration_key(int64_t offset, int64_t iter)
{
	return iter;
}

hilo_pass_result hilo_pass_test_dus_concat_iteration_order(hilo_pass_ctx *ctx)
{
	return hilo_dus_concat_run(ctx, iteration_key);
}
