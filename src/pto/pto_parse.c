/* pto_parse.c - parser for PyPTO program text (the lexer is pto_lex.c).
 *
 * Reads the logical lines the line splitter (pto_lex.c) produces: the
 * structural parser reads functions (decorators, `def` header, indented
 * body) and statements, and a recursive-descent expression parser with
 * Python's precedence builds the expression trees. Everything outside a
 * function (header comments, the import, `X = pl.dynamic(...)`, the class
 * line) is kept as verbatim lines, which the pass never inspects.
 *
 * Every error is located (line:col) and parsing stops at the first one;
 * nesting depth is bounded so hostile input cannot exhaust the stack.
 */
#include "pto/pto_lex.h"
#include "support/io.h"

#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

/* ---- expressions ---------------------------------------------------- */

static pto_expr *parse_test(parser *ps);
static pto_expr *parse_bitor(parser *ps);

/* A token's source position (pto_expr.pos): its byte offset + 1. Every
 * token the parser makes a node from lies in the source (the end-of-line
 * token never becomes one); the parser caps the input below 4 GiB. */
static uint32_t tok_pos(parser *ps, const tok *t)
{
	const char *src = ps->p->src;
	if (t->s < src || t->s > src + ps->p->srclen)
		return 0;
	return (uint32_t)(t->s - src) + 1;
}

static pto_expr *mk(parser *ps, pto_expr_kind k, const tok *t)
{
	return pto_expr_new(ps->p, k, tok_pos(ps, t));
}

/* Comma-separated items up to the closing bracket; sets *trailing when the
 * list ends in a comma. Calls parse kwargs too when call != NULL. */
static bool parse_items(parser *ps, const char *close, pto_expr *into, bool call,
	bool *trailing, bool *any_comma)
{
	*trailing = false;
	*any_comma = false;
	while (!is_op(ps, close)) {
		if (ps->failed)
			return false;
		tok *t = cur(ps);
		if (call && t->type == T_NAME && ps->ti + 1 < ps->nt && ps->t[ps->ti + 1].type == T_OP &&
		    ps->t[ps->ti + 1].len == 1 && ps->t[ps->ti + 1].s[0] == '=') {
			const char *kw = pto_lex_intern(ps, t);
			ps->ti += 2;
			pto_expr *v = parse_test(ps);
			if (!v)
				return false;
			size_t n = into->nkw;
			if (n == PTO_MAX_KWARGS) {
				pto_lex_error(ps, t->line, t->col, "more than %d keyword arguments", PTO_MAX_KWARGS);
				return false;
			}
			if ((n & (n - 1)) == 0) { /* capacity: powers of two */
				size_t ncap = n ? 2 * n : 1;
				into->kwnames = hilo_arena_grow(ps->p->arena, into->kwnames, n, ncap, sizeof *into->kwnames);
				into->kwvals = hilo_arena_grow(ps->p->arena, into->kwvals, n, ncap, sizeof *into->kwvals);
				if (!into->kwnames || !into->kwvals)
					pto_oom(ps->p->arena);
			}
			into->kwnames[n] = kw;
			into->kwvals[n] = v;
			into->nkw = (uint16_t)(n + 1);
		} else {
			if (call && into->nkw) {
				pto_lex_error(ps, t->line, t->col, "positional argument after keyword argument");
				return false;
			}
			pto_expr *v;
			if (is_op(ps, "*") || is_op(ps, "**")) {
				v = mk(ps, PTO_E_STAR, t);
				v->op = is_op(ps, "*") ? "*" : "**";
				ps->ti++;
				v->base = parse_test(ps);
				if (!pto_expr_base(v))
					return false;
			} else {
				v = parse_test(ps);
			}
			if (!v)
				return false;
			pto_items_push(ps->p, &into->items, &into->nitems, v);
		}
		if (is_op(ps, ",")) {
			ps->ti++;
			*any_comma = true;
			*trailing = true;
			continue;
		}
		*trailing = false;
		if (!is_op(ps, close)) {
			pto_lex_expect_op(ps, close);
			return false;
		}
	}
	ps->ti++;
	return true;
}

/* ---- depth --------------------------------------------------------------
 * Two budgets keep hostile input from exhausting the stack, here and in
 * every recursive walk over the tree later. `depth` is the parser's own
 * recursion: an atom (brackets, call arguments) or a prefix operator
 * entered and not yet left (MAX_DEPTH). A chain of left-associative
 * binary operators or of trailers (`a + b + ... + z`, `a.b.c`, `f(x)[i]`)
 * is parsed by a loop, so it costs the parser nothing; but each link nests
 * the tree one level deeper, so `chain` counts the links on the way from
 * the expression's root to the token being read (links of the enclosing
 * chains included, since a nested expression hangs below them), up to
 * MAX_CHAIN. Python reads a flat sum of thousands of terms; neither budget
 * grows with one. */

static bool enter(parser *ps, const tok *t)
{
	if (++ps->depth > MAX_DEPTH) {
		pto_lex_error(ps, t->line, t->col, "expression nested too deeply");
		return false;
	}
	return true;
}

/* One more link of a chain at token t. */
static bool link_chain(parser *ps, const tok *t)
{
	if (++ps->chain > MAX_CHAIN) {
		pto_lex_error(ps, t->line, t->col, "expression too long: more than %d chained operators", MAX_CHAIN);
		return false;
	}
	return true;
}

static pto_expr *parse_atom_(parser *ps);

static pto_expr *parse_atom(parser *ps)
{
	if (!enter(ps, cur(ps)))
		return NULL;
	pto_expr *e = parse_atom_(ps);
	ps->depth--;
	return e;
}

