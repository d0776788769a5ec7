/* unit_pto_text.c - unit tests of how the PTO parser reads its input: the
 * line producer's window (lines made on demand, looking ahead for a block's
 * end or an `else`), the order of errors (a lexical error anywhere wins over
 * a parse error, as when every line was split before parsing), and the file
 * entry point that does not keep the text (caret lines read back from the
 * file, or left out once it changed). */
#include "pto/pto_ir.h"
#include "pto/pto_lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* The diagnostics as pto-opt prints them. */
static char *diag_text(const hilo_diags *d)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	if (!f)
		return NULL;
	hilo_diags_print(f, d);
	fclose(f);
	return s;
}

/* Parses src; on success checks it prints as want. */
static hilo_pto_program *parse_want(const char *src, const char *want, int line)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_pto_program *p = hilo_pto_parse("t.py", src, strlen(src), &d);
	if (!p) {
		fprintf(stderr, "%s:%d: parse failed:\n", __FILE__, line);
		hilo_diags_print(stderr, &d);
		failures++;
	} else {
		hilo_buf b;
		hilo_buf_init(&b);
		hilo_pto_print(p, &b);
		if (b.len != strlen(want) || memcmp(b.data, want, b.len)) {
			fprintf(stderr, "%s:%d: round trip differs:\n%s\n", __FILE__, line, hilo_buf_cstr(&b));
			failures++;
		}
		hilo_buf_free(&b);
	}
	hilo_diags_free(&d);
	return p;
}

/* Parses src; on success checks it prints back byte for byte. */
static hilo_pto_program *parse_rt(const char *src, int line)
{
	return parse_want(src, src, line);
}

/* Parsing src fails with exactly the diagnostics want. */
static void expect_error(const char *src, const char *want, int line)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_pto_program *p = hilo_pto_parse("t.py", src, strlen(src), &d);
	char *got = diag_text(&d);
	if (p || !got || strcmp(got, want)) {
		fprintf(stderr, "%s:%d: want:\n%sgot:\n%s\n", __FILE__, line, want, got ? got : "(null)");
		failures++;
	}
	free(got);
	hilo_pto_program_destroy(p);
	hilo_diags_free(&d);
}

#define HDR "import pypto.language as pl\n\n@pl.program\nclass P:\n" \
	"    @pl.function(type=pl.FunctionType.Orchestration)\n" \
	"    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"

