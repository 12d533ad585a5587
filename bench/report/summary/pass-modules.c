// SPDX-License-Identifier: GPL-2.0
/*
 * pass-modules.c - the modules pass (bench/passes/modules/): llcheck's
 * scenarios and llbench's figures of guest/modules/, its section of
 * summary.md and its members of a cell in summary.json.
 */
#define _GNU_SOURCE
#include "pass.h"
#include "render-md.h"
#include "render.h"

#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "locklat.h"

/* The last "llbench: op=..." lines of a dmesg (a later load replaces an earlier one). */
static void llbench_load(struct cell *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *p;
	size_t cap = 0;

	if (!f)
		return;
	c->nllbench = 0;
	while (getline(&line, &cap, f) >= 0 && c->nllbench < CELL_MAX_MODULE_ROWS) {
		struct llbench_result *b = &c->llbench[c->nllbench];

		p = strstr(line, "llbench: op=");
		if (p && sscanf(p, "llbench: op=%31s iterations=%u rounds=%u min_ns=%lf median_ns=%lf max_ns=%lf",
				b->op, &b->iterations, &b->rounds, &b->min_ns, &b->median_ns,
				&b->max_ns) == 6)
			c->nllbench++;
	}
	free(line);
	fclose(f);
}

static void llcheck_load(struct llcheck_result *r, const char *dir, const char *scenario)
{
	char path[8192], word[8], end[64];
	char *line = NULL, *p;
	size_t cap = 0;
	int insmod = -1, rmmod = -1;
	FILE *f;

	memset(r, 0, sizeof(*r));
	snprintf(r->scenario, sizeof(r->scenario), "%s", scenario);
	snprintf(r->irqs_off, sizeof(r->irqs_off), "%s", "?");
	r->debug_locks = -1;
	snprintf(path, sizeof(path), "%s/llcheck-%s.status", dir, scenario);
	f = fopen(path, "r");
	if (f) {
		r->loaded = fscanf(f, "insmod %d rmmod %d", &insmod, &rmmod) == 2 && !insmod && !rmmod;
		fclose(f);
	}
	/* findings.sh: "kind<TAB>count<TAB>first line" per kind; the first is enough. */
	snprintf(path, sizeof(path), "%s/llcheck-%s.findings", dir, scenario);
	f = fopen(path, "r");
	if (f) {
		if (getline(&line, &cap, f) >= 0) {
			char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;

			if (t2) {
				*t1 = '\0';
				snprintf(r->kind, sizeof(r->kind), "%s", line);
				snprintf(r->line, sizeof(r->line), "%s", cell_trim(t2 + 1));
				r->detected = true;
			}
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/llcheck-%s.dmesg", dir, scenario);
	snprintf(end, sizeof(end), "scenario=%s end ", scenario);
	f = fopen(path, "r");
	if (f) {
		while (getline(&line, &cap, f) >= 0) {
			p = strstr(line, end);
			if (p && sscanf(p + strlen(end), "irqs_off_in_irqsave_sections=%7s debug_locks=%d",
					word, &r->debug_locks) == 2)
				memcpy(r->irqs_off, word, sizeof(word));
		}
		fclose(f);
	}
	free(line);
}

static int modules_load(struct cell *c, const char *dir)
{
	char path[4096], conf_path[8192], llbench_path[8192], *list, *tok, *save = NULL;
	struct kvfile conf;
	struct stat st;

	snprintf(path, sizeof(path), "%s/guest/modules", dir);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 1;
	c->has_modules = true;
	snprintf(conf_path, sizeof(conf_path), "%s/cell.conf", dir);
	if (kv_load(&conf, conf_path))
		return 0;
	list = xstrdup(kv_str(&conf, "llcheck_scenarios", ""));
	if (!list)
		err_exit(LL_EXIT_FAIL, "out of memory");
	for (tok = strtok_r(list, " ", &save); tok && c->nllcheck < CELL_MAX_MODULE_ROWS;
	     tok = strtok_r(NULL, " ", &save))
		llcheck_load(&c->llcheck[c->nllcheck++], path, tok);
	free(list);
	kv_free(&conf);
	snprintf(llbench_path, sizeof(llbench_path), "%s/llbench.dmesg", path);
	llbench_load(c, llbench_path);
	return 0;
}

static void modules_pass_load(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us)
{
	(void)cs;
	(void)window_us;
	modules_load(c, dir);
}

/* The analysis */

/* A workload only the modules pass ran on has no latency table. */
static bool workload_is_modules_only(const struct run *run, const char *workload)
{
	size_t i;
	bool modules = false;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (strcmp(c->workload, workload))
			continue;
		if (c->has_latency)
			return false;
		modules |= c->has_modules;
	}
	return modules;
}

/* The first cell of variant that ran the modules pass (complete, with results). */
static const struct cell *modules_cell(const struct run *run, const char *variant)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		if (run->cells[i].has_modules && !strcmp(run->cells[i].variant, variant) &&
		    (run->cells[i].nllcheck || run->cells[i].nllbench))
			return &run->cells[i];
	return NULL;
}


