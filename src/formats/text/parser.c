/* HLO text parser: module header, computations, instructions (the
 * attribute values are read by attrs.c; the state both share is
 * parse_internal.h).
 *
 * One pass over the characters. Names are interned; each computation
 * keeps a name -> instruction map for operand lookup (operands must be
 * defined before use, as in XLA). Attributes the passes and printer model
 * are decoded into typed values (attrs.c); any other `key=value` is kept as raw
 * text (XLA prints unknown attributes back verbatim too in our output).
 * The first error stops the parse; it is reported with file:line:col.
 */
#include "parse_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void scope_clear(name_scope *t)
{
	if (t->cap > 64 && (size_t)t->n * 8 < t->cap)
		scope_free(t);
	else if (t->n) {
		memset(t->e, 0, (size_t)t->cap * sizeof *t->e);
		t->n = 0;
	}
}

static hilo_instr *scope_find(const name_scope *t, const char *s, size_t len, uint32_t hash)
{
	if (!t->cap)
		return NULL;
	for (uint32_t k = hash & (t->cap - 1);; k = (k + 1) & (t->cap - 1)) {
		const scope_entry *e = &t->e[k];
		if (!e->i)
			return NULL;
		if (e->hash == hash && e->len == len && hilo_mem_eq(e->i->name, s, len))
			return e->i;
	}
}

static void scope_prefetch(const name_scope *t, uint32_t hash)
{
	if (t->cap)
		__builtin_prefetch(&t->e[hash & (t->cap - 1)]);
}

/* Adds i under its name (len, hash: of i->name), replacing an entry of the
 * same name. */
static void scope_add(name_scope *t, hilo_instr *i, size_t len, uint32_t hash)
{
	if (((size_t)t->n + 1) * 2 > t->cap) {
		uint32_t ncap = t->cap ? t->cap * 2 : 64;
		scope_entry *ne = ncap ? hilo_heap_alloc(t->arena, (size_t)ncap * sizeof *ne) : NULL;
		if (!ne)
			return; /* out of memory without a guard: the name is not found later */
		for (uint32_t k = 0; k < t->cap; k++) {
			if (!t->e[k].i)
				continue;
			uint32_t j = t->e[k].hash & (ncap - 1);
			while (ne[j].i)
				j = (j + 1) & (ncap - 1);
			ne[j] = t->e[k];
		}
		hilo_heap_free(t->arena, t->e);
		t->e = ne;
		t->cap = ncap;
	}
	uint32_t k = hash & (t->cap - 1);
	for (;; k = (k + 1) & (t->cap - 1)) {
		scope_entry *e = &t->e[k];
		if (!e->i)
			break;
		if (e->hash == hash && e->len == len && hilo_mem_eq(e->i->name, i->name, len)) {
			e->i = i;
			return;
		}
	}
	t->e[k] = (scope_entry){i, hash, (uint32_t)len};
	t->n++;
}

/* The instruction named s[0..n) in the current scope, or NULL. */
static hilo_instr *scope_get(parser *P, const char *s, size_t n)
{
	return scope_find(&P->names, s, n, hilo_hash_inline(s, n));
}

static hilo_instr *scope_get_cstr(parser *P, const char *name)
{
	return scope_get(P, name, strlen(name));
}

/* Puts i in scope under its name. */
static void scope_put(parser *P, hilo_instr *i)
{
	size_t n = strlen(i->name);
	scope_add(&P->names, i, n, hilo_hash_inline(i->name, n));
}


/* ---- instructions ---- */

static bool starts_shape(parser *P)
{
	lexer *L = &P->L;
	lex_skip_ws(L);
	const char *p = L->p;
	if (p >= L->end)
		return false;
	if (*p == '(')
		return true;
	const char *q = p;
	while (q < L->end && lex_is_ident_char((unsigned char)*q))
		q++;
	if (q < L->end && *q == '(' && q - p == 1 && *p == 'b')
		return true;
	return q < L->end && *q == '[' && hilo_ptype_lookup(p, (size_t)(q - p)) != HILO_T_INVALID;
}

static hilo_instr *read_body(parser *P, hilo_comp *c, const char *name, size_t name_len,
	uint32_t name_hash, hilo_shape *shape, const char *shape_at, int line, int col,
	const char *comment);

/* A name not yet used in this computation: base, base.1, base.2, ... */
static const char *local_unique(parser *P, const char *base)
{
	const char *n = intern(P, base, strlen(base));
	char tmp[300];
	for (int k = 1; scope_get_cstr(P, n); k++) {
		snprintf(tmp, sizeof tmp, "%.250s.%d", base, k);
		n = intern(P, tmp, strlen(tmp));
	}
	return n;
}

