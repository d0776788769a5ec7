/* Internal: the HLO text reader state shared by parser.c and literal.c.
 * The reader works directly on characters (no token array): the text is
 * scanned once, names are interned as they are read. */
#ifndef HILO_LEX_H
#define HILO_LEX_H

#include "hilo/hlo_text.h"

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
	hilo_ptrmap *shape_cache; /* exact shape text -> shared shape, or NULL */
} lexer;

#define LEX_MAX_DEPTH 200

void lex_error(lexer *L, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Character classes: LEX_C_IDENT [A-Za-z0-9_.-], LEX_C_SKIP what may
 * start whitespace or a comment (space, tab, CR, LF, '/'). */
enum { LEX_C_IDENT = 1, LEX_C_SKIP = 2 };
extern const unsigned char lex_class[256];

void lex_skip_ws_slow(lexer *L);
/* Skips whitespace and comments (the common case, nothing to skip, inline). */
static inline void lex_skip_ws(lexer *L)
{
	if (L->p < L->end && (lex_class[(unsigned char)*L->p] & LEX_C_SKIP))
		lex_skip_ws_slow(L);
}
static inline bool lex_is_ident_char(int c)
{
	return (lex_class[(unsigned char)c] & LEX_C_IDENT) != 0;
}
/* Reads [A-Za-z0-9_.-]+ ; returns its length (0 if none). */
static inline size_t lex_ident(lexer *L, const char **s)
{
	const char *p = L->p, *e = L->end;
	while (p < e && (lex_class[(unsigned char)*p] & LEX_C_IDENT))
		p++;
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
bool lex_expect(lexer *L, char c);       /* error if missing */
bool lex_int(lexer *L, int64_t *out);    /* decimal, optional '-' */
/* Whether the text at p (bounded by L->end, which need not be followed by
 * a NUL) starts with word. */
bool lex_starts(const lexer *L, const char *p, const char *word);
/* Column (1-based) of a pointer on the current line. */
int lex_col(const lexer *L, const char *at);
/* Describes the character at L->p for messages ("'x'", "byte 0x01", "end of input"). */
const char *lex_show_char(char buf[16], const lexer *L);

hilo_shape *lex_shape(lexer *L);
hilo_literal *lex_literal(lexer *L, hilo_shape *shape);

#endif
