/* Raw-text attributes <-> typed XLA proto fields (src/formats/proto/pb_attrs.c). */
#ifndef HILO_PB_ATTRS_H
#define HILO_PB_ATTRS_H

#include "pb_internal.h"

/* Parses the attribute text into p's typed field for f (allocating in a).
 * false when the text is not in a form hilo understands. */
bool pbx_parse(hilo_arena *a, Xla__HloInstructionProto *p, pb_field f, const char *text);
/* Appends the attribute text XLA would print for p's typed field f.
 * false when the field is absent. */
bool pbx_render(hilo_buf *b, const Xla__HloInstructionProto *p, pb_field f);

/* A dot's algorithm= name <-> PrecisionConfig.Algorithm: 0 (ALG_UNSET)
 * for a name XLA does not know; NULL for a value without a name. */
int pbx_dot_algorithm(const char *name);
const char *pbx_dot_algorithm_name(int v);

/* A custom-call's operand_layout_constraints text, {SHAPE, ...}, as XLA
 * prints operand_shapes_with_layout. */
void pbx_shapes_render(hilo_buf *b, const hilo_shape *const *s, size_t n);

/* Module attributes: frontend_attributes, input_output_alias, buffer_donor. */
bool pbx_module_fa(hilo_arena *a, Xla__FrontendAttributes **out, const char *text);
bool pbx_io_alias(hilo_arena *a, Xla__HloInputOutputAliasProto **out, const char *text);
bool pbx_buffer_donor(hilo_arena *a, Xla__HloBufferDonorProto **out, const char *text);
/* The text of a module's frontend_attributes ({k="v",...}), as XLA prints it. */
bool pbx_module_fa_render(hilo_buf *b, const Xla__FrontendAttributes *fa);

#endif