/* %x#i: a get-tuple-element of x, shared by every use of the same x#i. */
static hilo_instr *compact_gte(parser *P, hilo_comp *c, hilo_instr *of, int64_t idx, const char *at)
{
	for (size_t k = 0; k < P->ngtes; k++)
		if (P->gtes[k].of == of && P->gtes[k].index == idx)
			return P->gtes[k].gte;
	if (of->shape->type != HILO_T_TUPLE || idx < 0 || idx >= of->shape->ntuple) {
		lex_error(&P->L, at, "'%s#%lld': not an element of %s", of->name, (long long)idx,
			hilo_shape_str(P->m->arena, of->shape));
		return NULL;
	}
	char base[300];
	snprintf(base, sizeof base, "%.250s_%lld", of->name, (long long)idx);
	hilo_module *m = P->m;
	hilo_instr *g = hilo_arena_alloc(m->arena, sizeof *g);
	g->op = HILO_OP_GET_TUPLE_ELEMENT;
	g->async_op = HILO_OP_COUNT;
	g->id = m->next_id++;
	g->name = local_unique(P, base);
	g->shape = of->shape->elems[idx];
	hilo_instr_add_operand(m, g, of);
	hilo_attr *a = hilo_instr_set_attr(m, g, HILO_A_INDEX, HILO_ATTR_INT);
	a->v.i = idx;
	hilo_comp_append(c, g);
	scope_put(P, g);
	if (P->ngtes == P->capgtes) {
		size_t cap = P->capgtes ? P->capgtes * 2 : 8;
		struct synth_gte *n = hilo_heap_realloc(P->m->arena, P->gtes, cap * sizeof *n);
		if (!n) {
			lex_error(&P->L, at, "out of memory");
			return NULL;
		}
		P->gtes = n;
		P->capgtes = cap;
	}
	P->gtes[P->ngtes++] = (struct synth_gte){of, idx, g};
	P->synthesized = true;
	return g;
}

/* operand ::= [shape] name ('#' INT)* | [shape] opcode '(' operands ')' */
static hilo_instr *read_operand(parser *P, hilo_comp *c)
{
	lexer *L = &P->L;
	hilo_shape *shape = NULL;
	const char *shape_at = NULL;
	lex_skip_ws(L);
	const char *sat = L->p;
	if ((shape = lex_shape_cached(L))) {
		P->saw_operand_shapes = true;
		shape_at = sat;
	} else if (starts_shape(P)) {
		P->saw_operand_shapes = true;
		lex_skip_ws(L);
		shape_at = L->p;
		if (!(shape = lex_shape(L)))
			return NULL;
	}
	lex_skip_ws(L);
	const char *at = L->p, *s;
	int line = L->line; /* the column only when needed: lex_col scans the line */
	bool pct = L->p < L->end && *L->p == '%';
	size_t nl = read_name(P, &s);
	if (!nl) {
		char t[16];
		lex_error(L, at, "expected an operand name, got %s", lex_show_char(t, L));
		return NULL;
	}
	if (!pct && L->p < L->end && *L->p == '(') {
		/* an anonymous instruction written inline */
		if (++L->depth > LEX_MAX_DEPTH) {
			lex_error(L, at, "operands nested too deeply");
			return NULL;
		}
		L->p = at;
		int col = lex_col(L, at);
		hilo_instr *anon = read_body(P, c, NULL, 0, 0, shape, shape_at ? shape_at : at, line, col, NULL);
		L->depth--;
		if (anon) {
			hilo_comp_append(c, anon);
			P->synthesized = true;
		}
		return anon;
	}
	hilo_instr *op = scope_get(P, s, nl);
	if (!op) {
		lex_error(L, at, "instruction '%.*s' does not exist (operands must be defined before use)", (int)nl, s);
		return NULL;
	}
	while (L->p < L->end && *L->p == '#') {
		const char *hat = L->p++;
		int64_t idx;
		if (!lex_int(L, &idx))
			return NULL;
		if (!(op = compact_gte(P, c, op, idx, hat)))
			return NULL;
	}
	return op;
}

static bool read_operands(parser *P, hilo_comp *c, hilo_instr *i)
{
	lexer *L = &P->L;
	if (lex_accept(L, ')'))
		return true;
	/* collect first, then allocate the operand array at its exact size */
	hilo_instr *tmp[32], **ops = tmp;
	uint32_t n = 0, cap = 32;
	bool ok = false;
	bool marks = false; /* some /\*index=N*\/ between operands */
	for (;;) {
		hilo_instr *op = read_operand(P, c);
		if (!op)
			goto out;
		if (n == cap) {
			hilo_instr **no = hilo_heap_alloc(P->m->arena, 2 * cap * sizeof *no);
			if (!no) {
				lex_error(L, L->p, "out of memory");
				goto out;
			}
			memcpy(no, ops, n * sizeof *no);
			if (ops != tmp)
				hilo_heap_free(P->m->arena, ops);
			ops = no;
			cap *= 2;
		}
		ops[n++] = op;
		if (lex_accept(L, ',')) {
			const char *q = L->p;
			while (q < L->end && (*q == ' ' || *q == '\t'))
				q++;
			if (L->end - q >= 8 && !memcmp(q, "/*index=", 8))
				marks = true;
			continue;
		}
		if (!lex_expect(L, ')'))
			goto out;
		break;
	}
	if (n > HILO_INLINE_OPERANDS) { /* else hilo_instr_add_operand uses inline_ops */
		i->operands = hilo_arena_alloc(P->m->arena, n * sizeof *ops);
		i->cap_operands = n;
	}
	for (uint32_t k = 0; k < n; k++)
		hilo_instr_add_operand(P->m, i, ops[k]);
	if (n > 5 && !marks)
		i->text_bits |= HILO_TEXT_NO_INDEX_MARKS;
	ok = true;
out:
	if (ops != tmp)
		hilo_heap_free(P->m->arena, ops);
	return ok;
}

