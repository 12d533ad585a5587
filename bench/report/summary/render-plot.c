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

/* A table: one row per workload, one column per variant (NaN = no data). */
static void plot_table(const struct run *run, const char *name, int what)
{
	FILE *f = render_open(run, name);
	size_t v, w;

	fputs("workload", f);
	for (v = 0; v < run->nvariants; v++)
		fprintf(f, " %s", run->variants[v]);
	fputc('\n', f);
	for (w = 0; w < run->nworkloads; w++) {
		fputs(run->workloads[w], f);
		for (v = 0; v < run->nvariants; v++) {
			const struct group *g = run_group(run, v, w);
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

void render_plot_data(const struct run *run)
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
	FILE *list = render_open(run, "plot-data/workloads");

	for (w = 0; w < run->nworkloads; w++) {
		FILE *f = NULL;

		if (run->latency_planned[w])
			fprintf(list, "%s\n", run->workloads[w]);
		for (v = 0; v < run->nvariants; v++) {
			const struct group *g = run_group(run, v, w);

			if (!g->n)
				continue;
			if (!f) {
				snprintf(name, sizeof(name), "plot-data/hist-%s.dat", run->workloads[w]);
				f = render_open(run, name);
			} else {
				fputs("\n\n", f);
			}
			fprintf(f, "%s samples\n", g->variant);
			hist_write_binned(f, &g->hist);
		}
		if (f)
			render_close(f, run, name);
	}
	render_close(list, run, "plot-data/workloads");
	plot_series(run);
}
