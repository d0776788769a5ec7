/* hilo/pass.h - the pass interface, the registry and remarks.
 *
 * A pass is {name, description, run}. run() rewrites ctx->m in place and
 * returns HILO_PASS_CHANGED / HILO_PASS_UNCHANGED, or HILO_PASS_ERROR after
 * adding a diagnostic to ctx->diags (never exits, never aborts on bad
 * input). Every decision worth explaining goes through hilo_remark(), which
 * writes one JSON object per line to the --remarks file when one is open.
 *
 * The registry is the X-macro list in src/passes/passes.def:
 *   PASS(c_ident, "pass-name", "one-line description")
 * with `hilo_pass_result hilo_pass_<c_ident>(hilo_pass_ctx *ctx)` defined in
 * src/passes/<pass-name>.c.
 */
#ifndef HILO_PASS_H
#define HILO_PASS_H

#include "hilo/ir.h"

typedef enum hilo_pass_result {
	HILO_PASS_ERROR = -1,
	HILO_PASS_UNCHANGED = 0,
	HILO_PASS_CHANGED = 1,
} hilo_pass_result;

typedef struct hilo_pass_ctx {
	hilo_module *m;
	const char *pass;        /* name of the running pass (set by the driver) */
	const char *filename;    /* for diagnostics */
	hilo_diags *diags;
	FILE *remarks;           /* JSON Lines sink, or NULL */
	uint64_t rewrites;       /* passes add the number of rewrites they made */
	bool unroll_markers;     /* while-loop-unroller: wrap iteration roots */
	bool disable_slice_move_from_param; /* NEURON_DISABLE_MOVEMENT_OF_SLICE_FROM_PARAM=1 */
} hilo_pass_ctx;

typedef hilo_pass_result (*hilo_pass_fn)(hilo_pass_ctx *ctx);

typedef struct hilo_pass {
	const char *name;
	const char *description;
	hilo_pass_fn run;
} hilo_pass;

#define PASS(id, name, desc) hilo_pass_result hilo_pass_##id(hilo_pass_ctx *ctx);
#include "../../src/passes/passes.def"
#undef PASS

/* All registered passes, in registry order. */
const hilo_pass *hilo_pass_list(size_t *n);
/* NULL if unknown. */
const hilo_pass *hilo_pass_find(const char *name);

/* Writes {"pass","computation","instruction","action","reason"} to the
 * remarks sink (no-op without one). action is "rewritten" or "declined"
 * (or another verb a pass documents). c and i may be NULL. */
void hilo_remark(hilo_pass_ctx *ctx, const hilo_comp *c, const hilo_instr *i,
	const char *action, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
