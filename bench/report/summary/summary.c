// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-summary - summarise a locklat run: summary.md, summary.json,
 * summary.csv and the data files the gnuplot scripts draw.
 *
 * Usage: locklat-summary [options] RUN_DIR
 *   --call-sites FILE   call site attribution table (kernels/call-sites)
 *   --comparisons FILE  the comparisons to make (kernels/comparisons)
 *   --llcheck-scenarios FILE  llcheck's scenarios with what to expect
 *                       (kernels/modules/llcheck/scenarios)
 *   --plots-dir DIR     where the plots are linked from summary.md (relative)
 *   --series NAME       the patch series under test (local-lock): a variant
 *                       without it sorts before one with it
 *
 * RUN_DIR holds <variant>/<workload>/rep<N>/ cells (results/README.md).
 * Writes RUN_DIR/summary.{md,json,csv} and RUN_DIR/plot-data/. Every number
 * comes from the cells; cells that are not OK are listed with their reason.
 * Exit: 0 written, 1 error (nothing half-written: files are renamed into
 * place), 2 bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cell.h"
#include "locklat.h"
#include "summary.h"
#include "table.h"

enum option_values {
	OPT_CALL_SITES = 1,
	OPT_COMPARISONS,
	OPT_HELP,
	OPT_LLCHECK_SCENARIOS,
	OPT_PLOTS_DIR,
	OPT_SERIES,
	OPT_STARTUP_WINDOW,
};

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: locklat-summary [--call-sites FILE] [--comparisons FILE]\n"
		"                       [--llcheck-scenarios FILE] [--plots-dir DIR]\n"
		"                       [--series NAME] [--startup-window MS] RUN_DIR\n");
	exit(status);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of dir (without "." entries and .partial). */
static char **subdirs(const char *dir, size_t *n, size_t *partial)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char path[4096];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		path_join(path, sizeof(path), dir, de->d_name);
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (strstr(de->d_name, ".partial")) {
			if (partial)
				(*partial)++;
			continue;
		}
		names = realloc(names, (*n + 1) * sizeof(*names));
		if (!names)
			err_exit(LL_EXIT_FAIL, "out of memory");
		names[(*n)++] = strdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_str);
	return names;
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void run_load(struct run *run, const char *dir, const struct call_sites *cs)
{
	size_t nv, nw, nr, v, w, r;
	char **variants = subdirs(dir, &nv, NULL);

	for (v = 0; v < nv; v++) {
		char vdir[4096];
		char **workloads;

		if (!strcmp(variants[v], "plot-data"))
			continue;
		path_join(vdir, sizeof(vdir), dir, variants[v]);
		workloads = subdirs(vdir, &nw, NULL);
		for (w = 0; w < nw; w++) {
			char wdir[4096];
			char **reps;

			path_join(wdir, sizeof(wdir), vdir, workloads[w]);
			reps = subdirs(wdir, &nr, &run->partial);
			for (r = 0; r < nr; r++) {
				char cdir[4096];
				struct cell *c;

				path_join(cdir, sizeof(cdir), wdir, reps[r]);
				run->cells = realloc(run->cells, (run->ncells + 1) * sizeof(*c));
				if (!run->cells)
					err_exit(LL_EXIT_FAIL, "out of memory");
				c = &run->cells[run->ncells];
				switch (cell_load(c, cdir, cs, run->window_us)) {
				case 0:
					run->ncells++;
					break;
				case 1:
					run->partial++;
					cell_free(c);
					break;
				default:
					err_exit_errno(LL_EXIT_FAIL, "read %s", cdir);
				}
			}
			free_names(reps, nr);
		}
		free_names(workloads, nw);
	}
	free_names(variants, nv);
}

/*
 * Whether a cell's kernel applied the series (its manifest records a hash
 * for each patch it applied: manifest.patch_sha256.<series>/<file>).
 */
