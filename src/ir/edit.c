/* edit.c - the checked in-place edits of the public IR API (issue 30 §8):
 * set the entry, change an opcode, a constant's literal or an
 * instruction's shape, move an instruction in its computation's order,
 * and make a constant from a literal (the rename lives in ir.c, beside
 * the module's name set). A pass written outside hilo edits a
 * module only through these and the builders of ir.c, so what it hands to
 * the validator keeps the invariants hilo_verify checks.
 *
 * Every function checks the whole request first and changes nothing when
 * it refuses (returns false): an edit is all or nothing. Literals and
 * shapes handed in may come from anywhere (another module, the
 * evaluator): they are copied into the module and interned in its table,
 * as the text parser's are. */
#include "hilo/ir.h"

#include <string.h>

#include "ir/literal.h"


/* ---- module ---- */

bool hilo_module_set_entry(hilo_module *m, hilo_comp *c)
{
	bool found = false;
	for (uint32_t k = 0; k < m->ncomps && !found; k++)
		found = m->comps[k] == c;
	if (!c || !found)
		return false;
	for (uint32_t k = 0; k < m->ncomps; k++)
		m->comps[k]->is_entry = false;
	c->is_entry = true;
	m->entry = c;
	return true;
}

/* ---- opcode ---- */

bool hilo_instr_set_opcode(hilo_instr *i, hilo_opcode op)
{
	if ((unsigned)op >= HILO_OP_COUNT)
		return false;
	if (i->op == op)
		return true;
	/* the union u and the parameter table belong to these two opcodes;
	 * async sugar prints the wrapped opcode, not op */
	if (op == HILO_OP_CONSTANT || op == HILO_OP_PARAMETER || i->op == HILO_OP_CONSTANT ||
	    i->op == HILO_OP_PARAMETER || i->async_op != HILO_OP_COUNT)
		return false;
	if (!hilo_opcode_operands_ok(op, i->noperands))
		return false;
	i->op = (uint8_t)op;
	return true;
}

/* ---- literals ---- */

/* A copy of l's data in m whose shapes are s (interned in m, compatible
 * with l's: same element types and dims), tuples element by element:
 * the instruction's shape, layout included, as the text parser gives a
 * constant's literal. NULL when out of memory. */
static hilo_literal *literal_copy_as(hilo_module *m, const hilo_literal *l, hilo_shape *s)
{
	hilo_literal *c = hilo_arena_alloc(m->arena, sizeof *c);
	if (!c)
		return NULL;
	*c = *l;
	c->shape = s;
	if (s->type == HILO_T_TUPLE) {
		c->elems = hilo_arena_alloc(m->arena, ((size_t)l->ntuple + 1) * sizeof *c->elems);
		if (!c->elems)
			return NULL;
		for (int k = 0; k < l->ntuple; k++)
			if (!(c->elems[k] = literal_copy_as(m, l->elems[k], s->elems[k])))
				return NULL;
		return c;
	}
	c->data = hilo_arena_alloc(m->arena, l->nbytes ? l->nbytes : 1);
	if (!c->data)
		return NULL;
	if (l->nbytes)
		memcpy(c->data, l->data, l->nbytes);
	return c;
}

/* Whether l's structure matches a shape of its own description: tuple
 * counts agree and every array holds its element count's bytes (or is
 * elided). A literal that fails this would be read past its data. */
static bool literal_well_formed(const hilo_literal *l, const hilo_shape *s)
{
	if (!l || !s)
		return false;
	if (s->type == HILO_T_TUPLE) {
		if (l->ntuple != s->ntuple || (l->ntuple && !l->elems))
			return false;
		for (int k = 0; k < l->ntuple; k++)
			if (!literal_well_formed(l->elems[k], s->elems[k]))
				return false;
		return true;
	}
	if (l->ntuple)
		return false;
	int64_t n = hilo_shape_elements(s);
	int eb = hilo_ptype_bytes(s->type);
	if (l->splat && !l->elided) /* one stored element stands for all */
		return n > 0 && eb > 0 && s->rank > 0 && l->nbytes == (size_t)eb && l->data;
	if (n < 0 || eb < 0 || (uint64_t)n > HILO_LITERAL_MAX_BYTES / (eb ? (uint64_t)eb : 1))
		return false;
	return l->elided || (l->nbytes == (size_t)n * (size_t)eb && (l->data || !l->nbytes));
}

