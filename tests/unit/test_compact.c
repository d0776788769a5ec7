/* Compact instruction storage (include/hilo/ir.h, src/ir/ir.c, src/ir/clone.c):
 *  - sizeof(hilo_instr) stays within its documented budget;
 *  - operand and use lists start inline and spill to the arena without
 *    losing or duplicating an entry (hilo_verify rebuilds the use lists);
 *  - called computations, control edges, the comment, the literal and the parameter number live
 *    out of line or in a union and survive parsing, printing, cloning and
 *    removal;
 *  - the parser's exact-size attribute and metadata blocks, the string
 *    table's rehash and the arena's alignment keep what they hold. */
#include "check.h"

static hilo_instr *find(hilo_comp *c, const char *name)
{
	for (hilo_instr *i = c->first; i; i = i->next)
		if (strcmp(i->name, name) == 0)
			return i;
	return NULL;
}

static int count_uses(const hilo_instr *def, const hilo_instr *user, uint32_t slot)
{
	int n = 0;
	for (uint32_t k = 0; k < def->nusers; k++)
		if (def->users[k].user == user && def->users[k].slot == slot)
			n++;
	return n;
}

static bool verifies(hilo_module *m)
{
	hilo_diags d;
	hilo_diags_init(&d);
	bool ok = hilo_verify(m, "compact.hlo", &d);
	if (!ok)
		hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return ok;
}

static hilo_module *parse(const char *text)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(text, strlen(text), "compact.hlo", &d);
	if (!m)
		hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return m;
}

