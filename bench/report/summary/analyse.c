// SPDX-License-Identifier: GPL-2.0
/*
 * analyse.c - the summary's middle stage: from the loaded cells, each
 * cell's verdict (measured, failed under load, left out, its percentiles),
 * the column order, the groups by (workload, variant), the traces held
 * against their column's latency, and every comparison of
 * kernels/comparisons, computed once into the struct run the renderers
 * read.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyse.h"
#include "judge.h"
#include "locklat.h"
#include "pass.h"
#include "run.h"

/*
 * Variant order, from what the cells' kernels are: non-RT before RT,
 * without lockdep before with, the pre-series code before the series, then
 * by name.
 */
static int variant_rank(const struct run *run, const char *variant)
{
	size_t i;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (strcmp(c->variant, variant))
			continue;
		return ((c->preempt_model && !strcmp(c->preempt_model, "rt")) * 2 + c->lockdep) * 2 +
		       series_listed(c->series_applied, run->series);
	}
	return 99;
}

static const struct run *sort_run;

static int cmp_variant(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = variant_rank(sort_run, x), ry = variant_rank(sort_run, y);

	if (rx != ry)
		return rx - ry;
	/* The pre-series baseline first within a model. */
	return strcmp(x, y);
}

static void add_unique(char ***list, size_t *n, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*list)[i], s))
			return;
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = xstrdup(s);
}

/*
 * A cell whose latency numbers count: it measured, even if the kernel
 * complained, or it hung in a later pass (TIMEOUT) after its latency pass had
 * completed and been written out (guest/steps says so); and its load ran
 * through the pass (a pass whose load died measured an idle guest).
 */
static bool cell_measured(const struct cell *c)
{
	if (c->traced_kernel || !c->has_latency || c->load.verdict == LOAD_DEAD)
		return false;
	return !strcmp(c->status, "OK") || !strcmp(c->status, "FINDINGS") ||
	       (!strcmp(c->status, "TIMEOUT") && c->latency_step_ok);
}

/*
 * The guest hung or panicked in the latency pass: a wake-up that never came
 * (the step started on the console and never ended).
 */
static bool cell_died_in_latency(const struct cell *c)
{
	if (c->traced_kernel)
		return false;
	return (!strcmp(c->status, "TIMEOUT") || cell_panicked(c)) && !strcmp(c->hung_step, "latency");
}

/*
 * A repetition that failed under its load: the guest died in the latency
 * pass, or the load did. The comparisons count it as a failure, apart from
 * the measured maxima.
 */
static bool cell_failed_in_latency(const struct cell *c)
{
	if (c->traced_kernel)
		return false;
	if (cell_died_in_latency(c))
		return true;
	return c->has_latency && c->load.verdict == LOAD_DEAD &&
	       (!strcmp(c->status, "OK") || !strcmp(c->status, "FINDINGS") ||
		(!strcmp(c->status, "TIMEOUT") && c->latency_step_ok));
}

/* Why a complete cell is not among its group's measured repetitions, or NULL. */
static const char *cell_left_out(const struct cell *c)
{
	if (cell_measured(c) || c->traced_kernel)
		return NULL;
	/* A cell that was not to run a latency pass (modules, verify-only) leaves nothing out. */
	if (c->passes && !strstr(c->passes, "latency"))
		return NULL;
	if (cell_died_in_latency(c))
		return "the guest hung or panicked in the latency pass";
	if (cell_failed_in_latency(c))
		return c->load.reason;
	if (strcmp(c->status, "OK") && strcmp(c->status, "FINDINGS") && c->reason[0])
		return c->reason;
	if (!c->has_latency)
		return "no latency data (cyclictest's JSON missing or unreadable)";
	return "the cell did not complete its latency pass";
}

/* src's counts and overflow added to dst. */
static void hist_merge(struct histogram *dst, const struct histogram *src)
{
	size_t k;

	for (k = 0; k < src->buckets; k++)
		if (src->count[k])
			hist_add(dst, k, src->count[k]);
	dst->overflow += src->overflow;
}

