// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - the summary's first stage: a run directory's cells
 * (cell_load for each <variant>/<workload>/<cell>/) and the definitions
 * they are judged by (kernels/comparisons, the llcheck scenarios) into a
 * struct run. Nothing here judges or writes.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load.h"
#include "locklat.h"
#include "run.h"
#include "table.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of dir (without "." entries and .partial). */
static char **subdirs(const char *dir, size_t *n, size_t *partial)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char path[4096];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		path_join(path, sizeof(path), dir, de->d_name);
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (strstr(de->d_name, ".partial")) {
			if (partial)
				(*partial)++;
			continue;
		}
		names = xrealloc(names, (*n + 1) * sizeof(*names));
		names[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_str);
	return names;
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* A cell's host CPU model; NULL for a cell that ran on no host (a kernel that did not build). */
static const char *cell_host_cpu(const struct cell *c)
{
	return kv_str(&c->meta, "host_cpu", NULL);
}

/* Whether cell c is one of stratum s's: its accelerator and host CPU, or no host at all. */
static bool stratum_has(const struct stratum *s, const struct cell *c)
{
	const char *cpu = cell_host_cpu(c);

	return !cpu || (!strcmp(c->accel, s->accel) && !strcmp(cpu, s->host_cpu));
}

/*
 * The folder that holds a run's cells, <variant>/<workload>/<cell>: RUN/cells
 * (result layout 6, results/README.md); RUN itself in older layouts, where
 * cells shared the top level with the run's own folders.
 */
static void cells_root(char *buf, size_t len, const char *dir)
{
	struct stat st;

	path_join(buf, len, dir, "cells");
	if (stat(buf, &st) || !S_ISDIR(st.st_mode))
		snprintf(buf, len, "%s", dir);
}

void run_load(struct run *run, const char *dir, const struct call_sites *cs)
{
	size_t nv, nw, nr, v, w, r;
	char root[4096], **variants;

	cells_root(root, sizeof(root), dir);
	variants = subdirs(root, &nv, NULL);
	for (v = 0; v < nv; v++) {
		char vdir[4096];
		char **workloads;

		/* An older layout: the summary's own outputs, not variants. */
		if (!strcmp(variants[v], "plot-data") || !strcmp(variants[v], "by-host"))
			continue;
		path_join(vdir, sizeof(vdir), root, variants[v]);
		workloads = subdirs(vdir, &nw, NULL);
		for (w = 0; w < nw; w++) {
			char wdir[4096];
			char **reps;

			path_join(wdir, sizeof(wdir), vdir, workloads[w]);
			reps = subdirs(wdir, &nr, &run->partial);
			for (r = 0; r < nr; r++) {
				char cdir[4096];
				struct cell *c;

				path_join(cdir, sizeof(cdir), wdir, reps[r]);
				run->cells = xrealloc(run->cells, (run->ncells + 1) * sizeof(*c));
				c = &run->cells[run->ncells];
				switch (cell_load(c, cdir, cs, run->window_us)) {
				case 0:
					if (run->only && !stratum_has(run->only, c)) {
						cell_free(c);
						break;
					}
					run->ncells++;
					break;
				case 1:
					run->partial++;
					cell_free(c);
					break;
				default:
					err_exit_errno(LL_EXIT_FAIL, "read %s", cdir);
				}
			}
			free_names(reps, nr);
		}
		free_names(workloads, nw);
	}
	free_names(variants, nv);
}

/*
 * "A | B | workload | expected | why" lines (kernels/comparisons), one
 * "question | A | B | workload": the comparison the summary names first,
 * and "verdict | A | B" lines: the pairs of the reviewer's verdict.
 */
void comparisons_load(struct run *run, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *field[5], *bound, *end;
	size_t cap = 0, lineno = 0;
	double bound_x;
	int e;

	if (!f)
		err_exit_errno(LL_EXIT_FAIL, "read %s", path);
	while (getline(&line, &cap, f) >= 0) {
		struct comparison_def *d;
		size_t n;

		lineno++;
		n = table_fields(line, field, 5);
		if (!n)
			continue;
		if (!strcmp(field[0], "verdict")) {
			if (n != 3)
				err_exit(LL_EXIT_FAIL, "%s:%zu: want 'verdict | A | B'", path, lineno);
			run->verdicts = xrealloc(run->verdicts, (run->nverdicts + 1) * sizeof(*run->verdicts));
			run->verdicts[run->nverdicts].equivalence = NULL;
			run->verdicts[run->nverdicts].a = xstrdup(field[1]);
			run->verdicts[run->nverdicts++].b = xstrdup(field[2]);
			continue;
		}
		if (!strcmp(field[0], "question")) {
			if (n != 4)
				err_exit(LL_EXIT_FAIL, "%s:%zu: want 'question | A | B | workload'", path, lineno);
			free(run->question_a);
			free(run->question_b);
			free(run->question_workload);
			run->question_a = xstrdup(field[1]);
			run->question_b = xstrdup(field[2]);
			run->question_workload = xstrdup(field[3]);
			continue;
		}
		if (n != 5)
			err_exit(LL_EXIT_FAIL, "%s:%zu: want 'A | B | workload | expected | why'", path, lineno);
		bound = strchr(field[3], ' ');
		if (bound)
			*bound++ = '\0';
		e = expectation_parse(field[3]);
		if (e < 0)
			err_exit(LL_EXIT_FAIL, "%s:%zu: unknown expectation '%s' (open, same, lower, higher, not-higher, not-lower)",
				 path, lineno, field[3]);
		bound_x = 0;
		if (bound) {
			bound_x = strtod(bound, &end);
			if (end == bound || (strcmp(end, "x") && strcmp(end, "×")) || !(bound_x > 1) || e == EXPECT_OPEN)
				err_exit(LL_EXIT_FAIL, "%s:%zu: expectation '%s %s': want a bound like '100x' (a number over 1, "
					 "then x) after any expectation but open", path, lineno, field[3], bound);
		}
		run->defs = xrealloc(run->defs, (run->ndefs + 1) * sizeof(*d));
		d = &run->defs[run->ndefs++];
		d->a = xstrdup(field[0]);
		d->b = xstrdup(field[1]);
		d->workload = xstrdup(field[2]);
		d->expect = (enum expectation)e;
		d->bound = bound_x;
		d->why = xstrdup(field[4]);
	}
	free(line);
	fclose(f);
}

