/* eval_corpus.c - evaluates every module of a corpus folder (recursively)
 * with the reference evaluator and reports how many evaluate.
 *
 *   eval_corpus DIR [MIN_OK] [BUDGET]
 *
 * For each *.hlo: parse, verify, evaluate the entry computation on seeded
 * inputs within BUDGET element-ops (default 10^7). Modules that do not
 * parse or verify are counted apart (they test the parser's errors);
 * evaluation failures are listed with their first diagnostic. Exit 0 when
 * at least MIN_OK modules evaluate, 1 otherwise, 77 (skipped) when DIR is
 * missing.
 */
#include "hilo/eval.h"
#include "hilo/hlo_text.h"
#include "hilo/verify.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
	int files, unparsed, ok, failed, budget;
	uint64_t limit;
	char **names;
	int nnames, cap;
} tally;

static void collect(tally *t, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		size_t n = strlen(dir) + strlen(e->d_name) + 2;
		char *p = malloc(n);
		snprintf(p, n, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			collect(t, p);
			free(p);
		} else if (n > 5 && !strcmp(p + strlen(p) - 4, ".hlo")) {
			if (t->nnames == t->cap) {
				t->cap = t->cap ? 2 * t->cap : 256;
				t->names = realloc(t->names, (size_t)t->cap * sizeof *t->names);
			}
			t->names[t->nnames++] = p;
		} else {
			free(p);
		}
	}
	closedir(d);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void one(tally *t, const char *path)
{
	hilo_diags d;
	hilo_diags_init(&d);
	size_t len = 0;
	char *src = hilo_read_file(path, &len, &d);
	hilo_module *m = src ? hilo_parse_text(src, len, path, &d) : NULL;
	t->files++;
	if (!m || !hilo_verify(m, path, &d) || !m->entry) {
		t->unparsed++;
	} else {
		hilo_literal **args = hilo_eval_random_args(m, m->entry, 0, t->limit, &d);
		hilo_eval_opts o = {t->limit};
		hilo_literal *r = args ? hilo_eval_comp(m, m->entry, args, &o, &d) : NULL;
		if (r) {
			t->ok++;
		} else {
			const char *msg = d.n ? d.items[d.n - 1].msg : "no diagnostic";
			for (size_t k = 0; k < d.n; k++)
				if (d.items[k].sev == HILO_SEV_ERROR) {
					msg = d.items[k].msg;
					break;
				}
			if (strstr(msg, "budget") || strstr(msg, "too large"))
				t->budget++;
			else
				t->failed++;
			printf("not evaluated: %s: %s\n", path, msg);
		}
	}
	if (m)
		hilo_module_destroy(m);
	free(src);
	hilo_diags_free(&d);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: eval_corpus DIR [MIN_OK] [BUDGET]\n");
		return 2;
	}
	struct stat st;
	if (stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode)) {
		printf("eval_corpus: %s is missing: skipped\n", argv[1]);
		return 77;
	}
	int min_ok = argc > 2 ? atoi(argv[2]) : 0;
	tally t = {0};
	t.limit = argc > 3 ? strtoull(argv[3], NULL, 10) : 10000000ull;
	collect(&t, argv[1]);
	qsort(t.names, (size_t)t.nnames, sizeof *t.names, cmp);
	for (int k = 0; k < t.nnames; k++) {
		one(&t, t.names[k]);
		free(t.names[k]);
	}
	free(t.names);
	printf("eval_corpus: %s: %d modules; %d evaluate; %d over the budget of %llu; "
	       "%d not evaluable; %d do not parse/verify\n",
		argv[1], t.files, t.ok, t.budget, (unsigned long long)t.limit, t.failed, t.unparsed);
	if (t.ok < min_ok) {
		printf("eval_corpus: fewer than %d modules evaluate\n", min_ok);
		return 1;
	}
	return 0;
}
