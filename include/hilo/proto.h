/* hilo/proto.h - XLA's binary HloModuleProto: read and write.
 *
 * The format torch-neuronx and neuronx-cc exchange (model.hlo_module.pb,
 * graph.hlo). The messages are declared in proto/hlo.proto with XLA's
 * field numbers and compiled with protobuf-c at build time.
 *
 * Reading accepts an HloModuleProto, or one wrapped in an HloProto or an
 * HloSnapshot. Fields the reader does not model are kept and written back
 * unchanged by hilo_proto_write. Text details XLA's protos do not record
 * (attribute order, header comments, print style) travel in hilo's own
 * extension fields (numbers 1000 and up), which XLA ignores, so
 * text -> pb -> text reproduces the text.
 */
#ifndef HILO_PROTO_H
#define HILO_PROTO_H

#include "hilo/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses a binary proto into a new module. On bad input (truncated or
 * corrupt bytes, dangling or duplicate ids, call cycles, unknown opcodes,
 * inconsistent shapes) returns NULL with diagnostics naming filename. */
HILO_API hilo_module *hilo_proto_read(const void *data, size_t len, const char *filename,
	hilo_diags *d);

/* Appends the module as a binary HloModuleProto to out. Returns false
 * (with a diagnostic) only when out of memory or the module is not
 * representable. */
HILO_API bool hilo_proto_write(hilo_buf *out, const hilo_module *m, hilo_diags *d);

/* The message a module is written as: the form it was read in (a binary
 * HloModuleProto, HloProto or HloSnapshot; modules from text: an
 * HloModuleProto), or one of the three. A wrapper hilo makes holds the
 * module alone (and a snapshot the arguments it was read with, if any). */
typedef enum hilo_proto_form {
	HILO_PROTO_AS_READ,
	HILO_PROTO_MODULE,
	HILO_PROTO_HLO_PROTO,
	HILO_PROTO_SNAPSHOT,
} hilo_proto_form;

/* hilo_proto_write in the given form. */
HILO_API bool hilo_proto_write_as(hilo_buf *out, const hilo_module *m, hilo_proto_form form,
	hilo_diags *d);

/* The argument literals of a module read from an HloSnapshot (what XLA's
 * run_hlo_module replays it with), in m's arena: *n = 0 when there are
 * none. false (with a diagnostic) when one does not decode. */
HILO_API bool hilo_proto_snapshot_args(hilo_module *m, hilo_literal ***args, size_t *n,
	hilo_diags *d);

/* Appends an HloSnapshot of m (in an HloProto, as hilo_proto_write_as
 * writes the module) with the given arguments and, when non-NULL, the
 * result: a run XLA's run_hlo_module and hilo-run can replay. */
HILO_API bool hilo_proto_write_snapshot(hilo_buf *out, const hilo_module *m,
	const hilo_literal *const *args, size_t nargs, const hilo_literal *result, hilo_diags *d);

/* Text-format protos (.pbtxt, as XLA's hlo-opt reads them): an
 * HloModuleProto, HloProto or HloSnapshot in protobuf's text format, read
 * (errors FILE:LINE:COL) and written (in the form read, or form) through
 * the binary reader and writer, so they keep what those keep. */
HILO_API hilo_module *hilo_proto_read_text(const void *data, size_t len, const char *filename,
	hilo_diags *d);
HILO_API bool hilo_proto_write_text(hilo_buf *out, const hilo_module *m, hilo_proto_form form,
	hilo_diags *d);
/* True when the text starts with a field of one of the three messages. */
HILO_API bool hilo_proto_looks_text(const void *data, size_t len);

/* True when the bytes look like a binary proto rather than HLO text: a
 * valid wire encoding, or one cut short (field 1 first, a NUL byte, the
 * last field running past the end), which the reader then reports
 * precisely ("field length runs past the end of the data at byte K"). */
HILO_API bool hilo_proto_looks_binary(const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
