/* tagged.c - the validator's proof by injectively tagged evaluation
 * (docs/proof.md, "Tagged evaluation"), tried where a record's canonical
 * terms differ and before random testing.
 *
 * Both cones are evaluated on inputs where every element of every frontier
 * leaf is a distinct 64-bit tag (leaf, flat index). Data movement (slice,
 * dynamic-slice / -update-slice with concrete starts, concatenate, pad,
 * reshape, transpose, broadcast, bitcast, reverse, copy, select with a
 * concrete predicate, tuple / get-tuple-element, calls inlined) only copies
 * elements, so it commutes with renaming values: it is evaluated by the
 * evaluator itself (src/eval, the one definition of each op, clamping
 * included) on u64 literals of the same dimensions (data movement is
 * type-agnostic). Equal output tags then mean equal outputs for every
 * input: method "tagged".
 *
 * Elementwise arithmetic on tags builds hash-consed element terms
 * (op, result type, attributes, operand tags), uninterpreted, with only
 * the IEEE-exact identities of docs/proof.md and operand order of
 * commutative ops: equal terms are equal values for every input, method
 * "tagged-terms".
 *
 * A dynamic-slice / -update-slice start that is a scalar integer leaf used
 * only as starts (possibly through tuples and calls) with a clamped range of
 * at most 64 values is enumerated: every value of the range is tried, and
 * every other value behaves like a clamped one, so this is still a proof
 * for every input: method "tagged-enum".
 *
 * A difference is a counterexample only when both differing elements are
 * data (a leaf element or a constant) whose leaves are free (parameters of
 * the computation or their tuple elements; an enumerated index likewise):
 * then "failed", naming the element and both sides' tags decoded. Shared
 * non-parameter leaves may be correlated, so a difference through them is
 * judged again with only parameters as leaves ("deep"); a difference of
 * arithmetic terms is inconclusive (x + x and 2 * x differ as terms): the
 * record goes on to random testing.
 *
 * With hilo_validate_opts.zero_sign_insensitive (--assume-no-signed-zeros)
 * two float zero constants of opposite sign count as equal elements.
 *
 * Cost: linear in the elements evaluated; everything is charged to the
 * per-cone budget (all enumerated runs together).
 */
#include "check_internal.h"
#include "ir/literal.h"
#include "support/hash.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

enum { TV_CONC, TV_TAG, TV_TUPLE };

/* A value: concrete (the real literal), tagged (u64 tags, same dims) or a
 * tuple of values. */
typedef struct tv {
	int kind;
	uint32_t taint;          /* enumerated leaf ordinal + 1 (CONC), 0 none */
	const hilo_shape *shape; /* the real shape */
	hilo_literal *lit;       /* CONC, TAG */
	int n;
	struct tv **el;          /* TUPLE */
} tv;

enum { PATH_MAX_DEPTH = 8, IDX_BITS = TAG_IDX_BITS, ENUM_MAX = 8, ENUM_VALUES_MAX = 64,
	ENUM_PRODUCT_MAX = 4096, NODE_MAX = 1 << 23, CALL_DEPTH_MAX = 64 };
#define IDX_MASK ((1ull << IDX_BITS) - 1)
#define TAGGED_BUDGET_MAX (1ull << 25)
#define NODE_BIT (1ull << 63)
enum { N_CONST = HILO_OP_COUNT + 1 };

typedef struct leafrec {
	bool param;              /* a parameter or a tuple element of one: free */
	uint32_t base;           /* parameter number or instruction id */
	int depth;
	int64_t path[PATH_MAX_DEPTH];
	const hilo_shape *shape; /* array shape */
	const char *name;
	uint64_t h;
} leafrec;

typedef struct node {
	int op;
	hilo_ptype type;
	uint64_t ah;
	int n;
	uint64_t a[3];           /* operand tags; N_CONST: a[0] value bits */
	uint64_t h;
} node;

typedef struct enumv {
	uint32_t leaf;
	int64_t hi;              /* values 0..hi */
	int64_t cur;
} enumv;

enum { ST_OK, ST_NO, ST_ENUM };

typedef struct tctx {
	pairctx *P;
	hilo_module *run;        /* values of the current run */
	uint64_t used, budget;
	bool deep;
	leafrec *leaves;
	uint32_t nleaves, capleaves;
	uint32_t *lslots;        /* leaf lookup by hash: index + 1 */
	uint32_t lscap;
	node *nodes;
	uint32_t nnodes, capnodes;
	uint32_t *slots;         /* node interning: index + 1 */
	uint32_t scap;
	bool any_op, used_id_leaf;
	enumv en[ENUM_MAX];
	int nen;
	int status;
	char why[400];
	hilo_ptrmap pure;        /* comp -> 1 pure, 2 not */
	const hilo_comp *cb;     /* the record's before-computation (leaf names) */
	int side;
} tctx;

