/* hilo/float.h - exact conversions between double and XLA's small float
 * formats (f16, bf16, the f8/f6/f4 variants), round to nearest even, with
 * each format's own infinity/NaN/saturation rules, plus XLA's textual
 * formatting of floating-point values. */
#ifndef HILO_FLOAT_H
#define HILO_FLOAT_H

#include "hilo/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Raw bits of value v converted to small-float type t (f16, bf16, f8*,
 * f6*, f4*). For f32/f64 use the C types directly. */
HILO_API uint32_t hilo_float_encode(hilo_ptype t, double v);
/* The exact value of raw bits in small-float type t. */
HILO_API double hilo_float_decode(hilo_ptype t, uint32_t bits);

/* The largest finite value of float type t (f16 ... f4, f32, f64; complex:
 * its parts' type) and the smallest positive one (a subnormal where the
 * format has them); 0 for other types. */
HILO_API double hilo_float_max_finite(hilo_ptype t);
HILO_API double hilo_float_min_positive(hilo_ptype t);

/* Reads element k of a literal buffer of type t as double (floats and
 * ints; complex gives the real part). */
HILO_API double hilo_elem_get_f64(hilo_ptype t, const void *data, size_t k);
/* Reads element k as int64 (ints, pred); floats are truncated. */
HILO_API int64_t hilo_elem_get_i64(hilo_ptype t, const void *data, size_t k);
/* Writes element k of type t from a double / int64 (ints wrap to width,
 * floats round to nearest even). */
HILO_API void hilo_elem_set_f64(hilo_ptype t, void *data, size_t k, double v);
HILO_API void hilo_elem_set_i64(hilo_ptype t, void *data, size_t k, int64_t v);

/* Appends a float of type t as XLA prints it in literals
 * (RoundTripFpToString: digits10 if that round-trips, else max_digits10;
 * inf, -inf, nan, -nan, nan(0x...) for payloads). */
/* hilo's NaN standard (docs/proof.md, "Floating-point equality"): does op
 * always give a quiet NaN where its float result is a NaN (IEEE arithmetic
 * quiets a signalling operand; bit-preserving ops - data movement, select,
 * negate, abs, copy, bitcast-convert, max/min - do not)? */
HILO_API bool hilo_opcode_quiets_nan(int op);
/* Is element k of data (type t) a signalling NaN (quiet bit clear)?
 * False for formats without NaN payloads (f8, f6, f4) and non-floats. */
HILO_API bool hilo_elem_is_snan(hilo_ptype t, const void *data, size_t k);
HILO_API void hilo_format_float(hilo_buf *b, hilo_ptype t, const void *data, size_t k);

#ifdef __cplusplus
}
#endif

#endif
