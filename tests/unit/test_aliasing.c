/* output_to_operand_aliasing unit tests (src/ir/aliasing.c, the one reader
 * and writer of the attribute): XLA's printed form read and written back
 * byte for byte (the corpus' nested-tuple instance among them), blanks
 * tolerated on input, malformed texts refused, renumbering for a removed
 * operand (issue 30's example) and its refusal when the removed operand is
 * aliased, and sub-shapes by index. */
#include "check.h"

/* text parsed and printed again, or "ERR". */
static const char *round_trip(hilo_arena *a, const char *text, char *buf, size_t n)
{
	hilo_aliasing al;
	if (!hilo_aliasing_parse(a, text, strlen(text), &al)) {
		snprintf(buf, n, "ERR");
		return buf;
	}
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_aliasing_print(&b, &al);
	snprintf(buf, n, "%s", b.oom ? "OOM" : hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	return buf;
}

#define SAME(text) do { \
		char b_[512]; \
		CHECK_STR(round_trip(a, (text), b_, sizeof b_), (text)); \
	} while (0)
#define READS(text, want) do { \
		char b_[512]; \
		CHECK_STR(round_trip(a, (text), b_, sizeof b_), (want)); \
	} while (0)

/* text renumbered for removing operand `removed` of n, printed, or "NO". */
static const char *renumbered(hilo_arena *a, const char *text, int64_t n, int64_t removed, char *buf,
	size_t cap)
{
	hilo_aliasing al;
	int64_t map[16];
	for (int64_t k = 0; k < n; k++)
		map[k] = k < removed ? k : k == removed ? -1 : k - 1;
	if (!hilo_aliasing_parse(a, text, strlen(text), &al) || !hilo_aliasing_renumber(&al, map, (size_t)n)) {
		snprintf(buf, cap, "NO");
		return buf;
	}
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_aliasing_print(&b, &al);
	snprintf(buf, cap, "%s", hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	return buf;
}

#define RENUMBER(text, n, removed, want) do { \
		char b_[512]; \
		CHECK_STR(renumbered(a, (text), (n), (removed), b_, sizeof b_), (want)); \
	} while (0)

int main(void)
{
	hilo_arena *a = hilo_arena_create();
	/* XLA's form, byte for byte */
	SAME("{{}: (2, {})}");
	SAME("{{0}: (1, {}), {1}: (0, {0})}");
	SAME("{{0,0,1,0}: (0, {1,0}), {1}: (0, {1,0}), {0,0,1,1}: (0, {1,1}), {2}: (0, {1,1}), "
		"{0,0,1,2}: (0, {1,2}), {3}: (0, {1,2})}");
	SAME("{}");
	/* blanks between tokens are read, XLA's spacing written */
	READS("{ {0} : ( 1 , { } ) ,\n\t{1}:(0,{0, 1}) }", "{{0}: (1, {}), {1}: (0, {0,1})}");
	/* malformed */
	READS("", "ERR");
	READS("{{0}: (1, {})", "ERR");
	READS("{{0}: 1}", "ERR");
	READS("{{0}: (1)}", "ERR");
	READS("{{0}: (1, {})} x", "ERR");
	READS("{{0}: (1, {}),}", "ERR");
	READS("{{0,}: (1, {})}", "ERR");
	READS("{{0}: (99999999999999999999, {})}", "ERR");
	/* issue 30: fusion(x, y, z, w) aliasing z; y removed: z is now 1 */
	RENUMBER("{{}: (2, {})}", 4, 1, "{{}: (1, {})}");
	RENUMBER("{{0}: (0, {}), {1}: (3, {1})}", 4, 2, "{{0}: (0, {}), {1}: (2, {1})}");
	/* the aliased operand removed, or a pair naming none: refused */
	RENUMBER("{{}: (2, {})}", 4, 2, "NO");
	RENUMBER("{{}: (4, {})}", 4, 0, "NO");
	RENUMBER("{{}: (-1, {})}", 4, 0, "NO");
	/* sub-shapes */
	hilo_shape_table *t = hilo_shape_table_create(a);
	int64_t d4 = 4;
	hilo_shape *f4 = hilo_shape_array(t, HILO_T_F32, 1, &d4, NULL);
	hilo_shape *s32 = hilo_shape_scalar(t, HILO_T_S32);
	hilo_shape *inner[2] = {f4, s32};
	hilo_shape *in = hilo_shape_tuple(t, 2, inner);
	hilo_shape *outer[2] = {s32, in};
	hilo_shape *tup = hilo_shape_tuple(t, 2, outer);
	int64_t i10[2] = {1, 0}, i2[1] = {2}, i00[2] = {0, 0};
	CHECK(hilo_shape_subshape(tup, &(hilo_shape_index){0, NULL}) == tup);
	CHECK(hilo_shape_subshape(tup, &(hilo_shape_index){2, i10}) == f4);
	CHECK(hilo_shape_subshape(tup, &(hilo_shape_index){1, i2}) == NULL);
	CHECK(hilo_shape_subshape(tup, &(hilo_shape_index){2, i00}) == NULL); /* into an array */
	hilo_arena_destroy(a);
	return CHECK_DONE();
}
