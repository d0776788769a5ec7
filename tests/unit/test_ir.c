/* IR unit tests: the opcode table, building and rewriting instructions
 * (use lists must stay exact: hilo_verify rebuilds them and compares),
 * removal, post-order walks, computation and module cloning, unique names.
 * With an argument (a folder of .hlo files) it also checks that
 * hilo_module_clone reproduces each file's printed form. */
#include "check.h"

#include <dirent.h>

static const char *k_module =
	"HloModule m, entry_computation_layout={(f32[4]{0}, f32[4]{0})->(f32[4]{0}, f32[])}\n"
	"\n"
	"add {\n"
	"  x = f32[] parameter(0)\n"
	"  y = f32[] parameter(1)\n"
	"  ROOT s = f32[] add(x, y)\n"
	"}\n"
	"\n"
	"ENTRY main {\n"
	"  p0 = f32[4]{0} parameter(0)\n"
	"  p1 = f32[4]{0} parameter(1)\n"
	"  a = f32[4]{0} add(p0, p1), metadata={op_type=\"add\" op_name=\"jit(f)/add\"}\n"
	"  m = f32[4]{0} multiply(a, a)\n"
	"  c = f32[] constant(0)\n"
	"  r = f32[] reduce(m, c), dimensions={0}, to_apply=add\n"
	"  ROOT t = (f32[4]{0}, f32[]) tuple(m, r)\n"
	"}\n";

static hilo_instr *find(hilo_comp *c, const char *name)
{
	for (hilo_instr *i = c->first; i; i = i->next)
		if (strcmp(i->name, name) == 0)
			return i;
	return NULL;
}

static int count_uses(const hilo_instr *def, const hilo_instr *user)
{
	int n = 0;
	for (uint32_t k = 0; k < def->nusers; k++)
		if (def->users[k].user == user)
			n++;
	return n;
}

static void test_opcodes(void)
{
	CHECK_EQ_I64(HILO_OP_COUNT, 134);
	for (int k = 0; k < HILO_OP_COUNT; k++) {
		const char *s = hilo_opcode_name((hilo_opcode)k);
		if (!CHECK(s && *s))
			continue;
		if (!CHECK_EQ_I64(hilo_opcode_lookup(s, strlen(s)), k))
			fprintf(stderr, "  opcode %s\n", s);
		/* rows in strict name order: the lookup binary-searches them */
		if (k > 0 && !CHECK(strcmp(hilo_opcode_name((hilo_opcode)(k - 1)), s) < 0))
			fprintf(stderr, "  opcodes.def out of name order at %s\n", s);
	}
	CHECK_EQ_I64(hilo_opcode_lookup("bogus", 5), HILO_OP_COUNT);
	CHECK_EQ_I64(hilo_opcode_lookup("add", 2), HILO_OP_COUNT); /* prefix only */
	CHECK_EQ_I64(hilo_opcode_lookup("", 0), HILO_OP_COUNT);
	CHECK_EQ_I64(hilo_opcode_lookup("add", 3), HILO_OP_ADD);
	CHECK_EQ_I64(hilo_opcode_lookup("dynamic-update-slice", 20), HILO_OP_DYNAMIC_UPDATE_SLICE);
	CHECK(hilo_opcode_flags(HILO_OP_ADD) & HILO_OPF_EW);
	CHECK(hilo_opcode_flags(HILO_OP_ALL_GATHER) & HILO_OPF_COLL);
	CHECK_EQ_I64(hilo_opcode_arity(HILO_OP_ADD), 2);
	CHECK_EQ_I64(hilo_opcode_arity(HILO_OP_NEGATE), 1);
	CHECK_EQ_I64(hilo_opcode_arity(HILO_OP_TUPLE), -1);
	/* the operand-count rule (verifier, proto reader, evaluator) */
	CHECK(hilo_opcode_operands_ok(HILO_OP_ADD, 2));
	CHECK(!hilo_opcode_operands_ok(HILO_OP_ADD, 3));
	CHECK(hilo_opcode_operands_ok(HILO_OP_TUPLE, 0));
	CHECK(hilo_opcode_operands_ok(HILO_OP_TUPLE, 7));
	CHECK(hilo_opcode_flags(HILO_OP_RNG_BIT_GENERATOR) & HILO_OPF_ANY_ARITY);
	CHECK(hilo_opcode_operands_ok(HILO_OP_RNG_BIT_GENERATOR, 2));
	CHECK(!hilo_opcode_operands_ok(HILO_OP_COUNT, 0));
	CHECK(hilo_opcode_flags(HILO_OP_CLAMP) & HILO_OPF_BOUNDS);
	/* the cost columns: XLA's HloCostAnalysis transcendentals (plus
	 * hilo's acos/asin/asinh/atanh/cosh/sinh, which XLA has no opcodes
	 * for) and the contractions, exactly */
	static const char *const trans[] = {"acos", "acosh", "asin", "asinh", "atan2", "atanh",
		"cbrt", "cosh", "cosine", "erf", "exponential", "exponential-minus-one", "log",
		"log-plus-one", "logistic", "power", "rsqrt", "sine", "sinh", "sqrt", "tan", "tanh"};
	size_t nt = 0, nd = 0;
	for (int op = 0; op < HILO_OP_COUNT; op++) {
		unsigned f = hilo_opcode_flags((hilo_opcode)op);
		if (f & HILO_OPF_TRANS) {
			CHECK(nt < sizeof trans / sizeof *trans &&
				!strcmp(hilo_opcode_name((hilo_opcode)op), trans[nt]));
			CHECK(f & HILO_OPF_EW);
			nt++;
		}
		nd += (f & HILO_OPF_DOTC) != 0;
	}
	CHECK_EQ_I64((int64_t)nt, (int64_t)(sizeof trans / sizeof *trans));
	CHECK_EQ_I64((int64_t)nd, 4);
	CHECK(hilo_opcode_flags(HILO_OP_DOT) & HILO_OPF_DOTC);
	CHECK(hilo_opcode_flags(HILO_OP_CONVOLUTION) & HILO_OPF_DOTC);
}

