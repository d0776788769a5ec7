/* HLO text printer: regenerates XLA's canonical text from the IR.
 *
 * Styles (docs/hlo-text.md): DEFAULT is HloModule::ToString() (% sigils,
 * no operand shapes, layouts, metadata, /\*index=N*\/ every fifth operand);
 * LONG adds operand shapes; SHORT drops sigils, operand shapes, metadata
 * and computation signatures. AUTO prints in the style of the input
 * (sigils, operand shapes, signatures as the input had them; operand
 * shapes are derived, not fields: XLA's short form, sigils absent, has
 * none even when its input did) but is
 * lossless: it keeps every field, metadata included, even for an input
 * without sigils (only an explicit SHORT drops metadata).
 */
#include "hilo/hlo_text.h"

#include <string.h>

typedef struct printer {
	hilo_buf *b;
	const hilo_module *m;
	hilo_print_style style;
	bool sig_auto;    /* signatures as the input had them */
	bool opshapes;    /* operand shapes before operand names */
	bool metadata;    /* print metadata={...} (all but an explicit SHORT) */
} printer;

static void put_name(printer *P, const char *name)
{
	if (P->style != HILO_STYLE_SHORT)
		hilo_buf_putc(P->b, '%');
	hilo_buf_puts(P->b, name);
}

static void put_ints(hilo_buf *b, const int64_t *v, int n)
{
	hilo_buf_putc(b, '{');
	for (int i = 0; i < n; i++) {
		if (i)
			hilo_buf_putc(b, ',');
		hilo_buf_put_i64(b, v[i]);
	}
	hilo_buf_putc(b, '}');
}

static void put_attr(printer *P, const hilo_instr *i, const hilo_attr *a)
{
	hilo_buf *b = P->b;
	if (a->kind == HILO_ATTR_METADATA) {
		if (!P->metadata || !i->metadata)
			return;
		hilo_buf_put(b, ", metadata={", 12);
		for (int k = 0; k < i->metadata->n; k++) {
			if (k)
				hilo_buf_putc(b, ' ');
			hilo_buf_puts(b, i->metadata->e[k].key);
			hilo_buf_putc(b, '=');
			hilo_buf_puts(b, i->metadata->e[k].value);
		}
		hilo_buf_putc(b, '}');
		return;
	}
	if (a->kind == HILO_ATTR_CONTROL && !i->nctrl_preds)
		return;
	hilo_buf_put(b, ", ", 2);
	hilo_buf_puts(b, a->key);
	hilo_buf_putc(b, '=');
	switch (a->kind) {
	case HILO_ATTR_RAW:
		hilo_buf_puts(b, a->v.text);
		break;
	case HILO_ATTR_INT:
		hilo_buf_put_i64(b, a->v.i);
		break;
	case HILO_ATTR_INTS:
		put_ints(b, a->v.ints, a->n);
		break;
	case HILO_ATTR_BOOL:
		hilo_buf_puts(b, a->v.i ? "true" : "false");
		break;
	case HILO_ATTR_STRING:
		hilo_buf_putc(b, '"');
		hilo_buf_puts(b, a->v.text);
		hilo_buf_putc(b, '"');
		break;
	case HILO_ATTR_ENUM:
		hilo_buf_puts(b, a->v.text);
		break;
	case HILO_ATTR_SLICE: {
		/* strides are printed for every dimension once one is not 1 */
		bool strided = false;
		for (int k = 0; k < a->n; k++)
			strided |= a->v.ints[3 * k + 2] != 1;
		hilo_buf_putc(b, '{');
		for (int k = 0; k < a->n; k++) {
			if (k)
				hilo_buf_put(b, ", ", 2);
			const int64_t *s = &a->v.ints[3 * k];
			hilo_buf_putc(b, '[');
			hilo_buf_put_i64(b, s[0]);
			hilo_buf_putc(b, ':');
			hilo_buf_put_i64(b, s[1]);
			if (strided) {
				hilo_buf_putc(b, ':');
				hilo_buf_put_i64(b, s[2]);
			}
			hilo_buf_putc(b, ']');
		}
		hilo_buf_putc(b, '}');
		break;
	}
	case HILO_ATTR_PADDING: {
		/* interior padding is printed for every dimension once one has it */
		bool interior = false;
		for (int k = 0; k < a->n; k++)
			interior |= a->v.ints[3 * k + 2] != 0;
		for (int k = 0; k < a->n; k++) {
			const int64_t *s = &a->v.ints[3 * k];
			if (k)
				hilo_buf_putc(b, 'x');
			hilo_buf_put_i64(b, s[0]);
			hilo_buf_putc(b, '_');
			hilo_buf_put_i64(b, s[1]);
			if (interior) {
				hilo_buf_putc(b, '_');
				hilo_buf_put_i64(b, s[2]);
			}
		}
		break;
	}
	case HILO_ATTR_COMP:
		put_name(P, i->called[a->v.i]->name);
		break;
	case HILO_ATTR_COMPS:
		hilo_buf_putc(b, '{');
		for (int k = 0; k < a->n; k++) {
			if (k)
				hilo_buf_put(b, ", ", 2);
			put_name(P, i->called[a->v.i + k]->name);
		}
		hilo_buf_putc(b, '}');
		break;
	case HILO_ATTR_CONTROL:
		hilo_buf_putc(b, '{');
		for (uint32_t k = 0; k < i->nctrl_preds; k++) {
			if (k)
				hilo_buf_put(b, ", ", 2);
			put_name(P, i->ctrl_preds[k]->name);
		}
		hilo_buf_putc(b, '}');
		break;
	case HILO_ATTR_METADATA:
		break;
	}
}

