/* test_eval.c - per-op unit tests of the reference evaluator against
 * hand-computed values: integer edge cases (division by zero, INT_MIN/-1,
 * shifts past the width), clamping of dynamic-slice / dynamic-update-slice
 * starts, negative and interior padding, round-to-nearest-even into bf16,
 * f16 and f8, saturating float->int converts, NaN in max and compare, the
 * reductions, dot, gather, scatter, sort, control flow, the uninterpreted
 * hash semantics, budget and refusal cases, and the equivalence check.
 *
 * Each case is a small module whose entry computation uses constants only;
 * the result is printed as an HLO literal and compared as text.
 */
#include "hilo/eval.h"
#include "hilo/hlo_text.h"

#include <stdlib.h>
#include <string.h>

static int failures, checks;

#include "eval_run.h"

static char *run(const char *src)
{
	return run_budget(src, 0);
}

#define EXPECT(src, want) expect(__LINE__, run(src), want)
#define EXPECT_ERR(src, sub) expect_err(__LINE__, run(src), sub)

static void expect(int line, char *got, const char *want)
{
	checks++;
	if (strcmp(got, want)) {
		failures++;
		fprintf(stderr, "test_eval.c:%d: got '%s', want '%s'\n", line, got, want);
	}
	free(got);
}

static void expect_err(int line, char *got, const char *sub)
{
	checks++;
	if (strncmp(got, "ERROR: ", 7) || !strstr(got, sub)) {
		failures++;
		fprintf(stderr, "test_eval.c:%d: got '%s', want an error containing '%s'\n", line,
			got, sub);
	}
	free(got);
}

#define M(body) "HloModule t\n\nENTRY main {\n" body "}\n"

static void test_integer_edges(void)
{
	EXPECT(M("  a = s32[5] constant({7, -7, 5, -2147483648, -5})\n"
	         "  b = s32[5] constant({2, 2, 0, -1, 0})\n"
	         "  ROOT d = s32[5] divide(a, b)\n"),
	       "{3, -3, -1, -2147483648, -1}");
	EXPECT(M("  a = s32[5] constant({7, -7, 5, -2147483648, -5})\n"
	         "  b = s32[5] constant({2, 2, 0, -1, 0})\n"
	         "  ROOT d = s32[5] remainder(a, b)\n"),
	       "{1, -1, 5, 0, -5}");
	EXPECT(M("  a = s64[2] constant({-9223372036854775808, 9})\n"
	         "  b = s64[2] constant({-1, 0})\n"
	         "  ROOT d = s64[2] divide(a, b)\n"),
	       "{-9223372036854775808, -1}");
	EXPECT(M("  a = u32[2] constant({7, 4000000000})\n"
	         "  b = u32[2] constant({0, 3})\n"
	         "  ROOT d = u32[2] divide(a, b)\n"),
	       "{4294967295, 1333333333}");
	EXPECT(M("  a = s8[3] constant({127, -128, 100})\n"
	         "  b = s8[3] constant({1, -1, 100})\n"
	         "  ROOT d = s8[3] add(a, b)\n"),
	       "{-128, 127, -56}");
	EXPECT(M("  a = s32[4] constant({1, 1, 1, -1})\n"
	         "  b = s32[4] constant({3, 31, 32, -1})\n"
	         "  ROOT d = s32[4] shift-left(a, b)\n"),
	       "{8, -2147483648, 0, 0}");
	EXPECT(M("  a = s32[3] constant({-8, -8, 8})\n"
	         "  b = s32[3] constant({1, 40, 40})\n"
	         "  ROOT d = s32[3] shift-right-arithmetic(a, b)\n"),
	       "{-4, -1, 0}");
	EXPECT(M("  a = s32[2] constant({-8, -8})\n"
	         "  b = s32[2] constant({28, 32})\n"
	         "  ROOT d = s32[2] shift-right-logical(a, b)\n"),
	       "{15, 0}");
	EXPECT(M("  a = s32[2] constant({-2147483648, -3})\n"
	         "  ROOT d = s32[2] abs(a)\n"),
	       "{-2147483648, 3}");
	EXPECT(M("  a = u8[3] constant({0, 255, 16})\n"
	         "  ROOT d = u8[3] count-leading-zeros(a)\n"),
	       "{8, 0, 3}");
	EXPECT(M("  a = s16[2] constant({-1, 7})\n"
	         "  ROOT d = s16[2] popcnt(a)\n"),
	       "{16, 3}");
	EXPECT(M("  a = s32[3] constant({2, -2, 3})\n"
	         "  b = s32[3] constant({10, -1, 0})\n"
	         "  ROOT d = s32[3] power(a, b)\n"),
	       "{1024, 0, 1}");
	EXPECT(M("  a = s4[3] constant({7, -8, 3})\n"
	         "  b = s4[3] constant({1, -1, 3})\n"
	         "  ROOT d = s4[3] add(a, b)\n"),
	       "{-8, 7, 6}");
	EXPECT(M("  a = s32[2] constant({-1, 65536})\n"
	         "  b = s32[2] constant({-1, 65536})\n"
	         "  ROOT d = s32[2] mulhi(a, b)\n"),
	       "{0, 1}");
}

