/* The rewrite report (include/hilo/viz.h, docs/viz.md): one self-contained
 * HTML page showing what the passes did to a module, behind
 * `hilo-opt --report=FILE.html`.
 *
 * It is fed while the passes run: the rewrite validator hands every judged
 * rewrite to hilo_report_on_record() while the modules before and after
 * the pass are both alive, so the picture of the region on each side is
 * drawn then (DOT of the instruction's neighbourhood, the replaced and the
 * new instruction highlighted). Rewrites that look alike (same pass,
 * verdict, method and opcodes) are folded into one group with one picture,
 * a count and a list, so a report of thousands of rewrites stays small.
 * At the end the passes' own remarks (declined candidates and their
 * reasons) are added, every picture is rendered to SVG by one run of
 * Graphviz's `dot -Tsvg` (the DOT text is embedded instead when `dot`
 * cannot be run), and the page is written: no network, no external
 * scripts or fonts.
 *
 * What a reader must not be misled by: a picture that is cut says so (a
 * dashed "N more inputs" stub, dot.c), a removed instruction is drawn
 * even when it is a small constant (with a REMOVED line), the fill of a
 * node is always its category and the border its role (red replaced or
 * removed, green the replacement), and rewrites the validator cannot see
 * (metadata only: the index simplifier's tokens) are listed from the
 * remarks. The header carries the command line and hilo's version. */
#include "hilo/version.h"
#include "hilo/viz.h"
#include "viz/viz_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
	MAX_MEMBERS = 200,       /* rewrites listed per group */
	MAX_META = 1000,         /* metadata-only rewrites listed (a 40k-instruction dump has thousands) */
};

typedef struct member {
	char *before, *after;    /* instruction names */
	char *where;             /* line:col and op_name */
	char *reason;
	uint32_t count;
} member;

typedef struct group {
	char *key;
	char *pass, *verdict, *method, *title;
	char *dot_before, *dot_after; /* DOT of the first member's region */
	uint64_t count;          /* rewrites in the group (records x their counts) */
	uint64_t nrecords;       /* validator records in the group (what the proof line counts) */
	member *members;
	size_t nmembers, cap;
} group;

/* A metadata-only rewrite: an instruction that kept its id, name and
 * opcode across a pass while its op_name or backend_config changed (the
 * index simplifier's dsidxnow= tokens), and that no record of the pass
 * names (its operands may have been rewired: that is a record of its
 * own, drawn, about the operands). */
typedef struct meta_rw {
	const char *pass;        /* interned */
	char *name, *was, *now;    /* instruction names are unique in a module */
} meta_rw;

struct hilo_report {
	char *title;
	group *groups;
	size_t ngroups, cap;
	hilo_ptrmap by_key;      /* interned-ish key string -> group index + 1 (via strtab) */
	hilo_strtab *keys;
	hilo_arena *arena;
	char **input_comps;      /* computation names of the input (hilo_report_note_input) */
	size_t ninput_comps;
	meta_rw *meta;           /* metadata-only rewrites found by diff_metadata */
	size_t nmeta, metacap;
	hilo_ptrmap named;       /* interned "pass\x1fname" -> 1: named by a record */
	const hilo_module *diffed_b, *diffed_a; /* the module pair last diffed */
	const char *diffed_pass;
	bool oom;
};

static char *xstrdup(hilo_report *r, const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d)
		r->oom = true;
	return d;
}

/* v (a malloc'd array of n elements of size bytes, *cap allocated) with
 * room for one more: reallocated, doubling from `first`, when full. NULL
 * (r->oom set, v kept) when out of memory. */
static void *room(hilo_report *r, void *v, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return v;
	size_t nc = *cap ? 2 * *cap : first;
	void *nv = realloc(v, nc * size);
	if (!nv) {
		r->oom = true;
		return NULL;
	}
	*cap = nc;
	return nv;
}

hilo_report *hilo_report_create(const char *title)
{
	hilo_report *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->arena = hilo_arena_create();
	r->keys = r->arena ? hilo_strtab_create(r->arena) : NULL;
	r->title = strdup(title ? title : "module");
	if (!r->arena || !r->keys || !r->title) {
		hilo_report_destroy(r);
		return NULL;
	}
	hilo_ptrmap_init(&r->by_key);
	hilo_ptrmap_init(&r->named);
	return r;
}

