/* The hand-written proto writer and reader (src/formats/proto/pb_wire.h,
 * pb_write.c, pb_read*.c).
 * Writer: its bytes are canonical against protobuf-c, which stays linked
 * for the cold sub-messages (protobuf-c unpacks and repacks them to the
 * same bytes: field order, shortest varints, packed repeated fields,
 * proto3 zero-skipping), for modules using every literal encoding,
 * metadata that does and does not fit OpMetadata, and typed attribute
 * messages.
 * Reader, on hand-encoded bytes: every wire type (varint, fixed64,
 * length-delimited, fixed32) in known and unknown fields; packed and
 * unpacked repeated fields giving the same module; unknown fields of the
 * module, a computation and an instruction surviving read -> write;
 * truncated tags, varints, lengths and packed payloads, lengths past the
 * end, groups, field number 0, wrong wire types, deep nesting and huge
 * counts rejected with the byte offset, never a crash. */
#include "check.h"

#include "hilo/hlo_text.h"
#include "hilo/proto.h"
#include "hlo.pb-c.h"
#include "formats/proto/pb_internal.h"

#include <string.h>

static const char mod_literals[] =
	"HloModule lits\n"
	"\n"
	"ENTRY %main (p: f32[2]) -> (s32[3], u32[2], s64[2], u64[2], c64[1], f64[2], pred[3], s8[2], f32[2]) {\n"
	"  %p = f32[2]{0} parameter(0), metadata={op_type=\"a\\\"b\" op_name=\"x/y\" source_line=7}\n"
	"  %a = s32[3]{0} constant({-1, 0, 2147483647}), metadata={op_name=\"z\" op_type=\"q\"}\n"
	"  %b = u32[2]{0} constant({4294967295, 1}), metadata={custom=\"k\"}\n"
	"  %c = s64[2]{0} constant({-9223372036854775808, 300})\n"
	"  %d = u64[2]{0} constant({18446744073709551615, 0})\n"
	"  %e = c64[1]{0} constant({(1, -2)})\n"
	"  %f = f64[2]{0} constant({0.5, -0})\n"
	"  %g = pred[3]{0} constant({true, false, true})\n"
	"  %h = s8[2]{0} constant({-128, 127})\n"
	"  %n = f32[2]{0} negate(%p), metadata={source_line=0}\n"
	"  ROOT %t = (s32[3], u32[2], s64[2], u64[2], c64[1], f64[2], pred[3], s8[2], f32[2]) tuple(%a, %b, %c, %d, %e, %f, %g, %h, %n)\n"
	"}\n";

static const char mod_attrs[] =
	"HloModule attrs, input_output_alias={ {0}: (0, {}, may-alias) }, frontend_attributes={a=\"b\"}\n"
	"\n"
	"%add (x: f32[], y: f32[]) -> f32[] {\n"
	"  %x = f32[] parameter(0)\n"
	"  %y = f32[] parameter(1)\n"
	"  ROOT %s = f32[] add(%x, %y)\n"
	"}\n"
	"\n"
	"ENTRY %main (p: f32[4,8], i: s32[2,1]) -> f32[2,8] {\n"
	"  %p = f32[4,8]{1,0} parameter(0), sharding={devices=[2,1]0,1}\n"
	"  %i = s32[2,1]{1,0} parameter(1)\n"
	"  %g = f32[2,8]{1,0} gather(%p, %i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}\n"
	"  %z = f32[] constant(0)\n"
	"  %rw = f32[2,8]{1,0} reduce-window(%g, %z), window={size=1x2 stride=1x1 pad=0_0x0_1}, to_apply=%add\n"
	"  %ar = f32[2,8]{1,0} all-reduce(%rw), replica_groups=[1,2]<=[2], to_apply=%add\n"
	"  %cp = f32[2,8]{1,0} collective-permute(%ar), source_target_pairs={{0,1},{1,0}}\n"
	"  %io = f32[2,8]{1,0} iota(), iota_dimension=1\n"
	"  ROOT %d = f32[2,8]{1,0} add(%cp, %io), frontend_attributes={x=\"y\"}\n"
	"}\n";

