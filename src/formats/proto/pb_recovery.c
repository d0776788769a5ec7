/* The module's origin_recovery_table (HloModuleProto field 20,
 * OriginalValueRecoveryTableProto): for each original array a rewrite
 * replaced, the array that replaced it and the module that recovers the
 * old value from the new one. hilo keeps the table as the text of the
 * HloModule line's attribute (verbatim, as read); the writer turns that
 * text into the typed field XLA reads, and the reader turns a proto's
 * field into the text XLA prints.
 *
 * The text (hlo_module.cc OriginalValueRecoveryTable::ToString, which
 * XLA's parser reads back), entries in order of the old array:
 *   origin_recovery_table={
 *     {"old" {i,j}} : {"new"},
 *     "
 *       HloModule recovery_module, ...      (the module's print, indented)
 *     "
 *     {"a"} : {"b"}                         (an entry without a module)
 *   }
 * the module a C-escaped string. The message: repeated Entry entries = 1,
 * Entry {OriginalArrayProto old_original_array = 1, new_original_array
 * = 2, HloModuleProto recovery_module = 3}; the recovery module is written
 * and read by hilo's own proto writer and reader, so it loses nothing the
 * module itself would not. */
#include "pb_read.h"
#include "pb_cursor.h"
#include "pb_write.h"
#include "hilo/hlo_text.h"

#include <stdio.h>

static void put_array(hilo_buf *b, uint32_t field, const Xla__OriginalArrayProto *ar)
{
	size_t at = pw_open(b, field);
	pw_str(b, 1, ar->instruction_name);
	pw_packed_i64(b, 2, ar->shape_index, ar->n_shape_index);
	pw_close(b, at);
}

/* A quoted string at the cursor, unescaped into out. */
static bool quoted(cur *c, hilo_buf *out)
{
	if (!lit(c, "\""))
		return false;
	const char *s = c->p;
	while (c->p < c->e && *c->p != '"')
		c->p += *c->p == '\\' && c->p + 1 < c->e ? 2 : 1;
	if (c->p >= c->e)
		return false;
	bool ok = pb_unescape(out, s, (size_t)(c->p - s));
	c->p++;
	return ok && !out->oom;
}

/* One recovery module's text as field 3. */
static bool put_module(hilo_buf *b, const char *text, size_t n, hilo_diags *d)
{
	hilo_diags md;
	hilo_diags_init(&md);
	hilo_module *m = hilo_parse_text(text, n, "origin_recovery_table", &md);
	bool ok = m != NULL;
	if (ok) {
		size_t at = pw_open_n(b, 3, 3);
		ok = hilo_proto_write(b, m, d);
		pw_close_n(b, at, 3);
		hilo_module_destroy(m);
	} else {
		const char *why = md.n ? md.items[0].msg : "it does not parse";
		hilo_diag_add(d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0,
			"origin_recovery_table: a recovery module does not parse: %s", why);
	}
	hilo_diags_free(&md);
	return ok;
}

bool pbw_recovery_table(hilo_buf *out, hilo_arena *a, const char *text, hilo_diags *d)
{
	cur c = {text, text + strlen(text)};
	hilo_buf s;
	hilo_buf_init(&s);
	bool ok = lit(&c, "{");
	size_t at = pw_open_n(out, 20, 3);
	while (ok && !lit(&c, "}")) {
		Xla__OriginalArrayProto *old, *now;
		ok = pbx_original_array_parse(&c, a, &old) && lit(&c, ":") &&
			pbx_original_array_parse(&c, a, &now);
		if (!ok)
			break;
		size_t e = pw_open_n(out, 1, 2);
		put_array(out, 1, old);
		put_array(out, 2, now);
		if (lit(&c, ",")) {
			ws(&c);
			if (c.p < c.e && *c.p == '"') {
				s.len = 0;
				ok = quoted(&c, &s);
				if (!ok)
					break;
				if (!put_module(out, s.data ? s.data : "", s.len, d)) {
					hilo_buf_free(&s);
					return false;
				}
			}
			(void)lit(&c, ",");
		}
		pw_close_n(out, e, 2);
	}
	ok = ok && at_end(&c);
	pw_close_n(out, at, 3);
	hilo_buf_free(&s);
	if (!ok)
		hilo_diag_add(d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0,
			"origin_recovery_table: not a table of {\"old\"} : {\"new\"}, \"MODULE\" entries");
	return ok && !out->oom;
}

/* The module's print as the table's string: each line indented by `ind`
 * spaces (blank lines stay empty), without its final newlines, quotes and
 * backslashes escaped. (XLA's printer leaves them as they are, which its
 * parser then refuses: docs/xla-departures.md.) */
static void put_indented(hilo_buf *b, const char *t, size_t n, int ind)
{
	while (n && t[n - 1] == '\n')
		n--;
	bool bol = true;
	for (size_t k = 0; k < n; k++) {
		char ch = t[k];
		if (bol && ch != '\n')
			for (int j = 0; j < ind; j++)
				hilo_buf_putc(b, ' ');
		bol = ch == '\n';
		if (ch == '"' || ch == '\\')
			hilo_buf_putc(b, '\\');
		hilo_buf_putc(b, ch);
	}
}

bool pbr_recovery_text(reader *R, slice table, hilo_buf *out)
{
	hilo_buf_puts(out, "{\n");
	pr_cur c = {table.p, table.p + table.n};
	field f;
	while (pbr_next_field(R, &c, &f)) {
		if (f.num != 1)
			continue;
		if (!pbr_want(R, &f, PB_LEN))
			return false;
		pr_cur e = {f.s.p, f.s.p + f.s.n};
		field g;
		Xla__OriginalArrayProto *ar[2] = {NULL, NULL};
		slice mod = {0};
		bool has_mod = false;
		while (pbr_next_field(R, &e, &g)) {
			if (g.num == 1 || g.num == 2) {
				if (!(ar[g.num - 1] = pbr_unpack_sub(R, &g, &xla__original_array_proto__descriptor, 1)))
					return false;
			} else if (g.num == 3) {
				if (!pbr_want(R, &g, PB_LEN))
					return false;
				mod = g.s;
				has_mod = true;
			}
		}
		if (R->failed)
			return false;
		Xla__OriginalArrayProto none = XLA__ORIGINAL_ARRAY_PROTO__INIT;
		hilo_buf_puts(out, "  ");
		pbx_original_array_render(out, ar[0] ? ar[0] : &none);
		hilo_buf_puts(out, " : ");
		pbx_original_array_render(out, ar[1] ? ar[1] : &none);
		if (has_mod) {
			hilo_module *m = pbr_read_nested(R, mod);
			if (!m)
				return false;
			/* XLA's form: no text kept around the computations */
			m->header = m->gap = m->trailer = NULL;
			hilo_buf t;
			hilo_buf_init(&t);
			bool ok = hilo_print_text(&t, m, HILO_STYLE_DEFAULT) && !t.oom;
			hilo_module_destroy(m);
			hilo_buf_puts(out, ",\n  \"\n");
			put_indented(out, t.data ? t.data : "", t.len, 4);
			hilo_buf_free(&t);
			hilo_buf_puts(out, "\n\n\n  \"");
			if (!ok) {
				pbr_rerr(R, "out of memory");
				return false;
			}
		}
		hilo_buf_putc(out, '\n');
	}
	hilo_buf_putc(out, '}');
	if (out->oom)
		pbr_rerr(R, "out of memory");
	return !R->failed;
}
