/* Small floating-point formats. One parametric encoder/decoder covers
 * f16, bf16 and every f8/f6/f4 variant XLA has:
 *   ieee : exponent all-ones = inf (mantissa 0) / NaN
 *   fn   : no inf; NaN = all exponent and mantissa bits set (f8e4m3fn)
 *   fnuz : no inf, no -0; NaN = sign bit alone (0x80); bias one higher
 *   e8m0 : unsigned, exponent only; 0xff = NaN
 *   none : no inf, no NaN (f4e2m1fn, f6*): overflow saturates
 */
#include "hilo/float.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum { IEEE, FN, FNUZ, E8M0, NONE } fkind;

typedef struct {
	int ebits, mbits, bias;
	fkind kind;
} fmt;

static bool get_fmt(hilo_ptype t, fmt *f)
{
	switch (t) {
	case HILO_T_F16: *f = (fmt){5, 10, 15, IEEE}; return true;
	case HILO_T_BF16: *f = (fmt){8, 7, 127, IEEE}; return true;
	case HILO_T_F8E5M2: *f = (fmt){5, 2, 15, IEEE}; return true;
	case HILO_T_F8E4M3: *f = (fmt){4, 3, 7, IEEE}; return true;
	case HILO_T_F8E3M4: *f = (fmt){3, 4, 3, IEEE}; return true;
	case HILO_T_F8E4M3FN: *f = (fmt){4, 3, 7, FN}; return true;
	case HILO_T_F8E4M3B11FNUZ: *f = (fmt){4, 3, 11, FNUZ}; return true;
	case HILO_T_F8E5M2FNUZ: *f = (fmt){5, 2, 16, FNUZ}; return true;
	case HILO_T_F8E4M3FNUZ: *f = (fmt){4, 3, 8, FNUZ}; return true;
	case HILO_T_F8E8M0FNU: *f = (fmt){8, 0, 127, E8M0}; return true;
	case HILO_T_F4E2M1FN: *f = (fmt){2, 1, 1, NONE}; return true;
	case HILO_T_F6E3M2FN: *f = (fmt){3, 2, 3, NONE}; return true;
	case HILO_T_F6E2M3FN: *f = (fmt){2, 3, 1, NONE}; return true;
	default: return false;
	}
}

static uint32_t nan_bits(const fmt *f)
{
	uint32_t emax = (1u << f->ebits) - 1;
	switch (f->kind) {
	case IEEE: return (emax << f->mbits) | (1u << (f->mbits - 1));
	case FN: return (emax << f->mbits) | ((1u << f->mbits) - 1);
	case FNUZ: return 1u << (f->ebits + f->mbits);
	case E8M0: return 0xff;
	default: return 0;
	}
}

/* Largest finite magnitude's bit pattern (sign clear). */
static uint32_t max_bits(const fmt *f)
{
	uint32_t emax = (1u << f->ebits) - 1, mall = (1u << f->mbits) - 1;
	switch (f->kind) {
	case IEEE: return ((emax - 1) << f->mbits) | mall;
	case FN: return (emax << f->mbits) | (mall - 1);
	case E8M0: return 0xfe;
	default: return (emax << f->mbits) | mall;
	}
}

double hilo_float_decode(hilo_ptype t, uint32_t bits)
{
	fmt f;
	if (!get_fmt(t, &f))
		return 0;
	if (f.kind == E8M0)
		return bits == 0xff ? NAN : ldexp(1.0, (int)bits - 127);
	uint32_t sign = (bits >> (f.ebits + f.mbits)) & 1;
	uint32_t e = (bits >> f.mbits) & ((1u << f.ebits) - 1);
	uint32_t m = bits & ((1u << f.mbits) - 1);
	uint32_t emax = (1u << f.ebits) - 1;
	double v;
	if (f.kind == FNUZ && sign && e == 0 && m == 0)
		return NAN;
	if (f.kind == IEEE && e == emax)
		v = m ? NAN : INFINITY;
	else if (f.kind == FN && e == emax && m == (1u << f.mbits) - 1)
		v = NAN;
	else if (e == 0)
		v = ldexp((double)m, 1 - f.bias - f.mbits);
	else
		v = ldexp((double)(m | (1u << f.mbits)), (int)e - f.bias - f.mbits);
	return sign ? -v : v;
}

