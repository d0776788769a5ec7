/* eval_elementwise.c - elementwise ops with XLA's semantics: unary and
 * binary arithmetic, bitwise ops and shifts, compare (IEEE, total order,
 * signed, unsigned), select, clamp, convert, bitcast-convert and
 * reduce-precision, over every integer and float type.
 *
 * The rules are XLA's HloEvaluator's (hlo_evaluator_typed_visitor.h,
 * literal.cc); docs/evaluator.md tabulates every edge case with the unit
 * test that pins it. In short: integers wrap; x / 0 = -1 (all ones for
 * unsigned), x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0; a shift
 * amount read as unsigned in the operand's width that is >= the width
 * gives 0 (arithmetic right shift: the sign fill), and arithmetic right
 * shift reads an unsigned operand as signed; integer power with a negative
 * exponent is 1 for base 1 and 0 otherwise. f64 computes in double; f32
 * and every narrower float compute in float with the float libm functions
 * (XLA's ElementwiseT) and round once into the result type. max/min return
 * a NaN operand (the first one), else std::max/std::min (the lhs on a
 * tie, so signed zeros follow the operand order); clamp is
 * min(hi, max(x, lo)) with NaN checked in lo, x, hi order. float -> int
 * converts truncate, saturate and send NaN to 0.
 */
#include "eval_internal.h"

#include <complex.h>
#include <math.h>

typedef enum { K_PRED, K_SINT, K_UINT, K_FLOAT, K_OTHER } kind;

static kind kind_of(hilo_ptype t)
{
	if (t == HILO_T_PRED)
		return K_PRED;
	if (hilo_ptype_is_signed_int(t))
		return K_SINT;
	if (hilo_ptype_is_unsigned_int(t))
		return K_UINT;
	if (hilo_ptype_is_float(t))
		return K_FLOAT;
	return K_OTHER;
}

static int bits_of(hilo_ptype t)
{
	return hilo_ptype_bits(t);
}

/* Stores a float result: narrow floats round through f32 (XLA computes
 * them in f32). */
static void put_f(hilo_ptype t, void *data, size_t k, double v)
{
	if (t != HILO_T_F32 && t != HILO_T_F64 && !isnan(v))
		v = (double)(float)v;
	if (t == HILO_T_F8E3M4 && !isnan(v)) /* E15: XLA CPU computes e3m4 in f16 */
		v = hilo_float_decode(HILO_T_F16, hilo_float_encode(HILO_T_F16, v));
	hilo_elem_set_f64(t, data, k, v);
}

/* Raw bits (low `bits` of the element). */
static uint64_t raw_get(hilo_ptype t, const void *data, size_t k)
{
	int eb = hilo_ptype_bytes(t);
	uint64_t u = 0;
	memcpy(&u, (const char *)data + k * (size_t)eb, (size_t)(eb > 8 ? 8 : eb));
	int b = t == HILO_T_PRED ? 8 : bits_of(t);
	if (b < 64)
		u &= (1ull << b) - 1;
	return u;
}

static void raw_set(hilo_ptype t, void *data, size_t k, uint64_t u)
{
	kind kd = kind_of(t);
	if (kd == K_SINT || kd == K_UINT || kd == K_PRED) {
		hilo_elem_set_i64(t, data, k, (int64_t)u);
		return;
	}
	int eb = hilo_ptype_bytes(t);
	memcpy((char *)data + k * (size_t)eb, &u, (size_t)(eb > 8 ? 8 : eb));
}

static int64_t smin_of(hilo_ptype t)
{
	int b = bits_of(t);
	return b >= 64 ? INT64_MIN : -(int64_t)(1ull << (b - 1));
}

static int64_t smax_of(hilo_ptype t)
{
	int b = bits_of(t);
	return b >= 64 ? INT64_MAX : (int64_t)((1ull << (b - 1)) - 1);
}

static uint64_t umax_of(hilo_ptype t)
{
	int b = bits_of(t);
	return b >= 64 ? UINT64_MAX : (1ull << b) - 1;
}

/* Is operand l usable for an output of n elements (same count or scalar)? */
static bool ew_fits(const hilo_literal *l, const hilo_shape *out)
{
	if (!l->shape || l->shape->type == HILO_T_TUPLE)
		return false;
	if (l->shape->rank == 0)
		return true;
	if (l->shape->rank != out->rank)
		return false;
	for (int d = 0; d < out->rank; d++)
		if (l->shape->dims[d] != out->dims[d])
			return false;
	return true;
}

#define AT(l, k) ((l)->shape->rank == 0 ? 0 : (k))

static void cset(hilo_ptype t, void *data, size_t k, double re, double im);

/* ---- unary -------------------------------------------------------------- */

/* Unary float ops in double (f64) and in float (f32 and every narrower
 * float: XLA's ElementwiseT), each with its own libm functions so that f32
 * results are the float functions' results, not rounded double ones. */
static double un_f64(hilo_opcode op, double x, bool *ok)
{
	switch (op) {
	case HILO_OP_ABS: return fabs(x);
	case HILO_OP_NEGATE: return -x;
	case HILO_OP_SIGN: return isnan(x) ? x : copysign(x != 0 ? 1.0 : 0.0, x);
	case HILO_OP_FLOOR: return floor(x);
	case HILO_OP_CEIL: return ceil(x);
	case HILO_OP_ROUND_AFZ: return round(x);
	case HILO_OP_ROUND_EVEN: return nearbyint(x);
	case HILO_OP_SQRT: return sqrt(x);
	case HILO_OP_RSQRT: return 1.0 / sqrt(x);
	case HILO_OP_CBRT: return cbrt(x);
	case HILO_OP_EXP: return exp(x);
	case HILO_OP_EXPM1: return expm1(x);
	case HILO_OP_LOG: return log(x);
	case HILO_OP_LOG1P: return log1p(x);
	case HILO_OP_LOGISTIC: return 1.0 / (1.0 + exp(-x));
	case HILO_OP_SINE: return sin(x);
	case HILO_OP_COSINE: return cos(x);
	case HILO_OP_TAN: return tan(x);
	case HILO_OP_TANH: return tanh(x);
	case HILO_OP_SINH: return sinh(x);
	case HILO_OP_COSH: return cosh(x);
	case HILO_OP_ASIN: return asin(x);
	case HILO_OP_ACOS: return acos(x);
	case HILO_OP_ASINH: return asinh(x);
	case HILO_OP_ACOSH: return acosh(x);
	case HILO_OP_ATANH: return atanh(x);
	case HILO_OP_ERF: return erf(x);
	case HILO_OP_COPY: case HILO_OP_REAL: return x;
	case HILO_OP_IMAG: return 0.0;
	default: *ok = false; return 0;
	}
}

