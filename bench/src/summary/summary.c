// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-summary - summarise a locklat run: summary.md, summary.json,
 * summary.csv and the data files the gnuplot scripts draw.
 *
 * Usage: locklat-summary [options] RUN_DIR
 *   --call-sites FILE   call site attribution table (kernels/call-sites)
 *   --comparisons FILE  the comparisons to make (bench/comparisons)
 *   --llcheck-scenarios FILE  llcheck's scenarios with what to expect
 *                       (kernels/modules/llcheck/scenarios)
 *   --plots-dir DIR     where the plots are linked from summary.md (relative)
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

enum option_values {
	OPT_CALL_SITES = 1,
	OPT_COMPARISONS,
	OPT_HELP,
	OPT_LLCHECK_SCENARIOS,
	OPT_PLOTS_DIR,
};

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: locklat-summary [--call-sites FILE] [--comparisons FILE]\n"
		"                       [--llcheck-scenarios FILE] [--plots-dir DIR] RUN_DIR\n");
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
				switch (cell_load(c, cdir, cs)) {
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

/* Variant order: non-RT before RT, without lockdep before with, then by name. */
static int variant_rank(const struct run *run, const char *variant)
{
	size_t i;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (strcmp(c->variant, variant))
			continue;
		return (strcmp(kv_str(&c->meta, "manifest.preempt_model", ""), "rt") == 0) * 2 +
		       (strcmp(kv_str(&c->meta, "manifest.lockdep", "n"), "y") == 0);
	}
	return 9;
}

static const struct run *sort_run;

