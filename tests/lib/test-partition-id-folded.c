/* test-partition-id-folded: partition-id folded to the constant 0. A
 * deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a constant folder that evaluates partition-id as the
 * evaluator does on one device (0). In the entry computation of a module
 * with more than one partition, the first scalar partition-id is replaced
 * by a constant 0 of its type. Wrong: every partition but the first reads
 * its own id.
 *
 * Validator hole it probes: a random test evaluated partition-id as 0 on
 * every input set, so the rewrite was "tested" (issue 30). Per-device
 * values are now tested on every device of the partition x replica grid
 * (src/check/records.c, cone_test.c). --check-equivalence must fail (exit
 * 4) naming this pass (tests/lit/test-passes/per_device_ids.hlo). Never in
 * a pipeline; only an explicit --passes= runs it.
 */
#include "hilo/eval.h"
#include "hilo/pass.h"

#include <string.h>

hilo_pass_result hilo_pass_test_partition_id_folded(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	bool grid = false; /* more than one partition: else partition-id is 0 */
	for (uint32_t k = 0; k < m->nattrs; k++)
		if (!strcmp(m->attrs[k].key, "num_partitions") && strcmp(m->attrs[k].value, "1"))
			grid = true;
	for (hilo_instr *i = c && grid ? c->first : NULL; i; i = i->next) {
		if (i->op != HILO_OP_PARTITION_ID || i->shape->rank != 0 || !i->nusers)
			continue;
		hilo_instr *z = hilo_instr_create(m, HILO_OP_CONSTANT, i->shape, NULL);
		hilo_literal *l = hilo_literal_create(m, i->shape);
		if (!z || !l)
			return HILO_PASS_UNCHANGED;
		z->u.literal = l;
		hilo_comp_insert_before(c, i, z);
		hilo_instr_replace_all_uses(m, i, z);
		ctx->rewrites++;
		hilo_remark(ctx, c, z, "rewritten", "test only: %s folded to 0 (a deliberately wrong "
			"rewrite)", i->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no partition-id");
	return HILO_PASS_UNCHANGED;
}
