/* Module statistics and a static cost estimate (include/hilo/viz.h),
 * behind `hilo-opt --stats=ops`: instruction counts per opcode, parameter
 * and output bytes, and FLOPs and bytes accessed per op category, per
 * computation and for the module.
 *
 * The cost model counts like XLA's HloCostAnalysis: a dot does
 * 2 x (result elements) x (contracted size) operations; a convolution
 * 2 x (result elements) x (kernel spatial window) x (kernel input
 * features, which are already per feature group); elementwise ops one per
 * result element; reduce one per reduced input element; reduce-window one
 * per window element of each output. Transcendental elementwise ops (the
 * TRANS column of opcodes.def: exp, log, tanh, ...) count one
 * transcendental per result element and no FLOPs, as XLA counts them
 * apart. Data movement, parameters, constants and tuple plumbing do no
 * arithmetic. Bytes read are the operands' bytes,
 * bytes written the result's; get-tuple-element, tuple, parameter,
 * constant and bitcast move nothing. The counts are static: a computation
 * called from several places (or a loop body) is counted once. */
#include "ir/window.h"
#include "hilo/viz.h"
#include "support/json.h"
#include "viz/viz_internal.h"

#include <stdlib.h>
#include <string.h>

static double shape_bytes(const hilo_shape *s)
{
	if (s->type == HILO_T_TUPLE) {
		double b = 0;
		for (int k = 0; k < s->ntuple; k++)
			b += shape_bytes(s->elems[k]);
		return b;
	}
	int64_t n = hilo_shape_elements(s);
	int eb = hilo_ptype_bits(s->type);
	if (n < 0 || eb <= 0)
		return 0;
	return (double)n * (double)eb / 8.0;
}

static double elements(const hilo_shape *s)
{
	if (s->type == HILO_T_TUPLE) {
		double n = 0;
		for (int k = 0; k < s->ntuple; k++)
			n += elements(s->elems[k]);
		return n;
	}
	int64_t n = hilo_shape_elements(s);
	return n < 0 ? 0 : (double)n;
}

/* The product of the operand's dims listed in attribute key. */
static double dims_product(const hilo_instr *i, hilo_attr_id key, const hilo_shape *s)
{
	int n = 0;
	const int64_t *d = hilo_instr_get_ints(i, key, &n);
	double p = 1;
	for (int k = 0; d && k < n; k++)
		if (d[k] >= 0 && d[k] < s->rank)
			p *= (double)s->dims[d[k]];
	return p;
}

/* Convolution: the kernel's spatial window and input features, from
 * dim_labels "b01f_01io->b01f" (the part after '_' names the kernel's
 * dimensions: digits spatial, 'i' input features, 'o' output features). */
static double conv_per_output(const hilo_instr *i)
{
	if (i->noperands < 2 || i->operands[1]->shape->type == HILO_T_TUPLE)
		return 0;
	const hilo_shape *k = i->operands[1]->shape;
	hilo_attr *a = hilo_instr_attr(i, HILO_A_DIM_LABELS);
	const char *t = a && a->kind == HILO_ATTR_RAW ? a->v.text : NULL;
	const char *u = t ? strchr(t, '_') : NULL;
	double p = 1;
	if (!u) /* no labels: every kernel dim but the output feature (last) */
		for (int d = 0; d + 1 < k->rank; d++)
			p *= (double)k->dims[d];
	else
		for (int d = 0; u[d + 1] && u[d + 1] != '-' && d < k->rank; d++) {
			char c = u[d + 1];
			if ((c >= '0' && c <= '9') || c == 'i')
				p *= (double)k->dims[d];
		}
	return p;
}

