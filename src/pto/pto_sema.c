/* pto_sema.c - semantic queries over the PTO IR (see pto_sema.h).
 *
 * Includes ReplayInvariantSet, the one analysis legalize-graph-boundary and
 * verify-graph-boundary share. A value is replay-invariant when it is the
 * same on every call of the Graph, so freezing it into the recording is
 * correct:
 *   - a literal;
 *   - the induction variable of a loop with constant start/stop/step
 *     (recording walks the same sequence on every call);
 *   - pl.tensor.dim(t, <literal>) of a boundary tensor parameter or a bare
 *     alias of one (the runtime rejects a replay whose boundary shapes
 *     differ from the recorded signature);
 * closed under scalar arithmetic and names bound to an invariant value.
 * Scalar parameters are deliberately not invariant: replay patches them.
 */
#include "pto/pto_sema.h"

#include <stdio.h>
#include <string.h>

/* ---- pointer map ----------------------------------------------------- */

static size_t hash_ptr(const void *p)
{
	uintptr_t x = (uintptr_t)p;
	x ^= x >> 17;
	x *= 0xed5ad4bbU;
	x ^= x >> 11;
	return (size_t)x;
}

void pto_map_init(pto_map *m, hilo_arena *a)
{
	memset(m, 0, sizeof *m);
	m->arena = a;
}

void pto_map_init_scratch(pto_map *m, hilo_arena *a)
{
	pto_map_init(m, a);
	m->heap = true;
}

pto_map *pto_map_new(hilo_arena *a)
{
	pto_map *m = hilo_heap_alloc(a, sizeof *m);
	if (!m)
		pto_oom(a);
	pto_map_init_scratch(m, a);
	return m;
}

void pto_map_free(pto_map *m)
{
	if (!m)
		return;
	hilo_heap_free(m->arena, (void *)m->keys); /* keys and values: one block */
	hilo_heap_free(m->arena, m);
}

static void map_rehash(pto_map *m, size_t ncap)
{
	const void **nk;
	void **nv;
	if (m->heap) {
		nk = hilo_heap_alloc(m->arena, ncap * (sizeof *nk + sizeof *nv));
		nv = nk ? (void **)(void *)(nk + ncap) : NULL;
	} else {
		nk = hilo_arena_alloc(m->arena, ncap * sizeof *nk);
		nv = hilo_arena_alloc(m->arena, ncap * sizeof *nv);
	}
	if (!nk || !nv)
		pto_oom(m->arena);
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t h = hash_ptr(m->keys[i]) & (ncap - 1);
		while (nk[h])
			h = (h + 1) & (ncap - 1);
		nk[h] = m->keys[i];
		nv[h] = m->vals[i];
	}
	if (m->heap)
		hilo_heap_free(m->arena, (void *)m->keys);
	m->keys = nk;
	m->vals = nv;
	m->cap = ncap;
	m->room = ncap / 4 * 3; /* load factor 3/4: memory is the bulk cost */
}

static void map_grow(pto_map *m)
{
	map_rehash(m, m->cap ? m->cap * 2 : 16);
}

/* Room for n keys without regrowth: an arena never takes back the arrays
 * a growth abandons, so a table sized up front costs half. A table sized
 * for its final count may fill to 7/8 (a 100k-name function fits 2^17
 * slots instead of 2^18); n is an upper bound, so the load is usually
 * lower. */
void pto_map_reserve(pto_map *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 16;
	while (n * 8 > cap * 7)
		cap *= 2;
	if (cap != m->cap)
		map_rehash(m, cap);
	if (n > m->room)
		m->room = n;
}

void pto_map_clear(pto_map *m)
{
	if (m->cap)
		memset((void *)m->keys, 0, m->cap * sizeof *m->keys);
	m->n = 0;
}

void pto_map_put(pto_map *m, const void *key, void *val)
{
	if (m->n + 1 > m->room)
		map_grow(m);
	size_t h = hash_ptr(key) & (m->cap - 1);
	while (m->keys[h] && m->keys[h] != key)
		h = (h + 1) & (m->cap - 1);
	if (!m->keys[h])
		m->n++;
	m->keys[h] = key;
	m->vals[h] = val;
}

void *pto_map_get(const pto_map *m, const void *key)
{
	if (!m->cap || !key)
		return NULL;
	size_t h = hash_ptr(key) & (m->cap - 1);
	while (m->keys[h]) {
		if (m->keys[h] == key)
			return m->vals[h];
		h = (h + 1) & (m->cap - 1);
	}
	return NULL;
}

bool pto_map_has(const pto_map *m, const void *key)
{
	if (!m->cap || !key)
		return false;
	size_t h = hash_ptr(key) & (m->cap - 1);
	while (m->keys[h]) {
		if (m->keys[h] == key)
			return true;
		h = (h + 1) & (m->cap - 1);
	}
	return false;
}

/* ---- types ------------------------------------------------------------ */

static const char *head_name(const pto_expr *t)
{
	if (!t)
		return "";
	if (t->kind == PTO_E_SUB)
		t = pto_expr_base(t);
	if (t->kind == PTO_E_ATTR || t->kind == PTO_E_NAME)
		return t->name;
	return "";
}

const pto_expr *pto_type_unwrap(const pto_expr *t, pto_dir *dir)
{
	if (dir)
		*dir = PTO_DIR_IN;
	if (t && t->kind == PTO_E_SUB && pto_expr_nitems(t) == 1) {
		const char *h = head_name(t);
		if (!strcmp(h, "InOut")) {
			if (dir)
				*dir = PTO_DIR_INOUT;
			return t->items[0];
		}
		if (!strcmp(h, "Out")) {
			if (dir)
				*dir = PTO_DIR_OUT;
			return t->items[0];
		}
		if (!strcmp(h, "In"))
			return t->items[0];
	}
	return t;
}

bool pto_type_is_scalar(const pto_expr *t)
{
	return t && !strcmp(head_name(pto_type_unwrap(t, NULL)), "Scalar");
}

bool pto_type_is_tensor(const pto_expr *t)
{
	return t && !strcmp(head_name(pto_type_unwrap(t, NULL)), "Tensor");
}

