// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - deadline, signal, thread and progress helpers shared by the
 * workloads.
 */
#define _GNU_SOURCE
#include "workload.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "locklat.h"

/* The task layout of the last wl_start(), for wl_stats(). */
static struct wl_common layout;

/*
 * What the FIFO tasks did between wl_pace() calls: their longest operation
 * (waits for a lock included: the holder it boosts runs as real-time then)
 * and their time in operations and in pace sleeps, for wl_stats().
 */
static _Atomic uint64_t fifo_op_max_ns, fifo_busy_ns, fifo_slept_ns;

/* xorshift64*: a small, seedable PRNG, so generated data is reproducible. */
static uint64_t prng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

volatile sig_atomic_t wl_stop;

static void on_stop(int sig)
{
	(void)sig;
	wl_stop = 1;
}

void wl_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking read returns EINTR and the worker sees wl_stop. */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

int wl_done(uint64_t deadline_ns)
{
	return wl_stop || now_ns() >= deadline_ns;
}

void wl_run_threads(unsigned int n, void *(*fn)(void *), void *args, size_t arg_size)
{
	pthread_t *tids = calloc(n, sizeof(*tids));
	unsigned int i;
	int err;

	if (!tids)
		err_exit(LL_EXIT_FAIL, "out of memory");
	for (i = 0; i < n; i++) {
		err = pthread_create(&tids[i], NULL, fn, (char *)args + i * arg_size);
		if (err)
			err_exit(LL_EXIT_FAIL, "pthread_create: %s", strerror(err));
	}
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	free(tids);
}

#define NS_PER_S 1000000000ULL

/*
 * The progress reporter. The lock serialises the lines and makes the last
 * one last: wl_progress_end() prints it and marks the reporter ended with
 * the lock held, so a line the reporter was about to print is dropped
 * rather than printed after it (and after the locklat-stats line).
 */
static struct {
	pthread_mutex_t lock;
	enum { PROGRESS_OFF, PROGRESS_ON, PROGRESS_ENDED } state;
	uint64_t (*sample)(void);	/* NULL: the wl_progress() counter */
	uint64_t first_ns;		/* the first line's CLOCK_BOOTTIME: the deadlines' origin */
} progress = { .lock = PTHREAD_MUTEX_INITIALIZER };

static _Atomic uint64_t progress_ops;

void wl_progress(uint64_t n)
{
	/* Relaxed: a total read once a second needs no ordering with other data. */
	atomic_fetch_add_explicit(&progress_ops, n, memory_order_relaxed);
}

/* CLOCK_BOOTTIME: the clock of /proc/uptime, which the guest's init reads. */
static uint64_t boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* One progress line, now. The caller holds progress.lock. */
static void progress_print(void)
{
	uint64_t ops = progress.sample ? progress.sample()
				       : atomic_load_explicit(&progress_ops, memory_order_relaxed);
	char line[96];
	int len = snprintf(line, sizeof(line), "locklat-progress uptime_ms=%llu ops=%llu\n",
			   (unsigned long long)(boottime_ns() / 1000000), (unsigned long long)ops);
	ssize_t done;

	/*
	 * One write(2), not stdio: the line reaches the file at once and whole,
	 * and no stdio lock is held while a worker fork()s. A lost line shows
	 * in the file as a gap; say why on stderr.
	 */
	done = write(STDOUT_FILENO, line, (size_t)len);
	if (done != len)
		warn_msg("progress line not written: %s", done < 0 ? strerror(errno) : "short write");
}

static void *progress_main(void *arg)
{
	uint64_t deadline = progress.first_ns;

	(void)arg;
	for (;;) {
		struct timespec ts;
		uint64_t now = boottime_ns();

		/*
		 * Absolute deadlines, first + k s: a late wake-up does not shift
		 * the lines after it. Seconds missed entirely (a stalled guest)
		 * are skipped, not printed in a burst: the gap in uptime_ms is
		 * what shows the stall.
		 */
		deadline += NS_PER_S;
		if (deadline <= now)
			deadline += (now - deadline) / NS_PER_S * NS_PER_S + NS_PER_S;
		ts.tv_sec = (time_t)(deadline / NS_PER_S);
		ts.tv_nsec = (long)(deadline % NS_PER_S);
		/* Every signal is blocked in this thread: no EINTR to retry. */
		clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &ts, NULL);
		pthread_mutex_lock(&progress.lock);
		if (progress.state == PROGRESS_ENDED) {
			pthread_mutex_unlock(&progress.lock);
			return NULL;
		}
		progress_print();
		pthread_mutex_unlock(&progress.lock);
	}
}