static float un_f32(hilo_opcode op, float x, bool *ok)
{
	switch (op) {
	case HILO_OP_ABS: return fabsf(x);
	case HILO_OP_NEGATE: return -x;
	case HILO_OP_SIGN: return isnan(x) ? x : copysignf(x != 0 ? 1.0f : 0.0f, x);
	case HILO_OP_FLOOR: return floorf(x);
	case HILO_OP_CEIL: return ceilf(x);
	case HILO_OP_ROUND_AFZ: return roundf(x);
	case HILO_OP_ROUND_EVEN: return nearbyintf(x);
	case HILO_OP_SQRT: return sqrtf(x);
	case HILO_OP_RSQRT: return 1.0f / sqrtf(x);
	case HILO_OP_CBRT: return cbrtf(x);
	case HILO_OP_EXP: return expf(x);
	case HILO_OP_EXPM1: return expm1f(x);
	case HILO_OP_LOG: return logf(x);
	case HILO_OP_LOG1P: return log1pf(x);
	case HILO_OP_LOGISTIC: return 1.0f / (1.0f + expf(-x));
	case HILO_OP_SINE: return sinf(x);
	case HILO_OP_COSINE: return cosf(x);
	case HILO_OP_TAN: return tanf(x);
	case HILO_OP_TANH: return tanhf(x);
	case HILO_OP_SINH: return sinhf(x);
	case HILO_OP_COSH: return coshf(x);
	case HILO_OP_ASIN: return asinf(x);
	case HILO_OP_ACOS: return acosf(x);
	case HILO_OP_ASINH: return asinhf(x);
	case HILO_OP_ACOSH: return acoshf(x);
	case HILO_OP_ATANH: return atanhf(x);
	case HILO_OP_ERF: return erff(x);
	case HILO_OP_COPY: case HILO_OP_REAL: return x;
	case HILO_OP_IMAG: return 0.0f;
	default: *ok = false; return 0;
	}
}

static uint64_t un_i(hilo_opcode op, hilo_ptype t, int64_t x, bool *ok)
{
	bool sgn = kind_of(t) == K_SINT;
	int b = bits_of(t);
	uint64_t ux = (uint64_t)x & umax_of(t);
	switch (op) {
	case HILO_OP_ABS: return sgn && x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
	case HILO_OP_NEGATE: return 0 - (uint64_t)x;
	case HILO_OP_SIGN: return sgn ? (uint64_t)(x > 0 ? 1 : x < 0 ? -1 : 0) : (ux != 0);
	case HILO_OP_NOT: return t == HILO_T_PRED ? (uint64_t)(x == 0) : ~(uint64_t)x;
	case HILO_OP_POPCNT:
		/* XLA CPU counts an s4 value in the byte that holds it,
		 * sign-extended: popcnt(s4 -1) = 8, which wraps to -8 (s2
		 * counts its own two bits) */
		if (sgn && b == 4)
			return (uint64_t)__builtin_popcountll((uint64_t)x & 0xff);
		return (uint64_t)__builtin_popcountll(ux);
	case HILO_OP_CLZ: {
		if (ux == 0)
			return (uint64_t)b;
		return (uint64_t)(__builtin_clzll(ux) - (64 - b));
	}
	case HILO_OP_COPY: case HILO_OP_REAL: return (uint64_t)x;
	case HILO_OP_IMAG: return 0;
	default: *ok = false; return 0;
	}
}

/* reduce-precision on the bits of an IEEE value with se/sm exponent/mantissa
 * bits (f32 or f64), as XLA defines it. */
static uint64_t reduce_prec_bits(uint64_t x, int se, int sm, int64_t eb, int64_t mb, bool is_nan)
{
	int nbits = 1 + se + sm;
	uint64_t all = nbits >= 64 ? UINT64_MAX : (1ull << nbits) - 1;
	uint64_t orig = x;
	if (mb < sm) {
		uint64_t last = 1ull << (sm - mb);
		uint64_t bias = (last >> 1) - 1;
		uint64_t lastbit = (x & last) >> (sm - mb);
		x = ((x + lastbit + bias) & ~(last - 1)) & all;
	}
	if (eb < se) {
		uint64_t sign = 1ull << (nbits - 1);
		uint64_t emask = ((1ull << se) - 1) << sm;
		uint64_t ebias = (1ull << (se - 1)) - 1;
		uint64_t rbias = eb >= 1 ? (1ull << (eb - 1)) - 1 : 0;
		uint64_t rmax = ebias + rbias, rmin = ebias - rbias;
		uint64_t xe = x & emask;
		if (xe > (rmax << sm))
			x = (x & sign) | emask;
		else if (xe <= (rmin << sm))
			x = x & sign;
	}
	if (is_nan) /* XLA CPU: a NaN comes back unchanged, payload and sign too */
		x = orig;
	return x;
}

static hilo_literal *reduce_precision(ev *e, const hilo_instr *i, const hilo_literal *a,
	hilo_literal *r, size_t n)
{
	int64_t eb = 0, mb = 0;
	hilo_ptype t = i->shape->type;
	if (!hilo_instr_get_int(i, HILO_A_EXPONENT_BITS, &eb) ||
	    !hilo_instr_get_int(i, HILO_A_MANTISSA_BITS, &mb) || eb < 1 || mb < 0)
		return ev_err(e, i, "reduce-precision needs exponent_bits >= 1 and mantissa_bits >= 0");
	for (size_t k = 0; k < n; k++) {
		double v = ev_get_f(a, AT(a, k));
		if (isnan(v)) { /* XLA CPU: unchanged, signalling NaNs and payloads too */
			raw_set(t, r->data, k, raw_get(t, a->data, AT(a, k)));
			continue;
		}
		if (t == HILO_T_F16 || t == HILO_T_BF16) {
			/* E14: on the operand's own bits, so that an f16 denormal
			 * rounds up into the normals as XLA CPU has it */
			uint64_t u = raw_get(t, a->data, AT(a, k));
			raw_set(t, r->data, k, t == HILO_T_F16 ? reduce_prec_bits(u, 5, 10, eb, mb, false)
				: reduce_prec_bits(u, 8, 7, eb, mb, false));
			continue;
		}
		if (t == HILO_T_F64) {
			uint64_t u;
			memcpy(&u, &v, 8);
			u = reduce_prec_bits(u, 11, 52, eb, mb, isnan(v));
			memcpy(&v, &u, 8);
			hilo_elem_set_f64(t, r->data, k, v);
		} else {
			float f = (float)v;
			uint32_t u;
			memcpy(&u, &f, 4);
			u = (uint32_t)reduce_prec_bits(u, 8, 23, eb, mb, isnan(v));
			memcpy(&f, &u, 4);
			hilo_elem_set_f64(t, r->data, k, f);
		}
	}
	return r;
}

/* ---- convert ------------------------------------------------------------ */

