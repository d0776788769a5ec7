/* Typed proto fields for the generic attributes every instruction may
 * carry as raw text (src/formats/proto, beside pb_attrs.c):
 *   statistics={visualizing_index=N,name=V,...}  StatisticsViz (82)
 *   result_accuracy={mode=highest}
 *   result_accuracy={tolerance={atol=A,rtol=R,ulps=U}}  ResultAccuracy (91)
 *   origin={{"name" {i,j}}} / {({..}, {..})} / {[synthetic_call]}
 *                                                 OriginalValueProto (88)
 * Each is parsed into its XLA message and rendered back as XLA prints it
 * (hlo_instruction.cc: statistics_viz and result_accuracy through
 * absl::StrCat, so doubles in six significant digits, %g; the original
 * value as OriginalValueToString, a tuple as "(a, b)"). The writer keeps
 * the text in hilo's extension as well when the rendering is not the
 * text byte for byte (pb_write_attrs.c), so the round trip stays exact. */
#include "pb_attrs.h"
#include "pb_cursor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A double as absl::StrCat prints it (SixDigits: %g). */
static void put_g(hilo_buf *b, double v)
{
	char tmp[40];
	snprintf(tmp, sizeof tmp, "%g", v);
	hilo_buf_puts(b, tmp);
}

/* A double up to one of the stop characters. */
static bool dbl(cur *c, double *v)
{
	ws(c);
	char tmp[64];
	size_t n = 0;
	while (c->p + n < c->e && n < sizeof tmp - 1 && !strchr(",}", c->p[n]))
		n++;
	if (!n || n == sizeof tmp - 1)
		return false;
	memcpy(tmp, c->p, n);
	tmp[n] = 0;
	char *e;
	*v = strtod(tmp, &e);
	if (*e)
		return false;
	c->p += n;
	return true;
}

/* ---- statistics ---- */

bool pbx_statistics_parse(hilo_arena *a, Xla__StatisticsViz **out, const char *t)
{
	cur c = {t, t + strlen(t)};
	Xla__StatisticsViz *s = aalloc(a, sizeof *s);
	int64_t idx;
	if (!s || !lit(&c, "{") || !lit(&c, "visualizing_index=") || !num(&c, &idx))
		return false;
	xla__statistics_viz__init(s);
	s->stat_index_to_visualize = idx;
	size_t cap = 0;
	while (lit(&c, ",")) {
		const char *k = c.p;
		while (c.p < c.e && *c.p != '=' && *c.p != ',' && *c.p != '}')
			c.p++;
		if (c.p == k || c.p == c.e || *c.p != '=')
			return false;
		Xla__Statistic *st = aalloc(a, sizeof *st);
		char *name = hilo_arena_strndup(a, k, (size_t)(c.p - k));
		if (!st || !name)
			return false;
		xla__statistic__init(st);
		st->stat_name = name;
		c.p++;
		if (!dbl(&c, &st->stat_val))
			return false;
		if (s->n_statistics == cap) {
			cap = cap ? 2 * cap : 4;
			s->statistics = hilo_arena_grow(a, s->statistics, s->n_statistics, cap, sizeof *s->statistics);
			if (!s->statistics)
				return false;
		}
		s->statistics[s->n_statistics++] = st;
	}
	if (!lit(&c, "}") || !at_end(&c))
		return false;
	*out = s;
	return true;
}

/* XLA prints the statistics only when there are some. */
bool pbx_statistics_render(hilo_buf *b, const Xla__StatisticsViz *s)
{
	if (!s || !s->n_statistics)
		return false;
	hilo_buf_puts(b, "{visualizing_index=");
	hilo_buf_put_i64(b, s->stat_index_to_visualize);
	for (size_t k = 0; k < s->n_statistics; k++) {
		const Xla__Statistic *st = s->statistics[k];
		hilo_buf_putc(b, ',');
		hilo_buf_puts(b, st->stat_name ? st->stat_name : "");
		hilo_buf_putc(b, '=');
		put_g(b, st->stat_val);
	}
	hilo_buf_putc(b, '}');
	return true;
}

/* ---- result_accuracy ---- */

