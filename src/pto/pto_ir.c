/* pto_ir.c - construction helpers for the PTO IR (see pto_ir.h). */
#include "pto/pto_ir.h"
#include "pto/pto_sema.h" /* pto_map */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void pto_oom(hilo_arena *a)
{
	hilo_oom_raise(a);
	/* every public PTO entry point holds a guard on the program's arena */
	HILO_PANIC("out of memory outside a guarded PTO entry point");
}

const char *pto_intern(hilo_pto_program *p, const char *s)
{
	return pto_names_intern(p->names, s, strlen(s));
}

const char *pto_intern_n(hilo_pto_program *p, const char *s, size_t len)
{
	return pto_names_intern(p->names, s, len);
}

/* Node sizes are multiples of 8 (24, 40, 64 bytes); the arena rounds
 * every allocation to 16, so nodes are carved from 64 KiB blocks instead
 * (a third less memory for names and literals). Fresh arena memory is
 * zero. */
#define ENODE_BLOCK ((size_t)64 * 1024)

/* Sanitizer builds: every node and statement is its own tracked-heap
 * block (freed with the arena like the rest), so AddressSanitizer sees a
 * write past a variable-size node's end: carved from a block, such a write
 * lands on the next node unnoticed (a call-site copy once wrote `base`
 * past 16-byte literals and corrupted a later allocation). */
#if defined(__SANITIZE_ADDRESS__)
#define PTO_NODE_EACH 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTO_NODE_EACH 1
#endif
#endif

static pto_expr *expr_alloc(hilo_pto_program *p, size_t size)
{
#ifdef PTO_NODE_EACH
	pto_expr *one = hilo_heap_alloc(p->arena, size); /* zeroed, like arena memory */
	if (!one)
		pto_oom(p->arena);
	return one;
#endif
	if (p->enodes_left < size) {
		p->enodes = hilo_arena_alloc(p->arena, ENODE_BLOCK);
		if (!p->enodes)
			pto_oom(p->arena);
		p->enodes_left = ENODE_BLOCK;
	}
	pto_expr *e = (pto_expr *)(void *)p->enodes;
	p->enodes += size;
	p->enodes_left -= size;
	return e;
}

pto_expr *pto_expr_new(hilo_pto_program *p, pto_expr_kind k, uint32_t pos)
{
	pto_expr *e = expr_alloc(p, pto_expr_size(k));
	e->kind = k;
	e->pos = pos;
	return e;
}

pto_stmt *pto_stmt_new(hilo_pto_program *p, pto_stmt_kind k)
{
	/* 32 and 96 bytes: carved like expression nodes (8-byte aligned) */
	pto_stmt *s = (pto_stmt *)(void *)expr_alloc(p, pto_stmt_size(k));
	s->kind = k;
	return s;
}

/* A map of the program's made on first use. */
static pto_map *lazy_map(hilo_pto_program *p, struct pto_map **m)
{
	if (!*m)
		*m = pto_map_new(p->arena);
	return *m;
}

static const pto_stmt_side *side_of(const hilo_pto_program *p, const pto_stmt *s)
{
	return s->side ? pto_map_get(p->stmt_side, s) : NULL;
}

/* s's side record, made when it has none yet. */
static pto_stmt_side *side_make(hilo_pto_program *p, pto_stmt *s)
{
	if (s->side)
		return pto_map_get(p->stmt_side, s);
	pto_stmt_side *x = hilo_arena_alloc(p->arena, sizeof *x);
	if (!x)
		pto_oom(p->arena);
	pto_map_put(lazy_map(p, &p->stmt_side), s, x);
	s->side = true;
	return x;
}

const char *const *pto_stmt_lead(const hilo_pto_program *p, const pto_stmt *s, uint32_t *n)
{
	const pto_stmt_side *x = side_of(p, s);
	*n = x ? x->nlead : 0;
	return x ? x->lead : NULL;
}

const char *pto_stmt_trail(const hilo_pto_program *p, const pto_stmt *s)
{
	const pto_stmt_side *x = side_of(p, s);
	return x ? x->trail : NULL;
}

const char *pto_stmt_indent(const hilo_pto_program *p, const pto_stmt *s)
{
	if (s->indent_id == PTO_INDENT_SIDE)
		return side_of(p, s)->indent;
	return s->indent_id ? p->indents[s->indent_id - 1] : NULL;
}

