/* Shapes: the intern table and its constructors, element counts,
 * comparison and XLA's printed form.
 *
 * The table (hilo/ir.h, "Shapes are immutable and interned") is one
 * open-addressed array of shape pointers, linear probing, at most half
 * full, doubled in place (hilo_heap_realloc keeps the block's place in
 * the arena's tracked heap, so a guard installed after the table was made
 * never frees it). A shape is one arena block: the struct, then its dims,
 * dyn flags, layout, minor_to_major, element pointers and layout tail.
 * The hash covers the key only (tuples hash their elements' hashes, not
 * their addresses), so it is the same in every table: shapes of two
 * tables with different hashes differ. This file is the only place that
 * writes a struct hilo_shape (tests/unit/shape_build.sh checks). */
#include "hilo/ir.h"
#include "support/hash.h"
#include "hilo/float.h"

#include <string.h>

struct hilo_shape_table {
	hilo_arena *a;
	hilo_shape **slots;     /* cap entries, NULL = empty */
	size_t cap, n;
};

enum { TABLE_MIN = 64 };

hilo_shape_table *hilo_shape_table_create(hilo_arena *a)
{
	hilo_shape_table *t = hilo_arena_alloc(a, sizeof *t);
	if (!t)
		return NULL;
	t->a = a;
	t->cap = TABLE_MIN;
	t->slots = hilo_heap_alloc(a, t->cap * sizeof *t->slots);
	return t->slots ? t : NULL;
}

size_t hilo_shape_table_count(const hilo_shape_table *t)
{
	return t->n;
}

static bool any_dyn(const hilo_shape *s)
{
	for (int k = 0; s->dyn && k < s->rank; k++)
		if (s->dyn[k] != HILO_DIM_STATIC)
			return true;
	return false;
}

