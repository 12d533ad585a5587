// SPDX-License-Identifier: GPL-2.0
/*
 * render.c - what the summary's renderers share: files written whole
 * (a .tmp renamed into place), a cell's folder as the run names it, and
 * the values of a meta key over the run.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locklat.h"
#include "output.h"
#include "render.h"
#include "run.h"

FILE *render_open(const struct run *run, const char *name)
{
	return output_open(run->out_dir, name);
}

void render_close(FILE *f, const struct run *run, const char *name)
{
	output_close(f, run->out_dir, name);
}

/* The run's name: its folder's last component, as the outputs call it. */
const char *run_name(const struct run *run)
{
	const char *base = strrchr(run->dir, '/');

	return base ? base + 1 : run->dir;
}

/* A cell's folder relative to the run directory: links in a copied or committed run keep working. */
const char *cell_rel_dir(const struct run *run, const struct cell *c)
{
	size_t n = strlen(run->dir);

	if (!strncmp(c->dir, run->dir, n) && c->dir[n] == '/')
		return c->dir + n + 1;
	return c->dir;
}

/* Distinct values of a setting over all cells (with latency_only, over the cells with a latency pass), comma-separated. */
void setting_values_of(const struct run *run, enum cell_setting setting, bool latency_only, char *out, size_t size)
{
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < run->ncells; i++) {
		const char *v = run->cells[i].setting[setting];
		char quoted[512];

		if (latency_only && !run->cells[i].has_latency)
			continue;

		snprintf(quoted, sizeof(quoted), "%s%s", len ? ", " : "", v);
		if (len && list_has(out, v))
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s", quoted);
		if (len >= size)
			break;
	}
}

void setting_values(const struct run *run, enum cell_setting setting, char *out, size_t size)
{
	setting_values_of(run, setting, false, out, size);
}

/* The cell's name in plot-data/ and plots/: series-<variant>-<workload>-rep<N>. */
void series_name(char *buf, size_t size, const struct cell *c)
{
	snprintf(buf, size, "series-%s-%s-%s", c->variant, c->workload, c->name);
}

void series_group_name(char *buf, size_t size, const char *variant, const char *workload)
{
	snprintf(buf, size, "series-%s-%s", variant, workload);
}

/* What a µs of the run is, for a line that quotes µs: "instruction time (tcg-icount)". */
const char *clock_words(const struct run *run, char *buf, size_t size)
{
	char accel[256];

	setting_values_of(run, CS_ACCEL, true, accel, sizeof(accel));
	if (!strcmp(accel, "tcg-icount"))
		snprintf(buf, size, "instruction time (tcg-icount)");
	else if (!strcmp(accel, "kvm"))
		snprintf(buf, size, "wall-clock time (kvm)");
	else if (!strcmp(accel, "tcg"))
		snprintf(buf, size, "wall-clock time of an emulated guest (tcg)");
	else
		snprintf(buf, size, "clocks of %.80s", accel);
	return buf;
}
