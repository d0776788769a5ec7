/* The attribute table (hilo/attrs.def) and the instruction attribute API.
 * Attributes are named by id; the key text is resolved once, when text or
 * proto is read (hilo_attr_lookup, a binary search over the table, whose
 * rows are in key order). Unknown keys keep their text and HILO_A_UNKNOWN
 * and are printed verbatim. */
#include "hilo/ir.h"
#include "table.h"

#include <string.h>

static const struct {
	const char *key;
	uint8_t kind;
	uint8_t rank;
	uint8_t flags;
} attr_info[HILO_A_COUNT] = {
#define NOSEM HILO_AF_NOSEM
#define A(id, key, kind, field, rank, flags) {key, HILO_ATTR_##kind, rank, flags},
#include "hilo/attrs.def"
#undef A
#undef NOSEM
};

hilo_attr_id hilo_attr_lookup(const char *s, size_t len)
{
	return (hilo_attr_id)hilo_table_find(attr_info, HILO_A_COUNT, sizeof attr_info[0], s, len);
}

const char *hilo_attr_id_key(hilo_attr_id id)
{
	return id < HILO_A_COUNT ? attr_info[id].key : "?";
}

hilo_attr_kind hilo_attr_id_kind(hilo_attr_id id)
{
	return id < HILO_A_COUNT ? (hilo_attr_kind)attr_info[id].kind : HILO_ATTR_RAW;
}

int hilo_attr_id_rank(hilo_attr_id id)
{
	return id < HILO_A_COUNT ? attr_info[id].rank : 0;
}

unsigned hilo_attr_id_flags(hilo_attr_id id)
{
	return id < HILO_A_COUNT ? attr_info[id].flags : 0;
}

bool hilo_attr_is_semantic(const hilo_attr *a)
{
	return a->kind != HILO_ATTR_CONTROL && a->kind != HILO_ATTR_METADATA &&
	       !(hilo_attr_id_flags((hilo_attr_id)a->id) & HILO_AF_NOSEM);
}

/* ---- instruction attributes ---- */

hilo_attr *hilo_instr_attr(const hilo_instr *i, hilo_attr_id id)
{
	if (id >= HILO_A_COUNT)
		return NULL;
	for (uint32_t k = 0; k < i->nattrs; k++)
		if (i->attrs[k].id == id)
			return &i->attrs[k];
	return NULL;
}

hilo_attr *hilo_instr_attr_named(const hilo_instr *i, const char *key)
{
	hilo_attr_id id = hilo_attr_lookup(key, strlen(key));
	if (id != HILO_A_UNKNOWN)
		return hilo_instr_attr(i, id);
	for (uint32_t k = 0; k < i->nattrs; k++)
		if (i->attrs[k].id == HILO_A_UNKNOWN &&
		    (i->attrs[k].key == key || strcmp(i->attrs[k].key, key) == 0))
			return &i->attrs[k];
	return NULL;
}

hilo_attr *hilo_instr_attr_match(const hilo_instr *i, const hilo_attr *a)
{
	return a->id != HILO_A_UNKNOWN ? hilo_instr_attr(i, (hilo_attr_id)a->id)
	                               : hilo_instr_attr_named(i, a->key);
}

/* Inserts a fresh attribute at the table's print rank (after every
 * attribute of the same or a lower rank). */
static hilo_attr *insert_attr(hilo_module *m, hilo_instr *i, hilo_attr_id id, const char *key,
	hilo_attr_kind kind)
{
	if (i->nattrs == i->cap_attrs) {
		uint32_t cap = i->cap_attrs ? i->cap_attrs * 2 : 4;
		i->attrs = hilo_arena_grow(m->arena, i->attrs, i->nattrs, cap, sizeof(hilo_attr));
		i->cap_attrs = cap;
	}
	int r = hilo_attr_id_rank(id);
	uint32_t at = i->nattrs;
	while (at > 0 && hilo_attr_id_rank((hilo_attr_id)i->attrs[at - 1].id) > r)
		at--;
	memmove(&i->attrs[at + 1], &i->attrs[at], (i->nattrs - at) * sizeof(hilo_attr));
	i->nattrs++;
	hilo_attr *a = &i->attrs[at];
	memset(a, 0, sizeof *a);
	a->key = key;
	a->id = (uint16_t)id;
	a->kind = (uint8_t)kind;
	return a;
}

static hilo_attr *reset_attr(hilo_attr *a, hilo_attr_kind kind)
{
	memset(&a->v, 0, sizeof a->v);
	a->kind = (uint8_t)kind;
	a->n = 0;
	return a;
}