static void canonical(const char *text, size_t n, const char *name)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(text, n, name, &d);
	if (!CHECK(m != NULL)) {
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
		return;
	}
	hilo_buf pb;
	hilo_buf_init(&pb);
	CHECK(hilo_proto_write(&pb, m, &d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		size_t sz = xla__hlo_module_proto__get_packed_size(mp);
		uint8_t *again = malloc(sz + 1);
		size_t w = xla__hlo_module_proto__pack(mp, again);
		CHECK_EQ_I64((int64_t)w, (int64_t)pb.len);
		if (!CHECK(w == pb.len && !memcmp(again, pb.data, w))) {
			size_t k = 0;
			while (k < w && k < pb.len && again[k] == (uint8_t)pb.data[k])
				k++;
			fprintf(stderr, "  %s: first difference at byte %zu\n", name, k);
		}
		free(again);
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	/* and the reader gives the text back */
	hilo_module *m2 = hilo_proto_read(pb.data, pb.len, name, &d);
	if (CHECK(m2 != NULL)) {
		hilo_buf t1, t2;
		hilo_buf_init(&t1);
		hilo_buf_init(&t2);
		hilo_print_text(&t1, m, HILO_STYLE_AUTO);
		hilo_print_text(&t2, m2, HILO_STYLE_AUTO);
		CHECK_STR(hilo_buf_cstr(&t2), hilo_buf_cstr(&t1));
		hilo_buf_free(&t1);
		hilo_buf_free(&t2);
		hilo_module_destroy(m2);
	} else {
		hilo_diags_print(stderr, &d);
	}
	hilo_buf_free(&pb);
	hilo_module_destroy(m);
	hilo_diags_free(&d);
}

/* ---- a small encoder ---- */

static void pv(hilo_buf *b, uint64_t v)
{
	while (v >= 0x80) {
		hilo_buf_putc(b, (char)(v | 0x80));
		v >>= 7;
	}
	hilo_buf_putc(b, (char)v);
}

static void ftag(hilo_buf *b, int field, int wt)
{
	pv(b, (uint64_t)field << 3 | (uint64_t)wt);
}

static void fint(hilo_buf *b, int field, int64_t v)
{
	ftag(b, field, 0);
	pv(b, (uint64_t)v);
}

static void fbytes(hilo_buf *b, int field, const void *p, size_t n)
{
	ftag(b, field, 2);
	pv(b, n);
	hilo_buf_put(b, p, n);
}

static void fstr(hilo_buf *b, int field, const char *s)
{
	fbytes(b, field, s, strlen(s));
}

/* appends sub as field `field` and empties it */
static void fmsg(hilo_buf *b, int field, hilo_buf *sub)
{
	fbytes(b, field, sub->data ? sub->data : "", sub->len);
	sub->len = 0;
}

static void fpacked(hilo_buf *b, int field, const int64_t *v, int n)
{
	hilo_buf t;
	hilo_buf_init(&t);
	for (int k = 0; k < n; k++)
		pv(&t, (uint64_t)v[k]);
	fmsg(b, field, &t);
	hilo_buf_free(&t);
}

/* ENTRY main { p0 = f32[2,3] parameter(0); ROOT n = f32[2,3] negate(p0) }
 * with the dimensions and operand ids packed or not, and extra bytes
 * (unknown fields) appended to the module, the computation and the
 * negate. */
static void module_bytes(hilo_buf *mod, bool packed, const hilo_buf *xm, const hilo_buf *xc,
	const hilo_buf *xi)
{
	static const int64_t dims[2] = {2, 3};
	hilo_buf c, in, sh;
	hilo_buf_init(&c);
	hilo_buf_init(&in);
	hilo_buf_init(&sh);
	for (int k = 0; k < 2; k++) {
		fstr(&in, 1, k ? "n" : "p0");
		fstr(&in, 2, k ? "negate" : "parameter");
		fint(&sh, 2, 11); /* F32 */
		if (packed) {
			fpacked(&sh, 3, dims, 2);
		} else {
			fint(&sh, 3, 2);
			fint(&sh, 3, 3);
		}
		fmsg(&in, 3, &sh);
		fint(&in, 35, k + 1);
		if (k) {
			static const int64_t ops[1] = {1};
			if (packed)
				fpacked(&in, 36, ops, 1);
			else
				fint(&in, 36, 1);
			if (xi)
				hilo_buf_put(&in, xi->data, xi->len);
		}
		fmsg(&c, 2, &in);
	}
	fstr(&c, 1, "main");
	fint(&c, 5, 1);
	fint(&c, 6, 2);
	if (xc)
		hilo_buf_put(&c, xc->data, xc->len);
	fstr(mod, 1, "m");
	fmsg(mod, 3, &c);
	fint(mod, 6, 1);
	if (xm)
		hilo_buf_put(mod, xm->data, xm->len);
	hilo_buf_free(&c);
	hilo_buf_free(&in);
	hilo_buf_free(&sh);
}

static char *text_of(const hilo_buf *pb, hilo_diags *d)
{
	hilo_module *m = hilo_proto_read(pb->data ? pb->data : "", pb->len, "t.pb", d);
	if (!m)
		return NULL;
	hilo_buf t;
	hilo_buf_init(&t);
	hilo_print_text(&t, m, HILO_STYLE_AUTO);
	hilo_module_destroy(m);
	char *r = strdup(hilo_buf_cstr(&t));
	hilo_buf_free(&t);
	return r;
}

static bool has_bytes(const hilo_buf *b, const hilo_buf *needle)
{
	for (size_t k = 0; k + needle->len <= b->len; k++)
		if (!memcmp(b->data + k, needle->data, needle->len))
			return true;
	return false;
}

static void test_packed_unpacked(void)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_buf a, b;
	hilo_buf_init(&a);
	hilo_buf_init(&b);
	module_bytes(&a, true, NULL, NULL, NULL);
	module_bytes(&b, false, NULL, NULL, NULL);
	char *ta = text_of(&a, &d), *tb = text_of(&b, &d);
	if (CHECK(ta && tb)) {
		CHECK_STR(tb, ta);
		CHECK(strstr(ta, "ROOT %n = f32[2,3] negate(%p0)") != NULL);
	} else {
		hilo_diags_print(stderr, &d);
	}
	free(ta);
	free(tb);
	hilo_buf_free(&a);
	hilo_buf_free(&b);
	hilo_diags_free(&d);
}

