/* Shapes and literals in HLO text: reading and XLA's printed form. */
#include "lex.h"
#include "ir/literal.h"
#include "hilo/eval.h"
#include "hilo/float.h"
#include "hilo/hlo_text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- shapes ---- */

/* Reads a layout into *lay (minor_to_major into tmp, HILO_MAX_RANK long);
 * the shape constructor copies it. */
static bool read_layout(lexer *L, int rank, hilo_layout *lay, int64_t *tmp)
{
	hilo_module *m = L->m;
	int n = 0;
	lay->tail = NULL;
	lex_skip_ws(L);
	while (L->p < L->end && *L->p != '}' && *L->p != ':') {
		int64_t v;
		if (!lex_int(L, &v))
			return false;
		if (n >= HILO_MAX_RANK || v < 0 || v >= HILO_MAX_RANK) {
			lex_error(L, L->p, "invalid layout");
			return false;
		}
		tmp[n++] = v;
		if (!lex_accept(L, ','))
			break;
		lex_skip_ws(L);
	}
	lex_skip_ws(L);
	if (L->p < L->end && *L->p == ':') {
		const char *s = ++L->p;
		int depth = 0;
		while (L->p < L->end && (depth > 0 || *L->p != '}')) {
			if (*L->p == '(')
				depth++;
			else if (*L->p == ')')
				depth--;
			else if (*L->p == '\n') {
				lex_error(L, L->p, "unterminated layout");
				return false;
			}
			L->p++;
		}
		lay->tail = hilo_intern(m->strings, s, (size_t)(L->p - s));
	}
	if (!lex_expect(L, '}'))
		return false;
	if (n != rank && !(n == 0 && lay->tail)) {
		lex_error(L, L->p - 1, "layout has %d entries but the shape has rank %d", n, rank);
		return false;
	}
	uint64_t seen = 0;
	for (int k = 0; k < n; k++) {
		if (tmp[k] >= rank || (seen >> tmp[k]) & 1) {
			lex_error(L, L->p - 1, "layout is not a permutation of the %d dimensions", rank);
			return false;
		}
		seen |= 1ull << tmp[k];
	}
	lay->n = n;
	lay->minor_to_major = tmp;
	return true;
}

/* End of the shape text starting at p when it can be found by a quick
 * scan (one line, canonical spacing before a layout), else NULL. */
static const char *shape_span_end(const char *p, const char *end)
{
	const char *q = p;
	int depth = 0;
	if (q < end && *q == '(') {
		do {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
			else if (*q == '\n')
				return NULL;
			q++;
		} while (q < end && depth > 0);
		return depth == 0 ? q : NULL;
	}
	while (q < end && lex_is_ident_char((unsigned char)*q))
		q++;
	if (q >= end || *q != '[')
		return NULL;
	while (q < end && *q != ']') {
		if (*q == '\n')
			return NULL;
		q++;
	}
	if (q >= end)
		return NULL;
	q++;
	if (q + 1 < end && *q == '{' && ((q[1] >= '0' && q[1] <= '9') || q[1] == ':')) {
		while (q < end && *q != '}') {
			if (*q == '\n')
				return NULL;
			q++;
		}
		if (q >= end)
			return NULL;
		q++;
	}
	return q;
}

static hilo_shape *parse_shape(lexer *L);

/* The last shape found by its text, when the text at L->p repeats it
 * (consecutive instructions often have one shape): no scan, hash or
 * probe. The text at p is the same span when it starts with the last
 * span's bytes, unless that span ended at ']' and a layout follows. */
static hilo_shape *last_shape(lexer *L)
{
	size_t n = L->last_shape_len;
	const char *p = L->p;
	if (!n || (size_t)(L->end - p) < n || !hilo_mem_eq(p, L->last_shape_text, n))
		return NULL;
	if (p + n < L->end && p[n] == '{' && p[n - 1] == ']')
		return NULL;
	L->p = p + n;
	return L->last_shape;
}

static void set_last_shape(lexer *L, const char *text, size_t n, hilo_shape *s)
{
	L->last_shape_text = text;
	L->last_shape_len = n;
	L->last_shape = s;
}

