/* Random index expressions through neuron-dus-ds-index-simplifier (issue
 * 12, "keep a generator for index expressions"), with a fixed seed.
 *
 * Each generated module has a call body whose two dynamic-slice starts are
 * random integer trees (add, subtract, multiply, divide, remainder,
 * negate, abs, not, clamp, min, max, the three shifts, and, or, xor,
 * select over compares, convert, popcnt, count-leading-zeros) over
 * constants (edge values included) and body parameters, in every integer
 * width and sign. The call operands are constants or runtime entry
 * parameters; some modules call the body twice with different operands;
 * some DSes carry stale input tokens. The body returns the starts, so the
 * evaluator gives their value on every execution.
 *
 * After the simplifier runs (with a run state, as in the driver), for
 * every dynamic-slice:
 *   - the dsidxnow= tokens are exactly the proven starts (or absent when
 *     nothing is proven: stale input tokens removed);
 *   - a proven start equals the evaluator's value of the start operands,
 *     clamped, in every call context, on several random inputs;
 *   - a start built from constants only (one call) is proven;
 * and the module still computes what it computed (equivalence check). */
#include "check.h"

#include "hilo/eval.h"
#include "hilo/float.h"
#include "hilo/pass.h"
#include "hilo/tokens.h"

#include <stdarg.h>

typedef struct rng {
	uint64_t s;
} rng;

