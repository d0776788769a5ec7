/* terms.c - canonical hash-consed terms for the rewrite validator.
 *
 * A term is (op, value shape, attribute hash, integer parameters, operand
 * terms, constant value). One table per (before, after) pair holds the
 * terms of both modules, hash-consed, so equal subterms are one node and
 * two cones are equal exactly when their root ids are equal; building is
 * linear in the instructions visited, whatever the tensor sizes.
 *
 * Leaves: at the top level of a record's computation, every instruction
 * shared by both modules is a leaf named by its id, and a parameter is a
 * leaf named by its number: a proof then holds for every value of the
 * leaves, so for every calling context. Inside an inlined call the
 * callee's parameters are bound to the caller's operand terms.
 *
 * Normalisation (each rule exact; docs/proof.md says why):
 *  - call / fusion inlined; conditional with a constant selector inlined;
 *    while whose condition folds to a constant unrolled symbolically
 *    (trip <= 1000, body x trip <= 800000), else uninterpreted;
 *  - get-tuple-element(tuple(..)) -> element; tuple(gte(X,0..n-1)) -> X;
 *  - copy, opt-barrier, domain, add-dependency, boundary markers: identity;
 *  - operands all constant -> folded with the evaluator (bounded size);
 *    a constant whose elements are all equal -> broadcast of a scalar;
 *  - dynamic-slice / dynamic-update-slice with constant starts -> static
 *    slice / update at the clamped starts; a static update that spans all
 *    dimensions but one -> concatenate of base slices and the update;
 *  - slice: canonical limits; of slice composed; full extent -> operand;
 *    of concatenate -> the operand(s) it reads; of broadcast -> broadcast
 *    of a slice; of a static update -> the update or the base when the
 *    window lies inside or outside it;
 *  - concatenate: nested same-dim flattened, empty operands dropped,
 *    adjacent contiguous slices of one value merged, one operand -> it;
 *  - pad without interior padding -> concatenate with broadcast pad values
 *    (negative padding -> slice);
 *  - broadcast of broadcast composed, identity broadcast / reshape /
 *    transpose / convert -> operand, reshape of reshape composed;
 *  - binary elementwise ops of a concatenate -> concatenate of the op on
 *    the pieces; commutative ops order their operands (float maximum /
 *    minimum excepted); select with a
 *    constant predicate -> the chosen operand; IEEE-exact identities
 *    (float x + -0, x - +0, x * 1; integer x + 0, x - 0, x * 1, x | 0,
 *    x ^ 0, x & ~0) -> x;
 *  - everything else: an uninterpreted function of (opcode, attributes
 *    with called computations by canonical term, operand terms).
 */
#include "check_internal.h"

#include <math.h>
#include <stdlib.h>


enum { FOLD_MAX = 1 << 12, CONST_BY_VALUE_MAX = 1 << 12 };


enum { BLOCK_BITS = 14, BLOCK = 1 << BLOCK_BITS };

/* Terms live in fixed blocks, so a term pointer stays valid while the
 * table grows. */
struct termtab {
	term **blocks;
	uint32_t n, nblocks;
	uint64_t *slots;           /* hash's high 32 bits << 32 | tid + 1; 0 empty
	                            * (the hash bits spare loading a term that
	                            * cannot match) */
	uint32_t scap;
	hilo_arena *a;
	hilo_shape_table *shapes;  /* the shapes terms make (in a) */
	bool oom;
};


static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t hcomb(uint64_t h, uint64_t v)
{
	return mix(h ^ (v + 0x632be59bd9b4e019ull));
}

static uint64_t hbytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t x = 0xcbf29ce484222325ull;
	for (size_t k = 0; k < n; k++)
		x = (x ^ b[k]) * 0x100000001b3ull;
	return hcomb(h, x ^ n);
}

static uint64_t hstr(uint64_t h, const char *s)
{
	return s ? hbytes(h, s, strlen(s)) : hcomb(h, 0x5eed);
}

static uint64_t shape_hash(uint64_t h, const hilo_shape *s)
{
	h = hcomb(h, (uint64_t)s->type);
	if (s->type == HILO_T_TUPLE) {
		h = hcomb(h, (uint64_t)s->ntuple);
		for (int k = 0; k < s->ntuple; k++)
			h = shape_hash(h, s->elems[k]);
		return h;
	}
	h = hcomb(h, (uint64_t)s->rank);
	for (int d = 0; d < s->rank; d++)
		h = hcomb(h, (uint64_t)s->dims[d]);
	return h;
}

/* ---- the table ----------------------------------------------------------- */

termtab *terms_create(hilo_arena *parent)
{
	termtab *T = calloc(1, sizeof *T);
	if (!T)
		return NULL;
	T->a = hilo_arena_create_in(parent);
	T->scap = 1 << 12;
	T->slots = calloc(T->scap, sizeof *T->slots);
	T->shapes = T->a ? hilo_shape_table_create(T->a) : NULL;
	if (!T->a || !T->slots || !T->shapes) {
		terms_destroy(T);
		return NULL;
	}
	return T;
}

void terms_destroy(termtab *T)
{
	if (!T)
		return;
	for (uint32_t k = 0; k < T->nblocks; k++)
		free(T->blocks[k]);
	free(T->blocks);
	free(T->slots);
	if (T->a)
		hilo_arena_destroy(T->a);
	free(T);
}

uint32_t terms_count(const termtab *T)
{
	return T->n;
}

static bool lit_same(const hilo_literal *a, const hilo_literal *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->nbytes != b->nbytes || a->ntuple != b->ntuple || a->splat != b->splat)
		return false;
	if (a->ntuple) {
		for (int k = 0; k < a->ntuple; k++)
			if (!lit_same(a->elems[k], b->elems[k]))
				return false;
		return true;
	}
	return !a->nbytes || !memcmp(a->data, b->data, a->nbytes);
}

static uint64_t lit_hash(uint64_t h, const hilo_literal *l)
{
	if (l->ntuple) {
		for (int k = 0; k < l->ntuple; k++)
			h = lit_hash(h, l->elems[k]);
		return hcomb(h, (uint64_t)l->ntuple);
	}
	return hbytes(h, l->data, l->nbytes);
}

static bool term_eq(const term *a, const term *b)
{
	if (a->h != b->h || a->op != b->op || a->n != b->n || a->ah != b->ah ||
	    a->niv != b->niv || !hilo_shape_compatible(a->shape, b->shape))
		return false;
	for (uint32_t k = 0; k < a->n; k++)
		if (a->ops[k] != b->ops[k])
			return false;
	for (int k = 0; k < a->niv; k++)
		if (a->iv[k] != b->iv[k])
			return false;
	if ((a->lit != NULL) != (b->lit != NULL))
		return false;
	return !a->lit || lit_same(a->lit, b->lit);
}

static inline uint64_t slot_of(uint64_t h, tid id)
{
	return (h & 0xffffffff00000000ull) | ((uint64_t)id + 1);
}