const char *pto_type_dtype(const pto_expr *t)
{
	t = pto_type_unwrap(t, NULL);
	if (!t || t->kind != PTO_E_SUB || !pto_expr_nitems(t))
		return NULL;
	const pto_expr *d = t->items[pto_expr_nitems(t) - 1];
	return d->kind == PTO_E_ATTR || d->kind == PTO_E_NAME ? d->name : NULL;
}

pto_expr *const *pto_type_shape(const pto_expr *t, size_t *n)
{
	t = pto_type_unwrap(t, NULL);
	*n = 0;
	if (!pto_type_is_tensor(t) || t->kind != PTO_E_SUB || !pto_expr_nitems(t) || t->items[0]->kind != PTO_E_LIST)
		return NULL;
	*n = pto_expr_nitems(t->items[0]);
	return t->items[0]->items;
}

/* ---- variables -------------------------------------------------------- */

pto_func *pto_find_func(hilo_pto_program *p, const char *name)
{
	return p->func_by_name ? pto_map_get(p->func_by_name, name) : NULL;
}

/* ---- variable table ------------------------------------------------- */

static size_t vars_index_of(const pto_vartab *t, uint32_t slot)
{
	return slot - 1 < t->cap_pool ? slot - 1 : t->npool + (slot - 1 - t->cap_pool);
}

size_t pto_vars_index(const pto_vartab *t, const char *name)
{
	if (!t->cap || !name)
		return PTO_NO_VAR;
	for (size_t h = hash_ptr(name) & (t->cap - 1); t->slots[h]; h = (h + 1) & (t->cap - 1)) {
		size_t i = vars_index_of(t, t->slots[h]);
		if (pto_vars_at(t, i)->name == name)
			return i;
	}
	return PTO_NO_VAR;
}

pto_var *pto_vars_get(const pto_vartab *t, const char *name)
{
	size_t i = pto_vars_index(t, name);
	return i == PTO_NO_VAR ? NULL : pto_vars_at(t, i);
}

pto_stmt *pto_var_parent(const pto_vartab *t, const pto_var *v)
{
	return t->parents ? pto_map_get(t->parents, v) : NULL;
}

static void vars_insert(pto_vartab *t, const char *name, uint32_t slot)
{
	size_t h = hash_ptr(name) & (t->cap - 1);
	while (t->slots[h])
		h = (h + 1) & (t->cap - 1);
	t->slots[h] = slot;
}

/* Slots for n names at a load of at most 7/8 (a power of two, at least 4). */
static size_t vars_slot_cap(size_t n)
{
	size_t cap = 4;
	while (n * 8 > cap * 7)
		cap *= 2;
	return cap;
}

/* Rebuilds the slots in a block of their own, for n names. */
static void vars_rehash(pto_vartab *t, size_t n)
{
	size_t cap = vars_slot_cap(n);
	if (cap <= t->cap)
		return;
	uint32_t *old = t->slots;
	size_t ocap = t->cap;
	uint32_t *ns = hilo_heap_alloc(t->arena, cap * sizeof *ns);
	if (!ns)
		pto_oom(t->arena);
	t->slots = ns;
	t->cap = (uint32_t)cap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i])
			vars_insert(t, pto_vars_at(t, vars_index_of(t, old[i]))->name, old[i]);
	if (t->slots_own)
		hilo_heap_free(t->arena, old);
	t->slots_own = true;
}

/* Indexes v, the next pool entry (in_pool) or a new extra variable. */
static void vars_add(pto_vartab *t, pto_var *v, bool in_pool)
{
	if ((t->n + 1) * (size_t)8 > t->cap * (size_t)7)
		vars_rehash(t, t->cap); /* doubles */
	uint32_t slot;
	if (in_pool) {
		slot = (uint32_t)(v - t->pool) + 1;
	} else {
		if (t->nextra == t->cap_extra) {
			size_t nc = t->cap_extra ? (size_t)t->cap_extra * 2 : 8;
			pto_var **ne = hilo_heap_realloc(t->arena, t->extra, nc * sizeof *ne);
			if (!ne)
				pto_oom(t->arena);
			t->extra = ne;
			t->cap_extra = (uint32_t)nc;
		}
		t->extra[t->nextra++] = v;
		slot = t->cap_pool + t->nextra;
	}
	vars_insert(t, v->name, slot);
	t->n++;
}

static pto_var *vars_new(pto_vartab *t, const char *name, pto_var_kind k)
{
	pto_var *v;
	bool in_pool = t->npool < t->cap_pool;
	if (in_pool) {
		v = &t->pool[t->npool++];
	} else { /* beyond the estimate: names a pass reserves */
		/* slots are 32-bit: 1 + cap_pool + nextra must fit */
		if ((size_t)t->cap_pool + t->nextra + 2 >= UINT32_MAX / 2)
			pto_oom(t->arena);
		v = hilo_heap_alloc(t->arena, sizeof *v);
		if (!v)
			pto_oom(t->arena);
	}
	v->name = name;
	v->kind = k;
	vars_add(t, v, in_pool);
	return v;
}

pto_var *pto_vars_add(pto_vartab *t, const char *name, pto_var_kind k)
{
	return vars_new(t, name, k);
}

static pto_var *new_var(pto_fctx *c, const char *name, pto_var_kind k)
{
	return vars_new(c->vars, name, k);
}

void pto_var_set_ann(pto_var *v, const pto_expr *ann)
{
	pto_dir dir;
	const pto_expr *type = pto_type_unwrap(ann, &dir);
	v->dir = dir;
	v->ann_scalar = pto_type_is_scalar(type);
	v->ann_tensor = pto_type_is_tensor(type);
	const char *dt = pto_type_dtype(type);
	v->ann_task_dtype = dt && !strcmp(dt, "TASK_ID");
}

/* The type bits an annotation gives (the ann_* bits, set_ann or copied
 * from an alias's source). */
static void type_from_ann(pto_var *v)
{
	v->scalar = v->ann_scalar;
	v->tensor = v->ann_tensor;
	v->task_id = v->ann_scalar && v->ann_task_dtype;
}

/* v, bound without an annotation to src (an alias, an iter arg's initial
 * value), takes src's annotation type. */
