/* hilo/driver.h - running a list of passes over a module.
 *
 * The driver resolves pass names (single passes and named pipelines),
 * runs them in order on one module, optionally verifies the IR after each
 * pass and collects per-pass statistics. It never prints and never exits:
 * problems come back as a status plus diagnostics; the CLI chooses the
 * exit code and the output format.
 */
#ifndef HILO_DRIVER_H
#define HILO_DRIVER_H

#include "hilo/check.h"
#include "hilo/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hilo_driver_status {
	HILO_DRIVER_OK = 0,
	HILO_DRIVER_PASS_ERROR = 1,   /* a pass returned HILO_PASS_ERROR */
	HILO_DRIVER_VERIFY_ERROR = 3, /* the verifier rejected a pass's output */
} hilo_driver_status;

typedef struct hilo_pass_stat {
	const char *pass;
	double seconds;          /* wall time of run() */
	uint64_t instrs_before;  /* instructions over all computations */
	uint64_t instrs_after;
	uint64_t rewrites;       /* ctx->rewrites after the pass */
	hilo_pass_result result;
	double check_seconds;    /* rewrite validation of this pass (snapshot + judging) */
} hilo_pass_stat;

typedef struct hilo_driver_opts {
	const char *filename;    /* for diagnostics */
	bool verify_each;
	FILE *remarks;           /* JSON Lines sink or NULL */
	bool unroll_markers;
	bool disable_slice_move_from_param;
	bool assume_equivalent_kernels; /* hilo_pass_ctx.assume_equivalent_kernels */
	bool assume_no_signed_zeros;    /* hilo_pass_ctx.assume_no_signed_zeros */
	/* When set, the module is cloned before each pass and the validator
	 * judges every rewrite the pass made (hilo/check.h). Its failures are
	 * error diagnostics but do not stop the run: the caller reads the
	 * validator's summary. */
	hilo_validator *validate;
	/* When set, called after each pass that ran without error (and, with
	 * verify_each, passed the verifier; after its validation), with the
	 * pass and its 0-based position k in passes[]: hilo-opt
	 * --dump-after-each writes the module there. It must not change m.
	 * Returning false ends the run with HILO_DRIVER_PASS_ERROR; the hook
	 * adds the diagnostic saying why. */
	bool (*after_pass)(void *arg, const hilo_module *m, const hilo_pass *p, size_t k,
		hilo_diags *d);
	void *after_pass_arg;
} hilo_driver_opts;

/* The pass names of a named pipeline ("neuron"), or NULL if there is no
 * such pipeline. The names need not all be registered. */
HILO_API const char *const *hilo_pipeline_passes(const char *pipeline, size_t *n);

/* Runs passes[0..n) in order on m. stats, when non-NULL, receives one
 * entry per pass that ran (n entries at most). On a pass error or a
 * verifier failure the run stops; the diagnostics name the pass (and,
 * for verifier failures, the offending instruction). The module is
 * verified after every pass with o->verify_each, and in any case after
 * the last one (n > 0): a failure there is HILO_DRIVER_VERIFY_ERROR naming
 * the last pass that ran, so a caller never writes a module the verifier
 * rejects. */
HILO_API hilo_driver_status hilo_run_passes(hilo_module *m, const hilo_pass *const *passes,
	size_t n, const hilo_driver_opts *o, hilo_diags *d, hilo_pass_stat *stats);

#ifdef __cplusplus
}
#endif

#endif