static void test_rewrite(void)
{
	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_comp *e = m->entry;
	CHECK(e && e->is_entry);
	hilo_instr *p0 = find(e, "p0"), *p1 = find(e, "p1"), *a = find(e, "a"),
	           *mul = find(e, "m"), *t = find(e, "t");
	CHECK(p0 && p1 && a && mul && t);
	CHECK(t == e->root && t->is_root);
	CHECK_EQ_I64(a->nusers, 2);
	CHECK_EQ_I64(count_uses(a, mul), 2);
	CHECK_STR(hilo_instr_op_name(m, a), "jit(f)/add");

	/* create: negate(p0) before a; fresh id, unique name */
	hilo_instr *neg = hilo_instr_create(m, HILO_OP_NEGATE, p0->shape, "a");
	CHECK(neg->name != a->name && strcmp(neg->name, "a") != 0);
	uint32_t maxid = 0;
	for (hilo_instr *i = e->first; i; i = i->next)
		if (i->id > maxid)
			maxid = i->id;
	CHECK(neg->id > maxid);
	hilo_instr_add_operand(m, neg, p0);
	hilo_comp_insert_before(e, a, neg);
	CHECK(check_verifies(m));

	/* replace_all_uses moves both uses of a (slots 0 and 1 of m) */
	hilo_instr_replace_all_uses(m, a, neg);
	CHECK_EQ_I64(a->nusers, 0);
	CHECK_EQ_I64(neg->nusers, 2);
	CHECK(mul->operands[0] == neg && mul->operands[1] == neg);
	CHECK(check_verifies(m));

	/* set_operand: one slot only */
	hilo_instr_set_operand(m, mul, 1, p1);
	CHECK_EQ_I64(neg->nusers, 1);
	CHECK_EQ_I64(count_uses(p1, mul), 1);
	CHECK_EQ_I64(neg->users[0].slot, 0);
	CHECK(check_verifies(m));

	/* remove the now-dead add: its operands lose their uses */
	uint32_t n_before = e->ninstrs, p0_uses = p0->nusers;
	hilo_comp_remove(e, a);
	CHECK_EQ_I64(e->ninstrs, n_before - 1);
	CHECK_EQ_I64(p0->nusers, p0_uses - 1);
	CHECK(find(e, "a") == NULL);
	CHECK(check_verifies(m));

	/* replacing the root moves the root */
	hilo_instr *t2 = hilo_instr_clone(m, t, NULL);
	CHECK(t2->id != t->id && t2->name != t->name);
	for (uint32_t k = 0; k < t->noperands; k++)
		hilo_instr_add_operand(m, t2, t->operands[k]);
	hilo_comp_append(e, t2);
	hilo_instr_replace_all_uses(m, t, t2);
	CHECK(e->root == t2 && t2->is_root && !t->is_root);
	hilo_comp_remove(e, t);
	CHECK(check_verifies(m));

	/* post order: every operand before its user, every instruction once */
	uint32_t n = 0;
	hilo_instr **po = hilo_comp_post_order(m, e, &n);
	CHECK_EQ_I64(n, e->ninstrs);
	for (uint32_t k = 0; k < n; k++)
		po[k]->mark = 1000 + k;
	for (uint32_t k = 0; k < n; k++)
		for (uint32_t o = 0; o < po[k]->noperands; o++)
			CHECK(po[k]->operands[o]->mark < po[k]->mark);
	CHECK(po[n - 1] == e->root);

	/* attributes: set inserts in canonical order, get reads back */
	hilo_instr *r = find(e, "r");
	int nd = 0;
	const int64_t *dims = hilo_instr_get_ints(r, HILO_A_DIMENSIONS, &nd);
	CHECK(dims && nd == 1 && dims[0] == 0);
	hilo_comp *add = hilo_instr_get_comp(r, HILO_A_TO_APPLY);
	CHECK(add && strcmp(add->name, "add") == 0);
	hilo_attr *ch = hilo_instr_set_attr(m, r, HILO_A_CHANNEL_ID, HILO_ATTR_INT);
	ch->v.i = 7;
	int64_t v = 0;
	CHECK(hilo_instr_get_int(r, HILO_A_CHANNEL_ID, &v) && v == 7);
	CHECK(strcmp(r->attrs[r->nattrs - 1].key, "to_apply") == 0); /* op attrs first */
	hilo_instr_remove_attr(r, HILO_A_CHANNEL_ID);
	CHECK(hilo_instr_attr(r, HILO_A_CHANNEL_ID) == NULL);
	hilo_instr_set_op_name(m, neg, "my/\"neg\"");
	CHECK_STR(hilo_instr_op_name(m, neg), "my/\"neg\"");
	CHECK(check_verifies(m));

	/* the rewritten module prints and parses back to the same text */
	char *s1 = check_print(m, HILO_STYLE_DEFAULT);
	hilo_module *m2 = check_parse(s1);
	CHECK(m2);
	if (m2) {
		char *s2 = check_print(m2, HILO_STYLE_DEFAULT);
		CHECK_STR(s2, s1);
		free(s2);
		hilo_module_destroy(m2);
	}
	free(s1);
	hilo_module_destroy(m);
}