static pto_expr *parse_atom_(parser *ps)
{
	tok *t = cur(ps);
	bool tr, comma;
	pto_expr *e = NULL;
	switch (t->type) {
	case T_NAME:
		if (pto_lex_is_keyword(t)) {
			pto_lex_error(ps, t->line, t->col, "unexpected keyword '%.*s'", (int)t->len, t->s);
			return NULL;
		}
		e = mk(ps, PTO_E_NAME, t);
		e->name = pto_lex_intern(ps, t);
		ps->ti++;
		break;
	case T_NUM: {
		bool isint = true;
		for (size_t i = 0; i < t->len; i++) {
			char c = t->s[i];
			if (!((c >= '0' && c <= '9') || c == '_'))
				isint = false;
		}
		e = mk(ps, isint ? PTO_E_INT : PTO_E_FLOAT, t);
		if (pto_expr_lit_fits(t->len)) {
			/* short literals (almost all) live in the node: no table
			 * entry, no copy (a 100k-statement program has ~100k
			 * distinct ones) */
			e->inl = true;
			memcpy(e->lit, t->s, t->len);
			e->lit[t->len] = 0;
		} else {
			e->text = pto_intern_n(ps->p, t->s, t->len);
		}
		ps->ti++;
		break;
	}
	case T_STR: {
		/* adjacent string literals are kept as one verbatim text */
		const tok *last = t;
		size_t j = ps->ti + 1;
		while (j < ps->nt && ps->t[j].type == T_STR && ps->t[j].line == last->line)
			last = &ps->t[j++];
		e = mk(ps, PTO_E_STR, t);
		e->text = hilo_arena_strndup(ps->p->arena, t->s, (size_t)(last->s + last->len - t->s));
		ps->ti = j;
		break;
	}
	case T_OP:
		if (is_op(ps, "(")) {
			ps->ti++;
			pto_expr *tup = mk(ps, PTO_E_TUPLE, t);
			tup->paren = true;
			if (!parse_items(ps, ")", tup, false, &tr, &comma))
				return NULL;
			if (pto_expr_nitems(tup) == 1 && !comma) {
				e = mk(ps, PTO_E_PAREN, t);
				e->base = tup->items[0];
			} else {
				e = tup;
			}
		} else if (is_op(ps, "[")) {
			ps->ti++;
			e = mk(ps, PTO_E_LIST, t);
			if (!parse_items(ps, "]", e, false, &tr, &comma))
				return NULL;
		} else if (is_op(ps, "{")) {
			ps->ti++;
			e = mk(ps, PTO_E_DICT, t);
			uint32_t nkeys = 0;
			while (!is_op(ps, "}")) {
				pto_expr *k = parse_test(ps);
				if (!k || !pto_lex_expect_op(ps, ":"))
					return NULL;
				pto_expr *v = parse_test(ps);
				if (!v)
					return NULL;
				pto_items_push(ps->p, &e->keys, &nkeys, k);
				pto_items_push(ps->p, &e->items, &e->nitems, v);
				if (is_op(ps, ",")) {
					ps->ti++;
					continue;
				}
				if (!is_op(ps, "}")) {
					pto_lex_expect_op(ps, "}");
					return NULL;
				}
			}
			ps->ti++;
		} else if (is_op(ps, "...")) {
			e = mk(ps, PTO_E_ELLIPSIS, t);
			ps->ti++;
		}
		break;
	default:
		break;
	}
	if (!e) {
		if (t->type == T_END)
			pto_lex_error(ps, t->line, t->col, "expected an expression before end of line");
		else
			pto_lex_error(ps, t->line, t->col, "expected an expression, found '%.*s'", (int)t->len, t->s);
		return NULL;
	}
	/* trailers */
	for (;;) {
		tok *u = cur(ps);
		if (is_op(ps, ".")) {
			ps->ti++;
			tok *n = cur(ps);
			if (n->type != T_NAME) {
				pto_lex_error(ps, n->line, n->col, "expected an attribute name after '.'");
				return NULL;
			}
			pto_expr *a = mk(ps, PTO_E_ATTR, u);
			a->base = e;
			a->name = pto_lex_intern(ps, n);
			a->pos = e->pos;
			ps->ti++;
			e = a;
		} else if (is_op(ps, "(")) {
			ps->ti++;
			pto_expr *c = mk(ps, PTO_E_CALL, u);
			c->base = e;
			c->pos = e->pos;
			if (!parse_items(ps, ")", c, true, &tr, &comma))
				return NULL;
			e = c;
		} else if (is_op(ps, "[")) {
			ps->ti++;
			pto_expr *s = mk(ps, PTO_E_SUB, u);
			s->base = e;
			s->pos = e->pos;
			if (!parse_items(ps, "]", s, false, &tr, &comma))
				return NULL;
			if (pto_expr_nitems(s) == 0) {
				pto_lex_error(ps, u->line, u->col, "empty subscript");
				return NULL;
			}
			e = s;
		} else {
			break;
		}
		if (!link_chain(ps, u))
			return NULL;
	}
	return e;
}

static pto_expr *parse_factor(parser *ps);

static pto_expr *parse_power(parser *ps)
{
	pto_expr *l = parse_atom(ps);
	if (!l)
		return NULL;
	if (is_op(ps, "**")) {
		tok *t = cur(ps);
		ps->ti++;
		if (!enter(ps, t))
			return NULL;
		pto_expr *r = parse_factor(ps);
		ps->depth--;
		if (!r)
			return NULL;
		pto_expr *b = mk(ps, PTO_E_BIN, t);
		b->op = "**";
		b->base = l;
		b->rhs = r;
		b->pos = l->pos;
		return b;
	}
	return l;
}

static pto_expr *parse_factor(parser *ps)
{
	tok *t = cur(ps);
	if (is_op(ps, "-") || is_op(ps, "+") || is_op(ps, "~")) {
		if (!enter(ps, t))
			return NULL;
		ps->ti++;
		pto_expr *u = mk(ps, PTO_E_UNARY, t);
		u->op = t->s[0] == '-' ? "-" : t->s[0] == '+' ? "+" : "~";
		u->base = parse_factor(ps);
		ps->depth--;
		return pto_expr_base(u) ? u : NULL;
	}
	return parse_power(ps);
}

/* Binary levels, loosest last; each entry lists its operators. */
static const char *const level_ops[][7] = {
	{ "*", "/", "//", "%", "@", NULL },
	{ "+", "-", NULL },
	{ "<<", ">>", NULL },
	{ "&", NULL },
	{ "^", NULL },
	{ "|", NULL },
};

static pto_expr *parse_level(parser *ps, int lvl)
{
	pto_expr *l = lvl == 0 ? parse_factor(ps) : parse_level(ps, lvl - 1);
	while (l) {
		const char *op = NULL;
		for (int k = 0; level_ops[lvl][k]; k++)
			if (is_op(ps, level_ops[lvl][k]))
				op = level_ops[lvl][k];
		if (!op)
			break;
		tok *t = cur(ps);
		ps->ti++;
		if (!link_chain(ps, t))
			return NULL;
		pto_expr *r = lvl == 0 ? parse_factor(ps) : parse_level(ps, lvl - 1);
		if (!r)
			return NULL;
		pto_expr *b = mk(ps, PTO_E_BIN, t);
		b->op = op;
		b->base = l;
		b->rhs = r;
		b->pos = l->pos;
		l = b;
	}
	return l;
}

static pto_expr *parse_bitor(parser *ps) { return parse_level(ps, 5); }

