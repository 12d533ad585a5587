/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - a run as the summary holds it, the data each stage hands on:
 * load.c fills the cells and the definitions (kernels/comparisons, the
 * llcheck scenarios), analyse.c the verdict of each cell, the groups by
 * (workload, variant) and the comparisons, once; the renderers (render*.c)
 * only read it. The functions here are lookups into that data.
 */
#ifndef LOCKLAT_RUN_H
#define LOCKLAT_RUN_H

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
	struct histogram measured;	/* the same, the wake-ups cyclictest printed alone (no correction) */
	unsigned long long preemptoff_us, irqsoff_us;
	const struct cell *preemptoff_cell, *irqsoff_cell;
	const struct cell *verify_cell;	/* the first repetition with target hits */
	const struct cell *wakeup_cell;	/* the first repetition whose timerlat pass reported */
	const struct cell *traced_cell;	/* the cell on the traced kernel (cell.h: traced_kernel) */
	const struct cell *lock_cell;	/* the first repetition with the verify pass's lock events */
	/* Data integrity over all its cells (the traced one too): items checked, wrong, cells with errors. */
	unsigned long long integrity_checked, integrity_errors;
	size_t integrity_cells, corrupted_cells;
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
	/*
	 * The worst sections and wake-up held against trace_ref_us
	 * (TRACE_LATENCY_FACTOR): flagged, never shown as a culprit; a
	 * section longer than the pass was to last (the guest stalled).
	 */
	bool preemptoff_flagged, irqsoff_flagged, wakeup_flagged;
	/*
	 * The traced wake-up is over TRACE_LATENCY_FACTOR times the plain
	 * kernel's maximum on the column's repetitions (latency_max_us): the
	 * tracers' cost is in it. Shown, with the flag.
	 */
	bool wakeup_inflated;
	bool preemptoff_too_long, irqsoff_too_long;
	/*
	 * How the maximum grows with the pass's length: at length_s[i] whole
	 * seconds after the window, the median over the measured repetitions
	 * of the worst of their first length_s[i] per-second maxima.
	 */
	unsigned int nlengths;
	unsigned int length_s[8];
	double length_max_us[8];
};

/*
 * A traced section (or wake-up) longer than TRACE_LATENCY_FACTOR times the
 * worst wake-up of the same kernel's latency pass (group.trace_ref_us) is
 * flagged (analyse.c: trace_beyond_latency).
 */
#define TRACE_LATENCY_FACTOR 2

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
	/*
	 * The expectation's bound on A/B, "lower 100x": 0 for none, else N > 1:
	 * lower or higher by at least N×; the same, not higher or not lower by
	 * at most N× (a "little change" checked in both directions).
	 */
	double bound;
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
	/* Hodges-Lehmann ratios of the measured repetitions: of the pass maxima (as computed), of the typical worst seconds (at 1 µs) */
	struct ratio_ci ci_max, ci_blocks;
	bool has_blocks;		/* ci_blocks was computed */
	struct ratio_ci ci;		/* ci_max widened by the resolution: what the verdict reads */
	double p_max, p_p99;		/* NAN when not computable */
	size_t na, nb;			/* measured repetitions */
	size_t fa, fb;			/* repetitions that failed under load */
	double p_failed;		/* Fisher's exact p of the failures; NAN when none failed */
	int failed_more;		/* judge.h's: +1 A fails more often, -1 less, 0 no difference shown */
	bool contradicts;		/* the interval contradicts the expectation */
	char verdict[480];
};

/*
 * One stratum of a run: its cells of one accelerator on one host CPU model
 * (run-matrix.sh --hosts runs cells on several hosts). Latencies of two
 * strata are not comparable, so a run of several is summarised per stratum,
 * into RUN/by-host/<name>/ (summary.c).
 */
struct stratum {
	char *name;			/* <accel>-<host CPU>, as a folder name */
	char *accel, *host_cpu;
	char hosts[512];		/* the cells' host names (meta host), ", "-separated */
	size_t ncells;
	char answer[512];		/* its summary's answer to the question (summary.c), or "" */
};

struct run {
	const char *dir, *plots_dir;
	const char *out_dir;		/* where the outputs go: dir, or a stratum's by-host/<name> */
	const struct stratum *only;	/* load only this stratum's cells (and those of no host) */
	struct stratum *strata;		/* the strata of the cells loaded (load.c: strata_find) */
	size_t nstrata;
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
	/* kernels/comparisons' "verdict | A | B" lines: the reviewer's verdict's pairs */
	struct verdict_pair {
		char *a, *b;
		char *equivalence;	/* RUN/equivalence/A-vs-B.txt (verify-equivalence's lines), or NULL */
	} *verdicts;
	size_t nverdicts;
	const char *series;		/* the series under test (--series, local-lock) */
	struct comparison *cmps;	/* every comparison made, by workload, computed once */
	size_t ncmps;
	struct scenario_def *scenarios;	/* kernels/modules/llcheck/scenarios, for the expectations */
	size_t nscenarios;

	/* Set by the analysis, per workload (index as run->workloads) and per variant: */
	bool *modules_only;		/* only the modules pass ran on it: no latency table */
	bool *latency_planned;		/* some cell of it was to run a latency pass */
	const struct cell **modules_cells;	/* a variant's first cell with modules results, or NULL */
	bool has_traced;		/* some cell ran on a traced kernel (the plain/traced split) */
	bool has_tasks;			/* some cell says its workload's tasks per CPU */
	bool has_lock_events;		/* some cell has the verify pass's lock events */
	bool has_integrity;		/* some cell's workload checked its data */
};

/* The group of variant v on workload w (indices into run->variants, run->workloads). */
static inline const struct group *run_group(const struct run *run, size_t v, size_t w)
{
	return &run->groups[w * run->nvariants + v];
}

/* The line for A vs B on workload: its own, else the "*" one; NULL if none. */
const struct comparison_def *comparison_def_find(const struct run *run, const char *a, const char *b,
						 const char *workload);
/* Whether the ", "-separated list holds item whole ("3" is not in "30"). */
bool list_has(const char *list, const char *item);
/* The comparison of A against B on workload the analysis made, or NULL. */
const struct comparison *comparison_of(const struct run *run, const char *a, const char *b, const char *workload);
/* An expectation's name in kernels/comparisons; expectation_parse gives -1 for an unknown one. */
const char *expectation_name(enum expectation e);
int expectation_parse(const char *name);
const char *expectation_words(enum expectation e);
/* Line d's expectation in words with its bound, into buf: "lower, by at least 100×". */
const char *expectation_text(char *buf, size_t size, const struct comparison_def *d);
/*
 * Whether an interval [lo, hi] of A/B lies wholly outside what line d
 * expects: "same" is [0.95, 1.05] (or [1/N, N]); "lower" below 1 and not
 * within 5% of it (or at most 1/N); "not-higher" at most 1.05 (and at least
 * 1/N); "higher" and "not-lower" likewise upwards.
 */
bool expectation_contradicted(const struct comparison_def *d, double lo, double hi);
/* What llcheck's scenarios file expects of a scenario ("" if it does not say). */
const char *scenario_expectation(const struct run *run, const char *scenario);

#endif /* LOCKLAT_RUN_H */
