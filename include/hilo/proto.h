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

/* True when the bytes look like a binary proto rather than HLO text. */
HILO_API bool hilo_proto_looks_binary(const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