static void test_float_rounding(void)
{
	/* bf16 has 7 mantissa bits: 1+2^-8 ties to 1.0 (even), 1+3*2^-8 ties
	 * up to 1+2^-6 (0x3F82); bits read back through bitcast-convert */
	EXPECT(M("  a = f32[3] constant({1.00390625, 1.01171875, -2})\n"
	         "  b = bf16[3] convert(a)\n"
	         "  ROOT c = u16[3] bitcast-convert(b)\n"),
	       "{16256, 16258, 49152}");
	/* f16: 65519 rounds to the max 65504 (0x7BFF), 65520 ties up to inf
	 * (0x7C00), 2^-25 ties to 0 and 3*2^-25 rounds to the least subnormal */
	EXPECT(M("  a = f32[4] constant({65519, 65520, 2.98023224e-08, 8.94069672e-08})\n"
	         "  b = f16[4] convert(a)\n"
	         "  ROOT c = u16[4] bitcast-convert(b)\n"),
	       "{31743, 31744, 0, 2}");
	/* f8e4m3fn: max 448 (0x7E); 464 ties to 448; 500 overflows to NaN
	 * (0x7F, no inf in fn types); -0.0009 (under half of 2^-9) rounds to -0 (0x80) */
	EXPECT(M("  a = f32[4] constant({448, 464, 500, -0.0009})\n"
	         "  b = f8e4m3fn[4] convert(a)\n"
	         "  ROOT c = u8[4] bitcast-convert(b)\n"),
	       "{126, 126, 127, 128}");
	/* f8e5m2 (2 mantissa bits): 1.125 ties to 1.0 (0x3C); 1.375 ties up to
	 * 1.5 (0x3E); 1e6 overflows to inf (0x7C) */
	EXPECT(M("  a = f32[3] constant({1.125, 1.375, 1e6})\n"
	         "  b = f8e5m2[3] convert(a)\n"
	         "  ROOT c = u8[3] bitcast-convert(b)\n"),
	       "{60, 62, 124}");
	/* f8e4m3fnuz: NaN is 0x80, -0 does not exist */
	EXPECT(M("  a = f32[2] constant({nan, -0})\n"
	         "  b = f8e4m3fnuz[2] convert(a)\n"
	         "  ROOT c = u8[2] bitcast-convert(b)\n"),
	       "{128, 0}");
	/* bf16 arithmetic rounds its result: 256 + 1 = 256 */
	EXPECT(M("  a = bf16[] constant(256)\n"
	         "  b = bf16[] constant(1)\n"
	         "  ROOT c = bf16[] add(a, b)\n"),
	       "256");
	EXPECT(M("  a = f32[] constant(1)\n"
	         "  ROOT c = s32[] bitcast-convert(a)\n"),
	       "1065353216");
	EXPECT(M("  a = f32[] constant(1)\n"
	         "  ROOT c = u8[4] bitcast-convert(a)\n"),
	       "{0, 0, 128, 63}");
	EXPECT(M("  a = u8[2,2] constant({{0, 60}, {0, 188}})\n"
	         "  ROOT c = f16[2] bitcast-convert(a)\n"),
	       "{1, -1}");
}

