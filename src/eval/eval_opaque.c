/* eval_opaque.c - uninterpreted semantics (docs/evaluator.md).
 *
 * Custom-calls, collectives (and their start/done forms), rng, infeed,
 * outfeed, send/recv and the deterministic ops the evaluator does not model
 * (convolution, fft, cholesky, ...) get a value that is a deterministic
 * hash of what defines the operation: the opcode (or custom_call_target),
 * its attributes (backend_config included; metadata, sharding, frontend
 * attributes excluded, and channel_id by presence only: ids are unique per
 * op and never change a value), the result shape and the operand values.
 * The hash seeds the same generator as the random inputs, so values are
 * ordinary numbers (never NaN/inf that would hide later differences).
 *
 * Two programs therefore agree exactly when they perform the same opaque
 * operations on the same values. This is never used when folding
 * constants (hilo_eval_instr refuses these ops).
 *
 * NeuronBoundaryMarker-Start/-End custom-calls are identities (the passes
 * strip them by replacing them with their operand).
 */
#include "eval_internal.h"

#include <stdlib.h>

typedef struct { uint64_t h; hilo_arena *a; /* tracked heap for group lists */ } hasher;

static void h_bytes(hasher *s, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = s->h;
	for (size_t k = 0; k < n; k++) {
		h ^= b[k];
		h *= 0x100000001b3ull;
	}
	s->h = h;
}

static void h_str(hasher *s, const char *t)
{
	if (!t)
		t = "";
	h_bytes(s, t, strlen(t) + 1);
}

static void h_i64(hasher *s, int64_t v)
{
	h_bytes(s, &v, sizeof v);
}

static void h_shape(hasher *s, const hilo_shape *sh)
{
	h_i64(s, sh->type);
	if (sh->type == HILO_T_TUPLE) {
		h_i64(s, sh->ntuple);
		for (int k = 0; k < sh->ntuple; k++)
			h_shape(s, sh->elems[k]);
		return;
	}
	h_i64(s, sh->rank);
	for (int d = 0; d < sh->rank; d++)
		h_i64(s, sh->dims[d]);
}

static void h_lit(hasher *s, const hilo_literal *l)
{
	h_shape(s, l->shape);
	if (l->shape->type == HILO_T_TUPLE) {
		for (int k = 0; k < l->ntuple; k++)
			h_lit(s, l->elems[k]);
		return;
	}
	h_bytes(s, l->data, l->nbytes);
}

/* A called computation by structure, not by name (passes clone and rename
 * computations). */
static void h_comp(hasher *s, const hilo_comp *c)
{
	if (!c)
		return;
	h_i64(s, c->ninstrs);
	for (const hilo_instr *i = c->first; i; i = i->next) {
		h_i64(s, i->op);
		h_i64(s, i->noperands);
		h_shape(s, i->shape);
		if (i->op == HILO_OP_PARAMETER)
			h_i64(s, i->param_no);
		h_i64(s, i == c->root);
	}
}

/* replica_groups by meaning: the explicit form {{0,1},{2,3}} and the iota
 * form [G,S]<=[dims]T(perm) are expanded to a list of groups; the order of
 * the groups is irrelevant (they are sorted), the order inside a group is
 * kept (it is the rank order). Returns false when the text is neither. */
/* on the tracked heap of the module's arena: an out-of-memory jump frees it */
typedef struct { int64_t *v; int n, cap; hilo_arena *a; } ivec;

static bool ivec_push(ivec *x, int64_t v)
{
	if (x->n == x->cap) {
		int nc = x->cap ? 2 * x->cap : 64;
		if (nc > (1 << 24))
			return false;
		int64_t *nv = hilo_heap_realloc(x->a, x->v, (size_t)nc * sizeof *nv);
		if (!nv)
			return false;
		x->v = nv;
		x->cap = nc;
	}
	x->v[x->n++] = v;
	return true;
}

static const char *read_list(const char *p, char open, char close, ivec *out)
{
	if (*p != open)
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	if (*p == close)
		return p + 1;
	for (;;) {
		char *q;
		long long v = strtoll(p, &q, 10);
		if (q == p || !ivec_push(out, v))
			return NULL;
		p = q;
		while (*p == ' ')
			p++;
		if (*p == close)
			return p + 1;
		if (*p != ',')
			return NULL;
		p++;
		while (*p == ' ')
			p++;
	}
}

