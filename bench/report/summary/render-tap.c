// SPDX-License-Identifier: GPL-2.0
/*
 * render-tap.c - verdicts.tap, for a CI: one TAP test per comparison of
 * kernels/comparisons, as kselftest writes its results. A comparison whose
 * interval contradicts its line's expectation is "not ok"; one with no
 * expectation, or whose repetitions give no interval, is ok with a SKIP
 * directive saying so. run-matrix.sh exits 1 when a line is "not ok".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "run.h"

/* text with a TAP description's special characters ('#' starts a directive) made harmless. */
static void tap_text(FILE *f, const char *text)
{
	for (; *text; text++)
		fputc(*text == '#' ? '_' : *text == '\n' ? ' ' : *text, f);
}

void render_tap(const struct run *run)
{
	FILE *f = render_open(run, "verdicts.tap");
	size_t i;

	fprintf(f, "TAP version 13\n1..%zu\n", run->ncmps);
	for (i = 0; i < run->ncmps; i++) {
		const struct comparison *c = &run->cmps[i];
		enum expectation e = c->def ? c->def->expect : EXPECT_OPEN;
		char expected[96];

		fprintf(f, "%s %zu - %s: %s vs %s (%zu vs %zu measured), expected %s: ", c->contradicts ? "not ok" : "ok",
			i + 1, c->workload, c->a->variant, c->b->variant, c->na, c->nb,
			c->def ? expectation_text(expected, sizeof(expected), c->def) : expectation_words(e));
		tap_text(f, c->verdict);
		if (e == EXPECT_OPEN)
			fputs(" # SKIP no expectation to check", f);
		else if (!c->contradicts && (!c->ci.valid || c->ci.coverage <= 0))
			fputs(" # SKIP no interval at these repetitions", f);
		fputc('\n', f);
	}
	render_close(f, run, "verdicts.tap");
}
