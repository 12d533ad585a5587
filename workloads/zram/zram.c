// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-zram - push anonymous memory through zram swap and back.
 *
 * Usage: locklat-zram [--cpus C] [--tasks T] [--fifo-prio P] [--pace-us U]
 *                     [--duration D] [--mib-per-thread M]
 *
 * Needs a zram device as the only swap (the guest's "zram" setup does that).
 * T tasks per CPU (pinned, the first SCHED_FIFO: workload.h) each fill M MiB
 * of anonymous memory with compressible, non-uniform text, recording a hash
 * of every page, then loop: MADV_PAGEOUT a 1 MiB chunk (reclaim swaps it
 * out: zram compresses each page under zcomp_stream_get(), the per-CPU
 * stream section the 2020 series turned into a local_lock, which the tasks
 * of a CPU share) and read it again (swap-in: zram decompresses under the
 * same section), every page checked against its hash. A page that differs,
 * or a swap-in that fails (SIGBUS), is an integrity error; the chunk is
 * written afresh and the task goes on. No memory pressure is needed, so the
 * guest stays responsive and the amount swapped is known.
 *
 * Output: progress lines, one op per chunk paged out and read back (see
 * workload.h), then the locklat-integrity line and a "locklat-stats
 * workload=zram ..." line with pages swapped out and in (from /proc/vmstat)
 * and zram's stored data (from mm_stat): proof that the pages went through
 * zram. Exit: 0 done, 1 error (e.g. no swap), 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "locklat.h"
#include "pages.h"
#include "workload.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

enum option_values {
	OPT_MIB = WL_OPT_OWN,
};

static const char usage_text[] =
	"usage: locklat-zram [options] [--mib-per-thread M]\n" WL_COMMON_USAGE;

#define CHUNK (1UL << 20)
#define PAGES_PER_CHUNK (CHUNK / PAGE_BYTES)

struct worker {
	struct wl_worker base;
	size_t bytes;
	uint64_t chunks;
	uint64_t sigbus;		/* swap-ins that failed */
	uint64_t *page_hash;		/* what each page held when written */
};

static size_t bytes_per_thread = 32 * CHUNK;

/* orig_data_size and compr_data_size of zram0 (first two mm_stat fields). */
static void zram_mm_stat(uint64_t *orig, uint64_t *compr)
{
	FILE *f = fopen("/sys/block/zram0/mm_stat", "r");
	unsigned long long o = 0, c = 0;

	if (f) {
		if (fscanf(f, "%llu %llu", &o, &c) != 2)
			o = c = 0;
		fclose(f);
	}
	*orig = o;
	*compr = c;
}

/* Write chunk c of w afresh (its text depends on the worker and c alone) and hash its pages. */
static void chunk_write(struct worker *w, char *mem, size_t c)
{
	uint64_t seed = (uint64_t)(w->base.index + 1) * 1000003ULL + c;
	char *chunk = mem + c * CHUNK;

	wl_text_fill(chunk, CHUNK, &seed);
	pages_hash(chunk, PAGES_PER_CHUNK, w->page_hash + c * PAGES_PER_CHUNK);
}

/*
 * Read chunk c back, page by page (each first touch swaps the page in),
 * checking each against its hash. Returns the pages found wrong; a failed
 * swap-in (SIGBUS) counts as one and ends the check.
 */
static unsigned int chunk_check(struct worker *w, char *mem, size_t c)
{
	const uint64_t *hash = w->page_hash + c * PAGES_PER_CHUNK;
	char *chunk = mem + c * CHUNK;
	volatile unsigned int wrong = 0;
	volatile size_t next = 0;
	sigjmp_buf env;
	uint64_t got;
	size_t p;

	wl_sigbus_return = &env;
	if (sigsetjmp(env, 1)) {
		wl_sigbus_return = NULL;
		w->sigbus++;
		wl_integrity_checked(next - wrong);
		wl_integrity_error("task %u chunk %zu page %zu: swap-in failed (SIGBUS)",
				   w->base.index, c, (size_t)next);
		return wrong + 1;
	}
	while ((p = pages_check(chunk, PAGES_PER_CHUNK, hash, &next, &got)) < PAGES_PER_CHUNK) {
		wl_integrity_error("task %u chunk %zu page %zu: hash %016llx after swap-in, %016llx written",
				   w->base.index, c, p, (unsigned long long)got,
				   (unsigned long long)hash[p]);
		wrong++;
		next = p + 1;
	}
	wl_sigbus_return = NULL;
	wl_integrity_checked(PAGES_PER_CHUNK - wrong);
	return wrong;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	size_t nchunks, c;
	char *mem;

	w->bytes = bytes_per_thread;
	nchunks = w->bytes / CHUNK;
	w->page_hash = calloc(nchunks * PAGES_PER_CHUNK, sizeof(*w->page_hash));
	mem = mmap(NULL, w->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || !w->page_hash) {
		w->base.error = mem == MAP_FAILED ? errno : ENOMEM;
		w->base.what = "mmap";
		free(w->page_hash);
		return NULL;
	}
	for (c = 0; c < nchunks; c++)
		chunk_write(w, mem, c);
	for (c = 0; !wl_done(w->base.deadline_ns); c = (c + 1) % nchunks) {
		if (madvise(mem + c * CHUNK, CHUNK, MADV_PAGEOUT)) {
			w->base.error = errno;
			w->base.what = "madvise(MADV_PAGEOUT)";
			break;
		}
		if (chunk_check(w, mem, c)) {
			/* Drop what swap holds of the chunk and start it afresh. */
			madvise(mem + c * CHUNK, CHUNK, MADV_DONTNEED);
			chunk_write(w, mem, c);
		}
		w->chunks++;
		wl_progress(1);
		wl_pace(&w->base);
	}
	munmap(mem, w->bytes);
	free(w->page_hash);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		WL_COMMON_LONG_OPTIONS,
		{ "mib-per-thread", required_argument, NULL, OPT_MIB },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t mib, out0, in0, orig, compr, chunks = 0, sigbus = 0;
	struct wl_common wc;
	struct worker *workers;
	unsigned int i;
	int c;

	ll_prog = "locklat-zram";
	wl_common_init(&wc);
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		if (wl_common_option(&wc, c, optarg, usage_text))
			continue;
		if (c != OPT_MIB)
			wl_unknown_option(argv);
		if (!parse_u64(optarg, 1, 4096, &mib))
			err_exit(LL_EXIT_USAGE, "--mib-per-thread wants 1..4096, got '%s'", optarg);
		bytes_per_thread = mib * CHUNK;
	}
	if (!wl_swap_active())
		err_exit(LL_EXIT_FAIL, "no active swap: set up zram swap first (the guest's zram setup)");
	wl_sigbus_install();
	out0 = wl_vmstat("pswpout");
	in0 = wl_vmstat("pswpin");
	wl_start(&wc, argc, argv);
	workers = wl_workers_run(&wc, sizeof(*workers), worker_main);
	zram_mm_stat(&orig, &compr);
	for (i = 0; i < wc.threads; i++) {
		chunks += workers[i].chunks;
		sigbus += workers[i].sigbus;
	}
	wl_stats("zram", "seconds=%.3f chunks=%llu pswpout=%llu pswpin=%llu "
		 "zram_orig_bytes=%llu zram_compr_bytes=%llu swapin_failures=%llu",
		 wl_elapsed_s(&wc), (unsigned long long)chunks,
		 (unsigned long long)(wl_vmstat("pswpout") - out0),
		 (unsigned long long)(wl_vmstat("pswpin") - in0),
		 (unsigned long long)orig, (unsigned long long)compr,
		 (unsigned long long)sigbus);
	free(workers);
	return 0;
}
