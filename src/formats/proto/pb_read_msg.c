/* HloModuleProto reader, value messages (see pb_read.h): ShapeProto with
 * its LayoutProto, LiteralProto and OpMetadata decoded from the input
 * bytes straight into the module arena, and the helpers for repeated,
 * unknown and cold sub-message fields. Repeated scalars are accepted
 * packed and unpacked; a count is bounded by the bytes that carry it. */
#include "pb_read.h"
#include "ir/literal.h"
#include "support/fmt.h"
#include "support/strhash.h"

const char *pbr_what_of(reader *R, const char *what)
{
	if (what)
		return what;
	snprintf(R->what, sizeof R->what, "instruction %zu of computation '%s'", R->what_k,
		R->what_comp ? R->what_comp : "");
	return R->what;
}

void pbr_rerr(reader *R, const char *fmt, ...)
{
	if (R->failed)
		return;
	R->failed = true;
	va_list ap;
	va_start(ap, fmt);
	hilo_diag_addv(R->d, HILO_SEV_ERROR, R->file, 0, 0, NULL, 0, NULL, fmt, ap);
	va_end(ap);
}

void pbr_werr(reader *R, const uint8_t *at, const char *what)
{
	pbr_rerr(R, "not a valid binary %s: %s at byte %zu", R->kind, what, (size_t)(at - R->base));
}

void *pbr_ralloc(reader *R, size_t n)
{
	void *p = hilo_arena_alloc(R->m->arena, n ? n : 1);
	if (!p)
		pbr_rerr(R, "out of memory");
	return p;
}

const char *pbr_rintern(reader *R, const char *s)
{
	return hilo_intern_cstr(R->m->strings, s ? s : "");
}

/* Arena arrays that grow by appending: the capacity is a function of the
 * length (0, then powers of two from 4), so no capacity is stored. */
static size_t capof(size_t n)
{
	if (!n)
		return 0;
	size_t c = 4;
	while (c < n)
		c *= 2;
	return c;
}

void *pbr_grow_to(reader *R, void *old, size_t n, size_t add, size_t sz)
{
	if (old && n + add <= capof(n))
		return old;
	if (add > ((size_t)1 << 40) / sz) {
		pbr_rerr(R, "out of memory");
		return NULL;
	}
	void *p = hilo_arena_grow(R->m->arena, old, n, capof(n + add), sz);
	if (!p)
		pbr_rerr(R, "out of memory");
	return p;
}

/* A repeated varint field (packed or not) appended to *arr: es 8 (int64,
 * uint64), 4 (int32/uint32: the low 32 bits) or 1 (bool). */
bool pbr_rep_varint(reader *R, const field *f, size_t es, void **arr, size_t *n)
{
	if (f->wt == PB_VARINT) {
		uint8_t *a = pbr_grow_to(R, *arr, *n, 1, es);
		if (!a)
			return false;
		if (es == 8)
			memcpy(a + 8 * *n, &f->v, 8);
		else if (es == 4) {
			uint32_t x = (uint32_t)f->v;
			memcpy(a + 4 * *n, &x, 4);
		} else
			a[*n] = f->v != 0;
		*arr = a;
		(*n)++;
		return true;
	}
	if (!pbr_want(R, f, PB_LEN))
		return false;
	size_t cnt = 0;
	for (size_t k = 0; k < f->s.n; k++)
		cnt += f->s.p[k] < 0x80;
	if (!cnt)
		return f->s.n == 0 || (pbr_werr(R, f->s.p, "truncated packed varint"), false);
	uint8_t *a = pbr_grow_to(R, *arr, *n, cnt, es);
	if (!a)
		return false;
	pr_cur c = {f->s.p, f->s.p + f->s.n};
	size_t k = *n;
	while (c.p < c.end) {
		uint64_t v;
		const uint8_t *at = c.p;
		if (!pr_varint(&c, &v) || k >= *n + cnt) {
			pbr_werr(R, at, "truncated packed varint");
			return false;
		}
		if (es == 8)
			memcpy(a + 8 * k, &v, 8);
		else if (es == 4) {
			uint32_t x = (uint32_t)v;
			memcpy(a + 4 * k, &x, 4);
		} else
			a[k] = v != 0;
		k++;
	}
	*arr = a;
	*n = k;
	return true;
}

