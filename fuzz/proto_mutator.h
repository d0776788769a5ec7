/* proto_mutator.h - a structure-aware mutator for protobuf wire format
 * (issue 34 section 4), for fuzz_proto.c's LLVMFuzzerCustomMutator.
 *
 * A byte-level mutator rarely gets past a length prefix: change one byte
 * of a nested message and the length of every message around it is wrong,
 * so the reader stops at the first field. This one reads the input as a
 * tree of fields (a length-delimited field whose payload parses whole as
 * wire format is taken for a submessage, any other for bytes), picks one
 * field of the whole tree at random and changes it as a field:
 *   - a varint set to a boundary value (0, 1, -1, 2^31, 2^32, 2^63, ...),
 *     moved by a small amount or with one bit flipped;
 *   - a fixed32/fixed64 with one bit flipped;
 *   - a bytes/string payload (or a submessage's, as bytes) handed to the
 *     byte mutator (mutate_bytes);
 *   - the field deleted, duplicated, moved after its next sibling, or
 *     given another field number (one of its siblings', or a neighbour);
 * and writes the tree back with every enclosing length recomputed. An
 * input that is not wire format at its top level, or a result over
 * max_size, goes to the byte mutator whole, so the fuzzer still explores
 * near-proto bytes.
 *
 * No globals: all state is the call's. Static functions, included by one
 * target (and by the mutator's own test, fuzz/test_proto_mutator.c). */
#ifndef HILO_FUZZ_PROTO_MUTATOR_H
#define HILO_FUZZ_PROTO_MUTATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/hash.h"

/* The byte mutator: mutates data[0..size) in place, at most max_size
 * bytes, returns the new size (libFuzzer's LLVMFuzzerMutate). */
typedef size_t (*pm_bytes_fn)(uint8_t *data, size_t size, size_t max_size);

enum { PM_MAX_DEPTH = 24 };

typedef struct pm_rng {
	uint64_t s;
} pm_rng;

static uint64_t pm_next(pm_rng *r)
{
	return hilo_hash_mix64(r->s++); /* splitmix64: its finalizer over a counter */
}

static uint64_t pm_below(pm_rng *r, uint64_t n)
{
	return n ? pm_next(r) % n : 0;
}

/* A varint at p[*at..n) into *v; false past the end or over 10 bytes. */
static bool pm_varint(const uint8_t *p, size_t n, size_t *at, uint64_t *v)
{
	uint64_t x = 0;
	for (int sh = 0; sh < 70; sh += 7) {
		if (*at >= n)
			return false;
		uint8_t c = p[(*at)++];
		x |= (uint64_t)(c & 0x7f) << sh;
		if (c < 0x80) {
			*v = x;
			return true;
		}
	}
	return false;
}

/* One field of a message: its tag's number and wire type, and where its
 * value lies in the message bytes (for LEN, the payload after the length). */
typedef struct pm_field {
	uint64_t num;
	unsigned wt;
	uint64_t v;           /* a varint's value */
	size_t start, end;    /* the whole field, tag included */
	size_t vstart, vend;  /* the value: the varint, the fixed bytes or the payload */
} pm_field;