/* "name | what | expected" lines; a file that cannot be read leaves the expectations blank. */
void scenarios_load(struct run *run, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *field[3];
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) >= 0) {
		struct scenario_def *d;

		if (table_fields(line, field, 3) != 3)
			continue;
		run->scenarios = xrealloc(run->scenarios, (run->nscenarios + 1) * sizeof(*d));
		d = &run->scenarios[run->nscenarios++];
		d->name = xstrdup(field[0]);
		d->expectation = xstrdup(field[2]);
	}
	free(line);
	fclose(f);
}

void run_free(struct run *run)
{
	size_t i;

	for (i = 0; i < run->ngroups; i++) {
		hist_free(&run->groups[i].hist);
		hist_free(&run->groups[i].measured);
	}
	for (i = 0; i < run->ncells; i++)
		cell_free(&run->cells[i]);
	free(run->cells);
	free(run->groups);
	free(run->cmps);
	free(run->modules_only);
	free(run->latency_planned);
	free(run->modules_cells);
	free_names(run->variants, run->nvariants);
	free_names(run->workloads, run->nworkloads);
	for (i = 0; i < run->ndefs; i++) {
		free(run->defs[i].a);
		free(run->defs[i].b);
		free(run->defs[i].workload);
		free(run->defs[i].why);
	}
	free(run->defs);
	free(run->question_a);
	free(run->question_b);
	free(run->question_workload);
	for (i = 0; i < run->nverdicts; i++) {
		free(run->verdicts[i].a);
		free(run->verdicts[i].b);
	}
	free(run->verdicts);
	for (i = 0; i < run->nscenarios; i++) {
		free(run->scenarios[i].name);
		free(run->scenarios[i].expectation);
	}
	free(run->scenarios);
	for (i = 0; i < run->nstrata; i++) {
		free(run->strata[i].name);
		free(run->strata[i].accel);
		free(run->strata[i].host_cpu);
	}
	free(run->strata);
}

void equivalence_load(struct run *run)
{
	size_t i, n;
	char path[4096];
	FILE *f;

	for (i = 0; i < run->nverdicts; i++) {
		struct verdict_pair *v = &run->verdicts[i];

		snprintf(path, sizeof(path), "%s/equivalence/%s-vs-%s.txt", run->dir, v->a, v->b);
		f = fopen(path, "r");
		if (!f)
			continue;
		v->equivalence = malloc(8192);
		if (!v->equivalence)
			err_exit(LL_EXIT_FAIL, "out of memory");
		n = fread(v->equivalence, 1, 8191, f);
		v->equivalence[n] = '\0';
		fclose(f);
	}
}

/* A folder name for a stratum: its accelerator and host CPU, lower case, runs of other characters as one '-'. */
static char *stratum_name(const char *accel, const char *cpu)
{
	char raw[256], name[128];
	size_t i, n = 0;

	snprintf(raw, sizeof(raw), "%s %s", accel, cpu);
	for (i = 0; raw[i] && n < sizeof(name) - 1; i++) {
		unsigned char ch = (unsigned char)raw[i];

		if (isalnum(ch))
			name[n++] = (char)tolower(ch);
		else if (n && name[n - 1] != '-')
			name[n++] = '-';
	}
	while (n && name[n - 1] == '-')
		n--;
	name[n] = '\0';
	return xstrdup(n ? name : "unknown");
}

/* Append value to the ", "-separated list unless it holds it already. */
static void list_add(char *list, size_t size, const char *value)
{
	size_t len = strlen(list);

	if (len && list_has(list, value))
		return;
	snprintf(list + len, size - len, "%s%s", len ? ", " : "", value);
}

static int cmp_stratum(const void *a, const void *b)
{
	return strcmp(((const struct stratum *)a)->name, ((const struct stratum *)b)->name);
}

void strata_find(struct run *run)
{
	size_t i, j;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		const char *cpu = cell_host_cpu(c);
		struct stratum *s = NULL;

		if (!cpu)
			continue;
		for (j = 0; j < run->nstrata && !s; j++)
			if (stratum_has(&run->strata[j], c))
				s = &run->strata[j];
		if (!s) {
			run->strata = xrealloc(run->strata, (run->nstrata + 1) * sizeof(*run->strata));
			s = &run->strata[run->nstrata++];
			memset(s, 0, sizeof(*s));
			s->accel = xstrdup(c->accel);
			s->host_cpu = xstrdup(cpu);
			s->name = stratum_name(c->accel, cpu);
			/* Two models may read alike as folder names: the later one numbered. */
			for (j = 0; j + 1 < run->nstrata; j++)
				if (!strcmp(run->strata[j].name, s->name)) {
					char numbered[160];

					snprintf(numbered, sizeof(numbered), "%s-%zu", s->name, run->nstrata);
					free(s->name);
					s->name = xstrdup(numbered);
					break;
				}
		}
		s->ncells++;
		list_add(s->hosts, sizeof(s->hosts), kv_str(&c->meta, "host", "?"));
	}
	qsort(run->strata, run->nstrata, sizeof(*run->strata), cmp_stratum);
}
