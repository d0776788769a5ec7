/* cut.c - judging two differing canonical terms at the cuts where they
 * differ (docs/proof.md, "Cuts").
 *
 * When a record's two terms differ and its whole cone is over the testing
 * budget (a transformer layer of a sharded 70B model), the difference is
 * looked for where it is: both terms are walked together from the roots
 * through nodes with the same head (operation, value shape, attributes,
 * integer parameters, arity, operand shapes), pairing operands slot by slot
 * (for a commutative operation whose other operand is the same term, the
 * differing ones). Such a node is the same function of its operands on
 * both sides, so the roots are equal when every pair of differing operands
 * reached (a *cut*) is equal: congruence. Each cut is judged on its own:
 *   - two constants: compared element by element, bit for bit;
 *   - two data-movement terms of the same shape (slice, broadcast,
 *     reshape, transpose, concatenate, static update over leaves and
 *     constants): each element (all of them up to 4096, else 64 spread
 *     ones) is followed back to its source, an element of a free leaf (a
 *     parameter or a shared instruction, the same free variables as the
 *     testing fallback) or a known value. Equal sources everywhere: equal.
 *     An element whose sources differ differs for every input where those
 *     two sources differ: a counterexample by construction;
 *   - anything else: undecided (the record stays skipped, naming the cut).
 * A differing cut fails the record: the rest of the cone is the same
 * function on both sides, applied to values that differ. (Unlike a test of
 * the whole cone this does not show the difference reaches the record's
 * value: a context that masks it, say a multiplication by zero, would make
 * this a false alarm, never a false proof. It is used only where the whole
 * cone cannot be evaluated.)
 */
#include "check_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { CUT_MAX_NODES = 1 << 20, CUT_SCAN_MAX = 1 << 24 };

typedef struct cutctx {
	pairctx *P;
	bool deep;            /* leaves are parameters: free */
	hilo_ptrmap seen;     /* (b << 32 | a) + 1 -> 1 */
	tid *st;              /* pair stack */
	uint32_t sp, cap;
	uint32_t nodes;
	int undecided;
	char first_undecided[300];
} cutctx;

static const char *src_name(const term *t)
{
	return t->src ? t->src->name : "a derived value";
}

static void src_pos(char *buf, size_t cap, const term *t)
{
	if (t->src && t->src->line)
		snprintf(buf, cap, " (%d:%d)", t->src->line, t->src->col);
	else
		buf[0] = 0;
}

/* The operations terms.c orders by operand (float maximum/minimum are not
 * commutative under the evaluator: signed zeros). */
static bool is_commutative_op(const term *X)
{
	return X->op < HILO_OP_COUNT && hilo_opcode_is_commutative((hilo_opcode)X->op, X->shape->type);
}

/* Same function of the operands on both sides? */
static bool head_same(const pairctx *P, const term *X, const term *Y)
{
	if (X->op != Y->op || X->n != Y->n || X->n == 0 || X->ah != Y->ah || X->niv != Y->niv ||
	    X->lit || Y->lit || X->op == T_CALLKEY || !hilo_shape_compatible(X->shape, Y->shape))
		return false;
	for (int k = 0; k < X->niv; k++)
		if (X->iv[k] != Y->iv[k])
			return false;
	for (uint32_t k = 0; k < X->n; k++)
		if (!hilo_shape_compatible(terms_get(P, X->ops[k])->shape, terms_get(P, Y->ops[k])->shape))
			return false;
	return true;
}

/* 1 when two terms have the same operation and shape (a pairing hint) */
static int heads_match(const pairctx *P, tid x, tid y)
{
	const term *X = terms_get(P, x), *Y = terms_get(P, y);
	return X->op == Y->op && hilo_shape_compatible(X->shape, Y->shape);
}

static bool push(cutctx *C, tid b, tid a)
{
	if (b == a)
		return true;
	void *key = (void *)(uintptr_t)((((uint64_t)b << 32) | a) + 1);
	if (hilo_ptrmap_get(&C->seen, key))
		return true;
	if (!hilo_ptrmap_put(&C->seen, key, (void *)1))
		return false;
	if (C->sp + 2 > C->cap) {
		uint32_t nc = C->cap ? C->cap * 2 : 64;
		tid *ns = realloc(C->st, nc * sizeof *ns);
		if (!ns)
			return false;
		C->st = ns;
		C->cap = nc;
	}
	C->st[C->sp++] = b;
	C->st[C->sp++] = a;
	return true;
}

