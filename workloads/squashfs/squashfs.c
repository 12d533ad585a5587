// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-squashfs - drive the squashfs multi-CPU decompressor.
 *
 * Usage:
 *   locklat-squashfs --dir DIR [--cpus C] [--tasks T] [--fifo-prio P] [--pace-us U] [--duration D]
 *       In the guest: T readers per CPU (pinned, the first SCHED_FIFO:
 *       workload.h) loop over the files of a mounted squashfs image, the
 *       readers of a CPU over disjoint ones (readers.h).
 *       Before each read a reader drops the file's page cache
 *       (POSIX_FADV_DONTNEED), so every read decompresses its blocks again
 *       through squashfs_decompress() in decompressor_multi_percpu.c, the
 *       section the 2020 series turned into a local_lock: the readers of a
 *       CPU share its decompressor stream. Every 1 MiB chunk read is
 *       checked against the checksums recorded with the files (sums.h); a
 *       wrong chunk or a read error (a stream two readers used at once
 *       fails to decode) is an integrity error, and the reader goes on.
 *   locklat-squashfs --generate DIR [--files N] [--size BYTES] [--seed S]
 *       On the host: write N files of compressible, non-uniform text (word
 *       soup from a seeded PRNG) and their checksums for mksquashfs. Same
 *       seed, same bytes.
 *
 * Output: progress lines, one op per 1 MiB chunk read and checked, then the
 * locklat-integrity and "locklat-stats workload=squashfs ..." lines (see
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
#include "readers.h"
#include "sums.h"
#include "workload.h"

enum option_values {
	OPT_DIR = WL_OPT_OWN,
	OPT_FILES,
	OPT_GENERATE,
	OPT_SEED,
	OPT_SIZE,
};

static const char usage_text[] =
	"usage: locklat-squashfs --dir DIR [options]\n"
	"       locklat-squashfs --generate DIR [--files N] [--size BYTES] [--seed S]\n"
	WL_COMMON_USAGE;

#define MAX_FILES 1024
#define READ_CHUNK SUMS_CHUNK

struct reader {
	struct wl_worker base;
	uint64_t bytes;
	uint64_t files;
	uint64_t read_errors;
};

static char *file_paths[MAX_FILES];
static const struct sums_file *file_sums[MAX_FILES];
static unsigned int file_count;
static struct sums sums;
/* --tasks, for reader_file(). */
static unsigned int tasks_per_cpu;

static void files_scan(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		err_exit_errno(LL_EXIT_FAIL, "open %s (is the squashfs image mounted?)", dir);
	if (sums_load(&sums, dir))
		err_exit_errno(LL_EXIT_FAIL, "read %s/%s (an image built before checksums?)", dir, SUMS_FILE);
	while ((de = readdir(d)) && file_count < MAX_FILES) {
		struct stat st;
		char *path;

		if (de->d_name[0] == '.')
			continue;
		file_sums[file_count] = sums_find(&sums, de->d_name);
		if (!file_sums[file_count])
			err_exit(LL_EXIT_FAIL, "%s/%s has no checksum in %s", dir, de->d_name, SUMS_FILE);
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

/*
 * Read chunk index of fd (at its current offset) into buf: SUMS_CHUNK bytes,
 * or fewer at the end of the file. Returns the bytes read, or -1 with errno.
 */
static ssize_t chunk_read(int fd, char *buf)
{
	size_t have = 0;

	while (have < READ_CHUNK && !wl_stop) {
		ssize_t got = read(fd, buf + have, READ_CHUNK - have);

		if (got < 0)
			return -1;
		if (got == 0)
			break;
		have += (size_t)got;
	}
	return (ssize_t)have;
}

/* One file, chunk by chunk, each checked. */
static void file_read(struct reader *r, unsigned int file, char *buf)
{
	const struct sums_file *f = file_sums[file];
	char what[256];
	unsigned int index;
	int fd = open(file_paths[file], O_RDONLY);

	if (fd < 0) {
		r->base.error = errno;
		r->base.what = file_paths[file];
		return;
	}
	/* Drop this file's cached pages: the next read must decompress. */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	for (index = 0; index < f->nchunks && !wl_stop; index++) {
		ssize_t got = chunk_read(fd, buf);

		if (got < 0 && errno == EINTR)
			break;
		if (got < 0) {
			/* squashfs returns EIO when a block does not decode. */
			r->read_errors++;
			wl_integrity_error("%s chunk %u: read: %s", f->name, index, strerror(errno));
			break;
		}
		if (wl_stop)
			break;
		r->bytes += (uint64_t)got;
		if (sums_check(f, index, buf, (size_t)got, what, sizeof(what)))
			wl_integrity_error("%s", what);
		else
			wl_integrity_checked(1);
		wl_progress(1);
		wl_pace(&r->base);
	}
	close(fd);
	r->files++;
}

/* One reader: its files (reader_file()) in turn, until the deadline. */
static void *reader_main(void *arg)
{
	struct reader *r = arg;
	char *buf = malloc(READ_CHUNK);
	unsigned long long k = 0;

	if (!buf) {
		r->base.error = ENOMEM;
		return NULL;
	}
	while (!wl_done(r->base.deadline_ns) && !r->base.error)
		file_read(r, reader_file(r->base.task, tasks_per_cpu, r->base.cpu, k++, file_count), buf);
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
	uint64_t files = 8, size = 4 << 20, seed = 1, bytes = 0, nfiles = 0, read_errors = 0;
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
		if (sums_generate(gen_dir, files, size, seed))
			err_exit_errno(LL_EXIT_FAIL, "generate files in %s", gen_dir);
		return 0;
	}
	if (!dir)
		err_exit(LL_EXIT_USAGE, "--dir or --generate is required (see --help)");

	files_scan(dir);
	tasks_per_cpu = (unsigned int)wc.tasks;
	if (file_count < tasks_per_cpu)
		err_exit(LL_EXIT_USAGE, "--tasks %u needs as many files, one for each task of a CPU; %s has %u",
			 tasks_per_cpu, dir, file_count);
	wl_start(&wc, argc, argv);
	readers = wl_workers_run(&wc, sizeof(*readers), reader_main);
	for (i = 0; i < wc.threads; i++) {
		bytes += readers[i].bytes;
		nfiles += readers[i].files;
		read_errors += readers[i].read_errors;
	}
	secs = wl_elapsed_s(&wc);
	wl_stats("squashfs", "seconds=%.3f files_read=%llu bytes_read=%llu read_errors=%llu mib_per_s=%.2f",
		 secs, (unsigned long long)nfiles, (unsigned long long)bytes,
		 (unsigned long long)read_errors, secs > 0 ? (double)bytes / 1048576.0 / secs : 0.0);
	free(readers);
	sums_free(&sums);
	return 0;
}
