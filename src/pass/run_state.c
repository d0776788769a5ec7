/* The run state: facts one hilo_run_passes() call carries between passes
 * (see "run state" in include/hilo/pass.h). Keys are stable instruction ids
 * stored in a pointer map as (id + 1), so id 0 is a valid key. Everything
 * is on the module arena's tracked heap (an out-of-memory jump frees it)
 * and freed by hilo_run_state_destroy. */
#include "hilo/pass.h"

#include <stdlib.h>
#include <string.h>

struct hilo_run_state {
	hilo_arena *a;
	hilo_ptrmap proven;        /* id+1 -> struct proven * */
	hilo_assumed_eq *assumed;
	size_t nassumed, cap_assumed;
};

struct proven {
	int n;
	int64_t starts[];
};

static const void *id_key(const hilo_instr *i)
{
	return (const void *)((uintptr_t)i->id + 1);
}

hilo_run_state *hilo_run_state_create(hilo_arena *a)
{
	hilo_run_state *s = hilo_heap_alloc(a, sizeof *s);
	if (s) {
		s->a = a;
		hilo_ptrmap_init_in(&s->proven, a);
	}
	return s;
}

void hilo_run_state_destroy(hilo_run_state *s)
{
	if (!s)
		return;
	for (size_t k = 0; k < s->proven.cap; k++)
		if (s->proven.keys[k])
			hilo_heap_free(s->a, s->proven.vals[k]);
	hilo_ptrmap_free(&s->proven);
	for (size_t k = 0; k < s->nassumed; k++)
		hilo_heap_free(s->a, s->assumed[k].why);
	hilo_heap_free(s->a, s->assumed);
	hilo_heap_free(s->a, s);
}

void hilo_proven_starts_set(hilo_pass_ctx *ctx, const hilo_instr *i,
	const int64_t *starts, int n)
{
	if (!ctx->run || n < 0)
		return;
	struct proven *p = hilo_heap_alloc(ctx->run->a, sizeof *p + (size_t)n * sizeof *starts);
	if (!p) {
		hilo_proven_starts_clear(ctx, i);
		return;
	}
	p->n = n;
	if (n)
		memcpy(p->starts, starts, (size_t)n * sizeof *starts);
	struct proven *old = hilo_ptrmap_get(&ctx->run->proven, id_key(i));
	if (!hilo_ptrmap_put(&ctx->run->proven, id_key(i), p)) {
		hilo_heap_free(ctx->run->a, p);
		hilo_proven_starts_clear(ctx, i);
		return;
	}
	hilo_heap_free(ctx->run->a, old);
}

void hilo_proven_starts_clear(hilo_pass_ctx *ctx, const hilo_instr *i)
{
	if (!ctx->run)
		return;
	struct proven *old = hilo_ptrmap_get(&ctx->run->proven, id_key(i));
	if (!old)
		return;
	/* the map has no delete: an empty record with n = -1 means "unproven" */
	old->n = -1;
}

int hilo_proven_starts(const hilo_pass_ctx *ctx, const hilo_instr *i, int64_t *out, int max)
{
	if (!ctx->run)
		return -1;
	const struct proven *p = hilo_ptrmap_get(&ctx->run->proven, id_key(i));
	if (!p || p->n < 0)
		return -1;
	for (int k = 0; k < p->n && k < max; k++)
		out[k] = p->starts[k];
	return p->n;
}

void hilo_rewrite_assume(hilo_pass_ctx *ctx, const hilo_instr *replaced,
	const hilo_instr *by, const char *why)
{
	hilo_run_state *s = ctx->run;
	if (!s)
		return;
	if (s->nassumed == s->cap_assumed) {
		size_t ncap = s->cap_assumed ? 2 * s->cap_assumed : 8;
		hilo_assumed_eq *na = hilo_heap_realloc(s->a, s->assumed, ncap * sizeof *na);
		if (!na)
			return;
		s->assumed = na;
		s->cap_assumed = ncap;
	}
	char *w = NULL;
	if (why) {
		size_t n = strlen(why) + 1;
		if ((w = hilo_heap_alloc(s->a, n)))
			memcpy(w, why, n);
	}
	s->assumed[s->nassumed++] = (hilo_assumed_eq){replaced->id, by->id, ctx->pass, w};
}

const hilo_assumed_eq *hilo_run_assumed(const hilo_run_state *s, size_t *n)
{
	*n = s ? s->nassumed : 0;
	return s ? s->assumed : NULL;
}

/* ---- scratch memory of one pass run (include/hilo/pass.h) ---------------- */

hilo_arena *hilo_pass_scratch(hilo_pass_ctx *ctx)
{
	if (!ctx->scratch)
		ctx->scratch = hilo_arena_create_in(ctx->m->arena);
	return ctx->scratch;
}

void *hilo_pass_scratch_by_id(hilo_pass_ctx *ctx, size_t size, uint32_t *n)
{
	hilo_arena *a = hilo_pass_scratch(ctx);
	uint32_t k = ctx->m->next_id;
	void *v = a ? hilo_arena_alloc(a, ((size_t)k + 1) * size) : NULL;
	if (v)
		memset(v, 0, ((size_t)k + 1) * size);
	*n = v ? k : 0;
	return v;
}

void hilo_pass_scratch_release(hilo_pass_ctx *ctx)
{
	if (ctx->scratch)
		hilo_arena_destroy(ctx->scratch);
	ctx->scratch = NULL;
}
