/* The small cursor of the IR's attribute-text readers (src/ir:
 * aliasing.c, replica_groups.c): blanks skipped, one character, a
 * signed decimal that fits int64. Private to src/ir. */
#ifndef HILO_IR_TEXT_CURSOR_H
#define HILO_IR_TEXT_CURSOR_H

#include <stdbool.h>
#include <stdint.h>

typedef struct rd {
	const char *p, *e;
} rd;

static inline void ws(rd *r)
{
	while (r->p < r->e && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static inline bool eat(rd *r, char c)
{
	ws(r);
	if (r->p < r->e && *r->p == c) {
		r->p++;
		return true;
	}
	return false;
}

static inline bool num(rd *r, int64_t *out)
{
	ws(r);
	bool neg = r->p < r->e && *r->p == '-';
	const char *s = r->p + neg;
	if (s >= r->e || *s < '0' || *s > '9')
		return false;
	int64_t v = 0;
	while (s < r->e && *s >= '0' && *s <= '9') {
		if (v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*s++ - '0');
	}
	*out = neg ? -v : v;
	r->p = s;
	return true;
}

#endif