static pto_expr *parse_comparison(parser *ps)
{
	pto_expr *l = parse_bitor(ps);
	while (l) {
		const char *op = NULL;
		size_t adv = 1;
		static const char *const cmp[] = { "<", ">", "==", ">=", "<=", "!=", NULL };
		for (int k = 0; cmp[k]; k++)
			if (is_op(ps, cmp[k]))
				op = cmp[k];
		if (!op && is_kw(ps, "in"))
			op = "in";
		if (!op && is_kw(ps, "is")) {
			op = "is";
			if (ps->ti + 1 < ps->nt && tok_is_kw(&ps->t[ps->ti + 1], "not")) {
				op = "is not";
				adv = 2;
			}
		}
		if (!op && is_kw(ps, "not") && ps->ti + 1 < ps->nt && tok_is_kw(&ps->t[ps->ti + 1], "in")) {
			op = "not in";
			adv = 2;
		}
		if (!op)
			break;
		tok *t = cur(ps);
		ps->ti += adv;
		if (!link_chain(ps, t))
			return NULL;
		pto_expr *r = parse_bitor(ps);
		if (!r)
			return NULL;
		pto_expr *b = mk(ps, PTO_E_BIN, t);
		b->op = op;
		b->base = l;
		b->rhs = r;
		b->pos = l->pos;
		l = b;
	}
	return l;
}

static pto_expr *parse_not(parser *ps)
{
	if (is_kw(ps, "not")) {
		tok *t = cur(ps);
		if (!enter(ps, t))
			return NULL;
		ps->ti++;
		pto_expr *u = mk(ps, PTO_E_UNARY, t);
		u->op = "not";
		u->base = parse_not(ps);
		ps->depth--;
		return pto_expr_base(u) ? u : NULL;
	}
	return parse_comparison(ps);
}

static pto_expr *parse_boolop(parser *ps, const char *kw)
{
	bool is_or = !strcmp(kw, "or");
	pto_expr *l = is_or ? parse_boolop(ps, "and") : parse_not(ps);
	while (l && is_kw(ps, kw)) {
		tok *t = cur(ps);
		ps->ti++;
		if (!link_chain(ps, t))
			return NULL;
		pto_expr *r = is_or ? parse_boolop(ps, "and") : parse_not(ps);
		if (!r)
			return NULL;
		pto_expr *b = mk(ps, PTO_E_BIN, t);
		b->op = is_or ? "or" : "and";
		b->base = l;
		b->rhs = r;
		b->pos = l->pos;
		l = b;
	}
	return l;
}

static pto_expr *parse_test(parser *ps)
{
	int saved = ps->depth, saved_chain = ps->chain;
	pto_expr *e = parse_boolop(ps, "or");
	ps->depth = saved; /* also after an error, which returned early */
	ps->chain = saved_chain;
	if (e && is_kw(ps, "if")) {
		tok *t = cur(ps);
		pto_lex_error(ps, t->line, t->col, "conditional expressions are not supported");
		return NULL;
	}
	return e;
}

/* testlist: a, b -> bare tuple; a -> a; a, -> bare 1-tuple */
static pto_expr *parse_exprlist(parser *ps, bool targets)
{
	tok *t0 = cur(ps);
	pto_expr *first = targets ? parse_bitor(ps) : parse_test(ps);
	if (!first || !is_op(ps, ","))
		return first;
	pto_expr *tup = mk(ps, PTO_E_TUPLE, t0);
	pto_items_push(ps->p, &tup->items, &tup->nitems, first);
	while (is_op(ps, ",")) {
		ps->ti++;
		if (cur(ps)->type == T_END || is_op(ps, "=") || is_op(ps, ":") || is_kw(ps, "in"))
			break;
		pto_expr *e = targets ? parse_bitor(ps) : parse_test(ps);
		if (!e)
			return NULL;
		pto_items_push(ps->p, &tup->items, &tup->nitems, e);
	}
	return tup;
}

/* ---- shared trees --------------------------------------------------- */

/* The index of the first token from ps->ti on that is one of the
 * one-character operators in stops outside brackets, or ps->nt. */
static size_t expr_end(const parser *ps, const char *stops)
{
	size_t i = ps->ti;
	int bd = 0;
	for (; i < ps->nt; i++) {
		const tok *u = &ps->t[i];
		if (u->type != T_OP || u->len != 1)
			continue;
		if (bd == 0 && strchr(stops, u->s[0]))
			break;
		if (strchr("([{", u->s[0]))
			bd++;
		else if (strchr(")]}", u->s[0]))
			bd--;
	}
	return i;
}

/* An expression meant to span the tokens [ps->ti, end) - an annotation
 * (of a statement, a parameter, a return) or a decorator; end 0: no such
 * bound. These repeat on nearly every line and in every function header,
 * so identical text on one line shares one tree, parsed at its first
 * occurrence (a parse that stops before end is not shared). Sound because
 * the passes never mutate such a tree in place (legalize and arena packing
 * clone an annotation before they edit it), and no message takes its
 * position from a node inside one (a shared tree carries the positions of
 * its first occurrence; tests/pto/golden/shared_header.py and the bad
 * test shared_header_second.py check both) - except an unknown function
 * type, whose decorator is parsed again for its message (the bad test
 * shared_decorator_type.py). */
static pto_expr *parse_shared(parser *ps, size_t end)
{
	const char *key = NULL;
	pto_expr *e = NULL;
	if (end > ps->ti && end <= ps->nt) {
		const tok *f0 = &ps->t[ps->ti], *f1 = &ps->t[end - 1];
		size_t klen = (size_t)(f1->s + f1->len - f0->s);
		if (f0->line == f1->line) {
			/* consecutive statements usually repeat the last one */
			if (ps->last_ann && klen == ps->last_len && !memcmp(ps->last_key, f0->s, klen)) {
				e = ps->last_ann;
			} else {
				key = pto_intern_n(ps->p, f0->s, klen);
				e = pto_map_get(&ps->ann_cache, key);
			}
		}
	}
	if (e) {
		ps->ti = end;
	} else {
		if (!(e = parse_test(ps)))
			return NULL;
		if (key && ps->ti == end)
			pto_map_put(&ps->ann_cache, key, e);
	}
	if (key && ps->ti == end) {
		ps->last_key = key;
		ps->last_len = strlen(key);
		ps->last_ann = e;
	}
	return e;
}

/* ---- statements ----------------------------------------------------- */

static bool parse_block(parser *ps, pto_block *out, int ind, int owner_line);
static bool parse_block_(parser *ps, pto_block *out, int ind, int owner_line);

static bool at_end(parser *ps)
{
	if (cur(ps)->type == T_END)
		return true;
	tok *t = cur(ps);
	pto_lex_error(ps, t->line, t->col, "unexpected '%.*s' at end of statement", (int)t->len, t->s);
	return false;
}

/* The first code line at or after i (past the end: the line count). A run
 * of comment lines is scanned once: [nc_from, nc_to) holds no code line. */
static size_t next_code(parser *ps, size_t i)
{
	bool on = i >= ps->nc_from && i < ps->nc_to;
	size_t from = i;
	if (on)
		i = ps->nc_to;
	const lline *L;
	while ((L = pto_lex_line(ps, i)) != NULL && !L->code)
		i++;
	if (!on)
		ps->nc_from = from;
	ps->nc_to = i;
	return i;
}