hilo_attr *hilo_instr_set_attr(hilo_module *m, hilo_instr *i, hilo_attr_id id,
	hilo_attr_kind kind)
{
	if (id >= HILO_A_COUNT)
		HILO_PANIC("hilo_instr_set_attr: attribute id not in the table (use hilo_instr_set_attr_named)");
	hilo_attr *a = hilo_instr_attr(i, id);
	if (a)
		return reset_attr(a, kind);
	return insert_attr(m, i, id, attr_info[id].key, kind);
}

hilo_attr *hilo_instr_set_attr_named(hilo_module *m, hilo_instr *i, const char *key,
	hilo_attr_kind kind)
{
	hilo_attr_id id = hilo_attr_lookup(key, strlen(key));
	if (id != HILO_A_UNKNOWN)
		return hilo_instr_set_attr(m, i, id, kind);
	hilo_attr *a = hilo_instr_attr_named(i, key);
	if (a)
		return reset_attr(a, kind);
	return insert_attr(m, i, id, hilo_intern_cstr(m->strings, key), kind);
}

void hilo_instr_remove_attr(hilo_instr *i, hilo_attr_id id)
{
	hilo_attr *a = hilo_instr_attr(i, id);
	if (!a)
		return;
	uint32_t k = (uint32_t)(a - i->attrs);
	memmove(&i->attrs[k], &i->attrs[k + 1], (i->nattrs - k - 1) * sizeof(hilo_attr));
	i->nattrs--;
}

void hilo_attr_set_ints(hilo_module *m, hilo_attr *a, const int64_t *v, int n)
{
	a->n = n;
	a->v.ints = hilo_arena_alloc(m->arena, (size_t)(n ? n : 1) * sizeof(int64_t));
	if (n)
		memcpy(a->v.ints, v, (size_t)n * sizeof(int64_t));
}

bool hilo_instr_get_int(const hilo_instr *i, hilo_attr_id id, int64_t *out)
{
	hilo_attr *a = hilo_instr_attr(i, id);
	if (!a || a->kind != HILO_ATTR_INT)
		return false;
	*out = a->v.i;
	return true;
}

const int64_t *hilo_instr_get_ints(const hilo_instr *i, hilo_attr_id id, int *n)
{
	hilo_attr *a = hilo_instr_attr(i, id);
	if (!a || a->kind != HILO_ATTR_INTS)
		return NULL;
	*n = a->n;
	return a->v.ints;
}

bool hilo_instr_get_bool(const hilo_instr *i, hilo_attr_id id, bool *out)
{
	hilo_attr *a = hilo_instr_attr(i, id);
	if (!a || a->kind != HILO_ATTR_BOOL)
		return false;
	*out = a->v.i != 0;
	return true;
}

const char *hilo_instr_get_string(const hilo_instr *i, hilo_attr_id id)
{
	hilo_attr *a = hilo_instr_attr(i, id);
	return a && a->kind == HILO_ATTR_STRING ? a->v.text : NULL;
}

const char *hilo_instr_get_enum(const hilo_instr *i, hilo_attr_id id)
{
	hilo_attr *a = hilo_instr_attr(i, id);
	return a && a->kind == HILO_ATTR_ENUM ? a->v.text : NULL;
}

const char *hilo_instr_get_raw(const hilo_instr *i, hilo_attr_id id)
{
	hilo_attr *a = hilo_instr_attr(i, id);
	return a && a->kind == HILO_ATTR_RAW ? a->v.text : NULL;
}

hilo_comp *hilo_instr_get_comp(const hilo_instr *i, hilo_attr_id id)
{
	hilo_attr *a = hilo_instr_attr(i, id);
	if (!a || a->kind != HILO_ATTR_COMP || a->v.i < 0 || (uint32_t)a->v.i >= hilo_instr_ncalled(i))
		return NULL;
	return hilo_instr_called(i)[a->v.i];
}

/* Splits the raw {k=v, ...} text into top-level entries (commas outside
 * quotes and nested braces); returns the count, storing up to max
 * (start, length) pairs. */
static int frontend_entries(const char *t, const char **start, size_t *len, int max)
{
	int n = 0, depth = 0;
	bool quoted = false;
	if (*t == '{')
		t++;
	const char *b = t;
	for (const char *p = t;; p++) {
		char ch = *p;
		if (quoted) {
			if (ch == '\\' && p[1])
				p++;
			else if (ch == '"')
				quoted = false;
			continue;
		}
		if (ch == '"') {
			quoted = true;
		} else if (ch == '{') {
			depth++;
		} else if ((ch == '}' && depth == 0) || ch == 0 || (ch == ',' && depth == 0)) {
			const char *e = p;
			while (b < e && *b == ' ')
				b++;
			if (e > b) {
				if (n < max) {
					start[n] = b;
					len[n] = (size_t)(e - b);
				}
				n++;
			}
			if (ch != ',')
				return n;
			b = p + 1;
		} else if (ch == '}') {
			depth--;
		}
	}
}

