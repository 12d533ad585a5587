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
 * Output: progress lines, one op per fork, message queue and inotify watch
 * (see workload.h), then one "locklat-stats workload=idr ..." line. Exit 0,
 * 1 error, 2 usage.
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

static const char usage_text[] = "usage: locklat-idr [--threads N] [--duration D]\n";

struct worker {
	struct wl_worker base;
	uint64_t forks, queues, watches;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int ifd = inotify_init1(IN_CLOEXEC);

	if (ifd < 0) {
		w->base.error = errno;
		w->base.what = "inotify_init1 (CONFIG_INOTIFY_USER?)";
		return NULL;
	}
	while (!wl_done(w->base.deadline_ns)) {
		pid_t pid = fork();
		int q, wd;

		if (pid < 0) {
			w->base.error = errno;
			w->base.what = "fork";
			break;
		}
		if (pid == 0)
			_exit(0);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		w->forks++;
		wl_progress(1);

		q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
		if (q < 0) {
			w->base.error = errno;
			w->base.what = "msgget (CONFIG_SYSVIPC?)";
			break;
		}
		msgctl(q, IPC_RMID, NULL);
		w->queues++;
		wl_progress(1);

		wd = inotify_add_watch(ifd, "/tmp", IN_CREATE);
		if (wd < 0) {
			w->base.error = errno;
			w->base.what = "inotify_add_watch";
			break;
		}
		inotify_rm_watch(ifd, wd);
		w->watches++;
		wl_progress(1);
	}
	close(ifd);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		WL_COMMON_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	uint64_t forks = 0, queues = 0, watches = 0;
	struct wl_common wc;
	struct worker *workers;
	unsigned int i;
	int c;

	ll_prog = "locklat-idr";
	wl_common_init(&wc);
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1)
		if (!wl_common_option(&wc, c, optarg, usage_text))
			wl_unknown_option(argv);
	wl_start(&wc, argc, argv);
	workers = wl_workers_run(&wc, sizeof(*workers), worker_main);
	for (i = 0; i < wc.threads; i++) {
		forks += workers[i].forks;
		queues += workers[i].queues;
		watches += workers[i].watches;
	}
	wl_stats("idr", "threads=%llu seconds=%.3f forks=%llu msg_queues=%llu inotify_watches=%llu",
		 (unsigned long long)wc.threads, wl_elapsed_s(&wc), (unsigned long long)forks,
		 (unsigned long long)queues, (unsigned long long)watches);
	free(workers);
	return 0;
}
