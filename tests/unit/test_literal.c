/* Literal unit tests: parsing and XLA's printed form (nan, inf, -0,
 * shortest round-trip digits), rounding of decimal text to small float
 * types (nearest even, per-format overflow rules), integer edge values,
 * tuple literals, nested arrays, elided constants ({...} = values unknown),
 * splats (one stored element read through hilo_literal_elem, expanded only
 * by the budgeted hilo_literal_dense_in). */
#include "check.h"

#include "hilo/eval.h"
#include "hilo/float.h"
#include "ir/literal.h" /* hilo_literal_dense_in, hilo_literal_count */

#include <math.h>

/* Parses "shape literal" and returns its printed form (static buffer). */
static const char *roundtrip(hilo_module *m, const char *text)
{
	static char out[1024];
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_literal *l = hilo_parse_literal(m, text, strlen(text), "lit", &d);
	if (!l) {
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
		return "(parse error)";
	}
	hilo_diags_free(&d);
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_print_literal(&b, l, true);
	snprintf(out, sizeof out, "%s", hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	return out;
}

static bool parse_fails(hilo_module *m, const char *text)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_literal *l = hilo_parse_literal(m, text, strlen(text), "lit", &d);
	bool ok = !l && d.nerrors > 0 && d.items[0].line == 1 && d.items[0].col > 0;
	hilo_diags_free(&d);
	return ok;
}

static hilo_literal *parse(hilo_module *m, const char *text)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_literal *l = hilo_parse_literal(m, text, strlen(text), "lit", &d);
	hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return l;
}

static void test_print_forms(hilo_module *m)
{
	/* already canonical: printed back unchanged */
	static const char *const same[] = {
		"f32[6]{0} {1, 2.5, -0, inf, -inf, nan}",
		"f32[] -nan",
		"f32[] nan(0x7)",
		"f32[] 0.1",
		"f64[] 0.1",
		"f32[] 1e+10",
		"f32[] 1.4013e-45",
		"s8[2]{0} {127, -128}",
		"u4[2]{0} {15, 0}",
		"s4[] -8",
		"s64[] 9223372036854775807",
		"s64[] -9223372036854775808",
		"u64[] 18446744073709551615",
		"pred[2]{0} {true, false}",
		"c64[2]{0} {(1, 2), (3.5, -0)}",
		"f32[2,2]{1,0} { { 1, 2 }, { 3, 4 } }",
		"f32[0]{0} {}",
		"(f32[2]{0}, s32[]) ( {1, 2}, 3 )",
		"((f32[], pred[]), u8[1]{0}) ( ( 1.5, true ), {7} )",
		NULL,
	};
	for (int k = 0; same[k]; k++)
		CHECK_STR(roundtrip(m, same[k]), same[k]);

	/* rounding and canonical digits */
	CHECK_STR(roundtrip(m, "f32[] 0.333333333333"), "f32[] 0.333333343");
	CHECK_STR(roundtrip(m, "f32[] 1e40"), "f32[] inf");
	CHECK_STR(roundtrip(m, "f32[] 1e-46"), "f32[] 0");
	CHECK_STR(roundtrip(m, "f32[] 2.50"), "f32[] 2.5");
	/* bf16: 1+2^-8 ties to even (1); 1+3*2^-8 ties up to 1+2^-6 */
	CHECK_STR(roundtrip(m, "bf16[3]{0} {1.00390625, 1.01171875, 3.14159}"),
		"bf16[3]{0} {1, 1.016, 3.141}");
	/* f16: 65519 rounds down to the max 65504; 65520 ties to even = 2^16 -> inf */
	CHECK_STR(roundtrip(m, "f16[3]{0} {65519, 65520, 0.1}"), "f16[3]{0} {65504, inf, 0.099976}");
	/* f8e4m3fn: no inf; 464 ties to 448 (even); past the range is nan */
	CHECK_STR(roundtrip(m, "f8e4m3fn[4]{0} {448, 464, 0.3, 1000}"),
		"f8e4m3fn[4]{0} {448, 448, 0.3125, nan}");
	CHECK_STR(roundtrip(m, "f8e5m2[] 1e9"), "f8e5m2[] inf");
	/* f4e2m1fn saturates; 5 ties to 4, 0.25 ties to 0 */
	CHECK_STR(roundtrip(m, "f4e2m1fn[3]{0} {5, 100, 0.25}"), "f4e2m1fn[3]{0} {4, 6, 0}");
	/* fnuz types have no negative zero */
	CHECK_STR(roundtrip(m, "f8e4m3fnuz[1]{0} {-0}"), "f8e4m3fnuz[1]{0} {0}");
}