static void group_add_cell(struct group *g, const struct cell *c)
{
	const struct histogram *h = c->has_steady ? &c->steady_hist : &c->hist;

	if ((double)c->max_us > g->latency_max_us)
		g->latency_max_us = (double)c->max_us;
	g->max[g->n] = (double)(c->has_steady ? c->steady_max_us : c->max_us);
	g->block_median[g->n] = c->has_steady && c->nblocks ? (double)c->block_median_us : NAN;
	if (!g->n || (c->has_steady ? c->nblocks : 0) < g->min_blocks)
		g->min_blocks = c->has_steady ? c->nblocks : 0;
	g->startup_max[g->n] = c->has_steady ? (double)c->startup_max_us : NAN;
	g->max_censored |= c->has_steady && c->steady_censored;
	g->steady &= c->has_steady;
	g->p50[g->n] = (double)c->judged.p50_us;
	g->p50_over |= c->judged.p50_over;
	g->p99[g->n] = (double)c->judged.p99_us;
	g->p99_over |= c->judged.p99_over;
	g->p999[g->n] = (double)c->judged.p999_us;
	g->p999_over |= c->judged.p999_over;
	g->overflowed |= h->overflow > 0;
	if (c->has_steady) {
		g->samples += c->wakeups_steady;
		g->wakeups_due += c->wakeups_due_steady;
		g->wakeups_added += c->steady_added;
	} else {
		g->samples += hist_total(&c->hist);
	}
	hist_merge(&g->hist, h);
	/* Without the sample stream there is no correction: the histogram is what was measured. */
	hist_merge(&g->measured, c->has_steady ? &c->steady_measured : &c->hist);
	g->n++;
}

/*
 * A traced section longer than the pass was to last (warm-up + duration):
 * the guest stalled inside the pass (seen: an RCU stall of 21 s, RCU's stall
 * timeout, while the preemptoff tracer was switched on under PREEMPT_RT).
 * Said next to the number rather than hidden.
 */
bool trace_longer_than_pass(const struct cell *c, const struct trace_worst *t)
{
	if (!c || !c->duration_s)
		return false;
	return t->max_us > (c->duration_s + c->warmup_s) * 1000000;
}

/*
 * A traced section that lasted more than TRACE_LATENCY_FACTOR times the
 * worst wake-up the latency pass of the same kernel saw (cyclictest's
 * whole-pass maximum of the traced cell, group.trace_ref_us): a section that
 * long on the measured CPU delays a wake-up by nearly its length (one comes
 * every 200 µs), so the latency pass never met it, and the tracer's pass is
 * not evidence for the column's latency. Flagged, never shown as a culprit.
 */
bool trace_beyond_latency(const struct group *g, const struct trace_worst *t)
{
	return g->trace_ref_us > 0 && (double)t->max_us > TRACE_LATENCY_FACTOR * g->trace_ref_us;
}

/*
 * How a group's maximum grows with the pass's length: for k whole seconds
 * after the window (as many as every measured repetition has, at 2, 4, 9,
 * 19, 29 and the most), the median over repetitions of the worst of their
 * first k per-second maxima. What a pass of k + 1 s would have reported,
 * from the same boots; keyed by k.
 */
static void group_max_by_length(const struct run *run, struct group *g)
{
	static const unsigned int lengths[] = { 2, 4, 9, 19, 29, 59 };
	double v[MAX_REPS];
	size_t i, n, l;
	unsigned int j;

	g->nlengths = 0;
	if (!g->n || g->min_blocks < 2)
		return;
	for (l = 0; l < ARRAY_SIZE(lengths) && lengths[l] <= g->min_blocks; l++)
		g->length_s[g->nlengths++] = lengths[l];
	if (g->length_s[g->nlengths - 1] != g->min_blocks)
		g->length_s[g->nlengths++] = g->min_blocks;
	for (j = 0; j < g->nlengths; j++) {
		for (i = 0, n = 0; i < run->ncells; i++) {
			const struct cell *c = &run->cells[i];
			uint64_t m = 0;
			unsigned int s;

			if (strcmp(c->variant, g->variant) || strcmp(c->workload, g->workload) ||
			    !c->judged.measured || !c->has_steady || n == MAX_REPS)
				continue;
			for (s = 0; s < g->length_s[j] && s < c->nblocks; s++)
				if (c->blocks[s] != LL_NO_VALUE && c->blocks[s] > m)
					m = c->blocks[s];
			v[n++] = (double)m;
		}
		g->length_max_us[j] = median(v, n);
	}
}

