// SPDX-License-Identifier: GPL-2.0
/*
 * render-json.c - summary.json, for tools: every cell, group and
 * comparison with the values the markdown rounds.
 */
#define _GNU_SOURCE
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locklat.h"
#include "output.h"
#include "pass.h"
#include "render.h"
#include "run.h"

static json_object *json_values(const double *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_double(v[i]));
	return a;
}

json_object *json_blame(const struct blame *b)
{
	static const char *const kinds[] = { [BLAME_NONE] = "none", [BLAME_SITE] = "call_site",
					     [BLAME_INTERRUPT] = "interrupt" };
	json_object *o = json_object_new_object();

	json_object_object_add(o, "kind", json_object_new_string(kinds[b->kind]));
	json_object_object_add(o, "call_site", b->call_site ? json_object_new_string(b->call_site) : NULL);
	json_object_object_add(o, "interrupt", b->interrupt[0] ? json_object_new_string(b->interrupt) : NULL);
	json_object_object_add(o, "section", json_object_new_string(b->section));
	json_object_object_add(o, "context", json_object_new_string(b->context));
	json_object_object_add(o, "text", json_object_new_string(b->text));
	return o;
}

json_object *json_runs(const double *runs, unsigned int n)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_double(runs[i]));
	return a;
}

static json_object *json_integrity(const struct integrity *in)
{
	json_object *o;

	if (!in->present)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "checked", json_object_new_int64((int64_t)in->checked));
	json_object_object_add(o, "errors", json_object_new_int64((int64_t)in->errors));
	json_object_object_add(o, "first", in->errors ? json_object_new_string(in->first) : NULL);
	json_object_object_add(o, "pass", in->errors ? json_object_new_string(in->first_pass) : NULL);
	json_object_object_add(o, "passes", json_object_new_int((int)in->passes));
	return o;
}

/* A group's maximum by pass length (run.h: length_s), keyed by seconds; null without one. */
static json_object *json_max_by_length(const struct group *g)
{
	json_object *o;
	unsigned int j;
	char key[16];

	if (!g->nlengths)
		return NULL;
	o = json_object_new_object();
	for (j = 0; j < g->nlengths; j++) {
		snprintf(key, sizeof(key), "%u", g->length_s[j]);
		json_object_object_add(o, key, json_object_new_double(g->length_max_us[j]));
	}
	return o;
}

static json_object *json_cell(const struct run *run, const struct cell *c)
{
	json_object *o = json_object_new_object(), *a;
	unsigned int k;
	size_t p;

	json_object_object_add(o, "dir", json_object_new_string(cell_rel_dir(run, c)));
	json_object_object_add(o, "variant", json_object_new_string(c->variant));
	json_object_object_add(o, "workload", json_object_new_string(c->workload));
	json_object_object_add(o, "rep", json_object_new_int((int)c->rep));
	json_object_object_add(o, "kernel_flavour", json_object_new_string(cell_flavour(c)));
	json_object_object_add(o, "status", json_object_new_string(c->status));
	json_object_object_add(o, "reason", json_object_new_string(c->reason));
	json_object_object_add(o, "accel", json_object_new_string(c->accel));
	/* Where it ran (run-matrix.sh --hosts spreads a run); null for cells that did not record it. */
	json_object_object_add(o, "host", c->host ? json_object_new_string(c->host) : NULL);
	json_object_object_add(o, "host_cpu", c->host_cpu ? json_object_new_string(c->host_cpu) : NULL);
	json_object_object_add(o, "kernel_release", json_object_new_string(c->kernel_release));
	for (p = 0; summary_passes[p]; p++)
		if (summary_passes[p]->json_cell)
			summary_passes[p]->json_cell(o, run, c);
	a = json_object_new_array();
	for (k = 0; k < c->nfindings; k++) {
		json_object *fd = json_object_new_object();

		json_object_object_add(fd, "kind", json_object_new_string(c->findings[k].kind));
		json_object_object_add(fd, "lines", json_object_new_int((int)c->findings[k].count));
		json_object_object_add(fd, "line", json_object_new_string(c->findings[k].line));
		json_object_array_add(a, fd);
	}
	json_object_object_add(o, "findings", a);
	json_object_object_add(o, "preempt_rt", c->rt_known ? json_object_new_boolean(c->preempt_rt) : NULL);
	json_object_object_add(o, "integrity", json_integrity(&c->integrity));
	return o;
}

static bool run_uses_tcg(const struct run *run)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		if (!strncmp(run->cells[i].accel, "tcg", 3))
			return true;
	return false;
}

/*
 * What the run was made with, each the distinct values over its cells
 * (", "-separated; the pass settings over the cells with a latency pass):
 * what locklat-compare holds two runs' settings against.
 */
