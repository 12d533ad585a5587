// SPDX-License-Identifier: GPL-2.0
/*
 * cell.c - read one result cell: meta, cyclictest JSON and text, latency
 * traces, findings, path hits and workload statistics.
 */
#define _GNU_SOURCE
#include "cell.h"

#include <ctype.h>
#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "locklat.h"

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

int call_sites_load(struct call_sites *cs, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	memset(cs, 0, sizeof(*cs));
	if (!f)
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		char *bar = strchr(line, '|'), *tok, *save = NULL;
		struct call_site *site;

		if (line[0] == '#' || !bar)
			continue;
		*bar = '\0';
		cs->sites = realloc(cs->sites, (cs->count + 1) * sizeof(*cs->sites));
		if (!cs->sites)
			err_exit(LL_EXIT_FAIL, "out of memory");
		site = &cs->sites[cs->count++];
		memset(site, 0, sizeof(*site));
		site->name = strdup(trim(line));
		for (tok = strtok_r(bar + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			site->functions = realloc(site->functions,
						  (site->nfunctions + 1) * sizeof(char *));
			if (!site->functions)
				err_exit(LL_EXIT_FAIL, "out of memory");
			site->functions[site->nfunctions++] = strdup(trim(tok));
		}
	}
	free(line);
	fclose(f);
	return 0;
}

void call_sites_free(struct call_sites *cs)
{
	unsigned int i, j;

	for (i = 0; i < cs->count; i++) {
		for (j = 0; j < cs->sites[i].nfunctions; j++)
			free(cs->sites[i].functions[j]);
		free(cs->sites[i].functions);
		free(cs->sites[i].name);
	}
	free(cs->sites);
	memset(cs, 0, sizeof(*cs));
}

static const char *call_site_of(const struct call_sites *cs, const char *function)
{
	unsigned int i, j;

	for (i = 0; cs && i < cs->count; i++)
		for (j = 0; j < cs->sites[i].nfunctions; j++)
			if (strcmp(cs->sites[i].functions[j], function) == 0)
				return cs->sites[i].name;
	return NULL;
}

static int json_u64(json_object *obj, const char *key, uint64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return -1;
	*out = (uint64_t)json_object_get_int64(v);
	return 0;
}

int cyclictest_json_load(struct cell *c, const char *path)
{
	json_object *root = json_object_from_file(path), *threads, *thr, *hist, *v;
	uint64_t sum_avg_weight = 0;
	double weighted = 0;
	int ret = -1;

	if (!root)
		return -1;
	if (!json_object_object_get_ex(root, "thread", &threads) ||
	    !json_object_is_type(threads, json_type_object))
		goto out;
	c->nthreads = 0;
	c->max_us = 0;
	c->cycles = 0;
	json_object_object_foreach(threads, id, thr_obj) {
		uint64_t max, cycles, in_hist = 0, index;

		thr = thr_obj;
		/* Threads are keyed by their number, which the windows use too. */
		if (!parse_u64(id, 0, CELL_MAX_THREADS - 1, &index))
			goto out;
		if (json_u64(thr, "max", &max) || json_u64(thr, "cycles", &cycles))
			goto out;
		c->thread_max_us[index] = max;
		c->thread_cycles[index] = cycles;
		if (index + 1 > c->nthreads)
			c->nthreads = (unsigned int)index + 1;
		if (max > c->max_us)
			c->max_us = max;
		c->cycles += cycles;
		if (json_object_object_get_ex(thr, "avg", &v)) {
			weighted += json_object_get_double(v) * (double)cycles;
			sum_avg_weight += cycles;
		}
		if (json_object_object_get_ex(thr, "histogram", &hist)) {
			json_object_object_foreach(hist, bucket, count) {
				uint64_t b, n = (uint64_t)json_object_get_int64(count);

				if (!parse_u64(bucket, 0, UINT64_MAX, &b))
					goto out;
				if (hist_add(&c->hist, b, n))
					goto out;
				in_hist += n;
			}
			/* cyclictest counts every cycle; the histogram only the in-range ones. */
			if (cycles > in_hist)
				c->hist.overflow += cycles - in_hist;
		}
	}
	c->avg_us = sum_avg_weight ? weighted / (double)sum_avg_weight : 0;
	c->has_latency = c->nthreads > 0;
	ret = c->has_latency ? 0 : -1;
out:
	json_object_put(root);
	return ret;
}

