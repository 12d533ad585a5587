// SPDX-License-Identifier: GPL-2.0
/*
 * test-stats - percentiles, medians, the Mann-Whitney U test, the
 * Hodges-Lehmann ratio, Fisher's exact test and the judge built on them. The rank statistics are checked against references
 * written here from their definitions (enumeration of every labelling),
 * against a published value and against formulas worked by hand.
 */
#define _POSIX_C_SOURCE 199309L	/* clock_gettime */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "judge.h"
#include "run.h"
#include "stats.h"
#include "tap.h"

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

/* Equal to 1e-12, relative for values above 1, absolute below. */
static int same(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(1, fabs(b));
}

/* CPU time of this thread: a timing test must not fail because the machine is busy. */
static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/*
 * Brute-force reference: every way of choosing which na of the n pooled
 * values are group a. The U of a choice S counts the pairs i in S, j not in S
 * with v_i > v_j as 1 and v_i == v_j as 1/2. Doubled, it is an integer, and
 * it equals the sum over i in S of c2_i, i's doubled wins over all the other
 * pooled values, minus na(na - 1): each pair inside S adds exactly 2 to that
 * sum. So the enumeration adds one term per chosen value, fast enough for
 * the 10.4M choices of 13 vs 13.
 */
#define REF_MAX 26

struct ref {
	size_t n;
	long c2[REF_MAX];
	uint64_t *hist;		/* hist[sum of c2 over S]: number of choices */
};

static void ref_walk(struct ref *r, size_t from, size_t left, long sum)
{
	size_t i;

	if (!left) {
		r->hist[sum]++;
		return;
	}
	for (i = from; i + left <= r->n; i++)
		ref_walk(r, i + 1, left - 1, sum + r->c2[i]);
}

/* hist[2U] = number of choices of na of the n values with that U (free it). */
static uint64_t *ref_u_hist(const double *pool, size_t n, size_t na)
{
	struct ref r = { .n = n };
	size_t i, j;

	for (i = 0; i < n; i++) {
		r.c2[i] = 0;
		for (j = 0; j < n; j++)
			if (j != i)
				r.c2[i] += pool[i] > pool[j] ? 2 : pool[i] == pool[j] ? 1 : 0;
	}
	r.hist = calloc(2 * n * na + 1, sizeof(*r.hist));
	ref_walk(&r, 0, na, 0);
	memmove(r.hist, r.hist + na * (na - 1), (2 * na * (n - na) + 1) * sizeof(*r.hist));
	return r.hist;
}

/* Two-sided p of a vs b by enumeration; *u2 = the observed 2U, counted pair by pair. */
static double ref_p(const double *a, size_t na, const double *b, size_t nb, long *u2)
{
	double pool[REF_MAX];
	uint64_t *hist, extreme = 0, total = 0;
	long mean2 = (long)(na * nb), obs = 0, s;
	size_t i, j;

	memcpy(pool, a, na * sizeof(*a));
	memcpy(pool + na, b, nb * sizeof(*b));
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			obs += a[i] > b[j] ? 2 : a[i] == b[j] ? 1 : 0;
	hist = ref_u_hist(pool, na + nb, na);
	for (s = 0; s <= 2 * mean2; s++) {
		total += hist[s];
		if (labs(s - mean2) >= labs(obs - mean2))
			extreme += hist[s];
	}
	free(hist);
	if (u2)
		*u2 = obs;
	return (double)extreme / (double)total;
}

