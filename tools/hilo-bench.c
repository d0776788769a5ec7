/* hilo-bench: throughput of the HLO text parser and printer, and of the
 * binary HloModuleProto writer and reader.
 *
 *   hilo-bench [--min-time=SEC] [--tsv=FILE] FILE...
 *
 * For each file, in a child process of its own (so peak RSS is per file):
 * read it once, then time, best of several runs,
 *   floor-read  re-reading the file from the page cache into a buffer;
 *   floor-copy  copying the same bytes in memory and touching each one;
 *   parse       hilo_parse_text + hilo_module_destroy;
 *   verify      hilo_verify on the parsed module;
 *   print       hilo_print_text (auto style) into a reused buffer;
 *   pb-write    hilo_proto_write of the parsed module; pb-read hilo_proto_read
 *               of those bytes (both in MB/s of proto bytes);
 * and print one table row: MB/s for each (MB = 10^6 bytes of input text,
 * of output text for print), parse instructions/s and peak RSS. The floors
 * are the physical limits measured in the same run, so the ratios are what
 * to compare across machines. --tsv appends machine-readable rows
 * (file, bytes, instrs, seconds per phase, peak RSS bytes) for scripts.
 * Exit status 1 when a file does not parse or its printout is not the
 * input byte for byte (noted in the row, the other files still run).
 */
#include "hilo/hlo_text.h"
#include "hilo/version.h"
#include "common/cli.h"
#include "hilo/proto.h"
#include "hilo/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct result {
	double read_s, copy_s, parse_s, verify_s, print_s, pbw_s, pbr_s;
	size_t bytes, out_bytes, pb_bytes;
	uint64_t instrs;
	long peak_rss_kb;
	unsigned touched;   /* checksum of the copy floor, so it is not optimized out */
	bool read_ok, parsed, same;
} result;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Repeats fn until min_time has passed (at least 3, at most 50 runs) and
 * returns the fastest run. */
#define BEST_OF(min_time, best, body) do { \
	double t_start = now(); \
	best = 1e30; \
	for (int run = 0; run < 50; run++) { \
		double t0 = now(); \
		body; \
		double t1 = now() - t0; \
		if (t1 < best) \
			best = t1; \
		if (run >= 2 && now() - t_start >= (min_time)) \
			break; \
	} \
} while (0)

static bool read_again(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	size_t got = 0;
	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	return got == len;
}

static void bench_file(const char *path, double min_time, result *r)
{
	memset(r, 0, sizeof *r);
	hilo_diags d;
	hilo_diags_init(&d);
	size_t len;
	char *text = cli_read_input(path, "'HloModule'", &len, &d);
	if (!text) {
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
		return;
	}
	r->bytes = len;
	r->read_ok = true;
	char *copy = malloc(len + 1);
	volatile unsigned sum = 0;
	BEST_OF(min_time, r->read_s, read_again(path, copy, len));
	BEST_OF(min_time, r->copy_s, {
		memcpy(copy, text, len);
		unsigned s = 0;
		for (size_t k = 0; k < len; k += 64)
			s += (unsigned char)copy[k];
		sum += s;
	});
	r->touched = sum;
	free(copy);

	hilo_module *m = hilo_parse_text(text, len, path, &d);
	if (!m) {
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
		free(text);
		return;
	}
	r->parsed = true;
	r->instrs = hilo_module_instr_count(m);
	hilo_module_destroy(m);
	BEST_OF(min_time, r->parse_s, {
		hilo_diags pd;
		hilo_diags_init(&pd);
		hilo_module_destroy(hilo_parse_text(text, len, path, &pd));
		hilo_diags_free(&pd);
	});
	m = hilo_parse_text(text, len, path, &d);
	BEST_OF(min_time, r->verify_s, {
		hilo_diags vd;
		hilo_diags_init(&vd);
		hilo_verify(m, path, &vd);
		hilo_diags_free(&vd);
	});
	hilo_buf out;
	hilo_buf_init(&out);
	BEST_OF(min_time, r->print_s, {
		out.len = 0;
		hilo_print_text(&out, m, HILO_STYLE_AUTO);
	});
	r->out_bytes = out.len;
	r->same = out.len == len && memcmp(out.data, text, len) == 0;
	/* peak RSS of the text path, before the proto buffers below */
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	r->peak_rss_kb = ru.ru_maxrss;
	/* binary HloModuleProto: write, then read back (MB/s of proto bytes) */
	hilo_buf pb;
	hilo_buf_init(&pb);
	BEST_OF(min_time, r->pbw_s, {
		hilo_diags wd;
		hilo_diags_init(&wd);
		pb.len = 0;
		hilo_proto_write(&pb, m, &wd);
		hilo_diags_free(&wd);
	});
	r->pb_bytes = pb.len;
	BEST_OF(min_time, r->pbr_s, {
		hilo_diags rd;
		hilo_diags_init(&rd);
		hilo_module_destroy(hilo_proto_read(pb.data, pb.len, path, &rd));
		hilo_diags_free(&rd);
	});
	hilo_buf_free(&pb);
	hilo_buf_free(&out);
	hilo_module_destroy(m);
	hilo_diags_free(&d);
	free(text);
}