static bool cell_has_series(const struct cell *c, const char *series)
{
	char prefix[128];
	size_t i, n;

	n = (size_t)snprintf(prefix, sizeof(prefix), "manifest.patch_sha256.%s/", series);
	for (i = 0; i < c->meta.count; i++)
		if (!strncmp(c->meta.pairs[i].key, prefix, n))
			return true;
	return false;
}

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
		return ((strcmp(kv_str(&c->meta, "manifest.preempt_model", ""), "rt") == 0) * 2 +
			(strcmp(kv_str(&c->meta, "manifest.lockdep", "n"), "y") == 0)) * 2 +
		       cell_has_series(c, run->series);
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
	*list = realloc(*list, (*n + 1) * sizeof(**list));
	if (!*list)
		err_exit(LL_EXIT_FAIL, "out of memory");
	(*list)[(*n)++] = strdup(s);
}

/*
 * A cell whose latency numbers count: it measured, even if the kernel
 * complained, or it hung in a later pass (TIMEOUT) after its latency pass had
 * completed and been written out (guest/steps says so); and its load ran
 * through the pass (a pass whose load died measured an idle guest).
 */
bool cell_measured(const struct cell *c)
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
bool cell_died_in_latency(const struct cell *c)
{
	if (c->traced_kernel)
		return false;
	return (!strcmp(c->status, "TIMEOUT") || cell_panicked(c)) && !strcmp(c->hung_step, "latency");
}

/*
 * A repetition that failed under its load: the guest died in the latency
 * pass, or the load did. The comparisons rank it as the worst maximum.
 */
bool cell_failed_in_latency(const struct cell *c)
{
	if (c->traced_kernel)
		return false;
	if (cell_died_in_latency(c))
		return true;
	return c->has_latency && c->load.verdict == LOAD_DEAD &&
	       (!strcmp(c->status, "OK") || !strcmp(c->status, "FINDINGS") ||
		(!strcmp(c->status, "TIMEOUT") && c->latency_step_ok));
}

const char *cell_flavour(const struct cell *c)
{
	return c->traced_kernel ? "traced" : "plain";
}