/* The untied null of na vs nb by enumeration of ranks 1..N (free it). */
static uint64_t *ref_null(size_t na, size_t nb)
{
	double ranks[REF_MAX];
	size_t i;

	for (i = 0; i < na + nb; i++)
		ranks[i] = (double)(i + 1);
	return ref_u_hist(ranks, na + nb, na);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The sorted log differences log(a_i) - log(b_j); two +inf are a tie, 0 (free it). */
static double *log_diffs(const double *a, size_t na, const double *b, size_t nb)
{
	double *d = malloc(na * nb * sizeof(*d));
	size_t i, j;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			d[i * nb + j] = isinf(a[i]) && isinf(b[j]) ? 0 : log(a[i]) - log(b[j]);
	qsort(d, na * nb, sizeof(*d), cmp_double);
	return d;
}

/* Normal approximation p of a U of untied na vs nb, from the textbook formula. */
static double normal_p(double u, size_t na, size_t nb, double tie_sum)
{
	double n = (double)(na + nb), mean = (double)na * (double)nb / 2;
	double var = (double)na * (double)nb / 12 * ((n + 1) - tie_sum / (n * (n - 1)));
	double z = (fabs(u - mean) - 0.5) / sqrt(var);

	return erfc(z / sqrt(2));
}

static void test_histogram(void)
{
	struct histogram h = { .range_us = 400 };
	double mixed[] = { 3, 1, 4, 2 }, even[] = { 4, 1, 3, 2 };
	bool over;

	hist_add(&h, 1, 50);
	hist_add(&h, 2, 49);
	hist_add(&h, 10, 1);
	is_u64(hist_total(&h), 100, "total counts every sample");
	is_u64(hist_percentile(&h, 0.50, &over), 1, "p50");
	is_u64(hist_percentile(&h, 0.99, &over), 2, "p99");
	is_u64(hist_percentile(&h, 0.999, &over), 10, "p99.9 is the top sample");
	ok(!over, "no percentile in overflow");
	hist_free(&h);

	h.range_us = 400;
	hist_add(&h, 1, 10);
	h.overflow = 90;
	is_u64(hist_percentile(&h, 0.5, &over), 400, "a percentile among overflows reports the range");
	ok(over, "and says it is in overflow");
	hist_free(&h);

	ok(near(median(mixed, 3), 3), "median of an odd count");
	ok(near(median(even, 4), 2.5), "median of an even count");
}

/* Small cases, the old tests' intent: separation, two sides, ties, hangs. */
static void test_mwu_small(void)
{
	const double a4[] = { 1, 2, 3, 4 }, b4[] = { 5, 6, 7, 8 };
	const double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 }, tied[] = { 1, 1 };
	/* A repetition that hung ranks as +inf: the worst, and ties with another hang. */
	const double lo[4] = { 10, 20, 30, 40 }, hung[4] = { 50, 60, 70, INFINITY };
	const double two_hung[4] = { 50, 60, INFINITY, INFINITY }, one_hung[4] = { 10, 20, 30, INFINITY };
	double p;

	ok(same(mann_whitney_p(a4, 4, b4, 4), 2.0 / 70), "MWU 4 vs 4, separated: p = 2/70");
	ok(same(mann_whitney_p(a3, 3, b3, 3), 0.1), "MWU 3 vs 3, separated: p = 0.1 (cannot reach 0.05)");
	ok(mann_whitney_p(tied, 2, tied, 2) == 1, "MWU with all values tied: p = 1");
	ok(same(mann_whitney_p(b4, 4, a4, 4), 2.0 / 70), "MWU is two-sided");
	ok(same(mann_whitney_p(lo, 4, hung, 4), 2.0 / 70),
	   "MWU: a hung repetition (+inf) ranks above every value");
	p = mann_whitney_p(one_hung, 4, two_hung, 4);
	ok(same(p, ref_p(one_hung, 4, two_hung, 4, NULL)) && p != 2.0 / 70,
	   "MWU: hangs on both sides tie with each other (p = %.4f)", p);
}