/* pbr_rep_varint into a scratch vector (heap of the module arena, reused). */
bool pbr_rep_varint_sv(reader *R, const field *f, struct svec *v)
{
	size_t add = f->wt == PB_VARINT ? 1 : f->s.n;
	if (v->n + add > v->cap) {
		size_t cap = v->cap ? v->cap : 16;
		while (cap < v->n + add)
			cap *= 2;
		void *np = hilo_heap_realloc(R->m->arena, v->p, cap * 8);
		if (!np) {
			pbr_rerr(R, "out of memory");
			return false;
		}
		v->p = np;
		v->cap = cap;
	}
	if (!add) /* an empty packed field: nothing to add (and maybe no vector yet) */
		return pbr_want(R, f, PB_LEN);
	int64_t *dst = (int64_t *)v->p + v->n;
	if (f->wt == PB_VARINT) {
		*dst = (int64_t)f->v;
		v->n++;
		return true;
	}
	if (!pbr_want(R, f, PB_LEN))
		return false;
	pr_cur c = {f->s.p, f->s.p + f->s.n};
	size_t k = 0;
	while (c.p < c.end) {
		uint64_t x;
		const uint8_t *at = c.p;
		if (!pr_varint(&c, &x)) {
			pbr_werr(R, at, "truncated packed varint");
			return false;
		}
		dst[k++] = (int64_t)x;
	}
	v->n += k;
	return true;
}

bool pbr_sv_push_slice(reader *R, struct svec *v, slice s)
{
	if (v->n + 1 > v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 16;
		void *np = hilo_heap_realloc(R->m->arena, v->p, cap * sizeof(slice));
		if (!np) {
			pbr_rerr(R, "out of memory");
			return false;
		}
		v->p = np;
		v->cap = cap;
	}
	((slice *)v->p)[v->n++] = s;
	return true;
}

/* A repeated fixed32 (es 4) or fixed64 (es 8) field, packed or not. */
bool pbr_rep_fixed(reader *R, const field *f, size_t es, void **arr, size_t *n)
{
	const uint8_t *src;
	size_t cnt;
	if (f->wt == (es == 4 ? PB_I32 : PB_I64)) {
		src = f->val;
		cnt = 1;
	} else {
		if (!pbr_want(R, f, PB_LEN))
			return false;
		if (f->s.n % es) {
			pbr_werr(R, f->s.p, "packed fixed-width field with a partial value");
			return false;
		}
		src = f->s.p;
		cnt = f->s.n / es;
	}
	if (!cnt)
		return true;
	uint8_t *a = pbr_grow_to(R, *arr, *n, cnt, es);
	if (!a)
		return false;
	memcpy(a + es * *n, src, cnt * es);
	*arr = a;
	*n += cnt;
	return true;
}

bool pbr_rep_slice(reader *R, const field *f, slice **arr, size_t *n)
{
	if (!pbr_want(R, f, PB_LEN))
		return false;
	slice *a = pbr_grow_to(R, *arr, *n, 1, sizeof *a);
	if (!a)
		return false;
	a[(*n)++] = f->s;
	*arr = a;
	return true;
}

/* A string field: its bytes up to the first NUL (protobuf-c's C strings). */
char *pbr_sdup(reader *R, slice s)
{
	char *r = hilo_arena_strndup(R->m->arena, s.n ? (const char *)s.p : "", s.n);
	if (!r)
		pbr_rerr(R, "out of memory");
	return r;
}

/* An unknown field of a kept message, copied into the arena. */
bool pbr_keep_field(reader *R, const field *f, pb_unknown *u)
{
	ProtobufCMessageUnknownField *a = pbr_grow_to(R, u->f, u->n, 1, sizeof *a);
	if (!a)
		return false;
	u->f = a;
	ProtobufCMessageUnknownField *x = &a[u->n++];
	x->tag = f->num;
	x->wire_type = (ProtobufCWireType)f->wt;
	x->len = (size_t)(f->end - f->val);
	x->data = pbr_ralloc(R, x->len);
	if (!x->data)
		return false;
	memcpy(x->data, f->val, x->len);
	return true;
}

/* Fields of desc hilo does not read are skipped; undeclared ones kept. */
bool pbr_other_field(reader *R, const field *f, const ProtobufCMessageDescriptor *desc,
	pb_unknown *u)
{
	if (protobuf_c_message_descriptor_get_field(desc, f->num))
		return true;
	return pbr_keep_field(R, f, u);
}

/* A cold sub-message: decoded directly when pb_fast_unpack can, else
 * through protobuf-c (nesting bounded first). */
