// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-lru - exercise the per-CPU folio batches of mm/swap.c.
 *
 * Usage: locklat-lru [--threads N] [--duration D] [--mib M] [--file DIR]
 *
 * Each thread repeats a cycle over M MiB, each step landing in one of the
 * batches that cpu_fbatches.lock protects (the 2020 series' mm/swap patch):
 *   fault in anonymous pages      folio_add_lru()        -> lru_add batch
 *   MADV_COLD half of them        folio_deactivate()     -> lru_deactivate
 *   MADV_FREE the other half      folio_mark_lazyfree()  -> lru_lazyfree
 *   munmap                        lru_add_drain()
 *   read a tmpfs file twice       folio_mark_accessed()  -> folio_activate()
 * and thread 0 asks for compaction once a second (/proc/sys/vm/compact_memory),
 * which drains the batches from compact_zone(). lru_add_drain_cpu_zone() is
 * only called by order > 0 compaction (a failing high-order allocation), which
 * this workload does not cause. The classic LRU must run (no MGLRU): with
 * lru_gen on, folio_mark_accessed() skips the batch.
 *
 * Output: one "locklat-stats workload=lru ..." line. Exit 0, 1 error, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "locklat.h"
#include "workload.h"

enum option_values {
	OPT_DURATION = 1,
	OPT_FILE_DIR,
	OPT_HELP,
	OPT_MIB,
	OPT_THREADS,
};

#define PAGE 4096UL

struct worker {
	unsigned int index;
	uint64_t deadline_ns;
	size_t bytes;
	const char *file_dir;
	uint64_t cycles, pages, compactions;
	uint64_t checksum;
	int error;
};

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: locklat-lru [--threads N] [--duration D] [--mib M] [--file DIR]\n");
	exit(status);
}

/* Write "1" to compact_memory: compact_zone() -> lru_add_drain_cpu_zone(). */
static int compact_now(void)
{
	int fd = open("/proc/sys/vm/compact_memory", O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, "1", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/* A tmpfs file of bytes: its pages sit on the LRU like any page cache page. */
static int file_make(const char *dir, unsigned int index, size_t bytes, char *path, size_t size)
{
	char *buf = malloc(PAGE);
	size_t done;
	int fd;

	if (!buf)
		return -1;
	snprintf(path, size, "%s/locklat-lru-%u", dir, index);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	memset(buf, 'x', PAGE);
	for (done = 0; done < bytes; done += PAGE)
		if (write(fd, buf, PAGE) != (ssize_t)PAGE) {
			close(fd);
			free(buf);
			return -1;
		}
	free(buf);
	return fd;
}

static int file_read_twice(int fd, size_t bytes, uint64_t *checksum)
{
	char buf[PAGE];
	int pass;

	for (pass = 0; pass < 2; pass++) {
		size_t off;

		for (off = 0; off < bytes; off += PAGE) {
			if (pread(fd, buf, sizeof(buf), (off_t)off) != (ssize_t)sizeof(buf))
				return -1;
			*checksum += (unsigned char)buf[0];
		}
	}
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	char path[PATH_MAX];
	uint64_t next_compact = now_ns();
	int fd = file_make(w->file_dir, w->index, w->bytes / 4, path, sizeof(path));

	if (fd < 0) {
		w->error = errno ? errno : EIO;
		return NULL;
	}
	while (!wl_done(w->deadline_ns)) {
		char *mem = mmap(NULL, w->bytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		size_t off, half = w->bytes / 2;

		if (mem == MAP_FAILED) {
			w->error = errno;
			break;
		}
		for (off = 0; off < w->bytes; off += PAGE)
			mem[off] = (char)off;
		if (madvise(mem, half, MADV_COLD) || madvise(mem + half, half, MADV_FREE)) {
			w->error = errno;
			munmap(mem, w->bytes);
			break;
		}
		munmap(mem, w->bytes);
		if (file_read_twice(fd, w->bytes / 4, &w->checksum)) {
			w->error = errno ? errno : EIO;
			break;
		}
		w->pages += w->bytes / PAGE;
		w->cycles++;
		if (w->index == 0 && now_ns() >= next_compact) {
			if (compact_now() == 0)
				w->compactions++;
			next_compact = now_ns() + 1000000000ULL;
		}
	}
	close(fd);
	unlink(path);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "file", required_argument, NULL, OPT_FILE_DIR },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "mib", required_argument, NULL, OPT_MIB },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t threads = 0, duration_ns = 10000000000ULL, mib = 8, t0;
	uint64_t cycles = 0, pages = 0, compactions = 0, checksum = 0;
	const char *file_dir = "/tmp";
	struct worker *workers;
	unsigned int i;
	int c;

	ll_prog = "locklat-lru";
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_DURATION:
			if (!parse_duration_ns(optarg, &duration_ns))
				err_exit(LL_EXIT_USAGE, "--duration wants a positive time like 10 or 500ms, got '%s'", optarg);
			break;
		case OPT_FILE_DIR:
			file_dir = optarg;
			break;
		case OPT_HELP:
			usage(LL_EXIT_OK);
			break;
		case OPT_MIB:
			if (!parse_u64(optarg, 1, 1024, &mib))
				err_exit(LL_EXIT_USAGE, "--mib wants 1..1024, got '%s'", optarg);
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
	if (access(file_dir, W_OK))
		err_exit_errno(LL_EXIT_FAIL, "--file %s", file_dir);
	if (!threads)
		threads = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);

	wl_signals_install();
	workers = calloc(threads, sizeof(*workers));
	if (!workers)
		err_exit(LL_EXIT_FAIL, "out of memory");
	t0 = now_ns();
	for (i = 0; i < threads; i++) {
		workers[i].index = i;
		workers[i].deadline_ns = t0 + duration_ns;
		workers[i].bytes = mib << 20;
		workers[i].file_dir = file_dir;
	}
	wl_run_threads((unsigned int)threads, worker_main, workers, sizeof(*workers));
	for (i = 0; i < threads; i++) {
		if (workers[i].error)
			err_exit(LL_EXIT_FAIL, "worker %u: %s", i, strerror(workers[i].error));
		cycles += workers[i].cycles;
		pages += workers[i].pages;
		compactions += workers[i].compactions;
		checksum += workers[i].checksum;
	}
	double secs = (double)(now_ns() - t0) / 1e9;
	wl_stats("lru", "threads=%llu seconds=%.3f cycles=%llu anon_pages=%llu compactions=%llu checksum=%llu",
		 (unsigned long long)threads, secs, (unsigned long long)cycles,
		 (unsigned long long)pages, (unsigned long long)compactions,
		 (unsigned long long)checksum);
	free(workers);
	return 0;
}