static void put_opcode(printer *P, const hilo_instr *i)
{
	if (i->async_op != HILO_OP_COUNT) {
		hilo_buf_puts(P->b, hilo_opcode_name(i->async_op));
		hilo_buf_puts(P->b, i->op == HILO_OP_ASYNC_START ? "-start"
		                  : i->op == HILO_OP_ASYNC_UPDATE ? "-update" : "-done");
		return;
	}
	hilo_buf_puts(P->b, hilo_opcode_name(i->op));
}

static void put_instr(printer *P, const hilo_instr *i)
{
	hilo_buf *b = P->b;
	if (i->comment)
		hilo_buf_puts(b, i->comment);
	hilo_buf_put(b, i->is_root ? "  ROOT " : "  ", i->is_root ? 7 : 2);
	put_name(P, i->name);
	hilo_buf_put(b, " = ", 3);
	hilo_shape_print(b, i->shape);
	hilo_buf_putc(b, ' ');
	put_opcode(P, i);
	hilo_buf_putc(b, '(');
	if (i->op == HILO_OP_PARAMETER) {
		hilo_buf_put_i64(b, i->param_no);
	} else if (i->op == HILO_OP_CONSTANT && i->literal && i->literal->splat &&
	           i->literal->nbytes && !i->literal->elided) {
		/* written as one scalar: print it back so (values print in full
		 * everywhere else, e.g. hilo-run --print) */
		hilo_literal one = *i->literal;
		hilo_shape scalar = {.type = i->literal->shape->type};
		one.shape = &scalar;
		one.nbytes = (size_t)hilo_ptype_bytes(scalar.type);
		hilo_print_literal(b, &one, false);
	} else if (i->op == HILO_OP_CONSTANT) {
		hilo_print_literal(b, i->literal, false);
	} else {
		for (uint32_t k = 0; k < i->noperands; k++) {
			if (k) {
				hilo_buf_put(b, ", ", 2);
				if (k % 5 == 0 && P->style != HILO_STYLE_SHORT)
					hilo_buf_printf(b, "/*index=%u*/", k);
			}
			if (P->opshapes) {
				hilo_shape_print(b, i->operands[k]->shape);
				hilo_buf_putc(b, ' ');
			}
			put_name(P, i->operands[k]->name);
		}
	}
	hilo_buf_putc(b, ')');
	for (uint32_t k = 0; k < i->nattrs; k++)
		put_attr(P, i, &i->attrs[k]);
	hilo_buf_putc(b, '\n');
}

/* Instructions in list order when that order already defines operands
 * first (always true for parsed text); otherwise a post order. */