/* Row-major multi-index of flat position k in shape s, into buf. */
static void index_str(char *buf, size_t cap, const hilo_shape *s, int64_t k)
{
	int64_t idx[64];
	int r = s->rank < 64 ? s->rank : 64;
	for (int d = r; d-- > 0;) {
		int64_t n = s->dims[d] > 0 ? s->dims[d] : 1;
		idx[d] = k % n;
		k /= n;
	}
	size_t o = 0;
	buf[0] = 0;
	for (int d = 0; d < r && o < cap; d++)
		o += (size_t)snprintf(buf + o, cap - o, "%s%lld", d ? "," : "", (long long)idx[d]);
}

static void elem_str(char *buf, size_t cap, hilo_ptype t, const void *data, size_t k)
{
	if (hilo_ptype_is_float(t))
		snprintf(buf, cap, "%.9g", hilo_elem_get_f64(t, data, k));
	else
		snprintf(buf, cap, "%lld", (long long)hilo_elem_get_i64(t, data, k));
}

/* Elements equal as values: bit for bit, a NaN's sign and payload
 * included (docs/proof.md, the NaN standard). */
static bool elem_same(hilo_ptype t, const void *x, size_t kx, const void *y, size_t ky, size_t eb)
{
	(void)t;
	return !memcmp((const char *)x + kx * eb, (const char *)y + ky * eb, eb);
}

/* The literal of a constant term and whether it is a splat (a broadcast
 * scalar: every element is element 0). NULL when not a constant. */
static const hilo_literal *const_of(const pairctx *P, const term *t, bool *splat)
{
	*splat = false;
	if (t->op == HILO_OP_CONSTANT)
		return t->lit && !t->lit->ntuple && t->shape->type != HILO_T_TUPLE ? t->lit : NULL;
	if (t->op == HILO_OP_BROADCAST && t->n == 1) {
		const term *y = terms_get(P, t->ops[0]);
		if (y->op == HILO_OP_CONSTANT && y->shape->type != HILO_T_TUPLE && y->shape->rank == 0 &&
		    y->lit && !y->lit->ntuple) {
			*splat = true;
			return y->lit;
		}
	}
	return NULL;
}

/* 0 equal, 1 differ (msg), 2 cannot tell. */
static int judge_consts(const pairctx *P, const term *X, const term *Y, char *msg, size_t cap)
{
	bool sx, sy;
	const hilo_literal *lx = const_of(P, X, &sx), *ly = const_of(P, Y, &sy);
	if (!lx || !ly)
		return 2;
	hilo_ptype t = X->shape->type;
	int eb = hilo_ptype_bytes(t);
	int64_t ne = hilo_shape_elements(X->shape);
	if (eb <= 0 || ne < 0 || t != Y->shape->type || lx->shape->type != t || ly->shape->type != t ||
	    (!sx && lx->nbytes < (size_t)ne * (size_t)eb) || (!sy && ly->nbytes < (size_t)ne * (size_t)eb) ||
	    lx->nbytes < (size_t)eb || ly->nbytes < (size_t)eb)
		return 2;
	if (sx && sy)
		ne = ne > 0 ? 1 : 0;
	for (int64_t k = 0; k < ne && k < CUT_SCAN_MAX; k++) {
		size_t kx = sx ? 0 : (size_t)k, ky = sy ? 0 : (size_t)k;
		if (elem_same(t, lx->data, kx, ly->data, ky, (size_t)eb))
			continue;
		char ix[200], vx[64], vy[64], px[32], py[32];
		index_str(ix, sizeof ix, X->shape, k);
		elem_str(vx, sizeof vx, t, lx->data, kx);
		elem_str(vy, sizeof vy, t, ly->data, ky);
		src_pos(px, sizeof px, X);
		src_pos(py, sizeof py, Y);
		snprintf(msg, cap, "the constant %s%s becomes %s%s: element [%s]: before=%s after=%s",
			src_name(X), px, src_name(Y), py, ix, vx, vy);
		return 1;
	}
	return ne <= CUT_SCAN_MAX ? 0 : 2;
}

