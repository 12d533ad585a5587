// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-lru - exercise the per-CPU folio batches of mm/swap.c.
 *
 * Usage: locklat-lru [--threads N] [--duration D] [--mib M] [--file DIR]
 *
 * Each thread repeats a cycle over M MiB, each step landing in one of the
 * batches that cpu_fbatches.lock / .lock_irq protect (the 2020 series' mm/swap
 * patch):
 *   fault in anonymous pages      folio_add_lru()        -> lru_add batch
 *   MADV_COLD half of them        folio_deactivate()     -> lru_deactivate
 *   MADV_PAGEOUT a quarter        swap-out to a virtio disk; the write ends in
 *                                 the disk's interrupt with the folio back on
 *                                 the LRU: folio_rotate_reclaimable()
 *                                 -> lru_move_tail (interrupts off)
 *   MADV_FREE the other half      folio_mark_lazyfree()  -> lru_lazyfree
 *   munmap                        lru_add_drain()
 *   read a tmpfs file twice       folio_mark_accessed()  -> folio_activate()
 * and thread 0, once a second, grows the hugetlb pool past the free 2 MiB
 * blocks (counted in /proc/buddyinfo) after fragmenting 32 MiB of its own
 * (every other page freed):
 * the order-9 allocations compact, and order > 0 compaction drains the
 * batches with lru_add_drain_cpu_zone() each time its migration scanner
 * leaves a block it migrated from. The pool is emptied again at once.
 *
 * Needs root, active swap whose writes complete asynchronously (the guest's
 * "swapdisk" setup; zram completes them before reclaim puts the folio back)
 * and CONFIG_HUGETLBFS. The classic LRU must run (no MGLRU): with lru_gen on,
 * folio_mark_accessed() skips the batch.
 *
 * Output: progress lines, one op per step of the cycle (fault-in, each
 * madvise, munmap, the file reads, a hugetlb round; see workload.h), then one
 * "locklat-stats workload=lru ..." line, with the vmstat deltas
 * that show the paths ran (pswpout, pgrotated, compact_stall,
 * compact_migrate_scanned). Exit 0, 1 error, 2 usage.
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
#include "procfs.h"
#include "workload.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

enum option_values {
	OPT_FILE_DIR = WL_OPT_OWN,
	OPT_MIB,
};

static const char usage_text[] =
	"usage: locklat-lru [--threads N] [--duration D] [--mib M] [--file DIR]\n";

#define PAGE 4096UL
/*
 * What thread 0 fragments before each hugetlb round: 16 MiB of holes, from
 * which compaction makes the POOL_EXTRA hugepages asked for beyond the free
 * 2 MiB blocks. The holes sit on the per-CPU page lists at first (not in
 * MemFree); the allocation's reclaim step drains them, and then compacts.
 * __GFP_RETRY_MAYFAIL never calls the OOM killer, and the pool is emptied
 * right after.
 */
#define FRAGMENT_BYTES (32UL << 20)
#define POOL_EXTRA 4

static const char nr_hugepages_path[] = "/proc/sys/vm/nr_hugepages";

struct hugetlb_rounds {
	uint64_t rounds;
	uint64_t free_blocks;	/* free order-9 blocks before each round, summed */
	uint64_t allocated;	/* hugepages the pool got, summed */
	uint64_t compacted;	/* of those, beyond the free blocks: made by compaction */
};

struct worker {
	struct wl_worker base;
	uint64_t cycles, pages;
	struct hugetlb_rounds rounds;	/* thread 0 only */
	uint64_t checksum;
};

static size_t bytes = 8UL << 20;
static const char *file_dir = "/tmp";
static unsigned int hugepage_order;

static int proc_write_u64(const char *path, uint64_t value)
{
	char buf[32];
	int fd = open(path, O_WRONLY), len, ok;

	if (fd < 0)
		return -1;
	len = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)value);
	ok = write(fd, buf, (size_t)len) == len;
	close(fd);
	return ok ? 0 : -1;
}

/* Touch bytes of fresh anonymous memory and free every other page. */
static char *fragment_memory(size_t bytes)
{
	char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t off;

	if (mem == MAP_FAILED)
		return NULL;
	for (off = 0; off < bytes; off += PAGE)
		mem[off] = 1;
	for (off = PAGE; off < bytes; off += 2 * PAGE)
		madvise(mem + off, PAGE, MADV_DONTNEED);
	return mem;
}

/*
 * One round of order-9 compaction: ask the hugetlb pool for the free 2 MiB
 * blocks plus POOL_EXTRA, note what it got, and empty it again.
 */
