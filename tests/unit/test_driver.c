/* Unit tests for the pass driver (include/hilo/driver.h): statistics,
 * --verify-each failures naming the pass and the instruction, pass errors,
 * and the neuron pipeline's order. Uses throw-away passes defined here. */
#include "check.h"
#include "hilo/driver.h"

static const char *const src =
	"HloModule m\n\n"
	"ENTRY main {\n"
	"  p = f32[4] parameter(0)\n"
	"  dead = f32[4] negate(p)\n"
	"  ROOT r = f32[4] abs(p)\n"
	"}\n";

/* Breaks the IR: makes the root use an instruction that is not in the
 * computation. */
static hilo_pass_result break_ir(hilo_pass_ctx *ctx)
{
	hilo_comp *c = ctx->m->entry;
	hilo_instr *stray = hilo_instr_create(ctx->m, HILO_OP_NEGATE, c->root->shape, "stray");
	hilo_instr_add_operand(ctx->m, stray, c->params[0]);
	hilo_instr_set_operand(ctx->m, c->root, 0, stray);
	ctx->rewrites++;
	return HILO_PASS_CHANGED;
}

static hilo_pass_result noop_pass(hilo_pass_ctx *ctx)
{
	(void)ctx;
	return HILO_PASS_UNCHANGED;
}

static hilo_pass_result fail_pass(hilo_pass_ctx *ctx)
{
	hilo_diag_add(ctx->diags, HILO_SEV_ERROR, ctx->filename, 0, 0, NULL, 0, "refusing");
	return HILO_PASS_ERROR;
}

static bool any_diag_contains(const hilo_diags *d, const char *s)
{
	for (size_t k = 0; k < d->n; k++)
		if (strstr(d->items[k].msg, s))
			return true;
	return false;
}

int main(void)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(src, strlen(src), "t.hlo", &d);
	CHECK(m != NULL);
	if (!m)
		return CHECK_DONE();

	/* dce through the driver: stats say 3 -> 2, one rewrite */
	const hilo_pass *dce = hilo_pass_find("dce");
	CHECK(dce != NULL);
	hilo_driver_opts o = {.filename = "t.hlo", .verify_each = true};
	hilo_pass_stat st[2];
	CHECK_EQ_I64(hilo_run_passes(m, &dce, 1, &o, &d, st), HILO_DRIVER_OK);
	CHECK_STR(st[0].pass, "dce");
	CHECK_EQ_I64(st[0].instrs_before, 3);
	CHECK_EQ_I64(st[0].instrs_after, 2);
	CHECK_EQ_I64(st[0].rewrites, 1);
	CHECK_EQ_I64(st[0].result, HILO_PASS_CHANGED);
	CHECK(st[0].seconds >= 0);

	/* a pass that breaks the IR: verify-each names the pass and the instruction */
	hilo_pass bad = {.name = "break-ir", .description = "test", .run = break_ir};
	const hilo_pass *list[2] = {&bad, dce};
	CHECK_EQ_I64(hilo_run_passes(m, list, 2, &o, &d, st), HILO_DRIVER_VERIFY_ERROR);
	CHECK(any_diag_contains(&d, "pass 'break-ir'"));
	CHECK(any_diag_contains(&d, "'r'") || any_diag_contains(&d, "'stray'"));
	hilo_module_destroy(m);
	hilo_diags_free(&d);

	/* without verify-each the final module is still verified, naming the
	 * last pass that ran (SPEC section 3: checked before anything is written) */
	hilo_diags_init(&d);
	m = hilo_parse_text(src, strlen(src), "t.hlo", &d);
	hilo_driver_opts quiet = {.filename = "t.hlo"};
	hilo_pass noop = {.name = "noop", .description = "test", .run = noop_pass};
	const hilo_pass *list3[2] = {&bad, &noop};
	CHECK_EQ_I64(hilo_run_passes(m, list3, 2, &quiet, &d, st), HILO_DRIVER_VERIFY_ERROR);
	CHECK(any_diag_contains(&d, "last pass that ran: 'noop'"));
	CHECK(any_diag_contains(&d, "after pass 'noop'"));
	CHECK_EQ_I64(st[1].result, HILO_PASS_UNCHANGED); /* both ran */
	hilo_module_destroy(m);
	hilo_diags_free(&d);
	/* and a clean run without verify-each is OK */
	hilo_diags_init(&d);
	m = hilo_parse_text(src, strlen(src), "t.hlo", &d);
	CHECK_EQ_I64(hilo_run_passes(m, &dce, 1, &quiet, &d, st), HILO_DRIVER_OK);
	CHECK_EQ_I64(d.nerrors, 0);
	hilo_module_destroy(m);
	hilo_diags_free(&d);

	/* a pass error stops the run */
	hilo_diags_init(&d);
	m = hilo_parse_text(src, strlen(src), "t.hlo", &d);
	hilo_pass failing = {.name = "fail", .description = "test", .run = fail_pass};
	const hilo_pass *list2[2] = {&failing, dce};
	st[1].pass = NULL;
	CHECK_EQ_I64(hilo_run_passes(m, list2, 2, &o, &d, st), HILO_DRIVER_PASS_ERROR);
	CHECK(st[1].pass == NULL); /* dce did not run */
	CHECK(any_diag_contains(&d, "refusing"));
	hilo_module_destroy(m);
	hilo_diags_free(&d);

	/* the neuron pipeline: SPEC section 4 order, dce last */
	size_t n;
	const char *const *p = hilo_pipeline_passes("neuron", &n);
	CHECK(p != NULL);
	CHECK_EQ_I64(n, 8);
	if (p && n == 8) {
		CHECK_STR(p[0], "simplify-concat");
		CHECK_STR(p[2], "neuron-dus-ds-index-simplifier");
		CHECK_STR(p[7], "dce");
	}
	CHECK(hilo_pipeline_passes("nope", &n) == NULL);
	return CHECK_DONE();
}