hilo_shape *lex_shape_cached(lexer *L)
{
	lex_skip_ws(L);
	if (!L->shape_cache || L->depth > 0 || !L->shape_cache->n)
		return NULL;
	hilo_shape *s = last_shape(L);
	if (s)
		return s;
	const char *start = L->p, *end = shape_span_end(L->p, L->end);
	if (!end)
		return NULL;
	size_t n = (size_t)(end - start);
	s = hilo_bytemap_get(L->shape_cache, start, n, hilo_hash_inline(start, n));
	if (s) {
		L->p = end;
		set_last_shape(L, start, n, s);
	}
	return s;
}

/* Shapes are immutable and shared: identical shape text in one module
 * gives one hilo_shape. */
hilo_shape *lex_shape(lexer *L)
{
	lex_skip_ws(L);
	if (!L->shape_cache || L->depth > 0)
		return parse_shape(L);
	hilo_shape *s = last_shape(L);
	if (s)
		return s;
	const char *start = L->p, *end = shape_span_end(L->p, L->end);
	if (!end)
		return parse_shape(L);
	/* keyed by the source text itself (it outlives the parse) */
	size_t n = (size_t)(end - start);
	uint32_t h = hilo_hash_inline(start, n);
	s = hilo_bytemap_get(L->shape_cache, start, n, h);
	if (s) {
		L->p = end;
		set_last_shape(L, start, n, s);
		return s;
	}
	s = parse_shape(L);
	if (s && L->p == end) {
		hilo_bytemap_put(L->shape_cache, start, n, h, s);
		set_last_shape(L, start, n, s);
	}
	return s;
}

static hilo_shape *parse_shape(lexer *L)
{
	hilo_module *m = L->m;
	lex_skip_ws(L);
	if (++L->depth > LEX_MAX_DEPTH) {
		lex_error(L, L->p, "shape nested too deeply");
		return NULL;
	}
	if (L->p < L->end && *L->p == '(') {
		L->p++;
		hilo_shape *tmp[16], **el = tmp;
		int n = 0, cap = 16;
		if (!lex_accept(L, ')')) {
			for (;;) {
				hilo_shape *e = lex_shape(L);
				if (!e)
					return NULL;
				if (n == cap) {
					hilo_shape **ne = hilo_arena_alloc(m->arena, (size_t)cap * 2 * sizeof *ne);
					memcpy(ne, el, (size_t)n * sizeof *ne);
					el = ne;
					cap *= 2;
				}
				el[n++] = e;
				if (lex_accept(L, ','))
					continue;
				if (!lex_expect(L, ')'))
					return NULL;
				break;
			}
		}
		L->depth--;
		return hilo_shape_tuple(m->shapes, n, el);
	}
	const char *at = L->p, *id;
	size_t len = lex_ident(L, &id);
	if (len == 1 && id[0] == 'b' && L->p < L->end && *L->p == '(') {
		L->p++;
		hilo_shape *in = lex_shape(L);
		if (!in || !lex_expect(L, ')'))
			return NULL;
		L->depth--;
		return hilo_shape_with_buffer(m->shapes, in, true);
	}
	hilo_ptype t = len ? hilo_ptype_lookup(id, len) : HILO_T_INVALID;
	if (t == HILO_T_INVALID) {
		lex_error(L, at, "expected a shape, got '%.*s'", (int)(len ? len : 1), len ? id : at);
		return NULL;
	}
	if (!lex_expect(L, '['))
		return NULL;
	int64_t dims[HILO_MAX_RANK];
	uint8_t dyn[HILO_MAX_RANK];
	bool any_dyn = false;
	int rank = 0;
	lex_skip_ws(L);
	if (!lex_accept(L, ']')) {
		for (;;) {
			if (rank >= HILO_MAX_RANK) {
				lex_error(L, L->p, "too many dimensions (more than %d)", HILO_MAX_RANK);
				return NULL;
			}
			uint8_t d = HILO_DIM_STATIC;
			int64_t v = 0;
			lex_skip_ws(L);
			if (L->p < L->end && *L->p == '?') {
				L->p++;
				d = HILO_DIM_UNBOUNDED;
				v = -1;
			} else {
				if (L->end - L->p >= 2 && L->p[0] == '<' && L->p[1] == '=') {
					L->p += 2;
					d = HILO_DIM_BOUNDED;
				}
				const char *dat = L->p;
				if (!lex_int(L, &v))
					return NULL;
				if (v < 0 || v > ((int64_t)1 << 40)) {
					lex_error(L, dat, "dimension %lld out of range", (long long)v);
					return NULL;
				}
			}
			any_dyn |= d != HILO_DIM_STATIC;
			dyn[rank] = d;
			dims[rank++] = v;
			if (lex_accept(L, ','))
				continue;
			if (!lex_expect(L, ']'))
				return NULL;
			break;
		}
	}
	if (rank && (t == HILO_T_TOKEN || t == HILO_T_OPAQUE)) {
		/* XLA's parser dies on them (a CHECK in its shape code) */
		lex_error(L, at, "%s shapes have no dimensions ('%s[]')", hilo_ptype_name(t), hilo_ptype_name(t));
		return NULL;
	}
	bool unbounded = false;
	for (int k = 0; k < rank; k++)
		unbounded |= dyn[k] == HILO_DIM_UNBOUNDED;
	int64_t ne = hilo_dims_elements(rank, dims);
	if (!unbounded && ne < 0) {
		lex_error(L, at, "shape has too many elements");
		return NULL;
	}
	int eb = hilo_ptype_bytes(t);
	if (!unbounded && eb > 1 && ne > INT64_MAX / eb) {
		lex_error(L, at, "shape size in bytes overflows int64");
		return NULL;
	}
	const uint8_t *dv = any_dyn ? dyn : NULL;
	/* a '{' is a layout only when followed by an integer or ':' */
	const char *save = L->p;
	int save_line = L->line;
	const char *save_ls = L->line_start;
	lex_skip_ws(L);
	if (L->p < L->end && *L->p == '{') {
		const char *q = L->p + 1;
		while (q < L->end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < L->end && ((*q >= '0' && *q <= '9') || *q == ':' ||
		                   (*q == '}' && rank == 0 && false))) {
			L->p++;
			hilo_layout lay;
			int64_t m2m[HILO_MAX_RANK];
			if (!read_layout(L, rank, &lay, m2m))
				return NULL;
			L->depth--;
			return hilo_shape_array_layout(m->shapes, t, rank, dims, dv, &lay);
		}
	}
	L->p = save;
	L->line = save_line;
	L->line_start = save_ls;
	/* no layout written: XLA's default (major-to-minor = 0..rank-1) */
	L->depth--;
	if (t == HILO_T_TOKEN || t == HILO_T_OPAQUE)
		return hilo_shape_array(m->shapes, t, rank, dims, dv);
	return hilo_shape_array_default(m->shapes, t, rank, dims, dv);
}

