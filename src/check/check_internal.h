/* check_internal.h - private interface between the validator's files.
 *
 *   records.c  id maps, the shared-instruction diff, rewrite records,
 *              verdicts, summary, remarks, failure messages
 *   terms.c    hash-consed canonical terms and their normalisation
 *   term_moves.c  the terms' data-movement constructors (broadcast ... pad)
 *   tagged.c   injectively tagged evaluation of data-movement cones
 *   cone_test.c  random testing of a cone on seeded frontier values
 *   cut.c      judging differing terms at the cuts where they differ
 *   events.c   effects as events: their order terms and each context's
 *              multiset of events (the effects record)
 * docs/proof.md explains why each step is exact.
 */
#ifndef HILO_CHECK_INTERNAL_H
#define HILO_CHECK_INTERNAL_H

#include "hilo/check.h"
#include "hilo/eval.h"
#include "hilo/float.h"

#include <string.h>

#define TID_NONE UINT32_MAX
typedef uint32_t tid;

/* One module of the (before, after) pair. */
typedef struct side {
	hilo_module *m;
	hilo_instr **by_id;   /* id -> instruction (NULL: none) */
	uint32_t nid;
	int k;                /* 0 before, 1 after */
} side;

typedef struct termtab termtab;
typedef struct pairctx pairctx;

/* ---- tag arrays (tagpool.c) ----------------------------------------------
 * Element k of the leaf with ordinal ord is tagged ((ord + 1) << TAG_IDX_BITS) | k
 * (tagged.c decodes it). The pool keeps them across records and passes:
 * arr[k] holds the tags of ordinal k for its first len[k] elements, so a leaf
 * is neither allocated nor written again when the next record tags a leaf
 * of the same ordinal (most cones of one pass have the same few leaves).
 * total: elements held, at most 2^25. */
enum { TAG_IDX_BITS = 40 };
typedef struct tagpool {
	uint64_t **arr;
	uint64_t *len;
	uint32_t n;
	uint64_t total;
} tagpool;
/* Writes the tags of ordinal ord for elements [from, to) into d. */
/* Same parameter count and compatible parameter shapes (check/equiv.c). */
bool chk_same_params(const hilo_comp *a, const hilo_comp *b);

void tagpool_fill(uint64_t *d, uint32_t ord, uint64_t from, uint64_t to);
/* The tags of ordinal ord, at least n elements, or NULL (pool full or out
 * of memory: the caller tags a fresh literal). The array may move when n
 * exceeds what it holds: the caller asks for an ordinal's size only before
 * any literal of its judgement points into it. */
const uint64_t *tagpool_get(tagpool *t, uint32_t ord, uint64_t n);
void tagpool_free(tagpool *t);

struct pairctx {
	hilo_validator *v;
	tagpool *tags;        /* the validator's (tagpool.c) */
	side s[2];            /* [0] before, [1] after */
	const char *pass;
	uint8_t *shared;      /* by id: 1 = the instruction with this id is the
	                       * same value in both modules (a frontier leaf) */
	uint32_t nshared;
	uint8_t *reshaped;    /* by id: redefined with another shape */
	uint32_t *seen, stamp; /* by id: walk stamps */
	hilo_comp **after_sorted; /* after-module computations by name */
	hilo_ptrmap corr;     /* comp (either side) -> corresponding comp, or absent */
	hilo_ptrmap effmemo;  /* comp (either side) -> side-effect state
	                       * (hilo_instr_has_side_effect_deep's memo) */
	hilo_ptrmap ordmemo;  /* effect instruction -> local ordinal + 1, and
	                       * computation -> 1 once its ordinals are known
	                       * (events.c) */
	hilo_ptrmap equiv;    /* after-comp -> (void *)1 when judged equivalent,
	                       * (void *)2 when every instruction is shared */
	const hilo_comp *marked; /* before-comp whose instructions' mark holds
	                       * their post-order position (records.c) */
	termtab *T;
	hilo_ptrmap top[4];   /* comp -> top-level term context, per side
	                       * ([2], [3]: deep, without shared leaves) */
	hilo_ptrmap canon[2]; /* comp -> canonical root term + 1, per side */
	hilo_ptrmap inl[2];   /* inlined-call key term + 1 -> result term + 1 */
	hilo_module *scratch; /* evaluator results while folding */
	uint64_t deferred;    /* records judged again at their call sites */
	uint32_t *mstamp[2];  /* inlined calls' dense memos by id, per side (terms.c) */
	tid *mval[2];
	uint32_t mnext;
	uint64_t work;        /* instructions visited while building terms */
	uint64_t work_limit;
	bool zero_sign_insensitive; /* hilo_validate_opts.zero_sign_insensitive */
	/* partition-id / replica-id are per-device values: with more than one
	 * partition or replica a tested record is tested on every device of
	 * the grid (at most 16), partition = device % npart, replica =
	 * device / npart (cone_test.c, records.c) */
	uint32_t npart, nrep;
	int64_t device;
};

