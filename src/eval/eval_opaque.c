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
			h_i64(s, hilo_instr_param_no(i));
		h_i64(s, i == c->root);
	}
}

/* replica_groups by meaning: the list form {{0,1},{2,3}} and the iota
 * form [G,S]<=[dims]T(perm), expanded by hilo_replica_groups_parse (the
 * one reader, src/ir/replica_groups.c); the order of the groups is
 * irrelevant (they are sorted when they all have one size), the order
 * inside a group is kept (it is the rank order). Returns false when the
 * text is neither form. */
static int cmp_groups(const int64_t *a, const int64_t *b, int64_t s)
{
	for (int64_t k = 0; k < s; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

static bool h_groups(hasher *h, const char *t)
{
	hilo_replica_groups g;
	if (!hilo_replica_groups_parse(h->a, t, strlen(t), true, &g))
		return false;
	int64_t *flat = g.ids;
	/* sort the groups when they all have one size (the usual case) */
	bool uniform = true;
	for (int64_t k = 1; k < g.ngroups; k++)
		uniform &= g.start[k + 1] - g.start[k] == g.start[1] - g.start[0];
	if (uniform && g.ngroups > 1) {
		int64_t s = g.start[1] - g.start[0];
		for (int64_t k0 = 1; k0 < g.ngroups; k0++) /* insertion sort of groups */
			for (int64_t k = k0; k > 0 && cmp_groups(flat + (k - 1) * s, flat + k * s, s) > 0; k--)
				for (int64_t q = 0; q < s; q++) {
					int64_t x = flat[(k - 1) * s + q];
					flat[(k - 1) * s + q] = flat[k * s + q];
					flat[k * s + q] = x;
				}
	}
	h_str(h, "groups");
	h_i64(h, g.ngroups);
	for (int64_t k = 0; k < g.ngroups; k++)
		h_i64(h, g.start[k + 1] - g.start[k]);
	for (int64_t k = 0; k < g.nids; k++)
		h_i64(h, flat[k]);
	hilo_replica_groups_free(h->a, &g);
	return true;
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
			if (a->v.i >= 0 && a->v.i < (int64_t)hilo_instr_ncalled(i))
				h_comp(s, hilo_instr_called(i)[a->v.i]);
			break;
		case HILO_ATTR_COMPS:
			for (int q = 0; q < a->n; q++)
				if (a->v.i + q >= 0 && a->v.i + q < (int64_t)hilo_instr_ncalled(i))
					h_comp(s, hilo_instr_called(i)[a->v.i + q]);
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