void *pbr_unpack_sub(reader *R, const field *f, const ProtobufCMessageDescriptor *desc, int depth)
{
	if (!pbr_want(R, f, PB_LEN))
		return NULL;
	void *fast = pb_fast_unpack(R->m->arena, desc, f->s.p, f->s.n, MAX_DEPTH - depth);
	if (fast)
		return fast;
	const char *e = pb_check_wire(f->s.p, f->s.n, desc, MAX_DEPTH - depth);
	if (e) {
		pbr_werr(R, f->at, e);
		return NULL;
	}
	void *m = protobuf_c_message_unpack(desc, &R->pa, f->s.n, f->s.p);
	if (!m)
		pbr_werr(R, f->at, "wrong field types or truncated data in a sub-message");
	return m;
}
/* ---- shapes ---- */

static hilo_shape *shape_decode(reader *R, const slice *sp, int depth, const char *what);

/* A shape is a function of its ShapeProto bytes alone (the interned
 * result, or an error), and a module repeats a few hundred distinct
 * shapes tens of thousands of times: top-level shapes are looked up by
 * their bytes (which outlive the read) before they are decoded. Nested
 * ones are not cached, so the depth bound sees every level. */
hilo_shape *pbr_shape_from(reader *R, const slice *sp, int depth, const char *what)
{
	if (!sp || depth)
		return shape_decode(R, sp, depth, what);
	const char *key = (const char *)sp->p;
	uint32_t h = hilo_str_hash(key, sp->n);
	hilo_shape *s = hilo_bytemap_get(&R->shapes, key, sp->n, h);
	if (s)
		return s;
	s = shape_decode(R, sp, 0, what);
	if (s)
		hilo_bytemap_put(&R->shapes, key, sp->n, h, s); /* a cache: false is no error */
	return s;
}