/* Sum the whitespace-separated numbers after prefix in line. */
static bool numbers_after(const char *line, const char *prefix, uint64_t *max, uint64_t *sum)
{
	const char *p;
	char *end;

	if (strncmp(line, prefix, strlen(prefix)))
		return false;
	p = line + strlen(prefix);
	*max = 0;
	*sum = 0;
	for (;;) {
		unsigned long long v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		v = strtoull(p, &end, 10);
		p = end;
		*sum += v;
		if (v > *max)
			*max = v;
	}
	return true;
}

int cyclictest_text_load(struct cell *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	uint64_t max, sum;

	if (!f)
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		if (numbers_after(line, "# Max Latencies:", &max, &sum)) {
			c->text_max_us = max;
			c->has_text_max = true;
		} else if (numbers_after(line, "# Histogram Overflows:", &max, &sum)) {
			c->text_overflow = sum;
			c->has_text_overflow = true;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

int cyclictest_samples_load(struct cell *c, const char *path, uint64_t interval_us)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, n = 0, room = 0;
	struct sample { unsigned int thread; uint64_t second, us; } *v = NULL;
	uint64_t count[CELL_MAX_THREADS] = { 0 }, expected_us[CELL_MAX_THREADS];
	unsigned int t;
	int ret = -1;

	if (!f)
		return errno == ENOENT ? 1 : -1;
	if (!c->has_latency || !interval_us)
		goto out;
	/* The first wake-up is expected one interval after the start. */
	for (t = 0; t < CELL_MAX_THREADS; t++)
		expected_us[t] = interval_us;
	while (getline(&line, &cap, f) >= 0) {
		unsigned int thread;
		unsigned long long cycle;
		long long us;
		int end = 0;
		uint64_t steps;

		/* "%8d:%8lu:%8ld": thread, cycle, latency in us */
		if (sscanf(line, " %u: %llu: %lld %n", &thread, &cycle, &us, &end) != 3 ||
		    line[end] != '\0' || thread >= c->nthreads || us < 0 ||
		    (uint64_t)us > c->thread_max_us[thread] || cycle != count[thread] ||
		    ++count[thread] > c->thread_cycles[thread])
			goto out;
		if (n == room) {
			room = room ? 2 * room : 4096;
			v = realloc(v, room * sizeof(*v));
			if (!v)
				err_exit(LL_EXIT_FAIL, "out of memory");
		}
		v[n++] = (struct sample){ thread, expected_us[thread] / 1000000, (uint64_t)us };
		if (v[n - 1].second >= CELL_MAX_SECONDS)
			goto out;
		steps = ((uint64_t)us + interval_us - 1) / interval_us;
		expected_us[thread] += interval_us * (steps ? steps : 1);
	}
	c->series_threads = c->nthreads;
	c->series_seconds = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].second + 1 > c->series_seconds)
			c->series_seconds = (unsigned int)v[i].second + 1;
	free(c->series);
	c->series = malloc((size_t)c->series_threads * c->series_seconds * sizeof(uint64_t) + 1);
	if (!c->series)
		err_exit(LL_EXIT_FAIL, "out of memory");
	for (size_t i = 0; i < (size_t)c->series_threads * c->series_seconds; i++)
		c->series[i] = LL_NO_VALUE;
	for (size_t i = 0; i < n; i++) {
		uint64_t *slot = &c->series[v[i].thread * c->series_seconds + v[i].second];

		if (*slot == LL_NO_VALUE || v[i].us > *slot)
			*slot = v[i].us;
	}
	c->has_series = n > 0;
	ret = 0;
out:
	free(v);
	free(line);
	fclose(f);
	return ret;
}

