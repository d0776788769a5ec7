/* Typed proto fields for attributes the IR keeps as raw text:
 * backend_config, frontend_attributes, replica_groups (list and iota
 * forms), source_target_pairs, window, dim_labels, sharding (replicated,
 * manual, unreduced, maximal, named over a mesh, tiled with explicit or iota devices, tuples), epsilon,
 * api_version, operand_precision, output_to_operand_aliasing,
 * parameter_replication, triangular-solve and cholesky options, a
 * custom-call's schedule and padding_type, plus the module's
 * input_output_alias, buffer_donor and frontend_attributes.
 *
 * Each attribute is parsed into its XLA message (so XLA and neuronx-cc
 * see real fields) and rendered back the way XLA prints it. The writer
 * keeps the verbatim text in hilo's extension only when the rendering
 * would not reproduce it byte for byte, so the text round trip stays
 * exact either way.
 */
#include "pb_attrs.h"
#include "pb_cursor.h"

#include <stdlib.h>
#include <string.h>

static bool backend_parse(hilo_arena *a, Xla__HloInstructionProto *p, const char *t)
{
	size_t n = strlen(t);
	if (n >= 2 && t[0] == '"' && t[n - 1] == '"') {
		hilo_buf b;
		hilo_buf_init_in(&b, a);
		bool ok = pb_unescape(&b, t + 1, n - 2) && !b.oom;
		if (ok) {
			uint8_t *d = aalloc(a, b.len);
			if (d && b.len)
				memcpy(d, b.data, b.len);
			p->backend_config = (ProtobufCBinaryData){b.len, d};
			ok = d != NULL;
		}
		hilo_buf_free(&b);
		return ok;
	}
	if (n && t[0] == '{') {
		p->backend_config = (ProtobufCBinaryData){n, (uint8_t *)t};
		return true;
	}
	return false;
}

static bool backend_render(hilo_buf *b, const Xla__HloInstructionProto *p)
{
	const char *s = (const char *)p->backend_config.data;
	size_t n = p->backend_config.len;
	if (!n)
		return false;
	if (s[0] == '{') {
		hilo_buf_put(b, s, n);
	} else {
		hilo_buf_putc(b, '"');
		pb_escape(b, s, n);
		hilo_buf_putc(b, '"');
	}
	return true;
}

/* ---- frontend_attributes ---- */

/* {k="v",k2={braced value}} */
static bool fa_parse(hilo_arena *a, Xla__FrontendAttributes **out, const char *t)
{
	cur c = {t, t + strlen(t)};
	Xla__FrontendAttributes *fa = aalloc(a, sizeof *fa);
	if (!fa || !lit(&c, "{"))
		return false;
	xla__frontend_attributes__init(fa);
	size_t cap = 0;
	if (!lit(&c, "}")) {
		for (;;) {
			ws(&c);
			const char *ks = c.p;
			while (c.p < c.e && *c.p != '=' && *c.p != ',' && *c.p != '}' && *c.p != ' ')
				c.p++;
			if (c.p == ks || !lit(&c, "="))
				return false;
			char *key = hilo_arena_strndup(a, ks, (size_t)(c.p - 1 - ks));
			ws(&c);
			char *val;
			if (c.p < c.e && *c.p == '"') {
				const char *vs = ++c.p;
				while (c.p < c.e && *c.p != '"') {
					if (*c.p == '\\')
						c.p++;
					c.p++;
				}
				if (c.p >= c.e)
					return false;
				hilo_buf b;
				hilo_buf_init_in(&b, a);
				bool ok = pb_unescape(&b, vs, (size_t)(c.p - vs)) && !b.oom && !memchr(b.data ? b.data : "", 0, b.len);
				val = ok ? hilo_arena_strndup(a, b.data ? b.data : "", b.len) : NULL;
				hilo_buf_free(&b);
				c.p++;
			} else if (c.p < c.e && *c.p == '{') {
				/* a braced value is kept as written, braces included (XLA
				 * prints one unquoted: xla.sdy.meshes={mesh = #sdy.mesh<...>}) */
				const char *vs = c.p;
				int depth = 0;
				bool quoted = false;
				for (; c.p < c.e; c.p++) {
					if (quoted) {
						if (*c.p == '\\' && c.p + 1 < c.e)
							c.p++;
						else if (*c.p == '"')
							quoted = false;
					} else if (*c.p == '"') {
						quoted = true;
					} else if (*c.p == '{') {
						depth++;
					} else if (*c.p == '}' && --depth == 0) {
						break;
					}
				}
				if (c.p >= c.e)
					return false;
				c.p++;
				val = hilo_arena_strndup(a, vs, (size_t)(c.p - vs));
			} else {
				return false;
			}
			if (!key || !val)
				return false;
			if (fa->n_map == cap) {
				cap = cap ? cap * 2 : 4;
				fa->map = hilo_arena_grow(a, fa->map, fa->n_map, cap, sizeof *fa->map);
				if (!fa->map)
					return false;
			}
			Xla__FrontendAttributes__MapEntry *me = aalloc(a, sizeof *me);
			if (!me)
				return false;
			xla__frontend_attributes__map_entry__init(me);
			me->key = key;
			me->value = val;
			fa->map[fa->n_map++] = me;
			if (lit(&c, ","))
				continue;
			if (!lit(&c, "}"))
				return false;
			break;
		}
	}
	if (!at_end(&c))
		return false;
	*out = fa;
	return true;
}

static bool fa_render(hilo_buf *b, const Xla__FrontendAttributes *fa)
{
	if (!fa)
		return false;
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < fa->n_map; k++) {
		if (k)
			hilo_buf_putc(b, ',');
		const char *key = fa->map[k]->key ? fa->map[k]->key : "";
		const char *v = fa->map[k]->value ? fa->map[k]->value : "";
		hilo_buf_puts(b, key);
		size_t n = strlen(v);
		if (n >= 2 && v[0] == '{' && v[n - 1] == '}') { /* as XLA prints it */
			hilo_buf_putc(b, '=');
			hilo_buf_put(b, v, n);
			continue;
		}
		hilo_buf_put(b, "=\"", 2);
		pb_escape(b, v, n);
		hilo_buf_putc(b, '"');
	}
	hilo_buf_putc(b, '}');
	return true;
}

