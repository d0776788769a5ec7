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
#include "lex.h"
#include "support/fmt.h"

#include <string.h>

/* Appends inline: one capacity check, no call and no NUL per piece (the
 * buffer's own functions terminate after every append; hilo_print_text
 * terminates once at the end). Growth and out of memory as hilo_buf. */
static inline bool room(hilo_buf *b, size_t n)
{
	if (b->cap - b->len > n && !b->oom)
		return true;
	hilo_buf_reserve(b, n);
	return !b->oom;
}

static inline void out(hilo_buf *b, const char *s, size_t n)
{
	if (room(b, n)) {
		memcpy(b->data + b->len, s, n);
		b->len += n;
	}
}

static inline void out_c(hilo_buf *b, char c)
{
	if (room(b, 1))
		b->data[b->len++] = c;
}

static inline void out_s(hilo_buf *b, const char *s)
{
	out(b, s, strlen(s));
}

static void out_i64(hilo_buf *b, int64_t v)
{
	if (v >= 0 && v < 10) {
		out_c(b, (char)('0' + v));
		return;
	}
	char tmp[24];
	char *e = tmp + sizeof tmp, *p = hilo_fmt_i64(e, v);
	out(b, p, (size_t)(e - p));
}

typedef struct printer {
	hilo_buf *b;
	const hilo_module *m;
	hilo_print_style style;
	bool sig_auto;    /* signatures as the input had them */
	bool opshapes;    /* operand shapes before operand names */
	bool metadata;    /* print metadata={...} (all but an explicit SHORT) */
	/* each shape's text, printed once: shape -> offset << 24 | length in
	 * shape_text (shapes are shared) */
	hilo_ptrmap shapes;
	hilo_buf shape_text;
} printer;

static void put_shape(printer *P, const hilo_shape *s)
{
	hilo_buf *b = P->b;
	uintptr_t v = (uintptr_t)hilo_ptrmap_get(&P->shapes, s);
	if (v) {
		out(b, P->shape_text.data + (v >> 24), v & 0xffffff);
		return;
	}
	size_t at = b->len;
	hilo_shape_print(b, s);
	size_t n = b->len - at, off = P->shape_text.len;
	if (sizeof(uintptr_t) < 8 || b->oom || P->shape_text.oom || n == 0 || n > 0xffffff ||
	    off >= ((size_t)1 << 39))
		return;
	hilo_buf_put(&P->shape_text, b->data + at, n);
	/* out of memory in the cache is out of memory of the print (the
	 * library's one policy: every failed allocation is reported) */
	if (P->shape_text.oom || !hilo_ptrmap_put(&P->shapes, s, (void *)((uintptr_t)off << 24 | n)))
		b->oom = true;
}

/* %name; the short style leaves the '%' out but where XLA's lexer would
 * read the name as a keyword or a type (`%true`, `%s32`). */
static void put_name(printer *P, const char *name)
{
	if (P->style != HILO_STYLE_SHORT || lex_name_needs_percent(name, strlen(name)))
		out_c(P->b, '%');
	out_s(P->b, name);
}

static void put_ints(hilo_buf *b, const int64_t *v, int n)
{
	out_c(b, '{');
	for (int i = 0; i < n; i++) {
		if (i)
			out_c(b, ',');
		out_i64(b, v[i]);
	}
	out_c(b, '}');
}

static void put_attr(printer *P, const hilo_instr *i, const hilo_attr *a)
{
	hilo_buf *b = P->b;
	if (a->kind == HILO_ATTR_METADATA) {
		if (!P->metadata || !i->metadata)
			return;
		out(b, ", metadata={", 12);
		for (int k = 0; k < i->metadata->n; k++) {
			if (k)
				out_c(b, ' ');
			out_s(b, i->metadata->e[k].key);
			out_c(b, '=');
			out_s(b, i->metadata->e[k].value);
		}
		out_c(b, '}');
		return;
	}
	if (a->kind == HILO_ATTR_CONTROL && !hilo_instr_nctrl_preds(i))
		return;
	out(b, ", ", 2);
	out_s(b, a->key);
	out_c(b, '=');
	switch (a->kind) {
	case HILO_ATTR_RAW:
		out_s(b, a->v.text);
		break;
	case HILO_ATTR_INT:
		out_i64(b, a->v.i);
		break;
	case HILO_ATTR_INTS:
		put_ints(b, a->v.ints, a->n);
		break;
	case HILO_ATTR_BOOL:
		out_s(b, a->v.i ? "true" : "false");
		break;
	case HILO_ATTR_STRING:
		out_c(b, '"');
		out_s(b, a->v.text);
		out_c(b, '"');
		break;
	case HILO_ATTR_ENUM:
		out_s(b, a->v.text);
		break;
	case HILO_ATTR_SLICE: {
		/* strides are printed for every dimension once one is not 1 */
		bool strided = false;
		for (int k = 0; k < a->n; k++)
			strided |= a->v.ints[3 * k + 2] != 1;
		out_c(b, '{');
		for (int k = 0; k < a->n; k++) {
			if (k)
				out(b, ", ", 2);
			const int64_t *s = &a->v.ints[3 * k];
			out_c(b, '[');
			out_i64(b, s[0]);
			out_c(b, ':');
			out_i64(b, s[1]);
			if (strided) {
				out_c(b, ':');
				out_i64(b, s[2]);
			}
			out_c(b, ']');
		}
		out_c(b, '}');
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
				out_c(b, 'x');
			out_i64(b, s[0]);
			out_c(b, '_');
			out_i64(b, s[1]);
			if (interior) {
				out_c(b, '_');
				out_i64(b, s[2]);
			}
		}
		break;
	}
	case HILO_ATTR_COMP:
		put_name(P, hilo_instr_called(i)[a->v.i]->name);
		break;
	case HILO_ATTR_COMPS:
		out_c(b, '{');
		for (int k = 0; k < a->n; k++) {
			if (k)
				out(b, ", ", 2);
			put_name(P, hilo_instr_called(i)[a->v.i + k]->name);
		}
		out_c(b, '}');
		break;
	case HILO_ATTR_CONTROL:
		out_c(b, '{');
		for (uint32_t k = 0; k < hilo_instr_nctrl_preds(i); k++) {
			if (k)
				out(b, ", ", 2);
			put_name(P, hilo_instr_ctrl_preds(i)[k]->name);
		}
		out_c(b, '}');
		break;
	case HILO_ATTR_METADATA:
		break;
	}
}