void hilo_report_destroy(hilo_report *r)
{
	if (!r)
		return;
	for (size_t k = 0; k < r->ngroups; k++) {
		group *g = &r->groups[k];
		free(g->key);
		free(g->pass);
		free(g->verdict);
		free(g->method);
		free(g->title);
		free(g->dot_before);
		free(g->dot_after);
		for (size_t j = 0; j < g->nmembers; j++) {
			free(g->members[j].before);
			free(g->members[j].after);
			free(g->members[j].where);
			free(g->members[j].reason);
		}
		free(g->members);
	}
	free(r->groups);
	for (size_t k = 0; k < r->ninput_comps; k++)
		free(r->input_comps[k]);
	free(r->input_comps);
	for (size_t k = 0; k < r->nmeta; k++) {
		free(r->meta[k].name);
		free(r->meta[k].was);
		free(r->meta[k].now);
	}
	free(r->meta);
	hilo_ptrmap_free(&r->named);
	hilo_ptrmap_free(&r->by_key);
	if (r->arena)
		hilo_arena_destroy(r->arena);
	free(r->title);
	free(r);
}

bool hilo_report_note_input(hilo_report *r, const hilo_module *m)
{
	char **v = calloc(m->ncomps ? m->ncomps : 1, sizeof *v);
	if (!v) {
		r->oom = true;
		return false;
	}
	for (uint32_t c = 0; c < m->ncomps; c++)
		v[c] = xstrdup(r, m->comps[c]->name);
	r->input_comps = v;
	r->ninput_comps = m->ncomps;
	return !r->oom;
}

/* The roles of a highlighted node: its border colour and label line. */
#define REPLACED_COLOR "#c62828"
#define REPLACEMENT_COLOR "#2e7d32"

/* DOT of the neighbourhood of i (two edges away, at most 60 nodes), i
 * highlighted with a border of `color` and the line `note`. */
static char *region_dot(hilo_report *r, const hilo_instr *i, const char *color, const char *note,
	const char *name)
{
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_diags d;
	hilo_diags_init(&d);
	uint32_t id = i->id;
	hilo_dot_opts o = {.around = i->name, .depth = 2, .highlight = &id, .nhighlight = 1,
		.highlight_color = color, .highlight_note = note, .graph_name = name, .max_nodes = 60};
	char *s = NULL;
	if (i->parent && i->parent->parent && hilo_write_dot(&b, i->parent->parent, &o, &d))
		s = xstrdup(r, hilo_buf_cstr(&b));
	else if (d.oom)
		r->oom = true; /* a missing picture would go unnoticed */
	hilo_buf_free(&b);
	hilo_diags_free(&d);
	return s;
}

static void where(hilo_buf *b, const hilo_instr *i)
{
	if (!i)
		return;
	if (i->line)
		hilo_buf_printf(b, "%d:%d", i->line, i->col);
	if (i->metadata)
		for (int k = 0; k < i->metadata->n; k++)
			if (!strcmp(i->metadata->e[k].key, "op_name") ||
			    !strcmp(i->metadata->e[k].key, "source_file") ||
			    !strcmp(i->metadata->e[k].key, "source_line"))
				hilo_buf_printf(b, "%s%s=%s", b->len ? " " : "", i->metadata->e[k].key,
					i->metadata->e[k].value);
}

/* Marks "pass\x1fname" as named by a record of the pass. */
static void name_recorded(hilo_report *r, const char *pass, const hilo_instr *i)
{
	char key[600];
	snprintf(key, sizeof key, "%s\x1f%s", pass, i->name);
	const char *k = hilo_intern_cstr(r->keys, key);
	if (!k || !hilo_ptrmap_put(&r->named, k, (void *)1))
		r->oom = true; /* a structural rewrite could pass for a metadata one */
}

static const char *op_name_raw(const hilo_instr *i)
{
	for (int k = 0; i->metadata && k < i->metadata->n; k++)
		if (!strcmp(i->metadata->e[k].key, "op_name"))
			return i->metadata->e[k].value;
	return "";
}

static const char *backend_config_raw(const hilo_instr *i)
{
	hilo_attr *a = hilo_instr_attr(i, HILO_A_BACKEND_CONFIG);
	return a && a->kind == HILO_ATTR_RAW && a->v.text ? a->v.text : "";
}

/* The instructions of after that are those of before (same id, name and
 * opcode: the validator's clones keep ids) with another op_name or
 * backend_config: candidates for metadata-only rewrites, kept
 * when no record of the pass names them (hilo_report_write). Run once per
 * pair of modules, while both are alive. */
