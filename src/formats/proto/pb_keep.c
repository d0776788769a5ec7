/* The kept input of a binary proto (issue 34; pb_internal.h, pb_keep):
 * what the module fields hilo does not model say, for the text printer,
 * and the schedule rebuilt for a module that changed.
 *
 * Text: XLA's printer shows a module's schedule as is_scheduled=true, its
 * aliasing as input_output_alias={ {1}: (0, {}, may-alias) }, its donors
 * as buffer_donor={ (0, {}) }, its frontend attributes as
 * frontend_attributes={k="v"} and the stack-frame index as the FileNames
 * / FunctionNames / FileLocations / StackFrames tables; these become the
 * module's attributes and stack-frame text, as if read from text.
 *
 * Schedule: a sequence per computation (by id) of instruction ids. After
 * a rewrite the sequence of a computation that is gone goes; in the
 * others, instructions that are gone are left out and every instruction
 * of the computation is placed after its operands and control
 * predecessors (a depth-first walk that follows the old order and emits
 * what an instruction needs right before it), so the order is a valid
 * schedule and unchanged stretches keep their order. A new computation
 * that is not a fusion computation gets a sequence of its own. */
#include "pb_internal.h"
#include "pb_wire.h"
#include "support/hash.h"

#include <stdlib.h>
#include <string.h>

uint64_t pb_hash64(const void *p, size_t n)
{
	const uint8_t *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull);
	size_t k = 0;
	for (; k + 8 <= n; k += 8) {
		uint64_t w;
		memcpy(&w, s + k, 8);
		h ^= w * 0xc4ceb9fe1a85ec53ull;
		h = (h << 31 | h >> 33) * 0x9e3779b97f4a7c15ull;
	}
	uint64_t w = 0;
	memcpy(&w, s + k, n - k);
	h ^= w * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h;
}

uint64_t pb_metadata_fp(const hilo_metadata *md)
{
	uint64_t h = hilo_hash_mix64((uint64_t)md->n);
	for (int k = 0; k < md->n; k++) {
		const char *key = md->e[k].key ? md->e[k].key : "", *v = md->e[k].value ? md->e[k].value : "";
		h = hilo_hash_combine(h, pb_hash64(key, strlen(key)));
		h = hilo_hash_combine(h, pb_hash64(v, strlen(v)));
	}
	return h;
}

/* ---- a small wire walker over kept bytes (already validated) ---- */

typedef struct kf {
	uint32_t num;
	int wt;
	uint64_t v;
	const uint8_t *p;  /* LEN payload */
	size_t n;
} kf;

static bool kf_next(pr_cur *c, kf *f)
{
	uint64_t tag;
	if (c->p >= c->end || !pr_varint(c, &tag))
		return false;
	f->num = (uint32_t)(tag >> 3);
	f->wt = (int)(tag & 7);
	f->p = NULL;
	f->n = 0;
	switch (f->wt) {
	case PB_VARINT:
		return pr_varint(c, &f->v);
	case PB_I64:
		if (c->end - c->p < 8)
			return false;
		memcpy(&f->v, c->p, 8);
		c->p += 8;
		return true;
	case PB_I32: {
		if (c->end - c->p < 4)
			return false;
		uint32_t x;
		memcpy(&x, c->p, 4);
		f->v = x;
		c->p += 4;
		return true;
	}
	case PB_LEN:
		if (!pr_varint(c, &f->v) || f->v > (uint64_t)(c->end - c->p))
			return false;
		f->p = c->p;
		f->n = (size_t)f->v;
		c->p += f->n;
		return true;
	default:
		return false;
	}
}

/* Repeated int64 (packed or not) into a growing heap array. */
typedef struct i64v {
	int64_t *v;
	size_t n, cap;
	bool oom;
} i64v;

static void i64_push(i64v *a, int64_t x)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 8;
		int64_t *nv = realloc(a->v, cap * sizeof *nv);
		if (!nv) {
			a->oom = true;
			return;
		}
		a->v = nv;
		a->cap = cap;
	}
	a->v[a->n++] = x;
}

static void i64_field(i64v *a, const kf *f)
{
	if (f->wt == PB_VARINT) {
		i64_push(a, (int64_t)f->v);
	} else if (f->wt == PB_LEN) {
		pr_cur c = {f->p, f->p + f->n};
		uint64_t x;
		while (c.p < c.end && pr_varint(&c, &x))
			i64_push(a, (int64_t)x);
	}
}