uint32_t hilo_float_encode(hilo_ptype t, double v)
{
	fmt f;
	if (!get_fmt(t, &f))
		return 0;
	uint32_t sbit = 1u << (f.ebits + f.mbits);
	if (f.kind == E8M0) {
		if (isnan(v) || v < 0 || isinf(v))
			return 0xff;
		if (v == 0)
			return 0xff; /* no zero: XLA CPU gives the NaN */
		int e;
		frexp(v, &e);               /* v in [2^(e-1), 2^e) */
		double lo = ldexp(1.0, e - 1), hi = ldexp(1.0, e);
		int ex = (v - lo < hi - v) ? e - 1 : e; /* ties round up */
		int biased = ex + 127;
		if (biased < 0)
			return 0; /* below 2^-127 (but not 0): the smallest, 2^-127 */
		return biased > 0xfe ? 0xff : (uint32_t)biased;
	}
	bool neg = signbit(v) != 0;
	if (isnan(v)) /* Eigen/ml_dtypes keep a NaN's sign (fnuz has one NaN) */
		return f.kind == NONE ? sbit /* no NaN: XLA CPU gives the -0 pattern */
		     : nan_bits(&f) | (neg && (f.kind == IEEE || f.kind == FN) ? sbit : 0);
	double a = fabs(v);
	uint32_t s = neg ? sbit : 0;
	if (isinf(a)) {
		if (f.kind == IEEE)
			return s | (((1u << f.ebits) - 1) << f.mbits);
		if (f.kind == NONE)
			return s | max_bits(&f);
		return nan_bits(&f) | (f.kind == FN ? s : 0);
	}
	if (a == 0)
		return f.kind == FNUZ ? 0 : s;
	/* scale into integer mantissa: value = q * 2^(emin - mbits) for subnormals */
	int emin = 1 - f.bias;
	int e;
	frexp(a, &e);           /* a in [2^(e-1), 2^e) */
	int ex = e - 1;         /* unbiased exponent */
	if (ex < emin)
		ex = emin;
	double scaled = ldexp(a, f.mbits - ex); /* in [2^mbits, 2^(mbits+1)) or subnormal */
	double q = nearbyint(scaled); /* current rounding mode: to nearest even */
	uint64_t qi = (uint64_t)q;
	if (qi >= (2ull << f.mbits)) { /* mantissa overflowed: bump exponent */
		qi >>= 1;
		ex++;
	}
	uint32_t bits;
	if (qi < (1ull << f.mbits)) { /* subnormal (ex == emin) */
		bits = (uint32_t)qi;
	} else {
		int biased = ex + f.bias;
		bits = ((uint32_t)biased << f.mbits) | (uint32_t)(qi & ((1u << f.mbits) - 1));
	}
	if (bits > max_bits(&f)) {
		if (f.kind == IEEE)
			return s | (((1u << f.ebits) - 1) << f.mbits); /* inf */
		if (f.kind == NONE)
			return s | max_bits(&f);
		return nan_bits(&f) | (f.kind == FN ? s : 0); /* fn/fnuz: overflow is NaN */
	}
	if (f.kind == FNUZ && bits == 0)
		return 0;
	return s | bits;
}

double hilo_float_max_finite(hilo_ptype t)
{
	fmt f;
	switch (t) {
	case HILO_T_F32: case HILO_T_C64: return FLT_MAX;
	case HILO_T_F64: case HILO_T_C128: return DBL_MAX;
	default: return get_fmt(t, &f) ? hilo_float_decode(t, max_bits(&f)) : 0;
	}
}

double hilo_float_min_positive(hilo_ptype t)
{
	fmt f;
	switch (t) {
	case HILO_T_F32: case HILO_T_C64: return FLT_TRUE_MIN;
	case HILO_T_F64: case HILO_T_C128: return DBL_TRUE_MIN;
	default:
		if (!get_fmt(t, &f))
			return 0;
		/* e8m0: the pattern 0 is 2^-127; elsewhere 1 is the smallest
		 * subnormal, or the smallest normal without mantissa bits */
		return hilo_float_decode(t, f.kind == E8M0 ? 0 : 1);
	}
}

/* ---- literal element access ---- */

static uint64_t load_u(const void *data, size_t k, int bytes)
{
	const unsigned char *p = (const unsigned char *)data + k * (size_t)bytes;
	uint64_t u = 0;
	memcpy(&u, p, (size_t)bytes); /* little-endian host */
	return u;
}

static void store_u(void *data, size_t k, int bytes, uint64_t u)
{
	memcpy((unsigned char *)data + k * (size_t)bytes, &u, (size_t)bytes);
}

/* Sign-extends or masks to the type's bit width. */
static int64_t int_norm(hilo_ptype t, uint64_t u)
{
	int bits = hilo_ptype_bits(t);
	if (bits >= 64)
		return (int64_t)u;
	uint64_t mask = (1ull << bits) - 1;
	u &= mask;
	if (hilo_ptype_is_signed_int(t) && (u >> (bits - 1)) & 1)
		u |= ~mask;
	return (int64_t)u;
}

