/* Whole-file reads, and the one output routine every tool uses for -o and
 * --remarks (hilo_write_output):
 *   "-"                     standard output, written unbuffered to the end;
 *   a regular file or none  a temporary file beside it, fsync, rename over
 *                           it: a failing run never leaves a partial or
 *                           truncated file, and no temporary behind;
 *   a symbolic link         resolved (the whole chain); its final target is
 *                           the file written, the link stays a link;
 *   char device/FIFO/socket written in place (a device node is never
 *                           replaced by a regular file);
 *   anything else           refused (directory, block device).
 * A replaced file keeps its mode and, where permitted, its owner; a new
 * file gets 0666 & ~umask (the kernel applies the umask: never read or
 * changed here, umask() is process-wide).
 *
 * Fault injection (-DHILO_FAULT_INJECTION=ON builds only): HILO_FAIL_WRITE=K
 * makes the K-th write(2) of this routine in the process fail with EIO,
 * the stand-in for a full disk. Its counter is the one mutable static of
 * the library and exists only in that build. */
#include "hilo/base.h"
#include "support/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

char *hilo_read_file(const char *path, size_t *len, hilo_diags *d)
{
	return hilo_read_file_fd(path, len, NULL, NULL, d);
}

bool hilo_text_is_blank(const char *s, size_t n, int *line, int *col)
{
	int l = 1, c = 1;
	for (size_t k = 0; k < n; k++) {
		char ch = s[k];
		if (ch == '\n') {
			l++;
			c = 1;
		} else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
			c++;
		} else {
			return false;
		}
	}
	*line = l;
	*col = c;
	return true;
}

size_t hilo_input_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || page <= 0 || (uint64_t)pages > SIZE_MAX / (uint64_t)page)
		return SIZE_MAX;
	return (size_t)pages * (size_t)page / 4;
}

bool hilo_input_too_large(const char *path, const char *what, hilo_diags *d)
{
	struct stat st;
	if (!strcmp(path, "-") || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return false;
	size_t lim = hilo_input_limit();
	if ((uint64_t)st.st_size <= (uint64_t)lim)
		return false;
	hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0,
		"input of %llu bytes is larger than the %s reader takes (%llu bytes: a quarter of "
		"this machine's memory)", (unsigned long long)st.st_size, what, (unsigned long long)lim);
	return true;
}

char *hilo_read_file_fd(const char *path, size_t *len, int *keep_fd, struct stat *keep_st,
	hilo_diags *d)
{
	if (keep_fd)
		*keep_fd = -1;
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
	if (!is_stdin && keep_fd && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
		/* read again later by offset (caret lines of late messages) */
		*keep_fd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 0);
		if (keep_st)
			*keep_st = st;
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

#ifdef HILO_FAULT_INJECTION
#include <stdatomic.h>
static atomic_ulong hilo_write_calls; /* fault-injection builds only */

/* True when this write(2) is the one HILO_FAIL_WRITE=K asks to fail. */
static bool injected_write_failure(void)
{
	const char *k = getenv("HILO_FAIL_WRITE");
	if (!k || !*k)
		return false;
	unsigned long n = atomic_fetch_add(&hilo_write_calls, 1) + 1;
	return n == strtoul(k, NULL, 10);
}
#else
static bool injected_write_failure(void) { return false; }
#endif

/* write(2) until done; false with errno set on failure. */
static bool write_all(int fd, const char *p, size_t len)
{
	while (len) {
		if (injected_write_failure()) {
			errno = EIO;
			return false;
		}
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		if (w == 0) {
			errno = EIO;
			return false;
		}
		p += w;
		len -= (size_t)w;
	}
	return true;
}

static void io_error(hilo_diags *d, const char *path, const char *what, int err)
{
	hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "%s: %s", what, strerror(err));
}

/* The folder of target does not exist (ENOENT) or a component of it is
 * not a folder (ENOTDIR): says which, "directory 'a/b' does not exist" or
 * "'a/f' is not a directory" (the longest prefix that exists). */
static void no_folder(hilo_diags *d, const char *path, const char *target, int err)
{
	char *dir = strdup(target);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	if (dir && err == ENOTDIR) {
		/* up to the component that exists and is not a folder */
		struct stat st;
		while (stat(dir, &st) != 0 && (slash = strrchr(dir, '/')) != NULL && slash != dir)
			*slash = 0;
	}
	const char *shown = !dir ? target : slash || err == ENOTDIR ? dir : ".";
	if (err == ENOENT)
		hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0,
			"cannot write the output: directory '%s' does not exist", shown);
	else
		hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0,
			"cannot write the output: '%s' is not a directory", shown);
	free(dir);
}