/* Why a complete cell is not among its group's measured repetitions, or NULL. */
const char *cell_left_out(const struct cell *c)
{
	if (cell_measured(c) || c->traced_kernel)
		return NULL;
	/* A cell that was not to run a latency pass (modules, verify-only) leaves nothing out. */
	if (!strstr(kv_str(&c->meta, "passes", "latency"), "latency"))
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

static void group_add_cell(struct group *g, const struct cell *c)
{
	const struct histogram *h = c->has_steady ? &c->steady_hist : &c->hist;
	bool over;
	size_t k;

	if ((double)c->max_us > g->latency_max_us)
		g->latency_max_us = (double)c->max_us;
	g->max[g->n] = (double)(c->has_steady ? c->steady_max_us : c->max_us);
	g->block_median[g->n] = c->has_steady && c->nblocks ? (double)c->block_median_us : NAN;
	if (!g->n || (c->has_steady ? c->nblocks : 0) < g->min_blocks)
		g->min_blocks = c->has_steady ? c->nblocks : 0;
	g->startup_max[g->n] = c->has_steady ? (double)c->startup_max_us : NAN;
	g->max_censored |= c->has_steady && c->steady_censored;
	g->steady &= c->has_steady;
	g->p50[g->n] = (double)hist_percentile(h, 0.50, &over);
	g->p50_over |= over;
	g->p99[g->n] = (double)hist_percentile(h, 0.99, &over);
	g->p99_over |= over;
	g->p999[g->n] = (double)hist_percentile(h, 0.999, &over);
	g->p999_over |= over;
	g->overflowed |= h->overflow > 0;
	if (c->has_steady) {
		g->samples += c->wakeups_steady;
		g->wakeups_due += c->wakeups_due_steady;
		g->wakeups_added += c->steady_added;
	} else {
		g->samples += hist_total(&c->hist);
	}
	for (k = 0; k < h->buckets; k++)
		if (h->count[k])
			hist_add(&g->hist, k, h->count[k]);
	g->hist.overflow += h->overflow;
	g->n++;
}

static void group_build(struct run *run, struct group *g, const char *variant, const char *workload)
{
	size_t i;

	memset(g, 0, sizeof(*g));
	g->variant = variant;
	g->workload = workload;
	g->steady = true;
	for (i = 0; i < run->ncells; i++) {
		struct cell *c = &run->cells[i];
		unsigned int k;

		if (strcmp(c->variant, variant) || strcmp(c->workload, workload))
			continue;
		g->ncells += !c->traced_kernel;
		if (c->nhits && (!g->verify_cell || c->rep < g->verify_cell->rep))
			g->verify_cell = c;
		if (c->wakeup.present && (!g->wakeup_cell || c->rep < g->wakeup_cell->rep))
			g->wakeup_cell = c;
		if (!strcmp(c->status, "OK"))
			g->nok++;
		for (k = 0; k < c->nfindings; k++)
			g->findings += c->findings[k].count;
		if (c->preemptoff.present && c->preemptoff.max_us >= g->preemptoff_us) {
			g->preemptoff_us = c->preemptoff.max_us;
			g->preemptoff_cell = c;
		}
		if (c->irqsoff.present && c->irqsoff.max_us >= g->irqsoff_us) {
			g->irqsoff_us = c->irqsoff.max_us;
			g->irqsoff_cell = c;
		}
		if (c->traced_kernel && (!g->traced_cell || c->rep < g->traced_cell->rep))
			g->traced_cell = c;
		g->died += cell_died_in_latency(c);
		g->load_dead += !cell_died_in_latency(c) && cell_failed_in_latency(c);
		if (!cell_measured(c))
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
}

/* Each expectation: its name in kernels/comparisons (and summary.json), and in words. */
static const struct {
	const char *name, *words;
} expectations[] = {
	[EXPECT_OPEN] = { "open", "open (exploratory)" },
	[EXPECT_SAME] = { "same", "the same" },
	[EXPECT_LOWER] = { "lower", "lower" },
	[EXPECT_HIGHER] = { "higher", "higher" },
	[EXPECT_NOT_HIGHER] = { "not-higher", "lower or the same" },
	[EXPECT_NOT_LOWER] = { "not-lower", "higher or the same" },
};

const char *expectation_name(enum expectation e)
{
	return expectations[e].name;
}

const char *expectation_words(enum expectation e)
{
	return expectations[e].words;
}

/*
 * "A | B | workload | expected | why" lines (kernels/comparisons), and one
 * "question | A | B | workload": the comparison the summary names first.
 */
static void comparisons_load(struct run *run, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *field[5];
	size_t cap = 0, lineno = 0, e;

	if (!f)
		err_exit_errno(LL_EXIT_FAIL, "read %s", path);
	while (getline(&line, &cap, f) >= 0) {
		struct comparison_def *d;
		size_t n;

		lineno++;
		n = table_fields(line, field, 5);
		if (!n)
			continue;
		if (!strcmp(field[0], "question")) {
			if (n != 4)
				err_exit(LL_EXIT_FAIL, "%s:%zu: want 'question | A | B | workload'", path, lineno);
			free(run->question_a);
			free(run->question_b);
			free(run->question_workload);
			run->question_a = strdup(field[1]);
			run->question_b = strdup(field[2]);
			run->question_workload = strdup(field[3]);
			continue;
		}
		if (n != 5)
			err_exit(LL_EXIT_FAIL, "%s:%zu: want 'A | B | workload | expected | why'", path, lineno);
		for (e = 0; e < ARRAY_SIZE(expectations); e++)
			if (!strcmp(field[3], expectations[e].name))
				break;
		if (e == ARRAY_SIZE(expectations))
			err_exit(LL_EXIT_FAIL, "%s:%zu: unknown expectation '%s' (open, same, lower, higher, not-higher, not-lower)",
				 path, lineno, field[3]);
		run->defs = realloc(run->defs, (run->ndefs + 1) * sizeof(*d));
		if (!run->defs)
			err_exit(LL_EXIT_FAIL, "out of memory");
		d = &run->defs[run->ndefs++];
		d->a = strdup(field[0]);
		d->b = strdup(field[1]);
		d->workload = strdup(field[2]);
		d->expect = (enum expectation)e;
		d->why = strdup(field[4]);
	}
	free(line);
	fclose(f);
}

/* The line for A vs B on workload: its own, else the "*" one; NULL if none. */
const struct comparison_def *comparison_def_find(const struct run *run, const char *a, const char *b,
						 const char *workload)
{
	const struct comparison_def *any = NULL;
	size_t i;

	for (i = 0; i < run->ndefs; i++) {
		const struct comparison_def *d = &run->defs[i];

		if (strcmp(d->a, a) || strcmp(d->b, b))
			continue;
		if (!strcmp(d->workload, workload))
			return d;
		if (!strcmp(d->workload, "*") && !any)
			any = d;
	}
	return any;
}

/* "name | what | expected" lines; a file that cannot be read leaves the expectations blank. */
static void scenarios_load(struct run *run, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *field[3];
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) >= 0) {
		struct scenario_def *d;

		if (table_fields(line, field, 3) != 3)
			continue;
		run->scenarios = realloc(run->scenarios, (run->nscenarios + 1) * sizeof(*d));
		if (!run->scenarios)
			err_exit(LL_EXIT_FAIL, "out of memory");
		d = &run->scenarios[run->nscenarios++];
		d->name = strdup(field[0]);
		d->expectation = strdup(field[2]);
	}
	free(line);
	fclose(f);
}

