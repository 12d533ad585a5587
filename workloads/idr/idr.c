// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-idr - drive the radix-tree/idr preload section.
 *
 * Usage: locklat-idr [--cpus C] [--tasks T] [--fifo-prio P] [--pace-us U]
 *                    [--duration D]
 *
 * T tasks per CPU (pinned, the first SCHED_FIFO: workload.h) each loop over
 * three allocators that call idr_preload() before taking their own lock,
 * the section the 2020 series turned into radix_tree_preloads.lock, which
 * the tasks of a CPU share:
 *   fork() + _exit()              alloc_pid() -> idr_alloc_cyclic()
 *   msgget(IPC_PRIVATE) + RMID    ipc_addid()
 *   inotify_add_watch() + rm      inotify_add_to_idr()
 * Each task keeps RING (4) message queues and RING watches alive at once (a
 * new one replaces its oldest), so that the trees hold several ids of each;
 * the watches are on RING directories of the workload's own
 * (/tmp/locklat-idr.XXXXXX/0..3, removed when it exits).
 *
 * Checks (workload.h, integrity), on the ids those idrs hand out:
 *   pids       unique among the workload's live children (a process-wide
 *              set: a child stays a zombie, holding its pid, until the
 *              check removed it from the set and then reaped it);
 *              waitid(P_PID, pid, WNOWAIT), which looks the pid up in the
 *              idr, finds the child, exited with status 0
 *   msqids     unique among the workload's live queues (process-wide); the
 *              message sent to a new queue is the one received from it
 *              when it is retired (the id still leads to that queue);
 *              IPC_RMID finds it, and IPC_STAT afterwards does not
 *   watches    unique among the task's live watch descriptors;
 *              inotify_rm_watch() finds each once, and a second time not
 * A check that fails is counted and the loop goes on.
 *
 * Output: progress lines, one op per fork, message queue and inotify watch
 * (see workload.h), then the locklat-integrity line and one
 * "locklat-stats workload=idr ..." line. Exit 0, 1 error, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "idset.h"
#include "locklat.h"
#include "workload.h"

static const char usage_text[] = "usage: locklat-idr [options]\n" WL_COMMON_USAGE;

/* Message queues and inotify watches each task keeps alive at once. */
#define RING 4

/* What a queue carries from its creation to its removal. */
struct tag_msg {
	long mtype;
	uint64_t tag;
};

struct worker {
	struct wl_worker base;
	uint64_t forks, queues, watches;
	int ifd;
	unsigned int next;		/* the ring slot to replace */
	int queue[RING];		/* msqid, or -1 */
	bool queue_held[RING];		/* in live.queues (not a duplicate) */
	uint64_t queue_tag[RING];	/* the message it holds, or 0: none sent */
	int wd[RING];			/* watch descriptor on watch_path[slot], or -1 */
};

/* The ids the workload holds, process-wide. */
static struct {
	pthread_mutex_t lock;
	struct idset pids, queues;
} live = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* RING directories to watch, one per ring slot (each task's group watches all). */
static char watch_dir[] = "/tmp/locklat-idr.XXXXXX";
static char watch_path[RING][sizeof(watch_dir) + 8];

/* Add id to set; false if it was not added (a duplicate, counted as an error). */
static bool live_add(struct idset *set, int id, const char *what)
{
	enum idset_result r;

	pthread_mutex_lock(&live.lock);
	r = idset_add(set, id);
	pthread_mutex_unlock(&live.lock);
	if (r == IDSET_DUPLICATE) {
		wl_integrity_error("%s %d handed out while the workload still holds it", what, id);
		return false;
	}
	if (r == IDSET_OK)
		wl_integrity_checked(1);
	return r == IDSET_OK;
}

static void live_remove(struct idset *set, int id)
{
	pthread_mutex_lock(&live.lock);
	idset_remove(set, id);
	pthread_mutex_unlock(&live.lock);
}

/* One fork: the child exits at once; its pid is checked, then reaped. */
static int fork_once(void)
{
	siginfo_t si;
	pid_t pid = fork();
	bool held;
	int r;

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(0);
	held = live_add(&live.pids, pid, "pid");
	/* Not reaped yet: the zombie keeps its pid, nobody else can get it. */
	memset(&si, 0, sizeof(si));
	while ((r = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT)) < 0 && errno == EINTR)
		;
	if (r < 0)
		wl_integrity_error("waitid(P_PID, %d) after fork: %s: the pid fork() returned is not found",
				   (int)pid, strerror(errno));
	else if (si.si_pid != pid || si.si_code != CLD_EXITED || si.si_status != 0)
		wl_integrity_error("waitid(P_PID, %d): pid %d, code %d, status %d: not the child that exited with 0",
				   (int)pid, (int)si.si_pid, si.si_code, si.si_status);
	else
		wl_integrity_checked(1);
	/* Out of the set before its pid is free again. */
	if (held)
		live_remove(&live.pids, pid);
	while ((r = (int)waitpid(pid, NULL, 0)) < 0 && errno == EINTR)
		;
	if (r != pid && !(r < 0 && errno == ECHILD))
		wl_integrity_error("waitpid(%d) reaped %d", (int)pid, r);
	return 0;
}

