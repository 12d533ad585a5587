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

void render_csv(const struct run *run)
{
	FILE *f = render_open(run, "summary.csv");
	size_t i;

	fputs("variant,workload,rep,kernel_flavour,status,accel,max_us,p50_us,p99_us,p999_us,samples,overflow,"
	      "preemptoff_us,preemptoff_culprit,irqsoff_us,irqsoff_culprit,findings,reason,dir,integrity_errors,"
	      "tasks_per_cpu\n", f);
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		char num[12][32];
		unsigned int k, nf = 0;

		for (k = 0; k < c->nfindings; k++)
			nf += c->findings[k].count;
		snprintf(num[0], 32, "%u", c->rep);
		if (c->has_latency) {
			snprintf(num[1], 32, "%llu", (unsigned long long)c->max_us);
			snprintf(num[2], 32, "%llu", (unsigned long long)c->judged.pass_p50_us);
			snprintf(num[3], 32, "%llu", (unsigned long long)c->judged.pass_p99_us);
			snprintf(num[4], 32, "%llu", (unsigned long long)c->judged.pass_p999_us);
			snprintf(num[5], 32, "%llu", (unsigned long long)hist_total(&c->hist));
			snprintf(num[6], 32, "%llu", (unsigned long long)c->hist.overflow);
		} else {
			for (k = 1; k <= 6; k++)
				num[k][0] = '\0';
		}
		snprintf(num[7], 32, "%llu", (unsigned long long)c->preemptoff.max_us);
		snprintf(num[8], 32, "%llu", (unsigned long long)c->irqsoff.max_us);
		snprintf(num[9], 32, "%u", nf);
		/* Empty when the workload did not check its data, or did not say its tasks. */
		if (c->integrity.present)
			snprintf(num[10], 32, "%llu", (unsigned long long)c->integrity.errors);
		else
			num[10][0] = '\0';
		if (c->tasks_per_cpu)
			snprintf(num[11], 32, "%u", c->tasks_per_cpu);
		else
			num[11][0] = '\0';
		csv_field(f, c->variant, false);
		csv_field(f, c->workload, false);
		csv_field(f, num[0], false);
		csv_field(f, cell_flavour(c), false);
		csv_field(f, c->status, false);
		csv_field(f, c->accel, false);
		for (k = 1; k <= 6; k++)
			csv_field(f, num[k], false);
		csv_field(f, c->preemptoff.present ? num[7] : "", false);
		csv_field(f, c->preemptoff.blame.text, false);
		csv_field(f, c->irqsoff.present ? num[8] : "", false);
		csv_field(f, c->irqsoff.blame.text, false);
		csv_field(f, num[9], false);
		csv_field(f, c->reason, false);
		csv_field(f, cell_rel_dir(run, c), false);
		csv_field(f, num[10], false);
		csv_field(f, num[11], true);
	}
	render_close(f, run, "summary.csv");
}
