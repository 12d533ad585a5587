// SPDX-License-Identifier: GPL-2.0
/*
 * judge.c - two sets of repetitions set against each other (judge.h).
 */
#include "judge.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool judge_negligible(double lo, double hi)
{
	return lo >= 1 - JUDGE_NEGLIGIBLE && hi <= 1 + JUDGE_NEGLIGIBLE;
}

/*
 * A side's measured values of one statistic for the tests, below
 * cyclictest's 1 µs resolution counted as 1 (a ratio needs positive
 * values). A repetition that failed under load has no value: it is an
 * outcome, counted apart (a hang is not a long wake-up, and a load that
 * died leaves a quiet measurement that is not one under load).
 */
static size_t side_values(const struct judge_side *s, const double *v, double *out)
{
	size_t i, n = 0;

	for (i = 0; i < s->n && n < JUDGE_MAX_VALUES; i++)
		out[n++] = v[i] < 1 ? 1 : v[i];
	return n;
}

/*
 * The Hodges-Lehmann interval of a statistic, and into *wide the same as
 * the 1 µs resolution leaves it: a value read as x µs is x to x + 1, and an
 * interval's ends are order statistics of the pairs' ratios a_i/b_j, which
 * can only move down to those of a_i/(b_j + 1) and up to those of
 * (a_i + 1)/b_j. Invalid if a side has no values.
 */
static void interval_of(struct ratio_ci *ci, struct ratio_ci *wide, const struct judge_side *a, const double *va_src,
			const struct judge_side *b, const double *vb_src)
{
	double va[JUDGE_MAX_VALUES], vb[JUDGE_MAX_VALUES], up[JUDGE_MAX_VALUES];
	size_t na = side_values(a, va_src, va), nb = side_values(b, vb_src, vb), i;
	struct ratio_ci moved;

	if (!na || !nb || hodges_lehmann_ratio(va, na, vb, nb, 0.95, ci))
		ci->valid = false;
	*wide = *ci;
	if (!ci->valid)
		return;
	for (i = 0; i < nb; i++)
		up[i] = vb[i] + 1;
	if (!hodges_lehmann_ratio(va, na, up, nb, 0.95, &moved))
		wide->lo = moved.lo;
	for (i = 0; i < na; i++)
		up[i] = va[i] + 1;
	if (!hodges_lehmann_ratio(up, na, vb, nb, 0.95, &moved))
		wide->hi = moved.hi;
}

/* How many of a side's measured repetitions have a flagged start-up maximum (JUDGE_STARTUP_*); the largest into *max. */
static size_t startup_flagged(const struct judge_side *s, double *max)
{
	size_t i, n = 0;

	for (i = 0; s->startup && i < s->n; i++) {
		double up = s->startup[i], steady = s->max[i];

		if (!(up >= steady * JUDGE_STARTUP_FACTOR && up - steady >= JUDGE_STARTUP_MIN_US))
			continue;
		n++;
		if (up > *max)
			*max = up;
	}
	return n;
}

