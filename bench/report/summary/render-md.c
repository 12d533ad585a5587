// SPDX-License-Identifier: GPL-2.0
/*
 * render-md.c - summary.md, for people: the run's settings, a table per
 * workload with its comparisons, the modules pass, and what did not finish.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "locklat.h"
#include "pass.h"
#include "render.h"
#include "render-md.h"
#include "run.h"

static size_t count_status(const struct run *run, const char *status)
{
	size_t i, n = 0;

	for (i = 0; i < run->ncells; i++)
		n += !strcmp(run->cells[i].status, status);
	return n;
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
const char *spread(char *buf, size_t size, const double *v, size_t n)
{
	if (!n)
		snprintf(buf, size, "–");
	else if (n == 1)
		snprintf(buf, size, "%.0f", v[0]);
	else
		snprintf(buf, size, "%.0f [%.0f–%.0f]", median(v, n), min_of(v, n), max_of(v, n));
	return buf;
}

/* The vCPU count of the run's latency cells, or 0 if they differ. */
static unsigned int run_vcpus(const struct run *run)
{
	unsigned int vcpus = 0;
	uint64_t v;
	size_t i;

	for (i = 0; i < run->ncells; i++) {
		if (!run->cells[i].has_latency || !(v = run->cells[i].vcpus))
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

	setting_values_of(run, CS_ACCEL, true, accel, sizeof(accel));
	if (strstr(accel, "tcg-icount")) {
		fprintf(f, "> **Instruction time, not hardware latency.** Under `tcg-icount` one host thread runs "
			"every vCPU in turn and the guest clock advances 1 ns per instruction executed by any of "
			"them. ");
		if (vcpus == 1)
			fprintf(f, "With 1 vCPU, 1 µs is 1000 instructions of that vCPU: a section's length is the "
				"number of instructions it ran. **Cross-CPU paths are not measured** (remote "
				"drains such as `lru_add_drain_all()` reaching another CPU's batches, migration, "
				"per-CPU data on two CPUs): with 2 vCPUs under tcg-icount QEMU runs them round-robin "
				"on one clock, and a wake-up on one waits ~1 ms slices of the other's instructions "
				"(METHODOLOGY.md, \"Two vCPUs under tcg-icount, traced\"); run `--accel kvm` for "
				"them. ");
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

/* A whole number of µs with its thousands separated: "52,689". */
static const char *us_words(char *buf, size_t size, double us)
{
	char digits[32];

	snprintf(digits, sizeof(digits), "%.0f", us);
	return number_grouped(buf, size, digits);
}

/*
 * The answer line of comparison c: both sides' medians of the pass maxima
 * (the statistic the verdict reads), the change in words at the precision the data has
 * (judge.h: ratio_phrase, the 1 µs resolution included), the repetitions
 * and the clock, then the verdict with its interval, and p, said to be the
 * strongest result the counts allow when it is.
 */
static void answer_line(FILE *f, const struct run *run, const struct comparison *c)
{
	double ma = c->a->n ? median(c->a->max, c->a->n) : NAN, mb = c->b->n ? median(c->b->max, c->b->n) : NAN;
	char words[200] = "", clock[96], a_us[32], b_us[32];

	if (c->ci.valid && c->ci.coverage > 0 && !isnan(ma) && !isnan(mb))
		ratio_phrase(words, sizeof(words), c->ci.estimate, c->ci.lo, c->ci.hi, true);
	if (words[0])
		fprintf(f, "%s %s µs → %s %s µs (medians of the pass maxima): **%s**, %zu vs %zu measured repetitions, %s; ",
			c->b->variant, us_words(b_us, sizeof(b_us), mb), c->a->variant, us_words(a_us, sizeof(a_us), ma),
			words, c->na, c->nb, clock_words(run, clock, sizeof(clock)));
	else
		fprintf(f, "%zu vs %zu measured repetitions, %s; ", c->na, c->nb, clock_words(run, clock, sizeof(clock)));
	fprintf(f, "%s%s", c->contradicts ? "**Contradicts the expectation**: " : "", c->verdict);
	if (!isnan(c->p_max)) {
		fprintf(f, "; p (max) = %.3f", c->p_max);
		if (c->p_max <= rank_min_p(c->na, c->nb) * (1 + 1e-9))
			fprintf(f, ", the strongest result %zu vs %zu repetitions can give", c->na, c->nb);
	}
}

/* The A/A pair of kernels/comparisons (expected the same on every workload), or NULL. */
static const struct comparison_def *aa_def(const struct run *run)
{
	size_t i;

	for (i = 0; i < run->ndefs; i++)
		if (run->defs[i].expect == EXPECT_SAME && !strcmp(run->defs[i].workload, "*"))
			return &run->defs[i];
	return NULL;
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
	fprintf(f, "Each comparison counts the repetitions that failed under load (hung, panicked, lost their "
		"load) per side and compares them as proportions (Fisher's exact test); of the measured ones it "
		"gives the Hodges–Lehmann ratio of A's pass maxima (after the start-up window) to B's with its "
		"exact 95%% interval (which inverts the two-sided Mann–Whitney test), widened by the 1 µs "
		"resolution, and the verdict reads from it; the typical worst second (the median of a "
		"repetition's per-second maxima, when each has 3 s after the window) is the robust view beside "
		"it. Ratios within ±5%% are the same. Of the %zu comparisons with an interval, about %.2f would exclude 1 by chance "
		"alone (the sum of their attainable error rates).", n, expected);
	if (run->question_a)
		fprintf(f, " The question the suite asks first is %s vs %s on %s", run->question_a, run->question_b,
			run->question_workload);
	/* An A/A check: a comparison the file expects to come out the same everywhere. */
	if (aa_def(run))
		fprintf(f, "%s%s vs %s is an A/A check", run->question_a ? "; " : " ", aa_def(run)->a,
			aa_def(run)->b);
	fputs(run->question_a || i < run->ndefs ? ".\n\n" : "\n\n", f);
}

/* The comparison of A vs B on workload, or NULL. */
static const char *const trace_kind_name[TK_N] = { "traced worst wake-up", "preemptoff worst",
						   "irqsoff worst" };
static const char *const trace_kind_heading[TK_N] = { "traced wake-ups (timerlat)", "preemptoff sections",
						      "irqsoff sections" };

/* One kind of a group's traced evidence. */
struct trace_ev {
	double us;		/* the section's or wake-up's length; for no hit, timerlat's max */
	bool hit;		/* a section or wake-up to blame (not flagged, not lost) */
	const char *text;	/* its blame, or why there is none */
	char tag[96];		/* that in a table cell's few words: the culprit's name, or why none */
	double runs[TRACE_MAX_RUNS];
	unsigned int nruns;
	char buf[600];
};

static const char *trace_ref_words(const struct group *g);
static int variant_index(const struct run *run, const char *variant);

/* Said of a traced figure whose pass's workload had died when the pass ended. */
#define LOAD_DEAD_WORDS "**its load died** in that traced pass: not the workload's figure"

/*
 * A blame's culprit in a few words: its call site, the interrupt, or the
 * section's first function.
 */
static void blame_tag(char *buf, size_t size, const struct blame *b)
{
	size_t len;

	if (b->kind == BLAME_SITE)
		snprintf(buf, size, "%s", b->call_site);
	else if (b->kind == BLAME_INTERRUPT) {	/* without its explanation in parentheses */
		for (len = strcspn(b->interrupt, "("); len && b->interrupt[len - 1] == ' '; len--)
			;
		snprintf(buf, size, "%.*s", (int)len, b->interrupt);
	} else {
		len = strcspn(b->section, "\xe2");	/* up to "…" */
		snprintf(buf, size, "%.*s%s", (int)len, b->section, b->section[len] ? "…" : "");
	}
}

/* A traced figure whose pass's load had died says so in its few words too. */
static void tag_load_dead(struct trace_ev *e)
{
	size_t n = strlen(e->tag);

	snprintf(e->tag + n, sizeof(e->tag) - n, "%s**load died**", n ? ", " : "");
}

static bool trace_worst_ev(const struct group *g, const struct trace_worst *t, bool too_long, bool flagged,
			   struct trace_ev *e)
{
	unsigned int i;

	e->us = (double)t->max_us;
	e->nruns = t->nruns;
	for (i = 0; i < t->nruns; i++)
		e->runs[i] = (double)t->runs_us[i];
	if (too_long) {
		snprintf(e->tag, sizeof(e->tag), "the guest stalled");
		snprintf(e->buf, sizeof(e->buf), "longer than the pass was to last: the guest stalled; %.300s",
			 t->blame.text);
	} else if (flagged) {
		snprintf(e->tag, sizeof(e->tag), "**flagged**");
		snprintf(e->buf, sizeof(e->buf), "**flagged**: over %u× %s, %.0f µs: no latency pass saw it; "
			 "not a culprit", TRACE_LATENCY_FACTOR, trace_ref_words(g), g->trace_ref_us);
	} else {
		e->hit = true;
		blame_tag(e->tag, sizeof(e->tag), &t->blame);
		if (!t->load_dead) {
			e->text = t->blame.text;
			return true;
		}
		snprintf(e->buf, sizeof(e->buf), "%.300s (" LOAD_DEAD_WORDS ")", t->blame.text);
		tag_load_dead(e);
	}
	e->text = e->buf;
	return true;
}

static bool wakeup_ev(const struct group *g, const struct wakeup_trace *w, struct trace_ev *e)
{
	unsigned int i;

	e->nruns = w->nruns;
	for (i = 0; i < w->nruns; i++)
		e->runs[i] = w->runs_us[i];
	e->text = e->buf;
	if (w->hit) {
		int n;

		e->us = w->latency_us;
		if (w->irq)
			n = snprintf(e->buf, sizeof(e->buf), "IRQ latency, %s", w->blame.text);
		else
			n = snprintf(e->buf, sizeof(e->buf), "thread latency (IRQ %.0f µs), %s", w->irq_latency_us,
				     w->blame.text);
		/*
		 * Recording the preemptirq events costs instruction time in
		 * every section: a wake-up far beyond what the latency passes
		 * saw is named, but its length is the tracing's as much as
		 * the kernel's.
		 */
		if (g->wakeup_flagged)
			snprintf(e->buf + n, sizeof(e->buf) - n, " (**inflated**: over %u× %s, %.0f µs: the events "
				 "recorded lengthen it; where it opened and closed holds, its length does not)",
				 TRACE_LATENCY_FACTOR, trace_ref_words(g), g->trace_ref_us);
		else if (g->wakeup_inflated)
			snprintf(e->buf + n, sizeof(e->buf) - n, " (**inflated**: %.1f× the plain kernel's maximum, "
				 "%.0f µs: the events recorded lengthen it)", w->latency_us / g->latency_max_us,
				 g->latency_max_us);
		e->hit = true;
		blame_tag(e->tag, sizeof(e->tag), &w->blame);
		if (g->wakeup_flagged || g->wakeup_inflated)
			snprintf(e->tag + strlen(e->tag), sizeof(e->tag) - strlen(e->tag), ", **inflated**");
	} else if (w->trace_lost) {
		snprintf(e->tag, sizeof(e->tag), "trace lost");
		e->us = w->max_us;
		snprintf(e->buf, sizeof(e->buf), "a wake-up crossed the threshold of %llu µs, but its trace was "
			 "lost", (unsigned long long)w->threshold_us);
	} else if (!w->has_max) {
		/* A cell from before timerlat's maximum was kept. */
		e->us = NAN;
		snprintf(e->tag, sizeof(e->tag), "none over the threshold");
		snprintf(e->buf, sizeof(e->buf), "none reached the threshold of %llu µs",
			 (unsigned long long)w->threshold_us);
	} else {
		e->us = w->max_us;
		snprintf(e->tag, sizeof(e->tag), "none over the threshold");
		snprintf(e->buf, sizeof(e->buf), "timerlat's max; none reached the threshold of %llu µs "
			 "(%u%% of the latency pass's %llu µs, above the idle noise of %llu µs)",
			 (unsigned long long)w->threshold_us, (unsigned int)w->threshold_percent,
			 (unsigned long long)w->latency_pass_max_us, (unsigned long long)w->idle_max_us);
	}
	if (w->load_dead) {
		size_t n = strlen(e->buf);

		snprintf(e->buf + n, sizeof(e->buf) - n, " (" LOAD_DEAD_WORDS ")");
		tag_load_dead(e);
	}
	return true;
}

/* Evidence of kind k for group g into e; false when the group has none. */
static bool group_trace_ev(const struct group *g, enum trace_kind k, struct trace_ev *e)
{
	memset(e, 0, sizeof(*e));
	switch (k) {
	case TK_WAKEUP:
		return g->wakeup_cell && wakeup_ev(g, &g->wakeup_cell->wakeup, e);
	case TK_PREEMPTOFF:
		return g->preemptoff_cell && trace_worst_ev(g, &g->preemptoff_cell->preemptoff,
							    g->preemptoff_too_long, g->preemptoff_flagged, e);
	case TK_IRQSOFF:
		return g->irqsoff_cell && trace_worst_ev(g, &g->irqsoff_cell->irqsoff, g->irqsoff_too_long,
							 g->irqsoff_flagged, e);
	default:
		return false;
	}
}

/* "%.0f" of us, or "–" for NAN (not recorded). */
static const char *us_or_dash(double us, char *buf, size_t size)
{
	if (isnan(us))
		snprintf(buf, size, "–");
	else
		snprintf(buf, size, "%.0f", us);
	return buf;
}

/* "2 runs: 52784, 52790 µs" or "a single run": how noisy the figure is. */
static const char *trace_ev_spread(const struct trace_ev *e, char *buf, size_t size)
{
	size_t len;
	unsigned int i;

	if (e->nruns < 2) {
		snprintf(buf, size, "a single run");
		return buf;
	}
	len = (size_t)snprintf(buf, size, "%u runs: ", e->nruns);
	for (i = 0; i < e->nruns && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%.0f", i ? ", " : "", e->runs[i]);
	if (len < size)
		snprintf(buf + len, size - len, " µs");
	return buf;
}

/*
 * How far apart the A/A pair's evidence of kind k is on workload (|A - B|,
 * µs): what equivalent builds measured the same way differ by. Negative
 * when the run has no such pair with evidence on both sides.
 */
static double aa_spread(const struct run *run, const char *workload, enum trace_kind k)
{
	const struct comparison_def *aa = aa_def(run);
	int va, vb;
	size_t w;
	struct trace_ev ea, eb;

	if (!aa)
		return -1;
	va = variant_index(run, aa->a);
	vb = variant_index(run, aa->b);
	for (w = 0; w < run->nworkloads && strcmp(run->workloads[w], workload); w++)
		;
	if (va < 0 || vb < 0 || w == run->nworkloads ||
	    !group_trace_ev(run_group(run, (size_t)va, w), k, &ea) ||
	    !group_trace_ev(run_group(run, (size_t)vb, w), k, &eb))
		return -1;
	return isnan(ea.us) || isnan(eb.us) ? -1 : fabs(ea.us - eb.us);
}

/*
 * The reviewer's traced evidence of one workload: a line per kind, both
 * sides, each with its spread; "changed" only when the two sides' figures
 * differ by more than the A/A pair's on that workload (else it is the
 * noise of one traced pass, not the change).
 */
static void reviewer_traces(FILE *f, const struct run *run, const struct verdict_pair *vp, const struct group *ga,
			    const struct group *gb, const char *workload)
{
	const struct comparison_def *pair = aa_def(run);
	enum trace_kind k;

	for (k = 0; k < TK_N; k++) {
		struct trace_ev ea, eb;
		bool ha = group_trace_ev(ga, k, &ea), hb = group_trace_ev(gb, k, &eb);
		char sa[96], sb[96], na[32], nb[32];
		double aa;

		if (!ha && !hb)
			continue;
		fprintf(f, "    %s:\n", trace_kind_heading[k]);
		if (ha)
			fprintf(f, "      %s %s µs (%s): %s\n", vp->a, us_or_dash(ea.us, na, sizeof(na)),
				trace_ev_spread(&ea, sa, sizeof(sa)), ea.text);
		if (hb)
			fprintf(f, "      %s %s µs (%s): %s\n", vp->b, us_or_dash(eb.us, nb, sizeof(nb)),
				trace_ev_spread(&eb, sb, sizeof(sb)), eb.text);
		if (!ha || !hb || !ea.hit || !eb.hit || !strcmp(ea.text, eb.text))
			continue;
		if (pair && !strcmp(pair->a, vp->a) && !strcmp(pair->b, vp->b)) {
			fprintf(f, "      (this is the A/A pair: how far apart it is, is the noise other pairs are "
				"held against)\n");
			continue;
		}
		aa = aa_spread(run, workload, k);
		if (aa < 0)
			fprintf(f, "      (the culprits differ; no A/A pair in this run to say whether that is more "
				"than noise)\n");
		else if (fabs(ea.us - eb.us) > aa)
			fprintf(f, "      changed: %.0f -> %.0f µs, more than the A/A pair's %.0f µs apart on %s\n",
				eb.us, ea.us, aa, workload);
		else
			fprintf(f, "      (the culprits differ by no more than the A/A pair's %.0f µs: noise)\n", aa);
	}
}

/* A group's traced evidence, in words: each kind kept apart, with its culprit or why it has none. */
static void answer_section(FILE *f, const struct group *g)
{
	struct trace_ev e;
	enum trace_kind k;

	fprintf(f, "%s: ", g->variant);
	for (k = 0; k < TK_N; k++) {
		char spread[96], num[32];

		if (k)
			fputs("; ", f);
		if (!group_trace_ev(g, k, &e)) {
			fprintf(f, "no %s", trace_kind_name[k]);
			continue;
		}
		fprintf(f, "%s %s µs (%s): %s", trace_kind_name[k], us_or_dash(e.us, num, sizeof(num)),
			trace_ev_spread(&e, spread, sizeof(spread)), e.text);
	}
}

/*
 * A workload's setup or targets (its cells agree on them): the field at
 * offset in the first of its cells that recorded it, or NULL.
 */
static const char *workload_field(const struct run *run, const char *workload, size_t offset)
{
	size_t i;

	for (i = 0; i < run->ncells; i++) {
		const char *v = *(const char *const *)((const char *)&run->cells[i] + offset);

		if (!strcmp(run->cells[i].workload, workload) && v)
			return v;
	}
	return NULL;
}
#define workload_setup(run, w) workload_field(run, w, offsetof(struct cell, setup))
#define workload_targets(run, w) workload_field(run, w, offsetof(struct cell, targets))

static void md_answer_integrity(FILE *f, const struct run *run);
static void md_answer_locks(FILE *f, const struct run *run);

/*
 * A kernel that corrupts data or crashes has failed, whatever its latency:
 * corrupted data, a panic, an oops, a BUG (scheduling while atomic among
 * them), in a cell that ran a workload (the modules pass provokes splats on
 * purpose).
 */
static const char *const failure_kinds[] = {
	"panic", "oops", "bug", "scheduling-while-atomic", "sleeping-in-atomic",
};

static bool cell_modules_only(const struct cell *c)
{
	return c->passes && !strcmp(c->passes, "modules");
}

/* The failures of variant v's cells, in words ("zram: data corrupted; squashfs: oops"), into buf. */
static size_t variant_failures(const struct run *run, const char *v, char *buf, size_t size)
{
	size_t i, k, n = 0, len = 0;

	buf[0] = '\0';
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		const char *what = NULL;
		unsigned int j;

		if (strcmp(c->variant, v) || cell_modules_only(c))
			continue;
		if (cell_corrupted(c))
			what = "data corrupted";
		for (j = 0; j < c->nfindings && !what; j++)
			for (k = 0; k < ARRAY_SIZE(failure_kinds) && !what; k++)
				if (!strcmp(c->findings[j].kind, failure_kinds[k]))
					what = failure_kinds[k];
		if (!what)
			continue;
		/* One entry per workload and kind. */
		{
			char entry[160];

			snprintf(entry, sizeof(entry), "%s: %s", c->workload, what);
			if (strstr(buf, entry))
				continue;
			if (len < size)
				len += (size_t)snprintf(buf + len, size - len, "%s%s", n ? "; " : "", entry);
			n++;
		}
	}
	return n;
}

/*
 * Which variants failed the correctness half of the claim: a line that
 * names them and why, or that none did.
 */
static void md_answer_failed(FILE *f, const struct run *run)
{
	char why[1024];
	size_t v, n = 0;

	for (v = 0; v < run->nvariants; v++) {
		if (!variant_failures(run, run->variants[v], why, sizeof(why)))
			continue;
		fprintf(f, "%s **%s** (%s)", n++ ? "," : "- **Failed** (corrupted data or a kernel crash, BUG or "
			"oops in a workload's cell):", run->variants[v], why);
	}
	if (n)
		fprintf(f, ".\n");
	else
		fprintf(f, "- Failed (corrupted data or a kernel crash, BUG or oops in a workload's cell): none.\n");
}

/*
 * The answer first: the primary question's verdict with what left the trace
 * on each side, the A/A check per workload, expectations the run
 * contradicts, the splats, and what did not finish. The tables follow.
 */
static void md_answer(FILE *f, const struct run *run)
{
	const struct comparison *q = NULL;
	const struct comparison_def *aa = NULL;
	size_t i, n, splat_cells = 0, unfinished = 0, left_out = 0, panicked = 0;
	unsigned int k, splats = 0, splat_lines = 0;

	fprintf(f, "## Answer\n\n");
	if (run->question_a)
		q = comparison_of(run, run->question_a, run->question_b, run->question_workload);
	if (q) {
		/* The workload's parameters beside the headline: squashfs's block size sets its section. */
		const char *setup = workload_setup(run, q->workload);

		fprintf(f, "**%s vs %s on %s** (", q->a->variant, q->b->variant, q->workload);
		/* Cells from before the meta key have no setup: nothing to name. */
		if (setup)
			fprintf(f, "setup `%s`; ", setup);
		fprintf(f, "the question kernels/comparisons asks first): ");
		answer_line(f, run, q);
		fprintf(f, ".\n\n- What left the trace: ");
		answer_section(f, q->b);
		fprintf(f, ". ");
		answer_section(f, q->a);
		fprintf(f, ".\n");
	} else if (run->question_a) {
		fprintf(f, "**%s vs %s on %s** (the question kernels/comparisons asks first): not answered by "
			"this run (it has no cells of one side).\n\n", run->question_a, run->question_b,
			run->question_workload);
	}
	/* The A/A check: a pair expected the same on every workload. */
	aa = aa_def(run);
	if (aa) {
		fprintf(f, "- A/A check, %s vs %s (expected the same):", aa->a, aa->b);
		for (i = 0, n = 0; i < run->ncmps; i++) {
			const struct comparison *c = &run->cmps[i];

			if (strcmp(c->a->variant, aa->a) || strcmp(c->b->variant, aa->b))
				continue;
			fprintf(f, "%s %s: %s%s", n++ ? ";" : "", c->workload,
				c->contradicts ? "**contradicts the expectation**: " : "", c->verdict);
		}
		fprintf(f, "%s.\n", n ? "" : " not in this run");
	}
	fprintf(f, "- Expectations contradicted:");
	for (i = 0, n = 0; i < run->ncmps; i++)
		if (run->cmps[i].contradicts)
			fprintf(f, "%s %s vs %s on %s", n++ ? "," : "", run->cmps[i].a->variant,
				run->cmps[i].b->variant, run->cmps[i].workload);
	fprintf(f, "%s.\n", n ? "" : " none");
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		for (k = 0; k < c->nfindings; k++)
			splat_lines += c->findings[k].count;
		splats += c->nfindings;
		splat_cells += c->nfindings > 0;
		panicked += c->judged.panicked;
		unfinished += (strcmp(c->status, "OK") && strcmp(c->status, "FINDINGS")) || c->judged.panicked;
		left_out += c->judged.left_out != NULL;
	}
	fprintf(f, "- Kernel splats: %u %s in %zu %s (%u console %s: a kind's repeats in one cell, a cascade, "
		"are one event)%s.\n", splats, plural(splats, "event", "events"), splat_cells,
		plural(splat_cells, "cell", "cells"), splat_lines, plural(splat_lines, "line", "lines"),
		splats ? " (see [Kernel splats](#kernel-splats))" : "");
	md_answer_integrity(f, run);
	md_answer_failed(f, run);
	md_answer_locks(f, run);
	fprintf(f, "- Did not finish: %zu %s (%zu TIMEOUT, %zu INVALID, %zu INFRA, %zu panicked); %zu "
		"%s left out of the latency statistics%s.\n\n", unfinished, plural(unfinished, "cell", "cells"),
		count_status(run, "TIMEOUT"), count_status(run, "INVALID"), count_status(run, "INFRA"), panicked,
		left_out, plural(left_out, "repetition", "repetitions"),
		unfinished || left_out ? " (see the sections at the end)" : "");
}

/* The first cell of a variant, for what its kernel is (its manifest), or NULL. */
static const struct cell *variant_cell(const struct run *run, const char *variant)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		if (!strcmp(run->cells[i].variant, variant))
			return &run->cells[i];
	return NULL;
}

/* The index of a variant among the run's columns, or -1. */
static int variant_index(const struct run *run, const char *variant)
{
	size_t v;

	for (v = 0; v < run->nvariants; v++)
		if (!strcmp(run->variants[v], variant))
			return (int)v;
	return -1;
}

#define MAX_KINDS 64

/* The splat kinds found in the cells of variant on workload, each once, into kinds; how many. */
static size_t group_splat_kinds(const struct run *run, const char *variant, const char *workload,
				const char **kinds)
{
	size_t i, j, n = 0;
	unsigned int k;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (strcmp(c->variant, variant) || strcmp(c->workload, workload))
			continue;
		for (k = 0; k < c->nfindings; k++) {
			for (j = 0; j < n && strcmp(kinds[j], c->findings[k].kind); j++)
				;
			if (j == n && n < MAX_KINDS)
				kinds[n++] = c->findings[k].kind;
		}
	}
	return n;
}

