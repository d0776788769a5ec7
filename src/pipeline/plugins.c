/* Pass plugins (hilo/plugin.h): loading a shared object, checking the
 * plugin API version it states, running its hilo_plugin_init and keeping
 * the passes it registered in the caller's hilo_plugins registry.
 *
 * Order of a load, each step a clear error rather than a crash later:
 *   1. the file exists (stat: dlerror's wording for a missing file names
 *      no errno and differs between C libraries);
 *   2. dlopen(RTLD_NOW | RTLD_LOCAL): every symbol the plugin needs is
 *      resolved now, not in the middle of a pass; its symbols stay out of
 *      the global namespace, so two plugins cannot interpose each other;
 *   3. hilo_plugin_api_version is read before any plugin code runs: a
 *      plugin built for another API may not even agree on the layout of
 *      the pass context, so its init is never called;
 *   4. hilo_plugin_init registers into a registrar of its own (staged
 *      passes), and only after it returned true are the names checked
 *      against the built-in passes and the registry and the passes
 *      committed: a failed plugin leaves nothing behind and is unloaded.
 * Passes are heap entries in a list, so a hilo_pass pointer the caller
 * holds stays valid while later plugins load. */
#include "hilo/plugin.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct plugin_pass {
	hilo_pass pass;          /* name and description malloc'd */
	const char *path;        /* the plugin's, owned by its plugin_obj */
	struct plugin_pass *next;
} plugin_pass;

typedef struct plugin_obj {
	void *handle;            /* dlopen's */
	char *path;              /* as given */
	struct plugin_obj *next;
} plugin_obj;

struct hilo_plugins {
	plugin_obj *objs;
	plugin_pass *passes, **tail; /* in load and registration order */
};

/* What one hilo_plugin_init sees: its staged passes and the first
 * problem it ran into (later ones add nothing the user needs first). */
struct hilo_plugin_registrar {
	plugin_pass *staged, **tail;
	char *error;             /* malloc'd, or NULL */
	bool oom;
};

hilo_plugins *hilo_plugins_create(void)
{
	hilo_plugins *r = calloc(1, sizeof *r);
	if (r)
		r->tail = &r->passes;
	return r;
}

static void free_passes(plugin_pass *p)
{
	while (p) {
		plugin_pass *next = p->next;
		free((char *)p->pass.name);
		free((char *)p->pass.description);
		free(p);
		p = next;
	}
}

void hilo_plugins_destroy(hilo_plugins *r)
{
	if (!r)
		return;
	free_passes(r->passes);
	for (plugin_obj *o = r->objs, *next; o; o = next) {
		next = o->next;
		dlclose(o->handle);
		free(o->path);
		free(o);
	}
	free(r);
}

static void set_error(hilo_plugin_registrar *r, const char *fmt, va_list ap)
{
	if (r->error)
		return;
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || !(r->error = malloc((size_t)n + 1)))
		r->oom = true;
	else
		vsnprintf(r->error, (size_t)n + 1, fmt, ap);
}

void hilo_plugin_error(hilo_plugin_registrar *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_error(r, fmt, ap);
	va_end(ap);
}

/* A pass name as --passes lists take it and --dump-after-each puts it in
 * a file name: no ',', '/', '=' or spaces. */
static bool name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 128)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '-' || *s == '_' || *s == '.'))
			return false;
	return true;
}

static const hilo_pass *find_in(const plugin_pass *p, const char *name)
{
	for (; p; p = p->next)
		if (strcmp(p->pass.name, name) == 0)
			return &p->pass;
	return NULL;
}

bool hilo_plugin_register_pass(hilo_plugin_registrar *r, const char *name,
	const char *description, hilo_pass_fn run)
{
	if (!name || !name_ok(name)) {
		hilo_plugin_error(r, "invalid pass name '%s' (1 to 128 letters, digits, '-', '_' "
			"or '.')", name ? name : "(null)");
		return false;
	}
	if (!description || !run) {
		hilo_plugin_error(r, "pass '%s' registered without a %s", name,
			description ? "run function" : "description");
		return false;
	}
	if (find_in(r->staged, name)) {
		hilo_plugin_error(r, "pass '%s' registered twice", name);
		return false;
	}
	plugin_pass *p = calloc(1, sizeof *p);
	char *n = strdup(name), *d = strdup(description);
	if (!p || !n || !d) {
		free(p);
		free(n);
		free(d);
		r->oom = true;
		return false;
	}
	p->pass = (hilo_pass){n, d, run, false};
	*r->tail = p;
	r->tail = &p->next;
	return true;
}

