// SPDX-License-Identifier: GPL-2.0
/*
 * test-cell - the summary's cell parsers against the golden cells in
 * tests/fixtures/cells (real run-cell.sh output; see its README.md).
 * Run from the repository root.
 */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cell.h"
#include "pass.h"
#include "tap.h"

#define FX "tests/fixtures/cells/"
/* The start-up window the summary applies by default (1 s). */
#define WINDOW_US 1000000

/* The index of the call site named name in cs, or -1. */
static int site_index(const struct call_sites *cs, const char *name)
{
	unsigned int i;

	for (i = 0; i < cs->count; i++)
		if (!strcmp(cs->sites[i].name, name))
			return (int)i;
	return -1;
}

/* path with text as its content. */
static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

#define SQUASHFS_SITE "squashfs multi-CPU decompressor"
#define SWAP_SITE "mm/swap folio batches"
#define ZRAM_SITE "zram zcomp streams"

/*
 * The verify pass's lock events (real cells, tests/fixtures/cells/README.md):
 * stacks attributed to the call site whose boundary function they pass
 * through, boosts told from de-boosts. Counts are the cells' own (an awk
 * count of their .hist files agrees); the rules their stacks do not exercise
 * are tested on scratch histograms below.
 */
static void lock_tests(const struct call_sites *cs)
{
	int sq = site_index(cs, SQUASHFS_SITE), swap = site_index(cs, SWAP_SITE), zram = site_index(cs, ZRAM_SITE);
	const struct lock_event *e;
	struct lock_stacks st;
	struct cell c;

	ok(sq >= 0 && swap >= 0 && zram >= 0, "lock: the squashfs, mm/swap and zram sites are in kernels/call-sites");
	ok(cell_load(&c, FX "contended-rt-squashfs", cs, WINDOW_US) == 0 && !strcmp(c.status, "OK") &&
	   c.has_lock_events && c.nlock_events == 2, "contended rt: a complete cell with two lock events");
	ok(c.rt_known && c.preempt_rt, "contended rt: PREEMPT_RT (manifest.preempt_model=rt)");
	ok(c.tasks_per_cpu == 2 && c.task_cpus == 1 && c.fifo_prio == 10,
	   "contended rt: 2 tasks per CPU on 1 CPU, FIFO prio 10, from the stats line");
	ok(c.lock_site == sq && c.lock_site_by_targets, "contended rt: the workload's site is the decompressor, by its target");
	e = cell_lock_event(&c, LOCK_EVENT_CONTENTION);
	ok(e && !e->unavailable && e->workload_hits == 59 && e->idle_hits == 11 && e->has_idle,
	   "contended rt: contention 59 with the workload, 11 idle (lock-events)");
	ok(e && e->workload.present && e->workload.hits == 59 && e->workload.entries == 4,
	   "contended rt: the stacks add up to the count (4 stacks, 59 hits)");
	ok(e && e->workload.site_hits[sq] == 5, "contended rt: 5 entries into the slow path at squashfs_decompress");
	ok(e && e->workload.site_hits[swap] == 0 && e->workload.site_hits[zram] == 0 && e->workload.unattributed == 54,
	   "contended rt: the other 54 (rt_spin_lock in __local_bh_disable_ip: RT's softirq lock) belong to no site");
	ok(e && e->idle.present && e->idle.hits == 11 && e->idle.entries == 3 && e->idle.site_hits[sq] == 0 &&
	   e->idle.unattributed == 11, "contended rt: idle, 11 in kthreads' softirq lock, at no site");
	e = cell_lock_event(&c, LOCK_EVENT_PI_SETPRIO);
	ok(e && e->workload_hits == 28 && e->workload.hits == 28 && e->workload.entries == 7,
	   "contended rt: 28 priority changes by inheritance (7 stacks)");
	ok(e && e->workload.boosts == 14, "contended rt: 14 of them boosts (through rtlock_slowlock_locked)");
	ok(e && e->workload.site_boosts[sq] == 6 && e->workload.site_hits[sq] == 12,
	   "contended rt: 6 boosts and 6 de-boosts (rt_mutex_slowunlock, two stacks) at the decompressor");
	ok(e && e->workload.boosts - e->workload.site_boosts[sq] == 8 && e->workload.unattributed == 16,
	   "contended rt: 8 boosts and 8 de-boosts elsewhere (the softirq lock), at no site");
	ok(e && e->idle.present && e->idle.hits == 0 && e->idle.boosts == 0, "contended rt: idle, no priority change");
	ok(c.integrity.present && c.integrity.passes == 2 && c.integrity.checked == 165 && !c.integrity.errors &&
	   !cell_corrupted(&c), "contended rt: 165 chunks checked in two passes (85 + 80), none wrong");
	cell_free(&c);

	ok(cell_load(&c, FX "uncontended-local_lock-squashfs", cs, WINDOW_US) == 0 && c.rt_known && !c.preempt_rt,
	   "local_lock: not PREEMPT_RT");
	e = cell_lock_event(&c, LOCK_EVENT_CONTENTION);
	ok(e && !e->unavailable && e->workload_hits == 0 && e->workload.present && e->workload.site_hits[sq] == 0,
	   "local_lock: the event exists, and no RT lock slow path was taken");
	ok(c.lock_site == sq, "local_lock: the site still comes from the targets");
	e = cell_lock_event(&c, LOCK_EVENT_PI_SETPRIO);
	ok(e && !e->unavailable && e->workload.present && e->workload.hits == 0 && e->idle.present && !e->idle.hits,
	   "local_lock: no priority inheritance, with the workload or idle");
	ok(c.integrity.checked == 161 && !c.integrity.errors && !strcmp(c.status, "OK"),
	   "local_lock: 161 chunks checked (93 + 68), none wrong");
	cell_free(&c);

	/* Stacks as the kernel prints them, each rule on its own. */
	{
		char dir[] = "/tmp/locklat-test-lock-XXXXXX", path[256], guest[128];

		ok(mkdtemp(dir) != NULL, "lock stacks: scratch directory");
		snprintf(path, sizeof(path), "%s/stacks.hist", dir);
		write_file(path,
			   "# event histogram\n#\n"
			   "# trigger info: hist:keys=common_stacktrace:vals=hitcount:sort=hitcount.descending:size=2048 [paused]\n#\n\n"
			   /* de-boost: the owner unlocking in zcomp_stream_put, module suffix and .isra */
			   "{ common_stacktrace:\n"
			   "         rt_mutex_setprio+0x2e0/0x4b0\n"
			   "         rt_mutex_slowunlock.isra.0+0x87/0x1c0\n"
			   "         rt_spin_unlock+0x42/0x60\n"
			   "         zcomp_stream_put+0x1c/0x30 [zram]\n"
			   "         zram_write_page+0x1a3/0x4c0 [zram]\n"
			   "} hitcount:          7\n"
			   /* boost through the chain walk alone (a priority change of a blocked task) */
			   "{ common_stacktrace:\n"
			   "         rt_mutex_setprio+0x2e0/0x4b0\n"
			   "         rt_mutex_adjust_prio_chain.constprop.0+0x3d1/0xb80\n"
			   "         rt_mutex_adjust_pi+0x84/0xe0\n"
			   "         __sched_setscheduler+0x5c1/0x8f0\n"
			   "} hitcount:          2\n"
			   /* two sites on one stack: the innermost boundary took the lock */
			   "{ common_stacktrace:\n"
			   "         rt_mutex_setprio+0x2e0/0x4b0\n"
			   "         task_blocks_on_rt_mutex.constprop.0+0x1f4/0x3a0\n"
			   "         rtlock_slowlock_locked+0x2c5/0xea0\n"
			   "         rt_spin_lock+0x3c/0x60\n"
			   "         __folio_batch_add_and_move.part.0+0x4a/0x160\n"
			   "         folio_add_lru+0x4d/0x70\n"
			   "         squashfs_decompress+0x3a/0x90\n"
			   "} hitcount:          5\n"
			   /* a one-line key (another trigger's format): counted, at no site */
			   "{ common_pid: locklat-squashf [        88] } hitcount:          3\n"
			   "\nTotals:\n    Hits: 17\n    Entries: 4\n    Dropped: 1\n");
		ok(lock_stacks_load(&st, path, cs, true) == 0 && st.present && st.hits == 17 && st.entries == 4 &&
		   st.dropped == 1, "lock stacks: four entries, 17 hits, Totals read");
		ok(st.site_hits[zram] == 7 && st.site_boosts[zram] == 0,
		   "lock stacks: an unlock in zcomp_stream_put [zram] is zram's, a de-boost");
		ok(st.site_hits[swap] == 5 && st.site_boosts[swap] == 5 && st.site_hits[sq] == 0,
		   "lock stacks: __folio_batch_add_and_move.part.0 under squashfs_decompress is mm/swap's, a boost");
		ok(st.boosts == 7 && st.unattributed == 5,
		   "lock stacks: the chain walk alone is a boost; it and the one-line key belong to no site");
		ok(lock_stacks_load(&st, path, cs, false) == 0 && st.boosts == 0 && st.site_hits[swap] == 5,
		   "lock stacks: without boosts (contention) nothing is called a boost");
		/*
		 * An rt_mutex (RCU priority boosting): the waiter's boost in
		 * rt_mutex_slowlock (task_blocks_on_rt_mutex inlined), the
		 * owner's de-boost on its unlock; at no site.
		 */
		snprintf(path, sizeof(path), "%s/rcu.hist", dir);
		write_file(path,
			   "{ common_stacktrace:\n"
			   "         rt_mutex_slowlock.constprop.0+0x1e1/0x260\n"
			   "         rt_mutex_lock+0x3a/0x50\n"
			   "         rcu_boost_kthread+0x11d/0x2e0\n"
			   "         kthread+0xc5/0x100\n"
			   "} hitcount:          1\n"
			   "{ common_stacktrace:\n"
			   "         rt_mutex_slowunlock+0x122/0x270\n"
			   "         rt_mutex_futex_unlock+0x3d/0x70\n"
			   "         rcu_preempt_deferred_qs_irqrestore+0x1f8/0x3a0\n"
			   "         rcu_read_unlock_special+0xe5/0x160\n"
			   "} hitcount:          1\n"
			   "\nTotals:\n    Hits: 2\n    Entries: 2\n    Dropped: 0\n");
		ok(lock_stacks_load(&st, path, cs, true) == 0 && st.hits == 2 && st.boosts == 1 && st.unattributed == 2,
		   "lock stacks: an rt_mutex's boost in rt_mutex_slowlock, its de-boost on unlock, at no site");
		snprintf(path, sizeof(path), "%s/empty.hist", dir);
		write_file(path, "# event histogram\n#\n\nTotals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n");
		ok(lock_stacks_load(&st, path, cs, true) == 0 && st.present && st.hits == 0, "lock stacks: an empty histogram is 0");
		snprintf(path, sizeof(path), "%s/none.hist", dir);
		ok(lock_stacks_load(&st, path, cs, true) == 1 && !st.present, "lock stacks: a missing file is 1");

		/* A cell whose kernel lacks one event, whose targets name no site: the site with most contention. */
		snprintf(guest, sizeof(guest), "%s/cell/guest/lock-events.d", dir);
		snprintf(path, sizeof(path), "mkdir -p %s", guest);
		ok(system(path) == 0, "lock events: scratch cell");
		snprintf(path, sizeof(path), "%s/cell/meta", dir);
		write_file(path, "complete=1\nvariant=x\nworkload=zram\nstatus=OK\nrep=1\ntasks_per_cpu=3\n"
			   "manifest.preempt_model=rt\n");
		snprintf(path, sizeof(path), "%s/cell/guest/path-hits", dir);
		write_file(path, "some_other_function 500 0\n");
		snprintf(path, sizeof(path), "%s/cell/guest/lock-events", dir);
		write_file(path, "contention 12 0\npi_setprio unavailable\n");
		snprintf(path, sizeof(path), "%s/workload-contention.hist", guest);
		write_file(path, "{ common_stacktrace:\n rtlock_slowlock_locked+0x1/0x2\n rt_spin_lock+0x3c/0x60\n"
			   " zcomp_stream_get+0x2a/0x80 [zram]\n} hitcount: 9\n"
			   "{ common_stacktrace:\n rtlock_slowlock_locked+0x1/0x2\n rt_spin_lock+0x3c/0x60\n"
			   " lru_add_drain_cpu+0x22/0x150\n} hitcount: 3\n\nTotals:\n    Hits: 12\n");
		snprintf(path, sizeof(path), "%s/cell", dir);
		ok(cell_load(&c, path, cs, WINDOW_US) == 0 && c.has_lock_events && c.nlock_events == 2,
		   "lock events: two events read");
		e = cell_lock_event(&c, LOCK_EVENT_PI_SETPRIO);
		ok(e && e->unavailable, "lock events: an event the kernel lacks is kept as unavailable");
		ok(c.lock_site == zram && !c.lock_site_by_targets,
		   "lock events: no target names a site: the one with the most contention (zram)");
		e = cell_lock_event(&c, LOCK_EVENT_CONTENTION);
		ok(e && e->has_idle && !e->idle.present && e->workload.site_hits[zram] == 9,
		   "lock events: no idle histogram, the idle count kept");
		ok(c.tasks_per_cpu == 3 && c.fifo_prio == -1, "lock events: no stats line: tasks from meta, FIFO unknown");
		cell_free(&c);
		snprintf(path, sizeof(path), "rm -rf %s", dir);
		ok(system(path) == 0, "lock stacks: scratch directory removed");
	}
}