static void put_opcode(printer *P, const hilo_instr *i)
{
	if (i->async_op != HILO_OP_COUNT) {
		out_s(P->b, hilo_opcode_name(i->async_op));
		out_s(P->b, i->op == HILO_OP_ASYNC_START ? "-start"
		                  : i->op == HILO_OP_ASYNC_UPDATE ? "-update" : "-done");
		return;
	}
	out_s(P->b, hilo_opcode_name(i->op));
}

static void put_instr(printer *P, const hilo_instr *i)
{
	hilo_buf *b = P->b;
	if (hilo_instr_comment(i))
		out_s(b, hilo_instr_comment(i));
	out(b, i->is_root ? "  ROOT " : "  ", i->is_root ? 7 : 2);
	put_name(P, i->name);
	out(b, " = ", 3);
	put_shape(P, i->shape);
	out_c(b, ' ');
	put_opcode(P, i);
	out_c(b, '(');
	if (i->op == HILO_OP_PARAMETER) {
		out_i64(b, hilo_instr_param_no(i));
	} else if (i->op == HILO_OP_CONSTANT && hilo_instr_literal(i) && hilo_instr_literal(i)->scalar_text &&
	           hilo_instr_literal(i)->nbytes && !hilo_instr_literal(i)->elided) {
		/* written as one scalar (element 0, the others 0): print it back
		 * so (values print in full everywhere else, e.g. hilo-run --print,
		 * and for every other splat: XLA would read one scalar as element
		 * 0 only) */
		hilo_print_element(b, hilo_instr_literal(i)->shape->type, hilo_instr_literal(i)->data, 0);
	} else if (i->op == HILO_OP_CONSTANT) {
		hilo_print_literal(b, hilo_instr_literal(i), false);
	} else {
		for (uint32_t k = 0; k < i->noperands; k++) {
			if (k) {
				out(b, ", ", 2);
				if (k % 5 == 0 && P->style != HILO_STYLE_SHORT &&
				    !(P->sig_auto && (i->text_bits & HILO_TEXT_NO_INDEX_MARKS)))
					hilo_buf_printf(b, "/*index=%u*/", k);
			}
			if (P->opshapes) {
				put_shape(P, i->operands[k]->shape);
				out_c(b, ' ');
			}
			put_name(P, i->operands[k]->name);
		}
	}
	out_c(b, ')');
	for (uint32_t k = 0; k < i->nattrs; k++)
		put_attr(P, i, &i->attrs[k]);
	out_c(b, '\n');
}

/* Instructions in list order when that order already defines operands
 * first (always true for parsed text); otherwise a post order. */
