/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge.h - how two sets of repetitions are set against each other: the
 * repetitions that failed under load (hung, panicked, lost their load)
 * counted per side and compared as proportions (Fisher's exact test); the
 * measured ones by the Hodges-Lehmann ratio of A's pass maxima to B's with
 * its exact 95% interval, widened by the 1 µs resolution, the typical worst
 * second beside it; the rank test's p, and a verdict in words. One
 * definition, for the comparisons inside a run (summary) and between two
 * runs (compare).
 */
#ifndef LOCKLAT_JUDGE_H
#define LOCKLAT_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

/* Up to this many repetitions a side (failures included). */
#define JUDGE_MAX_VALUES 128

/*
 * Ratios within JUDGE_NEGLIGIBLE of 1 are no difference anyone would act on
 * (under tcg-icount identical code gives maxima within a fraction of a
 * percent, so an interval can exclude 1 for a shift of 0.1%).
 */
#define JUDGE_NEGLIGIBLE 0.05
/* Whole seconds after the start-up window every repetition needs for the typical worst second. */
#define JUDGE_MIN_BLOCKS 3
/*
 * A start-up maximum is flagged when it is this many times its repetition's
 * steady maximum and at least JUDGE_STARTUP_MIN_US above it: cyclictest's
 * own start stays within a few µs of the steady maximum (rt's start-up
 * maxima are 4-7 µs in the reference under tcg-icount), so what is above
 * that comes from the workload or the kernel, not the measurement.
 */
#define JUDGE_STARTUP_FACTOR 1.5
#define JUDGE_STARTUP_MIN_US 10

/* One side: its measured repetitions' values, and how many failed under load. */
struct judge_side {
	const char *name;		/* named in the verdict ("rt higher: ...") */
	const double *max;		/* the pass maxima after the window of the measured repetitions */
	const double *blocks;		/* their typical worst seconds (NaN: none) */
	const double *startup;		/* their maxima inside the start-up window (NULL or NaN: none) */
	size_t n;			/* measured repetitions */
	size_t failed;			/* hung, panicked or load died: an outcome, not a latency */
	unsigned int min_blocks;	/* the fewest whole seconds after the window of a measured one */
};

struct judgement {
	double ratio_medians;		/* median max of A over B, measured repetitions; NAN without */
	/*
	 * Hodges-Lehmann ratios of the measured repetitions: of the pass maxima
	 * as computed, of the typical worst seconds as the 1 µs resolution
	 * leaves it (every interval shown is).
	 */
	struct ratio_ci ci_max, ci_blocks;
	bool has_blocks;		/* ci_blocks was computed (both sides have the seconds for it) */
	struct ratio_ci ci;		/* ci_max as the 1 µs resolution leaves it: what the verdict reads */
	double p_max;			/* the rank test of the measured pass maxima; NAN when not computable */
	size_t na, nb;			/* measured repetitions a side */
	size_t fa, fb;			/* repetitions that failed under load a side */
	double p_failed;		/* Fisher's exact p of fa/(na + fa) against fb/(nb + fb); NAN when none failed */
	/* +1: A fails more often under load than B (Fisher p < 0.05), -1: less often, 0: no difference shown */
	int failed_more;
	size_t startup_a, startup_b;	/* repetitions a side whose start-up maximum is flagged */
	double startup_max;		/* the largest flagged start-up maximum, µs (0: none) */
	char verdict[480];
};

/*
 * A against B. No latency ratio without measured repetitions on both sides
 * (ci.valid false); failures never enter a ratio.
 */
void judge(struct judgement *j, const struct judge_side *a, const struct judge_side *b);

/*
 * A ratio A/B in words, as people say it, into buf: "+12%" or "−8%" under
 * 1.5×, "≈1.8× higher", "≈13,000× lower" from there on, to the
 * significant figures its interval [lo, hi] supports (three within 1%, two
 * within 2×, one beyond). With at_resolution, [lo, hi] is the interval as
 * the 1 µs resolution leaves it (struct judgement's ci), and the least
 * change it shows follows: " (≥10,500× at 1 µs resolution)". buf is "" for
 * a ratio that is not a number.
 */
const char *ratio_phrase(char *buf, size_t size, double ratio, double lo, double hi, bool at_resolution);
/* A formatted decimal number ("52688", "-1234.5") with its thousands separated by commas, into buf. */
const char *number_grouped(char *buf, size_t size, const char *number);
/* The interval [lo, hi] lies within JUDGE_NEGLIGIBLE of 1. */
bool judge_negligible(double lo, double hi);

#endif /* LOCKLAT_JUDGE_H */
