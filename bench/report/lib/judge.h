/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge.h - how two sets of repetitions are set against each other: the
 * Hodges-Lehmann ratio of A to B with its exact 95% interval, for the
 * typical worst second when both sides have it and the pass maximum
 * otherwise, the rank test's p, and a verdict in words. One definition, for
 * the comparisons inside a run (summary) and between two runs (compare).
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

/* One side: its measured repetitions' values, and those that failed under load. */
struct judge_side {
	const char *name;		/* named in the verdict ("rt higher: ...") */
	const double *max;		/* the pass maxima of the measured repetitions */
	const double *blocks;		/* their typical worst seconds (NaN: none) */
	size_t n;			/* measured repetitions */
	size_t failed;			/* hung, panicked or load died: ranked as the worst */
	unsigned int min_blocks;	/* the fewest whole seconds after the window of a measured one */
};

struct judgement {
	double ratio_medians;		/* median max of A over B, measured repetitions; NAN without */
	struct ratio_ci ci_max, ci_blocks;
	bool by_blocks;			/* the verdict reads from ci_blocks */
	struct ratio_ci ci;		/* the one the verdict reads from */
	double p_max;			/* NAN when not computable */
	size_t na, nb;			/* values compared a side (failures included) */
	char verdict[400];
};

void judge(struct judgement *j, const struct judge_side *a, const struct judge_side *b);

/*
 * A ratio A/B in words, as people say it, into buf: "+12%" or "−8%" under
 * 1.5×, "≈1.8× higher", "≈13,000× lower" from there on, to the
 * significant figures its interval [lo, hi] supports (three within 1%, two
 * within 2×, one beyond). With a_us and b_us > 0 (the sides' medians, in
 * whole µs) the interval is first widened by the 1 µs resolution (a value
 * read as x µs is x to x + 1, so A/B lies in (lo · b/(b + 1), hi · (a +
 * 1)/a)), and the least change that leaves follows: " (≥10,500× at 1 µs
 * resolution)". buf is "" for a ratio that is not a number.
 */
const char *ratio_phrase(char *buf, size_t size, double ratio, double lo, double hi, double a_us, double b_us);
/* A formatted decimal number ("52688", "-1234.5") with its thousands separated by commas, into buf. */
const char *number_grouped(char *buf, size_t size, const char *number);
/* The interval [lo, hi] lies within JUDGE_NEGLIGIBLE of 1. */
bool judge_negligible(double lo, double hi);

#endif /* LOCKLAT_JUDGE_H */
