/* Unit tests for the rewrite validator (include/hilo/check.h, src/check):
 * a module is parsed, cloned (ids kept), the clone rewritten through the IR
 * API as a pass would, and hilo_validate_pass judges the pair. Covers the
 * records (operand, root, dead, removed side effect), term proofs (DUS chain
 * -> concatenate, slice of concatenate, IEEE-exact x + -0, call inlining),
 * the testing fallback (x + +0 is tested, never proved), a wrong rewrite
 * failing with the pass named, assumed rewrites, and in-place operand
 * swaps (a commuted add proved, a swapped subtract failed), related
 * frontier leaves (a difference re-evaluated from the parameters), a lone
 * shared leaf whose random values no input realises, a branch taken
 * only for an infinite input (boundary values from the parameters),
 * rewrites wrong only at special values (NaN, infinities, signed zeros,
 * integer extremes) failed and sound ones in every float type tested, a
 * set whose special values run a loop too long not counted, and
 * the unchanged-module shortcut: an untouched clone is identical, while
 * in-place edits that keep every id (an attribute, a constant's bytes, the
 * instruction order) are judged, not taken for unchanged. */
#include "check.h"

#include "hilo/check.h"
#include "hilo/hlo_text.h"

static hilo_module *parse(const char *text)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(text, strlen(text), "t.hlo", &d);
	if (!m)
		hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return m;
}

static hilo_instr *find(hilo_module *m, const char *name)
{
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (hilo_instr *i = m->comps[c]->first; i; i = i->next)
			if (!strcmp(i->name, name))
				return i;
	return NULL;
}

typedef void (*rewrite_fn)(hilo_module *m, hilo_pass_ctx *ctx);

/* Runs the rewrite on a clone and validates; returns the summary and
 * whether an error diagnostic mentions the pass (and, when identical is not
 * NULL, whether the pair was found identical). */
static hilo_validate_summary judge_opts(const char *text, rewrite_fn fn, bool *named,
	hilo_run_state *run, uint64_t budget, const char *want_in_error, bool *identical,
	int inputs, uint64_t seed, char *remarks, size_t cap)
{
	hilo_validate_summary s;
	memset(&s, 0, sizeof s);
	hilo_module *before = parse(text);
	CHECK(before != NULL);
	if (!before)
		return s;
	hilo_module *after = hilo_module_clone(before);
	hilo_pass_ctx ctx = {.m = after, .run = run, .pass = "unit-pass"};
	fn(after, &ctx);
	hilo_diags d;
	hilo_diags_init(&d);
	CHECK(hilo_verify(after, "t.hlo", &d));
	FILE *rf = remarks ? tmpfile() : NULL;
	hilo_validate_opts o = {.inputs = inputs, .seed = seed, .budget = budget, .remarks = rf};
	hilo_validator *v = hilo_validator_create(&o);
	CHECK(hilo_validate_pass(v, before, after, "unit-pass", run, &d, identical));
	hilo_validator_summary(v, &s);
	*named = false;
	for (size_t k = 0; k < d.n; k++)
		if (d.items[k].sev == HILO_SEV_ERROR && strstr(d.items[k].msg, "pass 'unit-pass'") &&
		    (!want_in_error || strstr(d.items[k].msg, want_in_error)))
			*named = true;
	if (getenv("TEST_CHECK_DEBUG"))
		hilo_diags_print(stderr, &d);
	hilo_validator_destroy(v);
	if (rf) {
		rewind(rf);
		size_t got = fread(remarks, 1, cap - 1, rf);
		remarks[got] = 0;
		fclose(rf);
	}
	hilo_diags_free(&d);
	hilo_module_destroy(before);
	hilo_module_destroy(after);
	return s;
}

static hilo_validate_summary judge_full(const char *text, rewrite_fn fn, bool *named,
	hilo_run_state *run, uint64_t budget, const char *want_in_error, bool *identical)
{
	return judge_opts(text, fn, named, run, budget, want_in_error, identical, 3, 1, NULL, 0);
}

/* n input sets from seed 0 */
static hilo_validate_summary judge_n(const char *text, rewrite_fn fn, bool *named, int n,
	const char *want_in_error)
{
	return judge_opts(text, fn, named, NULL, 0, want_in_error, NULL, n, 0, NULL, 0);
}