/* Comment lines between instructions are kept with the next one. */
static const char *leading_comment(parser *P)
{
	lexer *L = &P->L;
	const char *s = L->p;
	/* a '/' in the skipped text can only be a comment's: none skipped,
	 * none kept (the scans below are for the few that are) */
	L->comment_seen = false;
	lex_skip_ws(L);
	if (!L->comment_seen)
		return NULL;
	while (s < L->end && *s != '\n' && (*s == ' ' || *s == '\t'))
		s++;
	if (s < L->end && *s == '\n')
		s++;
	const char *e = L->p;
	while (e > s && e[-1] != '\n')
		e--;
	for (const char *q = s; q < e; q++)
		if (*q == '/')
			return hilo_arena_strndup(P->m->arena, s, (size_t)(e - s));
	return NULL;
}

/* XLA's naming rules, which its parser enforces: primitive type names
 * (but "tuple") lex as types and the words below as keywords, so neither
 * is a name unless written with '%' (hlo_lexer.cc LexIdentifier); and an
 * instruction whose name NameUniquer::GetSanitizedName would change (a
 * primitive type name; a leading "__" but "__xla_") is refused, with the
 * sanitized name as the suggestion (hlo_parser.cc, after building the
 * instruction). hilo refuses the same names, so what it reads XLA reads
 * too. Reports and returns false for a name XLA refuses. */
static bool xla_name_ok(parser *P, const char *s, size_t n, bool pct, const char *what)
{
	bool instr = !strcmp(what, "an instruction");
	bool type = hilo_ptype_lookup(s, n) != HILO_T_INVALID;
	bool keyword = lex_is_keyword(s, n);
	if (instr && type) {
		lex_error(&P->L, s, "illegal instruction name: %.*s; suggest renaming to: %.*s_ (a primitive type name)",
			(int)n, s, (int)n, s);
		return false;
	}
	if (instr && n > 2 && s[0] == '_' && s[1] == '_' && !(n >= 6 && !memcmp(s, "__xla_", 6))) {
		lex_error(&P->L, s, "illegal instruction name: %.*s; suggest renaming to: a%.*s (names starting with '__' are reserved)",
			(int)n, s, (int)n - 1, s + 1);
		return false;
	}
	if (!pct && (type || keyword)) {
		lex_error(&P->L, s, "expected %s name, got the keyword '%.*s' (write %%%.*s, or another name)",
			what, (int)n, s, (int)n, s);
		return false;
	}
	return true;
}

static hilo_instr *read_instruction(parser *P, hilo_comp *c, bool *is_root)
{
	lexer *L = &P->L;
	const char *comment = leading_comment(P);
	const char *start = L->p, *s;
	int line = L->line, col = lex_col(L, start);
	*is_root = false;
	size_t n = read_name(P, &s);
	if (n == 4 && !memcmp(s, "ROOT", 4) && L->p < L->end && (*L->p == ' ' || *L->p == '\t')) {
		*is_root = true;
		n = read_name(P, &s);
	}
	if (!n) {
		char tmp[16];
		lex_error(L, L->p, "expected an instruction, got %s", lex_show_char(tmp, L));
		return NULL;
	}
	if (!xla_name_ok(P, s, n, P->last_name_pct, "an instruction"))
		return NULL;
	/* the print style follows how instructions name themselves */
	if (P->last_name_pct)
		P->saw_percent = true;
	else
		P->saw_no_percent = true;
	/* a new name's string-table and scope slots are cache misses: they
	 * are loaded while '=' and the shape are read, the name interned after */
	uint32_t h = hilo_hash_inline(s, n);
	hilo_strtab_prefetch(P->m->strings, h);
	scope_prefetch(&P->names, h);
	if (!lex_expect(L, '='))
		return NULL;
	/* after "= ", a shape seen before is found first (that cannot fail),
	 * giving the scope's slot time to load; anything that can fail comes
	 * after the duplicate check, as it always did */
	hilo_shape *shape = NULL;
	const char *shape_at = L->p;
	if (L->end - L->p >= 2 && L->p[0] == ' ' && !(lex_class[(unsigned char)L->p[1]] & LEX_C_SKIP)) {
		shape_at = ++L->p;
		shape = lex_shape_cached(L);
	}
	if (scope_find(&P->names, s, n, h)) {
		lex_error(L, s, "instruction '%.*s' already exists in this computation", (int)n, s);
		return NULL;
	}
	if (!shape) {
		lex_skip_ws(L);
		shape_at = L->p;
		if (!(shape = lex_shape_cached(L)) && starts_shape(P)) {
			shape = lex_shape(L);
			if (!shape)
				return NULL;
		}
	}
	const char *name = hilo_intern_hashed(P->m->strings, s, n, h);
	return read_body(P, c, name, n, h, shape, shape_at, line, col, comment);
}

