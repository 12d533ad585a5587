/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the statistics of a locklat summary: percentiles of a latency
 * histogram, medians, and the Mann-Whitney U test between two small sets of
 * per-repetition values.
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
 * Mann-Whitney U test, two-sided, exact: the p-value is the share of all
 * ways to split the pooled values into groups of sizes na and nb whose U is
 * at least as far from its mean as the observed one (ties count one half).
 * Returns -1 when a group is empty or the enumeration would be too large
 * (na + nb > 24).
 */
double mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

#endif /* LOCKLAT_STATS_H */