/* ---- replica_groups / source_target_pairs ---- */

/* Read by hilo_replica_groups_parse (the one reader, src/ir/replica_groups.c);
 * the iota form is kept as written (not expanded). The groups' ids stay
 * on a's tracked heap, freed with the arena. */
static bool groups_to_proto(hilo_arena *a, Xla__HloInstructionProto *p, const char *t)
{
	if (!strncmp(t, "mesh[", 5))
		return pbx_mesh_axes_list_parse(a, &p->mesh_axes_replica_group_list, t);
	hilo_replica_groups g;
	if (!hilo_replica_groups_parse(a, t, strlen(t), false, &g))
		return false;
	if (g.iota) {
		/* in iota_collective_device_list (92), where XLA keeps the iota
		 * form: XLA reads an IotaReplicaGroupListProto inside
		 * collective_device_list (87) as no groups at all */
		Xla__IotaReplicaGroupListProto *io = aalloc(a, sizeof *io);
		int64_t *dims = aalloc(a, (size_t)g.ndims * sizeof *dims);
		int32_t *perm = aalloc(a, (size_t)g.ndims * sizeof *perm + 1);
		if (!io || !dims || !perm)
			return false;
		xla__iota_replica_group_list_proto__init(io);
		io->num_replica_groups = g.ngroups;
		io->num_devices_per_group = g.group_size;
		memcpy(dims, g.dims, (size_t)g.ndims * sizeof *dims);
		io->n_iota_reshape_dims = (size_t)g.ndims;
		io->iota_reshape_dims = dims;
		/* XLA's reader wants a transpose as long as the reshape dims
		 * (IotaReplicaGroupList / IotaTileAssignment): identity when the
		 * text has no T(...), as XLA's own writer does */
		io->n_iota_transpose_perm = (size_t)g.ndims;
		io->iota_transpose_perm = perm;
		for (int k = 0; k < g.ndims; k++)
			perm[k] = g.transposed ? (int32_t)g.perm[k] : k;
		p->iota_collective_device_list = io;
		return true;
	}
	if (g.ngroups) {
		p->replica_groups = aalloc(a, (size_t)g.ngroups * sizeof *p->replica_groups);
		if (!p->replica_groups)
			return false;
	}
	for (int64_t k = 0; k < g.ngroups; k++) {
		Xla__ReplicaGroup *rg = aalloc(a, sizeof *rg);
		if (!rg)
			return false;
		xla__replica_group__init(rg);
		rg->n_replica_ids = (size_t)(g.start[k + 1] - g.start[k]);
		/* an empty group ({{}}): no ids, perhaps none at all (NULL) */
		rg->replica_ids = rg->n_replica_ids ? g.ids + g.start[k] : NULL;
		p->replica_groups[p->n_replica_groups++] = rg;
	}
	return true;
}

/* An iota transpose that moves nothing (or none at all): printed as no
 * T(...), as XLA prints it. */
static bool perm_is_identity(const int32_t *p, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (p[k] != (int32_t)k)
			return false;
	return true;
}

static bool groups_render(hilo_buf *b, const Xla__HloInstructionProto *p)
{
	const Xla__CollectiveDeviceListProto *cd = p->collective_device_list;
	const Xla__IotaReplicaGroupListProto *io = p->iota_collective_device_list;
	if (p->mesh_axes_replica_group_list)
		return pbx_mesh_axes_list_render(b, p->mesh_axes_replica_group_list);
	if (!io && cd)
		io = cd->iota_replica_group_list; /* as hilo wrote it before */
	if (io) {
		hilo_buf_putc(b, '[');
		hilo_buf_put_i64(b, io->num_replica_groups);
		hilo_buf_putc(b, ',');
		hilo_buf_put_i64(b, io->num_devices_per_group);
		hilo_buf_put(b, "]<=", 3);
		put_list(b, io->iota_reshape_dims, io->n_iota_reshape_dims, '[', ']', ",");
		if (!perm_is_identity(io->iota_transpose_perm, io->n_iota_transpose_perm)) {
			hilo_buf_put(b, "T(", 2);
			for (size_t k = 0; k < io->n_iota_transpose_perm; k++) {
				if (k)
					hilo_buf_putc(b, ',');
				hilo_buf_put_i64(b, io->iota_transpose_perm[k]);
			}
			hilo_buf_putc(b, ')');
		}
		return true;
	}
	Xla__ReplicaGroup *const *g = p->replica_groups;
	size_t n = p->n_replica_groups;
	if (!n && cd) {
		g = cd->replica_groups;
		n = cd->n_replica_groups;
	}
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < n; k++) {
		if (k)
			hilo_buf_putc(b, ',');
		put_list(b, g[k]->replica_ids, g[k]->n_replica_ids, '{', '}', ",");
	}
	hilo_buf_putc(b, '}');
	return true;
}

static bool pairs_parse(hilo_arena *a, Xla__HloInstructionProto *p, const char *t)
{
	cur c = {t, t + strlen(t)};
	if (!lit(&c, "{"))
		return false;
	size_t cap = 0;
	if (!lit(&c, "}")) {
		for (;;) {
			int64_t s, d;
			if (!lit(&c, "{") || !num(&c, &s) || !lit(&c, ",") || !num(&c, &d) || !lit(&c, "}"))
				return false;
			if (p->n_source_target_pairs == cap) {
				cap = cap ? cap * 2 : 4;
				p->source_target_pairs = hilo_arena_grow(a, p->source_target_pairs,
					p->n_source_target_pairs, cap, sizeof *p->source_target_pairs);
				if (!p->source_target_pairs)
					return false;
			}
			Xla__SourceTarget *st = aalloc(a, sizeof *st);
			if (!st)
				return false;
			xla__source_target__init(st);
			st->source = s;
			st->target = d;
			p->source_target_pairs[p->n_source_target_pairs++] = st;
			if (lit(&c, ","))
				continue;
			if (!lit(&c, "}"))
				return false;
			break;
		}
	}
	return at_end(&c);
}