static hilo_validate_summary judge_b(const char *text, rewrite_fn fn, bool *named,
	hilo_run_state *run, uint64_t budget, const char *want_in_error)
{
	return judge_full(text, fn, named, run, budget, want_in_error, NULL);
}

static hilo_validate_summary judge(const char *text, rewrite_fn fn, bool *named, hilo_run_state *run)
{
	return judge_b(text, fn, named, run, 0, NULL);
}

static const char *dus_text =
	"HloModule m\n"
	"ENTRY main {\n"
	"  upd1 = f32[2,3] parameter(0)\n"
	"  upd2 = f32[2,3] parameter(1)\n"
	"  z = f32[] constant(0)\n"
	"  b = f32[4,3] broadcast(z), dimensions={}\n"
	"  i0 = s32[] constant(0)\n"
	"  i2 = s32[] constant(2)\n"
	"  d1 = f32[4,3] dynamic-update-slice(b, upd1, i0, i0)\n"
	"  d2 = f32[4,3] dynamic-update-slice(d1, upd2, i2, i0)\n"
	"  c = f32[4,3] concatenate(upd1, upd2), dimensions={0}\n"
	"  w = f32[4,3] concatenate(upd2, upd1), dimensions={0}\n"
	"  ROOT r = f32[4,3] negate(d2)\n"
	"}\n";

static void use_concat(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "c"));
}

static void use_wrong_concat(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "w"));
}

static void assume_wrong_concat(hilo_module *m, hilo_pass_ctx *ctx)
{
	hilo_rewrite_assume(ctx, find(m, "d2"), find(m, "w"), "unit test");
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "w"));
}

static const char *misc_text =
	"HloModule m\n"
	"add2 {\n"
	"  a = f32[4] parameter(0)\n"
	"  b = f32[4] parameter(1)\n"
	"  ROOT s = f32[4] add(a, b)\n"
	"}\n"
	"ENTRY main {\n"
	"  x = f32[4] parameter(0)\n"
	"  y = f32[4] parameter(1)\n"
	"  nz = f32[] constant(-0)\n"
	"  pz = f32[] constant(0)\n"
	"  bn = f32[4] broadcast(nz), dimensions={}\n"
	"  bp = f32[4] broadcast(pz), dimensions={}\n"
	"  xn = f32[4] add(x, bn)\n"
	"  xp = f32[4] add(bp, x)\n"
	"  cat = f32[8] concatenate(x, y), dimensions={0}\n"
	"  sl = f32[4] slice(cat), slice={[4:8]}\n"
	"  cl = f32[4] call(y, x), to_apply=add2\n"
	"  yx = f32[4] add(x, y)\n"
	"  xy = f32[4] add(y, x)\n"
	"  ex = f32[4] exponential(x)\n"
	"  exn = f32[4] add(ex, bn)\n"
	"  dead = f32[4] exponential(x)\n"
	"  fx = f32[4] custom-call(x), custom_call_target=\"effect\", custom_call_has_side_effect=true\n"
	"  t = (f32[4], f32[4], f32[4]) tuple(xn, xp, sl)\n"
	"  ROOT r = (f32[4], f32[4], f32[4], f32[4], f32[4]) tuple(xn, xp, sl, cl, exn)\n"
	"}\n";

static void misc_sound(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr *r = find(m, "r");
	hilo_instr_set_operand(m, r, 2, find(m, "y"));  /* slice of concat -> y: proved */
	hilo_instr_set_operand(m, r, 3, find(m, "xy")); /* call inlined: proved */
	hilo_comp_remove(m->entry, find(m, "dead"));    /* dead: proved */
}

/* x + -0 -> x for a parameter x: the add quiets a signalling NaN
 * (nan(0x1) -> nan(0x400001)), so not an identity (issue 30); for an x
 * made by arithmetic (never signalling) it is, and proved */
static void misc_minus_zero(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "x"));
}

static void misc_minus_zero_quiet(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 4, find(m, "ex"));
}

/* the call's add(y, x) replaced by add(x, y): float add does not commute
 * bit for bit (two NaN operands: the result is one of them by position) */
static void misc_commuted(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 3, find(m, "yx"));
}

static void misc_plus_zero(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 1, find(m, "x")); /* +0 + x -> x: not exact */
}

static void misc_drop_effect(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_comp_remove(m->entry, find(m, "fx"));
}

