/* Whole-file reads and atomic writes (temp file + rename), so a failing
 * run never leaves a partial or truncated output file. */
#include "hilo/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *hilo_read_file(const char *path, size_t *len, hilo_diags *d)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	struct stat st;
	if (!is_stdin && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	if (!is_stdin && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "is a directory");
		fclose(f);
		return NULL;
	}
	char *buf = malloc(cap);
	if (!buf)
		goto oom;
	for (;;) {
		if (n + 1 >= cap) {
			size_t ncap = cap * 2;
			char *nb = realloc(buf, ncap);
			if (!nb)
				goto oom;
			buf = nb;
			cap = ncap;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "read error: %s", strerror(errno));
		free(buf);
		if (!is_stdin)
			fclose(f);
		return NULL;
	}
	if (!is_stdin)
		fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
oom:
	free(buf);
	if (!is_stdin)
		fclose(f);
	hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "out of memory reading the file");
	return NULL;
}

bool hilo_write_file_atomic(const char *path, const void *data, size_t len, hilo_diags *d)
{
	size_t pl = strlen(path);
	char *tmp = malloc(pl + 32);
	if (!tmp) {
		hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "out of memory");
		return false;
	}
	snprintf(tmp, pl + 32, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "cannot create a temporary file: %s", strerror(errno));
		free(tmp);
		return false;
	}
	/* keep the permissions of an existing output, else 0644 */
	struct stat st;
	fchmod(fd, stat(path, &st) == 0 ? (st.st_mode & 07777) : 0644);
	const char *p = data;
	size_t left = len;
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		p += w;
		left -= (size_t)w;
	}
	if (fsync(fd) != 0 && errno != EINVAL)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return true;
fail:
	hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "cannot write: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return false;
}
