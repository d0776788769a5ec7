/* test_proto_mutator.c - the fuzzers' structure-aware proto mutator
 * (fuzz/proto_mutator.h) does what it is for: its mutants stay wire
 * format and get past the reader's framing far more often than byte
 * flips do, and never exceed the size they are given.
 *
 * The byte mutator it falls back on is libFuzzer's inside the fuzzer;
 * here a stand-in flips one bit at a position derived from the bytes. */
#include "hilo/hlo_text.h"
#include "hilo/proto.h"

#include "../../fuzz/proto_mutator.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

static size_t flip_one(uint8_t *data, size_t size, size_t max_size)
{
	(void)max_size;
	if (!size)
		return 0;
	uint64_t h = 1469598103934665603ull;
	for (size_t k = 0; k < size; k++)
		h = (h ^ data[k]) * 1099511628211ull;
	data[h % size] ^= (uint8_t)(1u << (h >> 32) % 8);
	return size;
}

static const char text[] =
	"HloModule m, entry_computation_layout={(f32[4]{0}, s32[])->f32[4]{0}}\n"
	"\n"
	"add {\n"
	"  x = f32[] parameter(0)\n"
	"  y = f32[] parameter(1)\n"
	"  ROOT s = f32[] add(x, y)\n"
	"}\n"
	"\n"
	"ENTRY e {\n"
	"  p = f32[4]{0} parameter(0), metadata={op_name=\"jit(f)/mul\" source_file=\"a.py\" source_line=3}\n"
	"  i = s32[] parameter(1)\n"
	"  c = f32[4]{0} constant({1, 2, 3, 4})\n"
	"  m = f32[4]{0} multiply(p, c)\n"
	"  z = f32[] constant(0)\n"
	"  r = f32[] reduce(m, z), dimensions={0}, to_apply=add\n"
	"  b = f32[4]{0} broadcast(r), dimensions={}\n"
	"  ROOT d = f32[4]{0} dynamic-update-slice(m, b, i)\n"
	"}\n";

typedef struct tally {
	size_t changed, wire, read, reshaped;
} tally;

/* The tree's shape: each field's depth, number and wire type, in order. */
static uint64_t shape_of(const uint8_t *p, size_t n, int depth, uint64_t h)
{
	size_t at = 0;
	for (pm_field f; at < n && pm_field_at(p, n, &at, &f);) {
		h = (h ^ ((uint64_t)depth << 40 ^ f.num << 3 ^ f.wt)) * 1099511628211ull;
		if (f.wt == 2 && depth < PM_MAX_DEPTH && pm_is_msg(p + f.vstart, f.vend - f.vstart))
			h = shape_of(p + f.vstart, f.vend - f.vstart, depth + 1, h);
	}
	return h;
}

static tally run(const hilo_buf *pb, unsigned n, bool structured)
{
	tally t = {0, 0, 0, 0};
	uint64_t shape0 = shape_of((const uint8_t *)pb->data, pb->len, 0, 1);
	size_t cap = pb->len * 2 + 64;
	uint8_t *b = malloc(cap);
	CHECK(b != NULL);
	if (!b)
		return t;
	for (unsigned s = 0; s < n; s++) {
		memcpy(b, pb->data, pb->len);
		size_t len = pb->len;
		if (structured) {
			len = pm_mutate(b, pb->len, cap, s, flip_one);
		} else { /* the baseline: one bit flipped anywhere */
			pm_rng r = {s};
			b[pm_below(&r, len)] ^= (uint8_t)(1u << pm_below(&r, 8));
		}
		if (len > cap) {
			CHECK(len <= cap);
			break;
		}
		if (len != pb->len || memcmp(b, pb->data, len))
			t.changed++;
		if (pm_is_msg(b, len))
			t.wire++;
		hilo_diags d;
		hilo_diags_init(&d);
		hilo_module *m = hilo_proto_read(b, len, "mutant.pb", &d);
		if (m) {
			t.read++;
			if (shape_of(b, len, 0, 1) != shape0)
				t.reshaped++; /* fields added, dropped, moved or renumbered, and it reads */
		}
		hilo_module_destroy(m);
		hilo_diags_free(&d);
	}
	free(b);
	return t;
}

int main(void)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(text, sizeof text - 1, "m.hlo", &d);
	CHECK(m != NULL);
	hilo_buf pb;
	hilo_buf_init(&pb);
	CHECK(m && hilo_proto_write(&pb, m, &d));
	hilo_diags_print(stderr, &d);

	/* the tree is seen: the module, its computations, instructions,
	 * shapes, metadata... (far more fields than top-level ones) */
	uint64_t all = pm_count((const uint8_t *)pb.data, pb.len, 0);
	size_t top = 0, at = 0;
	for (pm_field f; at < pb.len && pm_field_at((const uint8_t *)pb.data, pb.len, &at, &f);)
		top++;
	CHECK(pm_is_msg((const uint8_t *)pb.data, pb.len));
	CHECK(all > 10 * top);

	enum { N = 3000 };
	tally s = run(&pb, N, true), f = run(&pb, N, false);
	printf("structured: %zu/%d changed, %zu wire format, %zu read (%zu of another shape); "
		"one-bit flips: %zu wire format, %zu read (%zu of another shape)\n",
		s.changed, N, s.wire, s.read, s.reshaped, f.wire, f.read, f.reshaped);
	CHECK(s.changed * 10 >= (size_t)N * 8);  /* nearly every call changes something */
	CHECK(s.wire * 10 >= (size_t)N * 9);     /* and keeps the framing */
	CHECK(s.read * 4 >= (size_t)N);          /* a quarter or more still read as modules */
	/* and of those, modules of another structure (fields dropped, added,
	 * moved, renumbered), which one-bit flips reach far less often: they
	 * mostly land in names and values (the run is deterministic: about
	 * 29% against 16%) */
	CHECK(s.reshaped * 4 >= (size_t)N);
	CHECK(f.reshaped * 4 < (size_t)N);
	CHECK(s.read > f.read);

	/* a result never exceeds max_size: a small cap falls back to bytes */
	uint8_t small[64];
	memcpy(small, pb.data, sizeof small);
	for (unsigned k = 0; k < 200; k++)
		CHECK(pm_mutate(small, sizeof small, sizeof small, k, flip_one) <= sizeof small);
	/* not wire format: the byte mutator alone */
	uint8_t junk[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	CHECK(pm_mutate(junk, sizeof junk, sizeof junk, 7, flip_one) == sizeof junk);

	hilo_buf_free(&pb);
	hilo_module_destroy(m);
	hilo_diags_free(&d);
	return CHECK_DONE();
}