/* ---- text ---- */

static void put_index(hilo_buf *b, const i64v *ix)
{
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < ix->n; k++) {
		if (k)
			hilo_buf_putc(b, ',');
		hilo_buf_put_i64(b, ix->v[k]);
	}
	hilo_buf_putc(b, '}');
}

/* HloInputOutputAliasProto -> "{ {1}: (0, {}, may-alias) }"; false when empty. */
static bool alias_text(hilo_buf *b, const uint8_t *p, size_t n)
{
	pr_cur c = {p, p + n};
	kf f;
	size_t count = 0;
	hilo_buf_puts(b, "{ ");
	while (kf_next(&c, &f)) {
		if (f.num != 1 || f.wt != PB_LEN)
			continue;
		i64v out = {0}, pix = {0};
		int64_t param = 0, kind = 0;
		pr_cur e = {f.p, f.p + f.n};
		kf g;
		while (kf_next(&e, &g)) {
			if (g.num == 1)
				i64_field(&out, &g);
			else if (g.num == 2 && g.wt == PB_VARINT)
				param = (int64_t)g.v;
			else if (g.num == 3)
				i64_field(&pix, &g);
			else if (g.num == 4 && g.wt == PB_VARINT)
				kind = (int64_t)g.v;
		}
		if (count++)
			hilo_buf_puts(b, ", ");
		put_index(b, &out);
		hilo_buf_puts(b, ": (");
		hilo_buf_put_i64(b, param);
		hilo_buf_puts(b, ", ");
		put_index(b, &pix);
		hilo_buf_puts(b, kind == 2 ? ", must-alias)" : ", may-alias)");
		free(out.v);
		free(pix.v);
	}
	hilo_buf_puts(b, " }");
	return count != 0;
}

/* HloBufferDonorProto -> "{ (0, {}), (1, {}) }"; false when empty. */
static bool donor_text(hilo_buf *b, const uint8_t *p, size_t n)
{
	pr_cur c = {p, p + n};
	kf f;
	size_t count = 0;
	hilo_buf_puts(b, "{ ");
	while (kf_next(&c, &f)) {
		if (f.num != 1 || f.wt != PB_LEN)
			continue;
		i64v pix = {0};
		int64_t param = 0;
		pr_cur e = {f.p, f.p + f.n};
		kf g;
		while (kf_next(&e, &g)) {
			if (g.num == 1 && g.wt == PB_VARINT)
				param = (int64_t)g.v;
			else if (g.num == 2)
				i64_field(&pix, &g);
		}
		if (count++)
			hilo_buf_puts(b, ", ");
		hilo_buf_putc(b, '(');
		hilo_buf_put_i64(b, param);
		hilo_buf_puts(b, ", ");
		put_index(b, &pix);
		hilo_buf_putc(b, ')');
		free(pix.v);
	}
	hilo_buf_puts(b, " }");
	return count != 0;
}

typedef struct kv {
	const uint8_t *k, *v;
	size_t kn, vn;
} kv;

static int kv_cmp(const void *a, const void *b)
{
	const kv *x = a, *y = b;
	size_t n = x->kn < y->kn ? x->kn : y->kn;
	int r = memcmp(x->k, y->k, n);
	return r ? r : (x->kn > y->kn) - (x->kn < y->kn);
}

/* FrontendAttributes -> {k="v",...} in key order (a map: XLA sorts);
 * false when empty. */
static bool fa_text(hilo_buf *b, const uint8_t *p, size_t n)
{
	pr_cur c = {p, p + n};
	kf f;
	kv *a = NULL;
	size_t na = 0;
	while (kf_next(&c, &f)) {
		if (f.num != 1 || f.wt != PB_LEN)
			continue;
		kv e = {(const uint8_t *)"", (const uint8_t *)"", 0, 0};
		pr_cur ec = {f.p, f.p + f.n};
		kf g;
		while (kf_next(&ec, &g))
			if (g.wt == PB_LEN && g.num == 1) {
				e.k = g.p;
				e.kn = g.n;
			} else if (g.wt == PB_LEN && g.num == 2) {
				e.v = g.p;
				e.vn = g.n;
			}
		kv *na_ = realloc(a, (na + 1) * sizeof *a);
		if (!na_)
			break;
		a = na_;
		a[na++] = e;
	}
	if (na)
		qsort(a, na, sizeof *a, kv_cmp);
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < na; k++) {
		if (k)
			hilo_buf_putc(b, ',');
		pb_escape(b, (const char *)a[k].k, a[k].kn);
		hilo_buf_puts(b, "=\"");
		pb_escape(b, (const char *)a[k].v, a[k].vn);
		hilo_buf_putc(b, '"');
	}
	hilo_buf_putc(b, '}');
	free(a);
	return na != 0;
}

