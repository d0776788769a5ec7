/* test_eval_edges.c - the evaluator's edge semantics, one check per row of
 * the table in docs/evaluator.md ("XLA's rule" column). Every expected
 * value is computed by hand from XLA's rule (the comment beside each case
 * says how), never taken from a hilo run; where XLA's CPU backend and its
 * HloEvaluator differ, the rule is XLA CPU's as the evaluator tier
 * (tests/xla/evaluator) measured it on jaxlib 0.10.2, and the regression
 * tests of the defects that tier found (notes: xla-eval-defects.md, E1..)
 * say which. Values that
 * are easier to state as bits are read back through bitcast-convert.
 */
#include "hilo/eval.h"
#include "hilo/hlo_text.h"

#include <stdlib.h>
#include <string.h>

static int failures, checks;

#include "eval_run.h"

#define M(body) "HloModule t\n\nENTRY main {\n" body "}\n"
#define EXPECT(src, want) expect(__func__, __LINE__, run_budget(src, 0), want)
#define EXPECT_BUDGET(src, budget, want) expect(__func__, __LINE__, run_budget(src, budget), want)
#define EXPECT_ERR(src, sub) expect_err(__func__, __LINE__, run_budget(src, 0), sub)

static void expect(const char *fn, int line, char *got, const char *want)
{
	checks++;
	if (strcmp(got, want)) {
		failures++;
		fprintf(stderr, "test_eval_edges.c:%d (%s): got '%s', want '%s'\n", line, fn, got, want);
	}
	free(got);
}

static void expect_err(const char *fn, int line, char *got, const char *sub)
{
	checks++;
	if (strncmp(got, "ERROR: ", 7) || !strstr(got, sub)) {
		failures++;
		fprintf(stderr, "test_eval_edges.c:%d (%s): got '%s', want an error containing '%s'\n",
			line, fn, got, sub);
	}
	free(got);
}

/* Shifts: the amount is read as unsigned in the operand's width; >= the
 * width gives 0 (arithmetic: the sign fill). Arithmetic right shift reads
 * an unsigned operand as signed. */
static void shifts(void)
{
	/* u64 2^63 as s64 is -2^63: >> 62 = -2 = 2^64 - 2; by 64: sign fill */
	EXPECT(M("  a = u64[3] constant({9223372036854775808, 9223372036854775808, 5})\n"
	         "  b = u64[3] constant({62, 64, 1})\n"
	         "  ROOT c = u64[3] shift-right-arithmetic(a, b)\n"),
	       "{18446744073709551614, 18446744073709551615, 2}");
	/* u8 0x80 as s8 -128: >> 1 = -64 = 0xC0; by 8 and by 200: all ones
	 * when the top bit is set, 0 when clear (127 >> 7 = 0) */
	EXPECT(M("  a = u8[4] constant({128, 128, 127, 255})\n"
	         "  b = u8[4] constant({1, 8, 7, 200})\n"
	         "  ROOT c = u8[4] shift-right-arithmetic(a, b)\n"),
	       "{192, 255, 0, 255}");
	/* u4 8 as s4 -8: >> 1 = -4 = 12; by 4: 15 */
	EXPECT(M("  a = u4[3] constant({8, 8, 7})\n"
	         "  b = u4[3] constant({1, 4, 1})\n"
	         "  ROOT c = u4[3] shift-right-arithmetic(a, b)\n"),
	       "{12, 15, 3}");
	/* s8 -128 = 0x80 >>> 6 = 2; amount 8 and -1 (255 unsigned): 0 */
	EXPECT(M("  a = s8[4] constant({-128, -128, -1, 64})\n"
	         "  b = s8[4] constant({6, 8, -1, 1})\n"
	         "  ROOT c = s8[4] shift-right-logical(a, b)\n"),
	       "{2, 0, 0, 32}");
	/* s8 1 << 7 = 0x80 = -128; by 8 or -1: 0; -1 << 3 = -8 */
	EXPECT(M("  a = s8[4] constant({1, 1, 3, -1})\n"
	         "  b = s8[4] constant({7, 8, -1, 3})\n"
	         "  ROOT c = s8[4] shift-left(a, b)\n"),
	       "{-128, 0, 0, -8}");
	/* s16 -32768 >> 15 = -1; by 16: sign fill -1; 100 by -3: 0 */
	EXPECT(M("  a = s16[3] constant({-32768, -2, 100})\n"
	         "  b = s16[3] constant({15, 16, -3})\n"
	         "  ROOT c = s16[3] shift-right-arithmetic(a, b)\n"),
	       "{-1, -1, 0}");
	/* s4 -8 >> 3 = -1; 7 by 4: 0; -8 by -1 (15): -1 */
	EXPECT(M("  a = s4[3] constant({-8, 7, -8})\n"
	         "  b = s4[3] constant({3, 4, -1})\n"
	         "  ROOT c = s4[3] shift-right-arithmetic(a, b)\n"),
	       "{-1, 0, -1}");
	/* u32 1 << 31 = 2^31; by 32 and by 2^32-1: 0 */
	EXPECT(M("  a = u32[3] constant({1, 3, 1})\n"
	         "  b = u32[3] constant({31, 32, 4294967295})\n"
	         "  ROOT c = u32[3] shift-left(a, b)\n"),
	       "{2147483648, 0, 0}");
	/* s64: -2^63 >> 63 = -1; -1 >>> 63 = 1, >>> 64 = 0 */
	EXPECT(M("  a = s64[] constant(-9223372036854775808)\n"
	         "  b = s64[] constant(63)\n"
	         "  ROOT c = s64[] shift-right-arithmetic(a, b)\n"),
	       "-1");
	EXPECT(M("  a = s64[2] constant({-1, -1})\n"
	         "  b = s64[2] constant({63, 64})\n"
	         "  ROOT c = s64[2] shift-right-logical(a, b)\n"),
	       "{1, 0}");
}

