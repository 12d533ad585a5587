/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pass.h - a pass of bench/passes/ as the summary reads it: one C file per
 * pass (pass-<name>.c) holding an ops table, registered in one list
 * (passes.c), in the style of the kernel's struct tracer. Every stage walks
 * the list and calls what a pass fills in; a NULL member is a stage the
 * pass has nothing for. A pass's data lives in the cell (cell.h) where other
 * passes' renderers read it too (the answer quotes the traces), or in its
 * own slot, cell.priv[<its index>], which its free op releases.
 *
 * A plug-in is reached only through the list (tests/layering.t): no stage
 * calls into a pass file by name. Its members, by stage:
 *   load          its files of the cell in dir (guest/<name>[.N]/, ...)
 *   group_add     a cell joins its (variant, workload) group (analyse)
 *   group_finish  the group is complete (analyse; the latency figures and
 *                 the trace reference, group.trace_ref_us, are set)
 *   run_finish    every group is complete (analyse)
 *   md_rows       its rows of a workload's table in summary.md (render)
 *   md_section    its section of summary.md after the workloads' (render)
 *   json_cell     its members of a cell in summary.json (render)
 */
#ifndef LOCKLAT_PASS_H
#define LOCKLAT_PASS_H

#include <json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cell.h"
#include "run.h"

/* When a row of a workload's table is shown: always, or only for runs with that data. */
enum md_row_when {
	ROW_ALWAYS,
	ROW_TRACED,	/* runs from before the plain/traced split have no traced kernel */
	ROW_TASKS,	/* workloads that say their tasks per CPU */
	ROW_LOCK,	/* verify passes that counted lock events */
	ROW_INTEGRITY,	/* workloads that check their data */
};

struct md_notes;

/*
 * A row of a workload's table: its label and how to fill a group's cell
 * (" value |"), with what does not fit a cell in notes (render-md.h).
 */
struct md_row {
	const char *label;
	void (*cell)(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes);
	enum md_row_when when;
};

struct pass_ops {
	const char *name;		/* its folder, bench/passes/<name>/ */
	void (*load)(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us);
	void (*free)(struct cell *c);
	void (*group_add)(struct group *g, const struct cell *c);
	void (*group_finish)(struct group *g);
	void (*run_finish)(struct run *run);
	const struct md_row *md_rows;
	size_t nmd_rows;
	void (*md_section)(FILE *f, const struct run *run);
	void (*json_cell)(json_object *o, const struct run *run, const struct cell *c);
};

/* The passes, in the order their rows and sections appear; NULL-terminated. */
extern const struct pass_ops *const summary_passes[];
/* A pass's index in summary_passes: its slot in cell.priv. */
size_t pass_index(const struct pass_ops *ops);

/*
 * The verify pass's reader of one stack histogram (ftrace's hist output,
 * keyed by common_stacktrace) into s, each stack attributed to a site of cs
 * (boosts counted when boosts is set), exposed for the golden-fixture
 * tests. Returns 0, 1 if there is no such file, -1 if it has no entry or
 * Totals in hist format.
 */
/*
 * The latency tracers' runs (guest/NAME, guest/NAME.2, ...) into t: the
 * worst of those whose load lived, else of all, with every run's maximum
 * (pass-preemptoff.c; pass-irqsoff.c reads its tracer with it).
 */
void tracer_runs_load(struct cell *c, struct trace_worst *t, const char *dir, const char *name,
		      const struct call_sites *cs);

/* A latency tracer's worst section in summary.json (pass-preemptoff.c; pass-irqsoff.c's too). */
json_object *json_trace(const struct trace_worst *t);

/*
 * A latency tracer's group analysis (pass-preemptoff.c, for preemptoff and
 * irqsoff): the worst section of the group's cells (trace: the tracer's
 * member of struct cell, by its offset) into *worst_us and *worst_cell;
 * then that section's flags against the group's trace reference.
 */
void tracer_group_add(const struct cell *c, size_t trace, unsigned long long *worst_us, const struct cell **worst_cell);
void tracer_group_finish(const struct group *g, const struct cell *worst, size_t trace, bool *flagged, bool *too_long);

int lock_stacks_load(struct lock_stacks *s, const char *path, const struct call_sites *cs, bool boosts);

#endif /* LOCKLAT_PASS_H */
