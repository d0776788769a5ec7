/* pto_lex.c - line producer and tokenizer for PyPTO program text (see
 * pto_lex.h; the parser proper is pto_parse.c).
 *
 * The line producer turns the input into logical lines on demand: a
 * verbatim line (blank or comment) or a code line with its indentation and
 * tokens (brackets may continue a logical line over several physical
 * ones); it keeps a window of the lines the parser may still read.
 * Python's own lexical rules are enforced here: UTF-8, indentation that
 * dedents to an enclosing level, and no tab/space mix whose order depends
 * on the tab size (TabError). Every error is located (line:col), and a
 * lexical error anywhere wins over a parse error (pto_lex_finish).
 */
#include "pto/pto_lex.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The first error is held (formatted) until pto_lex_finish reports it. */
static void hold_error(parser *ps, int line, int col, const char *fmt, va_list ap)
{
	hilo_arena *a = ps->p->arena;
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *m = hilo_heap_alloc(a, n > 0 ? (size_t)n + 1 : 1);
	if (!m)
		pto_oom(a);
	m[0] = 0;
	if (n > 0)
		vsnprintf(m, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	hilo_heap_free(a, ps->err_msg);
	ps->err_msg = m;
	ps->err_line = line;
	ps->err_col = col;
	ps->failed = true;
	/* a file's text: its caret line now, from the text while it is there
	 * (else read again from the file) */
	const hilo_pto_program *p = ps->p;
	hilo_heap_free(a, ps->err_text);
	ps->err_text = NULL;
	ps->err_textn = 0;
	if (p->nline_starts && line > 0) {
		size_t start = (size_t)line <= p->nline_starts ? pto_line_start(p, (size_t)line) : p->srclen;
		char buf[400];
		size_t n = p->srclen - start < sizeof buf ? p->srclen - start : sizeof buf;
		const char *t = p->src + start;
		if (start < ps->released)
			t = pto_file_line(p, line, buf, &n) ? buf : NULL;
		if (t) {
			ps->err_text = hilo_heap_alloc(a, n + 1);
			if (!ps->err_text)
				pto_oom(a);
			memcpy(ps->err_text, t, n);
			ps->err_textn = n;
		}
	}
}

/* Reports the held error (pto_lex_finish). */
static void report_error(parser *ps, const char *fmt, ...)
{
	const hilo_pto_program *p = ps->p;
	va_list ap;
	va_start(ap, fmt);
	if (p->nline_starts)
		hilo_diag_addv_line(ps->d, HILO_SEV_ERROR, p->file, ps->err_line, ps->err_col, ps->err_text,
			ps->err_textn, NULL, fmt, ap);
	else
		hilo_diag_addv(ps->d, HILO_SEV_ERROR, p->file, ps->err_line, ps->err_col, p->src, p->srclen,
			NULL, fmt, ap);
	va_end(ap);
}

void pto_lex_error(parser *ps, int line, int col, const char *fmt, ...)
{
	if (ps->failed)
		return;
	va_list ap;
	va_start(ap, fmt);
	hold_error(ps, line, col, fmt, ap);
	va_end(ap);
}

void pto_lex_fatal(parser *ps, int line, int col, const char *fmt, ...)
{
	if (ps->lexfail)
		return;
	va_list ap;
	va_start(ap, fmt);
	hold_error(ps, line, col, fmt, ap);
	va_end(ap);
	ps->lexfail = true;
}

/* ---- line producer / tokenizer -------------------------------------- */

static bool is_id0(unsigned char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80; }
static bool is_id(unsigned char c) { return is_id0(c) || (c >= '0' && c <= '9'); }

static const char *const ops3[] = { "...", "**=", "//=", ">>=", "<<=", NULL };
static const char *const ops2[] = { "**", "//", "==", "!=", "<=", ">=", "<<", ">>", "->",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":=", NULL };

/* Tokenizes one logical line starting at *qp (after the indentation of the
 * physical line that begins at ls) into ps->scratch; leaves *qp on the
 * terminating newline (or the end) and *linep on its line number. */
static bool lex(parser *ps, const char **qp, int *linep, const char *ls)
{
	hilo_pto_program *p = ps->p;
	const char *end = p->src + p->srclen;
	const char *q = *qp;
	int line = *linep;
	/* tokenize until newline at bracket depth 0 */
	tok *toks = ps->scratch;
	size_t nt = 0, tcap = ps->scap;
	int depth = 0, open_line = line, open_col = 1;
	char open_c = '(';
	const char *lstart = ls;
	ps->trail_s = NULL;
	for (;;) {
		while (q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\f'))
			q++;
		if (q >= end || *q == '\n' || *q == '#') {
			if (q < end && *q == '#') {
				const char *ce = memchr(q, '\n', (size_t)(end - q));
				if (!ce)
					ce = end;
				if (depth == 0) {
					/* keep the whitespace before the comment */
					const char *ws = q;
					while (ws > lstart && (ws[-1] == ' ' || ws[-1] == '\t'))
						ws--;
					const char *te = ce;
					ps->trail_s = ws;
					ps->trail_n = (size_t)(te - ws);
				}
				q = ce;
			}
			if (depth > 0 && q < end) {
				q++; /* continuation line */
				line++;
				lstart = q;
				continue;
			}
			if (depth > 0) {
				pto_lex_fatal(ps, open_line, open_col, "'%c' was never closed", open_c);
				return false;
			}
			break;
		}
		if (q[0] == '\\' && q + 1 < end && q[1] == '\n') {
			q += 2;
			line++;
			lstart = q;
			continue;
		}
		if (nt == tcap) {
			tcap = tcap ? tcap * 2 : 16;
			tok *nb = hilo_heap_realloc(p->arena, toks, tcap * sizeof *toks);
			if (!nb)
				pto_oom(p->arena);
			toks = ps->scratch = nb;
			ps->scap = tcap;
		}
		tok *t = &toks[nt];
		t->line = line;
		t->col = (int)(q - lstart) + 1;
		t->s = q;
		unsigned char c = (unsigned char)*q;
		if (c == '\0') {
			pto_lex_fatal(ps, line, t->col, "NUL byte in program text");
			return false;
		}
		if (is_id0(c)) {
			const char *r = q;
			while (r < end && is_id((unsigned char)*r))
				r++;
			if (r < end && (*r == '"' || *r == '\'') && r - q <= 2) {
				/* string prefix such as r"..." or b'...' */
				q = r;
				goto string;
			}
			t->type = T_NAME;
			t->len = (size_t)(r - q);
			q = r;
		} else if ((c >= '0' && c <= '9') || (c == '.' && q + 1 < end && q[1] >= '0' && q[1] <= '9')) {
			const char *r = q;
			while (r < end && (is_id((unsigned char)*r) || *r == '.' ||
				((*r == '+' || *r == '-') && (r[-1] == 'e' || r[-1] == 'E') &&
				 !(q[0] == '0' && q + 1 < end && (q[1] == 'x' || q[1] == 'X')))))
				r++;
			t->type = T_NUM;
			t->len = (size_t)(r - q);
			q = r;
		} else if (c == '"' || c == '\'') {
		string:;
			char qc = *q;
			bool triple = q + 2 < end && q[1] == qc && q[2] == qc;
			const char *r = q + (triple ? 3 : 1);
			for (;;) {
				if (r >= end || (!triple && *r == '\n')) {
					pto_lex_fatal(ps, line, t->col, "unterminated string literal");
					return false;
				}
				if (*r == '\\' && r + 1 < end) {
					r += 2;
					continue;
				}
				if (*r == '\n')
					line++;
				if (*r == qc) {
					if (!triple) {
						r++;
						break;
					}
					if (r + 2 < end && r[1] == qc && r[2] == qc) {
						r += 3;
						break;
					}
				}
				r++;
			}
			t->type = T_STR;
			t->len = (size_t)(r - t->s);
			q = r;
		} else {
			size_t len = 0;
			for (int k = 0; ops3[k] && !len; k++)
				if (end - q >= 3 && !memcmp(q, ops3[k], 3))
					len = 3;
			for (int k = 0; ops2[k] && !len; k++)
				if (end - q >= 2 && !memcmp(q, ops2[k], 2))
					len = 2;
			if (!len) {
				if (!strchr("()[]{},:.;=+-*/%<>@&|^~!", c)) {
					if (c < 0x20 || c >= 0x7f)
						pto_lex_fatal(ps, line, t->col, "unexpected byte 0x%02x", c);
					else
						pto_lex_fatal(ps, line, t->col, "unexpected character '%c'", c);
					return false;
				}
				len = 1;
			}
			if (c == '(' || c == '[' || c == '{') {
				if (depth++ == 0) {
					open_line = line;
					open_col = t->col;
					open_c = (char)c;
				}
			}
			if (c == ')' || c == ']' || c == '}') {
				if (--depth < 0) {
					pto_lex_fatal(ps, line, t->col, "unmatched '%c'", c);
					return false;
				}
			}
			if (depth > MAX_DEPTH) {
				pto_lex_fatal(ps, line, t->col, "brackets nested too deeply");
				return false;
			}
			t->type = T_OP;
			t->len = len;
			q += len;
		}
		nt++;
	}
	ps->nscratch = nt;
	*qp = q;
	*linep = line;
	return true;
}

/* Python's indentation rules (its tokenizer's, so the output parses where
 * the input did): indentation is measured twice, a tab advancing to the
 * next multiple of 8 and of 1 columns; both measures must order the lines
 * the same way (else TabError), and a dedent must return to an enclosing
 * level. ind8/ind1 are the two measures of a code line; the stack of
 * enclosing levels is ps->ind8/ind1[0..nind). */
static bool check_indent(parser *ps, int line, int ind8, int ind1)
{
	size_t n = ps->nind;
	if (ind8 == ps->ind8[n - 1]) {
		if (ind1 != ps->ind1[n - 1])
			goto tab;
		return true;
	}
	if (ind8 > ps->ind8[n - 1]) {
		if (ind1 <= ps->ind1[n - 1])
			goto tab;
		if (n == ps->capind) {
			size_t nc = ps->capind * 2;
			int *a = hilo_heap_realloc(ps->p->arena, ps->ind8, nc * sizeof *a);
			if (!a)
				pto_oom(ps->p->arena);
			ps->ind8 = a;
			int *b = hilo_heap_realloc(ps->p->arena, ps->ind1, nc * sizeof *b);
			if (!b)
				pto_oom(ps->p->arena);
			ps->ind1 = b;
			ps->capind = nc;
		}
		ps->ind8[n] = ind8;
		ps->ind1[n] = ind1;
		ps->nind = n + 1;
		return true;
	}
	while (n > 1 && ind8 < ps->ind8[n - 1])
		n--;
	ps->nind = n;
	if (ind8 != ps->ind8[n - 1]) {
		pto_lex_fatal(ps, line, 1, "unindent does not match any outer indentation level");
		return false;
	}
	if (ind1 != ps->ind1[n - 1])
		goto tab;
	return true;
tab:
	pto_lex_fatal(ps, line, 1, "inconsistent use of tabs and spaces in indentation (Python's TabError)");
	return false;
}

/* Python source is UTF-8: the first malformed, overlong, surrogate or
 * out-of-range sequence is an error at its line and column. */
bool pto_lex_check_utf8(parser *ps, const unsigned char *s, size_t len, size_t *nlines)
{
	int line = 1, col = 1;
	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t n = 0;
		uint32_t cp = 0, min = 0;
		if (c < 0x80) {
			if (c == '\n') {
				line++;
				col = 0;
			}
			i++;
			col++;
			continue;
		}
		if ((c & 0xE0) == 0xC0) { n = 1; cp = c & 0x1F; min = 0x80; }
		else if ((c & 0xF0) == 0xE0) { n = 2; cp = c & 0x0F; min = 0x800; }
		else if ((c & 0xF8) == 0xF0) { n = 3; cp = c & 0x07; min = 0x10000; }
		bool ok = n > 0;
		for (size_t k = 1; ok && k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
				ok = false;
			else
				cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if (!ok || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
			pto_lex_fatal(ps, line, col, "invalid UTF-8 byte 0x%02x in program text", c);
			return false;
		}
		i += n + 1;
		col += (int)n + 1; /* byte columns, like every other diagnostic */
	}
	*nlines = (size_t)line - (len && s[len - 1] == '\n');
	return true;
}

void pto_lex_begin(parser *ps)
{
	hilo_arena *a = ps->p->arena;
	ps->ind8 = hilo_heap_alloc(a, 16 * sizeof(int));
	ps->ind1 = hilo_heap_alloc(a, 16 * sizeof(int));
	if (!ps->ind8 || !ps->ind1)
		pto_oom(a);
	ps->ind8[0] = ps->ind1[0] = 0;
	ps->nind = 1;
	ps->capind = 16;
	ps->next = ps->p->src;
	ps->next_line = 1;
	ps->lo = ps->hi = 0;
	ps->eof = false;
}

/* A slot for line hi in the window: lines before the current one are
 * dropped first, else the window doubles. */
static lline *window_slot(parser *ps)
{
	if (ps->lo < ps->li)
		ps->lo = ps->li < ps->hi ? ps->li : ps->hi;
	if (ps->hi - ps->lo == ps->rcap) {
		size_t ncap = ps->rcap ? ps->rcap * 2 : 16;
		lline *nr = hilo_heap_alloc(ps->p->arena, ncap * sizeof *nr);
		if (!nr)
			pto_oom(ps->p->arena);
		for (size_t k = ps->lo; k < ps->hi; k++)
			nr[k & (ncap - 1)] = ps->ring[k & (ps->rcap - 1)];
		hilo_heap_free(ps->p->arena, ps->ring);
		ps->ring = nr;
		ps->rcap = ncap;
	}
	return &ps->ring[ps->hi & (ps->rcap - 1)];
}

/* A large file's text is released below the current line as the parse
 * goes on, in steps of PTO_RELEASE_STEP: nothing reads it again (what the
 * program keeps is copied; line:col and caret lines come from the table of
 * line starts and the file), and the text is freed once parsed anyway. The
 * pages go back to the system (MADV_DONTNEED on the malloc'd buffer; its
 * first page, which holds malloc's header, never: the range starts at the
 * first page boundary inside the buffer). */
static void release_text(parser *ps)
{
	const hilo_pto_program *p = ps->p;
	if ((size_t)(ps->next - p->src) < ps->released + PTO_RELEASE_STEP)
		return; /* keep is at most that */
	size_t keep = ps->li < ps->hi ? pto_line_start(p, (size_t)ps->ring[ps->li & (ps->rcap - 1)].line)
	                              : (size_t)(ps->next - p->src);
	if (keep < ps->released + PTO_RELEASE_STEP)
		return;
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)(p->src + ps->released) + pg - 1) & ~(pg - 1);
	uintptr_t hi = (uintptr_t)(p->src + keep) & ~(pg - 1);
	if (hi <= lo)
		return;
	if (madvise((void *)lo, hi - lo, MADV_DONTNEED) == 0)
		ps->p->text_released += hi - lo;
	ps->released = (size_t)((const char *)hi - p->src);
}