void pto_stmt_set_lead(hilo_pto_program *p, pto_stmt *s, const char **lead, uint32_t n)
{
	if (!n && !s->side)
		return;
	pto_stmt_side *x = side_make(p, s);
	x->lead = lead;
	x->nlead = n;
}

void pto_stmt_set_trail(hilo_pto_program *p, pto_stmt *s, const char *trail)
{
	if (!trail && !s->side)
		return;
	side_make(p, s)->trail = trail;
}

void pto_stmt_set_indent(hilo_pto_program *p, pto_stmt *s, const char *indent)
{
	if (!indent) {
		s->indent_id = 0;
		return;
	}
	if (indent != p->last_indent) {
		pto_map *m = lazy_map(p, &p->indent_ids);
		uintptr_t id = (uintptr_t)pto_map_get(m, indent);
		if (!id && p->nindents < PTO_INDENT_SIDE - 1) {
			if (p->nindents == p->cap_indents) {
				uint32_t nc = p->cap_indents ? p->cap_indents * 2 : 16;
				p->indents = hilo_arena_grow(p->arena, p->indents, p->nindents, nc, sizeof *p->indents);
				if (!p->indents)
					pto_oom(p->arena);
				p->cap_indents = nc;
			}
			p->indents[p->nindents++] = indent;
			id = p->nindents;
			pto_map_put(m, indent, (void *)id);
		}
		if (!id) { /* past the table: the side record holds it */
			side_make(p, s)->indent = indent;
			s->indent_id = PTO_INDENT_SIDE;
			return;
		}
		p->last_indent = indent;
		p->last_indent_id = (uint16_t)id;
	}
	s->indent_id = p->last_indent_id;
}

void pto_stmt_linecol(const hilo_pto_program *p, const pto_stmt *s, int *line, int *col)
{
	if (s->at_pos) {
		pto_pos_linecol(p, s->at, line, col);
		return;
	}
	*line = (int)s->at;
	const char *ind = pto_stmt_indent(p, s);
	int w = 0;
	if (ind)
		pto_indent_scan(ind, ind + strlen(ind), &w);
	*col = ind ? w + 1 : 0;
}

int pto_stmt_line(const hilo_pto_program *p, const pto_stmt *s)
{
	int line, col;
	pto_stmt_linecol(p, s, &line, &col);
	return line;
}

pto_expr *pto_name(hilo_pto_program *p, const char *name)
{
	pto_expr *e = pto_expr_new(p, PTO_E_NAME, 0);
	e->name = pto_intern(p, name);
	return e;
}

pto_expr *pto_int(hilo_pto_program *p, int64_t v)
{
	pto_expr *e = pto_expr_new(p, PTO_E_INT, 0);
	char buf[24];
	int n = snprintf(buf, sizeof buf, "%lld", (long long)v);
	if (pto_expr_lit_fits((size_t)n)) {
		e->inl = true;
		memcpy(e->lit, buf, (size_t)n + 1);
	} else {
		e->text = hilo_arena_strndup(p->arena, buf, (size_t)n);
		if (!e->text)
			pto_oom(p->arena);
	}
	return e;
}

pto_expr *pto_attr(hilo_pto_program *p, pto_expr *base, const char *name)
{
	pto_expr *e = pto_expr_new(p, PTO_E_ATTR, 0);
	e->base = base;
	e->name = pto_intern(p, name);
	return e;
}

pto_expr *pto_sub1(hilo_pto_program *p, pto_expr *base, pto_expr *index)
{
	pto_expr *e = pto_expr_new(p, PTO_E_SUB, 0);
	e->base = base;
	pto_items_push(p, &e->items, &e->nitems, index);
	return e;
}

void pto_items_push(hilo_pto_program *p, pto_expr ***items, uint32_t *n, pto_expr *e)
{
	/* Capacity is the next power of two at or above n. */
	uint32_t cap = 1;
	while (cap < *n)
		cap <<= 1;
	if (*n == UINT32_MAX)
		HILO_PANIC("too many items");
	if (*n == 0 || *n == cap) {
		size_t ncap = *n == 0 ? 2 : (size_t)cap * 2;
		*items = hilo_arena_grow(p->arena, *items, *n, ncap, sizeof **items);
		if (!*items)
			pto_oom(p->arena);
	}
	(*items)[(*n)++] = e;
}

