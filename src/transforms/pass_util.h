/* pass_util.h - helpers shared by passes of every kind (the concatenation
 * passes have theirs in concat_util.h). Internal to libhilo; not part of
 * the public API. Each helper exists once: the unit.pass_helpers test
 * fails on a private copy elsewhere in src/. */
#ifndef HILO_PASS_UTIL_H
#define HILO_PASS_UTIL_H

#include "hilo/pass.h"

/* ---- boundary markers ----------------------------------------------------
 * The one stripping of NeuronBoundaryMarker-Start/-End custom-calls
 * (hilo_instr_is_boundary_marker), used by boundary-marker-removal,
 * neuron-dus-ds-index-simplifier and dynamic-slice-mover (seed 003: both
 * Neuron passes strip them "with the same idiom"). A marker is an identity
 * of its operand's value, and only then is it removed. In every
 * computation, in instruction order:
 *  - a marker without exactly one operand is kept, with a "declined"
 *    remark in the seed's CHECK wording "<target> expected to have 1
 *    operand but has N" (the verifier accepts such a custom-call, so it is
 *    no input error; it is no identity, and the evaluator and the
 *    validator treat it as an opaque custom-call);
 *  - so is a marker whose shape is not compatible with its operand's
 *    (element types and dims, tuples element-wise): "boundary marker shape
 *    differs from its operand's";
 *  - every other marker is replaced by its operand in all uses (the root
 *    included: the operand becomes the root) and removed, with a
 *    "rewritten" remark "stripped <target>". Tuple operands are stripped
 *    like arrays. custom_call_has_side_effect is ignored: a marker is an
 *    identity whatever its flag says (the validator's records agree).
 *    Control edges are relayed as the tuple-simplifier relays them
 *    (hilo_pu_relay_control), so every order they forced on a side effect
 *    is still forced.
 * Markers of markers all go (the operand of a stripped marker may be
 * another marker, stripped in turn). Returns the number stripped, which is
 * also added to ctx->rewrites. */
uint32_t hilo_pu_strip_boundary_markers(hilo_pass_ctx *ctx);

/* XLA's RelayControlDependenciesSafely, before `old` is replaced by `with`:
 * each control predecessor P of old becomes a control predecessor of every
 * user of old and of every control successor of old that does not read P
 * (XLA gives P to the
 * successors only when old has no users; then a successor that was after P
 * through old lost that order: issue 30, docs/proof.md "Effects are
 * events"), and `with` a control predecessor of every control successor of old; then
 * old's edges are dropped. P is not put on `with` (which is computed before
 * old and may have to stay before P). */
void hilo_pu_relay_control(hilo_module *m, hilo_instr *old, hilo_instr *with);

/* ---- call sites ----------------------------------------------------------
 * Counts, for every computation of m, the references to it: one per entry
 * of an instruction's called[] list (a `call`, a while's body and
 * condition, a reduce's to_apply, a fusion ...). sites maps a computation
 * to (void *)(uintptr_t)count; computations nobody calls are absent (count
 * 0). One walk over the module. */
void hilo_pu_count_call_sites(const hilo_module *m, hilo_ptrmap *sites);
/* Adds the references of one instruction i to sites (a hilo_ptrmap *):
 * the callback form, for hilo_module_comp_post_order_calls (the order and
 * the counts in one walk). */
void hilo_pu_add_call_sites_of(hilo_instr *i, void *sites);
/* The count hilo_pu_count_call_sites() stored for c (0 when absent). */
uint32_t hilo_pu_call_sites(const hilo_ptrmap *sites, const hilo_comp *c);
/* Adds delta (may be negative) to c's count. */
void hilo_pu_call_sites_add(hilo_ptrmap *sites, const hilo_comp *c, int64_t delta);

#endif