/* A frontier leaf: shared, and not a value known by itself (a constant
 * or an iota is a term of its value, never a free variable). */
static inline bool is_shared(const pairctx *P, const hilo_instr *i)
{
	return i->id < P->nshared && P->shared[i->id] &&
	       !(i->op == HILO_OP_CONSTANT && hilo_instr_literal(i) && !hilo_instr_literal(i)->elided) &&
	       i->op != HILO_OP_IOTA;
}

/* Shared by both modules (for the diff). */
static inline bool is_same(const pairctx *P, const hilo_instr *i)
{
	return i->id < P->nshared && P->shared[i->id];
}

/* ---- terms (terms.c) ------------------------------------------------- */
enum {
	T_LEAF = HILO_OP_COUNT + 1, /* shared instruction (ah = id) */
	T_PARAM,                    /* parameter (ah = number) */
	T_OPAQUE,                   /* value known on one side only (ah = side, id) */
	T_DUS,                      /* static update: iv = starts */
	T_CALLKEY,                  /* memo key for an inlined call (never a value) */
	T_ELIDED,                   /* elided constant (ah = source line, column) */
	T_EVENTS,                   /* a context's events: sorted event terms */
	T_ORDER,                    /* the events an effect follows (sorted, minimal;
	                             * ah = its ordinal among identical ones) */
	T_COND_EV,                  /* events of a conditional: selector, each branch's T_EVENTS */
	T_WHILE_EV,                 /* events of a while that is not unrolled */
	T_EV_WRAP,                  /* an op with effects in callees it does not inline */
	T_CANON,                    /* a callee's canonical term: root and events */
};

/* A hash-consed term: (op, value shape, attribute hash, integer
 * parameters, operand terms, constant value). */
typedef struct term {
	int op;
	uint32_t n;
	const hilo_shape *shape;
	uint64_t ah;
	uint64_t h;
	tid *ops;
	const hilo_literal *lit;   /* CONSTANT */
	int64_t *iv;
	int niv;
	const hilo_instr *src;     /* the first instruction that built it (for messages) */
	bool ev;                   /* an event, or a term built over one */
} term;
const term *terms_get(const pairctx *P, tid t);
/* T->a is a child of parent (the after module's arena) */
termtab *terms_create(hilo_arena *parent);
void terms_destroy(termtab *T);
/* The canonical term of instruction i (of computation c on side sk) where
 * shared instructions of c and c's parameters are leaves. TID_NONE when
 * the term could not be built (out of memory, work budget). deep: only
 * parameters are leaves (the shared instructions are expanded; still
 * linear, the table shares their terms across records). */
tid terms_of(pairctx *P, int sk, const hilo_instr *i, bool deep);
/* Frees the per-computation contexts (called once per pair). */
void terms_pair_fini(pairctx *P);
/* True when the term contains only data movement over leaves and
 * constants (the tagged evaluator can judge it). */
bool terms_data_movement(pairctx *P, tid t);
uint32_t terms_count(const termtab *T);
/* Interns a term (ops and iv are copied); a fresh array shape in the
 * table's arena. For the data-movement constructors (term_moves.c). */
tid terms_mk(pairctx *P, int op, const hilo_shape *shape, uint64_t ah, const tid *ops,
	uint32_t n, const hilo_literal *lit, const int64_t *iv, int niv);
hilo_shape *terms_new_shape(pairctx *P, hilo_ptype type, int rank, const int64_t *dims);

