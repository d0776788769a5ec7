/* hilo/tokens.h - index tokens (docs/tokens.md), the metadata protocol
 * between neuron-dus-ds-index-simplifier, dynamic-slice-mover,
 * slice-of-concat-optimizer and neuron_repeated_dus_to_concat.
 *
 * Grammar: a flat comma-separated list of `<key><base-10 int>` entries with
 * keys "dusidxnow=", "dsidxnow=", "iterationidx="; a multi-dimensional index
 * is one entry per dimension, in dimension order. Tokens are written into
 * metadata op_name (existing text kept) and read from op_name first, then
 * from backend_config.
 */
#ifndef HILO_TOKENS_H
#define HILO_TOKENS_H

#include "hilo/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HILO_TOK_DS "dsidxnow="
#define HILO_TOK_DUS "dusidxnow="
#define HILO_TOK_ITER "iterationidx="

/* Reads all values of `key` ("dsidxnow=", "dusidxnow=", "iterationidx=")
 * from the instruction's metadata op_name, else from backend_config.
 * Returns the count (0 if none), storing up to max values into out.
 * Malformed entries are skipped. */
HILO_API int hilo_tokens_get(hilo_module *m, const hilo_instr *i, const char *key, int64_t *out, int max);

/* Number of malformed entries of `key` (in the source hilo_tokens_get
 * reads from), for remarks. */
HILO_API int hilo_tokens_malformed(hilo_module *m, const hilo_instr *i, const char *key);

/* Replaces every entry of `key` in op_name with the given values (appends
 * "key<v>" entries, comma-separated after existing text); idempotent. */
HILO_API void hilo_tokens_set(hilo_module *m, hilo_instr *i, const char *key, const int64_t *vals, int n);

/* Removes every entry of `key` (well-formed or malformed) from op_name
 * and/or backend_config (each entry with one adjacent comma; other text
 * kept). True when the instruction changed. */
HILO_API bool hilo_tokens_remove(hilo_module *m, hilo_instr *i, const char *key, bool op_name, bool backend);

/* Like hilo_tokens_get, reading backend_config only. */
HILO_API int hilo_tokens_get_backend(hilo_module *m, const hilo_instr *i, const char *key, int64_t *out, int max);

#ifdef __cplusplus
}
#endif

#endif
