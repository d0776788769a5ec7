/* hilo/capi.h - the flat C API: hilo for foreign-function callers.
 *
 * This is the stable ABI for other languages (the Python package uses it
 * through ctypes): opaque handles, plain integers and byte buffers, no
 * struct layout to mirror. Rules every function follows:
 *  - a `char *` or `void *` result is malloc'd and owned by the caller, who
 *    frees it with hilo_free();
 *  - on failure a function returns NULL (or -1) and, when `error` is
 *    non-NULL, stores there a malloc'd message (free with hilo_free): the
 *    located diagnostics "FILE:LINE:COL: error: ...", one per line;
 *  - nothing exits or aborts the process; handles are independent, so
 *    different threads may use different handles at once.
 *
 * A handle owns one module. Running passes is transactional: they run on a
 * copy, and the handle's module is replaced only when every pass, the
 * final verification and the requested equivalence check succeed.
 */
#ifndef HILO_CAPI_H
#define HILO_CAPI_H

#include <stddef.h>
#include <stdint.h>

#include "hilo/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hilo_handle hilo_handle;

/* Frees a result of this API (NULL is fine). */
HILO_API void hilo_free(void *p);

/* ---- loading and writing ------------------------------------------------ */

/* Parses HLO text (any print style), then verifies it. filename is used in
 * diagnostics only (NULL: "<text>"). */
HILO_API hilo_handle *hilo_handle_from_text(const char *text, size_t len, const char *filename,
	char **error);
/* Reads a binary HloModuleProto (or HloSnapshot / HloProto wrapper). */
HILO_API hilo_handle *hilo_handle_from_proto(const void *data, size_t len, const char *filename,
	char **error);
/* Reads a file, text or binary proto detected from its content. */
HILO_API hilo_handle *hilo_handle_load(const char *path, char **error);
HILO_API void hilo_handle_free(hilo_handle *h);
/* The module, for C callers that want the full IR API (owned by h). */
HILO_API hilo_module *hilo_handle_module(hilo_handle *h);

/* Prints the module; style is "auto" (NULL), "default", "long" or "short". */
HILO_API char *hilo_handle_to_text(hilo_handle *h, const char *style, char **error);
/* The module as a binary HloModuleProto; *len receives its size. */
HILO_API void *hilo_handle_to_proto(hilo_handle *h, size_t *len, char **error);

/* ---- passes -------------------------------------------------------------- */

/* [{"name": ..., "description": ..., "test_only": bool, "aliases": [...]}, ...] in registry
 * order; test_only marks the deliberately unsound test passes. */
HILO_API char *hilo_passes_json(void);
/* {"neuron": ["simplify-concat", ...]} */
HILO_API char *hilo_pipelines_json(void);

/* Runs passes on the module. passes: comma-separated pass names, and
 * "pipeline:NAME" for a named pipeline. equivalence: NULL or "" (none),
 * "rewrites" (or "default": every rewrite validated on its own region,
 * docs/proof.md; `inputs` random input sets per tested region), "strict"
 * (the same, and a skipped rewrite fails), or "module" (the whole entry
 * computation on `inputs` seeded random input sets). Returns JSON:
 *   {"passes": [{"pass","seconds","instrs_before","instrs_after",
 *                "rewrites","result"}...],
 *    "remarks": [<remark objects as --remarks writes them>...],
 *    "equivalence": null | {"mode","status","message", and for the
 *                   validator "rewrites","proved","tested","skipped",
 *                   "failed","assumed","inputs"}}
 * (remarks then also carry one verdict per rewrite).
 * On failure (unknown pass, a pass error, IR the verifier rejects, an
 * equivalence failure) returns NULL with the diagnostics in *error and
 * leaves the module as it was. */
HILO_API char *hilo_handle_run_passes(hilo_handle *h, const char *passes, int verify_each,
	const char *equivalence, int inputs, uint64_t seed, char **error);

/* ---- evaluation ------------------------------------------------------------ */

/* {"parameters": [{"name": "p", "dtype": "f32", "dims": [2, 3], "bytes": 24}, ...],
 *  "outputs": [{"dtype", "dims", "bytes"}...]} for the entry computation;
 * tuple results are listed as their leaves in order. dtype is HLO's element
 * type name; name is the parameter instruction's (without '%'). */
HILO_API char *hilo_handle_signature_json(hilo_handle *h);

/* Evaluates the entry computation with the reference evaluator. inputs[k]
 * holds sizes[k] bytes for parameter k: dense, row-major, one element per
 * storage slot (1 byte for pred and sub-byte types, 2 for f16/bf16, the
 * IEEE bits for floats, complex as two floats), little-endian. With
 * n == 0 the inputs are seeded pseudo-random values (seed) as hilo-run
 * draws them. budget: element-operations, 0 = the evaluator's default.
 * Returns the number of outputs (tuple leaves), or -1 with *error. The
 * outputs stay readable through hilo_handle_output until the next
 * evaluation or hilo_handle_free. */
HILO_API int hilo_handle_evaluate(hilo_handle *h, size_t n, const void *const *inputs,
	const size_t *sizes, uint64_t seed, uint64_t budget, char **error);
/* Output k of the last evaluation: its bytes (layout as for inputs) and,
 * in *json, {"dtype","dims","bytes"} (malloc'd; NULL to skip). NULL when k
 * is out of range. The bytes are owned by h. */
HILO_API const void *hilo_handle_output(hilo_handle *h, size_t k, size_t *len, char **json);

#ifdef __cplusplus
}
#endif

#endif
