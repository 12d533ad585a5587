// SPDX-License-Identifier: GPL-2.0
/*
 * render-plot.c - plot-data/, what the gnuplot scripts in plots/ draw:
 * tables by workload and variant, histograms, per-second series.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "locklat.h"
#include "render.h"
#include "run.h"

/* What a chart's points are: a group's value, its spread, its failures, why there is none. */
struct bar {
	double value, lo, hi;	/* NaN: no data */
	size_t failed;		/* repetitions that failed under load */
	const char *why;	/* no value: one word, "TIMEOUT", "not-run", ...; "-" with one */
};

/* Why group g has no value from cells of the kind wanted (traced: its traced cell): the first such cell's status, else not run. */
static const char *why_none(const struct run *run, const struct group *g, bool traced)
{
	size_t i;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (c->traced_kernel == traced && !strcmp(c->variant, g->variant) && !strcmp(c->workload, g->workload))
			return strcmp(c->status, "OK") && strcmp(c->status, "FINDINGS") ? c->status : "left-out";
	}
	return "not-run";
}

static struct bar bar_max(const struct run *run, const struct group *g)
{
	if (!g->n)
		return (struct bar){ NAN, NAN, NAN, g->died + g->load_dead,
				     g->died + g->load_dead ? "failed" : why_none(run, g, false) };
	return (struct bar){ median(g->max, g->n), min_of(g->max, g->n), max_of(g->max, g->n),
			     g->died + g->load_dead, "-" };
}

static struct bar bar_traced(const struct run *run, const struct group *g, const struct cell *c, unsigned long long us)
{
	double x = c ? (double)us : NAN;

	return (struct bar){ x, x, x, 0, c ? "-" : why_none(run, g, true) };
}

static struct bar bar_preemptoff(const struct run *run, const struct group *g)
{
	return bar_traced(run, g, g->preemptoff_cell, g->preemptoff_us);
}

static struct bar bar_irqsoff(const struct run *run, const struct group *g)
{
	return bar_traced(run, g, g->irqsoff_cell, g->irqsoff_us);
}

static void plot_number(FILE *f, double x)
{
	if (isnan(x))
		fputs(" NaN", f);
	else
		fprintf(f, " %.0f", x);
}

/*
 * A chart's table (plots/points.gp): one row per workload that was to run
 * a latency pass (the modules pass alone draws no empty group), five
 * columns per variant: the value (the median over the repetitions for the
 * maxima), the smallest and largest repetition's, how many repetitions
 * failed under load (hung, panicked, load died), which the chart marks,
 * and why there is no value (one word: the cells' status, "failed",
 * "not-run"; "-" with one); NaN where there is no value.
 */
static void plot_table(const struct run *run, const char *name,
		       struct bar (*bar)(const struct run *run, const struct group *g))
{
	FILE *f = render_open(run, name);
	size_t v, w;

	fputs("workload", f);
	for (v = 0; v < run->nvariants; v++)
		fprintf(f, " %s %s:min %s:max %s:failed %s:why", run->variants[v], run->variants[v], run->variants[v],
			run->variants[v], run->variants[v]);
	fputc('\n', f);
	for (w = 0; w < run->nworkloads; w++) {
		if (!run->latency_planned[w])
			continue;
		fputs(run->workloads[w], f);
		for (v = 0; v < run->nvariants; v++) {
			struct bar b = bar(run, run_group(run, v, w));

			plot_number(f, b.value);
			plot_number(f, b.lo);
			plot_number(f, b.hi);
			fprintf(f, " %zu %s", b.failed, b.why);
		}
		fputc('\n', f);
	}
	render_close(f, run, name);
}

/* Second s of cell c's series: the worst of its vCPUs' maxima, or LL_NO_VALUE. */
static uint64_t series_second_max(const struct cell *c, unsigned int s)
{
	uint64_t worst = LL_NO_VALUE;
	unsigned int t;

	for (t = 0; t < c->series_threads; t++) {
		uint64_t v = c->series[t * c->series_seconds + s];

		if (v != LL_NO_VALUE && (worst == LL_NO_VALUE || v > worst))
			worst = v;
	}
	return worst;
}

