/* The one reader and writer of output_to_operand_aliasing= text, and its
 * renumbering when operands are removed; see "operand aliasing" in
 * include/hilo/ir.h.
 *
 * The printed form is XLA's (HloInstruction's attribute printer): "{",
 * the pairs joined by ", ", each "<output index>: (<operand>, <operand
 * index>)", "}"; a shape index is ShapeIndex::ToString, "{" the numbers
 * joined by "," "}". Aliasing names operands by number, so every edit of
 * an operand list must carry it along (issue 30: dce dropped an unused
 * fusion operand and the alias went from z to w, an entry parameter the
 * program also returns). */
#include "hilo/ir.h"
#include "ir/text_cursor.h"

#include <string.h>

/* {i,j,...} into ix (a's memory). */
static bool shape_index(hilo_arena *a, rd *r, hilo_shape_index *ix)
{
	ix->n = 0;
	ix->v = NULL;
	if (!eat(r, '{'))
		return false;
	if (eat(r, '}'))
		return true;
	/* count first: the depth is the number of commas + 1 */
	int n = 1;
	for (const char *q = r->p; q < r->e && *q != '}'; q++)
		n += *q == ',';
	if (n > HILO_MAX_RANK * 64)
		return false;
	ix->v = hilo_arena_alloc(a, (size_t)n * sizeof *ix->v);
	if (!ix->v)
		return false;
	for (;;) {
		if (ix->n == n || !num(r, &ix->v[ix->n]))
			return false;
		ix->n++;
		if (eat(r, '}'))
			return true;
		if (!eat(r, ','))
			return false;
	}
}

bool hilo_aliasing_parse(hilo_arena *a, const char *text, size_t len, hilo_aliasing *al)
{
	rd r = {text, text + len};
	al->n = 0;
	al->pairs = NULL;
	if (!eat(&r, '{'))
		return false;
	size_t cap = 0;
	if (!eat(&r, '}')) {
		for (;;) {
			hilo_alias_pair pr;
			if (!shape_index(a, &r, &pr.output) || !eat(&r, ':') || !eat(&r, '(') ||
			    !num(&r, &pr.operand) || !eat(&r, ',') || !shape_index(a, &r, &pr.operand_index) ||
			    !eat(&r, ')'))
				return false;
			if (al->n == cap) {
				cap = cap ? 2 * cap : 4;
				hilo_alias_pair *nv = hilo_arena_alloc(a, cap * sizeof *nv);
				if (!nv)
					return false;
				if (al->n)
					memcpy(nv, al->pairs, al->n * sizeof *nv);
				al->pairs = nv;
			}
			al->pairs[al->n++] = pr;
			if (eat(&r, '}'))
				break;
			if (!eat(&r, ','))
				return false;
		}
	}
	ws(&r);
	return r.p == r.e;
}

static void print_index(hilo_buf *b, const hilo_shape_index *ix)
{
	hilo_buf_putc(b, '{');
	for (int k = 0; k < ix->n; k++) {
		if (k)
			hilo_buf_putc(b, ',');
		hilo_buf_put_i64(b, ix->v[k]);
	}
	hilo_buf_putc(b, '}');
}

void hilo_alias_pair_print(hilo_buf *b, const hilo_alias_pair *pr)
{
	print_index(b, &pr->output);
	hilo_buf_puts(b, ": (");
	hilo_buf_put_i64(b, pr->operand);
	hilo_buf_puts(b, ", ");
	print_index(b, &pr->operand_index);
	hilo_buf_putc(b, ')');
}

void hilo_aliasing_print(hilo_buf *b, const hilo_aliasing *al)
{
	hilo_buf_putc(b, '{');
	for (size_t k = 0; k < al->n; k++) {
		if (k)
			hilo_buf_puts(b, ", ");
		hilo_alias_pair_print(b, &al->pairs[k]);
	}
	hilo_buf_putc(b, '}');
}

bool hilo_instr_aliasing(hilo_arena *a, const hilo_instr *i, hilo_aliasing *al)
{
	al->n = 0;
	al->pairs = NULL;
	const hilo_attr *at = hilo_instr_attr(i, HILO_A_OUTPUT_TO_OPERAND_ALIASING);
	if (!at)
		return true;
	if (at->kind != HILO_ATTR_RAW || !at->v.text)
		return false;
	return hilo_aliasing_parse(a, at->v.text, strlen(at->v.text), al);
}

bool hilo_aliasing_renumber(hilo_aliasing *al, const int64_t *map, size_t nmap)
{
	for (size_t k = 0; k < al->n; k++) {
		int64_t o = al->pairs[k].operand;
		if (o < 0 || (uint64_t)o >= nmap || map[o] < 0)
			return false;
	}
	for (size_t k = 0; k < al->n; k++)
		al->pairs[k].operand = map[al->pairs[k].operand];
	return true;
}

bool hilo_instr_renumber_operand_attrs(hilo_module *m, hilo_instr *i, const int64_t *map,
	size_t nmap)
{
	bool removes = false, moves = false;
	for (size_t k = 0; k < nmap; k++) {
		removes |= map[k] < 0;
		moves |= map[k] != (int64_t)k;
	}
	if (!moves)
		return true;
	if (removes && hilo_instr_attr(i, HILO_A_OPERAND_LAYOUT_CONSTRAINTS))
		return false;
	hilo_attr *at = hilo_instr_attr(i, HILO_A_OUTPUT_TO_OPERAND_ALIASING);
	if (!at)
		return true;
	hilo_aliasing al;
	if (!hilo_instr_aliasing(m->arena, i, &al) || !hilo_aliasing_renumber(&al, map, nmap))
		return false;
	hilo_buf b;
	hilo_buf_init_in(&b, m->arena);
	hilo_aliasing_print(&b, &al);
	bool ok = !b.oom;
	if (ok)
		at->v.text = hilo_intern(m->strings, b.data, b.len);
	hilo_buf_free(&b);
	return ok && at->v.text;
}

const hilo_shape *hilo_shape_subshape(const hilo_shape *s, const hilo_shape_index *ix)
{
	for (int k = 0; s && k < ix->n; k++) {
		if (!hilo_shape_is_tuple(s) || ix->v[k] < 0 || ix->v[k] >= s->ntuple)
			return NULL;
		s = s->elems[ix->v[k]];
	}
	return s;
}
