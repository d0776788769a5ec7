/* Lossless printing (issue 14 item 2): for every .hlo under a folder
 * (recursively; files with "// -----" separators split as hilo-opt
 * --split-input-file does), parse -> print in the auto style -> parse must
 * keep every field of every instruction, compared field by field: metadata
 * (every key and value, in order), sharding, frontend_attributes,
 * backend_config and every other attribute, control predecessors, and the
 * module's own attributes. Chunks the parser rejects (unsupported
 * constructs, tests/roundtrip/unsupported.txt) are counted and skipped.
 *
 *   lossless DIR      exit 0 all kept, 1 a field lost or changed, 77 no DIR
 */
#define _XOPEN_SOURCE 700
#include "hilo/hlo_text.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>

typedef struct stats {
	long files, chunks, skipped, instrs, fields, metadata, sharding, frontend, backend, failures;
} stats;

static stats S;

static const char *cname(const hilo_comp *c) { return c ? c->name : "(null)"; }

/* Compares attribute a (of instruction x) with b (of y); true when equal. */
static bool attr_equal(const hilo_instr *x, const hilo_attr *a, const hilo_instr *y, const hilo_attr *b)
{
	if (strcmp(a->key, b->key) || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case HILO_ATTR_RAW:
	case HILO_ATTR_STRING:
	case HILO_ATTR_ENUM:
		return !strcmp(a->v.text, b->v.text);
	case HILO_ATTR_INT:
	case HILO_ATTR_BOOL:
		return a->v.i == b->v.i;
	case HILO_ATTR_INTS:
		return a->n == b->n && (!a->n || !memcmp(a->v.ints, b->v.ints, (size_t)a->n * sizeof(int64_t)));
	case HILO_ATTR_SLICE:
	case HILO_ATTR_PADDING:
		return a->n == b->n && (!a->n || !memcmp(a->v.ints, b->v.ints, 3 * (size_t)a->n * sizeof(int64_t)));
	case HILO_ATTR_COMP:
		return !strcmp(cname(hilo_instr_called(x)[a->v.i]), cname(hilo_instr_called(y)[b->v.i]));
	case HILO_ATTR_COMPS:
		if (a->n != b->n)
			return false;
		for (int k = 0; k < a->n; k++)
			if (strcmp(cname(hilo_instr_called(x)[a->v.i + k]), cname(hilo_instr_called(y)[b->v.i + k])))
				return false;
		return true;
	case HILO_ATTR_CONTROL:
		if (hilo_instr_nctrl_preds(x) != hilo_instr_nctrl_preds(y))
			return false;
		for (uint32_t k = 0; k < hilo_instr_nctrl_preds(x); k++)
			if (strcmp(hilo_instr_ctrl_preds(x)[k]->name, hilo_instr_ctrl_preds(y)[k]->name))
				return false;
		return true;
	case HILO_ATTR_METADATA: {
		const hilo_metadata *m = x->metadata, *n = y->metadata;
		if (!m || !n)
			return !m == !n;
		if (m->n != n->n)
			return false;
		for (int k = 0; k < m->n; k++)
			if (strcmp(m->e[k].key, n->e[k].key) || strcmp(m->e[k].value, n->e[k].value))
				return false;
		return true;
	}
	}
	return false;
}

static void lost(const char *file, int chunk, const hilo_instr *i, const char *what)
{
	S.failures++;
	if (S.failures <= 30)
		fprintf(stderr, "%s (module %d): %s%s%s lost or changed after parse -> print(auto) -> parse\n",
			file, chunk, i ? i->name : "", i ? ": " : "", what);
}