static hilo_shape *shape_decode(reader *R, const slice *sp, int depth, const char *what)
{
	if (!sp) {
		pbr_rerr(R, "%s has no shape", WHAT);
		return NULL;
	}
	if (depth > MAX_DEPTH) {
		pbr_rerr(R, "%s: tuple shape nested too deeply", WHAT);
		return NULL;
	}
	int etype = 0;
	int64_t *dims = NULL;
	size_t ndims = 0, ndyn = 0, ntup = 0;
	uint8_t *dynf = NULL;
	slice *tup = NULL, lay = {0};
	bool has_layout = false, buffer = false, implied = false;
	pr_cur c = {sp->p, sp->p + sp->n};
	field f;
	while (pbr_next_field(R, &c, &f)) {
		switch (f.num) {
		case 2:
			if (!pbr_want(R, &f, PB_VARINT))
				return NULL;
			etype = (int32_t)f.v;
			break;
		case 3:
			if (!pbr_rep_varint(R, &f, 8, (void **)&dims, &ndims))
				return NULL;
			break;
		case 4:
			if (!pbr_rep_slice(R, &f, &tup, &ntup))
				return NULL;
			break;
		case 5:
			if (!pbr_want(R, &f, PB_LEN))
				return NULL;
			has_layout = true;
			lay = f.s;
			break;
		case 6:
			if (!pbr_rep_varint(R, &f, 1, (void **)&dynf, &ndyn))
				return NULL;
			break;
		case 1000:
			if (!pbr_want(R, &f, PB_VARINT))
				return NULL;
			buffer = f.v != 0;
			break;
		case 1001: /* hilo wrote the default layout the text left out */
			if (!pbr_want(R, &f, PB_VARINT))
				return NULL;
			implied = f.v != 0;
			break;
		default:
			break;
		}
	}
	if (R->failed)
		return NULL;
	hilo_shape_table *st = R->m->shapes;
	hilo_ptype type = pb_ptype_from_xla(etype);
	if (type == HILO_T_INVALID) {
		pbr_rerr(R, "%s: unknown element type %d", WHAT, etype);
		return NULL;
	}
	if (type == HILO_T_TUPLE) {
		if (ndims) {
			pbr_rerr(R, "%s: a tuple shape has dimensions", WHAT);
			return NULL;
		}
		if (ntup > 1000000) {
			pbr_rerr(R, "%s: tuple too large", WHAT);
			return NULL;
		}
		hilo_shape **el = hilo_heap_alloc(R->m->arena, (ntup + 1) * sizeof *el);
		if (!el) {
			pbr_rerr(R, "out of memory");
			return NULL;
		}
		hilo_shape *s = NULL;
		size_t k = 0;
		while (k < ntup && (el[k] = shape_decode(R, &tup[k], depth + 1, what)))
			k++;
		if (k == ntup) {
			s = hilo_shape_tuple(st, (int)k, el);
			if (s && buffer)
				s = hilo_shape_with_buffer(st, s, true);
			if (!s)
				pbr_rerr(R, "out of memory");
		}
		hilo_heap_free(R->m->arena, el);
		return s;
	}
	if (ntup) {
		pbr_rerr(R, "%s: an array shape has tuple elements", WHAT);
		return NULL;
	}
	if (ndims && (type == HILO_T_TOKEN || type == HILO_T_OPAQUE)) {
		pbr_rerr(R, "%s: %s shapes have no dimensions, this one has %zu", WHAT, hilo_ptype_name(type), ndims);
		return NULL;
	}
	if (ndims > HILO_MAX_RANK) {
		/* as the text reader: every rank-indexed table of the IR (the
		 * printers', the writer's implied layout) holds HILO_MAX_RANK */
		pbr_rerr(R, "%s: rank %zu is too large (more than %d dimensions)", WHAT, ndims, HILO_MAX_RANK);
		return NULL;
	}
	if (ndyn && ndyn != ndims) {
		pbr_rerr(R, "%s: %zu dynamic-dimension flags for rank %zu", WHAT, ndyn, ndims);
		return NULL;
	}
	bool any_dyn = false;
	for (size_t k = 0; k < ndyn; k++)
		any_dyn |= dynf[k] != 0;
	uint8_t dynbuf[HILO_MAX_RANK], *dyn = NULL;
	if (any_dyn) {
		dyn = dynbuf; /* ndims <= HILO_MAX_RANK, above */
		memset(dyn, 0, ndims);
	}
	bool unb = false;
	for (size_t k = 0; k < ndims; k++) {
		bool d = any_dyn && dynf[k];
		if (d && dims[k] == INT64_MIN) {
			dyn[k] = HILO_DIM_UNBOUNDED;
			unb = true;
			continue;
		}
		if (dims[k] < 0) {
			pbr_rerr(R, "%s: negative dimension size %lld", WHAT, (long long)dims[k]);
			return NULL;
		}
		if (d)
			dyn[k] = HILO_DIM_BOUNDED;
	}
	int rank = (int)ndims;
	int64_t ne = hilo_dims_elements(rank, dims);
	int eb = hilo_ptype_bytes(type);
	if (ne < 0 && rank) {
		if (!unb) {
			pbr_rerr(R, "%s: element count overflows", WHAT);
			return NULL;
		}
	} else if (rank && (ne < 0 || (eb > 1 && ne > INT64_MAX / eb))) {
		pbr_rerr(R, "%s: shape size in bytes overflows int64", WHAT);
		return NULL;
	}
	hilo_layout layout, *lp = NULL;
	if (implied)
		has_layout = false;
	if (has_layout) {
		int64_t *m2m = NULL;
		size_t nm = 0;
		slice tail = {0};
		/* XLA's tiles (6), element size (7), memory space (8) and
		 * tail padding (16): the tail text when hilo's (1000) is absent */
		pbx_layout_tail lt;
		memset(&lt, 0, sizeof lt);
		bool typed = false, fits = true;
		pr_cur lc = {lay.p, lay.p + lay.n};
		while (pbr_next_field(R, &lc, &f)) {
			if (f.num == 1 && !pbr_rep_varint(R, &f, 8, (void **)&m2m, &nm))
				return NULL;
			if (f.num == 1000 && !pbr_str_field(R, &f, &tail))
				return NULL;
			if (f.num == 6) {
				int64_t *td = NULL;
				size_t ntd = 0;
				pr_cur tc = {f.s.p, f.s.p + f.s.n};
				field tf;
				if (!pbr_want(R, &f, PB_LEN))
					return NULL;
				while (pbr_next_field(R, &tc, &tf))
					if (tf.num == 1 && !pbr_rep_varint(R, &tf, 8, (void **)&td, &ntd))
						return NULL;
				size_t used = 0;
				for (size_t q = 0; q < lt.ntiles; q++)
					used += lt.tile_lens[q];
				if (lt.ntiles == PBX_MAX_TILES || used + ntd > PBX_MAX_TILE_DIMS) {
					fits = false;
				} else {
					if (ntd)
						memcpy(lt.tile_dims + used, td, ntd * sizeof *td);
					lt.tile_lens[lt.ntiles++] = ntd;
				}
				typed = true;
			}
			if (f.num == 7 || f.num == 8 || f.num == 16) {
				if (!pbr_want(R, &f, PB_VARINT))
					return NULL;
				*(f.num == 7 ? &lt.element_bits : f.num == 8 ? &lt.memory_space : &lt.tail_padding) =
					(int64_t)f.v;
				typed = true;
			}
		}
		if (R->failed)
			return NULL;
		const char *typed_tail = NULL;
		if (!tail.n && typed && fits) {
			hilo_buf lb;
			hilo_buf_init_in(&lb, R->m->arena);
			pbx_layout_tail_render(&lb, &lt);
			typed_tail = lb.oom ? NULL : hilo_intern(R->m->strings, lb.data ? lb.data : "", lb.len);
			hilo_buf_free(&lb);
			if (!typed_tail) {
				pbr_rerr(R, "out of memory");
				return NULL;
			}
			if (!*typed_tail)
				typed_tail = NULL; /* all defaults: no tail */
		}
		if (nm != ndims && !(nm == 0 && (tail.n || typed_tail))) {
			pbr_rerr(R, "%s: layout has %zu entries for rank %zu", WHAT, nm, ndims);
			return NULL;
		}
		for (size_t k = 0; k < nm; k++)
			if (m2m[k] < 0 || (size_t)m2m[k] >= ndims) {
				pbr_rerr(R, "%s: layout names dimension %lld of a rank-%zu shape", WHAT,
					(long long)m2m[k], ndims);
				return NULL;
			}
		layout.n = (int)nm;
		layout.minor_to_major = m2m;
		layout.tail = tail.n ? pbr_sintern(R, tail) : typed_tail;
		/* a scalar's empty layout: XLA prints none (its text gives no {}) */
		lp = R->keep && nm == 0 && ndims == 0 && !layout.tail ? NULL : &layout;
	}
	hilo_shape *s = hilo_shape_array_layout(st, type, rank, dims, dyn, lp);
	if (s && buffer)
		s = hilo_shape_with_buffer(st, s, true);
	if (!s)
		pbr_rerr(R, "out of memory");
	return s;
}

