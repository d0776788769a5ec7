/* broken.c - plugins that must not load (tests/install/plugin.sh), one
 * per BROKEN value, each a clear "cannot load pass plugin" error:
 *   version   built for another plugin API version (hilo_plugin_init
 *             must not even run: it would say so on stderr)
 *   noinit    states its version but has no hilo_plugin_init
 *   false     hilo_plugin_init says why and returns false
 *   builtin   registers a pass with a built-in pass's name (dce)
 *   noversion a shared object with neither symbol: not a hilo plugin */
#include <hilo/plugin.h>

#include <stdio.h>

#define VERSION 1
#define NOINIT 2
#define FALSE 3
#define BUILTIN 4
#define NOVERSION 5

#if BROKEN == VERSION
const uint32_t hilo_plugin_api_version = HILO_PLUGIN_API_VERSION + 1;
#elif BROKEN != NOVERSION
HILO_PLUGIN_DEFINE_API_VERSION;
#endif

#if BROKEN != NOINIT && BROKEN != NOVERSION
static hilo_pass_result nothing(hilo_pass_ctx *ctx)
{
	(void)ctx;
	return HILO_PASS_UNCHANGED;
}

bool hilo_plugin_init(hilo_plugin_registrar *r)
{
#if BROKEN == VERSION
	fputs("broken plugin: hilo_plugin_init ran despite the version mismatch\n", stderr);
#elif BROKEN == FALSE
	hilo_plugin_error(r, "no accelerator found");
	return false;
#endif
	return hilo_plugin_register_pass(r, BROKEN == BUILTIN ? "dce" : "nothing", "does nothing",
		nothing);
}
#else
int broken_plugin_placeholder; /* ISO C: a translation unit declares something */
#endif
