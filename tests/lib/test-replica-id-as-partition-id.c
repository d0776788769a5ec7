/* test-replica-id-as-partition-id: replica-id replaced by partition-id. A
 * deliberately WRONG rewrite, testing only.
 *
 * The bug it plants: a pass that treats the two device ids as one value
 * (both are 0 on one device). In the entry computation, the uses of the
 * first replica-id go to a partition-id of the same shape. Wrong on a grid
 * with several partitions and replicas: device (p, r) now reads p for r.
 *
 * Validator hole it probes: both were evaluated as 0, so the rewrite was
 * "tested" (issue 30). They are now per-device values, tested on every
 * device of the grid (src/check/records.c, cone_test.c).
 * --check-equivalence must fail (exit 4) naming this pass
 * (tests/lit/test-passes/per_device_ids.hlo). Never in a pipeline; only
 * an explicit --passes= runs it.
 */
#include "hilo/pass.h"

#include <string.h>

hilo_pass_result hilo_pass_test_replica_id_as_partition_id(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	hilo_comp *c = m->entry;
	/* on one device both ids are 0 and the rewrite is harmless */
	bool grid = false;
	for (uint32_t k = 0; k < m->nattrs; k++)
		if ((!strcmp(m->attrs[k].key, "num_partitions") || !strcmp(m->attrs[k].key, "replica_count")) &&
		    strcmp(m->attrs[k].value, "1"))
			grid = true;
	for (hilo_instr *i = c && grid ? c->first : NULL; i; i = i->next) {
		if (i->op != HILO_OP_REPLICA_ID || !i->nusers)
			continue;
		hilo_instr *p = hilo_instr_create(m, HILO_OP_PARTITION_ID, i->shape, NULL);
		hilo_comp_insert_before(c, i, p);
		hilo_instr_replace_all_uses(m, i, p);
		ctx->rewrites++;
		hilo_remark(ctx, c, p, "rewritten", "test only: %s replaced by a partition-id (a "
			"deliberately wrong rewrite)", i->name);
		return HILO_PASS_CHANGED;
	}
	hilo_remark(ctx, c, NULL, "declined", "no replica-id");
	return HILO_PASS_UNCHANGED;
}