/* ---- literals ---- */

hilo_literal *pbr_literal_from(reader *R, slice lp, hilo_shape *shape, int depth,
	const char *what)
{
	if (depth > MAX_DEPTH) {
		pbr_rerr(R, "%s: literal nested too deeply", WHAT);
		return NULL;
	}
	char enc;
	uint32_t vf = shape->type == HILO_T_TUPLE ? 0 : pb_literal_field(shape->type, &enc);
	size_t es = (size_t)hilo_ptype_bytes(shape->type);
	/* complex values travel as two floats each */
	size_t wes = shape->type == HILO_T_C64 ? 4 : shape->type == HILO_T_C128 ? 8 : es;
	bool has_shape = false, elided = false, pred_int = false, splat = false, scalar_text = false;
	slice sh = {0}, bytes = {0}, *tup = NULL;
	size_t ntup = 0, nv = 0;
	void *vals = NULL;
	pr_cur c = {lp.p, lp.p + lp.n};
	field f;
	while (pbr_next_field(R, &c, &f)) {
		if (f.num == vf && vf) {
			bool ok = enc == 'b' ? pbr_want(R, &f, PB_LEN) && (bytes = f.s, true)
			        : enc == 'v' ? pbr_rep_varint(R, &f, shape->type == HILO_T_PRED ? 1 : es, &vals, &nv)
			        : pbr_rep_fixed(R, &f, wes, &vals, &nv);
			if (!ok)
				return NULL;
			continue;
		}
		switch (f.num) {
		case 1:
			if (!pbr_want(R, &f, PB_LEN))
				return NULL;
			has_shape = true;
			sh = f.s;
			break;
		case 10:
			if (!pbr_rep_slice(R, &f, &tup, &ntup))
				return NULL;
			break;
		case 1003: case 1004: case 1005: case 1006:
			if (!pbr_want(R, &f, PB_VARINT))
				return NULL;
			*(f.num == 1003 ? &elided : f.num == 1004 ? &pred_int : f.num == 1005 ? &splat : &scalar_text) =
				f.v != 0;
			break;
		default:
			break;
		}
	}
	if (R->failed)
		return NULL;
	hilo_literal *l = pbr_ralloc(R, sizeof *l);
	if (!l)
		return NULL;
	if (has_shape) {
		hilo_shape *ls = pbr_shape_from(R, &sh, 0, what);
		if (!ls)
			return NULL;
		if (!hilo_shape_compatible(ls, shape)) {
			pbr_rerr(R, "%s: literal shape does not match the instruction's", WHAT);
			return NULL;
		}
	}
	l->shape = shape;
	l->pred_as_int = pred_int;
	l->splat = splat;
	l->scalar_text = scalar_text;
	if (elided) {
		l->elided = true;
		return l;
	}
	if (shape->type == HILO_T_TUPLE) {
		if (ntup != (size_t)shape->ntuple) {
			pbr_rerr(R, "%s: tuple literal has %zu elements, the shape %d", WHAT, ntup, shape->ntuple);
			return NULL;
		}
		l->ntuple = shape->ntuple;
		l->elems = pbr_ralloc(R, (size_t)shape->ntuple * sizeof *l->elems);
		if (!l->elems)
			return NULL;
		for (int k = 0; k < shape->ntuple; k++)
			if (!(l->elems[k] = pbr_literal_from(R, tup[k], shape->elems[k], depth + 1, what)))
				return NULL;
		return l;
	}
	if (shape->type == HILO_T_TOKEN || shape->type == HILO_T_OPAQUE)
		return l;
	int64_t count = hilo_shape_elements(shape);
	if (count < 0) {
		pbr_rerr(R, "%s: literal of a dynamic or overflowing shape", WHAT);
		return NULL;
	}
	if (es && (uint64_t)count > (uint64_t)INT64_MAX / es) {
		pbr_rerr(R, "%s: literal size in bytes overflows int64", WHAT);
		return NULL;
	}
	if (!count && shape->rank > 1) {
		/* no elements, but its text is a {} for every index before the
		 * first zero dimension (f32[2^60,0] prints 2^60 of them): a few
		 * bytes must not ask for that (PB_MAX_EMPTY_GROUPS) */
		uint64_t groups = 1;
		for (int d = 0; d < shape->rank && shape->dims[d] && groups <= PB_MAX_EMPTY_GROUPS; d++)
			groups = (uint64_t)shape->dims[d] > PB_MAX_EMPTY_GROUPS ? PB_MAX_EMPTY_GROUPS + 1
			                                                        : groups * (uint64_t)shape->dims[d];
		if (groups > PB_MAX_EMPTY_GROUPS) {
			pbr_rerr(R, "%s: literal of %s has no elements but more than %d empty groups to print", WHAT,
				hilo_shape_str(R->m->arena, shape), PB_MAX_EMPTY_GROUPS);
			return NULL;
		}
	}
	size_t want_n = (size_t)count * es;
	const void *data = NULL;
	size_t have = 0; /* in bytes */
	if (!vf) {
		/* no value field for this type */
	} else if (enc == 'b') {
		have = bytes.n;
		if (have == want_n && have) {
			void *copy = pbr_ralloc(R, have);
			if (!copy)
				return NULL;
			memcpy(copy, bytes.p, have);
			data = copy;
		}
	} else if (shape->type == HILO_T_PRED) {
		if (nv == (size_t)count) {
			data = vals;
			have = nv;
		}
	} else {
		data = vals;
		have = nv * (enc == 'f' ? wes : es);
	}
	if (have != want_n) {
		pbr_rerr(R, "%s: literal has %zu bytes of values, its shape needs %zu", WHAT, have, want_n);
		return NULL;
	}
	l->nbytes = want_n;
	l->data = want_n ? (void *)data : pbr_ralloc(R, 1);
	/* the values are in the order of the literal's layout; the IR's
	 * row-major */
	if (want_n && es && hilo_shape_layout_reorders(shape)) {
		void *rm = pbr_ralloc(R, want_n);
		if (!rm || !hilo_layout_permute(shape, data, rm, es, false))
			return NULL;
		l->data = rm;
	}
	if (es == 1 && hilo_ptype_bits(shape->type) < 8 && shape->type != HILO_T_PRED) {
		/* sub-byte values: one per byte, must fit the type */
		int bits = hilo_ptype_bits(shape->type);
		uint8_t *w = l->data; /* the reader's copy */
		bool sgn = hilo_ptype_is_signed_int(shape->type);
		for (size_t k = 0; k < want_n; k++) {
			uint8_t v = w[k];
			/* XLA writes a signed value's low bits (s4 -8 as 8): sign-extended here */
			if (sgn && v >> bits == 0 && v >> (bits - 1))
				w[k] = v = (uint8_t)(v | (0xffu << bits));
			bool ok = sgn
				? ((int8_t)v >= -(1 << (bits - 1)) && (int8_t)v < (1 << (bits - 1)))
				: v < (1u << bits);
			if (!ok) {
				pbr_rerr(R, "%s: literal value %u does not fit %s", WHAT, v,
					hilo_ptype_name(shape->type));
				return NULL;
			}
		}
	}
	if (l->splat) {
		/* hilo's flag 1005 (an array written as one scalar): a LiteralProto
		 * holds every element, XLA's reader needs them; the IR keeps one
		 * when they are all equal (else the flag is wrong: dense) */
		size_t k = es;
		while (k < want_n && !memcmp((const char *)l->data + k, l->data, es))
			k += es;
		if (shape->rank > 0 && want_n && es && k >= want_n)
			l->nbytes = es;
		else
			l->splat = false;
	}
	return l;
}