/* Each workload only the modules pass ran on, and each variant's modules cell. */
static void modules_run_finish(struct run *run)
{
	size_t v, w;

	for (w = 0; w < run->nworkloads; w++)
		run->modules_only[w] = workload_is_modules_only(run, run->workloads[w]);
	for (v = 0; v < run->nvariants; v++)
		run->modules_cells[v] = modules_cell(run, run->variants[v]);
}

/* summary.md */

static void md_modules(FILE *f, const struct run *run)
{
	const struct cell *first = NULL, *const *cells = run->modules_cells;
	char buf[64];
	size_t v;
	unsigned int k;

	/* The first variant's modules cell gives the rows. */
	for (v = 0; v < run->nvariants && !first; v++)
		first = cells[v];
	if (!first)
		return;
	fprintf(f, "## Kernel modules: what lockdep sees, what a local lock costs\n\n"
		"`llcheck` loads once per scenario; *detected* means the kernel itself reported it "
		"(a splat in that load's kernel log, kind and first line quoted). "
		"See `kernels/modules/llcheck/llcheck.c`.\n\n| llcheck scenario |");
	md_variant_columns(f, run, "expected");
	for (k = 0; k < first->nllcheck; k++) {
		fprintf(f, "| %s |", first->llcheck[k].scenario);
		for (v = 0; v < run->nvariants; v++) {
			const struct cell *c = cells[v];
			const struct llcheck_result *r = c && k < c->nllcheck ? &c->llcheck[k] : NULL;

			if (!r)
				fprintf(f, " – |");
			else if (r->detected)
				fprintf(f, " **detected**: %s (`%s`) |", r->kind, r->line);
			else if (!r->loaded)
				fprintf(f, " load failed |");
			else
				fprintf(f, " silent |");
		}
		fprintf(f, " %s |\n", scenario_expectation(run, first->llcheck[k].scenario));
	}
	/* Scenario c's sections are local_lock_irqsave(): irqs stay on only on PREEMPT_RT. */
	fprintf(f, "| interrupts off inside local_lock_irqsave() |");
	for (v = 0; v < run->nvariants; v++) {
		const struct cell *c = cells[v];
		const char *irqs = "–";

		for (k = 0; c && k < c->nllcheck; k++)
			if (!strcmp(c->llcheck[k].scenario, "c"))
				irqs = c->llcheck[k].irqs_off;
		fprintf(f, " %s |", irqs);
	}
	fprintf(f, " yes, except on PREEMPT_RT (a per-CPU spinlock_t there) |\n\n");

	fprintf(f, "`llbench`: ns per lock/unlock pair, median [min–max] over %u rounds of %u pairs "
		"(under tcg-icount: instruction time). %s\n\n| operation |",
		first->nllbench ? first->llbench[0].rounds : 0,
		first->nllbench ? first->llbench[0].iterations : 0,
		/* Cells before the plain/traced split (no kernel_flavour) ran on kernels with the tracers. */
		first->flavour_recorded ?
		"The modules ran on the plain kernels, without the preemptoff and irqsoff tracers: "
		"`preempt_disable()` / `preempt_enable()` are inline, as on a production kernel "
		"(with the tracers' hooks, `CONFIG_TRACE_PREEMPT_TOGGLE`, the pair cost ~104 against ~6 ns)." :
		"These kernels carry the preemptoff and irqsoff tracers (`CONFIG_TRACE_PREEMPT_TOGGLE=y`), "
		"which turn each `preempt_disable()` / `preempt_enable()` into out-of-line calls with tracing "
		"hooks: these figures include that cost, against an empty section of a few ns.");
	md_variant_columns(f, run, NULL);
	for (k = 0; k < first->nllbench; k++) {
		fprintf(f, "| %s |", first->llbench[k].op);
		for (v = 0; v < run->nvariants; v++) {
			const struct cell *c = cells[v];
			const struct llbench_result *b = NULL;
			unsigned int j;

			for (j = 0; c && j < c->nllbench; j++)
				if (!strcmp(c->llbench[j].op, first->llbench[k].op))
					b = &c->llbench[j];
			if (b)
				snprintf(buf, sizeof(buf), "%.2f [%.2f–%.2f]", b->median_ns, b->min_ns, b->max_ns);
			fprintf(f, " %s |", b ? buf : "–");
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* summary.json */

static json_object *json_modules(const struct cell *c)
{
	json_object *o, *a;
	unsigned int k;

	if (!c->has_modules)
		return NULL;
	o = json_object_new_object();
	a = json_object_new_array();
	for (k = 0; k < c->nllcheck; k++) {
		const struct llcheck_result *r = &c->llcheck[k];
		json_object *s = json_object_new_object();

		json_object_object_add(s, "scenario", json_object_new_string(r->scenario));
		json_object_object_add(s, "loaded", json_object_new_boolean(r->loaded));
		json_object_object_add(s, "detected", json_object_new_boolean(r->detected));
		json_object_object_add(s, "kind", r->detected ? json_object_new_string(r->kind) : NULL);
		json_object_object_add(s, "line", r->detected ? json_object_new_string(r->line) : NULL);
		json_object_object_add(s, "irqs_off_in_irqsave_sections", json_object_new_string(r->irqs_off));
		json_object_object_add(s, "debug_locks", r->debug_locks < 0 ? NULL : json_object_new_int(r->debug_locks));
		json_object_array_add(a, s);
	}
	json_object_object_add(o, "llcheck", a);
	a = json_object_new_array();
	for (k = 0; k < c->nllbench; k++) {
		const struct llbench_result *b = &c->llbench[k];
		json_object *s = json_object_new_object();

		json_object_object_add(s, "op", json_object_new_string(b->op));
		json_object_object_add(s, "iterations", json_object_new_int((int)b->iterations));
		json_object_object_add(s, "rounds", json_object_new_int((int)b->rounds));
		json_object_object_add(s, "min_ns", json_object_new_double(b->min_ns));
		json_object_object_add(s, "median_ns", json_object_new_double(b->median_ns));
		json_object_object_add(s, "max_ns", json_object_new_double(b->max_ns));
		json_object_array_add(a, s);
	}
	json_object_object_add(o, "llbench", a);
	return o;
}


static void modules_json_cell(json_object *o, const struct run *run, const struct cell *c)
{
	(void)run;
	json_object_object_add(o, "modules", json_modules(c));
}

const struct pass_ops pass_modules = {
	.name = "modules",
	.load = modules_pass_load,
	.run_finish = modules_run_finish,
	.md_section = md_modules,
	.json_cell = modules_json_cell,
};