static void misc_new_root(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	/* the root replaced by an equal fresh tuple */
	hilo_instr *r = find(m, "r");
	hilo_instr *n = hilo_instr_create(m, HILO_OP_TUPLE, r->shape, NULL);
	hilo_instr_add_operand(m, n, find(m, "xn"));
	hilo_instr_add_operand(m, n, find(m, "xp"));
	hilo_instr_add_operand(m, n, find(m, "sl"));
	hilo_instr_add_operand(m, n, find(m, "cl"));
	hilo_instr_add_operand(m, n, find(m, "exn"));
	hilo_comp_append(m->entry, n);
	hilo_comp_set_root(m->entry, n);
}

/* float maximum/minimum commute only up to the bits of a NaN result (XLA
 * CPU orders +0 above -0 either way; the validator does not prove the
 * swap, the tests find no difference), integer ones commute; a cone over
 * the budget with a wrong window is failed at its cut */
static const char *cut_text =
	"HloModule m\n"
	"ENTRY main {\n"
	"  x = f32[8,16] parameter(0)\n"
	"  y = f32[8,16] parameter(1)\n"
	"  i = s32[8,16] parameter(2)\n"
	"  j = s32[8,16] parameter(3)\n"
	"  mxy = f32[8,16] maximum(x, y)\n"
	"  myx = f32[8,16] maximum(y, x)\n"
	"  nij = s32[8,16] minimum(i, j)\n"
	"  nji = s32[8,16] minimum(j, i)\n"
	"  s0 = f32[1,16] slice(x), slice={[0:1], [0:16]}\n"
	"  sl1 = f32[1,16] slice(x), slice={[1:2], [0:16]}\n"
	"  e0 = f32[1,16] exponential(s0)\n"
	"  e1 = f32[1,16] exponential(sl1)\n"
	"  r0 = f32[16] reshape(e0)\n"
	"  r1 = f32[16] reshape(e1)\n"
	"  t0 = f32[16,1] reshape(s0)\n"
	"  tt = f32[1,16] transpose(t0), dimensions={1,0}\n"
	"  et = f32[1,16] exponential(tt)\n"
	"  ROOT r = (f32[8,16], s32[8,16], f32[16], f32[1,16]) tuple(mxy, nij, r0, e0)\n"
	"}\n";

static void cut_swap_fmax(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "myx"));
}

static void cut_swap_imin(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 1, find(m, "nji"));
}

static void cut_wrong_window(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 2, find(m, "r1"));
}

static void cut_same_elements(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 3, find(m, "et"));
}

/* in-place operand swaps: the instruction keeps its id and definition,
 * its two operand slots change (x vs y, y vs x: neither proves alone);
 * the instruction's value is judged instead: add commutes (proved by the
 * terms' commutative ordering), subtract does not (failed) */
static const char *swap_text =
	"HloModule m\n"
	"ENTRY main {\n"
	"  x = f32[4] parameter(0)\n"
	"  y = f32[4] parameter(1)\n"
	"  sum = f32[4] add(x, y)\n"
	"  dif = f32[4] subtract(x, y)\n"
	"  ROOT r = (f32[4], f32[4]) tuple(sum, dif)\n"
	"}\n";

static void swap_in_place(hilo_module *m, const char *name)
{
	hilo_instr *i = find(m, name);
	hilo_instr *a = i->operands[0], *b = i->operands[1];
	hilo_instr_set_operand(m, i, 0, b);
	hilo_instr_set_operand(m, i, 1, a);
}

static void swap_add(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	swap_in_place(m, "sum");
}

static void swap_sub(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	swap_in_place(m, "dif");
}

/* two shared frontier leaves with common ancestors: (x+y)*z and x*z+y*z
 * are equal for wrapping s32 arithmetic (no term or tagged proof); drawn
 * as independent random values they differ, which is not realisable: the
 * cone is re-evaluated from the parameters (tested, never failed) */
static const char *leaves_text =
	"HloModule m\n"
	"ENTRY main {\n"
	"  x = s32[4] parameter(0)\n"
	"  y = s32[4] parameter(1)\n"
	"  z = s32[4] parameter(2)\n"
	"  s = s32[4] add(x, y)\n"
	"  m1 = s32[4] multiply(s, z)\n"
	"  xz = s32[4] multiply(x, z)\n"
	"  yz = s32[4] multiply(y, z)\n"
	"  m2 = s32[4] add(xz, yz)\n"
	"  m3 = s32[4] subtract(xz, yz)\n"
	"  ROOT r = s32[4] negate(m1)\n"
	"}\n";