/*
 * A build's repetitions of one workload overlaid: plot-data/series-<v>-<w>.dat,
 * a block per repetition with a series ("second max-over-vCPUs" rows after a
 * quoted name), plot-data/series-<v>-<w>.cells ("name died-at-s" per block,
 * "-" for a load that lived) and a line of plot-data/series-plots ("name
 * max title"): one plot per workload and build (plots/series.gp).
 */
static void plot_series_group(const struct run *run, FILE *plots, const char *variant, const char *workload)
{
	char name[512], path[600], cells_path[600];
	FILE *f = NULL, *cells = NULL;
	uint64_t worst = 0;
	size_t i;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		unsigned int s;

		if (!c->has_series || c->traced_kernel || strcmp(c->variant, variant) || strcmp(c->workload, workload))
			continue;
		if (!f) {
			series_group_name(name, sizeof(name), variant, workload);
			snprintf(path, sizeof(path), "plot-data/%s.dat", name);
			snprintf(cells_path, sizeof(cells_path), "plot-data/%s.cells", name);
			f = render_open(run, path);
			cells = render_open(run, cells_path);
		} else {
			fputs("\n\n", f);
		}
		fprintf(f, "\"%s\"\n", c->name);
		for (s = 0; s < c->series_seconds; s++) {
			uint64_t v = series_second_max(c, s);

			if (v == LL_NO_VALUE)
				fprintf(f, "%u NaN\n", s);
			else
				fprintf(f, "%u %llu\n", s, (unsigned long long)v);
		}
		if (c->load.verdict == LOAD_DEAD)
			fprintf(cells, "%s %.1f\n", c->name, c->load.died_at_s);
		else
			fprintf(cells, "%s -\n", c->name);
		if (c->max_us > worst)
			worst = c->max_us;
	}
	if (!f)
		return;
	render_close(f, run, path);
	render_close(cells, run, cells_path);
	fprintf(plots, "%s %llu %s/%s\n", name, (unsigned long long)worst, variant, workload);
}

/*
 * Time series: plot-data/<series name>.dat per cell that has one ("second
 * max-of-vCPU0 max-of-vCPU1 ..." rows, NaN for no data) and
 * plot-data/series, one line per file: "name cell-max-us title"; then each
 * build's repetitions of a workload overlaid, what the plots draw
 * (plot_series_group).
 */
static void plot_series(const struct run *run)
{
	FILE *list = render_open(run, "plot-data/series");
	char name[512], path[600];
	size_t i, v, w;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		unsigned int t, s;
		FILE *f;

		if (!c->has_series)
			continue;
		series_name(name, sizeof(name), c);
		snprintf(path, sizeof(path), "plot-data/%s.dat", name);
		f = render_open(run, path);
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
		render_close(f, run, path);
		fprintf(list, "%s %llu %s/%s %s (%s)\n", name, (unsigned long long)c->max_us,
			c->variant, c->workload, c->name, c->status);
	}
	render_close(list, run, "plot-data/series");
	list = render_open(run, "plot-data/series-plots");
	for (v = 0; v < run->nvariants; v++)
		for (w = 0; w < run->nworkloads; w++)
			plot_series_group(run, list, run->variants[v], run->workloads[w]);
	render_close(list, run, "plot-data/series-plots");
}

/*
 * The width of bucket k's bin on a log scale, for bins of `digits`
 * significant digits: with 3, 1 µs below 1000 µs, 10 µs up to 10 ms, ...
 */
static size_t bin_width(size_t k, unsigned int digits)
{
	size_t width, limit = 1;

	while (digits--)
		limit *= 10;
	for (width = 1; k >= limit * width; width *= 10)
		;
	return width;
}

/*
 * A histogram, OSADL-style: "bin-start measured back-filled" per bin of
 * bin_width() (1 µs below 100 µs, two significant digits above), counts of
 * wake-ups: those cyclictest printed, and those the coordinated-omission
 * correction added for the periods a late wake-up made it skip, which the
 * plot draws apart. Empty bins are left out: the corrected histograms hold
 * a value for every skipped period, tens of thousands of distinct ones per
 * stall, which drawn one point each made a 20 MB SVG.
 */
static void hist_write_binned(FILE *f, const struct group *g)
{
	const struct histogram *h = &g->hist, *m = &g->measured;
	size_t k = 0, width, start;

	while (k < h->buckets) {
		unsigned long long n = 0, measured = 0;

		width = bin_width(k, 2);
		start = k - k % width;
		for (; k < start + width && k < h->buckets; k++) {
			n += h->count[k];
			measured += k < m->buckets ? m->count[k] : 0;
		}
		if (n)
			fprintf(f, "%zu %llu %llu\n", start, measured, n > measured ? n - measured : 0);
	}
}