/* clamp(lo, x, hi) = NaN of lo, x, hi (in that order) if any, else
 * std::min(hi, std::max(x, lo)); std::max(x, lo) keeps x unless x < lo,
 * std::min(hi, m) keeps hi unless m < hi. */
static void clamp(void)
{
	/* lo > hi: max(0, 5) = 5, min(2, 5) = 2 (the example) */
	EXPECT(M("  lo = s32[] constant(5)\n"
	         "  x = s32[3] constant({0, 3, 9})\n"
	         "  hi = s32[] constant(2)\n"
	         "  ROOT c = s32[3] clamp(lo, x, hi)\n"),
	       "{2, 2, 2}");
	EXPECT(M("  lo = u8[] constant(200)\n"
	         "  x = u8[2] constant({0, 250})\n"
	         "  hi = u8[] constant(100)\n"
	         "  ROOT c = u8[2] clamp(lo, x, hi)\n"),
	       "{100, 100}");
	/* E3: XLA CPU's clamp is minimum(maximum(x, lo), hi) with its
	 * maximum/minimum (NaN-propagating, +0 > -0): any NaN gives NaN (here
	 * the first NaN met: maximum's lhs, then minimum's; XLA CPU's own NaN
	 * bits are not specified) */
	EXPECT(M("  lo = f32[4] constant({-nan, 0, 0, 0})\n"
	         "  x = f32[4] constant({nan, -nan, nan, 1})\n"
	         "  hi = f32[4] constant({nan, nan, -nan, -nan})\n"
	         "  ROOT c = f32[4] clamp(lo, x, hi)\n"),
	       "{nan, -nan, nan, -nan}");
	/* signed zeros: maximum(-0, +0) = maximum(+0, -0) = +0, then
	 * minimum(+0, 1) = +0 */
	EXPECT(M("  lo = f32[2] constant({0, -0})\n"
	         "  x = f32[2] constant({-0, 0})\n"
	         "  hi = f32[2] constant({1, 1})\n"
	         "  ROOT c = f32[2] clamp(lo, x, hi)\n"),
	       "{0, 0}");
	/* minimum(0, -0) = minimum(-0, 0) = -0 (was: a tie kept hi) */
	EXPECT(M("  lo = f32[] constant(-1)\n"
	         "  x = f32[2] constant({0, -0})\n"
	         "  hi = f32[2] constant({-0, 0})\n"
	         "  ROOT c = f32[2] clamp(lo, x, hi)\n"),
	       "{-0, -0}");
}

/* E2: maximum/minimum as XLA CPU computes them under JAX's compile
 * options: a NaN operand gives NaN (hilo returns the lhs's if both are;
 * XLA's NaN bits are not specified), and +0 > -0 in either order (was:
 * std::max/std::min, the lhs on a tie). */
static void maxmin(void)
{
	EXPECT(M("  a = f32[5] constant({-0, 0, nan, 1, -nan})\n"
	         "  b = f32[5] constant({0, -0, -nan, nan, 1})\n"
	         "  ROOT c = f32[5] maximum(a, b)\n"),
	       "{0, 0, nan, nan, -nan}");
	EXPECT(M("  a = f32[3] constant({0, -0, 1})\n"
	         "  b = f32[3] constant({-0, 0, -nan})\n"
	         "  ROOT c = f32[3] minimum(a, b)\n"),
	       "{-0, -0, -nan}");
	EXPECT(M("  a = f64[2] constant({-0, 0})\n"
	         "  b = f64[2] constant({0, -0})\n"
	         "  ROOT c = f64[2] maximum(a, b)\n"),
	       "{0, 0}");
	EXPECT(M("  a = bf16[2] constant({0, -0})\n"
	         "  b = bf16[2] constant({-0, 0})\n"
	         "  ROOT c = bf16[2] minimum(a, b)\n"),
	       "{-0, -0}");
}

/* power: E4 (XLA CPU): the exponent is read as signed of its width; a
 * negative one gives 1 for base 1, +-1 for base -1, else 0; a positive one
 * is applied by six squarings (its low 6 bits); pred: lhs || !rhs; floats:
 * pow in the compute type, x^0 = 1^y = 1 for quiet NaNs, NaN for a
 * signalling one (E5). */