/* ResultAccuracy.Mode by number (xla_data.proto) */
static const char *const accuracy_modes[] = {"default", "highest"};

bool pbx_accuracy_parse(hilo_arena *a, Xla__ResultAccuracy **out, const char *t)
{
	cur c = {t, t + strlen(t)};
	Xla__ResultAccuracy *r = aalloc(a, sizeof *r);
	if (!r || !lit(&c, "{"))
		return false;
	xla__result_accuracy__init(r);
	if (lit(&c, "mode=")) {
		int m = 0;
		while (m < 2 && !lit(&c, accuracy_modes[m]))
			m++;
		if (m == 2)
			return false;
		r->mode = m;
	} else if (lit(&c, "tolerance={")) {
		Xla__ResultAccuracy__Tolerance *tol = aalloc(a, sizeof *tol);
		if (!tol)
			return false;
		xla__result_accuracy__tolerance__init(tol);
		if (!lit(&c, "atol=") || !dbl(&c, &tol->atol) || !lit(&c, ",") || !lit(&c, "rtol=") ||
		    !dbl(&c, &tol->rtol) || !lit(&c, ",") || !lit(&c, "ulps=") || !num(&c, &tol->ulps) ||
		    !lit(&c, "}"))
			return false;
		r->tolerance = tol;
	} else {
		return false;
	}
	if (!lit(&c, "}") || !at_end(&c))
		return false;
	*out = r;
	return true;
}

/* XLA prints a tolerance, or a mode other than the default. */
bool pbx_accuracy_render(hilo_buf *b, const Xla__ResultAccuracy *r)
{
	if (!r)
		return false;
	if (r->tolerance) {
		hilo_buf_puts(b, "{tolerance={atol=");
		put_g(b, r->tolerance->atol);
		hilo_buf_puts(b, ",rtol=");
		put_g(b, r->tolerance->rtol);
		hilo_buf_puts(b, ",ulps=");
		hilo_buf_put_i64(b, r->tolerance->ulps);
		hilo_buf_puts(b, "}}");
		return true;
	}
	if (r->mode <= 0 || r->mode >= 2)
		return false;
	hilo_buf_puts(b, "{mode=");
	hilo_buf_puts(b, accuracy_modes[r->mode]);
	hilo_buf_putc(b, '}');
	return true;
}

/* ---- origin (the original value) ---- */

bool pbx_original_array_parse(cur *c, hilo_arena *a, Xla__OriginalArrayProto **out)
{
	if (!lit(c, "{\""))
		return false;
	const char *k = c->p;
	while (c->p < c->e && *c->p != '"')
		c->p++;
	if (c->p == c->e)
		return false;
	Xla__OriginalArrayProto *ar = aalloc(a, sizeof *ar);
	if (!ar)
		return false;
	xla__original_array_proto__init(ar);
	if (!(ar->instruction_name = hilo_arena_strndup(a, k, (size_t)(c->p - k))))
		return false;
	c->p++;
	ws(c);
	if (c->p < c->e && *c->p == '{') {
		ivec idx = {0};
		if (!int_list(c, a, &idx))
			return false;
		ar->n_shape_index = idx.n;
		ar->shape_index = idx.v;
	}
	if (!lit(c, "}"))
		return false;
	*out = ar;
	return true;
}

void pbx_original_array_render(hilo_buf *b, const Xla__OriginalArrayProto *ar)
{
	hilo_buf_puts(b, "{\"");
	hilo_buf_puts(b, ar->instruction_name ? ar->instruction_name : "");
	hilo_buf_putc(b, '"');
	if (ar->n_shape_index) {
		hilo_buf_putc(b, ' ');
		put_list(b, ar->shape_index, ar->n_shape_index, '{', '}', ",");
	}
	hilo_buf_putc(b, '}');
}

enum { OV_MAX_DEPTH = 64 };

typedef struct ov_build {
	hilo_arena *a;
	Xla__OriginalValueProto *v;
	size_t cap;
	int64_t path[OV_MAX_DEPTH];
} ov_build;