/* ---- literal values ---- */

/* Reads one scalar element of type t into data[k]. */
static bool read_elem(lexer *L, hilo_ptype t, void *data, size_t k)
{
	lex_skip_ws(L);
	const char *at = L->p;
	if (hilo_ptype_is_complex(t)) {
		if (!lex_expect(L, '('))
			return false;
		double re, im;
		double parts[2];
		for (int i = 0; i < 2; i++) {
			double tmp[1];
			if (!read_elem(L, HILO_T_F64, tmp, 0))
				return false;
			parts[i] = tmp[0];
			if (i == 0 && !lex_expect(L, ','))
				return false;
		}
		if (!lex_expect(L, ')'))
			return false;
		re = parts[0];
		im = parts[1];
		if (t == HILO_T_C64) {
			float f[2] = {(float)re, (float)im};
			memcpy((char *)data + 8 * k, f, 8);
		} else {
			double d[2] = {re, im};
			memcpy((char *)data + 16 * k, d, 16);
		}
		return true;
	}
	const char *s = L->p;
	bool neg = false;
	if (s < L->end && (*s == '-' || *s == '+')) {
		neg = *s == '-';
		s++;
	}
	const char *e = s;
	while (e < L->end && (lex_is_ident_char((unsigned char)*e) || *e == '+' ||
	                      (*e == '-' && e > s && (e[-1] == 'e' || e[-1] == 'E'))))
		e++;
	size_t len = (size_t)(e - s);
	if (len == 0) {
		lex_error(L, at, "expected a literal value");
		return false;
	}
	char buf[80];
	if ((size_t)(e - at) >= sizeof buf) {
		lex_error(L, at, "literal value too long");
		return false;
	}
	memcpy(buf, at, (size_t)(e - at));
	buf[e - at] = 0;
	if (t == HILO_T_PRED) {
		L->p = e;
		if (len == 4 && !memcmp(s, "true", 4))
			((unsigned char *)data)[k] = 1;
		else if (len == 5 && !memcmp(s, "false", 5))
			((unsigned char *)data)[k] = 0;
		else if ((len == 1 && (*s == '0' || *s == '1')) && !neg) {
			((unsigned char *)data)[k] = *s == '1';
			L->pred_as_int = true;
		}
		else {
			lex_error(L, at, "expected true or false");
			return false;
		}
		return true;
	}
	if (len >= 3 && !memcmp(s, "nan", 3)) {
		/* nan, nan(0x...) */
		uint64_t payload = 0;
		const char *q = s + 3;
		if (q < L->end && *q == '(') {
			/* copy the hex digits out: the source need not end in a NUL */
			char hex[24];
			size_t hn = 0;
			const char *h = q + 1;
			while (h < L->end && hn + 1 < sizeof hex && *h != ')')
				hex[hn++] = *h++;
			hex[hn] = 0;
			char *endp;
			errno = 0;
			payload = strtoull(hex, &endp, 16);
			if (!hn || *endp || h >= L->end || *h != ')' || errno) {
				lex_error(L, at, "bad nan payload");
				return false;
			}
			e = h + 1;
		}
		L->p = e;
		if (!hilo_ptype_is_float(t)) {
			lex_error(L, at, "nan is not a value of %s", hilo_ptype_name(t));
			return false;
		}
		if (t == HILO_T_F32) {
			uint32_t u = 0x7f800000u | (payload ? (uint32_t)(payload & 0x7fffff) : 0x400000u);
			if (neg)
				u |= 0x80000000u;
			memcpy((char *)data + 4 * k, &u, 4);
		} else if (t == HILO_T_F64) {
			uint64_t u = 0x7ff0000000000000ull | (payload ? (payload & 0xfffffffffffffull) : 0x8000000000000ull);
			if (neg)
				u |= 0x8000000000000000ull;
			memcpy((char *)data + 8 * k, &u, 8);
		} else {
			uint32_t bits = hilo_float_encode(t, NAN);
			if (t == HILO_T_F16 || t == HILO_T_BF16) {
				int mb = t == HILO_T_F16 ? 10 : 7;
				if (payload)
					bits = (bits & ~((1u << mb) - 1)) | (uint32_t)(payload & ((1u << mb) - 1));
				if (neg)
					bits |= 0x8000;
			} else if (neg && (t == HILO_T_F8E5M2 || t == HILO_T_F8E4M3 || t == HILO_T_F8E3M4 ||
			                   t == HILO_T_F8E4M3FN)) {
				bits |= 0x80;
			}
			memcpy((char *)data + (size_t)hilo_ptype_bytes(t) * k, &bits, (size_t)hilo_ptype_bytes(t));
		}
		return true;
	}
	L->p = e;
	if (hilo_ptype_is_int(t)) {
		char *endp;
		errno = 0;
		int bits = hilo_ptype_bits(t);
		if (hilo_ptype_is_unsigned_int(t)) {
			unsigned long long u = neg ? 1 : strtoull(buf, &endp, 10);
			uint64_t max = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
			if (neg || *endp || errno || u > max) {
				lex_error(L, at, "'%s' is not a value of %s", buf, hilo_ptype_name(t));
				return false;
			}
			hilo_elem_set_i64(t, data, k, (int64_t)u);
		} else {
			long long v = strtoll(buf, &endp, 10);
			int64_t lo = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
			int64_t hi = bits >= 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
			if (*endp || errno || v < lo || v > hi) {
				lex_error(L, at, "'%s' is not a value of %s", buf, hilo_ptype_name(t));
				return false;
			}
			hilo_elem_set_i64(t, data, k, v);
		}
		return true;
	}
	if (!hilo_ptype_is_float(t)) {
		lex_error(L, at, "type %s has no literal values", hilo_ptype_name(t));
		return false;
	}
	char *endp;
	if (t == HILO_T_F32) {
		float f = strtof(buf, &endp);
		if (*endp) {
			lex_error(L, at, "invalid floating-point literal '%s'", buf);
			return false;
		}
		memcpy((char *)data + 4 * k, &f, 4);
		return true;
	}
	double d = strtod(buf, &endp);
	if (*endp) {
		lex_error(L, at, "invalid floating-point literal '%s'", buf);
		return false;
	}
	hilo_elem_set_f64(t, data, k, d);
	return true;
}