static pto_stmt *new_stmt(parser *ps, pto_stmt_kind k, const lline *L)
{
	pto_stmt *s = pto_stmt_new(ps->p, k);
	pto_stmt_set_line(s, L->line); /* its column: 1 + L->indent, the width of indent_s */
	pto_stmt_set_indent(ps->p, s, L->indent_s);
	return s;
}

/* The end of the current line, whose last statement is s (NULL: a line
 * that keeps no comment, `else:`): the line's trailing comment goes to
 * it. The line was tokenized last, so trail_s is its comment. */
static bool end_line(parser *ps, pto_stmt *s)
{
	if (!at_end(ps))
		return false;
	if (s && ps->trail_s) {
		const char *t = hilo_arena_strndup(ps->p->arena, ps->trail_s, ps->trail_n);
		if (!t)
			pto_oom(ps->p->arena);
		pto_stmt_set_trail(ps->p, s, t);
	}
	return true;
}

/* ---- simple statements ---------------------------------------------------
 * Python puts several simple statements on one line with `;` (a trailing
 * `;` allowed) and a compound statement's body on its header line after
 * the `:` (`for i in pl.range(4): x = f(i); y = g(x)`), a body of simple
 * statements only. The IR holds them as the statements they are: one
 * after the first on a line keeps the line's indentation and is placed at
 * its first token (its line:col for messages), a same-line body has no
 * indentation of its own. The printer writes each statement on a line
 * of its own (a same-line body indented under its header, 4 spaces), which
 * reads back as the same program; the line's trailing comment goes with
 * the last statement on it. */

static pto_stmt *parse_simple(parser *ps, const lline *L);

/* Simple statements from the current token to the end of the line, pushed
 * to out: own_line when the first starts the line (else it follows a
 * header's `:` on it). Leaves ps->li on the next line; the first one or
 * NULL after an error. */
static pto_stmt *parse_simple_list(parser *ps, const lline *L, pto_block *out, bool own_line)
{
	pto_stmt *first = NULL, *s = NULL;
	for (;;) {
		tok *t = cur(ps);
		static const char *const compound[] = { "for", "while", "if", "elif", "else", "with", "def", "class", "try", NULL };
		for (int k = 0; compound[k] && t->type == T_NAME; k++)
			if (tok_is_kw(t, compound[k])) {
				pto_lex_error(ps, t->line, t->col, "'%s' must start a line of its own (after ';' or "
					"a ':' on the same line only simple statements may follow)", compound[k]);
				return NULL;
			}
		uint32_t at = tok_pos(ps, t);
		if (!(s = parse_simple(ps, L)))
			return NULL;
		if (!own_line)
			pto_stmt_set_indent(ps->p, s, NULL);
		if (first || !own_line)
			pto_stmt_place_at(s, at);
		pto_block_push(ps->p, out, s);
		if (!first)
			first = s;
		if (!is_op(ps, ";"))
			break;
		ps->ti++;
		if (cur(ps)->type == T_END)
			break;
	}
	if (!end_line(ps, s))
		return NULL;
	ps->li++;
	return first;
}

/* Reads the compound statement's body: on the header line after the
 * `:`, or the indented block starting at the line after li. hs is the
 * header's statement (NULL for `else:` and `def`), which keeps the
 * header line's trailing comment. */
static bool parse_body(parser *ps, pto_block *body, const lline *hdr, pto_stmt *hs)
{
	if (cur(ps)->type != T_END)
		return parse_simple_list(ps, hdr, body, false) != NULL;
	if (!end_line(ps, hs))
		return false;
	const lline *B = pto_lex_line(ps, next_code(ps, ps->li + 1));
	if (!B || B->indent <= hdr->indent) {
		pto_lex_error(ps, hdr->line, hdr->indent + 1, "expected an indented block");
		return false;
	}
	int bind = B->indent;
	ps->li++;
	return parse_block(ps, body, bind, hdr->line);
}

static pto_stmt *parse_stmt(parser *ps, pto_block *out);

static pto_stmt *parse_if(parser *ps, const lline *L, bool elif)
{
	pto_stmt *s = new_stmt(ps, PTO_S_IF, L);
	s->is_elif = elif;
	ps->ti++;
	s->value = parse_test(ps);
	if (!s->value || !pto_lex_expect_op(ps, ":"))
		return NULL;
	if (!parse_body(ps, &s->body, L, s))
		return NULL;
	/* else / elif at the same indentation */
	size_t j = next_code(ps, ps->li);
	const lline *J = pto_lex_line(ps, j);
	if (J && J->indent == L->indent && J->ntoks &&
	    (ltok_is_kw(&J->first, "else") || ltok_is_kw(&J->first, "elif"))) {
		lline E = *J;
		size_t nl = j - ps->li;
		if (nl) {
			s->else_lead = hilo_arena_alloc(ps->p->arena, nl * sizeof *s->else_lead);
			for (size_t k = ps->li; k < j; k++)
				s->else_lead[s->nelse_lead++] = pto_lex_line(ps, k)->raw;
		}
		pto_lex_set_line(ps, j);
		s->has_else = true;
		s->else_indent = E.indent_s;
		if (ltok_is_kw(&E.first, "elif")) {
			pto_stmt *inner = parse_if(ps, &E, true);
			if (!inner)
				return NULL;
			pto_block_push(ps->p, &s->orelse, inner);
			return s;
		}
		ps->ti++;
		if (!pto_lex_expect_op(ps, ":"))
			return NULL;
		if (!parse_body(ps, &s->orelse, &E, NULL))
			return NULL;
	}
	return s;
}

/* Parses the statement on the current line - a compound statement, or
 * the simple statements of the line - and pushes it to out; leaves ps->li
 * on the first line after it. Returns the first statement pushed. */
static pto_stmt *parse_stmt(parser *ps, pto_block *out)
{
	/* a copy: parsing a body moves the window */
	const lline Lc = *pto_lex_line(ps, ps->li), *L = &Lc;
	tok *t = cur(ps);
	pto_stmt *s;
	ps->depth = ps->chain = 0; /* a target parsed without parse_test leaves its count */
	if (tok_is_kw(t, "for")) {
		s = new_stmt(ps, PTO_S_FOR, L);
		ps->ti++;
		if (!(s->target = parse_exprlist(ps, true)))
			return NULL;
		if (!is_kw(ps, "in")) {
			tok *u = cur(ps);
			pto_lex_error(ps, u->line, u->col, "expected 'in' in for statement");
			return NULL;
		}
		ps->ti++;
		if (!(s->value = parse_exprlist(ps, false)) || !pto_lex_expect_op(ps, ":"))
			return NULL;
		if (!parse_body(ps, &s->body, L, s))
			return NULL;
		pto_block_push(ps->p, out, s);
		return s;
	} else if (tok_is_kw(t, "while")) {
		s = new_stmt(ps, PTO_S_WHILE, L);
		ps->ti++;
		if (!(s->value = parse_test(ps)) || !pto_lex_expect_op(ps, ":"))
			return NULL;
		if (!parse_body(ps, &s->body, L, s))
			return NULL;
		pto_block_push(ps->p, out, s);
		return s;
	} else if (tok_is_kw(t, "if")) {
		if (!(s = parse_if(ps, L, false)))
			return NULL;
		pto_block_push(ps->p, out, s);
		return s;
	} else if (tok_is_kw(t, "with")) {
		s = new_stmt(ps, PTO_S_WITH, L);
		ps->ti++;
		if (!(s->value = parse_test(ps)))
			return NULL;
		if (is_kw(ps, "as")) {
			ps->ti++;
			if (!(s->target = parse_bitor(ps)))
				return NULL;
		}
		if (!pto_lex_expect_op(ps, ":"))
			return NULL;
		if (!parse_body(ps, &s->body, L, s))
			return NULL;
		pto_block_push(ps->p, out, s);
		return s;
	}
	return parse_simple_list(ps, L, out, true);
}

