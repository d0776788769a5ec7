/* Graphviz DOT of a module (include/hilo/viz.h): the picture behind
 * `hilo-opt --emit=dot` and the rewrite report. One cluster per
 * computation, nodes coloured by op category, operand edges pointing from
 * operand to user (labelled with the operand index where order matters),
 * dashed edges to called computations. With `around`, only the
 * neighbourhood of one instruction is drawn, so that a 40k-instruction
 * dump still gives a picture a person can read. */
#include "hilo/hlo_text.h"
#include "hilo/viz.h"
#include "viz/viz_internal.h"

#include <stdlib.h>
#include <string.h>

/* One row per category: the name, the fill colour of the pictures and
 * the legend's words (the report draws its legend from this table). */
const viz_cat_info viz_cats[VIZ_NCAT] = {
	[VIZ_PARAMETER] = {"parameter", "#e3f2fd", "parameter"},
	[VIZ_CONSTANT] = {"constant", "#eeeeee", "constant, iota"},
	[VIZ_DOT_CONV] = {"dot-convolution", "#80deea", "dot, convolution"},
	[VIZ_ELEMENTWISE] = {"elementwise", "#fff9c4", "elementwise arithmetic, compare, select, convert"},
	[VIZ_DATA_MOVEMENT] = {"data-movement", "#c8e6c9", "slices, reshapes, broadcasts, transposes, tuples"},
	[VIZ_COLLECTIVE] = {"collective", "#ffccbc", "collective communication"},
	[VIZ_CUSTOM_CALL] = {"custom-call", "#f8bbd0", "custom-call"},
	[VIZ_CONTROL_FLOW] = {"control-flow", "#d1c4e9", "while, conditional, call, fusion"},
	[VIZ_OTHER] = {"other", "#ffffff", "everything else (reduce, sort, ...)"},
};

/* The category columns of opcodes.def (CONST, CTRL, DOTC, MOVE, COLL, EW). */
viz_cat viz_category(const hilo_instr *i)
{
	if (i->op == HILO_OP_PARAMETER)
		return VIZ_PARAMETER;
	if (i->op == HILO_OP_CUSTOM_CALL)
		return VIZ_CUSTOM_CALL;
	unsigned f = hilo_opcode_flags(i->op);
	if (f & HILO_OPF_CONST)
		return VIZ_CONSTANT;
	if (f & HILO_OPF_CTRL)
		return VIZ_CONTROL_FLOW;
	if (f & HILO_OPF_DOTC)
		return VIZ_DOT_CONV;
	if (f & HILO_OPF_MOVE)
		return VIZ_DATA_MOVEMENT;
	if (f & HILO_OPF_COLL)
		return VIZ_COLLECTIVE;
	if (f & HILO_OPF_EW)
		return VIZ_ELEMENTWISE;
	return VIZ_OTHER;
}

const char *hilo_op_category(const hilo_instr *i)
{
	return viz_cats[viz_category(i)].name;
}

/* Appends s escaped for a DOT double-quoted string (newlines as \n). */
static void esc(hilo_buf *b, const char *s, size_t n)
{
	for (size_t k = 0; k < n && s[k]; k++) {
		char c = s[k];
		if (c == '"' || c == '\\')
			hilo_buf_putc(b, '\\');
		if (c == '\n') {
			hilo_buf_puts(b, "\\n");
			continue;
		}
		hilo_buf_putc(b, c);
	}
}

static void esc_str(hilo_buf *b, const char *s)
{
	esc(b, s, strlen(s));
}

/* A constant small enough to print inside its users' labels. */
static bool small_constant(const hilo_instr *i)
{
	if (i->op != HILO_OP_CONSTANT || !hilo_instr_literal(i) || hilo_instr_literal(i)->elided ||
	    i->shape->type == HILO_T_TUPLE)
		return false;
	int64_t n = hilo_shape_elements(i->shape);
	return n >= 0 && n <= 4;
}

/* The commutative rows of opcodes.def need no operand index; every
 * other op with two or more operands (tuples included: which element is
 * which) gets one. */
static bool order_matters(const hilo_instr *i)
{
	return i->noperands >= 2 &&
		!(hilo_opcode_flags(i->op) & (HILO_OPF_COMM | HILO_OPF_COMM_INT));
}

