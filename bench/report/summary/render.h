/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - the summary's last stage: each output a renderer of the
 * analysed run (run.h), which it reads and never changes.
 */
#ifndef LOCKLAT_RENDER_H
#define LOCKLAT_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "run.h"

void render_markdown(const struct run *run);	/* summary.md */
void render_json(const struct run *run);	/* summary.json */
void render_csv(const struct run *run);		/* summary.csv */
void render_plot_data(const struct run *run);	/* plot-data/ */
void render_tap(const struct run *run);		/* verdicts.tap */
void render_glance(const struct run *run);	/* summary.txt: the short form */
/* A comparison's verdict in a word or two ("lower", "fails less"); "✗" when it contradicts kernels/comparisons. */
void verdict_word(char *buf, size_t size, const struct comparison *c);
/* The short form, per workload a line per comparison under 100 columns: Markdown or aligned text. */
void glance_write(FILE *f, const struct run *run, bool markdown);
/* A run of several strata (run.h): summary.md and summary.json name each one's own summary. */
void render_markdown_index(const struct run *run);
void render_json_index(const struct run *run);

/* Open dir/name.tmp for writing; render_close() renames it into place. */
FILE *render_open(const struct run *run, const char *name);
void render_close(FILE *f, const struct run *run, const char *name);
/* A cell's folder relative to the run directory. */
const char *cell_rel_dir(const struct run *run, const struct cell *c);
/* The run's name: its folder's last component. */
const char *run_name(const struct run *run);
/* Distinct values of a setting over the cells (latency_only: those with a latency pass), ", "-separated. */
void setting_values_of(const struct run *run, enum cell_setting setting, bool latency_only, char *out, size_t size);
void setting_values(const struct run *run, enum cell_setting setting, char *out, size_t size);
/* A build's repetitions of a workload overlaid, in plot-data/ and plots/: series-<variant>-<workload>. */
void series_group_name(char *buf, size_t size, const char *variant, const char *workload);
/* What a µs of the run is, for a line that quotes µs: "instruction time (tcg-icount)". */
const char *clock_words(const struct run *run, char *buf, size_t size);
/* The cell's name in plot-data/ and plots/: series-<variant>-<workload>-<cell>. */
void series_name(char *buf, size_t size, const struct cell *c);

/* For the passes' members of summary.json (pass.h): a blame's words, and a pass's runs' values. */
#include <json.h>
json_object *json_blame(const struct blame *b);
json_object *json_runs(const double *runs, unsigned int n);

#endif /* LOCKLAT_RENDER_H */
