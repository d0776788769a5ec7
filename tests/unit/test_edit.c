/* Unit tests of the checked IR edits (src/ir/edit.c, hilo_instr_rename in
 * ir.c; issue 30 §8): each edit's success and refusal, a refusal changes
 * nothing, and hilo_verify accepts the module after every edit (it
 * rebuilds use lists, checks shape interning, names, root and params). */
#include "check.h"

static const char *k_module =
	"HloModule m, entry_computation_layout={(f32[4]{0}, f32[4]{0})->f32[4]{0}}\n"
	"\n"
	"other {\n"
	"  q = f32[] parameter(0)\n"
	"  ROOT n = f32[] negate(q)\n"
	"}\n"
	"\n"
	"ENTRY main {\n"
	"  p0 = f32[4]{0} parameter(0)\n"
	"  p1 = f32[4]{0} parameter(1)\n"
	"  a = f32[4]{0} add(p0, p1)\n"
	"  k = f32[4]{0} constant({1, 2, 3, 4})\n"
	"  m = f32[4]{0} multiply(a, k)\n"
	"  ROOT r = f32[4]{0} subtract(m, a)\n"
	"}\n";

static hilo_instr *find(hilo_comp *c, const char *name)
{
	for (hilo_instr *i = c->first; i; i = i->next)
		if (strcmp(i->name, name) == 0)
			return i;
	return NULL;
}

/* The names of c's instructions in list order, space-separated. */
static const char *order(hilo_comp *c, char *buf, size_t cap)
{
	size_t o = 0;
	buf[0] = 0;
	for (hilo_instr *i = c->first; i && o < cap; i = i->next)
		o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? " " : "", i->name);
	return buf;
}

static bool printed_has(const hilo_module *m, const char *needle)
{
	char *s = check_print(m, HILO_STYLE_DEFAULT);
	bool r = s && strstr(s, needle);
	free(s);
	return r;
}

static void test_rename(void)
{
	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_comp *e = m->entry;
	hilo_instr *a = find(e, "a"), *k = find(e, "k");
	CHECK(hilo_instr_rename(m, a, "sum"));
	CHECK_STR(a->name, "sum");
	CHECK(find(e, "sum") == a && !find(e, "a"));
	CHECK(printed_has(m, "%sum = f32[4]{0} add(%p0, %p1)"));
	CHECK(printed_has(m, "multiply(%sum, %k)"));
	CHECK(check_verifies(m));
	/* taken in this computation, in another one, malformed, empty: refused */
	CHECK(!hilo_instr_rename(m, k, "sum"));
	CHECK(!hilo_instr_rename(m, k, "q"));
	CHECK(!hilo_instr_rename(m, k, "bad name"));
	CHECK(!hilo_instr_rename(m, k, "%k"));
	CHECK(!hilo_instr_rename(m, k, ""));
	CHECK(!hilo_instr_rename(m, k, NULL));
	CHECK_STR(k->name, "k");
	/* the same name again is no change */
	CHECK(hilo_instr_rename(m, k, "k"));
	/* the old name was released: it may be taken again, by a rename and
	 * by hilo_module_unique_name */
	CHECK(hilo_instr_rename(m, k, "a"));
	CHECK_STR(k->name, "a");
	CHECK(hilo_instr_rename(m, k, "k"));
	CHECK_STR(hilo_module_unique_name(m, "a"), "a");
	CHECK(!hilo_instr_rename(m, k, "a")); /* now claimed */
	/* many renames through one instruction: the set's deletions keep every
	 * other name findable */
	char nm[32];
	for (int t = 0; t < 600; t++) {
		snprintf(nm, sizeof nm, "k.%d", t);
		if (!CHECK(hilo_instr_rename(m, k, nm)))
			break;
	}
	CHECK(!hilo_instr_rename(m, k, "p0"));
	CHECK(!hilo_instr_rename(m, k, "sum"));
	CHECK(!hilo_instr_rename(m, k, "n"));
	CHECK(hilo_instr_rename(m, k, "k.0"));
	CHECK(check_verifies(m));
	hilo_module_destroy(m);
}

static void test_set_entry(void)
{
	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_comp *other = hilo_module_find_comp(m, "other"), *main_c = m->entry;
	CHECK(hilo_module_set_entry(m, other));
	CHECK(m->entry == other && other->is_entry && !main_c->is_entry);
	CHECK(check_verifies(m));
	CHECK(printed_has(m, "ENTRY %other"));
	/* a computation of another module, NULL: refused, nothing changed */
	hilo_module *m2 = check_parse(k_module);
	if (CHECK(m2)) {
		CHECK(!hilo_module_set_entry(m, m2->entry));
		hilo_module_destroy(m2);
	}
	hilo_comp *loose = hilo_comp_create(m, "loose");
	CHECK(!hilo_module_set_entry(m, loose));
	CHECK(!hilo_module_set_entry(m, NULL));
	CHECK(m->entry == other && other->is_entry);
	CHECK(hilo_module_set_entry(m, main_c));
	CHECK(m->entry == main_c && main_c->is_entry && !other->is_entry);
	CHECK(check_verifies(m));
	hilo_module_destroy(m);
}

