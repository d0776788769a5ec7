/* HLO text parser, attribute half: the typed values of the attributes
 * the passes and printer model (integer lists, slices, padding, called
 * computations, control predecessors, metadata, strings); any other
 * `key=value` is kept as its raw text. parser.c reads the rest. */
#include "parse_internal.h"

#include <errno.h>
#include <stdlib.h>

/* Captures a raw attribute value: balanced brackets and quoted strings,
 * ending before a ',' or newline at depth 0. */
const char *hp_read_raw(parser *P)
{
	lexer *L = &P->L;
	lex_skip_ws(L);
	const char *s = L->p, *p = s, *end = L->end;
	int depth = 0;
	while (p < end) {
		char c = *p;
		if (!(lex_class[(unsigned char)c] & LEX_C_RAW)) {
			p++;
			continue;
		}
		if (c == '"' || c == '\'') {
			char q = c;
			p++;
			while (p < end && *p != q) {
				if (*p == '\\')
					p++;
				else if (*p == '\n') {
					L->line++;
					L->line_start = p + 1;
				}
				p++;
			}
			if (p >= end) {
				L->p = p;
				lex_error(L, s, "unterminated string");
				return NULL;
			}
			p++;
			continue;
		}
		if (c == '{' || c == '(' || c == '[')
			depth++;
		else if (c == '}' || c == ')' || c == ']') {
			if (depth == 0)
				break;
			depth--;
		} else if (depth == 0 && (c == ',' || c == '\n' || c == '\r'))
			break;
		else if (c == '\n') {
			L->line++;
			L->line_start = p + 1;
		}
		p++;
	}
	L->p = p;
	if (depth != 0) {
		lex_error(L, s, "unbalanced brackets in attribute value");
		return NULL;
	}
	const char *e = p;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e == s) {
		lex_error(L, s, "expected an attribute value");
		return NULL;
	}
	return intern(P, s, (size_t)(e - s));
}

/* ---- typed attribute values ---- */

/* Attribute kinds come from the table (hilo/attrs.def): hilo_attr_lookup
 * gives the id, hilo_attr_id_kind how to read the value (RAW: verbatim). */

static bool read_int_list(parser *P, hilo_attr *a)
{
	lexer *L = &P->L;
	int64_t tmp[64], *v = tmp;
	int n = 0, cap = 64;
	if (!lex_expect(L, '{'))
		return false;
	if (!lex_accept(L, '}')) {
		for (;;) {
			int64_t x;
			if (!lex_int(L, &x))
				return false;
			if (n == cap) {
				int64_t *nv = hilo_arena_alloc(P->m->arena, (size_t)cap * 2 * sizeof *nv);
				memcpy(nv, v, (size_t)n * sizeof *nv);
				v = nv;
				cap *= 2;
			}
			v[n++] = x;
			if (lex_accept(L, ','))
				continue;
			if (!lex_expect(L, '}'))
				return false;
			break;
		}
	}
	hilo_attr_set_ints(P->m, a, v, n);
	return true;
}

/* slice={[0:2], [1:5:2]} */
static bool read_slice(parser *P, hilo_attr *a)
{
	lexer *L = &P->L;
	int64_t tmp[3 * 64];
	int n = 0;
	if (!lex_expect(L, '{'))
		return false;
	if (!lex_accept(L, '}')) {
		for (;;) {
			if (n >= 64) {
				lex_error(L, L->p, "too many slice dimensions");
				return false;
			}
			int64_t s, l, st = 1;
			if (!lex_expect(L, '[') || !lex_int(L, &s) || !lex_expect(L, ':') || !lex_int(L, &l))
				return false;
			if (lex_accept(L, ':') && !lex_int(L, &st))
				return false;
			if (!lex_expect(L, ']'))
				return false;
			tmp[3 * n] = s;
			tmp[3 * n + 1] = l;
			tmp[3 * n + 2] = st;
			n++;
			if (lex_accept(L, ','))
				continue;
			if (!lex_expect(L, '}'))
				return false;
			break;
		}
	}
	hilo_attr_set_ints(P->m, a, tmp, 3 * n);
	a->n = n;
	return true;
}