static double mbps(size_t bytes, double s)
{
	return s > 0 ? (double)bytes / s / 1e6 : 0;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

#define USAGE \
	"usage: hilo-bench [--min-time=SEC] [--tsv=FILE] [-h|--help] [--version] FILE...\n"

/* --help: what the tool does, every option with its default, the exit
 * status, the environment it reads, examples (man/hilo-bench.1 says the same). */
static void help(void)
{
	static const char *const text[] = {
		"Measures, for each HLO text FILE in a child process of its own, the throughput",
		"of the parser, verifier and printer and of the binary proto writer and reader,",
		"beside the read and memory-copy floors measured in the same run, and prints one",
		"table row per file: MB/s per phase, parsed instructions per second and peak RSS.",
		"",
		"Options (a value goes after '=' or in the next argument; '--' ends the options;",
		"long options are never abbreviated; one dash works too, as absl writes flags:",
		"-min-time=1):",
		"  --min-time=SEC            time each phase for at least SEC seconds, best run",
		"                            kept (at least 3 and at most 50 runs; default 0.3)",
		"  --tsv=FILE                also append one tab-separated row per file to FILE",
		"                            (file, bytes, instructions, seconds per phase, peak",
		"                            RSS bytes, round trip ok, proto bytes, proto write",
		"                            and read seconds)",
		"  -h, --help                print this help and exit",
		"  --version                 print the version and exit",
		"",
		"Exit status:",
		"  0  success",
		"  1  a file could not be read or parsed, or did not print back byte for byte",
		"     (noted in its row; the other files still run)",
		"  2  usage error: unknown option, bad option value, no FILE",
		"  3  a child process or pipe could not be created",
		"",
		"Environment:",
		"  HILO_FAIL_ALLOC=K         only in builds configured with",
		"                            -DHILO_FAULT_INJECTION=ON: the K-th memory",
		"                            allocation fails (for testing error paths)",
		"",
		"Examples:",
		"  hilo-bench examples/*.hlo",
		"  hilo-bench --min-time=1 --tsv=bench.tsv model.hlo",
	};
	fputs(USAGE "\n", stdout);
	for (size_t k = 0; k < sizeof text / sizeof *text; k++)
		puts(text[k]);
}

enum { O_MIN_TIME = CLI_LONG, O_TSV, O_VERSION };

static const struct option long_options[] = {
	{"min-time", required_argument, NULL, O_MIN_TIME},
	{"tsv", required_argument, NULL, O_TSV},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, O_VERSION},
	{NULL, 0, NULL, 0},
};

