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

/*
 * Prose that a table's cells point to ("[a]"), printed under the table so
 * that a row stays readable in a terminal: one note per distinct text.
 */
#define MD_NOTES_MAX 64
struct md_notes {
	char *text[MD_NOTES_MAX];
	size_t n;
};

/*
 * " [a]" into f, a to the note of the formatted text (the same marker for the
 * same text); with every marker taken, the text itself in parentheses.
 */
void md_note(FILE *f, struct md_notes *notes, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The notes as "- [a] text" lines after a blank line (nothing without notes); emptied. */
void md_notes_print(FILE *f, struct md_notes *notes);

/* The kinds of traced evidence, each under its own heading. */
enum trace_kind { TK_WAKEUP, TK_PREEMPTOFF, TK_IRQSOFF, TK_N };

/* "median [min–max]" of a group's per-repetition values, or "–". */
const char *spread(char *buf, size_t size, const double *v, size_t n);
/*
 * A group's traced evidence of kind k as a table cell (" value [a]: culprit |"):
 * its length and its culprit in short, its runs and the whole blame in a note.
 */
void md_trace_ev(FILE *f, const struct group *g, enum trace_kind k, struct md_notes *notes);
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
