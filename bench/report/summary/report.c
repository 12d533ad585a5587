// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the summary's outputs: summary.md for people, summary.json and
 * summary.csv for tools, plot-data/ for the gnuplot scripts in plots/.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "locklat.h"
#include "summary.h"

FILE *report_open(const struct run *run, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.tmp", run->dir, name);
	f = fopen(path, "w");
	if (!f)
		err_exit_errno(LL_EXIT_FAIL, "create %s", path);
	return f;
}

void report_close(FILE *f, const struct run *run, const char *name)
{
	char tmp[4096], path[4096];

	snprintf(tmp, sizeof(tmp), "%s/%s.tmp", run->dir, name);
	snprintf(path, sizeof(path), "%s/%s", run->dir, name);
	if (fflush(f) || ferror(f) || fclose(f))
		err_exit_errno(LL_EXIT_FAIL, "write %s", tmp);
	if (rename(tmp, path))
		err_exit_errno(LL_EXIT_FAIL, "rename %s", tmp);
}

/* Whether the ", "-separated LIST holds ITEM whole ("3" is not in "30"). */
static bool list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	const char *p = list;

	for (;;) {
		if (!strncmp(p, item, n) && (p[n] == '\0' || p[n] == ','))
			return true;
		p = strstr(p, ", ");
		if (!p)
			return false;
		p += 2;
	}
}

/* A cell's folder relative to the run directory: links in a copied or committed run keep working. */
static const char *cell_rel_dir(const struct run *run, const struct cell *c)
{
	size_t n = strlen(run->dir);

	if (!strncmp(c->dir, run->dir, n) && c->dir[n] == '/')
		return c->dir + n + 1;
	return c->dir;
}

/* Distinct values of a meta key over all cells (with latency_only, over the cells with a latency pass), comma-separated. */
static void meta_values_of(const struct run *run, const char *key, bool latency_only, char *out, size_t size)
{
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < run->ncells; i++) {
		const char *v = kv_str(&run->cells[i].meta, key, "?");
		char quoted[512];

		if (latency_only && !run->cells[i].has_latency)
			continue;

		snprintf(quoted, sizeof(quoted), "%s%s", len ? ", " : "", v);
		if (len && list_has(out, v))
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s", quoted);
		if (len >= size)
			break;
	}
}

static void meta_values(const struct run *run, const char *key, char *out, size_t size)
{
	meta_values_of(run, key, false, out, size);
}

static size_t count_status(const struct run *run, const char *status)
{
	size_t i, n = 0;

	for (i = 0; i < run->ncells; i++)
		n += !strcmp(run->cells[i].status, status);
	return n;
}

static bool run_uses_tcg(const struct run *run)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		if (!strncmp(run->cells[i].accel, "tcg", 3))
			return true;
	return false;
}

static size_t max_rep(const struct run *run)
{
	size_t i, m = 0;

	for (i = 0; i < run->ncells; i++)
		if (run->cells[i].rep > m)
			m = run->cells[i].rep;
	return m;
}

/* "median [min–max]" of a group's per-repetition values, or "–". */
static const char *spread(char *buf, size_t size, const double *v, size_t n)
{
	if (!n)
		snprintf(buf, size, "–");
	else if (n == 1)
		snprintf(buf, size, "%.0f", v[0]);
	else
		snprintf(buf, size, "%.0f [%.0f–%.0f]", median(v, n), min_of(v, n), max_of(v, n));
	return buf;
}

/* The cell's name in plot-data/ and plots/: series-<variant>-<workload>-rep<N>. */
static void series_name(char *buf, size_t size, const struct cell *c)
{
	snprintf(buf, size, "series-%s-%s-%s", c->variant, c->workload, c->name);
}

/* The vCPU count of the run's latency cells, or 0 if they differ. */
static unsigned int run_vcpus(const struct run *run)
{
	unsigned int vcpus = 0;
	uint64_t v;
	size_t i;

	for (i = 0; i < run->ncells; i++) {
		if (!run->cells[i].has_latency ||
		    !parse_u64(kv_str(&run->cells[i].meta, "vcpus", ""), 1, 4096, &v))
			continue;
		if (vcpus && vcpus != v)
			return 0;
		vcpus = (unsigned int)v;
	}
	return vcpus;
}

/*
 * What one µs is under the accelerator the run used (METHODOLOGY.md, "Guest
 * and accelerators"): under tcg-icount the clock counts the instructions of
 * every vCPU, as one TCG thread runs them in turn.
 */
static void md_clock(FILE *f, const struct run *run)
{
	unsigned int vcpus = run_vcpus(run);
	char accel[256];

	meta_values_of(run, "accel", true, accel, sizeof(accel));
	if (strstr(accel, "tcg-icount")) {
		fprintf(f, "> **Instruction time, not hardware latency.** Under `tcg-icount` one host thread runs "
			"every vCPU in turn and the guest clock advances 1 ns per instruction executed by any of "
			"them. ");
		if (vcpus == 1)
			fprintf(f, "With 1 vCPU, 1 µs is 1000 instructions of that vCPU: a section's length is the "
				"number of instructions it ran. ");
		else
			fprintf(f, "With %u vCPUs, 1 µs is 1000 instructions of all of them together: a section on "
				"one vCPU lasts its own instructions plus those the others ran meanwhile (up to %u× "
				"its own when all are busy). ", vcpus ? vcpus : 2, vcpus ? vcpus : 2);
		fprintf(f, "Compare builds with each other, not with hardware numbers.\n\n");
	}
	if (strstr(accel, "kvm"))
		fprintf(f, "> `kvm`: wall-clock µs of hardware-assisted guests, pinned vCPUs; host "
			"interrupts and scheduling reach the guest.\n\n");
	if (strstr(accel, "tcg") && !strstr(accel, "tcg-icount"))
		fprintf(f, "> `tcg` (multi-threaded, no icount): wall-clock µs of an emulated guest, host "
			"scheduling noise included (idle maxima ~12 ms here): for experiments only.\n\n");
}

/*
 * How many comparisons there are and how many intervals would exclude 1 by
 * chance alone: the sum of each one's attainable error rate (1 - its
 * interval's exact coverage), not 0.05 times their count.
 */
static void md_chance(FILE *f, const struct run *run)
{
	double expected = 0;
	size_t i, n = 0;

	for (i = 0; i < run->ncmps; i++) {
		if (!run->cmps[i].ci.valid || run->cmps[i].ci.coverage <= 0)
			continue;
		expected += 1 - run->cmps[i].ci.coverage;
		n++;
	}
	fprintf(f, "Each comparison gives the Hodges–Lehmann ratio of A's values to B's with its exact "
		"95%% interval (which inverts the two-sided Mann–Whitney test), for the typical worst second "
		"(the median of a repetition's per-second maxima, when each has 3 s after the window) and for "
		"the pass maximum; the verdict reads from the first where there is one. Ratios within ±5%% "
		"are the same. Of the %zu comparisons with an interval, about %.2f would exclude 1 by chance "
		"alone (the sum of their attainable error rates).", n, expected);
	if (run->question_a)
		fprintf(f, " The question the suite asks first is %s vs %s on %s", run->question_a, run->question_b,
			run->question_workload);
	/* An A/A check: a comparison the file expects to come out the same everywhere. */
	for (i = 0; i < run->ndefs; i++) {
		const struct comparison_def *d = &run->defs[i];

		if (d->expect == EXPECT_SAME && !strcmp(d->workload, "*")) {
			fprintf(f, "%s%s vs %s is an A/A check", run->question_a ? "; " : " ", d->a, d->b);
			break;
		}
	}
	fputs(run->question_a || i < run->ndefs ? ".\n\n" : "\n\n", f);
}

/* Some cell ran on a traced kernel (a run with the plain/traced split). */
static bool run_has_traced(const struct run *run)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		if (run->cells[i].traced_kernel)
			return true;
	return false;
}

