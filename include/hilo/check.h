/* hilo/check.h - per-rewrite translation validation (docs/proof.md).
 *
 * The driver clones the module before each pass and hands (before, after,
 * pass) to hilo_validate_pass(). The validator derives the rewrite records
 * from an id-stable diff of the two modules (it never trusts a pass to
 * report its own rewrites), cuts each record's cone back to the values both
 * modules share, and judges it:
 *   proved   for every input: equal canonical hash-consed terms ("term"),
 *            or equal outputs on injectively tagged inputs ("tagged"; with
 *            elementwise ops as uninterpreted terms "tagged-terms"; small
 *            index inputs enumerated "tagged-enum");
 *   tested   equal outputs on N seeded random inputs of the real frontier
 *            shapes, bit for bit, NaN = NaN ("random");
 *   skipped  with the reason (over budget, unsupported op);
 *   failed   a counterexample (a differing element), a differing cut of
 *            two terms that are otherwise the same ("cut", docs/proof.md)
 *            or a structural violation (a live side effect dropped,
 *            shapes differ);
 *   assumed  a rewrite the pass registered with hilo_rewrite_assume() that
 *            could not be proved (never a failure).
 * Failures are added to the diagnostics as errors naming the pass, the
 * rewrite, the frontier, the method and (for tests) the seed and element.
 */
#ifndef HILO_CHECK_H
#define HILO_CHECK_H

#include "hilo/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hilo_validator hilo_validator;

/* One judged rewrite, as handed to hilo_validate_opts.on_record while both
 * modules are alive (the rewrite report draws its pictures from it). */
typedef struct hilo_check_record {
	const char *pass;
	const hilo_instr *before;  /* the replaced value, in the module before the pass */
	const hilo_instr *after;   /* its replacement, or NULL (removed instructions) */
	const char *verdict;       /* "proved", "tested", "skipped", "failed", "assumed", "deferred" */
	const char *method;        /* "term", "tagged", "tagged-terms", "tagged-enum", "cut",
	                            * "random", "dead", "structure" */
	const char *reason;        /* what the record is, and the method's finding */
	uint32_t count;            /* identical records folded into this one */
} hilo_check_record;

typedef void (*hilo_check_record_fn)(void *arg, const hilo_check_record *r);

typedef struct hilo_validate_opts {
	int inputs;              /* random input sets per tested cone (0 = 3) */
	uint64_t seed;           /* first seed */
	uint64_t budget;         /* element-ops per tested cone (0 = 1e8) */
	FILE *remarks;           /* JSON Lines sink for one verdict per record, or NULL */
	const char *filename;    /* for diagnostics */
	hilo_check_record_fn on_record; /* called once per record with its verdict, or NULL */
	void *on_record_arg;
	bool zero_sign_insensitive; /* tested cones compare -0 and +0 as equal
	                             * (hilo-opt --assume-no-signed-zeros, LLVM's nsz);
	                             * the test's finding says so */
} hilo_validate_opts;

typedef struct hilo_validate_summary {
	uint64_t rewrites;       /* records judged, assumed ones excluded */
	uint64_t proved, tested, skipped, failed, assumed;
	uint64_t by_term, by_tagged; /* how the proved ones were proved */
	int inputs;
	double seconds;          /* time spent validating */
} hilo_validate_summary;

/* NULL when out of memory. */
HILO_API hilo_validator *hilo_validator_create(const hilo_validate_opts *o);
HILO_API void hilo_validator_destroy(hilo_validator *v);

/* Judges every rewrite pass `pass` made to turn `before` into `after`
 * (both modules are only read; their instructions' aux/mark scratch
 * fields are used). run may be NULL (no assumed rewrites). Failures and
 * skips are recorded in the summary; failures also become error
 * diagnostics in d. *identical (may be NULL) is set when the two modules
 * have the same computations and instructions, each with the same meaning
 * (metadata aside): the caller may then keep `before` as the snapshot for
 * the next pass instead of cloning again. Returns false only when out of
 * memory. */
HILO_API bool hilo_validate_pass(hilo_validator *v, hilo_module *before, hilo_module *after,
	const char *pass, const hilo_run_state *run, hilo_diags *d, bool *identical);

HILO_API void hilo_validator_summary(const hilo_validator *v, hilo_validate_summary *s);

#ifdef __cplusplus
}
#endif

#endif
