/* Index tokens (docs/tokens.md): reading and writing `key<int>` entries in
 * an instruction's metadata op_name (or, for reading, backend_config).
 * See include/hilo/tokens.h for the grammar. */
#include "hilo/tokens.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static bool key_delim(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '"' ||
		c == '\'' || c == '{' || c == ';';
}

static bool value_end(char c)
{
	return c == 0 || c == ',' || c == '"' || c == '\'' || c == '}' ||
		c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '\\';
}

/* Parses [-]digits from p up to a value terminator. */
static bool parse_value(const char *p, int64_t *out, const char **end)
{
	const char *q = p;
	bool neg = false;
	if (*q == '-' || *q == '+') {
		neg = *q == '-';
		q++;
	}
	if (*q < '0' || *q > '9') {
		while (!value_end(*q))
			q++;
		*end = q;
		return false;
	}
	uint64_t v = 0;
	bool ovf = false;
	while (*q >= '0' && *q <= '9') {
		unsigned d = (unsigned)(*q - '0');
		if (v > (UINT64_MAX - d) / 10)
			ovf = true;
		else
			v = v * 10 + d;
		q++;
	}
	bool ok = value_end(*q) && !ovf;
	while (!value_end(*q))
		q++;
	*end = q;
	if (!ok)
		return false;
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return false;
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > (uint64_t)INT64_MAX)
			return false;
		*out = (int64_t)v;
	}
	return true;
}

/* Scans text; stores up to max good values; returns good count and sets
 * *bad to the malformed count. */
static int scan(const char *text, const char *key, int64_t *out, int max, int *bad)
{
	int n = 0;
	*bad = 0;
	if (!text)
		return 0;
	size_t kl = strlen(key);
	if (kl == 0)
		return 0;
	const char *p = text;
	while ((p = strstr(p, key)) != NULL) {
		if (p != text && !key_delim(p[-1])) {
			p++;
			continue;
		}
		int64_t v;
		const char *end;
		if (parse_value(p + kl, &v, &end)) {
			if (n < max && out)
				out[n] = v;
			n++;
		} else {
			(*bad)++;
		}
		p = end > p ? end : p + 1;
	}
	return n;
}

static const char *backend_text(const hilo_instr *i)
{
	const hilo_attr *a = hilo_instr_attr(i, HILO_A_BACKEND_CONFIG);
	if (!a)
		return NULL;
	if (a->kind == HILO_ATTR_RAW || a->kind == HILO_ATTR_STRING || a->kind == HILO_ATTR_ENUM)
		return a->v.text;
	return NULL;
}

int hilo_tokens_get(hilo_module *m, const hilo_instr *i, const char *key,
	int64_t *out, int max)
{
	int bad;
	const char *on = hilo_instr_op_name(m, i);
	int n = scan(on, key, out, max, &bad);
	if (n > 0)
		return n;
	return scan(backend_text(i), key, out, max, &bad);
}

int hilo_tokens_malformed(hilo_module *m, const hilo_instr *i, const char *key)
{
	int bad;
	const char *on = hilo_instr_op_name(m, i);
	int n = scan(on, key, NULL, 0, &bad);
	if (n > 0 || bad > 0)
		return bad;
	scan(backend_text(i), key, NULL, 0, &bad);
	return bad;
}

/* Is the comma-separated segment [s, e) an entry of key (after blanks)?
 * A segment that continues like a path ("iterationidx=0/jit(f)/add", what
 * call inlining makes of a caller's op_name prefix) is text, not a token,
 * and is kept. */
static bool seg_is_key(const char *s, const char *e, const char *key, size_t kl)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if ((size_t)(e - s) < kl || memcmp(s, key, kl) != 0)
		return false;
	for (const char *p = s + kl; p < e; p++)
		if (*p == '/' || *p == '(')
			return false;
	return true;
}

