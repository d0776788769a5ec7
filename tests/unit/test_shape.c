/* Shape unit tests: primitive type names, element counts (including the
 * overflow guard), compatibility vs equality, and XLA's printed form of
 * shapes parsed from text (layouts, tiles, dynamic dims, tuples). */
#include "check.h"

static hilo_shape arr(hilo_ptype t, int rank, int64_t *dims)
{
	hilo_shape s;
	memset(&s, 0, sizeof s);
	s.type = t;
	s.rank = rank;
	s.dims = dims;
	return s;
}

static void test_ptypes(void)
{
	for (int t = HILO_T_PRED; t < HILO_T_TUPLE; t++) {
		const char *n = hilo_ptype_name((hilo_ptype)t);
		if (!CHECK(n && *n))
			continue;
		if (!CHECK_EQ_I64(hilo_ptype_lookup(n, strlen(n)), t))
			fprintf(stderr, "  type %s\n", n);
	}
	CHECK_EQ_I64(hilo_ptype_lookup("f33", 3), HILO_T_INVALID);
	CHECK_EQ_I64(hilo_ptype_lookup("f32", 2), HILO_T_INVALID);
	CHECK_EQ_I64(hilo_ptype_lookup("bf16", 4), HILO_T_BF16);
	CHECK_EQ_I64(hilo_ptype_bits(HILO_T_PRED), 1);
	CHECK_EQ_I64(hilo_ptype_bits(HILO_T_S4), 4);
	CHECK_EQ_I64(hilo_ptype_bits(HILO_T_F8E4M3FN), 8);
	CHECK_EQ_I64(hilo_ptype_bits(HILO_T_BF16), 16);
	CHECK_EQ_I64(hilo_ptype_bits(HILO_T_C128), 128);
	CHECK_EQ_I64(hilo_ptype_bytes(HILO_T_F32), 4);
	CHECK_EQ_I64(hilo_ptype_bytes(HILO_T_S4), 1);
	CHECK_EQ_I64(hilo_ptype_bytes(HILO_T_PRED), 1);
	CHECK(hilo_ptype_is_float(HILO_T_F8E5M2) && hilo_ptype_is_float(HILO_T_F4E2M1FN));
	CHECK(!hilo_ptype_is_float(HILO_T_S32) && !hilo_ptype_is_float(HILO_T_PRED));
	CHECK(hilo_ptype_is_complex(HILO_T_C64) && !hilo_ptype_is_complex(HILO_T_F64));
	CHECK(hilo_ptype_is_signed_int(HILO_T_S8) && !hilo_ptype_is_signed_int(HILO_T_U8));
	CHECK(hilo_ptype_is_unsigned_int(HILO_T_U64) && hilo_ptype_is_int(HILO_T_U1));
	CHECK(!hilo_ptype_is_int(HILO_T_PRED));
}

static void test_elements(void)
{
	int64_t d1[] = {2, 3, 4};
	hilo_shape s = arr(HILO_T_F32, 3, d1);
	CHECK_EQ_I64(hilo_shape_elements(&s), 24);
	hilo_shape scalar = arr(HILO_T_F32, 0, NULL);
	CHECK_EQ_I64(hilo_shape_elements(&scalar), 1);
	int64_t d0[] = {0, 5};
	hilo_shape empty = arr(HILO_T_F32, 2, d0);
	CHECK_EQ_I64(hilo_shape_elements(&empty), 0);
	/* 2^31 * 2^31 = 2^62 fits exactly; one more factor of 2 does not */
	int64_t big[] = {(int64_t)1 << 31, (int64_t)1 << 31, 2};
	hilo_shape b2 = arr(HILO_T_F32, 2, big);
	CHECK_EQ_I64(hilo_shape_elements(&b2), (int64_t)1 << 62);
	hilo_shape b3 = arr(HILO_T_F32, 3, big);
	CHECK_EQ_I64(hilo_shape_elements(&b3), -1);
	int64_t huge[] = {INT64_MAX, INT64_MAX};
	hilo_shape b4 = arr(HILO_T_F32, 2, huge);
	CHECK_EQ_I64(hilo_shape_elements(&b4), -1);
	/* a zero after a huge dim still gives 0 elements or -1, never garbage */
	int64_t hz[] = {INT64_MAX, INT64_MAX, 0};
	hilo_shape b5 = arr(HILO_T_F32, 3, hz);
	int64_t e5 = hilo_shape_elements(&b5);
	CHECK(e5 == 0 || e5 == -1);
	int64_t neg[] = {-3};
	hilo_shape b6 = arr(HILO_T_F32, 1, neg);
	CHECK_EQ_I64(hilo_shape_elements(&b6), -1);
	CHECK(hilo_shape_is_array(&s) && !hilo_shape_is_tuple(&s));
}