static void test_values(hilo_module *m)
{
	hilo_literal *l = parse(m, "f32[4]{0} {-0, inf, nan, 0.1}");
	if (CHECK(l)) {
		CHECK_EQ_I64(l->nbytes, 16);
		CHECK(!l->elided);
		double z = hilo_elem_get_f64(HILO_T_F32, l->data, 0);
		CHECK(z == 0 && signbit(z));
		CHECK(isinf(hilo_elem_get_f64(HILO_T_F32, l->data, 1)));
		CHECK(isnan(hilo_elem_get_f64(HILO_T_F32, l->data, 2)));
		CHECK(hilo_elem_get_f64(HILO_T_F32, l->data, 3) == (double)0.1f);
	}
	l = parse(m, "bf16[2]{0} {1.00390625, 1.01171875}");
	if (CHECK(l)) {
		CHECK_EQ_I64(l->nbytes, 4);
		CHECK(hilo_elem_get_f64(HILO_T_BF16, l->data, 0) == 1.0);
		CHECK(hilo_elem_get_f64(HILO_T_BF16, l->data, 1) == 1.015625);
	}
	l = parse(m, "s4[3]{0} {-8, 7, -1}");
	if (CHECK(l)) {
		CHECK_EQ_I64(hilo_elem_get_i64(HILO_T_S4, l->data, 0), -8);
		CHECK_EQ_I64(hilo_elem_get_i64(HILO_T_S4, l->data, 1), 7);
		CHECK_EQ_I64(hilo_elem_get_i64(HILO_T_S4, l->data, 2), -1);
	}
	l = parse(m, "(f32[2], s32[]) ( {1, 2}, 3 )");
	if (CHECK(l)) {
		CHECK_EQ_I64(l->ntuple, 2);
		CHECK(l->elems[0]->shape->type == HILO_T_F32);
		CHECK_EQ_I64(hilo_elem_get_i64(HILO_T_S32, l->elems[1]->data, 0), 3);
		CHECK(hilo_elem_get_f64(HILO_T_F32, l->elems[0]->data, 1) == 2.0);
	}
	l = parse(m, "f32[2,3]{1,0} { { 1, 2, 3 }, { 4, 5, 6 } }");
	if (CHECK(l)) /* row-major element order */
		for (int k = 0; k < 6; k++)
			CHECK(hilo_elem_get_f64(HILO_T_F32, l->data, (size_t)k) == k + 1);

	/* malformed literals: located errors, no crash */
	CHECK(parse_fails(m, "f32[2]{0} {1}"));            /* too few */
	CHECK(parse_fails(m, "f32[2]{0} {1, 2, 3}"));      /* too many */
	CHECK(parse_fails(m, "f32[3]{0} {1, 2"));          /* truncated */
	CHECK(parse_fails(m, "pred[] 2"));
	CHECK(parse_fails(m, "f32[] abc"));
	CHECK(parse_fails(m, "f32[2,2]{1,0} {1, 2, 3, 4}")); /* rank mismatch */
	CHECK(parse_fails(m, "f32[] {...}"));              /* elided: values unknown */
	CHECK(parse_fails(m, ""));
}

/* Constants inside modules: values, elided {...} kept as "unknown". */
static void test_constants_in_module(void)
{
	static const char *const text =
		"HloModule c\n\n"
		"ENTRY e {\n"
		"  a = f32[3]{0} constant({1, -0, nan})\n"
		"  b = bf16[2,2]{1,0} constant({ { 1, 2 }, { 3, 4 } })\n"
		"  big = f32[64,64]{1,0} constant({...})\n"
		"  t = (s32[], f32[]) constant(( 1, 2.5 ))\n"
		"  s = pred[] constant(true)\n"
		"  ROOT r = (f32[3]{0}, bf16[2,2]{1,0}, f32[64,64]{1,0}, (s32[], f32[]), pred[]) tuple(a, b, big, t, s)\n"
		"}\n";
	hilo_module *m = check_parse(text);
	if (!CHECK(m))
		return;
	for (hilo_instr *i = m->entry->first; i; i = i->next) {
		if (i->op != HILO_OP_CONSTANT)
			continue;
		CHECK(hilo_instr_literal(i));
		if (strcmp(i->name, "big") == 0)
			CHECK(hilo_instr_literal(i)->elided);
		else
			CHECK(!hilo_instr_literal(i)->elided);
	}
	char *out = check_print(m, HILO_STYLE_AUTO);
	/* the header gains the derived entry_computation_layout */
	CHECK_STR(strchr(out, '\n'), strchr(text, '\n'));
	free(out);
	hilo_module_destroy(m);
}

/* An array written as one scalar is XLA's: element 0 holds it, every
 * other element 0 (jaxlib 0.10.2's parser and CPU). A zero one is a splat:
 * one stored element every element reads as; the budgeted expansion gives
 * the dense literal the written-out form parses to. */