/* Reads the next logical line into the window; false at the end of the
 * input or on a lexical error (ps->eof is then set). */
static bool produce(parser *ps)
{
	hilo_pto_program *p = ps->p;
	const char *s = ps->next, *end = p->src + p->srclen;
	if (ps->eof || s >= end) {
		ps->eof = true;
		return false;
	}
	int line = ps->next_line;
	const char *ls = s;
	const char *le = memchr(s, '\n', (size_t)(end - s));
	if (!le)
		le = end;
	int ind;
	const char *q = pto_indent_scan(ls, le, &ind);
	int ind1 = (int)(q - ls); /* the width with a tab counted as 1 (TabError's check) */
	const char *rawend = le; /* a '\r' stays: verbatim lines print back byte for byte */
	lline L;
	memset(&L, 0, sizeof L);
	L.line = line;
	const char *nb = q;
	while (nb < rawend && (*nb == '\r' || *nb == '\f' || *nb == ' ' || *nb == '\t'))
		nb++;
	if (nb >= rawend || *q == '#') { /* blank (CR/FF too) or comment */
		if (!ps->draining) {
			L.raw = hilo_arena_strndup(p->arena, ls, (size_t)(rawend - ls));
			if (!L.raw)
				pto_oom(p->arena);
		}
		ps->next = le < end ? le + 1 : end;
	} else {
		if (!check_indent(ps, line, ind, ind1)) {
			ps->eof = true;
			return false;
		}
		if (!ps->draining)
			L.indent_s = pto_intern_n(p, ls, (size_t)(q - ls));
		if (!lex(ps, &q, &line, ls)) {
			ps->eof = true;
			return false;
		}
		L.code = true;
		L.indent = ind;
		L.ntoks = ps->nscratch != 0;
		if (L.ntoks) {
			const tok *t0 = &ps->scratch[0];
			L.first = (ltok){ t0->s, t0->len > UINT32_MAX ? UINT32_MAX : (uint32_t)t0->len,
				(uint8_t)t0->type };
		}
		/* verbatim text of the whole logical line, copied only if it is
		 * used (outside functions) */
		L.raw_s = ls;
		L.raw_n = (uint32_t)(q - ls); /* below 4 GiB: the parser caps the input */
		ps->lexed = ps->hi + 1; /* its tokens are in scratch */
		ps->next = q < end ? q + 1 : end;
	}
	ps->next_line = line + 1;
	*window_slot(ps) = L;
	ps->hi++;
	if (ps->release)
		release_text(ps);
	return true;
}

