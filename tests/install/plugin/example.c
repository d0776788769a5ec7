/* example.c - a hilo pass plugin (docs/plugins.md quotes this file whole).
 * Build:  cc -std=c17 -shared -fPIC example.c $(pkg-config --cflags --libs hilo) -o example.so
 * Run:    hilo-opt --load-pass-plugin=./example.so --passes=times-two-to-add,dce in.hlo
 *
 * times-two-to-add  multiply(x, 2) -> add(x, x) for f32: sound, x*2 and x+x
 *                   round alike for every float, NaN and infinity included
 * add-to-subtract   add(a, b) -> subtract(a, b): wrong on purpose, to watch
 *                   --check-equivalence catch a pass that changes the result
 * Both use the public IR functions of hilo/ir.h only. */
#include <hilo/plugin.h>

#include <string.h>

HILO_PLUGIN_DEFINE_API_VERSION;

/* Is i the f32 constant 2, or a broadcast of it? */
static bool is_two(const hilo_instr *i)
{
	if (i->op == HILO_OP_BROADCAST && i->noperands == 1)
		i = i->operands[0];
	const hilo_literal *l = hilo_instr_literal(i);
	if (!l || l->elided || l->shape->type != HILO_T_F32 || l->shape->rank != 0)
		return false;
	float v;
	memcpy(&v, hilo_literal_elem(l, 0), sizeof v);
	return v == 2.0f;
}

static hilo_pass_result times_two_to_add(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	for (uint32_t c = 0; c < m->ncomps; c++) {
		hilo_comp *comp = m->comps[c];
		for (hilo_instr *i = comp->first, *next; i; i = next) {
			next = i->next;
			if (i->op != HILO_OP_MULTIPLY || i->shape->type != HILO_T_F32)
				continue;
			int k = is_two(i->operands[1]) ? 0 : is_two(i->operands[0]) ? 1 : -1;
			if (k < 0)
				continue;
			hilo_instr *x = i->operands[k];
			hilo_instr *add = hilo_instr_create(m, HILO_OP_ADD, i->shape, NULL);
			hilo_instr_add_operand(m, add, x);
			hilo_instr_add_operand(m, add, x);
			hilo_instr_copy_metadata(m, add, i);
			hilo_comp_insert_before(comp, i, add);
			hilo_instr_replace_all_uses(m, i, add);
			hilo_comp_remove(comp, i);
			hilo_remark(ctx, comp, add, "rewritten", "multiply %s by 2 is add(%s, %s)",
				x->name, x->name, x->name);
			ctx->rewrites++;
		}
	}
	return ctx->rewrites ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}

static hilo_pass_result add_to_subtract(hilo_pass_ctx *ctx)
{
	hilo_module *m = ctx->m;
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (hilo_instr *i = m->comps[c]->first; i; i = i->next)
			if (i->op == HILO_OP_ADD && hilo_instr_set_opcode(i, HILO_OP_SUBTRACT))
				ctx->rewrites++;
	return ctx->rewrites ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}

bool hilo_plugin_init(hilo_plugin_registrar *r)
{
	return hilo_plugin_register_pass(r, "times-two-to-add",
			"multiply(x, 2) -> add(x, x) for f32 (example plugin)", times_two_to_add) &&
		hilo_plugin_register_pass(r, "add-to-subtract",
			"add -> subtract: wrong on purpose (example plugin)", add_to_subtract);
}
