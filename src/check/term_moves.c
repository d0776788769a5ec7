/* term_moves.c - the canonical terms' data-movement constructors:
 * broadcast, slice, concatenate, static update and pad, each applying the
 * normalisations of docs/proof.md ("Canonical terms") as it interns the
 * term (broadcast of broadcast composed; canonical slice limits, slice of
 * slice / concatenate / broadcast / static update; concatenate flattened,
 * empty operands dropped, contiguous slices merged; a static update that
 * spans all dimensions but one as a concatenate; pad without interior
 * padding as concatenates of broadcast pad values and slices). Split from
 * terms.c, which builds the terms and calls these. */
#include "check_internal.h"

#include <stdlib.h>

static inline const term *TT(const pairctx *P, tid t)
{
	return terms_get(P, t);
}

static inline tid mk(pairctx *P, int op, const hilo_shape *shape, uint64_t ah, const tid *ops,
	uint32_t n, const hilo_literal *lit, const int64_t *iv, int niv)
{
	return terms_mk(P, op, shape, ah, ops, n, lit, iv, niv);
}

static inline hilo_shape *new_shape(pairctx *P, hilo_ptype type, int rank, const int64_t *dims)
{
	return terms_new_shape(P, type, rank, dims);
}

/* ---- data movement constructors ------------------------------------------ */

tid terms_broadcast(pairctx *P, tid y, const hilo_shape *shape, const int64_t *dims, int nd)
{
	if (y == TID_NONE)
		return TID_NONE;
	const term *Y = TT(P, y);
	if (Y->shape->type == HILO_T_TUPLE || nd != Y->shape->rank)
		return TID_NONE;
	bool ident = nd == shape->rank;
	for (int j = 0; ident && j < nd; j++)
		ident = dims[j] == j && Y->shape->dims[j] == shape->dims[j];
	if (ident)
		return y;
	if (Y->op == HILO_OP_BROADCAST && Y->n == 1 && Y->niv == TT(P, Y->ops[0])->shape->rank) {
		int64_t cd[HILO_MAX_RANK];
		int zr = Y->niv;
		if (zr > HILO_MAX_RANK)
			return TID_NONE;
		for (int j = 0; j < zr; j++)
			cd[j] = dims[Y->iv[j]];
		return terms_broadcast(P, Y->ops[0], shape, cd, zr);
	}
	return mk(P, HILO_OP_BROADCAST, shape, 0x62, &y, 1, NULL, dims, nd);
}

