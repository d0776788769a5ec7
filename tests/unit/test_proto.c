/* Binary HloModuleProto reader/writer tests (issue 7): hand-encoded
 * protos for the reader's checks (dangling ids, cycles, call cycles,
 * unknown opcodes, duplicate ids, wrong wire types, deep nesting, literal
 * sizes), unknown fields surviving read -> write, the HloProto/HloSnapshot
 * wrappers, every truncation and many
 * byte flips of an emitted proto (no crash), and text -> pb -> text on a
 * module using most attribute kinds. */
#include "check.h"

#include "hilo/proto.h"

/* ---- a minimal protobuf encoder ---- */

static void pv(hilo_buf *b, uint64_t v)
{
	while (v >= 0x80) {
		hilo_buf_putc(b, (char)(v | 0x80));
		v >>= 7;
	}
	hilo_buf_putc(b, (char)v);
}

static void fint(hilo_buf *b, int field, int64_t v)
{
	pv(b, (uint64_t)field << 3);
	pv(b, (uint64_t)v);
}

static void fbytes(hilo_buf *b, int field, const void *p, size_t n)
{
	pv(b, (uint64_t)field << 3 | 2);
	pv(b, n);
	hilo_buf_put(b, p, n);
}

static void fstr(hilo_buf *b, int field, const char *s)
{
	fbytes(b, field, s, strlen(s));
}

static void fmsg(hilo_buf *b, int field, hilo_buf *sub)
{
	fbytes(b, field, sub->data ? sub->data : "", sub->len);
	hilo_buf_free(sub);
	hilo_buf_init(sub);
}

/* instruction: name, opcode, shape f32[], id, operands, extra bytes */
static void instr(hilo_buf *comp, const char *name, const char *op, int64_t id,
	const int64_t *ops, int nops, int64_t param, const int64_t *called, int ncalled)
{
	hilo_buf i, s;
	hilo_buf_init(&i);
	hilo_buf_init(&s);
	fstr(&i, 1, name);
	fstr(&i, 2, op);
	fint(&s, 2, 11); /* F32 */
	fmsg(&i, 3, &s);
	if (param >= 0)
		fint(&i, 9, param);
	fint(&i, 35, id);
	for (int k = 0; k < nops; k++)
		fint(&i, 36, ops[k]);
	for (int k = 0; k < ncalled; k++)
		fint(&i, 38, called[k]);
	fmsg(comp, 2, &i);
}

static void comp_end(hilo_buf *mod, hilo_buf *comp, const char *name, int64_t id, int64_t root)
{
	fstr(comp, 1, name);
	fint(comp, 5, id);
	fint(comp, 6, root);
	fmsg(mod, 3, comp);
}

static hilo_module *read_buf(hilo_buf *b, hilo_diags *d)
{
	return hilo_proto_read(b->data ? b->data : "", b->len, "t.pb", d);
}

static bool diag_has(const hilo_diags *d, const char *s)
{
	for (size_t k = 0; k < d->n; k++)
		if (strstr(d->items[k].msg, s))
			return true;
	fprintf(stderr, "  (expected a diagnostic containing \"%s\"; got:", s);
	for (size_t k = 0; k < d->n; k++)
		fprintf(stderr, " \"%s\"", d->items[k].msg);
	fprintf(stderr, ")\n");
	return false;
}

/* A module "m": main(p0) = negate(p0), with the given operand id for negate. */
static void simple_module(hilo_buf *mod, int64_t neg_operand, const char *neg_op)
{
	hilo_buf c;
	hilo_buf_init(&c);
	hilo_buf_init(mod);
	fstr(mod, 1, "m");
	instr(&c, "p0", "parameter", 1, NULL, 0, 0, NULL, 0);
	instr(&c, "neg", neg_op, 2, &neg_operand, 1, -1, NULL, 0);
	comp_end(mod, &c, "main", 7, 2);
	fint(mod, 6, 7);
	fstr(mod, 2, "main");
}

