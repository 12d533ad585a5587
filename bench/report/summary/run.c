// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - lookups into a struct run (run.h), shared by every stage.
 */
#include <stdio.h>
#include <string.h>

#include "judge.h"
#include "locklat.h"
#include "run.h"

/* Each expectation: its name in kernels/comparisons (and summary.json), and in words. */
static const struct {
	const char *name, *words;
} expectations[] = {
	[EXPECT_OPEN] = { "open", "open (exploratory)" },
	[EXPECT_SAME] = { "same", "the same" },
	[EXPECT_LOWER] = { "lower", "lower" },
	[EXPECT_HIGHER] = { "higher", "higher" },
	[EXPECT_NOT_HIGHER] = { "not-higher", "lower or the same" },
	[EXPECT_NOT_LOWER] = { "not-lower", "higher or the same" },
};

const char *expectation_name(enum expectation e)
{
	return expectations[e].name;
}

int expectation_parse(const char *name)
{
	size_t e;

	for (e = 0; e < ARRAY_SIZE(expectations); e++)
		if (!strcmp(name, expectations[e].name))
			return (int)e;
	return -1;
}

const char *expectation_words(enum expectation e)
{
	return expectations[e].words;
}

const char *expectation_text(char *buf, size_t size, const struct comparison_def *d)
{
	const char *words = expectation_words(d->expect);

	if (!(d->bound > 1))
		snprintf(buf, size, "%s", d->expect == EXPECT_SAME ? "the same, within ±5%" : words);
	else if (d->expect == EXPECT_LOWER || d->expect == EXPECT_HIGHER)
		snprintf(buf, size, "%s, by at least %g×", words, d->bound);
	else
		snprintf(buf, size, "%s, %s %g×", words, d->expect == EXPECT_SAME ? "within" : "by at most", d->bound);
	return buf;
}

bool expectation_contradicted(const struct comparison_def *d, double lo, double hi)
{
	double n = d->bound > 1 ? d->bound : 0, up = 1 + JUDGE_NEGLIGIBLE, down = 1 - JUDGE_NEGLIGIBLE;

	switch (d->expect) {
	case EXPECT_SAME: return n ? lo > n || hi < 1 / n : lo > up || hi < down;
	case EXPECT_LOWER: return n ? lo > 1 / n : lo > 1 || judge_negligible(lo, hi);
	case EXPECT_HIGHER: return n ? hi < n : hi < 1 || judge_negligible(lo, hi);
	case EXPECT_NOT_HIGHER: return lo > up || (n && hi < 1 / n);
	case EXPECT_NOT_LOWER: return hi < down || (n && lo > n);
	default: return false;
	}
}

/* The line for A vs B on workload: its own, else the "*" one; NULL if none. */
const struct comparison_def *comparison_def_find(const struct run *run, const char *a, const char *b,
						 const char *workload)
{
	const struct comparison_def *any = NULL;
	size_t i;

	for (i = 0; i < run->ndefs; i++) {
		const struct comparison_def *d = &run->defs[i];

		if (strcmp(d->a, a) || strcmp(d->b, b))
			continue;
		if (!strcmp(d->workload, workload))
			return d;
		if (!strcmp(d->workload, "*") && !any)
			any = d;
	}
	return any;
}

const char *scenario_expectation(const struct run *run, const char *scenario)
{
	size_t i;

	for (i = 0; i < run->nscenarios; i++)
		if (!strcmp(run->scenarios[i].name, scenario))
			return run->scenarios[i].expectation;
	return "";
}

const struct comparison *comparison_of(const struct run *run, const char *a, const char *b, const char *workload)
{
	size_t i;

	for (i = 0; i < run->ncmps; i++)
		if (!strcmp(run->cmps[i].a->variant, a) && !strcmp(run->cmps[i].b->variant, b) &&
		    !strcmp(run->cmps[i].workload, workload))
			return &run->cmps[i];
	return NULL;
}

bool list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	const char *p = list;

	for (;;) {
		if (!strncmp(p, item, n) && (p[n] == '\0' || p[n] == ','))
			return true;
		p = strstr(p, ", ");
		if (!p)
			return false;
		p += 2;
	}
}
