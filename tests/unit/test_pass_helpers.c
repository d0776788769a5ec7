/* Unit tests for the shared pass helpers of issue 19 item 5 that a lit test
 * cannot reach: side effects through called computations
 * (hilo_instr_has_side_effect_deep / hilo_comp_has_side_effect: nested
 * calls, while bodies, to_apply, memo reuse, a 20000-deep call chain
 * without recursion) and a pass run's scratch memory (hilo_pass_scratch,
 * hilo_pass_scratch_by_id, hilo_pass_scratch_release). */
#include "check.h"

#include "hilo/pass.h"

static hilo_instr *find(hilo_comp *c, const char *name)
{
	for (hilo_instr *i = c->first; i; i = i->next)
		if (!strcmp(i->name, name))
			return i;
	return NULL;
}

static hilo_module *parse(const char *src)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(src, strlen(src), "t.hlo", &d);
	hilo_diags_free(&d);
	return m;
}

static const char *text =
	"HloModule m\n"
	"\n"
	"effect {\n"
	"  p = f32[] parameter(0)\n"
	"  ROOT l = f32[] custom-call(p), custom_call_target=\"log\", custom_call_has_side_effect=true\n"
	"}\n"
	"\n"
	"calls_effect {\n"
	"  p = f32[] parameter(0)\n"
	"  ROOT c = f32[] call(p), to_apply=effect\n"
	"}\n"
	"\n"
	"pure {\n"
	"  p = f32[] parameter(0)\n"
	"  ROOT n = f32[] negate(p)\n"
	"}\n"
	"\n"
	"add {\n"
	"  a = f32[] parameter(0)\n"
	"  b = f32[] parameter(1)\n"
	"  ROOT s = f32[] add(a, b)\n"
	"}\n"
	"\n"
	"cond {\n"
	"  t = (f32[]) parameter(0)\n"
	"  ROOT k = pred[] constant(false)\n"
	"}\n"
	"\n"
	"body {\n"
	"  t = (f32[]) parameter(0)\n"
	"  x = f32[] get-tuple-element(t), index=0\n"
	"  y = f32[] call(x), to_apply=calls_effect\n"
	"  ROOT r = (f32[]) tuple(y)\n"
	"}\n"
	"\n"
	"ENTRY main {\n"
	"  p = f32[] parameter(0)\n"
	"  deep = f32[] call(p), to_apply=calls_effect\n"
	"  clean = f32[] call(p), to_apply=pure\n"
	"  v = f32[4] broadcast(p), dimensions={}\n"
	"  z = f32[] constant(0)\n"
	"  red = f32[] reduce(v, z), dimensions={0}, to_apply=add\n"
	"  t = (f32[]) tuple(p)\n"
	"  w = (f32[]) while(t), condition=cond, body=body\n"
	"  ROOT o = (f32[], f32[], f32[], (f32[])) tuple(deep, clean, red, w)\n"
	"}\n";

static void test_effects(void)
{
	hilo_module *m = parse(text);
	if (!CHECK(m != NULL))
		return;
	hilo_comp *e = m->entry;
	hilo_instr *deep = find(e, "deep"), *clean = find(e, "clean"), *red = find(e, "red"),
		   *w = find(e, "w");
	CHECK(deep && clean && red && w);
	/* the shallow flag sees none of them */
	CHECK(!hilo_instr_has_side_effect(m, deep));
	CHECK(!hilo_instr_has_side_effect(m, w));
	/* without a memo */
	CHECK(hilo_instr_has_side_effect_deep(m, deep, NULL));
	CHECK(!hilo_instr_has_side_effect_deep(m, clean, NULL));
	CHECK(!hilo_instr_has_side_effect_deep(m, red, NULL));
	CHECK(hilo_instr_has_side_effect_deep(m, w, NULL));
	CHECK(hilo_comp_has_side_effect(m, hilo_module_find_comp(m, "body"), NULL));
	CHECK(!hilo_comp_has_side_effect(m, hilo_module_find_comp(m, "cond"), NULL));
	CHECK(hilo_comp_has_side_effect(m, e, NULL));
	/* with one memo, in both orders: the same answers */
	for (int round = 0; round < 2; round++) {
		hilo_ptrmap memo;
		hilo_ptrmap_init_in(&memo, m->arena);
		if (round) {
			CHECK(!hilo_instr_has_side_effect_deep(m, clean, &memo));
			CHECK(hilo_instr_has_side_effect_deep(m, w, &memo));
			CHECK(hilo_instr_has_side_effect_deep(m, deep, &memo));
		} else {
			CHECK(hilo_instr_has_side_effect_deep(m, deep, &memo));
			CHECK(hilo_instr_has_side_effect_deep(m, w, &memo));
			CHECK(!hilo_instr_has_side_effect_deep(m, clean, &memo));
		}
		CHECK(!hilo_instr_has_side_effect_deep(m, red, &memo));
		CHECK(hilo_comp_has_side_effect(m, hilo_module_find_comp(m, "calls_effect"), &memo));
		CHECK(!hilo_comp_has_side_effect(m, hilo_module_find_comp(m, "pure"), &memo));
		hilo_ptrmap_free(&memo);
	}
	hilo_module_destroy(m);
}

