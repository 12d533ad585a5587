// SPDX-License-Identifier: GPL-2.0
/*
 * test-csvjson RUN - summary.csv against summary.json, cell by cell: every
 * column of the CSV is the member of the JSON's cell of the same name
 * (a dotted path where the JSON nests it), with the same value; an empty
 * field is the JSON's null. Prints TAP, a test per column (tests/summary.t
 * runs it on the fixture run's summary).
 */
#define _GNU_SOURCE
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define MAX_FIELDS 64

/* Each column and where summary.json's cell has it; "findings" is how many findings (splat events) it has. */
static const struct {
	const char *column, *path;
} columns[] = {
	{ "variant", "variant" },
	{ "workload", "workload" },
	{ "rep", "rep" },
	{ "kernel_flavour", "kernel_flavour" },
	{ "status", "status" },
	{ "reason", "reason" },
	{ "accel", "accel" },
	{ "max_us", "max_us" },
	{ "max_is_lower_bound", "max_is_lower_bound" },
	{ "startup_max_us", "startup_max_us" },
	{ "startup_window_s", "startup_window_s" },
	{ "cyclictest_max_us", "cyclictest_max_us" },
	{ "p50_us", "p50_us" },
	{ "p99_us", "p99_us" },
	{ "p999_us", "p999_us" },
	{ "samples", "samples" },
	{ "overflow", "overflow" },
	{ "load_verdict", "load.verdict" },
	{ "load_died_at_s", "load.died_at_s" },
	{ "load_reason", "load.reason" },
	{ "preemptoff_us", "preemptoff.max_us" },
	{ "preemptoff_culprit", "preemptoff.blame.text" },
	{ "irqsoff_us", "irqsoff.max_us" },
	{ "irqsoff_culprit", "irqsoff.blame.text" },
	{ "findings", NULL },
	{ "dir", "dir" },
	{ "integrity_errors", "integrity.errors" },
	{ "tasks_per_cpu", "tasks_per_cpu" },
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

/* One CSV record of f (RFC 4180: quoted fields may hold commas, quotes and newlines) into fields; how many, -1 at EOF. */
static int csv_record(FILE *f, char **fields)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int n = 0, c, quoted = 0, any = 0;

	for (;;) {
		c = fgetc(f);
		if (c == EOF && !any)
			return -1;
		any = 1;
		if (quoted) {
			if (c == '"') {
				c = fgetc(f);
				if (c != '"') {
					quoted = 0;
					ungetc(c, f);
					continue;
				}
			} else if (c == EOF) {
				c = '\n';
			}
		} else if (c == '"') {
			quoted = 1;
			continue;
		} else if (c == ',' || c == '\n' || c == EOF) {
			if (len + 1 > cap)
				buf = realloc(buf, cap = len + 1);
			buf[len] = '\0';
			if (n < MAX_FIELDS)
				fields[n++] = strdup(buf);
			len = 0;
			if (c != ',')
				break;
			continue;
		}
		if (len + 2 > cap)
			buf = realloc(buf, cap = 2 * cap + 64);
		buf[len++] = (char)c;
	}
	free(buf);
	return n;
}

/* The member at a dotted path of o, or NULL (absent or null). */
static json_object *json_path(json_object *o, const char *path)
{
	char key[64];
	const char *dot;

	while (o && path) {
		dot = strchr(path, '.');
		snprintf(key, sizeof(key), "%.*s", dot ? (int)(dot - path) : (int)strlen(path), path);
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path = dot ? dot + 1 : NULL;
	}
	return o;
}