static void test_window(void)
{
	/* the end of the input without a newline, inside nested blocks */
	hilo_pto_program *p = parse_rt(HDR
		"        for i in pl.range(0, 4, 1):\n"
		"            if i < 2:\n"
		"                x: pl.Scalar[pl.INDEX] = i", __LINE__);
	CHECK(p && p->funcs[0]->body.n == 1 && !p->final_newline);
	if (p) {
		const pto_stmt *f = p->funcs[0]->body.stmts[0];
		CHECK(f->kind == PTO_S_FOR && f->body.n == 1 && f->body.stmts[0]->kind == PTO_S_IF &&
			f->body.stmts[0]->body.n == 1 && pto_stmt_line(p, f->body.stmts[0]->body.stmts[0]) == 9);
	}
	hilo_pto_program_destroy(p);

	/* CRLF lines: verbatim lines keep their '\r', statements parse (and
	 * print with '\n', docs/pto.md "Known gaps") */
	p = parse_want("# header\r\nimport pypto.language as pl\r\n\r\n@pl.program\r\nclass P:\r\n"
		"    @pl.function(type=pl.FunctionType.Orchestration)\r\n"
		"    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\r\n"
		"        return n\r\n",
		"# header\r\nimport pypto.language as pl\r\n\r\n@pl.program\r\nclass P:\r\n"
		"    @pl.function(type=pl.FunctionType.Orchestration)\n"
		"    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"
		"        return n\n", __LINE__);
	CHECK(p && p->nfuncs == 1 && p->funcs[0]->body.n == 1 &&
		p->funcs[0]->body.stmts[0]->kind == PTO_S_RETURN && !strcmp(p->items[0].raw, "# header\r"));
	hilo_pto_program_destroy(p);

	/* a file of only comments and blank lines, with and without a final
	 * newline */
	p = parse_rt("# one\n\n    # two\n#three", __LINE__);
	CHECK(p && p->nfuncs == 0 && p->nitems == 4 && !strcmp(p->items[2].raw, "    # two"));
	hilo_pto_program_destroy(p);
	p = parse_rt("# only\n", __LINE__);
	CHECK(p && p->nitems == 1);
	hilo_pto_program_destroy(p);

	/* a long run of comment lines inside a body: the window grows past its
	 * first size (16 lines) and drops nothing the block still needs; the
	 * lines lead the statement after them, then end the outer block */
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_buf_puts(&b, HDR "        for i in pl.range(0, 4, 1):\n            a: pl.Scalar[pl.INDEX] = i\n");
	for (int k = 0; k < 300; k++)
		hilo_buf_printf(&b, "%s# c%d\n", k % 3 ? "            " : "", k);
	hilo_buf_puts(&b, "            b: pl.Scalar[pl.INDEX] = i\n");
	for (int k = 0; k < 40; k++)
		hilo_buf_printf(&b, "        # d%d\n", k);
	hilo_buf_puts(&b, "        return n\n");
	for (int k = 0; k < 20; k++)
		hilo_buf_printf(&b, "    # e%d\n", k);
	p = parse_rt(hilo_buf_cstr(&b), __LINE__);
	CHECK(p && p->funcs[0]->body.n == 2);
	if (p) {
		const pto_stmt *f = p->funcs[0]->body.stmts[0], *r = p->funcs[0]->body.stmts[1];
		uint32_t n1 = 0, n2 = 0;
		const char *const *l1 = f->body.n == 2 ? pto_stmt_lead(p, f->body.stmts[1], &n1) : NULL;
		CHECK(n1 == 300 && !strcmp(l1[299], "            # c299") && !strcmp(l1[0], "# c0"));
		pto_stmt_lead(p, r, &n2);
		CHECK(r->kind == PTO_S_RETURN && n2 == 40 && pto_stmt_line(p, r) == 6 + 2 + 300 + 1 + 40 + 1);
	}
	hilo_pto_program_destroy(p);
	hilo_buf_free(&b);

	/* an else found by looking ahead over comment lines at several
	 * indentations; the comments before it are the else's lead lines */
	p = parse_rt(HDR
		"        if n < 2:\n"
		"            x: pl.Scalar[pl.INDEX] = n\n"
		"        # before else\n"
		"\n"
		"            # deeper\n"
		"        else:\n"
		"            x: pl.Scalar[pl.INDEX] = n + 1\n"
		"        return x\n", __LINE__);
	CHECK(p && p->funcs[0]->body.n == 2);
	if (p) {
		const pto_stmt *s = p->funcs[0]->body.stmts[0];
		CHECK(s->kind == PTO_S_IF && s->has_else && s->nelse_lead == 3 && s->orelse.n == 1 &&
			!strcmp(s->else_lead[2], "            # deeper"));
	}
	hilo_pto_program_destroy(p);
}

static void test_error_order(void)
{
	/* a parse error, then a lexical error further on: the lexical one is
	 * reported (every line is checked before a parse error counts) */
	expect_error(HDR
		"        x: pl.Scalar[pl.INDEX] = = n\n"
		"        return n\n"
		"    # tail\n"
		"        y = 'open\n",
		"t.py:10:13: error: unterminated string literal\n"
		"        y = 'open\n"
		"            ^\n", __LINE__);
	/* ... an indentation error far after it */
	expect_error(HDR
		"        x: pl.Scalar[pl.INDEX] = = n\n"
		"        return n\n"
		"      z = 1\n",
		"t.py:9:1: error: unindent does not match any outer indentation level\n"
		"      z = 1\n"
		"^\n", __LINE__);
	/* ... a TabError */
	expect_error(HDR
		"        x: pl.Scalar[pl.INDEX] = = n\n"
		"        if n:\n"
		"\tx = 1\n",
		"t.py:9:1: error: inconsistent use of tabs and spaces in indentation (Python's TabError)\n"
		"\tx = 1\n"
		"^\n", __LINE__);
	/* without a lexical error the parse error stands, caret line and all */
	expect_error(HDR
		"        x: pl.Scalar[pl.INDEX] = = n\n"
		"        return n\n"
		"    # tail\n",
		"t.py:7:34: error: expected an expression, found '='\n"
		"        x: pl.Scalar[pl.INDEX] = = n\n"
		"                                 ^\n", __LINE__);
	/* the first lexical error wins over a later one, a parse error between */
	expect_error(HDR
		"        x = ]\n"
		"        y = (\n"
		"        return n ]\n",
		"t.py:7:13: error: unmatched ']'\n"
		"        x = ]\n"
		"            ^\n", __LINE__);
	/* a block header at the end of the input, the lookahead finding nothing */
	expect_error(HDR
		"        for i in pl.range(0, 4, 1):\n"
		"        # no body\n",
		"t.py:7:9: error: expected an indented block\n"
		"        for i in pl.range(0, 4, 1):\n"
		"        ^\n", __LINE__);
	/* the lookahead for a body meets a lexical error: that is the error */
	expect_error(HDR
		"        for i in pl.range(0, 4, 1):\n"
		"            y = \"x\n",
		"t.py:8:17: error: unterminated string literal\n"
		"            y = \"x\n"
		"                ^\n", __LINE__);
}

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(text, 1, strlen(text), f) == strlen(text);
	return fclose(f) == 0 && ok;
}