/* padding=0_0x1_2_1 (lo_hi[_interior] per dimension, 'x'-separated) */
static bool read_padding(parser *P, hilo_attr *a)
{
	lexer *L = &P->L;
	int64_t tmp[3 * 64];
	int n = 0;
	lex_skip_ws(L);
	for (;;) {
		if (n >= 64) {
			lex_error(L, L->p, "too many padding dimensions");
			return false;
		}
		int64_t lo, hi, in = 0;
		if (!lex_int(L, &lo) || !lex_expect(L, '_') || !lex_int(L, &hi))
			return false;
		if (L->p < L->end && *L->p == '_') {
			L->p++;
			if (!lex_int(L, &in))
				return false;
		}
		tmp[3 * n] = lo;
		tmp[3 * n + 1] = hi;
		tmp[3 * n + 2] = in;
		n++;
		if (L->p < L->end && *L->p == 'x') {
			L->p++;
			continue;
		}
		break;
	}
	hilo_attr_set_ints(P->m, a, tmp, 3 * n);
	a->n = n;
	return true;
}

static hilo_comp *find_comp(parser *P, const char *at, const char *s, size_t n)
{
	hilo_comp *c = hilo_ptrmap_get(&P->comps, intern(P, s, n));
	if (!c)
		lex_error(&P->L, at, "computation '%.*s' does not exist", (int)n, s);
	return c;
}


/* A name for a computation written inline. XLA's parser builds it as "_"
 * and the module's name uniquer makes it "_", "_.1", "_.2", ...; XLA prints
 * it as a separate computation under that name, and so does hilo. */
const char *hp_inline_name(parser *P)
{
	char tmp[32];
	for (;;) {
		uint32_t k = P->ninline++;
		if (k)
			snprintf(tmp, sizeof tmp, "_.%u", k);
		else
			snprintf(tmp, sizeof tmp, "_");
		const char *n = intern(P, tmp, strlen(tmp));
		if (n != P->cur_name && !hilo_ptrmap_get(&P->comps, n) && !hilo_ptrmap_get(&P->inline_names, n))
			return n;
	}
}

/* attr={ instructions }: a nested computation with its own name scope
 * (XLA: HloParserImpl::ParseHloComputation); added to the module before
 * the computation that calls it, as XLA's post order prints it. */
static hilo_comp *read_inline_comp(parser *P)
{
	lexer *L = &P->L;
	const char *at = L->p;
	if (++P->comp_depth > LEX_MAX_DEPTH) {
		lex_error(L, at, "computations nested too deeply");
		return NULL;
	}
	/* named when complete: XLA's uniquer names them in the order they
	 * are added to the module, innermost first */
	hilo_comp *c = hilo_comp_create(P->m, "_");
	c->line = L->line;
	c->col = lex_col(L, at);
	c->print_signature = P->sig;
	name_scope outer = P->names;
	scope_init(&P->names, P->m->arena);
	bool ok = hp_read_comp_body(P, c, at);
	scope_free(&P->names);
	P->names = outer;
	if (!ok)
		return NULL;
	P->comp_depth--;
	c->name = hp_inline_name(P);
	hilo_ptrmap_put(&P->inline_names, c->name, c);
	hilo_module_add_comp(P->m, c, NULL);
	return c;
}

static bool read_comp_ref(parser *P, hilo_instr *i, hilo_attr *a)
{
	lexer *L = &P->L;
	lex_skip_ws(L);
	const char *at = L->p, *s;
	if (L->p < L->end && *L->p == '{') {
		hilo_comp *c = read_inline_comp(P);
		if (!c)
			return false;
		a->v.i = hilo_instr_ncalled(i);
		hilo_instr_add_called(P->m, i, c);
		return true;
	}
	size_t n = read_name(P, &s);
	if (!n) {
		lex_error(L, at, "expected a computation name");
		return false;
	}
	hilo_comp *c = find_comp(P, at, s, n);
	if (!c)
		return false;
	a->v.i = hilo_instr_ncalled(i);
	hilo_instr_add_called(P->m, i, c);
	return true;
}

