/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - what every locklat workload shares: stopping at a deadline or
 * on SIGTERM, running its tasks (several per CPU, pinned, one of them
 * SCHED_FIFO), the progress lines, the data-integrity count and the one-line
 * statistics format.
 *
 * Tasks: a workload runs --tasks T worker threads on each of --cpus C CPUs,
 * pinned to CPU 0..C-1, so that the T tasks of a CPU share that CPU's
 * per-CPU data and contend for its section. On each CPU the first task is
 * SCHED_FIFO at --fifo-prio P (below cyclictest's 95) and paces itself
 * (wl_pace()): after each operation it sleeps a pseudo-random time of up to
 * twice that operation's length plus --pace-us, so it wakes at arbitrary
 * points of the other tasks' sections and takes about half the CPU at most.
 * Without the pacing a FIFO task that runs through a 50 ms decompression
 * exhausts the CPU's real-time bandwidth (sched_rt_runtime_us) and RT
 * throttling then stalls cyclictest's threads too. On PREEMPT_RT a local_lock section stays
 * preemptible, so the woken FIFO task preempts a SCHED_OTHER task holding
 * the lock, blocks on it and boosts the holder (priority inheritance); on
 * a non-RT kernel the section is preempt_disable() and its wake-up waits.
 *
 * Integrity: a workload checks what it reads back (wl_integrity_checked(),
 * wl_integrity_error()); wl_stats() prints, before the last progress line
 * and the statistics,
 *
 *   locklat-integrity workload=<name> checked=<N> errors=<M>[ first=<text>]
 *
 * where first is the first error's description (one line). The host makes
 * a cell with errors > 0 a finding (bench/host/run-cell.sh).
 *
 * Statistics are printed as one line of key=value pairs beginning with
 * "locklat-stats workload=<name>", which the summary reads.
 *
 * Progress: from wl_start() on, a reporter thread prints to stdout
 *
 *   locklat-progress uptime_ms=<CLOCK_BOOTTIME in ms> ops=<cumulative ops>
 *
 * one line at once (ops=0), one a second after it (on the absolute deadlines
 * start + k s: a late wake-up does not shift the later lines, and a second
 * it missed entirely is skipped, not caught up with a burst) and a last one
 * when the workload ends normally, from wl_stats(), just before the
 * locklat-stats line. ops is the sum of what the workload passed to
 * wl_progress(): many a second while it runs, none while it is stuck.
 * CLOCK_BOOTTIME is the clock of /proc/uptime, with which the guest's init
 * stamps the latency pass (guest/latency-window), so the host can tell
 * whether the load progressed through the whole pass: lines that stop early
 * mean the workload died, lines whose ops stand still that it stalled. Each
 * line is a single write(2): it is in the file at once, whole.
 */
#ifndef LOCKLAT_WORKLOAD_H
#define LOCKLAT_WORKLOAD_H

#include <getopt.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The options every workload takes. */
struct wl_common {
	uint64_t cpus;		/* --cpus C, default: the online CPUs */
	uint64_t tasks;		/* --tasks T per CPU, default WL_DEFAULT_TASKS */
	uint64_t fifo_prio;	/* --fifo-prio P of each CPU's first task; 0: none (always with one task) */
	uint64_t pace_us;	/* --pace-us U: added to a FIFO task's longest sleep (wl_pace()) */
	uint64_t threads;	/* cpus * tasks, set by wl_start() */
	uint64_t duration_ns;	/* --duration D, default 10 s */
	uint64_t start_ns;	/* set by wl_start() */
};

/* Two tasks per CPU: one SCHED_FIFO, one SCHED_OTHER. */
#define WL_DEFAULT_TASKS 2
/* Below cyclictest's 95 and the kernel's threaded interrupts' 50. */
#define WL_DEFAULT_FIFO_PRIO 10
#define WL_DEFAULT_PACE_US 1000

/* Option ids: the common ones, then each workload's own from WL_OPT_OWN. */
enum wl_option_values {
	WL_OPT_CPUS = 1,
	WL_OPT_DURATION,
	WL_OPT_FIFO_PRIO,
	WL_OPT_HELP,
	WL_OPT_PACE_US,
	WL_OPT_TASKS,
	WL_OPT_OWN,
};

/* The common entries of a workload's long_options table. */
#define WL_COMMON_LONG_OPTIONS                                         \
	{ "cpus", required_argument, NULL, WL_OPT_CPUS },             \
	{ "duration", required_argument, NULL, WL_OPT_DURATION },     \
	{ "fifo-prio", required_argument, NULL, WL_OPT_FIFO_PRIO },   \
	{ "help", no_argument, NULL, WL_OPT_HELP },                   \
	{ "pace-us", required_argument, NULL, WL_OPT_PACE_US },       \
	{ "tasks", required_argument, NULL, WL_OPT_TASKS }

/* The common options' usage, for a workload's usage text. */
#define WL_COMMON_USAGE                                                        \
	"  --cpus C        pin tasks to CPUs 0..C-1 (default: the online CPUs)\n" \
	"  --tasks T       tasks per CPU (default 2)\n"                           \
	"  --fifo-prio P   SCHED_FIFO priority of each CPU's first task, 0: none (default 10)\n" \
	"  --pace-us U     a FIFO task sleeps up to 2L+U us after an operation of L (default 1000)\n" \
	"  --duration D    how long (default 10 s)\n"

/* The first member of a workload's per-thread struct. */
struct wl_worker {
	unsigned int index;	/* 0 .. cpus * tasks - 1 */
	unsigned int cpu;	/* the CPU it is pinned to */
	unsigned int task;	/* its place among its CPU's tasks: 0 is the FIFO one */
	bool fifo;		/* runs SCHED_FIFO (wl_pace() sleeps) */
	uint64_t pace_state;	/* wl_pace()'s PRNG */
	uint64_t pace_max_ns;
	uint64_t op_start_ns;	/* when its current operation began (wl_pace()) */
	uint64_t deadline_ns;
	int error;		/* errno of the failure that stopped the thread */
	const char *what;	/* the operation that failed */
};

/* Defaults; also silences getopt, whose errors wl_unknown_option() reports. */
void wl_common_init(struct wl_common *wc);
/* "unknown option" for the option getopt_long just refused; exits 2. */
void wl_unknown_option(char **argv) __attribute__((noreturn));
/*
 * Handle option c if it is a common one: returns 1 if so, 0 if not. --help
 * prints usage and exits 0; a bad value exits with status 2.
 */
int wl_common_option(struct wl_common *wc, int c, const char *arg, const char *usage);
/*
 * After option parsing: reject leftover arguments, default the thread count,
 * install the SIGTERM handlers, start the clock and the progress reporter.
 */
void wl_start(struct wl_common *wc, int argc, char **argv);
double wl_elapsed_s(const struct wl_common *wc);

/*
 * Run fn in wc->threads threads over an array of structs of size bytes, each
 * starting with struct wl_worker (filled in), and wait for them. Each thread
 * is pinned to its CPU and given its policy before fn runs. Exits with the
 * first thread's error, if any. Returns the array (free it).
 */
void *wl_workers_run(const struct wl_common *wc, size_t size, void *(*fn)(void *));

/*
 * Between two operations: a FIFO task sleeps a pseudo-random time in
 * [0, 2 * (the operation's length) + pace_us), so it wakes inside the other
 * tasks' sections and leaves them at least about half the CPU; any other
 * task returns at once.
 */
void wl_pace(struct wl_worker *w);
/* One FIFO operation of op_ns and the pace sleep after it, counted. */
void wl_pace_account(uint64_t op_ns, uint64_t slept_ns);
/*
 * "fifo_op_max_us=<longest operation> fifo_busy_pct=<operations' share of
 * the FIFO tasks' time>" (no newline), into buf: what wl_stats() prints
 * when there is a FIFO task. An operation far longer than the workload's
 * usual ones is a FIFO task that could not finish it: on PREEMPT_RT one
 * that spun, unable to run the SCHED_OTHER task it waited for.
 */
void wl_pace_format(char *buf, size_t size);
/* Forget the counts (the unit tests). */
void wl_pace_reset(void);

/*
 * Pin the calling thread to cpu and set its policy: SCHED_FIFO prio when
 * prio > 0, else SCHED_OTHER. 0, or an errno value.
 */
int wl_task_place(unsigned int cpu, unsigned int prio);

/* Data integrity (any thread): n more items checked, all correct. */
void wl_integrity_checked(uint64_t n);
/* One item checked and found wrong: counted, the first description kept. */
void wl_integrity_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Errors counted so far. */
uint64_t wl_integrity_errors(void);
/*
 * The locklat-integrity line for workload (no newline), into buf; what
 * wl_stats() prints. Exposed for the unit tests.
 */
void wl_integrity_format(char *buf, size_t size, const char *workload);
/* Forget every count (the unit tests). */
void wl_integrity_reset(void);

/* FNV-1a, 64 bits, continuing from h (start with WL_FNV_INIT). */
#define WL_FNV_INIT 0xcbf29ce484222325ULL
uint64_t wl_fnv1a(const void *data, size_t len, uint64_t h);
/*
 * A fast 64-bit hash of len bytes (a multiple of 8), 8 bytes a step: for
 * checking pages, where FNV's byte steps would cost the guest more time
 * than the swap it checks. Any changed byte changes it.
 */
uint64_t wl_hash64(const void *data, size_t len);

/* Set by SIGTERM/SIGINT: workers finish their current operation and return. */
extern volatile sig_atomic_t wl_stop;

/* Install the SIGTERM/SIGINT handlers that set wl_stop. */
void wl_signals_install(void);

/* True once wl_stop is set or the monotonic clock passed deadline_ns. */
int wl_done(uint64_t deadline_ns);

/*
 * Run fn(index, arg) in n threads and wait for all of them. Returns 0, or
 * exits with an error if a thread cannot be created.
 */
void wl_run_threads(unsigned int n, void *(*fn)(void *), void *args, size_t arg_size);

/* Count n operations done (any thread; a relaxed atomic add). */
void wl_progress(uint64_t n);

/*
 * Print the first progress line and start the reporter (wl_start() does it
 * for the workloads). sample, when not NULL, replaces the wl_progress()
 * counter as the source of ops, for a program that measures its progress
 * instead of counting it (locklat-loadmon); it is called once per line, with
 * the reporter's lock held. The reporter blocks every signal, so SIGTERM
 * and SIGINT go to the program's other threads, and never delays its exit.
 */
void wl_progress_start(uint64_t (*sample)(void));

/*
 * Print the last progress line and stop the reporter; nothing if it never
 * started or already ended. wl_stats() calls it.
 */
void wl_progress_end(void);

/*
 * Print the locklat-integrity line, the last progress line, then
 * "locklat-stats workload=NAME cpus=C tasks=T fifo_prio=P " followed by the
 * formatted pairs. The task layout comes from the last wl_start().
 */
void wl_stats(const char *workload, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Reading back memory the kernel swapped may fail with SIGBUS (a swap-in
 * that did not decompress): a check sets its thread's wl_sigbus_return to
 * a sigsetjmp() buffer around the reads, and wl_sigbus_install()'s handler
 * returns there. With it NULL the signal takes its default action.
 */
extern __thread sigjmp_buf *wl_sigbus_return;
void wl_sigbus_install(void);

/* A /proc/vmstat counter, or 0 when the kernel does not have it. */
uint64_t wl_vmstat(const char *name);

/* True if /proc/swaps lists a swap device. */
bool wl_swap_active(void);

/*
 * Fill buf with lines of words from a small vocabulary with a skewed
 * distribution: data that compresses like text (lz4 ~2x, xz ~8x), unlike
 * zeros (which zram stores as "same" pages without compressing) or noise.
 * The same seed gives the same bytes.
 */
void wl_text_fill(char *buf, size_t len, uint64_t *seed);

#endif /* LOCKLAT_WORKLOAD_H */
