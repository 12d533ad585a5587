// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - histogram percentiles, medians and the exact Mann-Whitney U test.
 */
#include "stats.h"

#include <math.h>
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

/* U of group a (indices in mask) against the rest: pairs a>b count 1, ties 1/2. */
static double u_of(const double *pool, size_t n, uint32_t mask)
{
	double u = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (!(mask & (1u << i)))
			continue;
		for (j = 0; j < n; j++) {
			if (mask & (1u << j))
				continue;
			if (pool[i] > pool[j])
				u += 1;
			else if (pool[i] == pool[j])
				u += 0.5;
		}
	}
	return u;
}

double mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	double pool[24], mean, observed, u;
	size_t n = na + nb;
	uint64_t splits = 0, extreme = 0;
	uint32_t mask, all;

	if (!na || !nb || n > 24)
		return -1;
	memcpy(pool, a, na * sizeof(*a));
	memcpy(pool + na, b, nb * sizeof(*b));
	mean = (double)na * (double)nb / 2;
	observed = fabs(u_of(pool, n, (1u << na) - 1) - mean);
	all = (uint32_t)((1ull << n) - 1);
	/* Every subset of size na is one way the labels could have fallen. */
	for (mask = 0; mask <= all; mask++) {
		if ((size_t)__builtin_popcount(mask) != na)
			goto next;
		splits++;
		u = fabs(u_of(pool, n, mask) - mean);
		if (u >= observed - 1e-9)
			extreme++;
next:
		if (mask == all)
			break;
	}
	return (double)extreme / (double)splits;
}
