/* planted.h - what the test-only passes of tests/lib share (test binaries
 * only, never part of libhilo or its API).
 *
 * A test-only pass (tests/lib/test_passes.def) that needs a real pass's own
 * code to make its bug realistic runs the pass's internal entry with a
 * buggy variant of one of its decisions (src/transforms/variants.h); the
 * real passes hold no test-only flag. Test-only passes that only perturb
 * a real pass's input or result call the pass as it is. */
#ifndef HILO_PLANTED_H
#define HILO_PLANTED_H

#include "hilo/float.h"
#include "hilo/pass.h"
#include "variants.h"

/* Element k of an integer constant i, raw (no clamp), as the test passes
 * reading of a start or step; false when i is not such a constant. */
static inline bool hilo_plant_const_int(const hilo_instr *i, size_t k, int64_t *v)
{
	return i && hilo_ptype_is_int(i->shape->type) && hilo_instr_const_int_at(i, k, v);
}

/* Drops the first outfeed of c: its users (and the root, if it is one)
 * take its token operand instead. False when c has none. */
static inline bool hilo_plant_drop_outfeed(hilo_module *m, hilo_comp *c)
{
	for (hilo_instr *i = c->first; i; i = i->next) {
		if (i->op != HILO_OP_OUTFEED || i->noperands < 2)
			continue;
		hilo_instr *tok = i->operands[1];
		hilo_instr_replace_all_uses(m, i, tok);
		if (c->root == i)
			hilo_comp_set_root(c, tok);
		hilo_instr_remove_ctrl_deps(i);
		hilo_comp_remove(c, i);
		return true;
	}
	return false;
}

#endif