/* slice(x) with starts s, limits l, strides st (rank r). */
tid terms_slice(pairctx *P, tid x, const int64_t *s0, const int64_t *l0, const int64_t *st0,
	const hilo_shape *shape)
{
	if (x == TID_NONE)
		return TID_NONE;
	const term *X = TT(P, x);
	const hilo_shape *xs = X->shape;
	int r = xs->rank;
	if (xs->type == HILO_T_TUPLE || r > HILO_MAX_RANK)
		return TID_NONE;
	int64_t s[HILO_MAX_RANK], l[HILO_MAX_RANK], st[HILO_MAX_RANK], n[HILO_MAX_RANK];
	bool full = true;
	for (int d = 0; d < r; d++) {
		s[d] = s0[d];
		st[d] = st0[d] > 0 ? st0[d] : 1;
		int64_t span = l0[d] - s0[d];
		n[d] = span <= 0 ? 0 : (span + st[d] - 1) / st[d];
		if (n[d] <= 1)
			st[d] = 1;
		if (n[d] == 0)
			s[d] = 0;
		l[d] = n[d] ? s[d] + (n[d] - 1) * st[d] + 1 : s[d];
		if (s[d] < 0 || l[d] > xs->dims[d])
			return TID_NONE;
		full = full && s[d] == 0 && st[d] == 1 && n[d] == xs->dims[d];
	}
	if (full)
		return x; /* before a shape is made: a concatenate's whole operands */
	if (!shape)
		shape = new_shape(P, xs->type, r, n);
	if (!shape)
		return TID_NONE;
	if (X->op == HILO_OP_SLICE && X->niv == 3 * r) {
		int64_t cs[HILO_MAX_RANK], cl[HILO_MAX_RANK], cst[HILO_MAX_RANK];
		for (int d = 0; d < r; d++) {
			cs[d] = X->iv[d] + s[d] * X->iv[2 * r + d];
			cst[d] = X->iv[2 * r + d] * st[d];
			cl[d] = n[d] ? cs[d] + (n[d] - 1) * cst[d] + 1 : cs[d];
		}
		return terms_slice(P, X->ops[0], cs, cl, cst, shape);
	}
	if (X->op == HILO_OP_CONCATENATE && X->niv == 1 && n[X->iv[0]] > 0) {
		int64_t cd = X->iv[0];
		int64_t first = s[cd], last = s[cd] + (n[cd] - 1) * st[cd];
		int64_t off = 0;
		for (uint32_t k = 0; k < X->n; k++) {
			int64_t len = TT(P, X->ops[k])->shape->dims[cd];
			if (first >= off && last < off + len) {
				int64_t ls[HILO_MAX_RANK], ll[HILO_MAX_RANK];
				memcpy(ls, s, (size_t)r * sizeof *ls);
				memcpy(ll, l, (size_t)r * sizeof *ll);
				ls[cd] -= off;
				ll[cd] -= off;
				return terms_slice(P, X->ops[k], ls, ll, st, shape);
			}
			off += len;
		}
		if (st[cd] == 1) {
			/* the window spans several operands: concatenate their parts */
			tid *parts = malloc(X->n * sizeof *parts);
			if (!parts)
				return TID_NONE;
			uint32_t np = 0;
			off = 0;
			bool ok = true;
			/* whole on every other dimension: an operand inside the
			 * window is its own part (terms_slice would return it) */
			bool others = true;
			for (int d = 0; d < r; d++)
				others = others && (d == cd || (s[d] == 0 && st[d] == 1 && n[d] == xs->dims[d]));
			for (uint32_t k = 0; k < X->n && ok; k++) {
				int64_t len = TT(P, X->ops[k])->shape->dims[cd];
				int64_t lo = first > off ? first : off;
				int64_t hi = last + 1 < off + len ? last + 1 : off + len;
				if (others && lo == off && hi == off + len && len > 0) {
					parts[np++] = X->ops[k];
				} else if (lo < hi) {
					int64_t ls[HILO_MAX_RANK], ll[HILO_MAX_RANK];
					memcpy(ls, s, (size_t)r * sizeof *ls);
					memcpy(ll, l, (size_t)r * sizeof *ll);
					ls[cd] = lo - off;
					ll[cd] = hi - off;
					parts[np] = terms_slice(P, X->ops[k], ls, ll, st, NULL);
					ok = parts[np++] != TID_NONE;
				}
				off += len;
			}
			tid res = ok ? terms_concat(P, parts, np, cd, shape) : TID_NONE;
			free(parts);
			return res;
		}
	}
	if (X->op == HILO_OP_BROADCAST && X->n == 1) {
		const term *Y = TT(P, X->ops[0]);
		int yr = Y->shape->rank;
		if (X->niv == yr && yr <= HILO_MAX_RANK) {
			int64_t ys[HILO_MAX_RANK], yl[HILO_MAX_RANK], yst[HILO_MAX_RANK];
			for (int j = 0; j < yr; j++) {
				int64_t d = X->iv[j];
				ys[j] = s[d];
				yl[j] = l[d];
				yst[j] = st[d];
			}
			tid ysl = terms_slice(P, X->ops[0], ys, yl, yst, NULL);
			return terms_broadcast(P, ysl, shape, X->iv, yr);
		}
	}
	if (X->op == T_DUS && X->n == 2 && X->niv == r) {
		const term *U = TT(P, X->ops[1]);
		bool inside = true, outside = false;
		for (int d = 0; d < r; d++) {
			int64_t u0 = X->iv[d], u1 = X->iv[d] + U->shape->dims[d];
			int64_t first = s[d], last = n[d] ? s[d] + (n[d] - 1) * st[d] : s[d] - 1;
			if (!(first >= u0 && last < u1))
				inside = false;
			if (n[d] == 0 || last < u0 || first >= u1)
				outside = true;
		}
		if (outside)
			return terms_slice(P, X->ops[0], s, l, st, shape);
		if (inside) {
			int64_t us[HILO_MAX_RANK], ul[HILO_MAX_RANK];
			for (int d = 0; d < r; d++) {
				us[d] = s[d] - X->iv[d];
				ul[d] = l[d] - X->iv[d];
			}
			return terms_slice(P, X->ops[1], us, ul, st, shape);
		}
	}
	int64_t iv[3 * HILO_MAX_RANK];
	for (int d = 0; d < r; d++) {
		iv[d] = s[d];
		iv[r + d] = l[d];
		iv[2 * r + d] = st[d];
	}
	return mk(P, HILO_OP_SLICE, shape, 0x51, &x, 1, NULL, iv, 3 * r);
}

