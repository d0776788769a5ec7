/* Small-float unit tests: exact encode/decode of f16, bf16 and every
 * f8/f6/f4 variant against hand-computed bit patterns, round to nearest
 * even, each format's overflow rule (inf, nan, or saturation), exhaustive
 * decode->encode round trips over all bit patterns, XLA's float text, and
 * each format's largest finite and smallest positive value. */
#include "check.h"

#include "hilo/float.h"

#include <math.h>

#define ENC(t, v, bits) CHECK_EQ_I64(hilo_float_encode((t), (v)), (bits))
#define DEC(t, bits, v) CHECK(hilo_float_decode((t), (bits)) == (v))

static void test_f16_bf16(void)
{
	ENC(HILO_T_F16, 1.0, 0x3C00);
	ENC(HILO_T_F16, -2.0, 0xC000);
	ENC(HILO_T_F16, 65504.0, 0x7BFF);
	ENC(HILO_T_F16, 65519.0, 0x7BFF);          /* below the halfway point */
	ENC(HILO_T_F16, 65520.0, 0x7C00);          /* tie rounds to even: inf */
	ENC(HILO_T_F16, INFINITY, 0x7C00);
	ENC(HILO_T_F16, -INFINITY, 0xFC00);
	ENC(HILO_T_F16, -0.0, 0x8000);
	ENC(HILO_T_F16, ldexp(1, -24), 0x0001);     /* smallest subnormal */
	ENC(HILO_T_F16, ldexp(1, -25), 0x0000);     /* tie to even: zero */
	ENC(HILO_T_F16, ldexp(3, -26), 0x0001);     /* 0.75 ulp rounds up */
	ENC(HILO_T_F16, ldexp(3, -25), 0x0002);     /* 1.5 ulp: tie to even 2 */
	ENC(HILO_T_F16, 1.0 + ldexp(1, -11), 0x3C00); /* tie to even */
	ENC(HILO_T_F16, 1.0 + ldexp(3, -11), 0x3C02);
	uint32_t n = hilo_float_encode(HILO_T_F16, NAN);
	CHECK((n & 0x7C00) == 0x7C00 && (n & 0x3FF) != 0);
	DEC(HILO_T_F16, 0x7BFF, 65504.0);
	DEC(HILO_T_F16, 0x0001, ldexp(1, -24));
	DEC(HILO_T_F16, 0x0400, ldexp(1, -14));
	DEC(HILO_T_F16, 0x3555, 0.333251953125);
	CHECK(isinf(hilo_float_decode(HILO_T_F16, 0xFC00)) && hilo_float_decode(HILO_T_F16, 0xFC00) < 0);
	CHECK(isnan(hilo_float_decode(HILO_T_F16, 0x7E00)));
	CHECK(signbit(hilo_float_decode(HILO_T_F16, 0x8000)));

	ENC(HILO_T_BF16, 1.0, 0x3F80);
	ENC(HILO_T_BF16, 1.0 + ldexp(1, -8), 0x3F80);   /* tie to even */
	ENC(HILO_T_BF16, 1.0 + ldexp(3, -8), 0x3F82);   /* tie to even (up) */
	ENC(HILO_T_BF16, 1.0 + ldexp(1, -8) + ldexp(1, -20), 0x3F81); /* above tie */
	ENC(HILO_T_BF16, 3.4028234663852886e38, 0x7F80); /* FLT_MAX rounds to inf */
	ENC(HILO_T_BF16, 3.3895313892515355e38, 0x7F7F); /* bf16 max */
	ENC(HILO_T_BF16, -0.0, 0x8000);
	ENC(HILO_T_BF16, ldexp(1, -133), 0x0001);        /* smallest subnormal */
	DEC(HILO_T_BF16, 0x4049, 3.140625);
	DEC(HILO_T_BF16, 0x7F80, INFINITY);
	n = hilo_float_encode(HILO_T_BF16, NAN);
	CHECK((n & 0x7F80) == 0x7F80 && (n & 0x7F) != 0);
}

