/* pto_arena.h - internal interface between legalize-graph-boundary's
 * Steps A-C (pto_legalize.c) and its arena packing (pto_arena.c): the
 * hoist plan and the collector both read, and the collector helpers
 * packing uses. Not for other files. */
#ifndef HILO_PTO_ARENA_H
#define HILO_PTO_ARENA_H

#include "pto/pto_sema.h"

typedef struct hoist {
	const char *name;
	pto_expr *value;
	const pto_expr *ann;   /* the variable's own annotation */
	pto_dir dir;
	bool tensor;
	size_t defidx;
	const char *local;     /* scratch while rewriting one call site */
	size_t pos;            /* index in definition order */
	size_t *deps;          /* positions of the hoists its value reads */
	size_t ndeps, nwait;
	size_t *users;         /* positions of the hoists reading it */
	size_t nusers, capusers;
	pto_stmt *stmt;        /* Step C: the create statement (NULL for a slot buffer) */
} hoist;

typedef struct vec {
	void *data;
	size_t n, cap;
} vec;

static inline void *vec_push(hilo_arena *a, vec *v, size_t sz)
{
	if (v->n == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 8;
		/* tracked heap: a growth frees the array it replaces (an arena
		 * would keep it) */
		v->data = hilo_heap_realloc(a, v->data, ncap * sz);
		if (!v->data)
			pto_oom(a);
		v->cap = ncap;
	}
	return (char *)v->data + sz * v->n++;
}

/* A Graph's plan, in the plans' arena `a` (a child of the program's,
 * freed when the call sites are rewritten: nothing of it outlives the
 * pass). */
typedef struct plan {
	hilo_pto_program *p;
	pto_func *f;
	hilo_arena *a;
	size_t orig_nparams;
	const char **orig_names;
	vec hoisted;      /* hoist, parameter order */
	const pto_vartab *vars; /* the Graph's variables (cached until the call sites are done) */
	size_t nvars;          /* the Graph's variables when the plan was started (an alias is one:
	                        * its resolution is lg_canon; a scalar rename, LG_PASSTHROUGH, is
	                        * substituted in the body) */
	size_t nrepl;          /* scalar renames */
	pto_map hoisted_set;   /* name -> hoist */
	pto_map slot_view;     /* in-loop create statement -> the view that replaces it */
	hoist **order;         /* call-site binding order (see order_hoists) */
} plan;

/* The collector (Steps A-C analysis) of one Graph. */
typedef struct coll {
	hilo_pto_program *p;
	pto_fctx *c;
	pto_invset inv;
	hilo_diags *d;
	bool failed;
	bool allow_dim;       /* derivable() admits pl.tensor.dim of a boundary tensor */
	bool slots;           /* HILO_PTO_SLOT_LOOP_ALLOCATIONS */
	bool scalar_shapes;   /* HILO_PTO_HOIST_SCALAR_SHAPED_ALLOCATIONS */
	int loop_depth;
	pto_stmt *loop;       /* innermost enclosing for statement (NULL inside a while) */
	pto_stmt *enclosing;  /* innermost enclosing compound statement */
	hilo_arena *pa;       /* the plans' arena */
	plan *pl;             /* the plan being built (its alias resolutions) */
	size_t next_def;
	pto_map scalar_params, tensor_params, root, in_place, created, tuple_result, tuple_lit;
	vec derived_l, slices_l, creates_l; /* hoist */
} coll;

/* pto_var.lg_mark bits: a Step A derived scalar, a scalar rename. */
enum { LG_DERIVED = 1, LG_PASSTHROUGH = 2 };

/* The alias resolution of variable i of t, while its Graph's plan lives:
 * 1 + the index of the hoist or non-alias variable it denotes, 0 for
 * none. Kept in a local's `scratch` (aliases are locals; build_plan clears
 * it, and a hoisted local that becomes a parameter is never an alias). */
static inline uint32_t lg_canon(const pto_vartab *t, size_t i)
{
	return pto_vars_scratch(t, i);
}

static inline bool lg_marked(const coll *k, const char *name, unsigned bits)
{
	const pto_var *v = pto_vars_get(k->c->vars, name);
	return v && (v->lg_mark & bits);
}

/* The tensor parameter or hoisted allocation e (a name) is rooted at, or NULL. */
const char *lg_root_of(coll *k, const pto_expr *e);
/* A literal extent list of at most max positive extents, or false. */
bool lg_literal_extents(const pto_expr *l, int64_t *ext, size_t max, size_t *n);
/* Packs pl's hoisted allocations into call-site arenas when the Graph
 * exceeds the boundary's tensor limit (pto_arena.c); false after GB003. */
bool lg_pack_allocations(coll *k, plan *pl);

#endif
