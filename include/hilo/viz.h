/* hilo/viz.h - seeing a module: Graphviz DOT, statistics with a cost
 * estimate, and extraction of a sub-module.
 *
 * These are read-only views of a module (extraction builds a new one);
 * none of them changes its input. They back `hilo-opt --emit=dot`,
 * `--stats=ops`, `--extract=NAME` and the rewrite report (docs/viz.md).
 */
#ifndef HILO_VIZ_H
#define HILO_VIZ_H

#include "hilo/check.h"
#include "hilo/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- DOT ------------------------------------------------------------------ */

typedef struct hilo_dot_opts {
	/* Draw only the neighbourhood of the instruction with this name (both
	 * directions, `depth` edges away, default 2), plus the computations it
	 * calls as boxes. NULL: the whole module. */
	const char *around;
	int depth;
	/* Instruction ids to highlight (e.g. what a rewrite replaced or made),
	 * with the fill colour to use; NULL/0 for none. */
	const uint32_t *highlight;
	size_t nhighlight;
	const char *highlight_color;  /* default "#ffd54f" */
	const char *graph_name;       /* default the module name */
	/* Nodes drawn at most, 0 = unlimited; past it the graph stops with a
	 * note node (a whole 40k-instruction dump is drawn with --around). */
	uint32_t max_nodes;
} hilo_dot_opts;

/* Writes DOT for m (after the passes, as it is now): one cluster per
 * computation, nodes "name\nopcode\nshape" coloured by category (data
 * movement, elementwise, collectives, custom-calls, control flow, other),
 * operand edges labelled with the operand index where the operand order
 * matters, dashed edges to called computations, small constants folded
 * into their users' labels. Returns false (with a diagnostic) when
 * `around` names no instruction, or when out of memory ("out of memory",
 * d->oom; also when out's growth failed). o may be NULL. */
HILO_API bool hilo_write_dot(hilo_buf *out, const hilo_module *m, const hilo_dot_opts *o,
	hilo_diags *d);

/* The colour category of an opcode: "data-movement", "elementwise",
 * "collective", "custom-call", "control-flow", "constant", "parameter" or
 * "other". */
HILO_API const char *hilo_op_category(const hilo_instr *i);

/* ---- statistics and cost ---------------------------------------------------- */

/* Cost of one instruction: floating-point (or integer) operations and the
 * bytes it reads (operands) and writes (result), as XLA's cost analysis
 * counts them: dot 2 x result elements x contracted size; convolution
 * 2 x result elements x kernel window x input features per group;
 * elementwise one per result element; reduce one per input element;
 * reduce-window one per window element of each output; data movement,
 * parameters, constants and tuples zero. Bytes of tuples are their
 * leaves'. */
typedef struct hilo_cost {
	double flops;
	double bytes_read, bytes_written;
} hilo_cost;

HILO_API hilo_cost hilo_instr_cost(const hilo_instr *i);

/* Writes per computation and for the module: instruction counts per
 * opcode, parameter and output bytes, FLOPs and bytes accessed per op
 * category. json selects JSON (one object) instead of text. Allocates
 * only out's growth: when that fails out->oom is set (report it). */
HILO_API void hilo_write_stats(hilo_buf *out, const hilo_module *m, bool json);

/* ---- extraction --------------------------------------------------------------- */

/* A new, verified module whose entry computes the instruction `name` (a
 * leading '%', as HLO text writes names, is allowed; so for
 * hilo_dot_opts.around) of
 * m from new parameters standing for its operands `height` levels up
 * (height < 0: back to the computation's parameters). Constants and
 * iotas at the cut stay constants; called computations are carried along.
 * NULL with a diagnostic when there is no such instruction or the result
 * does not verify. */
HILO_API hilo_module *hilo_extract(const hilo_module *m, const char *name, int height,
	hilo_diags *d);

/* ---- the rewrite report ---------------------------------------------------------- */

typedef struct hilo_report hilo_report;

typedef struct hilo_report_pass {
	const char *name;
	double seconds;
	uint64_t instrs_before, instrs_after, rewrites;
	const char *result;       /* "changed", "unchanged", "error" */
} hilo_report_pass;

typedef struct hilo_report_info {
	const char *input;        /* the input file's name, or NULL */
	const char *summary;      /* the equivalence line, or NULL */
	const hilo_report_pass *passes;
	size_t npasses;
	const char *remarks;      /* the passes' remarks (JSON Lines), for declined candidates */
	size_t remarks_len;
} hilo_report_info;

/* NULL when out of memory. */
HILO_API hilo_report *hilo_report_create(const char *title);
HILO_API void hilo_report_destroy(hilo_report *r);
/* The validator's record hook (hilo_validate_opts.on_record, arg = the
 * report): draws the rewritten region before and after while both
 * modules are alive and folds look-alike rewrites into groups. */
HILO_API void hilo_report_on_record(void *arg, const hilo_check_record *rec);
/* Appends the self-contained HTML page to out; pictures are rendered with
 * one run of Graphviz's `dot -Tsvg` (DOT text embedded when it cannot run).
 * False when out of memory. */
HILO_API bool hilo_report_write(hilo_report *r, hilo_buf *out, const hilo_report_info *info);

#ifdef __cplusplus
}
#endif

#endif