bool hilo_instr_set_literal(hilo_module *m, hilo_instr *i, const hilo_literal *l)
{
	if (i->op != HILO_OP_CONSTANT || !l || !l->shape || !i->shape ||
	    !hilo_shape_compatible(l->shape, i->shape) || !literal_well_formed(l, i->shape))
		return false;
	HILO_OOM_CATCH(g, m->arena)
		return false;
	hilo_literal *c = literal_copy_as(m, l, i->shape);
	hilo_oom_end(&g);
	if (!c)
		return false;
	i->u.literal = c;
	return true;
}

hilo_instr *hilo_instr_create_constant(hilo_module *m, const hilo_literal *l, const char *name)
{
	if (!l || !l->shape || (name && !*name))
		return NULL;
	HILO_OOM_CATCH(g, m->arena)
		return NULL;
	hilo_instr *i = NULL;
	hilo_shape *s = hilo_shape_intern(m->shapes, l->shape);
	hilo_literal *c = s && literal_well_formed(l, s) ? literal_copy_as(m, l, s) : NULL;
	if (c) {
		i = hilo_instr_create(m, HILO_OP_CONSTANT, s, name ? name : "constant");
		i->u.literal = c;
	}
	hilo_oom_end(&g);
	return i;
}

/* ---- shapes ---- */

bool hilo_instr_set_shape(hilo_module *m, hilo_instr *i, const hilo_shape *s)
{
	if (!s)
		return false;
	/* a constant's value must still fill its shape */
	const hilo_literal *l = hilo_instr_literal(i);
	if (i->op == HILO_OP_CONSTANT && l && !hilo_shape_compatible(l->shape, s))
		return false;
	HILO_OOM_CATCH(g, m->arena)
		return false;
	hilo_shape *t = hilo_shape_intern(m->shapes, s);
	hilo_oom_end(&g);
	if (!t)
		return false;
	i->shape = t;
	return true;
}

/* ---- order ---- */

static bool in_list(hilo_instr *const *v, uint32_t n, const hilo_instr *x)
{
	for (uint32_t k = 0; k < n; k++)
		if (v[k] == x)
			return true;
	return false;
}

/* Whether x must stay before i (an operand or control predecessor) or
 * after it (a user or control successor): -1, +1, or 0 for neither. */
static int order_need(const hilo_instr *i, const hilo_instr *x)
{
	if (in_list(i->operands, i->noperands, x) ||
	    in_list(hilo_instr_ctrl_preds(i), hilo_instr_nctrl_preds(i), x))
		return -1;
	if (in_list(x->operands, x->noperands, i) ||
	    in_list(hilo_instr_ctrl_succs(i), hilo_instr_nctrl_succs(i), x))
		return 1;
	return 0;
}

bool hilo_comp_move_before(hilo_comp *c, hilo_instr *before, hilo_instr *i)
{
	if (!i || i->parent != c || (before && before->parent != c))
		return false;
	if (before == i || (before && before->prev == i) || (!before && c->last == i))
		return true; /* already there */
	/* the instructions before the new place are those up to `before`
	 * (i itself aside): every operand among them, no user */
	bool past = false;
	for (hilo_instr *x = c->first; x; x = x->next) {
		if (x == before)
			past = true;
		if (x == i)
			continue;
		int need = order_need(i, x);
		if ((need < 0 && past) || (need > 0 && !past))
			return false;
	}
	if (i->prev)
		i->prev->next = i->next;
	else
		c->first = i->next;
	if (i->next)
		i->next->prev = i->prev;
	else
		c->last = i->prev;
	c->ninstrs--;
	hilo_comp_insert_before(c, before, i);
	return true;
}
