/* Unit tests for the index-aware random inputs of the equivalence check
 * (hilo_eval_random_args / hilo_eval_index_sweep, issue 12 item 6): the
 * check must see index bugs. The module of issue 12 item 3, wrongly
 * rewritten to `a` (what trusting its stale "dsidxnow=0" token gave), must
 * fail hilo_check_equivalence on every seed; so must variants with other
 * index types, two dimensions and a range too large to sweep. */
#include "check.h"

#include "hilo/eval.h"
#include "hilo/float.h"

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

/* Checks that `wrong` differs from `right` on every seed in 0..19 (one
 * requested input set each; the sweep may raise it), and that `right`
 * agrees with itself. */
static void expect_caught(const char *right, const char *wrong, const char *what)
{
	hilo_module *a = parse(right), *b = parse(wrong), *a2 = parse(right);
	CHECK(a && b && a2);
	if (!a || !b || !a2)
		return;
	int caught = 0;
	for (uint64_t seed = 0; seed < 20; seed++) {
		hilo_equiv_report r;
		hilo_check_equivalence(a, b, 1, seed, NULL, &r);
		caught += r.status == 1;
		hilo_check_equivalence(a, a2, 1, seed, NULL, &r);
		CHECK_EQ_I64(r.status, 0);
	}
	if (caught != 20)
		fprintf(stderr, "%s: caught on %d of 20 seeds\n", what, caught);
	CHECK_EQ_I64(caught, 20);
	hilo_module_destroy(a);
	hilo_module_destroy(b);
	hilo_module_destroy(a2);
}

#define ITEM3_HEAD(T) \
	"HloModule m\n\nENTRY main {\n" \
	"  a = f32[2] parameter(0)\n" \
	"  b = f32[2] parameter(1)\n" \
	"  i = " T "[] parameter(2)\n"

static const char *item3 =
	ITEM3_HEAD("s32")
	"  cat = f32[4] concatenate(a, b), dimensions={0}\n"
	"  ROOT ds = f32[2] dynamic-slice(cat, i), dynamic_slice_sizes={2}, metadata={op_name=\"dsidxnow=0\"}\n"
	"}\n";
static const char *item3_wrong =
	ITEM3_HEAD("s32")
	"  ROOT r = f32[2] copy(a)\n"
	"}\n";
static const char *item3_u8 =
	ITEM3_HEAD("u8")
	"  cat = f32[4] concatenate(a, b), dimensions={0}\n"
	"  ROOT ds = f32[2] dynamic-slice(cat, i), dynamic_slice_sizes={2}\n"
	"}\n";
static const char *item3_u8_wrong =
	ITEM3_HEAD("u8")
	"  ROOT r = f32[2] copy(a)\n"
	"}\n";
/* wrong the other way: b is right only for i >= 2 */
static const char *item3_s8_wrong_b =
	ITEM3_HEAD("s8")
	"  ROOT r = f32[2] copy(b)\n"
	"}\n";
static const char *item3_s8 =
	ITEM3_HEAD("s8")
	"  cat = f32[4] concatenate(a, b), dimensions={0}\n"
	"  ROOT ds = f32[2] dynamic-slice(cat, i), dynamic_slice_sizes={2}\n"
	"}\n";

/* two dimensions, starts from two parameters; the window is operand 1
 * only when i >= 3 and j == 0 */
static const char *two_d =
	"HloModule m\n\nENTRY main {\n"
	"  a = f32[3,4] parameter(0)\n"
	"  b = f32[3,4] parameter(1)\n"
	"  i = s64[] parameter(2)\n"
	"  j = s32[] parameter(3)\n"
	"  cat = f32[6,4] concatenate(a, b), dimensions={0}\n"
	"  ROOT ds = f32[3,4] dynamic-slice(cat, i, j), dynamic_slice_sizes={3,4}\n"
	"}\n";
static const char *two_d_wrong =
	"HloModule m\n\nENTRY main {\n"
	"  a = f32[3,4] parameter(0)\n"
	"  b = f32[3,4] parameter(1)\n"
	"  i = s64[] parameter(2)\n"
	"  j = s32[] parameter(3)\n"
	"  ROOT r = f32[3,4] copy(b)\n"
	"}\n";

/* a range too large to sweep (0..300): drawn from the range */
/* s32 data: with f32, seed 2 fills a and b with two different NaNs (the
 * validator's draws, issue 30), which the module check takes as equal */
static const char *wide =
	"HloModule m\n\nENTRY main {\n"
	"  a = s32[300] parameter(0)\n"
	"  b = s32[300] parameter(1)\n"
	"  i = s32[] parameter(2)\n"
	"  cat = s32[600] concatenate(a, b), dimensions={0}\n"
	"  ROOT ds = s32[300] dynamic-slice(cat, i), dynamic_slice_sizes={300}\n"
	"}\n";