static void test_complex_and_pred_bits(void)
{
	/* (1+2i)(3+4i) = -5+10i; (-5+10i)/(3+4i) = 1+2i */
	EXPECT(M("  a = f32[] constant(1)\n  b = f32[] constant(2)\n"
	         "  c = f32[] constant(3)\n  d = f32[] constant(4)\n"
	         "  x = c64[] complex(a, b)\n  y = c64[] complex(c, d)\n"
	         "  m = c64[] multiply(x, y)\n  q = c64[] divide(m, y)\n"
	         "  r1 = f32[] real(m)\n  i1 = f32[] imag(m)\n  r2 = f32[] real(q)\n  i2 = f32[] imag(q)\n"
	         "  ROOT t = (f32[], f32[], f32[], f32[]) tuple(r1, i1, r2, i2)\n"),
	       "-5 | 10 | 1 | 2");
	EXPECT(M("  a = pred[4] constant({true, false, false, false})\n"
	         "  ROOT b = s32[] bitcast-convert(a)\n"),
	       "1");
}

static void test_convert(void)
{
	EXPECT(M("  a = f32[6] constant({2.7, -2.7, nan, 1e10, -1e10, inf})\n"
	         "  ROOT c = s32[6] convert(a)\n"),
	       "{2, -2, 0, 2147483647, -2147483648, 2147483647}");
	EXPECT(M("  a = f32[3] constant({-1.5, 300, 255.9})\n"
	         "  ROOT c = u8[3] convert(a)\n"),
	       "{0, 255, 255}");
	EXPECT(M("  a = s32[3] constant({300, -129, 128})\n"
	         "  ROOT c = s8[3] convert(a)\n"),
	       "{44, 127, -128}");
	EXPECT(M("  a = f32[3] constant({0, nan, -0.5})\n"
	         "  ROOT c = pred[3] convert(a)\n"),
	       "{false, true, true}");
	EXPECT(M("  a = s32[] constant(16777217)\n"
	         "  ROOT c = f32[] convert(a)\n"),
	       "16777216");
	EXPECT(M("  a = u32[] constant(4294967295)\n"
	         "  ROOT c = f64[] convert(a)\n"),
	       "4294967295");
}

static void test_compare_and_nan(void)
{
	EXPECT(M("  a = f32[4] constant({nan, 1, nan, 2})\n"
	         "  b = f32[4] constant({1, nan, nan, 1})\n"
	         "  ROOT c = f32[4] maximum(a, b)\n"),
	       "{nan, nan, nan, 2}");
	EXPECT(M("  a = f32[3] constant({nan, 1, nan})\n"
	         "  b = f32[3] constant({nan, 1, 2})\n"
	         "  ROOT c = pred[3] compare(a, b), direction=EQ\n"),
	       "{false, true, false}");
	EXPECT(M("  a = f32[3] constant({nan, 1, nan})\n"
	         "  b = f32[3] constant({nan, 1, 2})\n"
	         "  ROOT c = pred[3] compare(a, b), direction=NE\n"),
	       "{true, false, true}");
	EXPECT(M("  a = f32[3] constant({-0, -inf, 5})\n"
	         "  b = f32[3] constant({0, -nan, nan})\n"
	         "  ROOT c = pred[3] compare(a, b), direction=LT, type=TOTALORDER\n"),
	       "{true, false, true}");
	/* UNSIGNED is the default comparison of u32; on s32 it is refused
	 * (XLA's verifier rejects a non-default comparison type) */
	EXPECT(M("  a = u32[2] constant({4294967295, 1})\n"
	         "  b = u32[2] constant({1, 1})\n"
	         "  ROOT c = pred[2] compare(a, b), direction=LT, type=UNSIGNED\n"),
	       "{false, false}");
	EXPECT_ERR(M("  a = s32[2] constant({-1, 1})\n"
	             "  b = s32[2] constant({1, 1})\n"
	             "  ROOT c = pred[2] compare(a, b), direction=LT, type=UNSIGNED\n"),
	           "type=UNSIGNED is not valid for s32");
	EXPECT(M("  lo = s32[] constant(0)\n"
	         "  hi = s32[] constant(10)\n"
	         "  x = s32[3] constant({-5, 3, 12})\n"
	         "  ROOT c = s32[3] clamp(lo, x, hi)\n"),
	       "{0, 3, 10}");
	EXPECT(M("  p = pred[3] constant({1, 0, 1})\n"
	         "  a = s32[3] constant({1, 2, 3})\n"
	         "  b = s32[3] constant({4, 5, 6})\n"
	         "  ROOT c = s32[3] select(p, a, b)\n"),
	       "{1, 5, 3}");
}