static void load_error(hilo_diags *d, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "cannot load pass plugin 'PATH': WHY" (no file: the message names it) */
static void load_error(hilo_diags *d, const char *path, const char *fmt, ...)
{
	char why[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	hilo_diag_add(d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0, "cannot load pass plugin '%s': %s",
		path, why);
}

/* Checks the staged passes' names against the built-ins and r; true when
 * none is taken. */
static bool names_free(const hilo_plugins *r, const plugin_pass *staged, const char *path,
	hilo_diags *d)
{
	for (const plugin_pass *p = staged; p; p = p->next) {
		const char *taken_by = NULL;
		for (const plugin_pass *q = r->passes; q && !taken_by; q = q->next)
			if (!strcmp(q->pass.name, p->pass.name))
				taken_by = q->path;
		if (hilo_pass_find(p->pass.name)) {
			load_error(d, path, "pass '%s' has the name of a built-in pass (or alias)",
				p->pass.name);
			return false;
		}
		if (taken_by) {
			load_error(d, path, "pass '%s' is already registered by plugin '%s'",
				p->pass.name, taken_by);
			return false;
		}
	}
	return true;
}

/* Runs the plugin's init and commits what it registered; false after a
 * diagnostic (the caller unloads the object). */
static bool init_plugin(hilo_plugins *r, plugin_obj *obj, bool (*init)(hilo_plugin_registrar *),
	hilo_diags *d)
{
	hilo_plugin_registrar reg = {.staged = NULL, .tail = &reg.staged};
	bool ok = init(&reg);
	const char *path = obj->path;
	if (reg.oom) {
		hilo_diag_oom(d, path);
		ok = false;
	} else if (!ok || reg.error) {
		/* a refused registration fails the load even when init ignored it */
		load_error(d, path, "hilo_plugin_init %s%s%s", ok ? "registered a pass wrongly" :
			"returned false", reg.error ? ": " : " (the plugin gave no reason)",
			reg.error ? reg.error : "");
		ok = false;
	} else if (!reg.staged) {
		load_error(d, path, "hilo_plugin_init registered no pass");
		ok = false;
	} else {
		ok = names_free(r, reg.staged, path, d);
	}
	free(reg.error);
	if (!ok) {
		free_passes(reg.staged);
		return false;
	}
	for (plugin_pass *p = reg.staged; p; p = p->next)
		p->path = path;
	*r->tail = reg.staged;
	r->tail = reg.tail;
	return true;
}

bool hilo_plugins_load(hilo_plugins *r, const char *path, hilo_diags *d)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		load_error(d, path, "%s", strerror(errno));
		return false;
	}
	if (S_ISDIR(st.st_mode)) {
		load_error(d, path, "is a directory");
		return false;
	}
	plugin_obj *obj = calloc(1, sizeof *obj);
	/* dlopen searches the library path for a name without '/' */
	size_t n = strlen(path);
	char *file = malloc(n + 3);
	if (!obj || !file || !(obj->path = strdup(path))) {
		free(file);
		if (obj)
			free(obj->path);
		free(obj);
		hilo_diag_oom(d, path);
		return false;
	}
	snprintf(file, n + 3, "%s%s", strchr(path, '/') ? "" : "./", path);
	obj->handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	free(file);
	bool ok = false;
	if (!obj->handle) {
		const char *e = dlerror();
		load_error(d, path, "%s", e ? e : "not a loadable shared object");
	} else {
		/* dlsym's void * to a function pointer: POSIX guarantees it works */
		const uint32_t *version = (const uint32_t *)dlsym(obj->handle, "hilo_plugin_api_version");
		void *init = dlsym(obj->handle, "hilo_plugin_init");
		bool (*init_fn)(hilo_plugin_registrar *);
		memcpy(&init_fn, &init, sizeof init_fn);
		if (!version)
			load_error(d, path, "no symbol hilo_plugin_api_version: not a hilo pass plugin "
				"(a plugin states its API version with HILO_PLUGIN_DEFINE_API_VERSION; "
				"docs/plugins.md)");
		else if (*version != HILO_PLUGIN_API_VERSION)
			load_error(d, path, "built for plugin API version %u, this hilo has version %u: "
				"rebuild the plugin against this hilo's headers", (unsigned)*version,
				(unsigned)HILO_PLUGIN_API_VERSION);
		else if (!init)
			load_error(d, path, "no symbol hilo_plugin_init (the entry point that registers "
				"the plugin's passes; docs/plugins.md)");
		else
			ok = init_plugin(r, obj, init_fn, d);
	}
	if (!ok) {
		if (obj->handle)
			dlclose(obj->handle);
		free(obj->path);
		free(obj);
		return false;
	}
	obj->next = r->objs;
	r->objs = obj;
	return true;
}

const hilo_pass *hilo_plugins_find(const hilo_plugins *r, const char *name)
{
	return r ? find_in(r->passes, name) : NULL;
}

const hilo_pass *hilo_plugins_pass(const hilo_plugins *r, size_t k, const char **path)
{
	const plugin_pass *p = r ? r->passes : NULL;
	while (p && k--)
		p = p->next;
	if (p && path)
		*path = p->path;
	return p ? &p->pass : NULL;
}