static void md_header(FILE *f, const struct run *run)
{
	char buf[2048];
	const char *base = strrchr(run->dir, '/');

	fprintf(f, "# locklat summary: run `%s`\n\n", base ? base + 1 : run->dir);
	fprintf(f, "%zu complete cells: %zu OK, %zu FINDINGS, %zu TIMEOUT, %zu INVALID, %zu INFRA",
		run->ncells, count_status(run, "OK"), count_status(run, "FINDINGS"),
		count_status(run, "TIMEOUT"), count_status(run, "INVALID"),
		count_status(run, "INFRA"));
	if (run->partial)
		fprintf(f, "; %zu incomplete cells not counted", run->partial);
	fprintf(f, ". Up to %zu repetitions per variant and workload.\n\n", max_rep(run));

	meta_values(run, "accel", buf, sizeof(buf));
	fprintf(f, "- Accelerator: **%s**\n", buf);
	meta_values(run, "vcpus", buf, sizeof(buf));
	fprintf(f, "- Guest: %s vCPU(s), pinned (see each cell's `pinning`); ", buf);
	meta_values(run, "guest_mem_mib", buf, sizeof(buf));
	fprintf(f, "%s MiB\n", buf);
	meta_values_of(run, "duration_s", true, buf, sizeof(buf));
	fprintf(f, "- Latency pass: %s s of guest time (", buf);
	meta_values_of(run, "warmup_s", true, buf, sizeof(buf));
	fprintf(f, "after %s s of workload warm-up); cyclictest `-m -p95 -a -i 200`, one thread per vCPU, ", buf);
	meta_values(run, "hist_range_us", buf, sizeof(buf));
	fprintf(f, "histogram range %s µs; tracer and verification passes ", buf);
	meta_values_of(run, "trace_duration_s", true, buf, sizeof(buf));
	fprintf(f, "%s s\n", buf);
	meta_values(run, "manifest.source_package", buf, sizeof(buf));
	fprintf(f, "- Kernel source: %s; ", buf);
	meta_values(run, "manifest.gcc_version", buf, sizeof(buf));
	fprintf(f, "gcc %s\n", buf);
	meta_values(run, "qemu_version", buf, sizeof(buf));
	fprintf(f, "- %s; ", buf);
	meta_values(run, "cyclictest_version", buf, sizeof(buf));
	fprintf(f, "rt-tests %s; ", buf);
	meta_values(run, "trace_cmd_version", buf, sizeof(buf));
	fprintf(f, "trace-cmd %s\n", buf);
	meta_values(run, "host_cpu", buf, sizeof(buf));
	fprintf(f, "- Host CPU: %s; ", buf);
	meta_values(run, "suite_revision", buf, sizeof(buf));
	fprintf(f, "locklat revision %s\n\n", buf);
	md_clock(f, run);
	fprintf(f, "All latencies in µs. Across repetitions: median [min–max]. Each repetition's maximum and "
		"percentiles are of its pass **after a %.1f s start-up window** (cyclictest's own start and the "
		"load's ramp; what falls inside it is shown on its own row, and cyclictest's maximum over the "
		"whole pass is in `summary.json` as `cyclictest_max_us`). Percentiles are corrected for "
		"coordinated omission: each period a late wake-up made cyclictest skip counts as the wake-up "
		"it would have been. A repetition counts as measured only if its load progressed in every "
		"second of the pass. Plots: [max latency](%s/max.svg), [preemptoff](%s/preemptoff.svg), "
		"[irqsoff](%s/irqsoff.svg), per workload `%s/hist-<workload>.svg`.\n\n",
		(double)run->window_us / 1e6, run->plots_dir, run->plots_dir, run->plots_dir, run->plots_dir);
	if (run_has_traced(run))
		fprintf(f, "Two kernels per variant: the repetitions ran on its **plain** kernel, without the "
			"preemptoff and irqsoff tracers, whose hooks lengthen every `preempt_disable()` section "
			"under icount; the traces, the timerlat pass and the path proof come from one cell per "
			"column on its **traced** kernel (`<variant>+tracers`), whose own latency pass has a row "
			"of its own and is what a traced section is held against.\n\n");
	md_chance(f, run);
}

/*
 * The rest of a table's header after its first column: a column per variant
 * and, if last is not NULL, one more; then the separator line.
 */
static void md_variant_columns(FILE *f, const struct run *run, const char *last)
{
	size_t v;

	for (v = 0; v < run->nvariants; v++)
		fprintf(f, " %s |", run->variants[v]);
	if (last)
		fprintf(f, " %s |", last);
	fprintf(f, "\n|---|");
	for (v = 0; v < run->nvariants + (last != NULL); v++)
		fprintf(f, "---|");
	fputc('\n', f);
}

/*
 * A traced section longer than the pass was to last (warm-up + duration):
 * the guest stalled inside the pass (seen: an RCU stall of 21 s, RCU's stall
 * timeout, while the preemptoff tracer was switched on under PREEMPT_RT).
 * Said next to the number rather than hidden.
 */
static bool trace_longer_than_pass(const struct cell *c, const struct trace_worst *t)
{
	uint64_t duration = 0, warmup = 0;

	if (!c || !parse_u64(kv_str(&c->meta, "duration_s", ""), 1, UINT64_MAX / 2000000, &duration))
		return false;
	parse_u64(kv_str(&c->meta, "warmup_s", "0"), 0, UINT64_MAX / 2000000, &warmup);
	return t->max_us > (duration + warmup) * 1000000;
}

/*
 * A traced section that lasted more than TRACE_LATENCY_FACTOR times the
 * worst wake-up the latency pass of the same kernel saw (cyclictest's
 * whole-pass maximum of the traced cell, group.trace_ref_us): a section that
 * long on the measured CPU delays a wake-up by nearly its length (one comes
 * every 200 µs), so the latency pass never met it, and the tracer's pass is
 * not evidence for the column's latency. Flagged, never shown as a culprit.
 */
#define TRACE_LATENCY_FACTOR 2
bool trace_beyond_latency(const struct group *g, const struct trace_worst *t)
{
	return g->trace_ref_us > 0 && (double)t->max_us > TRACE_LATENCY_FACTOR * g->trace_ref_us;
}

/* The same test for the timerlat pass's traced wake-up. */
bool wakeup_beyond_latency(const struct group *g, const struct wakeup_trace *w)
{
	return g->trace_ref_us > 0 && w->hit && w->latency_us > TRACE_LATENCY_FACTOR * g->trace_ref_us;
}

/* What trace_beyond_latency held a trace against, in words. */
static const char *trace_ref_words(const struct group *g)
{
	return g->trace_ref_own ? "the worst wake-up of the traced kernel's latency pass"
				: "the column's worst wake-up";
}

/*
 * The traced kernel's latency pass against the plain kernel's repetitions:
 * the tracers' hooks (TRACE_PREEMPT_TOGGLE) lengthen each section under
 * icount, which is why the repetitions run without them. One pass: a
 * ratio, not a test.
 */
static void md_traced_max(FILE *f, const struct group *g)
{
	char buf[32];

	if (isnan(g->traced_max_us)) {
		fprintf(f, " – |");
		return;
	}
	fprintf(f, " %s%.0f", g->traced_max_censored ? "≥ " : "", g->traced_max_us);
	if (g->traced_cell->load.verdict == LOAD_DEAD)
		fprintf(f, " (**its load died**: %s)", g->traced_cell->load.reason);
	else if (g->n)
		fprintf(f, " (%s× the median above)",
			ratio_str(buf, sizeof(buf), g->traced_max_us / median(g->max, g->n)));
	fprintf(f, " |");
}

/*
 * The worst wake-up, traced (the timerlat pass of the traced cell, or in older runs the first repetition that
 * has one): its latency, IRQ or thread, and the section that blocked it, or
 * that none crossed the pass's threshold in its seconds.
 */
static void md_wakeup(FILE *f, const struct group *g)
{
	const struct wakeup_trace *w = g->wakeup_cell ? &g->wakeup_cell->wakeup : NULL;

	if (!w)
		fprintf(f, " – |");
	else if (!w->hit)
		fprintf(f, " none over %llu µs (timerlat's max %.0f µs) |", (unsigned long long)w->threshold_us,
			w->top_max_us);
	else if (wakeup_beyond_latency(g, w))
		fprintf(f, " %.0f µs %s: %s (**flagged**: over %u× %s, %.0f µs; not a culprit) |",
			w->latency_us, w->irq ? "IRQ" : "thread", w->blocker[0] ? w->blocker : "?",
			TRACE_LATENCY_FACTOR, trace_ref_words(g), g->trace_ref_us);
	else
		fprintf(f, " %.0f µs %s: %s%s%s%s |", w->latency_us, w->irq ? "IRQ" : "thread", w->culprit,
			w->blocking_thread[0] ? " (blocking " : "", w->blocking_thread,
			w->blocking_thread[0] ? ")" : "");
}

