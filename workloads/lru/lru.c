// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-lru - exercise the per-CPU folio batches of mm/swap.c.
 *
 * Usage: locklat-lru [--cpus C] [--tasks T] [--fifo-prio P] [--pace-us U]
 *                    [--duration D] [--mib M] [--file DIR]
 *
 * T tasks per CPU (pinned, the first SCHED_FIFO: workload.h) each repeat a
 * cycle over M MiB, each step landing in one of the batches that
 * cpu_fbatches.lock / .lock_irq protect (the 2020 series' mm/swap patch),
 * which the tasks of a CPU share:
 *   write anonymous pages         folio_add_lru()        -> lru_add batch
 *   MADV_COLD half of them        folio_deactivate()     -> lru_deactivate
 *   MADV_PAGEOUT a quarter        swap-out to a virtio disk; the write ends in
 *                                 the disk's interrupt with the folio back on
 *                                 the LRU: folio_rotate_reclaimable()
 *                                 -> lru_move_tail (interrupts off)
 *   MADV_FREE the other half      folio_mark_lazyfree()  -> lru_lazyfree
 *   read a tmpfs file twice       folio_mark_accessed()  -> folio_activate()
 *   read the anonymous pages back (the paged-out quarter swaps in)
 *   munmap                        lru_add_drain()
 * and task 0, once a second, grows the hugetlb pool past the free 2 MiB
 * blocks (counted in /proc/buddyinfo) after fragmenting 32 MiB of its own
 * (every other page freed):
 * the order-9 allocations compact, and order > 0 compaction drains the
 * batches with lru_add_drain_cpu_zone() each time its migration scanner
 * leaves a block it migrated from. The pool is emptied again at once.
 *
 * Checks (workload.h, integrity): every page written holds a pattern of its
 * own (verify.h: its task, cycle and place), and every page read back is
 * compared with it word by word: the anonymous pages after MADV_COLD and
 * MADV_PAGEOUT (swapped in again) as written, after MADV_FREE as written or
 * zeros (reclaim may drop a lazily freed page); the tmpfs file's pages on
 * each read. A read-back that fails (SIGBUS) is an error too. Task 0 each
 * second and the program at its end check the LRU page counters of
 * /proc/vmstat (nr_{in,}active_{anon,file}, nr_unevictable): none, nor
 * their sum, above the memory there is (MemTotal), as a folio lost or added
 * twice by a batch, or a counter wrapped below zero, would make them. A
 * check that fails is counted and the cycle goes on.
 *
 * Needs root, active swap whose writes complete asynchronously (the guest's
 * "swapdisk" setup; zram completes them before reclaim puts the folio back)
 * and CONFIG_HUGETLBFS. The classic LRU must run (no MGLRU): with lru_gen on,
 * folio_mark_accessed() skips the batch.
 *
 * Output: progress lines, one op per step of the cycle (the writes, each
 * madvise, the file reads, the read-back, munmap, a hugetlb round; see
 * workload.h), then the locklat-integrity line and one
 * "locklat-stats workload=lru ..." line, with the vmstat deltas
 * that show the paths ran (pswpout, pgrotated, compact_stall,
 * compact_migrate_scanned). Exit 0, 1 error, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "locklat.h"
#include "procfs.h"
#include "verify.h"
#include "workload.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

enum option_values {
	OPT_FILE_DIR = WL_OPT_OWN,
	OPT_MIB,
};

static const char usage_text[] =
	"usage: locklat-lru [options] [--mib M] [--file DIR]\n" WL_COMMON_USAGE
	"  --mib M         anonymous memory each task cycles through (default 8)\n"
	"  --file DIR      where each task's tmpfs file goes (default /tmp)\n";

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
	struct hugetlb_rounds rounds;	/* task 0 only */
	uint64_t anon_wrong, file_wrong;	/* pages read back that differ */
	uint64_t sigbus;		/* read-backs that failed */
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

/* The seed of task index's tmpfs file, and of its anonymous pages in cycle. */
static uint64_t file_seed(unsigned int index)
{
	return lru_page_key(index + 1ULL, UINT64_MAX);
}

static uint64_t anon_seed(unsigned int index, uint64_t cycle)
{
	return lru_page_key(index + 1ULL, cycle);
}

/*
 * A tmpfs file of bytes, each page holding its pattern: its pages sit on the
 * LRU like any page cache page.
 */
static int file_make(const char *dir, unsigned int index, size_t bytes, char *path, size_t size)
{
	uint64_t buf[PAGE / 8];
	size_t done;
	int fd;

	snprintf(path, size, "%s/locklat-lru-%u", dir, index);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	for (done = 0; done < bytes; done += PAGE) {
		lru_page_fill(buf, PAGE, lru_page_key(file_seed(index), done / PAGE));
		if (write(fd, buf, PAGE) != (ssize_t)PAGE) {
			close(fd);
			unlink(path);
			return -1;
		}
	}
	return fd;
}

/* Read the file twice, checking every page; -1 if a read fails. */
static int file_read_twice(struct worker *w, int fd, size_t bytes)
{
	uint64_t buf[PAGE / 8], seed = file_seed(w->base.index), right = 0;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		size_t off;

		for (off = 0; off < bytes; off += PAGE) {
			uint64_t key = lru_page_key(seed, off / PAGE), got;
			char how[200];
			long bad;

			if (pread(fd, buf, sizeof(buf), (off_t)off) != (ssize_t)sizeof(buf)) {
				wl_integrity_checked(right);
				return -1;
			}
			bad = lru_page_check(buf, PAGE, key, false, &got);
			if (bad < 0) {
				right++;
				continue;
			}
			w->file_wrong++;
			lru_page_explain(buf, PAGE, key, false, bad, seed, bytes / PAGE, got, how, sizeof(how));
			wl_integrity_error("task %u tmpfs page %zu, read %d: bytes %ld..%ld differ from what was written (%s)",
					   w->base.index, off / PAGE, pass + 1, bad, bad + 7, how);
		}
	}
	wl_integrity_checked(right);
	return 0;
}