/* A building context: one computation on one side, either at the top level
 * of a record (leaves: shared instructions, parameters) or inlined (the
 * parameters bound to args). */
typedef struct bctx {
	int sk;
	bool deep;                 /* top level without shared leaves */
	bool ev_busy;              /* its events are being collected */
	bool ev_done;              /* events (or their failure) known */
	const hilo_comp *c;
	const tid *args;           /* NULL at the top level */
	tid order;                 /* T_ORDER every effect here follows (the
	                            * call's), TID_NONE: none */
	tid events;                /* T_EVENTS of the context once built */
	hilo_ptrmap memo;          /* instr -> tid + 1 */
	uint32_t stamp;            /* inlined: the memo is P->mval[sk] by id where
	                            * P->mstamp[sk] holds this stamp (0: memo) */
} bctx;
/* The term of instruction i of x's computation (memoised in x). */
tid terms_build(pairctx *P, bctx *x, const hilo_instr *i);
/* The top-level context of computation c on side sk (deep: only
 * parameters are leaves); NULL when out of memory. */
bctx *terms_top(pairctx *P, int sk, const hilo_comp *c, bool deep);
/* c's root inlined on args under order (T_ORDER or TID_NONE), and the
 * events of that inlined context (T_EVENTS). */
tid terms_inline(pairctx *P, int sk, const hilo_comp *c, const tid *args, uint32_t nargs,
	tid order);
tid terms_inline_events(pairctx *P, int sk, const hilo_comp *c, const tid *args, uint32_t nargs,
	tid order);
/* The constant a term stands for (a constant, or a broadcast of one), or NULL. */
const hilo_literal *terms_const(pairctx *P, tid t);
void terms_set_event(pairctx *P, tid t);

/* ---- effects as events (events.c) --------------------------------------- */
/* An effect the validator orders: side-effecting, not a collective (a
 * collective is a function of every participant's operands) and not a
 * boundary marker. */
bool events_is_event(const hilo_module *m, const hilo_instr *i);
/* Does i perform an effect, itself or in what it calls? */
bool events_deep(pairctx *P, int sk, const hilo_instr *i);
/* The T_ORDER of instruction i in x (the context's order, the events of
 * i's control predecessors, i's ordinal among identical instructions), or
 * TID_NONE when i performs no effect or follows nothing and is the first
 * of its kind. */
tid events_order(pairctx *P, bctx *x, const hilo_instr *i);
/* The T_EVENTS of context x (every effect of its computation, calls
 * flattened, in canonical order), memoised in x; TID_NONE when it cannot be
 * built or two of its events are the same term (not told apart). */
tid events_of_ctx(pairctx *P, bctx *x);
/* after-all of the token terms ops: their events, flattened, minimal. */
tid events_after_all(pairctx *P, const tid *ops, uint32_t n, const hilo_shape *token);
/* The module's effects on side sk: the events of its entry computation,
 * only parameters as leaves. */
tid events_module(pairctx *P, int sk);
/* One line on the first event that one multiset holds and the other does
 * not; false when they are equal. */
bool events_describe_diff(pairctx *P, tid tb, tid ta, char *buf, size_t cap);

/* ---- aliasing (alias.c) ------------------------------------------------
 * Buffer aliasing is meaning (docs/proof.md, "Aliasing"): each
 * output_to_operand_aliasing pair is resolved to the operand instruction it
 * names, and an instruction of the after module is compared with the
 * before instruction of its id; the module's input_output_alias and
 * buffer_donor must not change. 0: the same; 1: changed, why says where
 * (*b, *a the instructions concerned, or the entry roots); 2: not judged
 * (a new instruction with aliasing), why says why. */
int alias_diff(pairctx *P, const hilo_instr **b, const hilo_instr **a, char *why, size_t cap);
/* The modules' input_output_alias and buffer_donor agree (blanks aside). */
bool alias_header_same(const hilo_module *b, const hilo_module *a);

/* ---- data-movement term constructors (term_moves.c) ------------------- *
 * Each normalises as it interns (docs/proof.md, "Canonical terms");
 * TID_NONE when an operand is TID_NONE or the term cannot be built. */
