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
	OPT_FILE_DIR = WL_OPT_OWN,
	OPT_MIB,
};

static const char usage_text[] =
	"usage: locklat-lru [--threads N] [--duration D] [--mib M] [--file DIR]\n";

#define PAGE 4096UL

struct worker {
	struct wl_worker base;
	uint64_t cycles, pages, compactions;
	uint64_t checksum;
};

static size_t bytes = 8UL << 20;
static const char *file_dir = "/tmp";

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
	int fd = file_make(file_dir, w->base.index, bytes / 4, path, sizeof(path));

	if (fd < 0) {
		w->base.error = errno ? errno : EIO;
		w->base.what = "create the tmpfs file";
		return NULL;
	}
	while (!wl_done(w->base.deadline_ns)) {
		char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		size_t off, half = bytes / 2;

		if (mem == MAP_FAILED) {
			w->base.error = errno;
			w->base.what = "mmap";
			break;
		}
		for (off = 0; off < bytes; off += PAGE)
			mem[off] = (char)off;
		if (madvise(mem, half, MADV_COLD) || madvise(mem + half, half, MADV_FREE)) {
			w->base.error = errno;
			w->base.what = "madvise(MADV_COLD/MADV_FREE)";
			munmap(mem, bytes);
			break;
		}
		munmap(mem, bytes);
		if (file_read_twice(fd, bytes / 4, &w->checksum)) {
			w->base.error = errno ? errno : EIO;
			w->base.what = "read the tmpfs file";
			break;
		}
		w->pages += bytes / PAGE;
		w->cycles++;
		if (w->base.index == 0 && now_ns() >= next_compact) {
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
		WL_COMMON_LONG_OPTIONS,
		{ "file", required_argument, NULL, OPT_FILE_DIR },
		{ "mib", required_argument, NULL, OPT_MIB },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t mib, cycles = 0, pages = 0, compactions = 0, checksum = 0;
	struct wl_common wc;
	struct worker *workers;
	unsigned int i;
	int c;

	ll_prog = "locklat-lru";
	wl_common_init(&wc);
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		if (wl_common_option(&wc, c, optarg, usage_text))
			continue;
		switch (c) {
		case OPT_FILE_DIR:
			file_dir = optarg;
			break;
		case OPT_MIB:
			if (!parse_u64(optarg, 1, 1024, &mib))
				err_exit(LL_EXIT_USAGE, "--mib wants 1..1024, got '%s'", optarg);
			bytes = mib << 20;
			break;
		default:
			wl_unknown_option(argv);
		}
	}
	if (access(file_dir, W_OK))
		err_exit_errno(LL_EXIT_FAIL, "--file %s", file_dir);
	wl_start(&wc, argc, argv);
	workers = wl_workers_run(&wc, sizeof(*workers), worker_main);
	for (i = 0; i < wc.threads; i++) {
		cycles += workers[i].cycles;
		pages += workers[i].pages;
		compactions += workers[i].compactions;
		checksum += workers[i].checksum;
	}
	wl_stats("lru", "threads=%llu seconds=%.3f cycles=%llu anon_pages=%llu compactions=%llu checksum=%llu",
		 (unsigned long long)wc.threads, wl_elapsed_s(&wc), (unsigned long long)cycles,
		 (unsigned long long)pages, (unsigned long long)compactions,
		 (unsigned long long)checksum);
	free(workers);
	return 0;
}