static void test_splats(hilo_module *m)
{
	hilo_literal *f = parse(m, "s32[2,3]{1,0} -7");
	if (!CHECK(f))
		return;
	int64_t v = 0;
	CHECK(!f->splat && f->scalar_text && f->nbytes == 24);
	CHECK(hilo_literal_int_at(f, 0, &v) && v == -7);
	for (size_t k = 1; k < 6; k++)
		CHECK(hilo_literal_int_at(f, k, &v) && v == 0);
	CHECK_STR(roundtrip(m, "s32[2,3]{1,0} -7"), "s32[2,3]{1,0} { { -7, 0, 0 }, { 0, 0, 0 } }");
	hilo_literal *s = parse(m, "s32[2,3]{1,0} 0");
	if (!CHECK(s))
		return;
	CHECK(s->splat && s->scalar_text);
	CHECK(s->nbytes == 4);
	CHECK(hilo_literal_count(s) == 6);
	for (size_t k = 0; k < 6; k++) {
		CHECK(hilo_literal_elem(s, k) == s->data);
		CHECK(hilo_literal_slot(s, k) == 0);
		CHECK(hilo_literal_int_at(s, k, &v) && v == 0);
	}
	CHECK(!hilo_literal_int_at(s, 6, &v));
	/* printed in full where values print in full (hilo-run, labels) */
	CHECK_STR(roundtrip(m, "s32[2,3]{1,0} 0"), "s32[2,3]{1,0} { { 0, 0, 0 }, { 0, 0, 0 } }");
	hilo_literal *d = parse(m, "s32[2,3]{1,0} { { 0, 0, 0 }, { 0, 0, 0 } }");
	if (!CHECK(d))
		return;
	CHECK(!d->splat && d->nbytes == 24);
	CHECK(hilo_literal_elem(d, 5) == (const char *)d->data + 20);
	CHECK(hilo_literal_equal(s, d) && hilo_literal_equal(d, s));
	hilo_literal *o = parse(m, "s32[2,3]{1,0} { { 0, 0, 0 }, { 0, 0, 1 } }");
	char msg[256];
	CHECK(o && !hilo_literal_equal(s, o));
	CHECK(o && hilo_literal_describe_diff(s, o, 0, msg, sizeof msg));
	CHECK_STR(msg, "output element [1,2]: before=0 after=1 (seed 0)");
	/* the expansion: over the budget NULL, charged nothing */
	size_t cap = 23;
	CHECK(!hilo_literal_dense_in(m->arena, s, &cap));
	CHECK(cap == 23);
	cap = 100;
	hilo_literal *x = hilo_literal_dense_in(m->arena, s, &cap);
	if (!CHECK(x))
		return;
	CHECK(cap == 76 && !x->splat && x->nbytes == 24 && s->splat && s->nbytes == 4);
	CHECK(!memcmp(x->data, d->data, 24));
	CHECK(hilo_literal_dense_in(m->arena, d, &cap) == d); /* dense: itself */
	/* a splat inside a tuple, and the 3.8 GB one: no allocation */
	hilo_literal *t = parse(m, "(f32[], f32[961974200]{0}) (1, 0)");
	if (!CHECK(t))
		return;
	CHECK(t->elems[1]->splat && t->elems[1]->nbytes == 4);
	CHECK(hilo_literal_has_splat(t) && !hilo_literal_has_splat(t->elems[0]));
	cap = HILO_LITERAL_MAX_BYTES;
	CHECK(!hilo_literal_dense_in(m->arena, t, &cap));
	/* complex and sub-byte types; -0 is not zero */
	hilo_literal *c = parse(m, "c64[3]{0} (0, 0)");
	CHECK(c && c->splat && c->nbytes == 8);
	CHECK_STR(roundtrip(m, "c64[3]{0} (1, -2)"), "c64[3]{0} {(1, -2), (0, 0), (0, 0)}");
	hilo_literal *q = parse(m, "s4[5]{0} -3");
	CHECK(q && !q->splat && q->nbytes == 5);
	CHECK(q && hilo_literal_int_at(q, 0, &v) && v == -3);
	CHECK(q && hilo_literal_int_at(q, 4, &v) && v == 0);
	hilo_literal *z = parse(m, "f32[2]{0} -0");
	CHECK(z && !z->splat && z->nbytes == 8);
	CHECK_STR(roundtrip(m, "f32[2]{0} -0"), "f32[2]{0} {-0, 0}");
}

/* hilo_literal_compare_near (hilo-run --compare): the tolerance rule, the
 * special values, exact integers, splats read element by element, the
 * worst element and its index. */