/* Unknown fields of every wire type on the module, the computation and
 * an instruction come back from the writer unchanged. */
static void test_unknown_fields(void)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_buf x[3], pb, out;
	for (int k = 0; k < 3; k++) {
		hilo_buf_init(&x[k]);
		int base = 700 + 10 * k;
		fint(&x[k], base, 123456789);           /* varint */
		ftag(&x[k], base + 1, 1);                /* fixed64 */
		hilo_buf_put(&x[k], "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
		fstr(&x[k], base + 2, "opaque \x01 bytes"); /* length-delimited */
		ftag(&x[k], base + 3, 5);                /* fixed32 */
		hilo_buf_put(&x[k], "\x0a\x0b\x0c\x0d", 4);
	}
	hilo_buf_init(&pb);
	hilo_buf_init(&out);
	module_bytes(&pb, true, &x[0], &x[1], &x[2]);
	hilo_module *m = hilo_proto_read(pb.data, pb.len, "u.pb", &d);
	if (CHECK(m != NULL)) {
		CHECK(hilo_proto_write(&out, m, &d));
		for (int k = 0; k < 3; k++)
			CHECK(has_bytes(&out, &x[k]));
		/* and again: stable */
		hilo_module *m2 = hilo_proto_read(out.data, out.len, "u2.pb", &d);
		if (CHECK(m2 != NULL)) {
			hilo_buf out2;
			hilo_buf_init(&out2);
			CHECK(hilo_proto_write(&out2, m2, &d));
			CHECK(out2.len == out.len && !memcmp(out2.data, out.data, out.len));
			hilo_buf_free(&out2);
			hilo_module_destroy(m2);
		}
		hilo_module_destroy(m);
	} else {
		hilo_diags_print(stderr, &d);
	}
	for (int k = 0; k < 3; k++)
		hilo_buf_free(&x[k]);
	hilo_buf_free(&pb);
	hilo_buf_free(&out);
	hilo_diags_free(&d);
}

/* A constant f32[2] whose values come as two unpacked fixed32 fields,
 * s32[3] packed with a negative (ten-byte) varint, pred[2] unpacked. */