static void convert_elem(hilo_ptype st, const void *sd, size_t sk, hilo_ptype dt, void *dd, size_t dk)
{
	kind sk_ = kind_of(st), dk_ = kind_of(dt);
	if (hilo_ptype_is_complex(st) && hilo_ptype_is_complex(dt)) {
		/* c64 <-> c128: both parts (E13: the imaginary part was lost) */
		double re, im;
		if (st == HILO_T_C64) {
			float f[2];
			memcpy(f, (const char *)sd + 8 * sk, 8);
			re = f[0];
			im = f[1];
		} else {
			double d[2];
			memcpy(d, (const char *)sd + 16 * sk, 16);
			re = d[0];
			im = d[1];
		}
		cset(dt, dd, dk, re, im);
		return;
	}
	if ((st == HILO_T_F32 && dt == HILO_T_C64) || (st == HILO_T_F64 && dt == HILO_T_C128)) {
		/* the real part's bits as they are (signalling NaNs too), imag +0 */
		size_t pw = st == HILO_T_F32 ? 4 : 8;
		memcpy((char *)dd + dk * 2 * pw, (const char *)sd + sk * pw, pw);
		memset((char *)dd + dk * 2 * pw + pw, 0, pw);
		return;
	}
	if (hilo_ptype_is_complex(st))
		sk_ = K_FLOAT;
	if (dt == HILO_T_PRED) {
		double f = (sk_ == K_FLOAT) ? hilo_elem_get_f64(st, sd, sk) : 0;
		bool nz = sk_ == K_FLOAT ? f != 0 || isnan(f) : hilo_elem_get_i64(st, sd, sk) != 0;
		((unsigned char *)dd)[dk] = nz;
		return;
	}
	if (sk_ == K_FLOAT) {
		double f = hilo_elem_get_f64(st, sd, sk);
		if (dk_ == K_SINT) {
			int64_t v;
			if (isnan(f))
				v = 0;
			else if (f <= (double)smin_of(dt))
				v = smin_of(dt);
			else if (f >= -(double)smin_of(dt))
				v = smax_of(dt);
			else
				v = (int64_t)f;
			hilo_elem_set_i64(dt, dd, dk, v);
		} else if (dk_ == K_UINT) {
			uint64_t v;
			if (isnan(f) || f <= 0)
				v = 0;
			else if (f >= (double)umax_of(dt))
				v = umax_of(dt);
			else
				v = (uint64_t)f;
			hilo_elem_set_i64(dt, dd, dk, (int64_t)v);
		} else {
			/* f64 -> f16/bf16: Eigen's constructors go through float */
			if (st == HILO_T_F64 && (dt == HILO_T_F16 || dt == HILO_T_BF16) && !isnan(f))
				f = (double)(float)f;
			hilo_elem_set_f64(dt, dd, dk, f);
		}
		return;
	}
	/* integer or pred source */
	int64_t v = hilo_elem_get_i64(st, sd, sk);
	bool big_u = sk_ == K_UINT && v < 0; /* u64 above INT64_MAX */
	if (dk_ == K_FLOAT || hilo_ptype_is_complex(dt)) {
		if (dt == HILO_T_F32) {
			float f = big_u ? (float)(uint64_t)v : (float)v;
			hilo_elem_set_f64(dt, dd, dk, f);
		} else if (dt == HILO_T_F64 || dt == HILO_T_C128) {
			hilo_elem_set_f64(dt, dd, dk, big_u ? (double)(uint64_t)v : (double)v);
		} else {
			/* int -> f16/bf16/f8...: Eigen and ml_dtypes construct
			 * these from an integer through float (two roundings) */
			float f = big_u ? (float)(uint64_t)v : (float)v;
			hilo_elem_set_f64(dt, dd, dk, f);
		}
		return;
	}
	hilo_elem_set_i64(dt, dd, dk, v); /* integer -> integer wraps */
}

double ev_get_as_f(const hilo_literal *l, size_t k, hilo_ptype t)
{
	if (l->shape->type == t)
		return ev_get_f(l, k);
	unsigned char buf[16] = {0};
	convert_elem(l->shape->type, l->data, k, t, buf, 0);
	return hilo_elem_get_f64(t, buf, 0);
}

int64_t ev_get_as_i(const hilo_literal *l, size_t k, hilo_ptype t)
{
	if (l->shape->type == t)
		return ev_get_i(l, k);
	unsigned char buf[16] = {0};
	convert_elem(l->shape->type, l->data, k, t, buf, 0);
	return hilo_elem_get_i64(t, buf, 0);
}

static hilo_literal *bitcast_convert(ev *e, const hilo_instr *i, const hilo_literal *a)
{
	hilo_ptype st = a->shape->type, dt = i->shape->type;
	if (st == HILO_T_TUPLE || hilo_ptype_bytes(st) <= 0 || hilo_ptype_bytes(dt) <= 0)
		return ev_err(e, i, "bitcast-convert of %s to %s is not defined",
			hilo_ptype_name(st), hilo_ptype_name(dt));
	/* pred is one byte in a bitcast (0 or 1; other bytes read as true) */
	int ib = st == HILO_T_PRED ? 8 : bits_of(st), ob = dt == HILO_T_PRED ? 8 : bits_of(dt);
	hilo_literal *r = ev_lit_new(e, i, i->shape);
	if (!r)
		return NULL;
	int64_t nin = hilo_shape_elements(a->shape), nout = hilo_shape_elements(i->shape);
	if (ib == ob) {
		if (nin != nout)
			return ev_err(e, i, "element counts differ");
		int eb = hilo_ptype_bytes(st);
		if (ib >= 64 || eb * 8 == ib) {
			if (a->nbytes != r->nbytes)
				return ev_err(e, i, "sizes differ");
			memcpy(r->data, a->data, a->nbytes);
			/* re-normalize sub-width ints are impossible here: eb*8 == bits */
			return r;
		}
		for (int64_t k = 0; k < nin; k++)
			raw_set(dt, r->data, (size_t)k, raw_get(st, a->data, (size_t)k));
		return r;
	}
	if (ib > 64 || ob > 64 || (ib > ob ? ib % ob : ob % ib))
		return ev_err(e, i, "unsupported bit widths %d -> %d", ib, ob);
	if (ib > ob) {
		int per = ib / ob;
		if (nout != nin * per)
			return ev_err(e, i, "element counts do not agree with the widths");
		uint64_t mask = ob >= 64 ? UINT64_MAX : (1ull << ob) - 1;
		for (int64_t k = 0; k < nin; k++) {
			uint64_t u = raw_get(st, a->data, (size_t)k);
			for (int j = 0; j < per; j++)
				raw_set(dt, r->data, (size_t)(k * per + j), (u >> (j * ob)) & mask);
		}
	} else {
		int per = ob / ib;
		if (nin != nout * per)
			return ev_err(e, i, "element counts do not agree with the widths");
		for (int64_t k = 0; k < nout; k++) {
			uint64_t u = 0;
			for (int j = 0; j < per; j++)
				u |= raw_get(st, a->data, (size_t)(k * per + j)) << (j * ib);
			raw_set(dt, r->data, (size_t)k, u);
		}
	}
	return r;
}

