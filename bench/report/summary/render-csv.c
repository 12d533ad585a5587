// SPDX-License-Identifier: GPL-2.0
/*
 * render-csv.c - summary.csv: one row per cell (RFC 4180).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locklat.h"
#include "render.h"
#include "run.h"

/* A CSV field, quoted when it needs to be (RFC 4180). */
static void csv_field(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

/* A number, or "" (the JSON's null) when has is false. */
static const char *num_u64(char *buf, size_t size, bool has, uint64_t v)
{
	if (has)
		snprintf(buf, size, "%llu", (unsigned long long)v);
	else
		buf[0] = '\0';
	return buf;
}

/*
 * One row per cell, each column the member of summary.json's cell of the
 * same name ("load_verdict" its load.verdict, "preemptoff_us" its
 * preemptoff.max_us, ...: results/README.md), with the same number: an
 * empty field where the JSON has null. tests/summary.t compares them.
 */
void render_csv(const struct run *run)
{
	FILE *f = render_open(run, "summary.csv");
	size_t i;

	fputs("variant,workload,rep,kernel_flavour,status,reason,accel,max_us,max_is_lower_bound,startup_max_us,"
	      "startup_window_s,cyclictest_max_us,p50_us,p99_us,p999_us,samples,overflow,load_verdict,load_died_at_s,"
	      "load_reason,preemptoff_us,preemptoff_culprit,irqsoff_us,irqsoff_culprit,findings,dir,integrity_errors,"
	      "tasks_per_cpu\n", f);
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		bool lat = c->has_latency, steady = lat && c->has_steady, dead = c->load.verdict == LOAD_DEAD;
		char b[16][48];
		unsigned int nf = c->nfindings;
		csv_field(f, c->variant, false);
		csv_field(f, c->workload, false);
		csv_field(f, num_u64(b[0], sizeof(b[0]), true, c->rep), false);
		csv_field(f, cell_flavour(c), false);
		csv_field(f, c->status, false);
		csv_field(f, c->reason, false);
		csv_field(f, c->accel, false);
		csv_field(f, num_u64(b[1], sizeof(b[1]), lat, c->has_steady ? c->steady_max_us : c->max_us), false);
		csv_field(f, lat ? (c->has_steady && c->steady_censored ? "true" : "false") : "", false);
		csv_field(f, num_u64(b[2], sizeof(b[2]), steady, c->startup_max_us), false);
		if (lat)
			snprintf(b[3], sizeof(b[3]), "%g", c->has_steady ? (double)c->window_us / 1e6 : 0);
		else
			b[3][0] = '\0';
		csv_field(f, b[3], false);
		csv_field(f, num_u64(b[4], sizeof(b[4]), lat, c->max_us), false);
		csv_field(f, num_u64(b[5], sizeof(b[5]), lat, c->judged.p50_us), false);
		csv_field(f, num_u64(b[6], sizeof(b[6]), lat, c->judged.p99_us), false);
		csv_field(f, num_u64(b[7], sizeof(b[7]), lat, c->judged.p999_us), false);
		csv_field(f, num_u64(b[8], sizeof(b[8]), lat, hist_total(&c->hist)), false);
		csv_field(f, num_u64(b[9], sizeof(b[9]), lat, c->hist.overflow), false);
		csv_field(f, load_verdict_name(c->load.verdict), false);
		if (dead)
			snprintf(b[10], sizeof(b[10]), "%g", c->load.died_at_s);
		else
			b[10][0] = '\0';
		csv_field(f, b[10], false);
		csv_field(f, dead ? c->load.reason : "", false);
		csv_field(f, num_u64(b[11], sizeof(b[11]), c->preemptoff.present, c->preemptoff.max_us), false);
		csv_field(f, c->preemptoff.present ? c->preemptoff.blame.text : "", false);
		csv_field(f, num_u64(b[12], sizeof(b[12]), c->irqsoff.present, c->irqsoff.max_us), false);
		csv_field(f, c->irqsoff.present ? c->irqsoff.blame.text : "", false);
		csv_field(f, num_u64(b[13], sizeof(b[13]), true, nf), false);
		csv_field(f, cell_rel_dir(run, c), false);
		/* Empty when the workload did not check its data, or did not say its tasks. */
		csv_field(f, num_u64(b[14], sizeof(b[14]), c->integrity.present, c->integrity.errors), false);
		csv_field(f, num_u64(b[15], sizeof(b[15]), c->tasks_per_cpu > 0, c->tasks_per_cpu), true);
	}
	render_close(f, run, "summary.csv");
}