static bool grow_slots(termtab *T)
{
	uint32_t ncap = T->scap * 2;
	uint64_t *ns = calloc(ncap, sizeof *ns);
	if (!ns)
		return false;
	for (uint32_t k = 0; k < T->n; k++) {
		uint64_t h = T->blocks[k >> BLOCK_BITS][k & (BLOCK - 1)].h;
		uint32_t p = (uint32_t)h & (ncap - 1);
		while (ns[p])
			p = (p + 1) & (ncap - 1);
		ns[p] = slot_of(h, k);
	}
	free(T->slots);
	T->slots = ns;
	T->scap = ncap;
	return true;
}

/* Interns a term (ops and iv are copied). */
static tid mk(pairctx *P, int op, const hilo_shape *shape, uint64_t ah, const tid *ops,
	uint32_t n, const hilo_literal *lit, const int64_t *iv, int niv)
{
	termtab *T = P->T;
	if (T->oom || !shape)
		return TID_NONE;
	for (uint32_t k = 0; k < n; k++)
		if (ops[k] == TID_NONE)
			return TID_NONE;
	term t = {op, n, shape, ah, 0, (tid *)ops, lit, (int64_t *)iv, niv, NULL, false};
	uint64_t h = hcomb((uint64_t)op, ah);
	h = shape_hash(h, shape);
	for (uint32_t k = 0; k < n; k++)
		h = hcomb(h, ops[k]);
	for (int k = 0; k < niv; k++)
		h = hcomb(h, (uint64_t)iv[k]);
	if (lit)
		h = lit_hash(h, lit);
	t.h = h;
	uint32_t p = (uint32_t)h & (T->scap - 1);
	for (uint64_t sl; (sl = T->slots[p]) != 0; p = (p + 1) & (T->scap - 1)) {
		if ((sl ^ h) >> 32)
			continue;
		uint32_t q = (uint32_t)sl - 1;
		if (term_eq(&T->blocks[q >> BLOCK_BITS][q & (BLOCK - 1)], &t))
			return q;
	}
	if (T->n >= UINT32_MAX - 2) {
		T->oom = true;
		return TID_NONE;
	}
	if ((T->n & (BLOCK - 1)) == 0) {
		term **nb = realloc(T->blocks, ((size_t)T->nblocks + 1) * sizeof *nb);
		if (!nb) {
			T->oom = true;
			return TID_NONE;
		}
		T->blocks = nb;
		if (!(nb[T->nblocks] = malloc(BLOCK * sizeof **nb))) {
			T->oom = true;
			return TID_NONE;
		}
		T->nblocks++;
	}
	if (n) {
		t.ops = hilo_arena_alloc(T->a, n * sizeof *t.ops);
		if (!t.ops) {
			T->oom = true;
			return TID_NONE;
		}
		memcpy(t.ops, ops, n * sizeof *t.ops);
	}
	if (niv) {
		t.iv = hilo_arena_alloc(T->a, (size_t)niv * sizeof *t.iv);
		if (!t.iv) {
			T->oom = true;
			return TID_NONE;
		}
		memcpy(t.iv, iv, (size_t)niv * sizeof *t.iv);
	}
	for (uint32_t k = 0; k < n && !t.ev; k++)
		t.ev = T->blocks[ops[k] >> BLOCK_BITS][ops[k] & (BLOCK - 1)].ev;
	tid id = T->n++;
	T->blocks[id >> BLOCK_BITS][id & (BLOCK - 1)] = t;
	T->slots[p] = slot_of(h, id);
	if (T->n * 2 > T->scap && !grow_slots(T))
		T->oom = true;
	return id;
}

static const term *TT(const pairctx *P, tid t)
{
	return &P->T->blocks[t >> BLOCK_BITS][t & (BLOCK - 1)];
}

void terms_set_event(pairctx *P, tid t)
{
	P->T->blocks[t >> BLOCK_BITS][t & (BLOCK - 1)].ev = true;
}

const term *terms_get(const pairctx *P, tid t)
{
	return TT(P, t);
}

static hilo_shape *new_shape(pairctx *P, hilo_ptype type, int rank, const int64_t *dims)
{
	return hilo_shape_array(P->T->shapes, type, rank, dims, NULL);
}

/* For the data-movement constructors (term_moves.c). */
tid terms_mk(pairctx *P, int op, const hilo_shape *shape, uint64_t ah, const tid *ops,
	uint32_t n, const hilo_literal *lit, const int64_t *iv, int niv)
{
	return mk(P, op, shape, ah, ops, n, lit, iv, niv);
}

hilo_shape *terms_new_shape(pairctx *P, hilo_ptype type, int rank, const int64_t *dims)
{
	return new_shape(P, type, rank, dims);
}

/* ---- constants ------------------------------------------------------------ */

static bool lit_all_equal(const hilo_literal *l, int *eb)
{
	*eb = hilo_ptype_bytes(l->shape->type);
	if (*eb <= 0 || l->ntuple || l->elided || !l->nbytes)
		return false;
	const unsigned char *p = l->data;
	for (size_t k = (size_t)*eb; k < l->nbytes; k += (size_t)*eb)
		if (memcmp(p, p + k, (size_t)*eb))
			return false;
	return true;
}

/* A constant term; all-equal arrays become broadcast(scalar). */
static tid mk_const(pairctx *P, const hilo_literal *l, const hilo_shape *shape)
{
	int eb;
	if (shape->type != HILO_T_TUPLE && shape->rank > 0 && lit_all_equal(l, &eb)) {
		hilo_shape *ss = new_shape(P, shape->type, 0, NULL);
		hilo_literal *sl = ss ? hilo_arena_alloc(P->T->a, sizeof *sl) : NULL;
		if (!sl)
			return TID_NONE;
		sl->shape = ss;
		sl->nbytes = (size_t)eb;
		sl->data = hilo_arena_alloc(P->T->a, (size_t)eb);
		if (!sl->data)
			return TID_NONE;
		memcpy(sl->data, l->data, (size_t)eb);
		tid s = mk(P, HILO_OP_CONSTANT, ss, 0, NULL, 0, sl, NULL, 0);
		return terms_broadcast(P, s, shape, NULL, 0);
	}
	return mk(P, HILO_OP_CONSTANT, shape, 0, NULL, 0, l, NULL, 0);
}

/* The scalar constant a term broadcasts (or is), or NULL. */
static const hilo_literal *splat(pairctx *P, tid t)
{
	const term *x = TT(P, t);
	if (x->op == HILO_OP_CONSTANT && x->shape->type != HILO_T_TUPLE && x->shape->rank == 0)
		return x->lit;
	if (x->op == HILO_OP_BROADCAST && x->n == 1)
		return splat(P, x->ops[0]);
	return NULL;
}

/* The literal of a constant term, materialising small broadcasts of a
 * scalar (in the scratch module). NULL when not constant or too large. */