/*
 * How many of the workload's target functions the verification pass reached
 * (its own processes, well above the idle control: PATH_MIN_HITS,
 * PATH_IDLE_FACTOR), in the first repetition that has one, naming those it
 * did not reach and those the kernel could not probe: the call sites a
 * column's latency figures actually stand for.
 */
static void md_targets_reached(FILE *f, const struct group *g)
{
	const struct cell *c = g->verify_cell;
	unsigned int k, reached = 0, probed = 0, missed = 0, unavailable = 0;
	bool controlled = false;

	if (!c) {
		fprintf(f, " – |");
		return;
	}
	for (k = 0; k < c->nhits; k++) {
		reached += c->hits[k].reached;
		probed += !c->hits[k].unavailable;
		controlled |= c->hits[k].has_idle;
	}
	fprintf(f, " %u of %u", reached, probed);
	for (k = 0; k < c->nhits; k++)
		if (!c->hits[k].reached && !c->hits[k].unavailable)
			fprintf(f, "%s%s", missed++ ? ", " : " (not: ", c->hits[k].function);
	fprintf(f, "%s", missed ? ")" : "");
	for (k = 0; k < c->nhits; k++)
		if (c->hits[k].unavailable)
			fprintf(f, "%s%s", unavailable++ ? ", " : "; not probeable: ", c->hits[k].function);
	fprintf(f, "%s |", controlled ? "" : " (any task, no idle control)");
}

/* The load of a group's cells: how many ran through the pass, how the others ended. */
static void md_load(FILE *f, const struct run *run, const struct group *g)
{
	size_t i, alive = 0, dead = 0, unknown = 0, none = 0;
	double first_death = -1;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (strcmp(c->variant, g->variant) || strcmp(c->workload, g->workload) || !c->has_latency ||
		    c->traced_kernel)
			continue;
		switch (c->load.verdict) {
		case LOAD_ALIVE: alive++; break;
		case LOAD_UNKNOWN: unknown++; break;
		case LOAD_NONE: none++; break;
		case LOAD_DEAD:
			dead++;
			if (first_death < 0 || c->load.died_at_s < first_death)
				first_death = c->load.died_at_s;
			break;
		}
	}
	if (!alive && !dead && !unknown) {
		fprintf(f, " %s |", none ? "no load" : "–");
		return;
	}
	if (!alive && !dead) {
		fprintf(f, " not recorded (%zu cells from before progress lines) |", unknown);
		return;
	}
	fprintf(f, " alive in %zu of %zu", alive, alive + dead + unknown);
	if (dead)
		fprintf(f, "; **died or stalled in %zu** (first at %.1f s)", dead, first_death);
	if (unknown)
		fprintf(f, "; %zu without progress data", unknown);
	fprintf(f, " |");
}

/*
 * One table cell per function: a group's value in a workload's row,
 * written as " value |".
 */
static void md_cell_max(FILE *f, const struct run *run, const struct group *g)
{
	char buf[128];

	(void)run;
	fprintf(f, " **%s%s**", g->max_censored ? "≥ " : "", spread(buf, sizeof(buf), g->max, g->n));
	if (g->died + g->load_dead)
		fprintf(f, " + %zu failed under load", g->died + g->load_dead);
	fprintf(f, " |");
}

static void md_cell_blocks(FILE *f, const struct run *run, const struct group *g)
{
	char buf[128];

	(void)run;
	if (g->n && g->min_blocks)
		fprintf(f, " %s (%u+ s each) |", spread(buf, sizeof(buf), g->block_median, g->n), g->min_blocks);
	else
		fprintf(f, " – |");
}

static void md_cell_startup_max(FILE *f, const struct run *run, const struct group *g)
{
	char buf[128];

	(void)run;
	fprintf(f, " %s |", g->steady ? spread(buf, sizeof(buf), g->startup_max, g->n) : "–");
}

/* "≥": the value is the histogram's range, the percentile lies beyond. */
static void md_cell_p99(FILE *f, const struct run *run, const struct group *g)
{
	char buf[128];

	(void)run;
	fprintf(f, " %s%s |", g->p99_over ? "≥ " : "", spread(buf, sizeof(buf), g->p99, g->n));
}

static void md_cell_p999(FILE *f, const struct run *run, const struct group *g)
{
	char buf[128];

	(void)run;
	fprintf(f, " %s%s |", g->p999_over ? "≥ " : "", spread(buf, sizeof(buf), g->p999, g->n));
}

static void md_cell_p50(FILE *f, const struct run *run, const struct group *g)
{
	char buf[128];

	(void)run;
	fprintf(f, " %s%s |", g->p50_over ? "≥ " : "", spread(buf, sizeof(buf), g->p50, g->n));
}

static void md_cell_wakeups(FILE *f, const struct run *run, const struct group *g)
{
	(void)run;
	if (g->steady && g->wakeups_due)
		fprintf(f, " %llu / %llu (%.0f%%); +%llu skipped, counted by the correction |",
			g->samples, g->wakeups_due, 100.0 * (double)g->samples / (double)g->wakeups_due,
			g->wakeups_added);
	else if (g->n)
		fprintf(f, " %llu recorded (whole pass; uncorrected percentiles) |", g->samples);
	else
		fprintf(f, " – |");
}

static void md_cell_reps(FILE *f, const struct run *run, const struct group *g)
{
	(void)run;
	fprintf(f, " %zu / %zu", g->n, g->ncells);
	if (g->died)
		fprintf(f, " (%zu hung or panicked in the latency pass)", g->died);
	if (g->load_dead)
		fprintf(f, " (%zu with a dead load)", g->load_dead);
	fprintf(f, " |");
}

/* The worst section a tracer recorded, with its culprit or why it has none. */
static void md_trace_worst(FILE *f, const struct group *g, const struct cell *c, const struct trace_worst *t)
{
	if (!t)
		fprintf(f, " – |");
	else if (trace_longer_than_pass(c, t))
		fprintf(f, " %llu: %s (longer than the pass was to last: the guest stalled; see the cell's console) |",
			(unsigned long long)t->max_us, t->started[0] ? t->started : "?");
	else if (trace_beyond_latency(g, t))
		fprintf(f, " %llu: %s (**flagged**: over %u× %s, %.0f µs: no latency pass saw it; not a culprit) |",
			(unsigned long long)t->max_us, t->started[0] ? t->started : "?",
			TRACE_LATENCY_FACTOR, trace_ref_words(g), g->trace_ref_us);
	else
		fprintf(f, " %llu: %s |", (unsigned long long)t->max_us, t->culprit);
}

static void md_cell_preemptoff(FILE *f, const struct run *run, const struct group *g)
{
	(void)run;
	md_trace_worst(f, g, g->preemptoff_cell, g->preemptoff_cell ? &g->preemptoff_cell->preemptoff : NULL);
}

static void md_cell_irqsoff(FILE *f, const struct run *run, const struct group *g)
{
	(void)run;
	md_trace_worst(f, g, g->irqsoff_cell, g->irqsoff_cell ? &g->irqsoff_cell->irqsoff : NULL);
}

static void md_cell_traced_max(FILE *f, const struct run *run, const struct group *g)
{
	(void)run;
	md_traced_max(f, g);
}

static void md_cell_wakeup(FILE *f, const struct run *run, const struct group *g)
{
	(void)run;
	md_wakeup(f, g);
}

static void md_cell_splats(FILE *f, const struct run *run, const struct group *g)
{
	(void)run;
	fprintf(f, " %u |", g->findings);
}

static void md_cell_targets(FILE *f, const struct run *run, const struct group *g)
{
	(void)run;
	md_targets_reached(f, g);
}