static bool read_comp_list(parser *P, hilo_instr *i, hilo_attr *a)
{
	lexer *L = &P->L;
	if (!lex_expect(L, '{'))
		return false;
	a->v.i = hilo_instr_ncalled(i);
	a->n = 0;
	if (lex_accept(L, '}'))
		return true;
	for (;;) {
		lex_skip_ws(L);
		const char *at = L->p, *s;
		hilo_comp *c;
		if (L->p < L->end && *L->p == '{') {
			if (!(c = read_inline_comp(P)))
				return false;
		} else {
			size_t n = read_name(P, &s);
			if (!n) {
				lex_error(L, at, "expected a computation name");
				return false;
			}
			if (!(c = find_comp(P, at, s, n)))
				return false;
		}
		hilo_instr_add_called(P->m, i, c);
		a->n++;
		if (lex_accept(L, ','))
			continue;
		return lex_expect(L, '}');
	}
}

static bool read_control(parser *P, hilo_instr *i)
{
	lexer *L = &P->L;
	if (!lex_expect(L, '{'))
		return false;
	if (lex_accept(L, '}'))
		return true;
	for (;;) {
		lex_skip_ws(L);
		const char *at = L->p, *s;
		size_t n = read_name(P, &s);
		if (!n) {
			lex_error(L, at, "expected an instruction name");
			return false;
		}
		if (P->nctrl == P->capctrl) {
			size_t cap = P->capctrl ? P->capctrl * 2 : 16;
			struct pending_ctrl *nc = hilo_heap_realloc(P->m->arena, P->ctrl, cap * sizeof *nc);
			if (!nc) {
				lex_error(L, at, "out of memory");
				return false;
			}
			P->ctrl = nc;
			P->capctrl = cap;
		}
		P->ctrl[P->nctrl++] = (struct pending_ctrl){i, intern(P, s, n), at};
		if (lex_accept(L, ','))
			continue;
		return lex_expect(L, '}');
	}
}

/* The end of the string whose opening quote is at p (the closing quote
 * or end). Escapes are rare: one memchr to the next quote, and the
 * byte-wise walk only when a backslash lies before it. */
static const char *string_end(const char *p, const char *end)
{
	const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
	if (q && !memchr(p + 1, '\\', (size_t)(q - p - 1)))
		return q;
	for (q = p + 1; q < end && *q != '"'; q++)
		if (*q == '\\')
			q++;
	return q < end ? q : end;
}

/* The interned metadata key k[0..kn) and its slot in the per-parse key
 * list (-1 when the list is full). Keys come in one order on most
 * instructions: slot `hint` (the entry's position) is tried first. */
static int md_key(parser *P, const char *k, size_t kn, const char **key, uint32_t hint)
{
	if (hint < P->nmdk && P->mdk[hint].n == kn && hilo_mem_eq(P->mdk[hint].key, k, kn)) {
		*key = P->mdk[hint].key;
		return (int)hint;
	}
	for (uint32_t j = 0; j < P->nmdk; j++)
		if (P->mdk[j].n == kn && hilo_mem_eq(P->mdk[j].key, k, kn)) {
			*key = P->mdk[j].key;
			return (int)j;
		}
	*key = intern(P, k, kn);
	if (P->nmdk == sizeof P->mdk / sizeof P->mdk[0])
		return -1;
	P->mdk[P->nmdk] = (struct md_key){*key, NULL, (uint32_t)kn, 0};
	return (int)P->nmdk++;
}

/* metadata={op_type="add" op_name="jit(f)/add" source_line=3}
 * Header, entries and the value strings are one exact-size block. Values
 * are not interned (op_name is nearly unique per instruction, and every
 * reader compares them by text): a value equal to the last one of its key
 * (op_type, source_file on consecutive instructions) shares that copy. */