double hilo_elem_get_f64(hilo_ptype t, const void *data, size_t k)
{
	switch (t) {
	case HILO_T_F32: {
		float f;
		memcpy(&f, (const char *)data + 4 * k, 4);
		return f;
	}
	case HILO_T_F64: {
		double d;
		memcpy(&d, (const char *)data + 8 * k, 8);
		return d;
	}
	case HILO_T_C64: {
		float f;
		memcpy(&f, (const char *)data + 8 * k, 4);
		return f;
	}
	case HILO_T_C128: {
		double d;
		memcpy(&d, (const char *)data + 16 * k, 8);
		return d;
	}
	default:
		if (hilo_ptype_is_float(t))
			return hilo_float_decode(t, (uint32_t)load_u(data, k, hilo_ptype_bytes(t)));
		if (hilo_ptype_is_unsigned_int(t))
			return (double)(uint64_t)int_norm(t, load_u(data, k, hilo_ptype_bytes(t)));
		return (double)hilo_elem_get_i64(t, data, k);
	}
}

int64_t hilo_elem_get_i64(hilo_ptype t, const void *data, size_t k)
{
	if (hilo_ptype_is_float(t) || hilo_ptype_is_complex(t)) {
		double d = hilo_elem_get_f64(t, data, k);
		if (isnan(d))
			return 0;
		if (d >= 9.2e18)
			return INT64_MAX;
		if (d <= -9.2e18)
			return INT64_MIN;
		return (int64_t)d;
	}
	if (t == HILO_T_PRED)
		return ((const unsigned char *)data)[k] != 0;
	int bytes = hilo_ptype_bytes(t);
	if (bytes <= 0)
		return 0;
	return int_norm(t, load_u(data, k, bytes));
}

void hilo_elem_set_f64(hilo_ptype t, void *data, size_t k, double v)
{
	switch (t) {
	case HILO_T_F32: {
		float f = (float)v;
		memcpy((char *)data + 4 * k, &f, 4);
		return;
	}
	case HILO_T_F64:
		memcpy((char *)data + 8 * k, &v, 8);
		return;
	case HILO_T_C64: {
		float f[2] = {(float)v, 0};
		memcpy((char *)data + 8 * k, f, 8);
		return;
	}
	case HILO_T_C128: {
		double d[2] = {v, 0};
		memcpy((char *)data + 16 * k, d, 16);
		return;
	}
	case HILO_T_PRED:
		((unsigned char *)data)[k] = v != 0;
		return;
	default:
		if (hilo_ptype_is_float(t)) {
			store_u(data, k, hilo_ptype_bytes(t), hilo_float_encode(t, v));
			return;
		}
		if (hilo_ptype_is_int(t)) {
			int64_t i = isnan(v) ? 0 : v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : (int64_t)v;
			hilo_elem_set_i64(t, data, k, i);
		}
	}
}

void hilo_elem_set_i64(hilo_ptype t, void *data, size_t k, int64_t v)
{
	if (hilo_ptype_is_float(t) || hilo_ptype_is_complex(t)) {
		hilo_elem_set_f64(t, data, k, (double)v);
		return;
	}
	if (t == HILO_T_PRED) {
		((unsigned char *)data)[k] = v != 0;
		return;
	}
	int bytes = hilo_ptype_bytes(t);
	if (bytes > 0)
		store_u(data, k, bytes, (uint64_t)int_norm(t, (uint64_t)v));
}

/* ---- XLA's float text ---- */

static int max_digits10(hilo_ptype t)
{
	switch (t) {
	case HILO_T_F16: return 5;
	case HILO_T_BF16: return 4;
	case HILO_T_F32: case HILO_T_C64: return 9;
	case HILO_T_F64: case HILO_T_C128: return 17;
	case HILO_T_F8E5M2: case HILO_T_F8E5M2FNUZ: return 3;
	case HILO_T_F8E8M0FNU: case HILO_T_F4E2M1FN: return 3;
	default: return 4; /* f8e4m3*, f8e3m4, f6* */
	}
}

static void put_nan(hilo_buf *b, bool neg, uint64_t payload, uint64_t quiet)
{
	if (neg)
		hilo_buf_putc(b, '-');
	if (payload == quiet || payload == 0)
		hilo_buf_put(b, "nan", 3);
	else
		hilo_buf_printf(b, "nan(0x%llx)", (unsigned long long)payload);
}