/* opcode '(' operands ')' and, for a named instruction, its attributes.
 * name == NULL: an anonymous operand instruction (named <opcode>.anon). */
static hilo_instr *read_body(parser *P, hilo_comp *c, const char *name, size_t name_len,
	uint32_t name_hash, hilo_shape *shape, const char *shape_at, int line, int col,
	const char *comment)
{
	lexer *L = &P->L;
	hilo_module *m = P->m;
	lex_skip_ws(L);
	const char *opat = L->p, *o;
	size_t on = lex_ident(L, &o);
	hilo_opcode op = HILO_OP_COUNT, async_op = HILO_OP_COUNT;
	/* a module uses few opcodes: each spelling is looked up once */
	uint32_t oh = on ? hilo_hash_inline(o, on) : 0;
	uintptr_t known = on ? (uintptr_t)hilo_bytemap_get(&P->opcodes, o, on, oh) : 0;
	if (known) {
		op = (hilo_opcode)((known >> 16) - 1);
		async_op = (hilo_opcode)((known & 0xffff) - 1);
	} else if (on) {
		op = hilo_opcode_lookup(o, on);
	}
	if (op == HILO_OP_COUNT && on) {
		/* async sugar: <op>-start / -update / -done */
		static const struct { const char *suf; hilo_opcode op; } sug[] = {
			{"-start", HILO_OP_ASYNC_START}, {"-update", HILO_OP_ASYNC_UPDATE},
			{"-done", HILO_OP_ASYNC_DONE}};
		for (size_t k = 0; k < 3; k++) {
			size_t sl = strlen(sug[k].suf);
			if (on > sl && !memcmp(o + on - sl, sug[k].suf, sl)) {
				hilo_opcode w = hilo_opcode_lookup(o, on - sl);
				if (w != HILO_OP_COUNT) {
					op = sug[k].op;
					async_op = w;
				}
			}
		}
	}
	if (!known && op != HILO_OP_COUNT)
		hilo_bytemap_put(&P->opcodes, o, on, oh, (void *)(((uintptr_t)op + 1) << 16 | ((uintptr_t)async_op + 1)));
	if (op == HILO_OP_COUNT) {
		if (on && L->p < L->end && *L->p == '[')
			lex_error(L, opat, "unknown element type '%.*s'", (int)on, o);
		else
			lex_error(L, opat, "unknown opcode '%.*s'", (int)(on ? on : 1), on ? o : opat);
		return NULL;
	}
	bool anon = name == NULL;
	if (anon) {
		char base[64];
		snprintf(base, sizeof base, "%s.anon", hilo_opcode_name(op));
		name = local_unique(P, base);
		name_len = strlen(name);
		name_hash = hilo_hash_inline(name, name_len);
	}
	hilo_instr *i = hilo_arena_alloc(m->arena, sizeof *i);
	i->op = (uint8_t)op;
	i->async_op = async_op;
	i->id = m->next_id++;
	i->name = name;
	i->shape = shape;
	i->line = line;
	i->col = col;
	if (comment)
		hilo_instr_set_comment(m, i, comment);
	hilo_module_claim_name(m, name);
	if (!lex_expect(L, '('))
		return NULL;
	if (!shape && (op == HILO_OP_PARAMETER || op == HILO_OP_CONSTANT)) {
		lex_error(L, shape_at, "expected the result shape of '%s'", name);
		return NULL;
	}
	if (op == HILO_OP_PARAMETER) {
		const char *pat = L->p;
		if (!lex_int(L, &i->u.param_no) || !lex_expect(L, ')'))
			return NULL;
		if (hilo_instr_param_no(i) < 0 || hilo_instr_param_no(i) > 1000000) {
			lex_error(L, pat, "parameter number out of range");
			return NULL;
		}
		if ((uint64_t)hilo_instr_param_no(i) < c->nparams && c->params[hilo_instr_param_no(i)]) {
			lex_error(L, pat, "duplicate parameter number %lld", (long long)hilo_instr_param_no(i));
			return NULL;
		}
		hilo_comp_add_param(m, c, i);
	} else if (op == HILO_OP_CONSTANT) {
		i->u.literal = lex_literal(L, shape);
		if (!hilo_instr_literal(i) || !lex_expect(L, ')'))
			return NULL;
	} else if (!read_operands(P, c, i)) {
		return NULL;
	}
	/* attributes follow on the same line (comments after it belong to the
	 * next instruction); anonymous instructions have none. They are read
	 * into atmp and copied to an exact-size array (the doubling arena
	 * array abandoned its smaller copies and kept unused room). */
	hilo_attr atmp[8];
	if (!anon && !i->nattrs) {
		i->attrs = atmp;
		i->cap_attrs = 8;
	}
	for (; !anon;) {
		const char *q = L->p;
		while (q < L->end && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= L->end || *q != ',') {
			if (q < L->end && *q == '\r')
				q++;
			if (q < L->end && *q != '\n' && *q != '}' && !(*q == '/' && q + 1 < L->end && (q[1] == '/' || q[1] == '*'))) {
				L->p = q;
				char tmp[16];
				lex_error(L, q, "expected ',' or the end of the instruction, got %s", lex_show_char(tmp, L));
				return NULL;
			}
			break;
		}
		L->p = q + 1;
		if (!hp_read_attr(P, i))
			return NULL;
	}
	if (i->attrs == atmp) {
		i->attrs = i->nattrs ? hilo_arena_alloc(m->arena, i->nattrs * sizeof *i->attrs) : NULL;
		if (i->nattrs)
			memcpy(i->attrs, atmp, i->nattrs * sizeof *i->attrs);
		i->cap_attrs = i->nattrs;
	}
	if (!i->shape) {
		/* XLA's parser infers it (src/ir/shape_infer.c) */
		char why[400];
		if (!(i->shape = hilo_infer_shape(m, i, why, sizeof why))) {
			lex_error(L, shape_at, "cannot infer the result shape of '%s': %s", name, why);
			return NULL;
		}
	}
	/* a broadcast of a scalar may leave out dimensions={} */
	if (op == HILO_OP_BROADCAST && i->noperands == 1 && i->operands[0]->shape->rank == 0 &&
	    !hilo_instr_attr(i, HILO_A_DIMENSIONS)) {
		hilo_attr *a = hilo_instr_set_attr(m, i, HILO_A_DIMENSIONS, HILO_ATTR_INTS);
		hilo_attr_set_ints(m, a, NULL, 0);
	}
	scope_add(&P->names, i, name_len, name_hash);
	return i;
}