const lline *pto_lex_line(parser *ps, size_t i)
{
	if (i < ps->lo)
		HILO_PANIC("a line before the parser's window");
	while (i >= ps->hi)
		if (!produce(ps))
			return NULL;
	return &ps->ring[i & (ps->rcap - 1)];
}

void pto_lex_finish(parser *ps)
{
	hilo_arena *a = ps->p->arena;
	if (ps->failed && !ps->lexfail) {
		/* a lexical error later in the input wins, as when every line
		 * was read before parsing */
		ps->draining = true;
		for (;;) {
			ps->li = ps->hi;
			if (!produce(ps))
				break;
		}
	}
	if (ps->failed)
		report_error(ps, "%s", ps->err_msg ? ps->err_msg : "");
	hilo_heap_free(a, ps->err_msg);
	hilo_heap_free(a, ps->err_text);
	ps->err_text = NULL;
	hilo_heap_free(a, ps->ring);
	hilo_heap_free(a, ps->ind8);
	hilo_heap_free(a, ps->ind1);
	hilo_heap_free(a, ps->scratch);
	ps->err_msg = NULL;
	ps->ring = NULL;
	ps->ind8 = ps->ind1 = NULL;
	ps->scratch = NULL;
}

void pto_lex_set_line(parser *ps, size_t li)
{
	ps->li = li;
	const lline *L = pto_lex_line(ps, li);
	if (!L)
		HILO_PANIC("making a line current that is not there");
	if (ps->lexed != li + 1) {
		const char *ls = L->raw_s;
		const char *q = ls + strlen(L->indent_s);
		int line = L->line;
		if (!lex(ps, &q, &line, ls))
			HILO_PANIC("re-tokenizing a line failed");
		ps->lexed = li + 1;
	}
	ps->t = ps->scratch;
	ps->nt = ps->nscratch;
	ps->ti = 0;
	ps->depth = 0;
}

bool pto_lex_expect_op(parser *ps, const char *op)
{
	if (is_op(ps, op)) {
		ps->ti++;
		return true;
	}
	tok *t = cur(ps);
	if (t->type == T_END)
		pto_lex_error(ps, t->line, t->col, "expected '%s' before end of line", op);
	else
		pto_lex_error(ps, t->line, t->col, "expected '%s', found '%.*s'", op, (int)t->len, t->s);
	return false;
}

const char *pto_lex_intern(parser *ps, const tok *t)
{
	return pto_intern_n(ps->p, t->s, t->len);
}

static const char *const keywords[] = { "and", "or", "not", "in", "is", "if", "else", "elif", "for",
	"while", "with", "as", "def", "class", "return", "pass", "break", "continue", "import",
	"from", "lambda", "yield", "del", "global", "nonlocal", "assert", "raise", "try",
	"except", "finally", NULL };

bool pto_lex_is_keyword(const tok *t)
{
	for (int i = 0; keywords[i]; i++)
		if (tok_is_kw(t, keywords[i]))
			return true;
	return false;
}