static void test_good_and_wrappers(void)
{
	hilo_buf mod;
	simple_module(&mod, 1, "negate");
	hilo_diags d;
	hilo_diags_init(&d);
	CHECK(hilo_proto_looks_binary(mod.data, mod.len));
	CHECK(!hilo_proto_looks_binary("HloModule m\n", 12));
	hilo_module *m = read_buf(&mod, &d);
	CHECK(m != NULL);
	if (m) {
		CHECK(hilo_verify(m, "t.pb", &d));
		hilo_buf out;
		hilo_buf_init(&out);
		hilo_print_text(&out, m, HILO_STYLE_DEFAULT);
		CHECK(strstr(hilo_buf_cstr(&out), "ROOT %neg = f32[] negate(%p0)") != NULL);
		CHECK(strstr(hilo_buf_cstr(&out), "HloModule m") != NULL);
		hilo_buf_free(&out);
		hilo_module_destroy(m);
	}
	/* HloProto{hlo_module=1} and HloSnapshot{hlo=1} */
	hilo_buf hp, hs;
	hilo_buf_init(&hp);
	hilo_buf_init(&hs);
	fbytes(&hp, 1, mod.data, mod.len);
	m = read_buf(&hp, &d);
	CHECK(m != NULL);
	hilo_module_destroy(m);
	fbytes(&hs, 1, hp.data, hp.len);
	fstr(&hs, 4, "cpu");
	m = read_buf(&hs, &d);
	CHECK(m != NULL);
	hilo_module_destroy(m);
	CHECK_EQ_I64(d.nerrors, 0);
	hilo_buf_free(&hp);
	hilo_buf_free(&hs);
	hilo_buf_free(&mod);
	hilo_diags_free(&d);
}

static void expect_error(hilo_buf *mod, const char *msg)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = read_buf(mod, &d);
	CHECK(m == NULL);
	CHECK(d.nerrors > 0);
	CHECK(diag_has(&d, msg));
	hilo_module_destroy(m);
	hilo_diags_free(&d);
	hilo_buf_free(mod);
}