static bool read_metadata(parser *P, hilo_instr *i)
{
	lexer *L = &P->L;
	struct { const char *key, *v, *shared; size_t vn; int slot; } tmp[32];
	int n = 0;
	size_t bytes = 0;
	if (!lex_expect(L, '{'))
		return false;
	while (!lex_accept(L, '}')) {
		if (L->failed)
			return false;
		const char *at = L->p, *k;
		size_t kn = lex_ident(L, &k);
		if (!kn || !lex_expect(L, '=')) {
			if (!kn)
				lex_error(L, at, "expected a metadata field");
			return false;
		}
		lex_skip_ws(L);
		const char *vs = L->p, *p = vs, *end = L->end;
		if (p < end && *p == '"') {
			p = string_end(p, end);
			if (p >= end) {
				L->p = p;
				lex_error(L, vs, "unterminated string");
				return false;
			}
			p++;
		} else if (p < end && *p == '{') {
			int depth = 0;
			do {
				if (*p == '{')
					depth++;
				else if (*p == '}')
					depth--;
				p++;
			} while (p < end && depth > 0);
		} else {
			while (p < end && *p != ' ' && *p != '}' && *p != ',' && *p != '\n')
				p++;
		}
		L->p = p;
		if (n == 32) {
			lex_error(L, at, "too many metadata fields");
			return false;
		}
		size_t vn = (size_t)(p - vs);
		const char *key;
		int slot = md_key(P, k, kn, &key, (uint32_t)n);
		const char *shared = NULL;
		if (slot >= 0 && P->mdk[slot].last && P->mdk[slot].nlast == vn &&
		    hilo_mem_eq(P->mdk[slot].last, vs, vn))
			shared = P->mdk[slot].last;
		else
			bytes += vn + 1;
		tmp[n].key = key;
		tmp[n].v = vs;
		tmp[n].vn = vn;
		tmp[n].shared = shared;
		tmp[n].slot = slot;
		n++;
		lex_accept(L, ',');
	}
	size_t head = sizeof *i->metadata + (size_t)n * sizeof(hilo_md_entry);
	hilo_metadata *md = hilo_arena_alloc(P->m->arena, head + bytes);
	md->n = n;
	md->e = (hilo_md_entry *)(void *)(md + 1);
	char *str = (char *)md + head;
	for (int k = 0; k < n; k++) {
		md->e[k].key = tmp[k].key;
		if (tmp[k].shared) {
			md->e[k].value = tmp[k].shared;
			continue;
		}
		memcpy(str, tmp[k].v, tmp[k].vn);
		str[tmp[k].vn] = 0;
		md->e[k].value = str;
		if (tmp[k].slot >= 0) {
			P->mdk[tmp[k].slot].last = str;
			P->mdk[tmp[k].slot].nlast = (uint32_t)tmp[k].vn;
		}
		str += tmp[k].vn + 1;
	}
	i->metadata = md;
	return true;
}

bool hp_read_string_body(parser *P, const char **out)
{
	lexer *L = &P->L;
	lex_skip_ws(L);
	const char *s = L->p;
	if (L->p >= L->end || *L->p != '"') {
		lex_error(L, s, "expected a string");
		return false;
	}
	L->p++;
	while (L->p < L->end && *L->p != '"' && *L->p != '\n') {
		if (*L->p == '\\')
			L->p++;
		L->p++;
	}
	if (L->p >= L->end || *L->p != '"') {
		lex_error(L, s, "unterminated string");
		return false;
	}
	*out = intern(P, s + 1, (size_t)(L->p - s - 1));
	L->p++;
	return true;
}

/* The table's id of the attribute named k[0..kn), each spelling looked
 * up once per parse. */
static hilo_attr_id attr_id(parser *P, const char *k, size_t kn)
{
	uint32_t h = hilo_hash_inline(k, kn);
	uintptr_t v = (uintptr_t)hilo_bytemap_get(&P->attr_ids, k, kn, h);
	if (v)
		return (hilo_attr_id)(v - 1);
	hilo_attr_id id = hilo_attr_lookup(k, kn);
	hilo_bytemap_put(&P->attr_ids, k, kn, h, (void *)((uintptr_t)id + 1));
	return id;
}

