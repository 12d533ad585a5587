// SPDX-License-Identifier: GPL-2.0
/*
 * pass-latency.c - the latency pass (bench/passes/latency/): cyclictest's
 * JSON, text summary and sample stream (-v) of guest/, the pass split at the
 * start-up window, the load through it (progress lines, latency-window,
 * workload-latency.*) and the workload's statistics line; its rows of a
 * workload's table (the latency figures) and its members of a cell in
 * summary.json.
 */
#define _GNU_SOURCE
#include "pass.h"
#include "render-md.h"
#include "render.h"
#include "verdict.h"

#include <ctype.h>
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "locklat.h"

/* Per thread, while the sample stream is read. */
struct stream_thread {
	uint64_t printed;		/* samples seen */
	uint64_t expected_us;		/* the next expected wake-up, pass time */
	uint64_t max_us;		/* of its printed samples */
	uint64_t steady_max_us, startup_max_us;
	uint64_t steady_printed;
};

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

#define LOAD_MAX_LINES (LOAD_MAX_SECONDS + 8)

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

static int cyclictest_json_load(struct cell *c, const char *path)
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

static int cyclictest_text_load(struct cell *c, const char *path)
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

/* A value into a steady histogram; beyond its range (cyclictest's -h) it overflows, as there. */
static int steady_hist_add(struct histogram *h, uint64_t us)
{
	if (h->range_us && us >= h->range_us) {
		h->overflow++;
		return 0;
	}
	return hist_add(h, us, 1);
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
		if (steady_hist_add(&c->steady_hist, us) || steady_hist_add(&c->steady_measured, us))
			return -1;
	}
	/* The k-th skipped period would have woken at the same moment, k intervals later. */
	for (k = 1; k < steps; k++) {
		block_add(c, e + k * c->interval_us, us - k * c->interval_us);
		if (e + k * c->interval_us < c->window_us)
			continue;
		if (steady_hist_add(&c->steady_hist, us - k * c->interval_us))
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

static void steady_finish(struct cell *c, struct stream_thread *st)
{
	/*
	 * Wake-ups fall at k intervals, k = 1 .. D / I; those at or after the
	 * window W (the rule that sorts samples above) are k = max(1, ceil(W /
	 * I)) .. D / I, one more than (D - W) / I: so many are due a thread.
	 */
	uint64_t last = c->duration_us / c->interval_us, first = (c->window_us + c->interval_us - 1) / c->interval_us;
	unsigned int i;

	if (first < 1)
		first = 1;
	c->wakeups_due = c->wakeups_due_steady = c->wakeups_steady = 0;
	c->steady_max_us = c->startup_max_us = c->censored_us = 0;
	c->starved_threads = 0;
	c->steady_censored = false;
	c->max_in_tail = false;
	for (i = 0; i < c->nthreads; i++) {
		struct stream_thread *t = &st[i];
		uint64_t tail = c->thread_cycles[i] - t->printed, covered, steady = t->steady_max_us;
		bool censored = false;

		c->wakeups_due += last;
		if (last >= first)
			c->wakeups_due_steady += last - first + 1;
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

static int cyclictest_samples_load(struct cell *c, const char *path, uint64_t interval_us, uint64_t window_us)
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
	c->steady_hist.range_us = c->steady_measured.range_us = c->hist.range_us;
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

static int load_state_load(struct load_state *l, const char *guest_dir, bool has_workload)
{
	char path[8192], word[16] = "", how[64];
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

/* guest/steps: the latency pass's last attempt ran to its end. */
static bool steps_latency_ok(const char *guest_dir)
{
	struct steps st;
	const struct step *s;

	steps_load(&st, guest_dir);
	s = steps_find(&st, "latency");
	return s && !strcmp(s->last, "0");
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
			snprintf(c->workload_stats, sizeof(c->workload_stats), "%s", cell_trim(line + 14));
	free(line);
	fclose(f);
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
			snprintf(buf, size, "%s", cell_trim(line + 14));
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
	unsigned int n = cell_pass_order(guest_dir, names), i;
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

/* The latency pass of the cell in dir, with cyclictest's cross-checks. */
static void latency_load(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us)
{
	char path[4096];
	uint64_t interval_us = 0, duration_s;

	(void)cs;
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
			cell_invalidate(c, "cyclictest's text and JSON maxima disagree");
		else if (c->has_text_overflow && c->text_overflow != c->hist.overflow)
			cell_invalidate(c, "cyclictest's histogram overflow counts disagree");
		snprintf(path, sizeof(path), "%s/guest/cyclictest-samples", dir);
		if (cyclictest_samples_load(c, path, interval_us, window_us) < 0)
			cell_invalidate(c, "cyclictest's samples (-v) are malformed or disagree with its JSON");
	} else if (access(path, F_OK) == 0) {
		/* Present but unreadable: a write cut short is no measurement. */
		cell_invalidate(c, "cyclictest.json does not parse (cut short?)");
	}
	snprintf(path, sizeof(path), "%s/guest", dir);
	c->latency_step_ok = steps_latency_ok(path);
	snprintf(path, sizeof(path), "%s/guest/workload-latency.out", dir);
	stats_load(c, path);
	snprintf(path, sizeof(path), "%s/guest", dir);
	load_state_load(&c->load, path, cell_has_workload(dir));
	tasks_load(c, path);
}

/* summary.md */

/* The load of a group's cells: how many ran through the pass, how the others ended. */
static void md_load(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	size_t i, alive = 0, dead = 0, unknown = 0, none = 0;
	double first_death = -1;

	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (strcmp(c->variant, g->variant) || strcmp(c->workload, g->workload) || !c->has_latency ||
		    c->traced_kernel)
			continue;
		switch (c->load.verdict) {
		case LOAD_ALIVE: alive++; break;
		case LOAD_UNKNOWN: unknown++; break;
		case LOAD_NONE: none++; break;
		case LOAD_DEAD:
			dead++;
			if (first_death < 0 || c->load.died_at_s < first_death)
				first_death = c->load.died_at_s;
			break;
		}
	}
	if (!alive && !dead && !unknown) {
		fprintf(f, " %s |", none ? "no load" : "–");
		return;
	}
	if (!alive && !dead) {
		fprintf(f, " not recorded");
		md_note(f, notes, "%zu %s from before the workloads logged progress", unknown,
			unknown == 1 ? "cell" : "cells");
		fprintf(f, " |");
		return;
	}
	fprintf(f, " %zu of %zu", alive, alive + dead + unknown);
	if (dead) {
		fprintf(f, "; **%zu died**", dead);
		md_note(f, notes, "the load died or stalled in %zu %s, the first at %.1f s into the latency "
			"pass", dead, dead == 1 ? "repetition" : "repetitions", first_death);
	}
	if (unknown) {
		fprintf(f, "; %zu unknown", unknown);
		md_note(f, notes, "%zu %s from before the workloads logged progress", unknown,
			unknown == 1 ? "cell" : "cells");
	}
	fprintf(f, " |");
}

/*
 * One table cell per function: a group's value in a workload's row,
 * written as " value |".
 */
static void md_cell_max(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	char buf[128];

	(void)run;
	(void)notes;
	fprintf(f, " **%s%s**", g->max_censored ? "≥ " : "", spread(buf, sizeof(buf), g->max, g->n));
	if (g->died + g->load_dead)
		fprintf(f, " + %zu failed", g->died + g->load_dead);
	fprintf(f, " |");
}

static void md_cell_blocks(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	char buf[128];

	(void)run;
	if (!g->n || !g->min_blocks) {
		fprintf(f, " – |");
		return;
	}
	fprintf(f, " %s", spread(buf, sizeof(buf), g->block_median, g->n));
	md_note(f, notes, "typical worst second: the median of %u or more per-second maxima in each repetition",
		g->min_blocks);
	fprintf(f, " |");
}

static void md_cell_startup_max(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	char buf[128];

	(void)run;
	(void)notes;
	fprintf(f, " %s |", g->steady ? spread(buf, sizeof(buf), g->startup_max, g->n) : "–");
}

/* "≥": the value is the histogram's range, the percentile lies beyond. */
static void md_cell_p99(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	char buf[128];

	(void)run;
	(void)notes;
	fprintf(f, " %s%s |", g->p99_over ? "≥ " : "", spread(buf, sizeof(buf), g->p99, g->n));
}

static void md_cell_p999(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	char buf[128];

	(void)run;
	(void)notes;
	fprintf(f, " %s%s |", g->p999_over ? "≥ " : "", spread(buf, sizeof(buf), g->p999, g->n));
}

static void md_cell_p50(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	char buf[128];

	(void)run;
	(void)notes;
	fprintf(f, " %s%s |", g->p50_over ? "≥ " : "", spread(buf, sizeof(buf), g->p50, g->n));
}

static void md_cell_wakeups(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	(void)notes;
	if (g->steady && g->wakeups_due) {
		fprintf(f, " %llu / %llu (%.0f%%) |", g->samples, g->wakeups_due,
			100.0 * (double)g->samples / (double)g->wakeups_due);
	} else if (g->n) {
		fprintf(f, " %llu", g->samples);
		md_note(f, notes, "wake-ups recorded over the whole pass: no start-up window, the percentiles "
			"uncorrected");
		fprintf(f, " |");
	} else {
		fprintf(f, " – |");
	}
}

/* Wake-ups due while one overran: cyclictest skips them, the correction counts them at their lateness. */
static void md_cell_skipped(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	(void)notes;
	if (g->steady && g->wakeups_due)
		fprintf(f, " %llu |", g->wakeups_added);
	else
		fprintf(f, " – |");
}

static void md_cell_reps(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	fprintf(f, " %zu / %zu", g->n, g->ncells);
	if (g->died) {
		fprintf(f, "; %zu hung", g->died);
		md_note(f, notes, "%zu %s hung or panicked in the latency pass", g->died,
			g->died == 1 ? "repetition" : "repetitions");
	}
	if (g->load_dead)
		fprintf(f, "; %zu load died", g->load_dead);
	fprintf(f, " |");
}

/* The tasks per vCPU of a cell, "T (P)": P the FIFO priority of each vCPU's first task; "" if unknown. */
static const char *tasks_words(char *buf, size_t size, const struct cell *c)
{
	if (!c->tasks_per_cpu)
		snprintf(buf, size, "%s", "");
	else if (c->fifo_prio < 0)
		snprintf(buf, size, "%u", c->tasks_per_cpu);
	else if (!c->fifo_prio)
		snprintf(buf, size, "%u (no FIFO)", c->tasks_per_cpu);
	else
		snprintf(buf, size, "%u (%d)", c->tasks_per_cpu, c->fifo_prio);
	return buf;
}

/* The workload's tasks per vCPU over a group's cells: each distinct value once. */
static void md_cell_tasks(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	char seen[256] = "", one[32];
	size_t i, len = 0;

	(void)notes;
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (strcmp(c->variant, g->variant) || strcmp(c->workload, g->workload) ||
		    !tasks_words(one, sizeof(one), c)[0] || list_has(seen, one))
			continue;
		len += (size_t)snprintf(seen + len, sizeof(seen) - len, "%s%s", len ? ", " : "", one);
		if (len >= sizeof(seen))
			break;
	}
	fprintf(f, " %s |", seen[0] ? seen : "–");
}

/*
 * The traced kernel's latency pass against the plain kernel's repetitions:
 * the tracers' hooks (TRACE_PREEMPT_TOGGLE) lengthen each section under
 * icount, which is why the repetitions run without them. One pass: a
 * ratio, not a test.
 */
static void md_traced_max(FILE *f, const struct group *g, struct md_notes *notes)
{
	char buf[32];

	if (isnan(g->traced_max_us)) {
		fprintf(f, " – |");
		return;
	}
	fprintf(f, " %s%.0f", g->traced_max_censored ? "≥ " : "", g->traced_max_us);
	if (g->traced_cell->load.verdict == LOAD_DEAD) {
		fprintf(f, ", **load died**");
		md_note(f, notes, "**%s**, traced kernel: its load died: %s", g->variant, g->traced_cell->load.reason);
	} else if (g->n) {
		fprintf(f, " (%s×)", ratio_str(buf, sizeof(buf), g->traced_max_us / median(g->max, g->n)));
	}
	fprintf(f, " |");
}

static void md_cell_traced_max(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	md_traced_max(f, g, notes);
}

static const struct md_row latency_md_rows[] = {
	{ "max latency (after the start-up window)", md_cell_max, ROW_ALWAYS },
	{ "typical worst second (median of per-second maxima)", md_cell_blocks, ROW_ALWAYS },
	{ "start-up max (inside the window)", md_cell_startup_max, ROW_ALWAYS },
	{ "p99", md_cell_p99, ROW_ALWAYS },
	{ "p99.9", md_cell_p999, ROW_ALWAYS },
	{ "median", md_cell_p50, ROW_ALWAYS },
	{ "wake-ups recorded / due", md_cell_wakeups, ROW_ALWAYS },
	{ "wake-ups skipped, counted by the correction", md_cell_skipped, ROW_ALWAYS },
	{ "repetitions measured / cells", md_cell_reps, ROW_ALWAYS },
	{ "load alive through the latency pass", md_load, ROW_ALWAYS },
	{ "tasks per vCPU (FIFO prio)", md_cell_tasks, ROW_TASKS },
	{ "max latency on the traced kernel, one pass (× the median above: the tracers' cost)",
	  md_cell_traced_max, ROW_TRACED },
};

/* summary.json */

/* Per thread, the maximum of each second (null: no window in it). */
static json_object *json_series(const struct cell *c)
{
	json_object *threads;
	unsigned int t, s;

	if (!c->has_series)
		return NULL;
	threads = json_object_new_array();
	for (t = 0; t < c->series_threads; t++) {
		json_object *a = json_object_new_array();

		for (s = 0; s < c->series_seconds; s++) {
			uint64_t v = c->series[t * c->series_seconds + s];

			json_object_array_add(a, v == LL_NO_VALUE ? NULL : json_object_new_int64((int64_t)v));
		}
		json_object_array_add(threads, a);
	}
	return threads;
}

/* Wake-ups due and recorded: the missed ones are what coordinated omission hides. */
static json_object *json_wakeups(const struct cell *c)
{
	json_object *o;

	if (!c->has_steady)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "due", json_object_new_int64((int64_t)c->wakeups_due));
	json_object_object_add(o, "recorded", json_object_new_int64((int64_t)c->cycles));
	json_object_object_add(o, "due_after_window", json_object_new_int64((int64_t)c->wakeups_due_steady));
	json_object_object_add(o, "recorded_after_window", json_object_new_int64((int64_t)c->wakeups_steady));
	json_object_object_add(o, "added_by_correction", json_object_new_int64((int64_t)c->steady_added));
	json_object_object_add(o, "starved_threads", json_object_new_int((int)c->starved_threads));
	json_object_object_add(o, "longest_uncovered_wait_us", json_object_new_int64((int64_t)c->censored_us));
	return o;
}

/* The per-second maxima after the window (null: a second no wake-up reached). */
static json_object *json_blocks(const struct cell *c)
{
	json_object *a;
	unsigned int i;

	if (!c->has_steady)
		return NULL;
	a = json_object_new_array();
	for (i = 0; i < c->nblocks; i++)
		json_object_array_add(a, c->blocks[i] == LL_NO_VALUE ? NULL :
				      json_object_new_int64((int64_t)c->blocks[i]));
	return a;
}

static json_object *json_load(const struct load_state *l)
{
	json_object *o = json_object_new_object(), *a;
	unsigned int s;

	json_object_object_add(o, "verdict", json_object_new_string(load_verdict_name(l->verdict)));
	json_object_object_add(o, "alive", l->verdict == LOAD_ALIVE ? json_object_new_boolean(1) :
				   l->verdict == LOAD_DEAD ? json_object_new_boolean(0) : NULL);
	json_object_object_add(o, "died_at_s", l->verdict == LOAD_DEAD ? json_object_new_double(l->died_at_s) : NULL);
	json_object_object_add(o, "reason", l->verdict == LOAD_DEAD ? json_object_new_string(l->reason) : NULL);
	a = json_object_new_array();
	for (s = 0; s < l->nseconds; s++)
		json_object_array_add(a, json_object_new_int64((int64_t)l->ops[s]));
	json_object_object_add(o, "ops_per_second", a);
	return o;
}


/* A cell's latency figures, its load through the pass and its workload's statistics. */
static void latency_json_cell(json_object *o, const struct run *run, const struct cell *c)
{
	(void)run;
	if (c->has_latency) {
		json_object_object_add(o, "max_us", json_object_new_int64((int64_t)(c->has_steady ? c->steady_max_us : c->max_us)));
		json_object_object_add(o, "max_is_lower_bound", json_object_new_boolean(c->has_steady && c->steady_censored));
		json_object_object_add(o, "startup_max_us", c->has_steady ? json_object_new_int64((int64_t)c->startup_max_us) : NULL);
		json_object_object_add(o, "startup_window_s", json_object_new_double(c->has_steady ? (double)c->window_us / 1e6 : 0));
		json_object_object_add(o, "cyclictest_max_us", json_object_new_int64((int64_t)c->max_us));
		json_object_object_add(o, "sample_stream_max_us", c->has_steady ? json_object_new_int64((int64_t)c->stream_max_us) : NULL);
		json_object_object_add(o, "max_in_unprinted_tail", json_object_new_boolean(c->max_in_tail));
		json_object_object_add(o, "percentiles", json_object_new_string(c->has_steady ? "steady, corrected for coordinated omission" : "whole pass, uncorrected"));
		json_object_object_add(o, "p50_us", json_object_new_int64((int64_t)c->judged.p50_us));
		json_object_object_add(o, "p99_us", json_object_new_int64((int64_t)c->judged.p99_us));
		json_object_object_add(o, "p999_us", json_object_new_int64((int64_t)c->judged.p999_us));
		json_object_object_add(o, "avg_us", json_object_new_double(c->avg_us));
		json_object_object_add(o, "samples", json_object_new_int64((int64_t)hist_total(&c->hist)));
		json_object_object_add(o, "overflow", json_object_new_int64((int64_t)c->hist.overflow));
		json_object_object_add(o, "wakeups", json_wakeups(c));
		json_object_object_add(o, "block_median_us", c->has_steady && c->nblocks ?
				       json_object_new_int64((int64_t)c->block_median_us) : NULL);
		json_object_object_add(o, "block_max_us", json_blocks(c));
	}
	json_object_object_add(o, "load", json_load(&c->load));
	json_object_object_add(o, "per_second_max_us", json_series(c));
	json_object_object_add(o, "workload_stats", json_object_new_string(c->workload_stats));
	json_object_object_add(o, "tasks_per_cpu", c->tasks_per_cpu ? json_object_new_int((int)c->tasks_per_cpu) : NULL);
	json_object_object_add(o, "fifo_prio", c->fifo_prio >= 0 ? json_object_new_int(c->fifo_prio) : NULL);
}

const struct pass_ops pass_latency = {
	.name = "latency",
	.load = latency_load,
	.md_rows = latency_md_rows,
	.nmd_rows = ARRAY_SIZE(latency_md_rows),
	.json_cell = latency_json_cell,
};