static void test_broken_use_list_detected(void)
{
	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_instr *mul = find(m->entry, "m"), *p0 = find(m->entry, "p0");
	hilo_instr *saved = mul->operands[0];
	mul->operands[0] = p0; /* bypass the setter: use lists are now wrong */
	hilo_diags d;
	hilo_diags_init(&d);
	CHECK(!hilo_verify(m, "test.hlo", &d));
	CHECK(d.nerrors > 0);
	hilo_diags_free(&d);
	mul->operands[0] = saved;
	CHECK(check_verifies(m));
	hilo_module_destroy(m);
}

static void test_comp_clone(void)
{
	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_comp *add = hilo_module_find_comp(m, "add");
	CHECK(add);
	hilo_comp *c = hilo_comp_clone(m, add, "add.clone");
	CHECK_STR(c->name, "add.clone");
	CHECK_EQ_I64(c->ninstrs, add->ninstrs);
	CHECK_EQ_I64(c->nparams, 2);
	CHECK(c->root && c->root->op == HILO_OP_ADD);
	CHECK(c->root->operands[0] == c->params[0] && c->root->operands[1] == c->params[1]);
	for (hilo_instr *i = c->first; i; i = i->next) {
		CHECK(i->parent == c);
		for (hilo_instr *j = add->first; j; j = j->next)
			CHECK(i->name != j->name && i->id != j->id);
	}
	hilo_module_add_comp(m, c, m->entry);
	hilo_instr *r = find(m->entry, "r");
	hilo_instr_called(r)[0] = c; /* retarget the reduce at the clone */
	CHECK(check_verifies(m));
	uint32_t n = 0;
	hilo_comp **po = hilo_module_comp_post_order(m, &n);
	CHECK_EQ_I64(n, 3);
	CHECK(po[n - 1] == m->entry);
	hilo_module_destroy(m);
}

