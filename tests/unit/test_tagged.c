/* Unit tests for the validator's tagged evaluation (src/check/tagged.c,
 * docs/proof.md "Tagged evaluation"): records whose canonical terms differ
 * (transpose of a concatenate, interior padding, reverse, dynamic-slices of
 * a runtime index) are proved by "tagged", "tagged-terms" and
 * "tagged-enum"; wrong rewrites fail with both sides' tags decoded; what
 * the method must not claim (x + +0, differing arithmetic terms, an
 * enumerated index that reaches the result as data) falls through to
 * random testing.
 *
 * Each module holds the value `old` and its candidate replacements; the
 * "pass" sets operand `slot` of `user` to one candidate, so the validator
 * sees exactly one operand record. */
#include "check.h"

#include "hilo/check.h"
#include "hilo/hlo_text.h"

typedef struct got {
	char verdict[16], method[32], reason[1600];
	int n;
} got;

static void on_record(void *arg, const hilo_check_record *r)
{
	got *g = arg;
	if (!strcmp(r->method, "dead"))
		return;
	g->n++;
	snprintf(g->verdict, sizeof g->verdict, "%s", r->verdict);
	snprintf(g->method, sizeof g->method, "%s", r->method);
	snprintf(g->reason, sizeof g->reason, "%s", r->reason);
}

static hilo_instr *find(hilo_module *m, const char *name)
{
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (hilo_instr *i = m->comps[c]->first; i; i = i->next)
			if (!strcmp(i->name, name))
				return i;
	return NULL;
}

/* Replaces operand slot of user by instruction `by` (and, when user2 is
 * not NULL, operand slot2 of user2 by by2) and judges the pair. */
static got replace2(const char *text, const char *user, uint32_t slot, const char *by,
	const char *user2, uint32_t slot2, const char *by2)
{
	got g;
	memset(&g, 0, sizeof g);
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *before = hilo_parse_text(text, strlen(text), "t.hlo", &d);
	CHECK(before != NULL);
	if (!before) {
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
		return g;
	}
	hilo_module *after = hilo_module_clone(before);
	hilo_instr *u = find(after, user), *b = find(after, by);
	CHECK(u && b);
	if (u && b)
		hilo_instr_set_operand(after, u, slot, b);
	if (user2 && !strcmp(user2, "swapped")) {
		/* operand slot of user becomes a fresh copy of by2 with its two
		 * operands swapped */
		hilo_instr *src = find(after, by2);
		CHECK(u && src && src->noperands == 2);
		if (u && src && src->noperands == 2) {
			hilo_instr *n = hilo_instr_create(after, src->op, src->shape, NULL);
			hilo_instr_add_operand(after, n, src->operands[1]);
			hilo_instr_add_operand(after, n, src->operands[0]);
			hilo_comp_insert_before(after->entry, u, n);
			hilo_instr_set_operand(after, u, slot2, n);
		}
	} else if (user2 && !strcmp(user2, "clone")) {
		/* operand slot of user becomes a fresh clone of by2 (same operands) */
		hilo_instr *src = find(after, by2);
		CHECK(u && src);
		if (u && src) {
			hilo_instr *n = hilo_instr_clone(after, src, NULL);
			for (uint32_t q = 0; q < src->noperands; q++)
				hilo_instr_add_operand(after, n, src->operands[q]);
			hilo_comp_insert_before(after->entry, u, n);
			hilo_instr_set_operand(after, u, slot2, n);
		}
	} else if (user2) {
		u = find(after, user2);
		b = find(after, by2);
		CHECK(u && b);
		if (u && b)
			hilo_instr_set_operand(after, u, slot2, b);
	}
	CHECK(hilo_verify(after, "t.hlo", &d));
	hilo_validate_opts o = {.inputs = 3, .seed = 1, .on_record = on_record, .on_record_arg = &g};
	hilo_validator *v = hilo_validator_create(&o);
	CHECK(hilo_validate_pass(v, before, after, "unit-pass", NULL, &d, NULL));
	hilo_validate_summary s;
	hilo_validator_summary(v, &s);
	/* the summary counts tagged proofs apart from term proofs */
	CHECK_EQ_I64(s.by_tagged, !strcmp(g.verdict, "proved") && !strncmp(g.method, "tagged", 6));
	hilo_validator_destroy(v);
	hilo_diags_free(&d);
	hilo_module_destroy(before);
	hilo_module_destroy(after);
	CHECK_EQ_I64(g.n, 1);
	return g;
}

static got replace(const char *text, const char *user, uint32_t slot, const char *by)
{
	return replace2(text, user, slot, by, NULL, 0, NULL);
}

#define EXPECT(g, v, m) do { \
	CHECK_STR((g).verdict, (v)); \
	CHECK_STR((g).method, (m)); \
	if (strcmp((g).verdict, (v)) || strcmp((g).method, (m))) \
		fprintf(stderr, "  reason: %s\n", (g).reason); \
} while (0)

