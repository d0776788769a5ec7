/* window.c - the window attribute of reduce-window, select-and-scatter
 * and convolution ("size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=..."), read
 * once for shape inference, the evaluator and the cost model (ir/window.h). */
#include "ir/window.h"

#include <stdlib.h>
#include <string.h>

/* Parses "AxBxC" into v (n values); false on a count mismatch. */
static bool parse_x(const char *s, size_t len, int64_t *v, int n, bool pad, int64_t *hi)
{
	int k = 0;
	const char *p = s, *end = s + len;
	while (p < end) {
		if (k >= n)
			return false;
		char *q;
		v[k] = strtoll(p, &q, 10);
		if (q == p)
			return false;
		p = q;
		if (pad) {
			if (p >= end || *p != '_')
				return false;
			p++;
			hi[k] = strtoll(p, &q, 10);
			if (q == p)
				return false;
			p = q;
		}
		k++;
		if (p < end) {
			if (*p != 'x')
				return false;
			p++;
		}
	}
	return k == n;
}

bool hilo_window_parse(const char *t, int rank, hilo_window *w)
{
	for (int d = 0; d < rank; d++) {
		w->size[d] = w->stride[d] = w->ldil[d] = w->rdil[d] = 1;
		w->lo[d] = w->hi[d] = 0;
	}
	if (!t)
		return rank == 0;
	const char *p = t;
	while (*p == '{' || *p == ' ')
		p++;
	while (*p && *p != '}') {
		const char *eq = strchr(p, '=');
		if (!eq)
			return false;
		const char *v = eq + 1, *ve = v;
		while (*ve && *ve != ' ' && *ve != '}')
			ve++;
		size_t kl = (size_t)(eq - p), vl = (size_t)(ve - v);
		bool ok = true;
		if (kl == 4 && !memcmp(p, "size", 4))
			ok = parse_x(v, vl, w->size, rank, false, NULL);
		else if (kl == 6 && !memcmp(p, "stride", 6))
			ok = parse_x(v, vl, w->stride, rank, false, NULL);
		else if (kl == 3 && !memcmp(p, "pad", 3))
			ok = parse_x(v, vl, w->lo, rank, true, w->hi);
		else if (kl == 10 && !memcmp(p, "lhs_dilate", 10))
			ok = parse_x(v, vl, w->ldil, rank, false, NULL);
		else if (kl == 10 && !memcmp(p, "rhs_dilate", 10))
			ok = parse_x(v, vl, w->rdil, rank, false, NULL);
		else if (!(kl == 12 && !memcmp(p, "rhs_reversal", 12)))
			return false;
		if (!ok)
			return false;
		p = ve;
		while (*p == ' ')
			p++;
	}
	for (int d = 0; d < rank; d++)
		if (w->size[d] < 0 || w->stride[d] < 1 || w->ldil[d] < 1 || w->rdil[d] < 1)
			return false;
	return true;
}
