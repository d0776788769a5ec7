/* The fast paths of the module walks keep their results: the verifier's
 * one-walk check (src/ir/verify.c verify_fast) accepts exactly what the
 * full check accepts and a rejected module gets the full check's
 * diagnostics; hilo_comp_post_order's list-order shortcut gives the DFS
 * order, and a list that is not already a post order still gets the DFS;
 * hilo_module_comp_post_order_calls keeps the computation order and hands
 * on every caller once.
 * Each broken module below is rejected with the first diagnostic the
 * full check writes for it. */
#include "check.h"

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
	"  a = f32[4]{0} add(p0, p1)\n"
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

/* hilo_verify's verdict; *first gets a copy of the first error (or ""). */
static bool verify_first(hilo_module *m, char *first, size_t cap)
{
	hilo_diags d;
	hilo_diags_init(&d);
	bool ok = hilo_verify(m, "t.hlo", &d);
	first[0] = 0;
	for (size_t k = 0; k < d.n; k++)
		if (d.items[k].sev == HILO_SEV_ERROR) {
			snprintf(first, cap, "%s", d.items[k].msg);
			break;
		}
	if (ok != (d.nerrors == 0))
		first[0] = '!'; /* verdict and diagnostics disagree */
	hilo_diags_free(&d);
	return ok;
}

static void expect_rejected(hilo_module *m, const char *want, const char *what)
{
	char first[600];
	if (!CHECK(!verify_first(m, first, sizeof first)) || !CHECK_STR(first, want))
		fprintf(stderr, "  case: %s\n", what);
}

static void expect_accepted(hilo_module *m, const char *what)
{
	char first[600];
	if (!CHECK(verify_first(m, first, sizeof first)) || !CHECK_STR(first, ""))
		fprintf(stderr, "  case: %s\n", what);
}

/* Unlinks i from c's list and puts it back after `after` (no use-list
 * change: only the order moves). */
static void relink_after(hilo_comp *c, hilo_instr *i, hilo_instr *after)
{
	if (i->prev)
		i->prev->next = i->next;
	else
		c->first = i->next;
	if (i->next)
		i->next->prev = i->prev;
	else
		c->last = i->prev;
	i->prev = after;
	i->next = after->next;
	if (after->next)
		after->next->prev = i;
	else
		c->last = i;
	after->next = i;
}

static void test_verify_paths(void)
{
	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_comp *e = m->entry;
	hilo_instr *p0 = find(e, "p0"), *a = find(e, "a"), *mul = find(e, "m"), *t = find(e, "t");
	hilo_instr *c = find(e, "c"), *r = find(e, "r");
	expect_accepted(m, "parsed module");

	/* an operand written past the setter: the use lists are stale */
	mul->operands[0] = p0;
	expect_rejected(m, "instruction 'a' in computation 'main': use list entry 0 is stale",
		"operand bypassing the setter");
	mul->operands[0] = a;
	expect_accepted(m, "operand restored");

	/* a use entry twice: every entry is a real edge, the count is not */
	hilo_instr_add_operand(m, t, c);
	hilo_use extra = c->users[c->nusers - 1];
	t->noperands--; /* drop the edge, keep the duplicate-looking entry */
	c->users[c->nusers - 1] = c->users[0];
	expect_rejected(m, "instruction 'c' in computation 'main': use list has 2 entries but 1 operand edges name it",
		"duplicated use entry");
	c->users[c->nusers - 1] = extra;
	c->nusers--;
	expect_accepted(m, "use entry removed");

	/* an operand defined after its user */
	relink_after(e, a, mul);
	expect_rejected(m, "instruction 'm' in computation 'main': operand 0 'a' is used before it is defined",
		"forward operand");
	relink_after(e, a, find(e, "p1"));
	expect_accepted(m, "order restored");

	/* ids are not the verifier's business: repeated or out of range, a
	 * valid module stays valid (the fast walk hands it to the full check) */
	uint32_t id_a = a->id, id_m = mul->id;
	mul->id = id_a;
	expect_accepted(m, "repeated id");
	/* and an error next to a repeated id is still found */
	mul->operands[0] = p0;
	expect_rejected(m, "instruction 'a' in computation 'main': use list entry 0 is stale",
		"stale use list beside a repeated id");
	mul->operands[0] = a;
	mul->id = m->next_id + 7;
	expect_accepted(m, "id out of range");
	mul->id = id_m;

	/* an operand from another computation */
	hilo_comp *add = hilo_instr_get_comp(r, HILO_A_TO_APPLY);
	hilo_instr *x = add->params[0];
	hilo_instr *saved = r->operands[1];
	r->operands[1] = x;
	expect_rejected(m, "instruction 'c' in computation 'main': use list entry 0 is stale",
		"operand of another computation");
	r->operands[1] = saved;
	expect_accepted(m, "operand restored");

	/* the instruction count, and a second root */
	e->ninstrs++;
	expect_rejected(m, "computation 'main': instruction count 8 does not match the list (7)", "count");
	e->ninstrs--;
	a->is_root = true;
	expect_rejected(m, "computation 'main': has 2 instructions marked ROOT", "two roots");
	a->is_root = false;

	/* a shape rule (check_shapes runs in both walks) */
	hilo_attr *dims = hilo_instr_attr(r, HILO_A_DIMENSIONS);
	int64_t d0 = dims->v.ints[0];
	dims->v.ints[0] = 3;
	expect_accepted(m, "reduce dimensions are not a checked rule");
	dims->v.ints[0] = d0;
	hilo_shape *sa = a->shape;
	a->shape = c->shape;
	expect_rejected(m, "instruction 'a' in computation 'main': elementwise operand 0 f32[4]{0} does not match result f32[]",
		"elementwise shape");
	a->shape = sa;
	expect_accepted(m, "shape restored");
	hilo_module_destroy(m);
}