static void test_literal_encodings(void)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_buf mod, c, in, sh, lit;
	hilo_buf_init(&mod);
	hilo_buf_init(&c);
	hilo_buf_init(&in);
	hilo_buf_init(&sh);
	hilo_buf_init(&lit);
	static const struct { const char *name; int xla, n; } k3[3] = {
		{"a", 11, 2}, {"b", 4, 3}, {"c", 1, 2},
	};
	for (int k = 0; k < 3; k++) {
		fstr(&in, 1, k3[k].name);
		fstr(&in, 2, "constant");
		fint(&sh, 2, k3[k].xla);
		fint(&sh, 3, k3[k].n);
		fmsg(&in, 3, &sh);
		if (k == 0) {
			float v[2] = {1.5f, -2.0f};
			for (int j = 0; j < 2; j++) {
				ftag(&lit, 8, 5);
				hilo_buf_put(&lit, (const char *)&v[j], 4);
			}
		} else if (k == 1) {
			static const int64_t v[3] = {-1, 7, 2147483647};
			fpacked(&lit, 4, v, 3);
		} else {
			fint(&lit, 2, 1);
			fint(&lit, 2, 0);
		}
		fmsg(&in, 8, &lit);
		fint(&in, 35, k + 1);
		fmsg(&c, 2, &in);
	}
	fstr(&in, 1, "t");
	fstr(&in, 2, "tuple");
	fint(&sh, 2, 13);
	hilo_buf e;
	hilo_buf_init(&e);
	for (int k = 0; k < 3; k++) {
		fint(&e, 2, k3[k].xla);
		fint(&e, 3, k3[k].n);
		fmsg(&sh, 4, &e);
	}
	fmsg(&in, 3, &sh);
	fint(&in, 35, 4);
	static const int64_t ops[3] = {1, 2, 3};
	fpacked(&in, 36, ops, 3);
	fmsg(&c, 2, &in);
	fstr(&c, 1, "main");
	fint(&c, 5, 1);
	fint(&c, 6, 4);
	fstr(&mod, 1, "lits");
	fmsg(&mod, 3, &c);
	fint(&mod, 6, 1);
	char *t = text_of(&mod, &d);
	if (CHECK(t != NULL)) {
		CHECK(strstr(t, "f32[2] constant({1.5, -2})") != NULL);
		CHECK(strstr(t, "s32[3] constant({-1, 7, 2147483647})") != NULL);
		CHECK(strstr(t, "pred[2] constant({true, false})") != NULL);
		if (!strstr(t, "constant({-1, 7, 2147483647})"))
			fprintf(stderr, "%s\n", t);
	} else {
		hilo_diags_print(stderr, &d);
	}
	free(t);
	hilo_buf_free(&e);
	hilo_buf_free(&mod);
	hilo_buf_free(&c);
	hilo_buf_free(&in);
	hilo_buf_free(&sh);
	hilo_buf_free(&lit);
	hilo_diags_free(&d);
}

/* The first diagnostic contains msg (and the module is NULL). */
static void expect(const hilo_buf *b, const char *msg)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_proto_read(b->data ? b->data : "", b->len, "bad.pb", &d);
	CHECK(m == NULL);
	bool found = d.n > 0 && strstr(d.items[0].msg, msg) != NULL;
	if (!CHECK(found))
		fprintf(stderr, "  expected \"%s\", got \"%s\"\n", msg, d.n ? d.items[0].msg : "(none)");
	hilo_module_destroy(m);
	hilo_diags_free(&d);
}