/* Reads the nested braces of dimension `dim` for an array literal. */
static bool read_nested(lexer *L, const hilo_shape *s, int dim, void *data, size_t *k)
{
	if (dim == s->rank)
		return read_elem(L, s->type, data, (*k)++);
	if (!lex_expect(L, '{'))
		return false;
	for (int64_t i = 0; i < s->dims[dim]; i++) {
		if (i && !lex_expect(L, ','))
			return false;
		if (!read_nested(L, s, dim + 1, data, k))
			return false;
	}
	if (!lex_peek(L, '}')) {
		lex_error(L, L->p, "literal has more elements than its shape %s allows in dimension %d",
			hilo_shape_str(L->m->arena, s), dim);
		return false;
	}
	L->p++;
	return true;
}

hilo_literal *lex_literal(lexer *L, hilo_shape *shape)
{
	hilo_module *m = L->m;
	hilo_literal *lit = hilo_arena_alloc(m->arena, sizeof *lit);
	lit->shape = shape;
	lex_skip_ws(L);
	if (shape->type == HILO_T_TUPLE) {
		if (!lex_expect(L, '('))
			return NULL;
		lit->ntuple = shape->ntuple;
		lit->elems = hilo_arena_alloc(m->arena, (size_t)(shape->ntuple + 1) * sizeof(hilo_literal *));
		for (int i = 0; i < shape->ntuple; i++) {
			if (i && !lex_expect(L, ','))
				return NULL;
			lex_skip_ws(L);
			hilo_shape *es = shape->elems[i];
			if (L->p < L->end && *L->p != '{' && *L->p != '(' && !(*L->p >= '0' && *L->p <= '9') &&
			    *L->p != '-' && !lex_starts(L, L->p, "true") && !lex_starts(L, L->p, "false") &&
			    !lex_starts(L, L->p, "nan") && !lex_starts(L, L->p, "inf")) {
				/* an element with its shape: it must be the tuple's
				 * element shape (layout aside), or the literal would
				 * not match its own shape (and print as text that does
				 * not read back) */
				const char *at = L->p;
				es = lex_shape(L);
				if (!es)
					return NULL;
				if (!hilo_shape_compatible(es, shape->elems[i])) {
					lex_error(L, at, "tuple element %d has shape %s, expected %s", i,
						hilo_shape_str(m->arena, es), hilo_shape_str(m->arena, shape->elems[i]));
					return NULL;
				}
			}
			lit->elems[i] = lex_literal(L, es);
			if (!lit->elems[i])
				return NULL;
		}
		if (!lex_expect(L, ')'))
			return NULL;
		return lit;
	}
	if (!hilo_shape_is_array(shape)) {
		lex_error(L, L->p, "constant of type %s", hilo_ptype_name(shape->type));
		return NULL;
	}
	int64_t n = hilo_shape_elements(shape);
	if (L->end - L->p >= 5 && !memcmp(L->p, "{...}", 5)) {
		L->p += 5;
		lit->elided = true;
		return lit;
	}
	size_t bytes = (size_t)n * (size_t)hilo_ptype_bytes(shape->type);
	if (n > ((int64_t)1 << 31) || bytes > ((size_t)1 << 33)) {
		lex_error(L, L->p, "constant too large (%lld elements)", (long long)n);
		return NULL;
	}
	if (shape->rank > 0 && L->p < L->end && *L->p != '{') {
		/* an array constant written as one scalar, f32[2,3] constant(1.5):
		 * XLA's parser sets element 0 to it and leaves the others 0 (so
		 * its CPU computes); a zero is a splat stored once (issue 31: no
		 * allocation the input did not ask for), any other value the
		 * array it declares. Printed back as written */
		if (n == 0) {
			lex_error(L, L->p, "an empty array constant is written {}");
			return NULL;
		}
		size_t eb = (size_t)hilo_ptype_bytes(shape->type);
		_Alignas(16) unsigned char one[32] = {0};
		if (eb > sizeof one || !read_elem(L, shape->type, one, 0))
			return NULL;
		bool zero = true;
		for (size_t q = 0; q < eb; q++)
			zero = zero && one[q] == 0;
		lit->scalar_text = true;
		lit->splat = zero;
		lit->nbytes = zero ? eb : bytes;
		if (!(lit->data = hilo_arena_alloc(m->arena, lit->nbytes ? lit->nbytes : 1))) {
			lex_error(L, L->p, "out of memory for constant");
			return NULL;
		}
		memset(lit->data, 0, lit->nbytes);
		memcpy(lit->data, one, eb);
		return lit;
	}
	lit->nbytes = bytes;
	lit->data = hilo_arena_alloc(m->arena, bytes ? bytes : 1);
	if (!lit->data) {
		lex_error(L, L->p, "out of memory for constant");
		return NULL;
	}
	size_t k = 0;
	if (shape->rank == 0) {
		if (!read_elem(L, shape->type, lit->data, 0))
			return NULL;
		return lit;
	}
	L->pred_as_int = false;
	if (!read_nested(L, shape, 0, lit->data, &k))
		return NULL;
	lit->pred_as_int = L->pred_as_int;
	return lit;
}