static void test_shape_ops(void)
{
	/* dynamic-slice: starts clamped into [0, 5-2] */
	EXPECT(M("  a = s32[5] iota(), iota_dimension=0\n"
	         "  i = s32[] constant(4)\n"
	         "  ROOT d = s32[2] dynamic-slice(a, i), dynamic_slice_sizes={2}\n"),
	       "{3, 4}");
	EXPECT(M("  a = s32[5] iota(), iota_dimension=0\n"
	         "  i = s32[] constant(-3)\n"
	         "  ROOT d = s32[2] dynamic-slice(a, i), dynamic_slice_sizes={2}\n"),
	       "{0, 1}");
	EXPECT(M("  a = s32[2,3] iota(), iota_dimension=1\n"
	         "  i = s32[] constant(1)\n"
	         "  j = s32[] constant(7)\n"
	         "  ROOT d = s32[1,2] dynamic-slice(a, i, j), dynamic_slice_sizes={1,2}\n"),
	       "{ { 1, 2 } }");
	/* dynamic-update-slice: start 10 clamps to 3 */
	EXPECT(M("  a = s32[5] constant({0, 0, 0, 0, 0})\n"
	         "  u = s32[2] constant({1, 2})\n"
	         "  i = s32[] constant(10)\n"
	         "  ROOT d = s32[5] dynamic-update-slice(a, u, i)\n"),
	       "{0, 0, 0, 1, 2}");
	EXPECT(M("  a = s32[5] constant({0, 0, 0, 0, 0})\n"
	         "  u = s32[2] constant({1, 2})\n"
	         "  i = u32[] constant(4294967295)\n"
	         "  ROOT d = s32[5] dynamic-update-slice(a, u, i)\n"),
	       "{0, 0, 0, 1, 2}");
	/* pad: negative low edge, interior 1, high 2 */
	EXPECT(M("  a = s32[3] constant({1, 2, 3})\n"
	         "  z = s32[] constant(9)\n"
	         "  ROOT p = s32[6] pad(a, z), padding=-1_2_1\n"),
	       "{9, 2, 9, 3, 9, 9}");
	EXPECT(M("  a = s32[4] constant({1, 2, 3, 4})\n"
	         "  z = s32[] constant(0)\n"
	         "  ROOT p = s32[2] pad(a, z), padding=-1_-1\n"),
	       "{2, 3}");
	EXPECT(M("  a = s32[2,2] constant({{1, 2}, {3, 4}})\n"
	         "  z = s32[] constant(0)\n"
	         "  ROOT p = s32[3,3] pad(a, z), padding=1_0x0_0_1\n"),
	       "{ { 0, 0, 0 }, { 1, 0, 2 }, { 3, 0, 4 } }");
	EXPECT(M("  a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
	         "  ROOT t = s32[3,2] transpose(a), dimensions={1,0}\n"),
	       "{ { 1, 4 }, { 2, 5 }, { 3, 6 } }");
	EXPECT(M("  a = s32[2] constant({1, 2})\n"
	         "  ROOT b = s32[2,3] broadcast(a), dimensions={0}\n"),
	       "{ { 1, 1, 1 }, { 2, 2, 2 } }");
	EXPECT(M("  a = s32[2,1] constant({{1}, {2}})\n"
	         "  b = s32[2,2] constant({{3, 4}, {5, 6}})\n"
	         "  ROOT c = s32[2,3] concatenate(a, b), dimensions={1}\n"),
	       "{ { 1, 3, 4 }, { 2, 5, 6 } }");
	EXPECT(M("  a = s32[7] iota(), iota_dimension=0\n"
	         "  ROOT s = s32[3] slice(a), slice={[1:7:2]}\n"),
	       "{1, 3, 5}");
	EXPECT(M("  a = s32[2,3] iota(), iota_dimension=1\n"
	         "  ROOT r = s32[2,3] reverse(a), dimensions={1}\n"),
	       "{ { 2, 1, 0 }, { 2, 1, 0 } }");
	EXPECT(M("  a = s32[2,3] iota(), iota_dimension=0\n"
	         "  ROOT r = s32[3,2] reshape(a)\n"),
	       "{ { 0, 0 }, { 0, 1 }, { 1, 1 } }");
	EXPECT(M("  ROOT a = f32[4] iota(), iota_dimension=0\n"), "{0, 1, 2, 3}");
	/* bitcast reinterprets the physical buffer: into a column-major
	 * layout it is a transpose of the logical values */
	EXPECT(M("  a = s32[2,3]{1,0} constant({{1, 2, 3}, {4, 5, 6}})\n"
	         "  ROOT b = s32[3,2]{0,1} bitcast(a)\n"),
	       "{ { 1, 4 }, { 2, 5 }, { 3, 6 } }");
	EXPECT(M("  a = s32[2,3]{1,0} constant({{1, 2, 3}, {4, 5, 6}})\n"
	         "  ROOT b = s32[3,2]{1,0} bitcast(a)\n"),
	       "{ { 1, 2 }, { 3, 4 }, { 5, 6 } }");
}

