/* Module, computation and instruction construction and rewriting.
 * Every operand write goes through add_use/drop_use so use lists stay
 * exact; replace_all_uses walks the use list once. */
#include "hilo/ir.h"

#include <stdlib.h>
#include <string.h>

/* ---- name set: interned pointers, open addressing ---- */

struct name_set {
	const char **slots;
	size_t cap, n;
	uint64_t counter;    /* next suffix tried by unique_name */
};

static size_t ptr_hash(const void *p)
{
	uintptr_t x = (uintptr_t)p;
	x ^= x >> 17;
	x *= 0xed5ad4bbu;
	x ^= x >> 11;
	return (size_t)x;
}

static bool nameset_has(const struct name_set *s, const char *name)
{
	size_t i = ptr_hash(name) & (s->cap - 1);
	while (s->slots[i]) {
		if (s->slots[i] == name)
			return true;
		i = (i + 1) & (s->cap - 1);
	}
	return false;
}

static void nameset_add(hilo_module *m, const char *name)
{
	struct name_set *s = m->names;
	if ((s->n + 1) * 2 > s->cap) {
		size_t ncap = s->cap * 2;
		const char **ns = hilo_arena_alloc(m->arena, ncap * sizeof *ns);
		if (!ns)
			return;
		for (size_t i = 0; i < s->cap; i++) {
			if (!s->slots[i])
				continue;
			size_t j = ptr_hash(s->slots[i]) & (ncap - 1);
			while (ns[j])
				j = (j + 1) & (ncap - 1);
			ns[j] = s->slots[i];
		}
		s->slots = ns;
		s->cap = ncap;
	}
	size_t i = ptr_hash(name) & (s->cap - 1);
	while (s->slots[i]) {
		if (s->slots[i] == name)
			return;
		i = (i + 1) & (s->cap - 1);
	}
	s->slots[i] = name;
	s->n++;
}

/* The set of names in use is built on the first request for a new name
 * (parsing never needs it), then kept up to date. */
static void ensure_names(hilo_module *m)
{
	if (m->names->slots)
		return;
	m->names->cap = 256;
	m->names->slots = hilo_arena_alloc(m->arena, 256 * sizeof(char *));
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next)
			nameset_add(m, i->name);
}

void hilo_module_claim_name(hilo_module *m, const char *name)
{
	if (m->names->slots)
		nameset_add(m, name);
}

const char *hilo_module_unique_name(hilo_module *m, const char *base)
{
	ensure_names(m);
	const char *b = hilo_intern_cstr(m->strings, base);
	if (!nameset_has(m->names, b)) {
		nameset_add(m, b);
		return b;
	}
	/* strip a numeric ".N" suffix so "add.3" -> "add.<next>" */
	size_t len = strlen(base), e = len;
	while (e > 0 && base[e - 1] >= '0' && base[e - 1] <= '9')
		e--;
	if (e > 0 && e < len && base[e - 1] == '.')
		len = e - 1;
	char tmp[256];
	if (len > 200)
		len = 200;
	for (;;) {
		snprintf(tmp, sizeof tmp, "%.*s.%llu", (int)len, base,
			(unsigned long long)++m->names->counter);
		const char *n = hilo_intern_cstr(m->strings, tmp);
		if (!nameset_has(m->names, n)) {
			nameset_add(m, n);
			return n;
		}
	}
}

/* Linear probing with backward-shift deletion: the entries after the
 * removed one that probed past its slot move up, so lookups never need
 * tombstones. */
static void nameset_remove(struct name_set *s, const char *name)
{
	size_t i = ptr_hash(name) & (s->cap - 1);
	while (s->slots[i] != name) {
		if (!s->slots[i])
			return;
		i = (i + 1) & (s->cap - 1);
	}
	size_t hole = i;
	for (size_t j = (i + 1) & (s->cap - 1); s->slots[j]; j = (j + 1) & (s->cap - 1)) {
		size_t home = ptr_hash(s->slots[j]) & (s->cap - 1);
		/* slots[j] may fill the hole unless its home lies in (hole, j] */
		bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
		if (!stays) {
			s->slots[hole] = s->slots[j];
			hole = j;
		}
	}
	s->slots[hole] = NULL;
	s->n--;
}

/* The characters the text printer writes in a name and the parser reads
 * back as one name. */