/* The rows of a workload's table, in order: a label and how to fill a cell. */
static const struct md_row {
	const char *label;
	void (*cell)(FILE *f, const struct run *run, const struct group *g);
	bool needs_traced;	/* runs from before the plain/traced split have no traced kernel */
} md_rows[] = {
	{ "max latency (after the start-up window)", md_cell_max, false },
	{ "typical worst second (median of per-second maxima)", md_cell_blocks, false },
	{ "start-up max (inside the window)", md_cell_startup_max, false },
	{ "p99", md_cell_p99, false },
	{ "p99.9", md_cell_p999, false },
	{ "median", md_cell_p50, false },
	{ "wake-ups recorded / due", md_cell_wakeups, false },
	{ "repetitions measured / cells", md_cell_reps, false },
	{ "load through the latency pass", md_load, false },
	{ "max latency on the traced kernel (one pass: the tracers' cost)", md_cell_traced_max, true },
	{ "worst wake-up traced (timerlat): culprit", md_cell_wakeup, false },
	{ "preemptoff worst: culprit", md_cell_preemptoff, false },
	{ "irqsoff worst: culprit", md_cell_irqsoff, false },
	{ "kernel splats (count)", md_cell_splats, false },
	{ "targets reached (verify pass)", md_cell_targets, false },
};

/* Links to the cells' per-second plots, a line per variant. */
static void md_series(FILE *f, const struct run *run, const char *workload)
{
	char name[512];
	size_t v, i, n = 0;

	for (v = 0; v < run->nvariants; v++) {
		size_t links = 0;

		for (i = 0; i < run->ncells; i++) {
			const struct cell *c = &run->cells[i];

			if (!c->has_series || strcmp(c->variant, run->variants[v]) ||
			    strcmp(c->workload, workload))
				continue;
			if (!n++)
				fprintf(f, "Per-second maximum over the latency pass, per cell:\n\n");
			if (!links++)
				fprintf(f, "- %s:", c->variant);
			series_name(name, sizeof(name), c);
			fprintf(f, " [%s](%s/%s.svg)", c->name, run->plots_dir, name);
		}
		if (links)
			fputc('\n', f);
	}
	if (n)
		fputc('\n', f);
}

/* A ratio with its interval as a table cell ("–" without one). */
static void md_interval(FILE *f, const struct ratio_ci *ci)
{
	char lo[16], hi[16], est[16];

	if (ci && ci->valid && ci->coverage > 0)
		fprintf(f, " %s× [%s–%s] |", ratio_str(est, sizeof(est), ci->estimate),
			ratio_str(lo, sizeof(lo), ci->lo), ratio_str(hi, sizeof(hi), ci->hi));
	else if (ci && ci->valid)
		fprintf(f, " %s× [no interval] |", ratio_str(est, sizeof(est), ci->estimate));
	else
		fprintf(f, " – |");
}

static void md_workload(FILE *f, struct run *run, const char *workload)
{
	size_t i, r, v;

	fprintf(f, "## Workload `%s`\n\n|  |", workload);
	md_variant_columns(f, run, NULL);
	for (r = 0; r < ARRAY_SIZE(md_rows); r++) {
		if (md_rows[r].needs_traced && !run_has_traced(run))
			continue;
		fprintf(f, "| %s |", md_rows[r].label);
		for (v = 0; v < run->nvariants; v++)
			md_rows[r].cell(f, run, group_find(run, run->variants[v], workload));
		fputc('\n', f);
	}

	fprintf(f, "\n| comparison | worst second: ratio [95%% interval] | pass max: ratio [95%% interval] | ratio of median maxima | p (max) | p (p99) | verdict | expected |\n"
		"|---|---|---|---|---|---|---|---|\n");
	for (i = 0; i < run->ncmps; i++) {
		const struct comparison *cmp = &run->cmps[i];

		if (strcmp(cmp->workload, workload))
			continue;
		fprintf(f, "| %s vs %s (%zu vs %zu) |", cmp->a->variant, cmp->b->variant, cmp->na, cmp->nb);
		md_interval(f, cmp->by_blocks ? &cmp->ci_blocks : NULL);
		md_interval(f, &cmp->ci_max);
		if (!isnan(cmp->ratio_medians))
			fprintf(f, " %.2f× |", cmp->ratio_medians);
		else
			fprintf(f, " – |");
		if (!isnan(cmp->p_max))
			fprintf(f, " %.3f |", cmp->p_max);
		else
			fprintf(f, " – |");
		if (!isnan(cmp->p_p99))
			fprintf(f, " %.3f |", cmp->p_p99);
		else
			fprintf(f, " – |");
		fprintf(f, " %s%s | %s: %s |\n", cmp->contradicts ? "**contradicts the expectation**: " : "",
			cmp->verdict, expectation_words(cmp->def->expect), cmp->def->why);
	}
	fprintf(f, "\n![latency histogram](%s/hist-%s.svg)\n\n", run->plots_dir, workload);
	md_series(f, run, workload);
}

static void md_problems(FILE *f, const struct run *run)
{
	size_t i, n = 0;
	unsigned int k;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		char why[512];

		/* A panic is a finding, and the guest still did not finish. */
		if ((!strcmp(c->status, "OK") || !strcmp(c->status, "FINDINGS")) && !cell_panicked(c))
			continue;
		if (c->reason[0])
			snprintf(why, sizeof(why), "%s", c->reason);
		else
			snprintf(why, sizeof(why), "the kernel panicked%s%s%s", c->hung_step[0] ? " in the " : "",
				 c->hung_step, c->hung_step[0] ? " pass" : "");
		if (!n++)
			fprintf(f, "## Cells that did not finish\n\n| cell | status | reason | log |\n|---|---|---|---|\n");
		fprintf(f, "| %s/%s/%s | %s | %s%s | `%s/console.log` |\n", c->variant,
			c->workload, c->name, c->status, why,
			cell_measured(c) ? " (its latency pass had completed: it counts)" : "", cell_rel_dir(run, c));
	}
	if (n)
		fputc('\n', f);
	n = 0;
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		const char *why = cell_left_out(c);

		if (!why)
			continue;
		if (!n++)
			fprintf(f, "## Repetitions left out of the latency statistics\n\n"
				"Not among a column's measured repetitions; those that failed under their load "
				"are ranked as the worst maxima in the comparisons.\n\n"
				"| cell | why | ranked as worst |\n|---|---|---|\n");
		fprintf(f, "| %s/%s/%s | %s | %s |\n", c->variant, c->workload, c->name, why,
			cell_failed_in_latency(c) ? "yes" : "no");
	}
	if (n)
		fputc('\n', f);
	n = 0;
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		for (k = 0; k < c->nfindings; k++) {
			if (!n++)
				fprintf(f, "## Kernel splats\n\n| cell | kind | count | first line |\n|---|---|---|---|\n");
			fprintf(f, "| %s/%s/%s | %s | %u | `%s` |\n", c->variant, c->workload,
				c->name, c->findings[k].kind, c->findings[k].count, c->findings[k].line);
		}
	}
	if (n)
		fputc('\n', f);
}

/* The first cell of variant that ran the modules pass (complete, with results). */
static const struct cell *modules_cell(const struct run *run, const char *variant)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		if (run->cells[i].has_modules && !strcmp(run->cells[i].variant, variant) &&
		    (run->cells[i].nllcheck || run->cells[i].nllbench))
			return &run->cells[i];
	return NULL;
}

