// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-idr - drive the radix-tree/idr preload section.
 *
 * Usage: locklat-idr [--threads N] [--duration D]
 *
 * Each thread loops over three allocators that call idr_preload() before
 * taking their own lock, the section the 2020 series turned into
 * radix_tree_preloads.lock:
 *   fork() + _exit()              alloc_pid() -> idr_alloc_cyclic()
 *   msgget(IPC_PRIVATE) + RMID    ipc_addid()
 *   inotify_add_watch() + rm      inotify_add_to_idr()
 *
 * Output: one "locklat-stats workload=idr ..." line. Exit 0, 1 error, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/wait.h>
#include <unistd.h>

#include "locklat.h"
#include "workload.h"

enum option_values {
	OPT_DURATION = 1,
	OPT_HELP,
	OPT_THREADS,
};

struct worker {
	unsigned int index;
	uint64_t deadline_ns;
	uint64_t forks, queues, watches;
	int error;
	const char *what;
};

static void usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: locklat-idr [--threads N] [--duration D]\n");
	exit(status);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int ifd = inotify_init1(IN_CLOEXEC);

	if (ifd < 0) {
		w->error = errno;
		w->what = "inotify_init1";
		return NULL;
	}
	while (!wl_done(w->deadline_ns)) {
		pid_t pid = fork();
		int q, wd;

		if (pid < 0) {
			w->error = errno;
			w->what = "fork";
			break;
		}
		if (pid == 0)
			_exit(0);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		w->forks++;

		q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
		if (q < 0) {
			w->error = errno;
			w->what = "msgget";
			break;
		}
		msgctl(q, IPC_RMID, NULL);
		w->queues++;

		wd = inotify_add_watch(ifd, "/tmp", IN_CREATE);
		if (wd < 0) {
			w->error = errno;
			w->what = "inotify_add_watch";
			break;
		}
		inotify_rm_watch(ifd, wd);
		w->watches++;
	}
	close(ifd);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t threads = 0, duration_ns = 10000000000ULL, t0;
	uint64_t forks = 0, queues = 0, watches = 0;
	struct worker *workers;
	unsigned int i;
	int c;

	ll_prog = "locklat-idr";
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_DURATION:
			if (!parse_duration_ns(optarg, &duration_ns))
				err_exit(LL_EXIT_USAGE, "--duration wants a positive time like 10 or 500ms, got '%s'", optarg);
			break;
		case OPT_HELP:
			usage(LL_EXIT_OK);
			break;
		case OPT_THREADS:
			if (!parse_u64(optarg, 1, 1024, &threads))
				err_exit(LL_EXIT_USAGE, "--threads wants 1..1024, got '%s'", optarg);
			break;
		default:
			usage(LL_EXIT_USAGE);
		}
	}
	if (optind != argc)
		err_exit(LL_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (!threads)
		threads = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);

	wl_signals_install();
	workers = calloc(threads, sizeof(*workers));
	if (!workers)
		err_exit(LL_EXIT_FAIL, "out of memory");
	t0 = now_ns();
	for (i = 0; i < threads; i++) {
		workers[i].index = i;
		workers[i].deadline_ns = t0 + duration_ns;
	}
	wl_run_threads((unsigned int)threads, worker_main, workers, sizeof(*workers));
	for (i = 0; i < threads; i++) {
		if (workers[i].error)
			err_exit(LL_EXIT_FAIL, "worker %u: %s: %s (kernel without SYSVIPC or INOTIFY_USER?)",
				 i, workers[i].what, strerror(workers[i].error));
		forks += workers[i].forks;
		queues += workers[i].queues;
		watches += workers[i].watches;
	}
	double secs = (double)(now_ns() - t0) / 1e9;
	wl_stats("idr", "threads=%llu seconds=%.3f forks=%llu msg_queues=%llu inotify_watches=%llu",
		 (unsigned long long)threads, secs, (unsigned long long)forks,
		 (unsigned long long)queues, (unsigned long long)watches);
	free(workers);
	return 0;
}