static const char *GRAPH =
	"import pypto.language as pl\n"
	"\n"
	"@pl.program\n"
	"class P:\n"
	"    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
	"    def layer(self, a: pl.Tensor[[8, 8], pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:\n"
	"        x: pl.Scalar[pl.INDEX] = pl.tensor.dim(a, 0)   # a comment\n"
	"        return a";

/* The messages a late error gives on p: GB001 (a statement's line) and one
 * at the first statement's value (an expression position). */
static char *late_errors(hilo_pto_program *p)
{
	hilo_diags d;
	hilo_diags_init(&d);
	CHECK(hilo_pto_legalize_graph_boundary(p, HILO_PTO_RUNTIME_TENSORMAP_AND_RINGBUFFER, &d) != 0);
	pto_error_at(p, &d, p->funcs[0]->body.stmts[0]->value, "GB999", "at the value");
	char *t = diag_text(&d);
	hilo_diags_free(&d);
	return t;
}

static void test_file(void)
{
	char dir[] = "/tmp/pto_text_XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	char path[64], other[64];
	snprintf(path, sizeof path, "%s/g.py", dir);
	snprintf(other, sizeof other, "%s/h.py", dir);

	/* the same messages as from the text: caret lines read back from the
	 * file, line:col from the table of line starts */
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_pto_program *b = hilo_pto_parse(path, GRAPH, strlen(GRAPH), &d);
	char *want = b ? late_errors(b) : NULL;
	CHECK(want && strstr(want, "error GB001") && strstr(want, "\n    def layer(self,") &&
		strstr(want, ":7:34: error GB999: at the value\n        x: pl.Scalar[pl.INDEX] = pl.tensor.dim(a, 0)   # a comment\n"));
	CHECK(write_file(path, GRAPH));
	hilo_pto_program *p = hilo_pto_parse_file(path, NULL, &d);
	CHECK(p && !p->src && p->nline_starts == 8 && pto_line_start(p, 8) == strlen(GRAPH) - strlen("        return a"));
	char *got = p ? late_errors(p) : NULL;
	CHECK(want && got && !strcmp(want, got));
	if (want && got && strcmp(want, got))
		fprintf(stderr, "want:\n%s\ngot:\n%s\n", want, got);
	free(got);
	got = NULL;
	if (p && b) {
		/* every position to line:col as from the text */
		const pto_stmt *s = p->funcs[0]->body.stmts[0], *sb = b->funcs[0]->body.stmts[0];
		const pto_expr *e[] = { s->target, s->value, pto_expr_base(s->value), s->value->items[1] };
		const pto_expr *eb[] = { sb->target, sb->value, pto_expr_base(sb->value), sb->value->items[1] };
		for (int k = 0; k < 4; k++) {
			int l1, c1, l2, c2;
			pto_pos_linecol(p, e[k]->pos, &l1, &c1);
			pto_pos_linecol(b, eb[k]->pos, &l2, &c2);
			CHECK(l1 == l2 && c1 == c2 && l1 == 7);
		}
		int l, c;
		pto_pos_linecol(p, (uint32_t)strlen(GRAPH) + 1, &l, &c); /* the end */
		CHECK(l == 8 && c == 17);
		for (uint32_t k = 1; k <= strlen(GRAPH) + 1; k++) { /* every offset, line starts too */
			int l2, c2;
			pto_pos_linecol(p, k, &l, &c);
			pto_pos_linecol(b, k, &l2, &c2);
			if (l != l2 || c != c2) {
				CHECK(l == l2 && c == c2);
				break;
			}
		}
		/* printing needs no text */
		hilo_buf out;
		hilo_buf_init(&out);
		hilo_pto_print(p, &out);
		CHECK(out.len == strlen(GRAPH) && !memcmp(out.data, GRAPH, out.len));
		hilo_buf_free(&out);
	}

	/* the file replaced by another one (rename): the file parsed is
	 * unlinked (its change time moves), so no line is shown - neither the
	 * new file's nor the old one's */
	char *alt = strdup(GRAPH);
	alt[strlen(alt) - 1] = 'b';
	alt[strstr(alt, "def layer") - alt + 4] = 'L';
	CHECK(write_file(other, alt) && rename(other, path) == 0);
	got = p ? late_errors(p) : NULL;
	CHECK(got && !strstr(got, "def ") && !strstr(got, "^") && strstr(got, "at the value"));
	free(got);
	hilo_pto_program_destroy(p);

	/* the file changed in place after parsing (same size): the messages
	 * come without their source lines */
	CHECK(write_file(path, GRAPH));
	p = hilo_pto_parse_file(path, "shown.py", &d);
	CHECK(p != NULL);
	usleep(20000); /* a later modification time even on coarse clocks */
	CHECK(write_file(path, alt));
	got = p ? late_errors(p) : NULL;
	CHECK(got && !strstr(got, "def ") && !strstr(got, "^") && !strncmp(got, "shown.py:6:9: error GB001", 25) &&
		strstr(got, "\nshown.py:7:34: error GB999: at the value\n") &&
		got[strlen(got) - 1] == '\n' && !strstr(got, "pl.tensor.dim"));
	free(got);
	/* ... or truncated: no line either, no crash */
	CHECK(truncate(path, 10) == 0);
	got = p ? late_errors(p) : NULL;
	CHECK(got && !strstr(got, "^") && strstr(got, "at the value"));
	free(got);
	hilo_pto_program_destroy(p);
	free(alt);

	/* a parse error in a file shows its line (the text is there while
	 * parsing); the end of the file without a newline */
	CHECK(write_file(path, "import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function()\n    def f(self, x: = 1):"));
	hilo_diags_free(&d);
	hilo_diags_init(&d);
	CHECK(!hilo_pto_parse_file(path, "f.py", &d));
	got = diag_text(&d);
	CHECK(got && !strcmp(got, "f.py:6:20: error: expected an expression, found '='\n"
		"    def f(self, x: = 1):\n                   ^\n"));
	free(got);

	/* a file of only whitespace, a folder, a missing file: cli_read_input's
	 * checks and messages */
	CHECK(write_file(path, " \n\t\r\n  "));
	hilo_diags_free(&d);
	hilo_diags_init(&d);
	CHECK(!hilo_pto_parse_file(path, "f.py", &d) && d.n == 1 && d.items[0].line == 3 && d.items[0].col == 3 &&
		!strcmp(d.items[0].msg, "empty input: expected a PyPTO program"));
	hilo_diags_free(&d);
	hilo_diags_init(&d);
	CHECK(!hilo_pto_parse_file(dir, NULL, &d) && d.n == 1 && !strcmp(d.items[0].msg, "is a directory") &&
		!strcmp(d.items[0].file, dir));
	hilo_diags_free(&d);
	hilo_diags_init(&d);
	CHECK(!hilo_pto_parse_file(other, NULL, &d) && d.n == 1 && !strncmp(d.items[0].msg, "cannot open: ", 13));
	hilo_diags_free(&d);

	/* a file of only comments defines no function: not a program */
	CHECK(write_file(path, "# a\n# b\n"));
	CHECK(!hilo_pto_parse_file(path, NULL, &d) && d.n == 1 && d.items[0].line == 1 &&
		!strncmp(d.items[0].msg, "not a PyPTO program: ", 21));
	hilo_diags_free(&d);
	hilo_diags_init(&d);
	/* a comment and a function: the text dropped, its line starts kept */
	CHECK(write_file(path, "# a\ndef f():\n    pass\n"));
	p = hilo_pto_parse_file(path, NULL, &d);
	CHECK(p && p->nitems == 2 && !p->src && p->nline_starts == 4);
	hilo_pto_program_destroy(p);

	hilo_pto_program_destroy(b);
	free(want);
	hilo_diags_free(&d);
	unlink(path);
	unlink(other);
	rmdir(dir);
}

