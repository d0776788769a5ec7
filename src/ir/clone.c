/* Deep copy of a whole module into a fresh arena.
 *
 * The copy keeps every id, name, attribute (in order), metadata entry,
 * literal, shape, use list (same order), control edge and computation
 * order of the source, so printing the clone gives the same bytes as
 * printing the source. Nothing in the copy points into the source: strings
 * are re-interned in the new module's table, shapes in its shape table,
 * literals are copied, called computations and operands are
 * remapped through pointer maps. The source is only read.
 *
 * Keep in step with hilo/ir.h: every pointer field of the IR structs must
 * be copied or remapped here (tests/unit/test_ir.c destroys the source
 * before printing the clone, so a missed field shows up under ASan).
 * Returns NULL when out of memory or when an edge leaves the module.
 * Unknown HloModuleProto fields (proto_extra) are not carried over.
 */
#include "hilo/ir.h"

#include <string.h>

typedef struct cloner {
	const hilo_module *src;
	hilo_module *dst;
	hilo_ptrmap instrs;   /* src instr -> dst instr, for ids past src->next_id */
	/* by source id below src->next_id (ids are unique in a module): the
	 * source instruction and its copy; an edge whose target's slot holds
	 * another instruction leaves the module */
	const hilo_instr **src_by_id;
	hilo_instr **dst_by_id;
	uint32_t nid;
	hilo_ptrmap comps;    /* src comp -> dst comp */
	bool oom;
} cloner;

static void *alloc(cloner *k, size_t size)
{
	void *p = hilo_arena_alloc(k->dst->arena, size ? size : 1);
	if (!p)
		k->oom = true;
	return p;
}

static void *dup_bytes(cloner *k, const void *p, size_t size)
{
	if (!p)
		return NULL;
	void *q = alloc(k, size);
	if (q && size)
		memcpy(q, p, size);
	return q;
}

static const char *dup_str(cloner *k, const char *s)
{
	if (!s)
		return NULL;
	char *r = hilo_arena_strdup(k->dst->arena, s);
	if (!r)
		k->oom = true;
	return r;
}

static const char *intern(cloner *k, const char *s)
{
	if (!s)
		return NULL;
	const char *r = hilo_intern_cstr(k->dst->strings, s);
	if (!r)
		k->oom = true;
	return r;
}

/* The clone's shapes are interned in its own table. */
static hilo_shape *copy_shape(cloner *k, const hilo_shape *s)
{
	if (!s)
		return NULL;
	hilo_shape *d = hilo_shape_intern(k->dst->shapes, s);
	if (!d)
		k->oom = true;
	return d;
}

static hilo_literal *copy_literal(cloner *k, const hilo_literal *l)
{
	if (!l)
		return NULL;
	hilo_literal *d = alloc(k, sizeof *d);
	if (!d)
		return NULL;
	*d = *l;
	d->shape = copy_shape(k, l->shape);
	d->data = dup_bytes(k, l->data, l->nbytes);
	if (l->ntuple > 0) {
		d->elems = alloc(k, (size_t)l->ntuple * sizeof *d->elems);
		if (d->elems)
			for (int e = 0; e < l->ntuple; e++)
				d->elems[e] = copy_literal(k, l->elems[e]);
	}
	return d;
}

static void copy_attr(cloner *k, hilo_attr *d, const hilo_attr *a)
{
	*d = *a;
	/* table keys are static; unknown ones live in the source's arena */
	d->key = a->id != HILO_A_UNKNOWN ? a->key : intern(k, a->key);
	switch (a->kind) {
	case HILO_ATTR_RAW:
	case HILO_ATTR_STRING:
	case HILO_ATTR_ENUM:
		d->v.text = dup_str(k, a->v.text);
		break;
	case HILO_ATTR_INTS:
		d->v.ints = dup_bytes(k, a->v.ints, (size_t)a->n * sizeof(int64_t));
		break;
	case HILO_ATTR_SLICE:
	case HILO_ATTR_PADDING:
		d->v.ints = dup_bytes(k, a->v.ints, (size_t)a->n * 3 * sizeof(int64_t));
		break;
	default:
		break; /* INT, BOOL, COMP(S) index, CONTROL, METADATA: plain values */
	}
}

static hilo_instr *map_instr(cloner *k, const hilo_instr *i)
{
	hilo_instr *d = NULL;
	if (i && i->id < k->nid)
		d = k->src_by_id[i->id] == i ? k->dst_by_id[i->id] : NULL;
	else if (i)
		d = hilo_ptrmap_get(&k->instrs, i);
	if (i && !d)
		k->oom = true; /* an edge to an instruction outside the module */
	return d;
}

static hilo_instr **map_instrs(cloner *k, hilo_instr *const *v, uint32_t n)
{
	if (!n)
		return NULL;
	hilo_instr **d = alloc(k, n * sizeof *d);
	if (d)
		for (uint32_t j = 0; j < n; j++)
			d[j] = map_instr(k, v[j]);
	return d;
}