static const hilo_literal *const_lit(pairctx *P, tid t)
{
	const term *x = TT(P, t);
	if (x->op == HILO_OP_CONSTANT)
		return x->lit;
	const hilo_literal *s = splat(P, t);
	if (!s || x->shape->type == HILO_T_TUPLE)
		return NULL;
	int64_t ne = hilo_shape_elements(x->shape);
	if (ne < 0 || ne > FOLD_MAX)
		return NULL;
	hilo_literal *l = hilo_literal_create(P->scratch, x->shape);
	if (!l)
		return NULL;
	size_t eb = s->nbytes;
	for (int64_t k = 0; k < ne; k++)
		memcpy((char *)l->data + (size_t)k * eb, s->data, eb);
	return l;
}

/* ---- attributes --------------------------------------------------------- */

static tid canon_comp(pairctx *P, int sk, const hilo_comp *c);

/* Hash of the attributes that carry meaning; called computations by their
 * canonical term. *ok = false when a callee could not be built. */
static uint64_t attr_hash(pairctx *P, int sk, const hilo_instr *i, bool *ok)
{
	uint64_t h = hcomb(0xa77, (uint64_t)i->async_op);
	for (uint32_t k = 0; k < i->nattrs; k++) {
		const hilo_attr *a = &i->attrs[k];
		if (!hilo_attr_is_semantic(a))
			continue;
		h = hstr(h, a->key);
		h = hcomb(h, (uint64_t)a->kind);
		switch (a->kind) {
		case HILO_ATTR_RAW: case HILO_ATTR_STRING: case HILO_ATTR_ENUM:
			h = hstr(h, a->v.text);
			break;
		case HILO_ATTR_INT: case HILO_ATTR_BOOL:
			h = hcomb(h, a->id != HILO_A_CHANNEL_ID ? (uint64_t)a->v.i : 1);
			break;
		case HILO_ATTR_INTS:
			for (int q = 0; q < a->n; q++)
				h = hcomb(h, (uint64_t)a->v.ints[q]);
			break;
		case HILO_ATTR_SLICE: case HILO_ATTR_PADDING:
			for (int q = 0; q < 3 * a->n; q++)
				h = hcomb(h, (uint64_t)a->v.ints[q]);
			break;
		case HILO_ATTR_COMP: case HILO_ATTR_COMPS: {
			int cnt = a->kind == HILO_ATTR_COMP ? 1 : a->n;
			for (int q = 0; q < cnt; q++) {
				int64_t ci = a->v.i + q;
				if (ci < 0 || ci >= (int64_t)hilo_instr_ncalled(i)) {
					*ok = false;
					continue;
				}
				tid c = canon_comp(P, sk, hilo_instr_called(i)[ci]);
				if (c == TID_NONE)
					*ok = false;
				h = hcomb(h, c);
			}
			break;
		}
		default:
			break;
		}
	}
	if (i->op == HILO_OP_BITCAST) {
		/* layout-dependent: hash both layouts, the operand's where its value
		 * is made (a copy, not an opt-barrier passing the copy's value on) */
		const hilo_shape *ss[2] = {i->shape,
			i->noperands ? chk_layout_source(i->operands[0])->shape : NULL};
		for (int q = 0; q < 2; q++)
			if (ss[q] && ss[q]->layout)
				for (int d = 0; d < ss[q]->layout->n; d++)
					h = hcomb(h, (uint64_t)ss[q]->layout->minor_to_major[d] + 7);
	}
	return h;
}

/* ---- building ------------------------------------------------------------ */

static tid build(pairctx *P, bctx *x, const hilo_instr *root);

static void bctx_init(bctx *x, int sk, const hilo_comp *c, const tid *args, hilo_arena *a)
{
	x->sk = sk;
	x->deep = false;
	x->c = c;
	x->args = args;
	x->stamp = 0;
	x->order = TID_NONE;
	x->events = TID_NONE;
	x->ev_busy = x->ev_done = false;
	hilo_ptrmap_init_in(&x->memo, a); /* a failure shows in the arena tree */
}

/* An inlined call's memo: dense by instruction id, valid where the stamp
 * matches. Inlined contexts of one computation are never live at once (no
 * recursion: a callee cannot call its caller), so a context only ever
 * loses entries of finished ones. */
static void bctx_dense(pairctx *P, bctx *x)
{
	int sk = x->sk;
	if (!P->mstamp[sk]) {
		P->mstamp[sk] = calloc((size_t)P->nshared + 1, sizeof *P->mstamp[sk]);
		P->mval[sk] = malloc(((size_t)P->nshared + 1) * sizeof *P->mval[sk]);
		if (!P->mstamp[sk] || !P->mval[sk]) {
			free(P->mstamp[sk]);
			free(P->mval[sk]);
			P->mstamp[sk] = NULL;
			P->mval[sk] = NULL;
			return;
		}
	}
	if (P->mnext == UINT32_MAX)
		return;
	x->stamp = ++P->mnext;
}

/* memo lookup: tid + 1, 0 when absent */
static inline uint32_t memo_get(const pairctx *P, const bctx *x, const hilo_instr *i)
{
	if (x->stamp && i->id < P->nshared)
		return P->mstamp[x->sk][i->id] == x->stamp ? P->mval[x->sk][i->id] + 1 : 0;
	return (uint32_t)(uintptr_t)hilo_ptrmap_get(&x->memo, i);
}

static inline bool memo_put(pairctx *P, bctx *x, const hilo_instr *i, tid t)
{
	if (x->stamp && i->id < P->nshared) {
		P->mstamp[x->sk][i->id] = x->stamp;
		P->mval[x->sk][i->id] = t;
		return true;
	}
	return hilo_ptrmap_put(&x->memo, i, (void *)(uintptr_t)(t + 1));
}

/* The key of c inlined on args under order (memoised by callee, args and
 * order): order is the events every effect of the callee follows (the
 * call's control predecessors, events.c), TID_NONE when none. */
static tid call_key(pairctx *P, int sk, const hilo_comp *c, const tid *args, uint32_t nargs,
	tid order)
{
	tid kv[65], *k = nargs < 64 ? kv : malloc(((size_t)nargs + 1) * sizeof *k);
	if (!k)
		return TID_NONE;
	if (nargs)
		memcpy(k, args, nargs * sizeof *k);
	uint32_t n = nargs;
	if (order != TID_NONE)
		k[n++] = order;
	tid key = mk(P, T_CALLKEY, hilo_shape_scalar(P->T->shapes, HILO_T_TOKEN),
		((uint64_t)(uintptr_t)c ^ (uint64_t)sk) + (order != TID_NONE ? 0x5bd1e995ull : 0), k, n,
		NULL, NULL, 0);
	if (k != kv)
		free(k);
	return key;
}

/* The root term of c inlined on args (memoised by callee and args); the
 * events of the inlined context are memoised beside it (events.c). */