#define ADD_S32 "add {\n  x = s32[] parameter(0)\n  y = s32[] parameter(1)\n  ROOT a = s32[] add(x, y)\n}\n\n"
#define M2(comps, body) "HloModule t\n\n" comps "ENTRY main {\n" body "}\n"

static void test_reductions(void)
{
	EXPECT(M2(ADD_S32, "  a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
	                   "  z = s32[] constant(0)\n"
	                   "  ROOT r = s32[2] reduce(a, z), dimensions={1}, to_apply=add\n"),
	       "{6, 15}");
	EXPECT(M2(ADD_S32, "  a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
	                   "  z = s32[] constant(10)\n"
	                   "  ROOT r = s32[] reduce(a, z), dimensions={0,1}, to_apply=add\n"),
	       "31");
	/* argmax-style variadic reduce with a general (non fast-path) reducer */
	EXPECT(M2("amax {\n  a = s32[] parameter(0)\n  ai = s32[] parameter(1)\n"
	          "  b = s32[] parameter(2)\n  bi = s32[] parameter(3)\n"
	          "  g = pred[] compare(a, b), direction=GE\n"
	          "  m = s32[] select(g, a, b)\n  mi = s32[] select(g, ai, bi)\n"
	          "  ROOT t = (s32[], s32[]) tuple(m, mi)\n}\n\n",
	          "  v = s32[4] constant({3, 9, 2, 9})\n"
	          "  i = s32[4] iota(), iota_dimension=0\n"
	          "  lo = s32[] constant(-100)\n  z = s32[] constant(-1)\n"
	          "  ROOT r = (s32[], s32[]) reduce(v, i, lo, z), dimensions={0}, to_apply=amax\n"),
	       "9 | 1");
	EXPECT(M2(ADD_S32, "  a = s32[4] constant({1, 2, 3, 4})\n"
	                   "  z = s32[] constant(0)\n"
	                   "  ROOT r = s32[3] reduce-window(a, z), window={size=2}, to_apply=add\n"),
	       "{3, 5, 7}");
	EXPECT(M2(ADD_S32, "  a = s32[4] constant({1, 2, 3, 4})\n"
	                   "  z = s32[] constant(0)\n"
	                   "  ROOT r = s32[3] reduce-window(a, z), window={size=2 stride=2 pad=1_1}, to_apply=add\n"),
	       "{1, 5, 4}");
	EXPECT(M2(ADD_S32, "  a = s32[2] constant({1, 2})\n"
	                   "  b = s32[2] constant({10, 20})\n"
	                   "  ROOT r = s32[2] map(a, b), dimensions={0}, to_apply=add\n"),
	       "{11, 22}");
	EXPECT(M("  a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
	         "  b = s32[3,2] constant({{1, 0}, {0, 1}, {1, 1}})\n"
	         "  ROOT d = s32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"),
	       "{ { 4, 5 }, { 10, 11 } }");
	EXPECT(M("  a = f32[2,1,2] constant({{{1, 2}}, {{3, 4}}})\n"
	         "  b = f32[2,2,1] constant({{{1}, {1}}, {{2}, {0}}})\n"
	         "  ROOT d = f32[2,1,1] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, "
	         "lhs_contracting_dims={2}, rhs_contracting_dims={1}\n"),
	       "{ { {3} }, { {6} } }");
	EXPECT(M("  a = bf16[2] constant({1, 2})\n"
	         "  b = bf16[2] constant({3, 4})\n"
	         "  ROOT d = f32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"),
	       "11");
}