/* broadcast(y) to shape with dimension map dims[0..nd) */
tid terms_broadcast(pairctx *P, tid y, const hilo_shape *shape, const int64_t *dims, int nd);
/* slice(x) with starts s, limits l, strides st (shape: NULL = derived) */
tid terms_slice(pairctx *P, tid x, const int64_t *s, const int64_t *l, const int64_t *st,
	const hilo_shape *shape);
/* x restricted to [lo, hi) on dimension dim */
tid terms_slice_along(pairctx *P, tid x, int64_t dim, int64_t lo, int64_t hi);
/* concatenate(ops[0..n)) on dimension dim */
tid terms_concat(pairctx *P, const tid *ops, uint32_t n, int64_t dim, const hilo_shape *shape);
/* dynamic-update-slice of base by upd at in-range static starts */
tid terms_dus(pairctx *P, tid base, tid upd, const int64_t *starts, const hilo_shape *shape);
/* pad(x, v) without interior padding (pad: lo, hi, interior per dim) */
tid terms_pad(pairctx *P, tid x, tid v, const int64_t *pad, int r, const hilo_shape *shape);

/* Attributes that carry no value (metadata, sharding, ...): records.c. */
bool chk_attr_skip(const hilo_attr *a);
/* b and a have the same definition apart from their operands (called
 * computations compared by name): records.c. */
bool chk_same_def(const hilo_instr *b, const hilo_instr *a);
/* The parameter of i's computation that i is, or that a chain of
 * get-tuple-elements i reads; the tuple indices outermost first in
 * path[0..*depth) (at most max). NULL otherwise (records.c). */
const hilo_instr *chk_param_element(const hilo_instr *i, int64_t *path, int max, int *depth);
/* The instruction whose declared shape gives the layout of i's value as
 * the evaluator holds it (the layout a bitcast of i reads): pass-through
 * ops (opt-barrier, domain, add-dependency, set-dimension-size, boundary
 * markers, copy-done of a copy-start) hand their operand's value on, a
 * get-tuple-element of a tuple its element's, a call or fusion its callee
 * root's; anything else makes its value in its own shape (records.c). */
const hilo_instr *chk_layout_source(const hilo_instr *i);
/* Does bitcast i read the layout of a called computation's parameter in
 * a module that is not layout-sensitive (not is_scheduled=true)? Then the
 * layout that reaches it is the caller's operand's, which the parameter's
 * declared one need not be (XLA's default verifier does not compare
 * them): the bitcast is judged at the call sites only (records.c). */
bool chk_layout_unknown(const hilo_module *m, const hilo_instr *i);

/* ---- tagged evaluation (tagged.c) --------------------------------------- */
typedef struct tagged_result {
	int status;           /* 0 proved, 1 a counterexample, 2 no verdict */
	const char *method;   /* "tagged", "tagged-terms", "tagged-enum" */
	char msg[900];
} tagged_result;
/* Judges a record whose canonical terms differ by injectively tagged
 * evaluation of both cones (docs/proof.md); budget: element-ops. */
void tagged_judge(pairctx *P, const hilo_instr *b, const hilo_instr *a, uint64_t budget,
	tagged_result *r);

/* ---- random testing (cone_test.c) ---------------------------------------- */
typedef struct cone_result {
	int status;           /* 0 equal on all inputs, 1 differ, 2 skipped */
	char msg[900];
} cone_result;
void cone_test(pairctx *P, const hilo_instr *b, const hilo_instr *a, int n,
	uint64_t seed, uint64_t budget, cone_result *r);

/* ---- cuts (cut.c) --------------------------------------------------------- */
/* Judges differing terms tb (before) and ta (after) at the cuts where they
 * differ below nodes of the same head: status 0 every cut equal (the terms
 * are equal), 1 a cut differs (msg: where and why), 2 undecided. deep: the
 * terms' leaves are parameters (free variables, so a cut reading different
 * elements of them differs); otherwise shared-instruction leaves, which may
 * be related: only equality is decided. */
void cut_judge(pairctx *P, tid tb, tid ta, bool deep, cone_result *r);

/* Short description of the frontier of a cone (leaf names), into buf. */
void cone_frontier(pairctx *P, const hilo_instr *b, const hilo_instr *a, char *buf, size_t cap);

#endif