static tid inline_comp_in(pairctx *P, int sk, const hilo_comp *c, const tid *args, uint32_t nargs,
	tid order, int depth)
{
	if (!c || !c->root || c->nparams != nargs || depth > 64)
		return TID_NONE;
	tid key = call_key(P, sk, c, args, nargs, order);
	if (key == TID_NONE)
		return TID_NONE;
	hilo_ptrmap *inl = &P->inl[sk];
	void *got = hilo_ptrmap_get(inl, (void *)(uintptr_t)((uint64_t)key + 0x100000000ull));
	if (got)
		return (tid)((uintptr_t)got - 1);
	for (uint32_t k = 0; k < nargs; k++)
		if (!c->params[k] || !hilo_shape_compatible(TT(P, args[k])->shape, c->params[k]->shape))
			return TID_NONE;
	bctx x;
	bctx_init(&x, sk, c, args, P->scratch->arena);
	x.order = order;
	bctx_dense(P, &x);
	tid r = build(P, &x, c->root);
	/* the context's events, while its memo is live */
	tid ev = r != TID_NONE ? events_of_ctx(P, &x) : TID_NONE;
	hilo_ptrmap_free(&x.memo);
	if (r != TID_NONE && ev != TID_NONE) {
		hilo_ptrmap_put(inl, (void *)(uintptr_t)((uint64_t)key + 0x100000000ull),
			(void *)(uintptr_t)(r + 1));
		hilo_ptrmap_put(inl, (void *)(uintptr_t)((uint64_t)key + 0x200000000ull),
			(void *)(uintptr_t)(ev + 1));
	}
	return ev != TID_NONE ? r : TID_NONE;
}

static tid inline_comp(pairctx *P, int sk, const hilo_comp *c, const tid *args, uint32_t nargs,
	int depth)
{
	return inline_comp_in(P, sk, c, args, nargs, TID_NONE, depth);
}

tid terms_inline(pairctx *P, int sk, const hilo_comp *c, const tid *args, uint32_t nargs,
	tid order)
{
	return inline_comp_in(P, sk, c, args, nargs, order, 1);
}

tid terms_inline_events(pairctx *P, int sk, const hilo_comp *c, const tid *args, uint32_t nargs,
	tid order)
{
	if (inline_comp_in(P, sk, c, args, nargs, order, 1) == TID_NONE)
		return TID_NONE;
	tid key = call_key(P, sk, c, args, nargs, order);
	void *got = key != TID_NONE ? hilo_ptrmap_get(&P->inl[sk],
		(void *)(uintptr_t)((uint64_t)key + 0x200000000ull)) : NULL;
	return got ? (tid)((uintptr_t)got - 1) : TID_NONE;
}

static tid canon_comp(pairctx *P, int sk, const hilo_comp *c)
{
	void *got = hilo_ptrmap_get(&P->canon[sk], c);
	if (got)
		return (tid)((uintptr_t)got - 1);
	if (!c->root)
		return TID_NONE;
	tid *args = malloc(((size_t)c->nparams + 1) * sizeof *args);
	if (!args)
		return TID_NONE;
	for (uint32_t k = 0; k < c->nparams; k++)
		args[k] = c->params[k] ? mk(P, T_PARAM, c->params[k]->shape, k, NULL, 0, NULL, NULL, 0)
		                       : TID_NONE;
	tid r = inline_comp(P, sk, c, args, c->nparams, 0);
	/* a callee's effects are part of what it is: a while whose body
	 * sends another value is another while */
	tid ev = r != TID_NONE ? terms_inline_events(P, sk, c, args, c->nparams, TID_NONE) : TID_NONE;
	free(args);
	if (ev == TID_NONE)
		r = TID_NONE;
	else if (TT(P, ev)->n) {
		tid re[2] = {r, ev};
		r = mk(P, T_CANON, TT(P, r)->shape, 0xca, re, 2, NULL, NULL, 0);
	}
	if (r != TID_NONE)
		hilo_ptrmap_put(&P->canon[sk], c, (void *)(uintptr_t)(r + 1));
	return r;
}


static bool never_fold(hilo_opcode op)
{
	if (hilo_opcode_flags(op) & (HILO_OPF_COLL | HILO_OPF_SE))
		return true;
	switch (op) {
	case HILO_OP_CALL: case HILO_OP_FUSION: case HILO_OP_WHILE: case HILO_OP_CONDITIONAL:
	case HILO_OP_PARAMETER: case HILO_OP_CONSTANT: case HILO_OP_CUSTOM_CALL:
	case HILO_OP_PARTITION_ID: case HILO_OP_REPLICA_ID: case HILO_OP_AFTER_ALL:
	case HILO_OP_BROADCAST: case HILO_OP_ASYNC_START: case HILO_OP_ASYNC_DONE:
	case HILO_OP_IOTA:
	/* a bitcast reads its operand's layout, and constants equal up to
	 * layout are one term (the first one's literal would be folded) */
	case HILO_OP_BITCAST:
	case HILO_OP_ASYNC_UPDATE: case HILO_OP_RNG_BIT_GENERATOR: case HILO_OP_RNG:
		return true;
	default:
		return false;
	}
}

/* Float maximum / minimum are not: the evaluator (XLA's std::max) keeps
 * the lhs on a tie, so max(-0, +0) = -0 but max(+0, -0) = +0. Nor are
 * float add and multiply: the rounded result is symmetric, but with two
 * NaN operands the result is one of them, by position (the NaN standard,
 * docs/proof.md: a NaN's bits are observable). */
static bool commutative(const hilo_instr *i)
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

/* Is every element of constant scalar l equal to the value v (given as
 * the kind of identity)? kind: 0 = -0.0 (float) / 0 (int), 1 = +0.0 / 0,
 * 2 = one, 3 = all ones (int). */
static bool scalar_is(const hilo_literal *l, int kind)
{
	if (!l || l->shape->rank != 0 || !l->nbytes)
		return false;
	hilo_ptype t = l->shape->type;
	if (hilo_ptype_is_float(t)) {
		double v = hilo_elem_get_f64(t, l->data, 0);
		if (kind == 0)
			return v == 0 && signbit(v);
		if (kind == 1)
			return v == 0 && !signbit(v);
		if (kind == 2)
			return v == 1.0;
		return false;
	}
	if (!hilo_ptype_is_int(t))
		return false;
	int64_t v = hilo_elem_get_i64(t, l->data, 0);
	if (kind == 0 || kind == 1)
		return v == 0;
	if (kind == 2)
		return v == 1;
	/* all ones: -1 for signed, max for unsigned (compare the bytes) */
	const unsigned char *b = l->data;
	for (size_t k = 0; k < l->nbytes; k++) {
		int bits = hilo_ptype_bits(t);
		unsigned char want = bits >= 8 ? 0xff : (unsigned char)((1u << bits) - 1);
		if (hilo_ptype_is_signed_int(t) && bits < 8)
			want = 0xff; /* sub-byte signed values are stored sign-extended */
		if (b[k] != want)
			return false;
	}
	return true;
}

/* Is t's value never a signalling NaN? Made by an op that quiets NaNs
 * (hilo_opcode_quiets_nan), or moved from such values, or a constant
 * without one; a parameter or a leaf may be one. */