void wl_progress_start(uint64_t (*sample)(void))
{
	sigset_t all, old;
	pthread_t tid;
	int err;

	pthread_mutex_lock(&progress.lock);
	progress.sample = sample;
	progress.state = PROGRESS_ON;
	progress.first_ns = boottime_ns();
	progress_print();
	pthread_mutex_unlock(&progress.lock);
	/*
	 * A thread starts with its creator's signal mask. With every signal
	 * blocked in the reporter, SIGTERM reaches a thread that acts on it
	 * (a worker blocked in read() sees EINTR).
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&tid, NULL, progress_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		err_exit(LL_EXIT_FAIL, "pthread_create (progress reporter): %s", strerror(err));
	/* Nobody joins it: returning from main() or exit() ends it at once. */
	pthread_detach(tid);
}

void wl_progress_end(void)
{
	pthread_mutex_lock(&progress.lock);
	if (progress.state == PROGRESS_ON) {
		progress_print();
		progress.state = PROGRESS_ENDED;
	}
	pthread_mutex_unlock(&progress.lock);
}

/* The locklat-integrity line, now, in one write(2) (no stdio buffer to lose or reorder). */
static void integrity_print(const char *workload)
{
	char line[512];

	wl_integrity_format(line, sizeof(line), workload);
	dprintf(STDOUT_FILENO, "%s\n", line);
}