/* ---- binary ------------------------------------------------------------- */

/* maximum/minimum as XLA CPU computes them (jitted JAX code): a NaN
 * operand gives NaN (the lhs's if both are), and +0 is larger than -0
 * whatever the operand order (max(-0, +0) = max(+0, -0) = +0). The same
 * template serves f32 and f64; narrow floats come here as float. */
#define MAXMIN(T)                                                              \
	static T max_##T(T x, T y)                                             \
	{                                                                      \
		if (isnan(x) || isnan(y))                                      \
			return isnan(x) ? x : y;                               \
		if (x == y)                                                    \
			return signbit(x) ? y : x;                             \
		return x < y ? y : x;                                          \
	}                                                                      \
	static T min_##T(T x, T y)                                             \
	{                                                                      \
		if (isnan(x) || isnan(y))                                      \
			return isnan(x) ? x : y;                               \
		if (x == y)                                                    \
			return signbit(x) ? x : y;                             \
		return y < x ? y : x;                                          \
	}
MAXMIN(float)
MAXMIN(double)
#undef MAXMIN

static double bin_f64(hilo_opcode op, double x, double y, bool *ok)
{
	switch (op) {
	case HILO_OP_ADD: return x + y;
	case HILO_OP_SUBTRACT: return x - y;
	case HILO_OP_MULTIPLY: return x * y;
	case HILO_OP_DIVIDE: return x / y;
	case HILO_OP_REMAINDER: return fmod(x, y);
	case HILO_OP_POWER: return (x == 1 || y == 0) ? 1.0 : pow(x, y);
	case HILO_OP_ATAN2: return atan2(x, y);
	case HILO_OP_MAXIMUM: return max_double(x, y);
	case HILO_OP_MINIMUM: return min_double(x, y);
	default: *ok = false; return 0;
	}
}

static float bin_f32(hilo_opcode op, float x, float y, bool *ok)
{
	switch (op) {
	case HILO_OP_ADD: return x + y;
	case HILO_OP_SUBTRACT: return x - y;
	case HILO_OP_MULTIPLY: return x * y;
	case HILO_OP_DIVIDE: return x / y;
	case HILO_OP_REMAINDER: return fmodf(x, y);
	case HILO_OP_POWER: return (x == 1 || y == 0) ? 1.0f : powf(x, y);
	case HILO_OP_ATAN2: return atan2f(x, y);
	case HILO_OP_MAXIMUM: return max_float(x, y);
	case HILO_OP_MINIMUM: return min_float(x, y);
	default: *ok = false; return 0;
	}
}

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* Integer binary op on values normalised to the type (signed values sign
 * extended, unsigned zero extended, u64 as bits). Returns raw bits. */
static uint64_t bin_i(hilo_opcode op, hilo_ptype t, int64_t x, int64_t y, bool *ok)
{
	bool sgn = kind_of(t) == K_SINT;
	bool pred = t == HILO_T_PRED;
	int b = bits_of(t);
	uint64_t ux = (uint64_t)x & umax_of(t), uy = (uint64_t)y & umax_of(t);
	switch (op) {
	case HILO_OP_ADD: return pred ? (uint64_t)(x || y) : (uint64_t)x + (uint64_t)y;
	case HILO_OP_SUBTRACT: return (uint64_t)x - (uint64_t)y;
	case HILO_OP_MULTIPLY: return pred ? (uint64_t)(x && y) : (uint64_t)x * (uint64_t)y;
	case HILO_OP_DIVIDE:
		if (pred)
			return uy ? ux : 1; /* pred division: treated as unsigned */
		if (uy == 0)
			return UINT64_MAX; /* -1 / all ones */
		if (sgn) {
			if (x == smin_of(t) && y == -1)
				return (uint64_t)x;
			return (uint64_t)(x / y);
		}
		return ux / uy;
	case HILO_OP_REMAINDER:
		if (uy == 0)
			return (uint64_t)x;
		if (sgn) {
			if (x == smin_of(t) && y == -1)
				return 0;
			return (uint64_t)(x % y);
		}
		return ux % uy;
	case HILO_OP_MAXIMUM:
		return sgn ? (uint64_t)(x > y ? x : y) : (ux > uy ? ux : uy);
	case HILO_OP_MINIMUM:
		return sgn ? (uint64_t)(x < y ? x : y) : (ux < uy ? ux : uy);
	case HILO_OP_AND: return (uint64_t)x & (uint64_t)y;
	case HILO_OP_OR: return (uint64_t)x | (uint64_t)y;
	case HILO_OP_XOR: return (uint64_t)x ^ (uint64_t)y;
	case HILO_OP_SHL:
		return uy >= (uint64_t)b ? 0 : ux << uy;
	case HILO_OP_SHRL:
		return uy >= (uint64_t)b ? 0 : ux >> uy;
	case HILO_OP_SHRA: {
		/* XLA reads the operand as signed of its width, unsigned too:
		 * u8 0x80 >>arith 1 = 0xC0 */
		uint64_t top = 1ull << (b - 1);
		bool neg = (ux & top) != 0;
		if (uy >= (uint64_t)b)
			return neg ? UINT64_MAX : 0;
		uint64_t sx = neg ? ux | ~umax_of(t) : ux; /* sign-extended to 64 bits */
		return neg ? ~(~sx >> uy) : sx >> uy;
	}
	case HILO_OP_POWER: {
		/* XLA CPU: the exponent is read as signed of its storage width
		 * (8 bits for the sub-byte types; unsigned too: u8 158 is -98,
		 * u4 12 is 12); a negative one gives 1 for base 1, +-1 for base
		 * -1 (by parity) and 0 otherwise; a positive one is applied by
		 * six squarings, so only its low 6 bits count (s8 38^64 = 1,
		 * 0^64 = 1) */
		uint64_t top = 1ull << (b - 1);
		bool yneg = !pred && (sgn ? y < 0 : b >= 8 && (uy & top) != 0);
		uint64_t sxb = sgn ? (uint64_t)x : (b >= 8 && (ux & top) ? ux | ~umax_of(t) : ux);
		if (yneg) {
			if (ux == 1)
				return 1;
			if (sxb == UINT64_MAX)
				return (uy & 1) ? UINT64_MAX : 1;
			return 0;
		}
		if (pred)
			return x || !y;
		uint64_t base = (uint64_t)x, acc = 1, ex = uy & 63;
		for (int q = 0; q < 6; q++) {
			if (ex & 1)
				acc *= base;
			base *= base;
			ex >>= 1;
		}
		return acc;
	}
	case HILO_OP_MULHI:
		if (b >= 64) {
			if (sgn)
				return (uint64_t)(((i128)x * (i128)y) >> 64);
			return (uint64_t)(((u128)ux * (u128)uy) >> 64);
		}
		if (sgn)
			return (uint64_t)((x * y) >> b);
		return (ux * uy) >> b;
	default: *ok = false; return 0;
	}
}