static bool quiet(pairctx *P, tid t, int depth)
{
	const term *T = TT(P, t);
	if (!hilo_ptype_is_float(T->shape->type) || depth > 32)
		return !hilo_ptype_is_float(T->shape->type);
	if (T->op < HILO_OP_COUNT && hilo_opcode_quiets_nan(T->op))
		return true;
	switch (T->op) {
	case HILO_OP_CONSTANT: {
		const hilo_literal *l = T->lit;
		int eb = l ? hilo_ptype_bytes(l->shape->type) : 0;
		if (!l || eb <= 0)
			return false;
		for (size_t k = 0; k < l->nbytes / (size_t)eb; k++)
			if (hilo_elem_is_snan(l->shape->type, l->data, k))
				return false;
		return true;
	}
	case HILO_OP_BROADCAST: case HILO_OP_SLICE: case HILO_OP_RESHAPE: case HILO_OP_TRANSPOSE:
	case HILO_OP_CONCATENATE: case HILO_OP_REVERSE: case HILO_OP_PAD: case T_DUS:
		for (uint32_t k = 0; k < T->n; k++)
			if (!quiet(P, T->ops[k], depth + 1))
				return false;
		return T->n > 0;
	default:
		return false;
	}
}

/* IEEE-exact identities: returns the surviving operand or TID_NONE. The
 * float ones (x + -0, x - +0, x * 1) hold bit for bit only when x is never
 * a signalling NaN: the op quiets one (nan(0x1) -> nan(0x400001)). */
static tid identity(pairctx *P, const hilo_instr *i, const tid *ops)
{
	if (i->noperands != 2 || i->shape->type == HILO_T_TUPLE)
		return TID_NONE;
	hilo_ptype t = i->shape->type;
	bool fl = hilo_ptype_is_float(t), in = hilo_ptype_is_int(t);
	if (!fl && !in)
		return TID_NONE;
	for (int side = 0; side < 2; side++) {
		const hilo_literal *c = splat(P, ops[side]);
		tid other = ops[1 - side];
		if (!c || !hilo_shape_compatible(TT(P, other)->shape, i->shape) ||
		    (fl && !quiet(P, other, 0)))
			continue;
		switch (i->op) {
		case HILO_OP_ADD:
			if (scalar_is(c, 0) || (in && scalar_is(c, 1)))
				return other;
			break;
		case HILO_OP_SUBTRACT:
			if (side == 1 && (scalar_is(c, 1) || (in && scalar_is(c, 0))))
				return other;
			break;
		case HILO_OP_MULTIPLY:
			if (scalar_is(c, 2))
				return other;
			break;
		case HILO_OP_OR: case HILO_OP_XOR:
			if (in && scalar_is(c, 0))
				return other;
			break;
		case HILO_OP_AND:
			if (in && scalar_is(c, 3))
				return other;
			break;
		default:
			break;
		}
	}
	return TID_NONE;
}

static tid norm_while(pairctx *P, bctx *x, const hilo_instr *i, const tid *ops, uint64_t ah, bool ahok)
{
	hilo_comp *cond = hilo_instr_get_comp(i, HILO_A_CONDITION);
	hilo_comp *body = hilo_instr_get_comp(i, HILO_A_BODY);
	if (cond && body && i->noperands == 1) {
		tid order = events_order(P, x, i);
		tid s = ops[0];
		uint64_t work = 0;
		for (int trip = 0; trip <= 1000 && s != TID_NONE; trip++) {
			tid c = inline_comp_in(P, x->sk, cond, &s, 1, order, 1);
			const hilo_literal *cl = c != TID_NONE ? const_lit(P, c) : NULL;
			if (!cl || cl->shape->type != HILO_T_PRED || cl->nbytes != 1)
				break;
			if (!*(const unsigned char *)cl->data)
				return s;
			work += body->ninstrs;
			if (trip == 1000 || work > 800000)
				break;
			s = inline_comp_in(P, x->sk, body, &s, 1, order, 1);
		}
	}
	if (!ahok || i->noperands != 1)
		return TID_NONE;
	/* uninterpreted: over its state and, when its callees have effects,
	 * the events it follows (what an infeed inside reads depends on them) */
	tid wo[2] = {ops[0], events_order(P, x, i)};
	return mk(P, HILO_OP_WHILE, i->shape, ah, wo, wo[1] != TID_NONE ? 2 : 1, NULL, NULL, 0);
}

/* Clamped constant starts of a dynamic-slice/-update-slice (first start
 * operand at index first); false when a start is not a constant. */
static bool const_starts(pairctx *P, const hilo_instr *i, const tid *ops, uint32_t first,
	const hilo_shape *os, const hilo_shape *win, int64_t *out)
{
	int r = os->rank;
	if (r > HILO_MAX_RANK || win->rank != r)
		return false;
	if (i->noperands == first + (uint32_t)r) {
		for (int d = 0; d < r; d++) {
			const hilo_literal *l = const_lit(P, ops[first + d]);
			if (!l || l->shape->rank != 0 || !hilo_ptype_is_int(l->shape->type))
				return false;
			int64_t v = hilo_elem_get_i64(l->shape->type, l->data, 0);
			if (l->shape->type == HILO_T_U64 && v < 0)
				v = INT64_MAX;
			int64_t hi = os->dims[d] - win->dims[d];
			out[d] = v < 0 ? 0 : v > hi ? hi : v;
		}
		return true;
	}
	return false;
}

/* A conditional whose selector is not a constant: (selector, the value of
 * each branch inlined on its operand), branch k being the one the
 * evaluator takes for index k (a pred selector: true -> 0, false -> 1; an
 * index out of range -> the last). That is the definition, so equal
 * selectors and equal branch values give equal results. TID_NONE when a
 * branch does not inline (the conditional is then uninterpreted). */
static tid cond_term(pairctx *P, bctx *x, const hilo_instr *i, const tid *ops)
{
	uint32_t n = i->noperands;
	const hilo_comp *br[64];
	uint32_t nb = 0;
	hilo_attr *bc = hilo_instr_attr(i, HILO_A_BRANCH_COMPUTATIONS);
	if (bc && bc->kind == HILO_ATTR_COMPS && bc->n > 0 && bc->n < 64 &&
	    bc->v.i >= 0 && bc->v.i + bc->n <= (int64_t)hilo_instr_ncalled(i) && (int64_t)n == bc->n + 1) {
		for (int k = 0; k < bc->n; k++)
			br[nb++] = hilo_instr_called(i)[bc->v.i + k];
	} else if (n == 3) {
		br[0] = hilo_instr_get_comp(i, HILO_A_TRUE_COMPUTATION);
		br[1] = hilo_instr_get_comp(i, HILO_A_FALSE_COMPUTATION);
		nb = 2;
		if (!br[0] || !br[1])
			return TID_NONE;
	} else {
		return TID_NONE;
	}
	tid vals[65];
	vals[0] = ops[0];
	tid order = events_order(P, x, i);
	bool same = true;
	for (uint32_t k = 0; k < nb; k++) {
		vals[1 + k] = inline_comp_in(P, x->sk, br[k], &ops[1 + k], 1, order, 1);
		if (vals[1 + k] == TID_NONE || !hilo_shape_compatible(TT(P, vals[1 + k])->shape, i->shape))
			return TID_NONE;
		same = same && vals[1 + k] == vals[1];
	}
	/* every branch computes the same value: that value, whichever runs
	 * (their events are the effects record's, events.c) */
	if (same)
		return vals[1];
	return mk(P, HILO_OP_CONDITIONAL, i->shape, 0xc0d0 + nb, vals, nb + 1, NULL, NULL, 0);
}

