/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the statistics of a locklat summary: percentiles of a latency
 * histogram, medians, and rank statistics (Mann-Whitney U test, Hodges-Lehmann
 * ratio) between two small sets of per-repetition values.
 */
#ifndef LOCKLAT_STATS_H
#define LOCKLAT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A latency histogram: count[i] samples of i microseconds, plus overflow. */
struct histogram {
	uint64_t *count;
	size_t buckets;		/* allocated length of count */
	uint64_t overflow;	/* samples at or above the histogram's range */
	uint64_t range_us;	/* the range cyclictest was given (-h) */
};

/* Add n samples of value_us (grows the bucket array). Returns -1 on ENOMEM. */
int hist_add(struct histogram *h, uint64_t value_us, uint64_t n);
/* All samples, overflow included. */
uint64_t hist_total(const struct histogram *h);
/*
 * The smallest bucket at or below which a fraction p (0..1] of all samples
 * lie. Sets *in_overflow when that rank falls among the overflowed samples
 * (the result is then range_us, a lower bound).
 */
uint64_t hist_percentile(const struct histogram *h, double p, bool *in_overflow);
void hist_free(struct histogram *h);

/* Median of n values (sorts a copy); 0 for n == 0. */
double median(const double *v, size_t n);
double min_of(const double *v, size_t n);
double max_of(const double *v, size_t n);

/*
 * Rank tests on per-repetition values. A value may be +INFINITY: a
 * repetition that hung, whose wake-up never came, so it ranks above every
 * measured value and ties with other hangs.
 *
 * Up to RANK_EXACT_MAX pooled values the tests are exact: a summary has few
 * repetitions, where the normal approximation is poor and where what matters
 * is which p-values the test can reach at all. The exact distributions are
 * counted in uint64_t, which holds C(60, 30) ~ 1.18e17 exactly.
 */
#define RANK_EXACT_MAX 60

/*
 * Two-sided p of the Wilcoxon rank-sum / Mann-Whitney U test of a against b:
 * P(|W - E[W]| >= |w - E[W]|) for the rank sum W of a under random labelling
 * of the pooled values, ties taking their mid-rank.
 * Exact (ties included) up to RANK_EXACT_MAX values; beyond, the normal
 * approximation with tie-corrected variance and continuity correction.
 * All values tied gives 1. Returns NAN, not a number, when there is no test:
 * an empty group, a NaN value, or no memory. NAN compares false with
 * everything, so "p < 0.05" never holds for it; test isnan() to report it.
 */
double mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

/*
 * The smallest two-sided p the exact test of na vs nb values can give
 * (complete separation, no ties): 2 / C(na + nb, na), capped at 1.
 */
double rank_min_p(size_t na, size_t nb);

/*
 * The largest two-sided p-value <= alpha that the exact test of na vs nb
 * untied values can attain, 0 if none (3 vs 3 cannot go below 0.1). The
 * p-values are discrete, so this, not alpha, is the real false-positive rate
 * of rejecting at p <= alpha. alpha itself beyond RANK_EXACT_MAX values,
 * where the steps are negligible; 0 for an empty group, NAN on ENOMEM.
 */
double rank_attainable_alpha(size_t na, size_t nb, double alpha);

/*
 * Two-sided p of Fisher's exact test of the 2x2 table "a_fail of a_n
 * against b_fail of b_n": the probability, under the hypergeometric law of
 * the table's margins, of every table no more likely than the observed one
 * (R's fisher.test, with its relative tolerance of 1e-7 for ties). For
 * outcomes that are not numbers (a repetition that hung, panicked or lost
 * its load), compared as proportions. NAN for an empty side or a count
 * above its total.
 */
double fisher_exact_p(size_t a_fail, size_t a_n, size_t b_fail, size_t b_n);

/* A ratio a/b of typical values with its confidence interval. */
struct ratio_ci {
	bool valid;		/* false: an empty group, a value <= 0 or NaN, conf not in (0, 1) */
	double estimate;	/* exp(median of all log(a_i) - log(b_j)) */
	double lo, hi;		/* the interval for that ratio; 0 / +INFINITY when unbounded */
	/*
	 * The coverage achieved, >= conf when attainable: exact up to
	 * RANK_EXACT_MAX values, the normal approximation beyond. 0 when no
	 * interval narrower than (0, +inf) exists at these sizes.
	 */
	double coverage;
};

/*
 * Hodges-Lehmann estimate of the ratio a/b and its distribution-free
 * confidence interval at level conf (e.g. 0.95), from the log differences
 * D = log(a_i) - log(b_j): the interval inverts the Mann-Whitney test
 * (Hollander & Wolfe; Bauer 1972; R's wilcox.test(conf.int = TRUE)):
 * [D_(k), D_(na*nb + 1 - k)] for the largest k with P(U <= k - 1) <=
 * (1 - conf) / 2 under the untied null distribution of U, exponentiated.
 * Logs, because latencies compare by ratio and the interval then does not
 * depend on units. +INFINITY values are allowed: a hang on both sides
 * counts as a tie (difference 0), a hang on one side as a +-inf difference,
 * so a bound may be 0 or +INFINITY. Returns 0, or -1 when !out->valid
 * (also on ENOMEM).
 */
int hodges_lehmann_ratio(const double *a, size_t na, const double *b, size_t nb, double conf,
			 struct ratio_ci *out);

/* A ratio for people into buf: two decimals (two significant digits below 0.1), "∞" when unbounded. */
const char *ratio_str(char *buf, size_t size, double x);

#endif /* LOCKLAT_STATS_H */