/* ---- printing ---- */

void hilo_print_element(hilo_buf *b, hilo_ptype t, const void *data, size_t k)
{
	hilo_literal_format_element(b, t, data, k);
}

/* XLA's one-line literal form: rank 1 "{1, 2}"; higher ranks put spaces
 * inside braces ("{ { 1, 2 }, { 3, 4 } }", but "{x}" for a one-element
 * innermost row) and, from rank 4 on, label inner rows with their index
 * ("{ /\*i0=0*\/ {"). */
static void print_nested(hilo_buf *b, const hilo_literal *lit, int dim, int64_t *idx, size_t *k)
{
	const hilo_shape *s = lit->shape;
	if (dim == s->rank) {
		size_t at = hilo_literal_slot(lit, (*k)++);
		if (s->type == HILO_T_PRED && lit->pred_as_int)
			hilo_buf_putc(b, ((const unsigned char *)lit->data)[at] ? '1' : '0');
		else
			hilo_literal_format_element(b, s->type, lit->data, at);
		return;
	}
	bool inner = dim == s->rank - 1;
	if (s->rank == 1 || (inner && s->dims[dim] <= 1))
		hilo_buf_putc(b, '{');
	else if (inner)
		hilo_buf_put(b, "{ ", 2);
	else if (s->rank > 3 && dim > 0)
		hilo_buf_printf(b, "{ /*i%d=%lld*/ ", dim - 1, (long long)idx[dim - 1]);
	else
		hilo_buf_put(b, "{ ", 2);
	for (int64_t i = 0; i < s->dims[dim]; i++) {
		if (i)
			hilo_buf_put(b, ", ", 2);
		idx[dim] = i;
		print_nested(b, lit, dim + 1, idx, k);
	}
	if (s->rank == 1 || (inner && s->dims[dim] <= 1))
		hilo_buf_putc(b, '}');
	else if (s->dims[dim] == 0 && b->len && b->data[b->len - 1] == ' ')
		hilo_buf_putc(b, '}'); /* "{ /\*i0=0*\/ }": spaces collapse */
	else
		hilo_buf_put(b, " }", 2);
}

