// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - histogram percentiles, medians, the Mann-Whitney U test and the
 * Hodges-Lehmann ratio, Fisher's exact test.
 */
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hist_add(struct histogram *h, uint64_t value_us, uint64_t n)
{
	if (value_us >= h->buckets) {
		size_t want = h->buckets ? h->buckets : 1024;
		uint64_t *grown;

		while (want <= value_us)
			want *= 2;
		grown = realloc(h->count, want * sizeof(*grown));
		if (!grown)
			return -1;
		memset(grown + h->buckets, 0, (want - h->buckets) * sizeof(*grown));
		h->count = grown;
		h->buckets = want;
	}
	h->count[value_us] += n;
	return 0;
}

uint64_t hist_total(const struct histogram *h)
{
	uint64_t total = h->overflow;
	size_t i;

	for (i = 0; i < h->buckets; i++)
		total += h->count[i];
	return total;
}

uint64_t hist_percentile(const struct histogram *h, double p, bool *in_overflow)
{
	uint64_t total = hist_total(h), rank, seen = 0;
	size_t i;

	*in_overflow = false;
	if (!total)
		return 0;
	rank = (uint64_t)ceil(p * (double)total);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < h->buckets; i++) {
		seen += h->count[i];
		if (seen >= rank)
			return i;
	}
	*in_overflow = true;
	return h->range_us;
}