int trace_load(struct trace_worst *t, const char *dir, const struct call_sites *cs)
{
	char path[4096];
	char *line = NULL;
	size_t cap = 0;
	unsigned int i;
	FILE *f;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/tracing_max_latency", dir);
	if (read_u64_file(path, &t->max_us))
		return 1;
	t->present = true;
	snprintf(path, sizeof(path), "%s/trace.txt", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) >= 0) {
		char *s = trim(line);
		unsigned long long v;

		if (sscanf(s, "# latency: %llu us", &v) == 1)
			t->header_us = v;
		else if (!strncmp(s, "#  => started at:", 17))
			copy_str(t->started, sizeof(t->started), trim(s + 17));
		else if (!strncmp(s, "#  => ended at:", 15))
			copy_str(t->ended, sizeof(t->ended), trim(s + 15));
		else if (!strncmp(s, "=> ", 3) && t->nstack < 8)
			copy_str(t->stack[t->nstack++], sizeof(t->stack[0]), trim(s + 3));
	}
	free(line);
	fclose(f);

	/* Attribute: the section's ends first, then its callers. */
	t->call_site = t->started[0] ? call_site_of(cs, t->started) : NULL;
	if (!t->call_site && t->ended[0])
		t->call_site = call_site_of(cs, t->ended);
	for (i = 0; !t->call_site && i < t->nstack; i++)
		t->call_site = call_site_of(cs, t->stack[i]);
	if (t->call_site)
		snprintf(t->culprit, sizeof(t->culprit), "%s → %s",
			 t->started[0] ? t->started : "?", t->call_site);
	else
		copy_str(t->culprit, sizeof(t->culprit), t->started[0] ? t->started : "?");
	return 0;
}

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
	copy_str(r->scenario, sizeof(r->scenario), scenario);
	copy_str(r->irqs_off, sizeof(r->irqs_off), "?");
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
				copy_str(r->kind, sizeof(r->kind), line);
				copy_str(r->line, sizeof(r->line), trim(t2 + 1));
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

int modules_load(struct cell *c, const char *dir)
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
	list = strdup(kv_str(&conf, "llcheck_scenarios", ""));
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

/* The last step console.log shows started and not ended ("" if none). */
static void console_hung_step(char *out, size_t size, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *p, name[24];
	size_t cap = 0;

	out[0] = '\0';
	if (!f)
		return;
	while (getline(&line, &cap, f) >= 0) {
		p = strstr(line, "locklat: step ");
		if (!p || sscanf(p, "locklat: step %23[a-z]:", name) != 1)
			continue;
		if (strstr(p, ": start"))
			copy_str(out, size, name);
		else if (strstr(p, ": exit"))
			out[0] = '\0';
	}
	free(line);
	fclose(f);
}

/* guest/steps has "latency 0": the latency pass ran to its end. */
static bool steps_latency_ok(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[128];
	bool ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		ok |= !strcmp(line, "latency 0\n");
	fclose(f);
	return ok;
}

static void findings_load(struct cell *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) >= 0 && c->nfindings < CELL_MAX_ITEMS) {
		struct finding *fd = &c->findings[c->nfindings];
		char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;

		if (!t2)
			continue;
		*t1 = *t2 = '\0';
		copy_str(fd->kind, sizeof(fd->kind), line);
		fd->count = (unsigned int)strtoul(t1 + 1, NULL, 10);
		copy_str(fd->line, sizeof(fd->line), trim(t2 + 1));
		c->nfindings++;
	}
	free(line);
	fclose(f);
}

/* "function hits" lines; a target the kernel could not trace says "unavailable". */
static void hits_load(struct cell *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256], fn[80], count[32];
	uint64_t n;

	if (!f)
		return;
	while (c->nhits < CELL_MAX_ITEMS && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%79s %31s", fn, count) != 2 || !parse_u64(count, 0, UINT64_MAX, &n))
			continue;
		copy_str(c->hits[c->nhits].function, sizeof(fn), fn);
		c->hits[c->nhits++].hits = n;
	}
	fclose(f);
}

static void stats_load(struct cell *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) >= 0)
		if (!strncmp(line, "locklat-stats ", 14))
			copy_str(c->workload_stats, sizeof(c->workload_stats), trim(line + 14));
	free(line);
	fclose(f);
}