/*
 * The workloads' data checks: one locklat-integrity line per pass's output,
 * summed; a cell with a wrong item is a finding, never OK.
 */
static void integrity_tests(const struct call_sites *cs)
{
	uint64_t checked = 0, errors = 0;
	char first[240];
	struct cell c;

	ok(integrity_line_parse("locklat-integrity workload=squashfs checked=54 errors=0", &checked, &errors, first,
				sizeof(first)) && checked == 54 && errors == 0 && !first[0],
	   "integrity line: clean, no first");
	ok(integrity_line_parse("locklat-integrity workload=zram checked=8192 errors=3 first=page 17: fnv1a 1f, want 2e  \n",
				&checked, &errors, first, sizeof(first)) && checked == 8192 && errors == 3,
	   "integrity line: corrupt, counts read");
	is_str(first, "page 17: fnv1a 1f, want 2e", "integrity line: the first error's text to the end of the line");
	ok(!integrity_line_parse("locklat-stats workload=squashfs cpus=1 tasks=2", &checked, &errors, first, sizeof(first)),
	   "integrity line: another line is not one");

	ok(cell_load(&c, FX "corrupt-rtnolock-zram", cs, WINDOW_US) == 0 && cell_corrupted(&c),
	   "corrupt rt-nolock: data corrupted");
	ok(c.integrity.checked == 94003 && c.integrity.errors == 70 && c.integrity.passes == 2,
	   "corrupt rt-nolock: 70 of 94003 checks wrong (36 + 34 over two passes)");
	is_str(c.integrity.first, "task 1 chunk 2 page 156: swap-in failed (SIGBUS)", "corrupt rt-nolock: the first error");
	is_str(c.integrity.first_pass, "latency", "corrupt rt-nolock: in the latency pass (before verify's)");
	ok(!strcmp(c.status, "FINDINGS") && !strncmp(c.reason, "data corrupted: 70 of 94003 ", 28),
	   "corrupt rt-nolock: FINDINGS, as run-cell.sh wrote it (%s)", c.reason);
	ok(c.preempt_rt && c.lock_site == site_index(cs, ZRAM_SITE) && c.lock_site_by_targets &&
	   cell_lock_event(&c, LOCK_EVENT_CONTENTION)->workload.site_hits[c.lock_site] == 0 &&
	   cell_lock_event(&c, LOCK_EVENT_PI_SETPRIO)->workload.site_hits[c.lock_site] == 0,
	   "corrupt rt-nolock: PREEMPT_RT, and no contention or PI at zram's streams (its lock dropped)");
	{
		int swap = site_index(cs, SWAP_SITE);
		const struct lock_event *e = cell_lock_event(&c, LOCK_EVENT_CONTENTION);

		ok(e->workload.hits == 21 && e->workload.site_hits[swap] == 2 && e->workload.unattributed == 19,
		   "corrupt rt-nolock: 21 slow-path entries elsewhere, 2 of them mm/swap's (lru_add_drain)");
		e = cell_lock_event(&c, LOCK_EVENT_PI_SETPRIO);
		ok(e->workload.site_boosts[swap] == 2 && e->workload.site_hits[swap] == 4 && e->workload.boosts == 13 &&
		   e->workload.hits == 26, "corrupt rt-nolock: 2 boosts (lru_add_drain) and 2 de-boosts "
		   "(__folio_batch_add_and_move in do_swap_page) at mm/swap; 13 boosts of 26 in all");
	}
	cell_free(&c);
	ok(cell_load(&c, FX "ok-squashfs", cs, WINDOW_US) == 0 && !c.integrity.present && !c.tasks_per_cpu &&
	   !c.has_lock_events && !strcmp(c.status, "OK"),
	   "ok-squashfs: an older cell (threads=, no integrity line, no lock events) reads as before");
	cell_free(&c);

	/* Every pass's line summed, the first error in pass order; OK in meta is not believed. */
	{
		char dir[] = "/tmp/locklat-test-integrity-XXXXXX", path[256];

		ok(mkdtemp(dir) != NULL, "integrity: scratch cell");
		snprintf(path, sizeof(path), "%s/guest", dir);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/meta", dir);
		write_file(path, "complete=1\nvariant=x\nworkload=zram\nstatus=OK\nrep=1\n");
		snprintf(path, sizeof(path), "%s/guest/steps", dir);
		write_file(path, "setup 0\nlatency 0\ntimerlat 0\nverify 0\n");
		snprintf(path, sizeof(path), "%s/guest/workload-latency.out", dir);
		write_file(path, "locklat-progress uptime_ms=1 ops=0\nlocklat-integrity workload=zram checked=100 errors=0\n"
			   "locklat-stats workload=zram cpus=2 tasks=2 fifo_prio=0 seconds=1\n");
		snprintf(path, sizeof(path), "%s/guest/workload-verify.out", dir);
		write_file(path, "locklat-integrity workload=zram checked=40 errors=2 first=page 9: later\n");
		snprintf(path, sizeof(path), "%s/guest/workload-timerlat.out", dir);
		write_file(path, "locklat-integrity workload=zram checked=30 errors=1 first=page 3: earlier\n");
		ok(cell_load(&c, dir, cs, WINDOW_US) == 0 && c.integrity.passes == 3 && c.integrity.checked == 170 &&
		   c.integrity.errors == 3, "integrity: three passes summed (3 of 170)");
		ok(!strcmp(c.integrity.first, "page 3: earlier") && !strcmp(c.integrity.first_pass, "timerlat"),
		   "integrity: the first error is the earliest pass's (timerlat ran before verify)");
		ok(!strcmp(c.status, "FINDINGS") && strstr(c.reason, "data corrupted: 3 of 170 checks wrong") != NULL,
		   "integrity: a cell whose meta says OK is made FINDINGS (%s)", c.reason);
		ok(c.tasks_per_cpu == 2 && c.fifo_prio == 0 && c.task_cpus == 2,
		   "integrity: tasks from the latency pass's stats line, fifo_prio 0 (no FIFO task)");
		cell_free(&c);
		snprintf(path, sizeof(path), "%s/meta", dir);
		write_file(path, "complete=1\nvariant=x\nworkload=zram\nstatus=TIMEOUT\nreason=watchdog\nrep=1\n");
		ok(cell_load(&c, dir, cs, WINDOW_US) == 0 && !strcmp(c.status, "TIMEOUT") && cell_corrupted(&c),
		   "integrity: a TIMEOUT stays TIMEOUT, its corruption still counted");
		cell_free(&c);
		snprintf(path, sizeof(path), "rm -rf %s", dir);
		ok(system(path) == 0, "integrity: scratch cell removed");
	}
}