static void test_bad_wire(void)
{
	hilo_buf b, good, sh, in, c;
	hilo_buf_init(&b);
	hilo_buf_init(&good);
	hilo_buf_init(&sh);
	hilo_buf_init(&in);
	hilo_buf_init(&c);
	module_bytes(&good, true, NULL, NULL, NULL);
	/* truncated varint at the end of the module: offset = the value's start */
	hilo_buf_put(&b, good.data, good.len);
	ftag(&b, 6, 0);
	hilo_buf_putc(&b, (char)0x80);
	char msg[96];
	snprintf(msg, sizeof msg, "truncated varint at byte %zu", good.len + 1);
	expect(&b, msg);
	/* a truncated tag */
	b.len = 0;
	hilo_buf_put(&b, good.data, good.len);
	hilo_buf_putc(&b, (char)0xff);
	snprintf(msg, sizeof msg, "truncated field tag at byte %zu", good.len);
	expect(&b, msg);
	/* a length past the end */
	b.len = 0;
	hilo_buf_put(&b, good.data, good.len);
	ftag(&b, 1, 2);
	pv(&b, 1000);
	hilo_buf_puts(&b, "abc");
	snprintf(msg, sizeof msg, "runs past the end of the data at byte %zu", good.len + 1);
	expect(&b, msg);
	/* a huge length */
	b.len = 0;
	ftag(&b, 3, 2);
	pv(&b, (uint64_t)1 << 62);
	expect(&b, "runs past the end of the data at byte 1");
	/* a truncated length */
	b.len = 0;
	ftag(&b, 3, 2);
	hilo_buf_putc(&b, (char)0x80);
	expect(&b, "truncated length at byte 1");
	/* groups, field number 0 */
	b.len = 0;
	ftag(&b, 1, 3);
	expect(&b, "unsupported wire type");
	b.len = 0;
	ftag(&b, 0, 0);
	pv(&b, 1);
	expect(&b, "invalid field number at byte 0");
	/* wrong wire type: the module name as a varint, the id as bytes */
	b.len = 0;
	fint(&b, 1, 5);
	expect(&b, "field 1 has wire type 0, not 2, at byte 0");
	b.len = 0;
	fstr(&b, 6, "x");
	expect(&b, "field 6 has wire type 2, not 0");
	/* truncated fixed32 / fixed64 inside an instruction: whole module
	 * rejected, the offset inside it */
	fstr(&in, 1, "p");
	fstr(&in, 2, "parameter");
	fint(&sh, 2, 11);
	fmsg(&in, 3, &sh);
	ftag(&in, 24, 5);
	hilo_buf_put(&in, "\x01\x02", 2);
	fmsg(&c, 2, &in);
	fstr(&c, 1, "main");
	b.len = 0;
	fmsg(&b, 3, &c);
	expect(&b, "truncated 32-bit field");
	fstr(&in, 1, "p");
	ftag(&in, 777, 1);
	hilo_buf_put(&in, "\x01\x02\x03", 3);
	fmsg(&c, 2, &in);
	b.len = 0;
	fmsg(&b, 3, &c);
	expect(&b, "truncated 64-bit field");
	/* packed dimensions with a truncated last varint */
	fint(&sh, 2, 11);
	fbytes(&sh, 3, "\x02\x83", 2);
	fstr(&in, 1, "p");
	fstr(&in, 2, "parameter");
	fmsg(&in, 3, &sh);
	fint(&in, 35, 1);
	fmsg(&c, 2, &in);
	b.len = 0;
	fmsg(&b, 3, &c);
	expect(&b, "truncated packed varint");
	/* a packed fixed32 literal with a partial value */
	hilo_buf lit;
	hilo_buf_init(&lit);
	fbytes(&lit, 8, "\x00\x00\x80\x3f\x00\x00", 6);
	fint(&sh, 2, 11);
	fint(&sh, 3, 1);
	fstr(&in, 1, "k");
	fstr(&in, 2, "constant");
	fmsg(&in, 3, &sh);
	fmsg(&in, 8, &lit);
	fint(&in, 35, 1);
	fmsg(&c, 2, &in);
	fstr(&c, 1, "main");
	fint(&c, 6, 1);
	b.len = 0;
	fmsg(&b, 3, &c);
	expect(&b, "partial value");
	hilo_buf_free(&lit);
	/* huge counts: a million packed dimensions is a bounded error */
	fint(&sh, 2, 11);
	ftag(&sh, 3, 2);
	pv(&sh, 1000000);
	for (int k = 0; k < 1000000; k++)
		hilo_buf_putc(&sh, 1);
	fstr(&in, 1, "p");
	fstr(&in, 2, "parameter");
	fmsg(&in, 3, &sh);
	fint(&in, 35, 1);
	fmsg(&c, 2, &in);
	b.len = 0;
	fmsg(&b, 3, &c);
	expect(&b, "rank 1000000 is too large");
	/* and as many unpacked operand ids: linear, then the arity check */
	fstr(&in, 1, "n");
	fstr(&in, 2, "negate");
	fint(&sh, 2, 11);
	fmsg(&in, 3, &sh);
	fint(&in, 35, 1);
	for (int k = 0; k < 300000; k++)
		fint(&in, 36, 1);
	fmsg(&c, 2, &in);
	fstr(&c, 1, "main");
	fint(&c, 6, 1);
	b.len = 0;
	fmsg(&b, 3, &c);
	expect(&b, "negate takes 1 operands, not 300000");
	/* nesting: a tuple shape 100 deep */
	fint(&sh, 2, 11);
	for (int k = 0; k < 100; k++) {
		hilo_buf t;
		hilo_buf_init(&t);
		fint(&t, 2, 13);
		fmsg(&t, 4, &sh);
		sh.len = 0;
		hilo_buf_put(&sh, t.data, t.len);
		hilo_buf_free(&t);
	}
	fstr(&in, 1, "p");
	fstr(&in, 2, "parameter");
	fmsg(&in, 3, &sh);
	fint(&in, 35, 1);
	fmsg(&c, 2, &in);
	b.len = 0;
	fmsg(&b, 3, &c);
	expect(&b, "nested too deeply");
	/* a cold sub-message nested too deeply for protobuf-c: a sharding
	 * with 100 levels of tuple shardings */
	hilo_buf s1;
	hilo_buf_init(&s1);
	fint(&s1, 1, 2);
	for (int k = 0; k < 100; k++) {
		hilo_buf t;
		hilo_buf_init(&t);
		fint(&t, 1, 2);
		fmsg(&t, 5, &s1);
		s1.len = 0;
		hilo_buf_put(&s1, t.data, t.len);
		hilo_buf_free(&t);
	}
	fstr(&in, 1, "p");
	fstr(&in, 2, "parameter");
	fint(&sh, 2, 11);
	fmsg(&in, 3, &sh);
	fint(&in, 35, 1);
	fmsg(&in, 40, &s1);
	fmsg(&c, 2, &in);
	fstr(&c, 1, "main");
	fint(&c, 6, 1);
	b.len = 0;
	fmsg(&b, 3, &c);
	expect(&b, "nested too deeply");
	hilo_buf_free(&s1);
	hilo_buf_free(&b);
	hilo_buf_free(&good);
	hilo_buf_free(&sh);
	hilo_buf_free(&in);
	hilo_buf_free(&c);
}