static void diff_metadata(hilo_report *r, const char *pass, const hilo_module *b, const hilo_module *a)
{
	const hilo_instr **byid = calloc(b->next_id ? b->next_id : 1, sizeof *byid);
	if (!byid) {
		r->oom = true;
		return;
	}
	for (uint32_t c = 0; c < b->ncomps; c++)
		for (const hilo_instr *i = b->comps[c]->first; i; i = i->next)
			if (i->id < b->next_id)
				byid[i->id] = i;
	for (uint32_t c = 0; c < a->ncomps && !r->oom; c++)
		for (const hilo_instr *i = a->comps[c]->first; i && !r->oom; i = i->next) {
			const hilo_instr *o = i->id < b->next_id ? byid[i->id] : NULL;
			if (!o || o->op != i->op || strcmp(o->name, i->name) || !o->parent ||
			    strcmp(o->parent->name, a->comps[c]->name))
				continue;
			bool on = strcmp(op_name_raw(o), op_name_raw(i)) != 0;
			bool bc = strcmp(backend_config_raw(o), backend_config_raw(i)) != 0;
			if (!on && !bc)
				continue;
			meta_rw *nm = room(r, r->meta, &r->metacap, r->nmeta, sizeof *nm, 64);
			if (!nm)
				break;
			r->meta = nm;
			meta_rw *mr = &r->meta[r->nmeta++];
			mr->pass = pass;
			mr->name = xstrdup(r, i->name);
			mr->was = xstrdup(r, on ? op_name_raw(o) : backend_config_raw(o));
			mr->now = xstrdup(r, on ? op_name_raw(i) : backend_config_raw(i));
		}
	free(byid);
}

void hilo_report_on_record(void *arg, const hilo_check_record *rec)
{
	hilo_report *r = arg;
	if (r->oom)
		return;
	const char *ipass = hilo_intern_cstr(r->keys, rec->pass);
	if (!ipass) {
		r->oom = true;
		return;
	}
	name_recorded(r, rec->pass, rec->before);
	if (rec->after)
		name_recorded(r, rec->pass, rec->after);
	const hilo_module *bm = rec->before->parent ? rec->before->parent->parent : NULL;
	const hilo_module *am = rec->after && rec->after->parent ? rec->after->parent->parent : NULL;
	if (bm && am && (bm != r->diffed_b || am != r->diffed_a || ipass != r->diffed_pass)) {
		r->diffed_b = bm;
		r->diffed_a = am;
		r->diffed_pass = ipass;
		diff_metadata(r, ipass, bm, am);
	}
	const char *bop = hilo_opcode_name(rec->before->op);
	const char *aop = rec->after ? hilo_opcode_name(rec->after->op) : "removed";
	char key[512];
	snprintf(key, sizeof key, "%s|%s|%s|%s|%s", rec->pass, rec->verdict, rec->method, bop, aop);
	const char *ik = hilo_intern_cstr(r->keys, key);
	if (!ik) {
		r->oom = true;
		return;
	}
	uintptr_t gi = (uintptr_t)hilo_ptrmap_get(&r->by_key, ik);
	group *g;
	if (!gi) {
		group *ng = room(r, r->groups, &r->cap, r->ngroups, sizeof *ng, 16);
		if (!ng)
			return;
		r->groups = ng;
		g = &r->groups[r->ngroups++];
		memset(g, 0, sizeof *g);
		if (!hilo_ptrmap_put(&r->by_key, ik, (void *)(uintptr_t)r->ngroups))
			r->oom = true; /* look-alikes would no longer fold */
		g->key = xstrdup(r, key);
		g->pass = xstrdup(r, rec->pass);
		g->verdict = xstrdup(r, rec->verdict);
		g->method = xstrdup(r, rec->method);
		char t[256];
		if (rec->after)
			snprintf(t, sizeof t, "%s replaced by %s", bop, aop);
		else
			snprintf(t, sizeof t, "%s removed", bop);
		g->title = xstrdup(r, t);
		char gn[64];
		snprintf(gn, sizeof gn, "before_%zu", r->ngroups);
		g->dot_before = region_dot(r, rec->before, REPLACED_COLOR,
			rec->after ? "REPLACED" : "REMOVED", gn);
		if (rec->after) {
			snprintf(gn, sizeof gn, "after_%zu", r->ngroups);
			g->dot_after = region_dot(r, rec->after, REPLACEMENT_COLOR, "REPLACEMENT", gn);
		}
	} else {
		g = &r->groups[gi - 1];
	}
	g->count += rec->count ? rec->count : 1;
	g->nrecords++;
	if (g->nmembers < MAX_MEMBERS) {
		member *nm = room(r, g->members, &g->cap, g->nmembers, sizeof *nm, 8);
		if (!nm)
			return;
		g->members = nm;
		member *mb = &g->members[g->nmembers++];
		hilo_buf w;
		hilo_buf_init(&w);
		where(&w, rec->after ? rec->after : rec->before);
		if (rec->after && rec->before->line && rec->after != rec->before) {
			hilo_buf bw;
			hilo_buf_init(&bw);
			where(&bw, rec->before);
			hilo_buf_printf(&w, "%s(was %s)", w.len ? " " : "", hilo_buf_cstr(&bw));
			if (bw.oom)
				r->oom = true;
			hilo_buf_free(&bw);
		}
		if (w.oom)
			r->oom = true; /* a truncated location would go unnoticed */
		mb->before = xstrdup(r, rec->before->name);
		mb->after = xstrdup(r, rec->after ? rec->after->name : "");
		mb->where = xstrdup(r, hilo_buf_cstr(&w));
		mb->reason = xstrdup(r, rec->reason);
		mb->count = rec->count;
		hilo_buf_free(&w);
	}
}