int main(void)
{
	struct call_sites cs;
	struct cell c;
	bool over;
	unsigned int i;
	uint64_t hits = 0;

	tap_plan(201);
	ok(call_sites_load(&cs, "kernels/call-sites") == 0, "call-sites loads");
	ok(cs.count == 5, "five call sites");

	ok(cell_load(&c, FX "ok-squashfs", &cs, WINDOW_US) == 0, "ok-squashfs: a complete cell");
	is_str(c.status, "OK", "ok-squashfs: status OK");
	is_str(c.variant, "local_lock", "ok-squashfs: variant from meta");
	ok(c.has_latency && c.nthreads == 2, "ok-squashfs: two cyclictest threads");
	is_u64(c.max_us, 52892, "ok-squashfs: max = cyclictest's JSON max over threads");
	ok(c.has_text_max && c.text_max_us == c.max_us, "ok-squashfs: equals the text's '# Max Latencies'");
	is_u64(hist_total(&c.hist), 750 + 3564, "ok-squashfs: samples = cyclictest's '# Total'");
	is_u64(c.hist.overflow, 0, "ok-squashfs: no overflow");
	ok(hist_percentile(&c.hist, 0.99, &over) <= c.max_us && !over, "ok-squashfs: p99 within range and below max");
	ok(!c.traced_kernel && !strcmp(c.name, "rep1"),
	   "ok-squashfs: a layout-3 cell without kernel_flavour is a repetition, rep1");
	ok(c.preemptoff.present, "ok-squashfs: preemptoff trace");
	is_u64(c.preemptoff.max_us, c.preemptoff.header_us, "ok-squashfs: tracing_max_latency = trace header");
	is_str(c.preemptoff.started, "squashfs_decompress", "ok-squashfs: worst section started at squashfs_decompress");
	is_str(c.preemptoff.blame.call_site, "squashfs multi-CPU decompressor", "ok-squashfs: attributed to the call site");
	ok(c.preemptoff.nstack > 0, "ok-squashfs: stack kept");
	ok(c.preemptoff.blame.kind == BLAME_SITE,
	   "ok-squashfs: the section opens in the site's boundary function: it is the site's");
	for (i = 0; i < c.nhits; i++)
		if (!strcmp(c.hits[i].function, "squashfs_decompress"))
			hits = c.hits[i].hits;
	ok(hits > 0, "ok-squashfs: path hits of squashfs_decompress (%llu)", (unsigned long long)hits);
	ok(!strncmp(c.workload_stats, "workload=squashfs ", 18), "ok-squashfs: workload statistics line");
	ok(!c.has_series, "ok-squashfs: a cell from before the time series has none, and stays OK");
	cell_free(&c);

	ok(cell_load(&c, "tests/fixtures/run/local_lock/zram/traced", &cs, WINDOW_US) == 0 && c.traced_kernel &&
	   !strcmp(c.name, "traced") && c.rep == 1, "local_lock zram traced: kernel_flavour=traced, named traced");
	ok(c.preemptoff.present && c.wakeup.present && c.wakeup.hit && c.nhits == 1,
	   "local_lock zram traced: its tracer, timerlat and verify passes");
	cell_free(&c);
	ok(cell_load(&c, "tests/fixtures/run/local_lock/zram/rep1", &cs, WINDOW_US) == 0 && !c.traced_kernel &&
	   !strcmp(c.name, "rep1") && !c.preemptoff.present, "local_lock zram rep1: the plain kernel, latency alone");
	cell_free(&c);
	ok(cell_load(&c, FX "overflow", &cs, WINDOW_US) == 0, "overflow: a complete cell");
	is_u64(c.hist.overflow, 1346 + 14478, "overflow: overflow = cycles - histogram, per thread, summed");
	ok(c.has_text_overflow && c.text_overflow == c.hist.overflow, "overflow: equals '# Histogram Overflows'");
	is_u64(c.max_us, 45997, "overflow: the true max survives the overflow");
	is_u64(hist_percentile(&c.hist, 0.99, &over), 8, "overflow: p99 beyond the range reports the range...");
	ok(over, "overflow: ...and says so");
	is_str(c.status, "OK", "overflow: consistent data stays OK");
	cell_free(&c);

	ok(cell_load(&c, FX "timeout", &cs, WINDOW_US) == 0 && !strcmp(c.status, "TIMEOUT") && !c.has_latency,
	   "timeout: TIMEOUT, no latency data");
	cell_free(&c);
	ok(cell_load(&c, FX "invalid", &cs, WINDOW_US) == 0 && !strcmp(c.status, "INVALID"), "invalid: INVALID");
	cell_free(&c);
	ok(cell_load(&c, FX "empty-trace", &cs, WINDOW_US) == 0 && c.preemptoff.present &&
	   c.preemptoff.max_us == 0 && c.preemptoff.blame.kind == BLAME_NONE && !c.preemptoff.blame.call_site,
	   "empty-trace: present, zero, unattributed");
	cell_free(&c);
	ok(cell_load(&c, FX "series-squashfs", &cs, WINDOW_US) == 0 && !strcmp(c.status, "OK"), "series-squashfs: a complete cell");
	ok(c.has_series && c.series_threads == 2, "series-squashfs: a time series per thread");
	/*
	 * 1910 and 1564 wake-ups in a 3 s pass: the ~50 ms stalls make
	 * cyclictest skip periods, which the samples' latencies account for.
	 * Counted by wake-up alone they would fill only 0.4 s and 0.3 s.
	 */
	is_u64(c.series_seconds, 3, "series-squashfs: samples placed over the 3 s of the pass, skipped periods included");
	hits = 0;
	for (i = 0; i < c.series_threads * c.series_seconds; i++)
		hits += c.series[i] != LL_NO_VALUE;
	is_u64(hits, 6, "series-squashfs: every second of both threads has samples");
	for (i = 0, hits = 0; i < c.series_seconds; i++)
		hits = c.series[i] > hits ? c.series[i] : hits;
	is_u64(hits, c.thread_max_us[0], "series-squashfs: vCPU0's worst second holds its JSON max");
	for (i = 0, hits = 0; i < c.series_threads * c.series_seconds; i++)
		hits += c.series[i] != LL_NO_VALUE && c.series[i] > c.max_us;
	ok(hits == 0, "series-squashfs: no second above the cell max");
	/*
	 * The pass split at 1 s (values computed apart from the summary, by
	 * awk over the same samples): the cell's JSON max (53678, vCPU1) fell
	 * in the start-up window; after it the worst is vCPU0's 52909.
	 */
	ok(c.has_steady && c.window_us == WINDOW_US, "series-squashfs: split at the start-up window");
	is_u64(c.max_us, 53678, "series-squashfs: cyclictest's own max over the whole pass is kept");
	is_u64(c.startup_max_us, 53678, "series-squashfs: ...and falls inside the window");
	is_u64(c.steady_max_us, 52909, "series-squashfs: the steady-state max is vCPU0's after 1 s");
	ok(!c.steady_censored && !c.starved_threads, "series-squashfs: no thread stopped waking");
	is_u64(c.wakeups_due, 30000, "series-squashfs: 2 threads x 3 s / 200 us wake-ups due");
	is_u64(c.wakeups_due_steady, 20002, "series-squashfs: 20002 of them at or after the window (10001 a thread: the one due at 1 s too)");
	is_u64(c.wakeups_steady, 369 + 5 + 1168 + 17, "series-squashfs: recorded after it (printed + unprinted tail)");
	is_u64(c.steady_added, 17953, "series-squashfs: the correction adds the 17953 skipped periods after the window");
	is_u64(hist_total(&c.steady_hist), 369 + 1168 + 17953, "series-squashfs: steady histogram = printed + added");
	/*
	 * Uncorrected, most recorded wake-ups are on time (median 7 us); with
	 * the skipped periods counted the stalls dominate (awk: 5804, 51640).
	 */
	is_u64(hist_percentile(&c.steady_hist, 0.5, &over), 5804, "series-squashfs: corrected median");
	is_u64(hist_percentile(&c.steady_hist, 0.99, &over), 51640, "series-squashfs: corrected p99");
	ok(hist_percentile(&c.hist, 0.5, &over) < 100, "series-squashfs: the uncorrected median is far lower (%llu us)",
	   (unsigned long long)hist_percentile(&c.hist, 0.5, &over));
	cell_free(&c);
	ok(cell_load(&c, FX "series-squashfs", &cs, 0) == 0 && c.has_steady && c.steady_max_us == 53678 &&
	   c.startup_max_us == 0, "series-squashfs: a zero window keeps the whole pass");
	cell_free(&c);
	ok(cell_load(&c, FX "series-squashfs", &cs, 3000000) == 0 && !c.has_steady,
	   "series-squashfs: a window as long as the pass leaves no steady state");
	cell_free(&c);
	/* vCPU1 never woke: cyclictest wrote "avg": -nan (not JSON) and no samples for it. */
	ok(cell_load(&c, FX "series-starved", &cs, WINDOW_US) == 0 && c.has_latency && !strcmp(c.status, "OK"),
	   "series-starved: cyclictest's -nan is read, the cell kept");
	ok(c.nthreads == 2 && c.thread_cycles[1] == 0, "series-starved: the thread that never woke is there");
	ok(c.starved_threads == 1 && c.steady_censored && c.steady_max_us == 3000000 - 200,
	   "series-starved: its wait ranks as a latency of at least the pass (%llu us)",
	   (unsigned long long)c.steady_max_us);
	cell_free(&c);
	/*
	 * Coordinated omission on a real baseline cell (1 vCPU): cyclictest
	 * recorded 1796 of 50000 due wake-ups; each 52.7 ms stall made it skip
	 * ~263 periods. Counted (awk over the samples, apart from the
	 * summary): 43358 skipped periods after the window, corrected p50
	 * 25341 us, p99 52052 us, p99.9 52562 us over 44973 wake-ups.
	 */
	ok(cell_load(&c, FX "co-baseline-squashfs", &cs, WINDOW_US) == 0 && c.has_steady,
	   "co-baseline-squashfs: a complete cell with its sample stream");
	is_u64(c.wakeups_due, 50000, "co-baseline-squashfs: 50000 wake-ups due in 10 s");
	is_u64(c.cycles, 1796, "co-baseline-squashfs: 1796 recorded");
	is_u64(c.steady_added, 43358, "co-baseline-squashfs: 43358 skipped periods counted after the window");
	is_u64(hist_total(&c.steady_hist), 44973, "co-baseline-squashfs: 44973 wake-ups in the corrected steady state");
	is_u64(hist_percentile(&c.steady_hist, 0.5, &over), 25341, "co-baseline-squashfs: corrected p50");
	is_u64(hist_percentile(&c.steady_hist, 0.99, &over), 52052, "co-baseline-squashfs: corrected p99");
	is_u64(hist_percentile(&c.steady_hist, 0.999, &over), 52562, "co-baseline-squashfs: corrected p99.9");
	is_u64(c.steady_max_us, 52738, "co-baseline-squashfs: steady max");
	is_u64(c.startup_max_us, 52706, "co-baseline-squashfs: start-up max");
	ok(c.load.verdict == LOAD_ALIVE && c.load.nseconds == 11,
	   "co-baseline-squashfs: the load progressed in each of the pass's 11 s (verdict %d)", c.load.verdict);
	cell_free(&c);
	/* The pre-series bug on PREEMPT_RT kills the load: not a measurement under load. */
	ok(cell_load(&c, FX "dead-load-baseline-rt-lru", &cs, WINDOW_US) == 0 && c.has_latency,
	   "dead-load-baseline-rt-lru: a complete cell with cyclictest's output");
	ok(c.load.verdict == LOAD_DEAD, "dead-load-baseline-rt-lru: the load is dead (verdict %d)", c.load.verdict);
	ok(c.load.died_at_s < 1, "dead-load-baseline-rt-lru: it stopped in the pass's first second (%.1f s)",
	   c.load.died_at_s);
	ok(strstr(c.load.reason, "killed by signal 11") != NULL,
	   "dead-load-baseline-rt-lru: the reason says how it ended (%s)", c.load.reason);
	ok(strstr(c.load.reason, "BUG: scheduling while atomic: locklat-lru") != NULL,
	   "dead-load-baseline-rt-lru: and quotes the splat that came with it");
	ok(c.load.nseconds == 30 && c.load.ops[0] <= 1 && c.load.ops[5] == 0,
	   "dead-load-baseline-rt-lru: no operations through the pass");
	cell_free(&c);
	/* The same on zram (ref-20261203-6): swap-in's folio batch takes the sleeping lru_lock. */
	ok(cell_load(&c, FX "dead-load-baseline-rt-zram", &cs, WINDOW_US) == 0 && c.has_latency &&
	   c.load.verdict == LOAD_DEAD, "dead-load-baseline-rt-zram: the load is dead (verdict %d)", c.load.verdict);
	ok(strstr(c.load.reason, "killed by signal 11") != NULL && strstr(c.load.reason, "BUG: scheduling while atomic") != NULL,
	   "dead-load-baseline-rt-zram: killed by SIGSEGV after scheduling while atomic (%s)", c.load.reason);
	cell_free(&c);
	ok(cell_load(&c, FX "load-stalled", &cs, WINDOW_US) == 0 && c.load.verdict == LOAD_DEAD,
	   "load-stalled: a load that did nothing for 2 s of the pass is not alive");
	ok(strstr(c.load.reason, "stalled") != NULL && c.load.died_at_s > 3.5 && c.load.died_at_s < 4.5,
	   "load-stalled: stalled about 4 s into the pass (%s)", c.load.reason);
	cell_free(&c);
	ok(cell_load(&c, FX "series-squashfs", &cs, WINDOW_US) == 0 && c.load.verdict == LOAD_UNKNOWN,
	   "series-squashfs: a cell from before the progress lines: load unknown, not dead");
	cell_free(&c);
	ok(cell_load(&c, FX "series-bad", &cs, WINDOW_US) == 0 && !strcmp(c.status, "INVALID"),
	   "series-bad: a sample above its thread's JSON max makes the cell INVALID");
	ok(strstr(c.reason, "samples") != NULL, "series-bad: and says why (%s)", c.reason);
	cell_free(&c);
	ok(cell_load(&c, FX "modules-lockdep", &cs, WINDOW_US) == 0 && c.has_modules && !c.has_latency,
	   "modules-lockdep: a modules cell, no latency pass");
	ok(c.nllcheck == 4 && !strcmp(c.llcheck[0].scenario, "c") && !strcmp(c.llcheck[3].scenario, "a"),
	   "modules-lockdep: four scenarios in cell.conf's order");
	ok(c.llcheck[0].loaded && !c.llcheck[0].detected && !strcmp(c.llcheck[0].irqs_off, "yes"),
	   "modules-lockdep: c loaded, silent, interrupts off inside local_lock_irqsave()");
	ok(!c.llcheck[1].detected, "modules-lockdep: a-preempt (bare preempt_disable) silent even with lockdep");
	ok(c.llcheck[3].detected && !strcmp(c.llcheck[3].kind, "lockdep") && c.llcheck[3].debug_locks == 0,
	   "modules-lockdep: a reported by lockdep, which then turned itself off");
	ok(c.nllbench == 5 && !strcmp(c.llbench[2].op, "local_lock") &&
	   c.llbench[2].median_ns > c.llbench[1].median_ns,
	   "modules-lockdep: llbench: local_lock (%.2f ns) costs more than preempt_disable (%.2f ns)",
	   c.llbench[2].median_ns, c.llbench[1].median_ns);
	cell_free(&c);
	/*
	 * An interrupt entry that landed in the decompressor (real irqsoff
	 * trace, local_lock): started at irqentry_enter, squashfs_decompress
	 * only in the stack. The interrupt's section, never the site's: the
	 * site shows only as the context it interrupted.
	 */
	ok(cell_load(&c, "tests/fixtures/run/local_lock/squashfs/rep1", &cs, WINDOW_US) == 0 &&
	   c.irqsoff.present && !strcmp(c.irqsoff.started, "irqentry_enter"),
	   "irqsoff in squashfs: a section started at irqentry_enter");
	ok(c.irqsoff.blame.kind == BLAME_INTERRUPT && !c.irqsoff.blame.call_site,
	   "irqsoff in squashfs: an interrupt's section, not the decompressor's");
	ok(strstr(c.irqsoff.blame.context, "(in squashfs multi-CPU decompressor)") != NULL,
	   "irqsoff in squashfs: the decompressor is named as what it interrupted (%s)", c.irqsoff.blame.context);
	cell_free(&c);
	/*
	 * rt zram's irqsoff worst (the reference run): 6 us from irqentry_enter
	 * to preempt_schedule_irq, a local timer interrupt that preempted
	 * preemptible code under do_swap_page. No call site opened or closed it.
	 */
	ok(cell_load(&c, FX "irqsoff-timer-rt-zram", &cs, WINDOW_US) == 0 && c.irqsoff.present &&
	   c.irqsoff.max_us == 6, "irqsoff rt zram: the 6 us section");
	ok(c.irqsoff.blame.kind == BLAME_INTERRUPT && !c.irqsoff.blame.call_site,
	   "irqsoff rt zram: blamed on an interrupt, not on zram's streams");
	is_str(c.irqsoff.blame.interrupt, "a local timer interrupt (the tick or a measurement's hrtimer)",
	       "irqsoff rt zram: the interrupt named from its entry frame");
	is_str(c.irqsoff.blame.context, "__rcu_read_unlock ← do_swap_page ← __handle_mm_fault",
	       "irqsoff rt zram: what it interrupted, as context");
	ok(c.preemptoff.blame.kind == BLAME_NONE && !c.preemptoff.blame.call_site &&
	   strstr(c.preemptoff.blame.context, "(in mm/swap folio batches)"),
	   "preemptoff rt zram: a section inside mm/swap's batch code is not the batch's section (%s)",
	   c.preemptoff.blame.text);
	cell_free(&c);
	/*
	 * baseline lru's 571 us irqsoff (the reference run): a device
	 * interrupt (opened at irqentry_enter, closed at asm_common_interrupt)
	 * that landed in a virtio notify under madvise. Never the site's.
	 */
	ok(cell_load(&c, FX "irqsoff-device-baseline-lru", &cs, WINDOW_US) == 0 && c.irqsoff.max_us == 571,
	   "irqsoff baseline lru: the 571 us section");
	ok(c.irqsoff.blame.kind == BLAME_INTERRUPT && !strcmp(c.irqsoff.blame.interrupt, "a device interrupt"),
	   "irqsoff baseline lru: a device interrupt's section");
	is_str(c.irqsoff.blame.context, "iowrite16 ← vp_notify ← virtqueue_notify",
	       "irqsoff baseline lru: where it landed, as context");
	ok(c.preemptoff.blame.kind == BLAME_INTERRUPT && !c.preemptoff.blame.call_site,
	   "preemptoff baseline lru: the same interrupt's irq_enter_rcu…irq_exit_rcu");
	cell_free(&c);
	/*
	 * One cell configuration traced with function tracing off and on
	 * (baseline squashfs, 1 vCPU, the same 52.7 ms decompression): off,
	 * the section is as long as the latency pass's worst wake-up; on, the
	 * tracer's own recording of ~2.3 M function entries nearly doubles it.
	 */
	{
		uint64_t off_us = 0, off_lat = 0;

		ok(cell_load(&c, FX "ftrace-off-baseline-squashfs", &cs, WINDOW_US) == 0 && c.preemptoff.present &&
		   !strcmp(kv_str(&c.meta, "function_trace", ""), "0"), "ftrace-off: a traced cell without function tracing");
		off_us = c.preemptoff.max_us;
		off_lat = c.max_us;
		ok(off_us >= off_lat && off_us < off_lat + off_lat / 100,
		   "ftrace-off: the section (%llu us) is the latency pass's worst wake-up (%llu us) within 1%%",
		   (unsigned long long)off_us, (unsigned long long)off_lat);
		cell_free(&c);
		ok(cell_load(&c, FX "ftrace-on-baseline-squashfs", &cs, WINDOW_US) == 0 && c.preemptoff.present &&
		   !strcmp(kv_str(&c.meta, "function_trace", ""), "1") &&
		   !strcmp(c.preemptoff.started, "squashfs_decompress"),
		   "ftrace-on: the same section with function tracing");
		ok(c.preemptoff.max_us > off_us * 3 / 2 && c.max_us < off_lat + off_lat / 100,
		   "ftrace-on: the tracer lengthens it to %llu us while the latency pass saw %llu us",
		   (unsigned long long)c.preemptoff.max_us, (unsigned long long)c.max_us);
		cell_free(&c);
	}
	/*
	 * The timerlat passes on baseline squashfs (1 vCPU), read from their
	 * timerlat.dat with libtracecmd: both stopped at a ~52 ms thread
	 * latency (threshold 26358 us, half the latency pass's 52716 us); the
	 * preemptirq events open and close the section in squashfs_decompress;
	 * the stack at the timer IRQ runs through the xz decoder. The worst of
	 * the two runs is kept, with both maxima.
	 */
	ok(cell_load(&c, FX "timerlat-baseline-squashfs", &cs, WINDOW_US) == 0 && c.wakeup.present &&
	   c.wakeup.hit && !c.wakeup.irq && c.wakeup.stopped, "timerlat: a thread latency stopped tracing");
	is_u64(c.wakeup.threshold_us, 26358, "timerlat: the threshold is half the latency pass's maximum (52716 us)");
	is_u64(c.wakeup.latency_pass_max_us, 52716, "timerlat: that maximum, read as decimal");
	ok(c.wakeup.nruns == 2 && c.wakeup.runs_us[0] == 52088 && c.wakeup.runs_us[1] == 52425,
	   "timerlat: two runs, 52088 and 52425 us");
	is_str(c.wakeup.run, "timerlat.2", "timerlat: the worst is the second run's");
	ok(c.wakeup.latency_us > 52425.3 && c.wakeup.latency_us < 52425.4 && c.wakeup.irq_latency_us > 1.17 &&
	   c.wakeup.irq_latency_us < 1.18, "timerlat: thread latency 52425.3 us, IRQ latency 1.175 us");
	is_str(c.wakeup.blocking_thread, "locklat-squashf:324", "timerlat: the timer interrupted the workload");
	ok(c.wakeup.nstack == 21 && !strcmp(c.wakeup.stack[0], "timerlat_irq") &&
	   !strcmp(c.wakeup.stack[6], "lzma_main"), "timerlat: the stack at the IRQ, 21 frames past the format's 8");
	is_str(c.wakeup.opened, "squashfs_decompress", "timerlat: the section opened in squashfs_decompress (preempt_disable event)");
	is_str(c.wakeup.closed, "squashfs_decompress", "timerlat: and closed there (preempt_enable before the thread ran)");
	ok(c.wakeup.blame.kind == BLAME_SITE && !strcmp(c.wakeup.blame.call_site, "squashfs multi-CPU decompressor"),
	   "timerlat: the worst wake-up is the decompressor's section");
	is_str(c.wakeup.blame.text, "squashfs_decompress → squashfs multi-CPU decompressor", "timerlat: in words");
	ok(c.preemptoff.nruns == 2 && c.preemptoff.runs_us[0] == 52786 && c.preemptoff.runs_us[1] == 52784 &&
	   c.irqsoff.nruns == 2, "timerlat: the tracer passes ran twice, each run's maximum kept");
	cell_free(&c);
	/*
	 * A hit in rtla's last second: with -d 1s its alarm fires during its
	 * first sleep, so rtla printed no analysis (rtla.out has no "hit stop
	 * tracing"), yet tracing stopped. The trace says what happened.
	 */
	ok(cell_load(&c, FX "timerlat-lost-analysis-baseline-squashfs", &cs, WINDOW_US) == 0 && c.wakeup.stopped &&
	   c.wakeup.hit && !c.wakeup.trace_lost, "timerlat, rtla's analysis lost: the hit is read from the trace");
	ok(c.wakeup.latency_us > 52286 && c.wakeup.max_us >= (double)c.wakeup.threshold_us &&
	   c.wakeup.blame.kind == BLAME_SITE, "timerlat, rtla's analysis lost: 52286 us, the decompressor's section");
	cell_free(&c);
	/*
	 * A spinlock's section on baseline zram: the thread latency with the
	 * events recorded (223 and 370 us) against 139 us in the latency pass;
	 * the section opens and closes in the lock functions: unattributed,
	 * with where the timer found the holder as context.
	 */
	ok(cell_load(&c, FX "timerlat-baseline-zram", &cs, WINDOW_US) == 0 && c.wakeup.hit &&
	   c.wakeup.latency_us > 370 && c.wakeup.latency_us < 371, "timerlat zram: a 370.2 us thread latency");
	ok(!strcmp(c.wakeup.opened, "_raw_spin_lock_irq") && !strcmp(c.wakeup.closed, "_raw_spin_unlock_irq"),
	   "timerlat zram: the section opened and closed in the lock functions");
	ok(c.wakeup.blame.kind == BLAME_NONE, "timerlat zram: no call site");
	is_str(c.wakeup.blame.text, "_raw_spin_lock_irq…_raw_spin_unlock_irq; at clear_shadow_from_swap_cache ← "
	       "swap_entry_range_free ← swapcache_free_entries", "timerlat zram: the holder's frames as context");
	cell_free(&c);
	/*
	 * rt squashfs: the floor is the idle noise timerlat measured first (4
	 * us), so rt gets a traced wake-up too (19 us with the events
	 * recorded): no preempt-off section was open at the interrupt, which
	 * found rtla itself running.
	 */
	ok(cell_load(&c, FX "timerlat-rt-squashfs", &cs, WINDOW_US) == 0 && c.wakeup.hit &&
	   c.wakeup.idle_max_us == 4 && c.wakeup.threshold_us == 5, "timerlat rt: threshold 5 us over 4 us idle noise");
	ok(c.wakeup.blame.kind == BLAME_NONE && !c.wakeup.opened[0] &&
	   !strncmp(c.wakeup.blame.text, "no section open; at migrate_disable", 35),
	   "timerlat rt: no section open at the interrupt (%s)", c.wakeup.blame.text);
	cell_free(&c);
	/*
	 * rt squashfs on 2 vCPUs (1 task each) under tcg-icount: the idle
	 * noise is 507 us; CPU 1's timer IRQ came on time (1.8 us), then its
	 * handler ran 2.5 ms while vCPU0 ran the squashfs reader (QEMU runs the
	 * vCPUs round-robin on one instruction clock): the section is the
	 * measurement's own interrupt, from irq_enter_rcu to irq_exit_rcu.
	 */
	ok(cell_load(&c, FX "timerlat-2vcpu-rt-squashfs", &cs, WINDOW_US) == 0 && c.wakeup.hit && !c.wakeup.irq &&
	   c.wakeup.idle_max_us == 507, "timerlat 2 vCPUs: a thread latency, idle noise 507 us");
	ok(c.wakeup.latency_us > 2474 && c.wakeup.latency_us < 2475 && c.wakeup.irq_latency_us < 2,
	   "timerlat 2 vCPUs: thread latency 2474.9 us, IRQ latency 1.8 us");
	ok(c.wakeup.blame.kind == BLAME_INTERRUPT && !c.wakeup.blame.call_site &&
	   !strcmp(c.wakeup.blame.interrupt, "timerlat's own timer interrupt (the measurement)"),
	   "timerlat 2 vCPUs: the measurement's own interrupt, not a call site");
	cell_free(&c);
	/*
	 * The path proof on rt lru (verify pass only): every target counted for
	 * all tasks but the harness's, against an idle control of the same
	 * length. folio_rotate_reclaimable runs in the virtio IRQ thread (swap
	 * writeback end; threaded interrupts on PREEMPT_RT): counted.
	 * folio_mark_accessed has 3953 idle hits (init's forks) and 102403 with
	 * the workload.
	 */
	ok(cell_load(&c, FX "path-rt-lru", &cs, WINDOW_US) == 0 && c.nhits == 10, "path: ten targets");
	{
		unsigned int reached = 0, controlled = 0;
		const struct path_hit *rot = NULL, *acc = NULL;

		for (i = 0; i < c.nhits; i++) {
			reached += c.hits[i].reached;
			controlled += c.hits[i].has_idle;
			if (!strcmp(c.hits[i].function, "folio_rotate_reclaimable"))
				rot = &c.hits[i];
			if (!strcmp(c.hits[i].function, "folio_mark_accessed"))
				acc = &c.hits[i];
		}
		ok(controlled == 10 && reached == 10, "path: all ten with an idle control, all reached");
		ok(rot && rot->hits == 52416 && rot->idle_hits == 0,
		   "path: folio_rotate_reclaimable counted in the IRQ thread (52416, idle 0)");
		ok(acc && acc->idle_hits == 3953 && acc->hits >= PATH_IDLE_FACTOR * acc->idle_hits,
		   "path: folio_mark_accessed well above its idle control (3953)");
	}
	cell_free(&c);
	/* The rule itself, on lines written as the guest writes them. */
	{
		char dir[] = "/tmp/locklat-test-hits-XXXXXX", path[256];
		FILE *f;

		ok(mkdtemp(dir) != NULL, "path rule: scratch cell");
		snprintf(path, sizeof(path), "%s/guest", dir);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/meta", dir);
		f = fopen(path, "w");
		fputs("complete=1\nvariant=x\nworkload=lru\nstatus=OK\nrep=1\n", f);
		fclose(f);
		snprintf(path, sizeof(path), "%s/guest/path-hits", dir);
		f = fopen(path, "w");
		/* init's forks alone: as many with the workload as without it */
		fputs("alloc_pid 30 29\n", f);
		fputs("lru_add_drain 6076 6076\n", f);
		/* few hits, none idle */
		fputs("lru_add_drain_cpu_zone 9 0\n", f);
		fputs("folio_add_lru 1000 99\n", f);
		fputs("send_msg unavailable\n", f);
		fclose(f);
		ok(cell_load(&c, dir, &cs, WINDOW_US) == 0 && c.nhits == 5, "path rule: five targets read");
		ok(!c.hits[0].reached && !c.hits[1].reached, "path rule: counts at the idle level are not reached");
		ok(!c.hits[2].reached, "path rule: fewer than PATH_MIN_HITS is not reached");
		ok(c.hits[3].reached, "path rule: 1000 against 99 idle is reached (over 10x)");
		ok(c.hits[4].unavailable && !c.hits[4].reached, "path rule: an unprobeable target is kept, by name");
		cell_free(&c);
		snprintf(path, sizeof(path), "rm -rf %s", dir);
		ok(system(path) == 0, "path rule: scratch cell removed");
	}
	/* A complete cell whose cyclictest.json was cut short: no number. */
	{
		char dir[] = "/tmp/locklat-test-cut-XXXXXX", cmd[512];

		ok(mkdtemp(dir) != NULL, "cut json: scratch copy");
		snprintf(cmd, sizeof(cmd), "cp -a " FX "ok-squashfs/. %s && truncate -s 300 %s/guest/cyclictest.json",
			 dir, dir);
		ok(system(cmd) == 0, "cut json: ok-squashfs with cyclictest.json cut at 300 bytes");
		ok(cell_load(&c, dir, &cs, WINDOW_US) == 0 && !c.has_latency && !strcmp(c.status, "INVALID") &&
			   strstr(c.reason, "cyclictest.json does not parse"),
		   "cut json: INVALID, no latency read from it");
		cell_free(&c);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		ok(system(cmd) == 0, "cut json: scratch copy removed");
	}
	lock_tests(&cs);
	integrity_tests(&cs);
	ok(cell_load(&c, FX "no-such-cell", &cs, WINDOW_US) == 1, "a directory without meta is not a cell");
	cell_free(&c);
	call_sites_free(&cs);
	tap_exit();
}