/* One simple statement from the current token (its end: `;` or the end
 * of the line, which the caller checks). */
static pto_stmt *parse_simple(parser *ps, const lline *L)
{
	tok *t = cur(ps);
	pto_stmt *s;
	ps->depth = ps->chain = 0;
	if (tok_is_kw(t, "return")) {
		s = new_stmt(ps, PTO_S_RETURN, L);
		ps->ti++;
		if (cur(ps)->type != T_END && !is_op(ps, ";") && !(s->value = parse_exprlist(ps, false)))
			return NULL;
	} else if (tok_is_kw(t, "pass")) {
		s = new_stmt(ps, PTO_S_PASS, L);
		ps->ti++;
	} else if (tok_is_kw(t, "break") || tok_is_kw(t, "continue")) {
		s = new_stmt(ps, PTO_S_KEYWORD, L);
		s->text = pto_lex_intern(ps, t);
		ps->ti++;
	} else if (t->type == T_NAME && pto_lex_is_keyword(t)) {
		pto_lex_error(ps, t->line, t->col, "unsupported statement '%.*s'", (int)t->len, t->s);
		return NULL;
	} else {
		pto_expr *e = parse_exprlist(ps, false);
		if (!e)
			return NULL;
		if (is_op(ps, ":")) {
			s = new_stmt(ps, PTO_S_ASSIGN, L);
			ps->ti++;
			s->target = e;
			/* Annotations repeat on nearly every line; identical text
			 * shares one tree (never mutated in place by the passes). */
			size_t eq = expr_end(ps, "=");
			if (!(s->ann = parse_shared(ps, eq < ps->nt ? eq : 0)))
				return NULL;
			if (!pto_lex_expect_op(ps, "="))
				return NULL;
			if (!(s->value = parse_exprlist(ps, false)))
				return NULL;
		} else if (is_op(ps, "=")) {
			s = new_stmt(ps, PTO_S_ASSIGN, L);
			ps->ti++;
			s->target = e;
			if (!(s->value = parse_exprlist(ps, false)))
				return NULL;
		} else {
			s = new_stmt(ps, PTO_S_EXPR, L);
			s->value = e;
		}
		if (s->kind == PTO_S_ASSIGN && s->target->kind != PTO_E_NAME &&
		    s->target->kind != PTO_E_TUPLE && s->target->kind != PTO_E_SUB &&
		    s->target->kind != PTO_E_ATTR) {
			int tl, tc;
			pto_pos_linecol(ps->p, s->target->pos, &tl, &tc);
			pto_lex_error(ps, tl, tc, "cannot assign to this expression");
			return NULL;
		}
	}
	return s;
}

static bool parse_block(parser *ps, pto_block *out, int ind, int owner_line)
{
	if (++ps->blocks > MAX_BLOCKS) {
		pto_lex_error(ps, owner_line, ind + 1, "statements nested too deeply");
		return false;
	}
	bool ok = parse_block_(ps, out, ind, owner_line);
	ps->blocks--;
	return ok;
}

static bool parse_block_(parser *ps, pto_block *out, int ind, int owner_line)
{
	const char **lead = NULL;
	size_t nlead = 0, leadcap = 0;
	const lline *L;
	while (!ps->failed && (L = pto_lex_line(ps, ps->li)) != NULL) {
		if (!L->code) {
			const char *raw = L->raw;
			const lline *J = pto_lex_line(ps, next_code(ps, ps->li));
			if (!J || J->indent < ind)
				break;
			if (nlead == leadcap) {
				leadcap = leadcap ? leadcap * 2 : 4;
				lead = hilo_arena_grow(ps->p->arena, lead, nlead, leadcap, sizeof *lead);
			}
			lead[nlead++] = raw;
			ps->li++;
			continue;
		}
		if (L->indent < ind)
			break;
		if (L->indent > ind) {
			pto_lex_error(ps, L->line, L->indent + 1, "unexpected indentation");
			return false;
		}
		if (L->ntoks && (ltok_is_kw(&L->first, "else") || ltok_is_kw(&L->first, "elif"))) {
			pto_lex_error(ps, L->line, L->indent + 1, "'%s' without a matching 'if'",
				ltok_is_kw(&L->first, "else") ? "else" : "elif");
			return false;
		}
		if (L->ntoks && (L->first.type == T_OP && L->first.s[0] == '@')) {
			pto_lex_error(ps, L->line, L->indent + 1, "nested functions are not supported");
			return false;
		}
		pto_lex_set_line(ps, ps->li);
		pto_stmt *s = parse_stmt(ps, out);
		if (!s)
			return false;
		pto_stmt_set_lead(ps->p, s, lead, (uint32_t)nlead);
		lead = NULL;
		nlead = leadcap = 0;
	}
	if (nlead) {
		pto_stmt *c = pto_stmt_new(ps->p, PTO_S_COMMENT);
		pto_stmt_set_lead(ps->p, c, lead, (uint32_t)nlead);
		pto_stmt_set_line(c, owner_line);
		pto_block_push(ps->p, out, c);
	}
	return !ps->failed;
}

/* ---- functions and the module --------------------------------------- */

/* Decorator d's function type from its type= keyword (false: it has
 * none); *bad receives the type expression when it names no FunctionType
 * PyPTO defines. */
static bool deco_func_type(const pto_expr *d, pto_func_type *t, const pto_expr **bad)
{
	*bad = NULL;
	if (d->kind != PTO_E_CALL)
		return false;
	for (size_t k = 0; k < d->nkw; k++) {
		if (strcmp(d->kwnames[k], "type"))
			continue;
		const pto_expr *v = d->kwvals[k];
		const char *n = v->kind == PTO_E_ATTR && pto_expr_base(v)->kind == PTO_E_ATTR &&
			!strcmp(pto_expr_base(v)->name, "FunctionType") ? v->name : "";
		static const struct { const char *n; pto_func_type t; } map[] = {
			{ "Opaque", PTO_FT_OPAQUE }, { "Orchestration", PTO_FT_ORCHESTRATION },
			{ "InCore", PTO_FT_INCORE }, { "AIC", PTO_FT_AIC }, { "AIV", PTO_FT_AIV },
			{ "Group", PTO_FT_GROUP }, { "Spmd", PTO_FT_SPMD }, { "Graph", PTO_FT_GRAPH },
			{ "Inline", PTO_FT_OTHER },
		};
		for (size_t m = 0; m < sizeof map / sizeof map[0]; m++)
			if (!strcmp(n, map[m].n)) {
				*t = map[m].t;
				return true;
			}
		*bad = v;
		*t = PTO_FT_OTHER;
		return true;
	}
	return false;
}