/* The normalised term of i given its operands' terms. */
static tid norm(pairctx *P, bctx *x, const hilo_instr *i, tid *ops)
{
	uint32_t n = i->noperands;
	const hilo_shape *shape = i->shape;
	switch (i->op) {
	case HILO_OP_CONSTANT:
		if (hilo_instr_literal(i) && hilo_instr_literal(i)->elided && i->line > 0)
			/* an elided constant ({...}): its value is unknown, and no
			 * pass can make another one; clones (an unrolled body's) keep
			 * the source position, so it names the value */
			return mk(P, T_ELIDED, shape, ((uint64_t)(uint32_t)i->line << 32) | (uint32_t)i->col,
				NULL, 0, NULL, NULL, 0);
		if (!hilo_instr_literal(i) || hilo_instr_literal(i)->elided)
			return mk(P, T_OPAQUE, shape, ((uint64_t)x->sk << 32) | i->id, NULL, 0, NULL, NULL, 0);
		if (hilo_shape_elements(shape) > CONST_BY_VALUE_MAX) {
			/* large constants by identity: the same id in both modules
			 * with the same bytes (checked by the diff when it is shared) */
			if (is_same(P, i))
				return mk(P, T_LEAF, shape, i->id, NULL, 0, NULL, NULL, 0);
			return mk(P, T_OPAQUE, shape, ((uint64_t)x->sk << 32) | i->id, NULL, 0, NULL, NULL, 0);
		}
		return mk_const(P, hilo_instr_literal(i), shape);
	case HILO_OP_GET_TUPLE_ELEMENT: {
		int64_t k = 0;
		hilo_instr_get_int(i, HILO_A_INDEX, &k);
		const term *X = TT(P, ops[0]);
		if (X->op == HILO_OP_TUPLE && k >= 0 && k < (int64_t)X->n)
			return X->ops[k];
		return mk(P, HILO_OP_GET_TUPLE_ELEMENT, shape, 0x67, ops, 1, NULL, &k, 1);
	}
	case HILO_OP_TUPLE: {
		if (n > 0) {
			const term *G0 = TT(P, ops[0]);
			bool all = G0->op == HILO_OP_GET_TUPLE_ELEMENT;
			tid src = all ? G0->ops[0] : TID_NONE;
			for (uint32_t k = 0; all && k < n; k++) {
				const term *G = TT(P, ops[k]);
				all = G->op == HILO_OP_GET_TUPLE_ELEMENT && G->ops[0] == src && G->iv[0] == k;
			}
			if (all && TT(P, src)->shape->type == HILO_T_TUPLE &&
			    TT(P, src)->shape->ntuple == (int)n)
				return src;
		}
		return mk(P, HILO_OP_TUPLE, shape, 0x70, ops, n, NULL, NULL, 0);
	}
	case HILO_OP_CALL: case HILO_OP_FUSION:
		if (hilo_instr_ncalled(i) >= 1)
			return inline_comp_in(P, x->sk, hilo_instr_called(i)[0], ops, n,
				events_order(P, x, i), 1);
		return TID_NONE;
	case HILO_OP_AFTER_ALL:
		if (shape->type == HILO_T_TOKEN)
			return events_after_all(P, ops, n, shape);
		break;
	case HILO_OP_COPY: case HILO_OP_OPT_BARRIER: case HILO_OP_DOMAIN:
	case HILO_OP_ADD_DEPENDENCY:
		if (n >= 1 && hilo_shape_compatible(TT(P, ops[0])->shape, shape))
			return ops[0];
		break;
	case HILO_OP_CUSTOM_CALL:
		if (hilo_instr_is_boundary_marker(i) && n == 1 && hilo_shape_compatible(TT(P, ops[0])->shape, shape))
			return ops[0];
		break;
	case HILO_OP_BITCAST:
		/* it reads a layout only the call sites know: a value of its own
		 * side, never equal to the other side's (records.c) */
		if (chk_layout_unknown(P->s[x->sk].m, i))
			return mk(P, T_OPAQUE, shape, ((uint64_t)x->sk << 32) | i->id, NULL, 0, NULL, NULL, 0);
		break;
	case HILO_OP_CONDITIONAL: {
		const hilo_literal *sel = n ? const_lit(P, ops[0]) : NULL;
		if (sel && sel->shape->rank == 0 && sel->nbytes) {
			int64_t v = hilo_elem_get_i64(sel->shape->type, sel->data, 0);
			hilo_attr *bc = hilo_instr_attr(i, HILO_A_BRANCH_COMPUTATIONS);
			const hilo_comp *br = NULL;
			if (bc && bc->kind == HILO_ATTR_COMPS && bc->n > 0 &&
			    bc->v.i + bc->n <= (int64_t)hilo_instr_ncalled(i) && (int64_t)n == bc->n + 1) {
				if (sel->shape->type == HILO_T_PRED)
					v = v ? 0 : 1;
				if (v < 0 || v >= bc->n)
					v = bc->n - 1;
				br = hilo_instr_called(i)[bc->v.i + v];
			} else if (n == 3) {
				hilo_comp *tc = hilo_instr_get_comp(i, HILO_A_TRUE_COMPUTATION);
				hilo_comp *fc = hilo_instr_get_comp(i, HILO_A_FALSE_COMPUTATION);
				v = v ? 0 : 1;
				br = v == 0 ? tc : fc;
			}
			if (br)
				return inline_comp_in(P, x->sk, br, &ops[1 + v], 1, events_order(P, x, i), 1);
		}
		if (n >= 2) {
			tid t = cond_term(P, x, i, ops);
			if (t != TID_NONE)
				return t;
		}
		break;
	}
	default:
		break;
	}
	/* fold when every operand is a constant the evaluator can take */
	if (!never_fold(i->op) && shape->type != HILO_T_TUPLE) {
		int64_t ne = hilo_shape_elements(shape);
		const hilo_literal *lits[16];
		bool all = n <= 16 && ne >= 0 && ne <= FOLD_MAX;
		/* cheap test first: materialising a broadcast allocates */
		for (uint32_t k = 0; all && k < n; k++) {
			const term *o = TT(P, ops[k]);
			int64_t oe = o->shape->type == HILO_T_TUPLE ? 0 : hilo_shape_elements(o->shape);
			all = o->op == HILO_OP_CONSTANT || (splat(P, ops[k]) && oe >= 0 && oe <= FOLD_MAX);
		}
		for (uint32_t k = 0; all && k < n; k++)
			all = (lits[k] = const_lit(P, ops[k])) != NULL;
		if (all) {
			hilo_diags d;
			hilo_diags_init(&d);
			hilo_literal *r = hilo_eval_instr(P->scratch, i, (hilo_literal *const *)lits, &d);
			hilo_diags_free(&d);
			if (r)
				return mk_const(P, r, shape);
		}
	}
	int r = shape->type == HILO_T_TUPLE ? 0 : shape->rank;
	switch (i->op) {
	case HILO_OP_SLICE: {
		hilo_attr *a = hilo_instr_attr(i, HILO_A_SLICE);
		if (!a || a->kind != HILO_ATTR_SLICE || a->n != r || r > HILO_MAX_RANK)
			break;
		int64_t s[HILO_MAX_RANK], l[HILO_MAX_RANK], st[HILO_MAX_RANK];
		for (int d = 0; d < r; d++) {
			s[d] = a->v.ints[3 * d];
			l[d] = a->v.ints[3 * d + 1];
			st[d] = a->v.ints[3 * d + 2];
		}
		tid t = terms_slice(P, ops[0], s, l, st, shape);
		if (t != TID_NONE)
			return t;
		break;
	}
	case HILO_OP_DYNAMIC_SLICE: {
		int64_t s[HILO_MAX_RANK], l[HILO_MAX_RANK], st[HILO_MAX_RANK];
		const hilo_shape *os = TT(P, ops[0])->shape;
		if (n < 1 || !const_starts(P, i, ops, 1, os, shape, s))
			break;
		for (int d = 0; d < r; d++) {
			l[d] = s[d] + shape->dims[d];
			st[d] = 1;
		}
		tid t = terms_slice(P, ops[0], s, l, st, shape);
		if (t != TID_NONE)
			return t;
		break;
	}
	case HILO_OP_DYNAMIC_UPDATE_SLICE: {
		int64_t s[HILO_MAX_RANK];
		if (n < 2 || !const_starts(P, i, ops, 2, shape, TT(P, ops[1])->shape, s))
			break;
		tid t = terms_dus(P, ops[0], ops[1], s, shape);
		if (t != TID_NONE)
			return t;
		break;
	}
	case HILO_OP_CONCATENATE: {
		const int64_t *dv;
		int nd = 0;
		if (!(dv = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &nd)) || nd != 1)
			break;
		tid t = terms_concat(P, ops, n, dv[0], shape);
		if (t != TID_NONE)
			return t;
		break;
	}
	case HILO_OP_PAD: {
		hilo_attr *a = hilo_instr_attr(i, HILO_A_PADDING);
		if (!a || a->kind != HILO_ATTR_PADDING || a->n != r || n != 2 || r > HILO_MAX_RANK)
			break;
		tid t = terms_pad(P, ops[0], ops[1], a->v.ints, r, shape);
		if (t != TID_NONE)
			return t;
		break;
	}
	case HILO_OP_BROADCAST: {
		const int64_t *dv;
		int nd = 0;
		dv = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &nd);
		tid t = terms_broadcast(P, ops[0], shape, dv, nd);
		if (t != TID_NONE)
			return t;
		break;
	}
	case HILO_OP_RESHAPE: {
		const term *X = TT(P, ops[0]);
		if (hilo_shape_compatible(X->shape, shape))
			return ops[0];
		if (splat(P, ops[0]))
			return terms_broadcast(P, X->op == HILO_OP_BROADCAST ? X->ops[0] : ops[0], shape, NULL, 0);
		tid src = X->op == HILO_OP_RESHAPE ? X->ops[0] : ops[0];
		if (hilo_shape_compatible(TT(P, src)->shape, shape))
			return src;
		return mk(P, HILO_OP_RESHAPE, shape, 0x3e, &src, 1, NULL, NULL, 0);
	}
	case HILO_OP_TRANSPOSE: {
		const int64_t *dv;
		int nd = 0;
		dv = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &nd);
		bool ident = dv && nd == r;
		for (int d = 0; ident && d < nd; d++)
			ident = dv[d] == d;
		if (ident)
			return ops[0];
		break;
	}
	case HILO_OP_CONVERT:
		if (hilo_shape_compatible(TT(P, ops[0])->shape, shape))
			return ops[0];
		break;
	case HILO_OP_SELECT: {
		const hilo_literal *pl = n == 3 ? splat(P, ops[0]) : NULL;
		if (n == 3 && ops[1] == ops[2])
			return ops[1];
		if (pl && pl->nbytes == 1) {
			tid pick = *(const unsigned char *)pl->data ? ops[1] : ops[2];
			if (hilo_shape_compatible(TT(P, pick)->shape, shape))
				return pick;
		}
		break;
	}
	default:
		break;
	}
	bool ahok = true;
	uint64_t ah = attr_hash(P, x->sk, i, &ahok);
	if (events_is_event(P->s[x->sk].m, i)) {
		/* an event: its kind, meaningful attributes and operands, and the
		 * events it follows (T_ORDER: control predecessors, the calling
		 * context, its ordinal among identical ones); never its position */
		if (!ahok)
			return TID_NONE;
		if (!x->ev_busy && events_of_ctx(P, x) == TID_NONE)
			return TID_NONE; /* two events not told apart */
		tid ord = events_order(P, x, i);
		tid *eo = malloc(((size_t)n + 1) * sizeof *eo);
		if (!eo)
			return TID_NONE;
		if (n)
			memcpy(eo, ops, n * sizeof *eo);
		uint32_t ne = n;
		if (ord != TID_NONE)
			eo[ne++] = ord;
		tid t = mk(P, i->op, shape, ah ^ (ord != TID_NONE ? 0x0dull : 0), eo, ne, NULL, NULL, 0);
		free(eo);
		if (t != TID_NONE)
			terms_set_event(P, t);
		return t;
	}
	if (i->op == HILO_OP_WHILE)
		return norm_while(P, x, i, ops, ah, ahok);
	if (!ahok)
		return TID_NONE;
	tid sorted[2];
	if (n == 2 && commutative(i)) {
		sorted[0] = ops[0] < ops[1] ? ops[0] : ops[1];
		sorted[1] = ops[0] < ops[1] ? ops[1] : ops[0];
		ops = sorted;
	}
	if (n == 2 && (hilo_opcode_flags(i->op) & HILO_OPF_EW)) {
		tid t = identity(P, i, ops);
		if (t != TID_NONE)
			return t;
		/* elementwise of a concatenate: the op on the pieces */
		for (int q = 0; q < 2 && r > 0; q++) {
			const term *C = TT(P, ops[q]);
			if (C->op != HILO_OP_CONCATENATE || C->niv != 1 ||
			    !hilo_shape_compatible(TT(P, ops[1 - q])->shape, C->shape))
				continue;
			int64_t cd = C->iv[0], off = 0;
			tid *parts = malloc(C->n * sizeof *parts);
			if (!parts)
				return TID_NONE;
			bool ok = true;
			for (uint32_t k = 0; k < C->n && ok; k++) {
				const term *Ck = TT(P, TT(P, ops[q])->ops[k]);
				int64_t len = Ck->shape->dims[cd];
				tid pq[2];
				pq[q] = TT(P, ops[q])->ops[k];
				pq[1 - q] = terms_slice_along(P, ops[1 - q], cd, off, off + len);
				off += len;
				int64_t dims[HILO_MAX_RANK];
				memcpy(dims, shape->dims, (size_t)r * sizeof *dims);
				dims[cd] = len;
				hilo_shape *ps = new_shape(P, shape->type, r, dims);
				/* identity and commutation again on the piece */
				tid pt = TID_NONE;
				if (pq[1 - q] != TID_NONE && ps) {
					tid po[2] = {pq[0], pq[1]};
					if (commutative(i) && po[0] > po[1]) {
						tid tmp = po[0];
						po[0] = po[1];
						po[1] = tmp;
					}
					hilo_instr fake = *i;
					fake.shape = ps;
					pt = identity(P, &fake, po);
					if (pt == TID_NONE)
						pt = mk(P, i->op, ps, ah, po, 2, NULL, NULL, 0);
				}
				parts[k] = pt;
				ok = pt != TID_NONE;
			}
			tid res = ok ? terms_concat(P, parts, C->n, cd, shape) : TID_NONE;
			free(parts);
			return res;
		}
	}
	/* a transpose keeps its permutation (the cut judge maps indices) */
	const int64_t *piv = NULL;
	int pn = 0;
	if (i->op == HILO_OP_TRANSPOSE && n == 1) {
		piv = hilo_instr_get_ints(i, HILO_A_DIMENSIONS, &pn);
		if (!piv || pn != r)
			piv = NULL, pn = 0;
	}
	return mk(P, i->op, shape, ah, ops, n, NULL, piv, pn);
}

