/* Side effects through called computations; see
 * hilo_instr_has_side_effect_deep in include/hilo/ir.h. */
#include "hilo/ir.h"

enum { SE_UNKNOWN = 0, SE_NO = 1, SE_YES = 2, SE_BUSY = 3 };

typedef struct frame {
	const hilo_comp *c;
	const hilo_instr *i; /* next instruction to look at */
	uint32_t k;          /* next called computation of the previous one */
} frame;

/* Depth-first over the call graph with an explicit stack (any depth).
 * Every computation on the stack calls the one on top, so an effect found
 * on top (or a cycle back to the stack) is an effect of all of them. */
static bool comp_effect(const hilo_module *m, const hilo_comp *c, hilo_ptrmap *memo)
{
	uintptr_t s = (uintptr_t)hilo_ptrmap_get(memo, c);
	if (s != SE_UNKNOWN)
		return s != SE_NO;
	size_t n = 0, cap = 8;
	frame *st = hilo_heap_alloc(m->arena, cap * sizeof *st);
	if (!st)
		return true; /* no memory: conservatively effectful */
	st[n++] = (frame){c, c->first, 0};
	hilo_ptrmap_put(memo, c, (void *)(uintptr_t)SE_BUSY);
	bool se = false;
	while (n && !se) {
		frame *f = &st[n - 1];
		if (!f->i) { /* done: no effect in f->c */
			hilo_ptrmap_put(memo, f->c, (void *)(uintptr_t)SE_NO);
			n--;
			continue;
		}
		const hilo_instr *i = f->i;
		if (f->k == 0 && hilo_instr_has_side_effect(m, i)) {
			se = true;
			break;
		}
		if (f->k >= hilo_instr_ncalled(i)) {
			f->i = i->next;
			f->k = 0;
			continue;
		}
		const hilo_comp *callee = hilo_instr_called(i)[f->k++];
		uintptr_t cs = (uintptr_t)hilo_ptrmap_get(memo, callee);
		if (cs == SE_NO)
			continue;
		if (cs != SE_UNKNOWN) { /* SE_YES, or SE_BUSY: a cycle */
			se = true;
			break;
		}
		if (n == cap) {
			cap *= 2;
			frame *ns = hilo_heap_realloc(m->arena, st, cap * sizeof *st);
			if (!ns) {
				se = true;
				break;
			}
			st = ns;
		}
		hilo_ptrmap_put(memo, callee, (void *)(uintptr_t)SE_BUSY);
		st[n++] = (frame){callee, callee->first, 0};
	}
	for (size_t k = 0; k < n; k++) /* what is left on the stack calls the effect */
		hilo_ptrmap_put(memo, st[k].c, (void *)(uintptr_t)SE_YES);
	hilo_heap_free(m->arena, st);
	return se;
}

bool hilo_comp_has_side_effect(const hilo_module *m, const hilo_comp *c, hilo_ptrmap *memo)
{
	if (memo)
		return comp_effect(m, c, memo);
	hilo_ptrmap tmp;
	hilo_ptrmap_init_in(&tmp, m->arena);
	bool se = comp_effect(m, c, &tmp);
	hilo_ptrmap_free(&tmp);
	return se;
}

bool hilo_instr_has_side_effect_deep(const hilo_module *m, const hilo_instr *i, hilo_ptrmap *memo)
{
	if (hilo_instr_has_side_effect(m, i))
		return true;
	if (!hilo_instr_ncalled(i))
		return false;
	hilo_ptrmap tmp, *mm = memo;
	if (!mm) {
		hilo_ptrmap_init_in(&tmp, m->arena);
		mm = &tmp;
	}
	bool se = false;
	for (uint32_t k = 0; k < hilo_instr_ncalled(i) && !se; k++)
		se = comp_effect(m, hilo_instr_called(i)[k], mm);
	if (!memo)
		hilo_ptrmap_free(&tmp);
	return se;
}