static bool pairs_render(hilo_buf *b, const Xla__HloInstructionProto *p)
{
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < p->n_source_target_pairs; k++) {
		if (k)
			hilo_buf_putc(b, ',');
		hilo_buf_putc(b, '{');
		hilo_buf_put_i64(b, p->source_target_pairs[k]->source);
		hilo_buf_putc(b, ',');
		hilo_buf_put_i64(b, p->source_target_pairs[k]->target);
		hilo_buf_putc(b, '}');
	}
	hilo_buf_putc(b, '}');
	return true;
}

/* ---- window ---- */

/* AxBxC -> values; for pad: lo_hi pairs */
static bool x_list(cur *c, hilo_arena *a, ivec *x, int per)
{
	for (;;) {
		for (int k = 0; k < per; k++) {
			int64_t v;
			if (k && !(c->p < c->e && *c->p == '_' && ++c->p))
				return false;
			if (!num(c, &v) || !push(a, x, v))
				return false;
		}
		if (c->p < c->e && *c->p == 'x') {
			c->p++;
			continue;
		}
		return true;
	}
}

static bool window_parse(hilo_arena *a, Xla__HloInstructionProto *p, const char *t)
{
	cur c = {t, t + strlen(t)};
	ivec size = {0}, stride = {0}, pad = {0}, lhs = {0}, rhs = {0}, rev = {0};
	if (!lit(&c, "{"))
		return false;
	while (!lit(&c, "}")) {
		ivec *x;
		int per = 1;
		if (lit(&c, "size="))
			x = &size;
		else if (lit(&c, "stride="))
			x = &stride;
		else if (lit(&c, "pad="))
			x = &pad, per = 2;
		else if (lit(&c, "lhs_dilate="))
			x = &lhs;
		else if (lit(&c, "rhs_dilate="))
			x = &rhs;
		else if (lit(&c, "rhs_reversal="))
			x = &rev;
		else
			return false;
		if (x->n || !x_list(&c, a, x, per))
			return false;
	}
	if (!at_end(&c))
		return false;
	size_t n = size.n;
	if ((stride.n && stride.n != n) || (pad.n && pad.n != 2 * n) || (lhs.n && lhs.n != n) ||
	    (rhs.n && rhs.n != n) || (rev.n && rev.n != n))
		return false;
	Xla__Window *w = aalloc(a, sizeof *w);
	if (!w)
		return false;
	xla__window__init(w);
	w->n_dimensions = n;
	w->dimensions = aalloc(a, n * sizeof *w->dimensions);
	if (!w->dimensions)
		return false;
	for (size_t k = 0; k < n; k++) {
		Xla__WindowDimension *d = aalloc(a, sizeof *d);
		if (!d)
			return false;
		xla__window_dimension__init(d);
		d->size = size.v[k];
		d->stride = stride.n ? stride.v[k] : 1;
		d->padding_low = pad.n ? pad.v[2 * k] : 0;
		d->padding_high = pad.n ? pad.v[2 * k + 1] : 0;
		d->base_dilation = lhs.n ? lhs.v[k] : 1;
		d->window_dilation = rhs.n ? rhs.v[k] : 1;
		d->window_reversal = rev.n ? rev.v[k] != 0 : 0;
		w->dimensions[k] = d;
	}
	p->window = w;
	return true;
}

static bool window_render(hilo_buf *b, const Xla__Window *w)
{
	if (!w)
		return false;
	size_t n = w->n_dimensions;
	bool st = false, pd = false, lh = false, rh = false, rv = false;
	for (size_t k = 0; k < n; k++) {
		const Xla__WindowDimension *d = w->dimensions[k];
		st |= d->stride != 1;
		pd |= d->padding_low != 0 || d->padding_high != 0;
		lh |= d->base_dilation != 1;
		rh |= d->window_dilation != 1;
		rv |= d->window_reversal;
	}
	hilo_buf_putc(b, '{');
	bool first = true;
#define FIELD(cond, name, expr)                                       \
	if (cond) {                                                       \
		if (!first)                                                   \
			hilo_buf_putc(b, ' ');                                    \
		first = false;                                                \
		hilo_buf_puts(b, name);                                       \
		for (size_t k = 0; k < n; k++) {                              \
			const Xla__WindowDimension *d = w->dimensions[k];         \
			if (k)                                                    \
				hilo_buf_putc(b, 'x');                                \
			expr;                                                     \
		}                                                             \
	}
	FIELD(n > 0, "size=", hilo_buf_put_i64(b, d->size))
	FIELD(st, "stride=", hilo_buf_put_i64(b, d->stride))
	FIELD(pd, "pad=", (hilo_buf_put_i64(b, d->padding_low), hilo_buf_putc(b, '_'),
		hilo_buf_put_i64(b, d->padding_high)))
	FIELD(lh, "lhs_dilate=", hilo_buf_put_i64(b, d->base_dilation))
	FIELD(rh, "rhs_dilate=", hilo_buf_put_i64(b, d->window_dilation))
	FIELD(rv, "rhs_reversal=", hilo_buf_put_i64(b, d->window_reversal ? 1 : 0))
#undef FIELD
	hilo_buf_putc(b, '}');
	return true;
}

/* ---- dim_labels: b01f_01io->b01f ---- */

static bool labels_part(cur *c, char a1, char a2, int64_t *d1, int64_t *d2, ivec *sp,
	hilo_arena *a, size_t *rank)
{
	int64_t pos = 0;
	bool s1 = false, s2 = false;
	ivec tmp = {0};
	/* spatial digits can come in any order: place by digit */
	int64_t where[10];
	int nsp = 0;
	while (c->p < c->e && *c->p != '_' && *c->p != '-' && *c->p != ' ') {
		char ch = *c->p++;
		if (ch == a1 && !s1) {
			*d1 = pos;
			s1 = true;
		} else if (ch == a2 && !s2) {
			*d2 = pos;
			s2 = true;
		} else if (ch >= '0' && ch <= '9' && ch - '0' < 10) {
			int dgt = ch - '0';
			if (dgt != nsp && dgt >= 10)
				return false;
			if (dgt >= 10)
				return false;
			where[dgt] = pos;
			nsp++;
		} else if (ch != '?') { /* '?': a dimension of no role */
			return false;
		}
		pos++;
	}
	if (!s1 || !s2)
		return false;
	for (int k = 0; k < nsp; k++) {
		/* digits must be 0..nsp-1 */
		bool found = false;
		const char *q = c->p - pos;
		for (int64_t j = 0; j < pos; j++)
			if (q[j] == '0' + k)
				found = true;
		if (!found || !push(a, &tmp, where[k]))
			return false;
	}
	*sp = tmp;
	*rank = (size_t)pos;
	return true;
}

