/* tools/common/batch.h - hilo-opt --batch: the same passes over many
 * modules on N threads (issue 32 §5), one result per input written into
 * --out-dir under the input's own file name, one summary table.
 *
 * Each module is its own unit of work: its own read buffer, module (and
 * arena), diagnostics, validator and pass statistics, so the threads share
 * only the read-only configuration and the pass table (the library is
 * thread-safe for independent modules: tests/threads). A module's
 * diagnostics are kept until it and every module before it have finished,
 * then printed on stderr in input order, never interleaved.
 *
 * Exit status: 0 all modules succeeded; otherwise the highest status of a
 * module, as --split-input-file has it: 4 (an equivalence check failed)
 * outranks 3 (a pass produced IR the verifier rejects), which outranks 1
 * (a module could not be read, parsed or verified, or a pass rejected it,
 * or its output could not be written). Refusals before any module runs:
 * two inputs with the same file name, or --out-dir being an input's own
 * folder, exit 2; --out-dir that cannot be created, a folder operand that
 * cannot be read, no module at all, exit 1.
 */
#ifndef HILO_TOOLS_BATCH_H
#define HILO_TOOLS_BATCH_H

#include "hilo/pass.h"
#include "hilo/hlo_text.h"

typedef struct batch_config {
	const char *tool;                /* "hilo-opt", the prefix of its messages */
	const hilo_pass *const *passes;  /* run in order on every module */
	size_t npasses;
	hilo_print_style style;          /* HLO text outputs */
	int format;                      /* 0 detect, 1 HLO text, 2 binary proto, 3 text proto */
	bool verify_each, unroll_markers, assume_equivalent_kernels, assume_no_signed_zeros;
	bool disable_slice_move;         /* NEURON_DISABLE_MOVEMENT_OF_SLICE_FROM_PARAM=1 */
	int equiv_n;                     /* 0 = no check; else inputs per tested rewrite */
	bool equiv_module, equiv_strict; /* --check-equivalence=module / =strict */
	uint64_t seed, eval_budget;
	unsigned jobs;                   /* threads; 0 = the online CPUs */
	const char *out_dir;             /* --out-dir */
	const char *summary_path;        /* --batch-summary=FILE.json, or NULL */
	char *const *operands;           /* files and folders, as given */
	size_t noperands;
} batch_config;

/* Runs the batch; returns the exit status above. */
int batch_run(const batch_config *c);

#endif