void hilo_instr_set_frontend_attr(hilo_module *m, hilo_instr *i, const char *key,
	const char *value)
{
	enum { MAX_ENTRIES = 256 };
	const char *start[MAX_ENTRIES];
	size_t len[MAX_ENTRIES];
	const hilo_attr *a = hilo_instr_attr(i, HILO_A_FRONTEND_ATTRIBUTES);
	int n = 0;
	if (a && a->kind == HILO_ATTR_RAW && a->v.text)
		n = frontend_entries(a->v.text, start, len, MAX_ENTRIES);
	if (n > MAX_ENTRIES)
		return; /* not ours to rewrite */
	size_t kl = strlen(key);
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_buf_putc(&b, '{');
	bool done = false;
	for (int k = 0; k <= n; k++) {
		/* entries keep their order; the key replaces its entry, or goes
		 * before the first entry that sorts after it (XLA prints them
		 * sorted) */
		bool same = k < n && len[k] > kl && !strncmp(start[k], key, kl) &&
			(start[k][kl] == '=' || start[k][kl] == ' ');
		bool after = k < n && !same && strncmp(start[k], key, kl) > 0;
		if (!done && (same || after || k == n)) {
			if (b.len > 1)
				hilo_buf_putc(&b, ',');
			hilo_buf_put(&b, key, kl);
			hilo_buf_put(&b, "=\"", 2);
			hilo_buf_put(&b, value, strlen(value));
			hilo_buf_putc(&b, '"');
			done = true;
			if (same)
				continue;
		}
		if (k < n) {
			if (b.len > 1)
				hilo_buf_putc(&b, ',');
			hilo_buf_put(&b, start[k], len[k]);
		}
	}
	hilo_buf_putc(&b, '}');
	const char *text = hilo_arena_strdup(m->arena, hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	hilo_instr_set_attr(m, i, HILO_A_FRONTEND_ATTRIBUTES, HILO_ATTR_RAW)->v.text = text;
}

void hilo_instr_copy_metadata(hilo_module *m, hilo_instr *dst, const hilo_instr *src)
{
	if (!src->metadata || !src->metadata->n)
		return; /* nothing to copy (XLA prints no metadata={} for it) */
	dst->metadata = hilo_arena_alloc(m->arena, sizeof *dst->metadata);
	dst->metadata->n = src->metadata->n;
	dst->metadata->e = hilo_arena_alloc(m->arena,
		(size_t)(src->metadata->n + 1) * sizeof(hilo_md_entry));
	memcpy(dst->metadata->e, src->metadata->e, (size_t)src->metadata->n * sizeof(hilo_md_entry));
	hilo_instr_set_attr(m, dst, HILO_A_METADATA, HILO_ATTR_METADATA);
}

bool hilo_instr_is_boundary_marker(const hilo_instr *i)
{
	const char *t = i->op == HILO_OP_CUSTOM_CALL ? hilo_instr_get_string(i, HILO_A_CUSTOM_CALL_TARGET) : NULL;
	return t && (!strcmp(t, "NeuronBoundaryMarker-Start") || !strcmp(t, "NeuronBoundaryMarker-End"));
}

bool hilo_instr_is_boundary_marker_end(const hilo_instr *i)
{
	const char *t = i->op == HILO_OP_CUSTOM_CALL ? hilo_instr_get_string(i, HILO_A_CUSTOM_CALL_TARGET) : NULL;
	return t && !strcmp(t, "NeuronBoundaryMarker-End");
}

/* Value of frontend attribute `key` in the raw {k="v", ...} text, copied
 * into buf; false when absent. */

bool hilo_instr_frontend_attr(const hilo_instr *i, const char *key, char *buf, size_t cap)
{
	const hilo_attr *a = hilo_instr_attr(i, HILO_A_FRONTEND_ATTRIBUTES);
	if (!a || a->kind != HILO_ATTR_RAW || !a->v.text)
		return false;
	size_t kl = strlen(key);
	for (const char *p = a->v.text; (p = strstr(p, key)) != NULL; p += kl) {
		char before = p == a->v.text ? '{' : p[-1];
		if (before != '{' && before != ',' && before != ' ')
			continue;
		const char *q = p + kl;
		while (*q == ' ')
			q++;
		if (*q != '=')
			continue;
		q++;
		while (*q == ' ')
			q++;
		size_t n = 0;
		if (*q == '"') {
			q++;
			while (q[n] && q[n] != '"')
				n++;
		} else {
			while (q[n] && q[n] != ',' && q[n] != '}' && q[n] != ' ')
				n++;
		}
		if (n >= cap)
			n = cap - 1;
		memcpy(buf, q, n);
		buf[n] = 0;
		return true;
	}
	return false;
}