/* What a page of the mapping went through, for the error message. */
static const char *anon_step(size_t page, size_t pages)
{
	if (page < pages / 4)
		return "MADV_COLD, MADV_PAGEOUT, swapped in";
	return page < pages / 2 ? "MADV_COLD" : "MADV_FREE";
}

/*
 * Read the cycle's mapping back, page by page, each against its pattern:
 * the first half as written, the second (MADV_FREE) as written or zeros.
 * A failed read (SIGBUS) is one error and ends the check.
 */
static void anon_check(struct worker *w, const char *mem, uint64_t seed)
{
	size_t pages = bytes / PAGE;
	volatile uint64_t wrong = 0;
	volatile size_t p = 0;
	sigjmp_buf env;

	wl_sigbus_return = &env;
	if (sigsetjmp(env, 1)) {
		wl_sigbus_return = NULL;
		w->sigbus++;
		wl_integrity_checked(p - wrong);
		wl_integrity_error("task %u cycle %llu anonymous page %zu (%s): reading it back failed (SIGBUS)",
				   w->base.index, (unsigned long long)w->cycles, (size_t)p,
				   anon_step(p, pages));
		w->anon_wrong += wrong + 1;
		return;
	}
	for (p = 0; p < pages; p++) {
		uint64_t key = lru_page_key(seed, p), got;
		bool zero_ok = p >= pages / 2;
		long bad = lru_page_check(mem + p * PAGE, PAGE, key, zero_ok, &got);
		char how[200];

		if (bad < 0)
			continue;
		wrong++;
		lru_page_explain(mem + p * PAGE, PAGE, key, zero_ok, bad, seed, pages, got, how, sizeof(how));
		wl_integrity_error("task %u cycle %llu anonymous page %zu (%s): bytes %ld..%ld differ from what was written (%s)",
				   w->base.index, (unsigned long long)w->cycles, (size_t)p,
				   anon_step(p, pages), bad, bad + 7, how);
	}
	wl_sigbus_return = NULL;
	wl_integrity_checked(pages - wrong);
	w->anon_wrong += wrong;
}

/* What the CPUs' vmstat deltas not yet folded in may add: 125 pages a counter a CPU at most. */
static uint64_t counter_slack(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	return (uint64_t)(cpus > 0 ? cpus : 1) * 125 * LRU_COUNTERS;
}