static void test_gather_scatter_sort(void)
{
	/* rows 2 and 0 (index 5 clamps to the last row start) */
	EXPECT(M("  a = s32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})\n"
	         "  i = s32[3] constant({2, 0, 5})\n"
	         "  ROOT g = s32[3,2] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, "
	         "start_index_map={0}, index_vector_dim=1, slice_sizes={1,2}\n"),
	       "{ { 5, 6 }, { 1, 2 }, { 5, 6 } }");
	/* scatter-add with a repeated index and an out-of-range one (skipped) */
	EXPECT(M2(ADD_S32, "  a = s32[3] constant({0, 0, 0})\n"
	                   "  i = s32[3,1] constant({{1}, {1}, {7}})\n"
	                   "  u = s32[3] constant({10, 20, 40})\n"
	                   "  ROOT s = s32[3] scatter(a, i, u), update_window_dims={}, "
	                   "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
	                   "index_vector_dim=1, to_apply=add\n"),
	       "{0, 30, 0}");
	EXPECT(M2("lt {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
	          "  ROOT c = pred[] compare(a, b), direction=LT\n}\n\n",
	          "  a = s32[2,3] constant({{3, 1, 2}, {0, -1, 5}})\n"
	          "  ROOT s = s32[2,3] sort(a), dimensions={1}, to_apply=lt\n"),
	       "{ { 1, 2, 3 }, { -1, 0, 5 } }");
	/* key/value sort, stable on equal keys */
	EXPECT(M2("lt {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
	          "  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n"
	          "  ROOT r = pred[] compare(a, b), direction=LT\n}\n\n",
	          "  k = s32[4] constant({2, 1, 2, 1})\n"
	          "  v = s32[4] iota(), iota_dimension=0\n"
	          "  ROOT s = (s32[4], s32[4]) sort(k, v), dimensions={0}, is_stable=true, to_apply=lt\n"),
	       "{1, 1, 2, 2} | {1, 3, 0, 2}");
}

static void test_control_flow(void)
{
	EXPECT(M2("cond {\n  p = (s32[], s32[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
	          "  n = s32[] constant(10)\n  ROOT c = pred[] compare(i, n), direction=LT\n}\n\n"
	          "body {\n  p = (s32[], s32[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
	          "  s = s32[] get-tuple-element(p), index=1\n  one = s32[] constant(1)\n"
	          "  j = s32[] add(i, one)\n  t = s32[] add(s, i)\n"
	          "  ROOT r = (s32[], s32[]) tuple(j, t)\n}\n\n",
	          "  z = s32[] constant(0)\n  init = (s32[], s32[]) tuple(z, z)\n"
	          "  w = (s32[], s32[]) while(init), condition=cond, body=body\n"
	          "  ROOT s = s32[] get-tuple-element(w), index=1\n"),
	       "45");
	EXPECT(M2("b0 {\n  p = s32[] parameter(0)\n  ROOT r = s32[] negate(p)\n}\n\n"
	          "b1 {\n  p = s32[] parameter(0)\n  ROOT r = s32[] add(p, p)\n}\n\n",
	          "  i = s32[] constant(7)\n  x = s32[] constant(5)\n"
	          "  ROOT c = s32[] conditional(i, x, x), branch_computations={b0, b1}\n"),
	       "10"); /* out-of-range index runs the last branch */
	EXPECT(M2("t {\n  p = s32[] parameter(0)\n  ROOT r = s32[] negate(p)\n}\n\n"
	          "f {\n  p = s32[] parameter(0)\n  ROOT r = s32[] add(p, p)\n}\n\n",
	          "  b = pred[] constant(true)\n  x = s32[] constant(5)\n"
	          "  ROOT c = s32[] conditional(b, x, x), true_computation=t, false_computation=f\n"),
	       "-5");
	EXPECT(M2(ADD_S32, "  a = s32[] constant(2)\n  b = s32[] constant(3)\n"
	                   "  ROOT c = s32[] call(a, b), to_apply=add\n"),
	       "5");
	EXPECT(M("  a = s32[] constant(2)\n  t = (s32[], s32[]) tuple(a, a)\n"
	         "  o = (s32[], s32[]) opt-barrier(t)\n"
	         "  ROOT g = s32[] get-tuple-element(o), index=1\n"),
	       "2");
	/* an infinite loop stops at the budget */
	expect_err(__LINE__, run_budget(M2("cond {\n  p = s32[] parameter(0)\n  ROOT c = pred[] constant(true)\n}\n\n"
	              "body {\n  ROOT p = s32[] parameter(0)\n}\n\n",
	              "  z = s32[] constant(0)\n"
	              "  ROOT w = s32[] while(z), condition=cond, body=body\n"), 100000),
	           "budget");
}