/* ---- HTML ------------------------------------------------------------------- */

static void html(hilo_buf *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': hilo_buf_puts(b, "&lt;"); break;
		case '>': hilo_buf_puts(b, "&gt;"); break;
		case '&': hilo_buf_puts(b, "&amp;"); break;
		case '"': hilo_buf_puts(b, "&quot;"); break;
		default: hilo_buf_putc(b, *s);
		}
	}
}

/* One table row of escaped cells; with data_pass, the row carries it for
 * the declined table's filter. */
static void table_row(hilo_buf *b, const char *data_pass, const char *const *cells, int n)
{
	hilo_buf_puts(b, "<tr");
	if (data_pass) {
		hilo_buf_puts(b, " data-pass=\"");
		html(b, data_pass);
		hilo_buf_putc(b, '"');
	}
	hilo_buf_putc(b, '>');
	for (int k = 0; k < n; k++) {
		hilo_buf_puts(b, "<td>");
		html(b, cells[k]);
		hilo_buf_puts(b, "</td>");
	}
	hilo_buf_puts(b, "</tr>\n");
}

/* Renders every graph with one `dot -Tsvg` run; svg[k] receives the k-th
 * graph's <svg> element (malloc'd), or NULL when dots[k] is NULL or dot
 * could not run. */
static bool render(char **dots, size_t n, char **svg)
{
	for (size_t k = 0; k < n; k++)
		svg[k] = NULL;
	if (!n)
		return true;
	const char *tmp = getenv("TMPDIR");
	char in[512];
	snprintf(in, sizeof in, "%s/hilo-report-XXXXXX", tmp && *tmp && strlen(tmp) < 400 &&
		!strchr(tmp, '\'') ? tmp : "/tmp");
	int fd = mkstemp(in);
	if (fd < 0)
		return false;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(in);
		return false;
	}
	size_t live = 0;
	for (size_t k = 0; k < n; k++)
		if (dots[k]) {
			fputs(dots[k], f);
			live++;
		}
	fclose(f);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "dot -Tsvg '%s' 2>/dev/null", in);
	FILE *p = popen(cmd, "r");
	char *out = NULL;
	size_t len = 0, cap = 0;
	if (p) {
		char buf[65536];
		size_t got;
		while ((got = fread(buf, 1, sizeof buf, p)) > 0) {
			if (len + got + 1 > cap) {
				size_t nc = (len + got + 1) * 2;
				char *no = realloc(out, nc);
				if (!no) {
					free(out);
					out = NULL;
					break;
				}
				out = no;
				cap = nc;
			}
			memcpy(out + len, buf, got);
			len += got;
		}
		int st = pclose(p);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			free(out);
			out = NULL;
		}
	}
	unlink(in);
	if (!out)
		return false;
	out[len] = 0;
	/* one <svg ...>...</svg> per graph given, in order */
	char *q = out;
	for (size_t k = 0; k < n && live; k++) {
		if (!dots[k])
			continue;
		live--;
		char *s = strstr(q, "<svg");
		char *e = s ? strstr(s, "</svg>") : NULL;
		if (!e)
			break;
		e += 6;
		svg[k] = strndup(s, (size_t)(e - s));
		q = e;
	}
	free(out);
	return true;
}

static void picture(hilo_buf *b, const char *caption, const char *dot, const char *svg)
{
	hilo_buf_puts(b, "<figure><figcaption>");
	html(b, caption);
	hilo_buf_puts(b, "</figcaption>");
	if (svg)
		hilo_buf_puts(b, svg);
	else if (dot) {
		hilo_buf_puts(b, "<pre class=\"dot\">");
		html(b, dot);
		hilo_buf_puts(b, "</pre>");
	}
	hilo_buf_puts(b, "</figure>");
}

/* Minimal reader of the flat JSON objects hilo's remarks are: the string
 * value of key, unescaped into out. */