/* Leaves at the top level of a record's computation. */
static tid leaf(pairctx *P, bctx *x, const hilo_instr *i)
{
	if (x->args) {
		if (i->op == HILO_OP_PARAMETER)
			return hilo_instr_param_no(i) >= 0 && (uint64_t)hilo_instr_param_no(i) < x->c->nparams
				? x->args[hilo_instr_param_no(i)] : TID_NONE;
		return TID_NONE - 1;
	}
	if (i->op == HILO_OP_PARAMETER)
		return mk(P, T_PARAM, i->shape, (uint64_t)hilo_instr_param_no(i), NULL, 0, NULL, NULL, 0);
	if (!x->deep && is_shared(P, i))
		return mk(P, T_LEAF, i->shape, i->id, NULL, 0, NULL, NULL, 0);
	return TID_NONE - 1;
}

static tid build(pairctx *P, bctx *x, const hilo_instr *root)
{
	uint32_t got = memo_get(P, x, root);
	if (got)
		return got - 1;
	typedef struct { const hilo_instr *i; uint32_t k; } frame;
	uint32_t cap = 64, sp = 0;
	frame *st = malloc(cap * sizeof *st);
	tid *ops = NULL;
	uint32_t opcap = 0;
	tid res = TID_NONE;
	if (!st)
		return TID_NONE;
	st[sp++] = (frame){root, 0};
	while (sp) {
		frame *f = &st[sp - 1];
		const hilo_instr *i = f->i;
		if (f->k == 0) {
			tid l = leaf(P, x, i);
			if (l != TID_NONE - 1) {
				if (l == TID_NONE || !memo_put(P, x, i, l))
					goto out;
				term *lt = &P->T->blocks[l >> BLOCK_BITS][l & (BLOCK - 1)];
				if (!lt->src)
					lt->src = i;
				sp--;
				continue;
			}
		}
		if (f->k < i->noperands) {
			const hilo_instr *o = i->operands[f->k++];
			if (memo_get(P, x, o))
				continue;
			if (o->parent != x->c || sp > x->c->ninstrs + 1)
				goto out; /* operand outside the computation or a cycle */
			if (sp == cap) {
				cap *= 2;
				frame *ns = realloc(st, cap * sizeof *ns);
				if (!ns)
					goto out;
				st = ns;
			}
			st[sp++] = (frame){o, 0};
			continue;
		}
		if (++P->work > P->work_limit)
			goto out;
		if (i->noperands > opcap) {
			free(ops);
			opcap = i->noperands * 2;
			if (!(ops = malloc(opcap * sizeof *ops)))
				goto out;
		}
		for (uint32_t k = 0; k < i->noperands; k++)
			ops[k] = memo_get(P, x, i->operands[k]) - 1;
		tid t = norm(P, x, i, ops);
		if (t == TID_NONE || !memo_put(P, x, i, t))
			goto out;
		term *tt = &P->T->blocks[t >> BLOCK_BITS][t & (BLOCK - 1)];
		if (!tt->src)
			tt->src = i;
		sp--;
	}
	got = memo_get(P, x, root);
	res = got ? got - 1 : TID_NONE;
out:
	free(st);
	free(ops);
	return res;
}