static void leaves_distribute(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "m2"));
}

static void leaves_wrong(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "m3"));
}

/* a lone shared frontier leaf e = exp(x): abs(e) = e for every x (exp is
 * +0 or more, or NaN), so replacing abs(e) by e is sound; e drawn as an
 * independent random value is negative half the time, which no input
 * realises: judged from the parameters (tested, never failed). With
 * e = sine(x) the same replacement is wrong and fails from the parameters. */
#define LONE_TEXT(fn) \
	"HloModule m\n" \
	"ENTRY main {\n" \
	"  x = f32[8] parameter(0)\n" \
	"  e = f32[8] " fn "(x)\n" \
	"  a = f32[8] abs(e)\n" \
	"  ROOT r = f32[8] negate(a)\n" \
	"}\n"

static void drop_abs(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr *ab = find(m, "a");
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "e"));
	hilo_comp_remove(ab->parent, ab);
}

/* a branch taken only when t is +inf or NaN (t < inf is true for every
 * other value): the rewrite changes that branch (negate -> the value
 * itself), so it is wrong; random values in [-8, 8) never take the branch
 * (3 input sets agree), the boundary value t = inf from the parameters
 * does */
static const char *branch_text =
	"HloModule m\n"
	"neg {\n"
	"  p = f32[4] parameter(0)\n"
	"  ROOT n = f32[4] negate(p)\n"
	"}\n"
	"ident {\n"
	"  q = f32[4] parameter(0)\n"
	"  ROOT c = f32[4] copy(q)\n"
	"}\n"
	"ENTRY main {\n"
	"  t = f32[] parameter(0)\n"
	"  x = f32[4] parameter(1)\n"
	"  infc = f32[] constant(inf)\n"
	"  lt = pred[] compare(t, infc), direction=LT\n"
	"  sel = s32[] convert(lt)\n"
	"  ROOT r = f32[4] conditional(sel, x, x), branch_computations={neg, ident}\n"
	"}\n";

static void branch_wrong(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	/* branch 0 (taken for t = inf or NaN) loses its negate */
	hilo_instr *n = find(m, "n");
	hilo_comp *c = n->parent;
	hilo_comp_set_root(c, find(m, "p"));
	hilo_comp_remove(c, n);
}

static const char *inplace_text =
	"HloModule m\n"
	"ENTRY main {\n"
	"  p = f32[3,3] parameter(0)\n"
	"  q = f32[3,3] parameter(1)\n"
	"  t = f32[3,3] transpose(p), dimensions={1,0}\n"
	"  c = f32[] constant(2)\n"
	"  b = f32[3,3] broadcast(c), dimensions={}\n"
	"  m = f32[3,3] multiply(t, b)\n"
	"  n = f32[3,3] negate(q)\n"
	"  ROOT r = (f32[3,3], f32[3,3]) tuple(m, n)\n"
	"}\n";

static void inplace_none(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)m;
	(void)ctx;
}

static void inplace_attr(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	static const int64_t ident[2] = {0, 1};
	hilo_attr_set_ints(m, hilo_instr_attr(find(m, "t"), HILO_A_DIMENSIONS), ident, 2);
}

static void inplace_const(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	float three = 3.0f;
	memcpy(hilo_instr_literal(find(m, "c"))->data, &three, sizeof three);
}

/* n moved before t: the same instructions, another order (sound) */
static void inplace_order(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr *n = find(m, "n"), *t = find(m, "t");
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->prev = t->prev;
	n->next = t;
	t->prev->next = n;
	t->prev = n;
}

/* special values (docs/proof.md "Special values"): rewrites wrong only at
 * NaN, infinities, signed zeros or integer extremes, which the ordinary
 * draws (a grid in [-8, 8), integers in [-16, 16]) never reach; and sound
 * ones that only testing judges, which must stay tested */
static const char *special_text =
	"HloModule m\n"
	"ENTRY main {\n"
	"  x = f32[4] parameter(0)\n"
	"  i = s32[4] parameter(1)\n"
	"  d = f32[4] divide(x, x)\n"
	"  c1 = f32[] constant(1)\n"
	"  one = f32[4] broadcast(c1), dimensions={}\n"
	"  e = pred[4] compare(x, x), direction=EQ\n"
	"  ct = pred[] constant(true)\n"
	"  tru = pred[4] broadcast(ct), dimensions={}\n"
	"  a = s32[4] abs(i)\n"
	"  c0 = s32[] constant(0)\n"
	"  z = s32[4] broadcast(c0), dimensions={}\n"
	"  ge = pred[4] compare(a, z), direction=GE\n"
	"  ROOT r = (f32[4], pred[4], pred[4]) tuple(d, e, ge)\n"
	"}\n";

