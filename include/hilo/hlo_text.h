/* hilo/hlo_text.h - XLA HLO text: parser and printer. */
#ifndef HILO_HLO_TEXT_H
#define HILO_HLO_TEXT_H

#include "hilo/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses one module. On error returns NULL and adds located diagnostics
 * (filename is used in them). The source need not be NUL-terminated. */
HILO_API hilo_module *hilo_parse_text(const char *src, size_t len, const char *filename,
	hilo_diags *diags);

/* Prints the module. HILO_STYLE_AUTO uses the style the input was in.
 * Returns false only when out of memory. */
HILO_API bool hilo_print_text(hilo_buf *out, const hilo_module *m, hilo_print_style style);

/* Parses a literal in HLO syntax ("f32[2] {1, 2}") for the given shape
 * when shape is non-NULL (else the text must start with a shape). */
HILO_API hilo_literal *hilo_parse_literal(hilo_module *m, const char *src, size_t len,
	const char *filename, hilo_diags *diags);
/* Parses a shape in HLO syntax ("f32[2,3]{1,0}", "(s32[], pred[4])"),
 * interned in m's shape table. With used NULL the whole text must be the
 * shape; else the shape is read from the start of the text and *used is
 * set to the bytes it took. NULL + located diagnostic on bad text. */
HILO_API hilo_shape *hilo_parse_shape(hilo_module *m, const char *src, size_t len, size_t *used,
	const char *filename, hilo_diags *diags);
/* Reads an input literal as hilo-run --input does: "SHAPE VALUES" in
 * XLA's literal text ("f32[2] {1, 2}", "(s32[], f32[2]) (1, {2, 3})",
 * a layout after the shape is allowed). NULL + diagnostic on bad input
 * or elided values. */
HILO_API hilo_literal *hilo_read_input_literal(hilo_module *m, const char *txt, size_t len,
	const char *path, hilo_diags *d);
HILO_API void hilo_print_literal(hilo_buf *out, const hilo_literal *lit, bool with_shape);
/* An entry_computation_layout value, {(p0, p1, ...)->root}, as XLA
 * prints it (an index comment before every fifth parameter). */
HILO_API void hilo_print_entry_layout(hilo_buf *out, const hilo_shape *const *params, uint32_t n,
	const hilo_shape *root);
/* True for a module header attribute XLA prints after
 * entry_computation_layout (replica_count, frontend_attributes, ...). */
HILO_API bool hilo_header_attr_after_entry_layout(const char *key);
/* Element k of an array of element type t at data, as a scalar literal of
 * that type prints (a one-element view needs no shape). */
HILO_API void hilo_print_element(hilo_buf *out, hilo_ptype t, const void *data, size_t k);

#ifdef __cplusplus
}
#endif

#endif
