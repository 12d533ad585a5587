// SPDX-License-Identifier: GPL-2.0
/*
 * cell.c - read one result cell: meta, cyclictest JSON and text, latency
 * traces, findings, path hits and workload statistics.
 */
#define _GNU_SOURCE
#include "cell.h"
#include "verdict.h"

#include <ctype.h>
#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "locklat.h"
#include "table.h"

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

/* The comma-separated functions of list appended to site's. */
static void site_functions_add(struct call_site *site, char *list)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!*trim(tok))
			continue;
		site->functions = xrealloc(site->functions, (site->nfunctions + 1) * sizeof(char *));
		site->functions[site->nfunctions++] = xstrdup(trim(tok));
	}
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
		char *field[3];
		struct call_site *site;
		size_t n = table_fields(line, field, 3);

		if (!n)
			continue;
		cs->sites = xrealloc(cs->sites, (cs->count + 1) * sizeof(*cs->sites));
		site = &cs->sites[cs->count++];
		memset(site, 0, sizeof(*site));
		site->name = xstrdup(field[0]);
		site_functions_add(site, field[1]);
		site->nboundary = site->nfunctions;
		if (n > 2)
			site_functions_add(site, field[2]);
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

static int json_u64(json_object *obj, const char *key, uint64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return -1;
	*out = (uint64_t)json_object_get_int64(v);
	return 0;
}

/*
 * cyclictest writes "avg": -nan for a thread that never woke, which is not
 * JSON: such bare words after a colon become null before parsing, so that
 * the worst case of all (a starved thread) is read, not dropped.
 */
static json_object *cyclictest_json_parse(const char *path)
{
	static const char *const words[] = { "-nan", "nan", "-inf", "inf" };
	FILE *f = fopen(path, "r");
	json_object *root = NULL;
	char *text = NULL, *out, *o;
	const char *p;
	size_t size = 0, i;
	ssize_t len;

	if (!f)
		return NULL;
	len = getdelim(&text, &size, '\0', f);
	fclose(f);
	/* Each replaced word grows by at most one byte ("nan" -> "null"). */
	out = len < 0 ? NULL : malloc(2 * (size_t)len + 1);
	if (!out) {
		free(text);
		return NULL;
	}
	for (p = text, o = out; *p;) {
		*o++ = *p;
		if (*p++ != ':')
			continue;
		while (*p == ' ' || *p == '\t')
			*o++ = *p++;
		for (i = 0; i < ARRAY_SIZE(words); i++) {
			size_t n = strlen(words[i]);

			if (!strncasecmp(p, words[i], n) && !isalnum((unsigned char)p[n])) {
				memcpy(o, "null", 4);
				o += 4;
				p += n;
				break;
			}
		}
	}
	*o = '\0';
	root = json_tokener_parse(out);
	free(out);
	free(text);
	return root;
}

