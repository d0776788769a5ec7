/* The pass registry: the table of passes.def rows (src/pass/passes.def)
 * that names each pass's run function, so it lives above the passes; the
 * lookups by name and alias. The remarks writer is src/pass/remarks.c. */
#include "hilo/pass.h"

#include <string.h>

static const hilo_pass registry[] = {
#define PASS(id, name, desc) {name, desc, hilo_pass_##id, false},
#define TEST_PASS(id, name, desc) {name, desc, hilo_pass_##id, true},
#include "pass/passes.def"
#undef TEST_PASS
#undef PASS
	{NULL, NULL, NULL, false},
};

const hilo_pass *hilo_pass_list(size_t *n)
{
	*n = sizeof registry / sizeof *registry - 1;
	return registry;
}

/* PASS_ALIAS lines: {pass name, alias} */
static const char *const aliases[][2] = {
#define PASS(id, name, desc)
#define TEST_PASS(id, name, desc)
#define PASS_ALIAS(name, alias) {name, alias},
#include "pass/passes.def"
#undef PASS_ALIAS
#undef TEST_PASS
#undef PASS
	{NULL, NULL},
};

static const hilo_pass *find_exact(const char *name)
{
	for (size_t k = 0; registry[k].name; k++)
		if (strcmp(registry[k].name, name) == 0)
			return &registry[k];
	return NULL;
}

const hilo_pass *hilo_pass_find(const char *name)
{
	const hilo_pass *p = find_exact(name);
	for (size_t k = 0; !p && aliases[k][0]; k++)
		if (strcmp(aliases[k][1], name) == 0)
			p = find_exact(aliases[k][0]);
	return p;
}

const char *hilo_pass_alias(const hilo_pass *p, size_t k)
{
	for (size_t j = 0; p && aliases[j][0]; j++)
		if (strcmp(aliases[j][0], p->name) == 0 && k-- == 0)
			return aliases[j][1];
	return NULL;
}