typedef struct dotctx {
	hilo_buf *b;
	const hilo_module *m;
	const hilo_dot_opts *o;
	hilo_ptrmap shown;       /* instr -> (void *)1 when near `around` (around mode) */
	hilo_ptrmap hl;          /* id+1 -> (void *)1 when highlighted */
	hilo_ptrmap drawn;       /* instr -> (void *)1 when it is a node of the picture */
	bool partial;            /* around mode */
	uint32_t ndrawn;
	bool cut;
} dotctx;

static bool is_shown(const dotctx *x, const hilo_instr *i)
{
	return !x->partial || hilo_ptrmap_get(&x->shown, i) != NULL;
}

static bool is_hl(const dotctx *x, const hilo_instr *i)
{
	return x->o->nhighlight && hilo_ptrmap_get(&x->hl, (void *)((uintptr_t)i->id + 1));
}

/* A small constant read inside its users' labels instead of being a node;
 * never a highlighted one (a removed constant must be seen). */
static bool folded(const dotctx *x, const hilo_instr *i)
{
	return small_constant(i) && i->nusers && !is_hl(x, i);
}

static bool is_drawn(const dotctx *x, const hilo_instr *i)
{
	return hilo_ptrmap_get(&x->drawn, i) != NULL;
}

static void node(dotctx *x, const hilo_instr *i)
{
	hilo_buf *b = x->b;
	hilo_buf_printf(b, "    n%u [label=\"", i->id);
	if (i->is_root)
		hilo_buf_puts(b, "ROOT ");
	esc_str(b, i->name);
	hilo_buf_puts(b, "\\n");
	if (i->op == HILO_OP_CUSTOM_CALL) {
		const char *t = hilo_instr_get_string(i, HILO_A_CUSTOM_CALL_TARGET);
		hilo_buf_puts(b, "custom-call ");
		esc_str(b, t ? t : "?");
	} else {
		esc_str(b, hilo_opcode_name(i->op));
	}
	hilo_buf sh;
	hilo_buf_init_in(&sh, x->m->arena);
	hilo_shape_print_human(&sh, i->shape);
	hilo_buf_puts(b, "\\n");
	esc(b, sh.data ? sh.data : "", 120); /* long tuple shapes are cut */
	if (sh.len > 120)
		hilo_buf_puts(b, "...");
	hilo_buf_free(&sh);
	/* small constant operands read inline */
	for (uint32_t k = 0; k < i->noperands; k++) {
		const hilo_instr *o = i->operands[k];
		if (!folded(x, o))
			continue;
		hilo_buf lit;
		hilo_buf_init_in(&lit, x->m->arena);
		hilo_print_literal(&lit, hilo_instr_literal(o), false);
		hilo_buf_printf(b, "\\nop%u = ", k);
		esc(b, lit.data ? lit.data : "", 48);
		hilo_buf_free(&lit);
	}
	/* Two channels: the fill is always the category, a highlight is the
	 * border (and a line of text), so a replaced dot still reads as a dot. */
	const viz_cat_info *ci = &viz_cats[viz_category(i)];
	bool hl = is_hl(x, i);
	if (hl && x->o->highlight_note) {
		hilo_buf_puts(b, "\\n");
		esc_str(b, x->o->highlight_note);
	}
	hilo_buf_printf(b, "\", fillcolor=\"%s\"", ci->color);
	if (hl)
		hilo_buf_printf(b, ", color=\"%s\", penwidth=4",
			x->o->highlight_color ? x->o->highlight_color : "#ff6f00");
	hilo_buf_printf(b, ", tooltip=\"%s\"];\n", ci->name);
}

/* The operands of i that are not in the picture (beyond the depth, or
 * past the node limit): one dashed stub node naming them, so a cut
 * picture never passes for the whole story. */