/* The function's type: its first decorator with a type= keyword decides
 * (deco_func_type; *bad as there). */
static pto_func_type decode_func_type(const pto_func *f, const pto_expr **bad)
{
	pto_func_type t;
	for (size_t i = 0; i < f->ndecos; i++)
		if (deco_func_type(f->decos[i], &t, bad))
			return t;
	*bad = NULL;
	return PTO_FT_OPAQUE;
}

static void add_item(hilo_pto_program *p, const char *raw, pto_func *f)
{
	if (p->nitems == p->cap_items) {
		size_t ncap = p->cap_items ? p->cap_items * 2 : 32;
		/* tracked heap: a growth frees the array it replaces */
		p->items = hilo_heap_realloc(p->arena, p->items, ncap * sizeof *p->items);
		if (!p->items)
			pto_oom(p->arena);
		p->cap_items = ncap;
	}
	p->items[p->nitems].raw = raw;
	p->items[p->nitems].func = f;
	p->nitems++;
}

static bool parse_def(parser *ps, pto_func *f)
{
	const lline Lc = *pto_lex_line(ps, ps->li), *L = &Lc;
	pto_lex_set_line(ps, ps->li);
	ps->ti++; /* def */
	tok *n = cur(ps);
	if (n->type != T_NAME || pto_lex_is_keyword(n)) {
		pto_lex_error(ps, n->line, n->col, "expected a function name after 'def'");
		return false;
	}
	f->name = pto_lex_intern(ps, n);
	f->line = n->line;
	f->col = n->col;
	f->indent = L->indent_s;
	ps->ti++;
	if (!pto_lex_expect_op(ps, "("))
		return false;
	/* parameters are staged in ps->pstage and copied into an array of
	 * exactly their number (one at the first capacity, 8, cost a
	 * 4000-function program 0.6 MB) */
	size_t np = 0;
	bool first = true;
	while (!is_op(ps, ")")) {
		tok *pn = cur(ps);
		if (pn->type != T_NAME || pto_lex_is_keyword(pn)) {
			pto_lex_error(ps, pn->line, pn->col, "expected a parameter name");
			return false;
		}
		ps->ti++;
		if (first && tok_is_kw(pn, "self") && !is_op(ps, ":")) {
			f->has_self = true;
		} else {
			pto_expr *ann = NULL;
			if (is_op(ps, ":")) {
				ps->ti++;
				if (!(ann = parse_shared(ps, expr_end(ps, ",)"))))
					return false;
			}
			if (is_op(ps, "=")) {
				tok *u = cur(ps);
				pto_lex_error(ps, u->line, u->col, "default parameter values are not supported");
				return false;
			}
			const char *nm = pto_lex_intern(ps, pn);
			for (size_t k = 0; k < np; k++)
				if (ps->pstage[k].name == nm) {
					pto_lex_error(ps, pn->line, pn->col, "duplicate parameter '%s'", nm);
					return false;
				}
			if (np == ps->pstage_cap) {
				size_t ncap = np ? 2 * np : 8;
				pto_param *ns = hilo_heap_realloc(ps->p->arena, ps->pstage, ncap * sizeof *ns);
				if (!ns)
					pto_oom(ps->p->arena);
				ps->pstage = ns;
				ps->pstage_cap = ncap;
			}
			ps->pstage[np++] = (pto_param){ .name = nm, .ann = ann, .line = pn->line, .col = pn->col };
		}
		first = false;
		if (is_op(ps, ",")) {
			ps->ti++;
			continue;
		}
		if (!is_op(ps, ")")) {
			pto_lex_expect_op(ps, ")");
			return false;
		}
	}
	ps->ti++;
	if (np) {
		f->params = hilo_arena_alloc(ps->p->arena, np * sizeof *f->params);
		if (!f->params)
			pto_oom(ps->p->arena);
		memcpy(f->params, ps->pstage, np * sizeof *f->params);
		f->nparams = f->cap_params = np;
	}
	if (is_op(ps, "->")) {
		ps->ti++;
		if (!(f->ret = parse_shared(ps, expr_end(ps, ":"))))
			return false;
	}
	if (!pto_lex_expect_op(ps, ":"))
		return false;
	/* the body's array starts at 2 statements, not a block's 8: most
	 * functions of a program of many are a few statements long (it is
	 * the tracked-heap block pto_block_push grows) */
	f->body.stmts = hilo_heap_alloc(ps->p->arena, 2 * sizeof *f->body.stmts);
	if (!f->body.stmts)
		pto_oom(ps->p->arena);
	f->body.cap = 2;
	if (cur(ps)->type != T_END) /* `def f(...): return x`: a body on the header line */
		return parse_simple_list(ps, L, &f->body, false) != NULL;
	if (!at_end(ps))
		return false;
	const lline *B = pto_lex_line(ps, next_code(ps, ps->li + 1));
	if (!B || B->indent <= L->indent) {
		pto_lex_error(ps, L->line, L->indent + 1, "function '%s' has no body", f->name);
		return false;
	}
	f->body_indent = B->indent_s;
	int bind = B->indent;
	ps->li++;
	return parse_block(ps, &f->body, bind, L->line);
}

/* Python's block structure over the lines outside functions (verbatim:
 * the class line, module-level code), which the statement parser never
 * sees: a line ending in ':' opens a block, so the next code line must be
 * indented deeper ("expected an indented block"), and a line indented
 * deeper than the one before must follow such an opener ("unexpected
 * indentation") - as inside functions. A function counts as one line at
 * its decorators' indentation. False after a located error. */
typedef struct top_shape {
	int indent;        /* of the last code line; -1 before the first */
	bool opens;        /* it ends with ':' */
	int line;          /* its line number */
} top_shape;

static bool top_line(parser *ps, top_shape *t, const lline *L, bool opens)
{
	if (t->opens && L->indent <= t->indent) {
		pto_lex_error(ps, t->line, t->indent + 1, "expected an indented block");
		return false;
	}
	if (!t->opens && L->indent > (t->indent < 0 ? 0 : t->indent)) {
		pto_lex_error(ps, L->line, L->indent + 1, "unexpected indentation");
		return false;
	}
	t->indent = L->indent;
	t->opens = opens;
	t->line = L->line;
	return true;
}