/* Follows symbolic links from path to the file they name. Returns a
 * malloc'ed path; *exists tells whether it exists (then *st is its
 * lstat). NULL (diagnostic added) on a loop or an unreadable link. */
static char *resolve_target(const char *path, struct stat *st, bool *exists, hilo_diags *d)
{
	char *cur = strdup(path);
	if (!cur)
		goto oom;
	for (int hops = 0;; hops++) {
		if (lstat(cur, st) != 0) {
			if (errno == ENOENT) {
				*exists = false;
				return cur;
			}
			if (errno == ENOTDIR)
				no_folder(d, path, cur, errno);
			else
				io_error(d, path, "cannot stat the output", errno);
			free(cur);
			return NULL;
		}
		if (!S_ISLNK(st->st_mode)) {
			*exists = true;
			return cur;
		}
		if (hops == 40) {
			io_error(d, path, "cannot resolve the output", ELOOP);
			free(cur);
			return NULL;
		}
		size_t cap = st->st_size > 0 ? (size_t)st->st_size + 1 : 4096;
		char *link = malloc(cap);
		if (!link) {
			free(cur);
			goto oom;
		}
		ssize_t n = readlink(cur, link, cap);
		if (n < 0 || (size_t)n >= cap) {
			io_error(d, path, "cannot read the symbolic link", n < 0 ? errno : ENAMETOOLONG);
			free(link);
			free(cur);
			return NULL;
		}
		link[n] = 0;
		char *next;
		const char *slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash) {
			next = link;
		} else { /* relative to the link's folder */
			size_t dl = (size_t)(slash - cur) + 1;
			next = malloc(dl + (size_t)n + 1);
			if (next) {
				memcpy(next, cur, dl);
				memcpy(next + dl, link, (size_t)n + 1);
			}
			free(link);
		}
		free(cur);
		cur = next;
		if (!cur)
			goto oom;
	}
oom:
	hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "out of memory");
	return NULL;
}

/* Opens a Unix-domain socket at path for writing (stream, else datagram). */
static int open_socket(const char *path)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sa.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	int types[] = { SOCK_STREAM, SOCK_DGRAM };
	for (int k = 0; k < 2; k++) {
		int fd = socket(AF_UNIX, types[k] | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0)
			return fd;
		int e = errno;
		close(fd);
		errno = e;
		if (e != EPROTOTYPE)
			return -1;
	}
	return -1;
}

/* In place: character device, FIFO (blocks until a reader opens it, as a
 * shell redirection does) or socket. */
static bool write_in_place(const char *path, const char *target, bool sock,
	const char *data, size_t len, hilo_diags *d)
{
	int fd = sock ? open_socket(target) : open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		io_error(d, path, "cannot open the output", errno);
		return false;
	}
	bool ok = write_all(fd, data, len);
	int e = errno;
	if (close(fd) != 0 && ok) {
		ok = false;
		e = errno;
	}
	if (!ok)
		io_error(d, path, "cannot write", e);
	return ok;
}

/* Creates a new temporary file beside target, with mode 0666 & ~umask for
 * a new file (0600 while it is written when it will take an existing
 * file's mode). Returns the fd and the malloc'ed name in *tmp. */