/* The diagnostics of parsing text from a buffer and from the file path:
 * both must be the same; *pp receives the file's program (or NULL). */
static void same_as_buffer(const char *path, const char *text, hilo_pto_program **pp, int line)
{
	hilo_diags d1, d2;
	hilo_diags_init(&d1);
	hilo_diags_init(&d2);
	hilo_pto_program *b = hilo_pto_parse(path, text, strlen(text), &d1);
	CHECK(write_file(path, text));
	hilo_pto_program *p = hilo_pto_parse_file(path, NULL, &d2);
	char *t1 = diag_text(&d1), *t2 = diag_text(&d2);
	if (!t1 || !t2 || strcmp(t1, t2) || !b != !p) {
		fprintf(stderr, "%s:%d: buffer:\n%s\nfile:\n%s\n", __FILE__, line, t1, t2);
		failures++;
	}
	if (b && p) {
		/* a message about the last statement after parsing: the same */
		const pto_block *body = &b->funcs[0]->body, *pbody = &p->funcs[0]->body;
		hilo_diags_free(&d1);
		hilo_diags_free(&d2);
		hilo_diags_init(&d1);
		hilo_diags_init(&d2);
		pto_error_at(b, &d1, body->stmts[body->n - 2]->value, "GB999", "late");
		pto_error_at(p, &d2, pbody->stmts[pbody->n - 2]->value, "GB999", "late");
		free(t1);
		free(t2);
		t1 = diag_text(&d1);
		t2 = diag_text(&d2);
		CHECK(t1 && t2 && !strcmp(t1, t2) && strstr(t1, "^"));
	}
	free(t1);
	free(t2);
	hilo_diags_free(&d1);
	hilo_diags_free(&d2);
	hilo_pto_program_destroy(b);
	if (pp)
		*pp = p;
	else
		hilo_pto_program_destroy(p);
}

