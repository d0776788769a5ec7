/* The pass registry: the table of passes.def rows (src/pass/passes.def)
 * that names each pass's run function, so it lives above the passes; the
 * lookups by name and alias. The remarks writer is src/pass/remarks.c.
 *
 * Compiled twice: into libhilo with the real passes only, and, with
 * HILO_WITH_TEST_PASSES, into the testing library of the test binaries
 * (tests/CMakeLists.txt), where the rows of tests/lib/test_passes.def follow
 * them (as MLIR's test passes are registered into mlir-opt only). */
#include "hilo/pass.h"

#include <string.h>

#ifdef HILO_WITH_TEST_PASSES
#define TEST_PASS(id, name, desc) hilo_pass_result hilo_pass_##id(hilo_pass_ctx *ctx);
#include "test_passes.def"
#undef TEST_PASS
#endif

static const hilo_pass registry[] = {
#define PASS(id, name, desc) {name, desc, hilo_pass_##id, false},
#include "pass/passes.def"
#undef PASS
#ifdef HILO_WITH_TEST_PASSES
#define TEST_PASS(id, name, desc) {name, desc, hilo_pass_##id, true},
#include "test_passes.def"
#undef TEST_PASS
#endif
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
#define PASS_ALIAS(name, alias) {name, alias},
#include "pass/passes.def"
#undef PASS_ALIAS
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