static void test_equality(void)
{
	int64_t d[] = {2, 3}, d2[] = {2, 3}, d3[] = {3, 2};
	int64_t l10[] = {1, 0}, l01[] = {0, 1};
	hilo_layout L10 = {2, l10, NULL}, L01 = {2, l01, NULL}, L10t = {2, l10, "T(8,128)"};
	hilo_shape a = arr(HILO_T_F32, 2, d), b = arr(HILO_T_F32, 2, d2), c = arr(HILO_T_F32, 2, d3);
	hilo_shape e = arr(HILO_T_BF16, 2, d2);
	CHECK(hilo_shape_compatible(&a, &b) && hilo_shape_equal(&a, &b));
	CHECK(!hilo_shape_compatible(&a, &c) && !hilo_shape_equal(&a, &c));
	CHECK(!hilo_shape_compatible(&a, &e));
	a.layout = &L10;
	CHECK(hilo_shape_compatible(&a, &b) && !hilo_shape_equal(&a, &b));
	b.layout = &L10;
	CHECK(hilo_shape_equal(&a, &b));
	b.layout = &L01;
	CHECK(hilo_shape_compatible(&a, &b) && !hilo_shape_equal(&a, &b));
	b.layout = &L10t;
	CHECK(!hilo_shape_equal(&a, &b));
	b.layout = &L10;
	uint8_t dyn[] = {HILO_DIM_BOUNDED, HILO_DIM_STATIC};
	b.dyn = dyn;
	CHECK(hilo_shape_compatible(&a, &b) && !hilo_shape_equal(&a, &b));
	b.dyn = NULL;

	hilo_shape *ea[] = {&a, &e}, *eb[] = {&b, &e}, *ec[] = {&c, &e};
	hilo_shape ta = {.type = HILO_T_TUPLE, .ntuple = 2, .elems = ea};
	hilo_shape tb = {.type = HILO_T_TUPLE, .ntuple = 2, .elems = eb};
	hilo_shape tc = {.type = HILO_T_TUPLE, .ntuple = 2, .elems = ec};
	hilo_shape t1 = {.type = HILO_T_TUPLE, .ntuple = 1, .elems = ea};
	CHECK(hilo_shape_is_tuple(&ta) && !hilo_shape_is_array(&ta));
	CHECK(hilo_shape_equal(&ta, &tb));
	CHECK(!hilo_shape_compatible(&ta, &tc));
	CHECK(!hilo_shape_compatible(&ta, &t1));
}

/* Each shape prints in XLA's canonical form: as written when it has a
 * layout; arrays without one get the default (major-to-minor) layout,
 * as XLA's parser assigns it. */