/* A file past PTO_RELEASE_STEP: the parser releases the text below the
 * current line as it reads on; positions, caret lines of parse errors (late
 * ones, and a lexical error after a parse error) and of later messages are
 * as from the whole text. */
static void test_release(void)
{
	char dir[] = "/tmp/pto_rel_XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	char path[64];
	snprintf(path, sizeof path, "%s/big.py", dir);
	enum { N = 30000 };
	for (int v = 0; v < 4; v++) {
		hilo_buf b;
		hilo_buf_init(&b);
		hilo_buf_puts(&b, HDR);
		for (int k = 0; k < N; k++) {
			if (v == 1 && k == N - 100)
				hilo_buf_puts(&b, "        bad: pl.Scalar[pl.INDEX] = = n\n"); /* a late parse error */
			else if (v == 2 && k == 3)
				hilo_buf_puts(&b, "        bad = = n\n"); /* an early one ... */
			else if (k % 1000 == 999)
				hilo_buf_printf(&b, "        # note %d\n", k);
			else
				hilo_buf_printf(&b, "        x%d: pl.Scalar[pl.INDEX] = n + %d  # c\n", k, k);
		}
		if (v == 2)
			hilo_buf_puts(&b, "        s = 'open\n"); /* ... and a lexical one at the end */
		if (v == 3)
			hilo_buf_puts(&b, "        t = [n,\n            n,\n"); /* never closed */
		hilo_buf_puts(&b, "        return n\n");
		CHECK(b.len > PTO_RELEASE_STEP / 4 * 5);
		hilo_pto_program *p = NULL;
		same_as_buffer(path, hilo_buf_cstr(&b), &p, __LINE__);
		CHECK((v == 0) == (p != NULL));
		if (p) {
			CHECK(p->text_released >= PTO_RELEASE_STEP / 2 && !p->src);
			hilo_buf out;
			hilo_buf_init(&out);
			hilo_pto_print(p, &out);
			CHECK(out.len == b.len && !memcmp(out.data, b.data, b.len));
			hilo_buf_free(&out);
			const pto_block *body = &p->funcs[0]->body;
			uint32_t nl = 0;
			pto_stmt_lead(p, body->stmts[body->n - 1], &nl);
			CHECK(body->n == N - N / 1000 + 1 && pto_stmt_trail(p, body->stmts[body->n - 2]) &&
				!strcmp(pto_stmt_trail(p, body->stmts[body->n - 2]), "  # c") && nl == 1);
		}
		hilo_pto_program_destroy(p);
		hilo_buf_free(&b);
	}
	unlink(path);
	rmdir(dir);
}

