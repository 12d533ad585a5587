// SPDX-License-Identifier: GPL-2.0
/*
 * pass-preemptoff.c - a latency tracer's pass (bench/passes/preemptoff/,
 * and irqsoff, pass-irqsoff.c): each run's guest/<tracer>[.N]/ (the
 * kernel's tracing_max_latency and its print of the max buffer, trace.txt:
 * the kernel refuses raw reads of that buffer while a latency tracer is
 * current), the worst section blamed by blame.c's rules, its rows of a
 * workload's table and its members of a cell in summary.json.
 */
#define _GNU_SOURCE
#include "analyse.h"
#include "pass.h"
#include "render-md.h"
#include "render.h"

#include <json.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locklat.h"

static int trace_load(struct trace_worst *t, const char *dir, const struct call_sites *cs)
{
	char path[8192];
	char *line = NULL;
	size_t cap = 0;
	unsigned int i;
	FILE *f;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/tracing_max_latency", dir);
	if (read_u64_file(path, &t->max_us))
		return 1;
	t->present = true;
	snprintf(path, sizeof(path), "%s/trace.txt", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) >= 0) {
		char *s = cell_trim(line);
		unsigned long long v;

		if (sscanf(s, "# latency: %llu us", &v) == 1)
			t->header_us = v;
		else if (!strncmp(s, "#  => started at:", 17))
			snprintf(t->started, sizeof(t->started), "%s", cell_trim(s + 17));
		else if (!strncmp(s, "#  => ended at:", 15))
			snprintf(t->ended, sizeof(t->ended), "%s", cell_trim(s + 15));
		else if (!strncmp(s, "=> ", 3) && t->nstack < 8)
			snprintf(t->stack[t->nstack++], sizeof(t->stack[0]), "%s", cell_trim(s + 3));
	}
	free(line);
	fclose(f);

	{
		const char *frames[8];

		for (i = 0; i < t->nstack; i++)
			frames[i] = t->stack[i];
		blame_section(&t->blame, cs, t->started, t->ended, frames, t->nstack);
	}
	return 0;
}

/*
 * One tracer's runs (guest/NAME, guest/NAME.2, ...) into t: the worst of
 * those whose load lived, else of all, with every run's maximum. A run
 * whose trace header disagrees with
 * its tracing_max_latency is a broken trace: the cell is invalidated.
 */
void tracer_runs_load(struct cell *c, struct trace_worst *t, const char *dir, const char *name,
		      const struct call_sites *cs)
{
	uint64_t runs[TRACE_MAX_RUNS] = { 0 };
	char worst[16] = "";
	unsigned int n = 0;
	unsigned int run;

	memset(t, 0, sizeof(*t));
	for (run = 1; run <= TRACE_MAX_RUNS; run++) {
		struct trace_worst r;
		char path[4096], rn[16];

		pass_run_name(rn, sizeof(rn), name, run);
		snprintf(path, sizeof(path), "%s/guest/%s", dir, rn);
		if (trace_load(&r, path, cs))
			continue;
		if (r.header_us && r.header_us != r.max_us)
			cell_invalidate(c, "a latency trace's header and its tracing_max_latency disagree");
		r.load_dead = pass_load_dead(dir, rn);
		if (!t->present || (t->load_dead && !r.load_dead) ||
		    (t->load_dead == r.load_dead && r.max_us > t->max_us)) {
			*t = r;
			snprintf(worst, sizeof(worst), "%s", rn);
		}
		runs[n++] = r.max_us;
	}
	memcpy(t->runs_us, runs, sizeof(runs));
	t->nruns = n;
	snprintf(t->run, sizeof(t->run), "%s", worst);
}

static void preemptoff_load(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us)
{
	(void)window_us;
	tracer_runs_load(c, &c->preemptoff, dir, "preemptoff", cs);
}

/* The analysis */

void tracer_group_add(const struct cell *c, size_t trace, unsigned long long *worst_us, const struct cell **worst_cell)
{
	const struct trace_worst *t = (const void *)((const char *)c + trace);

	if (t->present && t->max_us >= *worst_us) {
		*worst_us = t->max_us;
		*worst_cell = c;
	}
}

void tracer_group_finish(const struct group *g, const struct cell *worst, size_t trace, bool *flagged, bool *too_long)
{
	const struct trace_worst *t;

	if (!worst)
		return;
	t = (const void *)((const char *)worst + trace);
	*flagged = trace_beyond_latency(g, t);
	*too_long = trace_longer_than_pass(worst, t);
}

static void preemptoff_group_add(struct group *g, const struct cell *c)
{
	tracer_group_add(c, offsetof(struct cell, preemptoff), &g->preemptoff_us, &g->preemptoff_cell);
}

static void preemptoff_group_finish(struct group *g)
{
	tracer_group_finish(g, g->preemptoff_cell, offsetof(struct cell, preemptoff), &g->preemptoff_flagged,
			    &g->preemptoff_too_long);
}

/* summary.md */

/* The worst section a tracer recorded, with its culprit or why it has none. */
static void md_cell_preemptoff(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	md_trace_ev(f, g, TK_PREEMPTOFF, notes);
}

static const struct md_row preemptoff_md_rows[] = {
	{ "preemptoff worst: culprit", md_cell_preemptoff, ROW_ALWAYS },
};

/* summary.json */

json_object *json_trace(const struct trace_worst *t)
{
	json_object *o;
	double runs[TRACE_MAX_RUNS];
	unsigned int i;

	if (!t->present)
		return NULL;
	for (i = 0; i < t->nruns; i++)
		runs[i] = (double)t->runs_us[i];
	o = json_object_new_object();
	json_object_object_add(o, "run", json_object_new_string(t->run));
	json_object_object_add(o, "max_us", json_object_new_int64((int64_t)t->max_us));
	json_object_object_add(o, "runs_max_us", json_runs(runs, t->nruns));
	json_object_object_add(o, "load_alive", json_object_new_boolean(!t->load_dead));
	json_object_object_add(o, "started_at", json_object_new_string(t->started));
	json_object_object_add(o, "ended_at", json_object_new_string(t->ended));
	json_object_object_add(o, "blame", json_blame(&t->blame));
	return o;
}


static void preemptoff_json_cell(json_object *o, const struct run *run, const struct cell *c)
{
	(void)run;
	json_object_object_add(o, "preemptoff", json_trace(&c->preemptoff));
}

const struct pass_ops pass_preemptoff = {
	.name = "preemptoff",
	.load = preemptoff_load,
	.group_add = preemptoff_group_add,
	.group_finish = preemptoff_group_finish,
	.md_rows = preemptoff_md_rows,
	.nmd_rows = ARRAY_SIZE(preemptoff_md_rows),
	.json_cell = preemptoff_json_cell,
};