static int cmp_variant(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = variant_rank(sort_run, x), ry = variant_rank(sort_run, y);

	if (rx != ry)
		return rx - ry;
	/* The pre-series baseline first within a model. */
	if (!strncmp(x, "baseline", 8) != !strncmp(y, "baseline", 8))
		return strncmp(x, "baseline", 8) ? 1 : -1;
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
 * complained; or it hung in a later pass (TIMEOUT) after its latency pass had
 * completed and been written out (guest/steps says so).
 */
bool cell_measured(const struct cell *c)
{
	if (!c->has_latency)
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
	return (!strcmp(c->status, "TIMEOUT") || cell_panicked(c)) && !strcmp(c->hung_step, "latency");
}

static void group_build(struct run *run, struct group *g, const char *variant, const char *workload)
{
	size_t i;

	memset(g, 0, sizeof(*g));
	g->variant = variant;
	g->workload = workload;
	for (i = 0; i < run->ncells; i++) {
		struct cell *c = &run->cells[i];
		bool over;
		unsigned int k;

		if (strcmp(c->variant, variant) || strcmp(c->workload, workload))
			continue;
		g->ncells++;
		if (c->nhits && (!g->verify_cell || c->rep < g->verify_cell->rep))
			g->verify_cell = c;
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
		g->died += cell_died_in_latency(c);
		if (!cell_measured(c) || g->n == MAX_REPS)
			continue;
		g->max[g->n] = (double)c->max_us;
		g->p50[g->n] = (double)hist_percentile(&c->hist, 0.50, &over);
		g->p50_over |= over;
		g->p99[g->n] = (double)hist_percentile(&c->hist, 0.99, &over);
		g->p99_over |= over;
		g->p999[g->n] = (double)hist_percentile(&c->hist, 0.999, &over);
		g->p999_over |= over;
		g->overflowed |= c->hist.overflow > 0;
		g->samples += hist_total(&c->hist);
		for (k = 0; k < c->hist.buckets; k++)
			if (c->hist.count[k])
				hist_add(&g->hist, k, c->hist.count[k]);
		g->hist.overflow += c->hist.overflow;
		g->n++;
	}
}

/*
 * The '|'-separated fields of a line of one of our data files (comments and
 * lines without '|' give 0), trimmed, into fields[0..max); the last field
 * keeps any further '|'. Returns how many were found.
 */
static size_t bar_fields(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line, *bar, *e;

	if (line[0] == '#' || !strchr(line, '|'))
		return 0;
	line[strcspn(line, "\n")] = '\0';
	while (n < max) {
		bar = n + 1 < max ? strchr(p, '|') : NULL;
		if (bar)
			*bar = '\0';
		p += strspn(p, " \t");
		for (e = p + strlen(p); e > p && (e[-1] == ' ' || e[-1] == '\t'); e--)
			e[-1] = '\0';
		fields[n++] = p;
		if (!bar)
			break;
		p = bar + 1;
	}
	return n;
}

static void comparisons_load(struct run *run, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *field[3];
	size_t cap = 0;

	if (!f)
		err_exit_errno(LL_EXIT_FAIL, "read %s", path);
	while (getline(&line, &cap, f) >= 0) {
		struct comparison_def *d;

		if (bar_fields(line, field, 3) != 3)
			continue;
		run->defs = realloc(run->defs, (run->ndefs + 1) * sizeof(*d));
		if (!run->defs)
			err_exit(LL_EXIT_FAIL, "out of memory");
		d = &run->defs[run->ndefs++];
		d->a = strdup(field[0]);
		d->b = strdup(field[1]);
		d->expectation = strdup(field[2]);
	}
	free(line);
	fclose(f);
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

		if (bar_fields(line, field, 3) != 3)
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

/* Smallest two-sided p an exact test of na vs nb values can give. */
static double min_p(size_t na, size_t nb)
{
	double splits = 1;
	size_t i;

	for (i = 1; i <= na; i++)
		splits = splits * (double)(nb + i) / (double)i;
	return 2 / splits;
}

/*
 * A group's maxima for the tests: the measured ones, then +inf for each
 * repetition that hung or panicked in the latency pass. Either is a wake-up
 * that never came: longer than any measured one, which is all a rank test
 * needs (a right-censored value ranked last).
 */
size_t group_maxima(const struct group *g, double *out)
{
	size_t i, n = 0;

	for (i = 0; i < g->n; i++)
		out[n++] = g->max[i];
	for (i = 0; i < g->died && n < 2 * MAX_REPS; i++)
		out[n++] = INFINITY;
	return n;
}

void comparison_judge(struct comparison *cmp, const struct group *a, const struct group *b)
{
	double va[2 * MAX_REPS], vb[2 * MAX_REPS], ma, mb;
	size_t na = group_maxima(a, va), nb = group_maxima(b, vb);

	/* The ratio is of what was measured; the test also ranks the failures. */
	ma = median(a->max, a->n);
	mb = median(b->max, b->n);
	cmp->ratio = a->n && b->n && mb > 0 ? ma / mb : NAN;
	cmp->p_max = mann_whitney_p(va, na, vb, nb);
	cmp->p_p99 = mann_whitney_p(a->p99, a->n, b->p99, b->n);
	cmp->na = na;
	cmp->nb = nb;
	if (!a->n || !b->n) {
		snprintf(cmp->verdict, sizeof(cmp->verdict), "no measured cells on one side");
	} else if (min_p(na, nb) >= 0.05) {
		snprintf(cmp->verdict, sizeof(cmp->verdict),
			 "inconclusive: %zu vs %zu repetitions cannot reach p < 0.05 (smallest possible p = %.2f)",
			 na, nb, min_p(na, nb));
	} else if (cmp->p_max < 0.05) {
		snprintf(cmp->verdict, sizeof(cmp->verdict), "%s significantly %s (p = %.3f)",
			 a->variant, ma > mb ? "higher" : "lower", cmp->p_max);
	} else {
		snprintf(cmp->verdict, sizeof(cmp->verdict),
			 "no significant difference (p = %.2f)", cmp->p_max);
	}
	if (a->died || b->died) {
		size_t len = strlen(cmp->verdict);

		snprintf(cmp->verdict + len, sizeof(cmp->verdict) - len,
			 "; hung or panicked in the latency pass, ranked as the worst maxima: %zu %s, %zu %s",
			 a->died, a->variant, b->died, b->variant);
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
		{ NULL, 0, NULL, 0 },
	};
	const char *call_sites_path = "kernels/call-sites";
	const char *comparisons_path = "bench/comparisons";
	struct call_sites cs;
	struct run run = { .plots_dir = "plots" };
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
	free_names(run.variants, run.nvariants);
	free_names(run.workloads, run.nworkloads);
	for (i = 0; i < run.ndefs; i++) {
		free(run.defs[i].a);
		free(run.defs[i].b);
		free(run.defs[i].expectation);
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