pto_expr *pto_expr_clone(hilo_pto_program *p, const pto_expr *e)
{
	if (!e)
		return NULL;
	size_t size = pto_expr_size(e->kind);
	pto_expr *c = expr_alloc(p, size);
	memcpy(c, e, size);
	if (size > offsetof(pto_expr, base))
		c->base = pto_expr_clone(p, pto_expr_base(e));
	if (e->kind == PTO_E_BIN) {
		c->rhs = pto_expr_clone(p, e->rhs);
	} else if (pto_expr_has_items(e->kind)) {
		c->items = NULL;
		c->nitems = 0;
		for (size_t i = 0; i < e->nitems; i++)
			pto_items_push(p, &c->items, &c->nitems, pto_expr_clone(p, e->items[i]));
	}
	if (e->kind == PTO_E_DICT && e->keys) {
		c->keys = hilo_arena_alloc(p->arena, (e->nitems + 1) * sizeof *c->keys);
		for (size_t i = 0; i < e->nitems; i++)
			c->keys[i] = pto_expr_clone(p, e->keys[i]);
	}
	if (e->nkw) {
		c->kwnames = hilo_arena_alloc(p->arena, e->nkw * sizeof *c->kwnames);
		c->kwvals = hilo_arena_alloc(p->arena, e->nkw * sizeof *c->kwvals);
		for (size_t i = 0; i < e->nkw; i++) {
			c->kwnames[i] = e->kwnames[i];
			c->kwvals[i] = pto_expr_clone(p, e->kwvals[i]);
		}
	}
	return c;
}

void pto_block_push(hilo_pto_program *p, pto_block *b, pto_stmt *s)
{
	if (b->n == b->cap) {
		if (b->cap >= UINT32_MAX / 2)
			HILO_PANIC("too many statements in a block");
		uint32_t ncap = b->cap ? b->cap * 2 : 8;
		/* tracked heap: a growth frees the array it replaces (an arena
		 * would keep it: half again of a 100k-statement body). Every
		 * statement array is a tracked-heap block made here (or, at a
		 * smaller first capacity, by parse_def for a function body), so
		 * realloc always sees its own block; nothing keeps a pointer into
		 * one across a push. */
		pto_stmt **ns = hilo_heap_realloc(p->arena, b->stmts, (size_t)ncap * sizeof *b->stmts);
		if (!ns)
			pto_oom(p->arena);
		b->stmts = ns;
		b->cap = ncap;
	}
	b->stmts[b->n++] = s;
}

void pto_block_insert(hilo_pto_program *p, pto_block *b, size_t at, pto_stmt *s)
{
	pto_block_push(p, b, s);
	memmove(&b->stmts[at + 1], &b->stmts[at], (b->n - 1 - at) * sizeof *b->stmts);
	b->stmts[at] = s;
}

void pto_func_add_param(hilo_pto_program *p, pto_func *f, const char *name, pto_expr *ann)
{
	if (f->nparams == f->cap_params) {
		size_t ncap = f->cap_params ? f->cap_params * 2 : 8;
		f->params = hilo_arena_grow(p->arena, f->params, f->nparams, ncap, sizeof *f->params);
		if (!f->params)
			pto_oom(p->arena);
		f->cap_params = ncap;
	}
	pto_param *pa = &f->params[f->nparams++];
	memset(pa, 0, sizeof *pa);
	pa->name = pto_intern(p, name);
	pa->ann = ann;
}

/* Would d drop one more error (past its limit: counted, not kept)? */
static bool dropped(const hilo_diags *d)
{
	return d->max_errors && d->nerrors >= d->max_errors;
}

/* Line `line` of the parsed file, read again (at most 400 bytes, what a
 * caret line shows) into buf; false when the file is no longer the one
 * parsed (same device, inode, size, modification and change times) or
 * cannot be read: the message then goes without its line, never with the
 * wrong text. pread on a descriptor, not a mapping: a file truncated
 * meanwhile is a short read, not a SIGBUS. */
