/* hilo/npy.h - NumPy .npy files for literals (hilo-run --input=X.npy,
 * --output-dir), format versions 1.0-3.0, little-endian, C order.
 *
 * Element types map to NumPy's: pred '|b1'; s8..s64 '|i1' '<i2' '<i4'
 * '<i8'; u8..u64 likewise with 'u'; f16 '<f2', f32 '<f4', f64 '<f8';
 * c64 '<c8', c128 '<c16'. Types NumPy lacks are written as raw unsigned
 * views of hilo's storage (bf16 '<u2'; every f8/f6/f4 type '|u1'; s4/s2/s1
 * '|i1' and u4/u2/u1 '|u1', one element per byte); with ml_dtypes,
 * `np.load(f).view(ml_dtypes.bfloat16)` gives the typed array. Reading
 * accepts the exact NumPy type, a raw view of the same width, or the
 * ml_dtypes name ('bfloat16', 'float8_e4m3fn', ... as a descr string).
 */
#ifndef HILO_NPY_H
#define HILO_NPY_H

#include "hilo/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a .npy image as a literal of shape `want` (its element type and
 * dimensions must match; the file's dims must equal want's). NULL plus a
 * diagnostic naming fname on any mismatch or malformed header. The
 * literal lives in m's arena. */
HILO_API hilo_literal *hilo_npy_read(hilo_module *m, const void *data, size_t len,
	const hilo_shape *want, const char *fname, hilo_diags *d);

/* Appends the .npy image of an array literal (not a tuple) to out; false
 * for a tuple or elided literal. */
HILO_API bool hilo_npy_write(hilo_buf *out, const hilo_literal *l);

/* The .npy descr hilo writes for an element type ("<f4", "<u2", ...), or
 * NULL for tuple/token/opaque. */
HILO_API const char *hilo_npy_descr(hilo_ptype t);

#ifdef __cplusplus
}
#endif

#endif
