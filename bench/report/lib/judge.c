// SPDX-License-Identifier: GPL-2.0
/*
 * judge.c - two sets of repetitions set against each other (judge.h).
 */
#include "judge.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool judge_negligible(double lo, double hi)
{
	return lo >= 1 - JUDGE_NEGLIGIBLE && hi <= 1 + JUDGE_NEGLIGIBLE;
}

/*
 * A side's values of one statistic for the tests: the measured ones (below
 * cyclictest's 1 µs resolution counted as 1, as a ratio needs positive
 * values), then +inf for each repetition that failed under load (the guest
 * hung or panicked in the latency pass, or the load died there). A hang is
 * a wake-up that never came, longer than any measured one; a dead load is
 * the build failing its load, which must not pass for a quiet measurement.
 * A rank test needs no more (a right-censored value ranked last; two such
 * tie).
 */
static size_t side_values(const struct judge_side *s, const double *v, double *out)
{
	size_t i, n = 0;

	for (i = 0; i < s->n && n < JUDGE_MAX_VALUES; i++)
		out[n++] = v[i] < 1 ? 1 : v[i];
	for (i = 0; i < s->failed && n < JUDGE_MAX_VALUES; i++)
		out[n++] = INFINITY;
	return n;
}

/* The Hodges-Lehmann interval of a statistic; invalid if a side has no values. */
static void interval_of(struct ratio_ci *ci, const struct judge_side *a, const double *va_src,
			const struct judge_side *b, const double *vb_src)
{
	double va[JUDGE_MAX_VALUES], vb[JUDGE_MAX_VALUES];
	size_t na = side_values(a, va_src, va), nb = side_values(b, vb_src, vb);

	if (!na || !nb || hodges_lehmann_ratio(va, na, vb, nb, 0.95, ci))
		ci->valid = false;
}

/*
 * The verdict reads from the 95% interval of the Hodges-Lehmann ratio
 * (which inverts the rank test) of the typical worst second when both
 * sides have it (every measured repetition with at least JUDGE_MIN_BLOCKS
 * whole seconds after the window), else of the pass maxima: it excludes 1,
 * or it does not and then says whether a 2x change either way is still
 * possible, which is what "no difference" is worth at that sample size.
 * The pass maximum, the worst case, is always reported beside it.
 */
void judge(struct judgement *j, const struct judge_side *a, const struct judge_side *b)
{
	double va[JUDGE_MAX_VALUES], vb[JUDGE_MAX_VALUES], ma, mb;
	size_t na = side_values(a, a->max, va), nb = side_values(b, b->max, vb), len;
	char lo[16], hi[16], est[16];
	const struct ratio_ci *ci;

	memset(j, 0, sizeof(*j));
	ma = median(a->max, a->n);
	mb = median(b->max, b->n);
	j->ratio_medians = a->n && b->n && mb > 0 ? ma / mb : NAN;
	j->p_max = mann_whitney_p(va, na, vb, nb);
	j->na = na;
	j->nb = nb;
	interval_of(&j->ci_max, a, a->max, b, b->max);
	j->by_blocks = a->min_blocks >= JUDGE_MIN_BLOCKS && b->min_blocks >= JUDGE_MIN_BLOCKS;
	if (j->by_blocks)
		interval_of(&j->ci_blocks, a, a->blocks, b, b->blocks);
	j->ci = j->by_blocks ? j->ci_blocks : j->ci_max;
	ci = &j->ci;
	if (!ci->valid) {
		snprintf(j->verdict, sizeof(j->verdict), "no repetitions on one side");
		return;
	}
	ratio_str(lo, sizeof(lo), ci->lo);
	ratio_str(hi, sizeof(hi), ci->hi);
	ratio_str(est, sizeof(est), ci->estimate);
	if (ci->coverage <= 0) {
		snprintf(j->verdict, sizeof(j->verdict),
			 "inconclusive: %zu vs %zu repetitions give no 95%% interval (smallest possible p = %.2f)",
			 na, nb, rank_min_p(na, nb));
	} else if (judge_negligible(ci->lo, ci->hi)) {
		snprintf(j->verdict, sizeof(j->verdict), "the same within ±%.0f%%: %s× [%s–%s]%s",
			 JUDGE_NEGLIGIBLE * 100, est, lo, hi, ci->lo > 1 || ci->hi < 1 ?
			 " (the interval excludes 1: a shift that small is resolved, not a difference)" : "");
	} else if (ci->lo > 1 || ci->hi < 1) {
		snprintf(j->verdict, sizeof(j->verdict), "%s %s: %s× [%s–%s]", a->name,
			 ci->lo > 1 ? "higher" : "lower", est, lo, hi);
	} else {
		snprintf(j->verdict, sizeof(j->verdict), "no difference shown: %s× [%s–%s] includes 1; %s",
			 est, lo, hi, ci->lo >= 0.5 && ci->hi <= 2 ? "a 2× change either way is ruled out" :
			 "a 2× change is not ruled out (too little power to call it absent)");
	}
	len = strlen(j->verdict);
	snprintf(j->verdict + len, sizeof(j->verdict) - len, " (%s)",
		 j->by_blocks ? "typical worst second" : "pass maximum");
	/* The worst case pointing the other way is worth a word. */
	if (j->by_blocks && j->ci_max.valid && j->ci_max.coverage > 0 &&
	    ((ci->lo > 1 && j->ci_max.hi < 1) || (ci->hi < 1 && j->ci_max.lo > 1))) {
		len = strlen(j->verdict);
		snprintf(j->verdict + len, sizeof(j->verdict) - len, "; the pass maxima point the other way");
	}
	if (a->failed || b->failed) {
		len = strlen(j->verdict);
		snprintf(j->verdict + len, sizeof(j->verdict) - len,
			 "; failed under load, ranked as the worst: %zu %s, %zu %s",
			 a->failed, a->name, b->failed, b->name);
	}
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

const char *ratio_phrase(char *buf, size_t size, double ratio, double lo, double hi, double a_us, double b_us)
{
	bool lower = ratio < 1, quantised = a_us > 0 && b_us > 0 && lo > 0 && !isinf(hi);
	double factor = lower ? 1 / ratio : ratio, bound = 0;
	int sig;
	char num[64];
	size_t len;

	buf[0] = '\0';
	if (!(ratio > 0) || isinf(ratio) || isnan(lo) || isnan(hi))
		return buf;
	/* The interval as the 1 µs resolution leaves it: a value read as x µs is x to x + 1. */
	if (quantised) {
		lo = lo * b_us / (b_us + 1);
		hi = hi * (a_us + 1) / a_us;
		bound = lower ? 1 / hi : lo;
	}
	sig = !(lo > 0) || isinf(hi) ? 1 : hi / lo <= 1.01 ? 3 : hi / lo <= 2 ? 2 : 1;
	if (factor < 1.5) {
		double pct = (ratio - 1) * 100;

		/* "−8%": a minus sign, as people write it; a tenth of a percent below 1%, if the interval is within 2×. */
		snprintf(buf, size, "%s%.*f%%", pct < 0 ? "−" : "+", fabs(pct) < 1 && sig > 1 ? 1 : 0, fabs(pct));
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
