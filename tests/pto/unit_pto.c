/* unit_pto.c - unit tests for PTO IR pieces golden files cannot reach:
 * precedence-aware printing of trees the pass builds, trip counts at the
 * int64 limits, ReplayInvariantSet seeds, the memory layout, and the
 * analyses' tables (variable table, SSA check states). */
#include "pto/pto_ir.h"
#include "pto/pto_sema.h"
#include "pto/pto_lex.h"
#include "pto/pto_legalize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static hilo_pto_program *parse(const char *src)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_pto_program *p = hilo_pto_parse("unit.py", src, strlen(src), &d);
	if (!p)
		hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return p;
}

static const char *expr_text(const pto_expr *e, char *buf, size_t n)
{
	hilo_buf b;
	hilo_buf_init(&b);
	pto_print_expr(&b, e);
	snprintf(buf, n, "%s", hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	return buf;
}

static pto_expr *bin(hilo_pto_program *p, const char *op, pto_expr *l, pto_expr *r)
{
	pto_expr *e = pto_expr_new(p, PTO_E_BIN, 0);
	e->op = op;
	e->base = l;
	e->rhs = r;
	return e;
}

static const char *PROG =
	"import pypto.language as pl\n"
	"\n"
	"@pl.program\n"
	"class P:\n"
	"    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
	"    def g(self, a: pl.Tensor[[8, 8], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8, 8], pl.FP32]:\n"
	"        x: pl.Scalar[pl.INDEX] = (n + 1) * 2  # trailing comment\n"
	"        for i in pl.range(-9223372036854775807, 9223372036854775807, 1):\n"
	"            y: pl.Scalar[pl.INDEX] = i * 4\n"
	"        for j in pl.range(0, 10, 3):\n"
	"            z: pl.Scalar[pl.INDEX] = pl.tensor.dim(a, 0) + j\n"
	"        w: pl.Scalar[pl.INDEX] = n * 2\n"
	"        return a";

/* The analyses' tables (pto_sema.c): the 24-byte variable's type bits and
 * the sparse parent map, the map's clear, and the SSA check's dense
 * first-binding array with its phi and non-variable cases. */
/* The GB023 errors of f's body; *first_line: the line the first message
 * says the name was first bound at (0 when none). */
static size_t ssa_errors_at(const char *body, int *first_line)
{
	char src[2048];
	snprintf(src, sizeof src, "import pypto.language as pl\n\n@pl.program\nclass S:\n"
		"    @pl.function(type=pl.FunctionType.Orchestration)\n"
		"    def f(self, t: pl.Tensor[[8], pl.FP32], c: pl.Scalar[pl.BOOL]) -> pl.Tensor[[8], pl.FP32]:\n"
		"%s        return t\n", body);
	hilo_pto_program *p = parse(src);
	if (!p)
		return 99;
	hilo_diags d;
	hilo_diags_init(&d);
	bool ok = pto_check_ssa(p, p->funcs[0], &d);
	size_t n = d.nerrors;
	CHECK(ok == (n == 0));
	const char *at = n ? strstr(d.items[0].msg, "first bound at line ") : NULL;
	*first_line = at ? atoi(at + strlen("first bound at line ")) : 0;
	hilo_diags_free(&d);
	/* again on the cached table, whose variables hold the first check's
	 * state bits: the same verdict */
	CHECK(p->funcs[0]->sema_vars != NULL);
	hilo_diags_init(&d);
	CHECK(pto_check_ssa(p, p->funcs[0], &d) == ok && d.nerrors == n);
	hilo_diags_free(&d);
	hilo_pto_program_destroy(p);
	return n;
}

static size_t ssa_errors(const char *body)
{
	int line;
	return ssa_errors_at(body, &line);
}

/* Host control's roots live in the locals' scratch word, which other
 * analyses also use: a table reused with whatever an earlier one left
 * there gives the same verdicts (x's root is b, never the host-read a). */
static void test_scratch_reuse(void)
{
	hilo_pto_program *p = parse("import pypto.language as pl\n\n@pl.program\nclass Q:\n"
		"    @pl.function(type=pl.FunctionType.InCore)\n"
		"    def tk(x: pl.Tensor[[8], pl.FP32], c: pl.InOut[pl.Tensor[[8], pl.FP32]]) -> pl.Tensor[[8], pl.FP32]:\n"
		"        return c\n"
		"    @pl.function(type=pl.FunctionType.Orchestration)\n"
		"    def f(self, a: pl.Tensor[[8], pl.FP32], b: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:\n"
		"        r: pl.Scalar[pl.FP32] = pl.tensor.read(a, [0])\n"
		"        x: pl.Tensor[[8], pl.FP32] = b\n"
		"        y: pl.Tensor[[8], pl.FP32] = self.tk(x, b)\n"
		"        return b\n");
	CHECK(p != NULL);
	if (!p)
		return;
	pto_func *f = p->funcs[1];
	hilo_diags d;
	hilo_diags_init(&d);
	CHECK(lg_check_host_control(p, &d, true) == 0);
	pto_fctx fc;
	pto_fctx_init(&fc, p, f);
	size_t ai = pto_vars_index(fc.vars, pto_intern(p, "a"));
	CHECK(ai != PTO_NO_VAR);
	for (size_t i = 0; i < pto_vars_count(fc.vars); i++)
		if (pto_vars_at(fc.vars, i)->kind == PTO_V_LOCAL)
			pto_vars_at(fc.vars, i)->scratch = (uint32_t)ai + 1;
	CHECK(lg_check_host_control(p, &d, true) == 0 && d.nerrors == 0);
	hilo_diags_free(&d);
	hilo_pto_program_destroy(p);
}

static void test_analysis_tables(void)
{
	hilo_pto_program *p = parse("import pypto.language as pl\n\n@pl.program\nclass Q:\n"
		"    @pl.function(type=pl.FunctionType.Orchestration)\n"
		"    def f(self, t: pl.Tensor[[8], pl.FP32], ids: pl.Array[4, pl.TASK_ID], "
		"tid: pl.Scalar[pl.TASK_ID]) -> pl.Tensor[[8], pl.FP32]:\n"
		"        u = t\n"
		"        k = 3\n"
		"        m = k\n"
		"        q = tid\n"
		"        if k > 1:\n"
		"            r: pl.Tensor[[8], pl.FP32] = pl.yield_(t)\n"
		"        else:\n"
		"            r: pl.Tensor[[8], pl.FP32] = pl.yield_(u)\n"
		"        for j, (acc,) in pl.range(2, init_values=(u,)):\n"
		"            w = acc\n"
		"            acc_1: pl.Tensor[[8], pl.FP32] = pl.yield_(acc)\n"
		"        return t\n"
		"    @pl.function(type=pl.FunctionType.Orchestration)\n"
		"    def g(self, t: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:\n"
		"        x = 1\n"
		"        x = 2\n"
		"        x = 3\n"
		"        x = 4\n"
		"        return t\n");
	CHECK(p != NULL);
	if (p) {
		pto_fctx fc;
		pto_fctx_init(&fc, p, p->funcs[0]);
		pto_var *v[12];
		const char *nm[] = { "t", "ids", "tid", "u", "k", "m", "q", "r", "j", "acc", "acc_1" };
		for (size_t i = 0; i < 11; i++) {
			v[i] = pto_vars_get(fc.vars, pto_intern(p, nm[i]));
			CHECK(v[i] != NULL);
			if (!v[i])
				return;
		}
		/* an alias copies what its source's annotation says, not what a
		 * literal made it: m = k (k = 3 is a scalar by its value) is untyped */
		CHECK(v[3]->tensor && v[3]->ann_tensor && !v[3]->scalar);
		CHECK(v[4]->scalar && !v[4]->ann_scalar);
		CHECK(!v[5]->scalar && !v[5]->tensor);
		/* TASK_ID: the scalar's task_id, the array's dtype for array.get_element */
		CHECK(v[2]->task_id && v[6]->task_id && v[6]->scalar && v[6]->kind == PTO_V_LOCAL);
		CHECK(!v[1]->task_id && !v[1]->scalar && v[1]->ann_task_dtype);
		CHECK(v[0]->kind == PTO_V_PARAM && v[2]->index == 2 && v[0]->dir == PTO_DIR_IN);
		/* the iter_arg takes its init value's type; the if/else phi is two
		 * definitions of one variable */
		CHECK(v[9]->kind == PTO_V_ITERARG && v[9]->index == 0 && v[9]->tensor);
		CHECK(v[8]->kind == PTO_V_LOOPVAR && v[8]->scalar);
		CHECK(v[7]->ndefs == 2 && v[3]->ndefs == 1);
		/* only pl.yield_ results know their enclosing statement */
		const pto_block *b = &p->funcs[0]->body;
		CHECK(b->stmts[4]->kind == PTO_S_IF && pto_var_parent(fc.vars, v[7]) == b->stmts[4]);
		CHECK(b->stmts[5]->kind == PTO_S_FOR && pto_var_parent(fc.vars, v[10]) == b->stmts[5]);
		CHECK(!pto_var_parent(fc.vars, v[3]) && !pto_var_parent(fc.vars, v[9]) &&
		      !pto_var_parent(fc.vars, pto_vars_get(fc.vars, pto_intern(p, "w"))));
		CHECK(fc.vars->parents && fc.vars->parents->n == 2);
		/* a table takes no arena chunk (a program of thousands of functions
		 * holds one for each at once): it is the function's cached table,
		 * on the program arena's tracked heap, and building the invariant
		 * set allocates nothing */
		size_t before = hilo_arena_bytes(p->arena);
		pto_invset inv;
		pto_inv_init(&inv, &fc);
		CHECK(p->funcs[0]->sema_vars == fc.vars && fc.vars->inv_built && hilo_arena_bytes(p->arena) == before);
		pto_fctx_init(&fc, p, p->funcs[1]);
		pto_var *x = pto_vars_get(fc.vars, pto_intern(p, "x"));
		CHECK(x && x->ndefs == 3); /* saturates: four bindings do not wrap to 0 */

		/* pto_map_clear: empty, reusable */
		pto_map m;
		pto_map_init_scratch(&m, p->arena);
		for (size_t i = 0; i < 11; i++)
			pto_map_put(&m, v[i], (void *)(i + 1));
		size_t cap = m.cap;
		pto_map_clear(&m);
		size_t left = 0;
		for (size_t i = 0; i < 11; i++)
			left += pto_map_has(&m, v[i]);
		CHECK(m.n == 0 && left == 0 && m.cap == cap);
		pto_map_put(&m, v[2], (void *)7);
		CHECK(m.n == 1 && pto_map_get(&m, v[2]) == (void *)7 && !pto_map_get(&m, v[3]));
		hilo_pto_program_destroy(p);
	}

	/* SSA: the phi is the one legal repetition - both arms of one if,
	 * then-arm first */
	CHECK(ssa_errors("        if c:\n            r = pl.yield_(t)\n        else:\n            r = pl.yield_(t)\n") == 0);
	CHECK(ssa_errors("        if c:\n            r = pl.yield_(t)\n        else:\n            r = pl.yield_(t)\n"
		"        r = t\n") == 1); /* a third binding */
	CHECK(ssa_errors("        if c:\n            r = pl.yield_(t)\n        else:\n            s = t\n"
		"        if c:\n            s2 = t\n        else:\n            r = pl.yield_(t)\n") == 1); /* two ifs */
	CHECK(ssa_errors("        if c:\n            r = t\n        else:\n            r = t\n") == 1); /* no yield */
	CHECK(ssa_errors("        t = c\n") == 1); /* a parameter */
	/* names no variable holds (nested tuple targets) are checked too */
	CHECK(ssa_errors("        a, (b, d) = self.h(t)\n        e, (b, f) = self.h(t)\n") == 1);
	CHECK(ssa_errors("        a, (b, d) = self.h(t)\n        e, (g, f) = self.h(t)\n") == 0);
	CHECK(ssa_errors("        for i in pl.range(2):\n            x = i\n        for i in pl.range(2):\n            y = i\n") == 1);
	/* the message names the first binding (line 7 is the body's first),
	 * also when that is a target the variable table does not record */
	int line = 0;
	CHECK(ssa_errors_at("        x = t\n        y = t\n        x = t\n", &line) == 1 && line == 7);
	CHECK(ssa_errors_at("        y = t\n        for i, x, z in pl.range(2):\n            pass\n        x = t\n", &line) == 1 &&
	      line == 8);
}


/* Function headers share their trees (pto_parse.c parse_shared): the same
 * decorator, parameter or return annotation text is one tree in every
 * function, and with a statement annotation of that text; other text is
 * not; parameter arrays are exactly their size; a parameter keeps its own
 * position; legalize's new parameters leave the other functions' headers
 * (and the shared trees) as they were. */
static void test_shared_headers(void)
{
	static const char *src =
		"import pypto.language as pl\n"
		"\n"
		"@pl.program\n"
		"class S:\n"
		"    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
		"    def kern(x: pl.Tensor[[8, 8], pl.FP32], off: pl.Scalar[pl.INDEX], c: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:\n"
		"        return c\n"
		"    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
		"    def g(self, w: pl.Tensor[[64, 8], pl.FP32], c: pl.InOut[pl.Tensor[[8, 8], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8, 8], pl.FP32]:\n"
		"        d: pl.Scalar[pl.INDEX] = n * 2\n"
		"        c_1: pl.Tensor[[8, 8], pl.FP32] = self.kern(w, d, c)\n"
		"        return c\n"
		"    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
		"    def m0(self, w: pl.Tensor[[64, 8], pl.FP32], c: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:\n"
		"        c_0: pl.Tensor[[8, 8], pl.FP32] = self.g(w, c, 0)\n"
		"        return c\n"
		"    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
		"    def m1(self, w: pl.Tensor[[64, 8], pl.FP32], c: pl.InOut[pl.Tensor[[8,8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:\n"
		"        c_0: pl.Tensor[[8, 8], pl.FP32] = self.g(w, c, 1)\n"
		"        return c\n";
	hilo_pto_program *p = parse(src);
	CHECK(p != NULL);
	if (!p)
		return;
	pto_func *k = p->funcs[0], *g = p->funcs[1], *m0 = p->funcs[2], *m1 = p->funcs[3];
	CHECK(m0->decos[0] == m1->decos[0] && g->decos[0] != m0->decos[0] && k->decos[0] != g->decos[0]);
	CHECK(m0->params[0].ann == m1->params[0].ann && m0->params[0].ann == g->params[0].ann);
	CHECK(m0->params[1].ann == g->params[1].ann && m0->params[1].ann == k->params[2].ann);
	CHECK(m1->params[1].ann != m0->params[1].ann); /* "[8,8]": other text */
	CHECK(k->params[1].ann == g->params[2].ann && g->body.stmts[0]->ann == g->params[2].ann);
	CHECK(m0->ret == m1->ret && m0->ret == k->params[0].ann && m0->ret == g->body.stmts[1]->ann);
	CHECK(m0->nparams == 2 && m0->cap_params == 2 && k->cap_params == 3 && m0->ndecos == 1);
	CHECK(m0->body.n == 2 && m0->body.cap == 2 && g->body.cap == 4); /* a body's array starts at 2 */
	CHECK(m1->params[0].line == 18 && m1->params[0].col == 18 && m0->params[0].line == 14);
	hilo_buf before;
	hilo_buf_init(&before);
	hilo_pto_print(p, &before);
	hilo_diags d;
	hilo_diags_init(&d);
	CHECK(hilo_pto_legalize_graph_boundary(p, HILO_PTO_RUNTIME_HOST_BUILD_GRAPH, &d) == 0);
	hilo_diags_free(&d);
	/* g gains d; the headers of kern, m0 and m1 print as they were */
	CHECK(g->nparams == 4 && !strcmp(g->params[3].name, "d") && g->params[3].ann != g->params[2].ann);
	CHECK(k->nparams == 3 && m0->nparams == 2 && m1->nparams == 2);
	hilo_buf after;
	hilo_buf_init(&after);
	hilo_pto_print(p, &after);
	const char *b = hilo_buf_cstr(&before), *a = hilo_buf_cstr(&after);
	for (int fi = 0; fi < 3; fi++) {
		static const char *defs[] = { "    def kern(", "    def m0(", "    def m1(" };
		const char *x = strstr(b, defs[fi]), *y = strstr(a, defs[fi]);
		CHECK(x && y);
		if (x && y)
			CHECK(strcspn(x, "\n") == strcspn(y, "\n") && !strncmp(x, y, strcspn(x, "\n")));
	}
	CHECK(strstr(a, ", n: pl.Scalar[pl.INDEX], d: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8, 8], pl.FP32]:\n") != NULL);
	hilo_buf_free(&before);
	hilo_buf_free(&after);
	hilo_pto_program_destroy(p);
}

int main(void)
{
	char buf[256];
	hilo_pto_program *p = parse(PROG);
	CHECK(p != NULL);
	if (!p)
		return 1;
	/* unmodified program prints back byte for byte, no final newline */
	hilo_buf out;
	hilo_buf_init(&out);
	hilo_pto_print(p, &out);
	CHECK(out.len == strlen(PROG) && !memcmp(out.data, PROG, out.len));
	hilo_buf_free(&out);

	/* hilo_pto_parse_owned takes the buffer over: same program, and the
	 * buffer is freed with it, or at once on malformed input (the ASan
	 * build's leak check sees either mistake) */
	{
		size_t n = strlen(PROG);
		char *own = malloc(n + 1);
		CHECK(own != NULL);
		memcpy(own, PROG, n + 1);
		hilo_diags d;
		hilo_diags_init(&d);
		hilo_pto_program *q = hilo_pto_parse_owned("owned.py", own, n, &d);
		CHECK(q != NULL && q->src == own);
		hilo_buf qb;
		hilo_buf_init(&qb);
		if (q)
			hilo_pto_print(q, &qb);
		CHECK(qb.len == n && !memcmp(qb.data, PROG, n));
		hilo_buf_free(&qb);
		hilo_pto_program_destroy(q);
		const char *bad = "@pl.program\nclass X:\n    def f(:\n";
		own = malloc(strlen(bad) + 1);
		CHECK(own != NULL);
		memcpy(own, bad, strlen(bad) + 1);
		CHECK(hilo_pto_parse_owned("bad.py", own, strlen(bad), &d) == NULL);
		CHECK(d.nerrors > 0);
		hilo_diags_free(&d);
	}

	/* trees built by the pass get the parentheses precedence needs */
	pto_expr *sum = bin(p, "+", pto_name(p, "i"), pto_int(p, 1));
	CHECK(!strcmp(expr_text(bin(p, "*", sum, pto_int(p, 128)), buf, sizeof buf), "(i + 1) * 128"));
	CHECK(!strcmp(expr_text(bin(p, "-", pto_name(p, "a"), bin(p, "-", pto_name(p, "b"), pto_name(p, "c"))), buf, sizeof buf), "a - (b - c)"));
	CHECK(!strcmp(expr_text(bin(p, "-", bin(p, "-", pto_name(p, "a"), pto_name(p, "b")), pto_name(p, "c")), buf, sizeof buf), "a - b - c"));
	CHECK(!strcmp(expr_text(bin(p, "*", pto_int(p, 2), bin(p, "*", pto_name(p, "b"), pto_name(p, "c"))), buf, sizeof buf), "2 * (b * c)"));

	/* literals: up to 7 bytes in the node, longer ones interned; both
	 * print and evaluate alike, and a clone keeps the text */
	int64_t v = 0;
	pto_expr *l7 = pto_int(p, 1234567), *l8 = pto_int(p, -12345678);
	CHECK(l7->inl && !l8->inl);
	CHECK(!strcmp(expr_text(l7, buf, sizeof buf), "1234567") && pto_const_int(l7, &v) && v == 1234567);
	CHECK(!strcmp(expr_text(l8, buf, sizeof buf), "-12345678"));
	CHECK(!strcmp(expr_text(pto_expr_clone(p, l7), buf, sizeof buf), "1234567"));
	const pto_expr *big = p->funcs[0]->body.stmts[1]->value->items[1]; /* 9223372036854775807 */
	CHECK(big->kind == PTO_E_INT && !big->inl && pto_const_int(big, &v) && v == INT64_MAX);
	const pto_expr *two = p->funcs[0]->body.stmts[0]->value->rhs; /* (n + 1) * 2 */
	CHECK(two->kind == PTO_E_INT && two->inl && pto_const_int(two, &v) && v == 2);

	/* a statement's trailing comment comes from its line's tokenization
	 * (the line table keeps none: 48 bytes a line while parsing) */
	CHECK(pto_stmt_trail(p, p->funcs[0]->body.stmts[0]) &&
		!strcmp(pto_stmt_trail(p, p->funcs[0]->body.stmts[0]), "  # trailing comment"));
	CHECK(!pto_stmt_trail(p, p->funcs[0]->body.stmts[1]) && !p->funcs[0]->body.stmts[1]->side);
	/* statements: 32 bytes for the simple ones (lead lines and trailing
	 * comment in a side record most have not, the indentation an id, the
	 * column derived from it), carved 8-byte aligned */
	CHECK(pto_stmt_size(PTO_S_ASSIGN) == 32 && pto_stmt_size(PTO_S_FOR) == 96);
	CHECK(((uintptr_t)p->funcs[0]->body.stmts[0] & 7) == 0);
	CHECK(sizeof(lline) == 48);

	/* node sizes (the bulk of a program's memory): a regression here is
	 * megabytes on a 100k-statement program */
	CHECK(pto_expr_size(PTO_E_NAME) == 16 && pto_expr_size(PTO_E_INT) == 16);
	CHECK(pto_expr_size(PTO_E_ATTR) == 24 && pto_expr_size(PTO_E_BIN) == 32);
	CHECK(pto_expr_size(PTO_E_SUB) == 32 && pto_expr_size(PTO_E_DICT) == 40 && pto_expr_size(PTO_E_CALL) == 48);
	CHECK(pto_expr_nitems(pto_name(p, "abcdefgh")) == 0 && pto_expr_nitems(two) == 0);

	/* positions: one source offset per node, line:col found on demand
	 * (byte columns, physical lines); a cursor scans on, or restarts when
	 * asked for an earlier position */
	int ln = 0, cn = 0;
	const pto_expr *xt = p->funcs[0]->body.stmts[0]->target; /* line 7: "        x: ..." */
	pto_pos_linecol(p, xt->pos, &ln, &cn);
	CHECK(ln == 7 && cn == 9);
	pto_pos_linecol(p, two->pos, &ln, &cn);
	CHECK(ln == 7 && cn == 44);
	pto_pos_linecol(p, 0, &ln, &cn);
	CHECK(ln == 0 && cn == 0);
	pto_linecur cur = { 0, 0, 0 };
	const pto_expr *yt = p->funcs[0]->body.stmts[1]->body.stmts[0]->target; /* line 9 */
	pto_pos_linecol_cur(p, &cur, yt->pos, &ln, &cn);
	CHECK(ln == 9 && cn == 13);
	pto_pos_linecol_cur(p, &cur, xt->pos, &ln, &cn);
	CHECK(ln == 7 && cn == 9);
	pto_pos_linecol_cur(p, &cur, yt->pos, &ln, &cn);
	CHECK(ln == 9 && cn == 13);

	/* trip counts: extreme bounds do not wrap; step 3 rounds up */
	pto_func *g = p->funcs[0];
	uint64_t trips = 0;
	CHECK(pto_trip_count(g->body.stmts[1], &trips) && trips == UINT64_MAX - 1);
	CHECK(pto_trip_count(g->body.stmts[2], &trips) && trips == 4);

	/* ReplayInvariantSet: constant-trip induction variables and boundary
	 * dims are invariant, scalar parameters are not */
	pto_fctx c;
	pto_fctx_init(&c, p, g);
	pto_invset inv;
	pto_inv_init(&inv, &c);
	CHECK(pto_inv_is_invariant(&inv, pto_name(p, "y")));
	CHECK(pto_inv_is_invariant(&inv, pto_name(p, "z")));
	CHECK(!pto_inv_is_invariant(&inv, pto_name(p, "n")));
	CHECK(!pto_inv_is_invariant(&inv, pto_name(p, "x")));
	CHECK(!pto_inv_is_invariant(&inv, pto_name(p, "w")));
	hilo_pto_program_destroy(p);

	/* the name table: one pointer per string, prefixes distinct, every
	 * name kept through the growths past what was reserved */
	p = parse("x = 1\n");
	CHECK(p != NULL);
	if (p) {
		const char *abc = pto_intern_n(p, "abcdef", 3), *ab = pto_intern_n(p, "abc", 2);
		CHECK(!strcmp(abc, "abc") && !strcmp(ab, "ab") && abc != ab);
		CHECK(pto_intern(p, "abc") == abc && pto_intern_n(p, "abx", 2) == ab && pto_intern(p, "x") == pto_intern(p, "x"));
		size_t before = pto_names_count(p->names);
		const char *kept[5000];
		for (int i = 0; i < 5000; i++) {
			char nm[16];
			snprintf(nm, sizeof nm, "n%d", i);
			kept[i] = pto_intern(p, nm);
		}
		CHECK(pto_names_count(p->names) == before + 5000);
		size_t same = 0;
		for (int i = 0; i < 5000; i++) {
			char nm[16];
			snprintf(nm, sizeof nm, "n%d", i);
			same += pto_intern(p, nm) == kept[i] && !strcmp(kept[i], nm);
		}
		CHECK(same == 5000 && pto_names_count(p->names) == before + 5000);
		hilo_pto_program_destroy(p);
	}
	/* names packed into 64 KiB chunks, a name of 64 KiB and more in one of
	 * its own, and the same with the 64-bit slots a table of more than
	 * 4095 chunks uses, switched to while names are held and while
	 * interning (a fresh chunk past the limit) */
	for (int mode = 0; mode < 2; mode++) {
		p = parse("x = 1\n");
		CHECK(p != NULL);
		if (!p)
			break;
		enum { N = 3000, BIG = 70000 };
		const char *kept[N];
		char *big = malloc(BIG + 1);
		CHECK(big != NULL);
		if (!big) {
			hilo_pto_program_destroy(p);
			break;
		}
		memset(big, 'b', BIG);
		big[BIG] = '\0';
		const char *bigk = NULL;
		for (int i = 0; i < N; i++) {
			char nm[800];
			snprintf(nm, sizeof nm, "w%d_%0*d", i, 500 + i % 200, i); /* ~600 bytes: ~28 chunks */
			kept[i] = pto_intern(p, nm);
			if (i == 999) {
				bigk = pto_intern_n(p, big, BIG);
				CHECK(!pto_names_wide(p->names));
				/* mode 0: a few chunks more; mode 1: at once */
				pto_names_narrow_limit(p->names, mode ? 0 : 15);
				CHECK(pto_names_wide(p->names) == (mode == 1));
			}
		}
		CHECK(pto_names_wide(p->names));
		size_t same = 0;
		for (int i = 0; i < N; i++) {
			char nm[800];
			snprintf(nm, sizeof nm, "w%d_%0*d", i, 500 + i % 200, i);
			same += pto_intern(p, nm) == kept[i] && !strcmp(kept[i], nm);
		}
		CHECK(same == N && pto_intern_n(p, big, BIG) == bigk && strlen(bigk) == BIG);
		big[BIG - 1] = 'c'; /* same length, one byte differs */
		const char *other = pto_intern_n(p, big, BIG);
		CHECK(other != bigk && other[BIG - 1] == 'c' && pto_intern_n(p, big, BIG - 1) != bigk);
		free(big);
		hilo_pto_program_destroy(p);
	}

	/* variable table: names beyond the up-front estimate (a tuple target
	 * binds four names in one statement) and names a pass reserves are
	 * found like the others, every variable once in the iteration */
	p = parse("import pypto.language as pl\n\n@pl.program\nclass Q:\n"
		"    @pl.function(type=pl.FunctionType.Orchestration)\n"
		"    def f(self, t: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:\n"
		"        a, b, c, d = self.g(t)\n"
		"        return t\n");
	CHECK(p != NULL);
	if (p) {
		pto_fctx fc;
		pto_fctx_init(&fc, p, p->funcs[0]);
		const char *names[] = { "t", "a", "b", "c", "d" };
		for (size_t i = 0; i < 5; i++) {
			pto_var *x = pto_vars_get(fc.vars, pto_intern(p, names[i]));
			CHECK(x && !strcmp(x->name, names[i]));
		}
		CHECK(!pto_vars_get(fc.vars, pto_intern(p, "e")) && pto_vars_count(fc.vars) == 5);
		/* the estimate counts the tuple's four targets: exactly the pool */
		CHECK(fc.vars->cap_pool == 5 && fc.vars->npool == 5 && fc.vars->nextra == 0);
		/* one block holds the header, the pool and the slots (8 for 5
		 * names at 7/8); nothing else is allocated until a table grows */
		CHECK(!fc.vars->slots_own && fc.vars->cap == 8 && !fc.vars->extra && !fc.vars->parents);
		CHECK((char *)fc.vars->pool > (char *)fc.vars && (char *)fc.vars->slots == (char *)(fc.vars->pool + 5));
		/* many reserved names: the slots grow, nothing is lost */
		for (int i = 0; i < 100; i++) {
			char nm[16];
			snprintf(nm, sizeof nm, "r%d", i);
			pto_vars_add(fc.vars, pto_intern(p, nm), PTO_V_LOCAL);
		}
		pto_fctx again; /* the cached table: the same one, additions included */
		pto_fctx_init(&again, p, p->funcs[0]);
		CHECK(again.vars == fc.vars && pto_vars_count(again.vars) == 105);
		size_t found = 0;
		for (int i = 0; i < 100; i++) {
			char nm[16];
			snprintf(nm, sizeof nm, "r%d", i);
			pto_var *x = pto_vars_get(again.vars, pto_intern(p, nm));
			found += x && !strcmp(x->name, nm);
		}
		CHECK(found == 100 && again.vars->nextra == 100 && again.vars->slots_own && again.vars->cap == 128);
		for (size_t i = 0; i < 5; i++)
			CHECK(pto_vars_get(again.vars, pto_intern(p, names[i])) != NULL);
		/* dense indices: every variable's index finds it, reserved ones too */
		size_t at = 0;
		for (size_t i = 0; i < pto_vars_count(again.vars); i++)
			at += pto_vars_index(again.vars, pto_vars_at(again.vars, i)->name) == i;
		CHECK(at == 105 && pto_vars_index(again.vars, pto_intern(p, "e")) == PTO_NO_VAR);
		CHECK(sizeof(pto_var) == 24);
		hilo_pto_program_destroy(p);
	}

	test_analysis_tables();
	test_scratch_reuse();
	test_shared_headers();

	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	else
		printf("unit_pto: all checks passed\n");
	return failures != 0;
}