/* Flat row-major position of multi-index idx in shape s. */
static int64_t flat(const hilo_shape *s, const int64_t *idx)
{
	int64_t k = 0;
	for (int d = 0; d < s->rank; d++)
		k = k * s->dims[d] + idx[d];
	return k;
}

static void unflat(const hilo_shape *s, int64_t k, int64_t *idx)
{
	for (int d = s->rank; d-- > 0;) {
		int64_t n = s->dims[d] > 0 ? s->dims[d] : 1;
		idx[d] = k % n;
		k /= n;
	}
}

static void idx_str(char *buf, size_t cap, const int64_t *idx, int r)
{
	size_t o = 0;
	buf[0] = 0;
	for (int d = 0; d < r && o < cap; d++)
		o += (size_t)snprintf(buf + o, cap - o, "%s%lld", d ? "," : "", (long long)idx[d]);
}

/* Where one element of a data-movement term comes from: an element of a
 * free leaf, or a known value. */
typedef struct pval {
	bool leaf;
	tid t;                  /* the leaf term */
	int64_t pos;            /* flat position in the leaf */
	const void *data;       /* a known value: its literal's data, element k */
	size_t k;
} pval;

enum { POINT_MAX_DEPTH = 1 << 14, MAXR = 64 };

/* Follows element idx of term t through data movement to its source.
 * False when the path meets anything else (arithmetic, an elided
 * constant, an uninterpreted op). idx is clobbered. */
static bool point(const pairctx *P, tid t, int64_t *idx, pval *out)
{
	int64_t tmp[MAXR];
	for (int depth = 0; depth < POINT_MAX_DEPTH; depth++) {
		const term *X = terms_get(P, t);
		const hilo_shape *xs = X->shape;
		if (xs->type == HILO_T_TUPLE || xs->rank > MAXR)
			return false;
		int r = xs->rank;
		size_t eb = (size_t)hilo_ptype_bytes(xs->type);
		switch (X->op) {
		case T_PARAM: case T_LEAF: {
			const hilo_instr *li = X->op == T_LEAF && X->ah < P->s[0].nid ? P->s[0].by_id[X->ah] : NULL;
			if (li && li->op == HILO_OP_CONSTANT) {
				const hilo_literal *l = hilo_instr_literal(li);
				int64_t k = l ? (int64_t)hilo_literal_slot(l, (size_t)flat(xs, idx)) : 0;
				if (!l || l->elided || l->ntuple || !eb || l->nbytes < (size_t)(k + 1) * eb)
					return false;
				out->leaf = false;
				out->data = l->data;
				out->k = (size_t)k;
				return true;
			}
			if (X->op == T_LEAF && !li)
				return false;
			out->leaf = true;
			out->t = t;
			out->pos = flat(xs, idx);
			return true;
		}
		case HILO_OP_CONSTANT: {
			const hilo_literal *l = X->lit;
			int64_t k = l ? (int64_t)hilo_literal_slot(l, (size_t)flat(xs, idx)) : 0;
			if (!l || l->ntuple || !eb || l->nbytes < (size_t)(k + 1) * eb)
				return false;
			out->leaf = false;
			out->data = l->data;
			out->k = (size_t)k;
			return true;
		}
		case HILO_OP_BROADCAST: {
			if (X->n != 1)
				return false;
			const term *Y = terms_get(P, X->ops[0]);
			if (Y->shape->type == HILO_T_TUPLE || Y->shape->rank != X->niv)
				return false;
			for (int j = 0; j < X->niv; j++)
				tmp[j] = idx[X->iv[j]];
			memcpy(idx, tmp, (size_t)X->niv * sizeof *idx);
			t = X->ops[0];
			continue;
		}
		case HILO_OP_SLICE:
			if (X->n != 1 || X->niv != 3 * r)
				return false;
			for (int d = 0; d < r; d++)
				idx[d] = X->iv[d] + idx[d] * X->iv[2 * r + d];
			t = X->ops[0];
			continue;
		case HILO_OP_CONCATENATE: {
			if (X->niv != 1 || X->iv[0] < 0 || X->iv[0] >= r)
				return false;
			int64_t cd = X->iv[0], off = 0;
			tid next = TID_NONE;
			for (uint32_t k = 0; k < X->n; k++) {
				int64_t len = terms_get(P, X->ops[k])->shape->dims[cd];
				if (idx[cd] < off + len) {
					idx[cd] -= off;
					next = X->ops[k];
					break;
				}
				off += len;
			}
			if (next == TID_NONE)
				return false;
			t = next;
			continue;
		}
		case T_DUS: {
			if (X->n != 2 || X->niv != r)
				return false;
			const hilo_shape *us = terms_get(P, X->ops[1])->shape;
			bool in = us->rank == r;
			for (int d = 0; in && d < r; d++)
				in = idx[d] >= X->iv[d] && idx[d] < X->iv[d] + us->dims[d];
			if (in)
				for (int d = 0; d < r; d++)
					idx[d] -= X->iv[d];
			t = X->ops[in ? 1 : 0];
			continue;
		}
		case HILO_OP_RESHAPE: {
			if (X->n != 1)
				return false;
			const hilo_shape *ys = terms_get(P, X->ops[0])->shape;
			if (ys->type == HILO_T_TUPLE || ys->rank > MAXR)
				return false;
			int64_t k = flat(xs, idx);
			unflat(ys, k, idx);
			t = X->ops[0];
			continue;
		}
		case HILO_OP_TRANSPOSE:
			if (X->n != 1 || X->niv != r)
				return false;
			for (int d = 0; d < r; d++) {
				if (X->iv[d] < 0 || X->iv[d] >= r)
					return false;
				tmp[X->iv[d]] = idx[d];
			}
			memcpy(idx, tmp, (size_t)r * sizeof *idx);
			t = X->ops[0];
			continue;
		default:
			return false;
		}
	}
	return false;
}