static bool labels_parse(hilo_arena *a, Xla__HloInstructionProto *p, const char *t)
{
	cur c = {t, t + strlen(t)};
	Xla__ConvolutionDimensionNumbers *d = aalloc(a, sizeof *d);
	if (!d)
		return false;
	xla__convolution_dimension_numbers__init(d);
	ivec is = {0}, ks = {0}, os = {0};
	size_t r1, r2, r3;
	if (!labels_part(&c, 'b', 'f', &d->input_batch_dimension, &d->input_feature_dimension, &is, a, &r1) ||
	    !lit(&c, "_") ||
	    !labels_part(&c, 'i', 'o', &d->kernel_input_feature_dimension, &d->kernel_output_feature_dimension, &ks, a, &r2) ||
	    !lit(&c, "->") ||
	    !labels_part(&c, 'b', 'f', &d->output_batch_dimension, &d->output_feature_dimension, &os, a, &r3) ||
	    !at_end(&c) || r1 != r2 || r2 != r3)
		return false;
	d->n_input_spatial_dimensions = is.n;
	d->input_spatial_dimensions = is.v;
	d->n_kernel_spatial_dimensions = ks.n;
	d->kernel_spatial_dimensions = ks.v;
	d->n_output_spatial_dimensions = os.n;
	d->output_spatial_dimensions = os.v;
	p->convolution_dimension_numbers = d;
	return true;
}

static bool labels_one(hilo_buf *b, int64_t d1, char c1, int64_t d2, char c2,
	const int64_t *sp, size_t nsp)
{
	/* '?' fills the positions no role names, up to the largest one named
	 * (hlo_parser.cc takes ?b01f_0?1io->b01?f) */
	size_t rank = nsp + 2;
	int64_t top = d1 > d2 ? d1 : d2;
	for (size_t k = 0; k < nsp; k++)
		top = sp[k] > top ? sp[k] : top;
	if (top >= 0 && top < 16 && (size_t)top + 1 > rank)
		rank = (size_t)top + 1;
	char s[16];
	if (rank > 12)
		return false;
	memset(s, '?', rank);
	s[rank] = 0;
	if (d1 < 0 || (size_t)d1 >= rank || d2 < 0 || (size_t)d2 >= rank)
		return false;
	s[d1] = c1;
	s[d2] = c2;
	for (size_t k = 0; k < nsp; k++) {
		if (sp[k] < 0 || (size_t)sp[k] >= rank)
			return false;
		s[sp[k]] = (char)('0' + k);
	}
	hilo_buf_puts(b, s);
	return true;
}

static bool labels_render(hilo_buf *b, const Xla__ConvolutionDimensionNumbers *d)
{
	if (!d || d->n_input_spatial_dimensions > 10)
		return false;
	return labels_one(b, d->input_batch_dimension, 'b', d->input_feature_dimension, 'f',
	                  d->input_spatial_dimensions, d->n_input_spatial_dimensions) &&
	       (hilo_buf_putc(b, '_'), true) &&
	       labels_one(b, d->kernel_input_feature_dimension, 'i', d->kernel_output_feature_dimension, 'o',
	                  d->kernel_spatial_dimensions, d->n_kernel_spatial_dimensions) &&
	       (hilo_buf_put(b, "->", 2), true) &&
	       labels_one(b, d->output_batch_dimension, 'b', d->output_feature_dimension, 'f',
	                  d->output_spatial_dimensions, d->n_output_spatial_dimensions);
}

/* ---- sharding ---- */

static bool sharding_one(cur *c, hilo_arena *a, Xla__OpSharding *s, int depth)
{
	xla__op_sharding__init(s);
	if (depth > 8 || !lit(c, "{"))
		return false;
	ws(c);
	if (c->p < c->e && *c->p == '{') {
		/* tuple */
		size_t cap = 0;
		s->type = XLA__OP_SHARDING__TYPE__TUPLE;
		for (;;) {
			Xla__OpSharding *e = aalloc(a, sizeof *e);
			if (!e || !sharding_one(c, a, e, depth + 1))
				return false;
			if (s->n_tuple_shardings == cap) {
				cap = cap ? cap * 2 : 4;
				s->tuple_shardings = hilo_arena_grow(a, s->tuple_shardings, s->n_tuple_shardings, cap, sizeof *s->tuple_shardings);
				if (!s->tuple_shardings)
					return false;
			}
			s->tuple_shardings[s->n_tuple_shardings++] = e;
			if (lit(c, ","))
				continue;
			return lit(c, "}");
		}
	}
	if (c->e - c->p > 5 && !memcmp(c->p, "mesh[", 5)) {
		if (!pbx_named_sharding_parse(c, a, &s->named_sharding))
			return false;
	} else if (lit(c, "replicated")) {
		s->type = XLA__OP_SHARDING__TYPE__REPLICATED;
	} else if (lit(c, "manual")) {
		s->type = XLA__OP_SHARDING__TYPE__MANUAL;
	} else if (lit(c, "unreduced")) {
		s->type = XLA__OP_SHARDING__TYPE__UNREDUCED;
	} else if (lit(c, "maximal device=")) {
		int64_t d;
		if (!num(c, &d))
			return false;
		s->type = XLA__OP_SHARDING__TYPE__MAXIMAL;
		s->n_tile_assignment_dimensions = 1;
		s->tile_assignment_dimensions = aalloc(a, sizeof(int64_t));
		s->n_tile_assignment_devices = 1;
		s->tile_assignment_devices = aalloc(a, sizeof(int64_t));
		if (!s->tile_assignment_dimensions || !s->tile_assignment_devices)
			return false;
		s->tile_assignment_dimensions[0] = 1;
		s->tile_assignment_devices[0] = d;
	} else if (lit(c, "devices=")) {
		ivec dims = {0}, devs = {0}, rs = {0}, perm = {0};
		s->type = XLA__OP_SHARDING__TYPE__OTHER;
		if (!bracket_list(c, a, &dims))
			return false;
		if (lit(c, "<=")) {
			if (!bracket_list(c, a, &rs))
				return false;
			if (c->p < c->e && *c->p == 'T') {
				c->p++;
				if (!lit(c, "("))
					return false;
				for (;;) {
					int64_t v;
					if (!num(c, &v) || !push(a, &perm, v))
						return false;
					if (lit(c, ","))
						continue;
					if (!lit(c, ")"))
						return false;
					break;
				}
			}
			/* XLA's OpSharding proto always has one transpose entry per
			 * reshape dimension (HloSharding::FromProto RET_CHECKs the
			 * sizes): no T(...) is the identity */
			s->n_iota_reshape_dims = rs.n;
			s->iota_reshape_dims = rs.v;
			s->n_iota_transpose_perm = perm.n ? perm.n : rs.n;
			s->iota_transpose_perm = aalloc(a, (s->n_iota_transpose_perm + 1) * sizeof(int32_t));
			if (!s->iota_transpose_perm)
				return false;
			for (size_t k = 0; k < s->n_iota_transpose_perm; k++)
				s->iota_transpose_perm[k] = (int32_t)(perm.n ? perm.v[k] : (int64_t)k);
		} else {
			for (;;) {
				int64_t v;
				if (!num(c, &v) || !push(a, &devs, v))
					return false;
				if (c->p < c->e && *c->p == ',') {
					c->p++;
					continue;
				}
				break;
			}
			s->n_tile_assignment_devices = devs.n;
			s->tile_assignment_devices = devs.v;
		}
		s->n_tile_assignment_dimensions = dims.n;
		s->tile_assignment_dimensions = dims.v;
		if (lit(c, "last_tile_dim_replicate"))
			s->replicate_on_last_tile_dim = true;
	} else {
		return false;
	}
	return lit(c, "}");
}