/* The strings of x[0..nx) that y[0..ny) lacks, into out; how many. */
static size_t lacking(const char **out, const char *const *x, size_t nx, const char *const *y, size_t ny)
{
	size_t i, j, n = 0;

	for (i = 0; i < nx; i++) {
		for (j = 0; j < ny && strcmp(x[i], y[j]); j++)
			;
		if (j == ny)
			out[n++] = x[i];
	}
	return n;
}

/* items[0..n), sep-separated. */
static void print_list(FILE *f, const char *const *items, size_t n, const char *sep)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? sep : "", items[i]);
}

/* "    splats appeared: ...; went away: ..." of A (the change) against B on a workload. */
static void splats_line(FILE *f, const struct run *run, const char *a, const char *b, const char *workload)
{
	const char *ka[MAX_KINDS], *kb[MAX_KINDS], *d[MAX_KINDS];
	size_t na = group_splat_kinds(run, a, workload, ka), nb = group_splat_kinds(run, b, workload, kb), n;

	fputs("    splats appeared: ", f);
	n = lacking(d, ka, na, kb, nb);
	print_list(f, d, n, ", ");
	fputs(n ? "; went away: " : "none; went away: ", f);
	n = lacking(d, kb, nb, ka, na);
	print_list(f, d, n, ", ");
	fputs(n ? "\n" : "none\n", f);
}