static void put_comp(printer *P, const hilo_comp *c)
{
	hilo_buf *b = P->b;
	if (c->is_entry)
		hilo_buf_put(b, "ENTRY ", 6);
	put_name(P, c->name);
	bool sig = P->sig_auto ? c->print_signature : P->style != HILO_STYLE_SHORT;
	if (sig) {
		hilo_buf_put(b, " (", 2);
		for (uint32_t k = 0; k < c->nparams; k++) {
			if (k)
				hilo_buf_put(b, ", ", 2);
			hilo_buf_puts(b, c->params[k] ? c->params[k]->name : "?");
			hilo_buf_put(b, ": ", 2);
			if (c->params[k])
				hilo_shape_print_human(b, c->params[k]->shape);
		}
		hilo_buf_put(b, ") -> ", 5);
		if (c->root)
			hilo_shape_print_human(b, c->root->shape);
	}
	hilo_buf_put(b, " {\n", 3);
	bool ordered = true;
	for (hilo_instr *i = c->first; i; i = i->next)
		i->mark = 0;
	for (hilo_instr *i = c->first; i && ordered; i = i->next) {
		for (uint32_t k = 0; k < i->noperands; k++)
			if (!i->operands[k]->mark)
				ordered = false;
		i->mark = 1;
	}
	if (ordered) {
		for (hilo_instr *i = c->first; i; i = i->next)
			put_instr(P, i);
	} else {
		uint32_t n;
		hilo_instr **po = hilo_comp_post_order((hilo_module *)P->m, (hilo_comp *)c, &n);
		for (uint32_t k = 0; k < n; k++)
			put_instr(P, po[k]);
	}
	hilo_buf_putc(b, '}');
	if (c->execution_thread) {
		hilo_buf_put(b, ", execution_thread=\"", 20);
		hilo_buf_puts(b, c->execution_thread);
		hilo_buf_putc(b, '"');
	}
	hilo_buf_putc(b, '\n');
}

/* entry_computation_layout={(p0, p1, ...)->root}: derived from the entry
 * computation when the module has none (as XLA always prints one). */
static void put_entry_layout(hilo_buf *b, const hilo_module *m)
{
	const hilo_comp *e = m->entry;
	hilo_buf_puts(b, ", entry_computation_layout={(");
	for (uint32_t k = 0; k < e->nparams; k++) {
		if (k) {
			hilo_buf_put(b, ", ", 2);
			if (k % 5 == 0)
				hilo_buf_printf(b, "/*index=%u*/", k);
		}
		if (e->params[k])
			hilo_shape_print(b, e->params[k]->shape);
	}
	hilo_buf_put(b, ")->", 3);
	if (e->root)
		hilo_shape_print(b, e->root->shape);
	hilo_buf_putc(b, '}');
}

static bool after_entry_layout(const char *key)
{
	static const char *const later[] = {
		"allow_spmd_sharding_propagation_to_parameters", "allow_spmd_sharding_propagation_to_output",
		"replica_count", "num_partitions", "frontend_attributes", "origin_recovery_table",
		"debug_attributes",
	};
	for (size_t k = 0; k < sizeof later / sizeof *later; k++)
		if (strcmp(key, later[k]) == 0)
			return true;
	return false;
}

bool hilo_print_text(hilo_buf *b, const hilo_module *m, hilo_print_style style)
{
	bool autos = style == HILO_STYLE_AUTO;
	printer P = {b, m, autos ? m->style : style, autos, false, style != HILO_STYLE_SHORT};
	P.opshapes = P.style == HILO_STYLE_LONG;
	if (m->header)
		hilo_buf_puts(b, m->header);
	hilo_buf_put(b, "HloModule ", 10);
	hilo_buf_puts(b, m->name);
	/* older long-style dumps had no entry_computation_layout: print none in
	 * that style, so they round-trip; every other style derives one */
	bool need_layout = m->entry && !(m->no_entry_layout && P.style == HILO_STYLE_LONG);
	for (uint32_t k = 0; k < m->nattrs && need_layout; k++)
		if (strcmp(m->attrs[k].key, "entry_computation_layout") == 0)
			need_layout = false;
	for (uint32_t k = 0; k < m->nattrs; k++) {
		if (need_layout && after_entry_layout(m->attrs[k].key)) {
			put_entry_layout(b, m);
			need_layout = false;
		}
		hilo_buf_puts(b, m->attrs[k].sep ? m->attrs[k].sep : ", ");
		hilo_buf_puts(b, m->attrs[k].key);
		hilo_buf_putc(b, '=');
		hilo_buf_puts(b, m->attrs[k].value);
	}
	if (need_layout)
		put_entry_layout(b, m);
	hilo_buf_puts(b, m->gap ? m->gap : "\n\n");
	if (m->stack_frames) {
		hilo_buf_puts(b, m->stack_frames);
		hilo_buf_put(b, "\n\n\n", 3);
	}
	for (uint32_t k = 0; k < m->ncomps; k++) {
		if (k)
			hilo_buf_puts(b, m->comps[k]->gap_before ? m->comps[k]->gap_before : "\n");
		put_comp(&P, m->comps[k]);
	}
	if (m->no_final_newline && b->len && b->data[b->len - 1] == '\n')
		b->data[--b->len] = 0;
	else
		hilo_buf_puts(b, m->trailer ? m->trailer : "\n");
	return !b->oom;
}
