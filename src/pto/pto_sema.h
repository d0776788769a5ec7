/* pto_sema.h - semantic queries over the PTO IR, shared by
 * legalize-graph-boundary and verify-graph-boundary.
 *
 * What is shared is deliberately small: reading types out of annotation
 * expressions, classifying calls (task launch, op, submit), the per-function
 * variable table, the loop trip count, and ReplayInvariantSet. The pass and
 * the verifier each derive everything else (boundary roots, node counts,
 * hoisting post-conditions) on their own, so one cannot rubber-stamp the
 * other.
 */
#ifndef HILO_PTO_SEMA_H
#define HILO_PTO_SEMA_H

#include "pto/pto_ir.h"

/* ---- pointer map (open addressing; keys are interned names or nodes) -- */

typedef struct pto_map {
	const void **keys;
	void **vals;
	size_t cap, n;
	size_t room;           /* n beyond which a put grows the table */
	hilo_arena *arena;
	bool heap;             /* arrays on the arena's tracked heap (pto_map_init_scratch) */
} pto_map;

void pto_map_init(pto_map *m, hilo_arena *a);
/* A map that is never copied (a pass's own scratch table): its arrays
 * live on a's tracked heap and a growth frees the ones it replaces. */
void pto_map_init_scratch(pto_map *m, hilo_arena *a);
/* A scratch map that is itself a block of a's tracked heap (a table made
 * on first use, kept beside what it indexes), and its release: the map
 * and its arrays (NULL: nothing). */
pto_map *pto_map_new(hilo_arena *a);
void pto_map_free(pto_map *m);
void pto_map_put(pto_map *m, const void *key, void *val);
/* Removes every key (the slots stay allocated). */
void pto_map_clear(pto_map *m);
void pto_map_reserve(pto_map *m, size_t n);
void *pto_map_get(const pto_map *m, const void *key);
bool pto_map_has(const pto_map *m, const void *key);

/* ---- types ---------------------------------------------------------- */

/* Strips pl.In/pl.Out/pl.InOut; *dir receives the direction (In default). */
const pto_expr *pto_type_unwrap(const pto_expr *t, pto_dir *dir);
bool pto_type_is_scalar(const pto_expr *t);
bool pto_type_is_tensor(const pto_expr *t);
/* Scalar dtype name ("INDEX", "TASK_ID", ...) or NULL. */
const char *pto_type_dtype(const pto_expr *t);
/* Shape extents of a Tensor type, or NULL (count in *n). */
pto_expr *const *pto_type_shape(const pto_expr *t, size_t *n);

/* ---- variables ------------------------------------------------------ */

typedef enum pto_var_kind { PTO_V_PARAM, PTO_V_LOCAL, PTO_V_LOOPVAR, PTO_V_ITERARG } pto_var_kind;

typedef struct pto_var {
	/* 24 bytes, allocated in one array per table (a table is sized up
	 * front: 100k-statement functions have 100k variables). The type is
	 * kept as what the pass reads of it (bits), not the annotation; the
	 * enclosing statement of a branch or loop result is in the table's
	 * `parents` map (the only variables that need it). */
	const char *name;
	pto_stmt *def;         /* ASSIGN (locals) or FOR (loop vars, iter args) */
	union {
		uint32_t index;    /* PTO_V_PARAM: parameter index; PTO_V_ITERARG: iter-arg position */
		uint32_t scratch;  /* PTO_V_LOCAL: the running analysis's word, cleared by it when it
		                    * starts (host control's root, legalize's alias resolution,
		                    * lg_canon); a loop variable has neither */
	};
	unsigned kind : 2;     /* pto_var_kind */
	unsigned dir : 2;      /* pto_dir (of the annotation) */
	unsigned ndefs : 2;    /* assignments to the name, saturating at 3 (SSA input: 1; if/else phis: 2) */
	unsigned scalar : 1, tensor : 1, task_id : 1;
	/* what the annotation says (an alias without one copies these, not
	 * scalar/tensor, which a literal value also sets): a Scalar, a Tensor,
	 * its dtype TASK_ID (also for an Array, read by array.get_element) */
	unsigned ann_scalar : 1, ann_tensor : 1, ann_task_dtype : 1;
	unsigned inv_member : 1, inv_boundary : 1; /* ReplayInvariantSet membership (pto_inv_init) */
	unsigned lg_mark : 2;  /* legalize's collector: LG_* bits (pto_arena.h), cleared when it starts */
	unsigned ssa : 2;      /* the SSA check's state of the name (pto_check_ssa), cleared when it starts */
} pto_var;