/* Receive the queue's message, remove the queue, and look its id up again. */
static void queue_retire(struct worker *w, unsigned int slot)
{
	struct tag_msg m;
	struct msqid_ds ds;
	int q = w->queue[slot];
	ssize_t got;

	memset(&m, 0, sizeof(m));
	got = w->queue_tag[slot] ? msgrcv(q, &m, sizeof(m.tag), 0, IPC_NOWAIT) : 0;
	if (!w->queue_tag[slot])
		;	/* nothing was sent */
	else if (got < 0)
		wl_integrity_error("msgrcv(%d): %s: the queue's id no longer leads to it (or its message is gone)",
				   q, strerror(errno));
	else if (got != (ssize_t)sizeof(m.tag) || m.tag != w->queue_tag[slot])
		wl_integrity_error("msgrcv(%d): tag %016llx (%zd bytes), sent %016llx: another queue's message",
				   q, (unsigned long long)m.tag, got, (unsigned long long)w->queue_tag[slot]);
	else
		wl_integrity_checked(1);
	/* Out of the set before the id is free again. */
	if (w->queue_held[slot])
		live_remove(&live.queues, q);
	if (msgctl(q, IPC_RMID, NULL))
		wl_integrity_error("msgctl(%d, IPC_RMID): %s: a live queue not found", q, strerror(errno));
	else if ((errno = 0, msgctl(q, IPC_STAT, &ds) == 0) || !idset_gone_errno(errno))
		wl_integrity_error("msgctl(%d, IPC_STAT) after IPC_RMID: %s: a removed id is still found",
				   q, errno ? strerror(errno) : "success");
	else
		wl_integrity_checked(1);
	w->queue[slot] = -1;
}

/* A new queue in slot (retiring the one there): -1 if msgget() fails. */
static int queue_new(struct worker *w, unsigned int slot)
{
	struct tag_msg m;
	int q;

	if (w->queue[slot] >= 0)
		queue_retire(w, slot);
	q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (q < 0)
		return -1;
	w->queue_held[slot] = live_add(&live.queues, q, "msqid");
	m.mtype = 1;
	/* Never 0, and the task's own. */
	m.tag = ((uint64_t)(w->base.index + 1) << 40) ^ (w->queues << 4) ^ slot;
	w->queue[slot] = q;
	w->queue_tag[slot] = m.tag;
	if (msgsnd(q, &m, sizeof(m.tag), IPC_NOWAIT)) {
		/* Not found is the idr's fault; anything else (no memory) is not checked. */
		if (idset_gone_errno(errno))
			wl_integrity_error("msgsnd(%d) to the queue msgget() just returned: %s", q, strerror(errno));
		w->queue_tag[slot] = 0;
	}
	return 0;
}

/* Remove the slot's watch, and try once more: gone. */
static void watch_retire(struct worker *w, unsigned int slot)
{
	int wd = w->wd[slot];

	if (inotify_rm_watch(w->ifd, wd))
		wl_integrity_error("inotify_rm_watch(%d) of %s: %s: a live watch not found", wd,
				   watch_path[slot], strerror(errno));
	else if ((errno = 0, inotify_rm_watch(w->ifd, wd) == 0) || !idset_gone_errno(errno))
		wl_integrity_error("inotify_rm_watch(%d) a second time: %s: a removed watch is still found",
				   wd, errno ? strerror(errno) : "success");
	else
		wl_integrity_checked(1);
	w->wd[slot] = -1;
}