static void copy_ann_type(pto_var *v, const pto_var *src)
{
	v->dir = src->dir;
	v->ann_scalar = src->ann_scalar;
	v->ann_tensor = src->ann_tensor;
	v->ann_task_dtype = src->ann_task_dtype;
	type_from_ann(v);
}

static void set_type(pto_var *v, const pto_expr *ann)
{
	pto_var_set_ann(v, ann);
	type_from_ann(v);
}

/* pl.yield_(...): a loop's or branch's result. */
static bool is_yield(const pto_expr *v)
{
	return v && v->kind == PTO_E_CALL && pto_expr_base(v)->kind == PTO_E_ATTR && !strcmp(pto_expr_base(v)->name, "yield_") &&
		pto_expr_base(v->base)->kind == PTO_E_NAME && !strcmp(pto_expr_base(v->base)->name, "pl");
}

static void vars_set_parent(pto_vartab *t, const pto_var *v, pto_stmt *parent)
{
	if (!t->parents)
		t->parents = pto_map_new(t->arena);
	pto_map_put(t->parents, v, parent);
}

static void collect_vars(pto_fctx *c, pto_block *b, pto_stmt *parent)
{
	for (size_t i = 0; i < b->n; i++) {
		pto_stmt *s = b->stmts[i];
		switch (s->kind) {
		case PTO_S_ASSIGN:
			if (s->target->kind == PTO_E_NAME) {
				pto_var *v = pto_vars_get(c->vars, s->target->name);
				if (!v)
					v = new_var(c, s->target->name, PTO_V_LOCAL);
				if (v->ndefs < 3)
					v->ndefs++;
				if (!v->def && v->kind != PTO_V_PARAM) { /* first definition wins (if/else phis repeat) */
					v->def = s;
					if (parent && is_yield(s->value))
						vars_set_parent(c->vars, v, parent);
					if (s->ann)
						set_type(v, s->ann);
					else if (s->value->kind == PTO_E_NAME) {
						pto_var *src = pto_vars_get(c->vars, s->value->name);
						if (src)
							copy_ann_type(v, src);
					} else if (s->value->kind == PTO_E_INT || s->value->kind == PTO_E_FLOAT ||
						   s->value->kind == PTO_E_BIN || s->value->kind == PTO_E_UNARY ||
						   pto_scalar_intrinsic(s->value)) {
						v->scalar = true;
					}
				}
			} else if (s->target->kind == PTO_E_TUPLE) {
				for (size_t k = 0; k < pto_expr_nitems(s->target); k++)
					if (s->target->items[k]->kind == PTO_E_NAME &&
					    !pto_vars_get(c->vars, s->target->items[k]->name)) {
						pto_var *v = new_var(c, s->target->items[k]->name, PTO_V_LOCAL);
						v->def = s;
					}
			}
			break;
		case PTO_S_FOR: {
			pto_expr *t = s->target;
			pto_expr *lv = t, *iters = NULL;
			if (t->kind == PTO_E_TUPLE && pto_expr_nitems(t) >= 1) {
				lv = t->items[0];
				if (pto_expr_nitems(t) == 2 && t->items[1]->kind == PTO_E_TUPLE)
					iters = t->items[1];
			}
			if (lv->kind == PTO_E_NAME) {
				pto_var *v = new_var(c, lv->name, PTO_V_LOOPVAR);
				v->def = s;
				v->scalar = true;
			}
			for (size_t k = 0; iters && k < pto_expr_nitems(iters); k++) {
				if (iters->items[k]->kind != PTO_E_NAME)
					continue;
				pto_var *v = new_var(c, iters->items[k]->name, PTO_V_ITERARG);
				v->def = s;
				v->index = (uint32_t)k;
				/* type of the matching init value */
				pto_call rc;
				if (pto_call_decode(c->p, s->value, &rc) && rc.e) {
					for (size_t q = 0; q < rc.e->nkw; q++)
						if (!strcmp(rc.e->kwnames[q], "init_values") &&
						    rc.e->kwvals[q]->kind == PTO_E_TUPLE && k < pto_expr_nitems(rc.e->kwvals[q])) {
							pto_var *iv = pto_lookup(c, rc.e->kwvals[q]->items[k]);
							if (iv)
								copy_ann_type(v, iv);
						}
				}
			}
			collect_vars(c, &s->body, s);
			break;
		}
		case PTO_S_WITH:
			if (s->target && s->target->kind == PTO_E_NAME)
				new_var(c, s->target->name, PTO_V_LOCAL)->def = s;
			collect_vars(c, &s->body, s);
			break;
		case PTO_S_WHILE:
			collect_vars(c, &s->body, s);
			break;
		case PTO_S_IF:
			collect_vars(c, &s->body, s);
			collect_vars(c, &s->orelse, s);
			break;
		default:
			break;
		}
	}
}

void pto_program_drop_caches(hilo_pto_program *p)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		pto_func_invalidate(p->funcs[i]);
}

void pto_func_invalidate(pto_func *f)
{
	pto_vartab *t = f->sema_vars;
	if (!t)
		return;
	f->sema_vars = NULL;
	hilo_arena *a = t->arena;
	for (size_t i = 0; i < t->nextra; i++)
		hilo_heap_free(a, t->extra[i]);
	hilo_heap_free(a, t->extra);
	if (t->slots_own)
		hilo_heap_free(a, t->slots);
	pto_map_free(t->parents);
	hilo_heap_free(a, t);
}

/* The names collect_vars can add for a body: an upper bound on its
 * variables (a name bound twice is counted twice), so the pool is sized
 * once and exactly enough for a program without repeats. */
