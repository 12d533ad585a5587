/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summary.h - a run as the summary aggregates it: cells grouped by
 * (workload, variant), and the comparisons of bench/comparisons.
 */
#ifndef LOCKLAT_SUMMARY_H
#define LOCKLAT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cell.h"

#define MAX_REPS 24

/* The measured repetitions of one variant on one workload. */
struct group {
	const char *variant, *workload;
	size_t ncells, nok;		/* all complete cells, and the OK ones */
	size_t n;			/* measured cells (OK or FINDINGS) */
	size_t died;			/* cells whose guest hung or panicked in the latency pass */
	double max[MAX_REPS], p50[MAX_REPS], p99[MAX_REPS], p999[MAX_REPS];
	bool overflowed;
	/* a percentile of some repetition fell among the histogram's overflows */
	bool p50_over, p99_over, p999_over;
	unsigned long long samples;
	unsigned int findings;
	struct histogram hist;		/* all measured repetitions merged */
	unsigned long long preemptoff_us, irqsoff_us;
	const struct cell *preemptoff_cell, *irqsoff_cell;
	const struct cell *verify_cell;	/* the first repetition with target hits */
};

struct comparison_def {
	char *a, *b, *expectation;
};

/* An llcheck scenario of kernels/modules/llcheck/scenarios and what to expect of it. */
struct scenario_def {
	char *name, *expectation;
};

struct comparison {
	double ratio, p_max, p_p99;
	size_t na, nb;
	char verdict[320];
};

struct run {
	const char *dir, *plots_dir;
	struct cell *cells;
	size_t ncells, partial;
	char **variants, **workloads;
	size_t nvariants, nworkloads;
	struct group *groups;
	size_t ngroups;
	struct comparison_def *defs;
	size_t ndefs;
	struct scenario_def *scenarios;	/* kernels/modules/llcheck/scenarios, for the expectations */
	size_t nscenarios;
};

bool cell_measured(const struct cell *c);
bool cell_died_in_latency(const struct cell *c);
size_t group_maxima(const struct group *g, double *out);
struct group *group_find(struct run *run, const char *variant, const char *workload);
const char *scenario_expectation(const struct run *run, const char *scenario);
void comparison_judge(struct comparison *cmp, const struct group *a, const struct group *b);

/* Open dir/name.tmp for writing; report_close() renames it into place. */
FILE *report_open(const struct run *run, const char *name);
void report_close(FILE *f, const struct run *run, const char *name);

void report_markdown(struct run *run);
void report_json(struct run *run);
void report_csv(struct run *run);
void report_plot_data(struct run *run);

#endif /* LOCKLAT_SUMMARY_H */
