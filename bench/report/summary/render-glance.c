// SPDX-License-Identifier: GPL-2.0
/*
 * render-glance.c - the short form of a run: per workload, a line per
 * comparison, "A max | B max | change | verdict | culprit", no line over
 * GLANCE_WIDTH columns, so that it reads in a terminal and a mail. It opens
 * summary.md (after the answer) and is summary.txt, which ./run-matrix.sh
 * prints when it ends. The detail stays in summary.md's tables.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge.h"
#include "render.h"
#include "run.h"

#define GLANCE_WIDTH 100
#define GLANCE_COLS 6

static const char *const glance_heads[GLANCE_COLS] = {
	"comparison", "A max µs", "B max µs", "change", "verdict", "culprit",
};

/* Columns a UTF-8 string takes: a character is a column. */
static size_t columns(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* s cut to at most max columns, "…" marking the cut (UTF-8 safe). */
static void cut_to(char *s, size_t max)
{
	size_t n = 0;
	char *p;

	if (columns(s) <= max || max < 1)
		return;
	for (p = s; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && n++ == max - 1)
			break;
	}
	strcpy(p, "…");
}

/* A side's median pass maximum in µs, its thousands separated; "–" without one. */
static void side_max(char *buf, size_t size, const struct group *g)
{
	char digits[32];

	if (!g->n) {
		snprintf(buf, size, "–");
		return;
	}
	snprintf(digits, sizeof(digits), "%.0f", median(g->max, g->n));
	number_grouped(buf, size, digits);
}

void verdict_word(char *buf, size_t size, const struct comparison *c)
{
	const struct ratio_ci *ci = &c->ci;
	const char *w;

	if (c->failed_more)
		w = c->failed_more > 0 ? "fails more" : "fails less";
	else if (!ci->valid)
		w = "no ratio";
	else if (ci->coverage <= 0)
		w = "inconclusive";
	else if (judge_negligible(ci->lo, ci->hi))
		w = "same";
	else if (ci->lo > 1)
		w = "higher";
	else if (ci->hi < 1)
		w = "lower";
	else
		w = "none shown";
	snprintf(buf, size, "%s%s", w, c->contradicts ? " ✗" : "");
}

/*
 * What the traced cell of the side with the larger maximum named: the call
 * site its worst wake-up (timerlat), else its worst preemption-off section,
 * opened or closed in; "–" when neither did, or the trace was flagged.
 */
static const char *culprit(const struct comparison *c)
{
	const struct group *g = c->a->n && c->b->n && median(c->a->max, c->a->n) > median(c->b->max, c->b->n) ? c->a :
				c->b->n ? c->b : c->a;

	if (g->wakeup_cell && !g->wakeup_flagged && g->wakeup_cell->wakeup.blame.kind == BLAME_SITE)
		return g->wakeup_cell->wakeup.blame.call_site;
	if (g->preemptoff_cell && !g->preemptoff_flagged && g->preemptoff_cell->preemptoff.blame.kind == BLAME_SITE)
		return g->preemptoff_cell->preemptoff.blame.call_site;
	return "–";
}

/* Comparison c as a row's cells. */
static void glance_row(char cell[GLANCE_COLS][128], const struct comparison *c)
{
	snprintf(cell[0], 128, "%s vs %s", c->a->variant, c->b->variant);
	side_max(cell[1], 128, c->a);
	side_max(cell[2], 128, c->b);
	cell[3][0] = '\0';
	if (c->ci.valid && c->ci.coverage > 0)
		ratio_phrase(cell[3], 128, c->ci.estimate, c->ci.lo, c->ci.hi, false);
	if (!cell[3][0] && (c->fa || c->fb))
		snprintf(cell[3], 128, "%zu/%zu vs %zu/%zu failed", c->fa, c->na + c->fa, c->fb, c->nb + c->fb);
	if (!cell[3][0])
		snprintf(cell[3], 128, "–");
	verdict_word(cell[4], 128, c);
	snprintf(cell[5], 128, "%s", culprit(c));
}