static bool json_get(const char *line, const char *key, char *out, size_t cap)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = strstr(line, pat);
	if (!p)
		return false;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	if (*p != '"')
		return false;
	p++;
	size_t n = 0;
	while (*p && *p != '"' && n + 1 < cap) {
		if (*p == '\\' && p[1]) {
			p++;
			if (*p == 'u' && p[1] && p[2] && p[3] && p[4]) {
				out[n++] = '?';
				p += 5;
				continue;
			}
		}
		out[n++] = *p++;
	}
	out[n] = 0;
	return true;
}

/* One argument as a POSIX shell reads it back: bare when it is made of
 * harmless characters, else in single quotes (a quote as '\'' ). */
static void shell_word(hilo_buf *b, const char *s)
{
	bool bare = *s != 0;
	for (const char *p = s; *p && bare; p++)
		bare = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			strchr("_-./=:,+@%", *p);
	if (bare) {
		hilo_buf_puts(b, s);
		return;
	}
	hilo_buf_putc(b, '\'');
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			hilo_buf_puts(b, "'\\''");
		else
			hilo_buf_putc(b, *p);
	hilo_buf_putc(b, '\'');
}

/* The command line and hilo's version: what is needed to make the page
 * again. */
static void header(hilo_buf *out, const hilo_report_info *info)
{
	hilo_buf_printf(out, "<p id=\"version\">hilo %s</p>\n", hilo_version());
	if (!info || !info->argv || info->argc <= 0)
		return;
	hilo_buf cmd;
	hilo_buf_init(&cmd);
	for (int k = 0; k < info->argc; k++) {
		if (k)
			hilo_buf_putc(&cmd, ' ');
		shell_word(&cmd, info->argv[k] ? info->argv[k] : "");
	}
	hilo_buf_puts(out, "<p id=\"command\">command: <code>");
	html(out, hilo_buf_cstr(&cmd));
	hilo_buf_puts(out, "</code></p>\n");
	if (cmd.oom)
		out->oom = true; /* a truncated command line would mislead */
	hilo_buf_free(&cmd);
}

/* What the pictures' colours, borders and stubs mean: the fills from the
 * one category table (dot.c). */
static void legend(hilo_buf *out)
{
	hilo_buf_puts(out, "<div id=\"legend\"><b>Legend.</b> Fill: the op's category:");
	for (int k = 0; k < VIZ_NCAT; k++) {
		hilo_buf_printf(out, "<span class=\"sw\" style=\"background:%s\"></span>", viz_cats[k].color);
		html(out, viz_cats[k].what);
	}
	hilo_buf_printf(out, ".<br>Border: <span class=\"sw\" style=\"border:3px solid %s\"></span>the replaced "
		"or removed instruction (REPLACED / REMOVED) <span class=\"sw\" style=\"border:3px solid %s\"></span>"
		"its replacement (REPLACEMENT).<br><span class=\"sw\" style=\"border:1px dashed #757575\"></span>"
		"\"N more inputs\": operands beyond the picture's depth, not drawn. Edge labels: the operand "
		"index (not for commutative ops). Dashed purple edges: a called computation. "
		"<code>opK = value</code>: a small constant operand.</div>\n", REPLACED_COLOR, REPLACEMENT_COLOR);
}

/* The computations of the input no longer in the result (removed by a
 * pass or its cleanup): the validator counts them as one record. */
static void removed_computations(hilo_report *r, hilo_buf *out, const hilo_module *result)
{
	if (!r->input_comps || !result)
		return;
	hilo_ptrmap now;
	hilo_ptrmap_init(&now);
	for (uint32_t c = 0; c < result->ncomps; c++) {
		const char *k = hilo_intern_cstr(r->keys, result->comps[c]->name);
		if (!k || !hilo_ptrmap_put(&now, k, (void *)1))
			r->oom = true; /* a computation would be listed as removed wrongly */
	}
	size_t n = 0;
	hilo_buf list;
	hilo_buf_init(&list);
	for (size_t k = 0; k < r->ninput_comps && !r->oom; k++) {
		const char *ik = hilo_intern_cstr(r->keys, r->input_comps[k]);
		if (!ik) {
			r->oom = true;
			break;
		}
		if (hilo_ptrmap_get(&now, ik))
			continue;
		hilo_buf_puts(&list, "<li><code>");
		html(&list, ik);
		hilo_buf_puts(&list, "</code></li>\n");
		n++;
	}
	hilo_buf_printf(out, "<h2>Removed computations</h2>\n<p>%zu computation%s of the input %s not in the "
		"result.</p>\n", n, n == 1 ? "" : "s", n == 1 ? "is" : "are");
	if (n) {
		hilo_buf_printf(out, "<details%s><summary>the names</summary><ul id=\"removed-computations\">\n",
			n <= 20 ? " open" : "");
		hilo_buf_put(out, list.data, list.len);
		hilo_buf_puts(out, "</ul></details>\n");
	}
	if (list.oom)
		r->oom = true;
	hilo_buf_free(&list);
	hilo_ptrmap_free(&now);
}