/* Sign-magnitude key for the total order over a float's raw bits:
 * -NaN < -inf < ... < -0 < +0 < ... < inf < NaN. */
static int64_t total_key(hilo_ptype t, const void *data, size_t k)
{
	int b = bits_of(t);
	uint64_t u = raw_get(t, data, k);
	uint64_t sign = 1ull << (b - 1);
	if (t == HILO_T_F8E8M0FNU) /* no sign bit: the bits' order (E12) */
		return (int64_t)u;
	/* the one NaN of the fnuz formats (the -0 pattern, 0x80) is below
	 * every other value in XLA CPU's total order */
	if (u == sign && (t == HILO_T_F8E4M3FNUZ || t == HILO_T_F8E5M2FNUZ ||
	    t == HILO_T_F8E4M3B11FNUZ))
		return INT64_MIN;
	int64_t mag = (int64_t)(u & (sign - 1));
	return (u & sign) ? -mag - 1 : mag;
}

static bool cmp_result(const char *dir, int c, bool unordered)
{
	if (!strcmp(dir, "NE"))
		return unordered || c != 0;
	if (unordered)
		return false;
	if (!strcmp(dir, "EQ")) return c == 0;
	if (!strcmp(dir, "LT")) return c < 0;
	if (!strcmp(dir, "LE")) return c <= 0;
	if (!strcmp(dir, "GT")) return c > 0;
	return c >= 0; /* GE */
}

static hilo_literal *compare(ev *e, const hilo_instr *i, const hilo_literal *a,
	const hilo_literal *b, hilo_literal *r, size_t n)
{
	const char *dir = hilo_instr_get_enum(i, HILO_A_DIRECTION);
	const char *ty = hilo_instr_get_enum(i, HILO_A_TYPE);
	static const char *dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
	bool okdir = false;
	for (int q = 0; dir && q < 6; q++)
		okdir |= !strcmp(dir, dirs[q]);
	if (!okdir)
		return ev_err(e, i, "compare without a valid direction");
	hilo_ptype t = a->shape->type;
	if (t != b->shape->type)
		return ev_err(e, i, "compare operands differ in type");
	kind kd = kind_of(t);
	if (kd == K_OTHER)
		return ev_err(e, i, "compare of %s is not supported", hilo_ptype_name(t));
	if (!hilo_compare_type_ok(t, ty))
		return ev_err(e, i, "compare type=%s is not valid for %s operands (XLA's verifier "
			"rejects it)", ty, hilo_ptype_name(t));
	bool total = ty && !strcmp(ty, "TOTALORDER");
	for (size_t k = 0; k < n; k++) {
		size_t ka = AT(a, k), kb = AT(b, k);
		int c;
		bool un = false;
		if (kd == K_FLOAT && total) {
			int64_t x = total_key(t, a->data, ka), y = total_key(t, b->data, kb);
			c = (x > y) - (x < y);
		} else if (kd == K_FLOAT) {
			double x = ev_get_f(a, ka), y = ev_get_f(b, kb);
			un = isnan(x) || isnan(y);
			c = (x > y) - (x < y);
		} else if (kd == K_SINT) {
			int64_t x = ev_get_i(a, ka), y = ev_get_i(b, kb);
			c = (x > y) - (x < y);
		} else {
			uint64_t x = (uint64_t)ev_get_i(a, ka) & umax_of(t);
			uint64_t y = (uint64_t)ev_get_i(b, kb) & umax_of(t);
			c = (x > y) - (x < y);
		}
		((unsigned char *)r->data)[k] = cmp_result(dir, c, un);
	}
	return r;
}

/* ---- complex (c64 = two f32, c128 = two f64) ------------------------------- */

static void cget(const hilo_literal *l, size_t k, double *re, double *im)
{
	if (l->shape->type == HILO_T_C64) {
		float f[2];
		memcpy(f, (const char *)l->data + 8 * k, 8);
		*re = f[0];
		*im = f[1];
	} else if (l->shape->type == HILO_T_C128) {
		double d[2];
		memcpy(d, (const char *)l->data + 16 * k, 16);
		*re = d[0];
		*im = d[1];
	} else {
		*re = ev_get_f(l, k);
		*im = 0;
	}
}

static void cset(hilo_ptype t, void *data, size_t k, double re, double im)
{
	if (t == HILO_T_C64) {
		float f[2] = {(float)re, (float)im};
		memcpy((char *)data + 8 * k, f, 8);
	} else {
		double d[2] = {re, im};
		memcpy((char *)data + 16 * k, d, 16);
	}
}

static void cplx_f32(hilo_opcode op, float ar, float ai, float br, float bi, double *rr, double *ri)
{
	/* complex types are laid out as two reals (C11 6.2.5): built from
	 * parts without CMPLXF, which not every compiler's libc offers */
	float complex a, b, r;
	float pa[2] = {ar, ai}, pb[2] = {br, bi};
	memcpy(&a, pa, sizeof a);
	memcpy(&b, pb, sizeof b);
	switch (op) {
	case HILO_OP_ADD: r = a + b; break;
	case HILO_OP_SUBTRACT: r = a - b; break;
	case HILO_OP_MULTIPLY: /* XLA CPU: the textbook product, no Annex G recovery */
		*rr = ar * br - ai * bi;
		*ri = ar * bi + ai * br;
		return;
	default: r = a / b; break;
	}
	*rr = crealf(r);
	*ri = cimagf(r);
}

static void cplx_f64(hilo_opcode op, double ar, double ai, double br, double bi, double *rr, double *ri)
{
	double complex a, b, r;
	double pa[2] = {ar, ai}, pb[2] = {br, bi};
	memcpy(&a, pa, sizeof a);
	memcpy(&b, pb, sizeof b);
	switch (op) {
	case HILO_OP_ADD: r = a + b; break;
	case HILO_OP_SUBTRACT: r = a - b; break;
	case HILO_OP_MULTIPLY: /* XLA CPU: the textbook product, no Annex G recovery */
		*rr = ar * br - ai * bi;
		*ri = ar * bi + ai * br;
		return;
	default: r = a / b; break;
	}
	*rr = creal(r);
	*ri = cimag(r);
}

/* complex(re, im), real, imag, and the arithmetic XLA's passes meet on
 * complex values (add, subtract, multiply, divide, negate, abs, compare
 * EQ/NE). Returns NULL with *handled = false for anything else. */