/* Append to j->verdict. */
static void verdict_add(struct judgement *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void verdict_add(struct judgement *j, const char *fmt, ...)
{
	size_t len = strlen(j->verdict);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(j->verdict + len, sizeof(j->verdict) - len, fmt, ap);
	va_end(ap);
}

/* The failures, when there are any: as proportions, and which side fails more when Fisher's test says so. */
static void verdict_failures(struct judgement *j, const struct judge_side *a, const struct judge_side *b)
{
	if (!j->fa && !j->fb)
		return;
	if (j->failed_more)
		verdict_add(j, "%s fails %s often under load: ", a->name, j->failed_more > 0 ? "more" : "less");
	else
		verdict_add(j, "failed under load: ");
	verdict_add(j, "%zu/%zu %s vs %zu/%zu %s (Fisher p = %.3f%s); ", j->fa, j->na + j->fa, a->name,
		    j->fb, j->nb + j->fb, b->name, j->p_failed, j->failed_more ? "" : ", no difference shown");
}

/* The latency of the measured repetitions, from the widened interval of the pass maxima. */
static void verdict_latency(struct judgement *j, const struct judge_side *a, const struct judge_side *b)
{
	const struct ratio_ci *ci = &j->ci;
	char lo[16], hi[16], est[16];

	if (!ci->valid) {
		if (!j->na && !j->nb)
			verdict_add(j, "no latency ratio: neither has a measured repetition");
		else if (!j->na || !j->nb)
			verdict_add(j, "no latency ratio: %s has no measured repetition", !j->na ? a->name : b->name);
		else
			verdict_add(j, "no latency ratio");
		return;
	}
	ratio_str(lo, sizeof(lo), ci->lo);
	ratio_str(hi, sizeof(hi), ci->hi);
	ratio_str(est, sizeof(est), ci->estimate);
	if (j->fa || j->fb)
		verdict_add(j, "measured: ");
	if (ci->coverage <= 0)
		verdict_add(j, "inconclusive: %zu vs %zu repetitions give no 95%% interval (smallest possible p = %.2f)",
			    j->na, j->nb, rank_min_p(j->na, j->nb));
	else if (judge_negligible(ci->lo, ci->hi))
		verdict_add(j, "the same within ±%.0f%%: %s× [%s–%s]%s", JUDGE_NEGLIGIBLE * 100, est, lo, hi,
			    ci->lo > 1 || ci->hi < 1 ? " (the interval excludes 1: a shift that small is resolved, "
			    "not a difference)" : "");
	else if (ci->lo > 1 || ci->hi < 1)
		verdict_add(j, "%s %s: %s× [%s–%s]", a->name, ci->lo > 1 ? "higher" : "lower", est, lo, hi);
	else
		verdict_add(j, "no difference shown: %s× [%s–%s] includes 1; %s", est, lo, hi,
			    ci->lo >= 0.5 && ci->hi <= 2 ? "a 2× change either way is ruled out" :
			    "a 2× change is not ruled out (too little power to call it absent)");
	verdict_add(j, " (pass maximum, 1 µs resolution)");
}

/* The typical worst second beside the maximum, when it points the other way; flagged start-up maxima. */
static void verdict_beside(struct judgement *j, const struct ratio_ci *blocks, const struct judge_side *a,
			   const struct judge_side *b)
{
	const struct ratio_ci *ci = &j->ci;
	char digits[32], up[48];

	if (ci->valid && ci->coverage > 0 && blocks->valid && blocks->coverage > 0 &&
	    ((ci->lo > 1 && blocks->hi < 1) || (ci->hi < 1 && blocks->lo > 1)))
		verdict_add(j, "; the typical worst second points the other way");
	if (!j->startup_a && !j->startup_b)
		return;
	snprintf(digits, sizeof(digits), "%.0f", j->startup_max);
	verdict_add(j, "; start-up maxima above the steady ones: %zu of %s, %zu of %s (up to %s µs, inside the "
		    "start-up window)", j->startup_a, a->name, j->startup_b, b->name,
		    number_grouped(up, sizeof(up), digits));
}

/*
 * Failures first, as proportions (Fisher's exact test); then the measured
 * repetitions' pass maxima, the mission's max latency, by the 95% interval
 * of the Hodges-Lehmann ratio (which inverts the rank test) widened by the
 * 1 µs resolution: it excludes 1, or it does not and then says whether a 2x
 * change either way is still possible, which is what "no difference" is
 * worth at that sample size. The typical worst second (median of the
 * per-second maxima) is the robust view beside it, and start-up maxima
 * the workload set are flagged, never dropped silently.
 */
void judge(struct judgement *j, const struct judge_side *a, const struct judge_side *b)
{
	double va[JUDGE_MAX_VALUES], vb[JUDGE_MAX_VALUES], mb;
	struct ratio_ci blocks_raw;

	memset(j, 0, sizeof(*j));
	j->na = side_values(a, a->max, va);
	j->nb = side_values(b, b->max, vb);
	j->fa = a->failed;
	j->fb = b->failed;
	mb = median(b->max, b->n);
	j->ratio_medians = j->na && j->nb && mb > 0 ? median(a->max, a->n) / mb : NAN;
	j->p_max = j->na && j->nb ? mann_whitney_p(va, j->na, vb, j->nb) : NAN;
	j->p_failed = j->fa || j->fb ? fisher_exact_p(j->fa, j->na + j->fa, j->fb, j->nb + j->fb) : NAN;
	if (j->p_failed < 0.05)
		j->failed_more = j->fa * (j->nb + j->fb) > j->fb * (j->na + j->fa) ? 1 : -1;
	interval_of(&j->ci_max, &j->ci, a, a->max, b, b->max);
	j->has_blocks = a->min_blocks >= JUDGE_MIN_BLOCKS && b->min_blocks >= JUDGE_MIN_BLOCKS;
	if (j->has_blocks)
		interval_of(&blocks_raw, &j->ci_blocks, a, a->blocks, b, b->blocks);
	j->startup_a = startup_flagged(a, &j->startup_max);
	j->startup_b = startup_flagged(b, &j->startup_max);
	verdict_failures(j, a, b);
	verdict_latency(j, a, b);
	verdict_beside(j, &j->ci_blocks, a, b);
}

const char *number_grouped(char *buf, size_t size, const char *number)
{
	const char *d = strchr(number, '.'), *p = number;
	size_t len, i, o = 0;

	if (*p == '-' && o + 1 < size)
		buf[o++] = *p++;
	len = d ? (size_t)(d - p) : strlen(p);
	for (i = 0; i < len && o + 2 < size; i++) {
		buf[o++] = p[i];
		if ((len - i - 1) % 3 == 0 && i + 1 < len)
			buf[o++] = ',';
	}
	snprintf(buf + o, size - o, "%s", d ? d : "");
	return buf;
}

/* x rounded to sig significant figures, with thousands separated by commas, into buf. */
static const char *figures(char *buf, size_t size, double x, int sig, bool down)
{
	double scale = pow(10, floor(log10(x)) + 1 - sig), r = (down ? floor(x / scale) : round(x / scale)) * scale;
	char digits[64];
	int decimals = scale < 1 ? (int)ceil(-log10(scale) - 1e-9) : 0;

	snprintf(digits, sizeof(digits), "%.*f", decimals, r);
	return number_grouped(buf, size, digits);
}

const char *ratio_phrase(char *buf, size_t size, double ratio, double lo, double hi, bool at_resolution)
{
	bool lower = ratio < 1, quantised = at_resolution && lo > 0 && !isinf(hi);
	double factor = lower ? 1 / ratio : ratio, bound = 0;
	int sig;
	char num[64];
	size_t len;

	buf[0] = '\0';
	if (!(ratio > 0) || isinf(ratio) || isnan(lo) || isnan(hi))
		return buf;
	/* The interval as the 1 µs resolution leaves it: a value read as x µs is x to x + 1. */
	if (quantised)
		bound = lower ? 1 / hi : lo;
	sig = !(lo > 0) || isinf(hi) ? 1 : hi / lo <= 1.01 ? 3 : hi / lo <= 2 ? 2 : 1;
	if (factor < 1.5) {
		double pct = (ratio - 1) * 100;

		/* "−8%": a minus sign, as people write it; a tenth of a percent below 1%, if the interval is within 2×. */
		int decimals = fabs(pct) < 1 && sig > 1 ? 1 : 0;
		char digits[32];

		snprintf(digits, sizeof(digits), "%.*f", decimals, fabs(pct));
		/* No sign on a change that rounds to nothing. */
		snprintf(buf, size, "%s%s%%", strspn(digits, "0.") == strlen(digits) ? "" : pct < 0 ? "−" : "+", digits);
	} else {
		snprintf(buf, size, "%s%s× %s", sig < 3 ? "≈" : "", figures(num, sizeof(num), factor, sig, false),
			 lower ? "lower" : "higher");
	}
	/* The least change the data shows at that resolution, when it shows one. */
	if (!quantised || !(bound > 1) || lower != (ratio < 1))
		return buf;
	len = strlen(buf);
	if (bound < 1.5)
		snprintf(buf + len, size - len, " (at least %.0f%% %s at 1 µs resolution)",
			 floor(lower ? (1 - 1 / bound) * 100 : (bound - 1) * 100), lower ? "lower" : "higher");
	else
		snprintf(buf + len, size - len, " (≥%s× at 1 µs resolution)", figures(num, sizeof(num), bound, 3, true));
	return buf;
}