static void power(void)
{
	/* (-1)^-1 = -1, (-1)^-2 = 1, 1^-5 = 1, 2^-1 = 0, 0^0 = 1, 0^-1 = 0,
	 * (-2)^3 = -8 */
	EXPECT(M("  a = s32[7] constant({-1, -1, 1, 2, 0, 0, -2})\n"
	         "  b = s32[7] constant({-1, -2, -5, -1, 0, -1, 3})\n"
	         "  ROOT c = s32[7] power(a, b)\n"),
	       "{-1, 1, 1, 0, 1, 0, -8}");
	/* s8 38^64: 64 & 63 = 0, so 1; s16 3^32767 = 3^63 mod 2^16 = -5717 */
	EXPECT(M("  a = s8[] constant(38)\n"
	         "  b = s8[] constant(64)\n"
	         "  c = s8[] power(a, b)\n"
	         "  d = s16[] constant(3)\n"
	         "  e = s16[] constant(32767)\n"
	         "  f = s16[] power(d, e)\n"
	         "  ROOT t = (s8[], s16[]) tuple(c, f)\n"),
	       "1 | -5717");
	/* u8 158 is -98 as s8: 63^158 = 0; u16 65535 is -1: 3^65535 = 0 */
	EXPECT(M("  a = u8[] constant(63)\n"
	         "  b = u8[] constant(158)\n"
	         "  c = u8[] power(a, b)\n"
	         "  d = u16[] constant(3)\n"
	         "  e = u16[] constant(65535)\n"
	         "  f = u16[] power(d, e)\n"
	         "  ROOT t = (u8[], u16[]) tuple(c, f)\n"),
	       "0 | 0");
	/* E5: sNaN 0x7F800001 ^ 0 is NaN (compare NE with itself: true),
	 * 1 ^ sNaN too; a quiet NaN ^ 0 is 1 (below) */
	EXPECT(M("  u = u32[] constant(2139095041)\n"
	         "  s = f32[] bitcast-convert(u)\n"
	         "  z = f32[] constant(0)\n"
	         "  o = f32[] constant(1)\n"
	         "  p = f32[] power(s, z)\n"
	         "  q = f32[] power(o, s)\n"
	         "  a = pred[] compare(p, p), direction=NE\n"
	         "  b = pred[] compare(q, q), direction=NE\n"
	         "  ROOT t = (pred[], pred[]) tuple(a, b)\n"),
	       "true | true");
	/* 2^8 = 256 wraps to 0; 3^5 = 243; 0^0 = 1 */
	EXPECT(M("  a = u8[3] constant({2, 3, 0})\n"
	         "  b = u8[3] constant({8, 5, 0})\n"
	         "  ROOT c = u8[3] power(a, b)\n"),
	       "{0, 243, 1}");
	/* s8 3^5 = 243 wraps to -13 */
	EXPECT(M("  a = s8[] constant(3)\n"
	         "  b = s8[] constant(5)\n"
	         "  ROOT c = s8[] power(a, b)\n"),
	       "-13");
	EXPECT(M("  a = pred[4] constant({0, 0, 1, 1})\n"
	         "  b = pred[4] constant({0, 1, 0, 1})\n"
	         "  ROOT c = pred[4] power(a, b)\n"),
	       "{true, false, true, true}");
	/* nan^0 = 1, 1^nan = 1, 0^0 = 1, 2^-1 = 0.5 */
	EXPECT(M("  a = f32[4] constant({nan, 1, 0, 2})\n"
	         "  b = f32[4] constant({0, nan, 0, -1})\n"
	         "  ROOT c = f32[4] power(a, b)\n"),
	       "{1, 1, 1, 0.5}");
}

/* divide/remainder: x/0 = -1 (unsigned: all ones), x%0 = x, INT_MIN/-1 =
 * INT_MIN, INT_MIN%-1 = 0; floats IEEE and fmod. */
static void divide_remainder(void)
{
	EXPECT(M("  a = s8[3] constant({-128, 5, -5})\n"
	         "  b = s8[3] constant({-1, 0, 0})\n"
	         "  ROOT c = s8[3] divide(a, b)\n"),
	       "{-128, -1, -1}");
	EXPECT(M("  a = s8[3] constant({-128, 5, -5})\n"
	         "  b = s8[3] constant({-1, 0, 0})\n"
	         "  ROOT c = s8[3] remainder(a, b)\n"),
	       "{0, 5, -5}");
	EXPECT(M("  a = u64[2] constant({7, 7})\n"
	         "  b = u64[2] constant({0, 2})\n"
	         "  ROOT c = u64[2] divide(a, b)\n"),
	       "{18446744073709551615, 3}");
	EXPECT(M("  a = u64[2] constant({7, 7})\n"
	         "  b = u64[2] constant({0, 2})\n"
	         "  ROOT c = u64[2] remainder(a, b)\n"),
	       "{7, 1}");
	EXPECT(M("  a = f32[2] constant({1, -1})\n"
	         "  b = f32[2] constant({0, 0})\n"
	         "  ROOT c = f32[2] divide(a, b)\n"),
	       "{inf, -inf}");
	/* fmod keeps the dividend's sign; x % inf = x */
	EXPECT(M("  a = f32[3] constant({5.5, -5.5, 1})\n"
	         "  b = f32[3] constant({2, 2, inf})\n"
	         "  ROOT c = f32[3] remainder(a, b)\n"),
	       "{1.5, -1.5, 1}");
}