static void test_mwu_reference(void)
{
	const double a4[] = { 3.1, 7.2, 1.5, 9.9 }, b4[] = { 2.2, 8.4, 4.6, 6.0 };
	const double a5[] = { 12, 15, 9, 20, 18 }, b7[] = { 8, 11, 10, 14, 7, 13, 16 };
	const double a6[] = { 1, 2, 2, 3, 5, 5 }, b6[] = { 2, 3, 3, 4, 5, 6 };
	const double a8[] = { 10, 12, 12, 15, 20, 20, INFINITY, 30 };
	const double b8[] = { 9, 12, 14, 15, 15, 20, 25, INFINITY };
	const double a8b[] = { 11, 12, 13, 15, 20, 21, INFINITY, INFINITY };
	/* R's ?wilcox.test: Hollander & Wolfe (1973), p. 69, permeability constants. */
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	double a13[13], b13[13], p, want, t_ref, t_fn;
	long u2;
	size_t i;

	ok(same(mann_whitney_p(a4, 4, b4, 4), ref_p(a4, 4, b4, 4, NULL)), "MWU 4 vs 4 = brute force");
	ok(same(mann_whitney_p(a5, 5, b7, 7), ref_p(a5, 5, b7, 7, NULL)), "MWU 5 vs 7 = brute force");
	ok(same(mann_whitney_p(b7, 7, a5, 5), ref_p(a5, 5, b7, 7, NULL)), "MWU 7 vs 5 = brute force of 5 vs 7");
	ok(same(mann_whitney_p(a6, 6, b6, 6), ref_p(a6, 6, b6, 6, NULL)),
	   "MWU 6 vs 6 with ties = brute force (p = %.6f)", mann_whitney_p(a6, 6, b6, 6));
	ok(same(mann_whitney_p(a8, 8, b8, 8), ref_p(a8, 8, b8, 8, NULL)),
	   "MWU 8 vs 8, ties and a +inf on each side = brute force (p = %.6f)", mann_whitney_p(a8, 8, b8, 8));
	ok(same(mann_whitney_p(a8b, 8, b8, 8), ref_p(a8b, 8, b8, 8, NULL)),
	   "MWU 8 vs 8, three +inf = brute force (p = %.6f)", mann_whitney_p(a8b, 8, b8, 8));

	p = ref_p(x, 10, y, 5, &u2);
	ok(u2 == 70 && fabs(p - 0.2544) < 5e-5,
	   "brute force of R's wilcox.test example: W = 35, p = %.4f (R: 2 * 0.1272)", p);
	ok(same(mann_whitney_p(x, 10, y, 5), p), "MWU of R's wilcox.test example = brute force");

	for (i = 0; i < 13; i++) {
		a13[i] = (double)(i + 1);
		b13[i] = (double)(i + 14);
	}
	want = 2.0 / 10400600;
	ok(same(mann_whitney_p(a13, 13, b13, 13), want) && same(rank_min_p(13, 13), want),
	   "MWU 13 vs 13, separated: p = 2/C(26,13) = rank_min_p");
	/* Interleaved, a ahead by about three places; four values tie across the groups. */
	for (i = 0; i < 13; i++) {
		a13[i] = (double)(2 * i + 6);
		b13[i] = (double)(2 * i + (i % 3 ? 1 : 0));
	}
	t_ref = now_ms();
	want = ref_p(a13, 13, b13, 13, NULL);
	t_ref = now_ms() - t_ref;
	t_fn = now_ms();
	p = mann_whitney_p(a13, 13, b13, 13);
	t_fn = now_ms() - t_fn;
	ok(same(p, want),
	   "MWU 13 vs 13 interleaved with ties = brute force (p = %.6f; %.3f ms, brute force %.0f ms)",
	   p, t_fn, t_ref);
}