/* A function's variables by name: 4-byte slots (1 + the variable's index;
 * names hash by pointer, they are interned) over the variables, which
 * live in one array sized up front (`pool`) and, beyond that estimate or
 * reserved by a pass (pto_vars_add), in `extra`. One table per function,
 * cached in the function (pto_func.sema_vars) and shared by every
 * pto_fctx of it. A variable's index (pto_vars_at) is stable once the
 * table is built: passes index dense side arrays by it (pto_vars_index)
 * instead of hashing names again.
 *
 * A table is one block of the program arena's tracked heap - this header,
 * the pool and the slots - so a small function's table costs little more
 * than its variables (a program of thousands of functions holds one for
 * each at once, from the SSA check through host control). Only what
 * grows later has blocks of its own: slots rebuilt past the estimate, the
 * extra variables and their pointer array, the `parents` map. */
typedef struct pto_vartab {
	hilo_arena *arena;     /* the program's: every block of the table is on its tracked heap */
	uint32_t *slots;       /* in the table's block until they grow (slots_own) */
	uint32_t cap, n;       /* cap: a power of two; n: names held */
	pto_var *pool;         /* in the table's block */
	uint32_t npool, cap_pool;
	pto_var **extra;       /* index npool + k: one block each */
	uint32_t nextra, cap_extra;
	pto_map *parents;      /* pto_var of a local bound to pl.yield_(...) -> its enclosing
	                        * statement; NULL until the first */
	bool slots_own;        /* slots are a block of their own */
	bool inv_built;        /* ReplayInvariantSet membership is current (pto_inv_init) */
} pto_vartab;

#define PTO_NO_VAR ((size_t)-1)
/* The index of the variable named name (the first bound, for a name
 * repeated by a non-SSA input), or PTO_NO_VAR. */
size_t pto_vars_index(const pto_vartab *t, const char *name);
pto_var *pto_vars_get(const pto_vartab *t, const char *name);
/* The enclosing compound statement of v's definition when v is bound to
 * pl.yield_(...) (a loop's or branch's result), else NULL. */
pto_stmt *pto_var_parent(const pto_vartab *t, const pto_var *v);
/* Sets v's dir and ann_* bits from an annotation (NULL: none). */
void pto_var_set_ann(pto_var *v, const pto_expr *ann);
static inline bool pto_vars_has(const pto_vartab *t, const char *name)
{
	return pto_vars_get(t, name) != NULL;
}
/* Adds a zeroed variable of kind k named name (a name a pass reserves;
 * freed with the table). */
pto_var *pto_vars_add(pto_vartab *t, const char *name, pto_var_kind k);
/* Every variable: pto_vars_at(t, i) for i below pto_vars_count(t). */
static inline size_t pto_vars_count(const pto_vartab *t)
{
	return (size_t)t->npool + t->nextra;
}
static inline pto_var *pto_vars_at(const pto_vartab *t, size_t i)
{
	return i < t->npool ? &t->pool[i] : t->extra[i - t->npool];
}
/* Variable i's scratch word (pto_var.scratch): 0 for an index past the
 * table and for a variable that is not a local (its word is its index). */
static inline uint32_t pto_vars_scratch(const pto_vartab *t, size_t i)
{
	if (i >= pto_vars_count(t))
		return 0;
	const pto_var *v = pto_vars_at(t, i);
	return v->kind == PTO_V_LOCAL ? v->scratch : 0;
}

typedef struct pto_fctx {
	hilo_pto_program *p;
	pto_func *f;
	pto_vartab *vars;      /* name -> pto_var */
} pto_fctx;

/* Fills *c with f's variable table. Tables are cached per function (they
 * are read-only once built) on the program arena's tracked heap;
 * pto_func_invalidate frees the cache after a rewrite changes the
 * function (no pointer into it may be kept across that call). */