bctx *terms_top(pairctx *P, int sk, const hilo_comp *c, bool deep)
{
	hilo_ptrmap *tops = &P->top[sk + (deep ? 2 : 0)];
	bctx *x = hilo_ptrmap_get(tops, c);
	if (!x) {
		x = malloc(sizeof *x);
		if (!x)
			return NULL;
		bctx_init(x, sk, c, NULL, P->scratch->arena);
		x->deep = deep;
		if (!hilo_ptrmap_put(tops, c, x)) {
			free(x);
			return NULL;
		}
	}
	return x;
}

tid terms_of(pairctx *P, int sk, const hilo_instr *i, bool deep)
{
	bctx *x = terms_top(P, sk, i->parent, deep);
	return x ? build(P, x, i) : TID_NONE;
}

tid terms_build(pairctx *P, bctx *x, const hilo_instr *i)
{
	return build(P, x, i);
}

const hilo_literal *terms_const(pairctx *P, tid t)
{
	return const_lit(P, t);
}

void terms_pair_fini(pairctx *P)
{
	for (int sk = 0; sk < 2; sk++) {
		free(P->mstamp[sk]);
		free(P->mval[sk]);
		P->mstamp[sk] = NULL;
		P->mval[sk] = NULL;
	}
	for (int sk = 0; sk < 4; sk++) {
		hilo_ptrmap *m = &P->top[sk];
		for (size_t k = 0; k < m->cap; k++) {
			if (!m->keys || !m->keys[k])
				continue;
			bctx *x = m->vals[k];
			hilo_ptrmap_free(&x->memo);
			free(x);
		}
		hilo_ptrmap_free(m);
		if (sk < 2) {
			hilo_ptrmap_free(&P->canon[sk]);
			hilo_ptrmap_free(&P->inl[sk]);
		}
	}
}

bool terms_data_movement(pairctx *P, tid t)
{
	(void)P;
	(void)t;
	return false;
}