static void test_mwu_large(void)
{
	const uint64_t c60_30 = 118264581564861424ull;	/* C(60,30) */
	double a[50], b[50], p, want, t;
	size_t i;

	/* 50 vs 50, normal approximation. b is a + 10.5: a_i > b_j iff i >= j + 11, U = 1 + .. + 39. */
	for (i = 0; i < 50; i++) {
		a[i] = (double)(i + 1);
		b[i] = (double)(i + 1) + 10.5;
	}
	want = erfc((1250 - 780 - 0.5) / sqrt(2500.0 * 101 / 12) / sqrt(2));
	p = mann_whitney_p(a, 50, b, 50);
	ok(fabs(p - want) < 1e-9 * want, "MWU 50 vs 50: normal approximation, z by hand (p = %.6g)", p);
	/* Shifted by 10: 40 cross ties of 2, worth 1/2 each, U = 780 + 20; tie term 40 * (8 - 2). */
	for (i = 0; i < 50; i++)
		b[i] = (double)(i + 11);
	want = erfc((1250 - 800 - 0.5) / sqrt(2500.0 / 12 * (101 - 240.0 / (100 * 99))) / sqrt(2));
	p = mann_whitney_p(a, 50, b, 50);
	ok(fabs(p - want) < 1e-9 * want, "MWU 50 vs 50 with ties: tie-corrected variance (p = %.6g)", p);
	for (i = 0; i < 50; i++)
		a[i] = b[i] = 7;
	ok(mann_whitney_p(a, 31, b, 31) == 1, "MWU 31 vs 31, all tied (variance 0): p = 1");

	/* 25 vs 25, exact: even vs odd values, a_i > b_j iff i >= j + 2, U = 1 + .. + 23 = 276. */
	for (i = 0; i < 25; i++) {
		a[i] = (double)(2 * (i + 1));
		b[i] = (double)(2 * (i + 1) + 3);
	}
	p = mann_whitney_p(a, 25, b, 25);
	want = normal_p(276, 25, 25, 0);
	ok(p > 0.1 && fabs(p - want) < 0.01 && p != want,
	   "MWU 25 vs 25 is exact and near the normal approximation (%.5f vs %.5f)", p, want);

	for (i = 0; i < 30; i++) {
		a[i] = (double)(i + 1);
		b[i] = (double)(i + 31);
	}
	ok(same(mann_whitney_p(a, 30, b, 30), 2 / (double)c60_30), "MWU 30 vs 30, separated: p = 2/C(60,30), exact");
	for (i = 0; i < 30; i++) {
		a[i] = (double)(i % 7 + i);
		b[i] = (double)(i % 5 + i);
	}
	t = now_ms();
	p = mann_whitney_p(a, 30, b, 30);
	t = now_ms() - t;
	ok(t < 50 && p > 0 && p <= 1, "MWU 30 vs 30 with ties takes %.3f ms of CPU (< 50; p = %.4f)", t, p);
}

/* No sentinel a caller could read as significant. */
static void test_mwu_no_test(void)
{
	const double a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7, 8 }, with_nan[] = { 5, NAN, 7, 8 };
	double p;

	p = mann_whitney_p(a, 0, b, 4);
	ok(isnan(p) && !(p < 0.05), "MWU of an empty group a is NAN");
	p = mann_whitney_p(a, 4, b, 0);
	ok(isnan(p) && !(p < 0.05), "MWU of an empty group b is NAN");
	p = mann_whitney_p(a, 4, with_nan, 4);
	ok(isnan(p) && !(p < 0.05), "MWU with a NaN value is NAN");
	p = mann_whitney_p(with_nan, 4, a, 4);
	ok(isnan(p), "MWU with a NaN value in a is NAN");
}

static void test_attainable(void)
{
	uint64_t *null = ref_null(6, 6), total = 0;
	double best = 0, p;
	long s;

	ok(same(rank_min_p(4, 4), 2.0 / 70), "rank_min_p(4, 4) = 2/70");
	ok(rank_min_p(0, 4) == 1, "rank_min_p of an empty group is 1 (capped)");
	ok(same(rank_attainable_alpha(4, 4, 0.05), 2.0 / 70), "4 vs 4 attains 2/70 at alpha 0.05 (next is 4/70)");
	ok(rank_attainable_alpha(3, 3, 0.05) == 0, "3 vs 3 attains nothing at alpha 0.05");
	ok(rank_attainable_alpha(4, 4, 2.0 / 70) == 2.0 / 70, "an alpha equal to an attainable p is attained");
	/* Every two-sided p of the untied 6 vs 6 test, by enumeration: the largest <= 0.05. */
	for (s = 0; s <= 72; s++)
		total += null[s];
	for (s = 0; s <= 72; s++) {
		uint64_t extreme = 0;
		long t;

		if (!null[s])
			continue;
		for (t = 0; t <= 72; t++)
			if (labs(t - 36) >= labs(s - 36))
				extreme += null[t];
		p = (double)extreme / (double)total;
		if (p <= 0.05 && p > best)
			best = p;
	}
	free(null);
	p = rank_attainable_alpha(6, 6, 0.05);
	ok(same(p, best) && best > 0.04, "6 vs 6 attains %.6f at alpha 0.05 = brute force", p);
	ok(rank_attainable_alpha(40, 40, 0.05) == 0.05, "beyond the exact range, alpha itself");
}