const char *scenario_expectation(const struct run *run, const char *scenario)
{
	size_t i;

	for (i = 0; i < run->nscenarios; i++)
		if (!strcmp(run->scenarios[i].name, scenario))
			return run->scenarios[i].expectation;
	return "";
}

struct group *group_find(struct run *run, const char *variant, const char *workload)
{
	size_t i;

	for (i = 0; i < run->ngroups; i++)
		if (!strcmp(run->groups[i].variant, variant) &&
		    !strcmp(run->groups[i].workload, workload))
			return &run->groups[i];
	return NULL;
}

/*
 * Ratios within NEGLIGIBLE of 1 are no difference anyone would act on.
 * Under tcg-icount with one vCPU a maximum is an instruction count, and
 * identical code gives counts within a fraction of a percent (baseline
 * squashfs, 5 repetitions: 52599-52768 us), so an interval can exclude 1
 * for a shift of 0.1%: that is resolution, not a difference.
 */
#define NEGLIGIBLE 0.05

static bool within_negligible(double lo, double hi)
{
	return lo >= 1 - NEGLIGIBLE && hi <= 1 + NEGLIGIBLE;
}

/* Does the interval [lo, hi] for A/B contradict what was expected? */
static bool contradicts(enum expectation e, double lo, double hi)
{
	switch (e) {
	case EXPECT_SAME: return lo > 1 + NEGLIGIBLE || hi < 1 - NEGLIGIBLE;
	case EXPECT_LOWER: return lo > 1 || within_negligible(lo, hi);
	case EXPECT_HIGHER: return hi < 1 || within_negligible(lo, hi);
	case EXPECT_NOT_HIGHER: return lo > 1 + NEGLIGIBLE;
	case EXPECT_NOT_LOWER: return hi < 1 - NEGLIGIBLE;
	default: return false;
	}
}