int cyclictest_json_load(struct cell *c, const char *path)
{
	json_object *root = cyclictest_json_parse(path), *threads, *thr, *hist, *v;
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

/* Per thread, while the sample stream is read. */
struct stream_thread {
	uint64_t printed;		/* samples seen */
	uint64_t expected_us;		/* the next expected wake-up, pass time */
	uint64_t max_us;		/* of its printed samples */
	uint64_t steady_max_us, startup_max_us;
	uint64_t steady_printed;
};

/* A value into the steady histogram; beyond its range (cyclictest's -h) it overflows, as there. */
static int steady_hist_add(struct cell *c, uint64_t us)
{
	if (c->steady_hist.range_us && us >= c->steady_hist.range_us) {
		c->steady_hist.overflow++;
		return 0;
	}
	return hist_add(&c->steady_hist, us, 1);
}

/* A wake-up of latency us expected at pass time e into its second's block maximum. */
static void block_add(struct cell *c, uint64_t e, uint64_t us)
{
	uint64_t first = (c->window_us + 999999) / 1000000, s = e / 1000000;

	if (s < first || s - first >= c->nblocks)
		return;
	if (c->blocks[s - first] == LL_NO_VALUE || us > c->blocks[s - first])
		c->blocks[s - first] = us;
}

/*
 * One printed sample of latency us expected at pass time e: into the
 * maxima and, after the window, into the corrected steady histogram with
 * the periods it made cyclictest skip. Returns -1 on ENOMEM.
 */
static int steady_add(struct cell *c, struct stream_thread *t, uint64_t e, uint64_t us)
{
	uint64_t k, steps = (us + c->interval_us - 1) / c->interval_us;

	block_add(c, e, us);
	if (e < c->window_us) {
		if (us > t->startup_max_us)
			t->startup_max_us = us;
	} else {
		if (us > t->steady_max_us)
			t->steady_max_us = us;
		t->steady_printed++;
		if (steady_hist_add(c, us))
			return -1;
	}
	/* The k-th skipped period would have woken at the same moment, k intervals later. */
	for (k = 1; k < steps; k++) {
		block_add(c, e + k * c->interval_us, us - k * c->interval_us);
		if (e + k * c->interval_us < c->window_us)
			continue;
		if (steady_hist_add(c, us - k * c->interval_us))
			return -1;
		c->steady_added++;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The block median, once the stream is read. A second no wake-up reached
 * lies inside a wait the stream did not see end (a starved thread, or the
 * unprinted tail): it counts as that uncovered wait if there is one, and is
 * left out otherwise (the tail: its wake-ups happened, unprinted).
 */
static void blocks_finish(struct cell *c)
{
	uint64_t *v = malloc((c->nblocks + 1) * sizeof(*v));
	unsigned int i, n = 0;

	if (!v)
		err_exit(LL_EXIT_FAIL, "out of memory");
	for (i = 0; i < c->nblocks; i++) {
		if (c->blocks[i] == LL_NO_VALUE && c->starved_threads)
			c->blocks[i] = c->censored_us;
		if (c->blocks[i] != LL_NO_VALUE)
			v[n++] = c->blocks[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	c->block_median_us = !n ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
}

/*
 * After the stream: what it did not print (cyclictest stops printing
 * without draining its ring, so the last wake-ups are missing; their count
 * is the JSON's cycles less the printed ones) and what no wake-up covers
 * (a thread that stopped waking). Each unprinted wake-up moved the thread's
 * clock by at most its maximum plus an interval, so a wait left uncovered
 * even by that bound, longer than LL_TAIL_SLACK_US, is a latency of at
 * least that long. (Counting each unprinted wake-up as one interval made a
 * 2-vCPU squashfs thread whose last 29 wake-ups went unprinted look starved
 * for 486 ms.)
 */
#define LL_TAIL_SLACK_US 100000
static void steady_finish(struct cell *c, struct stream_thread *st)
{
	unsigned int i;

	c->wakeups_due = c->wakeups_due_steady = c->wakeups_steady = 0;
	c->steady_max_us = c->startup_max_us = c->censored_us = 0;
	c->starved_threads = 0;
	c->steady_censored = false;
	c->max_in_tail = false;
	for (i = 0; i < c->nthreads; i++) {
		struct stream_thread *t = &st[i];
		uint64_t tail = c->thread_cycles[i] - t->printed, covered, steady = t->steady_max_us;
		bool censored = false;

		c->wakeups_due += c->duration_us / c->interval_us;
		c->wakeups_due_steady += (c->duration_us - c->window_us) / c->interval_us;
		c->wakeups_steady += t->steady_printed + tail;
		covered = t->expected_us + tail * (c->thread_max_us[i] + c->interval_us);
		/* The JSON max above every printed sample happened in the tail, after the window. */
		if (c->thread_max_us[i] > t->max_us) {
			c->max_in_tail = true;
			if (c->thread_max_us[i] > steady)
				steady = c->thread_max_us[i];
		}
		if (covered + LL_TAIL_SLACK_US < c->duration_us) {
			uint64_t wait = c->duration_us - covered;

			c->starved_threads++;
			if (wait > c->censored_us)
				c->censored_us = wait;
			if (wait > steady) {
				steady = wait;
				censored = true;
			}
		}
		if (steady > c->steady_max_us) {
			c->steady_max_us = steady;
			c->steady_censored = censored;
		}
		if (t->startup_max_us > c->startup_max_us)
			c->startup_max_us = t->startup_max_us;
		if (t->max_us > c->stream_max_us)
			c->stream_max_us = t->max_us;
	}
	blocks_finish(c);
}

int cyclictest_samples_load(struct cell *c, const char *path, uint64_t interval_us, uint64_t window_us)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, n = 0, room = 0;
	struct sample { unsigned int thread; uint64_t second, us; } *v = NULL;
	struct stream_thread st[CELL_MAX_THREADS];
	bool steady;
	unsigned int t;
	int ret = -1;

	if (!f)
		return errno == ENOENT ? 1 : -1;
	if (!c->has_latency || !interval_us)
		goto out;
	/* The steady state needs the pass length, and a pass longer than the window. */
	steady = c->duration_us > window_us;
	c->interval_us = interval_us;
	c->window_us = window_us;
	c->steady_hist.range_us = c->hist.range_us;
	/* Whole seconds after the window; the last may be cut short by the pass's end. */
	if (steady) {
		c->nblocks = (unsigned int)((c->duration_us + 999999) / 1000000 - (window_us + 999999) / 1000000);
		c->blocks = malloc((c->nblocks + 1) * sizeof(*c->blocks));
		if (!c->blocks)
			err_exit(LL_EXIT_FAIL, "out of memory");
		for (t = 0; t < c->nblocks; t++)
			c->blocks[t] = LL_NO_VALUE;
	}
	memset(st, 0, sizeof(st));
	/* The first wake-up is expected one interval after the start. */
	for (t = 0; t < CELL_MAX_THREADS; t++)
		st[t].expected_us = interval_us;
	while (getline(&line, &cap, f) >= 0) {
		unsigned int thread;
		unsigned long long cycle;
		long long us;
		int end = 0;
		uint64_t steps, e;

		/* "%8d:%8lu:%8ld": thread, cycle, latency in us */
		if (sscanf(line, " %u: %llu: %lld %n", &thread, &cycle, &us, &end) != 3 ||
		    line[end] != '\0' || thread >= c->nthreads || us < 0 ||
		    (uint64_t)us > c->thread_max_us[thread] || cycle != st[thread].printed ||
		    ++st[thread].printed > c->thread_cycles[thread])
			goto out;
		if (n == room) {
			room = room ? 2 * room : 4096;
			v = xrealloc(v, room * sizeof(*v));
		}
		e = st[thread].expected_us;
		v[n++] = (struct sample){ thread, e / 1000000, (uint64_t)us };
		if (v[n - 1].second >= CELL_MAX_SECONDS)
			goto out;
		if ((uint64_t)us > st[thread].max_us)
			st[thread].max_us = (uint64_t)us;
		if (steady && steady_add(c, &st[thread], e, (uint64_t)us))
			err_exit(LL_EXIT_FAIL, "out of memory");
		steps = ((uint64_t)us + interval_us - 1) / interval_us;
		st[thread].expected_us += interval_us * (steps ? steps : 1);
	}
	if (steady) {
		steady_finish(c, st);
		c->has_steady = true;
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

/* The number after "key=" in line, as a double; false if absent. */
static bool field_after(const char *line, const char *key, double *out)
{
	const char *p = strstr(line, key);
	char *end;

	if (!p)
		return false;
	*out = strtod(p + strlen(key), &end);
	return end != p + strlen(key);
}

/* The progress lines of out into t_s[] (uptime seconds) and ops[]; how many. */
static size_t progress_read(const char *path, double *t_s, uint64_t *ops, size_t max)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, n = 0;
	double ms, o;

	if (!f)
		return 0;
	while (getline(&line, &cap, f) >= 0 && n < max) {
		if (strncmp(line, "locklat-progress ", 17) ||
		    !field_after(line, " uptime_ms=", &ms) || !field_after(line, " ops=", &o))
			continue;
		t_s[n] = ms / 1000;
		ops[n++] = (uint64_t)o;
	}
	free(line);
	fclose(f);
	return n;
}

/* "how" the workload ended, from its wait status as the guest's shell saw it. */
static void exit_how(char *buf, size_t size, const char *status_path)
{
	uint64_t st;

	if (read_u64_file(status_path, &st))
		snprintf(buf, size, "exit status unknown");
	else if (st > 128 && st < 128 + 65)
		snprintf(buf, size, "killed by signal %llu", (unsigned long long)(st - 128));
	else
		snprintf(buf, size, "exit status %llu", (unsigned long long)st);
}

#define LOAD_MAX_LINES (LOAD_MAX_SECONDS + 8)

int load_state_load(struct load_state *l, const char *guest_dir, bool has_workload)
{
	char path[4096], word[16] = "", how[64];
	double t_s[LOAD_MAX_LINES], start = -1, end = -1, v, stall_from = -1;
	uint64_t ops[LOAD_MAX_LINES];
	size_t n, i;
	FILE *f;
	bool alive;

	memset(l, 0, sizeof(*l));
	l->died_at_s = -1;
	if (!has_workload) {
		l->verdict = LOAD_NONE;
		return 1;
	}
	l->verdict = LOAD_UNKNOWN;
	snprintf(path, sizeof(path), "%s/latency-window", guest_dir);
	f = fopen(path, "r");
	if (f) {
		while (fscanf(f, "%15s %lf", word, &v) == 2) {
			if (!strcmp(word, "start"))
				start = v;
			else if (!strcmp(word, "end"))
				end = v;
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/workload-latency.out", guest_dir);
	n = progress_read(path, t_s, ops, LOAD_MAX_LINES);
	file_word(word, sizeof(word), guest_dir, "workload-latency.alive");
	if (start < 0 || end < start || !word[0])
		return 1;
	l->pass_start_s = start;
	l->pass_end_s = end;
	alive = !strcmp(word, "yes");
	/* Operations per second of the pass: the growth between the lines around it. */
	l->nseconds = (unsigned int)(end - start);
	if (l->nseconds > LOAD_MAX_SECONDS)
		l->nseconds = LOAD_MAX_SECONDS;
	for (i = 0; i + 1 < n; i++) {
		double a = t_s[i], b = t_s[i + 1];
		unsigned int s;

		if (b <= a)
			continue;
		/* Spread each interval's ops over the seconds it overlaps. */
		for (s = 0; s < l->nseconds; s++) {
			double lo = start + s, hi = start + s + 1;
			double o = (a > lo ? a : lo), c = (b < hi ? b : hi);

			if (c > o)
				l->ops[s] += (uint64_t)((double)(ops[i + 1] - ops[i]) * (c - o) / (b - a) + 0.5);
		}
	}
	/*
	 * No operation for two reporting intervals (~2 s) or more inside the
	 * pass: the load stalled there. One interval is not enough: a single
	 * operation may take over a second (an lru compaction round on one
	 * vCPU), which is the load working, not stopped.
	 */
	for (i = 0; i + 1 < n && stall_from < 0; i++) {
		size_t j = i;

		while (j + 1 < n && ops[j + 1] == ops[i])
			j++;
		if (j > i && t_s[j] - t_s[i] >= 1.9 && t_s[j] > start && t_s[i] < end)
			stall_from = t_s[i] > start ? t_s[i] : start;
	}
	snprintf(path, sizeof(path), "%s/workload-latency.status", guest_dir);
	exit_how(how, sizeof(how), path);
	if (!alive) {
		double last = n ? t_s[n - 1] : start;

		l->verdict = LOAD_DEAD;
		l->died_at_s = last > start ? last - start : 0;
		snprintf(l->reason, sizeof(l->reason),
			 "the workload was gone when cyclictest ended (%s); its last progress line was %.1f s into the %.1f s pass",
			 how, l->died_at_s, end - start);
	} else if (!n || t_s[n - 1] < end - 1.5) {
		/* Running but silent: its progress thread, and so the process, got no CPU. */
		double last = n ? t_s[n - 1] : start;

		l->verdict = LOAD_DEAD;
		l->died_at_s = last > start ? last - start : 0;
		snprintf(l->reason, sizeof(l->reason),
			 "the workload fell silent %.1f s into the pass (no progress line after it)", l->died_at_s);
	} else if (stall_from >= 0) {
		l->verdict = LOAD_DEAD;
		l->died_at_s = stall_from - start;
		snprintf(l->reason, sizeof(l->reason),
			 "the workload stalled %.1f s into the pass (no operation for two seconds or more)", l->died_at_s);
	} else {
		l->verdict = LOAD_ALIVE;
	}
	return 0;
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

	{
		const char *frames[8];

		for (i = 0; i < t->nstack; i++)
			frames[i] = t->stack[i];
		blame_section(&t->blame, cs, t->started, t->ended, frames, t->nstack);
	}
	return 0;
}

int wakeup_load(struct wakeup_trace *w, const char *dir, const struct call_sites *cs)
{
	const char *frames[WAKEUP_MAX_FRAMES];
	unsigned int i;
	int ret = wakeup_dat_load(w, dir);

	if (ret || !w->hit)
		return ret;
	for (i = 0; i < w->nstack; i++)
		frames[i] = w->stack[i];
	/*
	 * The stack is the timer interrupt's: context for a thread latency
	 * (the code it found preemption off in), nothing about the irqs-off
	 * section that held the interrupt itself back.
	 */
	blame_section(&w->blame, cs, w->opened, w->closed, frames, w->irq ? 0 : w->nstack);
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

/* guest/steps: the latency pass's last attempt ran to its end. */
static bool steps_latency_ok(const char *guest_dir)
{
	struct steps st;
	const struct step *s;

	steps_load(&st, guest_dir);
	s = steps_find(&st, "latency");
	return s && !strcmp(s->last, "0");
}

void file_word(char *out, size_t size, const char *dir, const char *name)
{
	char path[4096], word[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%31s", word) != 1)
			word[0] = '\0';
		fclose(f);
	}
	snprintf(out, size, "%s", word);
}

unsigned int findings_read(struct finding *out, unsigned int max, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned int n = 0;

	if (!f)
		return 0;
	while (getline(&line, &cap, f) >= 0 && n < max) {
		struct finding *fd = &out[n];
		char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;

		if (!t2)
			continue;
		*t1 = *t2 = '\0';
		copy_str(fd->kind, sizeof(fd->kind), line);
		fd->count = (unsigned int)strtoul(t1 + 1, NULL, 10);
		copy_str(fd->line, sizeof(fd->line), trim(t2 + 1));
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

/*
 * guest/path-hits: "function workload_hits idle_hits" lines, or "function
 * unavailable" for a target the kernel could not probe. Cells from before the
 * idle control have "function hits" (any task, no control).
 */
unsigned int path_hits_read(struct path_hit *out, unsigned int max, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256], fn[80], count[32], idle[32];
	unsigned int nhits = 0;
	uint64_t n, m;

	if (!f)
		return 0;
	while (nhits < max && fgets(line, sizeof(line), f)) {
		struct path_hit *h = &out[nhits];
		int fields = sscanf(line, "%79s %31s %31s", fn, count, idle);

		if (fields < 2)
			continue;
		memset(h, 0, sizeof(*h));
		copy_str(h->function, sizeof(h->function), fn);
		if (!strcmp(count, "unavailable")) {
			h->unavailable = true;
		} else if (!parse_u64(count, 0, UINT64_MAX, &n)) {
			continue;
		} else if (fields == 3 && parse_u64(idle, 0, UINT64_MAX, &m)) {
			h->hits = n;
			h->idle_hits = m;
			h->has_idle = true;
			h->reached = n >= PATH_MIN_HITS && n >= PATH_IDLE_FACTOR * m;
		} else {
			h->hits = n;
			h->reached = n > 0;
		}
		nhits++;
	}
	fclose(f);
	return nhits;
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

/*
 * The passes whose workload output a cell may have, in the order they ran:
 * guest/steps' order, then LOCKLAT_PASSES' (lib/common.sh) for any it does
 * not name. Returns how many names went into names (each at most 15 chars).
 */
#define CELL_MAX_PASSES 16
static const char *const pass_names[] = { "latency", "timerlat", "preemptoff", "irqsoff", "verify" };

static unsigned int pass_order(const char *guest_dir, char names[][16])
{
	struct steps st;
	unsigned int n = 0, i, j;

	steps_load(&st, guest_dir);
	for (i = 0; i < st.n && n < CELL_MAX_PASSES; i++)
		if (strcmp(st.s[i].name, "setup"))
			copy_str(names[n++], sizeof(names[0]), st.s[i].name);
	for (i = 0; i < ARRAY_SIZE(pass_names) && n < CELL_MAX_PASSES; i++) {
		for (j = 0; j < n && strcmp(names[j], pass_names[i]); j++)
			;
		if (j == n)
			copy_str(names[n++], sizeof(names[0]), pass_names[i]);
	}
	return n;
}

/* The value of "key=" in a locklat-stats line (the text after its prefix) as a number; false if absent. */
static bool stats_u64(const char *stats, const char *key, uint64_t *out)
{
	char pattern[64], word[32];
	const char *p;
	size_t n = (size_t)snprintf(pattern, sizeof(pattern), " %s=", key), len;

	/* The first pair has no space before it. */
	if (!strncmp(stats, pattern + 1, n - 1))
		p = stats + n - 1;
	else if ((p = strstr(stats, pattern)))
		p += n;
	else
		return false;
	len = strcspn(p, " \t\n");
	if (len >= sizeof(word))
		return false;
	memcpy(word, p, len);
	word[len] = '\0';
	return parse_u64(word, 0, UINT64_MAX, out);
}

/* The last locklat-stats line of path (after the prefix) into buf; false if none. */
static bool stats_line_read(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (!f)
		return false;
	while (getline(&line, &cap, f) >= 0)
		if (!strncmp(line, "locklat-stats ", 14)) {
			copy_str(buf, size, trim(line + 14));
			found = true;
		}
	free(line);
	fclose(f);
	return found;
}

/*
 * The workload's tasks: the first locklat-stats line, in pass order, that
 * says them (cpus= tasks= fifo_prio=); else meta's tasks_per_cpu. Older
 * lines have threads= alone: unknown.
 */
static void tasks_load(struct cell *c, const char *guest_dir)
{
	char names[CELL_MAX_PASSES][16], path[8192], stats[512];
	unsigned int n = pass_order(guest_dir, names), i;
	uint64_t v;

	c->tasks_per_cpu = 0;
	c->task_cpus = 0;
	c->fifo_prio = -1;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/workload-%s.out", guest_dir, names[i]);
		if (!stats_line_read(path, stats, sizeof(stats)) || !stats_u64(stats, "tasks", &v) || !v ||
		    v > 1024)
			continue;
		c->tasks_per_cpu = (unsigned int)v;
		if (stats_u64(stats, "cpus", &v) && v <= 4096)
			c->task_cpus = (unsigned int)v;
		if (stats_u64(stats, "fifo_prio", &v) && v < 100)
			c->fifo_prio = (int)v;
		return;
	}
	if (parse_u64(kv_str(&c->meta, "tasks_per_cpu", ""), 1, 1024, &v))
		c->tasks_per_cpu = (unsigned int)v;
}

bool integrity_line_parse(const char *line, uint64_t *checked, uint64_t *errors, char *first, size_t size)
{
	unsigned long long n, m;
	const char *p;
	int end = 0;

	if (strncmp(line, "locklat-integrity ", 18))
		return false;
	p = strstr(line, " checked=");
	if (!p || sscanf(p, " checked=%llu errors=%llu%n", &n, &m, &end) != 2)
		return false;
	*checked = n;
	*errors = m;
	p += end;
	if (first && size) {
		first[0] = '\0';
		if (!strncmp(p, " first=", 7)) {
			size_t len;

			p += 7 + strspn(p + 7, " \t");
			copy_str(first, size, p);
			len = strlen(first);
			while (len && isspace((unsigned char)first[len - 1]))
				first[--len] = '\0';
		}
	}
	return true;
}

void integrity_load(struct integrity *in, const char *guest_dir)
{
	char names[CELL_MAX_PASSES][16], path[8192], first[240];
	unsigned int n = pass_order(guest_dir, names), i;
	char *line = NULL;
	size_t cap = 0;

	memset(in, 0, sizeof(*in));
	for (i = 0; i < n; i++) {
		FILE *f;
		bool seen = false;

		snprintf(path, sizeof(path), "%s/workload-%s.out", guest_dir, names[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		/* One line per run of the workload; a pass runs it once, but sum whatever is there. */
		while (getline(&line, &cap, f) >= 0) {
			uint64_t checked, errors;

			if (!integrity_line_parse(trim(line), &checked, &errors, first, sizeof(first)))
				continue;
			seen = true;
			in->checked += checked;
			in->errors += errors;
			if (errors && !in->first_pass[0]) {
				copy_str(in->first, sizeof(in->first), first[0] ? first : "(no description)");
				snprintf(in->first_pass, sizeof(in->first_pass), "%.15s", names[i]);
			}
		}
		fclose(f);
		in->passes += seen;
	}
	free(line);
	in->present = in->passes > 0;
}

/*
 * A pi_setprio stack through the lock side of an rtmutex is a waiter
 * raising the owner's priority: task_blocks_on_rt_mutex() and the chain
 * walk, or (where 6.12 inlines those) the slow-path function that called
 * them, rtlock_slowlock_locked() for a spinlock_t/local_lock,
 * rt_mutex_slowlock*() for an rt_mutex. The unlock side
 * (rt_mutex_slowunlock()) is the owner dropping back: a de-boost.
 */
static bool boost_frame(const char *fn)
{
	return !strcmp(fn, "task_blocks_on_rt_mutex") || !strcmp(fn, "rt_mutex_adjust_prio_chain") ||
	       !strcmp(fn, "rtlock_slowlock_locked") || !strncmp(fn, "rt_mutex_slowlock", 17) ||
	       !strcmp(fn, "__rt_mutex_slowlock") || !strcmp(fn, "__rt_mutex_slowlock_locked");
}

/* The index in cs of the site whose boundary functions include fn, or -1. */
static int boundary_site(const struct call_sites *cs, const char *fn)
{
	int i = call_site_index(cs, fn, true);

	return i < CELL_MAX_SITES ? i : -1;
}

/* One entry's hitcount ("} hitcount: N") into s, by the site and kind its frames gave. */
static void lock_entry_add(struct lock_stacks *s, const char *close, int site, bool boost)
{
	const char *h = strstr(close, "hitcount:");
	unsigned long long v;

	if (!h || sscanf(h + 9, "%llu", &v) != 1)
		return;
	s->hits += v;
	if (site >= 0)
		s->site_hits[site] += v;
	else
		s->unattributed += v;
	if (boost) {
		s->boosts += v;
		if (site >= 0)
			s->site_boosts[site] += v;
	}
}

/*
 * ftrace's hist output: per entry "{ common_stacktrace:" then a frame a
 * line ("symbol+0xOFF/0xSIZE [module]", innermost first), then "}
 * hitcount: N"; "Totals:" with Hits, Entries and Dropped at the end. A key
 * and its "}" on one line ("{ common_pid: ... } hitcount: N") are read too.
 */
int lock_stacks_load(struct lock_stacks *s, const char *path, const struct call_sites *cs, bool boosts)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	bool in_key = false, boost = false, totals = false;
	int site = -1;
	unsigned long long v;

	memset(s, 0, sizeof(*s));
	if (!f)
		return errno == ENOENT ? 1 : -1;
	while (getline(&line, &cap, f) >= 0) {
		char *t = trim(line), *close, fn[128];

		if (!in_key) {
			size_t label;

			if (sscanf(t, "Hits: %llu", &v) == 1)
				totals = true;
			else if (sscanf(t, "Entries: %llu", &v) == 1)
				s->entries = v;
			else if (sscanf(t, "Dropped: %llu", &v) == 1)
				s->dropped = v;
			if (*t != '{')
				continue;
			/* "{ common_stacktrace:" (older kernels: "stacktrace:"); a frame may follow on the line. */
			in_key = true;
			boost = false;
			site = -1;
			t = trim(t + 1);
			label = strcspn(t, " \t");
			if (label && t[label - 1] == ':')
				t = trim(t + label);
		}
		close = strchr(t, '}');
		if (close)
			*close = '\0';
		t = trim(t);
		if (*t && *t != '#') {
			frame_function(fn, sizeof(fn), t);
			if (site < 0)
				site = boundary_site(cs, fn);
			boost |= boosts && boost_frame(fn);
		}
		if (close) {
			lock_entry_add(s, close + 1, site, boost);
			in_key = false;
		}
	}
	free(line);
	fclose(f);
	s->present = true;
	return totals || s->hits ? 0 : -1;
}

const struct lock_event *cell_lock_event(const struct cell *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->nlock_events; i++)
		if (!strcmp(c->lock_events[i].name, name))
			return &c->lock_events[i];
	return NULL;
}

/*
 * The workload's call site: the first site with a function among the
 * verify targets (path-hits), else the one the most contention stacks
 * passed through.
 */
static void lock_site_choose(struct cell *c, const struct call_sites *cs)
{
	const struct lock_event *e = cell_lock_event(c, LOCK_EVENT_CONTENTION);
	unsigned int i, j, k;
	uint64_t best = 0;

	c->lock_site = -1;
	c->lock_site_by_targets = false;
	for (i = 0; cs && i < c->nlock_sites; i++)
		for (j = 0; j < cs->sites[i].nfunctions; j++)
			for (k = 0; k < c->nhits; k++)
				if (!strcmp(cs->sites[i].functions[j], c->hits[k].function)) {
					c->lock_site = (int)i;
					c->lock_site_by_targets = true;
					return;
				}
	for (i = 0; e && i < c->nlock_sites; i++)
		if (e->workload.site_hits[i] > best) {
			best = e->workload.site_hits[i];
			c->lock_site = (int)i;
		}
}

int lock_events_load(struct cell *c, const char *guest_dir, const struct call_sites *cs)
{
	char path[8192], line[256], name[32], count[32], idle[32];
	unsigned int i;
	uint64_t n, m;
	FILE *f;

	c->has_lock_events = false;
	c->nlock_events = 0;
	c->nlock_sites = 0;
	c->lock_site = -1;
	for (i = 0; cs && i < cs->count && i < CELL_MAX_SITES; i++)
		c->lock_sites[c->nlock_sites++] = cs->sites[i].name;
	snprintf(path, sizeof(path), "%s/lock-events", guest_dir);
	f = fopen(path, "r");
	if (!f)
		return 1;
	c->has_lock_events = true;
	while (c->nlock_events < CELL_MAX_LOCK_EVENTS && fgets(line, sizeof(line), f)) {
		struct lock_event *e = &c->lock_events[c->nlock_events];
		int fields = sscanf(line, "%31s %31s %31s", name, count, idle);
		bool boosts = !strcmp(name, LOCK_EVENT_PI_SETPRIO);

		if (fields < 2 || name[0] == '#')
			continue;
		memset(e, 0, sizeof(*e));
		copy_str(e->name, sizeof(e->name), name);
		if (!strcmp(count, "unavailable")) {
			e->unavailable = true;
		} else if (!parse_u64(count, 0, UINT64_MAX, &n)) {
			continue;
		} else {
			e->workload_hits = n;
			if (fields == 3 && parse_u64(idle, 0, UINT64_MAX, &m)) {
				e->idle_hits = m;
				e->has_idle = true;
			}
			snprintf(path, sizeof(path), "%s/lock-events.d/workload-%s.hist", guest_dir, name);
			lock_stacks_load(&e->workload, path, cs, boosts);
			snprintf(path, sizeof(path), "%s/lock-events.d/idle-%s.hist", guest_dir, name);
			lock_stacks_load(&e->idle, path, cs, boosts);
		}
		c->nlock_events++;
	}
	fclose(f);
	lock_site_choose(c, cs);
	return 0;
}

/* The kernel it booted is PREEMPT_RT: its manifest says so, or (without the key) its uname. */
static void preempt_rt_load(struct cell *c, const char *guest_dir)
{
	const char *model = kv_str(&c->meta, "manifest.preempt_model", NULL);
	char path[8192], line[512];
	FILE *f;

	c->rt_known = model != NULL;
	c->preempt_rt = model && !strcmp(model, "rt");
	if (model)
		return;
	snprintf(path, sizeof(path), "%s/uname.txt", guest_dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		c->rt_known = true;
		c->preempt_rt = strstr(line, " PREEMPT_RT ") != NULL;
	}
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

/* The cell ran a workload (cell.conf's workload_cmd is not "-"). */
static bool cell_has_workload(const char *dir)
{
	char path[4096];
	struct kvfile conf;
	bool has;

	snprintf(path, sizeof(path), "%s/cell.conf", dir);
	if (kv_load(&conf, path))
		return false;
	has = strcmp(kv_str(&conf, "mode", "cell"), "cell") == 0 &&
	      strcmp(kv_str(&conf, "workload_cmd", "-"), "-") != 0;
	kv_free(&conf);
	return has;
}

/* "NAME" for run 1, "NAME.N" after it (bench/guest/init's repeated passes). */
static void run_name(char *dst, size_t size, const char *name, unsigned int run)
{
	if (run == 1)
		snprintf(dst, size, "%s", name);
	else
		snprintf(dst, size, "%s.%u", name, run);
}

/*
 * Whether the workload of the pass RUN had died when the pass ended (it
 * wrote guest/workload-RUN.alive "no"): a traced figure of that pass is not
 * the workload's. Unknown counts as alive.
 */
static bool pass_load_dead(const char *dir, const char *run)
{
	char name[64], word[8];

	snprintf(name, sizeof(name), "guest/workload-%s.alive", run);
	file_word(word, sizeof(word), dir, name);
	return !strcmp(word, "no");
}

/*
 * One tracer's runs (guest/NAME, guest/NAME.2, ...) into t: the worst of
 * those whose load lived, else of all, with every run's maximum. A run
 * whose trace header disagrees with
 * its tracing_max_latency is a broken trace: the cell is invalidated.
 */
static void tracer_runs_load(struct cell *c, struct trace_worst *t, const char *dir, const char *name,
			     const struct call_sites *cs)
{
	uint64_t runs[TRACE_MAX_RUNS] = { 0 };
	char worst[16] = "";
	unsigned int n = 0;
	unsigned int run;

	memset(t, 0, sizeof(*t));
	for (run = 1; run <= TRACE_MAX_RUNS; run++) {
		struct trace_worst r;
		char path[4096], rn[16];

		run_name(rn, sizeof(rn), name, run);
		snprintf(path, sizeof(path), "%s/guest/%s", dir, rn);
		if (trace_load(&r, path, cs))
			continue;
		if (r.header_us && r.header_us != r.max_us)
			invalidate(c, "a latency trace's header and its tracing_max_latency disagree");
		r.load_dead = pass_load_dead(dir, rn);
		if (!t->present || (t->load_dead && !r.load_dead) ||
		    (t->load_dead == r.load_dead && r.max_us > t->max_us)) {
			*t = r;
			snprintf(worst, sizeof(worst), "%s", rn);
		}
		runs[n++] = r.max_us;
	}
	memcpy(t->runs_us, runs, sizeof(runs));
	t->nruns = n;
	snprintf(t->run, sizeof(t->run), "%s", worst);
}

/*
 * The timerlat runs into c->wakeup: of those whose load lived (else of
 * all), the hit with the largest latency, else the run with the largest max.
 */
static void wakeup_runs_load(struct cell *c, const char *dir, const struct call_sites *cs)
{
	double runs[TRACE_MAX_RUNS] = { 0 };
	char worst[16] = "";
	unsigned int n = 0;
	struct wakeup_trace *w = &c->wakeup;
	unsigned int run;

	memset(w, 0, sizeof(*w));
	for (run = 1; run <= TRACE_MAX_RUNS; run++) {
		struct wakeup_trace r;
		char path[4096], rn[16];
		bool better;

		run_name(rn, sizeof(rn), "timerlat", run);
		snprintf(path, sizeof(path), "%s/guest/%s", dir, rn);
		if (wakeup_load(&r, path, cs))
			continue;
		r.load_dead = pass_load_dead(dir, rn);
		better = !w->present || (w->load_dead && !r.load_dead) ||
			 (w->load_dead == r.load_dead &&
			  ((r.hit && (!w->hit || r.latency_us > w->latency_us)) ||
			   (!r.hit && !w->hit && (r.trace_lost || (!w->trace_lost && r.max_us > w->max_us)))));
		if (better) {
			*w = r;
			snprintf(worst, sizeof(worst), "%s", rn);
		}
		runs[n++] = r.has_max ? r.max_us : r.latency_us;
	}
	memcpy(w->runs_us, runs, sizeof(runs));
	w->nruns = n;
	snprintf(w->run, sizeof(w->run), "%s", worst);
}

static void traces_load(struct cell *c, const char *dir, const struct call_sites *cs)
{
	tracer_runs_load(c, &c->preemptoff, dir, "preemptoff", cs);
	tracer_runs_load(c, &c->irqsoff, dir, "irqsoff", cs);
	wakeup_runs_load(c, dir, cs);
}

/* The meta key of each setting: the one place they are named after load. */
static const char *const setting_keys[CS_N] = {
	[CS_ACCEL] = "accel",
	[CS_VCPUS] = "vcpus",
	[CS_GUEST_MEM_MIB] = "guest_mem_mib",
	[CS_DURATION_S] = "duration_s",
	[CS_WARMUP_S] = "warmup_s",
	[CS_TRACE_DURATION_S] = "trace_duration_s",
	[CS_HIST_RANGE_US] = "hist_range_us",
	[CS_KERNEL_SOURCE] = "manifest.source_package",
	[CS_GCC] = "manifest.gcc_version",
	[CS_QEMU] = "qemu_version",
	[CS_RT_TESTS] = "cyclictest_version",
	[CS_TRACE_CMD] = "trace_cmd_version",
	[CS_HOST_CPU] = "host_cpu",
	[CS_HOST] = "host",
	[CS_SUITE_REVISION] = "suite_revision",
};

/* meta into the cell's typed fields (the stages after load never read its keys). */
static void meta_type(struct cell *c)
{
	const char *prefix = "manifest.patch_sha256.";
	size_t i, n = strlen(prefix), len = 0;

	for (i = 0; i < CS_N; i++)
		c->setting[i] = kv_str(&c->meta, setting_keys[i], "?");
	c->passes = kv_lookup(&c->meta, "passes");
	c->setup = kv_lookup(&c->meta, "setup");
	c->targets = kv_lookup(&c->meta, "targets");
	c->host = kv_lookup(&c->meta, "host");
	c->host_cpu = kv_lookup(&c->meta, "host_cpu");
	c->kernel_release = kv_str(&c->meta, "manifest.kernel_release", "");
	c->kernel_source = kv_str(&c->meta, "manifest.source", "debian");
	c->patches = kv_str(&c->meta, "manifest.patches", "");
	c->preempt_model = kv_lookup(&c->meta, "manifest.preempt_model");
	c->lockdep = !strcmp(kv_str(&c->meta, "manifest.lockdep", "n"), "y");
	c->flavour_recorded = kv_lookup(&c->meta, "kernel_flavour") != NULL;
	parse_u64(kv_str(&c->meta, "vcpus", ""), 1, 4096, &c->vcpus);
	parse_u64(kv_str(&c->meta, "duration_s", ""), 1, CELL_MAX_SECONDS, &c->duration_s);
	parse_u64(kv_str(&c->meta, "warmup_s", ""), 0, CELL_MAX_SECONDS, &c->warmup_s);
	parse_u64(kv_str(&c->meta, "layout_version", ""), 0, 1000, &c->layout_version);
	/* manifest.patch_sha256.<series>/<file>: a hash per patch it applied. */
	for (i = 0; i < c->meta.count; i++) {
		const char *k = c->meta.pairs[i].key, *slash;
		char name[64];

		if (strncmp(k, prefix, n) || !(slash = strchr(k + n, '/')) || (size_t)(slash - k - n) >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(slash - k - n), k + n);
		if (!series_listed(c->series_applied, name) && len + strlen(name) + 2 < sizeof(c->series_applied))
			len += (size_t)snprintf(c->series_applied + len, sizeof(c->series_applied) - len, "%s%s",
						len ? " " : "", name);
	}
}

bool series_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

int cell_load(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us)
{
	char path[4096];
	uint64_t rep, interval_us = 0, duration_s;

	memset(c, 0, sizeof(*c));
	c->dir = xstrdup(dir);
	snprintf(path, sizeof(path), "%s/meta", dir);
	if (kv_load(&c->meta, path))
		return errno == ENOENT ? 1 : -1;
	if (strcmp(kv_str(&c->meta, "complete", "0"), "1"))
		return 1;
	meta_type(c);
	c->variant = kv_str(&c->meta, "variant", "?");
	c->workload = kv_str(&c->meta, "workload", "?");
	c->status = kv_str(&c->meta, "status", "INVALID");
	c->reason = kv_str(&c->meta, "reason", "");
	c->accel = kv_str(&c->meta, "accel", "?");
	c->rep = parse_u64(kv_str(&c->meta, "rep", ""), 1, 1000000, &rep) ? (unsigned int)rep : 0;
	c->traced_kernel = !strcmp(kv_str(&c->meta, "kernel_flavour", "plain"), "traced");
	if (c->traced_kernel)
		snprintf(c->name, sizeof(c->name), "traced");
	else
		snprintf(c->name, sizeof(c->name), "rep%u", c->rep);
	/* cyclictest's interval, to place samples in time (older cells lack it). */
	parse_u64(kv_str(&c->meta, "interval_us", ""), 1, 1000000000, &interval_us);
	/* The histogram's range, for percentiles that fall among its overflows. */
	parse_u64(kv_str(&c->meta, "hist_range_us", "400000"), 1, UINT64_MAX, &c->hist.range_us);

	if (parse_u64(kv_str(&c->meta, "duration_s", ""), 1, CELL_MAX_SECONDS, &duration_s))
		c->duration_us = duration_s * 1000000;
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
		if (cyclictest_samples_load(c, path, interval_us, window_us) < 0)
			invalidate(c, "cyclictest's samples (-v) are malformed or disagree with its JSON");
	} else if (access(path, F_OK) == 0) {
		/* Present but unreadable: a write cut short is no measurement. */
		invalidate(c, "cyclictest.json does not parse (cut short?)");
	}
	traces_load(c, dir, cs);
	modules_load(c, dir);
	snprintf(path, sizeof(path), "%s/guest", dir);
	c->latency_step_ok = steps_latency_ok(path);
	snprintf(path, sizeof(path), "%s/findings", dir);
	c->nfindings = findings_read(c->findings, CELL_MAX_ITEMS, path);
	/*
	 * A panic, like a hang, leaves a step started and not ended (in the
	 * last boot's console, when a second one ran).
	 */
	if (!strcmp(c->status, "TIMEOUT") || cell_panicked(c)) {
		snprintf(path, sizeof(path), "%s/boot2/console.log", dir);
		if (access(path, F_OK))
			snprintf(path, sizeof(path), "%s/console.log", dir);
		console_step_in_progress(c->hung_step, sizeof(c->hung_step), path);
	}
	snprintf(path, sizeof(path), "%s/guest/path-hits", dir);
	c->nhits = path_hits_read(c->hits, CELL_MAX_ITEMS, path);
	snprintf(path, sizeof(path), "%s/guest/workload-latency.out", dir);
	stats_load(c, path);
	snprintf(path, sizeof(path), "%s/guest", dir);
	load_state_load(&c->load, path, cell_has_workload(dir));
	tasks_load(c, path);
	integrity_load(&c->integrity, path);
	preempt_rt_load(c, path);
	lock_events_load(c, path, cs);
	/*
	 * Wrong data read back is a finding, never OK (run-cell.sh says so
	 * itself; a cell from a harness that did not is made one here).
	 */
	if (cell_corrupted(c) && !strcmp(c->status, "OK")) {
		c->status = "FINDINGS";
		snprintf(c->reason_buf, sizeof(c->reason_buf), "data corrupted: %llu of %llu checks wrong (first, %.15s pass: %.150s)",
			 (unsigned long long)c->integrity.errors, (unsigned long long)c->integrity.checked,
			 c->integrity.first_pass, c->integrity.first);
		c->reason = c->reason_buf;
	}
	/* A load that died beside a splat: the splat is the likely why, quoted. */
	if (c->load.verdict == LOAD_DEAD && c->nfindings) {
		size_t len = strlen(c->load.reason);

		snprintf(c->load.reason + len, sizeof(c->load.reason) - len, "; the kernel said: %s",
			 c->findings[0].line);
	}
	return 0;
}

void cell_free(struct cell *c)
{
	free(c->series);
	free(c->blocks);
	hist_free(&c->steady_hist);
	hist_free(&c->hist);
	kv_free(&c->meta);
	free(c->dir);
	memset(c, 0, sizeof(*c));
}