static size_t count_binds(const pto_block *b)
{
	size_t n = 0;
	for (size_t i = 0; i < b->n; i++) {
		const pto_stmt *s = b->stmts[i];
		const pto_expr *t = s->target;
		switch (s->kind) {
		case PTO_S_ASSIGN:
			if (t->kind == PTO_E_NAME)
				n++;
			for (size_t k = 0; t->kind == PTO_E_TUPLE && k < pto_expr_nitems(t); k++)
				n += t->items[k]->kind == PTO_E_NAME;
			break;
		case PTO_S_FOR: {
			const pto_expr *lv = t, *iters = NULL;
			if (t->kind == PTO_E_TUPLE && pto_expr_nitems(t) >= 1) {
				lv = t->items[0];
				if (pto_expr_nitems(t) == 2 && t->items[1]->kind == PTO_E_TUPLE)
					iters = t->items[1];
			}
			n += lv->kind == PTO_E_NAME;
			for (size_t k = 0; iters && k < pto_expr_nitems(iters); k++)
				n += iters->items[k]->kind == PTO_E_NAME;
			n += count_binds(&s->body);
			break;
		}
		case PTO_S_WITH:
			n += (t && t->kind == PTO_E_NAME) + count_binds(&s->body);
			break;
		case PTO_S_WHILE:
			n += count_binds(&s->body);
			break;
		case PTO_S_IF:
			n += count_binds(&s->body) + count_binds(&s->orelse);
			break;
		default:
			break;
		}
	}
	return n;
}

void pto_fctx_init(pto_fctx *c, hilo_pto_program *p, pto_func *f)
{
	c->p = p;
	c->f = f;
	c->vars = f->sema_vars;
	if (c->vars)
		return;
	/* One block: the header, the pool sized by the names the body can
	 * bind, the slots for them. */
	size_t nvars = f->nparams + count_binds(&f->body);
	if (nvars >= UINT32_MAX / 4)
		pto_oom(p->arena); /* slots are 32-bit */
	size_t cap = vars_slot_cap(nvars);
	size_t pool_at = (sizeof(pto_vartab) + _Alignof(pto_var) - 1) / _Alignof(pto_var) * _Alignof(pto_var);
	size_t slots_at = pool_at + nvars * sizeof(pto_var);
	pto_vartab *t = hilo_heap_alloc(p->arena, slots_at + cap * sizeof(uint32_t));
	if (!t)
		pto_oom(p->arena);
	t->arena = p->arena;
	t->pool = (pto_var *)(void *)((char *)t + pool_at);
	t->cap_pool = (uint32_t)nvars;
	t->slots = (uint32_t *)(void *)((char *)t + slots_at);
	t->cap = (uint32_t)cap;
	c->vars = f->sema_vars = t;
	for (size_t i = 0; i < f->nparams; i++) {
		pto_var *v = new_var(c, f->params[i].name, PTO_V_PARAM);
		v->index = (uint32_t)i;
		set_type(v, f->params[i].ann);
	}
	collect_vars(c, &f->body, NULL);
}

pto_var *pto_lookup(const pto_fctx *c, const pto_expr *e)
{
	if (!e || e->kind != PTO_E_NAME)
		return NULL;
	return pto_vars_get(c->vars, e->name);
}

/* ---- calls ------------------------------------------------------------ */

static bool attr_path(const pto_expr *e, char *buf, size_t n)
{
	/* pl.a.b -> "a.b"; anything not rooted at the name pl -> false */
	const pto_expr *chain[16];
	size_t k = 0;
	while (e->kind == PTO_E_ATTR && k < 16) {
		chain[k++] = e;
		e = pto_expr_base(e);
	}
	if (e->kind != PTO_E_NAME || strcmp(e->name, "pl") || k == 0 || k == 16)
		return false;
	size_t len = 0;
	while (k--) {
		size_t w = strlen(chain[k]->name);
		if (len + w + 2 > n)
			return false;
		if (len)
			buf[len++] = '.';
		memcpy(buf + len, chain[k]->name, w);
		len += w;
	}
	buf[len] = 0;
	return true;
}

static pto_expr *kwarg(const pto_expr *e, const char *name)
{
	for (size_t i = 0; i < e->nkw; i++)
		if (!strcmp(e->kwnames[i], name))
			return e->kwvals[i];
	return NULL;
}

static const char *self_method(const pto_expr *e)
{
	if (e->kind == PTO_E_ATTR && pto_expr_base(e)->kind == PTO_E_NAME && !strcmp(pto_expr_base(e)->name, "self"))
		return e->name;
	return NULL;
}

bool pto_call_decode(hilo_pto_program *p, pto_expr *e, pto_call *out)
{
	memset(out, 0, sizeof *out);
	if (!e || e->kind != PTO_E_CALL)
		return false;
	out->e = e;
	out->args = e->items;
	out->nargs = pto_expr_nitems(e);
	out->deps = kwarg(e, "deps");
	out->core_num = kwarg(e, "core_num");
	out->predicate = kwarg(e, "predicate");
	out->attrs = kwarg(e, "attrs");
	const char *m = self_method(pto_expr_base(e));
	if (m) {
		out->kind = PTO_C_FUNC;
		out->callee_name = m;
		out->callee = pto_find_func(p, m);
		return true;
	}
	if (attr_path(pto_expr_base(e), out->op, sizeof out->op)) {
		if ((!strcmp(out->op, "submit") || !strcmp(out->op, "spmd_submit")) && pto_expr_nitems(e) >= 1 &&
		    self_method(e->items[0])) {
			out->kind = PTO_C_SUBMIT;
			out->callee_name = self_method(e->items[0]);
			out->callee = pto_find_func(p, out->callee_name);
			out->args = e->items + 1;
			out->nargs = pto_expr_nitems(e) - 1;
			return true;
		}
		out->kind = PTO_C_OP;
		return true;
	}
	out->kind = PTO_C_OTHER;
	return true;
}

bool pto_call_is_op(const pto_call *c, const char *op)
{
	return c->kind == PTO_C_OP && !strcmp(c->op, op);
}

bool pto_call_is_structural(const pto_call *c)
{
	static const char *const ops[] = { "yield_", "range", "parallel", "unroll", "pipeline", "while_",
		"at", "scope", "spmd", "incore", "auto_incore", "cluster", "manual_scope", NULL };
	if (c->kind != PTO_C_OP)
		return false;
	for (int i = 0; ops[i]; i++)
		if (!strcmp(c->op, ops[i]))
			return true;
	return false;
}

