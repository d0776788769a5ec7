/* Internal: the HLO text reader state shared by parser.c and literal.c.
 * The reader works directly on characters (no token array): the text is
 * scanned once, names are interned as they are read. */
#ifndef HILO_LEX_H
#define HILO_LEX_H

#include "hilo/hlo_text.h"
#include "support/bytemap.h"
#include "support/strhash.h"

typedef struct lexer {
	const char *src, *p, *end;
	const char *file;
	int line;
	const char *line_start;
	hilo_diags *diags;
	hilo_module *m;
	bool failed;
	int depth;              /* nesting depth guard */
	bool pred_as_int;       /* a pred literal used 1/0 */
	bool comment_seen;      /* lex_skip_ws_slow skipped a comment */
	hilo_bytemap *shape_cache;   /* exact shape text -> shared shape, or NULL */
	const char *last_shape_text; /* the last shape found in shape_cache */
	size_t last_shape_len;
	hilo_shape *last_shape;
} lexer;

#define LEX_MAX_DEPTH 200

void lex_error(lexer *L, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A NUL byte anywhere in the text (L at its start) is an error at that
 * byte ("NUL byte in input"): true when there is one. A NUL would end the
 * C strings names and attribute texts become, so what was read could not
 * be printed back. */
bool lex_refuse_nul(lexer *L);
/* Character classes: LEX_C_IDENT [A-Za-z0-9_.-], LEX_C_SKIP what may
 * start whitespace or a comment (space, tab, CR, LF, '/'), LEX_C_RAW what
 * a raw attribute value's scan stops at (quotes, brackets, ',', CR, LF). */
enum { LEX_C_IDENT = 1, LEX_C_SKIP = 2, LEX_C_RAW = 4 };
extern const unsigned char lex_class[256];

void lex_skip_ws_slow(lexer *L);
/* Skips whitespace and comments (the common case, nothing to skip, inline). */
static inline void lex_skip_ws(lexer *L)
{
	const char *p = L->p;
	if (p < L->end && (lex_class[(unsigned char)*p] & LEX_C_SKIP)) {
		/* one space before a non-blank (", " and " = "): no loop */
		if (*p == ' ' && p + 1 < L->end && !(lex_class[(unsigned char)p[1]] & LEX_C_SKIP))
			L->p = p + 1;
		else
			lex_skip_ws_slow(L);
	}
}
static inline bool lex_is_ident_char(int c)
{
	return (lex_class[(unsigned char)c] & LEX_C_IDENT) != 0;
}
/* The length of the run of [A-Za-z0-9_.-] at p (p <= e). */
static inline size_t lex_ident_len(const char *p, const char *e)
{
	const char *s = p;
	/* four at a time while all four are name characters */
	while (e - p >= 4 && (lex_class[(unsigned char)p[0]] & lex_class[(unsigned char)p[1]] &
	                      lex_class[(unsigned char)p[2]] & lex_class[(unsigned char)p[3]] & LEX_C_IDENT))
		p += 4;
	while (p < e && (lex_class[(unsigned char)*p] & LEX_C_IDENT))
		p++;
	return (size_t)(p - s);
}

/* Reads [A-Za-z0-9_.-]+ ; returns its length (0 if none). */
static inline size_t lex_ident(lexer *L, const char **s)
{
	const char *p = L->p + lex_ident_len(L->p, L->end);
	*s = L->p;
	size_t n = (size_t)(p - L->p);
	L->p = p;
	return n;
}
static inline bool lex_peek(lexer *L, char c)     /* skips ws first */
{
	lex_skip_ws(L);
	return L->p < L->end && *L->p == c;
}
static inline bool lex_accept(lexer *L, char c)   /* skips ws first */
{
	if (lex_peek(L, c)) {
		L->p++;
		return true;
	}
	return false;
}
bool lex_expect_slow(lexer *L, char c);
/* Like lex_accept, and an error if c is missing. */
static inline bool lex_expect(lexer *L, char c)
{
	return lex_accept(L, c) || lex_expect_slow(L, c);
}
bool lex_int(lexer *L, int64_t *out);    /* decimal, optional '-' */
/* Whether the text at p (bounded by L->end, which need not be followed by
 * a NUL) starts with word. */
bool lex_starts(const lexer *L, const char *p, const char *word);
/* XLA's keywords (true, inf, ROOT, ...), and those or a primitive type
 * name: what XLA reads as a name only after '%' (the short style writes
 * the '%' for those). */
bool lex_is_keyword(const char *s, size_t n);
bool lex_name_needs_percent(const char *s, size_t n);
/* Column (1-based) of a pointer on the current line. */
int lex_col(const lexer *L, const char *at);
/* Describes the character at L->p for messages ("'x'", "byte 0x01", "end of input"). */
const char *lex_show_char(char buf[16], const lexer *L);

hilo_shape *lex_shape(lexer *L);
/* The shape at L->p when its exact text was read before (then L->p moves
 * past it), else NULL and nothing consumed but whitespace. */
hilo_shape *lex_shape_cached(lexer *L);
hilo_literal *lex_literal(lexer *L, hilo_shape *shape);

#endif