static hilo_literal *complex_op(ev *e, const hilo_instr *i, hilo_literal *const *ops,
	bool *handled)
{
	hilo_opcode op = i->op;
	const hilo_shape *os = i->shape;
	bool in_c = i->noperands >= 1 && hilo_ptype_is_complex(ops[0]->shape->type);
	if (op != HILO_OP_COMPLEX && !in_c) {
		*handled = false;
		return NULL;
	}
	for (uint32_t q = 0; q < i->noperands; q++)
		if (!ew_fits(ops[q], os) || ops[q]->shape->type != ops[0]->shape->type)
			return ev_err(e, i, "operand shapes do not match the result");
	size_t n = (size_t)hilo_shape_elements(os);
	hilo_literal *r = ev_lit_new(e, i, os);
	if (!r || !ev_charge(e, i, n))
		return NULL;
	hilo_ptype t = os->type;
	const char *dir = hilo_instr_get_enum(i, HILO_A_DIRECTION);
	for (size_t k = 0; k < n; k++) {
		double ar, ai, br = 0, bi = 0, rr = 0, ri = 0;
		cget(ops[0], AT(ops[0], k), &ar, &ai);
		if (i->noperands > 1)
			cget(ops[1], AT(ops[1], k), &br, &bi);
		switch (op) {
		case HILO_OP_COMPLEX: {
			if (!hilo_ptype_is_complex(t))
				return ev_err(e, i, "complex must produce c64 or c128");
			size_t pw = t == HILO_T_C64 ? 4 : 8; /* the parts' bits, NaNs kept */
			if ((size_t)hilo_ptype_bytes(ops[0]->shape->type) != pw)
				return ev_err(e, i, "complex parts of the wrong width");
			memcpy((char *)r->data + k * 2 * pw, (const char *)ops[0]->data + AT(ops[0], k) * pw, pw);
			memcpy((char *)r->data + k * 2 * pw + pw, (const char *)ops[1]->data + AT(ops[1], k) * pw, pw);
			continue;
		}
		case HILO_OP_REAL: case HILO_OP_IMAG: case HILO_OP_COPY: case HILO_OP_NEGATE: {
			/* the parts' bits, signalling NaNs and payloads kept */
			size_t pw = ops[0]->shape->type == HILO_T_C64 ? 4 : 8;
			const char *src = (const char *)ops[0]->data + AT(ops[0], k) * 2 * pw;
			if (op == HILO_OP_REAL || op == HILO_OP_IMAG) {
				memcpy((char *)r->data + k * pw, src + (op == HILO_OP_IMAG ? pw : 0), pw);
				continue;
			}
			char *dst = (char *)r->data + k * 2 * pw;
			memcpy(dst, src, 2 * pw);
			if (op == HILO_OP_NEGATE) { /* flip both sign bits (little-endian) */
				dst[pw - 1] ^= (char)0x80;
				dst[2 * pw - 1] ^= (char)0x80;
			}
			continue;
		}
		case HILO_OP_ABS: /* XLA CPU: NaN when a part is NaN, even beside inf */
			if (isnan(ar) || isnan(ai))
				hilo_elem_set_f64(t, r->data, k, isnan(ar) ? ar : ai);
			else
				hilo_elem_set_f64(t, r->data, k, ops[0]->shape->type == HILO_T_C64 ?
					(double)hypotf((float)ar, (float)ai) : hypot(ar, ai));
			continue;
		case HILO_OP_COMPARE:
			if (!dir || (strcmp(dir, "EQ") && strcmp(dir, "NE")))
				return ev_err(e, i, "complex values compare only for EQ/NE");
			((unsigned char *)r->data)[k] =
				(ar == br && ai == bi) == (strcmp(dir, "EQ") == 0);
			continue;
		case HILO_OP_ADD:
		case HILO_OP_SUBTRACT:
		case HILO_OP_MULTIPLY:
		case HILO_OP_DIVIDE:
			/* std::complex<float/double> arithmetic is the compiler's
			 * complex arithmetic in that precision (Annex G multiply,
			 * scaled division): use the same */
			if (ops[0]->shape->type == HILO_T_C64)
				cplx_f32(op, (float)ar, (float)ai, (float)br, (float)bi, &rr, &ri);
			else
				cplx_f64(op, ar, ai, br, bi, &rr, &ri);
			break;
		default:
			return ev_err(e, i, "%s on complex values is not supported",
				hilo_opcode_name(op));
		}
		if (!hilo_ptype_is_complex(t))
			return ev_err(e, i, "complex result expected");
		cset(t, r->data, k, rr, ri);
	}
	return r;
}

/* ---- dispatch ------------------------------------------------------------- */

/* Is raw value u of float type t a signalling NaN (exponent all ones, the
 * quiet bit, the mantissa's top bit, clear, some other mantissa bit set)
 * that XLA CPU's computation still sees as one? f32, f64 and bf16 (which
 * widens to f32 by a shift); an f16 or f8 sNaN is quieted on its way to
 * f32. */
static bool is_snan(hilo_ptype t, uint64_t u)
{
	uint64_t e, m, q;
	switch (t) {
	case HILO_T_F64: e = 0x7ff0000000000000ull; m = 0xfffffffffffffull; q = 1ull << 51; break;
	case HILO_T_F32: e = 0x7f800000; m = 0x7fffff; q = 0x400000; break;
	case HILO_T_BF16: e = 0x7f80; m = 0x7f; q = 0x40; break;
	default: return false; /* f16 and f8 widen through a quieting conversion */
	}
	return (u & e) == e && (u & m) != 0 && (u & q) == 0;
}

/* Ops that only clear, flip or keep a float's sign bit, on the formats with
 * an IEEE sign bit and NaNs of both signs (the fnuz formats' one NaN is the
 * -0 pattern and e8m0 has no sign: they take the value path). */
static bool sign_bit_op(hilo_opcode op, hilo_ptype t)
{
	if (t != HILO_T_F16 && t != HILO_T_BF16 && t != HILO_T_F32 && t != HILO_T_F64)
		return false;
	return op == HILO_OP_ABS || op == HILO_OP_NEGATE || op == HILO_OP_SIGN ||
	       op == HILO_OP_REAL;
}

static bool is_unary(hilo_opcode op)
{
	switch (op) {
	case HILO_OP_ABS: case HILO_OP_NEGATE: case HILO_OP_SIGN: case HILO_OP_FLOOR:
	case HILO_OP_CEIL: case HILO_OP_ROUND_AFZ: case HILO_OP_ROUND_EVEN:
	case HILO_OP_SQRT: case HILO_OP_RSQRT: case HILO_OP_CBRT: case HILO_OP_EXP:
	case HILO_OP_EXPM1: case HILO_OP_LOG: case HILO_OP_LOG1P: case HILO_OP_LOGISTIC:
	case HILO_OP_SINE: case HILO_OP_COSINE: case HILO_OP_TAN: case HILO_OP_TANH:
	case HILO_OP_SINH: case HILO_OP_COSH: case HILO_OP_ASIN: case HILO_OP_ACOS:
	case HILO_OP_ASINH: case HILO_OP_ACOSH: case HILO_OP_ATANH: case HILO_OP_ERF:
	case HILO_OP_COPY: case HILO_OP_REAL: case HILO_OP_IMAG: case HILO_OP_NOT:
	case HILO_OP_POPCNT: case HILO_OP_CLZ: case HILO_OP_IS_FINITE:
	case HILO_OP_CONVERT: case HILO_OP_BITCAST_CONVERT: case HILO_OP_REDUCE_PRECISION:
		return true;
	default:
		return false;
	}
}