/* What a variant's kernel is made of: its source and its patches (manifest). */
static void reviewer_kernel(FILE *f, const char *variant, const struct cell *c)
{
	fprintf(f, "  %s: %s, patches %s\n", variant, c->kernel_source, c->patches[0] ? c->patches : "none");
}

/*
 * The reviewer's verdict: for each "verdict | A | B" pair of
 * kernels/comparisons (A the change, B its base), a plain-text block to paste
 * into a mail: the kernels, how they were measured, per workload the ratio
 * with its interval and p, the traced sections that left or entered the worst
 * wake-ups, the splats that appeared or went away, and the binary
 * equivalence the run checked.
 */
static void md_reviewer(FILE *f, const struct run *run)
{
	char accel[256], vcpus[64], duration[64], revision[256];
	size_t i, w;

	if (!run->nverdicts)
		return;
	setting_values_of(run, CS_ACCEL, true, accel, sizeof(accel));
	setting_values_of(run, CS_VCPUS, true, vcpus, sizeof(vcpus));
	setting_values_of(run, CS_DURATION_S, true, duration, sizeof(duration));
	setting_values(run, CS_SUITE_REVISION, revision, sizeof(revision));
	fprintf(f, "## For a reviewer\n\n```\n");
	fprintf(f, "locklat: %s, %s %s, %s s latency passes, up to %zu %s per build\n"
		"and workload (locklat %s)\n", accel, vcpus, strcmp(vcpus, "1") ? "vCPUs" : "vCPU", duration, max_rep(run),
		plural(max_rep(run), "repetition", "repetitions"), revision);
	for (i = 0; i < run->nverdicts; i++) {
		const struct verdict_pair *vp = &run->verdicts[i];
		const struct cell *ca = variant_cell(run, vp->a), *cb = variant_cell(run, vp->b);
		int va = variant_index(run, vp->a), vb = variant_index(run, vp->b);

		if (!ca || !cb || va < 0 || vb < 0)
			continue;
		fprintf(f, "\n%s vs %s (%s):\n", vp->a, vp->b, ca->preempt_model ? ca->preempt_model : "?");
		reviewer_kernel(f, vp->a, ca);
		reviewer_kernel(f, vp->b, cb);
		for (w = 0; w < run->nworkloads; w++) {
			const struct comparison *cmp = comparison_of(run, vp->a, vp->b, run->workloads[w]);
			const struct group *ga = run_group(run, (size_t)va, w), *gb = run_group(run, (size_t)vb, w);
			if (!cmp)
				continue;
			fprintf(f, "  %s: %s", run->workloads[w], cmp->verdict);
			if (!isnan(cmp->p_max))
				fprintf(f, ", p = %.3f", cmp->p_max);
			fprintf(f, "\n");
			reviewer_traces(f, run, vp, ga, gb, run->workloads[w]);
			if (ga->verify_cell) {
				unsigned int k, reached = 0;

				for (k = 0; k < ga->verify_cell->nhits; k++)
					reached += ga->verify_cell->hits[k].reached;
				if (!reached)
					fprintf(f, "    reached none of its %u target functions (verify pass): this workload "
						"does not exercise the change\n", ga->verify_cell->nhits);
			}
			splats_line(f, run, vp->a, vp->b, run->workloads[w]);
			if (ga->integrity_errors || gb->integrity_errors)
				fprintf(f, "    data corrupted: %s %llu of %llu wrong; %s %llu of %llu wrong\n", vp->a,
					ga->integrity_errors, ga->integrity_checked, vp->b, gb->integrity_errors,
					gb->integrity_checked);
		}
		if (vp->equivalence) {
			const char *p = vp->equivalence;

			fprintf(f, "  binary equivalence (make verify-equivalence):\n");
			while (*p) {
				size_t len = strcspn(p, "\n");

				if (len)
					fprintf(f, "    %.*s\n", (int)len, p);
				p += len + (p[len] == '\n');
			}
		} else if (ca->preempt_model && !strcmp(ca->preempt_model, "preempt")) {
			fprintf(f, "  binary equivalence: not checked in this run (make verify-equivalence)\n");
		}
	}
	fprintf(f, "```\n\n");
}

