/* The mesh forms of two attributes (src/formats/proto, beside pb_attrs.c):
 *   replica_groups=mesh['a'=2,'b'=2] {'b'}
 *       MeshAxesReplicaGroupListProto (HloInstructionProto 93)
 *   sharding={mesh['x'=1,'y'=2], [{'y'}, {}], unreduced={'x'}}
 *       OpSharding.named_sharding (14), a NamedShardingProto
 * Both name a mesh (MeshProto: axes with their sizes) and refer to its
 * axes as AxisRefProto (the axis's index in the mesh, and 'a':(pre)size
 * for a sub-axis): one reader and one printer of each, for both
 * attributes. Printed as XLA prints them (jaxlib 0.10.2's print of the
 * parser tests' modules). Device lists (device_ids=, an iota transform),
 * open dimensions and replicated or manual axes are not read: that text
 * stays in hilo's extension (the writer's exactness check). */
#include "pb_attrs.h"
#include "pb_cursor.h"

#include <string.h>

/* growable arrays of message pointers in an arena */
static bool push_ptr(hilo_arena *a, void ***v, size_t *n, size_t *cap, void *x)
{
	if (!x)
		return false;
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 4;
		void **nv = hilo_arena_grow(a, *v, *n, nc, sizeof *nv);
		if (!nv)
			return false;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = x;
	return true;
}

/* 'name' (no quote inside): its bytes in the text */
static bool quoted(cur *c, const char **s, size_t *n)
{
	if (!lit(c, "'"))
		return false;
	*s = c->p;
	while (c->p < c->e && *c->p != '\'')
		c->p++;
	if (c->p == c->e || c->p == *s)
		return false;
	*n = (size_t)(c->p - *s);
	c->p++;
	return true;
}

/* mesh['a'=2,'b'=4] */
static bool mesh_parse(cur *c, hilo_arena *a, Xla__MeshProto **out)
{
	Xla__MeshProto *m = aalloc(a, sizeof *m);
	if (!m || !lit(c, "mesh["))
		return false;
	xla__mesh_proto__init(m);
	size_t cap = 0;
	do {
		const char *s;
		size_t n;
		Xla__MeshProto__MeshAxis *ax = aalloc(a, sizeof *ax);
		if (!ax || !quoted(c, &s, &n) || !lit(c, "="))
			return false;
		xla__mesh_proto__mesh_axis__init(ax);
		if (!(ax->name = hilo_arena_strndup(a, s, n)) || !num(c, &ax->size) ||
		    !push_ptr(a, (void ***)&m->axes, &m->n_axes, &cap, ax))
			return false;
	} while (lit(c, ","));
	if (!lit(c, "]"))
		return false;
	*out = m;
	return true;
}

static bool mesh_render(hilo_buf *b, const Xla__MeshProto *m)
{
	if (!m || !m->n_axes || m->n_device_ids)
		return false;
	hilo_buf_puts(b, "mesh[");
	for (size_t k = 0; k < m->n_axes; k++) {
		if (k)
			hilo_buf_putc(b, ',');
		hilo_buf_putc(b, '\'');
		hilo_buf_puts(b, m->axes[k]->name ? m->axes[k]->name : "");
		hilo_buf_puts(b, "'=");
		hilo_buf_put_i64(b, m->axes[k]->size);
	}
	hilo_buf_putc(b, ']');
	return true;
}

/* 'a' or 'a':(pre)size, an axis of mesh m */
static Xla__AxisRefProto *axis_parse(cur *c, hilo_arena *a, const Xla__MeshProto *m)
{
	const char *s;
	size_t n;
	Xla__AxisRefProto *r = aalloc(a, sizeof *r);
	if (!r || !quoted(c, &s, &n))
		return NULL;
	xla__axis_ref_proto__init(r);
	size_t k = 0;
	while (k < m->n_axes && !(m->axes[k]->name && strlen(m->axes[k]->name) == n &&
	                          !memcmp(m->axes[k]->name, s, n)))
		k++;
	if (k == m->n_axes)
		return NULL;
	r->mesh_axis_index = (int64_t)k;
	if (lit(c, ":(")) {
		Xla__AxisRefProto__SubAxis *sub = aalloc(a, sizeof *sub);
		if (!sub)
			return NULL;
		xla__axis_ref_proto__sub_axis__init(sub);
		if (!num(c, &sub->pre_size) || !lit(c, ")") || !num(c, &sub->size))
			return NULL;
		r->sub_axis_info = sub;
	}
	return r;
}