/* c0 calls c1 calls ... c(N-1), whose root is (or is not) side-effecting:
 * the walk is iterative, so any depth is answered. */
static void test_deep_chain(bool effect)
{
	enum { N = 20000 };
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_buf_puts(&b, "HloModule chain\n\n");
	hilo_buf_printf(&b, "cc%d {\n  p = f32[] parameter(0)\n  ROOT r = f32[] %s\n}\n\n", N - 1,
		effect ? "custom-call(p), custom_call_target=\"log\", custom_call_has_side_effect=true"
		       : "negate(p)");
	for (int k = N - 2; k >= 0; k--)
		hilo_buf_printf(&b, "cc%d {\n  p = f32[] parameter(0)\n  ROOT r = f32[] call(p), to_apply=cc%d\n}\n\n",
			k, k + 1);
	hilo_buf_puts(&b, "ENTRY main {\n  p = f32[] parameter(0)\n  ROOT r = f32[] call(p), to_apply=cc0\n}\n");
	hilo_module *m = parse(hilo_buf_cstr(&b));
	if (CHECK(m != NULL)) {
		CHECK(hilo_instr_has_side_effect_deep(m, m->entry->root, NULL) == effect);
		hilo_ptrmap memo;
		hilo_ptrmap_init_in(&memo, m->arena);
		CHECK(hilo_comp_has_side_effect(m, hilo_module_find_comp(m, "cc100"), &memo) == effect);
		CHECK(hilo_comp_has_side_effect(m, hilo_module_find_comp(m, "cc0"), &memo) == effect);
		hilo_ptrmap_free(&memo);
	}
	hilo_module_destroy(m);
	hilo_buf_free(&b);
}

static void test_scratch(void)
{
	hilo_module *m = parse(text);
	if (!CHECK(m != NULL))
		return;
	hilo_pass_ctx ctx = {.m = m, .pass = "p"};
	CHECK(ctx.scratch == NULL); /* created on first use */
	hilo_arena *a = hilo_pass_scratch(&ctx);
	CHECK(a != NULL && a == ctx.scratch && a != m->arena);
	CHECK(hilo_pass_scratch(&ctx) == a);
	uint32_t n = 0;
	uint32_t *v = hilo_pass_scratch_by_id(&ctx, sizeof *v, &n);
	CHECK(v != NULL);
	CHECK_EQ_I64(n, m->next_id);
	bool zero = true;
	for (uint32_t k = 0; k < n; k++)
		zero &= v[k] == 0;
	CHECK(zero);
	for (hilo_instr *i = m->entry->first; i; i = i->next)
		CHECK(i->id < n);
	v[n - 1] = 7; /* the whole range is writable */
	hilo_pass_scratch_release(&ctx);
	CHECK(ctx.scratch == NULL);
	hilo_pass_scratch_release(&ctx); /* twice is harmless */
	/* a new run gets fresh, zeroed memory */
	uint32_t *v2 = hilo_pass_scratch_by_id(&ctx, sizeof *v2, &n);
	CHECK(v2 != NULL && v2[n - 1] == 0);
	hilo_pass_scratch_release(&ctx);
	hilo_module_destroy(m);
}

int main(void)
{
	test_effects();
	test_deep_chain(true);
	test_deep_chain(false);
	test_scratch();
	return CHECK_DONE();
}
