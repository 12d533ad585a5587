/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analyse.h - the summary's middle stage: judge the loaded run once.
 */
#ifndef LOCKLAT_ANALYSE_H
#define LOCKLAT_ANALYSE_H

#include "run.h"

/*
 * From run->cells (load.c): each cell's verdict, the variants in column
 * order and the workloads, the groups, the per-workload and per-variant
 * facts the renderers need, and the comparisons.
 */
void run_analyse(struct run *run);

/*
 * For the passes' analysis (pass.h): a traced section longer than the
 * cell's pass was to last (the guest stalled inside it), and one over
 * TRACE_LATENCY_FACTOR times what the group's traces are held against
 * (group.trace_ref_us): flagged, never shown as a culprit.
 */
bool trace_longer_than_pass(const struct cell *c, const struct trace_worst *t);
bool trace_beyond_latency(const struct group *g, const struct trace_worst *t);

#endif /* LOCKLAT_ANALYSE_H */