/*
 * The latency CCDF: "x fraction-of-wake-ups-at-or-beyond-x" at the start of
 * each non-empty bin of three significant digits, and at the histogram's
 * range for the overflowed ones. Its last point is the longest wake-up, at
 * the fraction it holds: the tail a variant reaches stays on a log axis.
 */
static void ccdf_write_binned(FILE *f, const struct group *g)
{
	const struct histogram *h = &g->hist;
	uint64_t total = hist_total(h), beyond = total;
	size_t k = 0, width, start;

	while (k < h->buckets) {
		uint64_t n = 0;

		width = bin_width(k, 3);
		start = k - k % width;
		for (; k < start + width && k < h->buckets; k++)
			n += h->count[k];
		if (n)
			fprintf(f, "%zu %g\n", start, (double)beyond / (double)total);
		beyond -= n;
	}
	if (h->overflow)
		fprintf(f, "%llu %g\n", (unsigned long long)h->range_us, (double)h->overflow / (double)total);
}

/*
 * plot-data/PREFIX-<workload>.dat: one block per measured variant (gnuplot
 * "index"), titled by its first line; PREFIX-<workload>.variants names
 * each block's variant with its maximum after the window ("rt 5"), for
 * the plot's colours and its maximum's mark.
 */
static void plot_distribution(const struct run *run, size_t w, const char *prefix,
			      void (*write)(FILE *f, const struct group *g))
{
	char name[512], list_name[512];
	FILE *f = NULL, *list = NULL;
	size_t v;

	for (v = 0; v < run->nvariants; v++) {
		const struct group *g = run_group(run, v, w);

		if (!g->n)
			continue;
		if (!f) {
			snprintf(name, sizeof(name), "plot-data/%s-%s.dat", prefix, run->workloads[w]);
			snprintf(list_name, sizeof(list_name), "plot-data/%s-%s.variants", prefix, run->workloads[w]);
			f = render_open(run, name);
			list = render_open(run, list_name);
		} else {
			fputs("\n\n", f);
		}
		/* Quoted: gnuplot's columnheader() takes it whole. */
		fprintf(f, "\"%s (%llu wake-ups)\"\n", g->variant, (unsigned long long)hist_total(&g->hist));
		write(f, g);
		fprintf(list, "%s %.0f\n", g->variant, max_of(g->max, g->n));
	}
	if (f) {
		render_close(f, run, name);
		render_close(list, run, list_name);
	}
}

void render_plot_data(const struct run *run)
{
	char path[4096], clock[128];
	FILE *f, *list;
	size_t v, w;

	snprintf(path, sizeof(path), "%s/plot-data", run->out_dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		err_exit_errno(LL_EXIT_FAIL, "mkdir %s", path);
	/* The variants in the tables' column order, and what a µs is: every plot's colours and caption. */
	f = render_open(run, "plot-data/variants");
	for (v = 0; v < run->nvariants; v++)
		fprintf(f, "%s\n", run->variants[v]);
	render_close(f, run, "plot-data/variants");
	f = render_open(run, "plot-data/clock");
	fprintf(f, "%s\n", clock_words(run, clock, sizeof(clock)));
	render_close(f, run, "plot-data/clock");
	plot_table(run, "plot-data/max.dat", bar_max);
	plot_table(run, "plot-data/preemptoff.dat", bar_preemptoff);
	plot_table(run, "plot-data/irqsoff.dat", bar_irqsoff);
	/*
	 * Histograms and CCDFs: one block per measured variant.
	 * plot-data/workloads lists every workload that was to run a latency
	 * pass; one that nothing measured has no data files, and the plot
	 * step draws a figure that says so.
	 */
	list = render_open(run, "plot-data/workloads");

	for (w = 0; w < run->nworkloads; w++) {
		if (run->latency_planned[w])
			fprintf(list, "%s\n", run->workloads[w]);
		plot_distribution(run, w, "hist", hist_write_binned);
		plot_distribution(run, w, "ccdf", ccdf_write_binned);
	}
	render_close(list, run, "plot-data/workloads");
	plot_series(run);
}