static void test_f8_f6_f4(void)
{
	/* e4m3fn: bias 7, no inf, 0x7F/0xFF nan, max 448 */
	ENC(HILO_T_F8E4M3FN, 448.0, 0x7E);
	ENC(HILO_T_F8E4M3FN, 464.0, 0x7E);              /* tie to even */
	ENC(HILO_T_F8E4M3FN, -448.0, 0xFE);
	ENC(HILO_T_F8E4M3FN, 1.0, 0x38);
	ENC(HILO_T_F8E4M3FN, -0.0, 0x80);
	ENC(HILO_T_F8E4M3FN, ldexp(1, -9), 0x01);
	CHECK(isnan(hilo_float_decode(HILO_T_F8E4M3FN, hilo_float_encode(HILO_T_F8E4M3FN, 1000.0))));
	CHECK(isnan(hilo_float_decode(HILO_T_F8E4M3FN, hilo_float_encode(HILO_T_F8E4M3FN, INFINITY))));
	DEC(HILO_T_F8E4M3FN, 0x08, ldexp(1, -6));
	CHECK(isnan(hilo_float_decode(HILO_T_F8E4M3FN, 0x7F)));
	/* e5m2: IEEE-like, max 57344, inf 0x7C */
	ENC(HILO_T_F8E5M2, 57344.0, 0x7B);
	ENC(HILO_T_F8E5M2, INFINITY, 0x7C);
	ENC(HILO_T_F8E5M2, 1e9, 0x7C);
	ENC(HILO_T_F8E5M2, ldexp(1, -16), 0x01);
	DEC(HILO_T_F8E5M2, 0x3C, 1.0);
	DEC(HILO_T_F8E5M2, 0xFC, -INFINITY);
	/* e4m3 (IEEE-like): bias 7, inf 0x78, max 240 */
	DEC(HILO_T_F8E4M3, 0x77, 240.0);
	DEC(HILO_T_F8E4M3, 0x78, INFINITY);
	ENC(HILO_T_F8E4M3, 1.0, 0x38);
	/* e3m4: bias 3, inf 0x70, max 15.5 */
	DEC(HILO_T_F8E3M4, 0x6F, 15.5);
	DEC(HILO_T_F8E3M4, 0x70, INFINITY);
	ENC(HILO_T_F8E3M4, 1.0, 0x30);
	/* fnuz: 0x80 is the only nan, no negative zero */
	ENC(HILO_T_F8E4M3FNUZ, -0.0, 0x00);
	ENC(HILO_T_F8E4M3FNUZ, 1.0, 0x40);
	DEC(HILO_T_F8E4M3FNUZ, 0x7F, 240.0);
	CHECK(isnan(hilo_float_decode(HILO_T_F8E4M3FNUZ, 0x80)));
	ENC(HILO_T_F8E5M2FNUZ, 1.0, 0x40);
	DEC(HILO_T_F8E5M2FNUZ, 0x7F, 57344.0);
	CHECK(isnan(hilo_float_decode(HILO_T_F8E5M2FNUZ, 0x80)));
	DEC(HILO_T_F8E4M3B11FNUZ, 0x7F, 30.0);
	ENC(HILO_T_F8E4M3B11FNUZ, 1.0, 0x58);
	/* e8m0fnu: powers of two, 0xFF nan */
	DEC(HILO_T_F8E8M0FNU, 127, 1.0);
	DEC(HILO_T_F8E8M0FNU, 128, 2.0);
	ENC(HILO_T_F8E8M0FNU, 0.5, 126);
	CHECK(isnan(hilo_float_decode(HILO_T_F8E8M0FNU, 0xFF)));
	/* f4e2m1fn: 0 .5 1 1.5 2 3 4 6, saturating */
	static const double f4[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
	for (uint32_t b = 0; b < 8; b++) {
		DEC(HILO_T_F4E2M1FN, b, f4[b]);
		DEC(HILO_T_F4E2M1FN, b | 8, -f4[b]);
		ENC(HILO_T_F4E2M1FN, f4[b], b);
	}
	ENC(HILO_T_F4E2M1FN, 5.0, 6);    /* tie between 4 and 6: even */
	ENC(HILO_T_F4E2M1FN, 0.25, 0);   /* tie between 0 and 0.5: even */
	ENC(HILO_T_F4E2M1FN, 100.0, 7);
	ENC(HILO_T_F4E2M1FN, -100.0, 15);
	/* f6 */
	DEC(HILO_T_F6E2M3FN, 0x1F, 7.5);
	DEC(HILO_T_F6E3M2FN, 0x1F, 28.0);
	ENC(HILO_T_F6E2M3FN, 1.0, 0x08);
	ENC(HILO_T_F6E3M2FN, 1.0, 0x0C);
}

/* decode(bits) then encode gives the same bits for every non-nan pattern,
 * and positive finite values increase with the bit pattern. */
static void test_exhaustive(void)
{
	static const hilo_ptype types[] = {
		HILO_T_F16, HILO_T_BF16, HILO_T_F8E5M2, HILO_T_F8E4M3, HILO_T_F8E4M3FN,
		HILO_T_F8E4M3B11FNUZ, HILO_T_F8E3M4, HILO_T_F8E5M2FNUZ, HILO_T_F8E4M3FNUZ,
		HILO_T_F8E8M0FNU, HILO_T_F4E2M1FN, HILO_T_F6E3M2FN, HILO_T_F6E2M3FN,
	};
	for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
		hilo_ptype t = types[k];
		int bits = hilo_ptype_bits(t);
		uint32_t count = 1u << bits, bad = 0;
		double prev = -1;
		for (uint32_t b = 0; b < count; b++) {
			double v = hilo_float_decode(t, b);
			if (isnan(v))
				continue;
			if (hilo_float_encode(t, v) != b)
				bad++;
			bool neg = t != HILO_T_F8E8M0FNU && (b >> (bits - 1));
			if (!neg && !isinf(v)) {
				if (!(v > prev) && !(b == 0))
					bad++;
				prev = v;
			}
		}
		if (!CHECK_EQ_I64(bad, 0))
			fprintf(stderr, "  type %s\n", hilo_ptype_name(t));
	}
}