static bool name_chars_ok(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++) {
		char ch = *s;
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      ch == '_' || ch == '.' || ch == '-'))
			return false;
	}
	return true;
}

bool hilo_instr_rename(hilo_module *m, hilo_instr *i, const char *name)
{
	if (!name_chars_ok(name))
		return false;
	ensure_names(m);
	if (!m->names->slots)
		return false;
	const char *n = hilo_intern_cstr(m->strings, name);
	if (!n)
		return false;
	if (n == i->name)
		return true;
	if (nameset_has(m->names, n))
		return false;
	size_t before = m->names->n;
	nameset_add(m, n);
	if (m->names->n == before)
		return false; /* out of memory growing the set */
	/* the old name is free again unless a computation holds it (names
	 * made by hilo_module_unique_name for computations share the set) */
	const char *old = i->name;
	i->name = n;
	bool comp_has = false;
	for (uint32_t k = 0; k < m->ncomps && !comp_has; k++)
		comp_has = m->comps[k]->name == old;
	if (old && !comp_has)
		nameset_remove(m->names, old);
	return true;
}

/* ---- module ---- */

hilo_module *hilo_module_create(const char *name)
{
	return hilo_module_create_in(name, NULL);
}

hilo_module *hilo_module_create_in(const char *name, hilo_arena *parent)
{
	hilo_arena *a = parent ? hilo_arena_create_in(parent) : hilo_arena_create();
	if (!a)
		return NULL;
	hilo_module *m = hilo_arena_alloc(a, sizeof *m);
	if (!m) {
		hilo_arena_destroy(a);
		return NULL;
	}
	m->arena = a;
	m->strings = hilo_strtab_create(a);
	m->names = hilo_arena_alloc(a, sizeof *m->names);
	m->shapes = hilo_shape_table_create(a);
	if (!m->strings || !m->names || !m->shapes) {
		hilo_arena_destroy(a);
		return NULL;
	}
	m->name = hilo_intern_cstr(m->strings, name ? name : "module");
	if (!m->name) {
		hilo_arena_destroy(a);
		return NULL;
	}
	m->style = HILO_STYLE_DEFAULT;
	return m;
}

void hilo_module_destroy(hilo_module *m)
{
	if (m)
		hilo_arena_destroy(m->arena);
}

hilo_comp *hilo_comp_create(hilo_module *m, const char *name)
{
	hilo_comp *c = hilo_arena_alloc(m->arena, sizeof *c);
	c->name = hilo_intern_cstr(m->strings, name);
	c->parent = m;
	c->print_signature = true;
	return c;
}

void hilo_module_add_comp(hilo_module *m, hilo_comp *c, hilo_comp *before)
{
	if (m->ncomps == m->cap_comps) {
		uint32_t cap = m->cap_comps ? m->cap_comps * 2 : 8;
		m->comps = hilo_arena_grow(m->arena, m->comps, m->ncomps, cap, sizeof(hilo_comp *));
		m->cap_comps = cap;
	}
	uint32_t at = m->ncomps;
	if (before)
		for (uint32_t i = 0; i < m->ncomps; i++)
			if (m->comps[i] == before) {
				at = i;
				break;
			}
	memmove(&m->comps[at + 1], &m->comps[at], (m->ncomps - at) * sizeof(hilo_comp *));
	m->comps[at] = c;
	m->ncomps++;
	c->parent = m;
}

void hilo_module_remove_comp(hilo_module *m, hilo_comp *c)
{
	for (uint32_t i = 0; i < m->ncomps; i++)
		if (m->comps[i] == c) {
			memmove(&m->comps[i], &m->comps[i + 1], (m->ncomps - i - 1) * sizeof(hilo_comp *));
			m->ncomps--;
			return;
		}
}

void hilo_module_retain_comps(hilo_module *m, bool (*keep)(const hilo_comp *c, void *ud), void *ud)
{
	uint32_t w = 0;
	for (uint32_t i = 0; i < m->ncomps; i++)
		if (keep(m->comps[i], ud))
			m->comps[w++] = m->comps[i];
	m->ncomps = w;
}

hilo_comp *hilo_module_find_comp(const hilo_module *m, const char *name)
{
	for (uint32_t i = 0; i < m->ncomps; i++)
		if (strcmp(m->comps[i]->name, name) == 0)
			return m->comps[i];
	return NULL;
}

uint64_t hilo_module_instr_count(const hilo_module *m)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < m->ncomps; i++)
		n += m->comps[i]->ninstrs;
	return n;
}