static void test_compare_near(hilo_module *m)
{
	hilo_near_opts tol = {1e-3, 1e-3};
	hilo_near_result r;
	hilo_literal *a = parse(m, "f32[2,2]{1,0} {{1, -0}, {nan, 1000}}");
	hilo_literal *b = parse(m, "f32[2,2]{1,0} {{1, 0}, {nan, 1001}}");
	if (!CHECK(a && b))
		return;
	/* -0 against 0 agrees; 1000 vs 1001 is 1 over 0.001 + 1.001 allowed */
	hilo_literal_compare_near(a, b, &tol, &r);
	CHECK(!r.shape_differs && r.elements == 4 && r.mismatches == 0);
	CHECK(r.has_worst && !r.worst_mismatch && r.abs_err == 1);
	CHECK_STR(r.where, "[1,1]");
	/* rtol scales the reference's magnitude, not the test's: 1000 against
	 * 1002 is allowed 0.999 + 0.001 * 1002 = 2.001 (not 1.999) */
	hilo_literal *t1 = parse(m, "f32[1]{0} {1000}"), *r1 = parse(m, "f32[1]{0} {1002}");
	if (CHECK(t1 && r1)) {
		hilo_near_opts t = {1e-3, 0.999};
		hilo_literal_compare_near(t1, r1, &t, &r);
		CHECK(r.mismatches == 0 && r.abs_err == 2);
		hilo_literal_compare_near(r1, t1, &t, &r); /* swapped: 1.999 allowed */
		CHECK(r.mismatches == 1);
	}
	/* rtol 0 leaves atol alone */
	tol.rtol = 0;
	hilo_literal_compare_near(a, b, &tol, &r);
	CHECK(r.mismatches == 1 && r.worst_mismatch);
	CHECK_STR(r.test, "1000");
	CHECK_STR(r.ref, "1001");
	CHECK(r.rel_err == 1.0 / 1001);
	/* a splat (every element 2) against a dense literal */
	hilo_literal *s = parse(m, "bf16[3]{0} 0");
	hilo_literal *d = parse(m, "bf16[3]{0} {0, 0, 0.5}");
	if (CHECK(s && d && s->splat)) {
		hilo_literal_compare_near(s, d, &tol, &r);
		CHECK(r.elements == 3 && r.mismatches == 1);
		CHECK_STR(r.where, "[2]");
		CHECK(r.rel_err == 1); /* 0.5 off a reference of 0.5 */
	}
	/* integers and pred: exact whatever the tolerance; u64 past 2^63 */
	tol = (hilo_near_opts){1, 1e9};
	hilo_literal *u = parse(m, "u64[2]{0} {18446744073709551615, 3}");
	hilo_literal *w = parse(m, "u64[2]{0} {18446744073709551614, 3}");
	if (CHECK(u && w)) {
		hilo_literal_compare_near(u, w, &tol, &r);
		CHECK(r.mismatches == 1);
		CHECK_STR(r.test, "18446744073709551615");
	}
	hilo_literal *p = parse(m, "pred[2]{0} {true, false}");
	hilo_literal *q = parse(m, "pred[2]{0} {true, true}");
	if (CHECK(p && q)) {
		hilo_literal_compare_near(p, q, &tol, &r);
		CHECK(r.mismatches == 1);
		CHECK_STR(r.where, "[1]");
	}
	/* an infinity equals only itself, even within a huge atol; NaN vs a
	 * number ranks worst */
	hilo_literal *i = parse(m, "f32[3]{0} {inf, 1, 5}");
	hilo_literal *j = parse(m, "f32[3]{0} {-inf, nan, 6}");
	if (CHECK(i && j)) {
		tol = (hilo_near_opts){0, 1e30};
		hilo_literal_compare_near(i, j, &tol, &r);
		CHECK(r.mismatches == 2 && isinf(r.abs_err));
		CHECK_STR(r.where, "[0]"); /* the first of two infinite errors */
	}
	/* shapes must agree; a scalar's index is [] */
	hilo_literal *x = parse(m, "f32[] 1"), *y = parse(m, "f32[1]{0} {1}");
	if (CHECK(x && y)) {
		hilo_literal_compare_near(x, y, &tol, &r);
		CHECK(r.shape_differs && r.elements == 0);
		hilo_literal *z = parse(m, "f32[] 2");
		tol = (hilo_near_opts){0, 0};
		hilo_literal_compare_near(x, z, &tol, &r);
		CHECK(r.mismatches == 1);
		CHECK_STR(r.where, "[]");
	}
}

int main(void)
{
	hilo_module *m = hilo_module_create("lits");
	test_print_forms(m);
	test_values(m);
	test_splats(m);
	test_compare_near(m);
	hilo_module_destroy(m);
	test_constants_in_module();
	return CHECK_DONE();
}
