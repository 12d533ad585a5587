// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-summary - summarise a locklat run: summary.md, summary.json,
 * summary.csv and the data files the gnuplot scripts draw.
 *
 * Usage and options: msg_opts[] below (--help).
 *
 * RUN_DIR holds <variant>/<workload>/rep<N>/ cells (results/README.md).
 * Writes RUN_DIR/summary.{md,json,csv} and RUN_DIR/plot-data/; for a run
 * whose cells ran under several accelerators or host CPU models
 * (run-matrix.sh --hosts), those of each stratum into
 * RUN_DIR/by-host/<accel>-<host CPU>/, and a summary.md and summary.json
 * that name them: no comparison pools two strata. One way, each
 * stage reading only what the one before it made (run.h): load.c reads the
 * cells and definitions, analyse.c judges them once, render*.c write the
 * outputs. Every number comes from the cells; cells that are not OK are
 * listed with their reason.
 * Exit: 0 written, 1 error (nothing half-written: files are renamed into
 * place), 2 bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyse.h"
#include "cell.h"
#include "load.h"
#include "locklat.h"
#include "render.h"
#include "run.h"

enum option_values {
	OPT_CALL_SITES = 1,
	OPT_COMPARISONS,
	OPT_HELP,
	OPT_LLCHECK_SCENARIOS,
	OPT_PLOTS_DIR,
	OPT_SERIES,
	OPT_STARTUP_WINDOW,
};

static const char *const msg_opts[] = {
	"usage: locklat-summary [options] RUN_DIR",
	"",
	"  --call-sites FILE         call site attribution table (default kernels/call-sites)",
	"  --comparisons FILE        the comparisons to make (default kernels/comparisons)",
	"  --llcheck-scenarios FILE  llcheck's scenarios with what to expect",
	"                            (kernels/modules/llcheck/scenarios)",
	"  --plots-dir DIR           where summary.md links the plots from (default plots)",
	"  --series NAME             the patch series under test (default local-lock): a",
	"                            variant without it sorts before one with it",
	"  --startup-window MS       the start of each latency pass left out of the",
	"                            typical worst second, in ms (default 1000)",
	"  --help                    this text",
	NULL,
};

static void usage(int status)
{
	usage_exit(msg_opts, status);
}

/* What every summary of this invocation is made with (a run's strata each get one). */
struct options {
	const char *call_sites, *comparisons, *scenarios, *plots_dir, *series;
	uint64_t window_us;
};

/* A run of dir, its definitions loaded, its outputs going to out_dir. */
static void run_init(struct run *run, const struct options *o, const char *dir, const char *out_dir)
{
	memset(run, 0, sizeof(*run));
	run->dir = dir;
	run->out_dir = out_dir;
	run->plots_dir = o->plots_dir;
	run->series = o->series;
	run->window_us = o->window_us;
	comparisons_load(run, o->comparisons);
	if (o->scenarios)
		scenarios_load(run, o->scenarios);
}

/* One way: the loaded run analysed, then rendered. */
static void summarise(struct run *run)
{
	equivalence_load(run);
	run_analyse(run);
	render_markdown(run);
	render_json(run);
	render_csv(run);
	render_plot_data(run);
	render_tap(run);
	render_glance(run);
	printf("%s/summary.md: %zu %s, %zu %s, %zu %s\n", run->out_dir, run->ncells, plural(run->ncells, "cell", "cells"),
	       run->nvariants, plural(run->nvariants, "variant", "variants"), run->nworkloads,
	       plural(run->nworkloads, "workload", "workloads"));
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* dir/name and all below it, if it is there: outputs that no longer match the run. */
static void remove_output(const char *dir, const char *name)
{
	char path[4096];

	path_join(path, sizeof(path), dir, name);
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		err_exit_errno(LL_EXIT_FAIL, "remove %s", path);
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		err_exit_errno(LL_EXIT_FAIL, "mkdir %s", path);
}

/* Folders of by-host/ that are no stratum of the run now (an earlier summary's). */
static void stale_strata_remove(const char *dir, const struct run *all)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t i;

	if (!d)
		err_exit_errno(LL_EXIT_FAIL, "open %s", dir);
	while ((de = readdir(d))) {
		bool current = de->d_name[0] == '.';

		for (i = 0; i < all->nstrata && !current; i++)
			current = !strcmp(de->d_name, all->strata[i].name);
		if (!current)
			remove_output(dir, de->d_name);
	}
	closedir(d);
}