static void pval_str(const pairctx *P, const pval *v, hilo_ptype t, char *buf, size_t cap)
{
	if (!v->leaf) {
		char e[64];
		elem_str(e, sizeof e, t, v->data, v->k);
		snprintf(buf, cap, "the constant %s", e);
		return;
	}
	const term *L = terms_get(P, v->t);
	int64_t idx[MAXR];
	unflat(L->shape, v->pos, idx);
	char s[96];
	idx_str(s, sizeof s, idx, L->shape->rank);
	snprintf(buf, cap, "%s %s[%s]", L->op == T_PARAM ? "parameter" : "the shared value",
		L->src ? L->src->name : "?", s);
}

/* Two data-movement terms of the same shape, element by element (every
 * element when there are at most 4096, else 64 spread samples): 0 equal
 * (every element from the same source), 1 differ (msg), 2 cannot tell. */
static int judge_points(pairctx *P, const term *X, tid tx, const term *Y, tid ty, bool deep,
	char *msg, size_t cap)
{
	const hilo_shape *s = X->shape;
	if (s->type == HILO_T_TUPLE || s->rank > MAXR || !hilo_shape_compatible(s, Y->shape))
		return 2;
	size_t eb = (size_t)hilo_ptype_bytes(s->type);
	int64_t ne = hilo_shape_elements(s);
	if (!eb || ne <= 0)
		return ne == 0 ? 0 : 2;
	bool all = ne <= 4096, unknown = false;
	int64_t ns = all ? ne : 64;
	for (int64_t q = 0; q < ns; q++) {
		int64_t k = all ? q : (q == ns - 1 ? ne - 1 : q * (ne / ns));
		int64_t ix[MAXR], iy[MAXR], e[MAXR];
		unflat(s, k, e);
		memcpy(ix, e, (size_t)s->rank * sizeof *e);
		memcpy(iy, e, (size_t)s->rank * sizeof *e);
		pval vx, vy;
		if (!point(P, tx, ix, &vx) || !point(P, ty, iy, &vy)) {
			unknown = true;
			if (q == 0)
				return 2; /* not data movement: don't walk every element */
			continue;
		}
		bool same = vx.leaf && vy.leaf ? vx.t == vy.t && vx.pos == vy.pos
			: !vx.leaf && !vy.leaf ? elem_same(s->type, vx.data, vx.k, vy.data, vy.k, eb) : false;
		if (same)
			continue;
		bool shared_leaf = (vx.leaf && terms_get(P, vx.t)->op == T_LEAF) ||
		                   (vy.leaf && terms_get(P, vy.t)->op == T_LEAF);
		if ((vx.leaf || vy.leaf) && (!deep || shared_leaf)) {
			/* shared leaves may be related: no counterexample */
			unknown = true;
			continue;
		}
		char se[96], dx[160], dy[160], px[32], py[32];
		idx_str(se, sizeof se, e, s->rank);
		pval_str(P, &vx, s->type, dx, sizeof dx);
		pval_str(P, &vy, s->type, dy, sizeof dy);
		src_pos(px, sizeof px, X);
		src_pos(py, sizeof py, Y);
		snprintf(msg, cap, "element [%s] of %s%s / %s%s is %s before and %s after%s",
			se, src_name(X), px, src_name(Y), py, dx, dy,
			vx.leaf || vy.leaf ? ", which differ for an input where those elements differ" : "");
		return 1;
	}
	return all && !unknown ? 0 : 2;
}

