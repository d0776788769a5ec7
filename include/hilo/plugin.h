/* hilo/plugin.h - pass plugins: passes a user writes against the installed
 * headers, compiles into a shared object and hands to
 * `hilo-opt --load-pass-plugin=FILE.so` (LLVM opt's spelling). docs/plugins.md
 * has a complete example.
 *
 * A plugin defines two symbols, both declared here:
 *
 *   HILO_PLUGIN_DEFINE_API_VERSION;             (in one source file)
 *   bool hilo_plugin_init(hilo_plugin_registrar *r)
 *   {
 *       return hilo_plugin_register_pass(r, "my-pass", "what it does", my_pass);
 *   }
 *
 * The first states the plugin API version the plugin was built against;
 * the loader reads it before it runs any of the plugin's code and refuses
 * a plugin built for another version (the pass context and the IR structs
 * a pass reads are part of that API). hilo_plugin_init registers the
 * passes: a name (letters, digits, '-', '_', '.'), a one-line description
 * and a run function with the signature of the built-in passes
 * (hilo/pass.h). It returns false when the plugin cannot work, after
 * hilo_plugin_error() said why; nothing of it is registered then.
 *
 * A registered pass is a hilo_pass like the built-in ones: the driver runs
 * it, verifies after it and, under --check-equivalence, judges every
 * rewrite it makes with the same validator. A name that is already taken
 * (a built-in pass or alias, or a pass of a plugin loaded before) is an
 * error, as is a plugin that registers no pass.
 *
 * The host side: a hilo_plugins registry, created and owned by the
 * program that loads plugins (no global table: two registries in one
 * process are independent), holds the loaded objects and their passes
 * until hilo_plugins_destroy unloads them. Link the plugin with the shared
 * library (`pkg-config --libs hilo`): the IR functions it calls are
 * libhilo's, which keeps no global state, so they work on the module
 * hilo-opt hands over whichever copy of the library hilo-opt carries.
 */
#ifndef HILO_PLUGIN_H
#define HILO_PLUGIN_H

#include "hilo/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Raised whenever hilo_pass_ctx, the hilo_pass_fn signature, the IR
 * structs or the registration functions below change incompatibly. */
#define HILO_PLUGIN_API_VERSION 1u

typedef struct hilo_plugin_registrar hilo_plugin_registrar;

/* ---- what a plugin defines ---------------------------------------------- */

/* The plugin API version the plugin was built against (read by the loader
 * before hilo_plugin_init runs). Define it with HILO_PLUGIN_DEFINE_API_VERSION. */
HILO_API extern const uint32_t hilo_plugin_api_version;
#ifdef __cplusplus
#define HILO_PLUGIN_DEFINE_API_VERSION \
	extern "C" HILO_API const uint32_t hilo_plugin_api_version = HILO_PLUGIN_API_VERSION
#else
#define HILO_PLUGIN_DEFINE_API_VERSION \
	HILO_API const uint32_t hilo_plugin_api_version = HILO_PLUGIN_API_VERSION
#endif

/* The plugin's entry point: registers its passes through r; false when the
 * plugin cannot work (say why with hilo_plugin_error). The plugin defines
 * it; the library does not (so the name sits on its own line: the export
 * list, cmake/exports.cmake, takes only "type hilo_name(" lines). */
HILO_API bool
hilo_plugin_init(hilo_plugin_registrar *r);

/* ---- what a plugin calls (from hilo_plugin_init) ------------------------- */

/* Registers a pass. The strings are copied; run stays valid while the
 * plugin is loaded. False (and the load fails) on a malformed name, a
 * missing description or run function, a name registered twice or when
 * out of memory; the loader reports why. */
HILO_API bool hilo_plugin_register_pass(hilo_plugin_registrar *r, const char *name,
	const char *description, hilo_pass_fn run);
/* Says why hilo_plugin_init is about to return false (shown in the load
 * error). */
HILO_API void hilo_plugin_error(hilo_plugin_registrar *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- the host: loading plugins ---------------------------------------- */

typedef struct hilo_plugins hilo_plugins;

/* An empty registry; NULL when out of memory. */
HILO_API hilo_plugins *hilo_plugins_create(void);
/* Unloads every plugin: their passes must not run any more. NULL is fine. */
HILO_API void hilo_plugins_destroy(hilo_plugins *r);
/* Loads the plugin at path (a path without '/' is a file of the current
 * folder, not a search of the library path), checks its API version, runs
 * its hilo_plugin_init and checks what it registered against the built-in
 * passes (hilo_pass_find) and the passes already in r. False after an
 * error diagnostic naming the path: the file is missing or not a shared
 * object, hilo_plugin_api_version or hilo_plugin_init is missing, the
 * version differs, init returned false, or a pass name is taken or
 * malformed. On false nothing of the plugin stays in r. */
HILO_API bool hilo_plugins_load(hilo_plugins *r, const char *path, hilo_diags *d);
/* The plugin pass of that name, or NULL (r may be NULL). */
HILO_API const hilo_pass *hilo_plugins_find(const hilo_plugins *r, const char *name);
/* The k-th plugin pass in load and registration order (0-based), or NULL
 * past the last; *path, when path is non-NULL, is the plugin it came from
 * as it was given to hilo_plugins_load. The pointers stay valid until
 * hilo_plugins_destroy. */
HILO_API const hilo_pass *hilo_plugins_pass(const hilo_plugins *r, size_t k, const char **path);

#ifdef __cplusplus
}
#endif

#endif