/* Comment lines of statements legalize hoists out of a Graph move to the
 * next statement kept, before that statement's own lines (legalize's
 * rewrite_block). */
static void test_hoisted_comments(void)
{
	const char *src =
		"import pypto.language as pl\n\n@pl.program\nclass P:\n"
		"    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
		"    def kern(a: pl.Tensor[[512, 128], pl.FP32], off: pl.Scalar[pl.INDEX], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:\n"
		"        t: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [off, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)\n"
		"        c_1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t, [0, 0], c)\n"
		"        return c\n"
		"    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
		"    def layer(self, a: pl.Tensor[[512, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]], idx: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128, 128], pl.FP32]:\n"
		"        # hoisted one\n"
		"        base: pl.Scalar[pl.INDEX] = idx * 128\n"
		"        # hoisted two\n"
		"        col: pl.Scalar[pl.INDEX] = base + 128\n"
		"        # own\n"
		"        c_1: pl.Tensor[[128, 128], pl.FP32] = self.kern(a, col, c)  # trail\n"
		"        return c\n"
		"    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
		"    def main(self, a: pl.Tensor[[512, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:\n"
		"        c_3: pl.Tensor[[128, 128], pl.FP32] = self.layer(a, c, 7)\n"
		"        return c\n";
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_pto_program *p = hilo_pto_parse("h.py", src, strlen(src), &d);
	CHECK(p && hilo_pto_legalize_graph_boundary(p, HILO_PTO_RUNTIME_HOST_BUILD_GRAPH, &d) == 0);
	if (p) {
		hilo_buf b;
		hilo_buf_init(&b);
		hilo_pto_print(p, &b);
		const char *out = hilo_buf_cstr(&b);
		CHECK(strstr(out, "        # hoisted one\n        # hoisted two\n        # own\n"
			"        c_1: pl.Tensor[[128, 128], pl.FP32] = self.kern(a, col, c)  # trail\n"));
		hilo_buf_free(&b);
		/* the bindings legalize puts before the call are placed at the
		 * call (its line:col, not one derived from their indentation) */
		const pto_block *mb = &p->funcs[2]->body;
		const pto_stmt *call = mb->n ? mb->stmts[mb->n - 2] : NULL;
		int cl = 0, cc = 0, bl = -1, bc = -1;
		if (call && call->value)
			pto_pos_linecol(p, call->value->pos, &cl, &cc);
		CHECK(mb->n == 4 && strstr(mb->stmts[0]->target->name, "__graph_arg"));
		if (mb->n == 4)
			pto_stmt_linecol(p, mb->stmts[0], &bl, &bc);
		CHECK(cl == 21 && cc == 47 && bl == cl && bc == cc && pto_stmt_line(p, mb->stmts[0]) == 21);
		CHECK(mb->n == 4 && pto_stmt_indent(p, mb->stmts[0]) == pto_stmt_indent(p, call));
	}
	hilo_pto_program_destroy(p);
	hilo_diags_free(&d);
}

/* A statement's column follows from its indentation as the lexer counts
 * it (tabs to multiples of 8); an indentation past the program's table of
 * them goes to the side record and reads back the same. */