void cut_judge(pairctx *P, tid tb, tid ta, bool deep, cone_result *r)
{
	memset(r, 0, sizeof *r);
	cutctx C;
	memset(&C, 0, sizeof C);
	C.P = P;
	C.deep = deep;
	hilo_ptrmap_init(&C.seen);
	bool ok = push(&C, tb, ta);
	uint32_t ncuts = 0;
	int status = 0;
	while (ok && C.sp && status != 1) {
		tid a = C.st[--C.sp], b = C.st[--C.sp];
		const term *X = terms_get(P, b), *Y = terms_get(P, a);
		if (++C.nodes > CUT_MAX_NODES) {
			ok = false;
			break;
		}
		if (head_same(P, X, Y)) {
			bool paired = false;
			if (X->n == 2 && is_commutative_op(X)) {
				/* the other operand is the same term on the other slot */
				if (X->ops[0] == Y->ops[1] && X->ops[1] != Y->ops[1]) {
					ok = push(&C, X->ops[1], Y->ops[0]);
					paired = true;
				} else if (X->ops[1] == Y->ops[0] && X->ops[0] != Y->ops[0]) {
					ok = push(&C, X->ops[0], Y->ops[1]);
					paired = true;
				} else if (heads_match(P, X->ops[0], Y->ops[1]) + heads_match(P, X->ops[1], Y->ops[0]) >
				           heads_match(P, X->ops[0], Y->ops[0]) + heads_match(P, X->ops[1], Y->ops[1])) {
					/* both differ: the operands were ordered by term id,
					 * which can swap them; pair by kind */
					ok = push(&C, X->ops[0], Y->ops[1]) && push(&C, X->ops[1], Y->ops[0]);
					paired = true;
				}
			}
			for (uint32_t k = X->n; !paired && ok && k-- > 0;)
				ok = push(&C, X->ops[k], Y->ops[k]);
			continue;
		}
		/* a cut: every one is looked at (one that differs decides) */
		ncuts++;
		char msg[700];
		int s = hilo_shape_compatible(X->shape, Y->shape) ? judge_consts(P, X, Y, msg, sizeof msg) : 2;
		if (s == 2 && hilo_shape_compatible(X->shape, Y->shape))
			s = judge_points(P, X, b, Y, a, C.deep, msg, sizeof msg);
		if (s == 1) {
			snprintf(r->msg, sizeof r->msg, "%s (the rest of the cone is the same on both sides)",
				msg);
			status = 1;
		} else if (s == 2) {
			if (!C.undecided++) {
				char px[32], py[32];
				src_pos(px, sizeof px, X);
				src_pos(py, sizeof py, Y);
				snprintf(C.first_undecided, sizeof C.first_undecided, "%s%s vs %s%s",
					src_name(X), px, src_name(Y), py);
			}
		}
	}
	if (status != 1) {
		if (!ok) {
			status = 2;
			snprintf(r->msg, sizeof r->msg, "the terms differ at %u cuts or more (stopped after "
				"%u node pairs)", ncuts, C.nodes);
		} else if (C.undecided) {
			status = 2;
			snprintf(r->msg, sizeof r->msg, "the terms differ at %u cut%s, %d undecided (first: %s)",
				ncuts, ncuts == 1 ? "" : "s", C.undecided, C.first_undecided);
		} else {
			snprintf(r->msg, sizeof r->msg, "the terms differ at %u cut%s, each equal "
				"element by element", ncuts, ncuts == 1 ? "" : "s");
		}
	}
	r->status = status;
	free(C.st);
	hilo_ptrmap_free(&C.seen);
}