bool hp_read_attr(parser *P, hilo_instr *i)
{
	lexer *L = &P->L;
	lex_skip_ws(L);
	const char *at = L->p, *k;
	size_t kn = lex_ident(L, &k);
	if (!kn) {
		char tmp[16];
		lex_error(L, at, "expected an attribute name, got %s", lex_show_char(tmp, L));
		return false;
	}
	if (L->p >= L->end || *L->p != '=') {
		lex_error(L, L->p, "expected '=' after attribute name '%.*s'", (int)kn, k);
		return false;
	}
	L->p++;
	hilo_attr_id id = attr_id(P, k, kn);
	const char *key = id != HILO_A_UNKNOWN ? hilo_attr_id_key(id) : intern(P, k, kn);
	if (id != HILO_A_UNKNOWN ? hilo_instr_attr(i, id) != NULL : hilo_instr_attr_named(i, key) != NULL) {
		lex_error(L, at, "duplicate attribute '%s'", key);
		return false;
	}
	hilo_attr_kind kind = hilo_attr_id_kind(id);
	/* slice_sizes on collective-permute is a list of lists */
	if (kind == HILO_ATTR_INTS) {
		lex_skip_ws(L);
		const char *q = L->p + 1;
		while (q < L->end && *q == ' ')
			q++;
		if (L->p < L->end && *L->p == '{' && q < L->end && *q == '{')
			kind = HILO_ATTR_RAW;
	}
	/* append in input order (print order); read_body lends a stack array
	 * first and keeps an exact-size copy */
	if (i->nattrs == i->cap_attrs) {
		uint32_t cap = i->cap_attrs ? i->cap_attrs * 2 : 4;
		i->attrs = hilo_arena_grow(P->m->arena, i->attrs, i->nattrs, cap, sizeof(hilo_attr));
		i->cap_attrs = cap;
	}
	hilo_attr *a = &i->attrs[i->nattrs++];
	memset(a, 0, sizeof *a);
	a->key = key;
	a->id = (uint16_t)id;
	a->kind = (uint8_t)kind;
	switch (kind) {
	case HILO_ATTR_INT:
		return lex_int(L, &a->v.i);
	case HILO_ATTR_INTS:
		return read_int_list(P, a);
	case HILO_ATTR_BOOL: {
		const char *s;
		lex_skip_ws(L);
		const char *vat = L->p;
		size_t n = lex_ident(L, &s);
		if (n == 4 && !memcmp(s, "true", 4))
			a->v.i = 1;
		else if (n == 5 && !memcmp(s, "false", 5))
			a->v.i = 0;
		else {
			lex_error(L, vat, "expected true or false for '%s'", key);
			return false;
		}
		return true;
	}
	case HILO_ATTR_STRING:
		return hp_read_string_body(P, &a->v.text);
	case HILO_ATTR_ENUM: {
		const char *s;
		lex_skip_ws(L);
		const char *vat = L->p;
		size_t n = lex_ident(L, &s);
		if (!n) {
			lex_error(L, vat, "expected a value for '%s'", key);
			return false;
		}
		a->v.text = intern(P, s, n);
		return true;
	}
	case HILO_ATTR_SLICE:
		return read_slice(P, a);
	case HILO_ATTR_PADDING:
		return read_padding(P, a);
	case HILO_ATTR_COMP:
		return read_comp_ref(P, i, a);
	case HILO_ATTR_COMPS:
		return read_comp_list(P, i, a);
	case HILO_ATTR_CONTROL:
		return read_control(P, i);
	case HILO_ATTR_METADATA:
		return read_metadata(P, i);
	case HILO_ATTR_RAW:
		a->v.text = hp_read_raw(P);
		return a->v.text != NULL;
	}
	return false;
}