hilo_cost hilo_instr_cost(const hilo_instr *i)
{
	hilo_cost c = {0, 0, 0, 0};
	switch (i->op) {
	case HILO_OP_PARAMETER:
	case HILO_OP_CONSTANT:
	case HILO_OP_TUPLE:
	case HILO_OP_GET_TUPLE_ELEMENT:
	case HILO_OP_BITCAST:
		return c;
	default:
		break;
	}
	for (uint32_t k = 0; k < i->noperands; k++)
		c.bytes_read += shape_bytes(i->operands[k]->shape);
	c.bytes_written = shape_bytes(i->shape);
	double out = elements(i->shape);
	if (i->op == HILO_OP_DOT && i->noperands == 2) {
		c.flops = 2 * out * dims_product(i, HILO_A_LHS_CONTRACTING_DIMS, i->operands[0]->shape);
	} else if (i->op == HILO_OP_CONVOLUTION) {
		c.flops = 2 * out * conv_per_output(i);
	} else if (i->op == HILO_OP_REDUCE) {
		for (uint32_t k = 0; k < i->noperands / 2; k++)
			c.flops += elements(i->operands[k]->shape);
	} else if (i->op == HILO_OP_REDUCE_WINDOW && i->noperands >= 2) {
		const hilo_shape *is = i->operands[0]->shape;
		hilo_attr *wa = hilo_instr_attr(i, HILO_A_WINDOW);
		hilo_window w;
		double win = 1;
		if (is->type != HILO_T_TUPLE && is->rank <= HILO_MAX_WINDOW_RANK &&
		    hilo_window_parse(wa && wa->kind == HILO_ATTR_RAW ? wa->v.text : NULL, is->rank, &w))
			for (int d = 0; d < is->rank; d++)
				win *= (double)w.size[d];
		c.flops = out * win;
	} else if (hilo_opcode_flags(i->op) & HILO_OPF_TRANS) {
		c.transcendentals = out;
	} else if (viz_category(i) == VIZ_ELEMENTWISE) {
		c.flops = out;
	}
	return c;
}

/* ---- per-computation tallies ---------------------------------------------- */

typedef struct tally {
	uint64_t instrs;
	uint64_t ops[HILO_OP_COUNT];
	double param_bytes, out_bytes;
	double transcendentals;
	double flops[VIZ_NCAT], bytes[VIZ_NCAT];
} tally;

static void count(tally *t, const hilo_comp *c)
{
	for (const hilo_instr *i = c->first; i; i = i->next) {
		t->instrs++;
		t->ops[i->op]++;
		hilo_cost k = hilo_instr_cost(i);
		viz_cat ci = viz_category(i);
		t->flops[ci] += k.flops;
		t->bytes[ci] += k.bytes_read + k.bytes_written;
		t->transcendentals += k.transcendentals;
	}
	for (uint32_t p = 0; p < c->nparams; p++)
		if (c->params[p])
			t->param_bytes += shape_bytes(c->params[p]->shape);
	if (c->root)
		t->out_bytes += shape_bytes(c->root->shape);
}

static void add(tally *s, const tally *t)
{
	s->instrs += t->instrs;
	for (int k = 0; k < HILO_OP_COUNT; k++)
		s->ops[k] += t->ops[k];
	s->param_bytes += t->param_bytes;
	s->out_bytes += t->out_bytes;
	s->transcendentals += t->transcendentals;
	for (int k = 0; k < VIZ_NCAT; k++) {
		s->flops[k] += t->flops[k];
		s->bytes[k] += t->bytes[k];
	}
}

static double sum(const double *v)
{
	double s = 0;
	for (int k = 0; k < VIZ_NCAT; k++)
		s += v[k];
	return s;
}

/* "512 B", "12.3 MiB": for people; the JSON form keeps exact counts. */
static const char *human_bytes(char *buf, size_t cap, double b)
{
	static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
	if (b < 1024) {
		snprintf(buf, cap, "%.0f B", b);
		return buf;
	}
	int u = -1;
	while (b >= 1024 && u < 4) {
		b /= 1024;
		u++;
	}
	snprintf(buf, cap, "%.1f %s", b, unit[u]);
	return buf;
}

static void text_tally(hilo_buf *b, const char *title, const tally *t)
{
	char pb[32], ob[32], ab[32];
	hilo_buf_printf(b, "%s: %llu instructions, parameters %s, output %s\n", title,
		(unsigned long long)t->instrs, human_bytes(pb, sizeof pb, t->param_bytes),
		human_bytes(ob, sizeof ob, t->out_bytes));
	hilo_buf_puts(b, "  opcodes:");
	bool first = true;
	for (int k = 0; k < HILO_OP_COUNT; k++)
		if (t->ops[k]) {
			hilo_buf_printf(b, "%s %s %llu", first ? "" : ",", hilo_opcode_name((hilo_opcode)k),
				(unsigned long long)t->ops[k]);
			first = false;
		}
	hilo_buf_puts(b, "\n");
	hilo_buf_printf(b, "  cost: %.6g flops, %.6g transcendentals, %s accessed\n", sum(t->flops),
		t->transcendentals, human_bytes(ab, sizeof ab, sum(t->bytes)));
	for (int k = 0; k < VIZ_NCAT; k++)
		if (t->flops[k] || t->bytes[k])
			hilo_buf_printf(b, "    %-16s %14.6g flops %12s\n", viz_cats[k].name, t->flops[k],
				human_bytes(ab, sizeof ab, t->bytes[k]));
}