void pbr_read_metadata(reader *R, hilo_instr *i, slice ms)
{
	/* pb_md_defs order: op_type op_name source_file source_line
	 * source_end_line source_column source_end_column profile_type
	 * deduplicated_name scheduling_name stack_frame_id
	 * size_of_generated_code_in_bytes size_of_memory_working_set_in_bytes */
	enum { ND = 13 };
	slice sv[ND];
	int64_t iv[ND];
	unsigned seen = 0; /* bit k: sv[k] or iv[k] was read */
	slice *ents = NULL;
	size_t nents = 0;
	pr_cur c = {ms.p, ms.p + ms.n};
	field f;
	while (pbr_next_field(R, &c, &f)) {
		int def = -1;
		switch (f.num) {
		case 1: def = 0; break;
		case 2: def = 1; break;
		case 3: def = 2; break;
		case 4: def = 3; break;
		case 17: def = 4; break;
		case 18: def = 5; break;
		case 19: def = 6; break;
		case 5: def = 7; break;
		case 12: def = 8; break;
		case 16: def = 9; break;
		case 15: def = 10; break;
		case 8: def = 11; break;
		case 9: def = 12; break;
		case 1000:
			if (!pbr_rep_slice(R, &f, &ents, &nents))
				return;
			continue;
		default:
			continue;
		}
		if (pb_md_defs[def].kind == PBM_STRING) {
			if (!pbr_str_field(R, &f, &sv[def]))
				return;
		} else if (pb_md_defs[def].kind == PBM_INTS) {
			/* profile_type: packed (as XLA writes it); one unpacked
			 * value is not printed */
			if (f.wt != PB_LEN)
				continue;
			sv[def] = f.s;
		} else {
			if (!pbr_want(R, &f, PB_VARINT))
				return;
			iv[def] = def >= 11 ? (int64_t)f.v : (int64_t)(int32_t)f.v;
		}
		seen |= 1u << def;
	}
	if (R->failed)
		return;
	hilo_metadata *h;
	if (nents) {
		if (nents > 4096) {
			pbr_rerr(R, "instruction '%s': too many metadata entries", i->name);
			return;
		}
		if (!(h = pbr_ralloc(R, sizeof *h)))
			return;
		h->n = (int)nents;
		h->e = pbr_ralloc(R, (nents + 1) * sizeof *h->e);
		if (!h->e)
			return;
		for (size_t k = 0; k < nents; k++) {
			slice key = {0}, val = {0};
			pr_cur ec = {ents[k].p, ents[k].p + ents[k].n};
			while (pbr_next_field(R, &ec, &f)) {
				if (f.num == 1 && !pbr_str_field(R, &f, &key))
					return;
				if (f.num == 2 && !pbr_str_field(R, &f, &val))
					return;
			}
			if (R->failed)
				return;
			h->e[k].key = pbr_sintern(R, key);
			h->e[k].value = pbr_sdup(R, val);
		}
	} else {
		/* the typed fields as XLA prints them (pb_md_entries' rendering:
		 * quoted escaped strings, decimal integers, empty and zero values
		 * left out). Header, entries and their new text are one block, as
		 * the text parser's; a string field equal to the previous
		 * instruction's (source_file, op_type) shares its text. */
		char num[ND][24];
		char pts[160]; /* profile_type's {1,2} */
		const char *ns[ND], *same[ND];
		size_t len[ND], bytes = 0;
		unsigned keep = 0; /* the fields printed: non-empty, non-zero */
		for (unsigned w = seen; w; w &= w - 1) {
			int k = __builtin_ctz(w);
			same[k] = NULL;
			len[k] = 0;
			if (pb_md_defs[k].kind == PBM_INTS) {
				/* the packed varints as {1,2}, each an int32 */
				size_t at = 0, o = 0;
				pts[o++] = '{';
				while (at < sv[k].n && o + 16 < sizeof pts) {
					uint64_t x = 0;
					int sh = 0;
					while (at < sv[k].n && sh < 64) {
						uint8_t byte = sv[k].p[at++];
						x |= (uint64_t)(byte & 0x7f) << sh;
						sh += 7;
						if (!(byte & 0x80))
							break;
					}
					if (o > 1)
						pts[o++] = ',';
					o += (size_t)snprintf(pts + o, sizeof pts - o, "%d", (int)(int32_t)x);
				}
				if (o == 1 || at < sv[k].n)
					continue; /* empty, or too long to print here */
				pts[o++] = '}';
				ns[k] = pts;
				len[k] = o;
			} else if (pb_md_defs[k].kind == PBM_STRING) {
				const struct md_prev *pv = &R->md_prev[k];
				if (!sv[k].n)
					continue;
				if (pv->val && pv->n == sv[k].n &&
				    hilo_mem_eq((const char *)pv->p, (const char *)sv[k].p, sv[k].n))
					same[k] = pv->val;
				else
					len[k] = 2 + pb_escaped_len((const char *)sv[k].p, sv[k].n);
			} else if (iv[k]) {
				ns[k] = hilo_fmt_i64(num[k] + sizeof num[k], iv[k]);
				len[k] = (size_t)(num[k] + sizeof num[k] - ns[k]);
			} else {
				continue;
			}
			bytes += len[k] ? len[k] + 1 : 0;
			keep |= 1u << k;
		}
		int n = __builtin_popcount(keep);
		if (!(h = pbr_ralloc(R, sizeof *h + (size_t)n * sizeof *h->e + bytes)))
			return;
		h->n = n;
		h->e = (hilo_md_entry *)(void *)(h + 1);
		char *q = (char *)(h->e + n);
		n = 0;
		for (unsigned w = keep; w; w &= w - 1) {
			int k = __builtin_ctz(w);
			if (!R->md_key[k])
				R->md_key[k] = pbr_rintern(R, pb_md_defs[k].key);
			h->e[n].key = R->md_key[k];
			if (same[k]) {
				h->e[n++].value = same[k];
				continue;
			}
			h->e[n++].value = q;
			if (pb_md_defs[k].kind == PBM_STRING) {
				R->md_prev[k] = (struct md_prev){sv[k].p, sv[k].n, q};
				*q++ = '"';
				q = pb_escape_to(q, (const char *)sv[k].p, sv[k].n);
				*q++ = '"';
			} else {
				memcpy(q, ns[k], len[k]);
				q += len[k];
			}
			*q++ = 0;
		}
	}
	i->metadata = h;
}