/* ---- the direct decoder of cold sub-messages against protobuf-c ---- */

static size_t packed_of(const void *msg, uint8_t **out)
{
	size_t n = protobuf_c_message_get_packed_size(msg);
	*out = malloc(n + 1);
	protobuf_c_message_pack(msg, *out);
	return n;
}

/* b as desc through pb_fast_unpack and through protobuf-c: when the
 * direct decoder takes it (it must when want_fast), protobuf-c does too
 * and both structs pack to the same bytes; a declined one is left to
 * protobuf-c. b is emptied. */
static void fast_vs_pbc(const ProtobufCMessageDescriptor *desc, hilo_buf *b, int max_depth,
	bool want_fast, int line)
{
	hilo_arena *a = hilo_arena_create();
	const uint8_t *p = (const uint8_t *)(b->data ? b->data : "");
	void *fast = pb_fast_unpack(a, desc, p, b->len, max_depth);
	ProtobufCMessage *slow = protobuf_c_message_unpack(desc, NULL, b->len, p);
	if (!check_true(want_fast ? fast != NULL : fast == NULL, __FILE__, line, "fast path taken as expected"))
		fprintf(stderr, "  (%s, %zu bytes)\n", desc->name, b->len);
	if (fast && check_true(slow != NULL, __FILE__, line, "protobuf-c takes what the fast path takes")) {
		uint8_t *x, *y;
		size_t nx = packed_of(fast, &x), ny = packed_of(slow, &y);
		check_true(nx == ny && !memcmp(x, y, nx), __FILE__, line, "the same message");
		free(x);
		free(y);
	}
	if (slow)
		protobuf_c_message_free_unpacked(slow, NULL);
	hilo_arena_destroy(a);
	b->len = 0;
}

