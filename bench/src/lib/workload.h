/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - what every locklat workload shares: stopping at a deadline or
 * on SIGTERM, running N worker threads, and the one-line statistics format.
 *
 * Statistics are printed as one line of key=value pairs beginning with
 * "locklat-stats workload=<name>", which the summary reads.
 */
#ifndef LOCKLAT_WORKLOAD_H
#define LOCKLAT_WORKLOAD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

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

/* Print "locklat-stats workload=NAME " followed by the formatted pairs. */
void wl_stats(const char *workload, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Fill buf with lines of words from a small vocabulary with a skewed
 * distribution: data that compresses like text (lz4 ~2x, xz ~8x), unlike
 * zeros (which zram stores as "same" pages without compressing) or noise.
 * The same seed gives the same bytes.
 */
void wl_text_fill(char *buf, size_t len, uint64_t *seed);

#endif /* LOCKLAT_WORKLOAD_H */