static void test_bad(void)
{
	hilo_buf mod, c, s, i;
	/* dangling operand id */
	simple_module(&mod, 99, "negate");
	expect_error(&mod, "not in the computation");
	/* unknown opcode */
	simple_module(&mod, 1, "frobnicate");
	expect_error(&mod, "unknown opcode 'frobnicate'");
	/* a cycle: a = negate(b), b = negate(a) */
	hilo_buf_init(&mod);
	hilo_buf_init(&c);
	int64_t two = 2, three = 3;
	instr(&c, "a", "negate", 2, &three, 1, -1, NULL, 0);
	instr(&c, "b", "negate", 3, &two, 1, -1, NULL, 0);
	comp_end(&mod, &c, "main", 1, 3);
	expect_error(&mod, "depends on itself");
	/* duplicate instruction id */
	hilo_buf_init(&mod);
	hilo_buf_init(&c);
	instr(&c, "p0", "parameter", 1, NULL, 0, 0, NULL, 0);
	instr(&c, "p1", "parameter", 1, NULL, 0, 1, NULL, 0);
	comp_end(&mod, &c, "main", 1, 1);
	expect_error(&mod, "duplicate instruction id");
	/* call cycle: a calls b, b calls a */
	hilo_buf_init(&mod);
	hilo_buf_init(&c);
	int64_t ca = 10, cb = 11;
	instr(&c, "x", "call", 1, NULL, 0, -1, &cb, 1);
	comp_end(&mod, &c, "a", 10, 1);
	instr(&c, "y", "call", 1, NULL, 0, -1, &ca, 1);
	comp_end(&mod, &c, "b", 11, 1);
	expect_error(&mod, "calls itself");
	/* called computation that does not exist */
	hilo_buf_init(&mod);
	hilo_buf_init(&c);
	instr(&c, "x", "call", 1, NULL, 0, -1, &cb, 1);
	comp_end(&mod, &c, "a", 10, 1);
	expect_error(&mod, "called computation id 11 does not exist");
	/* root id not in the computation */
	hilo_buf_init(&mod);
	hilo_buf_init(&c);
	instr(&c, "p0", "parameter", 1, NULL, 0, 0, NULL, 0);
	comp_end(&mod, &c, "main", 1, 5);
	expect_error(&mod, "root id 5");
	/* missing parameter 0 */
	hilo_buf_init(&mod);
	hilo_buf_init(&c);
	instr(&c, "p1", "parameter", 1, NULL, 0, 1, NULL, 0);
	comp_end(&mod, &c, "main", 1, 1);
	expect_error(&mod, "missing parameter 0");
	/* wrong wire type: the module name as a varint */
	hilo_buf_init(&mod);
	fint(&mod, 1, 5);
	expect_error(&mod, "not a valid binary");
	/* truncated length */
	hilo_buf_init(&mod);
	pv(&mod, 1 << 3 | 2);
	pv(&mod, 100);
	hilo_buf_puts(&mod, "abc");
	expect_error(&mod, "runs past the end");
	/* no computations */
	hilo_buf_init(&mod);
	fstr(&mod, 1, "empty");
	expect_error(&mod, "no computations");
	/* instruction names the text form cannot print, the bad character
	 * in the first sixteen bytes and past them (the checker takes
	 * sixteen bytes a step); a long printable name is read */
	static const char *const bad_names[] = {"a b", "x{", "n=1", "a b_long_name_0123456789",
		"long_name(0123456789", "0123456789abcdefghij}lmnopqrstuvwxyz0123456789",
		"0123456789abcdef0123456789abcde\x01", "long_name_0123456789%", "abcdefghijklmnopqrstuvwxyz0123)"};
	for (size_t k = 0; k < sizeof bad_names / sizeof *bad_names; k++) {
		hilo_buf_init(&mod);
		hilo_buf_init(&c);
		instr(&c, bad_names[k], "parameter", 1, NULL, 0, 0, NULL, 0);
		comp_end(&mod, &c, "main", 1, 1);
		expect_error(&mod, "cannot be printed");
	}
	hilo_buf_init(&mod);
	hilo_buf_init(&c);
	instr(&c, "a.very_long-name.0123456789_abcdefghijklmnop", "parameter", 1, NULL, 0, 0, NULL, 0);
	comp_end(&mod, &c, "main", 1, 1);
	{
		hilo_diags d;
		hilo_diags_init(&d);
		hilo_module *m = read_buf(&mod, &d);
		CHECK(m != NULL);
		hilo_module_destroy(m);
		hilo_diags_free(&d);
		hilo_buf_free(&mod);
	}
	/* shape nested 200 tuples deep */
	hilo_buf_init(&s);
	fint(&s, 2, 11);
	for (int k = 0; k < 200; k++) {
		hilo_buf t;
		hilo_buf_init(&t);
		fint(&t, 2, 13);
		fmsg(&t, 4, &s);
		s = t;
	}
	hilo_buf_init(&i);
	fstr(&i, 1, "p0");
	fstr(&i, 2, "parameter");
	fmsg(&i, 3, &s);
	fint(&i, 35, 1);
	hilo_buf_init(&c);
	fmsg(&c, 2, &i);
	hilo_buf_init(&mod);
	comp_end(&mod, &c, "main", 1, 1);
	expect_error(&mod, "nested too deeply");
	/* a constant whose literal is too short: f32[2] with one value */
	hilo_buf_init(&s);
	fint(&s, 2, 11);
	fint(&s, 3, 2);
	hilo_buf lit, ls;
	hilo_buf_init(&lit);
	hilo_buf_init(&ls);
	fint(&ls, 2, 11);
	fint(&ls, 3, 2);
	fmsg(&lit, 1, &ls);
	float one = 1.0f;
	fbytes(&lit, 8, &one, 4); /* packed f32s */
	hilo_buf_init(&i);
	fstr(&i, 1, "c");
	fstr(&i, 2, "constant");
	fmsg(&i, 3, &s);
	fmsg(&i, 8, &lit);
	fint(&i, 35, 1);
	hilo_buf_init(&c);
	fmsg(&c, 2, &i);
	hilo_buf_init(&mod);
	comp_end(&mod, &c, "main", 1, 1);
	expect_error(&mod, "literal has 4 bytes");
}