static int create_temp(const char *target, bool exists, char **tmp)
{
	size_t tl = strlen(target);
	char *name = malloc(tl + 24);
	if (!name) {
		errno = ENOMEM;
		return -1;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40) ^
		(uint64_t)(uintptr_t)&ts;
	for (int attempt = 0; attempt < 100; attempt++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		snprintf(name, tl + 24, "%s.tmp.%06x", target, (unsigned)(x >> 40) & 0xffffffu);
		int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, exists ? 0600 : 0666);
		if (fd >= 0) {
			*tmp = name;
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	int e = errno;
	free(name);
	errno = e;
	return -1;
}

/* An output being written. Buffered (standard output, devices, FIFOs,
 * sockets: written at commit, so a failed run writes nothing there) or
 * through a temporary file beside the target (regular and new files). */
struct hilo_output {
	char *path;        /* as given, for messages */
	char *target;      /* the file replaced (links resolved); NULL when buffered */
	char *tmp;         /* the temporary file */
	int fd;            /* of tmp; -1 when buffered */
	bool exists;       /* target exists (st is its lstat) */
	bool in_place;     /* buffered for a device, FIFO or socket (st says which) */
	bool failed;       /* a write failed: the diagnostic is made at close */
	int err;
	struct stat st;
	char *buf;         /* buffered bytes (malloc'd; hilo_write_output's caller's when borrowed) */
	size_t len, cap;
	bool borrowed;
	hilo_diags *d;
};

static void output_free(hilo_output *o)
{
	free(o->path);
	free(o->target);
	free(o->tmp);
	if (!o->borrowed)
		free(o->buf);
	free(o);
}

hilo_output *hilo_output_open(const char *path, hilo_diags *d)
{
	hilo_output *o = calloc(1, sizeof *o);
	if (o)
		o->path = strdup(path);
	if (!o || !o->path) {
		hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "out of memory");
		free(o);
		return NULL;
	}
	o->fd = -1;
	o->d = d;
	if (!strcmp(path, "-"))
		return o;
	o->target = resolve_target(path, &o->st, &o->exists, d);
	if (!o->target) {
		output_free(o);
		return NULL;
	}
	if (o->exists && (S_ISCHR(o->st.st_mode) || S_ISFIFO(o->st.st_mode) || S_ISSOCK(o->st.st_mode))) {
		o->in_place = true;
		return o;
	}
	if (o->exists && !S_ISREG(o->st.st_mode)) {
		hilo_diag_add(d, HILO_SEV_ERROR, path, 0, 0, NULL, 0, "cannot write the output: %s",
			S_ISDIR(o->st.st_mode) ? "is a directory"
			: "not a regular file, character device, FIFO or socket");
		output_free(o);
		return NULL;
	}
	o->fd = create_temp(o->target, o->exists, &o->tmp);
	if (o->fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		/* the folder is what is missing, not room for a temporary */
		no_folder(d, path, o->target, errno);
		output_free(o);
		return NULL;
	}
	if (o->fd < 0) {
		io_error(d, path, "cannot create a temporary file beside the output", errno);
		output_free(o);
		return NULL;
	}
	return o;
}

bool hilo_output_write(hilo_output *o, const void *data, size_t len)
{
	if (o->failed)
		return false;
	if (o->fd >= 0) {
		if (!write_all(o->fd, data, len)) {
			o->failed = true;
			o->err = errno;
		}
		return !o->failed;
	}
	if (len > o->cap - o->len) {
		size_t cap = o->cap ? o->cap : 4096;
		while (cap - o->len < len && cap < SIZE_MAX / 2)
			cap *= 2;
		char *nb = cap - o->len < len ? NULL : realloc(o->buf, cap);
		if (!nb) {
			o->failed = true;
			o->err = ENOMEM;
			return false;
		}
		o->buf = nb;
		o->cap = cap;
	}
	if (len)
		memcpy(o->buf + o->len, data, len);
	o->len += len;
	return true;
}

bool hilo_output_ok(const hilo_output *o)
{
	return !o->failed;
}

/* Publishes the temporary file: the replaced file's owner and mode, fsync,
 * rename over the target. False with errno set. */
static bool output_publish(hilo_output *o)
{
	if (o->exists) {
		/* owner first (a chown clears set-id bits), then the mode; an
		 * owner we may not give away stays ours */
		if (fchown(o->fd, o->st.st_uid, o->st.st_gid) != 0 && errno != EPERM)
			return false;
		if (fchmod(o->fd, o->st.st_mode & 07777) != 0)
			return false;
	}
	if (fsync(o->fd) != 0 && errno != EINVAL)
		return false;
	int c = close(o->fd);
	o->fd = -1;
	return c == 0 && rename(o->tmp, o->target) == 0;
}

bool hilo_output_close(hilo_output *o, bool commit)
{
	if (!o)
		return false;
	bool ok = false;
	if (!commit) {
		ok = true; /* discarded on request: nothing to report */
	} else if (o->failed) {
		io_error(o->d, o->path, "cannot write", o->err);
	} else if (o->in_place) {
		ok = write_in_place(o->path, o->target, S_ISSOCK(o->st.st_mode), o->buf ? o->buf : "", o->len, o->d);
	} else if (o->fd < 0) {
		ok = write_all(STDOUT_FILENO, o->buf ? o->buf : "", o->len);
		if (!ok)
			io_error(o->d, "<stdout>", "cannot write", errno);
	} else if (!(ok = output_publish(o))) {
		io_error(o->d, o->path, "cannot write", errno);
	}
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp && (!ok || !commit))
		unlink(o->tmp); /* failed or discarded: no temporary left behind */
	output_free(o);
	return ok && commit;
}

bool hilo_write_output(const char *path, const void *data, size_t len, hilo_diags *d)
{
	hilo_output *o = hilo_output_open(path, d);
	if (!o)
		return false;
	if (o->fd >= 0) {
		hilo_output_write(o, data ? data : "", len);
	} else { /* buffered: written at close from the caller's bytes, no copy */
		o->buf = (char *)(data ? data : "");
		o->len = len;
		o->borrowed = true;
	}
	return hilo_output_close(o, true);
}
