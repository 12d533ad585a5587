/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - how the report tools write: each file whole or not at all
 * (written as NAME.tmp, renamed into place), and the JSON forms of the
 * statistics' numbers.
 */
#ifndef LOCKLAT_OUTPUT_H
#define LOCKLAT_OUTPUT_H

#include <json.h>
#include <stdio.h>

#include "stats.h"

/*
 * Open dir/name.tmp for writing (an error exits with output_exit_status,
 * LL_EXIT_FAIL unless a tool whose 1 means something else sets it);
 * output_close() renames it to dir/name.
 */
extern int output_exit_status;
FILE *output_open(const char *dir, const char *name);
void output_close(FILE *f, const char *dir, const char *name);

/* x, or null for NaN and infinities (JSON has neither). */
json_object *json_double_or_null(double x);
/* [lo, hi] of an interval, an unbounded end null; null without an interval. */
json_object *json_interval(const struct ratio_ci *ci);

#endif /* LOCKLAT_OUTPUT_H */