static const char style_js[] =
	"<style>\n"
	"body{font-family:sans-serif;margin:1.5em;color:#222}\n"
	"h1{font-size:1.4em} h2{font-size:1.2em;border-bottom:1px solid #ccc}\n"
	"table{border-collapse:collapse;font-size:.9em} td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}\n"
	".rewrite{border:1px solid #bbb;border-radius:6px;padding:.5em 1em;margin:1em 0}\n"
	".pair{display:flex;gap:1em;flex-wrap:wrap} figure{margin:0;flex:1;min-width:20em;overflow:auto}\n"
	"figcaption{font-weight:bold;margin-bottom:.3em} svg{max-width:100%;height:auto}\n"
	".proved{color:#1b5e20} .tested{color:#0d47a1} .skipped,.deferred{color:#e65100} .failed{color:#b71c1c} .assumed{color:#6a1b9a}\n"
	"pre.dot{font-size:.75em;background:#f5f5f5;padding:.5em;max-height:20em;overflow:auto}\n"
	"#metadata-rewrites td:last-child{font-family:monospace}\n"
	"#legend{font-size:.85em;border:1px solid #ddd;border-radius:6px;padding:.3em .8em;display:inline-block}\n"
	"#legend span.sw{display:inline-block;width:1.6em;height:1em;border:1px solid #999;border-radius:3px;vertical-align:middle;margin:0 .3em 0 .8em}\n"
	"</style>\n"
	"<script>\n"
	"function filt(){var p=document.getElementById('fpass').value,t=document.getElementById('ftext').value.toLowerCase();"
	"var rows=document.querySelectorAll('#declined tbody tr'),n=0;"
	"for(var i=0;i<rows.length;i++){var r=rows[i],ok=(!p||r.dataset.pass==p)&&(!t||r.textContent.toLowerCase().indexOf(t)>=0);"
	"r.style.display=ok?'':'none';if(ok)n++;}document.getElementById('fcount').textContent=n+' shown';}\n"
	"</script>\n";