/* {"name"} or {"name" {i,j}}, or a tuple (node, node, ...), at depth d of
 * the shape tree (path[0..d) its index there). */
static bool ov_node(cur *c, ov_build *B, int d)
{
	if (d >= OV_MAX_DEPTH)
		return false;
	if (lit(c, "(")) {
		for (int64_t k = 0;; k++) {
			B->path[d] = k;
			if (!ov_node(c, B, d + 1))
				return false;
			if (lit(c, ","))
				continue;
			return lit(c, ")");
		}
	}
	Xla__OriginalValueElementProto *el = aalloc(B->a, sizeof *el);
	int64_t *at = aalloc(B->a, (size_t)d * sizeof *at);
	if (!el || !at)
		return false;
	xla__original_value_element_proto__init(el);
	Xla__OriginalArrayProto *ar;
	if (!pbx_original_array_parse(c, B->a, &ar))
		return false;
	if (d)
		memcpy(at, B->path, (size_t)d * sizeof *at);
	el->n_shape_index = (size_t)d;
	el->shape_index = at;
	el->original_array = ar;
	if (B->v->n_elements == B->cap) {
		B->cap = B->cap ? 2 * B->cap : 4;
		B->v->elements = hilo_arena_grow(B->a, B->v->elements, B->v->n_elements, B->cap, sizeof *B->v->elements);
		if (!B->v->elements)
			return false;
	}
	B->v->elements[B->v->n_elements++] = el;
	return true;
}

bool pbx_origin_parse(hilo_arena *a, Xla__OriginalValueProto **out, const char *t)
{
	cur c = {t, t + strlen(t)};
	ov_build B = {a, aalloc(a, sizeof *B.v), 0, {0}};
	if (!B.v || !lit(&c, "{"))
		return false;
	xla__original_value_proto__init(B.v);
	if (lit(&c, "[synthetic_call]"))
		B.v->is_synthetic_call = true;
	else if (!ov_node(&c, &B, 0))
		return false;
	if (!lit(&c, "}") || !at_end(&c))
		return false;
	*out = B.v;
	return true;
}

/* The element whose shape index is path[0..d), or NULL; *below: some
 * element lies under it. */
static const Xla__OriginalValueElementProto *ov_find(const Xla__OriginalValueProto *v,
	const int64_t *path, int d, bool *below)
{
	*below = false;
	for (size_t k = 0; k < v->n_elements; k++) {
		const Xla__OriginalValueElementProto *el = v->elements[k];
		if (el->n_shape_index < (size_t)d || (d && memcmp(el->shape_index, path, (size_t)d * sizeof *path)))
			continue;
		if (el->n_shape_index == (size_t)d)
			return el;
		*below = true;
	}
	return NULL;
}

static bool ov_render_node(hilo_buf *b, const Xla__OriginalValueProto *v, int64_t *path, int d)
{
	bool below;
	const Xla__OriginalValueElementProto *el = ov_find(v, path, d, &below);
	if (el) {
		const Xla__OriginalArrayProto *ar = el->original_array;
		if (!ar || below)
			return false;
		pbx_original_array_render(b, ar);
		return true;
	}
	if (!below || d >= OV_MAX_DEPTH)
		return false;
	hilo_buf_putc(b, '(');
	for (int64_t k = 0;; k++) {
		path[d] = k;
		bool under;
		if (!ov_find(v, path, d + 1, &under) && !under)
			break;
		if (k)
			hilo_buf_puts(b, ", ");
		if (!ov_render_node(b, v, path, d + 1))
			return false;
	}
	hilo_buf_putc(b, ')');
	return true;
}

bool pbx_origin_render(hilo_buf *b, const Xla__OriginalValueProto *v)
{
	if (!v)
		return false;
	if (v->is_synthetic_call) {
		if (v->n_elements)
			return false;
		hilo_buf_puts(b, "{[synthetic_call]}");
		return true;
	}
	if (!v->n_elements)
		return false;
	int64_t path[OV_MAX_DEPTH + 1];
	hilo_buf_putc(b, '{');
	if (!ov_render_node(b, v, path, 0))
		return false;
	hilo_buf_putc(b, '}');
	return true;
}