static void group_build(const struct run *run, struct group *g, const char *variant, const char *workload)
{
	size_t i, p;

	memset(g, 0, sizeof(*g));
	g->variant = variant;
	g->workload = workload;
	g->steady = true;
	for (i = 0; i < run->ncells; i++) {
		struct cell *c = &run->cells[i];

		if (strcmp(c->variant, variant) || strcmp(c->workload, workload))
			continue;
		g->ncells += !c->traced_kernel;
		for (p = 0; summary_passes[p]; p++)
			if (summary_passes[p]->group_add)
				summary_passes[p]->group_add(g, c);
		if (c->integrity.present) {
			g->integrity_checked += c->integrity.checked;
			g->integrity_errors += c->integrity.errors;
			g->integrity_cells++;
			g->corrupted_cells += cell_corrupted(c);
		}
		if (!strcmp(c->status, "OK"))
			g->nok++;
		g->findings += c->nfindings;
		if (c->traced_kernel && (!g->traced_cell || c->rep < g->traced_cell->rep))
			g->traced_cell = c;
		g->died += c->judged.died_in_latency;
		g->load_dead += !c->judged.died_in_latency && c->judged.failed_in_latency;
		if (!c->judged.measured)
			continue;
		if (g->n == MAX_REPS)
			err_exit(LL_EXIT_FAIL, "%s/%s: more than %d repetitions", variant, workload, MAX_REPS);
		group_add_cell(g, c);
	}
	if (!g->n)
		g->steady = false;
	g->traced_max_us = NAN;
	if (g->traced_cell && g->traced_cell->has_latency && g->traced_cell->latency_step_ok) {
		const struct cell *t = g->traced_cell;

		g->traced_max_us = (double)(t->has_steady ? t->steady_max_us : t->max_us);
		g->traced_max_censored = t->has_steady && t->steady_censored;
		g->trace_ref_us = (double)t->max_us;
		g->trace_ref_own = true;
	} else if (g->n) {
		g->trace_ref_us = g->latency_max_us;
	}
	for (p = 0; summary_passes[p]; p++)
		if (summary_passes[p]->group_finish)
			summary_passes[p]->group_finish(g);
	group_max_by_length(run, g);
}

static struct group *group_find(struct run *run, const char *variant, const char *workload)
{
	size_t i;

	for (i = 0; i < run->ngroups; i++)
		if (!strcmp(run->groups[i].variant, variant) &&
		    !strcmp(run->groups[i].workload, workload))
			return &run->groups[i];
	return NULL;
}

/*
 * Do the failures contradict what was expected? When Fisher's test tells
 * the sides apart, A failing more under load is A worse: not lower, not
 * the same.
 */
static bool failures_contradict(enum expectation e, const struct judgement *j)
{
	if (!j->failed_more)
		return false;
	switch (e) {
	case EXPECT_SAME: return true;
	case EXPECT_LOWER: case EXPECT_NOT_HIGHER: return j->failed_more > 0;
	case EXPECT_HIGHER: case EXPECT_NOT_LOWER: return j->failed_more < 0;
	default: return false;
	}
}

/* A group as one side of a judgement (judge.h). */
static struct judge_side group_side(const struct group *g)
{
	return (struct judge_side){
		.name = g->variant, .max = g->max, .blocks = g->block_median, .startup = g->startup_max,
		.n = g->n, .failed = g->died + g->load_dead, .min_blocks = g->min_blocks,
	};
}

/* A against B on one workload (judge.h), the p of their p99s, and whether it contradicts def. */
static void comparison_judge(struct comparison *cmp, const struct group *a, const struct group *b,
			     const struct comparison_def *def)
{
	struct judge_side sa = group_side(a), sb = group_side(b);
	struct judgement j;

	judge(&j, &sa, &sb);
	memset(cmp, 0, sizeof(*cmp));
	cmp->ratio_medians = j.ratio_medians;
	cmp->ci_max = j.ci_max;
	cmp->ci_blocks = j.ci_blocks;
	cmp->has_blocks = j.has_blocks;
	cmp->ci = j.ci;
	cmp->p_max = j.p_max;
	cmp->p_p99 = mann_whitney_p(a->p99, a->n, b->p99, b->n);
	cmp->na = j.na;
	cmp->nb = j.nb;
	cmp->fa = j.fa;
	cmp->fb = j.fb;
	cmp->p_failed = j.p_failed;
	cmp->failed_more = j.failed_more;
	snprintf(cmp->verdict, sizeof(cmp->verdict), "%s", j.verdict);
	cmp->contradicts = def && (failures_contradict(def->expect, &j) ||
				   (j.ci.valid && j.ci.coverage > 0 && expectation_contradicted(def, j.ci.lo, j.ci.hi)));
}