static void md_modules(FILE *f, const struct run *run)
{
	const struct cell *first = NULL, **cells;
	char buf[64];
	size_t v;
	unsigned int k;

	/* Each variant's modules cell, found once; the first one gives the rows. */
	cells = calloc(run->nvariants, sizeof(*cells));
	if (!cells)
		err_exit(LL_EXIT_FAIL, "out of memory");
	for (v = 0; v < run->nvariants; v++) {
		cells[v] = modules_cell(run, run->variants[v]);
		if (!first)
			first = cells[v];
	}
	if (!first) {
		free(cells);
		return;
	}
	fprintf(f, "## Kernel modules: what lockdep sees, what a local lock costs\n\n"
		"`llcheck` loads once per scenario; *detected* means the kernel itself reported it "
		"(a splat in that load's kernel log, kind and first line quoted). "
		"See `kernels/modules/llcheck/llcheck.c`.\n\n| llcheck scenario |");
	md_variant_columns(f, run, "expected");
	for (k = 0; k < first->nllcheck; k++) {
		fprintf(f, "| %s |", first->llcheck[k].scenario);
		for (v = 0; v < run->nvariants; v++) {
			const struct cell *c = cells[v];
			const struct llcheck_result *r = c && k < c->nllcheck ? &c->llcheck[k] : NULL;

			if (!r)
				fprintf(f, " – |");
			else if (r->detected)
				fprintf(f, " **detected**: %s (`%s`) |", r->kind, r->line);
			else if (!r->loaded)
				fprintf(f, " load failed |");
			else
				fprintf(f, " silent |");
		}
		fprintf(f, " %s |\n", scenario_expectation(run, first->llcheck[k].scenario));
	}
	/* Scenario c's sections are local_lock_irqsave(): irqs stay on only on PREEMPT_RT. */
	fprintf(f, "| interrupts off inside local_lock_irqsave() |");
	for (v = 0; v < run->nvariants; v++) {
		const struct cell *c = cells[v];
		const char *irqs = "–";

		for (k = 0; c && k < c->nllcheck; k++)
			if (!strcmp(c->llcheck[k].scenario, "c"))
				irqs = c->llcheck[k].irqs_off;
		fprintf(f, " %s |", irqs);
	}
	fprintf(f, " yes, except on PREEMPT_RT (a per-CPU spinlock_t there) |\n\n");

	fprintf(f, "`llbench`: ns per lock/unlock pair, median [min–max] over %u rounds of %u pairs "
		"(under tcg-icount: instruction time). %s\n\n| operation |",
		first->nllbench ? first->llbench[0].rounds : 0,
		first->nllbench ? first->llbench[0].iterations : 0,
		/* Cells before the plain/traced split (no kernel_flavour) ran on kernels with the tracers. */
		kv_str(&first->meta, "kernel_flavour", NULL) ?
		"The modules ran on the plain kernels, without the preemptoff and irqsoff tracers: "
		"`preempt_disable()` / `preempt_enable()` are inline, as on a production kernel "
		"(with the tracers' hooks, `CONFIG_TRACE_PREEMPT_TOGGLE`, the pair cost ~104 against ~6 ns)." :
		"These kernels carry the preemptoff and irqsoff tracers (`CONFIG_TRACE_PREEMPT_TOGGLE=y`), "
		"which turn each `preempt_disable()` / `preempt_enable()` into out-of-line calls with tracing "
		"hooks: these figures include that cost, against an empty section of a few ns.");
	md_variant_columns(f, run, NULL);
	for (k = 0; k < first->nllbench; k++) {
		fprintf(f, "| %s |", first->llbench[k].op);
		for (v = 0; v < run->nvariants; v++) {
			const struct cell *c = cells[v];
			const struct llbench_result *b = NULL;
			unsigned int j;

			for (j = 0; c && j < c->nllbench; j++)
				if (!strcmp(c->llbench[j].op, first->llbench[k].op))
					b = &c->llbench[j];
			if (b)
				snprintf(buf, sizeof(buf), "%.2f [%.2f–%.2f]", b->median_ns, b->min_ns, b->max_ns);
			fprintf(f, " %s |", b ? buf : "–");
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	free(cells);
}

void report_markdown(struct run *run)
{
	FILE *f = report_open(run, "summary.md");
	size_t w;

	md_header(f, run);
	for (w = 0; w < run->nworkloads; w++)
		if (!workload_is_modules_only(run, run->workloads[w]))
			md_workload(f, run, run->workloads[w]);
	md_modules(f, run);
	md_problems(f, run);
	report_close(f, run, "summary.md");
}

static json_object *json_values(const double *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_double(v[i]));
	return a;
}

static json_object *json_wakeup(const struct wakeup_trace *w)
{
	json_object *o, *stack;
	unsigned int i;

	if (!w->present)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "threshold_us", json_object_new_int64((int64_t)w->threshold_us));
	json_object_object_add(o, "hit", json_object_new_boolean(w->hit));
	if (!w->hit) {
		json_object_object_add(o, "timerlat_max_us", json_object_new_double(w->top_max_us));
		return o;
	}
	json_object_object_add(o, "kind", json_object_new_string(w->irq ? "irq" : "thread"));
	json_object_object_add(o, "latency_us", json_object_new_double(w->latency_us));
	json_object_object_add(o, "irq_latency_us", json_object_new_double(w->irq_latency_us));
	json_object_object_add(o, "irq_delay_us", json_object_new_double(w->irq_delay_us));
	json_object_object_add(o, "blocking_us", json_object_new_double(w->blocking_us));
	json_object_object_add(o, "blocking_thread", json_object_new_string(w->blocking_thread));
	json_object_object_add(o, "blocking_function", json_object_new_string(w->blocker));
	json_object_object_add(o, "section_opened_in", json_object_new_string(w->opened));
	json_object_object_add(o, "section_closed_in", json_object_new_string(w->closed));
	json_object_object_add(o, "call_site", w->call_site ? json_object_new_string(w->call_site) : NULL);
	json_object_object_add(o, "at_call_site", json_object_new_boolean(w->at_site));
	stack = json_object_new_array();
	for (i = 0; i < w->nstack; i++)
		json_object_array_add(stack, json_object_new_string(w->stack[i]));
	json_object_object_add(o, "stack_at_irq", stack);
	return o;
}

static json_object *json_trace(const struct trace_worst *t)
{
	json_object *o;

	if (!t->present)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "max_us", json_object_new_int64((int64_t)t->max_us));
	json_object_object_add(o, "started_at", json_object_new_string(t->started));
	json_object_object_add(o, "ended_at", json_object_new_string(t->ended));
	json_object_object_add(o, "call_site", t->call_site ? json_object_new_string(t->call_site) : NULL);
	json_object_object_add(o, "at_call_site", json_object_new_boolean(t->at_site));
	return o;
}

/* Per thread, the maximum of each second (null: no window in it). */
static json_object *json_series(const struct cell *c)
{
	json_object *threads;
	unsigned int t, s;

	if (!c->has_series)
		return NULL;
	threads = json_object_new_array();
	for (t = 0; t < c->series_threads; t++) {
		json_object *a = json_object_new_array();

		for (s = 0; s < c->series_seconds; s++) {
			uint64_t v = c->series[t * c->series_seconds + s];

			json_object_array_add(a, v == LL_NO_VALUE ? NULL : json_object_new_int64((int64_t)v));
		}
		json_object_array_add(threads, a);
	}
	return threads;
}

static json_object *json_modules(const struct cell *c)
{
	json_object *o, *a;
	unsigned int k;

	if (!c->has_modules)
		return NULL;
	o = json_object_new_object();
	a = json_object_new_array();
	for (k = 0; k < c->nllcheck; k++) {
		const struct llcheck_result *r = &c->llcheck[k];
		json_object *s = json_object_new_object();

		json_object_object_add(s, "scenario", json_object_new_string(r->scenario));
		json_object_object_add(s, "loaded", json_object_new_boolean(r->loaded));
		json_object_object_add(s, "detected", json_object_new_boolean(r->detected));
		json_object_object_add(s, "kind", r->detected ? json_object_new_string(r->kind) : NULL);
		json_object_object_add(s, "line", r->detected ? json_object_new_string(r->line) : NULL);
		json_object_object_add(s, "irqs_off_in_irqsave_sections", json_object_new_string(r->irqs_off));
		json_object_object_add(s, "debug_locks", r->debug_locks < 0 ? NULL : json_object_new_int(r->debug_locks));
		json_object_array_add(a, s);
	}
	json_object_object_add(o, "llcheck", a);
	a = json_object_new_array();
	for (k = 0; k < c->nllbench; k++) {
		const struct llbench_result *b = &c->llbench[k];
		json_object *s = json_object_new_object();

		json_object_object_add(s, "op", json_object_new_string(b->op));
		json_object_object_add(s, "iterations", json_object_new_int((int)b->iterations));
		json_object_object_add(s, "rounds", json_object_new_int((int)b->rounds));
		json_object_object_add(s, "min_ns", json_object_new_double(b->min_ns));
		json_object_object_add(s, "median_ns", json_object_new_double(b->median_ns));
		json_object_object_add(s, "max_ns", json_object_new_double(b->max_ns));
		json_object_array_add(a, s);
	}
	json_object_object_add(o, "llbench", a);
	return o;
}