/* Unique names: derived from a base, never reused, numeric suffix replaced. */
static void test_unique_names(void)
{
	hilo_module *m = hilo_module_create("u");
	const char *a = hilo_module_unique_name(m, "add");
	const char *b = hilo_module_unique_name(m, "add");
	const char *c = hilo_module_unique_name(m, "add.3");
	const char *d = hilo_module_unique_name(m, "add.3");
	CHECK_STR(a, "add");
	CHECK(b != a && strncmp(b, "add.", 4) == 0);
	CHECK_STR(c, "add.3");
	CHECK(d != c && strncmp(d, "add.", 4) == 0 && d != b);
	for (int k = 0; k < 1000; k++) {
		const char *x = hilo_module_unique_name(m, "x");
		CHECK(x);
		if (k == 0)
			CHECK_STR(x, "x");
	}
	hilo_module_destroy(m);
}

/* Module clone: same printed text, ids, names; independent of the source. */
static bool clone_matches(hilo_module *m, const char *label)
{
	hilo_module *c = hilo_module_clone(m);
	if (!CHECK(c))
		return false;
	bool ok = true;
	char *s1 = check_print(m, HILO_STYLE_AUTO);
	/* destroy-order check: edit the source, the clone must not change */
	for (uint32_t k = 0; k < m->ncomps; k++)
		m->comps[k]->name = "clobbered";
	hilo_module_destroy(m);
	ok &= CHECK(check_verifies(c));
	char *s2 = check_print(c, HILO_STYLE_AUTO);
	if (!CHECK_STR(s2, s1)) {
		fprintf(stderr, "  clone differs: %s\n", label);
		ok = false;
	}
	free(s1);
	free(s2);
	hilo_module_destroy(c);
	return ok;
}

static void test_module_clone(void)
{
	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_module *c = hilo_module_clone(m);
	CHECK(c && c->arena != m->arena);
	CHECK_EQ_I64(c->ncomps, m->ncomps);
	CHECK_EQ_I64(c->next_id, m->next_id);
	CHECK(c->entry && c->entry != m->entry && strcmp(c->entry->name, m->entry->name) == 0);
	for (uint32_t k = 0; k < m->ncomps; k++) {
		hilo_instr *i = m->comps[k]->first, *j = c->comps[k]->first;
		for (; i && j; i = i->next, j = j->next) {
			CHECK(i != j && i->id == j->id && strcmp(i->name, j->name) == 0);
			CHECK(j->parent == c->comps[k]);
			CHECK(i->shape != j->shape && hilo_shape_equal(i->shape, j->shape));
			for (uint32_t o = 0; o < j->noperands; o++)
				CHECK(j->operands[o]->parent == c->comps[k]);
			for (uint32_t o = 0; o < hilo_instr_ncalled(j); o++)
				CHECK(hilo_instr_called(j)[o]->parent == c);
		}
		CHECK(!i && !j);
	}
	/* editing the clone leaves the source alone */
	hilo_instr *cm = find(c->entry, "m");
	hilo_instr_set_operand(c, cm, 0, find(c->entry, "p0"));
	CHECK(find(m->entry, "m")->operands[0] == find(m->entry, "a"));
	CHECK(check_verifies(m));
	CHECK(check_verifies(c));
	/* fresh names in the clone avoid every cloned name */
	const char *nm = hilo_module_unique_name(c, "p0");
	CHECK(strcmp(nm, "p0") != 0);
	hilo_module_destroy(c);
	clone_matches(m, "k_module");

	static const char *const more[] = {
		/* control edges, tuple literal, elided constant, while loop */
		"HloModule w\n\n"
		"cond {\n  p = (s32[], f32[2]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
		"  n = s32[] constant(4)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n\n"
		"body {\n  p = (s32[], f32[2]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
		"  one = s32[] constant(1)\n  i2 = s32[] add(i, one)\n  x = f32[2] get-tuple-element(p), index=1\n"
		"  ROOT t = (s32[], f32[2]) tuple(i2, x), control-predecessors={x}\n}\n\n"
		"ENTRY e {\n  z = s32[] constant(0)\n  v = f32[2] constant({1.5, -0})\n"
		"  big = f32[3,3] constant({...})\n"
		"  init = (s32[], f32[2]) tuple(z, v)\n"
		"  ROOT w = (s32[], f32[2]) while(init), condition=cond, body=body\n}\n",
		NULL,
	};
	for (int k = 0; more[k]; k++) {
		hilo_module *x = check_parse(more[k]);
		if (CHECK(x))
			clone_matches(x, "inline module");
	}
}