/* StackFrameIndexProto -> the four tables XLA prints after the HloModule
 * line (a stack frame's parent is printed one up, as XLA does). */
static bool frames_text(hilo_buf *b, const uint8_t *p, size_t n)
{
	static const char *const heads[] = {"FileNames", "FunctionNames", "FileLocations", "StackFrames"};
	static const char *const loc_keys[] = {"file_name_id", "function_name_id", "line", "end_line",
		"column", "end_column"};
	static const uint32_t loc_fields[] = {1, 2, 3, 5, 4, 6};
	bool any = false;
	for (uint32_t t = 1; t <= 4; t++) {
		if (t > 1)
			hilo_buf_puts(b, "\n\n");
		hilo_buf_puts(b, heads[t - 1]);
		pr_cur c = {p, p + n};
		kf f;
		int64_t k = 0;
		while (kf_next(&c, &f)) {
			if (f.num != t || f.wt != PB_LEN)
				continue;
			any = true;
			hilo_buf_putc(b, '\n');
			hilo_buf_put_i64(b, ++k);
			hilo_buf_putc(b, ' ');
			if (t <= 2) {
				hilo_buf_putc(b, '"');
				pb_escape(b, (const char *)f.p, f.n);
				hilo_buf_putc(b, '"');
				continue;
			}
			int64_t v[7] = {0};
			pr_cur e = {f.p, f.p + f.n};
			kf g;
			while (kf_next(&e, &g))
				if (g.wt == PB_VARINT && g.num >= 1 && g.num <= 6)
					v[g.num] = (int32_t)g.v;
			hilo_buf_putc(b, '{');
			if (t == 3) {
				for (int j = 0; j < 6; j++) {
					if (j)
						hilo_buf_putc(b, ' ');
					hilo_buf_printf(b, "%s=%lld", loc_keys[j], (long long)v[loc_fields[j]]);
				}
			} else {
				hilo_buf_printf(b, "file_location_id=%lld parent_frame_id=%lld", (long long)v[1],
					(long long)v[2] + 1);
			}
			hilo_buf_putc(b, '}');
		}
	}
	return any;
}

/* One "K value" line of a table: the value's text after the number. */
static const char *table_line(const char *p, const char *e, const char **val, const char **end)
{
	const char *q = p;
	while (q < e && *q >= '0' && *q <= '9')
		q++;
	if (q == p || q >= e || *q != ' ')
		return NULL;
	*val = q + 1;
	const char *nl = memchr(q, '\n', (size_t)(e - q));
	*end = nl ? nl : e;
	return nl ? nl + 1 : e;
}

static int64_t kv_int(const char *p, const char *e, const char *key)
{
	size_t kl = strlen(key);
	for (const char *q = p; q + kl + 1 < e; q++)
		if ((q == p || q[-1] == '{' || q[-1] == ' ') && !memcmp(q, key, kl) && q[kl] == '=')
			return strtoll(q + kl + 1, NULL, 10);
	return 0;
}