/* data movement the canonical terms do not normalise */
static const char *movement =
	"HloModule m\n"
	"ENTRY main {\n"
	"  a = f32[2,3] parameter(0)\n"
	"  b = f32[4,3] parameter(1)\n"
	"  x = f32[3] parameter(2)\n"
	"  c = f32[6,3] concatenate(a, b), dimensions={0}\n"
	"  old = f32[3,6] transpose(c), dimensions={1,0}\n"
	"  ta = f32[3,2] transpose(a), dimensions={1,0}\n"
	"  tb = f32[3,4] transpose(b), dimensions={1,0}\n"
	"  new = f32[3,6] concatenate(ta, tb), dimensions={1}\n"
	"  wc = f32[6,3] concatenate(b, a), dimensions={0}\n"
	"  wrong = f32[3,6] transpose(wc), dimensions={1,0}\n"
	"  z = f32[] constant(0)\n"
	"  p = f32[5] pad(x, z), padding=0_0_1\n"
	"  strided = f32[3] slice(p), slice={[0:5:2]}\n"
	"  gaps = f32[3] slice(p), slice={[1:4]}\n"
	"  rx = f32[3] reverse(x), dimensions={0}\n"
	"  rrx = f32[3] reverse(rx), dimensions={0}\n"
	"  ROOT r = (f32[3,6], f32[3]) tuple(old, strided)\n"
	"}\n";

/* elementwise arithmetic over moved data */
static const char *arith =
	"HloModule m\n"
	"ENTRY main {\n"
	"  a = f32[2,3] parameter(0)\n"
	"  b = f32[2,3] parameter(1)\n"
	"  s = f32[2,3] add(a, b)\n"
	"  old = f32[3,2] transpose(s), dimensions={1,0}\n"
	"  ta = f32[3,2] transpose(a), dimensions={1,0}\n"
	"  tb = f32[3,2] transpose(b), dimensions={1,0}\n"
	"  new = f32[3,2] add(ta, tb)\n"
	"  d = f32[2,3] subtract(a, b)\n"
	"  oldd = f32[3,2] transpose(d), dimensions={1,0}\n"
	"  wrongd = f32[3,2] subtract(tb, ta)\n"
	"  nz = f32[] constant(-0)\n"
	"  pz = f32[] constant(0)\n"
	"  bn = f32[3,2] broadcast(nz), dimensions={}\n"
	"  bp = f32[3,2] broadcast(pz), dimensions={}\n"
	"  an = f32[3,2] add(ta, bn)\n"
	"  ap = f32[3,2] add(ta, bp)\n"
	"  tan = f32[2,3] transpose(an), dimensions={1,0}\n"
	"  tap = f32[2,3] transpose(ap), dimensions={1,0}\n"
	"  e = f32[3,2] exponential(ta)\n"
	"  en = f32[3,2] add(e, bn)\n"
	"  ten = f32[2,3] transpose(en), dimensions={1,0}\n"
	"  te = f32[2,3] transpose(e), dimensions={1,0}\n"
	"  ROOT r = (f32[3,2], f32[3,2], f32[2,3], f32[2,3], f32[2,3]) tuple(old, oldd, tan, tap, ten)\n"
	"}\n";

/* a runtime index: dynamic-slices of a transposed transpose */
static const char *index_text =
	"HloModule m\n"
	"ENTRY main {\n"
	"  x = f32[4,4] parameter(0)\n"
	"  i = s32[] parameter(1)\n"
	"  z = s32[] constant(0)\n"
	"  t1 = f32[4,4] transpose(x), dimensions={1,0}\n"
	"  t2 = f32[4,4] transpose(t1), dimensions={1,0}\n"
	"  old = f32[1,4] dynamic-slice(t2, i, z), dynamic_slice_sizes={1,4}\n"
	"  new = f32[1,4] dynamic-slice(x, i, z), dynamic_slice_sizes={1,4}\n"
	"  wrong = f32[1,4] slice(x), slice={[0:1], [0:4]}\n"
	"  ROOT r = f32[1,4] negate(old)\n"
	"}\n";

/* the index reaches the result itself: enumerating its clamped range
 * (here the one value 0) says nothing about i = 5 */
static const char *index_as_data =
	"HloModule m\n"
	"ENTRY main {\n"
	"  y = f32[1,4] parameter(0)\n"
	"  i = s32[] parameter(1)\n"
	"  z = s32[] constant(0)\n"
	"  ds = f32[1,4] dynamic-slice(y, i, z), dynamic_slice_sizes={1,4}\n"
	"  old = (f32[1,4], s32[]) tuple(ds, i)\n"
	"  new = (f32[1,4], s32[]) tuple(y, z)\n"
	"  ROOT r = ((f32[1,4], s32[])) tuple(old)\n"
	"}\n";

/* float maximum keeps the lhs on a signed-zero tie (max(-0, +0) = -0,
 * max(+0, -0) = +0): swapping its operands is not an identity; for
 * integers it is */
static const char *maxima =
	"HloModule m\n"
	"ENTRY main {\n"
	"  x = f32[4] parameter(0)\n"
	"  y = f32[4] parameter(1)\n"
	"  i = s32[4] parameter(2)\n"
	"  j = s32[4] parameter(3)\n"
	"  m1 = f32[4] maximum(x, y)\n"
	"  tm = f32[2,2] reshape(m1)\n"
	"  rm = f32[4] reshape(tm)\n"
	"  n1 = s32[4] minimum(i, j)\n"
	"  ROOT r = (f32[4], s32[4]) tuple(rm, n1)\n"
	"}\n";