/* Integer arithmetic wraps; abs(INT_MIN) = INT_MIN; sign. */
static void wrap_abs_sign(void)
{
	EXPECT(M("  a = s32[2] constant({2147483647, 65536})\n"
	         "  b = s32[2] constant({1, 65536})\n"
	         "  s = s32[2] add(a, b)\n"
	         "  m = s32[2] multiply(a, b)\n"
	         "  ROOT t = (s32[2], s32[2]) tuple(s, m)\n"),
	       "{-2147483648, 131072} | {2147483647, 0}");
	EXPECT(M("  a = s64[] constant(-9223372036854775808)\n"
	         "  b = s64[] constant(1)\n"
	         "  ROOT c = s64[] subtract(a, b)\n"),
	       "9223372036854775807");
	EXPECT(M("  a = u8[2] constant({1, 0})\n"
	         "  ROOT c = u8[2] negate(a)\n"),
	       "{255, 0}");
	EXPECT(M("  a = s8[2] constant({-128, -5})\n"
	         "  n = s8[2] negate(a)\n"
	         "  b = s8[2] abs(a)\n"
	         "  ROOT t = (s8[2], s8[2]) tuple(n, b)\n"),
	       "{-128, 5} | {-128, 5}");
	/* float sign: copysign(x != 0, x), NaN unchanged */
	EXPECT(M("  a = f32[6] constant({-0, 0, -2, nan, -nan, inf})\n"
	         "  ROOT c = f32[6] sign(a)\n"),
	       "{-0, 0, -1, nan, -nan, 1}");
	EXPECT(M("  a = s32[3] constant({-5, 0, 7})\n"
	         "  ROOT c = s32[3] sign(a)\n"),
	       "{-1, 0, 1}");
	EXPECT(M("  a = u8[2] constant({0, 200})\n"
	         "  ROOT c = u8[2] sign(a)\n"),
	       "{0, 1}");
}

/* round-nearest-afz = std::round (ties away from zero), round-nearest-even
 * = std::nearbyint (ties to even). */
static void rounding(void)
{
	EXPECT(M("  a = f32[5] constant({0.5, 1.5, 2.5, -0.5, -2.5})\n"
	         "  ROOT c = f32[5] round-nearest-afz(a)\n"),
	       "{1, 2, 3, -1, -3}");
	EXPECT(M("  a = f32[5] constant({0.5, 1.5, 2.5, -0.5, -2.5})\n"
	         "  ROOT c = f32[5] round-nearest-even(a)\n"),
	       "{0, 2, 2, -0, -2}");
	EXPECT(M("  a = bf16[2] constant({2.5, -3.5})\n"
	         "  ROOT c = bf16[2] round-nearest-even(a)\n"),
	       "{2, -4}");
}

/* f32 (and narrower) compute in float: rsqrt(6) = 1/sqrtf(6) rounded in
 * float is 0x3ED105EB = 1053885931 (1/sqrt(6) rounded once would be
 * ...EC); logistic(17) = 1/(1 + expf(-17)) where expf(-17) ~ 4.1e-8 is
 * below half an ulp of 1, so 1 + e = 1 and the result is exactly 1. */
static void float_compute_type(void)
{
	EXPECT(M("  a = f32[] constant(6)\n"
	         "  r = f32[] rsqrt(a)\n"
	         "  ROOT c = u32[] bitcast-convert(r)\n"),
	       "1053885931");
	EXPECT(M("  a = f32[] constant(17)\n"
	         "  ROOT c = f32[] logistic(a)\n"),
	       "1");
}

/* count-leading-zeros and popcnt count the bits of the operand's own
 * width (see docs/evaluator.md on XLA's narrow-signed quirk). */
static void bit_counts(void)
{
	EXPECT(M("  a = s32[4] constant({-1, 0, 1, 65536})\n"
	         "  ROOT c = s32[4] count-leading-zeros(a)\n"),
	       "{0, 32, 31, 15}");
	EXPECT(M("  a = s8[2] constant({-128, 1})\n"
	         "  ROOT c = s8[2] count-leading-zeros(a)\n"),
	       "{0, 7}");
	EXPECT(M("  a = u64[2] constant({0, 1})\n"
	         "  ROOT c = u64[2] count-leading-zeros(a)\n"),
	       "{64, 63}");
	EXPECT(M("  a = u4[2] constant({1, 0})\n"
	         "  ROOT c = u4[2] count-leading-zeros(a)\n"),
	       "{3, 4}");
	EXPECT(M("  a = s8[2] constant({-1, -128})\n"
	         "  ROOT c = s8[2] popcnt(a)\n"),
	       "{8, 1}");
	/* E6: XLA CPU counts an s2/s4 value in its byte, sign-extended:
	 * popcnt(s4 -1) = popcnt(0xFF) = 8, which wraps to -8 in s4;
	 * popcnt(s4 -7) = popcnt(0xF9) = 6; clz counts the own width */
	EXPECT(M("  a = s4[3] constant({-1, 7, -7})\n"
	         "  ROOT c = s4[3] popcnt(a)\n"),
	       "{-8, 3, 6}");
	EXPECT(M("  a = s4[2] constant({-1, 1})\n"
	         "  ROOT c = s4[2] count-leading-zeros(a)\n"),
	       "{0, 3}");
	/* s2 counts its own bits: popcnt(s2 -1) = 2, which wraps to -2 */
	EXPECT(M("  a = s2[2] constant({-1, -2})\n"
	         "  ROOT c = s2[2] popcnt(a)\n"),
	       "{-2, 1}");
	/* s4 3^-6 = 0 */
	EXPECT(M("  a = s4[] constant(3)\n"
	         "  b = s4[] constant(-6)\n"
	         "  ROOT c = s4[] power(a, b)\n"),
	       "0");
	/* u4 12 is a positive exponent (u4 13^12 = 13^12 mod 16 = 1) */
	EXPECT(M("  a = u4[] constant(13)\n"
	         "  b = u4[] constant(12)\n"
	         "  ROOT c = u4[] power(a, b)\n"),
	       "1");
}