static void test_refusals(void)
{
	EXPECT_ERR(M("  ROOT a = f32[100] constant({...})\n"), "elided");
	char *s = run_budget(M("  a = f32[1000] iota(), iota_dimension=0\n"
	                       "  ROOT b = f32[1000] add(a, a)\n"), 1500);
	expect_err(__LINE__, s, "budget");
}

/* Uninterpreted ops: same op on the same values agrees, anything else differs. */
static void test_opaque(void)
{
	const char *src = M("  a = f32[4] constant({1, 2, 3, 4})\n"
	                    "  b = f32[4] constant({1, 2, 3, 5})\n"
	                    "  c1 = f32[4] custom-call(a), custom_call_target=\"foo\"\n"
	                    "  c2 = f32[4] custom-call(a), custom_call_target=\"foo\", metadata={op_name=\"x\"}\n"
	                    "  c3 = f32[4] custom-call(b), custom_call_target=\"foo\"\n"
	                    "  c4 = f32[4] custom-call(a), custom_call_target=\"bar\"\n"
	                    "  g1 = f32[8] all-gather(a), channel_id=1, replica_groups={}, dimensions={0}\n"
	                    "  g2 = f32[8] all-gather(a), channel_id=2, replica_groups={}, dimensions={0}\n"
	                    "  m = f32[4] custom-call(a), custom_call_target=\"NeuronBoundaryMarker-End\"\n"
	                    "  ROOT t = (f32[4], f32[4], f32[4], f32[4], f32[8], f32[8], f32[4]) "
	                    "tuple(c1, c2, c3, c4, g1, g2, m)\n");
	hilo_module *m = parse(src);
	checks++;
	if (!m) {
		failures++;
		return;
	}
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_literal *r = hilo_eval_comp(m, m->entry, NULL, NULL, &d);
	checks += 5;
	if (!r || r->ntuple != 7) {
		failures++;
		hilo_diags_print(stderr, &d);
	} else {
		if (!hilo_literal_equal(r->elems[0], r->elems[1]))
			failures++, fprintf(stderr, "test_eval: metadata changed a custom-call value\n");
		if (hilo_literal_equal(r->elems[0], r->elems[2]))
			failures++, fprintf(stderr, "test_eval: operand value ignored\n");
		if (hilo_literal_equal(r->elems[0], r->elems[3]))
			failures++, fprintf(stderr, "test_eval: target ignored\n");
		if (!hilo_literal_equal(r->elems[4], r->elems[5]))
			failures++, fprintf(stderr, "test_eval: channel_id changed an all-gather\n");
		const hilo_literal *a = hilo_instr_literal(m->entry->root->operands[0]->operands[0]);
		if (!hilo_literal_equal(r->elems[6], a))
			failures++, fprintf(stderr, "test_eval: boundary marker is not an identity\n");
	}
	hilo_diags_free(&d);
	hilo_module_destroy(m);
	/* replica groups by meaning: iota and explicit spellings agree, group
	 * order does not matter, order inside a group does */
	m = parse(M("  a = f32[2] parameter(0)\n"
	            "  g1 = f32[4] all-gather(a), replica_groups=[2,2]<=[2,2]T(1,0), dimensions={0}\n"
	            "  g2 = f32[4] all-gather(a), replica_groups={{1,3},{0,2}}, dimensions={0}\n"
	            "  g3 = f32[4] all-gather(a), replica_groups={{3,1},{0,2}}, dimensions={0}\n"
	            "  g4 = f32[4] all-gather(a), replica_groups=[2,2]<=[4], dimensions={0}\n"
	            "  ROOT t = (f32[4], f32[4], f32[4], f32[4]) tuple(g1, g2, g3, g4)\n"));
	hilo_diags_init(&d);
	checks += 3;
	hilo_literal **args = m ? hilo_eval_random_args(m, m->entry, 3, 0, &d) : NULL;
	r = args ? hilo_eval_comp(m, m->entry, args, NULL, &d) : NULL;
	if (!r || r->ntuple != 4) {
		failures++;
		hilo_diags_print(stderr, &d);
	} else {
		if (!hilo_literal_equal(r->elems[0], r->elems[1]))
			failures++, fprintf(stderr, "test_eval: iota and explicit groups differ\n");
		if (hilo_literal_equal(r->elems[1], r->elems[2]))
			failures++, fprintf(stderr, "test_eval: order inside a group ignored\n");
		if (hilo_literal_equal(r->elems[0], r->elems[3]))
			failures++, fprintf(stderr, "test_eval: different groups agree\n");
	}
	hilo_diags_free(&d);
	if (m)
		hilo_module_destroy(m);
}