void hilo_format_float(hilo_buf *b, hilo_ptype t, const void *data, size_t k)
{
	char tmp[64];
	if (t == HILO_T_F32 || t == HILO_T_C64) {
		float f;
		uint32_t u;
		memcpy(&f, (const char *)data + (t == HILO_T_C64 ? 8 : 4) * k, 4);
		memcpy(&u, &f, 4);
		if (isnan(f)) {
			put_nan(b, u >> 31, u & 0x7fffff, 0x400000);
			return;
		}
		if (isinf(f)) {
			hilo_buf_puts(b, f < 0 ? "-inf" : "inf");
			return;
		}
		snprintf(tmp, sizeof tmp, "%.*g", 6, (double)f);
		if (strtof(tmp, NULL) != f)
			snprintf(tmp, sizeof tmp, "%.*g", 9, (double)f);
		hilo_buf_puts(b, tmp);
		return;
	}
	if (t == HILO_T_F64 || t == HILO_T_C128) {
		double d;
		uint64_t u;
		memcpy(&d, (const char *)data + (t == HILO_T_C128 ? 16 : 8) * k, 8);
		memcpy(&u, &d, 8);
		if (isnan(d)) {
			put_nan(b, u >> 63, u & 0xfffffffffffffull, 0x8000000000000ull);
			return;
		}
		if (isinf(d)) {
			hilo_buf_puts(b, d < 0 ? "-inf" : "inf");
			return;
		}
		snprintf(tmp, sizeof tmp, "%.*g", 15, d);
		if (strtod(tmp, NULL) != d)
			snprintf(tmp, sizeof tmp, "%.*g", 17, d);
		hilo_buf_puts(b, tmp);
		return;
	}
	double d = hilo_elem_get_f64(t, data, k);
	if (isnan(d)) {
		uint32_t bits = (uint32_t)load_u(data, k, hilo_ptype_bytes(t));
		fmt f;
		bool neg = false;
		uint64_t payload = 0, quiet = 0;
		if (get_fmt(t, &f) && f.kind == IEEE) {
			neg = (bits >> (f.ebits + f.mbits)) & 1;
			payload = bits & ((1u << f.mbits) - 1);
			quiet = 1u << (f.mbits - 1);
		} else if (get_fmt(t, &f) && (f.kind == FN || f.kind == FNUZ)) {
			neg = (bits >> (f.ebits + f.mbits)) & 1; /* fnuz NaN is 0x80: "-nan" */
		}
		put_nan(b, neg, payload, quiet);
		return;
	}
	if (isinf(d)) {
		hilo_buf_puts(b, d < 0 ? "-inf" : "inf");
		return;
	}
	snprintf(tmp, sizeof tmp, "%.*g", max_digits10(t), d);
	hilo_buf_puts(b, tmp);
}

bool hilo_opcode_quiets_nan(int op)
{
	switch (op) {
	case HILO_OP_ADD: case HILO_OP_SUBTRACT: case HILO_OP_MULTIPLY: case HILO_OP_DIVIDE:
	case HILO_OP_REMAINDER: case HILO_OP_POWER: case HILO_OP_ATAN2: case HILO_OP_SQRT:
	case HILO_OP_RSQRT: case HILO_OP_CBRT: case HILO_OP_EXP: case HILO_OP_EXPM1:
	case HILO_OP_LOG: case HILO_OP_LOG1P: case HILO_OP_LOGISTIC: case HILO_OP_TANH:
	case HILO_OP_SINE: case HILO_OP_COSINE: case HILO_OP_TAN: case HILO_OP_SINH:
	case HILO_OP_COSH: case HILO_OP_ACOS: case HILO_OP_ASIN: case HILO_OP_ACOSH:
	case HILO_OP_ASINH: case HILO_OP_ATANH: case HILO_OP_ERF: case HILO_OP_DOT:
	case HILO_OP_CONVOLUTION:
		return true;
	default:
		return false;
	}
}

bool hilo_elem_is_snan(hilo_ptype t, const void *data, size_t k)
{
	const unsigned char *p = data;
	switch (t) {
	case HILO_T_F32: {
		uint32_t v;
		memcpy(&v, p + 4 * k, 4);
		return (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu) && !(v & 0x400000u);
	}
	case HILO_T_F64: {
		uint64_t v;
		memcpy(&v, p + 8 * k, 8);
		return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
		       (v & 0xfffffffffffffull) && !(v & 0x8000000000000ull);
	}
	case HILO_T_F16: case HILO_T_BF16: {
		uint16_t v;
		memcpy(&v, p + 2 * k, 2);
		uint16_t e = t == HILO_T_F16 ? 0x7c00 : 0x7f80, q = t == HILO_T_F16 ? 0x200 : 0x40;
		return (v & e) == e && (v & (uint16_t)(q * 2 - 1)) && !(v & q);
	}
	default:
		return false;
	}
}