static void test_printing(void)
{
	static const char *const shapes[][2] = {
		{"f32[]", NULL}, {"f32[2,3]{1,0}", NULL}, {"bf16[4]", "bf16[4]{0}"}, {"pred[]", NULL},
		{"s4[8]{0}", NULL}, {"u8[0,5]{1,0}", NULL}, {"f32[<=4,3]{1,0}", NULL},
		{"s32[<=16]{0}", NULL}, {"f16[8,128]{1,0:T(8,128)}", NULL},
		{"f32[2]{0:S(1)}", NULL}, {"token[]", NULL}, {"(f32[2]{0}, s32[])", NULL}, {"()", NULL},
		{"(f32[1]{0}, f32[2]{0}, f32[3]{0}, f32[4]{0}, f32[5]{0}, /*index=5*/f32[6]{0})", NULL},
		{"((f32[], pred[]), u64[3]{0})", NULL}, {"f8e5m2[2,2]{0,1}", NULL},
		{"c64[3]", "c64[3]{0}"}, {"f64[1,1,1,1,1]{4,3,2,1,0}", NULL},
		{"(f32[2], s32[])", "(f32[2]{0}, s32[])"}, {"f32[2,3,4]", "f32[2,3,4]{2,1,0}"},
		{NULL, NULL},
	};
	for (int k = 0; shapes[k][0]; k++) {
		const char *want = shapes[k][1] ? shapes[k][1] : shapes[k][0];
		char text[512], expect[512];
		snprintf(text, sizeof text, "HloModule s\n\nENTRY e {\n  ROOT p = %s parameter(0)\n}\n", shapes[k][0]);
		snprintf(expect, sizeof expect, "HloModule s\n\nENTRY e {\n  ROOT p = %s parameter(0)\n}\n", want);
		hilo_module *m = check_parse(text);
		if (!CHECK(m)) {
			fprintf(stderr, "  shape %s\n", shapes[k][0]);
			continue;
		}
		hilo_shape *s = m->entry->root->shape;
		CHECK_STR(hilo_shape_str(m->arena, s), want);
		CHECK(hilo_shape_equal(s, s));
		char *out = check_print(m, HILO_STYLE_AUTO);
		/* the header gains the derived entry_computation_layout; compare
		 * the computations */
		CHECK_STR(strchr(out, '\n'), strchr(expect, '\n'));
		free(out);
		hilo_module_destroy(m);
	}
	/* element counts from parsed shapes */
	hilo_module *m = check_parse("HloModule s\n\nENTRY e {\n  ROOT p = f32[3,5,7]{2,1,0} parameter(0)\n}\n");
	if (CHECK(m)) {
		CHECK_EQ_I64(hilo_shape_elements(m->entry->root->shape), 105);
		hilo_module_destroy(m);
	}
}

/* The intern table: equal descriptions give one pointer, anything that
 * prints differently (layout, tail, dynamic flags, buffer, type, dims,
 * no layout vs the default layout) gives another; tuple edits; shapes of
 * another table or built by hand are interned on the way in; a table that
 * grows keeps every shape. */
