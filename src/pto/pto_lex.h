/* pto_lex.h - the lexer half of the PyPTO program parser (pto_lex.c),
 * shared with the structural and expression parser (pto_parse.c).
 *
 * The line producer turns the input into logical lines (a verbatim blank
 * or comment line, or a code line with its indentation and first token) on
 * demand: the parser asks for line i (pto_lex_line) and the producer reads
 * on to it, keeping only a window from the current line to the furthest
 * one asked for (the parser looks a few lines ahead, for a block's end or
 * an `else`), never a table of the whole input. A code line's tokens are
 * in the parser's scratch buffer while it is the last one tokenized
 * (pto_lex_set_line tokenizes it again otherwise), so tokens are never
 * stored for the whole input either.
 *
 * Error order is the one of a splitter that read every line before
 * parsing: a lexical error (pto_lex_fatal: NUL, UTF-8, indentation,
 * tokens) anywhere in the input wins over a parse error (pto_lex_error),
 * so after a parse error the producer reads on to the end
 * (pto_lex_finish) and the first lexical error, if any, is the one
 * reported.
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

/* 48 bytes: the producer's window holds the lines from the current one to
 * the furthest the parser looked ahead. A code line's trailing comment is
 * not kept here: the parser reads it from the line's tokenization
 * (parser.trail_s) when it makes the statement. The parser copies a line
 * it keeps across a pto_lex_line call (which may move the window). */
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
	size_t li;           /* current line (the window never drops it or later ones) */
	lline *ring;         /* the window: lines [lo, hi) at index & (rcap - 1) */
	size_t rcap, lo, hi;
	bool eof;            /* no line after hi - 1 (end of input or a lexical error) */
	bool draining;       /* reading on after a parse error: lines are only checked */
	const char *next;    /* the producer: first byte of line hi */
	int next_line;       /* and its line number */
	int *ind8, *ind1;    /* indentation stack (see check_indent) */
	size_t nind, capind;
	size_t nc_from, nc_to; /* next_code cache: no code line in [nc_from, nc_to) */
	char *err_msg;       /* the first error, reported by pto_lex_finish */
	int err_line, err_col;
	bool lexfail;        /* ... and it is a lexical one */
	char *err_text;      /* its caret line when the text is a file's (taken when
	                      * the error is held: the text may be released later) */
	size_t err_textn;
	bool release;        /* a large file's text: release what was read (the pages
	                      * below the current line) as the parse goes on */
	size_t released;     /* offsets below this may be released */
	tok *scratch;        /* tokens of the line being parsed (malloc'd) */
	size_t nscratch, scap;
	size_t lexed;        /* line whose tokens are in scratch, +1 */
	pto_map ann_cache;   /* annotation text -> shared tree */
	const char *last_key;
	size_t last_len;
	pto_expr *last_ann;
	pto_param *pstage;   /* the parameters of the def being parsed (tracked heap) */
	size_t pstage_cap;
	tok *t;              /* current line's tokens */
	size_t nt, ti;
	int depth;           /* see MAX_DEPTH, MAX_CHAIN */
	int chain;
	int blocks;
	bool failed;
	tok endtok;          /* the end-of-line token cur() returns */
	const char *trail_s; /* the last tokenized line's "  # comment" in the source, or NULL */
	size_t trail_n;
} parser;

#define MAX_DEPTH 500   /* parser recursion within one expression (pto_parse.c "depth") */
#define MAX_CHAIN 4000  /* chained operator links on a path of an expression tree */
#define PTO_RELEASE_STEP ((size_t)1 << 20) /* text released in steps of 1 MiB */
#define MAX_BLOCKS 100  /* nested compound statements */

/* A parse error: the first one wins, later ones are dropped
 * (ps->failed); a lexical error anywhere in the input replaces it. */
void pto_lex_error(parser *ps, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A lexical error: the first one wins over every other error. */
void pto_lex_fatal(parser *ps, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Python's lexical rules over the whole input: UTF-8 (false after a
 * located error). *nlines receives the number of physical lines. */
bool pto_lex_check_utf8(parser *ps, const unsigned char *s, size_t len, size_t *nlines);
/* Starts the line producer at the start of p->src. */
void pto_lex_begin(parser *ps);
/* Line i (i >= ps->li), produced on demand (indentation checked as Python
 * does); NULL when the input has no line i or a lexical error stopped the
 * producer. The pointer is valid until the next call. */
const lline *pto_lex_line(parser *ps, size_t i);
/* Ends the parse: after a parse error reads the rest of the input for a
 * lexical error that takes its place, reports the first error (if any)
 * to ps->d and frees the producer's tables. */
void pto_lex_finish(parser *ps);
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