void pto_fctx_init(pto_fctx *c, hilo_pto_program *p, pto_func *f);
void pto_func_invalidate(pto_func *f);
/* Frees every function's cached tables: the entry points (legalize,
 * verify) call it before returning, so what they built does not stay
 * beside the program (a later pass rebuilds what it reads). */
void pto_program_drop_caches(hilo_pto_program *p);
pto_var *pto_lookup(const pto_fctx *c, const pto_expr *e); /* NAME -> var or NULL */
pto_func *pto_find_func(hilo_pto_program *p, const char *name);

/* ---- calls ---------------------------------------------------------- */

typedef enum pto_call_kind { PTO_C_NONE, PTO_C_FUNC, PTO_C_SUBMIT, PTO_C_OP, PTO_C_OTHER } pto_call_kind;

typedef struct pto_call {
	pto_call_kind kind;
	pto_expr *e;
	char op[64];          /* OP: "tensor.slice"; SUBMIT: "submit"/"spmd_submit" */
	const char *callee_name;
	pto_func *callee;     /* FUNC/SUBMIT: program function or NULL */
	pto_expr **args;      /* positional args (for SUBMIT without the function) */
	size_t nargs;
	pto_expr *deps, *core_num, *predicate, *attrs;
} pto_call;

bool pto_call_decode(hilo_pto_program *p, pto_expr *e, pto_call *out);
bool pto_call_is_op(const pto_call *c, const char *op);
/* Calls that are statements in PyPTO's IR rather than calls (yield_,
 * range, at, scope, ...): walkers look through them. */
bool pto_call_is_structural(const pto_call *c);
/* core_num a launch carries: kwarg, attrs entry, or the callee's decorator. */
const pto_expr *pto_call_core_num(const pto_call *c);

/* Post-order walk over every call reached from e (structural ones are
 * looked through, not reported). */
typedef void (*pto_call_fn)(void *ud, pto_call *c);
void pto_walk_calls(hilo_pto_program *p, pto_expr *e, pto_call_fn fn, void *ud);
/* Every expression of a statement that can hold a call, in order. */
void pto_stmt_walk_calls(hilo_pto_program *p, pto_stmt *s, pto_call_fn fn, void *ud);

/* ---- misc ----------------------------------------------------------- */

bool pto_const_int(const pto_expr *e, int64_t *v);
/* Scalar intrinsics PyPTO prints as calls (pl.min, pl.max, pl.cast, abs):
 * scalar arithmetic like + and *. Returns the number of value operands
 * (the leading items; pl.cast's dtype is not one), 0 for any other call. */
size_t pto_scalar_intrinsic(const pto_expr *e);
bool pto_is_literal(const pto_expr *e);     /* literals closed under +-*... */
/* Static trip count of a for statement; false when not provable. */
bool pto_trip_count(const pto_stmt *s, uint64_t *trips);
bool pto_expr_refs(const pto_expr *e, const pto_map *names);

/* Explicit return -> parameter map of a callee: the i-th returned value,
 * when it is literally one of the callee's parameters. */
bool pto_explicit_returned_param(const pto_func *f, size_t pos, size_t *param);
/* The first return statement in pre-order, or NULL. */
pto_stmt *pto_first_return(const pto_block *b);
/* Return lineage through rebinds, loops and callees (GB007). */
bool pto_returned_param(hilo_pto_program *p, const pto_fctx *c, const pto_expr *e, int depth);

/* SSA form (GB023): every name bound once per function - parameters never
 * rebound - except the two arms of an if/else yielding the branch result.
 * False after one located error. */
bool pto_check_ssa(hilo_pto_program *p, pto_func *f, hilo_diags *d);

/* ---- ReplayInvariantSet (seed 002: three seeds, closed under scalar
 * arithmetic and names bound to an invariant value) ---------------------- */

/* Membership is stored in the function's variables (pto_var.inv_member:
 * invariant scalar names; pto_var.inv_boundary: tensor params and their
 * bare aliases), so building the set allocates nothing per name. */
typedef struct pto_invset {
	const pto_fctx *c;
} pto_invset;

void pto_inv_init(pto_invset *s, const pto_fctx *c);
bool pto_inv_is_invariant(const pto_invset *s, const pto_expr *e);

#endif