/* The next field at p[*at..n); false when what follows is no field. */
static bool pm_field_at(const uint8_t *p, size_t n, size_t *at, pm_field *f)
{
	uint64_t tag;
	f->start = *at;
	if (!pm_varint(p, n, at, &tag) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
		return false;
	f->num = tag >> 3;
	f->wt = (unsigned)(tag & 7);
	f->vstart = *at;
	switch (f->wt) {
	case 0:
		if (!pm_varint(p, n, at, &f->v))
			return false;
		break;
	case 1:
	case 5: {
		size_t w = f->wt == 1 ? 8 : 4;
		if (n - *at < w)
			return false;
		*at += w;
		break;
	}
	case 2: {
		uint64_t len;
		if (!pm_varint(p, n, at, &len) || len > n - *at)
			return false;
		f->vstart = *at;
		*at += (size_t)len;
		break;
	}
	default:
		return false; /* groups and reserved wire types: not a message */
	}
	f->vend = *at;
	f->end = *at;
	return true;
}

/* Whether p[0..n) reads whole as a sequence of fields (an empty payload
 * is bytes, not a message: nothing to mutate inside). */
static bool pm_is_msg(const uint8_t *p, size_t n)
{
	size_t at = 0;
	pm_field f;
	if (!n)
		return false;
	while (at < n)
		if (!pm_field_at(p, n, &at, &f))
			return false;
	return true;
}

typedef struct pm_out {
	uint8_t *p;
	size_t n, cap;
	bool oom;
} pm_out;

static void pm_put(pm_out *o, const void *s, size_t n)
{
	if (o->oom || !n)
		return;
	if (o->n + n > o->cap) {
		size_t cap = o->cap ? o->cap : 256;
		while (cap < o->n + n)
			cap *= 2;
		uint8_t *q = realloc(o->p, cap);
		if (!q) {
			o->oom = true;
			return;
		}
		o->p = q;
		o->cap = cap;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
}

static void pm_put_varint(pm_out *o, uint64_t v)
{
	uint8_t b[10];
	size_t k = 0;
	do {
		b[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pm_put(o, b, k);
}

typedef struct pm_ctx {
	pm_rng rng;
	pm_bytes_fn bytes;
	uint64_t target;  /* pre-order index of the field to mutate */
	uint64_t seen;    /* fields walked so far */
	bool done;        /* the mutation was made */
	size_t max_size;
} pm_ctx;

/* Counts the fields of the tree under p[0..n). */
static uint64_t pm_count(const uint8_t *p, size_t n, int depth)
{
	uint64_t c = 0;
	size_t at = 0;
	pm_field f;
	while (at < n && pm_field_at(p, n, &at, &f)) {
		c++;
		if (f.wt == 2 && depth < PM_MAX_DEPTH && pm_is_msg(p + f.vstart, f.vend - f.vstart))
			c += pm_count(p + f.vstart, f.vend - f.vstart, depth + 1);
	}
	return c;
}

static const uint64_t pm_boundaries[] = {
	0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, 0x7fffffff, 0x80000000ull, 0xffffffffull,
	0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, ~0ull - 1,
};

static void pm_msg(pm_ctx *X, pm_out *o, const uint8_t *p, size_t n, int depth);

/* Writes field f of message p with its tag number num, its value v (a
 * varint's) and, for LEN, the payload given. */
static void pm_emit(pm_out *o, const pm_field *f, uint64_t num, uint64_t v, const uint8_t *payload,
	size_t plen)
{
	pm_put_varint(o, num << 3 | f->wt);
	if (f->wt == 0)
		pm_put_varint(o, v);
	else if (f->wt == 2) {
		pm_put_varint(o, plen);
		pm_put(o, payload, plen);
	} else
		pm_put(o, payload, plen);
}

/* Writes field f (of message p), walking into a submessage, and mutating
 * it when it is the target. */
static void pm_one(pm_ctx *X, pm_out *o, const uint8_t *p, const pm_field *f, const pm_field *sib,
	size_t nsib, int depth)
{
	const uint8_t *val = p + f->vstart;
	size_t vlen = f->vend - f->vstart;
	bool msg = f->wt == 2 && depth < PM_MAX_DEPTH && pm_is_msg(val, vlen);
	bool me = !X->done && X->seen++ == X->target;
	if (!me) {
		if (msg && !X->done) {
			pm_out sub = {0};
			pm_msg(X, &sub, val, vlen, depth + 1);
			if (sub.oom)
				o->oom = true;
			pm_emit(o, f, f->num, 0, sub.p, sub.n);
			free(sub.p);
		} else
			pm_put(o, p + f->start, f->end - f->start);
		return;
	}
	X->done = true;
	switch (pm_below(&X->rng, 8)) {
	case 0: /* deleted */
		return;
	case 1: /* duplicated */
		pm_put(o, p + f->start, f->end - f->start);
		pm_put(o, p + f->start, f->end - f->start);
		return;
	case 2: { /* another field number: a sibling's, or a neighbour */
		uint64_t num = f->num;
		if (nsib && pm_below(&X->rng, 2))
			num = sib[pm_below(&X->rng, nsib)].num;
		else
			num = num + pm_below(&X->rng, 5) - 2;
		if (num == 0 || num > 0x1fffffff)
			num = f->num;
		pm_emit(o, f, num, f->v, val, vlen);
		return;
	}
	default:
		break;
	}
	/* the value */
	if (f->wt == 0) {
		uint64_t v = f->v;
		switch (pm_below(&X->rng, 3)) {
		case 0: v = pm_boundaries[pm_below(&X->rng, sizeof pm_boundaries / sizeof *pm_boundaries)]; break;
		case 1: v += pm_below(&X->rng, 9) - 4; break;
		default: v ^= 1ull << pm_below(&X->rng, 64); break;
		}
		pm_emit(o, f, f->num, v, NULL, 0);
		return;
	}
	if (f->wt == 1 || f->wt == 5) {
		uint8_t b[8];
		memcpy(b, val, vlen);
		b[pm_below(&X->rng, vlen)] ^= (uint8_t)(1u << pm_below(&X->rng, 8));
		pm_emit(o, f, f->num, 0, b, vlen);
		return;
	}
	/* LEN: the payload's bytes, to at most twice their size (and what
	 * the whole input may still grow by) */
	size_t room = X->max_size > o->n + 16 ? X->max_size - o->n - 16 : 0;
	size_t cap = vlen * 2 + 16 < room ? vlen * 2 + 16 : room;
	if (cap < vlen)
		cap = vlen;
	uint8_t *b = malloc(cap ? cap : 1);
	if (!b) {
		o->oom = true;
		return;
	}
	memcpy(b, val, vlen);
	size_t nl = cap ? X->bytes(b, vlen, cap) : 0;
	pm_emit(o, f, f->num, 0, b, nl <= cap ? nl : vlen);
	free(b);
}

/* Writes message p[0..n) field by field; a field's move after its next
 * sibling is made here, where both are in view. */
static void pm_msg(pm_ctx *X, pm_out *o, const uint8_t *p, size_t n, int depth)
{
	pm_field sib[64];
	size_t nsib = 0, at = 0;
	/* the first fields, for renumbering to a sibling's number */
	for (pm_field f; nsib < 64 && at < n && pm_field_at(p, n, &at, &f);)
		sib[nsib++] = f;
	at = 0;
	pm_field f, g;
	while (at < n) {
		size_t here = at;
		if (!pm_field_at(p, n, &at, &f)) {
			pm_put(o, p + here, n - here); /* a torn tail stays as it was */
			return;
		}
		/* one time in 8, the target is swapped with the field after it */
		if (!X->done && X->seen == X->target && pm_below(&X->rng, 8) == 0) {
			size_t next = at;
			if (next < n && pm_field_at(p, n, &next, &g)) {
				X->done = true; /* the rest is copied as it is */
				pm_put(o, p + g.start, g.end - g.start);
				pm_put(o, p + f.start, f.end - f.start);
				at = next;
				continue;
			}
		}
		pm_one(X, o, p, &f, sib, nsib, depth);
	}
}

/* The mutator: data[0..size) (capacity max_size) mutated in place, the
 * new size returned. */
static size_t pm_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed, pm_bytes_fn bytes)
{
	uint64_t nfields = pm_is_msg(data, size) ? pm_count(data, size, 0) : 0;
	if (!nfields)
		return bytes(data, size, max_size);
	pm_ctx X = {.rng = {seed * 0x9e3779b97f4a7c15ull + 1}, .bytes = bytes, .max_size = max_size};
	X.target = pm_below(&X.rng, nfields);
	pm_out o = {0};
	pm_msg(&X, &o, data, size, 0);
	size_t n = 0;
	if (!o.oom && o.n <= max_size) {
		if (o.n)
			memcpy(data, o.p, o.n);
		n = o.n;
	} else
		n = bytes(data, size, max_size);
	free(o.p);
	return n;
}

#endif