static bool sharding_parse(hilo_arena *a, Xla__OpSharding **out, const char *t)
{
	cur c = {t, t + strlen(t)};
	Xla__OpSharding *s = aalloc(a, sizeof *s);
	if (!s || !sharding_one(&c, a, s, 0) || !at_end(&c))
		return false;
	*out = s;
	return true;
}

static bool sharding_render_one(hilo_buf *b, const Xla__OpSharding *s, int depth)
{
	if (depth > 8)
		return false;
	hilo_buf_putc(b, '{');
	if (s->named_sharding) {
		if (!pbx_named_sharding_render(b, s->named_sharding))
			return false;
		hilo_buf_putc(b, '}');
		return true;
	}
	switch (s->type) {
	case XLA__OP_SHARDING__TYPE__TUPLE:
		for (size_t k = 0; k < s->n_tuple_shardings; k++) {
			if (k)
				hilo_buf_put(b, ", ", 2);
			if (!sharding_render_one(b, s->tuple_shardings[k], depth + 1))
				return false;
		}
		break;
	case XLA__OP_SHARDING__TYPE__REPLICATED: hilo_buf_puts(b, "replicated"); break;
	case XLA__OP_SHARDING__TYPE__MANUAL: hilo_buf_puts(b, "manual"); break;
	case XLA__OP_SHARDING__TYPE__UNREDUCED: hilo_buf_puts(b, "unreduced"); break;
	case XLA__OP_SHARDING__TYPE__MAXIMAL:
		if (s->n_tile_assignment_devices != 1)
			return false;
		hilo_buf_puts(b, "maximal device=");
		hilo_buf_put_i64(b, s->tile_assignment_devices[0]);
		break;
	case XLA__OP_SHARDING__TYPE__OTHER:
		hilo_buf_puts(b, "devices=");
		put_list(b, s->tile_assignment_dimensions, s->n_tile_assignment_dimensions, '[', ']', ",");
		if (s->n_iota_reshape_dims) {
			hilo_buf_put(b, "<=", 2);
			put_list(b, s->iota_reshape_dims, s->n_iota_reshape_dims, '[', ']', ",");
			/* an identity transpose prints as nothing, as XLA prints it
			 * (its parser rejects "<=[8]T(0)"; XLA merges the dimensions
			 * of an identity transpose, so it never prints one) */
			bool identity = true;
			for (size_t k = 0; k < s->n_iota_transpose_perm; k++)
				identity = identity && s->iota_transpose_perm[k] == (int32_t)k;
			if (s->n_iota_transpose_perm && !identity) {
				hilo_buf_put(b, "T(", 2);
				for (size_t k = 0; k < s->n_iota_transpose_perm; k++) {
					if (k)
						hilo_buf_putc(b, ',');
					hilo_buf_put_i64(b, s->iota_transpose_perm[k]);
				}
				hilo_buf_putc(b, ')');
			}
		} else {
			for (size_t k = 0; k < s->n_tile_assignment_devices; k++) {
				if (k)
					hilo_buf_putc(b, ',');
				hilo_buf_put_i64(b, s->tile_assignment_devices[k]);
			}
		}
		if (s->replicate_on_last_tile_dim)
			hilo_buf_puts(b, " last_tile_dim_replicate");
		break;
	default:
		return false;
	}
	hilo_buf_putc(b, '}');
	return true;
}

/* ---- a domain's domain={kind="sharding", entry={..}, exit={..}} ---- */

/* The sharding domain's two shardings (fields 54, 55); XLA's protos
 * carry no other kind of domain metadata. The fields are named for the
 * domain's sides: domain_entry_sharding is the operand side, which the
 * text calls exit=, and domain_exit_sharding the users' side, entry=
 * (hlo_parser.cc CreateDomain(operand side = exit metadata); the proto
 * reader makes the operand side from domain_entry_sharding). */
