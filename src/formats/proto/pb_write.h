/* The proto writer's state, shared by its files (src/formats/proto:
 * pb_write.c writes messages, pb_write_attrs.c maps attributes to typed
 * fields). Private to the writer. */
#ifndef HILO_PB_WRITE_H
#define HILO_PB_WRITE_H

#include "pb_attrs.h"

typedef struct writer {
	hilo_arena *a;         /* scratch: typed attribute messages */
	const hilo_module *m;
	hilo_diags *d;
	hilo_buf *out;
	hilo_buf tmp;
	hilo_ptrmap comp_ids;  /* comp -> (void*)(id + 1) */
	hilo_ptrmap renamed;   /* instr -> the unique name written for it */
	uint8_t *ext;          /* per attribute of the current instruction: to hilo_attrs */
	size_t cap_ext;
	pb_keep *K;            /* the kept input (issue 34), or NULL */
	hilo_module *scratch;  /* shapes parsed from attribute text (in a), or NULL */
	hilo_ptrmap kept;      /* comp -> its index in K->comp + 1 */
	bool kept_same;        /* the kept module went out as read */
	hilo_proto_form form;  /* the form asked for */
	bool snap;             /* hilo_proto_write_snapshot: */
	const hilo_literal *const *args;
	size_t nargs;
	const hilo_literal *result;
	hilo_ptrmap wrapped;   /* async sugar start -> (void*)(id + 1) of the
	                        * computation written for it (put_async_wrapper) */
	hilo_ptrmap wrap_base; /* async sugar start -> (void*)(first id + 1) of
	                        * the instructions written in its wrapper */
	uint32_t next_synth;   /* the next id of an instruction written for those
	                        * (0: not yet chosen) */
	bool oom;
} writer;

static inline void *walloc(writer *W, size_t size)
{
	void *p = hilo_arena_alloc(W->a, size ? size : 1);
	if (!p)
		W->oom = true;
	return p;
}

static inline char *wstr(writer *W, const char *s, size_t n)
{
	char *r = hilo_arena_strndup(W->a, s, n);
	if (!r)
		W->oom = true;
	return r;
}

/* After a parse into the scratch module failed: true (and the write
 * fails) when it failed for want of memory, not over the text (the
 * parser's own guard caught it). */
static inline bool scratch_oom(writer *W)
{
	if (hilo_arena_failed(W->a, false))
		W->oom = true;
	return W->oom;
}

/* One instruction's typed fields while its attributes are mapped. */
typedef struct inst_ctx {
	Xla__HloInstructionProto *p;
	bool used[PBF_COUNT];
	Xla__DotDimensionNumbers *dot;
	Xla__GatherDimensionNumbers *gather;
	Xla__ScatterDimensionNumbers *scatter;
	Xla__RaggedDotDimensionNumbers *ragged;
	int64_t iota;
	hilo_shape **opshapes; /* a custom-call's operand_layout_constraints */
	size_t nopshapes;
	hilo_literal *cclit;   /* a custom-call's literal= */
	int dot_alg;           /* a dot's algorithm= (PrecisionConfig.Algorithm), or 0 */
} inst_ctx;

/* The dot (or ragged-dot) dimension numbers of X's message, made on
 * first use. NULL when out of memory. */
Xla__DotDimensionNumbers *pbw_dot_of(writer *W, inst_ctx *X);
/* Puts attribute a of i into its typed field of X->p: true when that
 * field reproduces it exactly (else it goes to hilo_attrs as well, or
 * alone when it has none). */
bool pbw_attr_typed(writer *W, inst_ctx *X, const hilo_instr *i, const hilo_attr *a);

/* The instruction and shape writers (pb_write.c). */
void pbw_put_instr(writer *W, const hilo_instr *i);
void pbw_put_shape(writer *W, uint32_t field, const hilo_shape *s, int depth);
/* An instruction's id in the output. */
int64_t pbw_instr_id(const writer *W, const hilo_instr *i);

/* Async sugar wrappers (pb_write_async.c): the id of the computation
 * written for start i, or -1; the next id (*next, counted up) for i when
 * it is a sugar start (called on every instruction, in module order, in
 * a walk the writer makes anyway); c's wrappers, written before c; their
 * schedule sequences (a pb_more_fn). */
int64_t pbw_async_wrapper_id(const writer *W, const hilo_instr *i);
void pbw_number_async_wrapper(writer *W, const hilo_instr *i, int64_t *next);
void pbw_put_async_wrappers(writer *W, const hilo_comp *c);
void pbw_async_sequences(void *ud, hilo_buf *out);

/* The origin_recovery_table attribute's text as HloModuleProto field 20
 * (pb_recovery.c); false + diagnostic when the text is not a table or a
 * recovery module in it does not parse. */
bool pbw_recovery_table(hilo_buf *out, hilo_arena *a, const char *text, hilo_diags *d);

#endif
