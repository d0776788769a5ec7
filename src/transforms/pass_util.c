/* Helpers shared by passes of every kind; see pass_util.h. */
#include "pass_util.h"

#include <stdint.h>

void hilo_pu_relay_control(hilo_module *m, hilo_instr *old, hilo_instr *with)
{
	for (uint32_t k = 0; k < hilo_instr_nctrl_preds(old); k++) {
		hilo_instr *p = hilo_instr_ctrl_preds(old)[k];
		for (uint32_t u = 0; u < old->nusers; u++)
			if (old->users[u].user != p)
				hilo_instr_add_ctrl_pred(m, old->users[u].user, p);
		/* the successors too, users or not: p -> old -> s ordered p
		 * before s, and a data user of old is no control successor (one
		 * that reads p waits for it anyway) */
		for (uint32_t j = 0; j < hilo_instr_nctrl_succs(old); j++) {
			hilo_instr *sj = hilo_instr_ctrl_succs(old)[j];
			bool reads = false;
			for (uint32_t q = 0; q < sj->noperands && !reads; q++)
				reads = sj->operands[q] == p;
			if (sj != p && !reads)
				hilo_instr_add_ctrl_pred(m, sj, p);
		}
	}
	for (uint32_t j = 0; j < hilo_instr_nctrl_succs(old); j++)
		if (hilo_instr_ctrl_succs(old)[j] != with)
			hilo_instr_add_ctrl_pred(m, hilo_instr_ctrl_succs(old)[j], with);
	hilo_instr_remove_ctrl_deps(old);
}

uint32_t hilo_pu_strip_boundary_markers(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	uint32_t n = 0;
	for (uint32_t c = 0; c < m->ncomps; c++) {
		hilo_comp *comp = m->comps[c];
		for (hilo_instr *i = comp->first, *next; i; i = next) {
			next = i->next;
			if (!hilo_instr_is_boundary_marker(i))
				continue;
			const char *t = hilo_instr_get_string(i, HILO_A_CUSTOM_CALL_TARGET);
			if (i->noperands != 1) {
				/* the seed's CHECK wording; not an identity of anything */
				hilo_remark(ctx, comp, i, "declined", "%s expected to have 1 operand but has %u", t,
					i->noperands);
				continue;
			}
			hilo_instr *op = i->operands[0];
			if (!hilo_shape_compatible(i->shape, op->shape)) {
				/* not an identity: removing it would change a shape */
				hilo_remark(ctx, comp, i, "declined", "boundary marker shape differs from its operand's");
				continue;
			}
			if (hilo_instr_nctrl_preds(i) || hilo_instr_nctrl_succs(i))
				hilo_pu_relay_control(m, i, op);
			hilo_remark(ctx, comp, i, "rewritten", "stripped %s", t);
			hilo_instr_replace_all_uses(m, i, op);
			hilo_comp_remove(comp, i);
			n++;
		}
	}
	ctx->rewrites += n;
	return n;
}

void hilo_pu_add_call_sites_of(hilo_instr *i, void *sites)
{
	for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++)
		hilo_pu_call_sites_add(sites, hilo_instr_called(i)[k], 1);
}

void hilo_pu_count_call_sites(const hilo_module *m, hilo_ptrmap *sites)
{
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (hilo_instr *i = m->comps[c]->first; i; i = i->next)
			hilo_pu_add_call_sites_of(i, sites);
}

uint32_t hilo_pu_call_sites(const hilo_ptrmap *sites, const hilo_comp *c)
{
	return (uint32_t)(uintptr_t)hilo_ptrmap_get(sites, c);
}

void hilo_pu_call_sites_add(hilo_ptrmap *sites, const hilo_comp *c, int64_t delta)
{
	int64_t n = (int64_t)(uintptr_t)hilo_ptrmap_get(sites, c) + delta;
	hilo_ptrmap_put(sites, c, (void *)(uintptr_t)(n > 0 ? n : 0));
}