static bool is_binary(hilo_opcode op)
{
	switch (op) {
	case HILO_OP_ADD: case HILO_OP_SUBTRACT: case HILO_OP_MULTIPLY: case HILO_OP_DIVIDE:
	case HILO_OP_REMAINDER: case HILO_OP_POWER: case HILO_OP_ATAN2: case HILO_OP_MAXIMUM:
	case HILO_OP_MINIMUM: case HILO_OP_AND: case HILO_OP_OR: case HILO_OP_XOR:
	case HILO_OP_SHL: case HILO_OP_SHRL: case HILO_OP_SHRA: case HILO_OP_MULHI:
	case HILO_OP_COMPARE:
		return true;
	default:
		return false;
	}
}

static hilo_literal *ew_select(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	const hilo_literal *p = ops[0];
	if (p->shape->type != HILO_T_PRED)
		return ev_err(e, i, "select predicate must be pred");
	if (i->shape->type == HILO_T_TUPLE) {
		if (p->shape->rank != 0)
			return ev_err(e, i, "tuple select needs a scalar predicate");
		return *(unsigned char *)p->data ? ops[1] : ops[2];
	}
	if (!ew_fits(p, i->shape) || !ew_fits(ops[1], i->shape) || !ew_fits(ops[2], i->shape) ||
	    ops[1]->shape->type != i->shape->type || ops[2]->shape->type != i->shape->type)
		return ev_err(e, i, "operand shapes do not match the result");
	hilo_literal *r = ev_lit_new(e, i, i->shape);
	if (!r)
		return NULL;
	size_t n = (size_t)hilo_shape_elements(i->shape);
	int w = hilo_ptype_bytes(i->shape->type);
	if (!ev_charge(e, i, n))
		return NULL;
	for (size_t k = 0; k < n; k++) {
		const hilo_literal *s = ((unsigned char *)p->data)[AT(p, k)] ? ops[1] : ops[2];
		memcpy((char *)r->data + k * (size_t)w, (char *)s->data + AT(s, k) * (size_t)w, (size_t)w);
	}
	return r;
}

static hilo_literal *ew_clamp(ev *e, const hilo_instr *i, hilo_literal *const *ops)
{
	hilo_ptype t = i->shape->type;
	for (int q = 0; q < 3; q++)
		if (!ew_fits(ops[q], i->shape) || ops[q]->shape->type != t)
			return ev_err(e, i, "operand shapes do not match the result");
	kind kd = kind_of(t);
	if (kd == K_OTHER)
		return ev_err(e, i, "clamp of %s is not supported", hilo_ptype_name(t));
	hilo_literal *r = ev_lit_new(e, i, i->shape);
	if (!r)
		return NULL;
	size_t n = (size_t)hilo_shape_elements(i->shape);
	if (!ev_charge(e, i, n))
		return NULL;
	bool ok = true;
	for (size_t k = 0; k < n && ok; k++) {
		size_t klo = AT(ops[0], k), kx = AT(ops[1], k), khi = AT(ops[2], k);
		if (kd == K_FLOAT) {
			/* XLA CPU: minimum(maximum(x, lo), hi) with its NaN-
			 * propagating, signed-zero-ordered maximum and minimum */
			double lo = ev_get_f(ops[0], klo), x = ev_get_f(ops[1], kx);
			double hi = ev_get_f(ops[2], khi);
			hilo_elem_set_f64(t, r->data, k, min_double(max_double(x, lo), hi));
		} else {
			int64_t x = ev_get_i(ops[1], kx), lo = ev_get_i(ops[0], klo);
			int64_t hi = ev_get_i(ops[2], khi), v;
			if (kd == K_SINT) {
				v = x < lo ? lo : x;
				v = v < hi ? v : hi;
			} else { /* unsigned and pred compare as unsigned bits */
				uint64_t m = umax_of(t), ux = (uint64_t)x & m;
				uint64_t ul = (uint64_t)lo & m, uh = (uint64_t)hi & m;
				uint64_t uv = ux < ul ? ul : ux;
				v = (int64_t)(uv < uh ? uv : uh);
			}
			hilo_elem_set_i64(t, r->data, k, v);
		}
	}
	return r;
}

static bool splat_elementwise(hilo_opcode op)
{
	return op == HILO_OP_SELECT || op == HILO_OP_CLAMP || op == HILO_OP_COMPLEX ||
	       ((is_unary(op) || is_binary(op)) && op != HILO_OP_BITCAST_CONVERT);
}

bool ev_splat_capable(hilo_opcode op)
{
	return splat_elementwise(op) || op == HILO_OP_BROADCAST || op == HILO_OP_RESHAPE;
}

hilo_literal *ev_elementwise_splat(ev *e, const hilo_instr *i, hilo_literal *const *ops,
	bool *handled)
{
	hilo_opcode op = i->op;
	bool ew = splat_elementwise(op);
	bool fits = ew && hilo_shape_is_array(i->shape) && hilo_shape_elements(i->shape) > 0 &&
	            i->noperands <= 3;
	for (uint32_t q = 0; fits && q < i->noperands; q++)
		fits = ops[q]->shape && hilo_shape_is_array(ops[q]->shape) && !ops[q]->elided &&
		       (ops[q]->splat || ops[q]->shape->rank == 0);
	if (!fits) {
		*handled = false;
		return NULL;
	}
	/* every result element is op of the operands' one elements: compute
	 * it once, on scalar views, by the same code (so bit for bit the
	 * value every element would get) */
	hilo_literal view[3], *v[3];
	for (uint32_t q = 0; q < i->noperands; q++) {
		view[q] = *ops[q];
		view[q].splat = false;
		view[q].shape = hilo_shape_scalar(e->m->shapes, ops[q]->shape->type);
		v[q] = &view[q];
	}
	hilo_instr one = *i;
	one.shape = hilo_shape_scalar(e->m->shapes, i->shape->type);
	bool h = true;
	hilo_literal *r = ev_elementwise(e, &one, v, &h);
	if (!r)
		return NULL;
	return ev_splat_new(e, i, i->shape, r->data);
}