static const char rich[] =
	"HloModule rich, entry_computation_layout={(f32[4,8]{1,0}, s32[])->(f32[2,8]{1,0}, s32[])}\n"
	"\n"
	"%add (a: f32[], b: f32[]) -> f32[] {\n"
	"  %a = f32[] parameter(0)\n"
	"  %b = f32[] parameter(1)\n"
	"  ROOT %s = f32[] add(%a, %b)\n"
	"}\n"
	"\n"
	"%cond (t: (s32[], f32[4,8])) -> pred[] {\n"
	"  %t = (s32[], f32[4,8]) parameter(0)\n"
	"  %i = s32[] get-tuple-element(%t), index=0\n"
	"  %n = s32[] constant(3)\n"
	"  ROOT %lt = pred[] compare(%i, %n), direction=LT\n"
	"}\n"
	"\n"
	"%body (t.1: (s32[], f32[4,8])) -> (s32[], f32[4,8]) {\n"
	"  %t.1 = (s32[], f32[4,8]) parameter(0)\n"
	"  %i.1 = s32[] get-tuple-element(%t.1), index=0\n"
	"  %one = s32[] constant(1)\n"
	"  %i.2 = s32[] add(%i.1, %one)\n"
	"  %x = f32[4,8]{1,0} get-tuple-element(%t.1), index=1\n"
	"  ROOT %r = (s32[], f32[4,8]) tuple(%i.2, %x)\n"
	"}\n"
	"\n"
	"ENTRY %main (p: f32[4,8], q: s32[]) -> (f32[2,8], s32[]) {\n"
	"  %p = f32[4,8]{1,0} parameter(0), sharding={replicated}\n"
	"  %q = s32[] parameter(1)\n"
	"  %c = f32[2,2]{1,0} constant({ { 1.5, -2 }, { 0, 3.25 } })\n"
	"  %h = bf16[3]{0} constant({1, 2.5, -3})\n"
	"  %pr = pred[2]{0} constant({true, false})\n"
	"  %z = s32[] constant(0)\n"
	"  %tu = (s32[], f32[4,8]) tuple(%z, %p)\n"
	"  %w = (s32[], f32[4,8]) while(%tu), condition=%cond, body=%body, frontend_attributes={_xla_stream_annotation=\"1\"}\n"
	"  %wx = f32[4,8]{1,0} get-tuple-element(%w), index=1\n"
	"  %sl = f32[2,8]{1,0} slice(%wx), slice={[0:4:2], [0:8]}\n"
	"  %z.0 = f32[] constant(0)\n"
	"  %pd = f32[6,9]{1,0} pad(%sl, %z.0), padding=1_3x0_1\n"
	"  %d = f32[2,2]{1,0} dot(%c, %c), lhs_contracting_dims={1}, rhs_contracting_dims={0}, metadata={op_type=\"dot\" op_name=\"jit(f)/dot\\\"q\" source_file=\"a.py\" source_line=3}\n"
	"  %z.1 = f32[] constant(0)\n"
	"  %rd = f32[2]{0} reduce(%c, %z.1), dimensions={1}, to_apply=%add\n"
	"  %cc = f32[2,8]{1,0} custom-call(%sl), custom_call_target=\"Foo\\tBar\", backend_config=\"{\\\"k\\\": 1}\"\n"
	"  %ag = f32[4,8]{1,0} all-gather(%sl), channel_id=5, replica_groups={{0,1}}, dimensions={0}, use_global_device_ids=true\n"
	"  ROOT %out = (f32[2,8], s32[]) tuple(%cc, %q), control-predecessors={%ag}\n"
	"}\n";