/* "x", or "∞" for an unbounded end, into buf. */
const char *ratio_str(char *buf, size_t size, double x)
{
	int decimals = 2;

	if (isinf(x)) {
		snprintf(buf, size, "∞");
		return buf;
	}
	/* Two significant digits below 0.1 (rt against a 52 ms section is ~1e-4), no exponent. */
	if (x > 0 && x < 0.1)
		decimals = (int)ceil(-log10(x)) + 1;
	snprintf(buf, size, "%.*f", decimals > 12 ? 12 : decimals, x);
	return buf;
}

/*
 * A group's values of one statistic for the tests: the measured ones
 * (below cyclictest's 1 µs resolution counted as 1, as a ratio needs
 * positive values), then +inf for each repetition that failed under load
 * (the guest hung or panicked in the latency pass, or the load died
 * there). A hang is a wake-up that never came, longer than any measured
 * one; a dead load is the build failing its load, which must not pass for
 * a quiet measurement. A rank test needs no more (a right-censored value
 * ranked last; two such tie).
 */
static size_t group_values(const struct group *g, const double *v, double *out)
{
	size_t i, n = 0;

	for (i = 0; i < g->n; i++)
		out[n++] = v[i] < 1 ? 1 : v[i];
	for (i = 0; i < g->died + g->load_dead && n < 2 * MAX_REPS; i++)
		out[n++] = INFINITY;
	return n;
}

/* The Hodges-Lehmann interval of a statistic; invalid if a side has no values. */
static void interval_of(struct ratio_ci *ci, const struct group *a, const double *va_src,
			const struct group *b, const double *vb_src)
{
	double va[2 * MAX_REPS], vb[2 * MAX_REPS];
	size_t na = group_values(a, va_src, va), nb = group_values(b, vb_src, vb);

	if (!na || !nb || hodges_lehmann_ratio(va, na, vb, nb, 0.95, ci))
		ci->valid = false;
}

/*
 * The verdict reads from the 95% interval of the Hodges-Lehmann ratio
 * (which inverts the rank test) of the typical worst second when both
 * sides have it (every measured repetition with at least MIN_BLOCKS whole
 * seconds after the window), else of the pass maxima: it excludes 1, or it
 * does not and then says whether a 2x change either way is still possible,
 * which is what "no difference" is worth at that sample size. The pass
 * maximum, the worst case, is always reported beside it.
 */
