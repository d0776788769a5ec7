/* pto_lex.h - the lexer half of the PyPTO program parser (pto_lex.c),
 * shared with the structural and expression parser (pto_parse.c).
 *
 * The line splitter turns the input into logical lines (a verbatim blank or
 * comment line, or a code line with its indentation and first token); a
 * code line is re-tokenized into the parser's scratch buffer when the
 * parser reaches it (pto_lex_set_line), so tokens are never stored for the
 * whole input.
 */
#ifndef HILO_PTO_LEX_H
#define HILO_PTO_LEX_H

#include "pto/pto_ir.h"
#include "pto/pto_sema.h"

#include <string.h>

enum { T_NAME, T_NUM, T_STR, T_OP, T_END };

typedef struct tok {
	int type;
	int line, col;
	const char *s;
	size_t len;
} tok;

/* A line's first token as the line table keeps it: what the parser tests
 * before tokenizing the line again (length saturated at UINT32_MAX: it is
 * only compared with keywords and single characters). */
typedef struct ltok {
	const char *s;
	uint32_t len;
	uint8_t type;
} ltok;

/* 48 bytes: the table holds every line of the input while it is parsed.
 * A code line's trailing comment is not kept here: the parser reads it
 * from the line's tokenization (parser.trail_s) when it makes the
 * statement. */
typedef struct lline {
	union {
		const char *raw;   /* blank/comment line: its verbatim text */
		const char *raw_s; /* code line: its text in the source copy (the
		                    * indentation, indent_s, then the code) */
	};
	const char *indent_s;
	ltok first;          /* first token of a code line */
	uint32_t raw_n;      /* code line: bytes of raw_s (the input is below 4 GiB) */
	int line;
	int indent;          /* width */
	bool code;
	bool ntoks;          /* the code line has a token */
} lline;

typedef struct parser {
	hilo_pto_program *p;
	hilo_diags *d;
	lline *lines;
	size_t nlines, cap;
	size_t li;           /* current line */
	tok *scratch;        /* tokens of the line being parsed (malloc'd) */
	size_t nscratch, scap;
	size_t lexed;        /* line whose tokens are in scratch, +1 */
	pto_map ann_cache;   /* annotation text -> shared tree */
	const char *last_key;
	size_t last_len;
	pto_expr *last_ann;
	tok *t;              /* current line's tokens */
	size_t nt, ti;
	int depth;
	int blocks;
	bool failed;
	tok endtok;          /* the end-of-line token cur() returns */
	const char *trail_s; /* the last tokenized line's "  # comment" in the source, or NULL */
	size_t trail_n;
} parser;

#define MAX_DEPTH 500   /* expression tree depth along one line */
#define MAX_BLOCKS 100  /* nested compound statements */

/* The first error wins: later ones are dropped (ps->failed). */
void pto_lex_error(parser *ps, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Python's lexical rules over the whole input: UTF-8 (false after a
 * located error). */
bool pto_lex_check_utf8(parser *ps, const unsigned char *s, size_t len);
/* Splits p->src into ps->lines (indentation checked as Python does). */
bool pto_lex_split_lines(parser *ps);
/* Makes line li current: its tokens in ps->t[0..nt). */
void pto_lex_set_line(parser *ps, size_t li);
bool pto_lex_expect_op(parser *ps, const char *op);
const char *pto_lex_intern(parser *ps, const tok *t);
bool pto_lex_is_keyword(const tok *t);

/* ---- token helpers -------------------------------------------------- */

static inline tok *cur(parser *ps)
{
	if (ps->ti < ps->nt)
		return &ps->t[ps->ti];
	/* position of the end of the line (per parser: no mutable static, so
	 * parses in several threads never share it) */
	tok *e = &ps->endtok;
	e->type = T_END;
	e->s = "";
	e->len = 0;
	if (ps->nt) {
		tok *l = &ps->t[ps->nt - 1];
		e->line = l->line;
		e->col = l->col + (int)l->len;
	}
	return e;
}

static inline bool is_op(parser *ps, const char *op)
{
	tok *t = cur(ps);
	return t->type == T_OP && t->len == strlen(op) && !memcmp(t->s, op, t->len);
}

static inline bool is_kw(parser *ps, const char *kw)
{
	tok *t = cur(ps);
	return t->type == T_NAME && t->len == strlen(kw) && !memcmp(t->s, kw, t->len);
}

static inline bool tok_is_kw(const tok *t, const char *kw)
{
	return t->type == T_NAME && t->len == strlen(kw) && !memcmp(t->s, kw, t->len);
}

static inline bool ltok_is_kw(const ltok *t, const char *kw)
{
	return t->type == T_NAME && t->len == strlen(kw) && !memcmp(t->s, kw, t->len);
}

#endif
