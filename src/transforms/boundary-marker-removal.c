/* boundary-marker-removal: strips Neuron boundary markers.
 *
 * Rewrites: custom-call(x), custom_call_target="NeuronBoundaryMarker-Start"
 * or "NeuronBoundaryMarker-End", -> x, in every computation. x may be of
 * any shape, tuples included.
 *
 * Exact conditions and behaviour: hilo_pu_strip_boundary_markers
 * (src/transforms/pass_util.h), the one stripping the Neuron passes share:
 * a marker without exactly one operand, or whose shape is not compatible
 * with its operand's, is no identity and is kept (declined remark; the
 * first in the seed's wording "NeuronBoundaryMarker-Start expected to have
 * 1 operand but has N"); the
 * side-effect flag is ignored; control edges are relayed as the
 * tuple-simplifier relays them; a root marker's operand becomes the root.
 *
 * Why it is sound: the markers are identities that only delimit regions
 * for the Neuron compiler (the evaluator treats them as identities too);
 * replacing one with its operand keeps every value, and the relayed
 * control edges keep every order they forced on a side effect.
 *
 * Seed: 003 (the marker stripping neuron-dus-ds-index-simplifier and
 * dynamic-slice-mover perform).
 */
#include "pass_util.h"


hilo_pass_result hilo_pass_boundary_marker_removal(hilo_pass_ctx *ctx)
{
	return hilo_pu_strip_boundary_markers(ctx) ? HILO_PASS_CHANGED : HILO_PASS_UNCHANGED;
}