bool hilo_report_write(hilo_report *r, hilo_buf *out, const hilo_report_info *info)
{
	if (r->oom)
		return false;
	/* render every picture in one run of dot */
	size_t n = 2 * r->ngroups;
	char **dots = calloc(n ? n : 1, sizeof *dots);
	char **svg = calloc(n ? n : 1, sizeof *svg);
	if (!dots || !svg) {
		free(dots);
		free(svg);
		return false;
	}
	for (size_t k = 0; k < r->ngroups; k++) {
		dots[2 * k] = r->groups[k].dot_before;
		dots[2 * k + 1] = r->groups[k].dot_after;
	}
	bool rendered = render(dots, n, svg);
	hilo_buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>hilo report: ");
	html(out, r->title);
	hilo_buf_puts(out, "</title>\n");
	hilo_buf_puts(out, style_js);
	hilo_buf_puts(out, "</head><body>\n<h1>hilo rewrite report: ");
	html(out, r->title);
	hilo_buf_puts(out, "</h1>\n");
	header(out, info);
	if (info && info->input) {
		hilo_buf_puts(out, "<p>input: <code>");
		html(out, info->input);
		hilo_buf_puts(out, "</code></p>\n");
	}
	if (info && info->summary) {
		hilo_buf_puts(out, "<p id=\"summary\"><b>");
		html(out, info->summary);
		hilo_buf_puts(out, "</b></p>\n");
	}
	if (!rendered && n)
		hilo_buf_puts(out, "<p><b>Graphviz's <code>dot</code> could not be run: the pictures are "
			"embedded as DOT text (install the Debian package graphviz).</b></p>\n");
	legend(out);
	/* passes */
	hilo_buf_puts(out, "<h2>Passes</h2>\n<table id=\"passes\"><thead><tr><th>pass</th><th>time ms</th>"
		"<th>instructions before</th><th>after</th><th>rewrites</th><th>result</th></tr></thead><tbody>\n");
	for (size_t k = 0; info && k < info->npasses; k++) {
		const hilo_report_pass *p = &info->passes[k];
		hilo_buf_puts(out, "<tr><td>");
		html(out, p->name);
		hilo_buf_printf(out, "</td><td>%.3f</td><td>%llu</td><td>%llu</td><td>%llu</td><td>", p->seconds * 1e3,
			(unsigned long long)p->instrs_before, (unsigned long long)p->instrs_after,
			(unsigned long long)p->rewrites);
		html(out, p->result);
		hilo_buf_puts(out, "</td></tr>\n");
	}
	hilo_buf_puts(out, "</tbody></table>\n");
	/* rewrites */
	uint64_t total = 0, records = 0;
	for (size_t k = 0; k < r->ngroups; k++) {
		total += r->groups[k].count;
		records += r->groups[k].nrecords;
	}
	/* The proof line counts records; one record may stand for several
	 * instructions (the dead code of a computation, identical rewrites). */
	hilo_buf_printf(out, "<h2>Rewrites</h2>\n<p>%llu rewrite%s (as the equivalence line counts them) covering "
		"%llu instruction%s, in %zu group%s (rewrites with the same pass, verdict, method and opcodes share "
		"one picture: the first of the group).</p>\n",
		(unsigned long long)records, records == 1 ? "" : "s", (unsigned long long)total,
		total == 1 ? "" : "s", r->ngroups, r->ngroups == 1 ? "" : "s");
	for (size_t k = 0; k < r->ngroups; k++) {
		group *g = &r->groups[k];
		hilo_buf_printf(out, "<section class=\"rewrite\" id=\"rewrite-%zu\" data-pass=\"", k + 1);
		html(out, g->pass);
		hilo_buf_puts(out, "\" data-verdict=\"");
		html(out, g->verdict);
		hilo_buf_puts(out, "\">\n<h3>");
		html(out, g->pass);
		hilo_buf_puts(out, ": ");
		html(out, g->title);
		hilo_buf_printf(out, " &mdash; <span class=\"%s\">%s</span> (", g->verdict, g->verdict);
		html(out, g->method);
		hilo_buf_printf(out, "), %llu rewrite%s", (unsigned long long)g->nrecords, g->nrecords == 1 ? "" : "s");
		if (g->count != g->nrecords)
			hilo_buf_printf(out, " covering %llu instruction%s", (unsigned long long)g->count,
				g->count == 1 ? "" : "s");
		hilo_buf_puts(out, "</h3>\n<div class=\"pair\">");
		member *m0 = g->nmembers ? &g->members[0] : NULL;
		char cap[600];
		snprintf(cap, sizeof cap, "before: %s", m0 ? m0->before : "");
		picture(out, cap, g->dot_before, svg[2 * k]);
		if (g->dot_after) {
			snprintf(cap, sizeof cap, "after: %s", m0 ? m0->after : "");
			picture(out, cap, g->dot_after, svg[2 * k + 1]);
		}
		hilo_buf_puts(out, "</div>\n<details><summary>the rewrites</summary>\n<table><thead><tr><th>replaced</th>"
			"<th>by</th><th>source</th><th>verdict</th></tr></thead><tbody>\n");
		for (size_t j = 0; j < g->nmembers; j++) {
			member *mb = &g->members[j];
			table_row(out, NULL, (const char *const[]){mb->before, mb->after, mb->where, mb->reason}, 4);
		}
		if (g->count > g->nmembers)
			hilo_buf_printf(out, "<tr><td colspan=\"4\">... and %llu more</td></tr>\n",
				(unsigned long long)(g->count - g->nmembers));
		hilo_buf_puts(out, "</tbody></table></details>\n</section>\n");
	}
	/* The metadata-only rewrites (no picture shows them: the values are
	 * the same): in passes with records, the instructions diff_metadata
	 * found that no record names; in passes without records (the validator
	 * compares modules metadata aside, so such a pass changed metadata
	 * only: the index simplifier's dsidxnow= tokens), every rewritten
	 * remark naming an instruction. Then the declined candidates, from the
	 * remarks too. */
	size_t ndecl = 0, nmeta = 0;
	hilo_buf rows, passes, meta;
	hilo_buf_init(&rows);
	hilo_buf_init(&passes);
	hilo_buf_init(&meta);
	hilo_ptrmap seen, judged;
	hilo_ptrmap_init(&seen);
	hilo_ptrmap_init(&judged);
	bool complete = true; /* every remark listed */
	for (size_t k = 0; k < r->ngroups && complete; k++) {
		const char *ip = hilo_intern_cstr(r->keys, r->groups[k].pass);
		complete = ip && hilo_ptrmap_put(&judged, ip, (void *)1);
	}
	/* passes with records: the instructions whose metadata alone changed */
	for (size_t k = 0; k < r->nmeta && complete; k++) {
		const meta_rw *mr = &r->meta[k];
		char key[600];
		snprintf(key, sizeof key, "%s\x1f%s", mr->pass, mr->name);
		const char *ik = hilo_intern_cstr(r->keys, key);
		complete = ik != NULL;
		if (!ik || hilo_ptrmap_get(&r->named, ik))
			continue; /* a record names it: its rewrite is shown as one */
		hilo_buf what;
		hilo_buf_init(&what);
		hilo_buf_printf(&what, "metadata changed, was: %s", mr->was);
		complete &= !what.oom;
		if (nmeta++ < MAX_META)
			table_row(&meta, NULL, (const char *const[]){mr->pass, mr->name, hilo_buf_cstr(&what), mr->now}, 4);
		hilo_buf_free(&what);
	}
	const char *p = info && info->remarks ? info->remarks : "";
	const char *e = p + (info && info->remarks ? info->remarks_len : 0);
	char *line = malloc(65536);
	complete &= line != NULL;
	char pass[256], inst[512], action[64], reason[4096], opname[1024];
	while (line && complete && p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t len = (size_t)((nl ? nl : e) - p);
		if (len >= 65536)
			len = 65535;
		memcpy(line, p, len);
		line[len] = 0;
		p = nl ? nl + 1 : e;
		if (!json_get(line, "action", action, sizeof action))
			continue;
		bool declined = !strcmp(action, "declined");
		if (!declined && strcmp(action, "rewritten") != 0)
			continue;
		json_get(line, "pass", pass, sizeof pass) || (pass[0] = 0);
		json_get(line, "instruction", inst, sizeof inst) || (inst[0] = 0);
		json_get(line, "reason", reason, sizeof reason) || (reason[0] = 0);
		const char *ip = hilo_intern_cstr(r->keys, pass);
		if (!ip) {
			complete = false;
			break;
		}
		if (!declined) {
			if (hilo_ptrmap_get(&judged, ip) || !inst[0])
				continue; /* shown as a picture, or not about one instruction */
			json_get(line, "op_name", opname, sizeof opname) || (opname[0] = 0);
			if (nmeta++ < MAX_META)
				table_row(&meta, NULL, (const char *const[]){pass, inst, reason, opname}, 4);
			continue;
		}
		if (!hilo_ptrmap_get(&seen, ip)) {
			complete &= hilo_ptrmap_put(&seen, ip, (void *)1);
			hilo_buf_puts(&passes, "<option>");
			html(&passes, pass);
			hilo_buf_puts(&passes, "</option>");
		}
		table_row(&rows, pass, (const char *const[]){pass, inst, reason}, 3);
		ndecl++;
	}
	free(line);
	hilo_ptrmap_free(&seen);
	hilo_ptrmap_free(&judged);
	hilo_buf_printf(out, "<h2>Metadata-only rewrites</h2>\n<p>%zu rewrite%s that changed only metadata "
		"(no picture: the values are the same; the validator does not count them).</p>\n", nmeta,
		nmeta == 1 ? "" : "s");
	if (nmeta) {
		hilo_buf_printf(out, "<details%s><summary>the rewrites</summary><table id=\"metadata-rewrites\"><thead><tr>"
			"<th>pass</th><th>instruction</th><th>what</th><th>op_name now</th></tr></thead><tbody>\n",
			nmeta <= 50 ? " open" : "");
		hilo_buf_put(out, meta.data, meta.len);
		if (nmeta > MAX_META)
			hilo_buf_printf(out, "<tr><td colspan=\"4\">... and %zu more (--remarks lists them all)</td></tr>\n",
				nmeta - MAX_META);
		hilo_buf_puts(out, "</tbody></table></details>\n");
	}
	removed_computations(r, out, info ? info->result : NULL);
	hilo_buf_puts(out, "<h2>Declined candidates</h2>\n");
	hilo_buf_printf(out, "<p>%zu declined. Filter: <select id=\"fpass\" onchange=\"filt()\"><option value=\"\">all passes</option>",
		ndecl);
	hilo_buf_put(out, passes.data ? passes.data : "", passes.len);
	hilo_buf_printf(out, "</select> <input id=\"ftext\" placeholder=\"reason contains\" oninput=\"filt()\"> "
		"<span id=\"fcount\">%zu shown</span></p>\n", ndecl);
	hilo_buf_puts(out, "<table id=\"declined\"><thead><tr><th>pass</th><th>instruction</th><th>reason</th></tr></thead><tbody>\n");
	hilo_buf_put(out, rows.data ? rows.data : "", rows.len);
	hilo_buf_puts(out, "</tbody></table>\n</body></html>\n");
	complete &= !rows.oom && !passes.oom && !meta.oom && !out->oom && !r->oom;
	hilo_buf_free(&rows);
	hilo_buf_free(&passes);
	hilo_buf_free(&meta);
	for (size_t k = 0; k < n; k++)
		free(svg[k]);
	free(svg);
	free(dots);
	return complete; /* a truncated page is never written */
}