/* Whether field says what v does; why into why when it does not. */
static int same_value(const char *field, json_object *v, char *why, size_t size)
{
	char *end;
	double d;

	if (!v || json_object_is_type(v, json_type_null)) {
		snprintf(why, size, "CSV '%s', JSON null", field);
		return !*field;
	}
	switch (json_object_get_type(v)) {
	case json_type_boolean:
		snprintf(why, size, "CSV '%s', JSON %s", field, json_object_get_boolean(v) ? "true" : "false");
		return !strcmp(field, json_object_get_boolean(v) ? "true" : "false");
	case json_type_int:
	case json_type_double:
		d = strtod(field, &end);
		snprintf(why, size, "CSV '%s', JSON %.17g", field, json_object_get_double(v));
		return *field && !*end && fabs(d - json_object_get_double(v)) <= 1e-6 * fmax(1, fabs(d));
	case json_type_string:
		snprintf(why, size, "CSV '%s', JSON '%s'", field, json_object_get_string(v));
		return !strcmp(field, json_object_get_string(v));
	default:
		snprintf(why, size, "JSON has an object or array there");
		return 0;
	}
}

int main(int argc, char **argv)
{
	char path[4096], *header[MAX_FIELDS], *row[MAX_FIELDS], why[1024];
	int index_of[NCOLUMNS], nh, n, k, dir = -1;
	json_object *root, *cells, *cell;
	size_t rows = 0, i, c, bad[NCOLUMNS] = { 0 };
	char first_bad[NCOLUMNS][1200];
	FILE *f;

	if (argc != 2) {
		printf("1..0 # SKIP usage: test-csvjson RUN (tests/summary.t runs it)\n");
		return 4;
	}
	snprintf(path, sizeof(path), "%s/summary.json", argv[1]);
	root = json_object_from_file(path);
	if (!root || !json_object_object_get_ex(root, "cells", &cells)) {
		printf("1..0 # SKIP no cells in %s\n", path);
		return 4;
	}
	snprintf(path, sizeof(path), "%s/summary.csv", argv[1]);
	f = fopen(path, "r");
	tap_plan((int)NCOLUMNS + 2);
	nh = f ? csv_record(f, header) : -1;
	ok(nh == (int)NCOLUMNS, "summary.csv has the %zu columns summary.json's cells are read by (got %d)", NCOLUMNS, nh);
	for (c = 0; c < NCOLUMNS; c++) {
		index_of[c] = -1;
		for (k = 0; k < nh; k++)
			if (!strcmp(header[k], columns[c].column))
				index_of[c] = k;
		first_bad[c][0] = '\0';
		if (!strcmp(columns[c].column, "dir"))
			dir = index_of[c];
	}
	while (f && (n = csv_record(f, row)) > 0) {
		cell = NULL;
		/* The JSON's cell with this row's dir. */
		for (i = 0; dir >= 0 && dir < n && i < json_object_array_length(cells); i++) {
			json_object *d = json_path(json_object_array_get_idx(cells, i), "dir");

			if (d && !strcmp(json_object_get_string(d), row[dir]))
				cell = json_object_array_get_idx(cells, i);
		}
		rows++;
		for (c = 0; c < NCOLUMNS; c++) {
			const char *field = index_of[c] >= 0 && index_of[c] < n ? row[index_of[c]] : "(no column)";
			json_object *v;
			int same;

			if (!columns[c].path) {
				json_object *a = json_path(cell, "findings");

				v = json_object_new_int64(a ? (int64_t)json_object_array_length(a) : 0);
				same = cell && same_value(field, v, why, sizeof(why));
				json_object_put(v);
			} else {
				same = cell && same_value(field, json_path(cell, columns[c].path), why, sizeof(why));
			}
			if (!same && !bad[c]++)
				snprintf(first_bad[c], sizeof(first_bad[c]), "%s: %s", cell ? row[dir] : "no JSON cell", why);
		}
		for (k = 0; k < n; k++)
			free(row[k]);
	}
	ok(rows == json_object_array_length(cells), "a row per cell: %zu rows, %zu cells", rows,
	   json_object_array_length(cells));
	for (c = 0; c < NCOLUMNS; c++)
		ok(!bad[c] && index_of[c] >= 0, "%s is the JSON's %s in every row%s%s", columns[c].column,
		   columns[c].path ? columns[c].path : "findings[], counted", bad[c] ? ": first differs at " : "",
		   first_bad[c]);
	if (f)
		fclose(f);
	json_object_put(root);
	return tap_failed ? 1 : 0;
}