/* One workload's rows, as a Markdown table (markdown) or aligned text; none without a comparison. */
static void glance_workload(FILE *f, const struct run *run, const char *workload, bool markdown)
{
	char cell[GLANCE_COLS][128];
	size_t width[GLANCE_COLS], i, k, n = 0, total;

	for (k = 0; k < GLANCE_COLS; k++)
		width[k] = columns(glance_heads[k]);
	for (i = 0; i < run->ncmps; i++) {
		if (strcmp(run->cmps[i].workload, workload))
			continue;
		glance_row(cell, &run->cmps[i]);
		for (k = 0; k < GLANCE_COLS; k++)
			if (columns(cell[k]) > width[k])
				width[k] = columns(cell[k]);
		n++;
	}
	if (!n)
		return;
	/* The culprit gives way to the width: Markdown's "| " and " |" per column, text's two spaces. */
	for (k = 0, total = 0; k + 1 < GLANCE_COLS; k++)
		total += width[k] + (markdown ? 3 : 2);
	total += markdown ? 4 : 0;
	if (total + width[GLANCE_COLS - 1] > GLANCE_WIDTH)
		width[GLANCE_COLS - 1] = GLANCE_WIDTH > total + 8 ? GLANCE_WIDTH - total : 8;
	fprintf(f, markdown ? "**%s**\n\n" : "%s\n", workload);
	/* The head, then the rows. */
	for (i = 0; i < run->ncmps + 1; i++) {
		if (i) {
			if (strcmp(run->cmps[i - 1].workload, workload))
				continue;
			glance_row(cell, &run->cmps[i - 1]);
		} else {
			for (k = 0; k < GLANCE_COLS; k++)
				snprintf(cell[k], 128, "%s", glance_heads[k]);
		}
		cut_to(cell[GLANCE_COLS - 1], width[GLANCE_COLS - 1]);
		for (k = 0; k < GLANCE_COLS; k++) {
			size_t pad = width[k] - columns(cell[k]);
			bool right = k == 1 || k == 2;

			if (markdown)
				fprintf(f, k ? " %s |" : "| %s |", cell[k]);
			else if (k + 1 == GLANCE_COLS)
				fprintf(f, "%s", cell[k]);
			else
				fprintf(f, "%*s%s%*s  ", right ? (int)pad : 0, "", cell[k], right ? 0 : (int)pad, "");
		}
		fputc('\n', f);
		if (!i && markdown) {
			for (k = 0; k < GLANCE_COLS; k++)
				fputs(k == 1 || k == 2 ? "|---:" : "|---", f);
			fputs("|\n", f);
		}
	}
	fputc('\n', f);
}

void glance_write(FILE *f, const struct run *run, bool markdown)
{
	char clock[96];
	size_t w;

	if (!run->ncmps)
		return;
	if (markdown)
		fprintf(f, "## At a glance\n\n");
	else
		fprintf(f, "locklat %s: maxima after the start-up window, medians of the measured repetitions\n\n",
			run_name(run));
	for (w = 0; w < run->nworkloads; w++)
		glance_workload(f, run, run->workloads[w], markdown);
	/* Lines under GLANCE_WIDTH columns, in a terminal as in Markdown. */
	fprintf(f, "µs of %s. change: A against B, at the precision the data has.\n"
		"verdict: the 95%% interval of the pass maxima, or failures under load (Fisher's exact test);\n"
		"✗: contradicts kernels/comparisons. culprit: the call site where the worse side's traced\n"
		"worst wake-up (or preemption-off section) opened or closed.\n\n", clock_words(run, clock, sizeof(clock)));
}

void render_glance(const struct run *run)
{
	FILE *f = render_open(run, "summary.txt");

	glance_write(f, run, false);
	render_close(f, run, "summary.txt");
}
