/* literal.h - the literal helpers of the IR layer that are not public API
 * (internal to libhilo; the public ones are declared in hilo/eval.h and
 * hilo/hlo_text.h and defined in ir/literal.c too). */
#ifndef HILO_IR_LITERAL_H
#define HILO_IR_LITERAL_H

#include "hilo/ir.h"

#define HILO_LITERAL_MAX_BYTES ((size_t)1 << 31) /* largest single literal */

/* A zero-filled literal of shape s in a (tuples recursively), shape shared;
 * NULL when out of memory or over *budget_bytes, which is charged. */
hilo_literal *hilo_literal_alloc(hilo_arena *a, const hilo_shape *s, size_t *budget_bytes);
/* A copy of l's data (and tuple structure) in a, sharing l's shapes. */
hilo_literal *hilo_literal_copy_in(hilo_arena *a, const hilo_literal *l);
/* l with every element stored: l itself when it is not a splat (tuples:
 * when no element is), else a copy in a whose data repeats the one
 * element, charged to *budget_bytes; NULL (nothing charged past what was
 * copied) when the copy is over it or out of memory. Shapes are shared.
 * The budgeted expansion every consumer that needs dense data uses. */
hilo_literal *hilo_literal_dense_in(hilo_arena *a, const hilo_literal *l, size_t *budget_bytes);
/* Does l, or an element of tuple l, store a splat? */
bool hilo_literal_has_splat(const hilo_literal *l);
/* Element count of array literal l's shape (0 for a tuple, an invalid or
 * overflowing shape). */
size_t hilo_literal_count(const hilo_literal *l);

/* Element k of an array of type t at data, as HLO text prints it
 * (hilo_print_element is the public name). */
void hilo_literal_format_element(hilo_buf *b, hilo_ptype t, const void *data, size_t k);

/* How two literals compare: HILO_CMP_NSZ -0 == +0; HILO_CMP_NAN_BITS a
 * NaN equals only the same bits (the rewrite validator's records,
 * docs/proof.md "Floating-point equality"); without it any two NaNs are
 * equal (the module-level check). */
enum { HILO_CMP_NSZ = 1, HILO_CMP_NAN_BITS = 2 };

/* Describes the first mismatch between a and b (path: the tuple index
 * so far, "{1}{0}") into msg, compared as `how` says (HILO_CMP_*); false
 * when they are equal. */
bool hilo_literal_describe_diff_path(hilo_buf *path, const hilo_literal *a, const hilo_literal *b,
	char *msg, size_t cap, uint64_t seed, unsigned how);

/* Row-major strides of s's dims into st. */
static inline void hilo_shape_strides(const hilo_shape *s, int64_t *st)
{
	int64_t acc = 1;
	for (int d = s->rank - 1; d >= 0; d--) {
		st[d] = acc;
		acc *= s->dims[d];
	}
}

/* Strides of s's elements in the dense order of its layout
 * (minor_to_major; row-major without a layout), tiles and memory spaces
 * ignored, into st. False when the layout is malformed (not a
 * permutation of the dims). */
bool hilo_shape_layout_strides(const hilo_shape *s, int64_t *st);
/* True when s's layout orders its elements other than row-major (a
 * LiteralProto's values, a bitcast's buffer, follow that order). */
bool hilo_shape_layout_reorders(const hilo_shape *s);
/* Copies the n elements of es bytes of an array of shape s from src to
 * dst (distinct buffers), from row-major into its layout's dense order
 * (to_layout) or back. False, dst untouched, for a malformed layout. */
bool hilo_layout_permute(const hilo_shape *s, const void *src, void *dst, size_t es, bool to_layout);

#endif