static void test_text_roundtrip(void)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(rich, sizeof rich - 1, "rich.hlo", &d);
	CHECK(m != NULL);
	if (!m) {
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
		return;
	}
	hilo_buf t1, pb, t2, pb2;
	hilo_buf_init(&t1);
	hilo_buf_init(&pb);
	hilo_buf_init(&t2);
	hilo_buf_init(&pb2);
	hilo_print_text(&t1, m, HILO_STYLE_AUTO);
	CHECK(hilo_proto_write(&pb, m, &d));
	hilo_module *m2 = hilo_proto_read(pb.data, pb.len, "rich.pb", &d);
	CHECK(m2 != NULL);
	if (m2) {
		hilo_print_text(&t2, m2, HILO_STYLE_AUTO);
		CHECK_STR(hilo_buf_cstr(&t2), hilo_buf_cstr(&t1));
		if (!CHECK(hilo_verify(m2, "rich.pb", &d)))
			hilo_diags_print(stderr, &d);
		CHECK(hilo_proto_write(&pb2, m2, &d));
		CHECK(pb2.len == pb.len && !memcmp(pb.data, pb2.data, pb.len));
		hilo_module_destroy(m2);
	}
	/* every truncation and single-byte corruption: an error or a module,
	 * never a crash (ASan/UBSan watch this) */
	int ok = 0, bad = 0;
	for (size_t n = 0; n < pb.len; n++) {
		hilo_diags e;
		hilo_diags_init(&e);
		hilo_module *t = hilo_proto_read(pb.data, n, "trunc.pb", &e);
		t ? ok++ : bad++;
		CHECK(t || e.nerrors > 0);
		hilo_module_destroy(t);
		hilo_diags_free(&e);
	}
	char *copy = malloc(pb.len);
	for (size_t n = 0; copy && n < pb.len; n++) {
		static const unsigned char flips[] = {0xff, 0x80, 0x01, 0x7f};
		for (size_t f = 0; f < sizeof flips; f++) {
			memcpy(copy, pb.data, pb.len);
			copy[n] = (char)(copy[n] ^ flips[f]);
			hilo_diags e;
			hilo_diags_init(&e);
			hilo_module *t = hilo_proto_read(copy, pb.len, "flip.pb", &e);
			if (t) {
				hilo_buf x;
				hilo_buf_init(&x);
				hilo_print_text(&x, t, HILO_STYLE_DEFAULT);
				hilo_verify(t, "flip.pb", &e);
				hilo_buf_free(&x);
			}
			CHECK(t || e.nerrors > 0);
			hilo_module_destroy(t);
			hilo_diags_free(&e);
		}
	}
	free(copy);
	CHECK(bad > 0);
	hilo_buf_free(&t1);
	hilo_buf_free(&t2);
	hilo_buf_free(&pb);
	hilo_buf_free(&pb2);
	hilo_module_destroy(m);
	hilo_diags_free(&d);
}

static bool has_bytes(const hilo_buf *b, const hilo_buf *needle)
{
	for (size_t k = 0; k + needle->len <= b->len; k++)
		if (!memcmp(b->data + k, needle->data, needle->len))
			return true;
	return false;
}

/* Fields hilo does not model survive read -> write at the module,
 * computation and instruction level. */
static void test_unknown_fields(void)
{
	hilo_buf mod, c, i, s, u1, u2, u3;
	hilo_buf_init(&mod);
	hilo_buf_init(&c);
	hilo_buf_init(&i);
	hilo_buf_init(&s);
	hilo_buf_init(&u1);
	hilo_buf_init(&u2);
	hilo_buf_init(&u3);
	fstr(&u1, 500, "module-extra");
	fint(&u2, 501, 4242);
	fstr(&u3, 900, "instr-extra");
	fstr(&mod, 1, "u");
	fstr(&i, 1, "p0");
	fstr(&i, 2, "parameter");
	fint(&s, 2, 11);
	fmsg(&i, 3, &s);
	fint(&i, 35, 1);
	hilo_buf_put(&i, u3.data, u3.len);
	fmsg(&c, 2, &i);
	hilo_buf_put(&c, u2.data, u2.len);
	comp_end(&mod, &c, "main", 1, 1);
	hilo_buf_put(&mod, u1.data, u1.len);
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = read_buf(&mod, &d);
	CHECK(m != NULL);
	if (m) {
		hilo_buf out;
		hilo_buf_init(&out);
		CHECK(hilo_proto_write(&out, m, &d));
		CHECK(has_bytes(&out, &u1));
		CHECK(has_bytes(&out, &u2));
		CHECK(has_bytes(&out, &u3));
		/* and again after a second cycle */
		hilo_module *m2 = hilo_proto_read(out.data, out.len, "u2.pb", &d);
		CHECK(m2 != NULL);
		if (m2) {
			hilo_buf out2;
			hilo_buf_init(&out2);
			CHECK(hilo_proto_write(&out2, m2, &d));
			CHECK(out2.len == out.len && !memcmp(out2.data, out.data, out.len));
			hilo_buf_free(&out2);
			hilo_module_destroy(m2);
		}
		hilo_buf_free(&out);
		hilo_module_destroy(m);
	}
	hilo_buf_free(&mod);
	hilo_buf_free(&u1);
	hilo_buf_free(&u2);
	hilo_buf_free(&u3);
	hilo_diags_free(&d);
}

/* Copies a message, dropping fields numbered 1000 and up (hilo's
 * extensions); level 0 = module, 1 = computation, 2 = instruction. */