void hist_free(struct histogram *h)
{
	free(h->count);
	memset(h, 0, sizeof(*h));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double min_of(const double *v, size_t n)
{
	double m = n ? v[0] : 0;
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double max_of(const double *v, size_t n)
{
	double m = n ? v[0] : 0;
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

/*
 * The exact distribution of U for a group of m of the n pooled items, whose
 * doubled ranks are rank2[]: counts[t] = the number of ways to choose the m
 * items with 2U = t, t = 0 .. 2m(n - m) (their doubled rank sum is then
 * t + m(m + 1)). For m <= n / 2; NULL on ENOMEM.
 *
 * The subset-sum recurrence ways[k][s] += ways[k - 1][s - r] over the doubled
 * rank sums s, item by item, k counted down so that each item is taken at
 * most once: about n * m * nm steps instead of C(n, m) subsets. Row k spans
 * only the sums k items can have, k(k + 1) .. k(2n - k + 1) (mid-ranks do not
 * widen it): the table stays small, and its page faults cost more than the
 * arithmetic. No count exceeds C(n, m), so for n <= RANK_EXACT_MAX they are
 * exact in uint64_t (C(60, 30) < 2^57), where a long double would be exact
 * only on ABIs that give it a 64-bit mantissa.
 */
static uint64_t *u2_counts(const unsigned *rank2, size_t n, size_t m)
{
	size_t start[RANK_EXACT_MAX / 2 + 2], i, k, s;
	uint64_t *ways;

	start[0] = 0;
	for (k = 0; k <= m; k++)
		start[k + 1] = start[k] + 2 * k * (n - k) + 1;
	ways = calloc(start[m + 1], sizeof(*ways));
	if (!ways)
		return NULL;
	ways[0] = 1;
	for (i = 0; i < n; i++) {
		for (k = i + 1 < m ? i + 1 : m; k >= 1; k--) {
			size_t lo = k * (k + 1), hi = k * (2 * n - k + 1);
			size_t prev_lo = (k - 1) * k, prev_hi = (k - 1) * (2 * n - k + 2);
			/* s in row k, s - rank2[i] in row k - 1. */
			size_t from = lo > prev_lo + rank2[i] ? lo : prev_lo + rank2[i];
			size_t to = hi < prev_hi + rank2[i] ? hi : prev_hi + rank2[i];

			for (s = from; s <= to; s++)
				ways[start[k] + s - lo] += ways[start[k - 1] + s - rank2[i] - prev_lo];
		}
	}
	memmove(ways, ways + start[m], (start[m + 1] - start[m]) * sizeof(*ways));
	return ways;
}

/*
 * The null distribution of U for na vs nb untied values, as cum[u] = the
 * number of labellings with U <= u, u = 0 .. na*nb (so cum[na*nb] is all of
 * them); NULL on ENOMEM. For na + nb <= RANK_EXACT_MAX only.
 */
static uint64_t *u_cumulative(size_t na, size_t nb)
{
	size_t n = na + nb, m = na < nb ? na : nb, u;
	unsigned rank2[RANK_EXACT_MAX];
	uint64_t *counts;

	for (u = 0; u < n; u++)
		rank2[u] = (unsigned)(2 * (u + 1));
	counts = u2_counts(rank2, n, m);
	if (!counts)
		return NULL;
	/*
	 * Untied, U is an integer: only even 2U occur. In place, as entry u
	 * reads entry 2u, not yet overwritten.
	 */
	for (u = 0; u <= na * nb; u++)
		counts[u] = counts[2 * u] + (u ? counts[u - 1] : 0);
	return counts;
}

/*
 * The two-sided exact p of an untied U = u, given cum labellings with U <= u
 * out of total: below the mean nn/2 the tail at or above nn - u is as large
 * and disjoint; from the mean on, the two tails cover everything.
 */
static double two_sided(uint64_t cum, uint64_t total)
{
	return 2 * cum >= total ? 1 : (double)(2 * cum) / (double)total;
}

struct pooled {
	double v;
	bool in_a;
};

static int cmp_pooled(const void *a, const void *b)
{
	return cmp_double(&((const struct pooled *)a)->v, &((const struct pooled *)b)->v);
}

static bool any_nan(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (isnan(v[i]))
			return true;
	return false;
}

double mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb, i, j, t;
	unsigned rank2[RANK_EXACT_MAX];
	uint64_t w2 = 0, u2, nn = (uint64_t)na * nb, dev, extreme = 0, total = 0, *counts;
	double ties = 0, var, z;
	struct pooled *pool;

	if (!na || !nb || any_nan(a, na) || any_nan(b, nb))
		return NAN;
	pool = malloc(n * sizeof(*pool));
	if (!pool)
		return NAN;
	for (i = 0; i < n; i++)
		pool[i] = i < na ? (struct pooled){ a[i], true } : (struct pooled){ b[i - na], false };
	/* +inf sorts last, and +inf == +inf: hangs tie with each other. */
	qsort(pool, n, sizeof(*pool), cmp_pooled);
	if (pool[0].v == pool[n - 1].v) {
		free(pool);
		return 1;
	}
	/*
	 * Doubled mid-ranks: a run of ties at 1-based positions i+1 .. j gets
	 * i + 1 + j, an integer, so that U and its distance from the mean are
	 * integers when doubled and compare exactly, with no tolerance.
	 */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && pool[j].v == pool[i].v; j++)
			;
		for (t = i; t < j; t++) {
			if (n <= RANK_EXACT_MAX)
				rank2[t] = (unsigned)(i + 1 + j);
			if (pool[t].in_a)
				w2 += i + 1 + j;
		}
		ties += (double)(j - i) * (double)(j - i) * (double)(j - i) - (double)(j - i);
	}
	free(pool);
	/* 2U of a, and its distance from the mean, na * nb. */
	u2 = w2 - (uint64_t)na * (na + 1);
	dev = u2 > nn ? u2 - nn : nn - u2;

	if (n > RANK_EXACT_MAX) {
		var = (double)nn / 12 * ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
		z = fmax(0, (double)dev / 2 - 0.5) / sqrt(var);
		return fmin(1, erfc(z / sqrt(2)));
	}

	/* Count over the smaller group: its U is nn - U of a, as far from the mean. */
	counts = u2_counts(rank2, n, na < nb ? na : nb);
	if (!counts)
		return NAN;
	for (t = 0; t <= 2 * nn; t++) {
		total += counts[t];
		if (t + dev <= nn || t >= nn + dev)
			extreme += counts[t];
	}
	free(counts);
	return (double)extreme / (double)total;
}

double rank_min_p(size_t na, size_t nb)
{
	double splits = 1;
	size_t i;

	/* C(na + nb, na), built as C(nb + i, i) for i = 1 .. na. */
	for (i = 1; i <= na; i++)
		splits = splits * (double)(nb + i) / (double)i;
	return fmin(1, 2 / splits);
}

double rank_attainable_alpha(size_t na, size_t nb, double alpha)
{
	double best = 0, p;
	uint64_t *cum;
	size_t u;

	if (!na || !nb)
		return 0;
	if (na + nb > RANK_EXACT_MAX)
		return alpha;
	cum = u_cumulative(na, nb);
	if (!cum)
		return NAN;
	/* The untied p-values, smallest first: 2 P(U <= u) for u = 0, 1, ... */
	for (u = 0; u <= na * nb; u++) {
		p = two_sided(cum[u], cum[na * nb]);
		if (p > alpha)
			break;
		best = p;
	}
	free(cum);
	return best;
}

/* Standard normal distribution function. */
static double phi(double x)
{
	return erfc(-x / sqrt(2)) / 2;
}