static void json_tally(hilo_buf *b, const tally *t)
{
	hilo_buf_printf(b, "\"instructions\": %llu, \"parameter_bytes\": %.0f, \"output_bytes\": %.0f, \"opcodes\": {",
		(unsigned long long)t->instrs, t->param_bytes, t->out_bytes);
	bool first = true;
	for (int k = 0; k < HILO_OP_COUNT; k++)
		if (t->ops[k]) {
			hilo_buf_printf(b, "%s\"%s\": %llu", first ? "" : ", ", hilo_opcode_name((hilo_opcode)k),
				(unsigned long long)t->ops[k]);
			first = false;
		}
	hilo_buf_printf(b, "}, \"flops\": %.17g, \"transcendentals\": %.17g, \"bytes_accessed\": %.17g, "
		"\"categories\": {", sum(t->flops), t->transcendentals, sum(t->bytes));
	first = true;
	for (int k = 0; k < VIZ_NCAT; k++)
		if (t->flops[k] || t->bytes[k]) {
			hilo_buf_printf(b, "%s\"%s\": {\"flops\": %.17g, \"bytes\": %.17g}", first ? "" : ", ",
				viz_cats[k].name, t->flops[k], t->bytes[k]);
			first = false;
		}
	hilo_buf_putc(b, '}');
}

/* Every instruction's cost, as XLA's per-instruction cost properties
 * (flops, transcendentals, bytes accessed). */
static void json_costs(hilo_buf *b, const hilo_comp *c)
{
	hilo_buf_puts(b, ", \"costs\": [");
	for (const hilo_instr *i = c->first; i; i = i->next) {
		hilo_cost k = hilo_instr_cost(i);
		hilo_buf_puts(b, i == c->first ? "{\"name\": " : ", {\"name\": ");
		hilo_json_str_buf(b, i->name);
		hilo_buf_printf(b, ", \"opcode\": \"%s\", \"flops\": %.17g, \"transcendentals\": %.17g, "
			"\"bytes_accessed\": %.17g}", hilo_opcode_name(i->op), k.flops, k.transcendentals,
			k.bytes_read + k.bytes_written);
	}
	hilo_buf_putc(b, ']');
}

/* Allocates nothing but out's growth: a full buffer sets out->oom, which
 * the caller reports (never a silently empty or truncated result). The
 * module's summary comes first (what one reads a dump's statistics for),
 * then each computation. */
void hilo_write_stats(hilo_buf *out, const hilo_module *m, bool json)
{
	tally all, t;
	memset(&all, 0, sizeof all);
	double entry_params = 0, entry_out = 0;
	for (uint32_t c = 0; c < m->ncomps; c++) {
		memset(&t, 0, sizeof t);
		count(&t, m->comps[c]);
		add(&all, &t);
		if (m->comps[c]->is_entry) {
			entry_params = t.param_bytes;
			entry_out = t.out_bytes;
		}
	}
	/* the module's inputs and outputs are the entry computation's */
	all.param_bytes = entry_params;
	all.out_bytes = entry_out;
	if (json) {
		hilo_buf_puts(out, "{\"module\": ");
		hilo_json_str_buf(out, m->name);
		hilo_buf_puts(out, ", \"total\": {");
		json_tally(out, &all);
		hilo_buf_puts(out, "}, \"computations\": [");
	} else {
		char title[512];
		snprintf(title, sizeof title, "module %s (%u computation%s; static counts)", m->name ? m->name : "",
			m->ncomps, m->ncomps == 1 ? "" : "s");
		text_tally(out, title, &all);
	}
	for (uint32_t c = 0; c < m->ncomps; c++) {
		memset(&t, 0, sizeof t);
		count(&t, m->comps[c]);
		if (json) {
			hilo_buf_puts(out, c ? ", {\"name\": " : "{\"name\": ");
			hilo_json_str_buf(out, m->comps[c]->name);
			hilo_buf_printf(out, ", \"entry\": %s, ", m->comps[c]->is_entry ? "true" : "false");
			json_tally(out, &t);
			json_costs(out, m->comps[c]);
			hilo_buf_putc(out, '}');
		} else {
			char title[512];
			snprintf(title, sizeof title, "computation %s%s", m->comps[c]->is_entry ? "ENTRY " : "",
				m->comps[c]->name);
			text_tally(out, title, &t);
		}
	}
	hilo_buf_puts(out, json ? "]}\n" : "");
}
