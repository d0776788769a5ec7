/* The streamed output (include/hilo/base.h: hilo_output_*, hilo_buf_stream_to),
 * inside a fresh mktemp folder:
 *  - a file written piece by piece holds every byte once the output is
 *    committed, and nothing before: the target keeps its old contents and
 *    the only other file is the temporary beside it;
 *  - a discarded output leaves the target untouched and no temporary;
 *  - a streamed buffer writes all but its last byte as it grows, so a
 *    printer may still drop a final newline, and the file equals what the
 *    same producer puts in a plain buffer;
 *  - hilo_write_output (one write through the same object) still works, and
 *    refuses a directory with a diagnostic. */
#include "check.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 4096 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (!r)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/* Lines of a made-up program, ~200 KB, ending in a newline. */
static void produce(hilo_buf *b)
{
	for (int i = 0; i < 5000; i++)
		hilo_buf_printf(b, "line %d of a program printed in pieces\n", i);
}

int main(void)
{
	char dir[] = "/tmp/hilo_test_output.XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char path[256], other[256];
	snprintf(path, sizeof path, "%s/out.txt", dir);
	snprintf(other, sizeof other, "%s/sub", dir);
	hilo_diags d;
	hilo_diags_init(&d);

	/* the reference: the same producer into a plain buffer */
	hilo_buf ref;
	hilo_buf_init(&ref);
	produce(&ref);
	CHECK(!ref.oom && ref.len > 100000);

	/* 1. piece by piece: invisible until committed */
	FILE *f = fopen(path, "w");
	fputs("previous", f);
	fclose(f);
	hilo_output *o = hilo_output_open(path, &d);
	CHECK(o != NULL);
	CHECK(hilo_output_write(o, "abc", 3));
	CHECK(hilo_output_write(o, "", 0));
	CHECK(hilo_output_write(o, "def\n", 4));
	size_t n = 0;
	char *got = slurp(path, &n);
	CHECK(got && n == 8 && !memcmp(got, "previous", 8));
	free(got);
	CHECK_EQ_I64(count_files(dir), 2); /* the target and the temporary */
	CHECK(hilo_output_ok(o));
	CHECK(hilo_output_close(o, true));
	got = slurp(path, &n);
	CHECK(got && n == 7 && !memcmp(got, "abcdef\n", 7));
	free(got);
	CHECK_EQ_I64(count_files(dir), 1);

	/* 2. discarded: target untouched, no temporary */
	o = hilo_output_open(path, &d);
	CHECK(o != NULL);
	CHECK(hilo_output_write(o, "xyz", 3));
	CHECK(!hilo_output_close(o, false));
	got = slurp(path, &n);
	CHECK(got && n == 7 && !memcmp(got, "abcdef\n", 7));
	free(got);
	CHECK_EQ_I64(count_files(dir), 1);

	/* 3. a streamed buffer: the file equals the plain buffer's bytes, the
	 * buffer never holds the whole, its last byte is held back */
	o = hilo_output_open(path, &d);
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_buf_stream_to(&b, o);
	size_t most = 0;
	for (int i = 0; i < 5000; i++) {
		hilo_buf_printf(&b, "line %d of a program printed in pieces\n", i);
		most = b.len > most ? b.len : most;
		CHECK(b.len >= 1);
	}
	CHECK(most < ref.len / 2);
	CHECK(b.data[b.len - 1] == '\n');
	b.data[--b.len] = 0; /* drop the final newline, as a printer may */
	CHECK(hilo_buf_stream_end(&b));
	CHECK_EQ_I64(b.len, 0);
	CHECK(hilo_output_close(o, true));
	hilo_buf_free(&b);
	got = slurp(path, &n);
	CHECK(got && n == ref.len - 1 && !memcmp(got, ref.data, ref.len - 1));
	free(got);
	CHECK_EQ_I64(count_files(dir), 1);

	/* 4. the one-write routine, and a refusal */
	CHECK(hilo_write_output(path, ref.data, ref.len, &d));
	got = slurp(path, &n);
	CHECK(got && n == ref.len && !memcmp(got, ref.data, ref.len));
	free(got);
	CHECK_EQ_I64(d.n, 0);
	mkdir(other, 0700);
	CHECK(hilo_output_open(other, &d) == NULL);
	CHECK(d.n == 1 && strstr(d.items[0].msg, "is a directory"));

	hilo_buf_free(&ref);
	hilo_diags_free(&d);
	unlink(path);
	rmdir(other);
	rmdir(dir);
	return CHECK_DONE();
}