/* constant folding entry point refuses uninterpreted ops */
static void test_fold_refuses_opaque(void)
{
	hilo_module *m = parse(M("  a = f32[4] constant({1, 2, 3, 4})\n"
	                         "  ROOT c = f32[4] custom-call(a), custom_call_target=\"foo\"\n"));
	hilo_diags d;
	hilo_diags_init(&d);
	if (!m) {
		failures++;
		return;
	}
	const hilo_instr *cc = m->entry->root;
	hilo_literal *ops[1] = {hilo_instr_literal(cc->operands[0])};
	checks++;
	if (hilo_eval_instr(m, cc, ops, &d)) {
		failures++;
		fprintf(stderr, "test_eval: hilo_eval_instr folded a custom-call\n");
	}
	hilo_diags_free(&d);
	hilo_module_destroy(m);
}

static void test_eval_instr(void)
{
	hilo_module *m = parse(M("  a = s32[3] constant({1, 2, 3})\n"
	                         "  ROOT n = s32[3] negate(a)\n"));
	checks++;
	if (!m) {
		failures++;
		return;
	}
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_literal *ops[1] = {hilo_instr_literal(m->entry->root->operands[0])};
	hilo_literal *r = hilo_eval_instr(m, m->entry->root, ops, &d);
	hilo_buf b;
	hilo_buf_init(&b);
	if (r)
		hilo_print_literal(&b, r, false);
	expect(__LINE__, strdup(r ? hilo_buf_cstr(&b) : "NULL"), "{-1, -2, -3}");
	hilo_buf_free(&b);
	hilo_diags_free(&d);
	hilo_module_destroy(m);
}

static void test_equivalence(void)
{
	const char *a = M("  x = f32[4] parameter(0)\n  y = f32[4] parameter(1)\n"
	                  "  ROOT s = f32[4] subtract(x, y)\n");
	const char *same = M("  x = f32[4] parameter(0)\n  y = f32[4] parameter(1)\n"
	                     "  n = f32[4] negate(y)\n  ROOT s = f32[4] add(x, n)\n");
	const char *swapped = M("  x = f32[4] parameter(0)\n  y = f32[4] parameter(1)\n"
	                        "  ROOT s = f32[4] subtract(y, x)\n");
	hilo_module *ma = parse(a), *mb = parse(same), *mc = parse(swapped);
	hilo_equiv_report r;
	checks += 3;
	if (!ma || !mb || !mc) {
		failures++;
	} else {
		hilo_check_equivalence(ma, mb, 3, 7, NULL, &r);
		if (r.status != 0)
			failures++, fprintf(stderr, "test_eval: equivalent modules: %s\n", r.message);
		hilo_check_equivalence(ma, mc, 3, 7, NULL, &r);
		if (r.status != 1 || !strstr(r.message, "seed 7") || !strstr(r.message, "element [0]"))
			failures++, fprintf(stderr, "test_eval: swapped operands: %d %s\n", r.status,
				r.message);
		hilo_eval_opts tiny = {2};
		hilo_check_equivalence(ma, mb, 3, 7, &tiny, &r);
		if (r.status != 2)
			failures++, fprintf(stderr, "test_eval: over budget not skipped: %s\n", r.message);
	}
	if (ma)
		hilo_module_destroy(ma);
	if (mb)
		hilo_module_destroy(mb);
	if (mc)
		hilo_module_destroy(mc);
}

int main(void)
{
	test_integer_edges();
	test_float_rounding();
	test_convert();
	test_complex_and_pred_bits();
	test_compare_and_nan();
	test_shape_ops();
	test_reductions();
	test_gather_scatter_sort();
	test_control_flow();
	test_refusals();
	test_opaque();
	test_fold_refuses_opaque();
	test_eval_instr();
	test_equivalence();
	printf("test_eval: %d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