static bool domain_parse(hilo_arena *a, Xla__HloInstructionProto *p, const char *t)
{
	cur c = {t, t + strlen(t)};
	Xla__OpSharding *en = aalloc(a, sizeof *en), *ex = aalloc(a, sizeof *ex);
	if (!en || !ex || !lit(&c, "{") || !lit(&c, "kind=\"sharding\"") || !lit(&c, ",") ||
	    !lit(&c, "entry=") || !sharding_one(&c, a, en, 0) || !lit(&c, ",") || !lit(&c, "exit=") ||
	    !sharding_one(&c, a, ex, 0) || !lit(&c, "}") || !at_end(&c))
		return false;
	p->domain_exit_sharding = en;
	p->domain_entry_sharding = ex;
	return true;
}

static bool domain_render(hilo_buf *b, const Xla__HloInstructionProto *p)
{
	if (!p->domain_entry_sharding || !p->domain_exit_sharding)
		return false;
	hilo_buf_puts(b, "{kind=\"sharding\", entry=");
	if (!sharding_render_one(b, p->domain_exit_sharding, 0))
		return false;
	hilo_buf_puts(b, ", exit=");
	if (!sharding_render_one(b, p->domain_entry_sharding, 0))
		return false;
	hilo_buf_putc(b, '}');
	return true;
}

/* ---- epsilon, api_version, operand_precision ---- */

static bool epsilon_parse(Xla__HloInstructionProto *p, const char *t)
{
	char *e;
	float v = strtof(t, &e);
	if (e == t || *e)
		return false;
	p->epsilon = v;
	return true;
}

static bool epsilon_render(hilo_buf *b, const Xla__HloInstructionProto *p)
{
	char tmp[64];
	for (int prec = 1; prec <= 9; prec++) {
		snprintf(tmp, sizeof tmp, "%.*g", prec, (double)p->epsilon);
		if (strtof(tmp, NULL) == p->epsilon)
			break;
	}
	hilo_buf_puts(b, tmp);
	return true;
}

static const char *const api_names[] = {
	"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
	"API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI",
};
static const char *const prec_names[] = {"default", "high", "highest", "packed_nibble"};

static bool api_parse(Xla__HloInstructionProto *p, const char *t)
{
	for (int k = 0; k < 5; k++)
		if (!strcmp(t, api_names[k])) {
			p->custom_call_api_version = k;
			return true;
		}
	return false;
}

/* {NAME, NAME, ...} (blanks allowed) into v: each name's index in names,
 * tried in the given order (longest first where one name starts another);
 * the whole text. */
static bool braced_names(hilo_arena *a, const char *t, const char *const *names, const int *order,
	int n, ivec *v)
{
	cur c = {t, t + strlen(t)};
	if (!lit(&c, "{"))
		return false;
	if (!lit(&c, "}")) {
		for (;;) {
			int k = 0;
			ws(&c);
			while (k < n && !lit(&c, names[order[k]]))
				k++;
			if (k == n || !push(a, v, order[k]))
				return false;
			if (lit(&c, ","))
				continue;
			if (!lit(&c, "}"))
				return false;
			break;
		}
	}
	return at_end(&c);
}

static bool precision_parse(hilo_arena *a, Xla__HloInstructionProto *p, const char *t)
{
	/* longest names first: highest before high */
	static const int order[] = {2, 1, 3, 0};
	Xla__PrecisionConfig *pc = aalloc(a, sizeof *pc);
	ivec v = {0};
	if (!pc || !braced_names(a, t, prec_names, order, 4, &v))
		return false;
	xla__precision_config__init(pc);
	pc->n_operand_precision = v.n;
	pc->operand_precision = aalloc(a, v.n * sizeof *pc->operand_precision);
	if (!pc->operand_precision)
		return false;
	for (size_t k = 0; k < v.n; k++)
		pc->operand_precision[k] = (Xla__PrecisionConfig__Precision)v.v[k];
	p->precision_config = pc;
	return true;
}

static bool precision_render(hilo_buf *b, const Xla__PrecisionConfig *pc)
{
	if (!pc)
		return false;
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < pc->n_operand_precision; k++) {
		if (k)
			hilo_buf_putc(b, ',');
		unsigned v = (unsigned)pc->operand_precision[k];
		if (v > 3)
			return false;
		hilo_buf_puts(b, prec_names[v]);
	}
	hilo_buf_putc(b, '}');
	return true;
}

/* ---- output_to_operand_aliasing, parameter_replication ---- */

/* The pairs in XLA's OutputOperandAliasing messages; the text is read and
 * written by the IR's one reader and printer of it (src/ir/aliasing.c). */
static bool aliasing_parse(hilo_arena *a, Xla__HloInstructionProto *p, const char *t)
{
	hilo_aliasing al;
	if (!hilo_aliasing_parse(a, t, strlen(t), &al))
		return false;
	Xla__OutputOperandAliasing **v = aalloc(a, al.n * sizeof *v);
	if (!v)
		return false;
	for (size_t k = 0; k < al.n; k++) {
		const hilo_alias_pair *pr = &al.pairs[k];
		Xla__OutputOperandAliasing *o = aalloc(a, sizeof *o);
		if (!o)
			return false;
		xla__output_operand_aliasing__init(o);
		o->n_output_shape_index = (size_t)pr->output.n;
		o->output_shape_index = pr->output.v;
		o->operand_index = pr->operand;
		o->n_operand_shape_index = (size_t)pr->operand_index.n;
		o->operand_shape_index = pr->operand_index.v;
		v[k] = o;
	}
	p->n_output_operand_aliasing = al.n;
	p->output_operand_aliasing = v;
	return true;
}

static bool aliasing_render(hilo_buf *b, const Xla__HloInstructionProto *p)
{
	if (!p->n_output_operand_aliasing)
		return false;
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < p->n_output_operand_aliasing; k++) {
		const Xla__OutputOperandAliasing *o = p->output_operand_aliasing[k];
		if (o->n_output_shape_index > INT32_MAX || o->n_operand_shape_index > INT32_MAX)
			return false;
		hilo_alias_pair pr = {
			{(int)o->n_output_shape_index, o->output_shape_index},
			o->operand_index,
			{(int)o->n_operand_shape_index, o->operand_shape_index},
		};
		if (k)
			hilo_buf_puts(b, ", ");
		hilo_alias_pair_print(b, &pr);
	}
	hilo_buf_putc(b, '}');
	return true;
}

