/* Shapes: element counts, comparison and XLA's printed form. */
#include "hilo/ir.h"
#include "hilo/float.h"

#include <string.h>

int64_t hilo_shape_elements(const hilo_shape *s)
{
	int64_t n = 1;
	for (int i = 0; i < s->rank; i++) {
		int64_t d = s->dims[i];
		if (d < 0)
			return -1;
		if (d && n > ((int64_t)1 << 62) / d)
			return -1;
		n *= d;
	}
	return n;
}

int64_t hilo_shape_bytes(const hilo_shape *s)
{
	int64_t n = hilo_shape_elements(s);
	int64_t b = hilo_ptype_bytes(s->type);
	if (n < 0 || (b > 1 && n > INT64_MAX / b))
		return -1;
	return n * b;
}

bool hilo_shape_is_tuple(const hilo_shape *s)
{
	return s->type == HILO_T_TUPLE;
}

bool hilo_shape_is_array(const hilo_shape *s)
{
	return s->type != HILO_T_TUPLE && s->type != HILO_T_TOKEN &&
	       s->type != HILO_T_OPAQUE && s->type != HILO_T_INVALID;
}

bool hilo_shape_compatible(const hilo_shape *a, const hilo_shape *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->type != b->type)
		return false;
	if (a->type == HILO_T_TUPLE) {
		if (a->ntuple != b->ntuple)
			return false;
		for (int i = 0; i < a->ntuple; i++)
			if (!hilo_shape_compatible(a->elems[i], b->elems[i]))
				return false;
		return true;
	}
	if (a->rank != b->rank)
		return false;
	for (int i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return false;
	return true;
}

static bool layout_equal(const hilo_layout *a, const hilo_layout *b)
{
	if (!a || !b)
		return a == b;
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (a->minor_to_major[i] != b->minor_to_major[i])
			return false;
	if (!a->tail || !b->tail)
		return a->tail == b->tail;
	return strcmp(a->tail, b->tail) == 0;
}

bool hilo_shape_equal(const hilo_shape *a, const hilo_shape *b)
{
	if (a == b)
		return true;
	if (a->type != b->type || a->buffer != b->buffer)
		return false;
	if (a->type == HILO_T_TUPLE) {
		if (a->ntuple != b->ntuple)
			return false;
		for (int i = 0; i < a->ntuple; i++)
			if (!hilo_shape_equal(a->elems[i], b->elems[i]))
				return false;
		return true;
	}
	if (!hilo_shape_compatible(a, b))
		return false;
	for (int i = 0; i < a->rank; i++) {
		int da = a->dyn ? a->dyn[i] : 0, db = b->dyn ? b->dyn[i] : 0;
		if (da != db)
			return false;
	}
	return layout_equal(a->layout, b->layout);
}

static void print_shape(hilo_buf *b, const hilo_shape *s, bool layouts);

void hilo_shape_print(hilo_buf *b, const hilo_shape *s)
{
	print_shape(b, s, true);
}

void hilo_shape_print_human(hilo_buf *b, const hilo_shape *s)
{
	print_shape(b, s, false);
}

static void print_shape(hilo_buf *b, const hilo_shape *s, bool layouts)
{
	if (s->buffer) {
		hilo_buf_put(b, "b(", 2);
		hilo_shape tmp = *s;
		tmp.buffer = false;
		print_shape(b, &tmp, layouts);
		hilo_buf_putc(b, ')');
		return;
	}
	if (s->type == HILO_T_TUPLE) {
		hilo_buf_putc(b, '(');
		for (int i = 0; i < s->ntuple; i++) {
			if (i) {
				hilo_buf_put(b, ", ", 2);
				if (i % 5 == 0)
					hilo_buf_printf(b, "/*index=%d*/", i);
			}
			print_shape(b, s->elems[i], layouts);
		}
		hilo_buf_putc(b, ')');
		return;
	}
	hilo_buf_puts(b, hilo_ptype_name(s->type));
	hilo_buf_putc(b, '[');
	for (int i = 0; i < s->rank; i++) {
		if (i)
			hilo_buf_putc(b, ',');
		int d = s->dyn ? s->dyn[i] : 0;
		if (d == HILO_DIM_UNBOUNDED) {
			hilo_buf_putc(b, '?');
			continue;
		}
		if (d == HILO_DIM_BOUNDED)
			hilo_buf_put(b, "<=", 2);
		hilo_buf_put_i64(b, s->dims[i]);
	}
	hilo_buf_putc(b, ']');
	if (s->layout && layouts) {
		hilo_buf_putc(b, '{');
		for (int i = 0; i < s->layout->n; i++) {
			if (i)
				hilo_buf_putc(b, ',');
			hilo_buf_put_i64(b, s->layout->minor_to_major[i]);
		}
		if (s->layout->tail) {
			hilo_buf_putc(b, ':');
			hilo_buf_puts(b, s->layout->tail);
		}
		hilo_buf_putc(b, '}');
	}
}

char *hilo_shape_str(hilo_arena *a, const hilo_shape *s)
{
	hilo_buf b;
	hilo_buf_init_in(&b, a);
	hilo_shape_print(&b, s);
	char *r = hilo_arena_strdup(a, hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	return r;
}

/* ---- integer constants ---- */

bool hilo_literal_int_at(const hilo_literal *l, size_t k, int64_t *out)
{
	if (!l || l->elided || !l->data || !l->shape || !hilo_shape_is_array(l->shape))
		return false;
	hilo_ptype t = l->shape->type;
	if (!hilo_ptype_is_int(t) && t != HILO_T_PRED)
		return false;
	int64_t n = hilo_shape_elements(l->shape);
	size_t w = (size_t)hilo_ptype_bytes(t);
	if (n < 0 || (uint64_t)k >= (uint64_t)n || l->nbytes / w <= k)
		return false;
	*out = hilo_elem_get_i64(t, l->data, k);
	return true;
}

bool hilo_instr_const_int_at(const hilo_instr *i, size_t k, int64_t *out)
{
	return i && i->op == HILO_OP_CONSTANT && hilo_literal_int_at(i->literal, k, out);
}
