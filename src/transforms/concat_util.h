/* concat_util.h - helpers shared by the concatenation passes
 * (slice-of-concat-optimizer, neuron_repeated_dus_to_concat,
 * simplify-concat). Internal to libhilo; not part of the public API. */
#ifndef HILO_CONCAT_UTIL_H
#define HILO_CONCAT_UTIL_H

#include "hilo/pass.h"

/* Start indices of dynamic-slice / dynamic-update-slice: read them with
 * hilo_known_starts() (include/hilo/pass.h), the one reader. */

/* Can `to` replace `from` in every use without changing any shape that is
 * printed or checked: same element type and dims, same dynamic flags, and
 * equal layouts when both carry one. */
bool hilo_cu_interchangeable(const hilo_shape *from, const hilo_shape *to);

/* Runs another pass (dce, tuple-simplifier) over the module as the calling
 * pass's clean-up: its remarks are suppressed and its changes are not
 * counted as rewrites. Returns the other pass's result. */
hilo_pass_result hilo_cu_cleanup(hilo_pass_ctx *ctx, hilo_pass_fn fn);
#define hilo_cu_dce(ctx) hilo_cu_cleanup((ctx), hilo_pass_dce)

/* XLA's ReplaceInstruction clean-up: removes i if it is dead (no users, not
 * the root, not a parameter, no side effect, no control edges), then each
 * operand that became dead, transitively. */
void hilo_cu_erase_dead(hilo_module *m, hilo_instr *i);

/* A scalar constant whose every element is exactly zero (+0 or -0 for
 * floats, 0 for ints, false for pred) and whose values are known; also a
 * broadcast of such a scalar. */
bool hilo_cu_is_zero(const hilo_instr *i);

/* Is i's value never a signalling NaN: not a float, made by an op that
 * quiets NaNs (hilo_opcode_quiets_nan), moved from such values (reshape,
 * broadcast, transpose, slice, concatenate, pad, reverse, copy), or a
 * constant without one? A parameter may hold one. x + (-0) == x bit for
 * bit only for such an x: the add quiets a signalling NaN. */
bool hilo_cu_never_snan(const hilo_instr *i);

/* A scalar integer constant of type t holding v, inserted into c before
 * `before`; NULL when memory runs out. */
hilo_instr *hilo_cu_int_constant(hilo_module *m, hilo_comp *c, hilo_instr *before, hilo_ptype t,
	int64_t v);

/* broadcast(constant 0) of array shape s (the module's; +0 for floats),
 * both inserted into c before `before`; NULL when memory runs out. */
hilo_instr *hilo_cu_zero_of_shape(hilo_module *m, hilo_comp *c, hilo_instr *before,
	hilo_shape *s);

#endif
