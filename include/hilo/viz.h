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
	 * with the border colour to use (the fill stays the category's) and a
	 * line of text added to their labels; NULL/0 for none. A highlighted
	 * small constant is drawn as a node, not folded into its users. */
	const uint32_t *highlight;
	size_t nhighlight;
	const char *highlight_color;  /* default "#ff6f00" */
	const char *highlight_note;   /* e.g. "REMOVED"; NULL: none */
	const char *graph_name;       /* default the module name */
	/* Nodes drawn at most, 0 = unlimited; past it the graph stops with a
	 * note node (a whole 40k-instruction dump is drawn with --around). */
	uint32_t max_nodes;
} hilo_dot_opts;

/* Writes DOT for m (after the passes, as it is now): one cluster per
 * computation, nodes "name\nopcode\nshape" coloured by category (dot and
 * convolution, data movement, elementwise, collectives, custom-calls,
 * control flow, other), operand edges labelled with the operand index
 * unless the op is commutative (tuple edges are labelled), dashed edges
 * to called computations, small constants folded into their users'
 * labels. A node with operands outside the picture (beyond `depth`, or
 * past max_nodes) gets a dashed "N more inputs" stub naming them. Returns false (with a diagnostic) when
 * `around` names no instruction, or when out of memory ("out of memory",
 * d->oom; also when out's growth failed). o may be NULL. */
HILO_API bool hilo_write_dot(hilo_buf *out, const hilo_module *m, const hilo_dot_opts *o,
	hilo_diags *d);

/* The colour and cost category of an instruction: "dot-convolution",
 * "data-movement", "elementwise", "collective", "custom-call",
 * "control-flow", "constant", "parameter" or "other" (the category
 * columns of opcodes.def). */
HILO_API const char *hilo_op_category(const hilo_instr *i);

/* ---- statistics and cost ---------------------------------------------------- */

/* Cost of one instruction: floating-point (or integer) operations,
 * transcendental operations and the bytes it reads (operands) and writes
 * (result), as XLA's cost analysis counts them: dot 2 x result elements x
 * contracted size (2 per multiply-accumulate); convolution 2 x result
 * elements x kernel window x input features per group; elementwise one
 * flop per result element, except the transcendental ones (the TRANS
 * column of opcodes.def: exp, log, tanh, logistic, sqrt, rsqrt, sin, cos,
 * power, erf, ...), one transcendental per result element and no flop;
 * reduce one per input element; reduce-window one per window element of
 * each output; data movement, parameters, constants and tuples zero.
 * Bytes of tuples are their leaves'. */
typedef struct hilo_cost {
	double flops;
	double bytes_read, bytes_written;
	double transcendentals;
} hilo_cost;

HILO_API hilo_cost hilo_instr_cost(const hilo_instr *i);

/* Writes for the module (first) and per computation: instruction counts
 * per opcode, parameter and output bytes, FLOPs, transcendentals, and
 * FLOPs and bytes accessed per op category (bytes human-readable in the
 * text form: "12.3 MiB"). json selects JSON (one object: "total", then
 * "computations", each with a "costs" list of every instruction's flops,
 * transcendentals and bytes_accessed) instead of text. Allocates only
 * out's growth: when that fails out->oom is set (report it). */
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
	const char *remarks;      /* the passes' remarks (JSON Lines), for declined candidates
	                           * and metadata-only rewrites */
	size_t remarks_len;
	/* the command line, shown in the header (quoted as a shell reads it
	 * back), or NULL */
	const char *const *argv;
	int argc;
	/* the module after the passes: the computations of the input
	 * (hilo_report_note_input) it no longer has are listed; NULL: none */
	const hilo_module *result;
} hilo_report_info;

/* NULL when out of memory. */
HILO_API hilo_report *hilo_report_create(const char *title);
HILO_API void hilo_report_destroy(hilo_report *r);
/* Remembers the names of m's computations, before the passes change it,
 * for the list of removed computations. False when out of memory. */
HILO_API bool hilo_report_note_input(hilo_report *r, const hilo_module *m);
/* The validator's record hook (hilo_validate_opts.on_record, arg = the
 * report): draws the rewritten region before and after while both
 * modules are alive and folds look-alike rewrites into groups. */
HILO_API void hilo_report_on_record(void *arg, const hilo_check_record *rec);
/* Appends the self-contained HTML page to out: hilo's version and the
 * command line, a legend, the passes, one section per group of rewrites
 * with its pictures, the metadata-only rewrites, the removed computations
 * and the declined candidates. Pictures are rendered with one run of
 * Graphviz's `dot -Tsvg` (DOT text embedded when it cannot run). False
 * when out of memory. */
HILO_API bool hilo_report_write(hilo_report *r, hilo_buf *out, const hilo_report_info *info);

#ifdef __cplusplus
}
#endif

#endif