static void test_stmt_position(void)
{
	hilo_pto_program *p = parse_rt("import pypto.language as pl\n\n@pl.program\nclass P:\n"
		"\t@pl.function(type=pl.FunctionType.Orchestration)\n"
		"\tdef f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"
		"\t  \tx: pl.Scalar[pl.INDEX] = n  # t\n"
		"\t  \treturn x\n", __LINE__);
	CHECK(p && p->funcs[0]->body.n == 2);
	if (!p)
		return;
	const pto_stmt *x = p->funcs[0]->body.stmts[0];
	int l = 0, c = 0;
	pto_stmt_linecol(p, x, &l, &c);
	CHECK(l == 7 && c == 17 && !strcmp(pto_stmt_indent(p, x), "\t  \t"));
	CHECK(x->side && !strcmp(pto_stmt_trail(p, x), "  # t"));
	CHECK(pto_stmt_indent(p, x) == pto_stmt_indent(p, p->funcs[0]->body.stmts[1]) && p->nindents == 1);
	/* 70000 distinct indentations: the table holds 65534, the rest are
	 * side records */
	enum { N = 70000 };
	pto_stmt **st = malloc(N * sizeof *st);
	const char **ind = malloc(N * sizeof *ind);
	bool ok = st && ind;
	for (int k = 0; ok && k < N; k++) {
		char nm[16];
		snprintf(nm, sizeof nm, "i%d", k);
		ind[k] = pto_intern(p, nm);
		st[k] = pto_stmt_new(p, PTO_S_PASS);
		pto_stmt_set_indent(p, st[k], ind[k]);
		if (k % 7 == 0)
			pto_stmt_set_trail(p, st[k], ind[k]);
	}
	for (int k = 0; ok && k < N; k++)
		ok = pto_stmt_indent(p, st[k]) == ind[k] && (st[k]->indent_id == PTO_INDENT_SIDE) == (k >= 65533) &&
			pto_stmt_trail(p, st[k]) == (k % 7 ? NULL : ind[k]);
	CHECK(ok && p->nindents == PTO_INDENT_SIDE - 1);
	pto_stmt_set_indent(p, st[N - 1], NULL);
	pto_stmt_linecol(p, st[N - 1], &l, &c);
	CHECK(ok && !pto_stmt_indent(p, st[N - 1]) && c == 0);
	free(st);
	free((void *)ind);
	hilo_pto_program_destroy(p);
}

/* The table of line starts (a byte a line, every 16th start whole, long
 * lines aside) gives every line's start and every offset's line:col as a
 * scan of the text does. */
static void test_line_table(void)
{
	hilo_buf b;
	hilo_buf_init(&b);
	for (int k = 0; k < 700; k++) {
		int len = k % 50 == 7 ? 254 + k % 3 : (k * 37) % 700; /* 254, 255, 256: the escape's edge */
		hilo_buf_putc(&b, '#');
		for (int i = 1; i < len; i++)
			hilo_buf_putc(&b, (char)('a' + i % 26));
		hilo_buf_putc(&b, '\n');
		if (k % 97 == 0)
			hilo_buf_putc(&b, '\n'); /* empty lines too */
	}
	hilo_buf_puts(&b, "# no newline at the end");
	const char *src = hilo_buf_cstr(&b);
	hilo_pto_program *p = parse_rt(src, __LINE__);
	CHECK(p && p->src);
	if (p) {
		pto_lines_build(p);
		size_t line = 1, ls = 0;
		bool ok = p->nline_starts > 700 && p->nls_long > 0;
		for (size_t off = 0; ok && off <= b.len; off++) {
			if (off && src[off - 1] == '\n') {
				line++;
				ls = off;
				ok = pto_line_start(p, line) == ls;
			}
			int l = 0, c = 0;
			pto_pos_linecol(p, (uint32_t)off + 1, &l, &c);
			ok = ok && l == (int)line && c == (int)(off - ls) + 1;
			if (!ok)
				fprintf(stderr, "offset %zu: line %d col %d, want %zu %zu\n", off, l, c, line, off - ls + 1);
		}
		CHECK(ok && line == p->nline_starts);
	}
	hilo_pto_program_destroy(p);
	hilo_buf_free(&b);
}

int main(void)
{
	test_line_table();
	test_stmt_position();
	test_hoisted_comments();
	test_window();
	test_error_order();
	test_file();
	test_release();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	else
		printf("unit_pto_text: all checks passed\n");
	return failures != 0;
}