void pb_frames_from_text(hilo_buf *out, const char *text)
{
	static const char *const heads[] = {"FileNames", "FunctionNames", "FileLocations", "StackFrames"};
	static const char *const loc_keys[] = {"file_name_id", "function_name_id", "line", "column",
		"end_line", "end_column"};
	if (!text)
		return;
	const char *p = text, *e = text + strlen(text);
	size_t start = out->len;
	size_t at = pw_open_n(out, 17, 2);
	size_t body = out->len;
	for (int t = 0; t < 4; t++) {
		while (p < e && *p == '\n')
			p++;
		size_t hl = strlen(heads[t]);
		if ((size_t)(e - p) < hl || memcmp(p, heads[t], hl) || (p + hl < e && p[hl] != '\n')) {
			out->len = start; /* not the tables: nothing */
			return;
		}
		p += hl;
		if (p < e)
			p++;
		const char *val, *end, *next;
		while (p < e && *p != '\n' && (next = table_line(p, e, &val, &end))) {
			if (t < 2) {
				const char *q = val, *qe = end;
				if (qe - q >= 2 && *q == '"' && qe[-1] == '"') {
					hilo_buf s;
					hilo_buf_init(&s);
					if (pb_unescape(&s, q + 1, (size_t)(qe - q - 2))) {
						pw_tag(out, (uint32_t)t + 1, PB_LEN);
						pw_varint(out, s.len);
						pw_raw(out, s.data, s.len);
					}
					hilo_buf_free(&s);
				}
			} else {
				size_t m = pw_open(out, (uint32_t)t + 1);
				if (t == 2) {
					for (int k = 0; k < 6; k++)
						pw_int(out, (uint32_t)k + 1, kv_int(val, end, loc_keys[k]));
				} else {
					pw_int(out, 1, kv_int(val, end, "file_location_id"));
					int64_t parent = kv_int(val, end, "parent_frame_id");
					pw_int(out, 2, parent > 0 ? parent - 1 : 0);
				}
				pw_close(out, m);
			}
			p = next;
		}
	}
	if (out->len == body)
		out->len = start;
	else
		pw_close_n(out, at, 2);
}

static bool add_attr(hilo_module *m, hilo_module_attr **a, uint32_t *n, const char *key,
	const char *val, size_t vn)
{
	hilo_module_attr *na = hilo_arena_grow(m->arena, *a, *n, *n + 1, sizeof *na);
	if (!na)
		return false;
	na[*n].key = hilo_intern_cstr(m->strings, key);
	na[*n].value = hilo_arena_strndup(m->arena, val, vn);
	na[*n].sep = NULL;
	if (!na[*n].key || !na[*n].value)
		return false;
	*a = na;
	(*n)++;
	return true;
}

/* An input id as a pointer-map key: odd, never NULL; unsigned arithmetic,
 * since a schedule's ids are whatever the input says (two ids 2^63 apart
 * share a key: a schedule is a hint, never a fact). */
static const void *id_key(int64_t id)
{
	return (const void *)(uintptr_t)((uint64_t)id * 2 + 1);
}

/* XLA prints a scheduled computation in its schedule's order: the
 * instruction list follows the sequence when it holds exactly the
 * computation's instructions (else it stays in proto order). */
static bool order_by_schedule(const pb_keep *K, const uint8_t *p, size_t n)
{
	hilo_ptrmap byid; /* input id * 2 + 1 -> instruction */
	hilo_ptrmap_init(&byid);
	for (uint32_t k = 0; k < K->iend - K->ibase; k++)
		hilo_ptrmap_put(&byid, id_key(K->iid[k]), (void *)(uintptr_t)(k + 1));
	pr_cur c = {p, p + n};
	kf f;
	bool ok = true;
	while (ok && kf_next(&c, &f)) {
		if (f.num != 1 || f.wt != PB_LEN)
			continue;
		i64v seq = {0};
		pr_cur e = {f.p, f.p + f.n};
		kf g;
		while (kf_next(&e, &g))
			if (g.num == 2 && g.wt == PB_LEN) {
				pr_cur q = {g.p, g.p + g.n};
				kf h;
				while (kf_next(&q, &h))
					if (h.num == 1)
						i64_field(&seq, &h);
			}
		ok = !seq.oom;
		hilo_instr **v = seq.n ? malloc(seq.n * sizeof *v) : NULL;
		hilo_comp *cc = NULL;
		bool whole = v != NULL;
		hilo_ptrmap seen;
		hilo_ptrmap_init(&seen);
		for (size_t k = 0; k < seq.n && whole; k++) {
			size_t at = (size_t)(uintptr_t)hilo_ptrmap_get(&byid, id_key(seq.v[k]));
			hilo_instr *i = at ? K->instr[at - 1] : NULL;
			whole = i && (!cc || i->parent == cc) && !hilo_ptrmap_get(&seen, i);
			if (whole) {
				cc = i->parent;
				hilo_ptrmap_put(&seen, i, (void *)1);
				v[k] = i;
			}
		}
		hilo_ptrmap_free(&seen);
		if (whole && cc && cc->ninstrs == seq.n) {
			for (size_t k = 0; k < seq.n; k++) {
				v[k]->prev = k ? v[k - 1] : NULL;
				v[k]->next = k + 1 < seq.n ? v[k + 1] : NULL;
			}
			cc->first = v[0];
			cc->last = v[seq.n - 1];
		}
		free(v);
		free(seq.v);
	}
	hilo_ptrmap_free(&byid);
	return ok;
}