static void test_hodges_lehmann(void)
{
	const double b[] = { 10, 20, 30, 40, 50, 60 };
	const double x[] = { 12.1, 15.3, 9.8, 20.4, 18.2, 25.0 }, y[] = { 8.3, 11.7, 10.2, 14.9, 7.6, 13.1 };
	const double hung[] = { 100, 110, 120, 130, 140, INFINITY }, bad[] = { 10, 0, 30, 40, 50, 60 };
	const double b_hung[] = { 10, 20, 30, 40, 50, INFINITY };
	double a[6], big_a[45], big_b[45], *d, cov, sd;
	uint64_t *null, cum = 0, total = 0;
	struct ratio_ci ci;
	size_t i, k;
	int rc;

	for (i = 0; i < 6; i++)
		a[i] = 2 * b[i];
	rc = hodges_lehmann_ratio(a, 6, b, 6, 0.95, &ci);
	ok(rc == 0 && ci.valid && same(ci.estimate, 2), "HL: a = 2b gives ratio %.12f", ci.estimate);

	/* 6 vs 6 at 0.95 by the definition: k from the enumerated null, the sorted differences. */
	null = ref_null(6, 6);
	for (i = 0; i <= 72; i += 2)
		total += null[i];
	for (k = 0; cum + null[2 * k] <= total / 40.0; k++)
		cum += null[2 * k];
	free(null);
	d = log_diffs(x, 6, y, 6);
	rc = hodges_lehmann_ratio(x, 6, y, 6, 0.95, &ci);
	cov = 1 - 2 * (double)cum / (double)total;
	ok(rc == 0 && k > 0 && same(ci.lo, exp(d[k - 1])) && same(ci.hi, exp(d[36 - k])),
	   "HL 6 vs 6 at 0.95: [%.4f, %.4f] = brute force (k = %zu)", ci.lo, ci.hi, k);
	ok(same(ci.estimate, exp((d[17] + d[18]) / 2)) && ci.lo <= ci.estimate && ci.estimate <= ci.hi,
	   "HL 6 vs 6: the estimate %.4f is the median ratio, inside the interval", ci.estimate);
	ok(ci.coverage >= 0.95 && same(ci.coverage, cov), "HL 6 vs 6: coverage %.6f = 1 - 2 P(U <= k - 1)", ci.coverage);
	free(d);
	/* Hangs on both sides: 5 differences -inf, one 0 (the two hangs), 5 +inf. */
	d = log_diffs(hung, 6, b_hung, 6);
	rc = hodges_lehmann_ratio(hung, 6, b_hung, 6, 0.95, &ci);
	ok(rc == 0 && same(ci.lo, exp(d[k - 1])) && same(ci.hi, exp(d[36 - k])) &&
	   same(ci.estimate, exp((d[17] + d[18]) / 2)) && isfinite(ci.hi),
	   "HL: +inf on both sides tie: [%.4f, %.4f], estimate %.4f = brute force", ci.lo, ci.hi, ci.estimate);
	free(d);

	rc = hodges_lehmann_ratio(b, 2, a, 2, 0.95, &ci);
	ok(rc == 0 && ci.valid && ci.lo == 0 && isinf(ci.hi) && ci.coverage == 0 && same(ci.estimate, 0.5),
	   "HL 2 vs 2 at 0.95: no interval, (0, inf)");
	rc = hodges_lehmann_ratio(hung, 6, b, 6, 0.95, &ci);
	ok(rc == 0 && isinf(ci.hi) && ci.hi > 0 && isfinite(ci.lo) && ci.lo > 1,
	   "HL: a +inf in a gives hi = inf, lo = %.3f finite", ci.lo);
	rc = hodges_lehmann_ratio(b, 6, hung, 6, 0.95, &ci);
	ok(rc == 0 && ci.lo == 0 && isfinite(ci.hi) && ci.hi < 1, "HL: a +inf in b gives lo = 0, hi = %.3f", ci.hi);
	ok(hodges_lehmann_ratio(bad, 6, b, 6, 0.95, &ci) == -1 && !ci.valid &&
	   hodges_lehmann_ratio(b, 6, bad, 6, 0.95, &ci) == -1, "HL refuses a value <= 0");
	a[2] = NAN;
	ok(hodges_lehmann_ratio(a, 6, b, 6, 0.95, &ci) == -1 && !ci.valid, "HL refuses NaN");
	ok(hodges_lehmann_ratio(a, 0, b, 6, 0.95, &ci) == -1 && !ci.valid, "HL refuses an empty group");
	ok(hodges_lehmann_ratio(b, 6, b_hung, 6, 1, &ci) == -1 && !ci.valid &&
	   hodges_lehmann_ratio(b, 6, b_hung, 6, 0, &ci) == -1, "HL refuses a level outside (0, 1)");

	/*
	 * 45 vs 45, normal approximation: k by hand with z(0.975) = 1.959964,
	 * k <= mean + 1/2 - 1.959964 sd = 770.12 (769 without the continuity correction).
	 */
	for (i = 0; i < 45; i++) {
		big_b[i] = 10 + (double)(i * i);
		big_a[i] = 1.5 * big_b[i] + (double)i;
	}
	sd = sqrt(2025.0 * 91 / 12);
	k = (size_t)floor(1012.5 + 0.5 - 1.959963984540054 * sd);
	cov = 1 - erfc(-((double)k - 0.5 - 1012.5) / sd / sqrt(2));
	d = log_diffs(big_a, 45, big_b, 45);
	rc = hodges_lehmann_ratio(big_a, 45, big_b, 45, 0.95, &ci);
	ok(rc == 0 && k == 770 && same(ci.lo, exp(d[k - 1])) && same(ci.hi, exp(d[2025 - k])) &&
	   same(ci.coverage, cov) && ci.coverage >= 0.95,
	   "HL 45 vs 45 (normal): k = %zu, coverage %.5f, [%.4f, %.4f] by hand", k, ci.coverage, ci.lo, ci.hi);
	free(d);
}