/* Check the LRU counters now (when says when, for the message); nothing if unreadable. */
static void counters_check(const char *when)
{
	uint64_t memtotal = meminfo_kib("/proc/meminfo", "MemTotal") / (PAGE >> 10);
	struct lru_counters lc;
	char why[256];

	if (!memtotal || lru_counters_read("/proc/vmstat", &lc))
		return;
	if (lru_counters_sane(&lc, memtotal, counter_slack(), why, sizeof(why)))
		wl_integrity_checked(1);
	else
		wl_integrity_error("LRU counters %s: %s", when, why);
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

/* Between two steps of the cycle: one op of progress (workload.h), and the pace. */
static void step_done(struct worker *w)
{
	wl_progress(1);
	wl_pace(&w->base);
}

/* One madvise() step of the cycle, a step done when it is. */
static int advise(struct worker *w, char *addr, size_t len, int advice)
{
	if (madvise(addr, len, advice))
		return -1;
	step_done(w);
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
		uint64_t seed = anon_seed(w->base.index, w->cycles);
		size_t p, half = bytes / 2;

		if (mem == MAP_FAILED) {
			w->base.error = errno;
			w->base.what = "mmap";
			break;
		}
		/* Not zero (swap_writepage() skips I/O for zero-filled pages), and each page its own. */
		for (p = 0; p < bytes / PAGE; p++)
			lru_page_fill(mem + p * PAGE, PAGE, lru_page_key(seed, p));
		step_done(w);
		if (advise(w, mem, half, MADV_COLD) || advise(w, mem, half / 2, MADV_PAGEOUT) ||
		    advise(w, mem + half, half, MADV_FREE)) {
			w->base.error = errno;
			w->base.what = "madvise(MADV_COLD/MADV_PAGEOUT/MADV_FREE)";
			munmap(mem, bytes);
			break;
		}
		/* The file first: the paged-out quarter's writeback has time to end. */
		if (file_read_twice(w, fd, bytes / 4)) {
			w->base.error = errno ? errno : EIO;
			w->base.what = "read the tmpfs file";
			munmap(mem, bytes);
			break;
		}
		step_done(w);
		anon_check(w, mem, seed);
		step_done(w);
		munmap(mem, bytes);
		step_done(w);
		w->pages += bytes / PAGE;
		w->cycles++;
		if (w->base.index == 0 && now_ns() >= next_round) {
			/* SIGTERM may cut a pool write short: that is the end, not an error. */
			if (hugetlb_round(&w->rounds, hugepage_order) && !wl_stop) {
				w->base.error = errno ? errno : EIO;
				w->base.what = "grow and empty the hugetlb pool";
				break;
			}
			counters_check("during the run");
			step_done(w);
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
	uint64_t mib, cycles = 0, pages = 0, anon_wrong = 0, file_wrong = 0, sigbus = 0, pool = 0;
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
	wl_sigbus_install();
	for (i = 0; i < ARRAY_SIZE(counters); i++)
		before[i] = wl_vmstat(counters[i]);
	counters_check("at the start");
	wl_start(&wc, argc, argv);
	workers = wl_workers_run(&wc, sizeof(*workers), worker_main);
	for (i = 0; i < wc.threads; i++) {
		cycles += workers[i].cycles;
		pages += workers[i].pages;
		anon_wrong += workers[i].anon_wrong;
		file_wrong += workers[i].file_wrong;
		sigbus += workers[i].sigbus;
	}
	counters_check("at the end");
	rounds = &workers[0].rounds;
	if (read_u64_file(nr_hugepages_path, &pool))
		pool = 0;
	wl_stats("lru", "seconds=%.3f cycles=%llu anon_pages=%llu "
		 "hugetlb_rounds=%llu free_blocks=%llu hugepages=%llu compacted_hugepages=%llu "
		 "pswpout=%llu pgrotated=%llu compact_stall=%llu compact_migrate_scanned=%llu "
		 "anon_wrong=%llu file_wrong=%llu readback_failures=%llu",
		 wl_elapsed_s(&wc), (unsigned long long)cycles,
		 (unsigned long long)pages, (unsigned long long)rounds->rounds,
		 (unsigned long long)rounds->free_blocks, (unsigned long long)rounds->allocated,
		 (unsigned long long)rounds->compacted,
		 (unsigned long long)(wl_vmstat(counters[0]) - before[0]),
		 (unsigned long long)(wl_vmstat(counters[1]) - before[1]),
		 (unsigned long long)(wl_vmstat(counters[2]) - before[2]),
		 (unsigned long long)(wl_vmstat(counters[3]) - before[3]),
		 (unsigned long long)anon_wrong, (unsigned long long)file_wrong,
		 (unsigned long long)sigbus);
	free(workers);
	/* After the statistics: the run's data checks are in them whatever this says. */
	if (pool)
		err_exit(LL_EXIT_FAIL, "the hugetlb pool still holds %llu pages", (unsigned long long)pool);
	return 0;
}
