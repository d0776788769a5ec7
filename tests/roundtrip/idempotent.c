/* Print idempotence over the whole corpus (issue 18, "Done when"): every
 * .hlo file under a folder (recursively; files with "// -----" separators
 * split as hilo-opt --split-input-file does, chunks of only comments
 * skipped) parses, and in every print style S
 *     print(parse(print(parse(x), S)), S) == print(parse(x), S)
 * byte for byte. A chunk the parser rejects must belong to a file listed
 * in the unsupported list (tests/roundtrip/unsupported.txt: templates with
 * printf holes and the like, not HLO) and be rejected with a located
 * FILE:LINE:COL error; a listed file whose every chunk parses and verifies
 * is a failure too (the list must shrink as the parser grows).
 *
 *   idempotent DIR UNSUPPORTED   exit 0 all good, 1 any failure, 77 no DIR
 */
#define _XOPEN_SOURCE 700
#include "hilo/hlo_text.h"
#include "hilo/verify.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>

static struct {
	long files, files_ok, chunks, chunks_ok, rejected, listed_rejected, prints, failures;
	char *unsupported; /* the list file's text, one basename a line */
} S;

static const struct { hilo_print_style style; const char *name; } styles[] = {
	{HILO_STYLE_AUTO, "auto"}, {HILO_STYLE_DEFAULT, "default"},
	{HILO_STYLE_LONG, "long"}, {HILO_STYLE_SHORT, "short"},
};

static void failure(const char *file, int chunk, const char *fmt, const char *arg)
{
	S.failures++;
	if (S.failures <= 40) {
		fprintf(stderr, "FAIL %s (module %d): ", file, chunk);
		fprintf(stderr, fmt, arg);
		fputc('\n', stderr);
	}
}

static bool listed(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	for (const char *p = S.unsupported; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !memcmp(p, base, n))
			return true;
		p = e ? e + 1 : p + len;
	}
	return false;
}

static bool chunk_is_empty(const char *p, const char *e)
{
	while (p < e) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < e && *p != '\n' && !(e - p >= 2 && p[0] == '/' && p[1] == '/'))
			return false;
		while (p < e && *p != '\n')
			p++;
		p++;
	}
	return true;
}

/* Returns whether the chunk parsed and verified. */
static bool check_chunk(const char *file, int chunk, const char *text, size_t len, bool *parsed)
{
	S.chunks++;
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(text, len, file, &d);
	*parsed = m != NULL;
	if (!m) {
		S.rejected++;
		bool located = d.n && d.items[0].line > 0 && d.items[0].col > 0;
		if (!listed(file))
			failure(file, chunk, "does not parse: %s", d.n ? d.items[0].msg : "(no diagnostic)");
		else if (!located)
			failure(file, chunk, "rejected without a located error%s", "");
		else
			S.listed_rejected++;
		hilo_diags_free(&d);
		return false;
	}
	S.chunks_ok++;
	for (size_t k = 0; k < sizeof styles / sizeof *styles; k++) {
		hilo_buf a, b;
		hilo_buf_init(&a);
		hilo_buf_init(&b);
		S.prints++;
		if (!hilo_print_text(&a, m, styles[k].style)) {
			failure(file, chunk, "out of memory printing in the %s style", styles[k].name);
		} else {
			hilo_diags d2;
			hilo_diags_init(&d2);
			hilo_module *m2 = hilo_parse_text(a.data, a.len, file, &d2);
			if (!m2) {
				failure(file, chunk, "the %s-style print does not parse back", styles[k].name);
				hilo_diags_print(stderr, &d2);
			} else {
				if (!hilo_print_text(&b, m2, styles[k].style) || a.len != b.len ||
				    memcmp(a.data, b.data, a.len))
					failure(file, chunk, "printing is not idempotent in the %s style", styles[k].name);
				hilo_module_destroy(m2);
			}
			hilo_diags_free(&d2);
		}
		hilo_buf_free(&a);
		hilo_buf_free(&b);
	}
	bool ok = hilo_verify(m, file, &d);
	hilo_module_destroy(m);
	hilo_diags_free(&d);
	return ok;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	size_t pl = strlen(path);
	if (type != FTW_F || pl < 4 || strcmp(path + pl - 4, ".hlo"))
		return 0;
	size_t len;
	hilo_diags d;
	hilo_diags_init(&d);
	char *text = hilo_read_file(path, &len, &d);
	hilo_diags_free(&d);
	if (!text) {
		failure(path, 0, "cannot be read%s", "");
		return 0;
	}
	S.files++;
	bool all_parse = true, all_verify = true;
	const char *p = text, *e = text + len, *chunk = text;
	int n = 0;
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		bool sep = le - p >= 8 && !memcmp(p, "// -----", 8);
		if (sep || !nl) {
			const char *cend = sep ? p : e;
			if (!chunk_is_empty(chunk, cend)) {
				bool parsed;
				all_verify &= check_chunk(path, n++, chunk, (size_t)(cend - chunk), &parsed);
				all_parse &= parsed;
			}
			if (!sep || !nl)
				break;
			chunk = nl + 1;
		}
		p = nl + 1;
	}
	S.files_ok += all_parse;
	if (listed(path) && all_parse && all_verify)
		failure(path, 0, "is listed unsupported but parses and verifies (update unsupported.txt)%s", "");
	free(text);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: idempotent CORPUS_DIR UNSUPPORTED_LIST\n");
		return 2;
	}
	size_t len;
	hilo_diags d;
	hilo_diags_init(&d);
	S.unsupported = hilo_read_file(argv[2], &len, &d);
	hilo_diags_free(&d);
	if (!S.unsupported) {
		fprintf(stderr, "idempotent: cannot read %s\n", argv[2]);
		return 1;
	}
	if (nftw(argv[1], visit, 16, FTW_PHYS) != 0) {
		fprintf(stderr, "idempotent: corpus folder not found: skipped\n");
		free(S.unsupported);
		return 77;
	}
	printf("%ld files, %ld modules: %ld files parse entirely (%ld modules parse); %ld modules "
		"rejected, all in files listed unsupported with a located error: %s; %ld prints "
		"(4 styles) checked: %ld failures\n",
		S.files, S.chunks, S.files_ok, S.chunks_ok, S.rejected,
		S.rejected == S.listed_rejected ? "yes" : "no", S.prints, S.failures);
	free(S.unsupported);
	return S.failures || !S.files ? 1 : 0;
}