/* A new watch in slot (retiring the one there): -1 if inotify_add_watch() fails. */
static int watch_new(struct worker *w, unsigned int slot)
{
	unsigned int i;
	int wd;

	if (w->wd[slot] >= 0)
		watch_retire(w, slot);
	wd = inotify_add_watch(w->ifd, watch_path[slot], IN_CREATE);
	if (wd < 0)
		return -1;
	/* Another directory's watch is another id. */
	for (i = 0; i < RING; i++)
		if (i != slot && w->wd[i] == wd)
			break;
	if (i < RING) {
		wl_integrity_error("inotify_add_watch(%s) returned %d, the live watch of %s",
				   watch_path[slot], wd, watch_path[i]);
		/* The older slot keeps it (and removes it in its turn). */
		return 0;
	}
	wl_integrity_checked(1);
	w->wd[slot] = wd;
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	for (i = 0; i < RING; i++)
		w->queue[i] = w->wd[i] = -1;
	w->ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (w->ifd < 0) {
		w->base.error = errno;
		w->base.what = "inotify_init1 (CONFIG_INOTIFY_USER?)";
		return NULL;
	}
	while (!wl_done(w->base.deadline_ns)) {
		unsigned int slot = w->next;

		w->next = (w->next + 1) % RING;
		if (fork_once()) {
			w->base.error = errno;
			w->base.what = "fork";
			break;
		}
		w->forks++;
		wl_progress(1);
		wl_pace(&w->base);

		if (queue_new(w, slot)) {
			w->base.error = errno;
			w->base.what = "msgget (CONFIG_SYSVIPC?)";
			break;
		}
		w->queues++;
		wl_progress(1);
		wl_pace(&w->base);

		if (watch_new(w, slot)) {
			w->base.error = errno;
			w->base.what = "inotify_add_watch";
			break;
		}
		w->watches++;
		wl_progress(1);
		wl_pace(&w->base);
	}
	/* Whatever stopped the loop: nothing of ours outlives it. */
	for (i = 0; i < RING; i++) {
		if (w->queue[i] >= 0)
			queue_retire(w, i);
		if (w->wd[i] >= 0)
			watch_retire(w, i);
	}
	close(w->ifd);
	return NULL;
}

static void watch_dirs_remove(void)
{
	unsigned int i;

	for (i = 0; i < RING; i++)
		if (watch_path[i][0])
			rmdir(watch_path[i]);
	rmdir(watch_dir);
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
	/* Reaped by waitpid() alone: an inherited SIG_IGN would reap the children first. */
	signal(SIGCHLD, SIG_DFL);
	if (!mkdtemp(watch_dir))
		err_exit_errno(LL_EXIT_FAIL, "mkdtemp %s", watch_dir);
	/* Gone at any exit, an error's too (wl_workers_run() exits on one). */
	atexit(watch_dirs_remove);
	for (i = 0; i < RING; i++) {
		snprintf(watch_path[i], sizeof(watch_path[i]), "%s/%u", watch_dir, i);
		if (mkdir(watch_path[i], 0700))
			err_exit_errno(LL_EXIT_FAIL, "mkdir %s", watch_path[i]);
	}
	wl_start(&wc, argc, argv);
	if (idset_init(&live.pids, wc.threads) || idset_init(&live.queues, wc.threads * RING))
		err_exit(LL_EXIT_FAIL, "out of memory");
	workers = wl_workers_run(&wc, sizeof(*workers), worker_main);
	for (i = 0; i < wc.threads; i++) {
		forks += workers[i].forks;
		queues += workers[i].queues;
		watches += workers[i].watches;
	}
	wl_stats("idr", "seconds=%.3f forks=%llu msg_queues=%llu inotify_watches=%llu",
		 wl_elapsed_s(&wc), (unsigned long long)forks, (unsigned long long)queues,
		 (unsigned long long)watches);
	idset_free(&live.pids);
	idset_free(&live.queues);
	free(workers);
	return 0;
}