#define MIN_BLOCKS 3
void comparison_judge(struct comparison *cmp, const struct group *a, const struct group *b,
		      const struct comparison_def *def)
{
	double va[2 * MAX_REPS], vb[2 * MAX_REPS], ma, mb;
	size_t na = group_values(a, a->max, va), nb = group_values(b, b->max, vb), len;
	char lo[16], hi[16], est[16];
	const struct ratio_ci *ci;

	memset(cmp, 0, sizeof(*cmp));
	ma = median(a->max, a->n);
	mb = median(b->max, b->n);
	cmp->ratio_medians = a->n && b->n && mb > 0 ? ma / mb : NAN;
	cmp->p_max = mann_whitney_p(va, na, vb, nb);
	cmp->p_p99 = mann_whitney_p(a->p99, a->n, b->p99, b->n);
	cmp->na = na;
	cmp->nb = nb;
	interval_of(&cmp->ci_max, a, a->max, b, b->max);
	cmp->by_blocks = a->min_blocks >= MIN_BLOCKS && b->min_blocks >= MIN_BLOCKS;
	if (cmp->by_blocks)
		interval_of(&cmp->ci_blocks, a, a->block_median, b, b->block_median);
	cmp->ci = cmp->by_blocks ? cmp->ci_blocks : cmp->ci_max;
	ci = &cmp->ci;
	if (!ci->valid) {
		snprintf(cmp->verdict, sizeof(cmp->verdict), "no repetitions on one side");
		return;
	}
	ratio_str(lo, sizeof(lo), ci->lo);
	ratio_str(hi, sizeof(hi), ci->hi);
	ratio_str(est, sizeof(est), ci->estimate);
	if (ci->coverage <= 0) {
		snprintf(cmp->verdict, sizeof(cmp->verdict),
			 "inconclusive: %zu vs %zu repetitions give no 95%% interval (smallest possible p = %.2f)",
			 na, nb, rank_min_p(na, nb));
	} else if (within_negligible(ci->lo, ci->hi)) {
		snprintf(cmp->verdict, sizeof(cmp->verdict), "the same within ±%.0f%%: %s× [%s–%s]%s",
			 NEGLIGIBLE * 100, est, lo, hi, ci->lo > 1 || ci->hi < 1 ?
			 " (the interval excludes 1: a shift that small is resolved, not a difference)" : "");
	} else if (ci->lo > 1 || ci->hi < 1) {
		snprintf(cmp->verdict, sizeof(cmp->verdict), "%s %s: %s× [%s–%s]", a->variant,
			 ci->lo > 1 ? "higher" : "lower", est, lo, hi);
	} else {
		snprintf(cmp->verdict, sizeof(cmp->verdict), "no difference shown: %s× [%s–%s] includes 1; %s",
			 est, lo, hi, ci->lo >= 0.5 && ci->hi <= 2 ? "a 2× change either way is ruled out" :
			 "a 2× change is not ruled out (too little power to call it absent)");
	}
	len = strlen(cmp->verdict);
	snprintf(cmp->verdict + len, sizeof(cmp->verdict) - len, " (%s)",
		 cmp->by_blocks ? "typical worst second" : "pass maximum");
	/* The worst case pointing the other way is worth a word. */
	if (cmp->by_blocks && cmp->ci_max.valid && cmp->ci_max.coverage > 0 &&
	    ((ci->lo > 1 && cmp->ci_max.hi < 1) || (ci->hi < 1 && cmp->ci_max.lo > 1))) {
		len = strlen(cmp->verdict);
		snprintf(cmp->verdict + len, sizeof(cmp->verdict) - len,
			 "; the pass maxima point the other way");
	}
	if (a->died + a->load_dead || b->died + b->load_dead) {
		len = strlen(cmp->verdict);
		snprintf(cmp->verdict + len, sizeof(cmp->verdict) - len,
			 "; failed under load, ranked as the worst: %zu %s, %zu %s",
			 a->died + a->load_dead, a->variant, b->died + b->load_dead, b->variant);
	}
	cmp->contradicts = def && ci->coverage > 0 && contradicts(def->expect, ci->lo, ci->hi);
}