/* ---- instructions ---- */

hilo_instr *hilo_instr_create(hilo_module *m, hilo_opcode op, hilo_shape *shape,
	const char *name)
{
	hilo_instr *i = hilo_arena_alloc(m->arena, sizeof *i);
	i->op = (uint8_t)op;
	i->async_op = HILO_OP_COUNT;
	i->id = m->next_id++;
	i->shape = shape;
	i->name = hilo_module_unique_name(m, name ? name : hilo_opcode_name(op));
	return i;
}

/* Use lists start in def->inline_users and spill to a doubling arena
 * array; a list that shrank stays where it is. */
static void add_use(hilo_module *m, hilo_instr *def, hilo_instr *user, uint32_t slot)
{
	if (def->nusers == def->cap_users) {
		if (!def->users) {
			def->users = def->inline_users;
			def->cap_users = HILO_INLINE_USERS;
		} else {
			uint32_t cap = def->cap_users * 2;
			def->users = hilo_arena_grow(m->arena, def->users, def->nusers, cap, sizeof(hilo_use));
			def->cap_users = cap;
		}
	}
	def->users[def->nusers++] = (hilo_use){user, slot};
}

static void drop_use(hilo_instr *def, hilo_instr *user, uint32_t slot)
{
	for (uint32_t k = def->nusers; k-- > 0;)
		if (def->users[k].user == user && def->users[k].slot == slot) {
			def->users[k] = def->users[--def->nusers];
			return;
		}
}

void hilo_instr_add_operand(hilo_module *m, hilo_instr *i, hilo_instr *op)
{
	if (i->noperands == i->cap_operands) {
		if (!i->operands) {
			i->operands = i->inline_ops;
			i->cap_operands = HILO_INLINE_OPERANDS;
		} else {
			uint32_t cap = i->cap_operands * 2;
			i->operands = hilo_arena_grow(m->arena, i->operands, i->noperands, cap, sizeof(hilo_instr *));
			i->cap_operands = cap;
		}
	}
	i->operands[i->noperands] = op;
	add_use(m, op, i, i->noperands);
	i->noperands++;
}

void hilo_instr_set_operand(hilo_module *m, hilo_instr *i, uint32_t slot, hilo_instr *op)
{
	if (i->operands[slot] == op)
		return;
	drop_use(i->operands[slot], i, slot);
	i->operands[slot] = op;
	add_use(m, op, i, slot);
}

void hilo_instr_clear_operands(hilo_instr *i)
{
	for (uint32_t s = 0; s < i->noperands; s++)
		drop_use(i->operands[s], i, s);
	i->noperands = 0;
}

void hilo_instr_add_called(hilo_module *m, hilo_instr *i, hilo_comp *c)
{
	hilo_instr_cold *ic = hilo_instr_cold_get(m, i);
	hilo_comp **n = hilo_arena_grow(m->arena, ic->called, ic->ncalled, ic->ncalled + 1, sizeof *n);
	n[ic->ncalled++] = c;
	ic->called = n;
}

static void push_instr(hilo_module *m, hilo_instr ***arr, uint32_t *n, uint32_t *cap, hilo_instr *x)
{
	if (*n == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 2;
		*arr = hilo_arena_grow(m->arena, *arr, *n, nc, sizeof(hilo_instr *));
		*cap = nc;
	}
	(*arr)[(*n)++] = x;
}

static void remove_instr(hilo_instr **arr, uint32_t *n, hilo_instr *x)
{
	for (uint32_t k = 0; k < *n; k++)
		if (arr[k] == x) {
			memmove(&arr[k], &arr[k + 1], (*n - k - 1) * sizeof *arr);
			(*n)--;
			return;
		}
}

hilo_instr_cold *hilo_instr_cold_get(hilo_module *m, hilo_instr *i)
{
	if (!i->cold)
		i->cold = hilo_arena_alloc(m->arena, sizeof *i->cold);
	return i->cold;
}

void hilo_instr_set_comment(hilo_module *m, hilo_instr *i, const char *comment)
{
	if (comment || i->cold)
		hilo_instr_cold_get(m, i)->comment = comment;
}

