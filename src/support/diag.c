/* Diagnostics: collection and the FILE:LINE:COL display with a caret. */
#include "hilo/base.h"

#include <stdlib.h>
#include <string.h>

void hilo_diags_init(hilo_diags *d)
{
	memset(d, 0, sizeof *d);
}

void hilo_diags_init_in(hilo_diags *d, hilo_arena *a)
{
	memset(d, 0, sizeof *d);
	d->arena = a;
}

/* A caller's list is plain malloc (not counted by fault injection: it is
 * the channel that reports the failure); a library-internal one lives on
 * its arena's tracked heap. */
static void *dalloc(hilo_diags *d, size_t n)
{
	return d->arena ? (hilo_heap_alloc)(d->arena, n) : malloc(n);
}

static void dfree(hilo_diags *d, void *p)
{
	if (d->arena)
		hilo_heap_free(d->arena, p);
	else
		free(p);
}

void hilo_diags_free(hilo_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		dfree(d, d->items[i].file);
		dfree(d, d->items[i].code);
		dfree(d, d->items[i].msg);
		dfree(d, d->items[i].src_line);
	}
	dfree(d, d->items);
	hilo_arena *a = d->arena;
	memset(d, 0, sizeof *d);
	d->arena = a;
}

static char *dupn(hilo_diags *d, const char *s, size_t n)
{
	char *p = dalloc(d, n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

/* Line `line` of src[0..len) for the caret display (the first newline or
 * carriage return ends it; at most 400 bytes). */
static char *line_of(hilo_diags *d, const char *src, size_t len, int line)
{
	if (!src || line <= 0)
		return NULL;
	size_t i = 0;
	for (int l = 1; l < line && i < len; i++)
		if (src[i] == '\n')
			l++;
	size_t e = i;
	while (e < len && src[e] != '\n' && src[e] != '\r')
		e++;
	if (e - i > 400) /* very long lines: show a window */
		e = i + 400;
	return dupn(d, src + i, e - i);
}

void hilo_diag_addv(hilo_diags *d, hilo_severity sev, const char *file,
	int line, int col, const char *src, size_t srclen, const char *code,
	const char *fmt, va_list ap)
{
	if (sev == HILO_SEV_ERROR)
		d->nerrors++;
	if (d->max_errors && sev == HILO_SEV_ERROR && d->nerrors > d->max_errors)
		return;
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 8;
		hilo_diag *p = d->arena ? (hilo_heap_realloc)(d->arena, d->items, cap * sizeof *p)
		                        : realloc(d->items, cap * sizeof *p);
		if (!p)
			return;
		d->items = p;
		d->cap = cap;
	}
	hilo_diag *g = &d->items[d->n++];
	memset(g, 0, sizeof *g);
	g->sev = sev;
	g->file = file ? dupn(d, file, strlen(file)) : NULL;
	g->line = line;
	g->col = col;
	g->code = code ? dupn(d, code, strlen(code)) : NULL;
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	g->msg = dalloc(d, n > 0 ? (size_t)n + 1 : 1);
	if (g->msg)
		vsnprintf(g->msg, n > 0 ? (size_t)n + 1 : 1, fmt, ap2);
	va_end(ap2);
	g->src_line = line_of(d, src, srclen, line);
}

void hilo_diag_addv_line(hilo_diags *d, hilo_severity sev, const char *file,
	int line, int col, const char *text, size_t n, const char *code,
	const char *fmt, va_list ap)
{
	size_t before = d->n;
	hilo_diag_addv(d, sev, file, line, col, NULL, 0, code, fmt, ap);
	if (d->n > before && text && line > 0)
		d->items[d->n - 1].src_line = line_of(d, text, n, 1);
}

void hilo_diag_oom(hilo_diags *d, const char *file)
{
	size_t n = d->n;
	d->oom = true;
	hilo_diag_add(d, HILO_SEV_ERROR, file, 0, 0, NULL, 0, "out of memory");
	if (d->n == n && !(d->max_errors && d->nerrors > d->max_errors))
		d->oom_lost = true; /* no room for it: hilo_diags_print says it */
}

void hilo_diag_add(hilo_diags *d, hilo_severity sev, const char *file,
	int line, int col, const char *src, size_t srclen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hilo_diag_addv(d, sev, file, line, col, src, srclen, NULL, fmt, ap);
	va_end(ap);
}

static const char *sev_name(hilo_severity s)
{
	switch (s) {
	case HILO_SEV_ERROR: return "error";
	case HILO_SEV_WARNING: return "warning";
	default: return "note";
	}
}

void hilo_diags_print(FILE *f, const hilo_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const hilo_diag *g = &d->items[i];
		if (g->file && g->line > 0)
			fprintf(f, "%s:%d:%d: ", g->file, g->line, g->col > 0 ? g->col : 1);
		else if (g->file)
			fprintf(f, "%s: ", g->file);
		fprintf(f, "%s", sev_name(g->sev));
		if (g->code)
			fprintf(f, " %s", g->code);
		fprintf(f, ": %s\n", g->msg ? g->msg : "(out of memory)");
		if (g->src_line) {
			/* Print the line, replacing control bytes so garbage input
			 * cannot mess up the terminal. */
			for (const unsigned char *p = (const unsigned char *)g->src_line; *p; p++)
				fputc(*p < 0x20 && *p != '\t' ? '?' : *p, f);
			fputc('\n', f);
			for (int c = 1; c < g->col && g->src_line[c - 1]; c++)
				fputc(g->src_line[c - 1] == '\t' ? '\t' : ' ', f);
			fputs("^\n", f);
		}
	}
	if (d->max_errors && d->nerrors > d->max_errors)
		fprintf(f, "note: %zu more errors not shown\n", d->nerrors - d->max_errors);
	if (d->oom_lost)
		fputs("error: out of memory\n", f);
}

void hilo_panic(const char *file, int line, const char *msg)
{
	fprintf(stderr, "%s:%d: internal error: %s\n", file, line, msg);
	abort();
}
