/* pto_lex.c - line splitter and tokenizer for PyPTO program text (see
 * pto_lex.h; the parser proper is pto_parse.c).
 *
 * The line splitter turns the input into logical lines: a verbatim line
 * (blank or comment) or a code line with its indentation and tokens
 * (brackets may continue a logical line over several physical ones).
 * Python's own lexical rules are enforced here: UTF-8, indentation that
 * dedents to an enclosing level, and no tab/space mix whose order depends
 * on the tab size (TabError). Every error is located (line:col).
 */
#include "pto/pto_lex.h"

#include <stdarg.h>
#include <stdlib.h>

void pto_lex_error(parser *ps, int line, int col, const char *fmt, ...)
{
	if (ps->failed)
		return;
	ps->failed = true;
	va_list ap;
	va_start(ap, fmt);
	hilo_diag_addv(ps->d, HILO_SEV_ERROR, ps->p->file, line, col, ps->p->src,
		ps->p->srclen, NULL, fmt, ap);
	va_end(ap);
}

/* ---- line splitter / tokenizer -------------------------------------- */

static bool is_id0(unsigned char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80; }
static bool is_id(unsigned char c) { return is_id0(c) || (c >= '0' && c <= '9'); }

static void push_line(parser *ps, lline *l)
{
	if (ps->nlines == ps->cap) {
		size_t ncap = ps->cap ? ps->cap * 2 : 64;
		/* tracked heap scratch, freed after parsing (or by the guard) */
		lline *nl = hilo_heap_realloc(ps->p->arena, ps->lines, ncap * sizeof *ps->lines);
		if (!nl)
			pto_oom(ps->p->arena);
		ps->lines = nl;
		ps->cap = ncap;
	}
	ps->lines[ps->nlines++] = *l;
}

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
				pto_lex_error(ps, open_line, open_col, "'%c' was never closed", open_c);
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
			pto_lex_error(ps, line, t->col, "NUL byte in program text");
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
					pto_lex_error(ps, line, t->col, "unterminated string literal");
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
						pto_lex_error(ps, line, t->col, "unexpected byte 0x%02x", c);
					else
						pto_lex_error(ps, line, t->col, "unexpected character '%c'", c);
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
					pto_lex_error(ps, line, t->col, "unmatched '%c'", c);
					return false;
				}
			}
			if (depth > MAX_DEPTH) {
				pto_lex_error(ps, line, t->col, "brackets nested too deeply");
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
 * level. ind8/ind1 are the two measures of a code line. */
typedef struct indent_stack {
	int *w8, *w1;
	size_t n, cap;
} indent_stack;

static bool check_indent(parser *ps, indent_stack *st, int line, int ind8, int ind1)
{
	if (ind8 == st->w8[st->n - 1]) {
		if (ind1 != st->w1[st->n - 1])
			goto tab;
		return true;
	}
	if (ind8 > st->w8[st->n - 1]) {
		if (ind1 <= st->w1[st->n - 1])
			goto tab;
		if (st->n == st->cap) {
			size_t nc = st->cap * 2;
			int *a = hilo_heap_realloc(ps->p->arena, st->w8, nc * sizeof *a);
			if (!a)
				pto_oom(ps->p->arena);
			st->w8 = a;
			int *b = hilo_heap_realloc(ps->p->arena, st->w1, nc * sizeof *b);
			if (!b)
				pto_oom(ps->p->arena);
			st->w1 = b;
			st->cap = nc;
		}
		st->w8[st->n] = ind8;
		st->w1[st->n++] = ind1;
		return true;
	}
	while (st->n > 1 && ind8 < st->w8[st->n - 1])
		st->n--;
	if (ind8 != st->w8[st->n - 1]) {
		pto_lex_error(ps, line, 1, "unindent does not match any outer indentation level");
		return false;
	}
	if (ind1 != st->w1[st->n - 1])
		goto tab;
	return true;
tab:
	pto_lex_error(ps, line, 1, "inconsistent use of tabs and spaces in indentation (Python's TabError)");
	return false;
}

/* Python source is UTF-8: the first malformed, overlong, surrogate or
 * out-of-range sequence is an error at its line and column. */
bool pto_lex_check_utf8(parser *ps, const unsigned char *s, size_t len)
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
			pto_lex_error(ps, line, col, "invalid UTF-8 byte 0x%02x in program text", c);
			return false;
		}
		i += n + 1;
		col += (int)n + 1; /* byte columns, like every other diagnostic */
	}
	return true;
}

static bool split_lines_(parser *ps, indent_stack *ist);

bool pto_lex_split_lines(parser *ps)
{
	hilo_arena *a = ps->p->arena;
	indent_stack ist = { hilo_heap_alloc(a, 16 * sizeof(int)), hilo_heap_alloc(a, 16 * sizeof(int)), 1, 16 };
	if (!ist.w8 || !ist.w1)
		pto_oom(a);
	ist.w8[0] = ist.w1[0] = 0;
	bool ok = split_lines_(ps, &ist);
	hilo_heap_free(a, ist.w8);
	hilo_heap_free(a, ist.w1);
	return ok;
}

static bool split_lines_(parser *ps, indent_stack *ist)
{
	hilo_pto_program *p = ps->p;
	const char *s = p->src, *end = s + p->srclen;
	int line = 1;
	while (s < end) {
		const char *ls = s;
		const char *le = memchr(s, '\n', (size_t)(end - s));
		if (!le)
			le = end;
		int ind = 0, ind1 = 0;
		const char *q = ls;
		while (q < le && (*q == ' ' || *q == '\t')) {
			ind += *q == '\t' ? 8 - ind % 8 : 1;
			ind1++;
			q++;
		}
		const char *rawend = le; /* a '\r' stays: verbatim lines print back byte for byte */
		lline L;
		memset(&L, 0, sizeof L);
		L.line = line;
		const char *nb = q;
		while (nb < rawend && (*nb == '\r' || *nb == '\f' || *nb == ' ' || *nb == '\t'))
			nb++;
		if (nb >= rawend || *q == '#') { /* blank (CR/FF too) or comment */
			L.raw = hilo_arena_strndup(p->arena, ls, (size_t)(rawend - ls));
			push_line(ps, &L);
			s = le < end ? le + 1 : end;
			line++;
			continue;
		}
		if (!check_indent(ps, ist, line, ind, ind1))
			return false;
		L.code = true;
		L.indent = ind;
		L.indent_s = pto_intern_n(p, ls, (size_t)(q - ls));
		if (!lex(ps, &q, &line, ls))
			return false;
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
		push_line(ps, &L);
		s = q < end ? q + 1 : end;
		line++;
	}
	return true;
}

void pto_lex_set_line(parser *ps, size_t li)
{
	ps->li = li;
	lline *L = &ps->lines[li];
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