/* First pass: the instruction itself, without edges to other instructions. */
static hilo_instr *copy_instr_body(cloner *k, const hilo_instr *i, hilo_comp *parent)
{
	hilo_instr *d = alloc(k, sizeof *d);
	if (!d)
		return NULL;
	*d = *i; /* the plain fields; every pointer is reset below */
	d->name = intern(k, i->name);
	if (d->name)
		hilo_module_claim_name(k->dst, d->name);
	d->shape = copy_shape(k, i->shape);
	d->parent = parent;
	d->prev = d->next = NULL;
	d->operands = NULL;
	d->users = NULL;
	d->cap_operands = i->noperands;
	d->cap_users = i->nusers;
	if (i->op == HILO_OP_CONSTANT)
		d->u.literal = copy_literal(k, i->u.literal);
	d->cold = NULL;
	if (i->cold) {
		d->cold = alloc(k, sizeof *d->cold);
		if (d->cold) {
			d->cold->ncalled = i->cold->ncalled;
			d->cold->cap_ctrl_preds = d->cold->nctrl_preds = i->cold->nctrl_preds;
			d->cold->cap_ctrl_succs = d->cold->nctrl_succs = i->cold->nctrl_succs;
			d->cold->comment = dup_str(k, i->cold->comment);
		}
	}
	d->aux = NULL;
	d->mark = 0;
	d->attrs = NULL;
	d->cap_attrs = i->nattrs;
	if (i->nattrs) {
		d->attrs = alloc(k, i->nattrs * sizeof *d->attrs);
		if (d->attrs)
			for (uint32_t a = 0; a < i->nattrs; a++)
				copy_attr(k, &d->attrs[a], &i->attrs[a]);
	}
	if (i->metadata) {
		d->metadata = alloc(k, sizeof *d->metadata);
		if (d->metadata) {
			d->metadata->n = i->metadata->n;
			d->metadata->e = alloc(k, (size_t)(i->metadata->n + 1) * sizeof(hilo_md_entry));
			if (d->metadata->e)
				for (int e = 0; e < i->metadata->n; e++) {
					d->metadata->e[e].key = intern(k, i->metadata->e[e].key);
					d->metadata->e[e].value = dup_str(k, i->metadata->e[e].value);
				}
		}
	}
	if (i->id < k->nid) {
		k->src_by_id[i->id] = i;
		k->dst_by_id[i->id] = d;
	} else if (!hilo_ptrmap_put(&k->instrs, i, d)) {
		k->oom = true;
	}
	return d;
}

/* Second pass: operands, users, control edges and called computations. */
static void copy_instr_edges(cloner *k, const hilo_instr *i, hilo_instr *d)
{
	if (i->noperands <= HILO_INLINE_OPERANDS) {
		d->operands = d->inline_ops;
		d->cap_operands = HILO_INLINE_OPERANDS;
		for (uint32_t j = 0; j < i->noperands; j++)
			d->operands[j] = map_instr(k, i->operands[j]);
	} else {
		d->operands = map_instrs(k, i->operands, i->noperands);
	}
	if (d->cold) {
		d->cold->ctrl_preds = map_instrs(k, i->cold->ctrl_preds, i->cold->nctrl_preds);
		d->cold->ctrl_succs = map_instrs(k, i->cold->ctrl_succs, i->cold->nctrl_succs);
	}
	if (i->nusers) {
		if (i->nusers <= HILO_INLINE_USERS) {
			d->users = d->inline_users;
			d->cap_users = HILO_INLINE_USERS;
		} else {
			d->users = alloc(k, i->nusers * sizeof *d->users);
		}
		if (d->users)
			for (uint32_t u = 0; u < i->nusers; u++) {
				d->users[u].user = map_instr(k, i->users[u].user);
				d->users[u].slot = i->users[u].slot;
			}
	}
	if (hilo_instr_ncalled(i) && d->cold) {
		hilo_comp **dc = d->cold->called = alloc(k, i->cold->ncalled * sizeof *dc);
		if (dc)
			for (uint32_t c = 0; c < i->cold->ncalled; c++) {
				dc[c] = hilo_ptrmap_get(&k->comps, i->cold->called[c]);
				if (!dc[c])
					k->oom = true;
			}
	}
}

static hilo_comp *copy_comp_body(cloner *k, const hilo_comp *c)
{
	hilo_comp *d = alloc(k, sizeof *d);
	if (!d)
		return NULL;
	*d = *c;
	d->name = intern(k, c->name);
	d->parent = k->dst;
	d->first = d->last = NULL;
	d->ninstrs = 0;
	d->params = NULL;
	d->cap_params = c->nparams;
	d->root = NULL;
	d->execution_thread = dup_str(k, c->execution_thread);
	d->gap_before = dup_str(k, c->gap_before);
	d->brace_comment = dup_str(k, c->brace_comment);
	d->mark = 0;
	d->aux = NULL;
	for (const hilo_instr *i = c->first; i; i = i->next) {
		hilo_instr *n = copy_instr_body(k, i, d);
		if (!n)
			return d;
		n->prev = d->last;
		if (d->last)
			d->last->next = n;
		else
			d->first = n;
		d->last = n;
		d->ninstrs++;
	}
	if (!hilo_ptrmap_put(&k->comps, c, d))
		k->oom = true;
	return d;
}