tid terms_slice_along(pairctx *P, tid x, int64_t dim, int64_t lo, int64_t hi)
{
	const hilo_shape *xs = TT(P, x)->shape;
	int64_t s[HILO_MAX_RANK], l[HILO_MAX_RANK], st[HILO_MAX_RANK];
	for (int d = 0; d < xs->rank; d++) {
		s[d] = 0;
		l[d] = xs->dims[d];
		st[d] = 1;
	}
	s[dim] = lo;
	l[dim] = hi;
	return terms_slice(P, x, s, l, st, NULL);
}

tid terms_concat(pairctx *P, const tid *ops0, uint32_t n0, int64_t dim, const hilo_shape *shape)
{
	if (!shape || shape->type == HILO_T_TUPLE || dim < 0 || dim >= shape->rank)
		return TID_NONE;
	int r = shape->rank;
	/* flatten nested concatenates on dim, drop empty operands */
	uint32_t cap = n0 + 8, n = 0;
	tid *ops = malloc(cap * sizeof *ops);
	if (!ops)
		return TID_NONE;
	tid *stack = malloc(cap * sizeof *stack);
	uint32_t sp = 0, scap = cap;
	bool ok = stack != NULL;
	for (uint32_t k = n0; ok && k-- > 0;)
		stack[sp++] = ops0[k];
	while (ok && sp) {
		tid t = stack[--sp];
		if (t == TID_NONE) {
			ok = false;
			break;
		}
		const term *X = TT(P, t);
		if (X->op == HILO_OP_CONCATENATE && X->niv == 1 && X->iv[0] == dim) {
			if (sp + X->n > scap) {
				scap = (sp + X->n) * 2;
				tid *ns = realloc(stack, scap * sizeof *ns);
				if (!ns) {
					ok = false;
					break;
				}
				stack = ns;
			}
			for (uint32_t k = X->n; k-- > 0;)
				stack[sp++] = TT(P, t)->ops[k];
			continue;
		}
		if (X->shape->rank != r || X->shape->dims[dim] == 0)
			continue;
		/* merge with the previous operand when both are contiguous slices
		 * of one value (same window elsewhere, unit stride on dim) */
		if (n > 0) {
			const term *A = TT(P, ops[n - 1]);
			if (A->op == HILO_OP_SLICE && X->op == HILO_OP_SLICE && A->ops[0] == X->ops[0] &&
			    A->niv == 3 * r && X->niv == 3 * r && A->iv[2 * r + dim] == 1 &&
			    X->iv[2 * r + dim] == 1 && A->iv[r + dim] == X->iv[dim]) {
				bool same = true;
				for (int d = 0; d < r && same; d++)
					if (d != dim)
						same = A->iv[d] == X->iv[d] && A->iv[r + d] == X->iv[r + d] &&
						       A->iv[2 * r + d] == X->iv[2 * r + d];
				if (same) {
					int64_t s[HILO_MAX_RANK], l[HILO_MAX_RANK], st[HILO_MAX_RANK];
					for (int d = 0; d < r; d++) {
						s[d] = A->iv[d];
						l[d] = d == dim ? X->iv[r + d] : A->iv[r + d];
						st[d] = A->iv[2 * r + d];
					}
					tid m = terms_slice(P, A->ops[0], s, l, st, NULL);
					if (m == TID_NONE) {
						ok = false;
						break;
					}
					n--;
					/* the merged value may itself merge or flatten */
					if (sp + 1 > scap) {
						scap = (sp + 1) * 2;
						tid *ns = realloc(stack, scap * sizeof *ns);
						if (!ns) {
							ok = false;
							break;
						}
						stack = ns;
					}
					stack[sp++] = m;
					continue;
				}
			}
		}
		/* adjacent broadcasts of one scalar are one broadcast */
		if (n > 0) {
			const term *A = TT(P, ops[n - 1]);
			if (A->op == HILO_OP_BROADCAST && X->op == HILO_OP_BROADCAST && A->niv == 0 &&
			    X->niv == 0 && A->ops[0] == X->ops[0]) {
				int64_t dims[HILO_MAX_RANK];
				memcpy(dims, A->shape->dims, (size_t)r * sizeof *dims);
				dims[dim] += X->shape->dims[dim];
				tid m = terms_broadcast(P, A->ops[0], new_shape(P, A->shape->type, r, dims), NULL, 0);
				if (m == TID_NONE) {
					ok = false;
					break;
				}
				ops[n - 1] = m;
				continue;
			}
		}
		if (n == cap) {
			cap *= 2;
			tid *no = realloc(ops, cap * sizeof *no);
			if (!no) {
				ok = false;
				break;
			}
			ops = no;
		}
		ops[n++] = t;
	}
	free(stack);
	tid res = TID_NONE;
	if (ok) {
		if (n == 1 && hilo_shape_compatible(TT(P, ops[0])->shape, shape))
			res = ops[0];
		else if (n > 0)
			res = mk(P, HILO_OP_CONCATENATE, shape, 0xc0, ops, n, NULL, &dim, 1);
	}
	free(ops);
	return res;
}

