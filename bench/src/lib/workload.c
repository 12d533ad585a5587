// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - deadline, signal and thread helpers shared by the workloads.
 */
#define _GNU_SOURCE
#include "workload.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locklat.h"

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

void wl_stats(const char *workload, const char *fmt, ...)
{
	va_list ap;

	printf("locklat-stats workload=%s ", workload);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}