/* convert: float -> int: NaN -> 0, >= max -> max, <= lowest -> lowest,
 * else truncation; -> pred: != 0 (NaN is true); int -> f16/bf16/f8 and
 * f64 -> f16/bf16 go through f32 (Eigen/ml_dtypes constructors); NaN
 * keeps its sign. */
static void converts(void)
{
	/* 2^31 and -2^31-256 saturate */
	EXPECT(M("  a = f32[7] constant({nan, inf, -inf, 2147483648, -2147483904, 1.9, -1.9})\n"
	         "  ROOT c = s32[7] convert(a)\n"),
	       "{0, 2147483647, -2147483648, 2147483647, -2147483648, 1, -1}");
	EXPECT(M("  a = f32[5] constant({-1, 255.5, 256, nan, 3.7})\n"
	         "  ROOT c = u8[5] convert(a)\n"),
	       "{0, 255, 255, 0, 3}");
	EXPECT(M("  a = f16[2] constant({65504, -65504})\n"
	         "  ROOT c = s16[2] convert(a)\n"),
	       "{32767, -32768}");
	EXPECT(M("  a = f64[2] constant({1.8446744073709552e19, -0.5})\n"
	         "  ROOT c = u64[2] convert(a)\n"),
	       "{18446744073709551615, 0}");
	EXPECT(M("  a = f32[3] constant({nan, -0, 0.1})\n"
	         "  ROOT c = pred[3] convert(a)\n"),
	       "{true, false, true}");
	EXPECT(M("  a = f32[3] constant({7.9, -9, nan})\n"
	         "  ROOT c = s4[3] convert(a)\n"),
	       "{7, -8, 0}");
	EXPECT(M("  a = s32[2] constant({17, -1})\n"
	         "  ROOT c = u4[2] convert(a)\n"),
	       "{1, 15}");
	EXPECT(M("  a = f8e4m3fn[2] constant({448, -448})\n"
	         "  ROOT c = s8[2] convert(a)\n"),
	       "{127, -128}");
	/* s32 2^24+2^16+1 -> f32 ties to even 2^24+2^16 -> bf16 ties to
	 * even 2^24 (0x4B80); rounding once would give 2^24+2^17 (0x4B81) */
	EXPECT(M("  a = s32[] constant(16842753)\n"
	         "  b = bf16[] convert(a)\n"
	         "  ROOT c = u16[] bitcast-convert(b)\n"),
	       "19328");
	EXPECT(M("  a = f64[] constant(16842753)\n"
	         "  b = bf16[] convert(a)\n"
	         "  ROOT c = u16[] bitcast-convert(b)\n"),
	       "19328");
	/* f64 1+2^-11+2^-40 -> f32 1+2^-11 -> f16 ties to even 1.0 (0x3C00) */
	EXPECT(M("  a = f64[] constant(1.0004882812509095)\n"
	         "  b = f16[] convert(a)\n"
	         "  ROOT c = u16[] bitcast-convert(b)\n"),
	       "15360");
	/* s32 -> f8e4m3fn: 448 = 0x7E, 464 ties to 448, 1000 -> NaN 0x7F */
	EXPECT(M("  a = s32[3] constant({448, 464, 1000})\n"
	         "  b = f8e4m3fn[3] convert(a)\n"
	         "  ROOT c = u8[3] bitcast-convert(b)\n"),
	       "{126, 126, 127}");
	/* u64 max -> f32 rounds to 2^64 = 0x5F800000 */
	EXPECT(M("  a = u64[] constant(18446744073709551615)\n"
	         "  b = f32[] convert(a)\n"
	         "  ROOT c = u32[] bitcast-convert(b)\n"),
	       "1602224128");
	/* -nan keeps its sign: f16 0xFE00, bf16 0xFFC0, f8e5m2 0xFE,
	 * f8e4m3fn 0xFF; f8e4m3fnuz has one NaN 0x80 */
	EXPECT(M("  a = f32[] constant(-nan)\n"
	         "  h = f16[] convert(a)\n"
	         "  hb = u16[] bitcast-convert(h)\n"
	         "  b = bf16[] convert(a)\n"
	         "  bb = u16[] bitcast-convert(b)\n"
	         "  e = f8e5m2[] convert(a)\n"
	         "  eb = u8[] bitcast-convert(e)\n"
	         "  f = f8e4m3fn[] convert(a)\n"
	         "  fb = u8[] bitcast-convert(f)\n"
	         "  z = f8e4m3fnuz[] convert(a)\n"
	         "  zb = u8[] bitcast-convert(z)\n"
	         "  ROOT t = (u16[], u16[], u8[], u8[], u8[]) tuple(hb, bb, eb, fb, zb)\n"),
	       "65024 | 65472 | 254 | 255 | 128");
	/* f16 -nan 0xFE00 widens to f32 0xFFC00000 (sign and payload kept) */
	EXPECT(M("  a = u16[] constant(65024)\n"
	         "  h = f16[] bitcast-convert(a)\n"
	         "  f = f32[] convert(h)\n"
	         "  ROOT c = u32[] bitcast-convert(f)\n"),
	       "4290772992");
}