bool pto_file_line(const hilo_pto_program *p, int line, char *buf, size_t *n)
{
	int fd = p->src_fd1 - 1;
	const struct stat *o = &p->src_st;
	struct stat st;
	if (fd < 0 || line <= 0)
		return false;
	size_t start = (size_t)line <= p->nline_starts ? pto_line_start(p, (size_t)line) : p->srclen;
	size_t want = p->srclen - start < 400 ? p->srclen - start : 400, got = 0;
	for (int pass = 0; pass < 2; pass++) {
		/* before and after the read: a change while reading is caught too */
		if (fstat(fd, &st) != 0 || st.st_dev != o->st_dev || st.st_ino != o->st_ino ||
		    st.st_size != o->st_size || st.st_mtim.tv_sec != o->st_mtim.tv_sec ||
		    st.st_mtim.tv_nsec != o->st_mtim.tv_nsec || st.st_ctim.tv_sec != o->st_ctim.tv_sec ||
		    st.st_ctim.tv_nsec != o->st_ctim.tv_nsec)
			return false;
		while (pass == 0 && got < want) {
			ssize_t r = pread(fd, buf + got, want - got, (off_t)(start + got));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return false;
			got += (size_t)r;
		}
	}
	*n = got;
	return true;
}

/* ---- line starts: a byte a line ----------------------------------- */

/* Length of line k + 1 (0-based k below nline_starts - 1), its newline
 * included. */
static size_t line_len(const hilo_pto_program *p, size_t k)
{
	if (p->ls_len[k] != 255)
		return p->ls_len[k];
	size_t lo = 0, hi = p->nls_long; /* the long lines, by line index */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->ls_long[2 * mid] <= k)
			lo = mid;
		else
			hi = mid;
	}
	return p->ls_long[2 * lo + 1];
}

size_t pto_line_start(const hilo_pto_program *p, size_t line)
{
	size_t k = line - 1, g = k / 16 * 16, start = p->ls_major[k / 16];
	for (; g < k; g++)
		start += line_len(p, g);
	return start;
}

void pto_lines_build(hilo_pto_program *p)
{
	size_t n = 1;
	const char *s = p->src, *end = s + p->srclen;
	for (const char *q = s; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++)
		n++;
	uint32_t *major = hilo_heap_alloc(p->arena, (n + 15) / 16 * sizeof *major);
	uint8_t *len = hilo_heap_alloc(p->arena, n);
	if (!major || !len)
		pto_oom(p->arena);
	uint32_t *lng = NULL;
	size_t nlong = 0, caplong = 0, k = 0;
	/* offsets below 4 GiB: parse_entry caps the input */
	const char *ls = s;
	for (const char *q; (q = memchr(ls, '\n', (size_t)(end - ls))) != NULL; ls = q + 1, k++) {
		size_t l = (size_t)(q + 1 - ls);
		if (k % 16 == 0)
			major[k / 16] = (uint32_t)(ls - s);
		len[k] = l < 255 ? (uint8_t)l : 255;
		if (l < 255)
			continue;
		if (nlong == caplong) {
			caplong = caplong ? caplong * 2 : 64;
			lng = hilo_heap_realloc(p->arena, lng, caplong * 2 * sizeof *lng);
			if (!lng)
				pto_oom(p->arena);
		}
		lng[2 * nlong] = (uint32_t)k;
		lng[2 * nlong + 1] = (uint32_t)l;
		nlong++;
	}
	if (k % 16 == 0) /* the last line (after the last newline) opens a group */
		major[k / 16] = (uint32_t)(ls - s);
	p->ls_major = major;
	p->ls_len = len;
	p->ls_long = lng;
	p->nls_long = nlong;
	p->nline_starts = n;
}

/* Adds an error at line:col with its source line: from the text, or read
 * again from the file once the text is dropped. */
static void add_diag(const hilo_pto_program *p, hilo_diags *d, hilo_severity sev, int line, int col,
	const char *code, const char *fmt, va_list ap)
{
	if (p->src || !p->src_fd1 || line <= 0 || dropped(d)) {
		hilo_diag_addv(d, sev, p->file, line, col, p->src, p->srclen, code, fmt, ap);
		return;
	}
	char buf[400];
	size_t n = 0;
	bool ok = pto_file_line(p, line, buf, &n);
	hilo_diag_addv_line(d, sev, p->file, line, col, ok ? buf : NULL, n, code, fmt, ap);
}

static void add_error(const hilo_pto_program *p, hilo_diags *d, int line, int col,
	const char *code, const char *fmt, va_list ap)
{
	add_diag(p, d, HILO_SEV_ERROR, line, col, code, fmt, ap);
}