static uint64_t next(rng *r)
{
	uint64_t x = (r->s += 0x9e3779b97f4a7c15ull);
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static int below(rng *r, int n)
{
	return (int)(next(r) % (uint64_t)n);
}

typedef struct itype {
	const char *name;
	int bits;
	bool sign;
} itype;

static const itype types[] = {
	{"s8", 8, true}, {"s16", 16, true}, {"s32", 32, true}, {"s64", 64, true},
	{"u8", 8, false}, {"u16", 16, false}, {"u32", 32, false}, {"u64", 64, false},
};
enum { NTYPES = 8, MAX_PARAMS = 6 };

typedef struct gen {
	rng r;
	hilo_buf body;       /* body instructions */
	int nvals;           /* next value number */
	int nparams;
	int ptype[MAX_PARAMS];
	bool param_runtime[MAX_PARAMS];
	bool any_runtime;    /* the current tree reads a runtime parameter */
} gen;

static void emit(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(gen *g, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	hilo_buf_puts(&g->body, line);
}

/* A constant of type t as HLO text: small values, edges and random bits. */
static void const_text(gen *g, int t, char *out, size_t n)
{
	const itype *ty = &types[t];
	uint64_t mask = ty->bits == 64 ? ~0ull : (1ull << ty->bits) - 1;
	uint64_t u;
	switch (below(&g->r, 6)) {
	case 0: case 1:
		u = (uint64_t)(below(&g->r, 12) - (ty->sign ? 3 : 0));
		break;
	case 2: {
		static const int64_t edge[] = {0, 1, -1, 2, 7, 8, 31, 32, 63, 64, 127, 128, 255, 256};
		u = (uint64_t)edge[below(&g->r, 14)];
		break;
	}
	case 3: /* type extremes */
		u = below(&g->r, 2) ? (ty->sign ? mask >> 1 : mask) : (ty->sign ? ~(mask >> 1) : 0);
		break;
	default:
		u = next(&g->r);
		break;
	}
	u &= mask;
	if (ty->sign && ty->bits < 64 && (u >> (ty->bits - 1)) & 1)
		u |= ~mask;
	if (ty->sign)
		snprintf(out, n, "%lld", (long long)(int64_t)u);
	else
		snprintf(out, n, "%llu", (unsigned long long)u);
}

/* Emits a random tree of type t, returns its value number. */
static int tree(gen *g, int t, int depth)
{
	const char *tn = types[t].name;
	int v = g->nvals++;
	int kind = depth <= 0 ? below(&g->r, 2) : below(&g->r, 12);
	if (kind == 0) {
		char c[32];
		const_text(g, t, c, sizeof c);
		emit(g, "  v%d = %s[] constant(%s)\n", v, tn, c);
		return v;
	}
	if (kind == 1) {
		/* a body parameter of type t (new or existing) */
		int q = -1;
		for (int k = 0; k < g->nparams; k++)
			if (g->ptype[k] == t && below(&g->r, 2))
				q = k;
		if (q < 0 && g->nparams < MAX_PARAMS) {
			q = g->nparams++;
			g->ptype[q] = t;
			g->param_runtime[q] = below(&g->r, 4) == 0;
		}
		if (q < 0) {
			char c[32];
			const_text(g, t, c, sizeof c);
			emit(g, "  v%d = %s[] constant(%s)\n", v, tn, c);
			return v;
		}
		g->any_runtime |= g->param_runtime[q];
		emit(g, "  v%d = %s[] add(q%d, z%d)\n", v, tn, q, t);
		return v;
	}
	switch (below(&g->r, 9)) {
	case 0: case 1: case 2: {
		static const char *bin[] = {"add", "subtract", "multiply", "divide", "remainder",
			"maximum", "minimum", "and", "or", "xor", "shift-left",
			"shift-right-arithmetic", "shift-right-logical"};
		int a = tree(g, t, depth - 1), b = tree(g, t, depth - 1);
		emit(g, "  v%d = %s[] %s(v%d, v%d)\n", v, tn, bin[below(&g->r, 13)], a, b);
		return v;
	}
	case 3: {
		static const char *un[] = {"negate", "abs", "not", "popcnt", "count-leading-zeros"};
		int a = tree(g, t, depth - 1);
		emit(g, "  v%d = %s[] %s(v%d)\n", v, tn, un[below(&g->r, 5)], a);
		return v;
	}
	case 4: {
		int lo = tree(g, t, depth - 1), x = tree(g, t, depth - 1), hi = tree(g, t, depth - 1);
		emit(g, "  v%d = %s[] clamp(v%d, v%d, v%d)\n", v, tn, lo, x, hi);
		return v;
	}
	case 5: case 6: {
		static const char *dir[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
		int u = below(&g->r, NTYPES);
		int a = tree(g, u, depth - 1), b = tree(g, u, depth - 1);
		int p = g->nvals++;
		emit(g, "  v%d = pred[] compare(v%d, v%d), direction=%s\n", p, a, b, dir[below(&g->r, 6)]);
		int x = tree(g, t, depth - 1), y = tree(g, t, depth - 1);
		emit(g, "  v%d = %s[] select(v%d, v%d, v%d)\n", v, tn, p, x, y);
		return v;
	}
	default: {
		int u = below(&g->r, NTYPES);
		int a = tree(g, u, depth - 1);
		emit(g, "  v%d = %s[] convert(v%d)\n", v, tn, a);
		return v;
	}
	}
}

typedef struct gen_module {
	char *text;
	int index_type;
	int64_t dims[2], sizes[2];
	bool const_only;     /* no runtime parameter reaches the starts */
	bool two_calls;
} gen_module;

static void generate(gen *g, gen_module *gm)
{
	hilo_buf_init(&g->body);
	g->nvals = 0;
	g->nparams = 0;
	g->any_runtime = false;
	int it = below(&g->r, NTYPES);
	gm->index_type = it;
	for (int d = 0; d < 2; d++) {
		gm->dims[d] = 1 + below(&g->r, 9);
		gm->sizes[d] = 1 + below(&g->r, (int)gm->dims[d]);
	}
	int depth = 1 + below(&g->r, 4);
	int e[2];
	for (int d = 0; d < 2; d++) {
		int t = below(&g->r, 3) ? it : below(&g->r, NTYPES);
		int x = tree(g, t, depth);
		if (t != it) {
			e[d] = g->nvals++;
			emit(g, "  v%d = %s[] convert(v%d)\n", e[d], types[it].name, x);
		} else {
			e[d] = x;
		}
	}
	gm->const_only = !g->any_runtime;
	gm->two_calls = below(&g->r, 5) == 0;
	const char *itn = types[it].name;
	bool stale = below(&g->r, 3) == 0;
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_buf_printf(&b, "HloModule gen\n\nbody {\n");
	hilo_buf_printf(&b, "  data = f32[%lld,%lld] parameter(0)\n", (long long)gm->dims[0], (long long)gm->dims[1]);
	for (int q = 0; q < g->nparams; q++)
		hilo_buf_printf(&b, "  q%d = %s[] parameter(%d)\n", q, types[g->ptype[q]].name, q + 1);
	for (int t = 0; t < NTYPES; t++)
		hilo_buf_printf(&b, "  z%d = %s[] constant(0)\n", t, types[t].name);
	hilo_buf_puts(&b, hilo_buf_cstr(&g->body));
	hilo_buf_printf(&b, "  ds = f32[%lld,%lld] dynamic-slice(data, v%d, v%d), dynamic_slice_sizes={%lld,%lld}%s\n",
		(long long)gm->sizes[0], (long long)gm->sizes[1], e[0], e[1],
		(long long)gm->sizes[0], (long long)gm->sizes[1],
		!stale ? "" : below(&g->r, 2) ? ", metadata={op_name=\"jit(f)/ds,dsidxnow=0,dsidxnow=1\"}"
		                              : ", backend_config=\"dsidxnow=1,dsidxnow=0\"");
	hilo_buf_printf(&b, "  ROOT t = (f32[%lld,%lld], %s[], %s[]) tuple(ds, v%d, v%d)\n}\n\n",
		(long long)gm->sizes[0], (long long)gm->sizes[1], itn, itn, e[0], e[1]);
	/* entry: each body parameter gets a constant or a runtime input */
	hilo_buf_printf(&b, "ENTRY main {\n  x = f32[%lld,%lld] parameter(0)\n",
		(long long)gm->dims[0], (long long)gm->dims[1]);
	int np = 1;
	int ncalls = gm->two_calls ? 2 : 1;
	for (int c = 0; c < ncalls; c++) {
		hilo_buf_printf(&b, "  call%d = (f32[%lld,%lld], %s[], %s[]) call(x", c,
			(long long)gm->sizes[0], (long long)gm->sizes[1], itn, itn);
		for (int q = 0; q < g->nparams; q++)
			hilo_buf_printf(&b, ", a%d_%d", c, q);
		hilo_buf_printf(&b, "), to_apply=body\n");
	}
	hilo_buf text;
	hilo_buf_init(&text);
	hilo_buf_puts(&text, hilo_buf_cstr(&b));
	/* operands go before the calls: rebuild with them first */
	hilo_buf_free(&b);
	hilo_buf ops;
	hilo_buf_init(&ops);
	for (int c = 0; c < ncalls; c++)
		for (int q = 0; q < g->nparams; q++) {
			const char *tn = types[g->ptype[q]].name;
			if (g->param_runtime[q]) {
				hilo_buf_printf(&ops, "  a%d_%d = %s[] parameter(%d)\n", c, q, tn, np++);
			} else {
				char cv[32];
				const_text(g, g->ptype[q], cv, sizeof cv);
				hilo_buf_printf(&ops, "  a%d_%d = %s[] constant(%s)\n", c, q, tn, cv);
			}
		}
	const char *all = hilo_buf_cstr(&text);
	const char *calls = strstr(all, "  call0 = ");
	hilo_buf out;
	hilo_buf_init(&out);
	hilo_buf_put(&out, all, (size_t)(calls - all));
	if (ops.len)
		hilo_buf_puts(&out, hilo_buf_cstr(&ops));
	hilo_buf_puts(&out, calls);
	if (ncalls == 2)
		hilo_buf_printf(&out, "  ROOT r = ((f32[%lld,%lld], %s[], %s[]), (f32[%lld,%lld], %s[], %s[])) tuple(call0, call1)\n}\n",
			(long long)gm->sizes[0], (long long)gm->sizes[1], itn, itn,
			(long long)gm->sizes[0], (long long)gm->sizes[1], itn, itn);
	else
		hilo_buf_printf(&out, "  ROOT r = ((f32[%lld,%lld], %s[], %s[])) tuple(call0)\n}\n",
			(long long)gm->sizes[0], (long long)gm->sizes[1], itn, itn);
	gm->text = strdup(hilo_buf_cstr(&out));
	hilo_buf_free(&out);
	hilo_buf_free(&ops);
	hilo_buf_free(&text);
	hilo_buf_free(&g->body);
}

static hilo_module *parse(const char *src)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(src, strlen(src), "gen.hlo", &d);
	if (!m || !hilo_verify(m, "gen.hlo", &d)) {
		hilo_diags_print(stderr, &d);
		fprintf(stderr, "%s\n", src);
		if (m)
			hilo_module_destroy(m);
		m = NULL;
	}
	hilo_diags_free(&d);
	return m;
}

static hilo_instr *find(hilo_module *m, const char *name)
{
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (hilo_instr *i = m->comps[c]->first; i; i = i->next)
			if (strcmp(i->name, name) == 0)
				return i;
	return NULL;
}

static int64_t clamp_start(hilo_ptype t, const hilo_literal *l, int64_t dim, int64_t size)
{
	int64_t v = hilo_elem_get_i64(t, l->data, 0);
	if (hilo_ptype_is_unsigned_int(t) && v < 0)
		v = INT64_MAX;
	int64_t hi = dim - size;
	return v < 0 ? 0 : v > hi ? hi : v;
}

static int failures_shown;

static void fail_show(const gen_module *gm, const char *what)
{
	if (failures_shown++ < 3)
		fprintf(stderr, "index generator: %s\n%s\n", what, gm->text);
}

static void check_module(const gen_module *gm, int *nproven, int *nconst)
{
	hilo_module *orig = parse(gm->text), *m = parse(gm->text);
	CHECK(orig && m);
	if (!orig || !m) {
		if (orig)
			hilo_module_destroy(orig);
		if (m)
			hilo_module_destroy(m);
		return;
	}
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_pass_ctx ctx = {.m = m, .pass = "neuron-dus-ds-index-simplifier", .filename = "gen.hlo",
		.diags = &d, .run = hilo_run_state_create(m->arena)};
	hilo_pass_result r = hilo_pass_find("neuron-dus-ds-index-simplifier")->run(&ctx);
	CHECK(r != HILO_PASS_ERROR);
	CHECK(hilo_verify(m, "gen.hlo", &d));
	hilo_instr *ds = find(m, "ds");
	CHECK(ds != NULL);
	if (!ds)
		goto out;
	int64_t proven[2] = {0}, tok[4] = {0};
	int np = hilo_proven_starts(&ctx, ds, proven, 2);
	int nt = hilo_tokens_get(m, ds, HILO_TOK_DS, tok, 4);
	/* tokens say exactly what is proven */
	if (!CHECK(np == 2 ? nt == 2 && tok[0] == proven[0] && tok[1] == proven[1] : nt == 0 && np == -1))
		fail_show(gm, "tokens differ from the proven starts");
	if (gm->const_only && !gm->two_calls && !CHECK(np == 2))
		fail_show(gm, "a start built from constants only was not proven");
	*nproven += np == 2;
	*nconst += gm->const_only;
	/* proven starts are the evaluator's values, clamped, in every context */
	hilo_ptype it = find(orig, "ds")->operands[1]->shape->type;
	for (uint64_t seed = 0; np == 2 && seed < 4; seed++) {
		hilo_diags ed;
		hilo_diags_init(&ed);
		hilo_literal **args = hilo_eval_random_args(orig, orig->entry, seed, 0, &ed);
		hilo_literal *out = args ? hilo_eval_comp(orig, orig->entry, args, NULL, &ed) : NULL;
		CHECK(out != NULL);
		if (!out) {
			hilo_diags_print(stderr, &ed);
			hilo_diags_free(&ed);
			break;
		}
		for (int c = 0; c < out->ntuple; c++) {
			const hilo_literal *call = out->elems[c];
			for (int dd = 0; dd < 2; dd++) {
				int64_t want = clamp_start(it, call->elems[1 + dd], gm->dims[dd], gm->sizes[dd]);
				if (!CHECK(want == proven[dd])) {
					char msg[128];
					snprintf(msg, sizeof msg, "dimension %d: proven %lld, evaluator %lld (call %d)",
						dd, (long long)proven[dd], (long long)want, c);
					fail_show(gm, msg);
				}
			}
		}
		hilo_diags_free(&ed);
	}
	/* the pass (markers, splices) keeps the module's meaning */
	hilo_equiv_report er;
	hilo_check_equivalence(orig, m, 2, 7, NULL, &er);
	if (!CHECK(er.status == 0))
		fail_show(gm, er.message);
out:
	hilo_run_state_destroy(ctx.run);
	hilo_diags_free(&d);
	hilo_module_destroy(orig);
	hilo_module_destroy(m);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 400;
	gen g = {.r = {0x12c0ffee}};  /* fixed seed */
	int nproven = 0, nconst = 0;
	for (int k = 0; k < n; k++) {
		gen_module gm;
		generate(&g, &gm);
		check_module(&gm, &nproven, &nconst);
		free(gm.text);
	}
	printf("index generator: %d modules, %d with constant-only starts, %d proven\n", n, nconst, nproven);
	/* the generator must exercise both outcomes */
	CHECK(nproven > n / 4);
	CHECK(nproven < n);
	return CHECK_DONE();
}