/*
 * The largest k >= 1 with P(U <= k - 1) <= tail under the untied null of
 * na vs nb, and that probability in *below; 0 if there is none, -1 on
 * ENOMEM. The slack of 1e-9 lets a level that rounds down (1 - 0.9 is
 * 0.09999999999999998) still admit an attained tail of exactly its half.
 */
static long ci_rank(size_t na, size_t nb, double tail, double *below)
{
	size_t nn = na * nb, lo, hi, mid;
	double mean = (double)nn / 2, sd;
	uint64_t *cum;
	long k = 0;

	tail *= 1 + 1e-9;
	if (na + nb <= RANK_EXACT_MAX) {
		cum = u_cumulative(na, nb);
		if (!cum)
			return -1;
		while ((size_t)k <= nn && (double)cum[k] <= tail * (double)cum[nn])
			k++;
		if (k)
			*below = (double)cum[k - 1] / (double)cum[nn];
		free(cum);
		return k;
	}
	/*
	 * Normal approximation with continuity correction,
	 * P(U <= k - 1) ~ Phi((k - 1/2 - mean) / sd), increasing in k. Bisect,
	 * keeping lo a k that qualifies (0: none yet) and hi one that does not:
	 * above the mean, where the probability exceeds 1/2 > tail.
	 */
	sd = sqrt((double)nn * (double)(na + nb + 1) / 12);
	lo = 0;
	hi = nn / 2 + 2;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (phi(((double)mid - 0.5 - mean) / sd) <= tail)
			lo = mid;
		else
			hi = mid;
	}
	if (lo)
		*below = phi(((double)lo - 0.5 - mean) / sd);
	return (long)lo;
}

static bool all_positive(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(v[i] > 0))
			return false;
	return true;
}

int hodges_lehmann_ratio(const double *a, size_t na, const double *b, size_t nb, double conf,
			 struct ratio_ci *out)
{
	size_t nn = na * nb, i, j;
	double *d, below = 0;
	long k;

	memset(out, 0, sizeof(*out));
	if (!na || !nb || !all_positive(a, na) || !all_positive(b, nb) || !(conf > 0 && conf < 1))
		return -1;
	d = malloc(nn * sizeof(*d));
	if (!d)
		return -1;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++) {
			double x = log(a[i]), y = log(b[j]);

			/* Equal values, two hangs included, differ by 0 (inf - inf is NaN). */
			d[i * nb + j] = x == y ? 0 : x - y;
		}
	qsort(d, nn, sizeof(*d), cmp_double);
	k = ci_rank(na, nb, (1 - conf) / 2, &below);
	if (k < 0) {
		free(d);
		return -1;
	}
	/* -inf and +inf cannot be the middle pair: no NaN, estimate may be 0 or inf. */
	out->estimate = exp(nn % 2 ? d[nn / 2] : (d[nn / 2 - 1] + d[nn / 2]) / 2);
	if (k) {
		out->lo = exp(d[k - 1]);
		out->hi = exp(d[nn - (size_t)k]);
		out->coverage = 1 - 2 * below;
	} else {
		out->lo = 0;
		out->hi = INFINITY;
	}
	out->valid = true;
	free(d);
	return 0;
}

/* "x", or "∞" for an unbounded end, into buf. */
const char *ratio_str(char *buf, size_t size, double x)
{
	int decimals = 2;

	if (isinf(x)) {
		snprintf(buf, size, "∞");
		return buf;
	}
	/* Two significant digits below 0.1 (rt against a 52 ms section is ~1e-4), no exponent. */
	if (x > 0 && x < 0.1)
		decimals = (int)ceil(-log10(x)) + 1;
	snprintf(buf, size, "%.*f", decimals > 12 ? 12 : decimals, x);
	return buf;
}

/* log C(n, k) */
static double log_choose(size_t n, size_t k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

double fisher_exact_p(size_t a_fail, size_t a_n, size_t b_fail, size_t b_n)
{
	size_t f = a_fail + b_fail, n = a_n + b_n, x, lo, hi;
	double lp_obs, p = 0;

	if (!a_n || !b_n || a_fail > a_n || b_fail > b_n)
		return NAN;
	/* X, the failures in a, is hypergeometric: f of n drawn, a_n of them a's. */
	lo = f > b_n ? f - b_n : 0;
	hi = f < a_n ? f : a_n;
	lp_obs = log_choose(f, a_fail) + log_choose(n - f, a_n - a_fail) - log_choose(n, a_n);
	for (x = lo; x <= hi; x++) {
		double lp = log_choose(f, x) + log_choose(n - f, a_n - x) - log_choose(n, a_n);

		if (lp <= lp_obs + 1e-7)
			p += exp(lp);
	}
	return p < 1 ? p : 1;
}