/* Wake-ups due and recorded: the missed ones are what coordinated omission hides. */
static json_object *json_wakeups(const struct cell *c)
{
	json_object *o;

	if (!c->has_steady)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "due", json_object_new_int64((int64_t)c->wakeups_due));
	json_object_object_add(o, "recorded", json_object_new_int64((int64_t)c->cycles));
	json_object_object_add(o, "due_after_window", json_object_new_int64((int64_t)c->wakeups_due_steady));
	json_object_object_add(o, "recorded_after_window", json_object_new_int64((int64_t)c->wakeups_steady));
	json_object_object_add(o, "added_by_correction", json_object_new_int64((int64_t)c->steady_added));
	json_object_object_add(o, "starved_threads", json_object_new_int((int)c->starved_threads));
	json_object_object_add(o, "longest_uncovered_wait_us", json_object_new_int64((int64_t)c->censored_us));
	return o;
}

/* The per-second maxima after the window (null: a second no wake-up reached). */
static json_object *json_blocks(const struct cell *c)
{
	json_object *a;
	unsigned int i;

	if (!c->has_steady)
		return NULL;
	a = json_object_new_array();
	for (i = 0; i < c->nblocks; i++)
		json_object_array_add(a, c->blocks[i] == LL_NO_VALUE ? NULL :
				      json_object_new_int64((int64_t)c->blocks[i]));
	return a;
}

static json_object *json_load(const struct load_state *l)
{
	static const char *const verdicts[] = {
		[LOAD_NONE] = "none", [LOAD_UNKNOWN] = "unknown", [LOAD_ALIVE] = "alive", [LOAD_DEAD] = "dead",
	};
	json_object *o = json_object_new_object(), *a;
	unsigned int s;

	json_object_object_add(o, "verdict", json_object_new_string(verdicts[l->verdict]));
	json_object_object_add(o, "alive", l->verdict == LOAD_ALIVE ? json_object_new_boolean(1) :
				   l->verdict == LOAD_DEAD ? json_object_new_boolean(0) : NULL);
	json_object_object_add(o, "died_at_s", l->verdict == LOAD_DEAD ? json_object_new_double(l->died_at_s) : NULL);
	json_object_object_add(o, "reason", l->verdict == LOAD_DEAD ? json_object_new_string(l->reason) : NULL);
	a = json_object_new_array();
	for (s = 0; s < l->nseconds; s++)
		json_object_array_add(a, json_object_new_int64((int64_t)l->ops[s]));
	json_object_object_add(o, "ops_per_second", a);
	return o;
}

static json_object *json_double_or_null(double x)
{
	return isnan(x) || isinf(x) ? NULL : json_object_new_double(x);
}

/* [lo, hi] of an interval; an unbounded end is null (JSON has no infinity); null without one. */
static json_object *json_interval(const struct ratio_ci *ci)
{
	json_object *a;

	if (!ci->valid || ci->coverage <= 0)
		return NULL;
	a = json_object_new_array();
	json_object_array_add(a, json_double_or_null(ci->lo));
	json_object_array_add(a, json_double_or_null(ci->hi));
	return a;
}

/*
 * How a group's maximum grows with the pass's length: for k whole seconds
 * after the window (as many as every measured repetition has, at 2, 4, 9,
 * 19, 29 and the most), the median over repetitions of the worst of their
 * first k per-second maxima. What a pass of k + 1 s would have reported,
 * from the same boots; keyed by k.
 */
static json_object *json_max_by_length(const struct run *run, const struct group *g)
{
	static const unsigned int lengths[] = { 2, 4, 9, 19, 29, 59 };
	unsigned int ks[ARRAY_SIZE(lengths) + 1], nk = 0, j;
	json_object *o;
	double v[MAX_REPS];
	size_t i, n, l;
	char key[16];

	if (!g->n || g->min_blocks < 2)
		return NULL;
	for (l = 0; l < ARRAY_SIZE(lengths) && lengths[l] <= g->min_blocks; l++)
		ks[nk++] = lengths[l];
	if (ks[nk - 1] != g->min_blocks)
		ks[nk++] = g->min_blocks;
	o = json_object_new_object();
	for (j = 0; j < nk; j++) {
		for (i = 0, n = 0; i < run->ncells; i++) {
			const struct cell *c = &run->cells[i];
			uint64_t m = 0;
			unsigned int s;

			if (strcmp(c->variant, g->variant) || strcmp(c->workload, g->workload) ||
			    !cell_measured(c) || !c->has_steady || n == MAX_REPS)
				continue;
			for (s = 0; s < ks[j] && s < c->nblocks; s++)
				if (c->blocks[s] != LL_NO_VALUE && c->blocks[s] > m)
					m = c->blocks[s];
			v[n++] = (double)m;
		}
		snprintf(key, sizeof(key), "%u", ks[j]);
		json_object_object_add(o, key, json_object_new_double(median(v, n)));
	}
	return o;
}

static json_object *json_cell(const struct run *run, const struct cell *c)
{
	json_object *o = json_object_new_object(), *a;
	bool over;
	unsigned int k;

	json_object_object_add(o, "dir", json_object_new_string(cell_rel_dir(run, c)));
	json_object_object_add(o, "variant", json_object_new_string(c->variant));
	json_object_object_add(o, "workload", json_object_new_string(c->workload));
	json_object_object_add(o, "rep", json_object_new_int((int)c->rep));
	json_object_object_add(o, "kernel_flavour", json_object_new_string(cell_flavour(c)));
	json_object_object_add(o, "status", json_object_new_string(c->status));
	json_object_object_add(o, "reason", json_object_new_string(c->reason));
	json_object_object_add(o, "accel", json_object_new_string(c->accel));
	json_object_object_add(o, "kernel_release",
			       json_object_new_string(kv_str(&c->meta, "manifest.kernel_release", "")));
	if (c->has_latency) {
		const struct histogram *h = c->has_steady ? &c->steady_hist : &c->hist;

		json_object_object_add(o, "max_us", json_object_new_int64((int64_t)(c->has_steady ? c->steady_max_us : c->max_us)));
		json_object_object_add(o, "max_is_lower_bound", json_object_new_boolean(c->has_steady && c->steady_censored));
		json_object_object_add(o, "startup_max_us", c->has_steady ? json_object_new_int64((int64_t)c->startup_max_us) : NULL);
		json_object_object_add(o, "startup_window_s", json_object_new_double(c->has_steady ? (double)c->window_us / 1e6 : 0));
		json_object_object_add(o, "cyclictest_max_us", json_object_new_int64((int64_t)c->max_us));
		json_object_object_add(o, "sample_stream_max_us", c->has_steady ? json_object_new_int64((int64_t)c->stream_max_us) : NULL);
		json_object_object_add(o, "max_in_unprinted_tail", json_object_new_boolean(c->max_in_tail));
		json_object_object_add(o, "percentiles", json_object_new_string(c->has_steady ? "steady, corrected for coordinated omission" : "whole pass, uncorrected"));
		json_object_object_add(o, "p50_us", json_object_new_int64((int64_t)hist_percentile(h, 0.5, &over)));
		json_object_object_add(o, "p99_us", json_object_new_int64((int64_t)hist_percentile(h, 0.99, &over)));
		json_object_object_add(o, "p999_us", json_object_new_int64((int64_t)hist_percentile(h, 0.999, &over)));
		json_object_object_add(o, "avg_us", json_object_new_double(c->avg_us));
		json_object_object_add(o, "samples", json_object_new_int64((int64_t)hist_total(&c->hist)));
		json_object_object_add(o, "overflow", json_object_new_int64((int64_t)c->hist.overflow));
		json_object_object_add(o, "wakeups", json_wakeups(c));
		json_object_object_add(o, "block_median_us", c->has_steady && c->nblocks ?
				       json_object_new_int64((int64_t)c->block_median_us) : NULL);
		json_object_object_add(o, "block_max_us", json_blocks(c));
	}
	json_object_object_add(o, "load", json_load(&c->load));
	json_object_object_add(o, "per_second_max_us", json_series(c));
	json_object_object_add(o, "modules", json_modules(c));
	json_object_object_add(o, "preemptoff", json_trace(&c->preemptoff));
	json_object_object_add(o, "irqsoff", json_trace(&c->irqsoff));
	json_object_object_add(o, "worst_wakeup", json_wakeup(&c->wakeup));
	a = json_object_new_array();
	for (k = 0; k < c->nfindings; k++) {
		json_object *fd = json_object_new_object();

		json_object_object_add(fd, "kind", json_object_new_string(c->findings[k].kind));
		json_object_object_add(fd, "count", json_object_new_int((int)c->findings[k].count));
		json_object_object_add(fd, "line", json_object_new_string(c->findings[k].line));
		json_object_array_add(a, fd);
	}
	json_object_object_add(o, "findings", a);
	a = json_object_new_object();
	for (k = 0; k < c->nhits; k++) {
		const struct path_hit *h = &c->hits[k];
		json_object *hit = json_object_new_object();

		json_object_object_add(hit, "probed", json_object_new_boolean(!h->unavailable));
		json_object_object_add(hit, "workload_hits", h->unavailable ? NULL : json_object_new_int64((int64_t)h->hits));
		json_object_object_add(hit, "idle_hits", h->has_idle ? json_object_new_int64((int64_t)h->idle_hits) : NULL);
		json_object_object_add(hit, "reached", json_object_new_boolean(h->reached));
		json_object_object_add(a, h->function, hit);
	}
	json_object_object_add(o, "path_hits", a);
	json_object_object_add(o, "workload_stats", json_object_new_string(c->workload_stats));
	return o;
}