bool pb_keep_text_attrs(hilo_module *m, const pb_keep *K)
{
	for (uint32_t k = 0; k < m->ncomps; k++)
		m->comps[k]->print_signature = true; /* XLA prints every signature */
	const uint8_t *f[20] = {0};
	size_t fn[20] = {0};
	bool has[20] = {0};
	for (size_t k = 0; k < K->nmf; k++) {
		const pb_rawfield *r = &K->mf[k];
		if (r->num < 20 && r->wt == PB_LEN) {
			f[r->num] = K->buf + r->val.off;
			fn[r->num] = r->val.len;
			has[r->num] = true;
		}
	}
	hilo_module_attr *a = NULL;
	uint32_t n = 0;
	hilo_buf b;
	hilo_buf_init(&b);
	bool ok = true;
	if (has[7])
		ok = add_attr(m, &a, &n, "is_scheduled", "true", 4) && order_by_schedule(K, f[7], fn[7]);
	if (ok && has[8] && alias_text(&b, f[8], fn[8]))
		ok = add_attr(m, &a, &n, "input_output_alias", b.data, b.len);
	b.len = 0;
	if (ok && has[18] && donor_text(&b, f[18], fn[18]))
		ok = add_attr(m, &a, &n, "buffer_donor", b.data, b.len);
	b.len = 0;
	/* attributes the reader set already (frontend_attributes) follow */
	bool have_fa = false;
	for (uint32_t k = 0; ok && k < m->nattrs; k++) {
		have_fa = have_fa || !strcmp(m->attrs[k].key, "frontend_attributes");
		ok = add_attr(m, &a, &n, m->attrs[k].key, m->attrs[k].value, strlen(m->attrs[k].value));
	}
	if (ok && has[19] && !have_fa && fa_text(&b, f[19], fn[19]))
		ok = add_attr(m, &a, &n, "frontend_attributes", b.data, b.len);
	b.len = 0;
	if (ok && has[17] && frames_text(&b, f[17], fn[17]))
		ok = (m->stack_frames = hilo_arena_strndup(m->arena, b.data, b.len)) != NULL;
	ok = ok && !b.oom;
	hilo_buf_free(&b);
	m->attrs = a;
	m->nattrs = n;
	return ok;
}

/* ---- schedule ---- */

typedef struct sched {
	hilo_buf *out;
	pb_iid_fn iid;
	void *ud;
	hilo_ptrmap done;  /* instr -> 1 (emitted) or 2 (on the stack) */
	i64v seq;
	const hilo_instr **stack;
	size_t nstack, cap;
	bool oom;
} sched;

/* Emits i after everything it needs in computation c (iteratively). */
static void sched_visit(sched *S, const hilo_comp *c, const hilo_instr *i)
{
	if (hilo_ptrmap_get(&S->done, i))
		return;
	S->nstack = 0;
	if (S->cap < 16) {
		const hilo_instr **ns = realloc(S->stack, 16 * sizeof *ns);
		if (!ns) {
			S->oom = true;
			return;
		}
		S->stack = ns;
		S->cap = 16;
	}
	S->stack[S->nstack++] = i;
	if (!hilo_ptrmap_put(&S->done, i, (void *)2)) {
		S->oom = true;
		return;
	}
	while (S->nstack) {
		const hilo_instr *t = S->stack[S->nstack - 1];
		const hilo_instr *next = NULL;
		for (uint32_t k = 0; k < t->noperands && !next; k++)
			if (t->operands[k]->parent == c && !hilo_ptrmap_get(&S->done, t->operands[k]))
				next = t->operands[k];
		for (uint32_t k = 0; k < hilo_instr_nctrl_preds(t) && !next; k++) {
			const hilo_instr *p = hilo_instr_ctrl_preds(t)[k];
			if (p->parent == c && !hilo_ptrmap_get(&S->done, p))
				next = p;
		}
		if (!next) {
			if (!hilo_ptrmap_put(&S->done, t, (void *)1)) {
				S->oom = true;
				return;
			}
			i64_push(&S->seq, S->iid(S->ud, t));
			S->nstack--;
			continue;
		}
		if (S->nstack == S->cap) {
			size_t cap = 2 * S->cap;
			const hilo_instr **ns = realloc(S->stack, cap * sizeof *ns);
			if (!ns) {
				S->oom = true;
				return;
			}
			S->stack = ns;
			S->cap = cap;
		}
		if (!hilo_ptrmap_put(&S->done, next, (void *)2)) {
			S->oom = true;
			return;
		}
		S->stack[S->nstack++] = next;
	}
}