void pto_error(hilo_pto_program *p, hilo_diags *d, int line, int col,
	const char *code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_error(p, d, line, col, code, fmt, ap);
	va_end(ap);
}

void pto_pos_linecol_cur(const hilo_pto_program *p, pto_linecur *c, uint32_t pos, int *line, int *col)
{
	*line = *col = 0;
	if (!pos || pos > p->srclen + 1)
		return;
	if (p->nline_starts) {
		/* a file's text (dropped, or released while parsed): the line
		 * whose start is the last at or before the offset (binary search;
		 * the cursor is not needed) */
		uint32_t off = pos - 1;
		size_t lo = 0, hi = (p->nline_starts + 15) / 16;
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (p->ls_major[mid] <= off)
				lo = mid;
			else
				hi = mid;
		}
		/* then on through at most 15 lines of its group */
		size_t k = lo * 16, start = p->ls_major[lo];
		for (size_t len; k + 1 < p->nline_starts && k % 16 != 15 && start + (len = line_len(p, k)) <= off; k++)
			start += len;
		*c = (pto_linecur){ pos, (int)k + 1, (uint32_t)start };
		*line = (int)k + 1;
		*col = (int)(off - start) + 1;
		return;
	}
	if (!c->pos || c->pos > pos)
		*c = (pto_linecur){ 1, 1, 0 };
	/* physical lines as the lexer counts them: one per '\n' before */
	const char *s = p->src, *end = s + (pos - 1), *ls = s + c->ls;
	int n = c->line;
	for (const char *q = s + (c->pos - 1); (q = memchr(q, '\n', (size_t)(end - q))) != NULL; ls = ++q)
		n++;
	*c = (pto_linecur){ pos, n, (uint32_t)(ls - s) };
	*line = n;
	*col = (int)(end - ls) + 1;
}

void pto_pos_linecol(const hilo_pto_program *p, uint32_t pos, int *line, int *col)
{
	pto_linecur c = { 0, 0, 0 };
	pto_pos_linecol_cur(p, &c, pos, line, col);
}

int pto_expr_line(const hilo_pto_program *p, const hilo_diags *d, const pto_expr *e)
{
	int line = 0, col = 0;
	if (e && !dropped(d))
		pto_pos_linecol(p, e->pos, &line, &col);
	return line;
}

void pto_error_atv(const hilo_pto_program *p, hilo_diags *d, const pto_expr *e,
	const char *code, const char *fmt, va_list ap)
{
	int line = 0, col = 0;
	/* a message past the limit is only counted: no scan for its place */
	if (e && !dropped(d))
		pto_pos_linecol(p, e->pos, &line, &col);
	add_error(p, d, line, col, code, fmt, ap);
}

void pto_error_at(const hilo_pto_program *p, hilo_diags *d, const pto_expr *e,
	const char *code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pto_error_atv(p, d, e, code, fmt, ap);
	va_end(ap);
}

/* A note belongs to the error just added: when that error was only
 * counted (past the list's limit), so is the note - it is dropped. */
void pto_note_at(const hilo_pto_program *p, hilo_diags *d, const pto_expr *e, const char *fmt, ...)
{
	if (d->max_errors && d->nerrors > d->max_errors)
		return;
	int line = 0, col = 0;
	if (e)
		pto_pos_linecol(p, e->pos, &line, &col);
	va_list ap;
	va_start(ap, fmt);
	add_diag(p, d, HILO_SEV_NOTE, line, col, NULL, fmt, ap);
	va_end(ap);
}

void pto_error_stmt(const hilo_pto_program *p, hilo_diags *d, const pto_stmt *s,
	const char *code, const char *fmt, ...)
{
	int line = 0, col = 0;
	if (!dropped(d)) /* as pto_error_atv: a dropped message's place is not looked up */
		pto_stmt_linecol(p, s, &line, &col);
	va_list ap;
	va_start(ap, fmt);
	add_error(p, d, line, col, code, fmt, ap);
	va_end(ap);
}

size_t hilo_pto_statement_count(const hilo_pto_program *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nfuncs; i++)
		n += p->funcs[i]->body.n;
	return n;
}

void hilo_pto_program_destroy(hilo_pto_program *p)
{
	if (p) {
		char *owned = p->owned_src;
		int fd = p->src_fd1 - 1;
		hilo_arena_destroy(p->arena);
		free(owned);
		if (fd >= 0)
			close(fd);
	}
}