static bool strip(hilo_buf *out, const uint8_t *p, size_t len, int level)
{
	const uint8_t *e = p + len;
	while (p < e) {
		const uint8_t *start = p;
		uint64_t tag = 0, v = 0;
		int sh = 0;
		do {
			if (p >= e || sh > 63)
				return false;
			tag |= (uint64_t)(*p & 0x7f) << sh;
			sh += 7;
		} while (*p++ & 0x80);
		uint64_t field = tag >> 3;
		const uint8_t *body = p;
		switch (tag & 7) {
		case 0:
			do {
				if (p >= e)
					return false;
			} while (*p++ & 0x80);
			break;
		case 1: p += 8; break;
		case 5: p += 4; break;
		case 2:
			sh = 0;
			do {
				if (p >= e || sh > 63)
					return false;
				v |= (uint64_t)(*p & 0x7f) << sh;
				sh += 7;
			} while (*p++ & 0x80);
			body = p;
			p += v;
			break;
		default:
			return false;
		}
		if (p > e)
			return false;
		if (field >= 1000)
			continue;
		if ((tag & 7) == 2 && ((level == 0 && field == 3) || (level == 1 && field == 2))) {
			hilo_buf sub;
			hilo_buf_init(&sub);
			if (!strip(&sub, body, (size_t)v, level + 1))
				return false;
			fmsg(out, (int)field, &sub);
			hilo_buf_free(&sub);
			continue;
		}
		hilo_buf_put(out, (const char *)start, (size_t)(p - start));
	}
	return true;
}

/* A proto as XLA would write it (no hilo extensions) reads into a module
 * the verifier accepts, with the same instructions, and prints text that
 * parses again. */
static void test_foreign(void)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(rich, sizeof rich - 1, "rich.hlo", &d);
	hilo_buf pb, xla, t;
	hilo_buf_init(&pb);
	hilo_buf_init(&xla);
	hilo_buf_init(&t);
	CHECK(m && hilo_proto_write(&pb, m, &d));
	CHECK(strip(&xla, (const uint8_t *)pb.data, pb.len, 0));
	CHECK(xla.len < pb.len);
	hilo_module *f = hilo_proto_read(xla.data, xla.len, "xla.pb", &d);
	CHECK(f != NULL);
	if (f && m) {
		if (!CHECK(hilo_verify(f, "xla.pb", &d)))
			hilo_diags_print(stderr, &d);
		CHECK_EQ_I64(hilo_module_instr_count(f), hilo_module_instr_count(m));
		hilo_print_text(&t, f, HILO_STYLE_DEFAULT);
		const char *txt = hilo_buf_cstr(&t);
		if (getenv("SHOW"))
			fputs(txt, stderr);
		CHECK(strstr(txt, "while(%tu), condition=%cond, body=%body") != NULL);
		CHECK(strstr(txt, "slice={[0:4:2], [0:8:1]}") != NULL);
		CHECK(strstr(txt, "replica_groups={{0,1}}, dimensions={0}, use_global_device_ids=true") != NULL);
		CHECK(strstr(txt, "padding=1_3x0_1") != NULL);
		CHECK(strstr(txt, "lhs_contracting_dims={1}, rhs_contracting_dims={0}") != NULL);
		CHECK(strstr(txt, "replica_groups={{0,1}}") != NULL);
		CHECK(strstr(txt, "custom_call_target=\"Foo\\tBar\"") != NULL);
		CHECK(strstr(txt, "sharding={replicated}") != NULL);
		CHECK(strstr(txt, "op_name=\"jit(f)/dot\\\"q\"") != NULL);
		hilo_module *again = hilo_parse_text(txt, t.len, "again.hlo", &d);
		if (!CHECK(again != NULL))
			fprintf(stderr, "%s", txt);
		hilo_module_destroy(again);
	}
	hilo_module_destroy(f);
	hilo_module_destroy(m);
	hilo_buf_free(&pb);
	hilo_buf_free(&xla);
	hilo_buf_free(&t);
	hilo_diags_free(&d);
}

int main(void)
{
	test_foreign();
	test_unknown_fields();
	test_good_and_wrappers();
	test_bad();
	test_text_roundtrip();
	return CHECK_DONE();
}