/* ---- computations ---- */

static bool read_signature(parser *P)
{
	lexer *L = &P->L;
	if (!lex_expect(L, '('))
		return false;
	if (!lex_accept(L, ')')) {
		for (;;) {
			const char *s;
			lex_skip_ws(L);
			const char *at = L->p;
			if (!read_name(P, &s)) {
				lex_error(L, at, "expected a parameter name");
				return false;
			}
			if (!lex_expect(L, ':') || !lex_shape(L))
				return false;
			if (lex_accept(L, ','))
				continue;
			if (!lex_expect(L, ')'))
				return false;
			break;
		}
	}
	lex_skip_ws(L);
	if (L->end - L->p < 2 || L->p[0] != '-' || L->p[1] != '>') {
		lex_error(L, L->p, "expected '->' in computation signature");
		return false;
	}
	L->p += 2;
	return lex_shape(L) != NULL;
}

/* XLA prints a computation in post order from its root (operands in
 * order), then whatever the root does not reach. Parsed text is already in
 * that order; only computations with synthesized instructions need it. */
static void order_like_xla(hilo_module *m, hilo_comp *c)
{
	uint32_t n = c->ninstrs, k = 0;
	hilo_instr **order = hilo_heap_alloc(m->arena, (n + 1) * sizeof *order);
	struct frame { hilo_instr *i; uint32_t next; } *st = hilo_heap_alloc(m->arena, (n + 1) * sizeof *st);
	if (!order || !st) {
		hilo_heap_free(m->arena, order);
		hilo_heap_free(m->arena, st);
		return;
	}
	for (hilo_instr *i = c->first; i; i = i->next)
		i->mark = 0;
	hilo_instr *roots[2] = {c->root, NULL};
	for (int r = 0; r < 2 && roots[r]; r++) {
		uint32_t sp = 0;
		st[sp++] = (struct frame){roots[r], 0};
		roots[r]->mark = 1;
		while (sp) {
			struct frame *f = &st[sp - 1];
			if (f->next < f->i->noperands) {
				hilo_instr *o = f->i->operands[f->next++];
				if (!o->mark) {
					o->mark = 1;
					st[sp++] = (struct frame){o, 0};
				}
				continue;
			}
			order[k++] = f->i;
			sp--;
		}
	}
	for (hilo_instr *i = c->first; i; i = i->next)
		if (!i->mark)
			order[k++] = i;
	c->first = c->last = NULL;
	c->ninstrs = 0;
	for (uint32_t j = 0; j < k; j++)
		hilo_comp_append(c, order[j]);
	(void)m;
	hilo_heap_free(m->arena, order);
	hilo_heap_free(m->arena, st);
}

/* '{' instruction* '}': the body of computation c, in the name scope the
 * caller set up (a computation's own; an inline computation nested in
 * another gets a fresh one). `at` locates errors about the whole body. */