/* phrase(ratio, lo, hi, a, b) and its expected words. */
static void phrase_is(double r, double lo, double hi, double a, double b, const char *want, const char *what)
{
	char buf[160];

	/* Medians a and b (µs) > 0: the interval as the 1 µs resolution leaves it, at those values. */
	if (a > 0 && b > 0) {
		lo *= b / (b + 1);
		hi *= (a + 1) / a;
	}
	ratio_phrase(buf, sizeof(buf), r, lo, hi, a > 0 && b > 0);
	ok(!strcmp(buf, want), "ratio words, %s: \"%s\" (want \"%s\")", what, buf, want);
}

/*
 * Ratios in words across 10^-5 .. 10^5, the resolution's bound on
 * quantised medians, and the smallest p of the exact rank test against
 * binomial coefficients counted by hand.
 */
static void test_words(void)
{
	double r = 4.0 / 52689;

	phrase_is(r, r, r, 4, 52689, "≈13,000× lower (≥10,500× at 1 µs resolution)",
		  "4 against 52689 µs: 4 may be 4.99, two figures, the bound from 5 µs");
	phrase_is(1.8, 1.7, 1.9, 0, 0, "≈1.8× higher", "1.8 [1.7, 1.9]: two figures");
	phrase_is(1.12, 1.10, 1.14, 0, 0, "+12%", "1.12: a percentage under 1.5×");
	phrase_is(0.92, 0.91, 0.93, 0, 0, "−8%", "0.92: a minus sign");
	phrase_is(1.004, 1.003, 1.005, 0, 0, "+0.4%", "1.004: a tenth of a percent under 1%");
	phrase_is(0.9999, 0.9998, 1.0001, 0, 0, "0.0%", "0.9999: no sign on a change that rounds to nothing");
	phrase_is(1e5, 1e5, 1e5, 0, 0, "100,000× higher", "10^5, exact: three figures, no ≈");
	phrase_is(1e-5, 0.5e-5, 2e-5, 0, 0, "≈100,000× lower", "10^-5 in a 4× interval: one figure");
	phrase_is(1.25, 1.25, 1.25, 5, 4, "+25%", "5 against 4 µs: the resolution leaves no sure change");
	phrase_is(2.5, 2.4, 2.6, 1000, 400, "≈2.5× higher (≥2.39× at 1 µs resolution)",
		  "1000 against 400 µs: the bound from the interval's low end");
	phrase_is(NAN, NAN, NAN, 0, 0, "", "not a number: nothing");
	ok(fabs(rank_min_p(4, 4) - 2.0 / 70) < 1e-15, "smallest p, 4 vs 4: 2 / C(8, 4) = 2/70 (%.4f)",
	   rank_min_p(4, 4));
	ok(fabs(rank_min_p(2, 4) - 2.0 / 15) < 1e-15, "smallest p, 2 vs 4: 2 / C(6, 2) = 2/15");
	ok(fabs(rank_min_p(10, 10) - 2.0 / 184756) < 1e-18, "smallest p, 10 vs 10: 2 / 184756");
	ok(rank_min_p(1, 1) == 1, "smallest p, 1 vs 1: 1 (no test)");
}