static void md_header(FILE *f, const struct run *run)
{
	char buf[2048];

	fprintf(f, "# locklat summary: run `%s`\n\n", run_name(run));
	if (run->only)
		fprintf(f, "Stratum `%s`: the cells this run ran under **%s** on **%s** (hosts: %s), and those of no "
			"host; the run's other strata have summaries of their own (`../../summary.md`), and no comparison "
			"here pools cells of two. Cell folders named here are relative to the run's folder, two up.\n\n",
			run->only->name, run->only->accel, run->only->host_cpu, run->only->hosts);
	md_answer(f, run);
	glance_write(f, run, true);
	md_reviewer(f, run);
	fprintf(f, "## The run\n\n");
	{
		size_t ended = count_status(run, "OK") + count_status(run, "FINDINGS");

		/* A TIMEOUT cell is written whole, but its guest did not end: not "complete". */
		fprintf(f, "%zu %s written: %zu ran to their end (%zu OK, %zu FINDINGS), %zu did not (%zu TIMEOUT, "
			"%zu INVALID, %zu INFRA)", run->ncells, plural(run->ncells, "cell", "cells"), ended,
			count_status(run, "OK"), count_status(run, "FINDINGS"), run->ncells - ended,
			count_status(run, "TIMEOUT"), count_status(run, "INVALID"), count_status(run, "INFRA"));
	}
	if (run->partial)
		fprintf(f, "; %zu unfinished %s not counted", run->partial, plural(run->partial, "cell", "cells"));
	fprintf(f, ". Up to %zu %s per variant and workload.\n\n", max_rep(run),
		plural(max_rep(run), "repetition", "repetitions"));

	setting_values(run, CS_ACCEL, buf, sizeof(buf));
	fprintf(f, "- Accelerator: **%s**\n", buf);
	setting_values(run, CS_VCPUS, buf, sizeof(buf));
	fprintf(f, "- Guest: %s %s, pinned (see each cell's `pinning`); ", buf, strcmp(buf, "1") ? "vCPUs" : "vCPU");
	setting_values(run, CS_GUEST_MEM_MIB, buf, sizeof(buf));
	fprintf(f, "%s MiB\n", buf);
	setting_values_of(run, CS_DURATION_S, true, buf, sizeof(buf));
	fprintf(f, "- Latency pass: %s s of guest time (", buf);
	setting_values_of(run, CS_WARMUP_S, true, buf, sizeof(buf));
	fprintf(f, "after %s s of workload warm-up); cyclictest `-m -p95 -a -i 200`, one thread per vCPU, ", buf);
	setting_values(run, CS_HIST_RANGE_US, buf, sizeof(buf));
	fprintf(f, "histogram range %s µs; tracer and verification passes ", buf);
	setting_values_of(run, CS_TRACE_DURATION_S, true, buf, sizeof(buf));
	fprintf(f, "%s s\n", buf);
	setting_values(run, CS_KERNEL_SOURCE, buf, sizeof(buf));
	fprintf(f, "- Kernel source: %s; ", buf);
	setting_values(run, CS_GCC, buf, sizeof(buf));
	fprintf(f, "gcc %s\n", buf);
	setting_values(run, CS_QEMU, buf, sizeof(buf));
	fprintf(f, "- %s; ", buf);
	setting_values(run, CS_RT_TESTS, buf, sizeof(buf));
	fprintf(f, "rt-tests %s; ", buf);
	setting_values(run, CS_TRACE_CMD, buf, sizeof(buf));
	fprintf(f, "trace-cmd %s\n", buf);
	setting_values(run, CS_HOST_CPU, buf, sizeof(buf));
	fprintf(f, "- Host CPU: %s", buf);
	/* The hosts by name, where the cells recorded them (run-matrix.sh --hosts runs several). */
	setting_values(run, CS_HOST, buf, sizeof(buf));
	if (strcmp(buf, "?"))
		fprintf(f, " (hosts: %s)", buf);
	fprintf(f, "; ");
	setting_values(run, CS_SUITE_REVISION, buf, sizeof(buf));
	fprintf(f, "locklat revision %s\n\n", buf);
	md_clock(f, run);
	fprintf(f, "All latencies in µs. Across repetitions: median [min–max]. Each repetition's maximum and "
		"percentiles are of its pass **after a %.1f s start-up window** (cyclictest's own start and the "
		"load's ramp; what falls inside it is shown on its own row, and cyclictest's maximum over the "
		"whole pass is in `summary.json` as `cyclictest_max_us`). Percentiles are corrected for "
		"coordinated omission: each period a late wake-up made cyclictest skip counts as the wake-up "
		"it would have been. A repetition counts as measured only if its load progressed in every "
		"second of the pass. Plots: [max latency](%s/max.svg), [preemptoff](%s/preemptoff.svg), "
		"[irqsoff](%s/irqsoff.svg), per workload `%s/ccdf-<workload>.svg` and `%s/hist-<workload>.svg`.\n\n",
		(double)run->window_us / 1e6, run->plots_dir, run->plots_dir, run->plots_dir, run->plots_dir, run->plots_dir);
	if (run->has_traced)
		fprintf(f, "Two kernels per variant: the repetitions ran on its **plain** kernel, without the "
			"preemptoff and irqsoff tracers, whose hooks lengthen every `preempt_disable()` section "
			"under icount; the traces, the timerlat pass and the path proof come from one cell per "
			"column on its **traced** kernel (`<variant>+tracers`), whose own latency pass has a row "
			"of its own and is what a traced section is held against.\n\n");
	md_chance(f, run);
}