void hilo_instr_link_ctrl(hilo_module *m, hilo_instr *i, hilo_instr *pred)
{
	hilo_instr_cold *ic = hilo_instr_cold_get(m, i), *pc = hilo_instr_cold_get(m, pred);
	push_instr(m, &ic->ctrl_preds, &ic->nctrl_preds, &ic->cap_ctrl_preds, pred);
	push_instr(m, &pc->ctrl_succs, &pc->nctrl_succs, &pc->cap_ctrl_succs, i);
}

void hilo_instr_add_ctrl_pred(hilo_module *m, hilo_instr *i, hilo_instr *pred)
{
	for (uint32_t k = 0; k < hilo_instr_nctrl_preds(i); k++)
		if (i->cold->ctrl_preds[k] == pred)
			return;
	hilo_instr_link_ctrl(m, i, pred);
	if (!hilo_instr_attr(i, HILO_A_CONTROL_PREDECESSORS))
		hilo_instr_set_attr(m, i, HILO_A_CONTROL_PREDECESSORS, HILO_ATTR_CONTROL);
}

void hilo_instr_remove_ctrl_deps(hilo_instr *i)
{
	hilo_instr_cold *ic = i->cold;
	if (ic) {
		/* a predecessor or successor of i has a cold record: it holds i */
		for (uint32_t k = 0; k < ic->nctrl_preds; k++) {
			hilo_instr_cold *pc = ic->ctrl_preds[k]->cold;
			remove_instr(pc->ctrl_succs, &pc->nctrl_succs, i);
		}
		for (uint32_t k = 0; k < ic->nctrl_succs; k++) {
			hilo_instr *s = ic->ctrl_succs[k];
			remove_instr(s->cold->ctrl_preds, &s->cold->nctrl_preds, i);
			if (!s->cold->nctrl_preds)
				hilo_instr_remove_attr(s, HILO_A_CONTROL_PREDECESSORS);
		}
		ic->nctrl_preds = ic->nctrl_succs = 0;
	}
	hilo_instr_remove_attr(i, HILO_A_CONTROL_PREDECESSORS);
}

/* ---- metadata ---- */

static const char *md_get(const hilo_instr *i, const char *key)
{
	if (!i->metadata)
		return NULL;
	for (int k = 0; k < i->metadata->n; k++)
		if (strcmp(i->metadata->e[k].key, key) == 0)
			return i->metadata->e[k].value;
	return NULL;
}

const char *hilo_instr_op_name(hilo_module *m, const hilo_instr *i)
{
	const char *v = md_get(i, "op_name");
	if (!v || v[0] != '"')
		return NULL;
	size_t len = strlen(v);
	char *out = hilo_arena_alloc(m->arena, len);
	size_t o = 0;
	for (size_t k = 1; k + 1 < len; k++) {
		if (v[k] == '\\' && k + 2 < len) {
			k++;
			switch (v[k]) {
			case 'n': out[o++] = '\n'; break;
			case 't': out[o++] = '\t'; break;
			default: out[o++] = v[k]; break;
			}
		} else {
			out[o++] = v[k];
		}
	}
	out[o] = 0;
	return out;
}