void hilo_print_literal(hilo_buf *b, const hilo_literal *lit, bool with_shape)
{
	const hilo_shape *s = lit->shape;
	if (with_shape) {
		hilo_shape_print(b, s);
		hilo_buf_putc(b, ' ');
	}
	if (s->type == HILO_T_TUPLE) {
		hilo_buf_put(b, "( ", 2);
		for (int i = 0; i < lit->ntuple; i++) {
			if (i)
				hilo_buf_put(b, ", ", 2);
			hilo_print_literal(b, lit->elems[i], false);
		}
		hilo_buf_put(b, " )", 2);
		return;
	}
	if (lit->elided) {
		hilo_buf_put(b, "{...}", 5);
		return;
	}
	size_t k = 0;
	int64_t idx[64];
	if (s->rank == 0)
		hilo_literal_format_element(b, s->type, lit->data, 0);
	else
		print_nested(b, lit, 0, idx, &k);
}

/* Whether any leaf of lit is elided ({...}: values unknown). */
static bool any_elided(const hilo_literal *lit)
{
	if (lit->elided)
		return true;
	for (int k = 0; k < lit->ntuple; k++)
		if (any_elided(lit->elems[k]))
			return true;
	return false;
}

static hilo_literal *parse_literal(hilo_module *m, const char *src, size_t len,
	const char *filename, hilo_diags *diags)
{
	lexer L = {.src = src, .p = src, .end = src + len, .file = filename, .line = 1, .line_start = src, .diags = diags, .m = m};
	if (lex_refuse_nul(&L))
		return NULL;
	hilo_shape *s = lex_shape(&L);
	if (!s)
		return NULL;
	hilo_literal *lit = lex_literal(&L, s);
	if (!lit)
		return NULL;
	if (any_elided(lit)) { /* a tuple's element too: an input holds every value */
		lex_error(&L, src, "literal values are elided ({...})");
		return NULL;
	}
	lex_skip_ws(&L);
	if (L.p != L.end) {
		lex_error(&L, L.p, "unexpected text after the literal");
		return NULL;
	}
	return lit;
}