/*
 * Fisher's exact test against values computed apart (the hypergeometric
 * tables enumerated with Python's math.comb, and the textbook example of
 * Wikipedia's "Fisher's exact test": 1 of 10 men against 11 of 14 women,
 * two-sided p 0.002759).
 */
static void test_fisher(void)
{
	ok(same(fisher_exact_p(4, 4, 0, 4), 2.0 / 70), "Fisher 4/4 vs 0/4: 2/70 (%.6f)", fisher_exact_p(4, 4, 0, 4));
	ok(same(fisher_exact_p(3, 4, 1, 4), 34.0 / 70), "Fisher 3/4 vs 1/4: 34/70, the tables no likelier than 16/70");
	ok(fabs(fisher_exact_p(1, 10, 11, 14) - 0.002759456185220083) < 1e-12,
	   "Fisher 1/10 vs 11/14: 0.0027595 (%.7f)", fisher_exact_p(1, 10, 11, 14));
	ok(fabs(fisher_exact_p(10, 20, 3, 20) - 0.040742395024931176) < 1e-12,
	   "Fisher 10/20 vs 3/20: 0.0407424 (%.7f)", fisher_exact_p(10, 20, 3, 20));
	ok(fabs(fisher_exact_p(2, 4, 0, 4) - 0.42857142857142855) < 1e-12, "Fisher 2/4 vs 0/4: 3/7");
	ok(fisher_exact_p(4, 4, 4, 4) == 1 && fisher_exact_p(0, 4, 0, 4) == 1, "Fisher, all or none failed on both: 1");
	ok(isnan(fisher_exact_p(0, 0, 1, 4)) && isnan(fisher_exact_p(5, 4, 1, 4)),
	   "Fisher: an empty side or a count above its total is no test (NaN)");
}

/* The judge: failures are outcomes, never ratios; the verdict reads the pass maximum at 1 µs. */
static void test_judge(void)
{
	const double rt[] = { 4, 4, 4, 4 }, base[] = { 52689, 52700, 52650, 52720 }, up[] = { 4, 30, 4, 5 };
	struct judge_side a = { .name = "rt", .max = rt, .n = 4 }, b = { .name = "baseline-rt", .max = base, .n = 4 };
	struct judgement j;

	judge(&j, &a, &b);
	ok(j.ci.valid && same(j.ci.hi, 5.0 / 52650) && same(j.ci.lo, 4.0 / 52721) && strstr(j.verdict, "rt lower") &&
	   strstr(j.verdict, "pass maximum") && isnan(j.p_failed),
	   "judge 4 µs vs ~52,700 µs: lower, the interval as 1 µs leaves it, [4/52721, 5/52650] = [%.8f, %.8f]: %s",
	   j.ci.lo, j.ci.hi, j.verdict);
	b.n = 0;
	b.failed = 4;
	judge(&j, &a, &b);
	ok(!j.ci.valid && isnan(j.ratio_medians) && isnan(j.p_max) && j.fb == 4 && same(j.p_failed, 2.0 / 70) &&
	   strstr(j.verdict, "rt fails less often under load: 0/4 rt vs 4/4 baseline-rt (Fisher p = 0.029)") &&
	   strstr(j.verdict, "no latency ratio") && !strstr(j.verdict, "0.00"),
	   "judge, every baseline-rt repetition failed: a proportion, no ratio: %s", j.verdict);
	a.n = 0;
	a.failed = 4;
	judge(&j, &a, &b);
	ok(!j.ci.valid && j.p_failed == 1 && strstr(j.verdict, "failed under load: 4/4 rt vs 4/4 baseline-rt") &&
	   !strstr(j.verdict, "1.00×"), "judge, all failed on both sides: no 1.00× [1.00–1.00]: %s", j.verdict);
	a = (struct judge_side){ .name = "rt", .max = rt, .n = 4, .startup = up };
	b = (struct judge_side){ .name = "baseline-rt", .max = base, .n = 4, .failed = 1 };
	judge(&j, &a, &b);
	ok(j.nb == 4 && j.fb == 1 && j.ci.valid && strstr(j.verdict, "failed under load: 0/4 rt vs 1/5 baseline-rt") &&
	   strstr(j.verdict, "measured: rt lower") && j.startup_a == 1 && j.startup_max == 30 &&
	   strstr(j.verdict, "start-up maxima above the steady ones: 1 of rt"),
	   "judge, one failure and a start-up maximum of 30 against 4 µs: both said: %s", j.verdict);
}