static bool prints_as(const hilo_module *m, const char *text)
{
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_print_text(&b, m, HILO_STYLE_AUTO);
	bool same = b.len == strlen(text) && memcmp(b.data, text, b.len) == 0;
	if (!same)
		fprintf(stderr, "printed:\n%s\n", hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	return same;
}

static void test_size_budget(void)
{
	if (sizeof(void *) == 8)
		CHECK(sizeof(hilo_instr) <= HILO_INSTR_SIZE_BUDGET);
	fprintf(stderr, "sizeof(hilo_instr) = %zu (budget %d)\n", sizeof(hilo_instr),
		(int)HILO_INSTR_SIZE_BUDGET);
}

static const char *k_lists =
	"HloModule m\n"
	"\n"
	"ENTRY main {\n"
	"  p0 = f32[2]{0} parameter(0)\n"
	"  p1 = f32[2]{0} parameter(1)\n"
	"  ROOT t = (f32[2]{0}, f32[2]{0}) tuple(p0, p1)\n"
	"}\n";

/* Operands 0..7 of a tuple, alternating p0/p1: the tuple's operand list
 * and p0's and p1's use lists all pass their inline capacity. */
static void test_inline_to_spilled(void)
{
	hilo_module *m = parse(k_lists);
	if (!CHECK(m))
		return;
	hilo_comp *e = m->entry;
	hilo_instr *p0 = find(e, "p0"), *p1 = find(e, "p1"), *t = find(e, "t");
	CHECK(t->operands == t->inline_ops);
	CHECK(p0->users == p0->inline_users);
	enum { N = 9 };
	hilo_shape *elems[N];
	for (int k = 0; k < N; k++)
		elems[k] = p0->shape;
	hilo_shape *ts = hilo_shape_tuple(m->shapes, N, elems);
	hilo_instr *big = hilo_instr_create(m, HILO_OP_TUPLE, ts, "big");
	CHECK(big->noperands == 0 && big->cap_operands == 0);
	for (int k = 0; k < N; k++) {
		hilo_instr_add_operand(m, big, k % 2 ? p1 : p0);
		if (k + 1 <= HILO_INLINE_OPERANDS)
			CHECK(big->operands == big->inline_ops);
		else
			CHECK(big->operands != big->inline_ops);
	}
	hilo_comp_insert_before(e, t, big);
	CHECK_EQ_I64(big->noperands, N);
	for (uint32_t k = 0; k < N; k++) {
		CHECK(big->operands[k] == (k % 2 ? p1 : p0));
		CHECK_EQ_I64(count_uses(k % 2 ? p1 : p0, big, k), 1);
	}
	CHECK_EQ_I64(p0->nusers, 1 + (N + 1) / 2);
	CHECK_EQ_I64(p1->nusers, 1 + N / 2);
	CHECK(p0->users != p0->inline_users); /* spilled */
	CHECK(verifies(m));
	/* rewire a spilled slot and move every use of p1 to p0 */
	hilo_instr_set_operand(m, big, 3, p0);
	CHECK_EQ_I64(count_uses(p0, big, 3), 1);
	CHECK_EQ_I64(count_uses(p1, big, 3), 0);
	CHECK(verifies(m));
	hilo_instr_replace_all_uses(m, p1, p0);
	CHECK_EQ_I64(p1->nusers, 0);
	CHECK_EQ_I64(p0->nusers, 2 + N);
	for (uint32_t k = 0; k < N; k++)
		CHECK(big->operands[k] == p0 && count_uses(p0, big, k) == 1);
	CHECK(verifies(m));
	/* a module clone gets its own inline storage, not the source's */
	hilo_module *c = hilo_module_clone(m);
	if (CHECK(c)) {
		hilo_instr *ct = find(c->entry, "t"), *cb = find(c->entry, "big");
		CHECK(ct->operands == ct->inline_ops);
		CHECK(ct->operands[0] == find(c->entry, "p0"));
		CHECK_EQ_I64(cb->noperands, N);
		CHECK(cb->operands[N - 1] == find(c->entry, "p0"));
		CHECK(verifies(c));
		hilo_module_destroy(c);
	}
	hilo_instr_clear_operands(big);
	CHECK_EQ_I64(p0->nusers, 2);
	hilo_comp_remove(e, big);
	CHECK(verifies(m));
	hilo_module_destroy(m);
}

static const char *k_ctrl =
	"HloModule m, entry_computation_layout={(f32[2]{0})->f32[2]{0}}\n"
	"\n"
	"ENTRY main {\n"
	"  // the first parameter\n"
	"  p0 = f32[2]{0} parameter(0)\n"
	"  a = f32[2]{0} negate(p0)\n"
	"  b = f32[2]{0} abs(p0), control-predecessors={a}\n"
	"  c = f32[] constant(3)\n"
	"  ROOT d = f32[2]{0} add(a, b), control-predecessors={a, b}\n"
	"}\n";

static void test_cold_fields(void)
{
	hilo_module *m = parse(k_ctrl);
	if (!CHECK(m))
		return;
	hilo_comp *e = m->entry;
	hilo_instr *p0 = find(e, "p0"), *a = find(e, "a"), *b = find(e, "b"), *c = find(e, "c"),
		   *d = find(e, "d");
	CHECK(prints_as(m, k_ctrl));
	CHECK_STR(hilo_instr_comment(p0), "  // the first parameter\n");
	CHECK(hilo_instr_comment(a) == NULL);
	CHECK(c->cold == NULL); /* nothing cold: no record */
	CHECK_EQ_I64(hilo_instr_param_no(p0), 0);
	CHECK_EQ_I64(hilo_instr_param_no(a), -1);
	CHECK(hilo_instr_literal(c) && hilo_instr_literal(c)->nbytes == 4);
	CHECK(hilo_instr_literal(p0) == NULL);
	CHECK_EQ_I64(hilo_instr_nctrl_succs(a), 2);
	CHECK_EQ_I64(hilo_instr_nctrl_preds(d), 2);
	CHECK(hilo_instr_ctrl_preds(d)[0] == a && hilo_instr_ctrl_preds(d)[1] == b);
	CHECK(hilo_instr_ctrl_preds(b)[0] == a);
	CHECK(verifies(m));

	/* the clone has its own cold records, edges mapped into the clone */
	hilo_module *k = hilo_module_clone(m);
	if (CHECK(k)) {
		hilo_instr *kd = find(k->entry, "d"), *ka = find(k->entry, "a");
		CHECK(kd->cold && kd->cold != d->cold);
		CHECK_EQ_I64(hilo_instr_nctrl_preds(kd), 2);
		CHECK(hilo_instr_ctrl_preds(kd)[0] == ka);
		CHECK(hilo_instr_ctrl_succs(ka)[1] == kd);
		CHECK_STR(hilo_instr_comment(find(k->entry, "p0")), "  // the first parameter\n");
		CHECK_EQ_I64(hilo_instr_param_no(find(k->entry, "p0")), 0);
		CHECK(hilo_instr_literal(find(k->entry, "c")) != NULL);
		CHECK(prints_as(k, k_ctrl));
		hilo_module_destroy(k);
	}

	/* hilo_instr_clone copies neither control edges nor the comment, and
	 * keeps the union's member */
	hilo_instr *pc = hilo_instr_clone(m, p0, "p0c"), *cc = hilo_instr_clone(m, c, "cc");
	CHECK_EQ_I64(hilo_instr_param_no(pc), 0);
	CHECK(hilo_instr_literal(cc) == hilo_instr_literal(c));
	CHECK_EQ_I64(hilo_instr_nctrl_preds(hilo_instr_clone(m, d, "dc")), 0);

	/* removing b drops it from a's successors and d's predecessors */
	hilo_instr_replace_all_uses(m, b, a);
	hilo_comp_remove(e, b);
	CHECK_EQ_I64(hilo_instr_nctrl_succs(a), 1);
	CHECK(hilo_instr_ctrl_succs(a)[0] == d);
	CHECK_EQ_I64(hilo_instr_nctrl_preds(d), 1);
	CHECK(hilo_instr_ctrl_preds(d)[0] == a);
	CHECK(hilo_instr_attr(d, HILO_A_CONTROL_PREDECESSORS) != NULL);
	/* and dropping d's last one removes the attribute */
	hilo_instr_remove_ctrl_deps(d);
	CHECK_EQ_I64(hilo_instr_nctrl_preds(d), 0);
	CHECK_EQ_I64(hilo_instr_nctrl_succs(a), 0);
	CHECK(hilo_instr_attr(d, HILO_A_CONTROL_PREDECESSORS) == NULL);
	/* a new edge through the API creates the cold record and the attribute */
	hilo_instr_add_ctrl_pred(m, d, c);
	hilo_instr_add_ctrl_pred(m, d, c); /* no duplicate */
	CHECK(c->cold != NULL);
	CHECK_EQ_I64(hilo_instr_nctrl_preds(d), 1);
	CHECK(hilo_instr_ctrl_succs(c)[0] == d);
	CHECK(hilo_instr_attr(d, HILO_A_CONTROL_PREDECESSORS) != NULL);
	CHECK(verifies(m));
	hilo_module_destroy(m);
}

/* More attributes than the parser's stack array holds, and metadata. */
static void test_exact_attr_blocks(void)
{
	static const char *text =
		"HloModule m, entry_computation_layout={(f32[2]{0})->f32[2]{0}}\n"
		"\n"
		"ENTRY main {\n"
		"  p0 = f32[2]{0} parameter(0)\n"
		"  ROOT cc = f32[2]{0} custom-call(p0), custom_call_target=\"x\", k1=1, k2=2, k3=3, k4=4, "
		"k5=5, k6=6, k7=7, k8=8, k9=9, metadata={op_type=\"a\" op_name=\"b\" source_line=3}\n"
		"}\n";
	hilo_module *m = parse(text);
	if (!CHECK(m))
		return;
	hilo_instr *cc = find(m->entry, "cc"), *p0 = find(m->entry, "p0");
	CHECK_EQ_I64(cc->nattrs, 11);
	CHECK(cc->cap_attrs >= cc->nattrs);
	CHECK_EQ_I64(p0->nattrs, 0);
	CHECK(p0->attrs == NULL);
	CHECK_STR(hilo_instr_attr_named(cc, "k9")->v.text, "9");
	CHECK_EQ_I64(cc->metadata->n, 3);
	CHECK_STR(cc->metadata->e[2].value, "3");
	CHECK(prints_as(m, text));
	/* attributes added later still fit (set_attr grows the exact array) */
	hilo_instr_set_op_name(m, cc, "renamed");
	CHECK_STR(hilo_instr_op_name(m, cc), "renamed");
	CHECK(verifies(m));
	hilo_module_destroy(m);
}

static void test_strings_and_alignment(void)
{
	hilo_module *m = hilo_module_create("s");
	if (!CHECK(m))
		return;
	enum { N = 20000 }; /* past several rehashes of the 4096-slot table */
	const char **first = malloc(N * sizeof *first);
	char tmp[32];
	for (int k = 0; k < N; k++) {
		snprintf(tmp, sizeof tmp, "name.%d", k);
		first[k] = hilo_intern_cstr(m->strings, tmp);
	}
	bool same = true;
	for (int k = 0; k < N; k++) {
		snprintf(tmp, sizeof tmp, "name.%d", k);
		same &= hilo_intern_cstr(m->strings, tmp) == first[k] && strcmp(first[k], tmp) == 0;
	}
	CHECK(same);
	free(first);
	/* strings pack without padding; other blocks stay 8-byte aligned */
	char *s1 = hilo_arena_strdup(m->arena, "abc");
	char *s2 = hilo_arena_strdup(m->arena, "de");
	CHECK(s2 == s1 + 4);
	int64_t *v = hilo_arena_alloc(m->arena, 3 * sizeof *v);
	CHECK(((uintptr_t)v & 7) == 0);
	v[2] = 5;
	CHECK_STR(s1, "abc");
	hilo_module_destroy(m);
}

static const char *k_called =
	"HloModule m, entry_computation_layout={(f32[2]{0})->f32[]}\n"
	"\n"
	"add {\n"
	"  x = f32[] parameter(0)\n"
	"  y = f32[] parameter(1)\n"
	"  ROOT s = f32[] add(x, y)\n"
	"}\n"
	"\n"
	"ENTRY main {\n"
	"  p0 = f32[2]{0} parameter(0)\n"
	"  c = f32[] constant(0)\n"
	"  ROOT r = f32[] reduce(p0, c), dimensions={0}, to_apply=add\n"
	"}\n";

/* Called computations live in the cold record too. */
static void test_called(void)
{
	hilo_module *m = parse(k_called);
	if (!CHECK(m))
		return;
	hilo_comp *add = hilo_module_find_comp(m, "add");
	hilo_instr *r = find(m->entry, "r"), *c = find(m->entry, "c");
	CHECK(r->cold != NULL && c->cold == NULL);
	CHECK_EQ_I64(hilo_instr_ncalled(r), 1);
	CHECK(hilo_instr_called(r)[0] == add);
	CHECK_EQ_I64(hilo_instr_ncalled(c), 0);
	CHECK(hilo_instr_called(c) == NULL);
	CHECK(hilo_instr_get_comp(r, HILO_A_TO_APPLY) == add);
	hilo_instr *rc = hilo_instr_clone(m, r, "rc");
	CHECK(rc->cold && rc->cold != r->cold && hilo_instr_called(rc)[0] == add);
	hilo_module *k = hilo_module_clone(m);
	if (CHECK(k)) {
		hilo_instr *kr = find(k->entry, "r");
		CHECK_EQ_I64(hilo_instr_ncalled(kr), 1);
		CHECK(hilo_instr_called(kr)[0] == hilo_module_find_comp(k, "add"));
		CHECK(hilo_instr_called(kr)[0] != add);
		CHECK(prints_as(k, k_called));
		CHECK(verifies(k));
		hilo_module_destroy(k);
	}
	CHECK(prints_as(m, k_called));
	hilo_module_destroy(m);
}

int main(void)
{
	test_size_budget();
	test_inline_to_spilled();
	test_cold_fields();
	test_called();
	test_exact_attr_blocks();
	test_strings_and_alignment();
	return CHECK_DONE();
}