/* The text is wrapped as a constant of a one-instruction module so that
 * "{" after the shape is read as values, never as a layout; when that
 * fails the text is read directly so that diagnostics keep the file's own
 * line and column. */
hilo_literal *hilo_parse_literal(hilo_module *m, const char *src, size_t len,
	const char *filename, hilo_diags *diags)
{
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(diags, filename);
		return NULL;
	}
	hilo_literal *l = parse_literal(m, src, len, filename, diags);
	hilo_oom_end(&g);
	return l;
}

hilo_shape *hilo_parse_shape(hilo_module *m, const char *src, size_t len, size_t *used,
	const char *filename, hilo_diags *diags)
{
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(diags, filename);
		return NULL;
	}
	lexer L = {.src = src, .p = src, .end = src + len, .file = filename, .line = 1,
	           .line_start = src, .diags = diags, .m = m};
	hilo_shape *s = lex_shape(&L);
	if (s && !used) {
		lex_skip_ws(&L);
		if (L.p != L.end) {
			lex_error(&L, L.p, "unexpected text after the shape");
			s = NULL;
		}
	}
	if (s && used)
		*used = (size_t)(L.p - src);
	hilo_oom_end(&g);
	return s;
}

/* hilo_literal_copy under its own guard: the caller holds another module
 * that a jump past it would leak. */
static hilo_literal *copy_guarded(hilo_module *m, const hilo_literal *src, bool *oom)
{
	HILO_OOM_CATCH(g, m->arena) {
		*oom = true;
		return NULL;
	}
	hilo_literal *l = hilo_literal_copy(m, src);
	hilo_oom_end(&g);
	return l;
}

hilo_literal *hilo_read_input_literal(hilo_module *m, const char *txt, size_t len,
	const char *path, hilo_diags *d)
{
	size_t p = 0, depth = 0;
	while (p < len && (txt[p] == ' ' || txt[p] == '\n' || txt[p] == '\t' || txt[p] == '\r'))
		p++;
	size_t s0 = p;
	if (p < len && txt[p] == '(') { /* tuple shape: to the matching ')' */
		for (; p < len; p++) {
			if (txt[p] == '(')
				depth++;
			else if (txt[p] == ')' && --depth == 0) {
				p++;
				break;
			}
		}
	} else {
		while (p < len && txt[p] != ']')
			p++;
		if (p < len)
			p++;
		if (p < len && txt[p] == '{') /* an attached layout */
			while (p < len && txt[p++] != '}')
				;
	}
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_buf_printf(&b, "HloModule input\n\nENTRY e {\n  ROOT c = %.*s constant(%.*s)\n}\n",
		(int)(p - s0), txt + s0, (int)(len - p), txt + p);
	bool oom = b.oom;
	hilo_diags tmp; /* not wanted: the direct read below reports */
	hilo_diags_init(&tmp);
	hilo_module *im = oom ? NULL : hilo_parse_text(b.data, b.len, path, &tmp);
	oom |= tmp.oom;
	hilo_diags_free(&tmp);
	hilo_buf_free(&b);
	hilo_literal *l = NULL;
	if (im && im->entry && im->entry->root && hilo_instr_literal(im->entry->root) &&
	    !any_elided(hilo_instr_literal(im->entry->root)))
		l = copy_guarded(m, hilo_instr_literal(im->entry->root), &oom);
	if (im)
		hilo_module_destroy(im);
	if (oom) {
		hilo_diag_oom(d, path);
		return NULL;
	}
	if (!l) {
		/* report against the file itself */
		hilo_literal *direct = hilo_parse_literal(m, txt, len, path, d);
		if (direct && !any_elided(direct))
			l = direct;
		else if (direct)
			hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "input values are elided");
	}
	return l;
}