void report_json(struct run *run)
{
	json_object *root = json_object_new_object(), *cells = json_object_new_array();
	json_object *groups = json_object_new_array(), *cmps = json_object_new_array();
	char buf[2048];
	size_t i;
	FILE *f;

	meta_values(run, "accel", buf, sizeof(buf));
	/* The result layout of the cells read (they all share one: run-matrix.sh's layout check). */
	json_object_object_add(root, "layout_version",
			       json_object_new_int(run->ncells ? atoi(kv_str(&run->cells[0].meta, "layout_version", "0")) : 0));
	json_object_object_add(root, "run", json_object_new_string(strrchr(run->dir, '/') ? strrchr(run->dir, '/') + 1 : run->dir));
	json_object_object_add(root, "accelerators", json_object_new_string(buf));
	json_object_object_add(root, "instruction_time", json_object_new_boolean(run_uses_tcg(run)));
	json_object_object_add(root, "incomplete_cells", json_object_new_int64((int64_t)run->partial));
	json_object_object_add(root, "startup_window_s", json_object_new_double((double)run->window_us / 1e6));
	for (i = 0; i < run->ncells; i++)
		json_object_array_add(cells, json_cell(run, &run->cells[i]));
	for (i = 0; i < run->ngroups; i++) {
		struct group *g = &run->groups[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "variant", json_object_new_string(g->variant));
		json_object_object_add(o, "workload", json_object_new_string(g->workload));
		json_object_object_add(o, "cells", json_object_new_int64((int64_t)g->ncells));
		json_object_object_add(o, "measured", json_object_new_int64((int64_t)g->n));
		json_object_object_add(o, "died_in_latency", json_object_new_int64((int64_t)g->died));
		json_object_object_add(o, "load_dead", json_object_new_int64((int64_t)g->load_dead));
		json_object_object_add(o, "max_us", json_values(g->max, g->n));
		json_object_object_add(o, "max_is_lower_bound", json_object_new_boolean(g->max_censored));
		json_object_object_add(o, "startup_max_us", g->steady ? json_values(g->startup_max, g->n) : NULL);
		json_object_object_add(o, "block_median_us", g->min_blocks ? json_values(g->block_median, g->n) : NULL);
		json_object_object_add(o, "max_by_length_us", json_max_by_length(run, g));
		json_object_object_add(o, "wakeups_recorded_after_window", json_object_new_int64((int64_t)g->samples));
		json_object_object_add(o, "wakeups_due_after_window", g->steady ? json_object_new_int64((int64_t)g->wakeups_due) : NULL);
		json_object_object_add(o, "p99_us", json_values(g->p99, g->n));
		json_object_object_add(o, "p999_us", json_values(g->p999, g->n));
		json_object_object_add(o, "p50_us", json_values(g->p50, g->n));
		json_object_object_add(o, "median_max_us", json_object_new_double(median(g->max, g->n)));
		json_object_object_add(o, "preemptoff_worst_us", json_object_new_int64((int64_t)g->preemptoff_us));
		json_object_object_add(o, "irqsoff_worst_us", json_object_new_int64((int64_t)g->irqsoff_us));
		json_object_object_add(o, "preemptoff_flagged", json_object_new_boolean(
			g->preemptoff_cell && trace_beyond_latency(g, &g->preemptoff_cell->preemptoff)));
		json_object_object_add(o, "irqsoff_flagged", json_object_new_boolean(
			g->irqsoff_cell && trace_beyond_latency(g, &g->irqsoff_cell->irqsoff)));
		json_object_object_add(o, "worst_wakeup_culprit", g->wakeup_cell && g->wakeup_cell->wakeup.hit &&
			!wakeup_beyond_latency(g, &g->wakeup_cell->wakeup) ?
			json_object_new_string(g->wakeup_cell->wakeup.culprit) : NULL);
		json_object_object_add(o, "worst_wakeup_flagged", json_object_new_boolean(
			g->wakeup_cell && wakeup_beyond_latency(g, &g->wakeup_cell->wakeup)));
		json_object_object_add(o, "latency_max_us", json_object_new_double(g->latency_max_us));
		json_object_object_add(o, "traced_kernel_max_us", isnan(g->traced_max_us) ? NULL :
			json_object_new_int64((int64_t)g->traced_max_us));
		json_object_object_add(o, "trace_reference_us", json_object_new_double(g->trace_ref_us));
		json_object_object_add(o, "findings", json_object_new_int((int)g->findings));
		json_object_array_add(groups, o);
	}
	for (i = 0; i < run->ncmps; i++) {
		const struct comparison *cmp = &run->cmps[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "workload", json_object_new_string(cmp->workload));
		json_object_object_add(o, "a", json_object_new_string(cmp->a->variant));
		json_object_object_add(o, "b", json_object_new_string(cmp->b->variant));
		json_object_object_add(o, "n_a", json_object_new_int64((int64_t)cmp->na));
		json_object_object_add(o, "n_b", json_object_new_int64((int64_t)cmp->nb));
		json_object_object_add(o, "statistic", json_object_new_string(cmp->by_blocks ? "typical worst second" : "pass maximum"));
		json_object_object_add(o, "ratio", cmp->ci.valid ? json_double_or_null(cmp->ci.estimate) : NULL);
		json_object_object_add(o, "ratio_ci95", json_interval(&cmp->ci));
		json_object_object_add(o, "ci_coverage", cmp->ci.valid ? json_object_new_double(cmp->ci.coverage) : NULL);
		json_object_object_add(o, "ratio_max", cmp->ci_max.valid ? json_double_or_null(cmp->ci_max.estimate) : NULL);
		json_object_object_add(o, "ratio_max_ci95", json_interval(&cmp->ci_max));
		json_object_object_add(o, "ratio_blocks", cmp->by_blocks && cmp->ci_blocks.valid ?
				       json_double_or_null(cmp->ci_blocks.estimate) : NULL);
		json_object_object_add(o, "ratio_blocks_ci95", cmp->by_blocks ? json_interval(&cmp->ci_blocks) : NULL);
		json_object_object_add(o, "ratio_median_max", json_double_or_null(cmp->ratio_medians));
		json_object_object_add(o, "p_max", json_double_or_null(cmp->p_max));
		json_object_object_add(o, "p_p99", json_double_or_null(cmp->p_p99));
		json_object_object_add(o, "verdict", json_object_new_string(cmp->verdict));
		json_object_object_add(o, "expected", json_object_new_string(expectation_name(cmp->def->expect)));
		json_object_object_add(o, "expected_why", json_object_new_string(cmp->def->why));
		json_object_object_add(o, "contradicts_expectation", json_object_new_boolean(cmp->contradicts));
		json_object_array_add(cmps, o);
	}
	json_object_object_add(root, "groups", groups);
	json_object_object_add(root, "comparisons", cmps);
	json_object_object_add(root, "cells", cells);
	f = report_open(run, "summary.json");
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	report_close(f, run, "summary.json");
	json_object_put(root);
}