bool hp_read_comp_body(parser *P, hilo_comp *c, const char *at)
{
	lexer *L = &P->L;
	hilo_module *m = P->m;
	if (!lex_expect(L, '{'))
		return false;
	size_t ctrl0 = P->nctrl, gte0 = P->ngtes;
	bool outer_synth = P->synthesized;
	P->synthesized = false;
	hilo_instr *root = NULL;
	for (;;) {
		/* peek for the closing brace without eating comments that
		 * belong to the next instruction */
		const char *sp = L->p, *sls = L->line_start;
		int sl = L->line;
		if (lex_accept(L, '}'))
			break;
		L->p = sp;
		L->line = sl;
		L->line_start = sls;
		if (L->failed)
			return false;
		if (L->p >= L->end) {
			lex_error(L, L->p, "unexpected end of input in computation '%s'", c->name);
			return false;
		}
		bool is_root;
		hilo_instr *i = read_instruction(P, c, &is_root);
		if (!i)
			return false;
		hilo_comp_append(c, i);
		if (is_root) {
			if (root) {
				lex_error(L, L->src + 0 > L->p ? L->p : L->p, "computation '%s' has more than one ROOT", c->name);
				return false;
			}
			root = i;
		}
	}
	if (!c->first) {
		lex_error(L, at, "computation '%s' has no instructions", c->name);
		return false;
	}
	for (uint32_t k = 0; k < c->nparams; k++)
		if (!c->params[k]) {
			lex_error(L, at, "computation '%s' is missing parameter %u", c->name, k);
			return false;
		}
	for (size_t k = ctrl0; k < P->nctrl; k++) {
		hilo_instr *pred = scope_get_cstr(P, P->ctrl[k].name);
		if (!pred) {
			lex_error(L, P->ctrl[k].at, "control predecessor '%s' does not exist", P->ctrl[k].name);
			return false;
		}
		hilo_instr *i = P->ctrl[k].i;
		/* add edges without touching the attribute list (already there) */
		hilo_instr_link_ctrl(m, i, pred);
	}
	hilo_comp_set_root(c, root ? root : c->last);
	if (P->synthesized)
		order_like_xla(m, c);
	P->synthesized = outer_synth;
	P->nctrl = ctrl0;
	P->ngtes = gte0;
	return true;
}

static hilo_comp *read_computation(parser *P)
{
	lexer *L = &P->L;
	hilo_module *m = P->m;
	lex_skip_ws(L);
	const char *at = L->p, *s;
	int line = L->line;
	bool entry = false;
	size_t n = read_name(P, &s);
	if (n == 5 && !memcmp(s, "ENTRY", 5)) {
		entry = true;
		P->saw_entry_keyword = true;
		at = L->p;
		n = read_name(P, &s);
	}
	if (!n) {
		char tmp[16];
		lex_error(L, L->p, "expected a computation, got %s", lex_show_char(tmp, L));
		return NULL;
	}
	if (!xla_name_ok(P, s, n, P->last_name_pct, "a computation"))
		return NULL;
	const char *name = intern(P, s, n);
	if (hilo_ptrmap_get(&P->comps, name)) {
		lex_error(L, at, "computation '%s' already exists", name);
		return NULL;
	}
	hilo_comp *taken = hilo_ptrmap_get(&P->inline_names, name);
	if (taken) {
		/* the text names a computation like an earlier inline one: the
		 * written name wins, the inline computation takes another */
		hilo_ptrmap_put(&P->inline_names, name, NULL);
		taken->name = hp_inline_name(P);
		hilo_ptrmap_put(&P->inline_names, taken->name, taken);
	}
	hilo_comp *c = hilo_comp_create(m, name);
	c->is_entry = entry;
	c->line = line;
	c->col = lex_col(L, at);
	c->print_signature = false;
	if (lex_peek(L, '(')) {
		c->print_signature = true;
		if (!read_signature(P))
			return NULL;
	}
	scope_clear(&P->names);
	P->sig = c->print_signature;
	P->cur_name = name;
	if (!hp_read_comp_body(P, c, at))
		return NULL;
	/* a comment after the closing brace stays there */
	const char *q = L->p;
	while (q < L->end && (*q == ' ' || *q == '\t'))
		q++;
	if (L->end - q >= 2 && q[0] == '/' && q[1] == '/') {
		const char *e = q;
		while (e < L->end && *e != '\n' && *e != '\r')
			e++;
		c->brace_comment = hilo_arena_strndup(P->m->arena, L->p, (size_t)(e - L->p));
		L->p = e;
	}
	q = L->p;
	while (q < L->end && (*q == ' ' || *q == '\t'))
		q++;
	if (q < L->end && *q == ',') {
		L->p = q + 1;
		const char *k;
		lex_skip_ws(L);
		const char *kat = L->p;
		size_t kn = lex_ident(L, &k);
		if (kn != 16 || memcmp(k, "execution_thread", 16) || !lex_expect(L, '=')) {
			lex_error(L, kat, "expected execution_thread= after computation");
			return NULL;
		}
		if (!hp_read_string_body(P, &c->execution_thread))
			return NULL;
	}
	hilo_ptrmap_put(&P->comps, name, c);
	return c;
}

/* ---- module ---- */

