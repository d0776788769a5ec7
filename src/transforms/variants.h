/* variants.h - the variation points of four real passes (internal to
 * libhilo, never public API). Each is a function the pass calls at one
 * decision; the pass's public entry (hilo_pass_<name>) passes the sound
 * one defined beside it. The deliberately unsound test passes of tests/lib
 * (linked only into test binaries) run the same code with a plausible bug
 * in its place, so --check-equivalence is tested against the real pass's
 * code. The passes hold no test-only flag: they call what they are given. */
#ifndef HILO_TRANSFORMS_VARIANTS_H
#define HILO_TRANSFORMS_VARIANTS_H

#include "hilo/pass.h"

/* dce: does dead instruction i have side effects that keep it (sound:
 * hilo_instr_has_side_effect_deep, through the computations it calls) */
typedef bool (*hilo_dce_effect_fn)(const hilo_module *m, const hilo_instr *i, hilo_ptrmap *memo);
typedef struct hilo_dce_variant {
	hilo_dce_effect_fn has_effect;
	/* carries fusion f's operand-indexed attributes through the operand
	 * edit map (old number -> new, -1 removed); false keeps the operand
	 * (sound: hilo_instr_renumber_operand_attrs) */
	bool (*renumber)(hilo_module *m, hilo_instr *f, const int64_t *map, size_t nmap);
} hilo_dce_variant;
hilo_pass_result hilo_dce_run(hilo_pass_ctx *ctx, const hilo_dce_variant *v);

/* slice-of-concat-optimizer */
typedef struct hilo_soc_variant {
	/* where concatenate operand k starts on the concatenate dimension, from
	 * the sum of the extents before it (sound: that sum) */
	int64_t (*operand_start)(int64_t running);
	/* the start of dimension d of dynamic-slice ds as matched, from its
	 * clamped start (sound: the clamped start) */
	int64_t (*slice_start)(const hilo_instr *ds, int d, int64_t clamped);
} hilo_soc_variant;
hilo_pass_result hilo_soc_run(hilo_pass_ctx *ctx, const hilo_soc_variant *v);

/* neuron_repeated_dus_to_concat: the key the tiled updates of a chain are
 * concatenated in, from an update's offset on the concatenate axis and
 * its iterationidx= token (-1 when it has none); a stable sort by it
 * (sound: the offset, the order the tiling check left them in) */
typedef int64_t (*hilo_dus_slab_key_fn)(int64_t offset, int64_t iter);
hilo_pass_result hilo_dus_concat_run(hilo_pass_ctx *ctx, hilo_dus_slab_key_fn slab_key);

/* neuron_all_gather_duplicate_remover: appends the configuration of
 * all-gather ag to the dedup key b; crossed is true for an all-gather the
 * up-walk to the parameter crosses, false for the candidate itself (sound:
 * hilo_ag_put_config(b, ag, true) for both) */
typedef void (*hilo_ag_config_fn)(hilo_buf *b, const hilo_instr *ag, bool crossed);
hilo_pass_result hilo_ag_dedup_run(hilo_pass_ctx *ctx, hilo_ag_config_fn put_config);
/* The configuration key of ag: shape, gather dimensions (with_dims),
 * device-id, layout and channel flags, replica groups, other attributes. */
void hilo_ag_put_config(hilo_buf *b, const hilo_instr *ag, bool with_dims);

/* call-inliner: does a control successor of the inlined call wait for
 * clone cl of a callee instruction (sound: every clone that performs an
 * effect, hilo_instr_has_side_effect_deep, besides the root) */
typedef bool (*hilo_inline_waits_fn)(const hilo_module *m, const hilo_instr *cl, hilo_ptrmap *memo);
hilo_pass_result hilo_inliner_run(hilo_pass_ctx *ctx, hilo_inline_waits_fn waits);

/* simplify-concat: is x + (-0) the value x bit for bit, so that an add of
 * -0 pads of x may pass x on (sound: hilo_cu_never_snan, x is never a
 * signalling NaN, which the add would quiet) */
typedef bool (*hilo_concat_add_keeps_fn)(const hilo_instr *x);
hilo_pass_result hilo_simplify_concat_run(hilo_pass_ctx *ctx, hilo_concat_add_keeps_fn keeps);

#endif