static int hugetlb_round(struct hugetlb_rounds *r, unsigned int order)
{
	char *fragment = fragment_memory(FRAGMENT_BYTES);
	uint64_t free_blocks, want, got = 0;
	int ret = -1;

	int asked, counted;

	if (!fragment)
		return -1;
	/* Each step is progress: on one vCPU a round can take over a second. */
	wl_progress(1);
	free_blocks = buddy_free_blocks("/proc/buddyinfo", order);
	want = free_blocks + POOL_EXTRA;
	asked = proc_write_u64(nr_hugepages_path, want);
	wl_progress(1);
	counted = read_u64_file(nr_hugepages_path, &got);
	/* Empty the pool whatever happened: its pages are the guest's memory. */
	if (!proc_write_u64(nr_hugepages_path, 0) && !asked && !counted) {
		r->rounds++;
		r->free_blocks += free_blocks;
		r->allocated += got;
		r->compacted += got > free_blocks ? got - free_blocks : 0;
		ret = 0;
	}
	munmap(fragment, FRAGMENT_BYTES);
	return ret;
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

/*
 * The pool must exist (CONFIG_HUGETLBFS), be writable (root) and be empty: the
 * rounds empty it, which would take pages from whoever put them there.
 */
static void hugetlb_check(void)
{
	uint64_t pool, hugepage_kib;

	if (access(nr_hugepages_path, F_OK))
		err_exit(LL_EXIT_FAIL, "no %s: a kernel without CONFIG_HUGETLBFS, which the order-9 compaction step needs",
			 nr_hugepages_path);
	if (access(nr_hugepages_path, W_OK))
		err_exit_errno(LL_EXIT_FAIL, "%s (run as root)", nr_hugepages_path);
	if (read_u64_file(nr_hugepages_path, &pool))
		err_exit_errno(LL_EXIT_FAIL, "read %s", nr_hugepages_path);
	if (pool)
		err_exit(LL_EXIT_FAIL, "the hugetlb pool is in use (nr_hugepages=%llu); this workload empties it",
			 (unsigned long long)pool);
	hugepage_kib = meminfo_kib("/proc/meminfo", "Hugepagesize");
	if (hugepage_kib < 8 || (hugepage_kib & (hugepage_kib - 1)))
		err_exit(LL_EXIT_FAIL, "/proc/meminfo: Hugepagesize %llu kB is not a power of two",
			 (unsigned long long)hugepage_kib);
	for (hugepage_order = 0; (PAGE >> 10) << hugepage_order < hugepage_kib; hugepage_order++)
		;
}

/* One madvise() step of the cycle, counted as progress when it is done. */
static int advise(char *addr, size_t len, int advice)
{
	if (madvise(addr, len, advice))
		return -1;
	wl_progress(1);
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	char path[PATH_MAX];
	uint64_t next_round = now_ns();
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
		/* Not zero: swap_writepage() skips I/O for zero-filled pages. */
		for (off = 0; off < bytes; off += PAGE)
			mem[off] = (char)(1 + off / PAGE % 255);
		/* Each step of the cycle done is one op of progress (workload.h). */
		wl_progress(1);
		if (advise(mem, half, MADV_COLD) || advise(mem, half / 2, MADV_PAGEOUT) ||
		    advise(mem + half, half, MADV_FREE)) {
			w->base.error = errno;
			w->base.what = "madvise(MADV_COLD/MADV_PAGEOUT/MADV_FREE)";
			munmap(mem, bytes);
			break;
		}
		munmap(mem, bytes);
		wl_progress(1);
		if (file_read_twice(fd, bytes / 4, &w->checksum)) {
			w->base.error = errno ? errno : EIO;
			w->base.what = "read the tmpfs file";
			break;
		}
		wl_progress(1);
		w->pages += bytes / PAGE;
		w->cycles++;
		if (w->base.index == 0 && now_ns() >= next_round) {
			/* SIGTERM may cut a pool write short: that is the end, not an error. */
			if (hugetlb_round(&w->rounds, hugepage_order) && !wl_stop) {
				w->base.error = errno ? errno : EIO;
				w->base.what = "grow and empty the hugetlb pool";
				break;
			}
			wl_progress(1);
			next_round = now_ns() + 1000000000ULL;
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
	static const char *const counters[] = {
		"pswpout", "pgrotated", "compact_stall", "compact_migrate_scanned",
	};
	uint64_t mib, cycles = 0, pages = 0, checksum = 0, pool = 0;
	uint64_t before[ARRAY_SIZE(counters)];
	struct hugetlb_rounds *rounds;
	struct wl_common wc;
	struct worker *workers;
	size_t i;
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
	hugetlb_check();
	if (!wl_swap_active())
		err_exit(LL_EXIT_FAIL, "no active swap: MADV_PAGEOUT would leave the pages in place (the swapdisk setup gives one)");
	for (i = 0; i < ARRAY_SIZE(counters); i++)
		before[i] = wl_vmstat(counters[i]);
	wl_start(&wc, argc, argv);
	workers = wl_workers_run(&wc, sizeof(*workers), worker_main);
	for (i = 0; i < wc.threads; i++) {
		cycles += workers[i].cycles;
		pages += workers[i].pages;
		checksum += workers[i].checksum;
	}
	rounds = &workers[0].rounds;
	if (!read_u64_file(nr_hugepages_path, &pool) && pool)
		err_exit(LL_EXIT_FAIL, "the hugetlb pool still holds %llu pages", (unsigned long long)pool);
	wl_stats("lru", "threads=%llu seconds=%.3f cycles=%llu anon_pages=%llu "
		 "hugetlb_rounds=%llu free_blocks=%llu hugepages=%llu compacted_hugepages=%llu "
		 "pswpout=%llu pgrotated=%llu compact_stall=%llu compact_migrate_scanned=%llu checksum=%llu",
		 (unsigned long long)wc.threads, wl_elapsed_s(&wc), (unsigned long long)cycles,
		 (unsigned long long)pages, (unsigned long long)rounds->rounds,
		 (unsigned long long)rounds->free_blocks, (unsigned long long)rounds->allocated,
		 (unsigned long long)rounds->compacted,
		 (unsigned long long)(wl_vmstat(counters[0]) - before[0]),
		 (unsigned long long)(wl_vmstat(counters[1]) - before[1]),
		 (unsigned long long)(wl_vmstat(counters[2]) - before[2]),
		 (unsigned long long)(wl_vmstat(counters[3]) - before[3]),
		 (unsigned long long)checksum);
	free(workers);
	return 0;
}