static json_object *json_settings(const struct run *run)
{
	static const struct {
		const char *name;
		enum cell_setting setting;
		bool latency_only;
	} settings[] = {
		{ "accel", CS_ACCEL, true },
		{ "vcpus", CS_VCPUS, true },
		{ "guest_mem_mib", CS_GUEST_MEM_MIB, true },
		{ "duration_s", CS_DURATION_S, true },
		{ "warmup_s", CS_WARMUP_S, true },
		{ "trace_duration_s", CS_TRACE_DURATION_S, true },
		{ "hist_range_us", CS_HIST_RANGE_US, true },
		{ "kernel_source", CS_KERNEL_SOURCE, false },
		{ "gcc", CS_GCC, false },
		{ "qemu", CS_QEMU, false },
		{ "rt_tests", CS_RT_TESTS, false },
		{ "host_cpu", CS_HOST_CPU, false },
		{ "suite_revision", CS_SUITE_REVISION, false },
	};
	json_object *o = json_object_new_object();
	char buf[2048];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(settings); i++) {
		setting_values_of(run, settings[i].setting, settings[i].latency_only, buf, sizeof(buf));
		json_object_object_add(o, settings[i].name, json_object_new_string(buf));
	}
	return o;
}

static json_object *json_stratum(const struct stratum *s);

/* What every summary.json begins with: the cells' result layout (they all share one: run-matrix.sh's layout check) and the run's name. */
static void json_header(json_object *root, const struct run *run)
{
	json_object_object_add(root, "layout_version",
			       json_object_new_int(run->ncells ? (int)run->cells[0].layout_version : 0));
	json_object_object_add(root, "run", json_object_new_string(run_name(run)));
}

/* root into summary.json, whole, and released. */
static void json_write(const struct run *run, json_object *root)
{
	FILE *f = render_open(run, "summary.json");

	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	render_close(f, run, "summary.json");
	json_object_put(root);
}