static void test_interning(void)
{
	hilo_module *m = hilo_module_create("intern");
	hilo_shape_table *t = m->shapes;
	int64_t d23[] = {2, 3}, d32[] = {3, 2}, m10[] = {1, 0}, m01[] = {0, 1};
	uint8_t dyn0[] = {HILO_DIM_STATIC, HILO_DIM_STATIC}, dynb[] = {HILO_DIM_BOUNDED, HILO_DIM_STATIC};
	hilo_layout L10 = {2, m10, NULL}, L01 = {2, m01, NULL}, L10t = {2, m10, "T(8,128)"},
		    L10t2 = {2, m10, "T(8,128)"};
	hilo_shape *a = hilo_shape_array(t, HILO_T_F32, 2, d23, NULL);
	CHECK(a && a->table == t && !a->layout && !a->dyn);
	CHECK(hilo_shape_array(t, HILO_T_F32, 2, d23, NULL) == a);
	CHECK(hilo_shape_array(t, HILO_T_F32, 2, d23, dyn0) == a); /* all static = none */
	CHECK(hilo_shape_array(t, HILO_T_F32, 2, d23, dynb) != a);
	CHECK(hilo_shape_array(t, HILO_T_F32, 2, d32, NULL) != a);
	CHECK(hilo_shape_array(t, HILO_T_BF16, 2, d23, NULL) != a);
	hilo_shape *def = hilo_shape_array_default(t, HILO_T_F32, 2, d23, NULL);
	CHECK(def != a && def->layout && def->layout->n == 2 && def->layout->minor_to_major[0] == 1);
	CHECK(hilo_shape_array_layout(t, HILO_T_F32, 2, d23, NULL, &L10) == def);
	CHECK(hilo_shape_with_layout(t, a, &L10) == def && hilo_shape_with_layout(t, def, NULL) == a);
	hilo_shape *c = hilo_shape_array_layout(t, HILO_T_F32, 2, d23, NULL, &L01);
	hilo_shape *tl = hilo_shape_array_layout(t, HILO_T_F32, 2, d23, NULL, &L10t);
	CHECK(c != def && tl != def && tl != c);
	CHECK(hilo_shape_array_layout(t, HILO_T_F32, 2, d23, NULL, &L10t2) == tl);
	CHECK_STR(hilo_shape_str(m->arena, tl), "f32[2,3]{1,0:T(8,128)}");
	CHECK(tl->layout->tail != L10t.tail); /* copied */
	CHECK(hilo_shape_equal(def, def) && !hilo_shape_equal(def, c) && hilo_shape_compatible(def, c));
	hilo_shape *b = hilo_shape_with_buffer(t, def, true);
	CHECK(b != def && b->buffer && hilo_shape_with_buffer(t, b, false) == def);
	CHECK_STR(hilo_shape_str(m->arena, b), "b(f32[2,3]{1,0})");
	CHECK(hilo_shape_retype(t, def, HILO_T_S32) == hilo_shape_array_default(t, HILO_T_S32, 2, d23, NULL));
	CHECK(hilo_shape_retype(t, b, HILO_T_F32) == def);
	CHECK(hilo_shape_with_dim(t, def, 1, 2) ==
	      hilo_shape_array_layout(t, HILO_T_F32, 2, (int64_t[]){2, 2}, NULL, &L10));
	CHECK(hilo_shape_with_dyn(t, a, dynb) == hilo_shape_array(t, HILO_T_F32, 2, d23, dynb));
	CHECK(hilo_shape_with_dyn(t, hilo_shape_with_dyn(t, a, dynb), NULL) == a);
	hilo_shape *sc = hilo_shape_scalar(t, HILO_T_S32);
	CHECK(sc->rank == 0 && !sc->layout && hilo_shape_array_default(t, HILO_T_S32, 0, NULL, NULL) == sc);
	CHECK_STR(hilo_shape_str(m->arena, sc), "s32[]");

	/* tuples and their edits */
	hilo_shape *e2[] = {def, sc};
	hilo_shape *tu = hilo_shape_tuple(t, 2, e2);
	CHECK(tu && tu->ntuple == 2 && hilo_shape_tuple(t, 2, e2) == tu);
	CHECK_STR(hilo_shape_str(m->arena, tu), "(f32[2,3]{1,0}, s32[])");
	hilo_shape *e3[] = {def, sc, c};
	hilo_shape *tu3 = hilo_shape_tuple(t, 3, e3);
	CHECK(hilo_shape_tuple_insert(t, tu, 2, c) == tu3);
	CHECK(hilo_shape_tuple_remove(t, tu3, 2) == tu);
	hilo_shape *e3b[] = {c, def, sc};
	CHECK(hilo_shape_tuple_insert(t, tu, 0, c) == hilo_shape_tuple(t, 3, e3b));
	hilo_shape *e2s[] = {def, c};
	CHECK(hilo_shape_tuple_set(t, tu, 1, c) == hilo_shape_tuple(t, 2, e2s));
	CHECK(hilo_shape_tuple_set(t, tu, 1, sc) == tu);
	CHECK(hilo_shape_tuple_remove(t, hilo_shape_tuple_remove(t, tu, 0), 0) == hilo_shape_tuple(t, 0, NULL));
	hilo_shape *bt = hilo_shape_with_buffer(t, tu, true);
	CHECK(bt != tu && hilo_shape_tuple_remove(t, bt, 1)->buffer); /* edits keep b(...) */
	CHECK(hilo_shape_tuple_set(t, tu, 2, c) == NULL && hilo_shape_tuple_remove(t, def, 0) == NULL);
	hilo_shape *nest[] = {tu, tu};
	hilo_shape *tt = hilo_shape_tuple(t, 2, nest);
	CHECK(tt->elems[0] == tu && tt->elems[1] == tu);
	CHECK_STR(hilo_shape_str(m->arena, tt), "((f32[2,3]{1,0}, s32[]), (f32[2,3]{1,0}, s32[]))");

	/* another module's shapes and hand-built ones are interned on the way in */
	hilo_module *m2 = hilo_module_create("other");
	hilo_shape *tt2 = hilo_shape_intern(m2->shapes, tt);
	CHECK(tt2 != tt && tt2->table == m2->shapes && tt2->elems[0]->table == m2->shapes);
	CHECK(hilo_shape_equal(tt, tt2) && tt2->hash == tt->hash);
	CHECK(hilo_shape_intern(t, tt2) == tt && hilo_shape_intern(t, tt) == tt);
	CHECK(!hilo_shape_equal(hilo_shape_intern(m2->shapes, c), def)); /* hashes differ */
	hilo_shape hand;
	memset(&hand, 0, sizeof hand);
	hand.type = HILO_T_F32;
	hand.rank = 2;
	hand.dims = d23;
	hand.layout = &L10;
	CHECK(hilo_shape_intern(t, &hand) == def && hilo_shape_equal(&hand, def));
	hilo_shape *he[] = {&hand, sc};
	CHECK(hilo_shape_tuple(t, 2, he) == tu);
	hilo_module_destroy(m2);

	/* growth keeps every shape and its pointer */
	size_t before = hilo_shape_table_count(t);
	hilo_shape *v[300];
	for (int k = 0; k < 300; k++)
		v[k] = hilo_shape_array(t, HILO_T_S8, 1, (int64_t[]){k}, NULL);
	CHECK_EQ_I64((int64_t)hilo_shape_table_count(t), (int64_t)before + 300);
	bool same = true;
	for (int k = 0; k < 300; k++)
		same &= hilo_shape_array(t, HILO_T_S8, 1, (int64_t[]){k}, NULL) == v[k] && v[k]->dims[0] == k;
	CHECK(same);
	CHECK(hilo_shape_array(t, HILO_T_F32, 2, d23, NULL) == a && hilo_shape_tuple(t, 3, e3) == tu3);
	CHECK_EQ_I64((int64_t)hilo_shape_table_count(t), (int64_t)before + 300);
	hilo_module_destroy(m);
}