/* A note's marker: a to z, then aa to zz. */
static void note_marker(char *buf, size_t size, size_t i)
{
	if (i < 26)
		snprintf(buf, size, "%c", (char)('a' + i));
	else
		snprintf(buf, size, "%c%c", (char)('a' + i / 26 - 1), (char)('a' + i % 26));
}

void md_note(FILE *f, struct md_notes *notes, const char *fmt, ...)
{
	char text[1024], mark[4];
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (i = 0; i < notes->n && strcmp(notes->text[i], text); i++)
		;
	if (i == notes->n && i == MD_NOTES_MAX) {
		fprintf(f, " (%s)", text);
		return;
	}
	if (i == notes->n)
		notes->text[notes->n++] = xstrdup(text);
	note_marker(mark, sizeof(mark), i);
	fprintf(f, " [%s]", mark);
}

void md_notes_print(FILE *f, struct md_notes *notes)
{
	char mark[4];
	size_t i;

	for (i = 0; i < notes->n; i++) {
		note_marker(mark, sizeof(mark), i);
		fprintf(f, "%s- [%s] %s\n", i ? "" : "\n", mark, notes->text[i]);
		free(notes->text[i]);
	}
	notes->n = 0;
}

/*
 * The rest of a table's header after its first column: a column per variant
 * and, if last is not NULL, one more; then the separator line.
 */