/* Whether any cell of WORKLOAD was to run a latency pass (not the modules pass alone). */
static bool workload_latency_planned(const struct run *run, const char *workload)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		if (!strcmp(run->cells[i].workload, workload) &&
		    (!run->cells[i].passes || strstr(run->cells[i].passes, "latency")))
			return true;
	return false;
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

/*
 * Every comparison, once: per workload with a latency table, each pair of
 * kernels/comparisons in the order of its first line, with the line that
 * applies to that workload.
 */
static void comparisons_make(struct run *run)
{
	size_t w, d, e;

	for (w = 0; w < run->nworkloads; w++) {
		for (d = 0; d < run->ndefs; d++) {
			const struct comparison_def *def;
			struct group *a, *b;
			struct comparison *cmp;
			bool seen = false;

			for (e = 0; e < d; e++)
				seen |= !strcmp(run->defs[e].a, run->defs[d].a) &&
					!strcmp(run->defs[e].b, run->defs[d].b);
			def = comparison_def_find(run, run->defs[d].a, run->defs[d].b, run->workloads[w]);
			a = group_find(run, run->defs[d].a, run->workloads[w]);
			b = group_find(run, run->defs[d].b, run->workloads[w]);
			if (seen || !def || !a || !b || (!a->ncells && !b->ncells) ||
			    run->modules_only[w])
				continue;
			run->cmps = xrealloc(run->cmps, (run->ncmps + 1) * sizeof(*run->cmps));
			cmp = &run->cmps[run->ncmps++];
			comparison_judge(cmp, a, b, def);
			cmp->workload = run->workloads[w];
			cmp->a = a;
			cmp->b = b;
			cmp->def = def;
		}
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void *calloc_or_die(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		err_exit(LL_EXIT_FAIL, "out of memory");
	return p;
}

/* A cell's verdict: what it counts for, and its percentiles, computed once. */
static void cell_judge(struct cell *c)
{
	struct cell_verdict *j = &c->judged;
	const struct histogram *h = c->has_steady ? &c->steady_hist : &c->hist;
	bool over;

	j->panicked = cell_panicked(c);
	j->measured = cell_measured(c);
	j->died_in_latency = cell_died_in_latency(c);
	j->failed_in_latency = cell_failed_in_latency(c);
	j->left_out = cell_left_out(c);
	if (!c->has_latency)
		return;
	j->p50_us = hist_percentile(h, 0.50, &j->p50_over);
	j->p99_us = hist_percentile(h, 0.99, &j->p99_over);
	j->p999_us = hist_percentile(h, 0.999, &j->p999_over);
	j->pass_p50_us = hist_percentile(&c->hist, 0.50, &over);
	j->pass_p99_us = hist_percentile(&c->hist, 0.99, &over);
	j->pass_p999_us = hist_percentile(&c->hist, 0.999, &over);
}

void run_analyse(struct run *run)
{
	size_t i, v, w;

	for (i = 0; i < run->ncells; i++) {
		cell_judge(&run->cells[i]);
		add_unique(&run->variants, &run->nvariants, run->cells[i].variant);
		add_unique(&run->workloads, &run->nworkloads, run->cells[i].workload);
	}
	sort_run = run;
	qsort(run->variants, run->nvariants, sizeof(char *), cmp_variant);
	qsort(run->workloads, run->nworkloads, sizeof(char *), cmp_str);
	/* run_group() finds group (v, w) at w * nvariants + v. */
	run->groups = calloc_or_die(run->nvariants * run->nworkloads, sizeof(*run->groups));
	for (w = 0; w < run->nworkloads; w++)
		for (v = 0; v < run->nvariants; v++)
			group_build(run, &run->groups[run->ngroups++], run->variants[v], run->workloads[w]);
	run->modules_only = calloc_or_die(run->nworkloads, sizeof(*run->modules_only));
	run->latency_planned = calloc_or_die(run->nworkloads, sizeof(*run->latency_planned));
	for (w = 0; w < run->nworkloads; w++)
		run->latency_planned[w] = workload_latency_planned(run, run->workloads[w]);
	run->modules_cells = calloc_or_die(run->nvariants, sizeof(*run->modules_cells));
	run->has_traced = run_has_traced(run);
	for (i = 0; i < run->ncells; i++) {
		run->has_tasks |= run->cells[i].tasks_per_cpu > 0;
		run->has_integrity |= run->cells[i].integrity.present;
	}
	for (i = 0; summary_passes[i]; i++)
		if (summary_passes[i]->run_finish)
			summary_passes[i]->run_finish(run);
	comparisons_make(run);
}