void wl_stats(const char *workload, const char *fmt, ...)
{
	va_list ap;

	/* Before the last progress line, which stays right before the statistics. */
	integrity_print(workload);
	wl_progress_end();
	printf("locklat-stats workload=%s cpus=%llu tasks=%llu fifo_prio=%llu ", workload,
	       (unsigned long long)layout.cpus, (unsigned long long)layout.tasks,
	       (unsigned long long)layout.fifo_prio);
	if (layout.fifo_prio) {
		char pace[128];

		wl_pace_format(pace, sizeof(pace));
		printf("%s ", pace);
	}
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void wl_text_fill(char *buf, size_t len, uint64_t *seed)
{
	static const char *const words[] = {
		"local_lock", "preempt_disable", "per-cpu", "spinlock", "latency",
		"the", "a", "of", "to", "and", "section", "interrupt", "kernel",
		"rt", "mutex", "sleeping", "decompress", "block", "page", "cache",
		"zram", "swap", "folio", "batch", "idr", "radix", "connector",
	};
	const size_t nwords = ARRAY_SIZE(words);
	size_t pos = 0, col = 0;

	if (!*seed)
		*seed = 1; /* xorshift never leaves 0 */
	while (pos < len) {
		uint64_t r = prng_next(seed);
		/* A product of two draws skews towards the first words, as in text. */
		size_t w = (size_t)(((r >> 32) % nwords) * ((r & 0xffff) % nwords) / nwords);
		const char *word = words[w];
		size_t wl = strlen(word);
		char sep = (col + wl > 72) ? '\n' : ' ';

		if (sep == '\n')
			col = 0;
		else
			col += wl + 1;
		if (pos + wl + 1 > len) {
			memset(buf + pos, '\n', len - pos);
			break;
		}
		memcpy(buf + pos, word, wl);
		buf[pos + wl] = sep;
		pos += wl + 1;
		/* A number now and then keeps long-range matches imperfect. */
		if ((r & 0x3f) == 0 && pos + 12 < len)
			pos += (size_t)snprintf(buf + pos, 12, "%u ", (unsigned int)(r >> 40));
	}
}

void wl_common_init(struct wl_common *wc)
{
	memset(wc, 0, sizeof(*wc));
	wc->duration_ns = 10000000000ULL;
	wc->tasks = WL_DEFAULT_TASKS;
	wc->fifo_prio = WL_DEFAULT_FIFO_PRIO;
	wc->pace_us = WL_DEFAULT_PACE_US;
	opterr = 0;
}

void wl_unknown_option(char **argv)
{
	err_exit(LL_EXIT_USAGE, "unknown option or missing value '%s' (see --help)", argv[optind - 1]);
}

int wl_common_option(struct wl_common *wc, int c, const char *arg, const char *usage)
{
	switch (c) {
	case WL_OPT_DURATION:
		if (!parse_duration_ns(arg, &wc->duration_ns))
			err_exit(LL_EXIT_USAGE, "--duration wants a positive time like 10 or 500ms, got '%s'", arg);
		return 1;
	case WL_OPT_HELP:
		fputs(usage, stdout);
		exit(LL_EXIT_OK);
	case WL_OPT_CPUS:
		if (!parse_u64(arg, 1, 1024, &wc->cpus))
			err_exit(LL_EXIT_USAGE, "--cpus wants 1..1024, got '%s'", arg);
		return 1;
	case WL_OPT_TASKS:
		if (!parse_u64(arg, 1, 64, &wc->tasks))
			err_exit(LL_EXIT_USAGE, "--tasks wants 1..64 per CPU, got '%s'", arg);
		return 1;
	case WL_OPT_FIFO_PRIO:
		/* 95 and up is cyclictest's and timerlat's: never compete with them. */
		if (!parse_u64(arg, 0, 90, &wc->fifo_prio))
			err_exit(LL_EXIT_USAGE, "--fifo-prio wants 0..90 (0: no FIFO task), got '%s'", arg);
		return 1;
	case WL_OPT_PACE_US:
		if (!parse_u64(arg, 1, 1000000, &wc->pace_us))
			err_exit(LL_EXIT_USAGE, "--pace-us wants 1..1000000, got '%s'", arg);
		return 1;
	}
	return 0;
}

void wl_start(struct wl_common *wc, int argc, char **argv)
{
	if (optind != argc)
		err_exit(LL_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (!wc->cpus)
		wc->cpus = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
	if ((uint64_t)sysconf(_SC_NPROCESSORS_ONLN) < wc->cpus)
		err_exit(LL_EXIT_USAGE, "--cpus %llu, but only %ld CPUs are online",
			 (unsigned long long)wc->cpus, sysconf(_SC_NPROCESSORS_ONLN));
	wc->threads = wc->cpus * wc->tasks;
	/* A lone task has nobody to preempt: no FIFO task then. */
	if (wc->tasks < 2)
		wc->fifo_prio = 0;
	layout = *wc;
	wl_signals_install();
	wc->start_ns = now_ns();
	wl_progress_start(NULL);
}

double wl_elapsed_s(const struct wl_common *wc)
{
	return (double)(now_ns() - wc->start_ns) / 1e9;
}

int wl_task_place(unsigned int cpu, unsigned int prio)
{
	struct sched_param sp = { .sched_priority = (int)prio };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return errno;
	if (prio && sched_setscheduler(0, SCHED_FIFO, &sp))
		return errno;
	return 0;
}

/* What a worker thread runs: its place first, then the workload's function. */
struct worker_start {
	struct wl_worker *w;
	unsigned int prio;
	void *(*fn)(void *);
};

static void *worker_placed(void *arg)
{
	struct worker_start *ws = arg;
	int err = wl_task_place(ws->w->cpu, ws->w->fifo ? ws->prio : 0);

	if (err) {
		ws->w->error = err;
		ws->w->what = ws->w->fifo ? "sched_setaffinity/sched_setscheduler(SCHED_FIFO)"
					  : "sched_setaffinity";
		return NULL;
	}
	ws->w->op_start_ns = now_ns();
	return ws->fn(ws->w);
}

void wl_pace_account(uint64_t op_ns, uint64_t slept_ns)
{
	uint64_t max = atomic_load(&fifo_op_max_ns);

	while (op_ns > max && !atomic_compare_exchange_weak(&fifo_op_max_ns, &max, op_ns))
		;
	atomic_fetch_add(&fifo_busy_ns, op_ns);
	atomic_fetch_add(&fifo_slept_ns, slept_ns);
}

void wl_pace_format(char *buf, size_t size)
{
	uint64_t busy = atomic_load(&fifo_busy_ns), slept = atomic_load(&fifo_slept_ns);

	snprintf(buf, size, "fifo_op_max_us=%llu fifo_busy_pct=%llu",
		 (unsigned long long)(atomic_load(&fifo_op_max_ns) / 1000),
		 (unsigned long long)(busy + slept ? 100 * busy / (busy + slept) : 0));
}

void wl_pace_reset(void)
{
	atomic_store(&fifo_op_max_ns, 0);
	atomic_store(&fifo_busy_ns, 0);
	atomic_store(&fifo_slept_ns, 0);
}

void wl_pace(struct wl_worker *w)
{
	struct timespec ts;
	uint64_t ns, now, op;

	if (!w->fifo)
		return;
	now = now_ns();
	op = now - w->op_start_ns;
	ns = prng_next(&w->pace_state) % (2 * op + w->pace_max_ns + 1);
	ts.tv_sec = (time_t)(ns / NS_PER_S);
	ts.tv_nsec = (long)(ns % NS_PER_S);
	/* A signal cuts the sleep short: the caller checks wl_done() next. */
	nanosleep(&ts, NULL);
	w->op_start_ns = now_ns();
	wl_pace_account(op, w->op_start_ns - now);
}

void *wl_workers_run(const struct wl_common *wc, size_t size, void *(*fn)(void *))
{
	char *workers = calloc(wc->threads, size);
	struct worker_start *starts = calloc(wc->threads, sizeof(*starts));
	unsigned int i;

	if (!workers || !starts)
		err_exit(LL_EXIT_FAIL, "out of memory");
	for (i = 0; i < wc->threads; i++) {
		struct wl_worker *w = (struct wl_worker *)(workers + i * size);

		w->index = i;
		w->cpu = (unsigned int)(i / wc->tasks);
		w->task = (unsigned int)(i % wc->tasks);
		w->fifo = w->task == 0 && wc->fifo_prio > 0;
		w->pace_state = i + 1;
		w->pace_max_ns = wc->pace_us * 1000;
		w->deadline_ns = wc->start_ns + wc->duration_ns;
		starts[i] = (struct worker_start){ w, (unsigned int)wc->fifo_prio, fn };
	}
	wl_run_threads((unsigned int)wc->threads, worker_placed, starts, sizeof(*starts));
	free(starts);
	for (i = 0; i < wc->threads; i++) {
		struct wl_worker *w = (struct wl_worker *)(workers + i * size);

		if (w->error) {
			/*
			 * A kernel that corrupts data may also fail the
			 * operations themselves: what was checked until then
			 * still reaches the host.
			 */
			integrity_print(strncmp(ll_prog, "locklat-", 8) ? ll_prog : ll_prog + 8);
			err_exit(LL_EXIT_FAIL, "thread %u: %s: %s", i, w->what ? w->what : "failed",
				 strerror(w->error));
		}
	}
	return workers;
}

uint64_t wl_vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char key[64];
	unsigned long long v, found = 0;

	if (!f)
		return 0;
	while (fscanf(f, "%63s %llu", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

bool wl_swap_active(void)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[256];
	int lines = 0;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		lines++;
	fclose(f);
	return lines > 1;	/* the first line is the header */
}

static struct {
	pthread_mutex_t lock;
	uint64_t checked, errors;
	char first[400];
} integrity = { .lock = PTHREAD_MUTEX_INITIALIZER };

void wl_integrity_checked(uint64_t n)
{
	pthread_mutex_lock(&integrity.lock);
	integrity.checked += n;
	pthread_mutex_unlock(&integrity.lock);
}

void wl_integrity_error(const char *fmt, ...)
{
	va_list ap;
	char *p;

	pthread_mutex_lock(&integrity.lock);
	integrity.checked++;
	if (!integrity.errors++) {
		va_start(ap, fmt);
		vsnprintf(integrity.first, sizeof(integrity.first), fmt, ap);
		va_end(ap);
		/* One line: the host reads it as the rest of a line. */
		for (p = integrity.first; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
	}
	pthread_mutex_unlock(&integrity.lock);
}

uint64_t wl_integrity_errors(void)
{
	uint64_t n;

	pthread_mutex_lock(&integrity.lock);
	n = integrity.errors;
	pthread_mutex_unlock(&integrity.lock);
	return n;
}

void wl_integrity_format(char *buf, size_t size, const char *workload)
{
	pthread_mutex_lock(&integrity.lock);
	snprintf(buf, size, "locklat-integrity workload=%s checked=%llu errors=%llu%s%s", workload,
		 (unsigned long long)integrity.checked, (unsigned long long)integrity.errors,
		 integrity.errors ? " first=" : "", integrity.errors ? integrity.first : "");
	pthread_mutex_unlock(&integrity.lock);
}

void wl_integrity_reset(void)
{
	pthread_mutex_lock(&integrity.lock);
	integrity.checked = integrity.errors = 0;
	integrity.first[0] = '\0';
	pthread_mutex_unlock(&integrity.lock);
}

uint64_t wl_fnv1a(const void *data, size_t len, uint64_t h)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t wl_hash64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = WL_FNV_INIT ^ len, w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h ^= w;
		h *= 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	return wl_fnv1a(p + i, len - i, h);
}

__thread sigjmp_buf *wl_sigbus_return;

static void on_sigbus(int sig)
{
	(void)sig;
	if (wl_sigbus_return)
		siglongjmp(*wl_sigbus_return, 1);
	/* Not inside a check: the default action. */
	signal(SIGBUS, SIG_DFL);
	raise(SIGBUS);
}

void wl_sigbus_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	/* siglongjmp leaves the handler: SIGBUS must not stay blocked. */
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}
