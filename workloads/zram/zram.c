// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-zram - push anonymous memory through zram swap and back.
 *
 * Usage: locklat-zram [--threads N] [--duration D] [--mib-per-thread M]
 *
 * Needs a zram device as the only swap (the guest's "zram" setup does that).
 * Each thread fills M MiB of anonymous memory with compressible, non-uniform
 * text, then loops: MADV_PAGEOUT a 1 MiB chunk (reclaim swaps it out: zram
 * compresses each page under zcomp_stream_get(), the per-CPU stream section
 * the 2020 series turned into a local_lock) and touches it again (swap-in:
 * zram decompresses under the same section). No memory pressure is needed,
 * so the guest stays responsive and the amount swapped is known.
 *
 * Output: progress lines, one op per chunk paged out and read back (see
 * workload.h), then a "locklat-stats workload=zram ..." line with pages swapped out and
 * in (from /proc/vmstat) and zram's stored data (from mm_stat): proof that the
 * pages went through zram. Exit: 0 done, 1 error (e.g. no swap), 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "locklat.h"
#include "workload.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

enum option_values {
	OPT_MIB = WL_OPT_OWN,
};

static const char usage_text[] =
	"usage: locklat-zram [--threads N] [--duration D] [--mib-per-thread M]\n";

#define CHUNK (1UL << 20)

struct worker {
	struct wl_worker base;
	size_t bytes;
	uint64_t chunks;
	uint64_t checksum;	/* reads must not be optimised away */
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

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	size_t nchunks, c = 0, off;
	uint64_t seed = w->base.index + 1;
	char *mem;

	w->bytes = bytes_per_thread;
	nchunks = w->bytes / CHUNK;
	mem = mmap(NULL, w->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		w->base.error = errno;
		w->base.what = "mmap";
		return NULL;
	}
	wl_text_fill(mem, w->bytes, &seed);
	while (!wl_done(w->base.deadline_ns)) {
		char *chunk = mem + (c++ % nchunks) * CHUNK;

		if (madvise(chunk, CHUNK, MADV_PAGEOUT)) {
			w->base.error = errno;
			w->base.what = "madvise(MADV_PAGEOUT)";
			break;
		}
		/* Swap the chunk back in, one read per page. */
		for (off = 0; off < CHUNK; off += 4096)
			w->checksum += (unsigned char)chunk[off];
		w->chunks++;
		wl_progress(1);
	}
	munmap(mem, w->bytes);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		WL_COMMON_LONG_OPTIONS,
		{ "mib-per-thread", required_argument, NULL, OPT_MIB },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t mib, out0, in0, orig, compr, chunks = 0, checksum = 0;
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
	out0 = wl_vmstat("pswpout");
	in0 = wl_vmstat("pswpin");
	wl_start(&wc, argc, argv);
	workers = wl_workers_run(&wc, sizeof(*workers), worker_main);
	zram_mm_stat(&orig, &compr);
	for (i = 0; i < wc.threads; i++) {
		chunks += workers[i].chunks;
		checksum += workers[i].checksum;
	}
	wl_stats("zram", "threads=%llu seconds=%.3f chunks=%llu pswpout=%llu pswpin=%llu "
		 "zram_orig_bytes=%llu zram_compr_bytes=%llu checksum=%llu",
		 (unsigned long long)wc.threads, wl_elapsed_s(&wc), (unsigned long long)chunks,
		 (unsigned long long)(wl_vmstat("pswpout") - out0),
		 (unsigned long long)(wl_vmstat("pswpin") - in0),
		 (unsigned long long)orig, (unsigned long long)compr,
		 (unsigned long long)checksum);
	free(workers);
	return 0;
}