static bool read_module_attrs(parser *P)
{
	lexer *L = &P->L;
	hilo_module *m = P->m;
	hilo_module_attr tmp[32];
	uint32_t n = 0;
	for (;;) {
		/* attributes continue on the same line after ',' */
		const char *p = L->p;
		while (p < L->end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= L->end || *p != ',')
			break;
		L->p = p + 1;
		lex_skip_ws(L);
		const char *at = L->p, *k;
		const char *sep = (L->p - p == 2 && p[1] == ' ') ? NULL
			: hilo_arena_strndup(m->arena, p, (size_t)(L->p - p));
		size_t kn = lex_ident(L, &k);
		if (!kn || L->p >= L->end || *L->p != '=') {
			lex_error(L, at, "expected a module attribute");
			return false;
		}
		L->p++;
		const char *v = hp_read_raw(P);
		if (!v)
			return false;
		if (n == 32) {
			lex_error(L, at, "too many module attributes");
			return false;
		}
		tmp[n].key = intern(P, k, kn);
		tmp[n].value = v;
		tmp[n].sep = sep;
		n++;
	}
	m->nattrs = n;
	m->attrs = hilo_arena_alloc(m->arena, (n + 1) * sizeof *m->attrs);
	memcpy(m->attrs, tmp, n * sizeof *tmp);
	return true;
}

/* FileNames / FunctionNames / FileLocations / StackFrames: kept as text up
 * to the first computation. */
static bool read_stack_frames(parser *P)
{
	lexer *L = &P->L;
	lex_skip_ws(L);
	if (!lex_starts(L, L->p, "FileNames"))
		return true;
	const char *s = L->p, *last = L->p;
	const char *p = L->p;
	while (p < L->end) {
		const char *ls = p;
		const char *le = memchr(p, '\n', (size_t)(L->end - p));
		if (!le)
			le = L->end;
		bool blank = true;
		for (const char *q = ls; q < le && blank; q++)
			if (*q != ' ' && *q != '\t' && *q != '\r')
				blank = false;
		bool table = blank || (*ls >= '0' && *ls <= '9') || *ls == ' ' ||
			lex_starts(L, ls, "FileNames") || lex_starts(L, ls, "FunctionNames") ||
			lex_starts(L, ls, "FileLocations") || lex_starts(L, ls, "StackFrames");
		if (!table)
			break;
		if (!blank)
			last = le;
		p = le < L->end ? le + 1 : le;
	}
	P->m->stack_frames = hilo_arena_strndup(P->m->arena, s, (size_t)(last - s));
	/* move the lexer past the table, keeping line numbers right */
	for (const char *nl; (nl = memchr(L->p, '\n', (size_t)(last - L->p))); L->p = nl + 1) {
		L->line++;
		L->line_start = nl + 1;
	}
	L->p = last;
	return true;
}

static size_t count_lines(const char *s, size_t n)
{
	size_t k = 0;
	for (const char *e = s + n; (s = memchr(s, '\n', (size_t)(e - s))); s++)
		k++;
	return k;
}

/* The text's line count: counted when short, else from 16 samples of
 * 64 KiB spread over it (lines are short and alike in long dumps). */
static size_t estimate_lines(const char *src, size_t len)
{
	const size_t win = 64 * 1024, nwin = 16;
	if (len <= win * nwin)
		return count_lines(src, len);
	size_t k = 0, step = (len - win) / (nwin - 1);
	for (size_t w = 0; w < nwin; w++)
		k += count_lines(src + w * step, win);
	return (size_t)((double)k * (double)len / (double)(win * nwin));
}