/* {true,false,...}: one flag per leaf buffer of the parameter */
static bool replication_parse(hilo_arena *a, Xla__HloInstructionProto *p, const char *t)
{
	static const char *const flags[] = {"false", "true"};
	static const int order[] = {0, 1};
	Xla__ParameterReplication *r = aalloc(a, sizeof *r);
	ivec v = {0};
	if (!r || !braced_names(a, t, flags, order, 2, &v))
		return false;
	xla__parameter_replication__init(r);
	r->n_replicated_at_leaf_buffers = v.n;
	r->replicated_at_leaf_buffers = aalloc(a, v.n * sizeof *r->replicated_at_leaf_buffers);
	if (!r->replicated_at_leaf_buffers)
		return false;
	for (size_t k = 0; k < v.n; k++)
		r->replicated_at_leaf_buffers[k] = v.v[k] != 0;
	p->parameter_replication = r;
	return true;
}

static bool replication_render(hilo_buf *b, const Xla__ParameterReplication *r)
{
	if (!r)
		return false;
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < r->n_replicated_at_leaf_buffers; k++) {
		if (k)
			hilo_buf_putc(b, ',');
		hilo_buf_puts(b, r->replicated_at_leaf_buffers[k] ? "true" : "false");
	}
	hilo_buf_putc(b, '}');
	return true;
}

/* ---- triangular-solve and cholesky options, custom-call enums ---- */

static const char *const transpose_names[] = {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};
static const char *const schedule_names[] = {"SCHEDULE_NONE", "SCHEDULE_LATEST", "SCHEDULE_EARLIEST"};
static const char *const padding_type_names[] = {"PADDING_INVALID", "PADDING_VALID", "PADDING_SAME"};

static bool flag_parse(const char *t, protobuf_c_boolean *out)
{
	if (strcmp(t, "true") && strcmp(t, "false"))
		return false;
	*out = t[0] == 't';
	return true;
}

static bool name_parse(const char *t, const char *const *names, int n, int32_t *out)
{
	for (int k = 0; k < n; k++)
		if (!strcmp(t, names[k])) {
			*out = k;
			return true;
		}
	return false;
}

static bool name_render(hilo_buf *b, int32_t v, const char *const *names, int n)
{
	if (v < 0 || v >= n)
		return false;
	hilo_buf_puts(b, names[v]);
	return true;
}

/* The options message of p, made on first use. lower= sets both
 * messages: the writer takes the one of the instruction's opcode. */
static bool options_parse(hilo_arena *a, Xla__HloInstructionProto *p, pb_field f, const char *t)
{
	if (!p->triangular_solve_options) {
		if (!(p->triangular_solve_options = aalloc(a, sizeof *p->triangular_solve_options)))
			return false;
		xla__triangular_solve_options__init(p->triangular_solve_options);
	}
	Xla__TriangularSolveOptions *o = p->triangular_solve_options;
	switch (f) {
	case PBF_TS_LEFT_SIDE: return flag_parse(t, &o->left_side);
	case PBF_TS_UNIT_DIAGONAL: return flag_parse(t, &o->unit_diagonal);
	case PBF_TS_TRANSPOSE: return name_parse(t, transpose_names, 4, &o->transpose_a);
	default:
		if (!p->cholesky_options) {
			if (!(p->cholesky_options = aalloc(a, sizeof *p->cholesky_options)))
				return false;
			xla__cholesky_options__init(p->cholesky_options);
		}
		return flag_parse(t, &o->lower) && flag_parse(t, &p->cholesky_options->lower);
	}
}

static bool options_render(hilo_buf *b, const Xla__HloInstructionProto *p, pb_field f)
{
	const Xla__TriangularSolveOptions *o = p->triangular_solve_options;
	bool v;
	if (f == PBF_LOWER && p->cholesky_options)
		v = p->cholesky_options->lower;
	else if (!o)
		return false;
	else if (f == PBF_TS_TRANSPOSE)
		return name_render(b, o->transpose_a, transpose_names, 4);
	else
		v = f == PBF_TS_LEFT_SIDE ? o->left_side : f == PBF_TS_UNIT_DIAGONAL ? o->unit_diagonal : o->lower;
	hilo_buf_puts(b, v ? "true" : "false");
	return true;
}

/* ---- entry points ---- */

bool pbx_parse(hilo_arena *a, Xla__HloInstructionProto *p, pb_field f, const char *text)
{
	switch (f) {
	case PBF_BACKEND_CONFIG: return backend_parse(a, p, text);
	case PBF_FRONTEND_ATTRS: return fa_parse(a, &p->frontend_attributes, text);
	case PBF_REPLICA_GROUPS: return groups_to_proto(a, p, text);
	case PBF_SOURCE_TARGET: return pairs_parse(a, p, text);
	case PBF_WINDOW: return window_parse(a, p, text);
	case PBF_DIM_LABELS: return labels_parse(a, p, text);
	case PBF_SHARDING: return sharding_parse(a, &p->sharding, text);
	case PBF_EPSILON: return epsilon_parse(p, text);
	case PBF_API_VERSION: return api_parse(p, text);
	case PBF_PRECISION: return precision_parse(a, p, text);
	case PBF_OUTPUT_ALIASING: return aliasing_parse(a, p, text);
	case PBF_DOMAIN: return domain_parse(a, p, text);
	case PBF_PARAM_REPLICATION: return replication_parse(a, p, text);
	case PBF_TS_LEFT_SIDE: case PBF_TS_UNIT_DIAGONAL: case PBF_TS_TRANSPOSE: case PBF_LOWER:
		return options_parse(a, p, f, text);
	case PBF_CC_SCHEDULE: return name_parse(text, schedule_names, 3, &p->custom_call_schedule);
	case PBF_PADDING_TYPE: return name_parse(text, padding_type_names, 3, &p->padding_type);
	case PBF_STATISTICS: return pbx_statistics_parse(a, &p->statistics_viz, text);
	case PBF_RESULT_ACCURACY: return pbx_accuracy_parse(a, &p->result_accuracy, text);
	case PBF_ORIGIN: return pbx_origin_parse(a, &p->original_value, text);
	default: return false;
	}
}