/* one scalar of a huge tuple parameter: only that element is tagged */
static const char *huge_tuple =
	"HloModule m\n"
	"ENTRY main {\n"
	"  p = (f32[100000000,100], s32[4]) parameter(0)\n"
	"  k = s32[4] get-tuple-element(p), index=1\n"
	"  rk = s32[4] reverse(k), dimensions={0}\n"
	"  ROOT r = s32[4] negate(rk)\n"
	"}\n";

/* 100 parameters concatenated: the leaf table grows, names decode */
static char *many_leaves(void)
{
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_buf_printf(&b, "HloModule m\nENTRY main {\n");
	for (int k = 0; k < 100; k++)
		hilo_buf_printf(&b, "  p%d = f32[2] parameter(%d)\n", k, k);
	hilo_buf_printf(&b, "  c = f32[200] concatenate(");
	for (int k = 0; k < 100; k++)
		hilo_buf_printf(&b, "%sp%d", k ? ", " : "", k);
	hilo_buf_printf(&b, "), dimensions={0}\n"
		"  rc = f32[200] reverse(c), dimensions={0}\n"
		"  old = f32[200] reverse(rc), dimensions={0}\n"
		"  ROOT r = f32[200] negate(old)\n}\n");
	char *t = strdup(hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	return t;
}

int main(void)
{
	got g = replace(movement, "r", 0, "new");
	EXPECT(g, "proved", "tagged");
	g = replace(movement, "r", 0, "wrong");
	EXPECT(g, "failed", "tagged");
	CHECK(strstr(g.reason, "output element [0,0]: before=a[0,0] after=b[0,0]") != NULL);
	g = replace(movement, "r", 1, "x");    /* strided slice of interior padding */
	EXPECT(g, "proved", "tagged");
	g = replace(movement, "r", 1, "rrx");  /* reverse of reverse */
	EXPECT(g, "proved", "tagged");
	g = replace(movement, "r", 1, "rx");
	EXPECT(g, "failed", "tagged");
	CHECK(strstr(g.reason, "output element [0]: before=x[0] after=x[2]") != NULL);
	g = replace(movement, "r", 1, "gaps"); /* the padding value shows */
	EXPECT(g, "failed", "tagged");
	CHECK(strstr(g.reason, "output element [0]: before=x[0] after=f32 constant 0") != NULL);

	g = replace(arith, "r", 0, "new");     /* add over transposes */
	EXPECT(g, "proved", "tagged-terms");
	g = replace(arith, "r", 1, "wrongd");  /* terms differ: no verdict, tested */
	EXPECT(g, "failed", "random");
	/* x + -0 is not x for a parameter: the add quiets a signalling NaN */
	g = replace(arith, "r", 2, "a");
	EXPECT(g, "failed", "random");
	CHECK(strstr(g.reason, "before=nan(0x400001) after=nan(0x1)") != NULL);
	g = replace(arith, "r", 4, "te");      /* ... but is for an arithmetic result */
	CHECK(!strcmp(g.verdict, "proved"));
	g = replace(arith, "r", 3, "a");       /* x + +0 is not x (-0 + +0 = +0; sNaN) */
	EXPECT(g, "failed", "random");

	g = replace(index_text, "r", 0, "new");
	EXPECT(g, "proved", "tagged-enum");
	CHECK(strstr(g.reason, "i in 0..3") != NULL);
	g = replace(index_text, "r", 0, "wrong");
	EXPECT(g, "failed", "tagged-enum");
	CHECK(strstr(g.reason, "before=x[1,0] after=x[0,0]") != NULL);
	CHECK(strstr(g.reason, "at i = 1") != NULL);

	g = replace(index_as_data, "r", 0, "new");
	CHECK(strcmp(g.verdict, "proved") != 0);
	CHECK_STR(g.method, "random");
	g = replace2(maxima, "r", 0, "rm", "swapped", 0, "m1");
	EXPECT(g, "failed", "random"); /* two NaNs of seed 2: the lhs one is kept */
	g = replace2(maxima, "r", 1, "n1", "swapped", 1, "n1");
	EXPECT(g, "proved", "term");
	/* rk (a shared leaf) replaced by a fresh get-tuple-element: judged
	 * again with parameters as leaves, p{1} alone tagged */
	g = replace2(huge_tuple, "r", 0, "rk", "clone", 0, "k");
	EXPECT(g, "failed", "tagged");
	CHECK(strstr(g.reason, "before=p{1}[3] after=p{1}[0]") != NULL);

	char *many = many_leaves();
	g = replace(many, "r", 0, "c");
	EXPECT(g, "proved", "tagged");
	g = replace(many, "r", 0, "rc");
	EXPECT(g, "failed", "tagged");
	CHECK(strstr(g.reason, "output element [0]: before=p0[0] after=p99[1]") != NULL);
	free(many);
	return CHECK_DONE();
}
