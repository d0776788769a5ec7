/* Unit tests for the run state (include/hilo/pass.h): proven start
 * indices keyed by instruction id (id 0 included), clearing, overwriting,
 * a NULL run (a pass run outside the driver proves nothing), and the
 * assumed-equality list. */
#include "check.h"

#include "hilo/pass.h"

int main(void)
{
	hilo_module *m = hilo_module_create("t");
	hilo_shape s = {.type = HILO_T_F32};
	hilo_instr *a = hilo_instr_create(m, HILO_OP_CONSTANT, &s, "a");
	hilo_instr *b = hilo_instr_create(m, HILO_OP_CONSTANT, &s, "b");
	a->id = 0; /* id 0 is a valid key */
	hilo_pass_ctx ctx = {.m = m, .pass = "p"};
	int64_t out[4] = {0};

	/* without a run state nothing is recorded */
	int64_t v[3] = {1, 2, 3};
	hilo_proven_starts_set(&ctx, a, v, 3);
	CHECK_EQ_I64(hilo_proven_starts(&ctx, a, out, 4), -1);
	hilo_rewrite_assume(&ctx, a, b, "x");
	size_t na;
	CHECK(hilo_run_assumed(NULL, &na) == NULL && na == 0);

	ctx.run = hilo_run_state_create(m->arena);
	CHECK(ctx.run != NULL);
	CHECK_EQ_I64(hilo_proven_starts(&ctx, a, out, 4), -1);
	hilo_proven_starts_set(&ctx, a, v, 3);
	CHECK_EQ_I64(hilo_proven_starts(&ctx, a, out, 4), 3);
	CHECK_EQ_I64(out[0], 1);
	CHECK_EQ_I64(out[2], 3);
	CHECK_EQ_I64(hilo_proven_starts(&ctx, b, out, 4), -1);
	/* overwrite, a rank-0 fact, then clear */
	int64_t w[1] = {7};
	hilo_proven_starts_set(&ctx, a, w, 1);
	CHECK_EQ_I64(hilo_proven_starts(&ctx, a, out, 4), 1);
	CHECK_EQ_I64(out[0], 7);
	hilo_proven_starts_set(&ctx, b, NULL, 0);
	CHECK_EQ_I64(hilo_proven_starts(&ctx, b, out, 4), 0);
	hilo_proven_starts_clear(&ctx, a);
	CHECK_EQ_I64(hilo_proven_starts(&ctx, a, out, 4), -1);
	hilo_proven_starts_set(&ctx, a, v, 2);
	CHECK_EQ_I64(hilo_proven_starts(&ctx, a, out, 1), 2); /* count, even past max */
	CHECK_EQ_I64(out[0], 1);

	for (int k = 0; k < 20; k++)
		hilo_rewrite_assume(&ctx, a, b, k ? NULL : "kernels assumed equal");
	const hilo_assumed_eq *e = hilo_run_assumed(ctx.run, &na);
	CHECK_EQ_I64(na, 20);
	CHECK_EQ_I64(e[0].replaced_id, 0);
	CHECK_EQ_I64(e[0].by_id, b->id);
	CHECK_STR(e[0].pass, "p");
	CHECK_STR(e[0].why, "kernels assumed equal");
	CHECK(e[19].why == NULL);

	hilo_run_state_destroy(ctx.run);
	hilo_module_destroy(m);
	return CHECK_DONE();
}