const pto_expr *pto_call_core_num(const pto_call *c)
{
	if (c->core_num)
		return c->core_num;
	if (c->attrs && c->attrs->kind == PTO_E_DICT) {
		for (size_t i = 0; i < pto_expr_nitems(c->attrs); i++) {
			const pto_expr *k = c->attrs->keys[i];
			if (k->kind == PTO_E_STR && strlen(k->text) == 10 && !strncmp(k->text + 1, "core_num", 8))
				return c->attrs->items[i];
		}
	}
	if (c->callee) {
		for (size_t i = 0; i < c->callee->ndecos; i++)
			if (c->callee->decos[i]->kind == PTO_E_CALL) {
				const pto_expr *v = kwarg(c->callee->decos[i], "core_num");
				if (v)
					return v;
			}
	}
	return NULL;
}

void pto_walk_calls(hilo_pto_program *p, pto_expr *e, pto_call_fn fn, void *ud)
{
	if (!e)
		return;
	switch (e->kind) {
	case PTO_E_ATTR:
	case PTO_E_NAME:
	case PTO_E_INT:
	case PTO_E_FLOAT:
	case PTO_E_STR:
	case PTO_E_ELLIPSIS:
		return;
	default:
		break;
	}
	if (e->kind != PTO_E_CALL)
		pto_walk_calls(p, pto_expr_base(e), fn, ud);
	pto_walk_calls(p, pto_expr_rhs(e), fn, ud);
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		pto_walk_calls(p, e->items[i], fn, ud);
	for (size_t i = 0; i < e->nkw; i++)
		pto_walk_calls(p, e->kwvals[i], fn, ud);
	if (e->kind == PTO_E_CALL) {
		pto_call c;
		pto_call_decode(p, e, &c);
		if (!pto_call_is_structural(&c))
			fn(ud, &c);
	}
}

void pto_stmt_walk_calls(hilo_pto_program *p, pto_stmt *s, pto_call_fn fn, void *ud)
{
	switch (s->kind) {
	case PTO_S_ASSIGN:
	case PTO_S_EXPR:
	case PTO_S_RETURN:
	case PTO_S_FOR:
	case PTO_S_WHILE:
	case PTO_S_IF:
	case PTO_S_WITH:
		pto_walk_calls(p, s->value, fn, ud);
		break;
	default:
		break;
	}
}

/* ---- misc ------------------------------------------------------------- */

size_t pto_scalar_intrinsic(const pto_expr *e)
{
	if (!e || e->kind != PTO_E_CALL || e->nkw)
		return 0;
	const pto_expr *f = pto_expr_base(e);
	if (f->kind == PTO_E_NAME)
		return !strcmp(f->name, "abs") && pto_expr_nitems(e) == 1 ? 1 : 0;
	if (f->kind != PTO_E_ATTR || pto_expr_base(f)->kind != PTO_E_NAME || strcmp(pto_expr_base(f)->name, "pl") || pto_expr_nitems(e) != 2)
		return 0;
	if (!strcmp(f->name, "min") || !strcmp(f->name, "max"))
		return 2;
	if (!strcmp(f->name, "cast")) /* pl.cast(x, pl.DTYPE): the dtype is not an operand */
		return e->items[1]->kind == PTO_E_ATTR ? 1 : 0;
	return 0;
}

/* Decimal literal (underscores allowed) -> value; false on overflow. */
static bool int_value(const char *t, int64_t *v)
{
	uint64_t x = 0;
	bool any = false;
	for (; *t; t++) {
		if (*t == '_')
			continue;
		if (*t < '0' || *t > '9')
			return false;
		if (x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*t - '0');
		any = true;
	}
	if (!any || x > INT64_MAX)
		return false;
	*v = (int64_t)x;
	return true;
}

bool pto_const_int(const pto_expr *e, int64_t *v)
{
	if (!e)
		return false;
	if (e->kind == PTO_E_INT)
		return int_value(pto_expr_text(e), v);
	if (e->kind == PTO_E_UNARY && !strcmp(e->op, "-") && pto_expr_base(e)->kind == PTO_E_INT &&
	    int_value(pto_expr_text(pto_expr_base(e)), v) && *v != INT64_MIN) {
		*v = -*v;
		return true;
	}
	if (e->kind == PTO_E_PAREN)
		return pto_const_int(pto_expr_base(e), v);
	return false;
}

bool pto_is_literal(const pto_expr *e)
{
	if (!e)
		return false;
	switch (e->kind) {
	case PTO_E_INT:
	case PTO_E_FLOAT:
		return true;
	case PTO_E_NAME:
		return !strcmp(e->name, "True") || !strcmp(e->name, "False");
	case PTO_E_BIN:
		return pto_is_literal(pto_expr_base(e)) && pto_is_literal(pto_expr_rhs(e));
	case PTO_E_UNARY:
	case PTO_E_PAREN:
		return pto_is_literal(pto_expr_base(e));
	case PTO_E_CALL: {
		size_t n = pto_scalar_intrinsic(e);
		for (size_t i = 0; i < n; i++)
			if (!pto_is_literal(e->items[i]))
				return false;
		return n > 0;
	}
	default:
		return false;
	}
}

bool pto_trip_count(const pto_stmt *s, uint64_t *trips)
{
	if (s->kind != PTO_S_FOR || !s->value || s->value->kind != PTO_E_CALL)
		return false;
	const pto_expr *c = s->value;
	int64_t a[3] = { 0, 0, 1 };
	if (pto_expr_nitems(c) == 1) {
		if (!pto_const_int(c->items[0], &a[1]))
			return false;
	} else if (pto_expr_nitems(c) == 2 || pto_expr_nitems(c) == 3) {
		for (size_t i = 0; i < pto_expr_nitems(c); i++)
			if (!pto_const_int(c->items[i], &a[i]))
				return false;
	} else {
		return false;
	}
	int64_t start = a[0], stop = a[1], step = a[2];
	if (step == 0)
		return false;
	if (step > 0 ? stop <= start : stop >= start) {
		*trips = 0;
		return true;
	}
	uint64_t dist = step > 0 ? (uint64_t)stop - (uint64_t)start : (uint64_t)start - (uint64_t)stop;
	uint64_t stride = step > 0 ? (uint64_t)step : (uint64_t)0 - (uint64_t)step;
	*trips = dist / stride + (dist % stride != 0);
	return true;
}