static const char *fmt(hilo_ptype t, const void *data, size_t k)
{
	static char out[64];
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_format_float(&b, t, data, k);
	snprintf(out, sizeof out, "%s", hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	return out;
}

static void test_format(void)
{
	float f[] = {0.1f, 1.0f / 3, 1e10f, -0.0f, INFINITY, -INFINITY, NAN, 2.5f, 16777216.0f};
	static const char *const fs[] = {"0.1", "0.333333343", "1e+10", "-0", "inf", "-inf", "nan", "2.5", "16777216"};
	for (size_t k = 0; k < sizeof f / sizeof *f; k++)
		CHECK_STR(fmt(HILO_T_F32, f, k), fs[k]);
	double d[] = {0.1, 1.0 / 3, 1e300, -0.0};
	static const char *const ds[] = {"0.1", "0.33333333333333331", "1e+300", "-0"};
	for (size_t k = 0; k < sizeof d / sizeof *d; k++)
		CHECK_STR(fmt(HILO_T_F64, d, k), ds[k]);
	uint16_t h[] = {0x3C00, 0x3555, 0x7BFF, 0xFC00};
	CHECK_STR(fmt(HILO_T_F16, h, 0), "1");
	CHECK_STR(fmt(HILO_T_F16, h, 2), "65504");
	CHECK_STR(fmt(HILO_T_F16, h, 3), "-inf");
	uint16_t bf[] = {0x3F80, 0x4049};
	CHECK_STR(fmt(HILO_T_BF16, bf, 0), "1");
	CHECK_STR(fmt(HILO_T_BF16, bf, 1), "3.141");
}

static void test_elements(void)
{
	int8_t s8[2] = {0};
	hilo_elem_set_i64(HILO_T_S8, s8, 0, 300);  /* wraps to width */
	CHECK_EQ_I64(hilo_elem_get_i64(HILO_T_S8, s8, 0), 44);
	hilo_elem_set_i64(HILO_T_S8, s8, 1, -1);
	CHECK_EQ_I64(hilo_elem_get_i64(HILO_T_S8, s8, 1), -1);
	uint8_t u4[1] = {0};
	hilo_elem_set_i64(HILO_T_U4, u4, 0, 17);
	CHECK_EQ_I64(hilo_elem_get_i64(HILO_T_U4, u4, 0), 1);
	uint16_t bf[1];
	hilo_elem_set_f64(HILO_T_BF16, bf, 0, 1.0 + ldexp(3, -8));
	CHECK_EQ_I64(bf[0], 0x3F82);
	CHECK(hilo_elem_get_f64(HILO_T_BF16, bf, 0) == 1.015625);
	float f[2];
	hilo_elem_set_f64(HILO_T_F32, f, 1, 0.1);
	CHECK(f[1] == 0.1f);
	CHECK_EQ_I64(hilo_elem_get_i64(HILO_T_F32, f, 1), 0);
	uint8_t p[1] = {1};
	CHECK_EQ_I64(hilo_elem_get_i64(HILO_T_PRED, p, 0), 1);
}

/* hilo_float_max_finite / hilo_float_min_positive (the validator's special
 * values): the largest finite and smallest positive value of each format,
 * each one a value the format holds, the next step beyond it not */
static void test_limits(void)
{
	static const struct { hilo_ptype t; double max, min; } L[] = {
		{HILO_T_F16, 65504.0, 0x1p-24},
		{HILO_T_BF16, 0x1.fep127, 0x1p-133},
		{HILO_T_F8E5M2, 57344.0, 0x1p-16},
		{HILO_T_F8E4M3, 240.0, 0x1p-9},
		{HILO_T_F8E3M4, 15.5, 0x1p-6},
		{HILO_T_F8E4M3FN, 448.0, 0x1p-9},
		{HILO_T_F8E4M3B11FNUZ, 30.0, 0x1p-13},
		{HILO_T_F8E5M2FNUZ, 57344.0, 0x1p-17},
		{HILO_T_F8E4M3FNUZ, 240.0, 0x1p-10},
		{HILO_T_F8E8M0FNU, 0x1p127, 0x1p-127},
		{HILO_T_F4E2M1FN, 6.0, 0.5},
		{HILO_T_F6E3M2FN, 28.0, 0.0625},
		{HILO_T_F6E2M3FN, 7.5, 0.125},
	};
	for (size_t k = 0; k < sizeof L / sizeof *L; k++) {
		CHECK(hilo_float_max_finite(L[k].t) == L[k].max);
		CHECK(hilo_float_min_positive(L[k].t) == L[k].min);
		/* both round-trip through the format */
		CHECK(hilo_float_decode(L[k].t, hilo_float_encode(L[k].t, L[k].max)) == L[k].max);
		CHECK(hilo_float_decode(L[k].t, hilo_float_encode(L[k].t, L[k].min)) == L[k].min);
	}
	CHECK(hilo_float_max_finite(HILO_T_F32) == 0x1.fffffep127);
	CHECK(hilo_float_min_positive(HILO_T_F32) == 0x1p-149);
	CHECK(hilo_float_max_finite(HILO_T_F64) == 0x1.fffffffffffffp1023);
	CHECK(hilo_float_min_positive(HILO_T_F64) == 0x1p-1074);
	CHECK(hilo_float_max_finite(HILO_T_C64) == 0x1.fffffep127);
	CHECK(hilo_float_max_finite(HILO_T_S32) == 0);
}

int main(void)
{
	test_limits();
	test_f16_bf16();
	test_f8_f6_f4();
	test_exhaustive();
	test_format();
	test_elements();
	return CHECK_DONE();
}
