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

#endif /* LOCKLAT_ANALYSE_H */