static int cmp_groups(const int64_t *a, const int64_t *b, int s)
{
	for (int k = 0; k < s; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

static bool h_groups(hasher *h, const char *t)
{
	ivec flat = {.a = h->a}, sizes = {.a = h->a};
	bool ok = true;
	const char *p = t;
	if (*p == '[') { /* iota form */
		ivec gs = {.a = h->a}, dims = {.a = h->a}, perm = {.a = h->a};
		p = read_list(p, '[', ']', &gs);
		if (p && p[0] == '<' && p[1] == '=')
			p = read_list(p + 2, '[', ']', &dims);
		else
			p = NULL;
		if (p && *p == 'T')
			p = read_list(p + 1, '(', ')', &perm);
		int64_t total = 1;
		ok = p && *p == 0 && gs.n == 2 && dims.n > 0 && dims.n <= 16 &&
		     (perm.n == 0 || perm.n == dims.n);
		for (int k = 0; ok && k < dims.n; k++) {
			ok = dims.v[k] > 0 && dims.v[k] <= (1 << 20);
			total *= ok ? dims.v[k] : 1;
			ok = ok && total <= (1 << 20);
		}
		ok = ok && gs.v[0] * gs.v[1] == total;
		if (ok) {
			int r = dims.n;
			int64_t pm[16], tdims[16], idx[16] = {0}, st[16];
			for (int k = 0; k < r; k++)
				pm[k] = perm.n ? perm.v[k] : k;
			for (int k = 0; k < r; k++)
				ok = ok && pm[k] >= 0 && pm[k] < r;
			int64_t acc = 1;
			for (int k = r - 1; k >= 0; k--) {
				st[k] = acc;
				acc *= dims.v[k];
			}
			for (int k = 0; ok && k < r; k++)
				tdims[k] = dims.v[pm[k]];
			/* walk the transposed array in row-major order */
			for (int64_t c = 0; ok && c < total; c++) {
				int64_t off = 0;
				for (int k = 0; k < r; k++)
					off += idx[k] * st[pm[k]];
				ok = ivec_push(&flat, off);
				for (int k = r - 1; k >= 0; k--) {
					if (++idx[k] < tdims[k])
						break;
					idx[k] = 0;
				}
			}
			for (int64_t g = 0; ok && g < gs.v[0]; g++)
				ok = ivec_push(&sizes, gs.v[1]);
		}
		hilo_heap_free(h->a, gs.v);
		hilo_heap_free(h->a, dims.v);
		hilo_heap_free(h->a, perm.v);
	} else if (*p == '{') { /* explicit form */
		p++;
		while (ok && *p == ' ')
			p++;
		while (ok && *p == '{') {
			int before = flat.n;
			p = read_list(p, '{', '}', &flat);
			ok = p != NULL && ivec_push(&sizes, flat.n - before);
			while (ok && (*p == ',' || *p == ' '))
				p++;
		}
		ok = ok && *p == '}' && p[1] == 0;
	} else {
		ok = false;
	}
	if (ok) {
		/* sort the groups when they all have one size (the usual case) */
		bool uniform = true;
		for (int g = 1; g < sizes.n; g++)
			uniform &= sizes.v[g] == sizes.v[0];
		if (uniform && sizes.n > 1) {
			int s = (int)sizes.v[0];
			for (int g = 1; g < sizes.n; g++) /* insertion sort of groups */
				for (int k = g; k > 0 && cmp_groups(flat.v + (k - 1) * s, flat.v + k * s, s) > 0; k--)
					for (int q = 0; q < s; q++) {
						int64_t x = flat.v[(k - 1) * s + q];
						flat.v[(k - 1) * s + q] = flat.v[k * s + q];
						flat.v[k * s + q] = x;
					}
		}
		h_str(h, "groups");
		h_i64(h, sizes.n);
		for (int g = 0; g < sizes.n; g++)
			h_i64(h, sizes.v[g]);
		for (int k = 0; k < flat.n; k++)
			h_i64(h, flat.v[k]);
	}
	hilo_heap_free(h->a, flat.v);
	hilo_heap_free(h->a, sizes.v);
	return ok;
}

static void h_attrs(hasher *s, const hilo_instr *i)
{
	for (uint32_t k = 0; k < i->nattrs; k++) {
		const hilo_attr *a = &i->attrs[k];
		if (!hilo_attr_is_semantic(a))
			continue;
		h_str(s, a->key);
		switch (a->kind) {
		case HILO_ATTR_RAW: case HILO_ATTR_STRING: case HILO_ATTR_ENUM:
			if (a->kind == HILO_ATTR_RAW && a->id == HILO_A_REPLICA_GROUPS && a->v.text &&
			    h_groups(s, a->v.text))
				break;
			h_str(s, a->v.text);
			break;
		case HILO_ATTR_INT: case HILO_ATTR_BOOL:
			if (a->id != HILO_A_CHANNEL_ID)
				h_i64(s, a->v.i);
			break;
		case HILO_ATTR_INTS:
			for (int q = 0; q < a->n; q++)
				h_i64(s, a->v.ints[q]);
			break;
		case HILO_ATTR_SLICE: case HILO_ATTR_PADDING:
			for (int q = 0; q < 3 * a->n; q++)
				h_i64(s, a->v.ints[q]);
			break;
		case HILO_ATTR_COMP:
			if (a->v.i >= 0 && a->v.i < (int64_t)i->ncalled)
				h_comp(s, i->called[a->v.i]);
			break;
		case HILO_ATTR_COMPS:
			for (int q = 0; q < a->n; q++)
				if (a->v.i + q >= 0 && a->v.i + q < (int64_t)i->ncalled)
					h_comp(s, i->called[a->v.i + q]);
			break;
		default:
			break;
		}
	}
}

/* Elements of a literal, tuples summed (the budget's unit). */
static uint64_t lit_elements(const hilo_literal *l)
{
	if (l->shape->type == HILO_T_TUPLE) {
		uint64_t n = 0;
		for (int k = 0; k < l->ntuple; k++)
			n += lit_elements(l->elems[k]);
		return n;
	}
	int eb = hilo_ptype_bytes(l->shape->type);
	return eb > 0 ? l->nbytes / (size_t)eb : 0;
}

static bool is_opaque(hilo_opcode op)
{
	if (hilo_opcode_flags(op) & (HILO_OPF_COLL | HILO_OPF_SE))
		return true;
	switch (op) {
	case HILO_OP_CUSTOM_CALL: case HILO_OP_RNG_BIT_GENERATOR: case HILO_OP_ASYNC_START:
	case HILO_OP_ASYNC_DONE: case HILO_OP_CONVOLUTION: case HILO_OP_FFT:
	case HILO_OP_CHOLESKY: case HILO_OP_TRIANGULAR_SOLVE: case HILO_OP_BATCH_NORM_GRAD:
	case HILO_OP_BATCH_NORM_INFERENCE: case HILO_OP_BATCH_NORM_TRAINING: case HILO_OP_TOPK:
	case HILO_OP_RAGGED_DOT: case HILO_OP_SCALED_DOT: case HILO_OP_SCAN:
	case HILO_OP_SELECT_AND_SCATTER: case HILO_OP_STOCHASTIC_CONVERT:
	case HILO_OP_DYNAMIC_RESHAPE:
		return true;
	default:
		return false;
	}
}


hilo_literal *ev_opaque(ev *e, const hilo_instr *i, hilo_literal *const *ops, bool *handled)
{
	if (!is_opaque(i->op)) {
		*handled = false;
		return NULL;
	}
	if (hilo_instr_is_boundary_marker(i) && i->noperands == 1 && hilo_shape_compatible(ops[0]->shape, i->shape))
		return ops[0];
	if (!e->allow_opaque)
		return ev_err(e, i, "uninterpreted operation: its value is not known");
	hasher s = {0xcbf29ce484222325ull, e->m->arena};
	if (i->op == HILO_OP_CUSTOM_CALL)
		h_str(&s, hilo_instr_get_string(i, HILO_A_CUSTOM_CALL_TARGET));
	h_str(&s, hilo_opcode_name(i->op));
	if (i->async_op != HILO_OP_COUNT)
		h_str(&s, hilo_opcode_name(i->async_op));
	h_attrs(&s, i);
	h_shape(&s, i->shape);
	uint64_t work = 1;
	for (uint32_t q = 0; q < i->noperands; q++) {
		h_lit(&s, ops[q]);
		work += lit_elements(ops[q]);
	}
	hilo_literal *r = ev_lit_new(e, i, i->shape);
	if (!r || !ev_charge(e, i, work + lit_elements(r)))
		return NULL;
	hilo_literal_fill_random(r, s.h, 0x0ba9e);
	return r;
}