void md_variant_columns(FILE *f, const struct run *run, const char *last)
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

/* What trace_beyond_latency held a trace against, in words. */
static const char *trace_ref_words(const struct group *g)
{
	return g->trace_ref_own ? "the worst wake-up of the traced kernel's latency pass"
				: "the column's worst wake-up";
}

/*
 * The worst wake-up, traced (the timerlat pass of the traced cell, or in older runs the first repetition that
 * has one): its latency, IRQ or thread, and the section that blocked it, or
 * that none crossed the pass's threshold in its seconds.
 */
void md_trace_ev(FILE *f, const struct group *g, enum trace_kind k, struct md_notes *notes)
{
	struct trace_ev e;
	char spread[96], num[32];

	if (!group_trace_ev(g, k, &e)) {
		fprintf(f, " – |");
		return;
	}
	fprintf(f, " %s", us_or_dash(e.us, num, sizeof(num)));
	trace_ev_spread(&e, spread, sizeof(spread));
	if (isnan(e.us))
		md_note(f, notes, "**%s**, %s (%s): %s", g->variant, trace_kind_name[k], spread, e.text);
	else
		md_note(f, notes, "**%s**, %s: %s µs (%s): %s", g->variant, trace_kind_name[k], num, spread, e.text);
	fprintf(f, ": %s |", e.tag);
}

static void md_cell_splats(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	(void)notes;
	fprintf(f, " %u |", g->findings);
}

/*
 * A lock event at the workload's call site in a group's lock cell: the
 * workload's hits there (boosts only, with boosts), the idle control at the
 * same site (the event's idle total without an idle histogram). False if
 * there is nothing to count (no cell, no such event, unavailable, no site,
 * no stacks); *why then says which.
 */
bool lock_at_site(const struct group *g, const char *event, bool boosts, unsigned long long *n,
			 unsigned long long *idle, bool *has_idle, const char **why)
{
	const struct cell *c = g->lock_cell;
	const struct lock_event *e = c ? cell_lock_event(c, event) : NULL;
	unsigned int s;

	*why = "–";
	if (!e)
		return false;
	if (e->unavailable) {
		*why = "n/a";
		return false;
	}
	if (c->lock_site < 0 || !e->workload.present) {
		*why = "?";
		return false;
	}
	s = (unsigned int)c->lock_site;
	*n = boosts ? e->workload.site_boosts[s] : e->workload.site_hits[s];
	*has_idle = e->idle.present || e->has_idle;
	if (e->idle.present)
		*idle = boosts ? e->idle.site_boosts[s] : e->idle.site_hits[s];
	else
		*idle = e->idle_hits;
	return true;
}

/*
 * A group whose contention at the site wants a note: none on PREEMPT_RT (the
 * tasks sharing a vCPU never met in the section), or some on a kernel
 * without it (where a local_lock is preempt_disable()).
 */
bool lock_site_odd(const struct group *g)
{
	unsigned long long n, idle;
	bool has_idle;
	const char *why;

	if (!lock_at_site(g, LOCK_EVENT_CONTENTION, false, &n, &idle, &has_idle, &why) || !g->lock_cell->rt_known)
		return false;
	return g->lock_cell->preempt_rt ? n == 0 : n > 0;
}

/* Items the workload checked over the group's cells, and those it found wrong (examples in the note). */
static void md_cell_integrity(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	(void)notes;
	if (!g->integrity_cells)
		fprintf(f, " – |");
	else if (g->integrity_errors)
		fprintf(f, " **%llu of %llu wrong** |", g->integrity_errors, g->integrity_checked);
	else
		fprintf(f, " %llu checked, 0 wrong |", g->integrity_checked);
}

/* The rows of a workload's table that are the cell's, not a pass's: after the passes' rows. */
static const struct md_row md_cell_rows[] = {
	{ "kernel splats (events)", md_cell_splats, ROW_ALWAYS },
	{ "data integrity", md_cell_integrity, ROW_INTEGRITY },
};

static bool md_row_shown(const struct run *run, const struct md_row *r)
{
	switch (r->when) {
	case ROW_TRACED: return run->has_traced;
	case ROW_TASKS: return run->has_tasks;
	case ROW_LOCK: return run->has_lock_events;
	case ROW_INTEGRITY: return run->has_integrity;
	default: return true;
	}
}

/* text with the characters that would end a table cell or a code span made harmless. */
static void md_text(FILE *f, const char *text)
{
	for (; *text; text++) {
		if (*text == '|')
			fputs("\\|", f);
		else if (*text == '`')
			fputc('\'', f);
		else if (*text != '\n' && *text != '\r')
			fputc(*text, f);
	}
}

/* "data corrupted in V/W/C: M of N wrong, first: TEXT" (the pass named with pass). */
static void corruption_words(FILE *f, const struct cell *c, bool pass)
{
	fprintf(f, "data corrupted in %s/%s/%s: %llu of %llu wrong", c->variant, c->workload, c->name,
		(unsigned long long)c->integrity.errors, (unsigned long long)c->integrity.checked);
	if (pass)
		fprintf(f, " (%s pass)", c->integrity.first_pass);
	fputs(", first: ", f);
	md_text(f, c->integrity.first);
}

/* The call site a group's lock rows count at, or NULL. */
static const char *group_lock_site(const struct group *g)
{
	const struct cell *c = g->lock_cell;

	return c && c->lock_site >= 0 ? c->lock_sites[c->lock_site] : NULL;
}

/*
 * Below a workload's table: what the lock rows count, the columns marked †,
 * and each cell whose data came back wrong, with its first example.
 */
static void md_workload_notes(FILE *f, const struct run *run, size_t w)
{
	const char *sites[8];
	size_t v, i, nsites = 0, n = 0, j;

	for (v = 0; v < run->nvariants; v++) {
		const char *site = group_lock_site(run_group(run, v, w));

		for (j = 0; site && j < nsites && strcmp(sites[j], site); j++)
			;
		if (site && j == nsites && nsites < ARRAY_SIZE(sites))
			sites[nsites++] = site;
	}
	if (nsites) {
		fprintf(f, "%s- Lock rows, verify pass: `lock:contention_begin` entries into the RT lock slow path "
			"(`LCB_F_RT`) and `sched:sched_pi_setprio` boosts (a waiter raising the lock owner), counted on "
			"the stacks through a boundary function of the workload's call site, ", n++ ? "" : "\n");
		print_list(f, sites, nsites, " / ");
		fprintf(f, "; the idle control of the same length in parentheses. Without PREEMPT_RT a local_lock "
			"is `preempt_disable()`: no slow path, none expected.\n");
	}
	for (v = 0; v < run->nvariants; v++) {
		const struct group *g = run_group(run, v, w);
		const struct cell *c = g->lock_cell;
		const struct lock_event *e = c ? cell_lock_event(c, LOCK_EVENT_CONTENTION) : NULL;

		if (lock_site_odd(g)) {
			unsigned long long all = e->workload.hits;

			if (c->preempt_rt)
				fprintf(f, "%s- † %s: %s: no contention reached (PREEMPT_RT; %llu slow-path entries "
					"elsewhere).\n", n++ ? "" : "\n", g->variant, group_lock_site(g), all);
			else
				fprintf(f, "%s- † %s: %s: RT lock slow path taken on a kernel without PREEMPT_RT "
					"(unexpected).\n", n++ ? "" : "\n", g->variant, group_lock_site(g));
		}
		if (c && c->lock_site >= 0 && !c->lock_site_by_targets)
			fprintf(f, "%s- %s: no verify target is a call site's function; the lock rows count at the site "
				"with the most contention, %s.\n", n++ ? "" : "\n", g->variant, group_lock_site(g));
	}
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (strcmp(c->workload, run->workloads[w]) || !cell_corrupted(c))
			continue;
		fprintf(f, "%s- **", n++ ? "" : "\n");
		corruption_words(f, c, true);
		fputs("**\n", f);
	}
}