void hilo_tokens_set(hilo_module *m, hilo_instr *i, const char *key,
	const int64_t *vals, int n)
{
	const char *on = hilo_instr_op_name(m, i);
	size_t kl = strlen(key);
	hilo_buf b;
	hilo_buf_init_in(&b, m->arena);
	if (on) {
		const char *s = on;
		for (;;) {
			const char *e = strchr(s, ',');
			if (!e)
				e = s + strlen(s);
			if (!seg_is_key(s, e, key, kl)) {
				if (b.len)
					hilo_buf_putc(&b, ',');
				hilo_buf_put(&b, s, (size_t)(e - s));
			}
			if (!*e)
				break;
			s = e + 1;
		}
	}
	for (int k = 0; k < n; k++) {
		if (b.len)
			hilo_buf_putc(&b, ',');
		hilo_buf_puts(&b, key);
		hilo_buf_put_i64(&b, vals[k]);
	}
	const char *nt = b.len ? hilo_buf_cstr(&b) : "";
	if (on ? strcmp(on, nt) != 0 : b.len > 0) {
		/* give an empty metadata list a non-NULL entry array first, so the
		 * setter's copies never see a NULL pointer */
		if (!i->metadata) {
			i->metadata = hilo_arena_alloc(m->arena, sizeof *i->metadata);
			hilo_instr_set_attr(m, i, HILO_A_METADATA, HILO_ATTR_METADATA);
		}
		if (!i->metadata->e)
			i->metadata->e = hilo_arena_alloc(m->arena, sizeof *i->metadata->e);
		hilo_instr_set_op_name(m, i, nt);
	}
	hilo_buf_free(&b);
}

/* Removes the entries of key (well-formed or not) from backend_config's
 * text; true when something was removed. Each entry goes with one
 * adjacent comma so the list stays well-formed. */
static bool remove_from_backend(hilo_module *m, hilo_instr *i, const char *key)
{
	hilo_attr *a = hilo_instr_attr(i, HILO_A_BACKEND_CONFIG);
	const char *text = backend_text(i);
	if (!a || !text)
		return false;
	size_t kl = strlen(key);
	hilo_buf b;
	hilo_buf_init_in(&b, m->arena);
	bool removed = false;
	const char *p = text, *copied = text;
	while ((p = strstr(p, key)) != NULL) {
		if (p != text && !key_delim(p[-1])) {
			p++;
			continue;
		}
		int64_t v;
		const char *end;
		parse_value(p + kl, &v, &end);
		const char *from = p, *to = end;
		if (from > copied && from[-1] == ',')
			from--;              /* ",key<v>" */
		else if (*to == ',')
			to++;                /* "key<v>," at the start of a list */
		hilo_buf_put(&b, copied, (size_t)(from - copied));
		copied = to;
		removed = true;
		p = end > p ? end : p + 1;
	}
	if (removed) {
		hilo_buf_puts(&b, copied);
		a->v.text = hilo_arena_strdup(m->arena, b.len ? hilo_buf_cstr(&b) : "");
	}
	hilo_buf_free(&b);
	return removed;
}

bool hilo_tokens_remove(hilo_module *m, hilo_instr *i, const char *key, bool op_name, bool backend)
{
	bool changed = false;
	if (op_name) {
		const char *before = hilo_instr_op_name(m, i);
		if (before && strstr(before, key)) {
			char *copy = hilo_arena_strdup(m->arena, before);
			hilo_tokens_set(m, i, key, NULL, 0);
			const char *after = hilo_instr_op_name(m, i);
			changed = !after || strcmp(copy, after) != 0;
		}
	}
	if (backend)
		changed |= remove_from_backend(m, i, key);
	return changed;
}

int hilo_tokens_get_backend(hilo_module *m, const hilo_instr *i, const char *key, int64_t *out, int max)
{
	(void)m;
	int bad;
	return scan(backend_text(i), key, out, max, &bad);
}
