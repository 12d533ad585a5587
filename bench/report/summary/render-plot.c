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

/* What a bar chart's bars are: a group's value, its spread, its failures. */
struct bar {
	double value, lo, hi;	/* NaN: no data */
	size_t failed;		/* repetitions that failed under load */
};

static struct bar bar_max(const struct group *g)
{
	if (!g->n)
		return (struct bar){ NAN, NAN, NAN, g->died + g->load_dead };
	return (struct bar){ median(g->max, g->n), min_of(g->max, g->n), max_of(g->max, g->n),
			     g->died + g->load_dead };
}

static struct bar bar_preemptoff(const struct group *g)
{
	double x = g->preemptoff_cell ? (double)g->preemptoff_us : NAN;

	return (struct bar){ x, x, x, 0 };
}

static struct bar bar_irqsoff(const struct group *g)
{
	double x = g->irqsoff_cell ? (double)g->irqsoff_us : NAN;

	return (struct bar){ x, x, x, 0 };
}

static void plot_number(FILE *f, double x)
{
	if (isnan(x))
		fputs(" NaN", f);
	else
		fprintf(f, " %.0f", x);
}

/*
 * A bar chart's table (plots/bars.gp): one row per workload that was to run
 * a latency pass (the modules pass alone draws no empty group), four columns
 * per variant: the value (the median over the repetitions for the maxima),
 * the smallest and largest repetition's, and how many repetitions failed
 * under load (hung, panicked, load died), which the chart marks; NaN where
 * there is no value, which the chart labels rather than drops.
 */
static void plot_table(const struct run *run, const char *name, struct bar (*bar)(const struct group *g))
{
	FILE *f = render_open(run, name);
	size_t v, w;

	fputs("workload", f);
	for (v = 0; v < run->nvariants; v++)
		fprintf(f, " %s %s:min %s:max %s:failed", run->variants[v], run->variants[v], run->variants[v],
			run->variants[v]);
	fputc('\n', f);
	for (w = 0; w < run->nworkloads; w++) {
		if (!run->latency_planned[w])
			continue;
		fputs(run->workloads[w], f);
		for (v = 0; v < run->nvariants; v++) {
			struct bar b = bar(run_group(run, v, w));

			plot_number(f, b.value);
			plot_number(f, b.lo);
			plot_number(f, b.hi);
			fprintf(f, " %zu", b.failed);
		}
		fputc('\n', f);
	}
	render_close(f, run, name);
}

/*
 * Time series: plot-data/<series name>.dat per cell that has one ("second
 * max-of-vCPU0 max-of-vCPU1 ..." rows, NaN for no data) and
 * plot-data/series, one line per file: "name cell-max-us title".
 */
static void plot_series(const struct run *run)
{
	FILE *list = render_open(run, "plot-data/series");
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
 * A histogram for a log-scale plot, OSADL-style but normalised, so that
 * variants with ten times the wake-ups (rt against a baseline whose
 * wake-ups waited 50 ms each) draw on one scale: "bin-start
 * fraction-of-wake-ups-per-µs" per bin of bin_width() (1 µs below 1000 µs,
 * three significant digits above), empty bins left out. The corrected
 * histograms hold a value for every skipped period, tens of thousands of
 * distinct ones per stall, which drawn one point each made a 20 MB SVG.
 */
static void hist_write_binned(FILE *f, const struct histogram *h)
{
	double total = (double)hist_total(h);
	size_t k = 0, width, start;

	while (k < h->buckets) {
		unsigned long long n = 0;

		width = bin_width(k, 2);
		start = k - k % width;
		for (; k < start + width && k < h->buckets; k++)
			n += h->count[k];
		if (n)
			fprintf(f, "%zu %g\n", start, (double)n / (double)width / total);
	}
}

/*
 * The latency CCDF: "x fraction-of-wake-ups-at-or-beyond-x" at the start of
 * each non-empty bin of three significant digits, and at the histogram's
 * range for the overflowed ones. Its last point is the longest wake-up, at
 * the fraction it holds: the tail a variant reaches stays on a log axis.
 */
static void ccdf_write_binned(FILE *f, const struct histogram *h)
{
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

/* plot-data/PREFIX-<workload>.dat: one block per measured variant (gnuplot "index"), titled by its first line. */
static void plot_distribution(const struct run *run, size_t w, const char *prefix,
			      void (*write)(FILE *f, const struct histogram *h))
{
	char name[512];
	FILE *f = NULL;
	size_t v;

	for (v = 0; v < run->nvariants; v++) {
		const struct group *g = run_group(run, v, w);

		if (!g->n)
			continue;
		if (!f) {
			snprintf(name, sizeof(name), "plot-data/%s-%s.dat", prefix, run->workloads[w]);
			f = render_open(run, name);
		} else {
			fputs("\n\n", f);
		}
		/* Quoted: gnuplot's columnheader() takes it whole. */
		fprintf(f, "\"%s (%llu wake-ups)\"\n", g->variant, (unsigned long long)hist_total(&g->hist));
		write(f, &g->hist);
	}
	if (f)
		render_close(f, run, name);
}

void render_plot_data(const struct run *run)
{
	char path[4096];
	size_t w;

	snprintf(path, sizeof(path), "%s/plot-data", run->out_dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		err_exit_errno(LL_EXIT_FAIL, "mkdir %s", path);
	plot_table(run, "plot-data/max.dat", bar_max);
	plot_table(run, "plot-data/preemptoff.dat", bar_preemptoff);
	plot_table(run, "plot-data/irqsoff.dat", bar_irqsoff);
	/*
	 * Histograms and CCDFs: one block per measured variant.
	 * plot-data/workloads lists every workload that was to run a latency
	 * pass; one that nothing measured has no data files, and the plot
	 * step draws a figure that says so.
	 */
	FILE *list = render_open(run, "plot-data/workloads");

	for (w = 0; w < run->nworkloads; w++) {
		if (run->latency_planned[w])
			fprintf(list, "%s\n", run->workloads[w]);
		plot_distribution(run, w, "hist", hist_write_binned);
		plot_distribution(run, w, "ccdf", ccdf_write_binned);
	}
	render_close(list, run, "plot-data/workloads");
	plot_series(run);
}