/* bitcast-convert reinterprets bits, little-endian across widths. */
static void bitcasts(void)
{
	EXPECT(M("  a = f32[] constant(-0)\n"
	         "  ROOT c = s32[] bitcast-convert(a)\n"),
	       "-2147483648");
	EXPECT(M("  a = s8[2] constant({-1, 1})\n"
	         "  ROOT c = u16[] bitcast-convert(a)\n"),
	       "511");
	/* NaN payload 0x7FC00001 survives f32 */
	EXPECT(M("  a = u32[] constant(2143289345)\n"
	         "  f = f32[] bitcast-convert(a)\n"
	         "  ROOT c = u32[] bitcast-convert(f)\n"),
	       "2143289345");
	EXPECT(M("  a = s4[2] constant({-1, -8})\n"
	         "  ROOT c = u4[2] bitcast-convert(a)\n"),
	       "{15, 8}");
}

/* reduce-precision: round to nearest even on the mantissa, exponent
 * overflow to inf; E7 (XLA CPU): a NaN comes back unchanged, also with 0
 * mantissa bits (was: +inf) and signalling ones. */
static void reduce_precision(void)
{
	/* 1.5 with 0 mantissa bits ties to 2; -nan with 0 mantissa bits stays */
	EXPECT(M("  a = f32[2] constant({1.5, -nan})\n"
	         "  ROOT c = f32[2] reduce-precision(a), exponent_bits=5, mantissa_bits=0\n"),
	       "{2, -nan}");
	/* the sNaN 0x7F800001 keeps its bits */
	EXPECT(M("  u = u32[] constant(2139095041)\n"
	         "  s = f32[] bitcast-convert(u)\n"
	         "  r = f32[] reduce-precision(s), exponent_bits=5, mantissa_bits=2\n"
	         "  ROOT c = u32[] bitcast-convert(r)\n"),
	       "2139095041");
	/* 65536 overflows 5 exponent bits (max exponent 15): inf */
	EXPECT(M("  a = f32[2] constant({65536, -nan})\n"
	         "  ROOT c = f32[2] reduce-precision(a), exponent_bits=5, mantissa_bits=10\n"),
	       "{inf, -nan}");
}

/* compare: TOTALORDER on narrow floats; a non-default type is refused. */
static void compares(void)
{
	EXPECT(M("  a = f16[3] constant({-nan, -0, inf})\n"
	         "  b = f16[3] constant({-inf, 0, nan})\n"
	         "  ROOT c = pred[3] compare(a, b), direction=LT, type=TOTALORDER\n"),
	       "{true, true, true}");
	EXPECT_ERR(M("  a = u8[] constant(1)\n"
	             "  b = u8[] constant(2)\n"
	             "  ROOT c = pred[] compare(a, b), direction=LT, type=SIGNED\n"),
	           "type=SIGNED is not valid for u8");
	EXPECT_ERR(M("  a = s32[] constant(1)\n"
	             "  b = s32[] constant(2)\n"
	             "  ROOT c = pred[] compare(a, b), direction=LT, type=TOTALORDER\n"),
	           "type=TOTALORDER is not valid for s32");
}

/* dot: operands converted to the result type, products summed from 0 in
 * order in the ElementwiseT (float for f32 and bf16): 1e8 + 1 = 1e8 in
 * float (ulp 8), so 1e8 + 1 - 1e8 = 0; likewise 2^27 + 1 in bf16's
 * float accumulator. Complex c64 arithmetic is done in float:
 * (1+2^-12 + i)(1+2^-12 + i) has real part (1+2^-11+2^-24) - 1, where
 * the float product ties to even 1+2^-11, giving 2^-11 = 0x3A000000. */
static void dot_and_complex(void)
{
	EXPECT(M("  a = f32[3] constant({1e8, 1, -1e8})\n"
	         "  b = f32[3] constant({1, 1, 1})\n"
	         "  ROOT c = f32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"),
	       "0");
	EXPECT(M("  a = bf16[3] constant({134217728, 1, -134217728})\n"
	         "  b = bf16[3] constant({1, 1, 1})\n"
	         "  ROOT c = bf16[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"),
	       "0");
	EXPECT(M("  a = s8[2] constant({100, 100})\n"
	         "  b = s8[2] constant({100, 100})\n"
	         "  ROOT c = s32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"),
	       "20000");
	EXPECT(M("  r = f32[] constant(1.000244140625)\n"
	         "  i = f32[] constant(1)\n"
	         "  z = c64[] complex(r, i)\n"
	         "  p = c64[] multiply(z, z)\n"
	         "  re = f32[] real(p)\n"
	         "  ROOT c = u32[] bitcast-convert(re)\n"),
	       "973078528");
}

/* E1: abs, negate, sign of a NaN, real and copy touch only the sign bit
 * (IEEE 754 5.5.1; XLA CPU keeps signalling NaNs and payloads), and a
 * convert to the same type is a no-op; E8: f8e8m0fnu has no zero, so 0
 * and what rounds below 2^-127 become its NaN 0xFF; E9: f4e2m1fn has no
 * NaN: XLA CPU converts one to the -0 pattern 0x8; E10: complex multiply
 * is the textbook product and abs is NaN when a part is NaN, even beside
 * inf (no C Annex G recovery); E11: a dot without contracting dimensions
 * is the product itself (-1 * 0 = -0); E12: the fnuz formats' one NaN
 * (0x80) is the smallest value in total order. */