static void compare(const char *file, int chunk, const hilo_module *a, const hilo_module *b)
{
	/* every module attribute kept (the printer may add a derived
	 * entry_computation_layout the input did not spell out) */
	for (uint32_t k = 0; k < a->nattrs; k++) {
		S.fields++;
		if (!strcmp(a->attrs[k].key, "frontend_attributes"))
			S.frontend++;
		bool kept = false;
		for (uint32_t j = 0; j < b->nattrs && !kept; j++)
			kept = !strcmp(a->attrs[k].key, b->attrs[j].key) && !strcmp(a->attrs[k].value, b->attrs[j].value);
		if (!kept)
			lost(file, chunk, NULL, a->attrs[k].key);
	}
	if (a->ncomps != b->ncomps) {
		lost(file, chunk, NULL, "computations");
		return;
	}
	for (uint32_t c = 0; c < a->ncomps; c++) {
		const hilo_comp *ca = a->comps[c], *cb = hilo_module_find_comp(b, ca->name);
		if (!cb || ca->ninstrs != cb->ninstrs) {
			lost(file, chunk, NULL, ca->name);
			continue;
		}
		const hilo_instr *x = ca->first, *y = cb->first;
		for (; x && y; x = x->next, y = y->next) {
			S.instrs++;
			if (strcmp(x->name, y->name) || x->op != y->op) {
				lost(file, chunk, x, "instruction order or opcode");
				break;
			}
			if (!x->metadata != !y->metadata)
				lost(file, chunk, x, "metadata");
			if (x->nattrs != y->nattrs) {
				lost(file, chunk, x, "attribute list");
				continue;
			}
			for (uint32_t k = 0; k < x->nattrs; k++) {
				const hilo_attr *p = &x->attrs[k];
				S.fields++;
				if (p->kind == HILO_ATTR_METADATA && x->metadata)
					S.metadata++;
				else if (!strcmp(p->key, "sharding"))
					S.sharding++;
				else if (!strcmp(p->key, "frontend_attributes"))
					S.frontend++;
				else if (!strcmp(p->key, "backend_config"))
					S.backend++;
				if (!attr_equal(x, p, y, &y->attrs[k]))
					lost(file, chunk, x, p->key);
			}
		}
	}
}

static void check_chunk(const char *file, int chunk, const char *text, size_t len)
{
	S.chunks++;
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *a = hilo_parse_text(text, len, file, &d);
	if (!a) {
		S.skipped++;
		hilo_diags_free(&d);
		return;
	}
	hilo_buf out;
	hilo_buf_init(&out);
	if (!hilo_print_text(&out, a, HILO_STYLE_AUTO)) {
		lost(file, chunk, NULL, "(out of memory printing)");
	} else {
		hilo_module *b = hilo_parse_text(out.data, out.len, file, &d);
		if (!b) {
			lost(file, chunk, NULL, "(the printed module does not parse)");
			hilo_diags_print(stderr, &d);
		} else {
			compare(file, chunk, a, b);
			hilo_module_destroy(b);
		}
	}
	hilo_buf_free(&out);
	hilo_module_destroy(a);
	hilo_diags_free(&d);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t pl = strlen(path);
	if (type != FTW_F || pl < 4 || strcmp(path + pl - 4, ".hlo"))
		return 0;
	size_t len;
	hilo_diags d;
	hilo_diags_init(&d);
	char *text = hilo_read_file(path, &len, &d);
	hilo_diags_free(&d);
	if (!text) {
		lost(path, 0, NULL, "(unreadable file)");
		return 0;
	}
	S.files++;
	/* chunks separated by lines that start with "// -----" */
	const char *p = text, *e = text + len, *chunk = text;
	int n = 0;
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		bool sep = le - p >= 8 && !memcmp(p, "// -----", 8);
		if (sep || !nl) {
			check_chunk(path, n++, chunk, (size_t)((sep ? p : e) - chunk));
			if (!sep || !nl)
				break;
			chunk = nl + 1;
		}
		p = nl + 1;
	}
	free(text);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2 || nftw(argv[1], visit, 16, FTW_PHYS) != 0) {
		fprintf(stderr, "lossless: corpus folder not found: skipped\n");
		return 77;
	}
	printf("%ld files, %ld modules (%ld rejected by the parser, skipped), %ld instructions, "
		"%ld fields compared (%ld metadata, %ld sharding, %ld frontend_attributes, "
		"%ld backend_config): %ld lost or changed\n",
		S.files, S.chunks, S.skipped, S.instrs, S.fields, S.metadata, S.sharding, S.frontend,
		S.backend, S.failures);
	return S.failures || !S.files ? 1 : 0;
}