/* The current line (a code line) ends in ':'. */
static bool line_opens_block(parser *ps)
{
	pto_lex_set_line(ps, ps->li);
	return ps->nt && ps->t[ps->nt - 1].type == T_OP && ps->t[ps->nt - 1].len == 1 &&
		ps->t[ps->nt - 1].s[0] == ':';
}

/* Parses into a's program; NULL (diagnostics added) on bad input. The
 * caller holds the out-of-memory guard on a and destroys a on failure. */
static hilo_pto_program *parse_program(hilo_arena *a, const char *file, const char *src, size_t len,
	char *owned, int fd, const struct stat *st, hilo_diags *diags, bool whole_file)
{
	hilo_pto_program *p = hilo_arena_alloc(a, sizeof *p);
	p->arena = a;
	p->names = pto_names_create(a);
	p->func_by_name = pto_map_new(a); /* arrays freed when outgrown */
	p->file = hilo_arena_strdup(a, file ? file : "<input>");
	p->src = owned ? owned : hilo_arena_strndup(a, src, len);
	p->srclen = len;
	p->final_newline = len == 0 || src[len - 1] == '\n';
	parser ps;
	memset(&ps, 0, sizeof ps);
	ps.p = p;
	if (fd >= 0) {
		/* the file's text is dropped: read again by offset from here on,
		 * released while it is parsed (large files) */
		p->src_fd1 = fd + 1;
		p->src_st = *st;
		pto_lines_build(p);
		ps.release = len >= PTO_RELEASE_STEP;
	}
	ps.d = diags;
	pto_map_init(&ps.ann_cache, a);
	/* program text never holds NUL bytes; rejecting them up front keeps
	 * every verbatim line a C string */
	const char *nul = memchr(src, '\0', len);
	if (nul) {
		int ln = 1, col = 1;
		for (const char *q = src; q < nul; q++) {
			if (*q == '\n') {
				ln++;
				col = 1;
			} else {
				col++;
			}
		}
		pto_lex_fatal(&ps, ln, col, "NUL byte in program text");
		goto fail;
	}
	size_t nphys = 0;
	if (!pto_lex_check_utf8(&ps, (const unsigned char *)src, len, &nphys))
		goto fail;
	/* about one new name a line in large programs (each statement binds
	 * one): sized once instead of doubling through the parse */
	pto_names_reserve(p->names, nphys + nphys / 8);
	pto_lex_begin(&ps);
	size_t func_cap = 0;
	top_shape shape = {.indent = -1};
	const lline *Lp;
	int code_line = 0, code_col = 0; /* the first code line: where "not a program" points */
	while ((Lp = pto_lex_line(&ps, ps.li)) != NULL) {
		/* copies: looking ahead moves the window */
		lline L = *Lp;
		if (!code_line && L.code && L.ntoks) {
			code_line = L.line;
			code_col = L.indent + 1;
		}
		bool deco = L.code && L.ntoks && L.first.type == T_OP && L.first.s[0] == '@' &&
			L.first.len == 1;
		bool def = L.code && L.ntoks && ltok_is_kw(&L.first, "def");
		size_t ndeco_lines = 0;
		if (deco) {
			/* only decorators of a def start a function (not @pl.program) */
			size_t j = ps.li;
			const lline *J;
			while ((J = pto_lex_line(&ps, j)) != NULL && J->code && J->ntoks &&
			       J->first.type == T_OP && J->first.s[0] == '@')
				j++;
			ndeco_lines = j - ps.li;
			deco = J && J->code && J->ntoks && ltok_is_kw(&J->first, "def");
			if (!deco && !(J && J->code && J->ntoks && ltok_is_kw(&J->first, "class"))) {
				pto_lex_error(&ps, J ? J->line : L.line, 1,
					"a decorator must be followed by 'def' or 'class'");
				goto fail;
			}
		}
		if (!deco && !def) {
			if (L.code && L.ntoks && !top_line(&ps, &shape, &L, line_opens_block(&ps)))
				goto fail;
			if (ps.failed)
				goto fail;
			add_item(p, L.code ? hilo_arena_strndup(a, L.raw_s, L.raw_n) : L.raw, NULL);
			ps.li++;
			continue;
		}
		/* the function stands where its first decorator or def is */
		if (!top_line(&ps, &shape, &L, false))
			goto fail;
		/* a function: leading comments already went out as verbatim items
		 * unless they directly precede the decorators at the same level */
		pto_func *f = hilo_arena_alloc(a, sizeof *f);
		/* the decorator arrays at their size: the decorators are the
		 * '@' lines just counted */
		size_t ndeco_cap = ndeco_lines;
		bool typed = false; /* a decorator with type= was met */
		if (ndeco_cap) {
			f->decos = hilo_arena_alloc(a, ndeco_cap * sizeof *f->decos);
			f->deco_indent = hilo_arena_alloc(a, ndeco_cap * sizeof *f->deco_indent);
			if (!f->decos || !f->deco_indent)
				pto_oom(a);
		}
		while ((Lp = pto_lex_line(&ps, ps.li)) != NULL) {
			L = *Lp;
			if (!L.code) {
				const lline *J = pto_lex_line(&ps, next_code(&ps, ps.li));
				if (J && J->ntoks && (J->first.s[0] == '@' || ltok_is_kw(&J->first, "def")) &&
				    f->ndecos) {
					pto_lex_error(&ps, L.line, 1, "comment between a decorator and its function");
					goto fail;
				}
				break;
			}
			if (L.ntoks && L.first.type == T_OP && L.first.s[0] == '@') {
				pto_lex_set_line(&ps, ps.li);
				ps.ti++;
				size_t t0 = ps.ti;
				pto_expr *d = parse_shared(&ps, ps.nt);
				if (!d || !at_end(&ps))
					goto fail;
				/* The decorator that gives the type names an unknown one:
				 * the message points into the tree, and a shared tree
				 * carries the positions of the text's first occurrence
				 * (an annotation, or a decorator that gave no type), so
				 * this one gets a tree of its own. */
				pto_func_type dt;
				const pto_expr *dbad;
				if (!typed && deco_func_type(d, &dt, &dbad)) {
					typed = true;
					if (dbad) {
						ps.ti = t0;
						if (!(d = parse_test(&ps)) || !at_end(&ps))
							goto fail;
					}
				}
				if (f->ndecos == ndeco_cap) {
					ndeco_cap = ndeco_cap ? ndeco_cap * 2 : 2;
					f->decos = hilo_arena_grow(a, f->decos, f->ndecos, ndeco_cap, sizeof *f->decos);
					f->deco_indent = hilo_arena_grow(a, f->deco_indent, f->ndecos, ndeco_cap,
						sizeof *f->deco_indent);
				}
				f->deco_indent[f->ndecos] = L.indent_s;
				f->decos[f->ndecos++] = d;
				ps.li++;
				continue;
			}
			if (ltok_is_kw(&L.first, "def")) {
				if (!parse_def(&ps, f))
					goto fail;
				const pto_expr *bad;
				f->type = decode_func_type(f, &bad);
				if (bad) {
					/* a function silently skipped would escape every check */
					hilo_buf tb;
					hilo_buf_init_in(&tb, a);
					pto_print_expr(&tb, bad);
					int bl, bc;
					pto_pos_linecol(ps.p, bad->pos, &bl, &bc);
					pto_lex_error(&ps, bl, bc, "unknown function type '%s' (PyPTO's FunctionType "
						"is Opaque, Orchestration, InCore, AIC, AIV, Group, Spmd, Inline or Graph)",
						tb.data ? tb.data : "");
					hilo_buf_free(&tb);
					goto fail;
				}
				add_item(p, NULL, f);
				if (p->nfuncs == func_cap) {
					func_cap = func_cap ? func_cap * 2 : 8;
					p->funcs = hilo_heap_realloc(a, p->funcs, func_cap * sizeof *p->funcs);
					if (!p->funcs)
						pto_oom(a);
				}
				if (pto_map_has(p->func_by_name, f->name)) {
					pto_lex_error(&ps, f->line, f->col, "duplicate function '%s'", f->name);
					goto fail;
				}
				pto_map_put(p->func_by_name, f->name, f);
				p->funcs[p->nfuncs++] = f;
				f = NULL;
				break;
			}
			pto_lex_error(&ps, L.line, L.indent + 1, "expected 'def' after a decorator");
			goto fail;
		}
		if (ps.failed)
			goto fail;
		if (f) {
			pto_lex_error(&ps, L.line, 1, "decorator without a function");
			goto fail;
		}
	}
	if (ps.failed)
		goto fail;
	if (shape.opens) { /* a block header on the last code line */
		pto_lex_error(&ps, shape.line, shape.indent + 1, "expected an indented block");
		goto fail;
	}
	/* A file without a function is no PyPTO program (an HLO module, a
	 * note): echoing it back would pass any file off as a program the
	 * passes checked. (A buffer may be a fragment: the unit tests parse
	 * comment-only text.) */
	if (whole_file && !p->nfuncs) {
		pto_lex_error(&ps, code_line ? code_line : 1, code_line ? code_col : 1,
			"not a PyPTO program: no function (a 'def' under '@pl.program' or "
			"'@pl.function')");
		goto fail;
	}
	pto_lex_finish(&ps);
	hilo_heap_free(a, ps.pstage);
	return p;
fail:
	pto_lex_finish(&ps);
	hilo_heap_free(a, ps.pstage);
	if (!ps.failed)
		hilo_diag_add(diags, HILO_SEV_ERROR, p->file, 1, 1, NULL, 0, "malformed program");
	return NULL;
}