static void special_div_self(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx; /* x / x -> 1: NaN for 0, inf and NaN */
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "one"));
}

static void special_cmp_self(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx; /* x == x -> true: false for NaN */
	hilo_instr_set_operand(m, find(m, "r"), 1, find(m, "tru"));
}

static void special_abs_nonneg(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx; /* abs(i) >= 0 -> true: false for INT_MIN (abs wraps) */
	hilo_instr_set_operand(m, find(m, "r"), 2, find(m, "tru"));
}

/* x * 2 -> x + x is exact in every float type for every value (NaN, the
 * infinities, signed zeros and overflow to inf or NaN alike); no term rule
 * or tagged proof knows it, so it is tested, in each type */
#define TWICE_TEXT(t) \
	"HloModule m\n" \
	"ENTRY main {\n" \
	"  x = " t "[6] parameter(0)\n" \
	"  y = " t "[] parameter(1)\n" \
	"  c2 = " t "[] constant(2)\n" \
	"  two = " t "[6] broadcast(c2), dimensions={}\n" \
	"  m = " t "[6] multiply(x, two)\n" \
	"  s = " t "[6] add(x, x)\n" \
	"  m1 = " t "[] multiply(y, c2)\n" \
	"  sum1 = " t "[] add(y, y)\n" \
	"  ROOT r = (" t "[6], " t "[]) tuple(m, m1)\n" \
	"}\n"

static void twice_as_sum(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "s"));
	hilo_instr_set_operand(m, find(m, "r"), 1, find(m, "sum1"));
}

/* a loop whose trip count is a parameter: n = INT_MAX (an integer
 * extreme) runs it for 2^31 iterations, past the element-ops an input set
 * with special values may use. Such a set is not counted: the sound
 * rewrite inside the loop's initial state (x * 2 -> x + x) stays tested,
 * not skipped. */
static const char *loop_text =
	"HloModule m\n"
	"cond {\n"
	"  s = (s32[], s32[], f32[4]) parameter(0)\n"
	"  k = s32[] get-tuple-element(s), index=0\n"
	"  n = s32[] get-tuple-element(s), index=1\n"
	"  ROOT lt = pred[] compare(k, n), direction=LT\n"
	"}\n"
	"body {\n"
	"  s = (s32[], s32[], f32[4]) parameter(0)\n"
	"  k = s32[] get-tuple-element(s), index=0\n"
	"  n = s32[] get-tuple-element(s), index=1\n"
	"  v = f32[4] get-tuple-element(s), index=2\n"
	"  c1 = s32[] constant(1)\n"
	"  k1 = s32[] add(k, c1)\n"
	"  v1 = f32[4] negate(v)\n"
	"  ROOT t = (s32[], s32[], f32[4]) tuple(k1, n, v1)\n"
	"}\n"
	"ENTRY main {\n"
	"  x = f32[4] parameter(0)\n"
	"  n = s32[] parameter(1)\n"
	"  k0 = s32[] constant(0)\n"
	"  c2 = f32[] constant(2)\n"
	"  two = f32[4] broadcast(c2), dimensions={}\n"
	"  m = f32[4] multiply(x, two)\n"
	"  s = f32[4] add(x, x)\n"
	"  i1 = (s32[], s32[], f32[4]) tuple(k0, n, m)\n"
	"  i2 = (s32[], s32[], f32[4]) tuple(k0, n, s)\n"
	"  w = (s32[], s32[], f32[4]) while(i1), condition=cond, body=body\n"
	"  w2 = (s32[], s32[], f32[4]) while(i2), condition=cond, body=body\n"
	"  ROOT r = f32[4] get-tuple-element(w), index=2\n"
	"}\n";

static void loop_twice(hilo_module *m, hilo_pass_ctx *ctx)
{
	(void)ctx;
	hilo_instr_set_operand(m, find(m, "r"), 0, find(m, "w2"));
}

