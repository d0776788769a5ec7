/* The remarks writer (--remarks): one JSON line per decision of a pass. */
#include "hilo/pass.h"
#include "support/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The raw metadata value of key (strings keep their quotes), or NULL. */
static const char *md_raw(const hilo_instr *i, const char *key)
{
	if (!i || !i->metadata)
		return NULL;
	for (int k = 0; k < i->metadata->n; k++)
		if (!strcmp(i->metadata->e[k].key, key))
			return i->metadata->e[k].value;
	return NULL;
}

/* Where the instruction came from, so a remark can be traced back to the
 * input line and to the JAX/PyTorch source: "line"/"col" (when it was
 * parsed from text), "op_name", "source_file", "source_line". */
static void write_origin(FILE *f, hilo_module *m, const hilo_instr *i)
{
	if (!i)
		return;
	if (i->line > 0)
		fprintf(f, ",\"line\":%d,\"col\":%d", i->line, i->col);
	const char *on = md_raw(i, "op_name") ? hilo_instr_op_name(m, i) : NULL;
	if (on) {
		fputs(",\"op_name\":", f);
		hilo_json_str(f, on);
	}
	const char *sf = md_raw(i, "source_file");
	if (sf) {
		size_t n = strlen(sf);
		char buf[1024];
		if (n >= 2 && sf[0] == '"' && sf[n - 1] == '"' && n - 2 < sizeof buf) {
			memcpy(buf, sf + 1, n - 2);
			buf[n - 2] = 0;
			sf = buf;
		}
		fputs(",\"source_file\":", f);
		hilo_json_str(f, sf);
	}
	const char *sl = md_raw(i, "source_line");
	if (sl && *sl >= '0' && *sl <= '9' && strspn(sl, "0123456789") == strlen(sl))
		fprintf(f, ",\"source_line\":%s", sl);
}

void hilo_remark(hilo_pass_ctx *ctx, const hilo_comp *c, const hilo_instr *i,
	const char *action, const char *fmt, ...)
{
	if (!ctx->remarks)
		return;
	char reason[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	FILE *f = ctx->remarks;
	fputs("{\"pass\":", f);
	hilo_json_str(f, ctx->pass);
	fputs(",\"computation\":", f);
	hilo_json_str(f, c ? c->name : (i && i->parent ? i->parent->name : ""));
	fputs(",\"instruction\":", f);
	hilo_json_str(f, i ? i->name : "");
	fputs(",\"action\":", f);
	hilo_json_str(f, action);
	fputs(",\"reason\":", f);
	hilo_json_str(f, reason);
	write_origin(f, ctx->m, i); /* last, so the leading keys keep their order */
	fputs("}\n", f);
}