static void test_set_opcode(void)
{
	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_comp *e = m->entry;
	hilo_instr *a = find(e, "a"), *k = find(e, "k"), *p0 = find(e, "p0"), *r = find(e, "r");
	uint32_t id = a->id;
	CHECK(hilo_instr_set_opcode(a, HILO_OP_SUBTRACT));
	CHECK(a->op == HILO_OP_SUBTRACT && a->id == id && a->noperands == 2);
	CHECK(a->operands[0] == p0 && p0->nusers == 1 && p0->users[0].user == a);
	CHECK(printed_has(m, "%a = f32[4]{0} subtract(%p0, %p1)"));
	CHECK(check_verifies(m));
	/* arity: negate takes one operand, a has two */
	CHECK(!hilo_instr_set_opcode(a, HILO_OP_NEGATE));
	CHECK(!hilo_instr_set_opcode(a, HILO_OP_SELECT));
	CHECK(a->op == HILO_OP_SUBTRACT);
	/* to or from constant/parameter, out of range: refused */
	CHECK(!hilo_instr_set_opcode(a, HILO_OP_CONSTANT));
	CHECK(!hilo_instr_set_opcode(k, HILO_OP_NEGATE));
	CHECK(!hilo_instr_set_opcode(p0, HILO_OP_NEGATE));
	CHECK(!hilo_instr_set_opcode(r, HILO_OP_COUNT));
	CHECK(k->op == HILO_OP_CONSTANT && p0->op == HILO_OP_PARAMETER && r->op == HILO_OP_SUBTRACT);
	CHECK(hilo_instr_set_opcode(a, HILO_OP_MAXIMUM));
	CHECK(hilo_instr_set_opcode(a, HILO_OP_MAXIMUM)); /* same: no change */
	CHECK(check_verifies(m));
	hilo_module_destroy(m);
}

static void test_literals(void)
{
	hilo_module *m = check_parse(k_module);
	hilo_module *src = hilo_module_create("src");
	if (!CHECK(m && src))
		return;
	hilo_comp *e = m->entry;
	hilo_instr *k = find(e, "k"), *a = find(e, "a");
	hilo_diags d;
	hilo_diags_init(&d);
	const char *t4 = "f32[4] {5, 6, 7, 8}", *t3 = "f32[3] {5, 6, 7}", *ts = "s32[4] {5, 6, 7, 8}";
	hilo_literal *l4 = hilo_read_input_literal(src, t4, strlen(t4), "l4", &d);
	hilo_literal *l3 = hilo_read_input_literal(src, t3, strlen(t3), "l3", &d);
	hilo_literal *ls = hilo_read_input_literal(src, ts, strlen(ts), "ls", &d);
	hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	if (!CHECK(l4 && l3 && ls))
		goto out;
	/* from another module: copied, shapes the instruction's (layout kept) */
	CHECK(hilo_instr_set_literal(m, k, l4));
	CHECK(hilo_instr_literal(k) != l4 && hilo_instr_literal(k)->shape == k->shape);
	CHECK(printed_has(m, "%k = f32[4]{0} constant({5, 6, 7, 8})"));
	CHECK(check_verifies(m));
	((float *)l4->data)[0] = 9; /* the copy is the module's own */
	CHECK(printed_has(m, "constant({5, 6, 7, 8})"));
	/* other dims, other type, not a constant, NULL: refused, nothing changed */
	const hilo_literal *kept = hilo_instr_literal(k);
	CHECK(!hilo_instr_set_literal(m, k, l3));
	CHECK(!hilo_instr_set_literal(m, k, ls));
	CHECK(!hilo_instr_set_literal(m, a, l4));
	CHECK(!hilo_instr_set_literal(m, k, NULL));
	CHECK(hilo_instr_literal(k) == kept);
	/* a literal whose data does not fill its shape is refused */
	hilo_literal bad = *l4;
	bad.nbytes = 8;
	CHECK(!hilo_instr_set_literal(m, k, &bad));
	CHECK(!hilo_instr_create_constant(m, &bad, NULL));

	/* a new constant: its shape follows the literal, interned in m */
	hilo_instr *c3 = hilo_instr_create_constant(m, l3, "three");
	if (CHECK(c3)) {
		CHECK(c3->op == HILO_OP_CONSTANT && c3->shape->table == m->shapes);
		CHECK(hilo_instr_literal(c3)->shape == c3->shape && c3->shape->rank == 1 && c3->shape->dims[0] == 3);
		CHECK_STR(c3->name, "three");
		hilo_comp_insert_before(e, k, c3);
		CHECK(printed_has(m, "%three = f32[3] constant({5, 6, 7})"));
		CHECK(check_verifies(m));
	}
	hilo_instr *c4 = hilo_instr_create_constant(m, l4, "three"); /* name taken: made unique */
	if (CHECK(c4)) {
		CHECK(strcmp(c4->name, "three") != 0);
		hilo_comp_insert_before(e, find(e, "m"), c4);
		hilo_instr_set_operand(m, find(e, "m"), 1, c4);
		CHECK(check_verifies(m));
	}
	CHECK(!hilo_instr_create_constant(m, NULL, NULL));
	CHECK(!hilo_instr_create_constant(m, l4, ""));
out:
	hilo_module_destroy(src);
	hilo_module_destroy(m);
}