int main(void)
{
	bool named;
	hilo_validate_summary s = judge(dus_text, use_concat, &named, NULL);
	CHECK_EQ_I64(s.rewrites, 1);
	CHECK_EQ_I64(s.proved, 1);
	CHECK_EQ_I64(s.failed, 0);
	CHECK(!named);

	s = judge(dus_text, use_wrong_concat, &named, NULL);
	CHECK_EQ_I64(s.rewrites, 1);
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);

	hilo_run_state *run = hilo_run_state_create(NULL);
	s = judge(dus_text, assume_wrong_concat, &named, run);
	CHECK_EQ_I64(s.rewrites, 0);
	CHECK_EQ_I64(s.assumed, 1);
	CHECK_EQ_I64(s.failed, 0);
	CHECK(!named);
	hilo_run_state_destroy(run);

	s = judge(misc_text, misc_sound, &named, NULL);
	CHECK_EQ_I64(s.rewrites, 3); /* two operand records + the dead one */
	CHECK_EQ_I64(s.proved, 3);
	CHECK_EQ_I64(s.failed, 0);

	s = judge(misc_text, misc_minus_zero_quiet, &named, NULL);
	CHECK_EQ_I64(s.rewrites, 1);
	CHECK_EQ_I64(s.proved, 1);
	s = judge_n(misc_text, misc_minus_zero, &named, 3, "before=nan(0x400001) after=nan(0x1)");
	CHECK_EQ_I64(s.rewrites, 1);
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);
	s = judge(misc_text, misc_commuted, &named, NULL);
	CHECK_EQ_I64(s.proved, 0);
	CHECK_EQ_I64(s.failed + s.tested, 1);
	/* seed 29 fills x and y with two different NaNs: the bits show */
	s = judge_n(misc_text, misc_commuted, &named, 30, "nan");
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);

	s = judge(misc_text, misc_plus_zero, &named, NULL);
	CHECK_EQ_I64(s.rewrites, 1);
	CHECK_EQ_I64(s.proved, 0);
	CHECK_EQ_I64(s.failed, 1); /* a signalling NaN quieted (seed 2) */

	s = judge(misc_text, misc_drop_effect, &named, NULL);
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);

	s = judge(misc_text, misc_new_root, &named, NULL);
	CHECK_EQ_I64(s.rewrites, 1); /* the root record (the old root stays, unused) */
	CHECK_EQ_I64(s.proved, 1);

	s = judge(cut_text, cut_swap_fmax, &named, NULL);
	CHECK_EQ_I64(s.rewrites, 1);
	CHECK_EQ_I64(s.proved, 0);
	s = judge(cut_text, cut_swap_imin, &named, NULL);
	CHECK_EQ_I64(s.proved, 1);
	/* within the budget the whole cone is tested; over it, judged at the cut */
	s = judge(cut_text, cut_wrong_window, &named, NULL);
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);
	s = judge_b(cut_text, cut_wrong_window, &named, NULL, 20, "method cut: element [0,0]");
	CHECK_EQ_I64(s.failed, 1);
	CHECK_EQ_I64(s.skipped, 0);
	CHECK(named);
	/* the transpose of a reshape reads the same elements: terms differ,
	 * every element's source is equal at the cut */
	s = judge_b(cut_text, cut_same_elements, &named, NULL, 20, NULL);
	CHECK_EQ_I64(s.rewrites, 1);
	CHECK_EQ_I64(s.proved, 1);
	CHECK_EQ_I64(s.failed, 0);

	s = judge(swap_text, swap_add, &named, NULL);
	CHECK_EQ_I64(s.proved, 0);   /* float add: a NaN operand's bits by position */
	CHECK(s.failed >= 1);        /* seed 2: two different NaNs */
	CHECK(named);
	s = judge_b(swap_text, swap_sub, &named, NULL, 0, "dif");
	CHECK(s.failed >= 1);
	CHECK_EQ_I64(s.proved, 0);
	CHECK(named);

	s = judge(leaves_text, leaves_distribute, &named, NULL);
	CHECK_EQ_I64(s.rewrites, 1);
	CHECK_EQ_I64(s.tested, 1);
	CHECK_EQ_I64(s.failed, 0);
	CHECK(!named);
	s = judge_b(leaves_text, leaves_wrong, &named, NULL, 0, "from the computation's parameters");
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);

	/* a lone unrealisable leaf value is no counterexample */
	s = judge(LONE_TEXT("exponential"), drop_abs, &named, NULL);
	CHECK_EQ_I64(s.rewrites, 2); /* the replacement and the dead abs */
	CHECK_EQ_I64(s.tested, 1);
	CHECK_EQ_I64(s.failed, 0);
	CHECK(!named);
	s = judge_b(LONE_TEXT("sine"), drop_abs, &named, NULL, 0, "from the computation's parameters");
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);

	/* a branch only an infinite input takes */
	s = judge_b(branch_text, branch_wrong, &named, NULL, 0, "with index-aware and boundary values");
	CHECK_EQ_I64(s.failed, 1);
	CHECK_EQ_I64(s.tested, 0);
	CHECK(named);

	/* special values */
	s = judge_b(special_text, special_div_self, &named, NULL, 0, "draws special values");
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);
	s = judge_b(special_text, special_cmp_self, &named, NULL, 0, "before=false after=true");
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);
	/* rarer draws: an integer extreme at a given element, a signed zero
	 * (+0 + x -> x differs at x = -0): 30 input sets (the whole-leaf fills
	 * of seeds 2, 5, ..., 29 rotate every leaf through every special
	 * value); max(x, y) -> max(y, x) differs only in which NaN's bits a
	 * result of two NaNs carries (maximum follows XLA CPU: +0 > -0 in
	 * either order), which the comparison of NaN bits finds */
	s = judge_n(special_text, special_abs_nonneg, &named, 30, "draws special values");
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);
	s = judge_n(misc_text, misc_plus_zero, &named, 30, "before=nan(0x400001) after=nan(0x1)");
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);
	s = judge_n(cut_text, cut_swap_fmax, &named, 30, NULL);
	CHECK_EQ_I64(s.failed, 1);
	CHECK(named);
	static const char *const twice_types[] = {"f32", "f64", "f16", "bf16", "f8e4m3fn", "f8e5m2",
		"f8e4m3fnuz", "f8e8m0fnu", "f4e2m1fn", "f6e3m2fn"};
	for (size_t k = 0; k < sizeof twice_types / sizeof *twice_types; k++) {
		char text[1024];
		const char *t = twice_types[k];
		snprintf(text, sizeof text, TWICE_TEXT("%s"), t, t, t, t, t, t, t, t, t, t);
		s = judge_n(text, twice_as_sum, &named, 30, NULL);
		CHECK_EQ_I64(s.tested, 2);
		CHECK_EQ_I64(s.failed, 0);
		CHECK_EQ_I64(s.skipped, 0);
		CHECK(!named);
		if (s.failed)
			fprintf(stderr, "x * 2 -> x + x failed in %s\n", twice_types[k]);
	}
	/* wrapping integer arithmetic at the extremes stays equal */
	s = judge_n(leaves_text, leaves_distribute, &named, 30, NULL);
	CHECK_EQ_I64(s.tested, 1);
	CHECK_EQ_I64(s.failed, 0);
	/* a set whose special values run a loop past its budget is not counted */
	char remarks[4096];
	s = judge_opts(loop_text, loop_twice, &named, NULL, 0, NULL, NULL, 3, 0, remarks,
		sizeof remarks);
	CHECK(strstr(remarks, "2 input sets agree (seeds 0..2"));
	if (getenv("TEST_CHECK_DEBUG"))
		fprintf(stderr, "%s", remarks);
	CHECK(strstr(remarks, "; 1 with special values could not be evaluated and is not "
		"counted (seed 2: "));
	CHECK_EQ_I64(s.rewrites, 1);
	CHECK_EQ_I64(s.tested, 1);
	CHECK_EQ_I64(s.skipped, 0);
	CHECK_EQ_I64(s.failed, 0);

	/* unchanged modules, and in-place edits that keep every id */
	bool same;
	s = judge_full(inplace_text, inplace_none, &named, NULL, 0, NULL, &same);
	CHECK(same);
	CHECK_EQ_I64(s.rewrites, 0);
	s = judge_full(inplace_text, inplace_attr, &named, NULL, 0, NULL, &same);
	CHECK(!same);
	CHECK_EQ_I64(s.failed, 1);
	s = judge_full(inplace_text, inplace_const, &named, NULL, 0, NULL, &same);
	CHECK(!same);
	CHECK_EQ_I64(s.failed, 1);
	s = judge_full(inplace_text, inplace_order, &named, NULL, 0, NULL, &same);
	CHECK_EQ_I64(s.failed, 0);
	CHECK_EQ_I64(s.skipped, 0);
	return CHECK_DONE();
}
