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
 * Output: one "locklat-stats workload=squashfs ..." line (see workload.h).
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
	OPT_DIR = 1,
	OPT_DURATION,
	OPT_FILES,
	OPT_GENERATE,
	OPT_HELP,
	OPT_SEED,
	OPT_SIZE,
	OPT_THREADS,
};

#define MAX_FILES 1024
#define READ_CHUNK (1 << 20)

struct reader {
	unsigned int index;
	uint64_t deadline_ns;
	uint64_t bytes;
	uint64_t files;
	int error;
};

static char *file_paths[MAX_FILES];
static unsigned int file_count;

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: locklat-squashfs --dir DIR [--threads N] [--duration D]\n"
		"       locklat-squashfs --generate DIR [--files N] [--size BYTES] [--seed S]\n");
	exit(status);
}

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
	unsigned int next = r->index;

	if (!buf) {
		r->error = ENOMEM;
		return NULL;
	}
	while (!wl_done(r->deadline_ns)) {
		const char *path = file_paths[next++ % file_count];
		int fd = open(path, O_RDONLY);
		ssize_t got = 0;

		if (fd < 0) {
			r->error = errno;
			break;
		}
		/* Drop this file's cached pages: the next read must decompress. */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		while (!wl_stop && (got = read(fd, buf, READ_CHUNK)) > 0)
			r->bytes += (uint64_t)got;
		if (got < 0 && errno != EINTR)
			r->error = errno;
		close(fd);
		r->files++;
		if (r->error)
			break;
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "dir", required_argument, NULL, OPT_DIR },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "files", required_argument, NULL, OPT_FILES },
		{ "generate", required_argument, NULL, OPT_GENERATE },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *gen_dir = NULL;
	uint64_t threads = 0, duration_ns = 10000000000ULL;
	uint64_t files = 8, size = 4 << 20, seed = 1;
	uint64_t t0, bytes = 0, nfiles = 0;
	struct reader *readers;
	unsigned int i;
	int c;

	ll_prog = "locklat-squashfs";
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_DIR:
			dir = optarg;
			break;
		case OPT_DURATION:
			if (!parse_duration_ns(optarg, &duration_ns))
				err_exit(LL_EXIT_USAGE, "--duration wants a positive time like 10 or 500ms, got '%s'", optarg);
			break;
		case OPT_FILES:
			if (!parse_u64(optarg, 1, MAX_FILES, &files))
				err_exit(LL_EXIT_USAGE, "--files wants 1..%d, got '%s'", MAX_FILES, optarg);
			break;
		case OPT_GENERATE:
			gen_dir = optarg;
			break;
		case OPT_HELP:
			usage(LL_EXIT_OK);
			break;
		case OPT_SEED:
			if (!parse_u64(optarg, 0, UINT64_MAX, &seed))
				err_exit(LL_EXIT_USAGE, "--seed wants a whole number, got '%s'", optarg);
			break;
		case OPT_SIZE:
			if (!parse_u64(optarg, 1, 1ULL << 32, &size))
				err_exit(LL_EXIT_USAGE, "--size wants 1..4294967296 bytes, got '%s'", optarg);
			break;
		case OPT_THREADS:
			if (!parse_u64(optarg, 1, 1024, &threads))
				err_exit(LL_EXIT_USAGE, "--threads wants 1..1024, got '%s'", optarg);
			break;
		default:
			usage(LL_EXIT_USAGE);
		}
	}
	if (optind != argc)
		err_exit(LL_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (gen_dir && dir)
		err_exit(LL_EXIT_USAGE, "--generate and --dir exclude each other");
	if (gen_dir)
		return generate(gen_dir, files, size, seed);
	if (!dir)
		usage(LL_EXIT_USAGE);
	if (!threads)
		threads = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);

	files_scan(dir);
	wl_signals_install();
	readers = calloc(threads, sizeof(*readers));
	if (!readers)
		err_exit(LL_EXIT_FAIL, "out of memory");
	t0 = now_ns();
	for (i = 0; i < threads; i++) {
		readers[i].index = i;
		readers[i].deadline_ns = t0 + duration_ns;
	}
	wl_run_threads((unsigned int)threads, reader_main, readers, sizeof(*readers));
	for (i = 0; i < threads; i++) {
		if (readers[i].error)
			err_exit(LL_EXIT_FAIL, "reader %u: %s", i, strerror(readers[i].error));
		bytes += readers[i].bytes;
		nfiles += readers[i].files;
	}
	double secs = (double)(now_ns() - t0) / 1e9;
	wl_stats("squashfs", "threads=%llu seconds=%.3f files_read=%llu bytes_read=%llu mib_per_s=%.2f",
		 (unsigned long long)threads, secs, (unsigned long long)nfiles,
		 (unsigned long long)bytes, secs > 0 ? (double)bytes / 1048576.0 / secs : 0.0);
	free(readers);
	return 0;
}
