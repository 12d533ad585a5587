// SPDX-License-Identifier: GPL-2.0
/*
 * pass-irqsoff.c - the irqsoff pass (bench/passes/irqsoff/): a latency
 * tracer's pass as pass-preemptoff.c reads it, into the cell's irqsoff.
 */
#include <stddef.h>

#include "pass.h"
#include "render-md.h"
#include "render.h"

#include "locklat.h"

static void irqsoff_load(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us)
{
	(void)window_us;
	tracer_runs_load(c, &c->irqsoff, dir, "irqsoff", cs);
}

/* The analysis */

static void irqsoff_group_add(struct group *g, const struct cell *c)
{
	tracer_group_add(c, offsetof(struct cell, irqsoff), &g->irqsoff_us, &g->irqsoff_cell);
}

static void irqsoff_group_finish(struct group *g)
{
	tracer_group_finish(g, g->irqsoff_cell, offsetof(struct cell, irqsoff), &g->irqsoff_flagged, &g->irqsoff_too_long);
}

/* summary.md */

static void md_cell_irqsoff(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	md_trace_ev(f, g, TK_IRQSOFF, notes);
}

static const struct md_row irqsoff_md_rows[] = {
	{ "irqsoff worst: culprit", md_cell_irqsoff, ROW_ALWAYS },
};

/* summary.json */

static void irqsoff_json_cell(json_object *o, const struct run *run, const struct cell *c)
{
	(void)run;
	json_object_object_add(o, "irqsoff", json_trace(&c->irqsoff));
}

const struct pass_ops pass_irqsoff = {
	.name = "irqsoff",
	.load = irqsoff_load,
	.group_add = irqsoff_group_add,
	.group_finish = irqsoff_group_finish,
	.md_rows = irqsoff_md_rows,
	.nmd_rows = ARRAY_SIZE(irqsoff_md_rows),
	.json_cell = irqsoff_json_cell,
};
