/* Protobuf wire format primitives shared by the hand-written HloModuleProto
 * reader (pb_read.c) and writer (pb_write.c): varints, tags, fixed-width
 * values and length-delimited fields.
 *
 * Writing appends to a hilo_buf. A nested message is written in place:
 * pw_open_n reserves a guessed number of length bytes, pw_close_n fills
 * them in and, when the guess was wrong, moves the body by the
 * difference (so no size pass over the message is needed; each byte
 * moves at most once per nesting level whose guess missed).
 * Lengths and varints are written in their shortest form, so the bytes
 * are the ones protobuf-c's packer writes for the same fields in the
 * same order. After an allocation failure the buffer's oom flag is set
 * and every further call is a no-op; the caller checks the flag once.
 *
 * Reading walks a [p, end) window. Every read checks the bound first;
 * a failure leaves the cursor where the bad item starts so the caller can
 * report its byte offset.
 */
#ifndef HILO_PB_WIRE_H
#define HILO_PB_WIRE_H

#include "hilo/base.h"

#include <stdint.h>
#include <string.h>

enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

/* ---- writing ---- */

static inline uint8_t *pw_need(hilo_buf *b, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		hilo_buf_reserve(b, n);
		if (b->oom)
			return NULL;
	}
	return (uint8_t *)b->data + b->len;
}

static inline size_t pw_varint_size(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static inline uint8_t *pw_varint_at(uint8_t *q, uint64_t v)
{
	while (v >= 0x80) {
		*q++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*q++ = (uint8_t)v;
	return q;
}

static inline void pw_varint(hilo_buf *b, uint64_t v)
{
	uint8_t *q = pw_need(b, 10);
	if (q)
		b->len = (size_t)((char *)pw_varint_at(q, v) - b->data);
}

static inline void pw_tag(hilo_buf *b, uint32_t field, int wt)
{
	pw_varint(b, ((uint64_t)field << 3) | (uint64_t)wt);
}

static inline void pw_raw(hilo_buf *b, const void *p, size_t n)
{
	uint8_t *q = pw_need(b, n);
	if (q && n) {
		memcpy(q, p, n);
		b->len += n;
	}
}

/* int64/int32/enum/bool fields: protobuf-c skips zero (proto3). int32
 * values are sign-extended to 64 bits as the wire format wants. */
static inline void pw_int(hilo_buf *b, uint32_t field, int64_t v)
{
	if (v) {
		pw_tag(b, field, PB_VARINT);
		pw_varint(b, (uint64_t)v);
	}
}

static inline void pw_bytes(hilo_buf *b, uint32_t field, const void *p, size_t n)
{
	if (n) {
		pw_tag(b, field, PB_LEN);
		pw_varint(b, n);
		pw_raw(b, p, n);
	}
}

/* A singular string: skipped when NULL or empty (proto3). */
static inline void pw_str(hilo_buf *b, uint32_t field, const char *s)
{
	if (s && *s)
		pw_bytes(b, field, s, strlen(s));
}

/* An element of a repeated string: written even when empty. */
static inline void pw_str_elem(hilo_buf *b, uint32_t field, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	pw_tag(b, field, PB_LEN);
	pw_varint(b, n);
	pw_raw(b, s, n);
}

/* Opens a nested message or packed field with g length bytes reserved
 * (a guess of how long the body's length will be); returns the body's
 * offset. pw_close_n with the same g writes the length and moves the
 * body only when the guess was wrong. */
static inline size_t pw_open_n(hilo_buf *b, uint32_t field, size_t g)
{
	pw_tag(b, field, PB_LEN);
	if (pw_need(b, g))
		b->len += g;
	return b->len;
}

static inline void pw_close_n(hilo_buf *b, size_t start, size_t g)
{
	if (b->oom)
		return;
	size_t n = b->len - start;
	size_t k = pw_varint_size(n);
	if (k != g) {
		if (k > g && !pw_need(b, k - g))
			return;
		memmove(b->data + start - g + k, b->data + start, n);
		b->len = b->len - g + k;
	}
	pw_varint_at((uint8_t *)b->data + start - g, n);
}

static inline size_t pw_open(hilo_buf *b, uint32_t field)
{
	return pw_open_n(b, field, 1);
}

static inline void pw_close(hilo_buf *b, size_t start)
{
	pw_close_n(b, start, 1);
}

/* Packed repeated int64 (varints); nothing when n == 0. */
static inline void pw_packed_i64(hilo_buf *b, uint32_t field, const int64_t *v, size_t n)
{
	if (!n)
		return;
	size_t sz = 0;
	for (size_t k = 0; k < n; k++)
		sz += pw_varint_size((uint64_t)v[k]);
	pw_tag(b, field, PB_LEN);
	pw_varint(b, sz);
	uint8_t *q = pw_need(b, sz);
	if (!q)
		return;
	for (size_t k = 0; k < n; k++)
		q = pw_varint_at(q, (uint64_t)v[k]);
	b->len += sz;
}

/* ---- reading ---- */

typedef struct pr_cur {
	const uint8_t *p, *end;
} pr_cur;

static inline bool pr_varint(pr_cur *c, uint64_t *v)
{
	const uint8_t *p = c->p;
	/* one and two bytes (tags, lengths, most ids) without the loop */
	if (p < c->end && *p < 0x80) {
		*v = *p;
		c->p = p + 1;
		return true;
	}
	if (c->end - p >= 2 && p[1] < 0x80) {
		*v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
		c->p = p + 2;
		return true;
	}
	uint64_t r = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		if (p >= c->end)
			return false;
		uint8_t x = *p++;
		r |= (uint64_t)(x & 0x7f) << shift;
		if (!(x & 0x80)) {
			*v = r;
			c->p = p;
			return true;
		}
	}
	return false;
}

#endif