/*
 * The answer's line on data integrity, beside the splats: every cell whose
 * workload read back wrong data (a finding, whatever else it shows), or how
 * much was checked and found right.
 */
static void md_answer_integrity(FILE *f, const struct run *run)
{
	unsigned long long checked = 0;
	size_t i, cells = 0, corrupted = 0, n = 0;

	if (!run->has_integrity)
		return;
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		checked += c->integrity.checked;
		cells += c->integrity.present;
		corrupted += cell_corrupted(c);
	}
	if (!corrupted) {
		fprintf(f, "- Data integrity: %llu items checked in %zu cells, none wrong.\n", checked, cells);
		return;
	}
	fprintf(f, "- **Data corrupted** in %zu of the %zu cells that checked their data (a finding; see "
		"[Data corruption](#data-corruption)): ", corrupted, cells);
	for (i = 0; i < run->ncells; i++) {
		if (!cell_corrupted(&run->cells[i]))
			continue;
		fputs(n++ ? "; " : "", f);
		corruption_words(f, &run->cells[i], false);
	}
	fputs(".\n", f);
}

/*
 * The answer's line on the lock itself: per workload, the RT lock slow-path
 * entries and PI boosts at its call site, per variant; a PREEMPT_RT variant
 * that reached none, or a non-RT one that reached some, said so.
 */
static void md_answer_locks(FILE *f, const struct run *run)
{
	size_t w, v, nw = 0;

	if (!run->has_lock_events)
		return;
	fprintf(f, "- RT lock contention at the workload's call site (verify pass; slow-path entries / PI boosts):");
	for (w = 0; w < run->nworkloads; w++) {
		size_t nv = 0;

		for (v = 0; v < run->nvariants; v++) {
			const struct group *g = run_group(run, v, w);
			unsigned long long n = 0, idle, boosts = 0;
			bool has_idle, has_boosts;
			const char *why, *bwhy;

			if (!g->lock_cell)
				continue;
			if (!nv++)
				fprintf(f, "%s %s (%s):", nw++ ? ";" : "", run->workloads[w],
					group_lock_site(g) ? group_lock_site(g) : "no call site");
			fprintf(f, "%s %s ", nv > 1 ? "," : "", g->variant);
			if (!lock_at_site(g, LOCK_EVENT_CONTENTION, false, &n, &idle, &has_idle, &why)) {
				fputs(why, f);
				continue;
			}
			has_boosts = lock_at_site(g, LOCK_EVENT_PI_SETPRIO, true, &boosts, &idle, &has_idle, &bwhy);
			if (g->lock_cell->preempt_rt && !n)
				fputs("**no contention reached**", f);
			else if (has_boosts)
				fprintf(f, "%llu / %llu", n, boosts);
			else
				fprintf(f, "%llu / %s", n, bwhy);
			if (g->lock_cell->rt_known && !g->lock_cell->preempt_rt)
				fputs(n ? " (**not PREEMPT_RT: unexpected**)" : " (not PREEMPT_RT)", f);
		}
	}
	fputs(nw ? ".\n" : " no workload's cells counted them.\n", f);
}

/* Links to the per-second plots, one per build: its repetitions overlaid. */
static void md_series(FILE *f, const struct run *run, const char *workload)
{
	char name[512];
	size_t v, i, n = 0;

	for (v = 0; v < run->nvariants; v++) {
		for (i = 0; i < run->ncells; i++) {
			const struct cell *c = &run->cells[i];

			if (c->has_series && !c->traced_kernel && !strcmp(c->variant, run->variants[v]) &&
			    !strcmp(c->workload, workload))
				break;
		}
		if (i == run->ncells)
			continue;
		series_group_name(name, sizeof(name), run->variants[v], workload);
		fprintf(f, "%s [%s](%s/%s.svg)", n++ ? "," : "Per-second maximum over the latency pass, "
			"each build's repetitions overlaid:", run->variants[v], run->plots_dir, name);
	}
	if (n)
		fputs("\n\n", f);
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

/* A row of workload w's table: its label and each variant's group. */
static void md_row(FILE *f, const struct run *run, size_t w, const struct md_row *row, struct md_notes *notes)
{
	size_t v;

	if (!md_row_shown(run, row))
		return;
	fprintf(f, "| %s |", row->label);
	for (v = 0; v < run->nvariants; v++)
		row->cell(f, run, run_group(run, v, w), notes);
	fputc('\n', f);
}

static void md_workload(FILE *f, const struct run *run, size_t w)
{
	const char *workload = run->workloads[w];
	struct md_notes notes = { .n = 0 };
	size_t i, p, r, n;
	char est[16], expected[96], word[48];

	fprintf(f, "## Workload `%s`\n\n|  |", workload);
	md_variant_columns(f, run, NULL);
	for (p = 0; summary_passes[p]; p++)
		for (r = 0; r < summary_passes[p]->nmd_rows; r++)
			md_row(f, run, w, &summary_passes[p]->md_rows[r], &notes);
	for (r = 0; r < ARRAY_SIZE(md_cell_rows); r++)
		md_row(f, run, w, &md_cell_rows[r], &notes);
	md_notes_print(f, &notes);
	md_workload_notes(f, run, w);

	/* Numbers in the table; each verdict and expectation in words in a numbered note under it. */
	fprintf(f, "\n| comparison | pass max: A/B [95%% at 1 µs] | worst second: A/B | p (max) | failed under load | "
		"verdict | expected |\n|---|---|---|---|---|---|---|\n");
	for (i = 0, n = 0; i < run->ncmps; i++) {
		const struct comparison *cmp = &run->cmps[i];

		if (strcmp(cmp->workload, workload))
			continue;
		fprintf(f, "| %s vs %s (%zu vs %zu) |", cmp->a->variant, cmp->b->variant, cmp->na, cmp->nb);
		md_interval(f, &cmp->ci);
		md_interval(f, cmp->has_blocks ? &cmp->ci_blocks : NULL);
		if (!isnan(cmp->p_max))
			fprintf(f, " %.3f |", cmp->p_max);
		else
			fprintf(f, " – |");
		if (cmp->fa || cmp->fb)
			fprintf(f, " %zu/%zu vs %zu/%zu (p %.3f) |", cmp->fa, cmp->na + cmp->fa, cmp->fb, cmp->nb + cmp->fb,
				cmp->p_failed);
		else
			fprintf(f, " none |");
		verdict_word(word, sizeof(word), cmp);
		fprintf(f, " %s [%zu] | %s", word, ++n, expectation_name(cmp->def->expect));
		if (cmp->def->bound > 1)
			fprintf(f, " %g×", cmp->def->bound);
		fputs(" |\n", f);
	}
	fputc('\n', f);
	for (i = 0, n = 0; i < run->ncmps; i++) {
		const struct comparison *cmp = &run->cmps[i];

		if (strcmp(cmp->workload, workload))
			continue;
		fprintf(f, "%zu. **%s vs %s**: %s%s", ++n, cmp->a->variant, cmp->b->variant,
			cmp->contradicts ? "**contradicts the expectation**: " : "", cmp->verdict);
		if (!isnan(cmp->ratio_medians))
			fprintf(f, "; ratio of median maxima %s×", ratio_str(est, sizeof(est), cmp->ratio_medians));
		fprintf(f, ". Expected %s: %s.\n", expectation_text(expected, sizeof(expected), cmp->def), cmp->def->why);
	}
	fprintf(f, "\n![latency CCDF](%s/ccdf-%s.svg)\n![latency histogram](%s/hist-%s.svg)\n\n", run->plots_dir,
		workload, run->plots_dir, workload);
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
		if ((!strcmp(c->status, "OK") || !strcmp(c->status, "FINDINGS")) && !c->judged.panicked)
			continue;
		if (c->reason[0])
			snprintf(why, sizeof(why), "%s", c->reason);
		else
			snprintf(why, sizeof(why), "the kernel panicked%s%s%s", c->hung_step[0] ? " in the " : "",
				 c->hung_step, c->hung_step[0] ? " pass" : "");
		/* A list, not a table: the reasons are sentences. */
		if (!n++)
			fprintf(f, "## Cells that did not finish\n\n");
		fprintf(f, "- `%s/%s/%s` %s: %s%s; log `%s/console.log`\n", c->variant, c->workload, c->name,
			c->status, why, c->judged.measured ? " (its latency pass had completed: it counts)" : "",
			cell_rel_dir(run, c));
	}
	if (n)
		fputc('\n', f);
	n = 0;
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		const char *why = c->judged.left_out;

		if (!why)
			continue;
		if (!n++)
			fprintf(f, "## Repetitions left out of the latency statistics\n\n"
				"Not among a column's measured repetitions; those that failed under their load "
				"are counted as failures in the comparisons (Fisher's exact test), never as "
				"latencies.\n\n");
		fprintf(f, "- `%s/%s/%s`%s: %s\n", c->variant, c->workload, c->name,
			c->judged.failed_in_latency ? " (a failure under load)" : "", why);
	}
	if (n)
		fputc('\n', f);
	n = 0;
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		for (k = 0; k < c->nfindings; k++) {
			if (!n++)
				fprintf(f, "## Kernel splats\n\n| cell | kind | console lines | first line |\n|---|---|---|---|\n");
			fprintf(f, "| %s/%s/%s | %s | %u | `%s` |\n", c->variant, c->workload,
				c->name, c->findings[k].kind, c->findings[k].count, c->findings[k].line);
		}
	}
	if (n)
		fputc('\n', f);
	n = 0;
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (!cell_corrupted(c))
			continue;
		if (!n++)
			fprintf(f, "## Data corruption\n\nWhat a workload read back and found wrong (its "
				"`locklat-integrity` lines, summed over the cell's passes): a finding, never OK.\n\n"
				"| cell | status | wrong / checked | first in | first wrong item |\n|---|---|---|---|---|\n");
		fprintf(f, "| %s/%s/%s | %s | %llu / %llu | %s pass | `", c->variant, c->workload, c->name, c->status,
			(unsigned long long)c->integrity.errors, (unsigned long long)c->integrity.checked,
			c->integrity.first_pass);
		md_text(f, c->integrity.first);
		fputs("` |\n", f);
	}
	if (n)
		fputc('\n', f);
}