/* The parser, clone and proto reader give equal shapes one object. */
static void test_module_interning(void)
{
	hilo_module *m = check_parse("HloModule s\n\nENTRY e {\n  p = f32[2,3]{1,0} parameter(0)\n"
		"  q = f32[2,3] parameter(1)\n  a = f32[2,3]{1,0} add(p, q)\n"
		"  b = f32[2,3]{0,1} copy(a)\n  c = f32[2,3]{1,0} add(a, a)\n"
		"  ROOT t = (f32[2,3]{1,0}, f32[2,3]{0,1}) tuple(c, b)\n}\n");
	if (!CHECK(m))
		return;
	hilo_instr *in[6];
	int n = 0;
	for (hilo_instr *i = m->entry->first; i && n < 6; i = i->next)
		in[n++] = i;
	CHECK(n == 6);
	CHECK(in[0]->shape == in[1]->shape && in[0]->shape == in[2]->shape && in[0]->shape == in[4]->shape);
	CHECK(in[3]->shape != in[0]->shape);
	CHECK(in[5]->shape->elems[0] == in[4]->shape && in[5]->shape->elems[1] == in[3]->shape);
	hilo_module *k = hilo_module_clone(m);
	if (CHECK(k)) {
		hilo_instr *j = k->entry->first;
		CHECK(j->shape != in[0]->shape && j->shape->table == k->shapes);
		CHECK(j->shape == j->next->shape && k->entry->root->shape->elems[0] == j->shape);
		CHECK_EQ_I64((int64_t)hilo_shape_table_count(k->shapes), 3);
		/* the verifier rejects a shape of another module */
		hilo_diags d;
		hilo_diags_init(&d);
		CHECK(hilo_verify(k, "k", &d));
		hilo_shape *own = j->shape;
		j->shape = in[0]->shape;
		CHECK(!hilo_verify(k, "k", &d) && d.n > 0 &&
		      strstr(d.items[d.n - 1].msg, "not interned in the module's shape table"));
		j->shape = own;
		hilo_diags_free(&d);
		hilo_module_destroy(k);
	}
	hilo_module_destroy(m);
}

int main(void)
{
	test_ptypes();
	test_elements();
	test_equality();
	test_printing();
	test_interning();
	test_module_interning();
	return CHECK_DONE();
}