static void put_comp(printer *P, const hilo_comp *c)
{
	hilo_buf *b = P->b;
	if (c->is_entry)
		out(b, "ENTRY ", 6);
	put_name(P, c->name);
	bool sig = P->sig_auto ? c->print_signature : P->style != HILO_STYLE_SHORT;
	if (sig) {
		out(b, " (", 2);
		for (uint32_t k = 0; k < c->nparams; k++) {
			if (k)
				out(b, ", ", 2);
			out_s(b, c->params[k] ? c->params[k]->name : "?");
			out(b, ": ", 2);
			if (c->params[k])
				hilo_shape_print_human(b, c->params[k]->shape);
		}
		out(b, ") -> ", 5);
		if (c->root)
			hilo_shape_print_human(b, c->root->shape);
	}
	out(b, " {\n", 3);
	/* printed while checking that the list defines operands first; one
	 * that does not is printed again in post order */
	bool ordered = true;
	for (hilo_instr *i = c->first; i; i = i->next)
		i->mark = 0;
	size_t start = b->len;
	for (hilo_instr *i = c->first; i && ordered; i = i->next) {
		for (uint32_t k = 0; k < i->noperands && ordered; k++)
			ordered = i->operands[k]->mark != 0;
		if (ordered) {
			i->mark = 1;
			put_instr(P, i);
		}
	}
	if (!ordered) {
		if (!b->oom)
			b->len = start;
		uint32_t n;
		hilo_instr **po = hilo_comp_post_order((hilo_module *)P->m, (hilo_comp *)c, &n);
		for (uint32_t k = 0; k < n; k++)
			put_instr(P, po[k]);
	}
	out_c(b, '}');
	if (c->execution_thread) {
		out(b, ", execution_thread=\"", 20);
		out_s(b, c->execution_thread);
		out_c(b, '"');
	}
	if (c->brace_comment)
		out_s(b, c->brace_comment);
	out_c(b, '\n');
}

/* {(p0, p1, ...)->root}, parameter k's shape from at(ud, k) */
static void entry_layout(hilo_buf *b, uint32_t n, const hilo_shape *(*at)(const void *, uint32_t),
	const void *ud, const hilo_shape *root)
{
	out_s(b, "{(");
	for (uint32_t k = 0; k < n; k++) {
		if (k) {
			out(b, ", ", 2);
			if (k % 5 == 0)
				hilo_buf_printf(b, "/*index=%u*/", k);
		}
		const hilo_shape *s = at(ud, k);
		if (s)
			hilo_shape_print(b, s);
	}
	out(b, ")->", 3);
	if (root)
		hilo_shape_print(b, root);
	out_c(b, '}');
}

static const hilo_shape *array_at(const void *ud, uint32_t k)
{
	return ((const hilo_shape *const *)ud)[k];
}

static const hilo_shape *param_at(const void *ud, uint32_t k)
{
	const hilo_instr *p = ((const hilo_comp *)ud)->params[k];
	return p ? p->shape : NULL;
}

void hilo_print_entry_layout(hilo_buf *b, const hilo_shape *const *params, uint32_t n,
	const hilo_shape *root)
{
	entry_layout(b, n, array_at, params, root);
}

/* entry_computation_layout={(p0, p1, ...)->root}: derived from the entry
 * computation when the module has none (as XLA always prints one). */
static void put_entry_layout(printer *P, const hilo_module *m)
{
	const hilo_comp *e = m->entry;
	out_s(P->b, ", entry_computation_layout=");
	entry_layout(P->b, e->nparams, param_at, e, e->root ? e->root->shape : NULL);
}

bool hilo_header_attr_after_entry_layout(const char *key)
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
	printer P = {b, m, autos ? m->style : style, autos, false, style != HILO_STYLE_SHORT, {0}, {0}};
	hilo_ptrmap_init(&P.shapes);
	hilo_buf_init(&P.shape_text);
	P.opshapes = P.style == HILO_STYLE_LONG;
	if (m->header)
		out_s(b, m->header);
	out(b, "HloModule ", 10);
	out_s(b, m->name);
	/* older long-style dumps had no entry_computation_layout: print none in
	 * that style, so they round-trip; every other style derives one */
	bool need_layout = m->entry && !(m->no_entry_layout && P.style == HILO_STYLE_LONG);
	for (uint32_t k = 0; k < m->nattrs && need_layout; k++)
		if (strcmp(m->attrs[k].key, "entry_computation_layout") == 0)
			need_layout = false;
	for (uint32_t k = 0; k < m->nattrs; k++) {
		if (need_layout && hilo_header_attr_after_entry_layout(m->attrs[k].key)) {
			put_entry_layout(&P, m);
			need_layout = false;
		}
		out_s(b, m->attrs[k].sep ? m->attrs[k].sep : ", ");
		out_s(b, m->attrs[k].key);
		out_c(b, '=');
		out_s(b, m->attrs[k].value);
	}
	if (need_layout)
		put_entry_layout(&P, m);
	out_s(b, m->gap ? m->gap : "\n\n");
	if (m->stack_frames) {
		out_s(b, m->stack_frames);
		out(b, "\n\n\n", 3);
	}
	for (uint32_t k = 0; k < m->ncomps; k++) {
		if (k)
			out_s(b, m->comps[k]->gap_before ? m->comps[k]->gap_before : "\n");
		put_comp(&P, m->comps[k]);
	}
	if (m->no_final_newline && b->len && b->data[b->len - 1] == '\n')
		b->data[--b->len] = 0;
	else
		out_s(b, m->trailer ? m->trailer : "\n");
	if (b->data)
		b->data[b->len] = 0; /* room() kept one byte for it */
	hilo_ptrmap_free(&P.shapes);
	hilo_buf_free(&P.shape_text);
	return !b->oom;
}