/* Expectations with and without a bound, both directions (kernels/comparisons). */
static void test_expectations(void)
{
	struct comparison_def lower100 = { .expect = EXPECT_LOWER, .bound = 100 }, lower = { .expect = EXPECT_LOWER },
			      little = { .expect = EXPECT_NOT_HIGHER, .bound = 2 }, same = { .expect = EXPECT_SAME },
			      same2 = { .expect = EXPECT_SAME, .bound = 2 }, higher3 = { .expect = EXPECT_HIGHER, .bound = 3 };
	char buf[96];

	ok(!expectation_contradicted(&lower100, 0.000076, 0.00011) && expectation_contradicted(&lower100, 0.02, 0.05) &&
	   expectation_contradicted(&lower100, 1.2, 1.5),
	   "lower 100x: 13,000x lower holds; 20x lower and higher contradict it");
	ok(expectation_contradicted(&lower, 0.97, 1.02) && !expectation_contradicted(&lower, 0.5, 0.9) &&
	   !expectation_contradicted(&lower, 0.5, 1.5), "lower: within 5%% of 1 contradicts; an open interval does not");
	ok(expectation_contradicted(&little, 0.05, 0.1) && !expectation_contradicted(&little, 0.6, 1.0) &&
	   expectation_contradicted(&little, 1.1, 1.3) && !expectation_contradicted(&little, 0.4, 0.6),
	   "not-higher 2x: 10x lower contradicts a little change, as higher does; reaching 0.5 does not");
	ok(expectation_contradicted(&same, 1.06, 1.1) && !expectation_contradicted(&same, 0.99, 1.01) &&
	   !expectation_contradicted(&same2, 0.6, 1.8) && expectation_contradicted(&same2, 2.1, 3),
	   "same: within 5%% by default, within 2x with the bound");
	ok(expectation_contradicted(&higher3, 1.5, 2.5) && !expectation_contradicted(&higher3, 2.5, 4),
	   "higher 3x: 2x higher contradicts it");
	ok(!strcmp(expectation_text(buf, sizeof(buf), &lower100), "lower, by at least 100×") &&
	   !strcmp(expectation_text(buf, sizeof(buf), &little), "lower or the same, by at most 2×") &&
	   !strcmp(expectation_text(buf, sizeof(buf), &same), "the same, within ±5%") &&
	   !strcmp(expectation_text(buf, sizeof(buf), &same2), "the same, within 2×"),
	   "expectations in words, with their bounds");
}

int main(void)
{
	tap_plan(87);
	test_expectations();
	test_fisher();
	test_judge();
	test_words();
	test_histogram();
	test_mwu_small();
	test_mwu_reference();
	test_mwu_large();
	test_mwu_no_test();
	test_attainable();
	test_hodges_lehmann();
	tap_exit();
}