static void test_fast_unpack(void)
{
	hilo_buf b, s, t;
	hilo_buf_init(&b);
	hilo_buf_init(&s);
	hilo_buf_init(&t);
	const int64_t g0[] = {0, 1}, g1[] = {2, 3}, dims[] = {4, 2}, perm[] = {1, 0};
	/* collective device list: packed groups, an iota list */
	fpacked(&s, 1, g0, 2);
	fmsg(&b, 1, &s);
	fpacked(&s, 1, g1, 2);
	fmsg(&b, 1, &s);
	fint(&s, 1, 2);
	fint(&s, 2, 4);
	fpacked(&s, 3, dims, 2);
	fpacked(&s, 4, perm, 2);
	fmsg(&b, 2, &s);
	fast_vs_pbc(&xla__collective_device_list_proto__descriptor, &b, 64, true, __LINE__);
	/* unpacked ids, packed and unpacked mixed in one field, order kept */
	fint(&s, 1, 5);
	fpacked(&s, 1, g1, 2);
	fint(&s, 1, 7);
	fmsg(&b, 1, &s);
	fast_vs_pbc(&xla__collective_device_list_proto__descriptor, &b, 64, true, __LINE__);
	/* window: negative paddings (ten-byte varints), a bool, a scalar given twice */
	fint(&s, 1, 3);
	fint(&s, 1, 5);
	fint(&s, 3, -1);
	fint(&s, 4, -9223372036854775807 - 1);
	fint(&s, 7, 1);
	fmsg(&b, 1, &s);
	fint(&s, 2, 2);
	fmsg(&b, 1, &s);
	fast_vs_pbc(&xla__window__descriptor, &b, 64, true, __LINE__);
	/* dot dimension numbers, every field; an empty message */
	for (int f = 1; f <= 4; f++)
		fpacked(&b, f, dims, 2);
	fast_vs_pbc(&xla__dot_dimension_numbers__descriptor, &b, 64, true, __LINE__);
	fast_vs_pbc(&xla__dot_dimension_numbers__descriptor, &b, 64, true, __LINE__);
	/* sharding: an enum, nested shardings, metadata strings, a bool */
	fint(&b, 1, 3);
	fpacked(&b, 3, dims, 2);
	fint(&s, 1, 1);
	fmsg(&b, 5, &s);
	fstr(&s, 2, "jit(f)/dot");
	fstr(&s, 1, "dot");
	fmsg(&b, 7, &s);
	fint(&b, 6, 1);
	fast_vs_pbc(&xla__op_sharding__descriptor, &b, 64, true, __LINE__);
	/* frontend attributes: map entries, string keys and values */
	fstr(&s, 1, "k");
	fstr(&s, 2, "v w");
	fmsg(&b, 1, &s);
	fstr(&s, 1, "k2");
	fmsg(&b, 1, &s);
	fast_vs_pbc(&xla__frontend_attributes__descriptor, &b, 64, true, __LINE__);
	/* declined, left to protobuf-c: a singular message twice (merged),
	 * an unknown field, a wrong wire type, a truncated packed list, a
	 * bool of more than 64 bits, nesting past the bound, bytes */
	fint(&s, 1, 2);
	fmsg(&b, 2, &s);
	fint(&s, 2, 4);
	fmsg(&b, 2, &s);
	fast_vs_pbc(&xla__collective_device_list_proto__descriptor, &b, 64, false, __LINE__);
	fint(&b, 99, 1);
	fast_vs_pbc(&xla__replica_group__descriptor, &b, 64, false, __LINE__);
	ftag(&b, 1, 1);
	hilo_buf_put(&b, "\1\0\0\0\0\0\0\0", 8);
	fast_vs_pbc(&xla__replica_group__descriptor, &b, 64, false, __LINE__);
	ftag(&b, 1, 2);
	pv(&b, 2);
	hilo_buf_put(&b, "\x81\x82", 2);
	fast_vs_pbc(&xla__replica_group__descriptor, &b, 64, false, __LINE__);
	ftag(&s, 7, 0);
	hilo_buf_put(&s, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 10);
	fmsg(&b, 1, &s);
	fast_vs_pbc(&xla__window__descriptor, &b, 64, false, __LINE__);
	fint(&s, 1, 3);
	fmsg(&b, 1, &s);
	fast_vs_pbc(&xla__window__descriptor, &b, 1, false, __LINE__);
	fint(&s, 1, 3);
	fmsg(&b, 1, &s);
	fast_vs_pbc(&xla__window__descriptor, &b, 2, true, __LINE__);
	fstr(&b, 43, "config"); /* backend_config */
	fast_vs_pbc(&xla__hlo_instruction_proto__descriptor, &b, 64, false, __LINE__);
	hilo_buf_free(&b);
	hilo_buf_free(&s);
	hilo_buf_free(&t);
}

int main(void)
{
	test_fast_unpack();
	test_packed_unpacked();
	test_unknown_fields();
	test_literal_encodings();
	test_bad_wire();
	canonical(mod_literals, sizeof mod_literals - 1, "lits.hlo");
	canonical(mod_attrs, sizeof mod_attrs - 1, "attrs.hlo");
	return CHECK_DONE();
}