static void test_set_shape(void)
{
	hilo_module *m = check_parse(k_module);
	hilo_module *src = hilo_module_create("src");
	if (!CHECK(m && src))
		return;
	hilo_comp *e = m->entry;
	hilo_instr *k = find(e, "k"), *a = find(e, "a");
	int64_t dims[1] = {4};
	int64_t m2m[1] = {0};
	hilo_layout lay = {1, m2m, NULL};
	/* a shape of another table: interned into m's, the same pointer as
	 * the equal shape m already has */
	hilo_shape *foreign = hilo_shape_array_layout(src->shapes, HILO_T_F32, 1, dims, NULL, &lay);
	hilo_shape *before = a->shape;
	CHECK(hilo_instr_set_shape(m, a, foreign));
	CHECK(a->shape == before && a->shape->table == m->shapes);
	/* no layout: a new shape of m's table */
	hilo_shape *plain = hilo_shape_array(src->shapes, HILO_T_F32, 1, dims, NULL);
	CHECK(hilo_instr_set_shape(m, a, plain));
	CHECK(a->shape != before && a->shape->table == m->shapes && !a->shape->layout);
	CHECK(printed_has(m, "%a = f32[4] add("));
	CHECK(check_verifies(m));
	/* a constant keeps a shape its literal fills: layout may change, dims not */
	CHECK(hilo_instr_set_shape(m, k, plain));
	CHECK(k->shape == a->shape);
	int64_t d5[1] = {5};
	hilo_shape *five = hilo_shape_array(src->shapes, HILO_T_F32, 1, d5, NULL);
	CHECK(!hilo_instr_set_shape(m, k, five));
	CHECK(!hilo_instr_set_shape(m, k, hilo_shape_scalar(m->shapes, HILO_T_S32)));
	CHECK(!hilo_instr_set_shape(m, a, NULL));
	CHECK(k->shape == a->shape);
	CHECK(check_verifies(m));
	hilo_module_destroy(src);
	hilo_module_destroy(m);
}

static void test_move(void)
{
	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_comp *e = m->entry;
	char buf[256];
	hilo_instr *p0 = find(e, "p0"), *p1 = find(e, "p1"), *a = find(e, "a"), *k = find(e, "k");
	hilo_instr *mul = find(e, "m"), *r = find(e, "r");
	/* k has no operands: it may go first, or just before its user */
	CHECK(hilo_comp_move_before(e, p0, k));
	CHECK_STR(order(e, buf, sizeof buf), "k p0 p1 a m r");
	CHECK(e->first == k && !k->prev && p0->prev == k && e->ninstrs == 6);
	CHECK(check_verifies(m));
	CHECK(hilo_comp_move_before(e, mul, k));
	CHECK_STR(order(e, buf, sizeof buf), "p0 p1 a k m r");
	CHECK(hilo_comp_move_before(e, a, p1)); /* already there */
	CHECK(hilo_comp_move_before(e, p1, p1));
	CHECK_STR(order(e, buf, sizeof buf), "p0 p1 a k m r");
	/* to the end: only an instruction without users in c */
	CHECK(!hilo_comp_move_before(e, NULL, k));
	CHECK(hilo_comp_move_before(e, NULL, r)); /* already last */
	/* before an operand, after a user: refused, nothing changed */
	CHECK(!hilo_comp_move_before(e, p1, a));
	CHECK_STR(order(e, buf, sizeof buf), "p0 p1 a k m r");
	CHECK(!hilo_comp_move_before(e, r, a));
	CHECK(!hilo_comp_move_before(e, p0, mul));
	/* another computation's instruction, or before one of another */
	hilo_comp *other = hilo_module_find_comp(m, "other");
	CHECK(!hilo_comp_move_before(e, other->first, k));
	CHECK(!hilo_comp_move_before(other, NULL, k));
	CHECK(!hilo_comp_move_before(e, NULL, NULL));
	CHECK_STR(order(e, buf, sizeof buf), "p0 p1 a k m r");
	CHECK(e->last == r && !r->next && e->root == r);
	/* a control edge orders as an operand does */
	hilo_instr_add_ctrl_pred(m, k, a);
	CHECK(!hilo_comp_move_before(e, a, k));
	CHECK(hilo_comp_move_before(e, p0, p1));
	CHECK_STR(order(e, buf, sizeof buf), "p1 p0 a k m r");
	CHECK(check_verifies(m));
	hilo_module_destroy(m);
}

int main(void)
{
	test_rename();
	test_set_entry();
	test_set_opcode();
	test_literals();
	test_set_shape();
	test_move();
	return CHECK_DONE();
}
