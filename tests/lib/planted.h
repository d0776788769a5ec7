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

#endif
