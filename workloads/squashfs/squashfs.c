// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-squashfs - drive the squashfs multi-CPU decompressor.
 *
 * Usage:
 *   locklat-squashfs --dir DIR [--threads N] [--duration D]
 *       In the guest: N readers loop over the files of a mounted squashfs
 *       image. Before each read a reader drops the file's page cache
 *       (POSIX_FADV_DONTNEED), so every read decompresses its blocks again
 *       through squashfs_decompress() in decompressor_multi_percpu.c, the
 *       section the 2020 series turned into a local_lock.
 *   locklat-squashfs --generate DIR [--files N] [--size BYTES] [--seed S]
 *       On the host: write N files of compressible, non-uniform text (word
 *       soup from a seeded PRNG) for mksquashfs. Same seed, same bytes.
 *
 * Output: progress lines, one op per read() that returned data (up to 1 MiB
 * decompressed), then one "locklat-stats workload=squashfs ..." line (see
 * workload.h).
 * Exit: 0 done, 1 error, 2 bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "locklat.h"
#include "workload.h"

enum option_values {
	OPT_DIR = WL_OPT_OWN,
	OPT_FILES,
	OPT_GENERATE,
	OPT_SEED,
	OPT_SIZE,
};

static const char usage_text[] =
	"usage: locklat-squashfs --dir DIR [--threads N] [--duration D]\n"
	"       locklat-squashfs --generate DIR [--files N] [--size BYTES] [--seed S]\n";

#define MAX_FILES 1024
#define READ_CHUNK (1 << 20)

struct reader {
	struct wl_worker base;
	uint64_t bytes;
	uint64_t files;
};

static char *file_paths[MAX_FILES];
static unsigned int file_count;

static int generate(const char *dir, uint64_t files, uint64_t size, uint64_t seed)
{
	char *buf = malloc(READ_CHUNK);
	uint64_t f;

	if (!buf)
		err_exit(LL_EXIT_FAIL, "out of memory");
	if (mkdir(dir, 0755) && errno != EEXIST)
		err_exit_errno(LL_EXIT_FAIL, "mkdir %s", dir);
	for (f = 0; f < files; f++) {
		char path[PATH_MAX];
		uint64_t done = 0, s = seed * 1000003ULL + f + 1;
		FILE *out;

		snprintf(path, sizeof(path), "%s/data-%03llu.txt", dir, (unsigned long long)f);
		out = fopen(path, "w");
		if (!out)
			err_exit_errno(LL_EXIT_FAIL, "create %s", path);
		while (done < size) {
			size_t n = size - done < READ_CHUNK ? (size_t)(size - done) : READ_CHUNK;

			wl_text_fill(buf, n, &s);
			if (fwrite(buf, 1, n, out) != n)
				err_exit_errno(LL_EXIT_FAIL, "write %s", path);
			done += n;
		}
		if (fclose(out))
			err_exit_errno(LL_EXIT_FAIL, "close %s", path);
	}
	free(buf);
	return 0;
}

static void files_scan(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		err_exit_errno(LL_EXIT_FAIL, "open %s (is the squashfs image mounted?)", dir);
	while ((de = readdir(d)) && file_count < MAX_FILES) {
		struct stat st;
		char *path;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
			err_exit(LL_EXIT_FAIL, "out of memory");
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
			file_paths[file_count++] = path;
		else
			free(path);
	}
	closedir(d);
	if (!file_count)
		err_exit(LL_EXIT_FAIL, "no regular files in %s", dir);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	char *buf = malloc(READ_CHUNK);
	unsigned int next = r->base.index;

	if (!buf) {
		r->base.error = ENOMEM;
		return NULL;
	}
	while (!wl_done(r->base.deadline_ns)) {
		const char *path = file_paths[next++ % file_count];
		int fd = open(path, O_RDONLY);
		ssize_t got = 0;

		if (fd < 0) {
			r->base.error = errno;
			r->base.what = path;
			break;
		}
		/* Drop this file's cached pages: the next read must decompress. */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		while (!wl_stop && (got = read(fd, buf, READ_CHUNK)) > 0) {
			r->bytes += (uint64_t)got;
			wl_progress(1);
		}
		if (got < 0 && errno != EINTR) {
			r->base.error = errno;
			r->base.what = path;
		}
		close(fd);
		r->files++;
		if (r->base.error)
			break;
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		WL_COMMON_LONG_OPTIONS,
		{ "dir", required_argument, NULL, OPT_DIR },
		{ "files", required_argument, NULL, OPT_FILES },
		{ "generate", required_argument, NULL, OPT_GENERATE },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *gen_dir = NULL;
	uint64_t files = 8, size = 4 << 20, seed = 1, bytes = 0, nfiles = 0;
	struct wl_common wc;
	struct reader *readers;
	unsigned int i;
	double secs;
	int c;

	ll_prog = "locklat-squashfs";
	wl_common_init(&wc);
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		if (wl_common_option(&wc, c, optarg, usage_text))
			continue;
		switch (c) {
		case OPT_DIR:
			dir = optarg;
			break;
		case OPT_FILES:
			if (!parse_u64(optarg, 1, MAX_FILES, &files))
				err_exit(LL_EXIT_USAGE, "--files wants 1..%d, got '%s'", MAX_FILES, optarg);
			break;
		case OPT_GENERATE:
			gen_dir = optarg;
			break;
		case OPT_SEED:
			if (!parse_u64(optarg, 0, UINT64_MAX, &seed))
				err_exit(LL_EXIT_USAGE, "--seed wants a whole number, got '%s'", optarg);
			break;
		case OPT_SIZE:
			if (!parse_u64(optarg, 1, 1ULL << 32, &size))
				err_exit(LL_EXIT_USAGE, "--size wants 1..4294967296 bytes, got '%s'", optarg);
			break;
		default:
			wl_unknown_option(argv);
		}
	}
	if (gen_dir && dir)
		err_exit(LL_EXIT_USAGE, "--generate and --dir exclude each other");
	if (gen_dir) {
		if (optind != argc)
			err_exit(LL_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
		return generate(gen_dir, files, size, seed);
	}
	if (!dir)
		err_exit(LL_EXIT_USAGE, "--dir or --generate is required (see --help)");

	files_scan(dir);
	wl_start(&wc, argc, argv);
	readers = wl_workers_run(&wc, sizeof(*readers), reader_main);
	for (i = 0; i < wc.threads; i++) {
		bytes += readers[i].bytes;
		nfiles += readers[i].files;
	}
	secs = wl_elapsed_s(&wc);
	wl_stats("squashfs", "threads=%llu seconds=%.3f files_read=%llu bytes_read=%llu mib_per_s=%.2f",
		 (unsigned long long)wc.threads, secs, (unsigned long long)nfiles,
		 (unsigned long long)bytes, secs > 0 ? (double)bytes / 1048576.0 / secs : 0.0);
	free(readers);
	return 0;
}