/* Parses into m; false (+ diagnostics) on bad input. */
static bool parse_module(hilo_module *m, const char *src, size_t len, const char *filename,
	hilo_diags *diags)
{
	parser P;
	memset(&P, 0, sizeof P);
	P.m = m;
	P.L = (lexer){.src = src, .p = src, .end = src + len, .file = filename, .line = 1, .line_start = src, .diags = diags, .m = m};
	hilo_ptrmap_init_in(&P.comps, m->arena);
	scope_init(&P.names, m->arena);
	hilo_bytemap_init(&P.opcodes, m->arena);
	hilo_bytemap_init(&P.attr_ids, m->arena);
	hilo_ptrmap_init_in(&P.inline_names, m->arena);
	hilo_bytemap shapes;
	hilo_bytemap_init(&shapes, m->arena);
	lexer *L = &P.L;
	L->shape_cache = &shapes;
	/* the string table holds about one string per line (instruction
	 * names, raw attribute values; 0.8-1.3 lines per string on the real
	 * dumps): sized once from the line count instead of growing log2(n)
	 * times, and not twice too big as an estimate from bytes was */
	hilo_strtab_reserve(m->strings, estimate_lines(src, len));

	/* NUL bytes or a leading header of comment lines */
	if (lex_refuse_nul(L))
		goto fail;
	lex_skip_ws(L);
	if (L->p > src) {
		/* keep leading comment lines verbatim */
		const char *e = L->p;
		while (e > src && e[-1] != '\n')
			e--;
		if (e > src)
			m->header = hilo_arena_strndup(m->arena, src, (size_t)(e - src));
	}
	bool headed = true;
	{
		const char *at = L->p, *k;
		size_t kn = lex_ident(L, &k);
		if (kn != 9 || memcmp(k, "HloModule", 9) != 0) {
			if (L->p >= L->end && at >= L->end) {
				lex_error(L, at, "empty input: expected 'HloModule'");
				goto fail;
			}
			/* like XLA, accept bare computations without the header */
			L->p = at;
			headed = false;
			goto computations;
		}
		lex_skip_ws(L);
		const char *nat = L->p, *nm;
		size_t nn = lex_ident(L, &nm);
		if (!nn) {
			lex_error(L, nat, "expected the module name");
			goto fail;
		}
		if (!xla_name_ok(&P, nm, nn, false, "a module"))
			goto fail;
		m->name = intern(&P, nm, nn);
	}
	if (!read_module_attrs(&P))
		goto fail;
	{
		const char *g = L->p, *q = g;
		while (q < L->end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
			q++;
		/* XLA prints one blank line; keep odd blank lines of old dumps,
		 * but a missing blank line is just hand-written input */
		size_t nl = 0;
		for (const char *r = g; r < q; r++)
			nl += *r == '\n';
		if (nl >= 2 && ((size_t)(q - g) != 2 || memcmp(g, "\n\n", 2) != 0))
			m->gap = hilo_arena_strndup(m->arena, g, (size_t)(q - g));
	}
	if (!read_stack_frames(&P))
		goto fail;
computations:
	for (;;) {
		const char *before = L->p;
		lex_skip_ws(L);
		const char *cstart = L->p;
		while (cstart > before && cstart[-1] != '\n')
			cstart--;
		if (L->failed)
			goto fail;
		if (L->p >= L->end) {
			/* keep trailing blank lines (XLA's dumps differ here) */
			const char *t = before;
			if (t < L->end && *t == '\n')
				t++;
			bool ws = true;
			for (const char *q = t; q < L->end; q++)
				if (*q != '\n')
					ws = false;
			if (ws && L->end - t != 1)
				m->trailer = hilo_arena_strndup(m->arena, t, (size_t)(L->end - t));
			if (before == L->end && before > src && before[-1] == '}')
				m->no_final_newline = true;
			break;
		}
		hilo_comp *c = read_computation(&P);
		if (!c)
			goto fail;
		if (P.ntop++ > 0) {
			/* usual: "}\n" then one empty line */
			const char *g = before;
			if (g < cstart && *g == '\n')
				g++;
			if ((size_t)(cstart - g) != 1 || *g != '\n')
				c->gap_before = hilo_arena_strndup(m->arena, g, (size_t)(cstart - g));
		}
		hilo_module_add_comp(m, c, NULL);
		if (c->is_entry) {
			if (m->entry) {
				lex_error(L, L->src + 0 < L->p ? L->p : L->p, "more than one ENTRY computation");
				goto fail;
			}
			hilo_module_set_entry(m, c);
		}
	}
	if (!m->ncomps) {
		lex_error(L, L->p, "module has no computations");
		goto fail;
	}
	if (!m->entry) {
		hilo_module_set_entry(m, m->comps[m->ncomps - 1]);
		m->entry_last_no_keyword = true;
	}
	if (!headed) {
		/* XLA's parser names a headerless module after its entry */
		char *name = hilo_arena_printf(m->arena, "module_%s", m->entry->name);
		if (!name)
			goto fail;
		m->name = name;
	}
	m->style = P.saw_no_percent && !P.saw_percent ? HILO_STYLE_SHORT
	         : P.saw_operand_shapes ? HILO_STYLE_LONG : HILO_STYLE_DEFAULT;
	if (m->style == HILO_STYLE_LONG)
		m->no_entry_layout = true;
	hilo_ptrmap_free(&P.comps);
	scope_free(&P.names);
	hilo_bytemap_free(&P.opcodes);
	hilo_bytemap_free(&P.attr_ids);
	hilo_ptrmap_free(&P.inline_names);
	hilo_bytemap_free(&shapes);
	hilo_heap_free(m->arena, P.ctrl);
	hilo_heap_free(m->arena, P.gtes);
	return true;
fail:
	if (!L->failed)
		lex_error(L, L->p, "parse error");
	hilo_ptrmap_free(&P.comps);
	scope_free(&P.names);
	hilo_bytemap_free(&P.opcodes);
	hilo_bytemap_free(&P.attr_ids);
	hilo_ptrmap_free(&P.inline_names);
	hilo_bytemap_free(&shapes);
	hilo_heap_free(m->arena, P.ctrl);
	hilo_heap_free(m->arena, P.gtes);
	return false;
}

hilo_module *hilo_parse_text(const char *src, size_t len, const char *filename,
	hilo_diags *diags)
{
	hilo_module *m = hilo_module_create("module");
	if (!m) {
		hilo_diag_oom(diags, filename);
		return NULL;
	}
	HILO_OOM_CATCH(g, m->arena) {
		hilo_module_destroy(m);
		hilo_diag_oom(diags, filename);
		return NULL;
	}
	bool ok = parse_module(m, src, len, filename, diags);
	hilo_oom_end(&g);
	if (!ok) {
		hilo_module_destroy(m);
		return NULL;
	}
	return m;
}