static const char *wide_wrong =
	"HloModule m\n\nENTRY main {\n"
	"  a = s32[300] parameter(0)\n"
	"  b = s32[300] parameter(1)\n"
	"  i = s32[] parameter(2)\n"
	"  ROOT r = s32[300] copy(b)\n"
	"}\n";

/* a DUS start through a call and arithmetic, and a select predicate */
static const char *flows =
	"HloModule m\n\n"
	"body {\n"
	"  p = (f32[8], s32[]) parameter(0)\n"
	"  buf = f32[8] get-tuple-element(p), index=0\n"
	"  k = s32[] get-tuple-element(p), index=1\n"
	"  one = s32[] constant(1)\n"
	"  k1 = s32[] add(k, one)\n"
	"  u = f32[2] constant({1, 2})\n"
	"  ROOT d = f32[8] dynamic-update-slice(buf, u, k1)\n"
	"}\n\n"
	"ENTRY main {\n"
	"  x = f32[8] parameter(0)\n"
	"  k = s32[] parameter(1)\n"
	"  c = pred[] parameter(2)\n"
	"  n = s32[] parameter(3)\n"
	"  t = (f32[8], s32[]) tuple(x, k)\n"
	"  r = f32[8] call(t), to_apply=body\n"
	"  ten = s32[] constant(10)\n"
	"  lt = pred[] compare(n, ten), direction=LT\n"
	"  s = f32[8] select(lt, r, x)\n"
	"  ROOT sel2 = f32[8] select(c, s, x)\n"
	"}\n";

static void test_ranges(void)
{
	hilo_module *m = parse(item3);
	CHECK(m != NULL);
	if (!m)
		return;
	/* [-1, 3]: 5 values */
	CHECK_EQ_I64(hilo_eval_index_sweep(m, m->entry), 5);
	int seen[5] = {0};
	for (uint64_t seed = 100; seed < 105; seed++) {
		hilo_diags d;
		hilo_diags_init(&d);
		hilo_literal **args = hilo_eval_random_args(m, m->entry, seed, 0, &d);
		CHECK(args != NULL);
		hilo_diags_free(&d);
		if (!args)
			continue;
		int64_t v = hilo_elem_get_i64(HILO_T_S32, args[2]->data, 0);
		CHECK(v >= -1 && v <= 3);
		if (v >= -1 && v <= 3)
			seen[v + 1]++;
	}
	for (int k = 0; k < 5; k++)
		CHECK_EQ_I64(seen[k], 1); /* 5 consecutive seeds sweep the range */
	hilo_module_destroy(m);

	m = parse(flows);
	CHECK(m != NULL);
	if (!m)
		return;
	/* k: DUS start range [-1, 7] through the call and the add (9 values);
	 * n: compare against 10 -> [9, 11]; c: predicate [0, 1] */
	CHECK_EQ_I64(hilo_eval_index_sweep(m, m->entry), 9);
	bool nseen[3] = {0}, cseen[2] = {0};
	for (uint64_t seed = 0; seed < 9; seed++) {
		hilo_diags d;
		hilo_diags_init(&d);
		hilo_literal **args = hilo_eval_random_args(m, m->entry, seed, 0, &d);
		hilo_diags_free(&d);
		CHECK(args != NULL);
		if (!args)
			continue;
		int64_t k = hilo_elem_get_i64(HILO_T_S32, args[1]->data, 0);
		int64_t c = hilo_elem_get_i64(HILO_T_PRED, args[2]->data, 0);
		int64_t n = hilo_elem_get_i64(HILO_T_S32, args[3]->data, 0);
		CHECK(k >= -1 && k <= 7);
		CHECK(n >= 9 && n <= 11);
		if (n >= 9 && n <= 11)
			nseen[n - 9] = true;
		cseen[c != 0] = true;
	}
	CHECK(nseen[0] && nseen[1] && nseen[2]);
	CHECK(cseen[0] && cseen[1]);
	hilo_module_destroy(m);
}

int main(void)
{
	test_ranges();
	expect_caught(item3, item3_wrong, "issue 12 item 3 (s32, wrongly rewritten to a)");
	expect_caught(item3_u8, item3_u8_wrong, "u8 index, rewritten to a");
	expect_caught(item3_s8, item3_s8_wrong_b, "s8 index, rewritten to b");
	expect_caught(two_d, two_d_wrong, "two dimensions, rewritten to b");
	expect_caught(wide, wide_wrong, "range of 301 values, rewritten to b");
	return CHECK_DONE();
}