hilo_literal *ev_elementwise(ev *e, const hilo_instr *i, hilo_literal *const *ops, bool *handled)
{
	hilo_opcode op = i->op;
	if (op == HILO_OP_SELECT)
		return ew_select(e, i, ops);
	if (op == HILO_OP_CLAMP)
		return ew_clamp(e, i, ops);
	bool un = is_unary(op), bi = is_binary(op);
	if (!un && !bi && op != HILO_OP_COMPLEX) {
		*handled = false;
		return NULL;
	}
	if (op != HILO_OP_CONVERT && op != HILO_OP_BITCAST_CONVERT) {
		bool ch = true;
		hilo_literal *cr = complex_op(e, i, ops, &ch);
		if (ch)
			return cr;
	}
	if (i->noperands != (un ? 1u : 2u))
		return ev_err(e, i, "wrong operand count");
	const hilo_shape *os = i->shape;
	if (os->type == HILO_T_TUPLE)
		return ev_err(e, i, "elementwise op with a tuple result");
	const hilo_literal *a = ops[0], *b = bi ? ops[1] : NULL;
	if (op == HILO_OP_BITCAST_CONVERT) {
		if (!ev_charge(e, i, (uint64_t)hilo_shape_elements(os)))
			return NULL;
		return bitcast_convert(e, i, a);
	}
	if (!ew_fits(a, os) || (b && !ew_fits(b, os)))
		return ev_err(e, i, "operand shapes do not match the result");
	if (b && a->shape->type != b->shape->type && op != HILO_OP_SHL && op != HILO_OP_SHRL &&
	    op != HILO_OP_SHRA)
		return ev_err(e, i, "operand types differ");
	hilo_literal *r = ev_lit_new(e, i, os);
	if (!r)
		return NULL;
	size_t n = (size_t)hilo_shape_elements(os);
	if (!ev_charge(e, i, n))
		return NULL;
	hilo_ptype it = a->shape->type, t = os->type;
	kind ki = kind_of(it);
	if (op == HILO_OP_CONVERT && it == t) { /* XLA: a no-op, every bit kept */
		memcpy(r->data, a->data, r->nbytes < a->nbytes ? r->nbytes : a->nbytes);
		if (a->shape->rank == 0)
			for (size_t k = 1; k < n; k++)
				memcpy((char *)r->data + k * a->nbytes, a->data, a->nbytes);
		return r;
	}
	if (sign_bit_op(op, it) && it == t) {
		/* abs, negate, sign of a NaN and real clear, flip or keep the
		 * sign bit and nothing else (IEEE 754 sec. 5.5.1; XLA CPU keeps
		 * signalling NaNs and payloads), so they work on the bits */
		int w = bits_of(it);
		uint64_t sb = 1ull << (w - 1);
		for (size_t k = 0; k < n; k++) {
			uint64_t u = raw_get(it, a->data, AT(a, k));
			double x = ev_get_f(a, AT(a, k));
			if (op == HILO_OP_SIGN && !isnan(x)) {
				hilo_elem_set_f64(t, r->data, k, copysign(x != 0 ? 1.0 : 0.0, x));
				continue;
			}
			if (op == HILO_OP_ABS)
				u &= ~sb;
			else if (op == HILO_OP_NEGATE)
				u ^= sb;
			raw_set(it, r->data, k, u);
		}
		return r;
	}
	if (op == HILO_OP_CONVERT) {
		if (ki == K_OTHER && !hilo_ptype_is_complex(it))
			return ev_err(e, i, "convert from %s is not supported", hilo_ptype_name(it));
		if (kind_of(t) == K_OTHER && !hilo_ptype_is_complex(t))
			return ev_err(e, i, "convert to %s is not supported", hilo_ptype_name(t));
		for (size_t k = 0; k < n; k++)
			convert_elem(it, a->data, AT(a, k), t, r->data, k);
		return r;
	}
	if (op == HILO_OP_COPY) {
		if (a->nbytes != r->nbytes)
			return ev_err(e, i, "copy changes the size");
		memcpy(r->data, a->data, a->nbytes);
		return r;
	}
	if (op == HILO_OP_COMPARE)
		return compare(e, i, a, b, r, n);
	if (ki == K_OTHER)
		return ev_err(e, i, "%s on %s is not supported", hilo_opcode_name(op),
			hilo_ptype_name(it));
	if (op != HILO_OP_IS_FINITE && it != t)
		return ev_err(e, i, "operand and result types differ");
	if (op == HILO_OP_IS_FINITE) {
		if (ki != K_FLOAT || t != HILO_T_PRED)
			return ev_err(e, i, "is-finite needs a float operand and pred result");
		for (size_t k = 0; k < n; k++)
			((unsigned char *)r->data)[k] = isfinite(ev_get_f(a, AT(a, k))) != 0;
		return r;
	}
	if (op == HILO_OP_REDUCE_PRECISION) {
		if (ki != K_FLOAT)
			return ev_err(e, i, "reduce-precision needs a float operand");
		return reduce_precision(e, i, a, r, n);
	}
	bool ok = true;
	for (size_t k = 0; k < n && ok; k++) {
		size_t ka = AT(a, k);
		if (op == HILO_OP_POWER && ki == K_FLOAT &&
		    (is_snan(it, raw_get(it, a->data, ka)) || is_snan(it, raw_get(it, b->data, AT(b, k))))) {
			/* XLA CPU: a signalling NaN operand gives NaN even where
			 * x^0 = 1^y = 1 holds for quiet ones (C's pow) */
			hilo_elem_set_f64(t, r->data, k, NAN);
			continue;
		}
		if (ki == K_FLOAT && it == HILO_T_F64) {
			double x = ev_get_f(a, ka), v;
			if (un)
				v = un_f64(op, x, &ok);
			else
				v = bin_f64(op, x, ev_get_f(b, AT(b, k)), &ok);
			hilo_elem_set_f64(t, r->data, k, v);
		} else if (ki == K_FLOAT) {
			/* f32 and narrower: XLA's ElementwiseT is float */
			float x = (float)ev_get_f(a, ka), v;
			if (un)
				v = un_f32(op, x, &ok);
			else
				v = bin_f32(op, x, (float)ev_get_f(b, AT(b, k)), &ok);
			put_f(t, r->data, k, v);
		} else {
			int64_t x = ev_get_i(a, ka);
			uint64_t v;
			if (un) {
				v = un_i(op, t, x, &ok);
			} else {
				int64_t y = ev_get_i(b, AT(b, k));
				if (b->shape->type != it) { /* shift amount of another int type */
					ok = false;
					break;
				}
				v = bin_i(op, t, x, y, &ok);
			}
			if (t == HILO_T_PRED)
				v = v != 0;
			hilo_elem_set_i64(t, r->data, k, (int64_t)v);
		}
	}
	if (!ok)
		return ev_err(e, i, "%s is not defined on %s", hilo_opcode_name(op), hilo_ptype_name(it));
	return r;
}