static int clone_corpus(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "no corpus folder %s: skipped\n", dir);
		return 77;
	}
	struct dirent *de;
	int nfiles = 0;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l < 5 || strcmp(de->d_name + l - 4, ".hlo") != 0)
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		hilo_diags dg;
		hilo_diags_init(&dg);
		size_t len;
		char *text = hilo_read_file(path, &len, &dg);
		hilo_module *m = text ? hilo_parse_text(text, len, path, &dg) : NULL;
		if (m) {
			nfiles++;
			clone_matches(m, path);
		}
		hilo_diags_free(&dg);
		free(text);
	}
	closedir(d);
	fprintf(stderr, "cloned %d corpus modules\n", nfiles);
	return CHECK_DONE();
}

static void test_attr_table(void)
{
	/* rows in strict key order (binary search); every key looks up to its id */
	for (int k = 0; k < HILO_A_COUNT; k++) {
		const char *key = hilo_attr_id_key((hilo_attr_id)k);
		if (k > 0 && !CHECK(strcmp(hilo_attr_id_key((hilo_attr_id)(k - 1)), key) < 0))
			fprintf(stderr, "  attrs.def out of key order at %s\n", key);
		if (!CHECK_EQ_I64(hilo_attr_lookup(key, strlen(key)), k))
			fprintf(stderr, "  attribute %s\n", key);
	}
	CHECK_EQ_I64(hilo_attr_lookup("dimension", 9), HILO_A_UNKNOWN); /* prefix only */
	CHECK_EQ_I64(hilo_attr_lookup("dimensionsx", 11), HILO_A_UNKNOWN);
	CHECK_EQ_I64(hilo_attr_lookup("dimensions", 10), HILO_A_DIMENSIONS);
	CHECK_EQ_I64(hilo_attr_lookup("control-predecessors", 20), HILO_A_CONTROL_PREDECESSORS);
	CHECK_EQ_I64(hilo_attr_id_kind(HILO_A_DIMENSIONS), HILO_ATTR_INTS);
	CHECK_EQ_I64(hilo_attr_id_kind(HILO_A_TO_APPLY), HILO_ATTR_COMP);
	CHECK_EQ_I64(hilo_attr_id_kind(HILO_A_UNKNOWN), HILO_ATTR_RAW);
	CHECK(hilo_attr_id_rank(HILO_A_METADATA) > hilo_attr_id_rank(HILO_A_SHARDING));
	CHECK(hilo_attr_id_rank(HILO_A_BACKEND_CONFIG) > hilo_attr_id_rank(HILO_A_METADATA));
	CHECK(hilo_attr_id_flags(HILO_A_SHARDING) & HILO_AF_NOSEM);
	CHECK(!(hilo_attr_id_flags(HILO_A_BACKEND_CONFIG) & HILO_AF_NOSEM));

	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_instr *r = find(m->entry, "r");
	/* unknown keys keep their text, are found by name, never by id */
	hilo_attr *u = hilo_instr_set_attr_named(m, r, "my_attr", HILO_ATTR_RAW);
	u->v.text = "{1}";
	CHECK_EQ_I64(u->id, HILO_A_UNKNOWN);
	CHECK(hilo_instr_attr_named(r, "my_attr") == u);
	CHECK(hilo_instr_attr(r, HILO_A_UNKNOWN) == NULL);
	CHECK(hilo_instr_attr_named(r, "dimensions") == hilo_instr_attr(r, HILO_A_DIMENSIONS));
	CHECK(!hilo_attr_is_semantic(hilo_instr_set_attr(m, r, HILO_A_SHARDING, HILO_ATTR_RAW)));
	hilo_instr_attr(r, HILO_A_SHARDING)->v.text = "{replicated}";
	CHECK(hilo_attr_is_semantic(hilo_instr_attr(r, HILO_A_DIMENSIONS)));
	/* print rank: sharding after to_apply, backend_config last */
	hilo_instr_set_attr(m, r, HILO_A_BACKEND_CONFIG, HILO_ATTR_RAW)->v.text = "{}";
	CHECK_EQ_I64(r->attrs[r->nattrs - 1].id, HILO_A_BACKEND_CONFIG);
	CHECK_EQ_I64(r->attrs[r->nattrs - 2].id, HILO_A_SHARDING);
	CHECK(check_verifies(m));
	/* the verifier holds set attributes to the table's kind */
	hilo_attr *d = hilo_instr_attr(r, HILO_A_DIMENSIONS);
	d->kind = HILO_ATTR_INT;
	hilo_diags dg;
	hilo_diags_init(&dg);
	CHECK(!hilo_verify(m, "test.hlo", &dg));
	CHECK(dg.nerrors > 0);
	hilo_diags_free(&dg);
	d->kind = HILO_ATTR_INTS;
	/* and computation references to the called list */
	hilo_attr *ta = hilo_instr_attr(r, HILO_A_TO_APPLY);
	ta->v.i = 5;
	hilo_diags_init(&dg);
	CHECK(!hilo_verify(m, "test.hlo", &dg));
	hilo_diags_free(&dg);
	ta->v.i = 0;
	CHECK(check_verifies(m));
	hilo_module_destroy(m);
}

