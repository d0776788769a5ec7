/* Helpers shared by the concatenation passes; see concat_util.h. */
#include "concat_util.h"

#include "hilo/eval.h"
#include "hilo/float.h"

#include <stdlib.h>
#include <string.h>

bool hilo_cu_interchangeable(const hilo_shape *from, const hilo_shape *to)
{
	if (!from || !to || !hilo_shape_is_array(from) || !hilo_shape_is_array(to))
		return false;
	if (!hilo_shape_compatible(from, to))
		return false;
	for (int d = 0; d < from->rank; d++) {
		int a = from->dyn ? from->dyn[d] : HILO_DIM_STATIC;
		int b = to->dyn ? to->dyn[d] : HILO_DIM_STATIC;
		if (a != b)
			return false;
	}
	if (from->layout && to->layout) {
		if (from->layout->n != to->layout->n)
			return false;
		for (int k = 0; k < from->layout->n; k++)
			if (from->layout->minor_to_major[k] != to->layout->minor_to_major[k])
				return false;
		const char *ta = from->layout->tail, *tb = to->layout->tail;
		if ((ta == NULL) != (tb == NULL) || (ta && strcmp(ta, tb) != 0))
			return false;
	}
	return true;
}

hilo_pass_result hilo_cu_cleanup(hilo_pass_ctx *ctx, hilo_pass_fn fn)
{
	FILE *remarks = ctx->remarks;
	uint64_t rewrites = ctx->rewrites;
	ctx->remarks = NULL;
	hilo_pass_result r = fn(ctx);
	ctx->remarks = remarks;
	ctx->rewrites = rewrites;
	return r;
}

static bool erasable(const hilo_module *m, const hilo_instr *i)
{
	return i->parent && i->nusers == 0 && i != i->parent->root && !i->is_root &&
		i->op != HILO_OP_PARAMETER && hilo_instr_nctrl_succs(i) == 0 && hilo_instr_nctrl_preds(i) == 0 &&
		hilo_instr_ncalled(i) == 0 && !hilo_instr_has_side_effect(m, i);
}

void hilo_cu_erase_dead(hilo_module *m, hilo_instr *i)
{
	if (!erasable(m, i))
		return;
	size_t n = 0, cap = 16;
	hilo_instr **st = hilo_heap_alloc(m->arena, cap * sizeof *st);
	if (!st)
		return;
	st[n++] = i;
	while (n) {
		hilo_instr *x = st[--n];
		if (!erasable(m, x))
			continue;
		/* operands may appear more than once; each is re-checked when popped */
		uint32_t no = x->noperands;
		hilo_instr **ops = x->operands;
		hilo_instr *buf[8];
		hilo_instr **keep = no <= 8 ? buf : hilo_heap_alloc(m->arena, no * sizeof *keep);
		if (!keep)
			break;
		for (uint32_t k = 0; k < no; k++)
			keep[k] = ops[k];
		hilo_comp_remove(x->parent, x);
		for (uint32_t k = 0; k < no; k++) {
			if (n == cap) {
				hilo_instr **g = hilo_heap_realloc(m->arena, st, 2 * cap * sizeof *st);
				if (!g)
					break;
				st = g;
				cap *= 2;
			}
			st[n++] = keep[k];
		}
		if (keep != buf)
			hilo_heap_free(m->arena, keep);
	}
	hilo_heap_free(m->arena, st);
}

bool hilo_cu_is_zero(const hilo_instr *i)
{
	if (i && i->op == HILO_OP_BROADCAST && i->noperands == 1)
		i = i->operands[0];
	if (!i || i->op != HILO_OP_CONSTANT || !hilo_instr_literal(i) || hilo_instr_literal(i)->elided || !hilo_instr_literal(i)->data)
		return false;
	const hilo_shape *s = hilo_instr_literal(i)->shape ? hilo_instr_literal(i)->shape : i->shape;
	if (!s || !hilo_shape_is_array(s))
		return false;
	int64_t n = hilo_shape_elements(s);
	if (n < 0)
		return false;
	if (hilo_ptype_is_complex(s->type))
		return false;
	const hilo_literal *l = hilo_instr_literal(i);
	if (l->splat) /* one stored element */
		n = n > 0 ? 1 : 0;
	for (int64_t k = 0; k < n; k++) {
		if (hilo_ptype_is_float(s->type)) {
			if (hilo_elem_get_f64(s->type, l->data, (size_t)k) != 0.0)
				return false;
		} else if (hilo_elem_get_i64(s->type, l->data, (size_t)k) != 0) {
			return false;
		}
	}
	return true;
}

hilo_instr *hilo_cu_int_constant(hilo_module *m, hilo_comp *c, hilo_instr *before, hilo_ptype t,
	int64_t v)
{
	hilo_shape *s = hilo_shape_scalar(m->shapes, t);
	hilo_literal *l = hilo_literal_create(m, s);
	if (!l)
		return NULL;
	hilo_elem_set_i64(t, l->data, 0, v);
	hilo_instr *i = hilo_instr_create(m, HILO_OP_CONSTANT, s, "constant");
	i->u.literal = l;
	hilo_comp_insert_before(c, before, i);
	return i;
}

hilo_instr *hilo_cu_zero_of_shape(hilo_module *m, hilo_comp *c, hilo_instr *before,
	hilo_shape *s)
{
	hilo_instr *z = hilo_cu_int_constant(m, c, before, s->type, 0);
	if (!z)
		return NULL;
	hilo_instr *b = hilo_instr_create(m, HILO_OP_BROADCAST, s, "broadcast");
	hilo_instr_add_operand(m, b, z);
	hilo_attr_set_ints(m, hilo_instr_set_attr(m, b, HILO_A_DIMENSIONS, HILO_ATTR_INTS), NULL, 0);
	hilo_comp_insert_before(c, before, b);
	return b;
}

static bool never_snan(const hilo_instr *i, int depth)
{
	if (!hilo_ptype_is_float(i->shape->type))
		return i->shape->type != HILO_T_TUPLE && !hilo_ptype_is_complex(i->shape->type);
	if (depth > 32)
		return false;
	if (hilo_opcode_quiets_nan(i->op))
		return true;
	switch (i->op) {
	case HILO_OP_CONSTANT: {
		const hilo_literal *l = hilo_instr_literal(i);
		int eb = hilo_ptype_bytes(i->shape->type);
		if (!l || l->elided || eb <= 0)
			return false;
		for (size_t k = 0; k < l->nbytes / (size_t)eb; k++)
			if (hilo_elem_is_snan(i->shape->type, l->data, k))
				return false;
		return true;
	}
	case HILO_OP_RESHAPE: case HILO_OP_BROADCAST: case HILO_OP_TRANSPOSE: case HILO_OP_SLICE:
	case HILO_OP_CONCATENATE: case HILO_OP_PAD: case HILO_OP_REVERSE: case HILO_OP_COPY:
		for (uint32_t k = 0; k < i->noperands; k++)
			if (!never_snan(i->operands[k], depth + 1))
				return false;
		return i->noperands > 0;
	default:
		return false;
	}
}

bool hilo_cu_never_snan(const hilo_instr *i)
{
	return never_snan(i, 0);
}