bool cell_panicked(const struct cell *c)
{
	unsigned int k;

	for (k = 0; k < c->nfindings; k++)
		if (!strcmp(c->findings[k].kind, "panic"))
			return true;
	return false;
}

static void invalidate(struct cell *c, const char *why)
{
	c->status = "INVALID";
	copy_str(c->reason_buf, sizeof(c->reason_buf), why);
	c->reason = c->reason_buf;
}

int cell_load(struct cell *c, const char *dir, const struct call_sites *cs)
{
	char path[4096];
	uint64_t rep, interval_us = 0;

	memset(c, 0, sizeof(*c));
	c->dir = strdup(dir);
	snprintf(path, sizeof(path), "%s/meta", dir);
	if (kv_load(&c->meta, path))
		return errno == ENOENT ? 1 : -1;
	if (strcmp(kv_str(&c->meta, "complete", "0"), "1"))
		return 1;
	c->variant = kv_str(&c->meta, "variant", "?");
	c->workload = kv_str(&c->meta, "workload", "?");
	c->status = kv_str(&c->meta, "status", "INVALID");
	c->reason = kv_str(&c->meta, "reason", "");
	c->accel = kv_str(&c->meta, "accel", "?");
	c->rep = parse_u64(kv_str(&c->meta, "rep", ""), 1, 1000000, &rep) ? (unsigned int)rep : 0;
	/* cyclictest's interval, to place samples in time (older cells lack it). */
	parse_u64(kv_str(&c->meta, "interval_us", ""), 1, 1000000000, &interval_us);
	/* The histogram's range, for percentiles that fall among its overflows. */
	parse_u64(kv_str(&c->meta, "hist_range_us", "400000"), 1, UINT64_MAX, &c->hist.range_us);

	snprintf(path, sizeof(path), "%s/guest/cyclictest.json", dir);
	if (cyclictest_json_load(c, path) == 0) {
		snprintf(path, sizeof(path), "%s/guest/cyclictest.out", dir);
		cyclictest_text_load(c, path);
		/* Cross-check: cyclictest's text and JSON must agree. */
		if (c->has_text_max && c->text_max_us != c->max_us)
			invalidate(c, "cyclictest's text and JSON maxima disagree");
		else if (c->has_text_overflow && c->text_overflow != c->hist.overflow)
			invalidate(c, "cyclictest's histogram overflow counts disagree");
		snprintf(path, sizeof(path), "%s/guest/cyclictest-samples", dir);
		if (cyclictest_samples_load(c, path, interval_us) < 0)
			invalidate(c, "cyclictest's samples (-v) are malformed or disagree with its JSON");
	}
	snprintf(path, sizeof(path), "%s/guest/preemptoff", dir);
	trace_load(&c->preemptoff, path, cs);
	snprintf(path, sizeof(path), "%s/guest/irqsoff", dir);
	trace_load(&c->irqsoff, path, cs);
	if (c->preemptoff.present && c->preemptoff.header_us &&
	    c->preemptoff.header_us != c->preemptoff.max_us)
		invalidate(c, "preemptoff: trace header and tracing_max_latency disagree");
	modules_load(c, dir);
	snprintf(path, sizeof(path), "%s/guest/steps", dir);
	c->latency_step_ok = steps_latency_ok(path);
	snprintf(path, sizeof(path), "%s/findings", dir);
	findings_load(c, path);
	/* A panic, like a hang, leaves a step started and not ended. */
	if (!strcmp(c->status, "TIMEOUT") || cell_panicked(c)) {
		snprintf(path, sizeof(path), "%s/console.log", dir);
		console_hung_step(c->hung_step, sizeof(c->hung_step), path);
	}
	snprintf(path, sizeof(path), "%s/guest/path-hits", dir);
	hits_load(c, path);
	snprintf(path, sizeof(path), "%s/guest/workload-latency.out", dir);
	stats_load(c, path);
	return 0;
}

void cell_free(struct cell *c)
{
	free(c->series);
	hist_free(&c->hist);
	kv_free(&c->meta);
	free(c->dir);
	memset(c, 0, sizeof(*c));
}
