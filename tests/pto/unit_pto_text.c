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
			f->body.stmts[0]->body.n == 1 && f->body.stmts[0]->body.stmts[0]->line == 9);
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
		CHECK(f->body.n == 2 && f->body.stmts[1]->nlead == 300 &&
			!strcmp(f->body.stmts[1]->lead[299], "            # c299") &&
			!strcmp(f->body.stmts[1]->lead[0], "# c0"));
		CHECK(r->kind == PTO_S_RETURN && r->nlead == 40 && r->line == 6 + 2 + 300 + 1 + 40 + 1);
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

int main(void)
{
	test_window();
	test_error_order();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	else
		printf("unit_pto_text: all checks passed\n");
	return failures != 0;
}
