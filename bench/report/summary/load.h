/* SPDX-License-Identifier: GPL-2.0 */
/*
 * load.h - the summary's first stage: cells and definitions into a run.
 */
#ifndef LOCKLAT_LOAD_H
#define LOCKLAT_LOAD_H

#include "run.h"

/* Every complete cell under dir (<variant>/<workload>/<cell>/); counts the incomplete ones. */
void run_load(struct run *run, const char *dir, const struct call_sites *cs);
/* kernels/comparisons: "A | B | workload | expected | why" and "question | A | B | workload". */
void comparisons_load(struct run *run, const char *path);
/* RUN/equivalence/A-vs-B.txt for each verdict pair, when the run checked it. */
void equivalence_load(struct run *run);
/* "name | what | expected": the llcheck scenarios; an unreadable file leaves them blank. */
void scenarios_load(struct run *run, const char *path);
/*
 * The strata of the cells loaded (run.h: struct stratum), by name;
 * cells of no host (a kernel that did not
 * build) belong to every stratum and count in none.
 */
void strata_find(struct run *run);
/* Everything load and analyse allocated. */
void run_free(struct run *run);

#endif /* LOCKLAT_LOAD_H */