/* Records why no verdict can be given (the first reason wins); NULL. */
static void *no(tctx *X, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void *no(tctx *X, const char *fmt, ...)
{
	if (X->status == ST_OK) {
		X->status = ST_NO;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(X->why, sizeof X->why, fmt, ap);
		va_end(ap);
	}
	return NULL;
}

static bool same_dims(const hilo_shape *a, const hilo_shape *b)
{
	return a->type != HILO_T_TUPLE && b->type != HILO_T_TUPLE && hilo_shape_same_dims(a, b);
}

static bool charge(tctx *X, uint64_t n)
{
	if (n > X->budget || X->used > X->budget - n) {
		no(X, "over the budget of element-ops");
		return false;
	}
	X->used += n;
	return true;
}

/* ---- element terms ---------------------------------------------------- */

static bool is_node(uint64_t t) { return (t & NODE_BIT) != 0; }

static const node *N(const tctx *X, uint64_t t) { return &X->nodes[t & ~NODE_BIT]; }

static bool node_same(const node *x, const node *y)
{
	if (x->h != y->h || x->op != y->op || x->type != y->type || x->ah != y->ah || x->n != y->n)
		return false;
	for (int k = 0; k < x->n; k++)
		if (x->a[k] != y->a[k])
			return false;
	return true;
}

static bool grow_slots(tctx *X)
{
	uint32_t nc = X->scap ? X->scap * 2 : 1024;
	uint32_t *ns = calloc(nc, sizeof *ns);
	if (!ns)
		return false;
	for (uint32_t k = 0; k < X->nnodes; k++) {
		uint32_t p = (uint32_t)X->nodes[k].h & (nc - 1);
		while (ns[p])
			p = (p + 1) & (nc - 1);
		ns[p] = k + 1;
	}
	free(X->slots);
	X->slots = ns;
	X->scap = nc;
	return true;
}

/* Interns a node; returns its tag (0 on failure, never a valid tag). */
static uint64_t intern(tctx *X, node *t)
{
	uint64_t h = hilo_hash_mix64((uint64_t)t->op ^ ((uint64_t)t->type << 20) ^ hilo_hash_mix64(t->ah));
	for (int k = 0; k < t->n; k++)
		h = hilo_hash_mix64(h ^ t->a[k]);
	t->h = h;
	if (X->nnodes * 2 >= X->scap && !grow_slots(X)) {
		no(X, "out of memory");
		return 0;
	}
	uint32_t p = (uint32_t)h & (X->scap - 1);
	while (X->slots[p]) {
		if (node_same(&X->nodes[X->slots[p] - 1], t))
			return NODE_BIT | (X->slots[p] - 1);
		p = (p + 1) & (X->scap - 1);
	}
	if (X->nnodes >= NODE_MAX) {
		no(X, "more than 2^23 distinct element terms");
		return 0;
	}
	if (X->nnodes == X->capnodes) {
		uint32_t nc = X->capnodes ? X->capnodes * 2 : 1024;
		node *nn = realloc(X->nodes, nc * sizeof *nn);
		if (!nn) {
			no(X, "out of memory");
			return 0;
		}
		X->nodes = nn;
		X->capnodes = nc;
	}
	X->nodes[X->nnodes] = *t;
	X->slots[p] = ++X->nnodes;
	return NODE_BIT | (X->nnodes - 1);
}

/* The tag of element k of a concrete array: the value itself, bit for bit
 * (a NaN's sign and payload are observable: docs/proof.md, the NaN
 * standard). */
static uint64_t const_tag(tctx *X, const hilo_literal *l, size_t k)
{
	hilo_ptype t = l->shape->type;
	int eb = hilo_ptype_bytes(t);
	node c = {N_CONST, t, 0, 2, {0, 0, 0}, 0};
	if (eb <= 0 || eb > 8 || hilo_ptype_is_complex(t)) {
		no(X, "constants of type %s are not tagged", hilo_ptype_name(t));
		return 0;
	}
	if (hilo_ptype_is_float(t)) {
		memcpy(&c.a[0], (const char *)l->data + k * (size_t)eb, (size_t)eb);
		c.a[1] = hilo_elem_is_snan(t, l->data, k) ? 3 : 1;
	} else if (t == HILO_T_PRED) {
		c.a[0] = ((const unsigned char *)l->data)[k] != 0;
	} else if (hilo_ptype_is_int(t)) {
		c.a[0] = (uint64_t)hilo_elem_get_i64(t, l->data, k);
	} else {
		memcpy(&c.a[0], (const char *)l->data + k * (size_t)eb, (size_t)eb);
	}
	return intern(X, &c);
}

/* Is tag t the constant of kind: 0 = -0.0 / int 0, 1 = +0.0 / int 0,
 * 2 = one, 3 = all ones (int)? */
static bool const_is(const tctx *X, uint64_t t, int kind)
{
	if (!is_node(t))
		return false;
	const node *c = N(X, t);
	if (c->op != N_CONST)
		return false;
	if (hilo_ptype_is_float(c->type)) {
		if (!c->a[1] || isnan(hilo_elem_get_f64(c->type, &c->a[0], 0)))
			return false;
		double v = hilo_elem_get_f64(c->type, &c->a[0], 0);
		if (kind == 0)
			return v == 0 && signbit(v);
		if (kind == 1)
			return v == 0 && !signbit(v);
		return kind == 2 && v == 1.0;
	}
	if (!hilo_ptype_is_int(c->type))
		return false;
	int64_t v = (int64_t)c->a[0];
	if (kind <= 1)
		return v == 0;
	if (kind == 2)
		return v == 1;
	/* all ones: -1 signed; the type's maximum unsigned */
	if (hilo_ptype_is_signed_int(c->type))
		return v == -1;
	int bits = hilo_ptype_bits(c->type);
	uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	return ((uint64_t)v & m) == m;
}

/* Operand order that does not matter: integer add, multiply, maximum and
 * minimum. Float maximum / minimum are not symmetric in the evaluator
 * (XLA's std::max keeps the lhs on a tie: max(-0, +0) = -0, max(+0, -0) =
 * +0), nor are float add and multiply (with two NaN operands the result is
 * one of them by position; a NaN's bits are observable). */
static bool commutes(const hilo_instr *i)
{
	if (hilo_instr_is_commutative(i))
		return true;
	switch (i->op) {
	case HILO_OP_COMPARE: {
		const char *d = hilo_instr_get_enum(i, HILO_A_DIRECTION);
		return d && (!strcmp(d, "EQ") || !strcmp(d, "NE"));
	}
	default:
		return false;
	}
}

/* The IEEE-exact identities of docs/proof.md: the surviving operand, or 0. */
static uint64_t identity(const tctx *X, const hilo_instr *i, const uint64_t *a)
{
	hilo_ptype t = i->shape->type;
	bool fl = hilo_ptype_is_float(t), in = hilo_ptype_is_int(t);
	if (i->op == HILO_OP_SELECT)
		return a[1] == a[2] ? a[1] : 0;
	if (!fl && !in)
		return 0;
	for (int s = 0; s < 2; s++) {
		uint64_t c = a[s], other = a[1 - s];
		/* float identities only for an element that is never a
		 * signalling NaN: an arithmetic result, or a constant without one
		 * (a leaf's element may be one, which the op would quiet) */
		if (fl && !(is_node(other) && (hilo_opcode_quiets_nan(N(X, other)->op) ||
		                               (N(X, other)->op == N_CONST && N(X, other)->a[1] != 3))))
			continue;
		switch (i->op) {
		case HILO_OP_ADD:
			if (const_is(X, c, 0) || (in && const_is(X, c, 1)))
				return other;
			break;
		case HILO_OP_SUBTRACT:
			if (s == 1 && (const_is(X, c, 1) || (in && const_is(X, c, 0))))
				return other;
			break;
		case HILO_OP_MULTIPLY:
			if (const_is(X, c, 2))
				return other;
			break;
		case HILO_OP_OR: case HILO_OP_XOR:
			if (in && const_is(X, c, 0))
				return other;
			break;
		case HILO_OP_AND:
			if (in && const_is(X, c, 3))
				return other;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* Hash of an elementwise op's meaningful attributes (compare direction and
 * type, reduce-precision bits, ...); false for called computations. */
static bool ew_attr_hash(const hilo_instr *i, uint64_t *out)
{
	uint64_t h = hilo_hash_mix64(0xe1e7);
	for (uint32_t k = 0; k < i->nattrs; k++) {
		const hilo_attr *a = &i->attrs[k];
		if (chk_attr_skip(a))
			continue;
		for (const char *s = a->key; *s; s++)
			h = hilo_hash_mix64(h ^ (unsigned char)*s);
		h = hilo_hash_mix64(h ^ (uint64_t)a->kind);
		switch (a->kind) {
		case HILO_ATTR_RAW: case HILO_ATTR_STRING: case HILO_ATTR_ENUM:
			for (const char *s = a->v.text ? a->v.text : ""; *s; s++)
				h = hilo_hash_mix64(h ^ (unsigned char)*s);
			break;
		case HILO_ATTR_INT: case HILO_ATTR_BOOL:
			h = hilo_hash_mix64(h ^ (uint64_t)a->v.i);
			break;
		case HILO_ATTR_INTS:
			for (int q = 0; q < a->n; q++)
				h = hilo_hash_mix64(h ^ (uint64_t)a->v.ints[q]);
			break;
		default:
			return false;
		}
	}
	*out = h;
	return true;
}

/* ---- leaves ------------------------------------------------------------- */

static uint64_t leaf_hash(bool param, uint32_t base, int depth, const int64_t *path)
{
	uint64_t h = hilo_hash_mix64(((uint64_t)param << 40) ^ base);
	for (int k = 0; k < depth; k++)
		h = hilo_hash_mix64(h ^ (uint64_t)path[k]);
	return hilo_hash_mix64(h ^ (uint64_t)depth);
}

/* The ordinal of leaf (param/base, path) with array shape s. */
static int64_t leaf_ord(tctx *X, bool param, uint32_t base, int depth, const int64_t *path,
	const hilo_shape *s, const char *name)
{
	uint64_t h = leaf_hash(param, base, depth, path);
	if (X->nleaves * 2 >= X->lscap) {
		uint32_t nc = X->lscap ? X->lscap * 2 : 64;
		uint32_t *ns = calloc(nc, sizeof *ns);
		if (!ns) {
			no(X, "out of memory");
			return -1;
		}
		for (uint32_t k = 0; k < X->nleaves; k++) {
			uint32_t p = (uint32_t)X->leaves[k].h & (nc - 1);
			while (ns[p])
				p = (p + 1) & (nc - 1);
			ns[p] = k + 1;
		}
		free(X->lslots);
		X->lslots = ns;
		X->lscap = nc;
	}
	uint32_t p = (uint32_t)h & (X->lscap - 1);
	for (; X->lslots[p]; p = (p + 1) & (X->lscap - 1)) {
		const leafrec *l = &X->leaves[X->lslots[p] - 1];
		if (l->h == h && l->param == param && l->base == base && l->depth == depth &&
		    !memcmp(l->path, path, (size_t)depth * sizeof *path))
			return X->lslots[p] - 1;
	}
	if (X->nleaves >= (1u << 22)) {
		no(X, "too many leaves");
		return -1;
	}
	if (X->nleaves == X->capleaves) {
		uint32_t nc = X->capleaves ? X->capleaves * 2 : 16;
		leafrec *nl = realloc(X->leaves, nc * sizeof *nl);
		if (!nl) {
			no(X, "out of memory");
			return -1;
		}
		X->leaves = nl;
		X->capleaves = nc;
	}
	leafrec *l = &X->leaves[X->nleaves];
	memset(l, 0, sizeof *l);
	l->param = param;
	l->base = base;
	l->depth = depth;
	memcpy(l->path, path, (size_t)depth * sizeof *path);
	l->shape = s;
	l->name = name;
	l->h = h;
	X->lslots[p] = X->nleaves + 1;
	return X->nleaves++;
}

/* s with u64 elements (a tag array), in the run module's table. */
static hilo_shape *retype(tctx *X, const hilo_shape *s)
{
	if (s->type == HILO_T_TUPLE)
		return no(X, "a tuple where an array was expected");
	hilo_shape *c = hilo_shape_retype(X->run->shapes, s, HILO_T_U64);
	if (!c)
		return no(X, "out of memory");
	return c;
}

static tv *tv_new(tctx *X, int kind, const hilo_shape *s)
{
	tv *v = hilo_arena_alloc(X->run->arena, sizeof *v);
	if (!v)
		return no(X, "out of memory");
	memset(v, 0, sizeof *v);
	v->kind = kind;
	v->shape = s;
	return v;
}

static int enum_slot(const tctx *X, uint32_t leaf)
{
	for (int k = 0; k < X->nen; k++)
		if (X->en[k].leaf == leaf)
			return k;
	return -1;
}

/* The value of leaf (param/base, path) of shape s: tags, or the current
 * value of an enumerated index. */
static tv *leaf_tv(tctx *X, bool param, uint32_t base, int depth, int64_t *path,
	const hilo_shape *s, const char *name)
{
	if (s->type == HILO_T_TUPLE) {
		if (depth >= PATH_MAX_DEPTH)
			return no(X, "tuple leaf nested deeper than 8");
		tv *v = tv_new(X, TV_TUPLE, s);
		if (!v)
			return NULL;
		v->n = s->ntuple;
		v->el = hilo_arena_alloc(X->run->arena, ((size_t)s->ntuple + 1) * sizeof *v->el);
		if (!v->el)
			return no(X, "out of memory");
		for (int k = 0; k < s->ntuple; k++) {
			path[depth] = k;
			if (!(v->el[k] = leaf_tv(X, param, base, depth + 1, path, s->elems[k], name)))
				return NULL;
		}
		return v;
	}
	int64_t ne = hilo_shape_elements(s);
	if (ne < 0 || (uint64_t)ne > IDX_MASK)
		return no(X, "leaf %s is too large to tag", name);
	int64_t ord = leaf_ord(X, param, base, depth, path, s, name);
	if (ord < 0 || !charge(X, (uint64_t)ne))
		return NULL;
	int es = enum_slot(X, (uint32_t)ord);
	if (es >= 0) {
		tv *v = tv_new(X, TV_CONC, s);
		if (!v || !(v->lit = hilo_literal_create(X->run, s)))
			return no(X, "out of memory");
		hilo_elem_set_i64(s->type, v->lit->data, 0, X->en[es].cur);
		v->taint = (uint32_t)ord + 1;
		return v;
	}
	tv *v = tv_new(X, TV_TAG, s);
	hilo_shape *rs = v ? retype(X, s) : NULL;
	if (!rs)
		return no(X, "out of memory");
	const uint64_t *pooled = tagpool_get(X->P->tags, (uint32_t)ord, (uint64_t)ne);
	if (pooled) {
		/* read-only: the evaluator never writes its operands */
		hilo_literal *l = hilo_arena_alloc(X->run->arena, sizeof *l);
		if (!l)
			return no(X, "out of memory");
		memset(l, 0, sizeof *l);
		l->shape = rs;
		l->nbytes = (size_t)ne * sizeof(uint64_t);
		l->data = (void *)pooled;
		v->lit = l;
		return v;
	}
	if (!(v->lit = hilo_literal_create(X->run, rs)))
		return no(X, "out of memory");
	tagpool_fill(v->lit->data, (uint32_t)ord, 0, (uint64_t)ne);
	return v;
}

/* Is i a get-tuple-element chain ending at a parameter of its computation? */
static bool param_element(const hilo_instr *i)
{
	int64_t path[PATH_MAX_DEPTH];
	int depth = 0;
	return chk_param_element(i, path, PATH_MAX_DEPTH, &depth) && depth > 0;
}

static int64_t total_elements(const hilo_shape *s)
{
	if (s->type != HILO_T_TUPLE)
		return hilo_shape_elements(s);
	int64_t n = 0;
	for (int k = 0; k < s->ntuple; k++) {
		int64_t e = total_elements(s->elems[k]);
		if (e < 0 || n > INT64_MAX / 2 - e)
			return -1;
		n += e;
	}
	return n;
}

/* A shared leaf's tags in the layout its value has where it is made
 * (chk_layout_source: a shared opt-barrier of a copy holds the copy's
 * buffer, and that copy's layout may differ between the two modules while
 * every value is the same): a bitcast of the leaf reads that layout. The
 * same tags, relabelled (the tag array is not copied). */
static tv *leaf_layout(tctx *X, tv *v, const hilo_instr *i)
{
	const hilo_instr *src = chk_layout_source(i);
	if (v->kind != TV_TAG || src == i || src->shape->type == HILO_T_TUPLE ||
	    !hilo_shape_compatible(src->shape, i->shape) || hilo_shape_equal(src->shape, i->shape))
		return v;
	tv *r = tv_new(X, TV_TAG, i->shape);
	hilo_literal *l = r ? hilo_arena_alloc(X->run->arena, sizeof *l) : NULL;
	hilo_shape *rs = l ? retype(X, src->shape) : NULL;
	if (!rs)
		return no(X, "out of memory");
	*l = *v->lit;
	l->shape = rs;
	r->lit = l;
	return r;
}

/* A top-level leaf: a parameter, or (not deep) a shared instruction; a
 * shared get-tuple-element chain of a parameter is that parameter's
 * element (free, and the same tags as through the parameter). */
static tv *top_leaf(tctx *X, const hilo_instr *i)
{
	int64_t path[PATH_MAX_DEPTH];
	int depth = 0;
	const hilo_instr *x = chk_param_element(i, path, PATH_MAX_DEPTH, &depth);
	int64_t ne = total_elements(i->shape);
	if (ne < 0 || (uint64_t)ne > X->budget - X->used)
		return no(X, "the leaf %s is over the budget", i->name);
	if (x) {
		const hilo_instr *named = (uint64_t)hilo_instr_param_no(x) < X->cb->nparams
			? X->cb->params[hilo_instr_param_no(x)] : x;
		return leaf_tv(X, true, (uint32_t)hilo_instr_param_no(x), depth, path, i->shape,
			named ? named->name : x->name);
	}
	X->used_id_leaf = true;
	const hilo_instr *named = i->id < X->P->s[0].nid ? X->P->s[0].by_id[i->id] : NULL;
	tv *v = leaf_tv(X, false, i->id, 0, path, i->shape, named ? named->name : i->name);
	return v ? leaf_layout(X, v, i) : NULL;
}

/* ---- value conversions -------------------------------------------------- */

/* The tagged form of an array value (constants become their own tags). */
static tv *to_tag(tctx *X, tv *v)
{
	if (v->kind == TV_TAG)
		return v;
	if (v->kind != TV_CONC || v->shape->type == HILO_T_TUPLE)
		return no(X, "a tuple where an array was expected");
	int64_t ne = hilo_shape_elements(v->shape);
	if (ne < 0 || !charge(X, (uint64_t)ne))
		return NULL;
	tv *t = tv_new(X, TV_TAG, v->shape);
	hilo_shape *rs = t ? retype(X, v->shape) : NULL;
	if (!rs || !(t->lit = hilo_literal_create(X->run, rs)))
		return no(X, "out of memory");
	uint64_t *d = t->lit->data;
	for (int64_t k = 0; k < ne; k++)
		if (!(d[k] = const_tag(X, v->lit, (size_t)k)))
			return NULL;
	return t;
}

/* A concrete tuple literal split into values. */
static tv *split_tuple(tctx *X, tv *v)
{
	if (v->kind == TV_TUPLE)
		return v;
	if (v->kind != TV_CONC || !v->lit || v->lit->ntuple != v->shape->ntuple)
		return no(X, "a tuple value expected");
	tv *t = tv_new(X, TV_TUPLE, v->shape);
	if (!t)
		return NULL;
	t->n = v->shape->ntuple;
	t->el = hilo_arena_alloc(X->run->arena, ((size_t)t->n + 1) * sizeof *t->el);
	if (!t->el)
		return no(X, "out of memory");
	for (int k = 0; k < t->n; k++) {
		if (!(t->el[k] = tv_new(X, TV_CONC, v->shape->elems[k])))
			return NULL;
		t->el[k]->lit = v->lit->elems[k];
		t->el[k]->taint = v->taint;
	}
	return t;
}

/* Concrete everywhere (no tags)? */
static bool all_conc(const tv *v)
{
	if (v->kind == TV_TUPLE) {
		for (int k = 0; k < v->n; k++)
			if (!all_conc(v->el[k]))
				return false;
		return true;
	}
	return v->kind == TV_CONC;
}

static uint32_t taint_of(const tv *v)
{
	if (v->kind == TV_TUPLE) {
		for (int k = 0; k < v->n; k++) {
			uint32_t t = taint_of(v->el[k]);
			if (t)
				return t;
		}
		return 0;
	}
	return v->taint;
}

/* The literal of a concrete value (tuples assembled). */
static hilo_literal *conc_lit(tctx *X, tv *v)
{
	if (v->kind == TV_CONC)
		return v->lit;
	hilo_literal *l = hilo_arena_alloc(X->run->arena, sizeof *l);
	if (!l)
		return no(X, "out of memory");
	memset(l, 0, sizeof *l);
	l->shape = (hilo_shape *)v->shape;
	l->ntuple = v->n;
	l->elems = hilo_arena_alloc(X->run->arena, ((size_t)v->n + 1) * sizeof *l->elems);
	if (!l->elems)
		return no(X, "out of memory");
	for (int k = 0; k < v->n; k++)
		if (!(l->elems[k] = conc_lit(X, v->el[k])))
			return NULL;
	return l;
}

/* ---- evaluation ---------------------------------------------------------- */

static bool op_pure(const hilo_module *m, const hilo_instr *i)
{
	if (hilo_opcode_flags(i->op) & (HILO_OPF_COLL | HILO_OPF_SE))
		return false;
	switch (i->op) {
	case HILO_OP_CUSTOM_CALL: case HILO_OP_RNG: case HILO_OP_RNG_BIT_GENERATOR:
	case HILO_OP_RNG_GET_AND_UPDATE_STATE: case HILO_OP_PARTITION_ID:
	case HILO_OP_REPLICA_ID: case HILO_OP_ASYNC_START: case HILO_OP_ASYNC_UPDATE:
	case HILO_OP_ASYNC_DONE: case HILO_OP_PARAMETER:
		return false;
	default:
		return !hilo_instr_has_side_effect(m, i);
	}
}

/* Does every instruction of c (and its callees) compute a function of its
 * operands that the evaluator defines (no uninterpreted or effectful op)? */
static bool comp_pure(tctx *X, const hilo_comp *c, int depth)
{
	void *got = hilo_ptrmap_get(&X->pure, c);
	if (got)
		return got == (void *)1;
	if (depth > CALL_DEPTH_MAX)
		return false;
	bool ok = true;
	const hilo_module *m = X->P->s[X->side].m;
	for (const hilo_instr *i = c->first; i && ok; i = i->next) {
		if (i->op == HILO_OP_PARAMETER)
			continue;
		ok = op_pure(m, i);
		for (uint32_t k = 0; ok && k < hilo_instr_ncalled(i); k++)
			ok = comp_pure(X, hilo_instr_called(i)[k], depth + 1);
	}
	hilo_ptrmap_put(&X->pure, c, (void *)(uintptr_t)(ok ? 1 : 2));
	return ok;
}


static bool data_movement(hilo_opcode op)
{
	switch (op) {
	case HILO_OP_BROADCAST: case HILO_OP_RESHAPE: case HILO_OP_BITCAST:
	case HILO_OP_TRANSPOSE: case HILO_OP_SLICE: case HILO_OP_DYNAMIC_SLICE:
	case HILO_OP_DYNAMIC_UPDATE_SLICE: case HILO_OP_CONCATENATE: case HILO_OP_PAD:
	case HILO_OP_REVERSE: case HILO_OP_SELECT:
		return true;
	default:
		return false;
	}
}

/* First operand slot of an index (start or predicate) operand, or
 * noperands when all operands are data. */
static uint32_t first_index_slot(const hilo_instr *i)
{
	if (i->op == HILO_OP_DYNAMIC_SLICE)
		return 1;
	if (i->op == HILO_OP_DYNAMIC_UPDATE_SLICE)
		return 2;
	return i->noperands;
}

static int64_t type_max(hilo_ptype t)
{
	int bits = hilo_ptype_bits(t);
	if (hilo_ptype_is_signed_int(t))
		return bits >= 64 ? INT64_MAX : (int64_t)((1ull << (bits - 1)) - 1);
	return bits >= 63 ? INT64_MAX : (int64_t)((1ull << bits) - 1);
}

/* Start operand q of a dynamic-(update-)slice that is not concrete: when it
 * is a scalar integer leaf, ask for its enumeration over its clamped
 * range. Also records a larger range seen for an enumerated index. */
static void start_leaf(tctx *X, const hilo_instr *i, uint32_t q, const tv *s, bool tagged)
{
	uint32_t first = first_index_slot(i);
	int r = i->operands[0]->shape->rank;
	if (i->noperands != first + (uint32_t)r || q < first || s->shape->rank != 0 ||
	    !hilo_ptype_is_int(s->shape->type)) {
		no(X, "%s has a data-dependent start", i->name);
		return;
	}
	int d = (int)(q - first);
	const hilo_shape *win = i->op == HILO_OP_DYNAMIC_SLICE ? i->shape : i->operands[1]->shape;
	int64_t hi = i->operands[0]->shape->dims[d] - win->dims[d];
	if (hi < 0)
		hi = 0;
	int64_t tm = type_max(s->shape->type);
	if (hi > tm)
		hi = tm;
	uint32_t ord;
	if (tagged) {
		uint64_t t = ((const uint64_t *)s->lit->data)[0];
		if (is_node(t) || (t & IDX_MASK) != 0 || X->leaves[(t >> IDX_BITS) - 1].shape->rank != 0) {
			no(X, "%s has a data-dependent start that is not an index input", i->name);
			return;
		}
		ord = (uint32_t)((t >> IDX_BITS) - 1);
	} else {
		ord = s->taint - 1;
	}
	int es = enum_slot(X, ord);
	if (es >= 0 && X->en[es].hi >= hi)
		return; /* within the enumerated range */
	if (hi + 1 > ENUM_VALUES_MAX) {
		no(X, "%s has a data-dependent start with more than 64 values", i->name);
		return;
	}
	if (es < 0) {
		if (X->nen == ENUM_MAX) {
			no(X, "more than 8 index inputs");
			return;
		}
		es = X->nen++;
		X->en[es].leaf = ord;
		X->en[es].cur = 0;
	}
	X->en[es].hi = hi;
	if (X->status == ST_OK)
		X->status = ST_ENUM;
}

static tv *eval_comp_args(tctx *X, const hilo_comp *c, tv **args, uint32_t nargs, int depth);

/* Elementwise arithmetic on tags: one interned term per element. */
static tv *ew_terms(tctx *X, const hilo_instr *i, tv **ops)
{
	const hilo_shape *os = i->shape;
	uint64_t ah;
	if (os->type == HILO_T_TUPLE || i->noperands == 0 || i->noperands > 3 || !ew_attr_hash(i, &ah))
		return no(X, "%s is not an elementwise op on arrays", i->name);
	int64_t ne = hilo_shape_elements(os);
	tv *in[3];
	for (uint32_t q = 0; q < i->noperands; q++) {
		const hilo_shape *s = ops[q]->shape;
		if (s->type == HILO_T_TUPLE || (s->rank != 0 && !same_dims(s, os)))
			return no(X, "%s: operand dimensions differ from the result", i->name);
		if (!(in[q] = to_tag(X, ops[q])))
			return NULL;
	}
	if (ne < 0 || !charge(X, (uint64_t)ne))
		return NULL;
	tv *v = tv_new(X, TV_TAG, os);
	hilo_shape *rs = v ? retype(X, os) : NULL;
	if (!rs || !(v->lit = hilo_literal_create(X->run, rs)))
		return no(X, "out of memory");
	uint64_t *d = v->lit->data;
	bool comm = i->noperands == 2 && commutes(i);
	for (int64_t k = 0; k < ne; k++) {
		node t = {i->op, os->type, ah, (int)i->noperands, {0, 0, 0}, 0};
		for (uint32_t q = 0; q < i->noperands; q++)
			t.a[q] = ((const uint64_t *)in[q]->lit->data)[in[q]->shape->rank ? k : 0];
		if (comm && t.a[0] > t.a[1]) {
			uint64_t s = t.a[0];
			t.a[0] = t.a[1];
			t.a[1] = s;
		}
		uint64_t id = (i->noperands >= 2) ? identity(X, i, t.a) : 0;
		if (!id) {
			id = intern(X, &t);
			X->any_op = true;
		}
		if (!id)
			return NULL;
		d[k] = id;
	}
	return v;
}

/* Data movement on tags, by the evaluator on u64 literals. */
static tv *move(tctx *X, const hilo_instr *i, tv **ops)
{
	uint32_t n = i->noperands, first = first_index_slot(i);
	if (i->shape->type == HILO_T_TUPLE)
		return no(X, "%s: a tuple-shaped data movement", i->name);
	hilo_instr *fo = calloc((size_t)n + 1, sizeof *fo);
	hilo_instr **fp = calloc((size_t)n + 1, sizeof *fp);
	hilo_literal **lits = calloc((size_t)n + 1, sizeof *lits);
	tv *res = NULL;
	if (!fo || !fp || !lits) {
		no(X, "out of memory");
		goto out;
	}
	for (uint32_t q = 0; q < n; q++) {
		bool index = q >= first || (i->op == HILO_OP_SELECT && q == 0);
		fo[q].op = i->operands[q]->op;
		fo[q].name = i->operands[q]->name;
		fp[q] = &fo[q];
		if (index) {
			if (ops[q]->kind != TV_CONC) {
				if (i->op == HILO_OP_SELECT)
					no(X, "%s: select on a tagged predicate", i->name);
				else
					start_leaf(X, i, q, ops[q], true);
				goto out;
			}
			if (ops[q]->taint) {
				if (i->op == HILO_OP_SELECT) {
					no(X, "%s: an enumerated index used as a predicate", i->name);
					goto out;
				}
				start_leaf(X, i, q, ops[q], false);
				if (X->status != ST_OK)
					goto out;
			}
			fo[q].shape = i->operands[q]->shape;
			lits[q] = ops[q]->lit;
		} else {
			tv *t = to_tag(X, ops[q]);
			if (!t || !(fo[q].shape = retype(X, i->operands[q]->shape)))
				goto out;
			lits[q] = t->lit;
		}
	}
	hilo_instr fake = *i;
	fake.operands = fp;
	if (!(fake.shape = retype(X, i->shape)))
		goto out;
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_eval_opts eo = {X->budget};
	hilo_literal *r = hilo_eval_instr_in(X->run, &fake, lits, &eo, &X->used, &d);
	if (!r) {
		char msg[300] = "";
		for (size_t k = 0; k < d.n; k++)
			if (d.items[k].sev == HILO_SEV_ERROR) {
				snprintf(msg, sizeof msg, "%s", d.items[k].msg);
				break;
			}
		no(X, "%s", msg);
	} else if ((res = tv_new(X, TV_TAG, i->shape)) != NULL) {
		res->lit = r;
	}
	hilo_diags_free(&d);
out:
	free(fo);
	free(fp);
	free(lits);
	return res;
}

/* The value of one instruction from its operands' values. */
static tv *eval_one(tctx *X, const hilo_instr *i, tv **ops, int depth)
{
	uint32_t n = i->noperands;
	switch (i->op) {
	case HILO_OP_CONSTANT: {
		if (!hilo_instr_literal(i) || hilo_instr_literal(i)->elided)
			return no(X, "%s: constant without a value", i->name);
		/* a splat constant's elements, stored (the values read them by
		 * index), under the budget */
		const hilo_literal *cl = hilo_instr_literal(i);
		size_t cap = HILO_LITERAL_MAX_BYTES;
		if (hilo_literal_has_splat(cl) &&
		    (!charge(X, hilo_literal_count(cl)) || !(cl = hilo_literal_dense_in(X->run->arena, cl, &cap))))
			return no(X, "%s: splat constant too large to expand", i->name);
		tv *v = tv_new(X, TV_CONC, i->shape);
		if (v)
			v->lit = (hilo_literal *)cl;
		return v;
	}
	case HILO_OP_TUPLE: {
		tv *v = tv_new(X, TV_TUPLE, i->shape);
		if (!v)
			return NULL;
		v->n = (int)n;
		v->el = hilo_arena_alloc(X->run->arena, ((size_t)n + 1) * sizeof *v->el);
		if (!v->el)
			return no(X, "out of memory");
		memcpy(v->el, ops, n * sizeof *ops);
		return v;
	}
	case HILO_OP_GET_TUPLE_ELEMENT: {
		int64_t k = 0;
		tv *t = n == 1 ? split_tuple(X, ops[0]) : NULL;
		if (!t || !hilo_instr_get_int(i, HILO_A_INDEX, &k) || k < 0 || k >= t->n)
			return no(X, "%s: bad tuple index", i->name);
		return t->el[k];
	}
	case HILO_OP_COPY:
		/* an array copy makes its value in its own layout (the evaluator's
		 * copy), which a bitcast of it reads: moved, not passed on */
		if (n == 1 && i->shape->type != HILO_T_TUPLE && ops[0]->kind == TV_TAG)
			return move(X, i, ops);
		if (n == 1 && i->shape->type != HILO_T_TUPLE && ops[0]->kind == TV_CONC)
			break; /* evaluated concretely below */
		/* a tuple copy passes its elements on */
		if (n >= 1 && hilo_shape_compatible(ops[0]->shape, i->shape))
			return ops[0];
		return no(X, "%s changes the shape", i->name);
	case HILO_OP_OPT_BARRIER: case HILO_OP_DOMAIN: case HILO_OP_ADD_DEPENDENCY:
		if (n >= 1 && hilo_shape_compatible(ops[0]->shape, i->shape))
			return ops[0];
		return no(X, "%s changes the shape", i->name);
	case HILO_OP_CALL: case HILO_OP_FUSION:
		if (hilo_instr_ncalled(i) < 1)
			return no(X, "%s: no callee", i->name);
		return eval_comp_args(X, hilo_instr_called(i)[0], ops, n, depth + 1);
	case HILO_OP_CONDITIONAL: {
		if (n < 1 || ops[0]->kind != TV_CONC || ops[0]->taint || ops[0]->shape->rank != 0 ||
		    !ops[0]->lit->nbytes)
			return no(X, "%s: the branch depends on the input", i->name);
		const hilo_literal *sel = ops[0]->lit;
		int64_t v = hilo_elem_get_i64(sel->shape->type, sel->data, 0);
		hilo_attr *bc = hilo_instr_attr(i, HILO_A_BRANCH_COMPUTATIONS);
		const hilo_comp *br = NULL;
		if (bc && bc->kind == HILO_ATTR_COMPS && bc->n > 0 && bc->v.i >= 0 &&
		    bc->v.i + bc->n <= (int64_t)hilo_instr_ncalled(i) && (int64_t)n == bc->n + 1) {
			if (sel->shape->type == HILO_T_PRED)
				v = v ? 0 : 1;
			if (v < 0 || v >= bc->n)
				v = bc->n - 1; /* the evaluator's rule (XLA's) */
			br = hilo_instr_called(i)[bc->v.i + v];
		} else if (n == 3) {
			v = v ? 0 : 1;
			br = hilo_instr_get_comp(i, v == 0 ? HILO_A_TRUE_COMPUTATION : HILO_A_FALSE_COMPUTATION);
		}
		if (!br)
			return no(X, "%s: no branch", i->name);
		return eval_comp_args(X, br, &ops[1 + v], 1, depth + 1);
	}
	default:
		break;
	}
	if (hilo_instr_is_boundary_marker(i) && n == 1 && hilo_shape_compatible(ops[0]->shape, i->shape))
		return ops[0];
	/* an enumerated index may only reach starts (the domain argument) */
	uint32_t first = first_index_slot(i);
	for (uint32_t q = 0; q < n; q++)
		if (q < first && taint_of(ops[q]))
			return no(X, "%s: an enumerated index is used as data", i->name);
	bool conc = true;
	for (uint32_t q = 0; q < n && conc; q++)
		conc = all_conc(ops[q]);
	const hilo_module *m = X->P->s[X->side].m;
	if (conc) {
		if (!op_pure(m, i))
			return no(X, "%s is not interpreted", i->name);
		/* an enumerated start of a dynamic-(update-)slice of concrete data
		 * is a use like any other: its clamp range must be enumerated too
		 * (a narrower use found first set the range) */
		for (uint32_t q = first; q < n && X->status == ST_OK; q++)
			if (ops[q]->kind == TV_CONC && ops[q]->taint)
				start_leaf(X, i, q, ops[q], false);
		if (X->status != ST_OK)
			return NULL;
		for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++)
			if (!comp_pure(X, hilo_instr_called(i)[k], depth + 1))
				return no(X, "%s calls a computation that is not interpreted", i->name);
		hilo_literal **lits = calloc((size_t)n + 1, sizeof *lits);
		if (!lits)
			return no(X, "out of memory");
		bool ok = true;
		for (uint32_t q = 0; q < n && ok; q++)
			ok = (lits[q] = conc_lit(X, ops[q])) != NULL;
		hilo_diags d;
		hilo_diags_init(&d);
		hilo_eval_opts eo = {X->budget};
		hilo_literal *r = ok ? hilo_eval_instr_in(X->run, i, lits, &eo, &X->used, &d) : NULL;
		free(lits);
		tv *v = NULL;
		if (!r)
			no(X, "%s could not be evaluated", i->name);
		else if ((v = tv_new(X, TV_CONC, i->shape)) != NULL)
			v->lit = r;
		hilo_diags_free(&d);
		return v;
	}
	if (i->op == HILO_OP_SELECT && n == 3 && ops[0]->kind == TV_CONC && !ops[0]->taint &&
	    ops[0]->shape->type == HILO_T_PRED) {
		if (i->shape->type == HILO_T_TUPLE) {
			if (ops[0]->shape->rank != 0)
				return no(X, "%s: tuple select on an array predicate", i->name);
			return *(const unsigned char *)ops[0]->lit->data ? ops[1] : ops[2];
		}
		return move(X, i, ops);
	}
	if (i->op == HILO_OP_BITCAST && depth == 0 && chk_layout_unknown(X->P->s[X->side].m, i))
		return no(X, "%s: a bitcast of a parameter's layout, which the call sites decide", i->name);
	if (i->op != HILO_OP_SELECT && data_movement(i->op))
		return move(X, i, ops);
	if (hilo_opcode_flags(i->op) & HILO_OPF_EW)
		return ew_terms(X, i, ops);
	return no(X, "%s (%s) on tagged values is not data movement or elementwise", i->name,
		hilo_opcode_name(i->op));
}

/* Evaluates root in computation c: top level (args NULL; leaves are the
 * frontier) or a callee bound to args. */
static tv *eval_in(tctx *X, const hilo_comp *c, tv **args, const hilo_instr *root, int depth)
{
	if (depth > CALL_DEPTH_MAX)
		return no(X, "calls nested deeper than 64");
	hilo_ptrmap memo;
	hilo_ptrmap_init(&memo);
	typedef struct { const hilo_instr *i; uint32_t k; } frame;
	uint32_t cap = 64, sp = 0;
	frame *st = malloc(cap * sizeof *st);
	tv **ops = NULL;
	uint32_t opcap = 0;
	tv *res = NULL;
	if (!st) {
		no(X, "out of memory");
		goto out;
	}
	st[sp++] = (frame){root, 0};
	while (sp && X->status == ST_OK) {
		frame *f = &st[sp - 1];
		const hilo_instr *i = f->i;
		if (f->k == 0) {
			tv *l = NULL;
			bool is_leaf = false;
			if (args && i->op == HILO_OP_PARAMETER) {
				is_leaf = true;
				if (hilo_instr_param_no(i) < 0 || (uint64_t)hilo_instr_param_no(i) >= c->nparams)
					no(X, "%s: bad parameter number", i->name);
				else
					l = args[hilo_instr_param_no(i)];
			} else if (!args && (i->op == HILO_OP_PARAMETER || param_element(i) ||
			                     (!X->deep && is_shared(X->P, i)))) {
				/* a get-tuple-element chain of a parameter is that
				 * element's leaf: the same tags as through the whole
				 * tuple, without tagging the rest of it */
				is_leaf = true;
				l = top_leaf(X, i);
			}
			if (is_leaf) {
				if (!l || !hilo_ptrmap_put(&memo, i, l))
					goto out;
				sp--;
				continue;
			}
		}
		if (f->k < i->noperands) {
			const hilo_instr *o = i->operands[f->k++];
			if (hilo_ptrmap_get(&memo, o))
				continue;
			if (o->parent != c || sp > c->ninstrs + 1) {
				no(X, "%s: operand outside the computation", i->name);
				goto out;
			}
			if (sp == cap) {
				cap *= 2;
				frame *ns = realloc(st, cap * sizeof *ns);
				if (!ns) {
					no(X, "out of memory");
					goto out;
				}
				st = ns;
			}
			st[sp++] = (frame){o, 0};
			continue;
		}
		if (i->noperands > opcap) {
			free(ops);
			opcap = i->noperands * 2;
			if (!(ops = malloc(opcap * sizeof *ops))) {
				no(X, "out of memory");
				goto out;
			}
		}
		for (uint32_t k = 0; k < i->noperands; k++)
			ops[k] = hilo_ptrmap_get(&memo, i->operands[k]);
		tv *r = eval_one(X, i, ops, depth);
		if (!r || !hilo_ptrmap_put(&memo, i, r))
			goto out;
		sp--;
	}
	if (X->status == ST_OK)
		res = hilo_ptrmap_get(&memo, root);
out:
	free(st);
	free(ops);
	hilo_ptrmap_free(&memo);
	if (!res)
		no(X, "out of memory");
	return res;
}

static tv *eval_comp_args(tctx *X, const hilo_comp *c, tv **args, uint32_t nargs, int depth)
{
	if (!c || !c->root || c->nparams != nargs)
		return no(X, "a call whose operands do not match its callee");
	for (uint32_t k = 0; k < nargs; k++)
		if (!c->params[k] || !hilo_shape_compatible(c->params[k]->shape, args[k]->shape))
			return no(X, "a call whose operands do not match %s", c->name);
	return eval_in(X, c, args, c->root, depth);
}

/* ---- comparison and messages --------------------------------------------- */

typedef struct diff {
	bool found;
	uint64_t tb, ta;
	int64_t k;
	const hilo_shape *shape;
	int depth;
	int64_t path[PATH_MAX_DEPTH];
} diff;

static uint64_t elem_tag(tctx *X, const tv *v, int64_t k)
{
	if (v->kind == TV_TAG)
		return ((const uint64_t *)v->lit->data)[k];
	return const_tag(X, v->lit, (size_t)k);
}

/* Both tags are float zero constants (of either sign): equal when the
 * validator compares modulo the sign of zero (--assume-no-signed-zeros). */
static bool zeros_modulo_sign(const tctx *X, uint64_t x, uint64_t y)
{
	if (!X->P->zero_sign_insensitive || !is_node(x) || !is_node(y))
		return false;
	const node *cx = N(X, x), *cy = N(X, y);
	return cx->op == N_CONST && cy->op == N_CONST && cx->type == cy->type &&
	       hilo_ptype_is_float(cx->type) && hilo_elem_get_f64(cx->type, &cx->a[0], 0) == 0 &&
	       hilo_elem_get_f64(cy->type, &cy->a[0], 0) == 0;
}

/* First differing element of two values; false on failure. */
static bool compare(tctx *X, tv *b, tv *a, diff *df, int depth)
{
	if (b->shape->type == HILO_T_TUPLE || a->shape->type == HILO_T_TUPLE) {
		tv *tb = split_tuple(X, b), *ta = tb ? split_tuple(X, a) : NULL;
		if (!ta || tb->n != ta->n) {
			no(X, "tuple values differ in arity");
			return false;
		}
		for (int k = 0; k < tb->n && !df->found; k++) {
			if (depth < PATH_MAX_DEPTH)
				df->path[depth] = k;
			if (!compare(X, tb->el[k], ta->el[k], df, depth + 1))
				return false;
		}
		return true;
	}
	/* an enumerated index in the result is a use as data: its values
	 * beyond the clamped range would not behave like enumerated ones */
	if (b->taint || a->taint) {
		no(X, "an enumerated index is part of the result");
		return false;
	}
	int64_t ne = hilo_shape_elements(b->shape);
	if (ne < 0 || ne != hilo_shape_elements(a->shape) || !charge(X, (uint64_t)ne))
		return false;
	for (int64_t k = 0; k < ne; k++) {
		uint64_t x = elem_tag(X, b, k), y = elem_tag(X, a, k);
		if (!x || !y)
			return false;
		if (x != y && !zeros_modulo_sign(X, x, y)) {
			df->found = true;
			df->tb = x;
			df->ta = y;
			df->k = k;
			df->shape = b->shape;
			df->depth = depth < PATH_MAX_DEPTH ? depth : PATH_MAX_DEPTH;
			return true;
		}
	}
	return true;
}

static void index_str(const hilo_shape *s, int64_t k, char *buf, size_t cap)
{
	int64_t idx[64];
	int r = s->rank < 64 ? s->rank : 64;
	for (int d = r - 1; d >= 0; d--) {
		int64_t n = s->dims[d] > 0 ? s->dims[d] : 1;
		idx[d] = k % n;
		k /= n;
	}
	size_t len = (size_t)snprintf(buf, cap, "[");
	for (int d = 0; d < r && len < cap; d++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%lld", d ? "," : "", (long long)idx[d]);
	if (len < cap)
		snprintf(buf + len, cap - len, "]");
}

static void tag_str(const tctx *X, uint64_t t, char *buf, size_t cap)
{
	if (!is_node(t)) {
		const leafrec *l = &X->leaves[(t >> IDX_BITS) - 1];
		char ix[200], path[120] = "";
		index_str(l->shape, (int64_t)(t & IDX_MASK), ix, sizeof ix);
		size_t len = 0;
		for (int d = 0; d < l->depth && len < sizeof path; d++)
			len += (size_t)snprintf(path + len, sizeof path - len, "{%lld}", (long long)l->path[d]);
		snprintf(buf, cap, "%s%s%s", l->name ? l->name : "?", path, ix);
		return;
	}
	const node *c = N(X, t);
	if (c->op == N_CONST) {
		if (hilo_ptype_is_float(c->type))
			snprintf(buf, cap, "%s constant %.9g", hilo_ptype_name(c->type),
				hilo_elem_get_f64(c->type, &c->a[0], 0));
		else
			snprintf(buf, cap, "%s constant %lld", hilo_ptype_name(c->type), (long long)c->a[0]);
		return;
	}
	snprintf(buf, cap, "%s(...)", hilo_opcode_name((hilo_opcode)c->op));
}

/* Is the tag data whose value can be chosen freely (a free leaf's element
 * or a constant)? */
static bool free_data(const tctx *X, uint64_t t)
{
	if (is_node(t))
		return N(X, t)->op == N_CONST;
	return X->leaves[(t >> IDX_BITS) - 1].param;
}

/* ---- the judge ------------------------------------------------------------ */

static void tctx_fini(tctx *X)
{
	if (X->run)
		hilo_module_destroy(X->run);
	X->run = NULL;
}

/* One evaluation of both cones at the current enumerated values. 0 equal,
 * 1 differ (df), 2 no verdict (X->status). */
static int run_once(tctx *X, const hilo_instr *b, const hilo_instr *a, diff *df)
{
	tctx_fini(X);
	if (!(X->run = hilo_module_create("tagged"))) {
		no(X, "out of memory");
		return 2;
	}
	X->side = 0;
	tv *vb = eval_in(X, b->parent, NULL, b, 0);
	X->side = 1;
	tv *va = vb ? eval_in(X, a->parent, NULL, a, 0) : NULL;
	if (!va || X->status != ST_OK)
		return 2;
	memset(df, 0, sizeof *df);
	if (!compare(X, vb, va, df, 0))
		return 2;
	return df->found ? 1 : 0;
}

/* All enumerated combinations; restarts when a run finds another index
 * or a wider range. */
static int run_all(tctx *X, const hilo_instr *b, const hilo_instr *a, diff *df)
{
	for (int restart = 0; restart < 16; restart++) {
		uint64_t combos = 1;
		for (int k = 0; k < X->nen; k++) {
			combos *= (uint64_t)X->en[k].hi + 1;
			X->en[k].cur = 0;
		}
		if (combos > ENUM_PRODUCT_MAX) {
			no(X, "index inputs with more than 4096 value combinations");
			return 2;
		}
		bool again = false;
		for (uint64_t c = 0; c < combos; c++) {
			uint64_t rest = c;
			for (int k = X->nen - 1; k >= 0; k--) {
				X->en[k].cur = (int64_t)(rest % ((uint64_t)X->en[k].hi + 1));
				rest /= (uint64_t)X->en[k].hi + 1;
			}
			int rc = run_once(X, b, a, df);
			if (rc == 2 && X->status == ST_ENUM) {
				X->status = ST_OK;
				again = true;
				break;
			}
			if (rc != 0)
				return rc;
		}
		if (!again)
			return 0;
	}
	no(X, "index inputs kept widening");
	return 2;
}

static void enum_str(const tctx *X, char *buf, size_t cap)
{
	size_t len = 0;
	buf[0] = 0;
	for (int k = 0; k < X->nen && len < cap; k++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s in 0..%lld", k ? ", " : "",
			X->leaves[X->en[k].leaf].name, (long long)X->en[k].hi);
}

void tagged_judge(pairctx *P, const hilo_instr *b, const hilo_instr *a, uint64_t budget,
	tagged_result *r)
{
	memset(r, 0, sizeof *r);
	r->status = 2;
	r->method = "tagged";
	tctx X;
	memset(&X, 0, sizeof X);
	X.P = P;
	/* 8-byte tags: at most 2^25 elements (256 MiB) whatever the budget */
	X.budget = budget < TAGGED_BUDGET_MAX ? budget : TAGGED_BUDGET_MAX;
	X.cb = b->parent;
	hilo_ptrmap_init(&X.pure);
	for (int mode = 0; mode < 2; mode++) {
		X.deep = mode == 1;
		X.status = ST_OK;
		X.nen = 0;
		X.any_op = false;
		X.used_id_leaf = false;
		diff df;
		int rc = run_all(&X, b, a, &df);
		bool enumerated = X.nen > 0;
		r->method = enumerated ? "tagged-enum" : X.any_op ? "tagged-terms" : "tagged";
		char en[300] = "";
		if (enumerated) {
			char list[260];
			enum_str(&X, list, sizeof list);
			snprintf(en, sizeof en, " for every value of the index inputs (%s)", list);
		}
		if (rc == 0) {
			r->status = 0;
			snprintf(r->msg, sizeof r->msg, "equal on injectively tagged inputs%s%s%s", 
				X.deep ? " (parameters as leaves)" : "",
				X.any_op ? " with elementwise arithmetic as uninterpreted terms" : "", en);
			break;
		}
		if (rc == 1) {
			char sb[300], sa[300], ix[200], path[120] = "";
			tag_str(&X, df.tb, sb, sizeof sb);
			tag_str(&X, df.ta, sa, sizeof sa);
			index_str(df.shape, df.k, ix, sizeof ix);
			size_t len = 0;
			for (int d = 0; d < df.depth && len < sizeof path; d++)
				len += (size_t)snprintf(path + len, sizeof path - len, "{%lld}",
					(long long)df.path[d]);
			bool real = free_data(&X, df.tb) && free_data(&X, df.ta);
			for (int k = 0; real && k < X.nen; k++)
				real = X.leaves[X.en[k].leaf].param;
			if (real) {
				char at[300] = "";
				if (enumerated) {
					size_t l2 = (size_t)snprintf(at, sizeof at, " at");
					for (int k = 0; k < X.nen && l2 < sizeof at; k++)
						l2 += (size_t)snprintf(at + l2, sizeof at - l2, "%s %s = %lld",
							k ? "," : "", X.leaves[X.en[k].leaf].name,
							(long long)X.en[k].cur);
				}
				r->status = 1;
				snprintf(r->msg, sizeof r->msg, "output%s element %s: before=%s after=%s "
					"(injectively tagged inputs%s)", path, ix, sb, sa, at);
				break;
			}
			snprintf(r->msg, sizeof r->msg, "tagged outputs differ at output%s element %s "
				"(before=%s after=%s), not a counterexample by itself", path, ix, sb, sa);
			if (!X.used_id_leaf)
				break;
			continue; /* again with only parameters as leaves */
		}
		snprintf(r->msg, sizeof r->msg, "not judged by tagged evaluation: %s", X.why);
		if (!X.used_id_leaf)
			break;
	}
	tctx_fini(&X);
	free(X.leaves);
	free(X.lslots);
	free(X.nodes);
	free(X.slots);
	hilo_ptrmap_free(&X.pure);
}