/* A CSV field, quoted when it needs to be (RFC 4180). */
static void csv_field(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

void report_csv(struct run *run)
{
	FILE *f = report_open(run, "summary.csv");
	size_t i;

	fputs("variant,workload,rep,kernel_flavour,status,accel,max_us,p50_us,p99_us,p999_us,samples,overflow,"
	      "preemptoff_us,preemptoff_culprit,irqsoff_us,irqsoff_culprit,findings,reason,dir\n", f);
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		char num[12][32];
		bool over;
		unsigned int k, nf = 0;

		for (k = 0; k < c->nfindings; k++)
			nf += c->findings[k].count;
		snprintf(num[0], 32, "%u", c->rep);
		if (c->has_latency) {
			snprintf(num[1], 32, "%llu", (unsigned long long)c->max_us);
			snprintf(num[2], 32, "%llu", (unsigned long long)hist_percentile(&c->hist, 0.5, &over));
			snprintf(num[3], 32, "%llu", (unsigned long long)hist_percentile(&c->hist, 0.99, &over));
			snprintf(num[4], 32, "%llu", (unsigned long long)hist_percentile(&c->hist, 0.999, &over));
			snprintf(num[5], 32, "%llu", (unsigned long long)hist_total(&c->hist));
			snprintf(num[6], 32, "%llu", (unsigned long long)c->hist.overflow);
		} else {
			for (k = 1; k <= 6; k++)
				num[k][0] = '\0';
		}
		snprintf(num[7], 32, "%llu", (unsigned long long)c->preemptoff.max_us);
		snprintf(num[8], 32, "%llu", (unsigned long long)c->irqsoff.max_us);
		snprintf(num[9], 32, "%u", nf);
		csv_field(f, c->variant, false);
		csv_field(f, c->workload, false);
		csv_field(f, num[0], false);
		csv_field(f, cell_flavour(c), false);
		csv_field(f, c->status, false);
		csv_field(f, c->accel, false);
		for (k = 1; k <= 6; k++)
			csv_field(f, num[k], false);
		csv_field(f, c->preemptoff.present ? num[7] : "", false);
		csv_field(f, c->preemptoff.culprit, false);
		csv_field(f, c->irqsoff.present ? num[8] : "", false);
		csv_field(f, c->irqsoff.culprit, false);
		csv_field(f, num[9], false);
		csv_field(f, c->reason, false);
		csv_field(f, cell_rel_dir(run, c), true);
	}
	report_close(f, run, "summary.csv");
}

/* Whether any cell of WORKLOAD was to run a latency pass (not the modules pass alone). */
static bool workload_latency_planned(const struct run *run, const char *workload)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		if (!strcmp(run->cells[i].workload, workload) &&
		    strstr(kv_str(&run->cells[i].meta, "passes", "latency"), "latency"))
			return true;
	return false;
}

/* A table: one row per workload, one column per variant (NaN = no data). */
static void plot_table(struct run *run, const char *name, int what)
{
	FILE *f = report_open(run, name);
	size_t v, w;

	fputs("workload", f);
	for (v = 0; v < run->nvariants; v++)
		fprintf(f, " %s", run->variants[v]);
	fputc('\n', f);
	for (w = 0; w < run->nworkloads; w++) {
		fputs(run->workloads[w], f);
		for (v = 0; v < run->nvariants; v++) {
			struct group *g = group_find(run, run->variants[v], run->workloads[w]);
			double x = NAN;

			if (what == 0 && g->n)
				x = median(g->max, g->n);
			else if (what == 1 && g->preemptoff_cell)
				x = (double)g->preemptoff_us;
			else if (what == 2 && g->irqsoff_cell)
				x = (double)g->irqsoff_us;
			if (isnan(x))
				fputs(" NaN", f);
			else
				fprintf(f, " %.0f", x);
		}
		fputc('\n', f);
	}
	report_close(f, run, name);
}

/*
 * Time series: plot-data/<series name>.dat per cell that has one ("second
 * max-of-vCPU0 max-of-vCPU1 ..." rows, NaN for no data) and
 * plot-data/series, one line per file: "name cell-max-us title".
 */
static void plot_series(struct run *run)
{
	FILE *list = report_open(run, "plot-data/series");
	char name[512], path[600];
	size_t i;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		unsigned int t, s;
		FILE *f;

		if (!c->has_series)
			continue;
		series_name(name, sizeof(name), c);
		snprintf(path, sizeof(path), "plot-data/%s.dat", name);
		f = report_open(run, path);
		fputs("second", f);
		for (t = 0; t < c->series_threads; t++)
			fprintf(f, " vCPU%u", t);
		fputc('\n', f);
		for (s = 0; s < c->series_seconds; s++) {
			fprintf(f, "%u", s);
			for (t = 0; t < c->series_threads; t++) {
				uint64_t v = c->series[t * c->series_seconds + s];

				if (v == LL_NO_VALUE)
					fputs(" NaN", f);
				else
					fprintf(f, " %llu", (unsigned long long)v);
			}
			fputc('\n', f);
		}
		report_close(f, run, path);
		fprintf(list, "%s %llu %s/%s %s (%s)\n", name, (unsigned long long)c->max_us,
			c->variant, c->workload, c->name, c->status);
	}
	report_close(list, run, "plot-data/series");
}

/*
 * A histogram for a log-scale plot: 1 µs buckets below 1000 µs, then bins of
 * three significant digits (10 µs up to 10 ms, 100 µs up to 100 ms, ...),
 * as "bin-start samples-per-µs". The corrected histograms hold a value for
 * every skipped period, tens of thousands of distinct ones per stall, which
 * drawn one point each made a 20 MB SVG.
 */
static void hist_write_binned(FILE *f, const struct histogram *h)
{
	size_t k = 0, width, start;

	while (k < h->buckets) {
		unsigned long long n = 0;

		for (width = 1; k >= 1000 * width; width *= 10)
			;
		start = k - k % width;
		for (; k < start + width && k < h->buckets; k++)
			n += h->count[k];
		if (n)
			fprintf(f, "%zu %g\n", start, (double)n / (double)width);
	}
}

void report_plot_data(struct run *run)
{
	char path[4096], name[512];
	size_t v, w;

	snprintf(path, sizeof(path), "%s/plot-data", run->dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		err_exit_errno(LL_EXIT_FAIL, "mkdir %s", path);
	plot_table(run, "plot-data/max.dat", 0);
	plot_table(run, "plot-data/preemptoff.dat", 1);
	plot_table(run, "plot-data/irqsoff.dat", 2);
	/*
	 * Histograms: one block per measured variant (gnuplot "index"), titled
	 * by its first line. plot-data/workloads lists every workload that was
	 * to run a latency pass; one that nothing measured has no data file,
	 * and the plot step draws a figure that says so.
	 */
	FILE *list = report_open(run, "plot-data/workloads");

	for (w = 0; w < run->nworkloads; w++) {
		FILE *f = NULL;

		if (workload_latency_planned(run, run->workloads[w]))
			fprintf(list, "%s\n", run->workloads[w]);
		for (v = 0; v < run->nvariants; v++) {
			struct group *g = group_find(run, run->variants[v], run->workloads[w]);

			if (!g->n)
				continue;
			if (!f) {
				snprintf(name, sizeof(name), "plot-data/hist-%s.dat", run->workloads[w]);
				f = report_open(run, name);
			} else {
				fputs("\n\n", f);
			}
			fprintf(f, "%s samples\n", g->variant);
			hist_write_binned(f, &g->hist);
		}
		if (f)
			report_close(f, run, name);
	}
	report_close(list, run, "plot-data/workloads");
	plot_series(run);
}
