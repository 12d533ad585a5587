/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render-md.h - what render-md.c lends the passes' rows and sections of
 * summary.md (pass.h): the render stage's own helpers.
 */
#ifndef LOCKLAT_RENDER_MD_H
#define LOCKLAT_RENDER_MD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "run.h"

/* The kinds of traced evidence, each under its own heading. */
enum trace_kind { TK_WAKEUP, TK_PREEMPTOFF, TK_IRQSOFF, TK_N };

/* "median [min–max]" of a group's per-repetition values, or "–". */
const char *spread(char *buf, size_t size, const double *v, size_t n);
/*
 * A group's traced evidence of kind k as a table cell (" value |"): its
 * length, its runs' spread and its culprit, or why it has none.
 */
void md_trace_ev(FILE *f, const struct group *g, enum trace_kind k);
/*
 * A lock event at the workload's call site in a group's lock cell: the
 * workload's hits there (boosts only, with boosts), the idle control at the
 * same site. False if there is nothing to count; *why then says which.
 */
bool lock_at_site(const struct group *g, const char *event, bool boosts, unsigned long long *n,
		  unsigned long long *idle, bool *has_idle, const char **why);
/* A group whose contention at the site wants a note (none on PREEMPT_RT, some elsewhere). */
bool lock_site_odd(const struct group *g);
/* The rest of a table's header after its first column: a column per variant, and last if not NULL. */
void md_variant_columns(FILE *f, const struct run *run, const char *last);

#endif /* LOCKLAT_RENDER_MD_H */
