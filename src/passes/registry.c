/* The pass registry (from passes.def) and the remarks writer. */
#include "hilo/pass.h"
#include "util/json.h"

#include <string.h>

static const hilo_pass registry[] = {
#define PASS(id, name, desc) {name, desc, hilo_pass_##id},
#include "passes.def"
#undef PASS
	{NULL, NULL, NULL},
};

const hilo_pass *hilo_pass_list(size_t *n)
{
	*n = sizeof registry / sizeof *registry - 1;
	return registry;
}

const hilo_pass *hilo_pass_find(const char *name)
{
	for (size_t k = 0; registry[k].name; k++)
		if (strcmp(registry[k].name, name) == 0)
			return &registry[k];
	return NULL;
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
	fputs("}\n", f);
}