static void test_const_int(void)
{
	static const char *text =
		"HloModule k\n\nENTRY main {\n"
		"  a = s32[] constant(-5)\n"
		"  b = u8[2]{0} constant({7, 250})\n"
		"  c = f32[] constant(1)\n"
		"  d = pred[] constant(true)\n"
		"  e = s32[3]{0} constant({...})\n"
		"  f = s32[] parameter(0)\n"
		"  ROOT t = (s32[], u8[2]{0}, f32[], pred[], s32[3]{0}, s32[]) tuple(a, b, c, d, e, f)\n"
		"}\n";
	hilo_module *m = check_parse(text);
	if (!CHECK(m))
		return;
	hilo_comp *e = m->entry;
	int64_t v = 0;
	CHECK(hilo_instr_const_int_at(find(e, "a"), 0, &v) && v == -5);
	CHECK(!hilo_instr_const_int_at(find(e, "a"), 1, &v));  /* out of range */
	CHECK(hilo_instr_const_int_at(find(e, "b"), 1, &v) && v == 250);
	CHECK(!hilo_instr_const_int_at(find(e, "b"), 2, &v));
	CHECK(!hilo_instr_const_int_at(find(e, "c"), 0, &v));  /* float */
	CHECK(hilo_instr_const_int_at(find(e, "d"), 0, &v) && v == 1);
	CHECK(!hilo_instr_const_int_at(find(e, "e"), 0, &v));  /* elided */
	CHECK(!hilo_instr_const_int_at(find(e, "f"), 0, &v));  /* not a constant */
	CHECK(!hilo_instr_const_int_at(NULL, 0, &v));
	CHECK(hilo_literal_int_at(hilo_instr_literal(find(e, "b")), 0, &v) && v == 7);
	hilo_module_destroy(m);
}

static bool odd_name(const hilo_comp *c, void *ud)
{
	(void)ud;
	size_t n = strlen(c->name);
	return ((c->name[n - 1] - '0') & 1) != 0;
}

/* hilo_module_retain_comps (dce's one-pass removal of unreachable
 * computations): the rejected ones go, the rest keep their order. */
static void test_retain_comps(void)
{
	hilo_module *m = hilo_module_create("r");
	char name[16];
	for (int k = 0; k < 10; k++) {
		snprintf(name, sizeof name, "c%d", k);
		hilo_module_add_comp(m, hilo_comp_create(m, name), NULL);
	}
	hilo_module_retain_comps(m, odd_name, NULL);
	CHECK_EQ_I64(m->ncomps, 5);
	for (uint32_t k = 0; k < m->ncomps; k++) {
		snprintf(name, sizeof name, "c%u", 2 * k + 1);
		CHECK_STR(m->comps[k]->name, name);
	}
	CHECK(hilo_module_find_comp(m, "c4") == NULL);
	hilo_module_destroy(m);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return clone_corpus(argv[1]);
	test_opcodes();
	test_attr_table();
	test_const_int();
	test_rewrite();
	test_broken_use_list_detected();
	test_comp_clone();
	test_unique_names();
	test_module_clone();
	test_retain_comps();
	return CHECK_DONE();
}