/* What a stratum's summary answers to the question kernels/comparisons asks first, for the index. */
static void stratum_answer(struct stratum *s, const struct run *run)
{
	const struct comparison *q;

	if (!run->question_a)
		return;
	q = comparison_of(run, run->question_a, run->question_b, run->question_workload);
	if (q)
		snprintf(s->answer, sizeof(s->answer), "%s vs %s on %s: %s (%zu vs %zu repetitions)",
			 q->a->variant, q->b->variant, q->workload, q->verdict, q->na, q->nb);
	else
		snprintf(s->answer, sizeof(s->answer), "%s vs %s on %s: not answered (no cells of one side)",
			 run->question_a, run->question_b, run->question_workload);
}

/*
 * A run of several strata (run.h: struct stratum): each summarised on its
 * own into RUN/by-host/<name>/, from its cells alone; RUN/summary.md and
 * summary.json say so and name them. What a pooled summary wrote before
 * (summary.csv, plot-data/) would mix the strata: removed.
 */
static void summarise_strata(struct run *all, const struct options *o, const struct call_sites *cs)
{
	char dir[4096], out[4096];
	size_t i;
	struct run run;

	path_join(dir, sizeof(dir), all->dir, "by-host");
	make_dir(dir);
	for (i = 0; i < all->nstrata; i++) {
		path_join(out, sizeof(out), dir, all->strata[i].name);
		make_dir(out);
		run_init(&run, o, all->dir, out);
		run.only = &all->strata[i];
		run_load(&run, all->dir, cs);
		summarise(&run);
		stratum_answer(&all->strata[i], &run);
		run_free(&run);
	}
	stale_strata_remove(dir, all);
	render_markdown_index(all);
	render_json_index(all);
	remove_output(all->dir, "summary.csv");
	remove_output(all->dir, "verdicts.tap");
	remove_output(all->dir, "plot-data");
	printf("%s/summary.md: %zu cells in %zu strata, each summarised in by-host/\n",
	       all->dir, all->ncells, all->nstrata);
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
	struct options o = {
		.call_sites = "kernels/call-sites", .comparisons = "kernels/comparisons",
		.plots_dir = "plots", .series = "local-lock",
		.window_us = STARTUP_WINDOW_MS_DEFAULT * 1000ull,
	};
	struct call_sites cs;
	struct run run;
	uint64_t window_ms;
	struct stat st;
	const char *dir;
	int c;

	ll_prog = "locklat-summary";
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_CALL_SITES:
			o.call_sites = optarg;
			break;
		case OPT_COMPARISONS:
			o.comparisons = optarg;
			break;
		case OPT_HELP:
			usage(LL_EXIT_OK);
			break;
		case OPT_LLCHECK_SCENARIOS:
			o.scenarios = optarg;
			break;
		case OPT_PLOTS_DIR:
			o.plots_dir = optarg;
			break;
		case OPT_SERIES:
			o.series = optarg;
			break;
		case OPT_STARTUP_WINDOW:
			if (!parse_u64(optarg, 0, 3600000, &window_ms))
				err_exit(LL_EXIT_USAGE, "--startup-window wants milliseconds (0-3600000), got '%s'", optarg);
			o.window_us = window_ms * 1000;
			break;
		default:
			usage(LL_EXIT_USAGE);
		}
	}
	if (argc - optind != 1)
		usage(LL_EXIT_USAGE);
	dir = argv[optind];
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		err_exit(LL_EXIT_USAGE, "%s is not a result directory", dir);
	if (call_sites_load(&cs, o.call_sites))
		err_exit_errno(LL_EXIT_FAIL, "read %s", o.call_sites);

	run_init(&run, &o, dir, dir);
	run_load(&run, dir, &cs);
	if (!run.ncells)
		err_exit(LL_EXIT_FAIL, "%s holds no complete cell", dir);
	strata_find(&run);
	if (run.nstrata > 1) {
		summarise_strata(&run, &o, &cs);
	} else {
		remove_output(dir, "by-host");
		summarise(&run);
	}
	run_free(&run);
	call_sites_free(&cs);
	return LL_EXIT_OK;
}