bool pto_expr_refs(const pto_expr *e, const pto_map *names)
{
	if (!e)
		return false;
	if (e->kind == PTO_E_NAME)
		return pto_map_has(names, e->name);
	if (e->kind == PTO_E_BIN)
		return pto_expr_refs(pto_expr_base(e), names) || pto_expr_refs(pto_expr_rhs(e), names);
	if (e->kind == PTO_E_UNARY || e->kind == PTO_E_PAREN)
		return pto_expr_refs(pto_expr_base(e), names);
	size_t n = pto_scalar_intrinsic(e);
	for (size_t i = 0; i < n; i++)
		if (pto_expr_refs(e->items[i], names))
			return true;
	return false;
}

pto_stmt *pto_first_return(const pto_block *b)
{
	for (size_t i = 0; i < b->n; i++) {
		pto_stmt *s = b->stmts[i];
		if (s->kind == PTO_S_RETURN)
			return s;
		pto_stmt *r = pto_stmt_has_body(s->kind) ? pto_first_return(&s->body) : NULL;
		if (!r && s->kind == PTO_S_IF)
			r = pto_first_return(&s->orelse);
		if (r)
			return r;
	}
	return NULL;
}

static const pto_expr *return_value(const pto_func *f, size_t pos, size_t *count)
{
	pto_stmt *r = pto_first_return(&f->body);
	*count = 0;
	if (!r || !r->value)
		return NULL;
	if (r->value->kind == PTO_E_TUPLE) {
		*count = pto_expr_nitems(r->value);
		return pos < pto_expr_nitems(r->value) ? r->value->items[pos] : NULL;
	}
	*count = 1;
	return pos == 0 ? r->value : NULL;
}

bool pto_explicit_returned_param(const pto_func *f, size_t pos, size_t *param)
{
	size_t n;
	const pto_expr *v = return_value(f, pos, &n);
	if (!v || v->kind != PTO_E_NAME)
		return false;
	for (size_t i = 0; i < f->nparams; i++)
		if (f->params[i].name == v->name) {
			*param = i;
			return true;
		}
	return false;
}

/* Which parameter of f the value e (in f's body) names, following SSA
 * rebinds, loop-carried values and the callee a result comes from. */
static bool lineage(hilo_pto_program *p, const pto_fctx *c, const pto_expr *e, int depth, size_t *param);

static bool callee_lineage(hilo_pto_program *p, pto_func *callee, size_t pos, int depth, size_t *param)
{
	size_t n;
	const pto_expr *v = return_value(callee, pos, &n);
	if (!v)
		return false;
	pto_fctx cc;
	pto_fctx_init(&cc, p, callee);
	return lineage(p, &cc, v, depth + 1, param);
}

static bool call_result_lineage(hilo_pto_program *p, const pto_fctx *c, pto_expr *call, size_t pos,
	int depth, size_t *param)
{
	pto_call cl;
	if (!pto_call_decode(p, call, &cl))
		return false;
	if ((cl.kind == PTO_C_FUNC || cl.kind == PTO_C_SUBMIT) && cl.callee) {
		size_t k;
		if (!callee_lineage(p, cl.callee, pos, depth, &k) || k >= cl.nargs)
			return false;
		return lineage(p, c, cl.args[k], depth + 1, param);
	}
	/* pl.tile.store(tile, offsets, out) writes into and returns out */
	if (cl.kind == PTO_C_OP && (!strcmp(cl.op, "tile.store") || !strcmp(cl.op, "store")) && cl.nargs >= 3)
		return lineage(p, c, cl.args[2], depth + 1, param);
	return false;
}

static bool lineage(hilo_pto_program *p, const pto_fctx *c, const pto_expr *e, int depth, size_t *param)
{
	if (!e || depth > 32)
		return false;
	if (e->kind == PTO_E_PAREN)
		return lineage(p, c, pto_expr_base(e), depth + 1, param);
	if (e->kind == PTO_E_CALL)
		return call_result_lineage(p, c, (pto_expr *)e, 0, depth, param);
	pto_var *v = pto_lookup(c, e);
	if (!v)
		return false;
	if (v->kind == PTO_V_PARAM) {
		*param = v->index;
		return true;
	}
	if (v->kind == PTO_V_ITERARG) {
		pto_call rc;
		if (!pto_call_decode(p, v->def->value, &rc))
			return false;
		for (size_t q = 0; q < rc.e->nkw; q++)
			if (!strcmp(rc.e->kwnames[q], "init_values") && rc.e->kwvals[q]->kind == PTO_E_TUPLE &&
			    v->index < pto_expr_nitems(rc.e->kwvals[q]))
				return lineage(p, c, rc.e->kwvals[q]->items[v->index], depth + 1, param);
		return false;
	}
	if (v->kind != PTO_V_LOCAL || !v->def || v->def->kind != PTO_S_ASSIGN)
		return false;
	const pto_expr *val = v->def->value;
	if (val->kind == PTO_E_NAME)
		return lineage(p, c, val, depth + 1, param);
	if (val->kind == PTO_E_SUB && pto_expr_nitems(val) == 1 && pto_expr_base(val)->kind == PTO_E_NAME) {
		int64_t idx;
		pto_var *tv = pto_lookup(c, pto_expr_base(val));
		if (tv && tv->def && tv->def->kind == PTO_S_ASSIGN && pto_const_int(val->items[0], &idx) && idx >= 0)
			return call_result_lineage(p, c, tv->def->value, (size_t)idx, depth, param);
		return false;
	}
	if (val->kind == PTO_E_CALL) {
		pto_call cl;
		pto_call_decode(p, (pto_expr *)val, &cl);
		if (pto_call_is_op(&cl, "yield_")) {
			/* a loop's or branch's result: position of this var among the
			 * yields of its statement is its position in the yield call */
			pto_stmt *par = pto_var_parent(c->vars, v);
			if (!par || pto_expr_nitems(val) != 1)
				return false;
			if (par->kind == PTO_S_FOR) {
				pto_call rc;
				if (!pto_call_decode(p, par->value, &rc))
					return false;
				for (size_t q = 0; q < rc.e->nkw; q++)
					if (!strcmp(rc.e->kwnames[q], "init_values") &&
					    rc.e->kwvals[q]->kind == PTO_E_TUPLE && pto_expr_nitems(rc.e->kwvals[q]) == 1)
						return lineage(p, c, rc.e->kwvals[q]->items[0], depth + 1, param);
				return false;
			}
			if (par->kind == PTO_S_IF) {
				/* both arms must name the same parameter */
				size_t a, b;
				const pto_block *arms[2] = { &par->body, &par->orelse };
				bool ok[2] = { false, false };
				size_t got[2] = { 0, 0 };
				for (int k = 0; k < 2; k++)
					for (size_t i = 0; i < arms[k]->n; i++) {
						pto_stmt *s = arms[k]->stmts[i];
						if (s->kind == PTO_S_ASSIGN && s->target->kind == PTO_E_NAME &&
						    s->target->name == v->name && s->value->kind == PTO_E_CALL &&
						    pto_expr_nitems(s->value) == 1)
							ok[k] = lineage(p, c, s->value->items[0], depth + 1, &got[k]);
					}
				a = got[0];
				b = got[1];
				if (ok[0] && ok[1] && a == b) {
					*param = a;
					return true;
				}
			}
			return false;
		}
		return call_result_lineage(p, c, (pto_expr *)val, 0, depth, param);
	}
	return false;
}