/* The key's hash; a tuple's elements must carry theirs (interned). */
static uint32_t key_hash(const hilo_shape *s)
{
	uint64_t h = hilo_hash_combine(0x243f6a8885a308d3ull, (uint64_t)s->type | (uint64_t)s->buffer << 8 |
		(uint64_t)(s->layout != NULL) << 9);
	if (s->type == HILO_T_TUPLE) {
		h = hilo_hash_combine(h, (uint64_t)s->ntuple);
		for (int k = 0; k < s->ntuple; k++)
			h = hilo_hash_combine(h, s->elems[k]->hash);
	} else {
		h = hilo_hash_combine(h, (uint64_t)s->rank);
		for (int k = 0; k < s->rank; k++)
			h = hilo_hash_combine(h, (uint64_t)s->dims[k]);
		if (any_dyn(s))
			for (int k = 0; k < s->rank; k++)
				h = hilo_hash_combine(h, (uint64_t)s->dyn[k] + 1);
		if (s->layout) {
			h = hilo_hash_combine(h, (uint64_t)s->layout->n);
			for (int k = 0; k < s->layout->n; k++)
				h = hilo_hash_combine(h, (uint64_t)s->layout->minor_to_major[k]);
			for (const char *c = s->layout->tail; c && *c; c++)
				h = hilo_hash_combine(h, (unsigned char)*c);
		}
	}
	h ^= h >> 32;
	return (uint32_t)h;
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

static bool dims_equal(const hilo_shape *a, const hilo_shape *b)
{
	if (a->rank != b->rank)
		return false;
	for (int i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return false;
	return true;
}

static bool dyn_equal(const hilo_shape *a, const hilo_shape *b)
{
	for (int i = 0; i < a->rank; i++) {
		int da = a->dyn ? a->dyn[i] : 0, db = b->dyn ? b->dyn[i] : 0;
		if (da != db)
			return false;
	}
	return true;
}

/* Interned c against key k whose tuple elements are already interned in
 * the same table (compared by pointer). */
static bool key_equal(const hilo_shape *c, const hilo_shape *k)
{
	if (c->type != k->type || c->buffer != k->buffer)
		return false;
	if (c->type == HILO_T_TUPLE) {
		if (c->ntuple != k->ntuple)
			return false;
		for (int i = 0; i < c->ntuple; i++)
			if (c->elems[i] != k->elems[i])
				return false;
		return true;
	}
	return dims_equal(c, k) && dyn_equal(c, k) && layout_equal(c->layout, k->layout);
}

static bool grow(hilo_shape_table *t)
{
	size_t ncap = t->cap * 2;
	hilo_shape **old = hilo_heap_alloc(t->a, t->cap * sizeof *old);
	if (!old)
		return false;
	memcpy(old, t->slots, t->cap * sizeof *old);
	hilo_shape **ns = hilo_heap_realloc(t->a, t->slots, ncap * sizeof *ns);
	if (!ns) {
		hilo_heap_free(t->a, old);
		return false;
	}
	memset(ns, 0, ncap * sizeof *ns);
	for (size_t i = 0; i < t->cap; i++) {
		if (!old[i])
			continue;
		size_t j = old[i]->hash & (ncap - 1);
		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = old[i];
	}
	hilo_heap_free(t->a, old);
	t->slots = ns;
	t->cap = ncap;
	return true;
}

/* t's shape equal to key k (tuple elements already t's), made on a miss. */
static hilo_shape *intern_key(hilo_shape_table *t, const hilo_shape *k)
{
	if (!t)
		return NULL;
	uint32_t h = key_hash(k);
	size_t i = h & (t->cap - 1);
	for (hilo_shape *c; (c = t->slots[i]); i = (i + 1) & (t->cap - 1))
		if (c->hash == h && key_equal(c, k))
			return c;
	if ((t->n + 1) * 2 > t->cap) {
		if (!grow(t))
			return NULL;
		i = h & (t->cap - 1);
		while (t->slots[i])
			i = (i + 1) & (t->cap - 1);
	}
	bool tuple = k->type == HILO_T_TUPLE, dyn = !tuple && any_dyn(k);
	int rank = tuple ? 0 : k->rank, ln = !tuple && k->layout ? k->layout->n : 0;
	size_t tail = !tuple && k->layout && k->layout->tail ? strlen(k->layout->tail) + 1 : 0;
	size_t o_dims = (sizeof(hilo_shape) + 7) & ~(size_t)7;
	size_t o_lay = o_dims + (size_t)rank * sizeof(int64_t);
	size_t o_m2m = o_lay + (!tuple && k->layout ? sizeof(hilo_layout) : 0);
	size_t o_el = o_m2m + (size_t)ln * sizeof(int64_t);
	size_t o_dyn = o_el + (tuple ? (size_t)k->ntuple * sizeof(hilo_shape *) : 0);
	size_t o_tail = o_dyn + (dyn ? (size_t)rank : 0);
	unsigned char *blk = hilo_arena_alloc(t->a, o_tail + tail);
	if (!blk)
		return NULL;
	hilo_shape *s = (hilo_shape *)(void *)blk;
	s->type = k->type;
	s->buffer = k->buffer;
	s->hash = h;
	s->table = t;
	if (tuple) {
		s->ntuple = k->ntuple;
		s->elems = (hilo_shape **)(void *)(blk + o_el);
		if (k->ntuple)
			memcpy(s->elems, k->elems, (size_t)k->ntuple * sizeof *s->elems);
	} else {
		s->rank = rank;
		s->dims = (int64_t *)(void *)(blk + o_dims);
		if (rank)
			memcpy(s->dims, k->dims, (size_t)rank * sizeof(int64_t));
		if (dyn) {
			s->dyn = blk + o_dyn;
			memcpy(s->dyn, k->dyn, (size_t)rank);
		}
		if (k->layout) {
			hilo_layout *l = (hilo_layout *)(void *)(blk + o_lay);
			l->n = ln;
			l->minor_to_major = (int64_t *)(void *)(blk + o_m2m);
			if (ln)
				memcpy(l->minor_to_major, k->layout->minor_to_major, (size_t)ln * sizeof(int64_t));
			if (tail) {
				memcpy(blk + o_tail, k->layout->tail, tail);
				l->tail = (const char *)(blk + o_tail);
			}
			s->layout = l;
		}
	}
	t->slots[i] = s;
	t->n++;
	return s;
}

/* A key on the stack: the constructors fill one and intern it. */
static hilo_shape key_array(hilo_ptype type, int rank, const int64_t *dims, const uint8_t *dyn,
	const hilo_layout *layout)
{
	hilo_shape k;
	memset(&k, 0, sizeof k);
	k.type = type;
	k.rank = rank;
	k.dims = (int64_t *)dims;
	k.dyn = (uint8_t *)dyn;
	k.layout = (hilo_layout *)layout;
	return k;
}

hilo_shape *hilo_shape_array_layout(hilo_shape_table *t, hilo_ptype type, int rank,
	const int64_t *dims, const uint8_t *dyn, const hilo_layout *layout)
{
	if (type == HILO_T_TUPLE || rank < 0)
		return NULL;
	hilo_shape k = key_array(type, rank, dims, dyn, layout);
	return intern_key(t, &k);
}

hilo_shape *hilo_shape_array(hilo_shape_table *t, hilo_ptype type, int rank, const int64_t *dims,
	const uint8_t *dyn)
{
	return hilo_shape_array_layout(t, type, rank, dims, dyn, NULL);
}

hilo_shape *hilo_shape_array_default(hilo_shape_table *t, hilo_ptype type, int rank,
	const int64_t *dims, const uint8_t *dyn)
{
	if (rank <= 0 || rank > HILO_MAX_RANK)
		return hilo_shape_array_layout(t, type, rank, dims, dyn, NULL);
	int64_t m2m[HILO_MAX_RANK];
	for (int k = 0; k < rank; k++)
		m2m[k] = rank - 1 - k;
	hilo_layout l = {rank, m2m, NULL};
	return hilo_shape_array_layout(t, type, rank, dims, dyn, &l);
}

hilo_shape *hilo_shape_scalar(hilo_shape_table *t, hilo_ptype type)
{
	return hilo_shape_array_layout(t, type, 0, NULL, NULL, NULL);
}

/* A tuple key over elems (interned into t first), with the buffer flag. */
static hilo_shape *tuple_of(hilo_shape_table *t, int n, const hilo_shape *const *elems,
	bool buffer)
{
	if (!t || n < 0)
		return NULL;
	hilo_shape *tmp[16], **el = tmp;
	if (n > 16 && !(el = hilo_heap_alloc(t->a, (size_t)n * sizeof *el)))
		return NULL;
	hilo_shape *r = NULL;
	int k = 0;
	for (; k < n; k++)
		if (!(el[k] = hilo_shape_intern(t, elems[k])))
			break;
	if (k == n) {
		hilo_shape key;
		memset(&key, 0, sizeof key);
		key.type = HILO_T_TUPLE;
		key.ntuple = n;
		key.elems = el;
		key.buffer = buffer;
		r = intern_key(t, &key);
	}
	if (el != tmp)
		hilo_heap_free(t->a, el);
	return r;
}

hilo_shape *hilo_shape_tuple(hilo_shape_table *t, int n, hilo_shape *const *elems)
{
	return tuple_of(t, n, (const hilo_shape *const *)elems, false);
}

hilo_shape *hilo_shape_intern(hilo_shape_table *t, const hilo_shape *s)
{
	if (!s || !t)
		return NULL;
	if (s->table == t)
		return (hilo_shape *)s;
	if (s->type == HILO_T_TUPLE)
		return tuple_of(t, s->ntuple, (const hilo_shape *const *)s->elems, s->buffer);
	hilo_shape k = *s;
	k.ntuple = 0;
	k.elems = NULL;
	return intern_key(t, &k);
}

hilo_shape *hilo_shape_with_layout(hilo_shape_table *t, const hilo_shape *s, const hilo_layout *layout)
{
	if (s->type == HILO_T_TUPLE)
		return hilo_shape_intern(t, s);
	hilo_shape k = key_array(s->type, s->rank, s->dims, s->dyn, layout);
	k.buffer = s->buffer;
	return intern_key(t, &k);
}

hilo_shape *hilo_shape_retype(hilo_shape_table *t, const hilo_shape *s, hilo_ptype type)
{
	if (s->type == HILO_T_TUPLE || type == HILO_T_TUPLE)
		return NULL;
	hilo_shape k = key_array(type, s->rank, s->dims, s->dyn, s->layout);
	return intern_key(t, &k);
}

hilo_shape *hilo_shape_with_dim(hilo_shape_table *t, const hilo_shape *s, int d, int64_t n)
{
	if (s->type == HILO_T_TUPLE || d < 0 || d >= s->rank || s->rank > HILO_MAX_RANK)
		return NULL;
	int64_t dims[HILO_MAX_RANK];
	memcpy(dims, s->dims, (size_t)s->rank * sizeof *dims);
	dims[d] = n;
	hilo_shape k = key_array(s->type, s->rank, dims, s->dyn, s->layout);
	k.buffer = s->buffer;
	return intern_key(t, &k);
}

hilo_shape *hilo_shape_with_dyn(hilo_shape_table *t, const hilo_shape *s, const uint8_t *dyn)
{
	if (s->type == HILO_T_TUPLE)
		return NULL;
	hilo_shape k = key_array(s->type, s->rank, s->dims, dyn, s->layout);
	k.buffer = s->buffer;
	return intern_key(t, &k);
}

hilo_shape *hilo_shape_with_buffer(hilo_shape_table *t, const hilo_shape *s, bool buffer)
{
	if (s->type == HILO_T_TUPLE)
		return tuple_of(t, s->ntuple, (const hilo_shape *const *)s->elems, buffer);
	hilo_shape k = *s;
	k.buffer = buffer;
	return intern_key(t, &k);
}

/* s's elements with element `drop` left out (-1: none) and e put before
 * index `at` of the result (NULL: none). */
static hilo_shape *tuple_edit(hilo_shape_table *t, const hilo_shape *s, int drop, int at,
	const hilo_shape *e)
{
	if (!t || s->type != HILO_T_TUPLE)
		return NULL;
	int n = s->ntuple - (drop >= 0) + (e != NULL);
	const hilo_shape *tmp[16], **el = tmp;
	if (n > 16 && !(el = hilo_heap_alloc(t->a, (size_t)n * sizeof *el)))
		return NULL;
	int o = 0;
	for (int k = 0; k < s->ntuple; k++) {
		if (e && o == at)
			el[o++] = e;
		if (k != drop)
			el[o++] = s->elems[k];
	}
	if (e && o == at)
		el[o++] = e;
	hilo_shape *r = tuple_of(t, o, el, s->buffer);
	if (el != tmp)
		hilo_heap_free(t->a, (void *)el);
	return r;
}

hilo_shape *hilo_shape_tuple_set(hilo_shape_table *t, const hilo_shape *s, int k, const hilo_shape *e)
{
	if (s->type != HILO_T_TUPLE || k < 0 || k >= s->ntuple || !e)
		return NULL;
	return tuple_edit(t, s, k, k, e);
}

hilo_shape *hilo_shape_tuple_insert(hilo_shape_table *t, const hilo_shape *s, int k,
	const hilo_shape *e)
{
	if (s->type != HILO_T_TUPLE || k < 0 || k > s->ntuple || !e)
		return NULL;
	return tuple_edit(t, s, -1, k, e);
}

hilo_shape *hilo_shape_tuple_remove(hilo_shape_table *t, const hilo_shape *s, int k)
{
	if (s->type != HILO_T_TUPLE || k < 0 || k >= s->ntuple)
		return NULL;
	return tuple_edit(t, s, k, -1, NULL);
}

/* ---- queries ---- */

int64_t hilo_dims_elements(int rank, const int64_t *dims)
{
	int64_t n = 1;
	for (int i = 0; i < rank; i++) {
		int64_t d = dims[i];
		if (d < 0)
			return -1;
		if (d && n > ((int64_t)1 << 62) / d)
			return -1;
		n *= d;
	}
	return n;
}

bool hilo_shape_same_dims(const hilo_shape *a, const hilo_shape *b)
{
	if (a->rank != b->rank)
		return false;
	for (int k = 0; k < a->rank; k++)
		if (a->dims[k] != b->dims[k])
			return false;
	return true;
}

int64_t hilo_shape_elements(const hilo_shape *s)
{
	return hilo_dims_elements(s->rank, s->dims);
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
	return dims_equal(a, b);
}

bool hilo_shape_equal(const hilo_shape *a, const hilo_shape *b)
{
	if (a == b)
		return true;
	if (a->table && b->table && (a->table == b->table || a->hash != b->hash))
		return false; /* one table holds one object per shape */
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
	return dims_equal(a, b) && dyn_equal(a, b) && layout_equal(a->layout, b->layout);
}

static void print_shape(hilo_buf *b, const hilo_shape *s, bool layouts, bool buffer);

void hilo_shape_print(hilo_buf *b, const hilo_shape *s)
{
	print_shape(b, s, true, s->buffer);
}

void hilo_shape_print_human(hilo_buf *b, const hilo_shape *s)
{
	print_shape(b, s, false, s->buffer);
}

static void print_shape(hilo_buf *b, const hilo_shape *s, bool layouts, bool buffer)
{
	if (buffer) {
		hilo_buf_put(b, "b(", 2);
		print_shape(b, s, layouts, false);
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
			print_shape(b, s->elems[i], layouts, s->elems[i]->buffer);
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
	/* a scalar's empty layout (every scalar of an XLA-written proto has
	 * one) prints as nothing, as XLA prints it: "f32[]{}" is read by
	 * neither parser */
	if (s->layout && layouts && !(s->rank == 0 && s->layout->n == 0 && !s->layout->tail)) {
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
	size_t at = hilo_literal_slot(l, k);
	if (n < 0 || (uint64_t)k >= (uint64_t)n || l->nbytes / w <= at)
		return false;
	*out = hilo_elem_get_i64(t, l->data, at);
	return true;
}

bool hilo_instr_const_int_at(const hilo_instr *i, size_t k, int64_t *out)
{
	return i && i->op == HILO_OP_CONSTANT && hilo_literal_int_at(hilo_instr_literal(i), k, out);
}
