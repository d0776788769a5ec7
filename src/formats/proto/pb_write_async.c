/* The writer's async sugar wrappers (pb_write.c calls these): XLA reads
 * an async op written as sugar, `custom-call-start(p0), ...`, only as an
 * async-start calling a computation that wraps the op; the IR keeps the
 * sugar, so the writer makes that computation up as it writes, and
 * hilo's reader drops it again (pb_read.c). */
#include "pb_write.h"
#include "pb_wire.h"

#include <stdio.h>
#include <string.h>

int64_t pbw_async_wrapper_id(const writer *W, const hilo_instr *i)
{
	if (!W->wrapped.n) /* the usual module: no sugar, no lookup */
		return -1;
	return (int64_t)(uintptr_t)hilo_ptrmap_get(&W->wrapped, i) - 1;
}

/* XLA's form of an async sugar start, `custom-call-start(p0),
 * custom_call_target="foo"`: an async-start calling a computation whose
 * parameters are the start's operands and whose root is the wrapped op,
 * with the start's attributes (hlo_parser.cc builds it; its proto reader
 * requires it: "Async start instruction should have 1 called
 * computation"). Written before the computation holding the start, as
 * XLA reads callees first (ids numbered first, pbw_number_async_wrappers),
 * and marked (1004) so hilo's reader drops it
 * again: the IR keeps the sugar. */
static void put_async_wrapper(writer *W, const hilo_instr *s, int64_t id)
{
	hilo_buf *b = W->out;
	const hilo_shape *sh = s->shape;
	if (sh->type != HILO_T_TUPLE || sh->ntuple < 2 || s->noperands > 1000000)
		return; /* not the (operands, result, context) the verifier checks */
	hilo_instr *ps = walloc(W, (s->noperands + 1) * sizeof *ps);
	hilo_instr **ops = walloc(W, (s->noperands + 1) * sizeof *ops);
	hilo_attr *attrs = walloc(W, (s->nattrs + 1) * sizeof *attrs);
	hilo_instr_cold *cold = walloc(W, sizeof *cold);
	char *name = walloc(W, strlen(s->name) + 32);
	if (W->oom)
		return;
	size_t at = pw_open_n(b, 3, 3);
	snprintf(name, strlen(s->name) + 32, "%s.async_wrapped.%lld", s->name, (long long)id);
	pw_str(b, 1, name);
	if (!W->next_synth) {
		/* above every instruction id (not next_id: reading a proto
		 * with wrappers moves it, and a rewrite must be byte-stable) */
		uint32_t top = 0;
		for (uint32_t k = 0; k < W->m->ncomps; k++)
			for (hilo_instr *i = W->m->comps[k]->first; i; i = i->next)
				top = i->id > top ? i->id : top;
		W->next_synth = top + 1;
	}
	uint32_t base = W->next_synth;
	for (uint32_t k = 0; k < s->noperands; k++) {
		memset(&ps[k], 0, sizeof ps[k]);
		ps[k].op = HILO_OP_PARAMETER;
		ps[k].async_op = HILO_OP_COUNT;
		size_t nn = strlen(name) + 24;
		char *pn = walloc(W, nn);
		if (!pn)
			return;
		snprintf(pn, nn, "%s.param.%u", name, k);
		ps[k].name = pn; /* XLA wants instruction names unique module-wide */
		ps[k].shape = s->operands[k]->shape;
		ps[k].id = base + k;
		ps[k].u.param_no = k;
		ops[k] = &ps[k];
		pbw_put_instr(W, &ps[k]);
	}
	/* the root: the wrapped op on the parameters, with the start's
	 * attributes but its thread and control edges (the start's) */
	hilo_instr r;
	memset(&r, 0, sizeof r);
	memset(cold, 0, sizeof *cold);
	r.op = s->async_op;
	r.async_op = HILO_OP_COUNT;
	size_t rn = strlen(name) + 8;
	char *root = walloc(W, rn);
	if (!root)
		return;
	snprintf(root, rn, "%s.root", name);
	r.name = root;
	r.shape = sh->elems[1];
	r.id = base + s->noperands;
	r.operands = ops;
	r.noperands = s->noperands;
	uint32_t n = 0;
	for (uint32_t k = 0; k < s->nattrs; k++)
		if (s->attrs[k].kind != HILO_ATTR_CONTROL && s->attrs[k].kind != HILO_ATTR_METADATA &&
		    s->attrs[k].id != HILO_A_ASYNC_EXECUTION_THREAD)
			attrs[n++] = s->attrs[k];
	r.attrs = attrs;
	r.nattrs = n;
	if (hilo_instr_ncalled(s)) {
		cold->called = hilo_instr_called(s);
		cold->ncalled = hilo_instr_ncalled(s);
		r.cold = cold;
	}
	pbw_put_instr(W, &r);
	W->next_synth += s->noperands + 1;
	if (!hilo_ptrmap_put(&W->wrap_base, s, (void *)(uintptr_t)(base + 1)))
		W->oom = true;
	size_t ps_at = pw_open(b, 4);
	for (uint32_t k = 0; k < s->noperands; k++)
		pbw_put_shape(W, 1, s->operands[k]->shape, 0);
	pbw_put_shape(W, 2, r.shape, 0);
	pw_close(b, ps_at);
	pw_int(b, 5, id);
	pw_int(b, 6, pbw_instr_id(W, &r));
	const char *thread = hilo_instr_get_string(s, HILO_A_ASYNC_EXECUTION_THREAD);
	if (thread)
		pw_str(b, 8, thread);
	pw_int(b, 1004, 1); /* hilo: written for an async sugar start */
	pw_close_n(b, at, 3);
}

/* The ids of the wrapper computations of m's async sugar starts, from
 * next on; then each computation's wrappers are written after it. */
void pbw_number_async_wrapper(writer *W, const hilo_instr *i, int64_t *next)
{
	if (i->op == HILO_OP_ASYNC_START && i->async_op != HILO_OP_COUNT && !W->oom &&
	    !hilo_ptrmap_put(&W->wrapped, i, (void *)(uintptr_t)((*next)++ + 1)))
		W->oom = true;
}

void pbw_put_async_wrappers(writer *W, const hilo_comp *c)
{
	if (!W->wrapped.n)
		return; /* the usual module: no sugar, no walk */
	for (hilo_instr *i = c->first; i && !W->oom; i = i->next) {
		int64_t id = pbw_async_wrapper_id(W, i);
		if (id >= 0)
			put_async_wrapper(W, i, id);
	}
}

/* The schedule of each async wrapper: its parameters, then its root (a
 * scheduled module's every non-fusion computation has one). */
void pbw_async_sequences(void *ud, hilo_buf *out)
{
	writer *W = ud;
	const hilo_module *m = W->m;
	if (!W->wrapped.n)
		return;
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next) {
			int64_t id = pbw_async_wrapper_id(W, i);
			int64_t base = (int64_t)(uintptr_t)hilo_ptrmap_get(&W->wrap_base, i) - 1;
			if (id < 0 || base < 0)
				continue;
			int64_t *ids = walloc(W, (i->noperands + 1) * sizeof *ids);
			if (!ids)
				return;
			for (uint32_t q = 0; q <= i->noperands; q++)
				ids[q] = base + q;
			pb_schedule_sequence(out, id, ids, i->noperands + 1);
		}
}