/*
 * Workloads that drive one call site (the same verify targets) with other
 * parameters, side by side: squashfs and squashfs-128k differ by the block
 * size alone, which sets the length of the non-RT section. Per variant the
 * median maximum and its ratio to the first workload of the set.
 */
static void md_same_site(FILE *f, const struct run *run)
{
	bool done[64] = { false };
	size_t a, b, v;

	for (a = 0; a < run->nworkloads && a < ARRAY_SIZE(done); a++) {
		const char *ta = workload_targets(run, run->workloads[a]);
		size_t set[16], n = 0, k;

		if (done[a] || run->modules_only[a] || !ta || !strcmp(ta, "-"))
			continue;
		set[n++] = a;
		for (b = a + 1; b < run->nworkloads && b < ARRAY_SIZE(done) && n < ARRAY_SIZE(set); b++) {
			const char *tb = workload_targets(run, run->workloads[b]);

			if (tb && !strcmp(ta, tb)) {
				set[n++] = b;
				done[b] = true;
			}
		}
		if (n < 2)
			continue;
		fprintf(f, "## One call site, other parameters: `%s`\n\n", ta);
		fprintf(f, "Median maximum after the start-up window (µs), and its ratio to `%s`'s; the setup "
			"names each workload's parameters.\n\n| workload (setup) |", run->workloads[set[0]]);
		md_variant_columns(f, run, NULL);
		for (k = 0; k < n; k++) {
			const char *setup = workload_setup(run, run->workloads[set[k]]);

			fprintf(f, "| %s (`%s`) |", run->workloads[set[k]], setup ? setup : "?");
			for (v = 0; v < run->nvariants; v++) {
				const struct group *g = run_group(run, v, set[k]), *g0 = run_group(run, v, set[0]);

				if (!g->n) {
					fprintf(f, " – |");
					continue;
				}
				fprintf(f, " %.0f", median(g->max, g->n));
				if (k && g0->n && median(g0->max, g0->n) > 0)
					fprintf(f, " (%.2f×)", median(g->max, g->n) / median(g0->max, g0->n));
				fprintf(f, " |");
			}
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

void render_markdown(const struct run *run)
{
	FILE *f = render_open(run, "summary.md");
	size_t p, w;

	md_header(f, run);
	for (w = 0; w < run->nworkloads; w++)
		if (!run->modules_only[w])
			md_workload(f, run, w);
	md_same_site(f, run);
	for (p = 0; summary_passes[p]; p++)
		if (summary_passes[p]->md_section)
			summary_passes[p]->md_section(f, run);
	md_problems(f, run);
	render_close(f, run, "summary.md");
}

/*
 * A run of several strata (run.h: struct stratum): summary.md says that it
 * was not pooled and links each stratum's own summary.
 */
void render_markdown_index(const struct run *run)
{
	FILE *f = render_open(run, "summary.md");
	size_t i, nohost = run->ncells;

	fprintf(f, "# locklat summary: run `%s`\n\n## Answer\n\n", run_name(run));
	fprintf(f, "**Not pooled.** This run's cells ran under %zu strata, each an accelerator on a host CPU "
		"model (`run-matrix.sh --hosts`). A latency measured on one is not comparable with one measured "
		"on another (the guest's time is the host's, in instructions or in nanoseconds), so no comparison "
		"mixes them: each stratum is summarised on its own, with its own comparisons and plots "
		"(METHODOLOGY.md, \"A lab\"). A pair compared within one stratum ran on one kind of host.\n\n",
		run->nstrata);
	for (i = 0; i < run->nstrata; i++)
		if (run->strata[i].answer[0])
			fprintf(f, "- `%s`: %s.\n", run->strata[i].name, run->strata[i].answer);
	fprintf(f, "\n| stratum | accelerator | host CPU | hosts | cells | summary |\n|---|---|---|---|---|---|\n");
	for (i = 0; i < run->nstrata; i++) {
		const struct stratum *s = &run->strata[i];

		fprintf(f, "| `%s` | %s | %s | %s | %zu | [by-host/%s/summary.md](by-host/%s/summary.md) |\n",
			s->name, s->accel, s->host_cpu, s->hosts, s->ncells, s->name, s->name);
		nohost -= s->ncells;
	}
	if (nohost)
		fprintf(f, "\n%zu cells ran on no host (a kernel that did not build, or no lab host ran them): they "
			"are in every stratum's summary.\n", nohost);
	render_close(f, run, "summary.md");
}