static void inputs_stub(dotctx *x, const hilo_instr *i)
{
	uint32_t n = 0;
	for (uint32_t k = 0; k < i->noperands; k++)
		n += !is_drawn(x, i->operands[k]) && !folded(x, i->operands[k]);
	if (!n)
		return;
	hilo_buf *b = x->b;
	hilo_buf_printf(b, "    s%u [label=\"%u more input%s:", i->id, n, n == 1 ? "" : "s");
	uint32_t listed = 0;
	for (uint32_t k = 0; k < i->noperands; k++) {
		const hilo_instr *o = i->operands[k];
		if (is_drawn(x, o) || folded(x, o))
			continue;
		if (listed++ == 3) {
			hilo_buf_puts(b, "\\n...");
			break;
		}
		hilo_buf_puts(b, "\\n");
		esc_str(b, o->name);
	}
	hilo_buf_printf(b, "\", shape=box, style=\"dashed,rounded\", color=\"#757575\", fontcolor=\"#616161\", "
		"tooltip=\"operands not drawn: beyond the depth of the picture\"];\n"
		"    s%u -> n%u [style=dashed, color=\"#757575\"];\n", i->id, i->id);
}

/* Neighbourhood of `root`, `depth` edges away in both directions. */
static void mark_around(dotctx *x, const hilo_instr *root, int depth)
{
	hilo_arena *a = x->m->arena;
	const hilo_instr **q = hilo_heap_alloc(a, sizeof *q * 64);
	int *dist = hilo_heap_alloc(a, sizeof *dist * 64);
	size_t cap = 64, head = 0, tail = 0;
	hilo_ptrmap_put(&x->shown, root, (void *)1);
	q[tail] = root;
	dist[tail++] = 0;
	while (head < tail) {
		const hilo_instr *i = q[head];
		int di = dist[head++];
		if (di >= depth)
			continue;
		for (uint32_t k = 0; k < i->noperands + i->nusers; k++) {
			const hilo_instr *n = k < i->noperands ? i->operands[k] : i->users[k - i->noperands].user;
			if (hilo_ptrmap_get(&x->shown, n))
				continue;
			if (tail == cap) {
				size_t nc = cap * 2;
				q = hilo_heap_realloc(a, q, sizeof *q * nc);
				dist = hilo_heap_realloc(a, dist, sizeof *dist * nc);
				cap = nc;
			}
			hilo_ptrmap_put(&x->shown, n, (void *)1);
			q[tail] = n;
			dist[tail++] = di + 1;
		}
	}
	hilo_heap_free(a, q);
	hilo_heap_free(a, dist);
}

hilo_instr *viz_find_instr(const hilo_module *m, const char *name)
{
	if (name[0] == '%')
		name++; /* as the text writes a name: "%add.3" */
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (hilo_instr *i = m->comps[c]->first; i; i = i->next)
			if (!strcmp(i->name, name))
				return i;
	return NULL;
}

static bool write_dot(hilo_buf *out, const hilo_module *m, const hilo_dot_opts *o,
	hilo_diags *d);

/* Out of memory (the side tables live on the module arena's tracked heap,
 * under a guard on it) is an error, as is a full output buffer. */
bool hilo_write_dot(hilo_buf *out, const hilo_module *m, const hilo_dot_opts *o,
	hilo_diags *d)
{
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(d, NULL);
		return false;
	}
	bool ok = write_dot(out, m, o, d);
	hilo_oom_end(&g);
	if (ok && out->oom) {
		hilo_diag_oom(d, NULL);
		ok = false;
	}
	return ok;
}

