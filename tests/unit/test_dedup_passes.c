/* Unit tests for the dedup passes (seed 004): replica-group spellings
 * compared by meaning in neuron_all_gather_duplicate_remover, the pass
 * contract (rewrite counts, verifier-clean output, error status for the
 * RET_CHECKs of neuron-preprocess-kernel-duplicate-remover). The golden
 * tests live in tests/lit/<pass>/. */
#include "hilo/hlo_text.h"
#include "hilo/pass.h"
#include "hilo/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

static hilo_module *parse(const char *src)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(src, strlen(src), "t.hlo", &d);
	if (!m)
		hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return m;
}

static uint32_t count_op(const hilo_module *m, hilo_opcode op)
{
	uint32_t n = 0;
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (hilo_instr *i = m->comps[c]->first; i; i = i->next)
			n += i->op == op;
	return n;
}

/* Runs a pass; returns its result, *rewrites the count, and checks the
 * output verifies (errors excepted). */
static hilo_pass_result run(hilo_module *m, const char *pass, uint64_t *rewrites, hilo_diags *d)
{
	const hilo_pass *p = hilo_pass_find(pass);
	CHECK(p != NULL);
	if (!p)
		return HILO_PASS_ERROR;
	hilo_pass_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.m = m;
	ctx.pass = p->name;
	ctx.filename = "t.hlo";
	ctx.diags = d;
	hilo_pass_result r = p->run(&ctx);
	if (r != HILO_PASS_ERROR) {
		hilo_diags vd;
		hilo_diags_init(&vd);
		bool ok = hilo_verify(m, "t.hlo", &vd);
		if (!ok)
			hilo_diags_print(stderr, &vd);
		CHECK(ok);
		hilo_diags_free(&vd);
	}
	*rewrites = ctx.rewrites;
	return r;
}

/* Two gathers of one parameter whose groups are spelled a and b (NULL: no
 * attribute). Returns true when the pass merged them. */
static bool merged(const char *a, const char *b, int group_size)
{
	char ga[256] = "", gb[256] = "", src[2048];
	if (a)
		snprintf(ga, sizeof ga, ", replica_groups=%s", a);
	if (b)
		snprintf(gb, sizeof gb, ", replica_groups=%s", b);
	snprintf(src, sizeof src,
		"HloModule t\n\nENTRY e {\n"
		"  p = f32[2,3]{1,0} parameter(0)\n"
		"  a0 = f32[%d,3]{1,0} all-gather(p)%s, dimensions={0}\n"
		"  a1 = f32[%d,3]{1,0} all-gather(p)%s, dimensions={0}\n"
		"  ROOT r = (f32[%d,3]{1,0}, f32[%d,3]{1,0}) tuple(a0, a1)\n}\n",
		2 * group_size, ga, 2 * group_size, gb, 2 * group_size, 2 * group_size);
	hilo_module *m = parse(src);
	CHECK(m != NULL);
	if (!m)
		return false;
	hilo_diags d;
	hilo_diags_init(&d);
	uint64_t rw = 0;
	hilo_pass_result r = run(m, "neuron_all_gather_duplicate_remover", &rw, &d);
	CHECK(r != HILO_PASS_ERROR);
	uint32_t n = count_op(m, HILO_OP_ALL_GATHER);
	bool res = r == HILO_PASS_CHANGED;
	CHECK(res ? (n == 1 && rw == 1) : (n == 2 && rw == 0));
	CHECK(m->entry->root->operands[0] == m->entry->root->operands[1] || !res);
	hilo_diags_free(&d);
	hilo_module_destroy(m);
	return res;
}

static void test_group_spellings(void)
{
	/* list vs iota, both directions */
	CHECK(merged("{{0,1},{2,3}}", "[2,2]<=[4]", 2));
	CHECK(merged("[2,2]<=[4]", "{{2,3},{0,1}}", 2));
	/* transposed iota: [2,4]<=[4,2]T(1,0) = {0,2,4,6},{1,3,5,7} */
	CHECK(merged("[2,4]<=[4,2]T(1,0)", "{{0,2,4,6},{1,3,5,7}}", 4));
	CHECK(!merged("[2,4]<=[4,2]T(1,0)", "{{0,1,2,3},{4,5,6,7}}", 4));
	/* rank-3 transpose: [4,2]<=[2,2,2]T(2,1,0) = {0,4},{2,6},{1,5},{3,7} */
	CHECK(merged("[4,2]<=[2,2,2]T(2,1,0)", "{{0,4},{2,6},{1,5},{3,7}}", 2));
	CHECK(merged("[4,2]<=[2,2,2]T(2,1,0)", "{{3,7},{1,5},{2,6},{0,4}}", 2));
	CHECK(!merged("[4,2]<=[2,2,2]T(2,1,0)", "{{4,0},{2,6},{1,5},{3,7}}", 2));
	/* identity transpose equals the plain iota */
	CHECK(merged("[1,8]<=[2,4]T(0,1)", "[1,8]<=[8]", 8));
	/* order inside a group matters */
	CHECK(!merged("{{0,1}}", "{{1,0}}", 2));
	/* no attribute == {} (all devices); {} is not a concrete list */
	CHECK(merged(NULL, "{}", 2));
	CHECK(!merged("{}", "{{0,1}}", 2));
	/* unparseable or oversized groups fall back to comparing the text */
	CHECK(merged("[4611686018427387904,4]<=[4]", "[4611686018427387904,4]<=[4]", 2));
	CHECK(!merged("[4611686018427387904,4]<=[4]", "[2,2]<=[4]", 2));
	/* spaces inside the list */
	CHECK(merged("{{0, 1}, {2, 3}}", "{{0,1},{2,3}}", 2));
}

static const char *rc_src =
	"HloModule t\n\nENTRY e {\n"
	"  x = f32[1,4,2]{2,1,0} parameter(0)\n"
	"  k = f32[1,4,4]{2,1,0} custom-call(x), custom_call_target=\"AwsNeuronCustomNativeKernel\", backend_config=\"pre\"\n"
	"  ROOT n = f32[1,4,4]{2,1,0} negate(k)\n}\n";

static void test_ret_check_is_error(void)
{
	hilo_module *m = parse(rc_src);
	CHECK(m != NULL);
	if (!m)
		return;
	hilo_diags d;
	hilo_diags_init(&d);
	uint64_t rw = 0;
	CHECK(run(m, "neuron-preprocess-kernel-duplicate-remover", &rw, &d) == HILO_PASS_ERROR);
	CHECK(d.nerrors == 1);
	CHECK(d.n >= 1 && strstr(d.items[0].msg, "RET_CHECK failure: first->user_count() == 2") != NULL);
	CHECK(d.n >= 1 && d.items[0].line == 5);
	hilo_diags_free(&d);
	hilo_module_destroy(m);
}

int main(void)
{
	test_group_spellings();
	test_ret_check_is_error();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