static void xla_cpu_bits(void)
{
	/* sNaN 0x7F800001: negate 0xFF800001, abs of that 0x7F800001, sign
	 * and convert f32 -> f32 keep it */
	EXPECT(M("  u = u32[] constant(2139095041)\n"
	         "  s = f32[] bitcast-convert(u)\n"
	         "  n = f32[] negate(s)\n"
	         "  a = f32[] abs(n)\n"
	         "  g = f32[] sign(s)\n"
	         "  c = f32[] convert(s)\n"
	         "  nb = u32[] bitcast-convert(n)\n"
	         "  ab = u32[] bitcast-convert(a)\n"
	         "  gb = u32[] bitcast-convert(g)\n"
	         "  cb = u32[] bitcast-convert(c)\n"
	         "  ROOT t = (u32[], u32[], u32[], u32[]) tuple(nb, ab, gb, cb)\n"),
	       "4286578689 | 2139095041 | 2139095041 | 2139095041");
	/* f64 sNaN 0x7FF0000000000001 negated: 0xFFF0000000000001 */
	EXPECT(M("  u = u64[] constant(9218868437227405313)\n"
	         "  s = f64[] bitcast-convert(u)\n"
	         "  n = f64[] negate(s)\n"
	         "  ROOT c = u64[] bitcast-convert(n)\n"),
	       "18442240474082181121");
	/* c64 (sNaN, -sNaN): real and imag keep the bits */
	EXPECT(M("  u = u32[2] constant({2139095041, 4286578689})\n"
	         "  s = f32[2] bitcast-convert(u)\n"
	         "  re = f32[1] slice(s), slice={[0:1]}\n"
	         "  r0 = f32[] reshape(re)\n"
	         "  z = c64[] complex(r0, r0)\n"
	         "  i = f32[] imag(z)\n"
	         "  ROOT c = u32[] bitcast-convert(i)\n"),
	       "2139095041");
	/* E8: 0 and -1 -> f8e8m0fnu 0xFF (NaN); 2^-130 -> the smallest
	 * 0x00; 1 -> 0x7F */
	EXPECT(M("  a = f32[4] constant({0, -1, 7.346839692639297e-40, 1})\n"
	         "  b = f8e8m0fnu[4] convert(a)\n"
	         "  ROOT c = u8[4] bitcast-convert(b)\n"),
	       "{255, 255, 0, 127}");
	/* E12: f8e8m0fnu has no sign: 0xC9 > 0xAF in total order */
	EXPECT(M("  a = u8[2] constant({201, 1})\n"
	         "  b = u8[2] constant({175, 255})\n"
	         "  x = f8e8m0fnu[2] bitcast-convert(a)\n"
	         "  y = f8e8m0fnu[2] bitcast-convert(b)\n"
	         "  ROOT c = pred[2] compare(x, y), direction=GT, type=TOTALORDER\n"),
	       "{true, false}");
	/* f32 sNaN -> c64 keeps its bits in the real part */
	EXPECT(M("  u = u32[] constant(2139095041)\n"
	         "  s = f32[] bitcast-convert(u)\n"
	         "  z = c64[] convert(s)\n"
	         "  r = f32[] real(z)\n"
	         "  ROOT c = u32[] bitcast-convert(r)\n"),
	       "2139095041");
	/* E13: c64 -> c128 keeps the imaginary part */
	EXPECT(M("  r = f32[] constant(1)\n"
	         "  i = f32[] constant(0.5)\n"
	         "  z = c64[] complex(r, i)\n"
	         "  w = c128[] convert(z)\n"
	         "  ROOT c = f64[] imag(w)\n"),
	       "0.5");
	/* E14: the f16 denormal 0x03AF reduced to 2 mantissa bits rounds up
	 * to the smallest normal 0x0400 (1024) */
	EXPECT(M("  u = u16[] constant(943)\n"
	         "  h = f16[] bitcast-convert(u)\n"
	         "  r = f16[] reduce-precision(h), exponent_bits=5, mantissa_bits=2\n"
	         "  ROOT c = u16[] bitcast-convert(r)\n"),
	       "1024");
	/* E15: sqrt(15.5) in f8e3m4: f16 sqrt 3.9375 ties to even 4 (0x50),
	 * where rounding the f32 3.937004 once gives 3.875 */
	EXPECT(M("  a = f8e3m4[] constant(15.5)\n"
	         "  s = f8e3m4[] sqrt(a)\n"
	         "  ROOT c = u8[] bitcast-convert(s)\n"),
	       "80");
	/* E9: NaN -> f4e2m1fn 0x8; inf saturates to 6 (0x7) */
	EXPECT(M("  a = f32[3] constant({nan, -nan, inf})\n"
	         "  b = f4e2m1fn[3] convert(a)\n"
	         "  ROOT c = u4[3] bitcast-convert(b)\n"),
	       "{8, 8, 7}");
	/* E10: (0+2i)(inf+nan i) = (0*inf - 2*nan) + (0*nan + 2*inf)i: both
	 * parts NaN (Annex G gives an infinite imaginary part) */
	EXPECT(M("  z = f32[] constant(0)\n"
	         "  two = f32[] constant(2)\n"
	         "  pinf = f32[] constant(inf)\n"
	         "  qnan = f32[] constant(nan)\n"
	         "  a = c64[] complex(z, two)\n"
	         "  b = c64[] complex(pinf, qnan)\n"
	         "  p = c64[] multiply(a, b)\n"
	         "  i = f32[] imag(p)\n"
	         "  m = f32[] abs(b)\n"
	         "  ni = pred[] compare(i, i), direction=NE\n"
	         "  nm = pred[] compare(m, m), direction=NE\n"
	         "  ROOT t = (pred[], pred[]) tuple(ni, nm)\n"),
	       "true | true");
	/* E11: an outer product keeps -0 */
	EXPECT(M("  a = f32[1] constant({-1})\n"
	         "  b = f32[1] constant({0})\n"
	         "  d = f32[1,1] dot(a, b), lhs_contracting_dims={}, rhs_contracting_dims={}\n"
	         "  ROOT c = f32[] reshape(d)\n"),
	       "-0");
	/* E12: f8e4m3fnuz NaN < -1 < +0 in total order */
	EXPECT(M("  a = f8e4m3fnuz[2] constant({nan, -1})\n"
	         "  b = f8e4m3fnuz[2] constant({-1, 0})\n"
	         "  ROOT c = pred[2] compare(a, b), direction=LT, type=TOTALORDER\n"),
	       "{true, true}");
}