void hilo_instr_set_op_name(hilo_module *m, hilo_instr *i, const char *op_name)
{
	hilo_buf b;
	hilo_buf_init_in(&b, m->arena);
	hilo_buf_putc(&b, '"');
	for (const char *p = op_name; *p; p++) {
		if (*p == '"' || *p == '\\')
			hilo_buf_putc(&b, '\\');
		if (*p == '\n')
			hilo_buf_put(&b, "\\n", 2);
		else
			hilo_buf_putc(&b, *p);
	}
	hilo_buf_putc(&b, '"');
	const char *val = hilo_arena_strdup(m->arena, hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	if (!i->metadata) {
		i->metadata = hilo_arena_alloc(m->arena, sizeof *i->metadata);
		hilo_instr_set_attr(m, i, HILO_A_METADATA, HILO_ATTR_METADATA);
	}
	hilo_metadata *md = i->metadata;
	for (int k = 0; k < md->n; k++)
		if (strcmp(md->e[k].key, "op_name") == 0) {
			md->e[k].value = val;
			return;
		}
	/* op_name follows op_type when present, else comes first */
	hilo_md_entry *e = hilo_arena_alloc(m->arena, (size_t)(md->n + 1) * sizeof *e);
	int at = (md->n > 0 && strcmp(md->e[0].key, "op_type") == 0) ? 1 : 0;
	if (md->n) { /* md->e is NULL for fresh metadata: no memcpy from NULL */
		memcpy(e, md->e, (size_t)at * sizeof *e);
		memcpy(e + at + 1, md->e + at, (size_t)(md->n - at) * sizeof *e);
	}
	e[at] = (hilo_md_entry){hilo_intern_cstr(m->strings, "op_name"), val};
	md->e = e;
	md->n++;
}

/* ---- clone ---- */

hilo_instr *hilo_instr_clone(hilo_module *m, const hilo_instr *src, const char *name)
{
	hilo_instr *i = hilo_instr_create(m, src->op, src->shape, name ? name : src->name);
	i->async_op = src->async_op;
	i->u = src->u;     /* param_no, or the literal (immutable: shared) */
	i->line = src->line;
	i->col = src->col;
	if (hilo_instr_ncalled(src)) {
		hilo_instr_cold *ic = hilo_instr_cold_get(m, i);
		ic->called = hilo_arena_alloc(m->arena, src->cold->ncalled * sizeof(hilo_comp *));
		memcpy(ic->called, src->cold->called, src->cold->ncalled * sizeof(hilo_comp *));
		ic->ncalled = src->cold->ncalled;
	}
	if (src->nattrs) {
		i->attrs = hilo_arena_alloc(m->arena, src->nattrs * sizeof(hilo_attr));
		for (uint32_t k = 0; k < src->nattrs; k++) {
			if (src->attrs[k].kind == HILO_ATTR_CONTROL)
				continue; /* control edges are not cloned */
			i->attrs[i->nattrs++] = src->attrs[k]; /* int arrays are immutable: share */
		}
		i->cap_attrs = src->nattrs;
	}
	if (src->metadata) {
		i->metadata = hilo_arena_alloc(m->arena, sizeof *i->metadata);
		i->metadata->n = src->metadata->n;
		i->metadata->e = hilo_arena_alloc(m->arena, (size_t)(src->metadata->n + 1) * sizeof(hilo_md_entry));
		memcpy(i->metadata->e, src->metadata->e, (size_t)src->metadata->n * sizeof(hilo_md_entry));
	}
	return i;
}

bool hilo_instr_has_side_effect(const hilo_module *m, const hilo_instr *i)
{
	unsigned f = hilo_opcode_flags(i->op);
	if (f & HILO_OPF_SE)
		return true;
	bool b;
	if (i->op == HILO_OP_CUSTOM_CALL)
		return hilo_instr_get_bool(i, HILO_A_CUSTOM_CALL_HAS_SIDE_EFFECT, &b) && b;
	if (f & HILO_OPF_COLL) {
		if (hilo_instr_get_bool(i, HILO_A_CONSTRAIN_LAYOUT, &b) && b)
			return true;
		bool spmd = false;
		for (uint32_t k = 0; k < m->nattrs; k++)
			if (strcmp(m->attrs[k].key, "num_partitions") == 0 &&
			    strcmp(m->attrs[k].value, "1") != 0)
				spmd = true;
		if (!spmd && hilo_instr_attr(i, HILO_A_CHANNEL_ID))
			return true;
	}
	return false;
}

/* ---- computations ---- */

void hilo_comp_append(hilo_comp *c, hilo_instr *i)
{
	i->parent = c;
	i->prev = c->last;
	i->next = NULL;
	if (c->last)
		c->last->next = i;
	else
		c->first = i;
	c->last = i;
	c->ninstrs++;
}

void hilo_comp_insert_before(hilo_comp *c, hilo_instr *before, hilo_instr *i)
{
	if (!before) {
		hilo_comp_append(c, i);
		return;
	}
	i->parent = c;
	i->next = before;
	i->prev = before->prev;
	if (before->prev)
		before->prev->next = i;
	else
		c->first = i;
	before->prev = i;
	c->ninstrs++;
}

void hilo_comp_remove(hilo_comp *c, hilo_instr *i)
{
	hilo_instr_clear_operands(i);
	hilo_instr_remove_ctrl_deps(i);
	if (i->prev)
		i->prev->next = i->next;
	else
		c->first = i->next;
	if (i->next)
		i->next->prev = i->prev;
	else
		c->last = i->prev;
	i->prev = i->next = NULL;
	i->parent = NULL;
	c->ninstrs--;
	if (c->root == i)
		c->root = NULL;
	if (i->op == HILO_OP_PARAMETER && hilo_instr_param_no(i) >= 0 &&
	    (uint32_t)hilo_instr_param_no(i) < c->nparams && c->params[hilo_instr_param_no(i)] == i)
		c->params[hilo_instr_param_no(i)] = NULL;
}

void hilo_comp_set_root(hilo_comp *c, hilo_instr *root)
{
	if (c->root)
		c->root->is_root = false;
	c->root = root;
	if (root)
		root->is_root = true;
}

void hilo_comp_add_param(hilo_module *m, hilo_comp *c, hilo_instr *p)
{
	uint32_t n = (uint32_t)p->u.param_no + 1;
	if (n > c->cap_params) {
		uint32_t cap = c->cap_params ? c->cap_params : 4;
		while (cap < n)
			cap *= 2;
		c->params = hilo_arena_grow(m->arena, c->params, c->nparams, cap, sizeof(hilo_instr *));
		c->cap_params = cap;
	}
	if (n > c->nparams)
		c->nparams = n;
	c->params[p->u.param_no] = p;
}

void hilo_instr_replace_all_uses(hilo_module *m, hilo_instr *from, hilo_instr *to)
{
	if (from == to)
		return;
	while (from->nusers) {
		hilo_use u = from->users[--from->nusers];
		u.user->operands[u.slot] = to;
		add_use(m, to, u.user, u.slot);
	}
	if (from->parent && from->parent->root == from)
		hilo_comp_set_root(from->parent, to);
}

/* The list order of c when it is already a post order: every operand and
 * control predecessor in c comes before its user. The DFS below, started
 * from the roots in list order, then visits each instruction after all of
 * its predecessors were emitted and pushes nothing, so its result is the
 * list itself; marks end as the DFS leaves them (1). False (marks partly
 * set) when some edge points forward or out of the list: the caller runs
 * the DFS. The list is walked once (copied to out, marks cleared) and the
 * edges are checked over the array: a linked-list walk is one dependent
 * load per instruction, the array lets the loads of the check overlap. */
static bool list_is_post_order(hilo_comp *c, hilo_instr **out, uint32_t cap, uint32_t *n)
{
	uint32_t no = 0;
	for (hilo_instr *i = c->first; i; i = i->next) {
		if (no == cap)
			return false;
		i->mark = 0;
		out[no++] = i;
	}
	for (uint32_t k = 0; k < no; k++) {
		hilo_instr *i = out[k];
		for (uint32_t j = 0; j < i->noperands; j++) {
			const hilo_instr *o = i->operands[j];
			if (o->parent == c && !o->mark)
				return false;
		}
		for (uint32_t j = 0; j < hilo_instr_nctrl_preds(i); j++) {
			const hilo_instr *o = hilo_instr_ctrl_preds(i)[j];
			if (o->parent == c && !o->mark)
				return false;
		}
		i->mark = 1;
	}
	*n = no;
	return true;
}

/* Iterative DFS so deep graphs cannot overflow the C stack. */
hilo_instr **hilo_comp_post_order(hilo_module *m, hilo_comp *c, uint32_t *n)
{
	hilo_instr **out = hilo_arena_alloc(m->arena, (c->ninstrs + 1) * sizeof *out);
	uint32_t no = 0;
	if (!out) { /* only without an out-of-memory guard */
		*n = 0;
		return NULL;
	}
	/* the common case (parsed and most rewritten IR): no stack at all */
	if (list_is_post_order(c, out, c->ninstrs + 1, n))
		return out;
	typedef struct { hilo_instr *i; uint32_t k; } frame;
	frame *st = hilo_heap_alloc(m->arena, (c->ninstrs + 1) * sizeof *st);
	if (!st) { /* only without an out-of-memory guard */
		*n = 0;
		return NULL;
	}
	for (hilo_instr *i = c->first; i; i = i->next)
		i->mark = 0;
	for (hilo_instr *r = c->first; r; r = r->next) {
		if (r->mark)
			continue;
		uint32_t sp = 0;
		st[sp++] = (frame){r, 0};
		r->mark = 1;
		while (sp) {
			frame *f = &st[sp - 1];
			hilo_instr *i = f->i;
			uint32_t total = i->noperands + hilo_instr_nctrl_preds(i);
			if (f->k < total) {
				hilo_instr *o = f->k < i->noperands ? i->operands[f->k]
				                                    : hilo_instr_ctrl_preds(i)[f->k - i->noperands];
				f->k++;
				if (!o->mark && o->parent == c) {
					o->mark = 1;
					st[sp++] = (frame){o, 0};
				}
				continue;
			}
			out[no++] = i;
			sp--;
		}
	}
	hilo_heap_free(m->arena, st);
	*n = no;
	return out;
}

hilo_comp **hilo_module_comp_post_order(hilo_module *m, uint32_t *n)
{
	return hilo_module_comp_post_order_calls(m, n, NULL, NULL);
}

/* The walk visits every instruction of every computation once (it looks
 * for the calls), so it hands the callers to fn on the way: a pass that
 * needs both saves a walk of the whole module. Computations of the module
 * are marked 2 until visited (1), a callee outside the module stays 0:
 * its instructions are walked (the order needs them) but not handed on. */
hilo_comp **hilo_module_comp_post_order_calls(hilo_module *m, uint32_t *n,
	void (*fn)(hilo_instr *call, void *ud), void *ud)
{
	hilo_comp **out = hilo_arena_alloc(m->arena, (m->ncomps + 1) * sizeof *out);
	uint32_t no = 0;
	for (uint32_t k = 0; k < m->ncomps; k++)
		m->comps[k]->mark = 0;
	if (fn)
		for (uint32_t k = 0; k < m->ncomps; k++)
			m->comps[k]->mark = 2;
	/* explicit stack of (comp, instr cursor, called cursor) */
	typedef struct { hilo_comp *c; hilo_instr *i; uint32_t k; bool hand; } frame;
	frame *st = out ? hilo_heap_alloc(m->arena, (m->ncomps + 1) * sizeof *st) : NULL;
	if (!st) { /* only without an out-of-memory guard */
		*n = 0;
		return NULL;
	}
	for (uint32_t r = 0; r < m->ncomps; r++) {
		hilo_comp *root = m->comps[r];
		if (root->mark == 1)
			continue;
		uint32_t sp = 0;
		bool hand = root->mark == 2;
		root->mark = 1;
		st[sp++] = (frame){root, root->first, 0, hand};
		while (sp) {
			frame *f = &st[sp - 1];
			while (f->i && f->k >= hilo_instr_ncalled(f->i)) {
				f->i = f->i->next;
				f->k = 0;
			}
			if (!f->i) {
				out[no++] = f->c;
				sp--;
				continue;
			}
			if (f->k == 0 && f->hand)
				fn(f->i, ud);
			hilo_comp *callee = hilo_instr_called(f->i)[f->k++];
			if (callee->mark != 1 && sp < m->ncomps) {
				bool h = callee->mark == 2;
				callee->mark = 1;
				st[sp++] = (frame){callee, callee->first, 0, h};
			}
		}
	}
	hilo_heap_free(m->arena, st);
	*n = no;
	return out;
}

hilo_comp *hilo_comp_clone(hilo_module *m, hilo_comp *src, const char *name)
{
	hilo_comp *c = hilo_comp_create(m, name);
	c->print_signature = src->print_signature;
	c->execution_thread = src->execution_thread;
	for (hilo_instr *i = src->first; i; i = i->next)
		i->aux = NULL;
	for (hilo_instr *i = src->first; i; i = i->next) {
		hilo_instr *n = hilo_instr_clone(m, i, i->name);
		for (uint32_t k = 0; k < i->noperands; k++) {
			hilo_instr *o = i->operands[k];
			hilo_instr_add_operand(m, n, o->aux ? (hilo_instr *)o->aux : o);
		}
		i->aux = n;
		hilo_comp_append(c, n);
		if (n->op == HILO_OP_PARAMETER)
			hilo_comp_add_param(m, c, n);
	}
	for (hilo_instr *i = src->first; i; i = i->next)
		for (uint32_t k = 0; k < hilo_instr_nctrl_preds(i); k++)
			if (hilo_instr_ctrl_preds(i)[k]->aux)
				hilo_instr_add_ctrl_pred(m, i->aux, hilo_instr_ctrl_preds(i)[k]->aux);
	if (src->root)
		hilo_comp_set_root(c, src->root->aux);
	return c;
}

bool hilo_module_layout_sensitive(const hilo_module *m)
{
	for (uint32_t k = 0; k < m->nattrs; k++)
		if (!strcmp(m->attrs[k].key, "is_scheduled") && !strcmp(m->attrs[k].value, "true"))
			return true;
	return false;
}