void render_json(const struct run *run)
{
	json_object *root = json_object_new_object(), *cells = json_object_new_array();
	json_object *groups = json_object_new_array(), *cmps = json_object_new_array();
	char buf[2048];
	size_t i;

	setting_values(run, CS_ACCEL, buf, sizeof(buf));
	json_header(root, run);
	json_object_object_add(root, "accelerators", json_object_new_string(buf));
	json_object_object_add(root, "instruction_time", json_object_new_boolean(run_uses_tcg(run)));
	json_object_object_add(root, "incomplete_cells", json_object_new_int64((int64_t)run->partial));
	json_object_object_add(root, "startup_window_s", json_object_new_double((double)run->window_us / 1e6));
	json_object_object_add(root, "settings", json_settings(run));
	if (run->only)
		json_object_object_add(root, "stratum", json_stratum(run->only));
	for (i = 0; i < run->ncells; i++)
		json_object_array_add(cells, json_cell(run, &run->cells[i]));
	for (i = 0; i < run->ngroups; i++) {
		const struct group *g = &run->groups[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "variant", json_object_new_string(g->variant));
		json_object_object_add(o, "workload", json_object_new_string(g->workload));
		json_object_object_add(o, "cells", json_object_new_int64((int64_t)g->ncells));
		json_object_object_add(o, "measured", json_object_new_int64((int64_t)g->n));
		json_object_object_add(o, "died_in_latency", json_object_new_int64((int64_t)g->died));
		json_object_object_add(o, "load_dead", json_object_new_int64((int64_t)g->load_dead));
		json_object_object_add(o, "max_us", json_values(g->max, g->n));
		json_object_object_add(o, "max_is_lower_bound", json_object_new_boolean(g->max_censored));
		json_object_object_add(o, "startup_max_us", g->steady ? json_values(g->startup_max, g->n) : NULL);
		json_object_object_add(o, "block_median_us", g->min_blocks ? json_values(g->block_median, g->n) : NULL);
		json_object_object_add(o, "steady_seconds_min", json_object_new_int((int)g->min_blocks));
		json_object_object_add(o, "max_by_length_us", json_max_by_length(g));
		json_object_object_add(o, "wakeups_recorded_after_window", json_object_new_int64((int64_t)g->samples));
		json_object_object_add(o, "wakeups_due_after_window", g->steady ? json_object_new_int64((int64_t)g->wakeups_due) : NULL);
		json_object_object_add(o, "p99_us", json_values(g->p99, g->n));
		json_object_object_add(o, "p999_us", json_values(g->p999, g->n));
		json_object_object_add(o, "p50_us", json_values(g->p50, g->n));
		json_object_object_add(o, "median_max_us", json_object_new_double(median(g->max, g->n)));
		json_object_object_add(o, "preemptoff_worst_us", json_object_new_int64((int64_t)g->preemptoff_us));
		json_object_object_add(o, "irqsoff_worst_us", json_object_new_int64((int64_t)g->irqsoff_us));
		json_object_object_add(o, "preemptoff_flagged", json_object_new_boolean(g->preemptoff_flagged));
		json_object_object_add(o, "irqsoff_flagged", json_object_new_boolean(g->irqsoff_flagged));
		json_object_object_add(o, "worst_wakeup_culprit", g->wakeup_cell && g->wakeup_cell->wakeup.hit ?
			json_object_new_string(g->wakeup_cell->wakeup.blame.text) : NULL);
		json_object_object_add(o, "worst_wakeup_flagged", json_object_new_boolean(g->wakeup_flagged));
		json_object_object_add(o, "worst_wakeup_inflated", json_object_new_boolean(g->wakeup_inflated));
		json_object_object_add(o, "latency_max_us", json_object_new_double(g->latency_max_us));
		json_object_object_add(o, "traced_kernel_max_us", isnan(g->traced_max_us) ? NULL :
			json_object_new_int64((int64_t)g->traced_max_us));
		json_object_object_add(o, "trace_reference_us", json_object_new_double(g->trace_ref_us));
		json_object_object_add(o, "findings", json_object_new_int((int)g->findings));
		json_object_array_add(groups, o);
	}
	for (i = 0; i < run->ncmps; i++) {
		const struct comparison *cmp = &run->cmps[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "workload", json_object_new_string(cmp->workload));
		json_object_object_add(o, "a", json_object_new_string(cmp->a->variant));
		json_object_object_add(o, "b", json_object_new_string(cmp->b->variant));
		json_object_object_add(o, "n_a", json_object_new_int64((int64_t)cmp->na));
		json_object_object_add(o, "n_b", json_object_new_int64((int64_t)cmp->nb));
		json_object_object_add(o, "failed_a", json_object_new_int64((int64_t)cmp->fa));
		json_object_object_add(o, "failed_b", json_object_new_int64((int64_t)cmp->fb));
		json_object_object_add(o, "p_failed", json_double_or_null(cmp->p_failed));
		json_object_object_add(o, "statistic", json_object_new_string("pass maximum"));
		json_object_object_add(o, "ratio", cmp->ci.valid ? json_double_or_null(cmp->ci.estimate) : NULL);
		json_object_object_add(o, "ratio_ci95", json_interval(&cmp->ci));
		json_object_object_add(o, "ci_coverage", cmp->ci.valid ? json_object_new_double(cmp->ci.coverage) : NULL);
		json_object_object_add(o, "ratio_max", cmp->ci_max.valid ? json_double_or_null(cmp->ci_max.estimate) : NULL);
		json_object_object_add(o, "ratio_max_ci95", json_interval(&cmp->ci_max));
		json_object_object_add(o, "ratio_blocks", cmp->has_blocks && cmp->ci_blocks.valid ?
				       json_double_or_null(cmp->ci_blocks.estimate) : NULL);
		json_object_object_add(o, "ratio_blocks_ci95", cmp->has_blocks ? json_interval(&cmp->ci_blocks) : NULL);
		json_object_object_add(o, "ratio_median_max", json_double_or_null(cmp->ratio_medians));
		json_object_object_add(o, "p_max", json_double_or_null(cmp->p_max));
		json_object_object_add(o, "p_p99", json_double_or_null(cmp->p_p99));
		json_object_object_add(o, "verdict", json_object_new_string(cmp->verdict));
		json_object_object_add(o, "expected", json_object_new_string(expectation_name(cmp->def->expect)));
		json_object_object_add(o, "expected_bound", cmp->def->bound > 1 ? json_object_new_double(cmp->def->bound) : NULL);
		json_object_object_add(o, "expected_why", json_object_new_string(cmp->def->why));
		json_object_object_add(o, "contradicts_expectation", json_object_new_boolean(cmp->contradicts));
		json_object_array_add(cmps, o);
	}
	json_object_object_add(root, "groups", groups);
	json_object_object_add(root, "comparisons", cmps);
	json_object_object_add(root, "cells", cells);
	json_write(run, root);
}

/* The stratum a summary is of, or each stratum of an index (run.h: struct stratum). */
static json_object *json_stratum(const struct stratum *s)
{
	json_object *o = json_object_new_object();
	char path[256];

	snprintf(path, sizeof(path), "by-host/%s/summary.json", s->name);
	json_object_object_add(o, "name", json_object_new_string(s->name));
	json_object_object_add(o, "accel", json_object_new_string(s->accel));
	json_object_object_add(o, "host_cpu", json_object_new_string(s->host_cpu));
	json_object_object_add(o, "hosts", json_object_new_string(s->hosts));
	json_object_object_add(o, "cells", json_object_new_int64((int64_t)s->ncells));
	json_object_object_add(o, "summary", json_object_new_string(path));
	if (s->answer[0])
		json_object_object_add(o, "answer", json_object_new_string(s->answer));
	return o;
}

/* A run of several strata: summary.json lists them, and holds no group or comparison. */
void render_json_index(const struct run *run)
{
	json_object *root = json_object_new_object(), *strata = json_object_new_array();
	size_t i;

	json_header(root, run);
	for (i = 0; i < run->nstrata; i++)
		json_object_array_add(strata, json_stratum(&run->strata[i]));
	json_object_object_add(root, "strata", strata);
	json_write(run, root);
}