/* An HloSnapshot's arguments (kept by the reader as LiteralProto bytes),
 * each decoded with its own shape. */
bool hilo_proto_snapshot_args(hilo_module *m, hilo_literal ***args, size_t *n, hilo_diags *d)
{
	*args = NULL;
	*n = 0;
	const pb_extra *x = m->proto_extra;
	if (!x || !x->nargs)
		return true;
	hilo_literal **out = hilo_arena_alloc(m->arena, x->nargs * sizeof *out);
	if (!out) {
		hilo_diag_oom(d, NULL);
		return false;
	}
	bool ok = true;
	for (size_t k = 0; k < x->nargs && ok; k++) {
		reader R;
		memset(&R, 0, sizeof R);
		R.m = m;
		R.d = d;
		R.base = x->arg[k];
		R.kind = "LiteralProto";
		pb_arena_allocator(&R.pa, m->arena);
		hilo_buf_init_in(&R.tmp, m->arena);
		hilo_bytemap_init(&R.shapes, m->arena);
		char what[64];
		snprintf(what, sizeof what, "snapshot argument %zu", k);
		slice lp = {x->arg[k], x->argn[k]}, sh = {0};
		pr_cur c = {lp.p, lp.p + lp.n};
		field f;
		memset(&f, 0, sizeof f);
		bool has_shape = false;
		while (pbr_next_field(&R, &c, &f))
			if (f.num == 1 && pbr_want(&R, &f, PB_LEN)) {
				sh = f.s;
				has_shape = true;
			}
		hilo_shape *shape = !R.failed && has_shape ? pbr_shape_from(&R, &sh, 0, what) : NULL;
		if (!R.failed && !has_shape)
			pbr_rerr(&R, "%s has no shape", what);
		out[k] = shape ? pbr_literal_from(&R, lp, shape, 0, what) : NULL;
		ok = out[k] != NULL && !R.failed;
		hilo_buf_free(&R.tmp);
		hilo_bytemap_free(&R.shapes);
	}
	if (!ok)
		return false;
	*args = out;
	*n = x->nargs;
	return true;
}