bool pbx_render(hilo_buf *b, const Xla__HloInstructionProto *p, pb_field f)
{
	switch (f) {
	case PBF_BACKEND_CONFIG: return backend_render(b, p);
	case PBF_FRONTEND_ATTRS: return fa_render(b, p->frontend_attributes);
	case PBF_REPLICA_GROUPS: return groups_render(b, p);
	case PBF_SOURCE_TARGET: return pairs_render(b, p);
	case PBF_WINDOW: return window_render(b, p->window);
	case PBF_DIM_LABELS: return labels_render(b, p->convolution_dimension_numbers);
	case PBF_SHARDING: return p->sharding && sharding_render_one(b, p->sharding, 0);
	case PBF_EPSILON: return epsilon_render(b, p);
	case PBF_API_VERSION:
		if ((unsigned)p->custom_call_api_version > 4)
			return false;
		hilo_buf_puts(b, api_names[p->custom_call_api_version]);
		return true;
	case PBF_PRECISION: return precision_render(b, p->precision_config);
	case PBF_OUTPUT_ALIASING: return aliasing_render(b, p);
	case PBF_DOMAIN: return domain_render(b, p);
	case PBF_PARAM_REPLICATION: return replication_render(b, p->parameter_replication);
	case PBF_TS_LEFT_SIDE: case PBF_TS_UNIT_DIAGONAL: case PBF_TS_TRANSPOSE: case PBF_LOWER:
		return options_render(b, p, f);
	case PBF_CC_SCHEDULE: return name_render(b, p->custom_call_schedule, schedule_names, 3);
	case PBF_PADDING_TYPE: return name_render(b, p->padding_type, padding_type_names, 3);
	case PBF_STATISTICS: return pbx_statistics_render(b, p->statistics_viz);
	case PBF_RESULT_ACCURACY: return pbx_accuracy_render(b, p->result_accuracy);
	case PBF_ORIGIN: return pbx_origin_render(b, p->original_value);
	default: return false;
	}
}

void pbx_shapes_render(hilo_buf *b, const hilo_shape *const *s, size_t n)
{
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < n; k++) {
		if (k)
			hilo_buf_puts(b, ", ");
		hilo_shape_print(b, s[k]);
	}
	hilo_buf_putc(b, '}');
}

bool pbx_module_fa(hilo_arena *a, Xla__FrontendAttributes **out, const char *text)
{
	return fa_parse(a, out, text);
}

bool pbx_module_fa_render(hilo_buf *b, const Xla__FrontendAttributes *fa)
{
	return fa_render(b, fa);
}

/* input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {}) } */
bool pbx_io_alias(hilo_arena *a, Xla__HloInputOutputAliasProto **out, const char *t)
{
	cur c = {t, t + strlen(t)};
	Xla__HloInputOutputAliasProto *io = aalloc(a, sizeof *io);
	if (!io || !lit(&c, "{"))
		return false;
	xla__hlo_input_output_alias_proto__init(io);
	size_t cap = 0;
	if (!lit(&c, "}")) {
		for (;;) {
			ivec out_idx = {0}, par_idx = {0};
			int64_t pn;
			if (!int_list(&c, a, &out_idx) || !lit(&c, ":") || !lit(&c, "(") || !num(&c, &pn) ||
			    !lit(&c, ",") || !int_list(&c, a, &par_idx))
				return false;
			int kind = 0;
			if (lit(&c, ",")) {
				if (lit(&c, "must-alias"))
					kind = 2;
				else if (lit(&c, "may-alias"))
					kind = 1;
				else
					return false;
			}
			if (!lit(&c, ")"))
				return false;
			if (io->n_entries == cap) {
				cap = cap ? cap * 2 : 8;
				io->entries = hilo_arena_grow(a, io->entries, io->n_entries, cap, sizeof *io->entries);
				if (!io->entries)
					return false;
			}
			Xla__HloInputOutputAliasProto__AliasEntryProto *e = aalloc(a, sizeof *e);
			if (!e)
				return false;
			xla__hlo_input_output_alias_proto__alias_entry_proto__init(e);
			e->n_output_shape_index = out_idx.n;
			e->output_shape_index = out_idx.v;
			e->parameter_number = pn;
			e->n_parameter_shape_index = par_idx.n;
			e->parameter_shape_index = par_idx.v;
			e->kind = (Xla__Kind)kind;
			io->entries[io->n_entries++] = e;
			if (lit(&c, ","))
				continue;
			if (!lit(&c, "}"))
				return false;
			break;
		}
	}
	if (!at_end(&c))
		return false;
	*out = io;
	return true;
}

/* buffer_donor={ (0, {}), (1, {0}) } */
bool pbx_buffer_donor(hilo_arena *a, Xla__HloBufferDonorProto **out, const char *t)
{
	cur c = {t, t + strlen(t)};
	Xla__HloBufferDonorProto *bd = aalloc(a, sizeof *bd);
	if (!bd || !lit(&c, "{"))
		return false;
	xla__hlo_buffer_donor_proto__init(bd);
	size_t cap = 0;
	if (!lit(&c, "}")) {
		for (;;) {
			ivec idx = {0};
			int64_t pn;
			if (!lit(&c, "(") || !num(&c, &pn) || !lit(&c, ",") || !int_list(&c, a, &idx) || !lit(&c, ")"))
				return false;
			if (bd->n_entries == cap) {
				cap = cap ? cap * 2 : 8;
				bd->entries = hilo_arena_grow(a, bd->entries, bd->n_entries, cap, sizeof *bd->entries);
				if (!bd->entries)
					return false;
			}
			Xla__HloBufferDonorProto__BufferDonorEntryProto *e = aalloc(a, sizeof *e);
			if (!e)
				return false;
			xla__hlo_buffer_donor_proto__buffer_donor_entry_proto__init(e);
			e->parameter_number = pn;
			e->n_parameter_shape_index = idx.n;
			e->parameter_shape_index = idx.v;
			bd->entries[bd->n_entries++] = e;
			if (lit(&c, ","))
				continue;
			if (!lit(&c, "}"))
				return false;
			break;
		}
	}
	if (!at_end(&c))
		return false;
	*out = bd;
	return true;
}