/* A workload only the modules pass ran on has no latency table. */
bool workload_is_modules_only(const struct run *run, const char *workload)
{
	size_t i;
	bool modules = false;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (strcmp(c->workload, workload))
			continue;
		if (c->has_latency)
			return false;
		modules |= c->has_modules;
	}
	return modules;
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
			    workload_is_modules_only(run, run->workloads[w]))
				continue;
			run->cmps = realloc(run->cmps, (run->ncmps + 1) * sizeof(*run->cmps));
			if (!run->cmps)
				err_exit(LL_EXIT_FAIL, "out of memory");
			cmp = &run->cmps[run->ncmps++];
			comparison_judge(cmp, a, b, def);
			cmp->workload = run->workloads[w];
			cmp->a = a;
			cmp->b = b;
			cmp->def = def;
		}
	}
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "call-sites", required_argument, NULL, OPT_CALL_SITES },
		{ "comparisons", required_argument, NULL, OPT_COMPARISONS },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "llcheck-scenarios", required_argument, NULL, OPT_LLCHECK_SCENARIOS },
		{ "plots-dir", required_argument, NULL, OPT_PLOTS_DIR },
		{ "series", required_argument, NULL, OPT_SERIES },
		{ "startup-window", required_argument, NULL, OPT_STARTUP_WINDOW },
		{ NULL, 0, NULL, 0 },
	};
	const char *call_sites_path = "kernels/call-sites";
	const char *comparisons_path = "kernels/comparisons";
	struct call_sites cs;
	struct run run = { .plots_dir = "plots", .series = "local-lock", .window_us = STARTUP_WINDOW_MS_DEFAULT * 1000ull };
	uint64_t window_ms;
	size_t i, v, w;
	struct stat st;
	int c;

	ll_prog = "locklat-summary";
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_CALL_SITES:
			call_sites_path = optarg;
			break;
		case OPT_COMPARISONS:
			comparisons_path = optarg;
			break;
		case OPT_HELP:
			usage(LL_EXIT_OK);
			break;
		case OPT_LLCHECK_SCENARIOS:
			scenarios_load(&run, optarg);
			break;
		case OPT_PLOTS_DIR:
			run.plots_dir = optarg;
			break;
		case OPT_SERIES:
			run.series = optarg;
			break;
		case OPT_STARTUP_WINDOW:
			if (!parse_u64(optarg, 0, 3600000, &window_ms))
				err_exit(LL_EXIT_USAGE, "--startup-window wants milliseconds (0-3600000), got '%s'", optarg);
			run.window_us = window_ms * 1000;
			break;
		default:
			usage(LL_EXIT_USAGE);
		}
	}
	if (argc - optind != 1)
		usage(LL_EXIT_USAGE);
	run.dir = argv[optind];
	if (stat(run.dir, &st) || !S_ISDIR(st.st_mode))
		err_exit(LL_EXIT_USAGE, "%s is not a result directory", run.dir);
	if (call_sites_load(&cs, call_sites_path))
		err_exit_errno(LL_EXIT_FAIL, "read %s", call_sites_path);
	comparisons_load(&run, comparisons_path);

	run_load(&run, run.dir, &cs);
	if (!run.ncells)
		err_exit(LL_EXIT_FAIL, "%s holds no complete cell", run.dir);
	for (i = 0; i < run.ncells; i++) {
		add_unique(&run.variants, &run.nvariants, run.cells[i].variant);
		add_unique(&run.workloads, &run.nworkloads, run.cells[i].workload);
	}
	sort_run = &run;
	qsort(run.variants, run.nvariants, sizeof(char *), cmp_variant);
	qsort(run.workloads, run.nworkloads, sizeof(char *), cmp_str);
	run.groups = calloc(run.nvariants * run.nworkloads, sizeof(*run.groups));
	if (!run.groups)
		err_exit(LL_EXIT_FAIL, "out of memory");
	for (w = 0; w < run.nworkloads; w++)
		for (v = 0; v < run.nvariants; v++)
			group_build(&run, &run.groups[run.ngroups++], run.variants[v], run.workloads[w]);

	comparisons_make(&run);
	report_markdown(&run);
	report_json(&run);
	report_csv(&run);
	report_plot_data(&run);
	printf("%s/summary.md: %zu cells, %zu variants, %zu workloads\n",
	       run.dir, run.ncells, run.nvariants, run.nworkloads);

	for (i = 0; i < run.ngroups; i++)
		hist_free(&run.groups[i].hist);
	for (i = 0; i < run.ncells; i++)
		cell_free(&run.cells[i]);
	free(run.cells);
	free(run.groups);
	free(run.cmps);
	free_names(run.variants, run.nvariants);
	free_names(run.workloads, run.nworkloads);
	for (i = 0; i < run.ndefs; i++) {
		free(run.defs[i].a);
		free(run.defs[i].b);
		free(run.defs[i].workload);
		free(run.defs[i].why);
	}
	free(run.defs);
	for (i = 0; i < run.nscenarios; i++) {
		free(run.scenarios[i].name);
		free(run.scenarios[i].expectation);
	}
	free(run.scenarios);
	call_sites_free(&cs);
	return LL_EXIT_OK;
}