bool pto_returned_param(hilo_pto_program *p, const pto_fctx *c, const pto_expr *e, int depth)
{
	size_t k;
	return lineage(p, c, e, depth, &k);
}

/* ---- ReplayInvariantSet ----------------------------------------------- */

/* Membership of a name: the invariant scalars (inv) or the boundary
 * tensors (!inv). Only variables of the function can be members. */
static bool in_set(const pto_invset *s, const char *name, bool inv)
{
	const pto_var *v = pto_vars_get(s->c->vars, name);
	return v && (inv ? v->inv_member : v->inv_boundary);
}

static void add_to_set(pto_invset *s, const char *name, bool inv)
{
	pto_var *v = pto_vars_get(s->c->vars, name);
	if (v) {
		if (inv)
			v->inv_member = true;
		else
			v->inv_boundary = true;
	}
}

static bool is_boundary_dim_read(const pto_invset *s, const pto_call *c)
{
	int64_t axis;
	return pto_call_is_op(c, "tensor.dim") && c->nargs == 2 && c->args[0]->kind == PTO_E_NAME &&
		in_set(s, c->args[0]->name, false) && pto_const_int(c->args[1], &axis);
}

bool pto_inv_is_invariant(const pto_invset *s, const pto_expr *e)
{
	if (!e)
		return false;
	switch (e->kind) {
	case PTO_E_INT:
	case PTO_E_FLOAT:
	case PTO_E_STR:
	case PTO_E_ATTR:
	case PTO_E_ELLIPSIS:
		return true;
	case PTO_E_NAME:
		if (!strcmp(e->name, "True") || !strcmp(e->name, "False") || !strcmp(e->name, "None"))
			return true;
		return in_set(s, e->name, true);
	case PTO_E_CALL: {
		size_t n = pto_scalar_intrinsic(e);
		if (n) { /* scalar arithmetic spelled as a call */
			for (size_t i = 0; i < n; i++)
				if (!pto_inv_is_invariant(s, e->items[i]))
					return false;
			return true;
		}
		pto_call c;
		pto_call_decode(s->c->p, (pto_expr *)e, &c);
		return is_boundary_dim_read(s, &c);
	}
	default:
		break;
	}
	if (pto_expr_base(e) && !pto_inv_is_invariant(s, pto_expr_base(e)))
		return false;
	if (pto_expr_rhs(e) && !pto_inv_is_invariant(s, pto_expr_rhs(e)))
		return false;
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		if (!pto_inv_is_invariant(s, e->items[i]))
			return false;
	return true;
}

static void inv_collect(pto_invset *s, const pto_block *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const pto_stmt *st = b->stmts[i];
		if (st->kind == PTO_S_FOR) {
			uint64_t trips;
			const pto_expr *lv = st->target->kind == PTO_E_TUPLE ? st->target->items[0] : st->target;
			if (pto_trip_count(st, &trips) && lv->kind == PTO_E_NAME)
				add_to_set(s, lv->name, true);
		}
		if (st->kind == PTO_S_ASSIGN && st->target->kind == PTO_E_NAME) {
			pto_var *v = pto_lookup(s->c, st->target);
			if (v && !v->scalar) {
				if (st->value->kind == PTO_E_NAME && in_set(s, st->value->name, false))
					v->inv_boundary = true;
			} else if (v && pto_inv_is_invariant(s, st->value)) {
				v->inv_member = true;
			}
		}
		if (pto_stmt_has_body(st->kind))
			inv_collect(s, &st->body);
		if (st->kind == PTO_S_IF)
			inv_collect(s, &st->orelse);
	}
}

void pto_inv_init(pto_invset *s, const pto_fctx *c)
{
	s->c = c;
	if (c->vars->inv_built)
		return;
	/* membership lives in the variables themselves (a table per set cost
	 * as much as the variable table): clear what an earlier build left */
	for (size_t i = 0; i < pto_vars_count(c->vars); i++) {
		pto_var *v = pto_vars_at(c->vars, i);
		v->inv_member = v->inv_boundary = false;
	}
	for (size_t i = 0; i < c->f->nparams; i++) {
		pto_var *v = pto_vars_get(c->vars, c->f->params[i].name);
		if (v && !v->scalar)
			v->inv_boundary = true;
	}
	inv_collect(s, &c->f->body);
	c->vars->inv_built = true;
}

/* ---- SSA form ---------------------------------------------------------- */

typedef struct ssa_ctx {
	hilo_pto_program *p;
	const pto_func *f;
	hilo_diags *d;
	const pto_vartab *vars;
	size_t nstate;         /* the variables whose SSA_* state is their `ssa` bits (the first
	                        * binding is almost always the variable's own def) */
	pto_map other;         /* name -> first binding: SSA_OTHER, or a name that is no
	                        * variable (a nested target) */
	pto_map then_yield;    /* a first binding by pl.yield_ directly in an if's then-arm -> that if */
	pto_stmt *none;        /* a sentinel, never read through: &none_at */
	void *none_at;
	bool failed;
} ssa_ctx;

