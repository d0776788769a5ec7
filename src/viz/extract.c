/* Sub-module extraction (include/hilo/viz.h), behind
 * `hilo-opt --extract=NAME [--height=N]`, like XLA's hlo_extractor: the
 * way to cut a failing region out of a 40k-instruction dump, to report a
 * bug or to run it with hilo-run.
 *
 * The module is copied (ids and names kept); in the copy a new entry
 * computation is built from the instruction's operand cone, `height`
 * levels up (negative: the whole cone; the start of an async piece
 * kept is kept too, at the same level). Operands at the cut become new
 * parameters of the same shape, in the order they are first met; constants
 * and iotas at the cut are copied instead (they need no input). Called
 * computations are shared with the copy, the old computations that the new
 * entry does not reach are removed, and the result is verified. */
#include "hilo/verify.h"
#include "hilo/viz.h"
#include "viz/viz_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct xctx {
	hilo_module *m;
	hilo_comp *e;            /* the new entry */
	hilo_ptrmap map;         /* old instr -> new instr */
	uint32_t nparams;
} xctx;

/* The new instruction standing for old instruction i at depth `depth`
 * below the extracted root (built on first use, operands first). The
 * recursion depth is bounded by height, or by the computation's depth,
 * and walked with an explicit stack to stay safe on deep chains. */
static hilo_instr *build(xctx *x, hilo_instr *root, int height)
{
	typedef struct frame {
		hilo_instr *i;
		int depth;
		uint32_t next;       /* next operand to visit */
	} frame;
	size_t cap = 64, n = 0;
	frame *st = hilo_heap_alloc(x->m->arena, cap * sizeof *st);
	st[n++] = (frame){root, 0, 0};
	hilo_instr *result = NULL;
	while (n) {
		frame *f = &st[n - 1];
		hilo_instr *i = f->i;
		if (hilo_ptrmap_get(&x->map, i)) {
			n--;
			continue;
		}
		bool cut = i->op == HILO_OP_PARAMETER || (height >= 0 && f->depth >= height && f != &st[0]);
		bool keep = i->op == HILO_OP_CONSTANT || i->op == HILO_OP_IOTA;
		if (cut && !keep) {
			/* the old computations go away: the new entry keeps the names */
			hilo_instr *p = hilo_instr_create(x->m, HILO_OP_PARAMETER, i->shape, NULL);
			p->name = i->name;
			p->u.param_no = x->nparams++;
			hilo_comp_add_param(x->m, x->e, p);
			hilo_comp_append(x->e, p);
			hilo_ptrmap_put(&x->map, i, p);
			n--;
			continue;
		}
		if (f->next < i->noperands) {
			hilo_instr *o = i->operands[f->next++];
			if (!hilo_ptrmap_get(&x->map, o)) {
				if (n == cap) {
					st = hilo_heap_realloc(x->m->arena, st, 2 * cap * sizeof *st);
					cap *= 2;
				}
				/* an async piece's start is kept with it (XLA
				 * refuses a -done whose operand is a parameter) */
				int d = st[n - 1].depth + !(st[n - 1].next == 1 && hilo_opcode_completes_async(i->op));
				st[n++] = (frame){o, d, 0};
			}
			continue;
		}
		hilo_instr *c = hilo_instr_clone(x->m, i, NULL);
		c->name = i->name;
		for (uint32_t k = 0; k < i->noperands; k++)
			hilo_instr_add_operand(x->m, c, hilo_ptrmap_get(&x->map, i->operands[k]));
		hilo_comp_append(x->e, c);
		hilo_ptrmap_put(&x->map, i, c);
		n--;
	}
	hilo_heap_free(x->m->arena, st);
	result = hilo_ptrmap_get(&x->map, root);
	return result;
}

static bool extract(hilo_module *m, const char *name, int height, hilo_diags *d);

static bool comp_reached(const hilo_comp *c, void *reach)
{
	return hilo_ptrmap_get(reach, c) != NULL;
}

/* The copy is built under a guard on its arena: out of memory anywhere
 * (the copy's IR, the side tables on its tracked heap, its verification)
 * is reported and the copy destroyed. */
hilo_module *hilo_extract(const hilo_module *src, const char *name, int height,
	hilo_diags *d)
{
	if (!viz_find_instr(src, name)) {
		hilo_diag_add(d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0,
			"--extract: no instruction named '%s'", name);
		return NULL;
	}
	hilo_module *m = hilo_module_clone(src);
	if (!m) {
		hilo_diag_oom(d, NULL);
		return NULL;
	}
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(d, NULL);
		hilo_module_destroy(m);
		return NULL;
	}
	/* a leading '%' as the text writes a name: the entry is extracted_NAME */
	bool ok = extract(m, name[0] == '%' ? name + 1 : name, height, d);
	hilo_oom_end(&g);
	if (!ok) {
		hilo_module_destroy(m);
		return NULL;
	}
	return m;
}

/* Turns m (a copy) into the extracted module; false with a diagnostic. */
static bool extract(hilo_module *m, const char *name, int height, hilo_diags *d)
{
	hilo_instr *t = viz_find_instr(m, name);
	xctx x = {.m = m};
	hilo_ptrmap_init_in(&x.map, m->arena);
	char ename[512];
	snprintf(ename, sizeof ename, "extracted_%s", name);
	const char *en = hilo_module_unique_name(m, ename);
	x.e = hilo_comp_create(m, en);
	hilo_instr *root = build(&x, t, height);
	hilo_ptrmap_free(&x.map);
	if (!root) {
		hilo_diag_add(d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0,
			"internal error: extracting '%s' built no root", name);
		return false;
	}
	hilo_comp_set_root(x.e, root);
	x.e->print_signature = true;
	hilo_module_add_comp(m, x.e, NULL);
	hilo_module_set_entry(m, x.e);
	/* keep the computations the new entry reaches (callees first) */
	uint32_t n = 0;
	hilo_comp **order = hilo_module_comp_post_order(m, &n);
	hilo_ptrmap reach;
	hilo_ptrmap_init_in(&reach, m->arena);
	hilo_ptrmap_put(&reach, x.e, (void *)1);
	for (uint32_t k = n; k-- > 0;) {
		hilo_comp *c = order[k];
		if (!hilo_ptrmap_get(&reach, c))
			continue;
		for (hilo_instr *i = c->first; i; i = i->next)
			for (uint32_t j = 0; j < hilo_instr_ncalled(i); j++)
				hilo_ptrmap_put(&reach, hilo_instr_called(i)[j], (void *)1);
	}
	for (uint32_t c = m->ncomps; c-- > 0;) {
		hilo_comp *comp = m->comps[c];
		if (hilo_ptrmap_get(&reach, comp))
			continue;
		/* drop the computation's instructions' uses before unlinking it */
		for (hilo_instr *i = comp->last; i; i = i->prev)
			hilo_instr_clear_operands(i);
	}
	hilo_module_retain_comps(m, comp_reached, &reach);
	hilo_ptrmap_free(&reach);
	/* the old signature's module attributes no longer apply */
	uint32_t w = 0;
	for (uint32_t k = 0; k < m->nattrs; k++) {
		const char *key = m->attrs[k].key;
		if (!strcmp(key, "entry_computation_layout") || !strcmp(key, "input_output_alias") ||
		    !strcmp(key, "buffer_donor"))
			continue;
		m->attrs[w++] = m->attrs[k];
	}
	m->nattrs = w;
	m->proto_extra = NULL;
	if (!hilo_verify(m, m->name, d)) {
		hilo_diag_add(d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0,
			"internal error: the extracted module of '%s' does not verify", name);
		return false;
	}
	return true;
}
