/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - what every locklat workload shares: stopping at a deadline or
 * on SIGTERM, running N worker threads, the progress lines and the one-line
 * statistics format.
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
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The options every workload takes. */
struct wl_common {
	uint64_t threads;	/* --threads N, default: the online CPUs */
	uint64_t duration_ns;	/* --duration D, default 10 s */
	uint64_t start_ns;	/* set by wl_start() */
};

/* Option ids: the common ones, then each workload's own from WL_OPT_OWN. */
enum wl_option_values {
	WL_OPT_DURATION = 1,
	WL_OPT_HELP,
	WL_OPT_THREADS,
	WL_OPT_OWN,
};

/* The common entries of a workload's long_options table. */
#define WL_COMMON_LONG_OPTIONS                                         \
	{ "duration", required_argument, NULL, WL_OPT_DURATION },     \
	{ "help", no_argument, NULL, WL_OPT_HELP },                   \
	{ "threads", required_argument, NULL, WL_OPT_THREADS }

/* The first member of a workload's per-thread struct. */
struct wl_worker {
	unsigned int index;
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
 * starting with struct wl_worker (index and deadline filled in), and wait for
 * them. Exits with the first thread's error, if any. Returns the array (free
 * it); n is the thread count.
 */
void *wl_workers_run(const struct wl_common *wc, size_t size, void *(*fn)(void *));

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
 * Print the last progress line, then "locklat-stats workload=NAME " followed
 * by the formatted pairs.
 */
void wl_stats(const char *workload, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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
