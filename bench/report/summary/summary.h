/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summary.h - a run as the summary aggregates it: cells grouped by
 * (workload, variant), and the comparisons of kernels/comparisons.
 */
#ifndef LOCKLAT_SUMMARY_H
#define LOCKLAT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cell.h"

#define MAX_REPS 64

/* The start-up window when none is given (METHODOLOGY.md, "The start-up window"). */
#define STARTUP_WINDOW_MS_DEFAULT 1000

/* The measured repetitions of one variant on one workload. */
struct group {
	const char *variant, *workload;
	size_t ncells, nok;		/* complete repetitions (not the traced cell), and the OK cells */
	size_t n;			/* measured: OK or FINDINGS, latency pass complete, load alive */
	size_t died;			/* the guest hung or panicked in the latency pass */
	size_t load_dead;		/* the load died, exited early or stalled in the latency pass */
	/* Per measured repetition: after the start-up window (the whole pass for older cells). */
	double max[MAX_REPS], startup_max[MAX_REPS], p50[MAX_REPS], p99[MAX_REPS], p999[MAX_REPS];
	double block_median[MAX_REPS];	/* typical worst second (cell.h: blocks) */
	unsigned int min_blocks;	/* the fewest steady seconds of a measured repetition */
	double latency_max_us;		/* cyclictest's whole-pass maximum over the measured repetitions */
	bool max_censored;		/* some max is a lower bound (a thread stopped waking) */
	bool steady;			/* every measured repetition had its sample stream */
	bool overflowed;
	/* a percentile of some repetition fell among the histogram's overflows */
	bool p50_over, p99_over, p999_over;
	unsigned long long samples;	/* recorded wake-ups after the window */
	unsigned long long wakeups_due;	/* due after the window */
	unsigned long long wakeups_added;	/* by the coordinated-omission correction */
	unsigned int findings;
	struct histogram hist;		/* all measured repetitions merged (steady, corrected) */
	unsigned long long preemptoff_us, irqsoff_us;
	const struct cell *preemptoff_cell, *irqsoff_cell;
	const struct cell *verify_cell;	/* the first repetition with target hits */
	const struct cell *wakeup_cell;	/* the first repetition whose timerlat pass reported */
	const struct cell *traced_cell;	/* the cell on the traced kernel (cell.h: traced_kernel) */
	/*
	 * What a traced section or wake-up is held against (trace_beyond_latency):
	 * the whole-pass maximum of the traced cell's own latency pass, same
	 * kernel and boot (trace_ref_own), else of the column's repetitions
	 * (older runs, whose first repetition ran every pass); 0 if neither.
	 */
	double trace_ref_us;
	bool trace_ref_own;
	/*
	 * The traced cell's latency pass as the repetitions' maxima are read
	 * (after the start-up window, the whole pass for cells without a
	 * sample stream), and whether it is a lower bound; NAN when there is no
	 * completed one.
	 */
	double traced_max_us;
	bool traced_max_censored;
};

/* What a comparison's A is expected to be against its B (kernels/comparisons). */
enum expectation {
	EXPECT_OPEN,		/* no prediction: exploratory */
	EXPECT_SAME,		/* no difference */
	EXPECT_LOWER,
	EXPECT_HIGHER,
	EXPECT_NOT_HIGHER,	/* lower or the same */
	EXPECT_NOT_LOWER,	/* higher or the same */
};

struct comparison_def {
	char *a, *b, *workload;		/* workload "*": any without a line of its own */
	enum expectation expect;
	char *why;
};

/* An llcheck scenario of kernels/modules/llcheck/scenarios and what to expect of it. */
struct scenario_def {
	char *name, *expectation;
};

struct comparison {
	const char *workload;
	const struct group *a, *b;
	const struct comparison_def *def;
	double ratio_medians;		/* median max of A over B, measured repetitions */
	/* Hodges-Lehmann ratios, failures ranked worst: of the pass maxima, of the typical worst seconds */
	struct ratio_ci ci_max, ci_blocks;
	bool by_blocks;			/* the verdict reads from ci_blocks */
	struct ratio_ci ci;		/* the one the verdict reads from */
	double p_max, p_p99;		/* NAN when not computable */
	size_t na, nb;
	bool contradicts;		/* the interval contradicts the expectation */
	char verdict[400];
};

struct run {
	const char *dir, *plots_dir;
	uint64_t window_us;		/* the start-up window cells are split at */
	struct cell *cells;
	size_t ncells, partial;
	char **variants, **workloads;
	size_t nvariants, nworkloads;
	struct group *groups;
	size_t ngroups;
	struct comparison_def *defs;
	size_t ndefs;
	/* kernels/comparisons' "question | A | B | workload": the one asked first */
	char *question_a, *question_b, *question_workload;
	const char *series;		/* the series under test (--series, local-lock) */
	struct comparison *cmps;	/* every comparison made, by workload, computed once */
	size_t ncmps;
	struct scenario_def *scenarios;	/* kernels/modules/llcheck/scenarios, for the expectations */
	size_t nscenarios;
};

bool cell_measured(const struct cell *c);
/* Which of its variant's kernels the cell booted: "plain" or "traced". */
const char *cell_flavour(const struct cell *c);
bool cell_died_in_latency(const struct cell *c);
bool cell_failed_in_latency(const struct cell *c);
const char *cell_left_out(const struct cell *c);
const struct comparison_def *comparison_def_find(const struct run *run, const char *a, const char *b,
						 const char *workload);
const char *expectation_name(enum expectation e);
const char *expectation_words(enum expectation e);
bool workload_is_modules_only(const struct run *run, const char *workload);
bool trace_beyond_latency(const struct group *g, const struct trace_worst *t);
bool wakeup_beyond_latency(const struct group *g, const struct wakeup_trace *w);
/* A ratio for people: two decimals (two significant digits below 0.1), "∞" when unbounded. */
const char *ratio_str(char *buf, size_t size, double x);
struct group *group_find(struct run *run, const char *variant, const char *workload);
const char *scenario_expectation(const struct run *run, const char *scenario);
void comparison_judge(struct comparison *cmp, const struct group *a, const struct group *b,
		      const struct comparison_def *def);

/* Open dir/name.tmp for writing; report_close() renames it into place. */
FILE *report_open(const struct run *run, const char *name);
void report_close(FILE *f, const struct run *run, const char *name);

void report_markdown(struct run *run);
void report_json(struct run *run);
void report_csv(struct run *run);
void report_plot_data(struct run *run);

#endif /* LOCKLAT_SUMMARY_H */