static void copy_comp_edges(cloner *k, const hilo_comp *c, hilo_comp *d)
{
	hilo_instr *n = d->first;
	for (const hilo_instr *i = c->first; i && n; i = i->next, n = n->next)
		copy_instr_edges(k, i, n);
	d->params = map_instrs(k, c->params, c->nparams);
	d->root = c->root ? map_instr(k, c->root) : NULL;
}

static hilo_module *clone_into(const hilo_module *src, hilo_module *dst);

/* Out of memory: NULL (the caller reports it), nothing leaked. */
hilo_module *hilo_module_clone(const hilo_module *src)
{
	return hilo_module_clone_in(src, NULL);
}

hilo_module *hilo_module_clone_in(const hilo_module *src, hilo_arena *parent)
{
	if (!src)
		return NULL;
	hilo_module *dst = hilo_module_create_in(src->name, parent);
	if (!dst)
		return NULL;
	HILO_OOM_CATCH(g, dst->arena) {
		hilo_module_destroy(dst);
		return NULL;
	}
	hilo_module *r = clone_into(src, dst);
	hilo_oom_end(&g);
	if (!r)
		hilo_module_destroy(dst);
	return r;
}

static hilo_module *clone_into(const hilo_module *src, hilo_module *dst)
{
	cloner k = {.src = src, .dst = dst};
	hilo_ptrmap_init_in(&k.instrs, dst->arena);
	hilo_ptrmap_init_in(&k.comps, dst->arena);
	/* one name per instruction and computation: the table is sized once
	 * instead of doubling through the copy */
	hilo_strtab_reserve(dst->strings, (size_t)hilo_module_instr_count(src) + src->ncomps);
	/* by-id tables (zeroed) on the tracked heap, freed below */
	k.nid = src->next_id;
	size_t tab = ((size_t)k.nid + 1) * sizeof(void *);
	k.src_by_id = hilo_heap_alloc(dst->arena, tab);
	k.dst_by_id = hilo_heap_alloc(dst->arena, tab);
	if (!k.src_by_id || !k.dst_by_id) {
		hilo_heap_free(dst->arena, k.src_by_id);
		hilo_heap_free(dst->arena, k.dst_by_id);
		return NULL;
	}

	/* every plain field (flags, style, next_id, ...) as in the source, so
	 * new scalar fields of hilo_module are carried over automatically;
	 * then each pointer field is replaced by a copy in the new arena */
	hilo_arena *arena = dst->arena;
	hilo_strtab *strings = dst->strings;
	struct name_set *names = dst->names;
	hilo_shape_table *shapes = dst->shapes;
	const char *name = dst->name;
	*dst = *src;
	dst->arena = arena;
	dst->strings = strings;
	dst->shapes = shapes;
	dst->names = names;
	dst->name = name;
	dst->attrs = NULL;
	dst->nattrs = 0;
	dst->comps = NULL;
	dst->ncomps = dst->cap_comps = 0;
	dst->entry = NULL;
	/* unknown proto fields live in a proto-private table keyed by the
	 * source's computations: not carried over */
	dst->proto_extra = NULL;
	if (src->nattrs) {
		dst->attrs = alloc(&k, src->nattrs * sizeof *dst->attrs);
		if (dst->attrs) {
			for (uint32_t a = 0; a < src->nattrs; a++) {
				dst->attrs[a].key = dup_str(&k, src->attrs[a].key);
				dst->attrs[a].value = dup_str(&k, src->attrs[a].value);
				dst->attrs[a].sep = dup_str(&k, src->attrs[a].sep);
			}
			dst->nattrs = src->nattrs;
		}
	}
	dst->header = dup_str(&k, src->header);
	dst->stack_frames = dup_str(&k, src->stack_frames);
	dst->gap = dup_str(&k, src->gap);
	dst->trailer = dup_str(&k, src->trailer);

	if (src->ncomps) {
		dst->comps = alloc(&k, src->ncomps * sizeof *dst->comps);
		dst->cap_comps = src->ncomps;
	}
	/* bodies first (every instruction and computation gets its copy),
	 * then the edges, which may point anywhere in the module */
	for (uint32_t c = 0; c < src->ncomps && dst->comps && !k.oom; c++) {
		dst->comps[c] = copy_comp_body(&k, src->comps[c]);
		dst->ncomps = c + 1;
	}
	for (uint32_t c = 0; c < dst->ncomps && !k.oom; c++)
		copy_comp_edges(&k, src->comps[c], dst->comps[c]);
	if (src->entry && !k.oom)
		dst->entry = hilo_ptrmap_get(&k.comps, src->entry);

	hilo_ptrmap_free(&k.instrs);
	hilo_ptrmap_free(&k.comps);
	hilo_heap_free(dst->arena, k.src_by_id);
	hilo_heap_free(dst->arena, k.dst_by_id);
	if (k.oom)
		return NULL;
	return dst;
}