/* Splats (one stored element: broadcasts of a scalar): elementwise ops,
 * broadcasts and reshapes of them are computed once into splats; other
 * ops, and the result, get them expanded under the budget (issue 31 goal
 * 2). (An array constant written as one scalar is element 0 only, as XLA
 * reads it: tests/lit/parser/scalar_array_constant.hlo.) */
static void splats(void)
{
	EXPECT(M("  c_ = f32[] constant(2)\n"
	         "  c = f32[4] broadcast(c_), dimensions={}\n"
	         "  ROOT n = f32[4] negate(c)\n"),
	       "{-2, -2, -2, -2}");
	EXPECT(M("  a_ = f32[] constant(2)\n"
	         "  a = f32[3] broadcast(a_), dimensions={}\n"
	         "  b = f32[3] constant({1, 2, 3})\n"
	         "  ROOT s = f32[3] add(a, b)\n"),
	       "{3, 4, 5}");
	EXPECT(M("  a_ = f32[] constant(1.5)\n"
	         "  a = f32[2] broadcast(a_), dimensions={}\n"
	         "  b = f32[] constant(0.25)\n"
	         "  m = f32[2] multiply(a, b)\n"
	         "  ROOT r = f32[3,2] broadcast(m), dimensions={1}\n"),
	       "{ { 0.375, 0.375 }, { 0.375, 0.375 }, { 0.375, 0.375 } }");
	EXPECT(M("  a_ = bf16[] constant(3)\n"
	         "  a = bf16[2,2] broadcast(a_), dimensions={}\n"
	         "  b_ = bf16[] constant(-1)\n"
	         "  b = bf16[2,2] broadcast(b_), dimensions={}\n"
	         "  c = pred[2,2] compare(a, b), direction=GT\n"
	         "  r = pred[4] reshape(c)\n"
	         "  s = s32[4] convert(r)\n"
	         "  ROOT t = (s32[4], pred[2,2]) tuple(s, c)\n"),
	       "{1, 1, 1, 1} | { { true, true }, { true, true } }");
	EXPECT(M("  a_ = s32[] constant(7)\n"
	         "  a = s32[3] broadcast(a_), dimensions={}\n"
	         "  b_ = s32[] constant(2)\n"
	         "  b = s32[3] broadcast(b_), dimensions={}\n"
	         "  p_ = pred[] constant(true)\n"
	         "  p = pred[3] broadcast(p_), dimensions={}\n"
	         "  d = s32[3] divide(a, b)\n"
	         "  ROOT s = s32[3] select(p, d, b)\n"),
	       "{3, 3, 3}");
	/* a NaN's bits are kept through the one computation */
	EXPECT(M("  a_ = f32[] constant(-nan(0x12345))\n"
	         "  a = f32[2] broadcast(a_), dimensions={}\n"
	         "  ROOT n = f32[2] negate(a)\n"),
	       "{nan(0x12345), nan(0x12345)}");
	/* computed once: the million-element negate of the broadcast costs
	 * one element-op; the budget's up-front estimate counts the three
	 * million-element instructions, 3.1M covers it and the slice's
	 * expansion (1M) */
	EXPECT_BUDGET(M("  c_ = f32[] constant(2)\n"
	                "  c = f32[1000000] broadcast(c_), dimensions={}\n"
	                "  n = f32[1000000] negate(c)\n"
	                "  b = f32[1000,1000] reshape(n)\n"
	                "  ROOT s = f32[1,2] slice(b), slice={[0:1], [0:2]}\n"),
	              3100000, "{ { -2, -2 } }");
	/* 3.8 GB declared in a few bytes: refused with the budget message,
	 * never allocated */
	EXPECT_ERR(M("  c_ = f32[] constant(9)\n"
	             "  c = f32[961974200] broadcast(c_), dimensions={}\n"
	             "  n = f32[961974200] negate(c)\n"
	             "  ROOT s = f32[2] slice(n), slice={[0:2]}\n"),
	           "over the evaluation budget");
	EXPECT_ERR(M("  c_ = f32[] constant(9)\n"
	             "  ROOT c = f32[961974200] broadcast(c_), dimensions={}\n"), "over the evaluation budget");
}

int main(void)
{
	xla_cpu_bits();
	dot_and_complex();
	shifts();
	clamp();
	maxmin();
	power();
	divide_remainder();
	wrap_abs_sign();
	rounding();
	float_compute_type();
	bit_counts();
	converts();
	bitcasts();
	reduce_precision();
	compares();
	splats();
	printf("test_eval_edges: %d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