static void expect_order(hilo_module *m, hilo_comp *c, const char *const *want, uint32_t nwant, const char *what)
{
	uint32_t n = 0;
	hilo_instr **po = hilo_comp_post_order(m, c, &n);
	bool ok = CHECK_EQ_I64(n, nwant);
	for (uint32_t k = 0; ok && k < n; k++)
		ok = CHECK_STR(po[k]->name, want[k]);
	if (!ok)
		fprintf(stderr, "  case: %s\n", what);
}

static void test_post_order_paths(void)
{
	hilo_module *m = check_parse(k_module);
	if (!CHECK(m))
		return;
	hilo_comp *e = m->entry;
	/* list order is a post order: the list itself */
	static const char *const listed[] = {"p0", "p1", "a", "m", "c", "r", "t"};
	expect_order(m, e, listed, 7, "list order");
	for (hilo_instr *i = e->first; i; i = i->next)
		CHECK_EQ_I64(i->mark, 1);

	/* constant c moved to the front, a after m (m's operand comes later):
	 * the DFS from the roots in list order */
	hilo_instr *a = find(e, "a"), *mul = find(e, "m"), *c = find(e, "c");
	relink_after(e, a, mul);
	/* list: p0 p1 m a c r t -> DFS from p0, p1, then m pulls a */
	static const char *const dfs[] = {"p0", "p1", "a", "m", "c", "r", "t"};
	expect_order(m, e, dfs, 7, "forward operand");
	relink_after(e, c, e->first);
	/* list: p0 c p1 m a r t */
	static const char *const dfs2[] = {"p0", "c", "p1", "a", "m", "r", "t"};
	expect_order(m, e, dfs2, 7, "constant moved");
	relink_after(e, a, find(e, "p1"));
	/* list: p0 c p1 a m r t is a post order again */
	static const char *const listed2[] = {"p0", "c", "p1", "a", "m", "r", "t"};
	expect_order(m, e, listed2, 7, "restored");

	/* a control predecessor later in the list: the DFS visits it first */
	hilo_instr *r = find(e, "r");
	hilo_instr_add_ctrl_pred(m, a, r);
	/* from p0, c, p1, then a: ctrl pred r needs m, which needs a (on the
	 * stack): m is emitted, then r, then a */
	static const char *const ctrl[] = {"p0", "c", "p1", "m", "r", "a", "t"};
	expect_order(m, e, ctrl, 7, "forward control predecessor");
	hilo_module_destroy(m);
}

static const char *k_calls =
	"HloModule m\n"
	"\n"
	"leaf {\n"
	"  x = f32[] parameter(0)\n"
	"  ROOT n = f32[] negate(x)\n"
	"}\n"
	"\n"
	"mid {\n"
	"  y = f32[] parameter(0)\n"
	"  a = f32[] call(y), to_apply=leaf\n"
	"  ROOT b = f32[] call(a), to_apply=leaf\n"
	"}\n"
	"\n"
	"ENTRY main {\n"
	"  p = f32[] parameter(0)\n"
	"  q = f32[] negate(p)\n"
	"  c = f32[] call(q), to_apply=mid\n"
	"  ROOT d = f32[] call(c), to_apply=leaf\n"
	"}\n";

static void collect(hilo_instr *i, void *ud)
{
	hilo_buf *b = ud;
	hilo_buf_printf(b, "%s,", i->name);
}

/* hilo_module_comp_post_order_calls: the order of the plain call, and
 * every caller of the module handed on exactly once. */
static void test_comp_post_order_calls(void)
{
	hilo_module *m = check_parse(k_calls);
	if (!CHECK(m))
		return;
	/* module order leaf, main, mid: a caller before its callee */
	if (!CHECK_EQ_I64(m->ncomps, 3)) {
		hilo_module_destroy(m);
		return;
	}
	hilo_comp *mid = m->comps[1];
	m->comps[1] = m->comps[2];
	m->comps[2] = mid;
	uint32_t n1 = 0, n2 = 0;
	hilo_comp **o1 = hilo_module_comp_post_order(m, &n1);
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_comp **o2 = hilo_module_comp_post_order_calls(m, &n2, collect, &b);
	CHECK_EQ_I64(n1, 3);
	CHECK_EQ_I64(n2, n1);
	for (uint32_t k = 0; k < n1 && k < n2; k++)
		CHECK(o1[k] == o2[k]);
	CHECK_STR(n1 == 3 ? o1[0]->name : "", "leaf");
	CHECK_STR(n1 == 3 ? o1[1]->name : "", "mid");
	CHECK_STR(n1 == 3 ? o1[2]->name : "", "main");
	/* roots in module order (leaf, main, mid): main's c leads into mid
	 * (a, b) before main's d; mid is not walked a second time */
	hilo_buf_putc(&b, 0);
	CHECK_STR(b.data, "c,a,b,d,");
	hilo_buf_free(&b);
	hilo_module_destroy(m);
}

int main(void)
{
	test_verify_paths();
	test_post_order_paths();
	test_comp_post_order_calls();
	return CHECK_DONE();
}
