/* The cursor parser of the proto writer's attribute texts (private to
 * src/formats/proto: pb_attrs.c and pb_attrs_lists.c): blanks and
 * comments skipped, literals, numbers, int lists, arena vectors. */
#ifndef HILO_PB_CURSOR_H
#define HILO_PB_CURSOR_H

#include "pb_internal.h"

#include <stdint.h>
#include <string.h>

/* ---- a tiny cursor parser ---- */

typedef struct cur {
	const char *p, *e;
} cur;

/* blanks, and comments (the index=5 markers of long tuple shardings) */
static inline void ws(cur *c)
{
	for (;;) {
		while (c->p < c->e && (*c->p == ' ' || *c->p == '\n' || *c->p == '\t'))
			c->p++;
		if (c->e - c->p < 4 || c->p[0] != '/' || c->p[1] != '*')
			return;
		const char *q = c->p + 2;
		while (q + 1 < c->e && !(q[0] == '*' && q[1] == '/'))
			q++;
		if (q + 1 >= c->e)
			return; /* unterminated: not a comment */
		c->p = q + 2;
	}
}

static inline bool lit(cur *c, const char *s)
{
	ws(c);
	size_t n = strlen(s);
	if ((size_t)(c->e - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

static inline bool num(cur *c, int64_t *v)
{
	ws(c);
	const char *q = c->p;
	bool neg = false;
	if (q < c->e && *q == '-') {
		neg = true;
		q++;
	}
	if (q >= c->e || *q < '0' || *q > '9')
		return false;
	uint64_t r = 0;
	while (q < c->e && *q >= '0' && *q <= '9') {
		if (r > (UINT64_MAX - 9) / 10)
			return false;
		r = r * 10 + (uint64_t)(*q++ - '0');
	}
	if (r > (uint64_t)INT64_MAX)
		return false;
	*v = neg ? -(int64_t)r : (int64_t)r;
	c->p = q;
	return true;
}

static inline bool at_end(cur *c)
{
	ws(c);
	return c->p == c->e;
}

/* growable int64 vector in an arena */
typedef struct ivec {
	int64_t *v;
	size_t n, cap;
} ivec;

static inline bool push(hilo_arena *a, ivec *x, int64_t v)
{
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 8;
		int64_t *nv = hilo_arena_grow(a, x->v, x->n, cap, sizeof *nv);
		if (!nv)
			return false;
		x->v = nv;
		x->cap = cap;
	}
	x->v[x->n++] = v;
	return true;
}

/* {1,2,3} */
static inline bool int_list(cur *c, hilo_arena *a, ivec *x)
{
	if (!lit(c, "{"))
		return false;
	if (lit(c, "}"))
		return true;
	for (;;) {
		int64_t v;
		if (!num(c, &v) || !push(a, x, v))
			return false;
		if (lit(c, ","))
			continue;
		return lit(c, "}");
	}
}

/* [1,2,3] */
static inline bool bracket_list(cur *c, hilo_arena *a, ivec *x)
{
	if (!lit(c, "["))
		return false;
	if (lit(c, "]"))
		return true;
	for (;;) {
		int64_t v;
		if (!num(c, &v) || !push(a, x, v))
			return false;
		if (lit(c, ","))
			continue;
		return lit(c, "]");
	}
}

static inline void put_list(hilo_buf *b, const int64_t *v, size_t n, char open, char close, const char *sep)
{
	hilo_buf_putc(b, open);
	for (size_t k = 0; k < n; k++) {
		if (k)
			hilo_buf_puts(b, sep);
		hilo_buf_put_i64(b, v[k]);
	}
	hilo_buf_putc(b, close);
}

static inline void *aalloc(hilo_arena *a, size_t n)
{
	return hilo_arena_alloc(a, n ? n : 1);
}

/* ---- backend_config ---- */

#endif
