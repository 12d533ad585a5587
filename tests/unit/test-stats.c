// SPDX-License-Identifier: GPL-2.0
/*
 * test-stats - percentiles, medians and the exact Mann-Whitney U test.
 */
#include <math.h>

#include "stats.h"
#include "tap.h"

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

int main(void)
{
	struct histogram h = { .range_us = 400 };
	double a4[] = { 1, 2, 3, 4 }, b4[] = { 5, 6, 7, 8 };
	double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	double same[] = { 1, 1 }, mixed[] = { 3, 1, 4, 2 }, even[] = { 4, 1, 3, 2 };
	bool over;

	tap_plan(16);
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
	ok(near(mann_whitney_p(a4, 4, b4, 4), 2.0 / 70), "MWU 4 vs 4, separated: p = 2/70");
	ok(near(mann_whitney_p(a3, 3, b3, 3), 0.1), "MWU 3 vs 3, separated: p = 0.1 (cannot reach 0.05)");
	ok(near(mann_whitney_p(same, 2, same, 2), 1.0), "MWU with all values tied: p = 1");
	ok(near(mann_whitney_p(b4, 4, a4, 4), 2.0 / 70), "MWU is two-sided");
	ok(mann_whitney_p(a4, 0, b4, 4) < 0, "MWU refuses an empty group");
	{
		/* A repetition that hung ranks as +inf: the worst, and ties with another hang. */
		const double lo[4] = { 10, 20, 30, 40 }, hung[4] = { 50, 60, 70, INFINITY };
		const double two_hung[4] = { 50, 60, INFINITY, INFINITY }, mixed[4] = { 10, 20, 30, INFINITY };

		ok(near(mann_whitney_p(lo, 4, hung, 4), 2.0 / 70), "MWU: a hung repetition (+inf) ranks above every value");
		ok(mann_whitney_p(mixed, 4, two_hung, 4) > 0.05 && mann_whitney_p(mixed, 4, two_hung, 4) <= 1,
		   "MWU: hangs on both sides tie with each other (p = %.3f)", mann_whitney_p(mixed, 4, two_hung, 4));
	}
	tap_exit();
}
