/* HLO text lexer primitives: whitespace and comments, names, integers,
 * punctuation, and located errors. The parser reads characters directly
 * through these (no token array). */
#include "lex.h"

#include <string.h>

int lex_col(const lexer *L, const char *at)
{
	if (at >= L->line_start && at <= L->end) {
		/* usually an indentation away from the line start: no call */
		const char *q = L->line_start;
		if (at - q <= 16) {
			while (q < at && *q != '\n')
				q++;
			if (q == at)
				return (int)(at - L->line_start) + 1;
		} else if (!memchr(q, '\n', (size_t)(at - q))) {
			return (int)(at - L->line_start) + 1;
		}
	}
	const char *ls = at;
	while (ls > L->src && ls[-1] != '\n')
		ls--;
	return (int)(at - ls) + 1;
}

static int line_of(const lexer *L, const char *at)
{
	if (at >= L->line_start)
		return L->line;
	int line = L->line;
	for (const char *q = L->line_start; q > at; q--)
		if (q[-1] == '\n')
			line--;
	return line;
}

void lex_error(lexer *L, const char *at, const char *fmt, ...)
{
	if (L->failed)
		return;
	L->failed = true;
	if (at > L->end)
		at = L->end;
	va_list ap;
	va_start(ap, fmt);
	hilo_diag_addv(L->diags, HILO_SEV_ERROR, L->file, line_of(L, at), lex_col(L, at),
		L->src, (size_t)(L->end - L->src), NULL, fmt, ap);
	va_end(ap);
}

bool lex_refuse_nul(lexer *L)
{
	const char *z = memchr(L->src, 0, (size_t)(L->end - L->src));
	if (!z)
		return false;
	for (const char *q = L->line_start; q < z; q++)
		if (*q == '\n') {
			L->line++;
			L->line_start = q + 1;
		}
	L->p = z;
	lex_error(L, z, "NUL byte in input (is this a binary file?)");
	return true;
}

#define I_ LEX_C_IDENT
#define S_ LEX_C_SKIP
#define R_ LEX_C_RAW
const unsigned char lex_class[256] = {
	['\t'] = S_, ['\n'] = S_ | R_, ['\r'] = S_ | R_, [' '] = S_, ['/'] = S_,
	['"'] = R_, ['\''] = R_, ['{'] = R_, ['}'] = R_, ['('] = R_, [')'] = R_,
	['['] = R_, [']'] = R_, [','] = R_,
	['-'] = I_, ['.'] = I_, ['_'] = I_,
	['0'] = I_, ['1'] = I_, ['2'] = I_, ['3'] = I_, ['4'] = I_,
	['5'] = I_, ['6'] = I_, ['7'] = I_, ['8'] = I_, ['9'] = I_,
	['A'] = I_, ['B'] = I_, ['C'] = I_, ['D'] = I_, ['E'] = I_, ['F'] = I_, ['G'] = I_,
	['H'] = I_, ['I'] = I_, ['J'] = I_, ['K'] = I_, ['L'] = I_, ['M'] = I_, ['N'] = I_,
	['O'] = I_, ['P'] = I_, ['Q'] = I_, ['R'] = I_, ['S'] = I_, ['T'] = I_, ['U'] = I_,
	['V'] = I_, ['W'] = I_, ['X'] = I_, ['Y'] = I_, ['Z'] = I_,
	['a'] = I_, ['b'] = I_, ['c'] = I_, ['d'] = I_, ['e'] = I_, ['f'] = I_, ['g'] = I_,
	['h'] = I_, ['i'] = I_, ['j'] = I_, ['k'] = I_, ['l'] = I_, ['m'] = I_, ['n'] = I_,
	['o'] = I_, ['p'] = I_, ['q'] = I_, ['r'] = I_, ['s'] = I_, ['t'] = I_, ['u'] = I_,
	['v'] = I_, ['w'] = I_, ['x'] = I_, ['y'] = I_, ['z'] = I_,
};
#undef I_
#undef S_
#undef R_

void lex_skip_ws_slow(lexer *L)
{
	const char *p = L->p, *e = L->end;
	for (;;) {
		while (p < e) {
			char c = *p;
			if (c == ' ' || c == '\t' || c == '\r') {
				p++;
			} else if (c == '\n') {
				L->line++;
				L->line_start = ++p;
			} else {
				break;
			}
		}
		if (p + 1 < e && p[0] == '/' && p[1] == '/') {
			L->comment_seen = true;
			while (p < e && *p != '\n')
				p++;
			continue;
		}
		if (p + 1 < e && p[0] == '/' && p[1] == '*') {
			L->comment_seen = true;
			const char *q = p + 2;
			while (q + 1 < e && !(q[0] == '*' && q[1] == '/')) {
				if (*q == '\n') {
					L->line++;
					L->line_start = q + 1;
				}
				q++;
			}
			if (q + 1 >= e) {
				L->p = p;
				lex_error(L, p, "unterminated /* comment");
				L->p = e;
				return;
			}
			p = q + 2;
			continue;
		}
		break;
	}
	L->p = p;
}

const char *lex_show_char(char buf[16], const lexer *L)
{
	if (L->p >= L->end)
		return "end of input";
	unsigned char c = (unsigned char)*L->p;
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, 16, "'%c'", c);
	else
		snprintf(buf, 16, "byte 0x%02x", c);
	return buf;
}

bool lex_expect_slow(lexer *L, char c)
{
	char tmp[16];
	lex_error(L, L->p, "expected '%c', got %s", c, lex_show_char(tmp, L));
	return false;
}

bool lex_int(lexer *L, int64_t *out)
{
	lex_skip_ws(L);
	const char *p = L->p;
	bool neg = false;
	if (p < L->end && *p == '-') {
		neg = true;
		p++;
	}
	if (p >= L->end || *p < '0' || *p > '9') {
		char tmp[16];
		lex_error(L, L->p, "expected an integer, got %s", lex_show_char(tmp, L));
		return false;
	}
	uint64_t v = 0;
	while (p < L->end && *p >= '0' && *p <= '9') {
		if (v > (UINT64_MAX - 9) / 10) {
			lex_error(L, L->p, "integer out of range");
			return false;
		}
		v = v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	if (v > (uint64_t)INT64_MAX + (neg ? 1u : 0u)) {
		lex_error(L, L->p, "integer out of range");
		return false;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	L->p = p;
	return true;
}

/* The words XLA's lexer takes as keywords (hlo_lexer.cc LexIdentifier):
 * a name only when written with '%'. */
static const char *const xla_keywords[] = {
	"true", "false", "inf", "nan", "HloModule", "ENTRY", "ROOT", "FileLocations",
	"FileNames", "FunctionNames", "StackFrames", "maximal", "replicated", "manual",
	"last_tile_dim_replicate", "shard_as", "shard_like", "unknown", "unreduced",
};

bool lex_is_keyword(const char *s, size_t n)
{
	for (size_t k = 0; k < sizeof xla_keywords / sizeof *xla_keywords; k++)
		if (strlen(xla_keywords[k]) == n && !memcmp(xla_keywords[k], s, n))
			return true;
	return false;
}

bool lex_name_needs_percent(const char *s, size_t n)
{
	return lex_is_keyword(s, n) || hilo_ptype_lookup(s, n) != HILO_T_INVALID;
}

bool lex_starts(const lexer *L, const char *p, const char *word)
{
	size_t n = strlen(word);
	return p <= L->end && (size_t)(L->end - p) >= n && memcmp(p, word, n) == 0;
}