int main(int argc, char **argv)
{
	double min_time = 0.3;
	const char *tsv = NULL;
	cli c;
	cli_init(&c, "hilo-bench", USAGE, "h", long_options, argc, argv);
	for (int opt; (opt = cli_next(&c)) != -1;) {
		switch (opt) {
		case CLI_ERROR:
			return CLI_EXIT_USAGE;
		case O_MIN_TIME:
			if (!cli_double(&c, optarg, 0, 3600, &min_time))
				return CLI_EXIT_USAGE;
			break;
		case O_TSV:
			if (!*optarg)
				return cli_invalid(&c, optarg, "a file name");
			tsv = optarg;
			break;
		case 'h':
			help();
			return 0;
		case O_VERSION:
			printf("hilo-bench (hilo) %s\n", hilo_version());
			return 0;
		default:
			return cli_error(&c, "option %d not handled", opt); /* a bug */
		}
	}
	if (optind >= argc) {
		cli_error(&c, "no input file given");
		cli_usage(&c, stderr);
		return CLI_EXIT_USAGE;
	}
	FILE *tf = tsv ? fopen(tsv, "a") : NULL;
	if (tsv && !tf) {
		fprintf(stderr, "%s: error: cannot open: %s\n", tsv, strerror(errno));
		return 1;
	}
	printf("%-58s %8s %9s | %9s %9s | %8s %9s %8s %8s | %8s %8s | %8s %5s %s\n",
		"file", "MB", "instrs", "read", "copy", "parse", "Minstr/s", "verify", "print",
		"pb-write", "pb-read", "peakRSS", "xsize", "");
	printf("%-58s %8s %9s | %9s %9s | %8s %9s %8s %8s | %8s %8s | %8s %5s %s\n",
		"", "", "", "MB/s", "MB/s", "MB/s", "", "MB/s", "MB/s", "MB/s", "MB/s", "MB", "", "");
	int rc = 0;
	for (int k = optind; k < argc; k++) {
		int fds[2];
		if (pipe(fds) != 0)
			return 3;
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			close(fds[0]);
			result r;
			bench_file(argv[k], min_time, &r);
			ssize_t w = write(fds[1], &r, sizeof r);
			_exit(w == (ssize_t)sizeof r ? 0 : 1);
		}
		close(fds[1]);
		result r;
		memset(&r, 0, sizeof r);
		ssize_t got = pid > 0 ? read(fds[0], &r, sizeof r) : -1;
		close(fds[0]);
		int st = 0;
		if (pid > 0)
			waitpid(pid, &st, 0);
		if (got != (ssize_t)sizeof r || !r.parsed) {
			printf("%-58s %8.2f  FAILED (%s)\n", base_name(argv[k]), (double)r.bytes / 1e6,
				got != (ssize_t)sizeof r ? "crashed" : !r.read_ok ? "cannot read" : "parse error");
			rc = 1;
			continue;
		}
		printf("%-58s %8.2f %9llu | %9.0f %9.0f | %8.1f %9.2f %8.1f %8.1f | %8.1f %8.1f | %8.1f %5.1f %s\n",
			base_name(argv[k]), (double)r.bytes / 1e6, (unsigned long long)r.instrs,
			mbps(r.bytes, r.read_s), mbps(r.bytes, r.copy_s),
			mbps(r.bytes, r.parse_s), r.parse_s > 0 ? (double)r.instrs / r.parse_s / 1e6 : 0,
			mbps(r.bytes, r.verify_s), mbps(r.out_bytes, r.print_s),
			mbps(r.pb_bytes, r.pbw_s), mbps(r.pb_bytes, r.pbr_s),
			(double)r.peak_rss_kb / 1024, (double)r.peak_rss_kb * 1024 / (double)r.bytes,
			r.same ? "" : "(printout differs from input)");
		if (!r.same)
			rc = 1;
		if (tf)
			fprintf(tf, "%s\t%zu\t%llu\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%ld\t%d\t%zu\t%.6f\t%.6f\n", base_name(argv[k]),
				r.bytes, (unsigned long long)r.instrs, r.read_s, r.copy_s, r.parse_s,
				r.verify_s, r.print_s, r.peak_rss_kb * 1024, r.same ? 1 : 0,
				r.pb_bytes, r.pbw_s, r.pbr_s);
		fflush(stdout);
	}
	if (tf)
		fclose(tf);
	return rc;
}