void pb_schedule_sequence(hilo_buf *b, int64_t cid, const int64_t *ids, size_t n)
{
	size_t at = pw_open(b, 1);
	pw_int(b, 1, cid);
	size_t s = pw_open(b, 2);
	pw_packed_i64(b, 1, ids, n);
	pw_close(b, s);
	pw_close(b, at);
}

static void sched_entry(sched *S, int64_t cid)
{
	pb_schedule_sequence(S->out, cid, S->seq.v, S->seq.n);
}

void pb_keep_schedule(hilo_buf *out, const hilo_module *m, const pb_keep *K, pb_span sp,
	const bool *fusion, pb_iid_fn iid, pb_cid_fn cid, pb_more_fn more, void *ud)
{
	sched S;
	memset(&S, 0, sizeof S);
	S.out = out;
	S.iid = iid;
	S.ud = ud;
	hilo_ptrmap_init(&S.done);
	/* output id -> instruction of its computation, and which computations
	 * the kept schedule covered */
	hilo_ptrmap read, covered;
	hilo_ptrmap_init(&read);
	hilo_ptrmap_init(&covered);
	for (size_t k = 0; K && k < K->ncomp; k++)
		if (!hilo_ptrmap_put(&read, K->comp[k], (void *)1))
			S.oom = true;
	size_t at = pw_open_n(out, 7, 3);
	pr_cur c = {K ? K->buf + sp.off : NULL, K ? K->buf + sp.off + sp.len : NULL};
	kf f;
	while (K && !S.oom && kf_next(&c, &f)) {
		if (f.num != 1 || f.wt != PB_LEN)
			continue;
		int64_t key = 0;
		i64v old = {0};
		pr_cur e = {f.p, f.p + f.n};
		kf g;
		while (kf_next(&e, &g)) {
			if (g.num == 1 && g.wt == PB_VARINT)
				key = (int64_t)g.v;
			else if (g.num == 2 && g.wt == PB_LEN) {
				pr_cur q = {g.p, g.p + g.n};
				kf h;
				while (kf_next(&q, &h))
					if (h.num == 1)
						i64_field(&old, &h);
			}
		}
		const hilo_comp *cc = NULL;
		for (uint32_t k = 0; k < m->ncomps && !cc; k++)
			if (cid(ud, m->comps[k]) == key)
				cc = m->comps[k];
		if (cc) {
			if (!hilo_ptrmap_put(&covered, cc, (void *)1))
				S.oom = true;
			/* the old order first (instructions still there), then the rest */
			hilo_ptrmap byid;
			hilo_ptrmap_init(&byid);
			for (const hilo_instr *i = cc->first; i; i = i->next)
				hilo_ptrmap_put(&byid, id_key(iid(ud, i)), (void *)i);
			S.seq.n = 0;
			for (size_t k = 0; k < old.n; k++) {
				const hilo_instr *i = hilo_ptrmap_get(&byid, id_key(old.v[k]));
				if (i)
					sched_visit(&S, cc, i);
			}
			for (const hilo_instr *i = cc->first; i; i = i->next)
				sched_visit(&S, cc, i);
			sched_entry(&S, key);
			hilo_ptrmap_free(&byid);
		}
		free(old.v);
	}
	for (uint32_t k = 0; k < m->ncomps && !S.oom; k++) {
		const hilo_comp *cc = m->comps[k];
		if (fusion[k] || hilo_ptrmap_get(&covered, cc) || hilo_ptrmap_get(&read, cc))
			continue;
		S.seq.n = 0;
		for (const hilo_instr *i = cc->first; i; i = i->next)
			sched_visit(&S, cc, i);
		sched_entry(&S, cid(ud, cc));
	}
	if (more)
		more(ud, out);
	pw_close_n(out, at, 3);
	if (S.oom || S.seq.oom)
		out->oom = true;
	free(S.seq.v);
	free(S.stack);
	hilo_ptrmap_free(&S.done);
	hilo_ptrmap_free(&read);
	hilo_ptrmap_free(&covered);
}
