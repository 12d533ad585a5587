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
 * Writes RUN_DIR/summary.{md,json,csv} and RUN_DIR/plot-data/. One way, each
 * stage reading only what the one before it made (run.h): load.c reads the
 * cells and definitions, analyse.c judges them once, render*.c write the
 * outputs. Every number comes from the cells; cells that are not OK are
 * listed with their reason.
 * Exit: 0 written, 1 error (nothing half-written: files are renamed into
 * place), 2 bad usage.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
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

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: locklat-summary [--call-sites FILE] [--comparisons FILE]\n"
		"                       [--llcheck-scenarios FILE] [--plots-dir DIR]\n"
		"                       [--series NAME] [--startup-window MS] RUN_DIR\n");
	exit(status);
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

	/* One way: load, analyse, render. */
	run_load(&run, run.dir, &cs);
	equivalence_load(&run);
	if (!run.ncells)
		err_exit(LL_EXIT_FAIL, "%s holds no complete cell", run.dir);
	run_analyse(&run);
	render_markdown(&run);
	render_json(&run);
	render_csv(&run);
	render_plot_data(&run);
	printf("%s/summary.md: %zu cells, %zu variants, %zu workloads\n",
	       run.dir, run.ncells, run.nvariants, run.nworkloads);
	run_free(&run);
	call_sites_free(&cs);
	return LL_EXIT_OK;
}