/* A name's state: unbound, first bound by its variable's def, a parameter
 * or a completed phi (`none`), first bound by another statement (a target
 * collect_vars does not record, in `other`). */
enum { SSA_UNBOUND, SSA_DEF, SSA_NONE, SSA_OTHER };

/* The first binding of name: NULL while unbound, c->none for a parameter
 * or a completed phi. */
static pto_stmt *ssa_get(const ssa_ctx *c, const char *name)
{
	size_t i = pto_vars_index(c->vars, name);
	const pto_var *v = i < c->nstate ? pto_vars_at(c->vars, i) : NULL;
	if (!v || v->ssa == SSA_OTHER)
		return pto_map_get(&c->other, name);
	return v->ssa == SSA_DEF ? v->def : v->ssa == SSA_NONE ? c->none : NULL;
}

static void ssa_set(ssa_ctx *c, const char *name, pto_stmt *s)
{
	size_t i = pto_vars_index(c->vars, name);
	pto_var *v = i < c->nstate ? pto_vars_at(c->vars, i) : NULL;
	if (v && (s == c->none || s == v->def)) {
		v->ssa = s == c->none ? SSA_NONE : SSA_DEF;
		return;
	}
	if (v)
		v->ssa = SSA_OTHER;
	pto_map_put(&c->other, name, s);
}

/* s binds t; owner: the if statement whose arm (the else arm when
 * else_arm) holds s directly, or NULL. */
static void ssa_bind(ssa_ctx *c, const pto_expr *t, pto_stmt *s, const pto_stmt *owner, bool else_arm)
{
	if (c->failed || !t)
		return;
	if (t->kind == PTO_E_TUPLE || t->kind == PTO_E_PAREN) {
		if (t->kind == PTO_E_PAREN)
			ssa_bind(c, pto_expr_base(t), s, owner, else_arm);
		for (size_t i = 0; i < pto_expr_nitems(t); i++)
			ssa_bind(c, t->items[i], s, owner, else_arm);
		return;
	}
	if (t->kind != PTO_E_NAME)
		return;
	pto_stmt *prev = ssa_get(c, t->name);
	if (!prev) {
		ssa_set(c, t->name, s);
		if (owner && !else_arm && s->kind == PTO_S_ASSIGN && is_yield(s->value))
			pto_map_put(&c->then_yield, s, (void *)owner);
		return;
	}
	if (prev == c->none)
		prev = NULL;
	/* the one legal repetition: the two arms of an if/else each yield the
	 * branch's result (a phi) */
	if (prev && prev->kind == PTO_S_ASSIGN && s->kind == PTO_S_ASSIGN && is_yield(prev->value) &&
	    is_yield(s->value) && owner && else_arm && pto_map_get(&c->then_yield, prev) == owner) {
		ssa_set(c, t->name, c->none); /* a third binding is an error */
		return;
	}
	int tl, tc;
	pto_stmt_linecol(c->p, s, &tl, &tc);
	if (t->pos)
		pto_pos_linecol(c->p, t->pos, &tl, &tc);
	if (prev)
		pto_error(c->p, c->d, tl, tc, "GB023",
			"function '%s' binds '%s' again (first bound at line %d). The input must be in SSA form "
			"(the program as PyPTO prints it after ConvertToSSA): a name bound twice has no single "
			"definition to hoist or to trace provenance through, so the program is not analysed.",
			c->f->name, t->name, pto_stmt_line(c->p, prev));
	else
		pto_error(c->p, c->d, tl, tc, "GB023",
			"function '%s' binds '%s' again, but it is a parameter or was already bound twice. The "
			"input must be in SSA form (the program as PyPTO prints it after ConvertToSSA), so the "
			"program is not analysed.", c->f->name, t->name);
	c->failed = true;
}

static void ssa_block(ssa_ctx *c, const pto_block *b, const pto_stmt *owner, bool else_arm)
{
	for (size_t i = 0; i < b->n && !c->failed; i++) {
		pto_stmt *s = b->stmts[i];
		switch (s->kind) {
		case PTO_S_ASSIGN:
			ssa_bind(c, s->target, s, owner, else_arm);
			break;
		case PTO_S_FOR:
		case PTO_S_WITH:
			ssa_bind(c, s->target, s, owner, else_arm);
			ssa_block(c, &s->body, NULL, false);
			break;
		case PTO_S_WHILE:
			ssa_block(c, &s->body, NULL, false);
			break;
		case PTO_S_IF:
			ssa_block(c, &s->body, s, false);
			ssa_block(c, &s->orelse, s, true);
			break;
		default:
			break;
		}
	}
}

bool pto_check_ssa(hilo_pto_program *p, pto_func *f, hilo_diags *d)
{
	ssa_ctx c;
	memset(&c, 0, sizeof c);
	c.p = p;
	c.f = f;
	c.d = d;
	/* names are found through the function's variable table (the passes
	 * need it next; a function they do not analyse drops it again), the
	 * state is two bits in each variable (an array of a byte a variable
	 * was alive beside the table: the peak of legalize on 100k aliases),
	 * the sparse maps in a scratch arena */
	bool cached = f->sema_vars != NULL;
	pto_fctx fc;
	pto_fctx_init(&fc, p, f);
	c.vars = fc.vars;
	hilo_arena *tmp = hilo_arena_create_in(p->arena);
	if (!tmp)
		pto_oom(p->arena);
	c.nstate = pto_vars_count(c.vars);
	for (size_t i = 0; i < c.nstate; i++) /* what an earlier check left */
		pto_vars_at(c.vars, i)->ssa = SSA_UNBOUND;
	/* no arena allocation: a scratch arena's first one takes a 64 KiB
	 * chunk, zeroed, per function checked */
	c.none = (pto_stmt *)(void *)&c.none_at;
	pto_map_init_scratch(&c.other, tmp);
	pto_map_init_scratch(&c.then_yield, tmp);
	for (size_t i = 0; i < f->nparams; i++)
		ssa_set(&c, f->params[i].name, c.none);
	ssa_block(&c, &f->body, NULL, false);
	hilo_arena_destroy(tmp);
	if (!cached && f->type != PTO_FT_GRAPH && f->type != PTO_FT_ORCHESTRATION)
		pto_func_invalidate(f);
	return !c.failed;
}