/* dynamic-update-slice at in-range static starts. */
tid terms_dus(pairctx *P, tid base, tid upd, const int64_t *starts, const hilo_shape *shape)
{
	if (base == TID_NONE || upd == TID_NONE)
		return TID_NONE;
	const hilo_shape *bs = TT(P, base)->shape, *us = TT(P, upd)->shape;
	int r = bs->rank, partial = -1, npartial = 0;
	if (us->rank != r)
		return TID_NONE;
	for (int d = 0; d < r; d++)
		if (us->dims[d] != bs->dims[d]) {
			partial = d;
			npartial++;
		}
	if (npartial == 0)
		return upd;
	if (npartial == 1) {
		int64_t s = starts[partial], u = us->dims[partial], D = bs->dims[partial];
		tid parts[3];
		uint32_t np = 0;
		if (s > 0)
			parts[np++] = terms_slice_along(P, base, partial, 0, s);
		parts[np++] = upd;
		if (s + u < D)
			parts[np++] = terms_slice_along(P, base, partial, s + u, D);
		return terms_concat(P, parts, np, partial, shape);
	}
	tid ops[2] = {base, upd};
	return mk(P, T_DUS, shape, 0xd5, ops, 2, NULL, starts, r);
}

/* pad without interior padding as concatenates and slices. */
tid terms_pad(pairctx *P, tid x, tid v, const int64_t *pad, int r, const hilo_shape *shape)
{
	tid t = x;
	for (int d = 0; d < r && t != TID_NONE; d++) {
		int64_t lo = pad[3 * d], hi = pad[3 * d + 1];
		if (pad[3 * d + 2] != 0)
			return TID_NONE;
		const hilo_shape *ts = TT(P, t)->shape;
		if (lo < 0)
			t = terms_slice_along(P, t, d, -lo, ts->dims[d]);
		ts = TT(P, t)->shape;
		if (hi < 0)
			t = terms_slice_along(P, t, d, 0, ts->dims[d] + hi);
		if (t == TID_NONE || (lo <= 0 && hi <= 0))
			continue;
		ts = TT(P, t)->shape;
		int64_t dims[HILO_MAX_RANK];
		memcpy(dims, ts->dims, (size_t)r * sizeof *dims);
		tid parts[3];
		uint32_t np = 0;
		if (lo > 0) {
			dims[d] = lo;
			parts[np++] = terms_broadcast(P, v, new_shape(P, ts->type, r, dims), NULL, 0);
		}
		parts[np++] = t;
		if (hi > 0) {
			dims[d] = hi;
			parts[np++] = terms_broadcast(P, v, new_shape(P, ts->type, r, dims), NULL, 0);
		}
		memcpy(dims, ts->dims, (size_t)r * sizeof *dims);
		dims[d] += (lo > 0 ? lo : 0) + (hi > 0 ? hi : 0);
		t = terms_concat(P, parts, np, d, d == r - 1 ? shape : new_shape(P, ts->type, r, dims));
	}
	return t;
}