static bool axis_render(hilo_buf *b, const Xla__MeshProto *m, const Xla__AxisRefProto *r)
{
	if (r->mesh_axis_index < 0 || (size_t)r->mesh_axis_index >= m->n_axes)
		return false;
	hilo_buf_putc(b, '\'');
	const char *name = m->axes[r->mesh_axis_index]->name;
	hilo_buf_puts(b, name ? name : "");
	hilo_buf_putc(b, '\'');
	if (r->sub_axis_info)
		hilo_buf_printf(b, ":(%lld)%lld", (long long)r->sub_axis_info->pre_size,
		                (long long)r->sub_axis_info->size);
	return true;
}

/* {'a','b':(1)2} */
static bool axes_parse(cur *c, hilo_arena *a, const Xla__MeshProto *m, Xla__AxisRefProto ***v, size_t *n)
{
	size_t cap = 0;
	if (!lit(c, "{"))
		return false;
	if (lit(c, "}"))
		return true;
	do {
		if (!push_ptr(a, (void ***)v, n, &cap, axis_parse(c, a, m)))
			return false;
	} while (lit(c, ","));
	return lit(c, "}");
}

static bool axes_render(hilo_buf *b, const Xla__MeshProto *m, Xla__AxisRefProto *const *v, size_t n)
{
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < n; k++) {
		if (k)
			hilo_buf_putc(b, ',');
		if (!axis_render(b, m, v[k]))
			return false;
	}
	hilo_buf_putc(b, '}');
	return true;
}

/* ---- replica_groups=mesh[...] {...} ---- */

bool pbx_mesh_axes_list_parse(hilo_arena *a, Xla__MeshAxesReplicaGroupListProto **out, const char *t)
{
	cur c = {t, t + strlen(t)};
	Xla__MeshAxesReplicaGroupListProto *g = aalloc(a, sizeof *g);
	if (!g)
		return false;
	xla__mesh_axes_replica_group_list_proto__init(g);
	if (!mesh_parse(&c, a, &g->mesh) || !axes_parse(&c, a, g->mesh, &g->axes, &g->n_axes) ||
	    !at_end(&c))
		return false;
	*out = g;
	return true;
}

bool pbx_mesh_axes_list_render(hilo_buf *b, const Xla__MeshAxesReplicaGroupListProto *g)
{
	if (!g || !mesh_render(b, g->mesh))
		return false;
	hilo_buf_putc(b, ' ');
	return axes_render(b, g->mesh, g->axes, g->n_axes);
}

/* ---- sharding={mesh[...], [{..}, ..], unreduced={..}} ---- */

bool pbx_named_sharding_parse(struct cur *c, hilo_arena *a, Xla__NamedShardingProto **out)
{
	Xla__NamedShardingProto *s = aalloc(a, sizeof *s);
	if (!s)
		return false;
	xla__named_sharding_proto__init(s);
	if (!mesh_parse(c, a, &s->mesh) || !lit(c, ",") || !lit(c, "["))
		return false;
	size_t cap = 0;
	if (!lit(c, "]")) {
		do {
			Xla__NamedShardingProto__DimensionSharding *d = aalloc(a, sizeof *d);
			if (!d)
				return false;
			xla__named_sharding_proto__dimension_sharding__init(d);
			d->is_closed = true;
			if (!axes_parse(c, a, s->mesh, &d->axes, &d->n_axes) ||
			    !push_ptr(a, (void ***)&s->dim_shardings, &s->n_dim_shardings, &cap, d))
				return false;
		} while (lit(c, ","));
		if (!lit(c, "]"))
			return false;
	}
	if (lit(c, ",") && (!lit(c, "unreduced=") ||
	                    !axes_parse(c, a, s->mesh, &s->unreduced_axes, &s->n_unreduced_axes)))
		return false;
	*out = s;
	return true;
}

bool pbx_named_sharding_render(hilo_buf *b, const Xla__NamedShardingProto *s)
{
	if (!s || s->n_replicated_axes || s->n_manual_axes || s->n_metadata || !mesh_render(b, s->mesh))
		return false;
	hilo_buf_puts(b, ", [");
	for (size_t k = 0; k < s->n_dim_shardings; k++) {
		const Xla__NamedShardingProto__DimensionSharding *d = s->dim_shardings[k];
		if (k)
			hilo_buf_puts(b, ", ");
		if (!d->is_closed || !axes_render(b, s->mesh, d->axes, d->n_axes))
			return false;
	}
	hilo_buf_putc(b, ']');
	if (s->n_unreduced_axes) {
		hilo_buf_puts(b, ", unreduced=");
		if (!axes_render(b, s->mesh, s->unreduced_axes, s->n_unreduced_axes))
			return false;
	}
	return true;
}