static bool write_dot(hilo_buf *out, const hilo_module *m, const hilo_dot_opts *o,
	hilo_diags *d)
{
	hilo_dot_opts none;
	memset(&none, 0, sizeof none);
	dotctx x = {.b = out, .m = m, .o = o ? o : &none};
	hilo_ptrmap_init_in(&x.shown, m->arena);
	hilo_ptrmap_init_in(&x.hl, m->arena);
	for (size_t k = 0; k < x.o->nhighlight; k++)
		hilo_ptrmap_put(&x.hl, (void *)((uintptr_t)x.o->highlight[k] + 1), (void *)1);
	if (x.o->around) {
		const hilo_instr *t = viz_find_instr(m, x.o->around);
		if (!t) {
			hilo_diag_add(d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0,
				"--around: no instruction named '%s'", x.o->around);
			hilo_ptrmap_free(&x.shown);
			hilo_ptrmap_free(&x.hl);
			return false;
		}
		x.partial = true;
		mark_around(&x, t, x.o->depth > 0 ? x.o->depth : 2);
	}
	/* which instructions are nodes: near `around`, not folded into a
	 * user's label, and within max_nodes */
	hilo_ptrmap_init_in(&x.drawn, m->arena);
	for (uint32_t c = 0; c < m->ncomps && !x.cut; c++)
		for (const hilo_instr *i = m->comps[c]->first; i; i = i->next) {
			if (!is_shown(&x, i) || folded(&x, i))
				continue;
			if (x.o->max_nodes && x.ndrawn >= x.o->max_nodes) {
				x.cut = true;
				break;
			}
			hilo_ptrmap_put(&x.drawn, i, (void *)1);
			x.ndrawn++;
		}
	hilo_buf_puts(out, "digraph \"");
	esc_str(out, x.o->graph_name ? x.o->graph_name : m->name ? m->name : "module");
	hilo_buf_puts(out, "\" {\n  compound=true;\n  rankdir=TB;\n"
		"  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n"
		"  edge [fontname=\"Helvetica\", fontsize=8];\n");
	/* computations called by drawn nodes but not drawn themselves become
	 * one box each (around mode) */
	hilo_ptrmap comp_drawn;
	hilo_ptrmap_init_in(&comp_drawn, m->arena);
	for (uint32_t c = 0; c < m->ncomps; c++) {
		const hilo_comp *comp = m->comps[c];
		bool any = false;
		for (const hilo_instr *i = comp->first; i && !any; i = i->next)
			any = is_drawn(&x, i);
		if (!any)
			continue;
		hilo_ptrmap_put(&comp_drawn, comp, (void *)(uintptr_t)(c + 1));
		hilo_buf_printf(out, "  subgraph cluster_%u {\n    label=\"", c);
		esc_str(out, comp->is_entry ? "ENTRY " : "");
		esc_str(out, comp->name);
		hilo_buf_puts(out, "\";\n    style=rounded;\n    color=\"#90a4ae\";\n");
		for (const hilo_instr *i = comp->first; i; i = i->next)
			if (is_drawn(&x, i)) {
				node(&x, i);
				inputs_stub(&x, i);
			}
		hilo_buf_puts(out, "  }\n");
	}
	/* operand edges */
	for (uint32_t c = 0; c < m->ncomps; c++) {
		for (const hilo_instr *i = m->comps[c]->first; i; i = i->next) {
			if (!is_drawn(&x, i))
				continue;
			for (uint32_t k = 0; k < i->noperands; k++) {
				const hilo_instr *op = i->operands[k];
				if (!is_drawn(&x, op))
					continue;
				hilo_buf_printf(out, "  n%u -> n%u", op->id, i->id);
				if (order_matters(i))
					hilo_buf_printf(out, " [label=\"%u\"]", k);
				hilo_buf_puts(out, ";\n");
			}
			for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++) {
				const hilo_comp *cc = hilo_instr_called(i)[k];
				uintptr_t ci = (uintptr_t)hilo_ptrmap_get(&comp_drawn, cc);
				if (ci && cc->root && is_drawn(&x, cc->root)) {
					hilo_buf_printf(out, "  n%u -> n%u [style=dashed, color=\"#7e57c2\", lhead=cluster_%u];\n",
						i->id, cc->root->id, (unsigned)(ci - 1));
				} else {
					hilo_buf_printf(out, "  c%u_%u [label=\"", i->id, k);
					esc_str(out, cc->name);
					hilo_buf_printf(out, "\", shape=folder, fillcolor=\"#ede7f6\"];\n"
						"  n%u -> c%u_%u [style=dashed, color=\"#7e57c2\"];\n", i->id, i->id, k);
				}
			}
		}
	}
	if (x.cut)
		hilo_buf_printf(out, "  cut [label=\"graph cut at %u nodes: use --around=NAME --depth=N\", shape=note];\n",
			x.o->max_nodes);
	hilo_buf_puts(out, "}\n");
	hilo_ptrmap_free(&comp_drawn);
	hilo_ptrmap_free(&x.drawn);
	hilo_ptrmap_free(&x.shown);
	hilo_ptrmap_free(&x.hl);
	return true;
}