/* The entry point: out of memory anywhere in the parse (the program's
 * arena, its scratch child arenas, the lexer's tracked-heap line and token
 * tables) jumps to the guard here, which reports it and frees it all.
 * fd >= 0: the (owned) text is the whole content of that file, which the
 * program takes over (closed with it, not on failure); the text is freed
 * once parsed, keeping a table of line starts. */
static hilo_pto_program *parse_entry(const char *file, const char *src, size_t len, char *owned,
	int fd, const struct stat *st, bool whole_file, hilo_diags *diags)
{
	bool drop = fd >= 0;
	/* source positions are 32-bit offsets (pto_expr.pos) */
	if (len >= UINT32_MAX) {
		hilo_diag_add(diags, HILO_SEV_ERROR, file ? file : "<input>", 0, 0, NULL, 0,
			"program text of %zu bytes is too large (at most %u bytes)", len, UINT32_MAX - 1);
		free(owned);
		return NULL;
	}
	/* line numbers are ints (messages, statements): a text of 2^31 lines
	 * and more (only one of 2 GiB and more can be) is refused the same way */
	if (len > INT_MAX / 2) {
		size_t nl = 0;
		for (const char *q = src, *end = src + len; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++)
			nl++;
		if (nl >= INT_MAX) {
			hilo_diag_add(diags, HILO_SEV_ERROR, file ? file : "<input>", 0, 0, NULL, 0,
				"program text of %zu lines is too large (at most %d lines)", nl + 1, INT_MAX);
			free(owned);
			return NULL;
		}
	}
	hilo_arena *a = hilo_arena_create();
	if (!a) {
		hilo_diag_oom(diags, file ? file : "<input>");
		free(owned);
		return NULL;
	}
	hilo_arena_set_flags(a, HILO_ARENA_SMALL_PAGES); /* peak memory counts here (issue 20) */
	HILO_OOM_CATCH(g, a) {
		hilo_diag_oom(diags, file ? file : "<input>");
		hilo_arena_destroy(a);
		free(owned);
		return NULL;
	}
	hilo_pto_program *p = parse_program(a, file, src, len, owned, fd, st, diags, whole_file);
	hilo_oom_end(&g);
	if (!p) {
		hilo_arena_destroy(a);
		free(owned);
		return NULL;
	}
	if (drop) {
		/* nothing the program keeps points into the text: names are
		 * interned, verbatim lines, strings and comments copied */
		free(owned);
		p->src = NULL;
	} else {
		p->owned_src = owned;
	}
	return p;
}

hilo_pto_program *hilo_pto_parse(const char *file, const char *src, size_t len, hilo_diags *diags)
{
	return parse_entry(file, src, len, NULL, -1, NULL, false, diags);
}

hilo_pto_program *hilo_pto_parse_owned(const char *file, char *src, size_t len, hilo_diags *diags)
{
	return parse_entry(file, src, len, src, -1, NULL, false, diags);
}

hilo_pto_program *hilo_pto_parse_file(const char *path, const char *name, hilo_diags *diags)
{
	const char *shown = strcmp(path, "-") ? path : "<stdin>";
	size_t len = 0;
	int fd = -1;
	struct stat st;
	/* refused before reading: a file of billions of blank lines would be
	 * read whole only to be found empty, or fill memory with statements */
	if (hilo_input_too_large(path, "PyPTO", diags))
		return NULL;
	char *text = hilo_read_file_fd(path, &len, &fd, &st, diags);
	if (!text)
		return NULL;
	int line, col;
	hilo_pto_program *p = NULL;
	if (hilo_text_is_blank(text, len, &line, &col)) {
		hilo_diag_add(diags, HILO_SEV_ERROR, shown, line, col, NULL, 0,
			"empty input: expected a PyPTO program");
		free(text);
	} else {
		/* the text read is the file's whole content (not a file that grew
		 * or shrank while read): it can be read again for caret lines */
		bool drop = fd >= 0 && st.st_size >= 0 && (size_t)st.st_size == len;
		p = parse_entry(name ? name : shown, text, len, text, drop ? fd : -1, &st, true, diags);
		if (p && drop)
			fd = -1; /* the program's now */
	}
	if (fd >= 0)
		close(fd);
	return p;
}
