// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-cnproc - drive the proc connector's send_msg().
 *
 * Usage: locklat-cnproc [--cpus C] [--tasks T] [--fifo-prio P] [--pace-us U]
 *                       [--duration D]
 *
 * A listener joins the proc connector (NETLINK_CONNECTOR, group CN_IDX_PROC,
 * PROC_CN_MCAST_LISTEN); T tasks per CPU (pinned, the first SCHED_FIFO:
 * workload.h) fork children that rename themselves (prctl(PR_SET_NAME): a
 * comm event), exec /bin/true (exec) and exit (exit). Each event goes
 * through send_msg(), the section the 2020 series put under
 * local_event.lock, which the tasks of a CPU (and their children) share. The
 * listener counts events and, from the per-CPU sequence numbers, the ones
 * lost (also ENOBUFS overruns).
 *
 * Checks (workload.h, integrity; the matching is cnproc-msg.h's): each
 * CPU's sequence never goes back (the lock keeps numbering and sending
 * together); the fork event of every child names a forking task as its
 * parent, and its exit event the same parent; its comm event comes before
 * its exec event and carries the name it set; and at the end, per pid,
 * the fork and exit events received are no more than the forks the tasks
 * recorded, and those missing no more than the messages counted lost. To
 * make every loss count, the listener renames itself on every CPU before
 * the first fork and after the last (a message from each CPU behind any
 * lost one); if those do not all come back, missing events are not held
 * against the run (covered=0). A check that fails is counted and the
 * workload goes on.
 *
 * Output: progress lines, one op per child forked, exec'd and reaped and one
 * per event received (see workload.h), then the locklat-integrity line and
 * one "locklat-stats workload=cnproc ..." line. Exit 0, 1 error
 * (e.g. a kernel without CONFIG_PROC_EVENTS), 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cnproc-msg.h"
#include "locklat.h"
#include "workload.h"

static const char usage_text[] = "usage: locklat-cnproc [options]\n" WL_COMMON_USAGE;

struct storm {
	struct wl_worker base;
	uint64_t children;
};

/* The matching of events against forks: the listener and the storms share it. */
static pthread_mutex_t track_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cnproc_track track;
static struct cnproc_tally tally;
static uint64_t overruns;

static void integrity_error(const char *msg)
{
	wl_integrity_error("%s", msg);
}

/* Join the proc connector's multicast group and ask it to send events. */
static int listener_open(void)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
	char buf[NLMSG_SPACE(sizeof(struct cn_msg) + sizeof(enum proc_cn_mcast_op))];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct cn_msg *msg;
	enum proc_cn_mcast_op op = PROC_CN_MCAST_LISTEN;
	int fd, rcvbuf = 8 << 20;

	fd = socket(PF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (fd < 0)
		err_exit_errno(LL_EXIT_FAIL, "netlink connector socket (CONFIG_CONNECTOR?)");
	/* A big buffer: losses should come from the kernel side, not from us. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	addr.nl_pid = (unsigned int)getpid();
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		err_exit_errno(LL_EXIT_FAIL, "bind to CN_IDX_PROC (CONFIG_PROC_EVENTS?)");
	memset(buf, 0, sizeof(buf));
	nlh->nlmsg_len = NLMSG_LENGTH(sizeof(*msg) + sizeof(op));
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_pid = (unsigned int)getpid();
	msg = NLMSG_DATA(nlh);
	msg->id.idx = CN_IDX_PROC;
	msg->id.val = CN_VAL_PROC;
	msg->len = sizeof(op);
	memcpy(msg->data, &op, sizeof(op));
	if (send(fd, nlh, nlh->nlmsg_len, 0) < 0)
		err_exit_errno(LL_EXIT_FAIL, "PROC_CN_MCAST_LISTEN");
	return fd;
}

/* Receive and account one datagram: 1, or 0 if none came within timeout_ms. */
static int listen_once(int fd, int timeout_ms)
{
	static char buf[1 << 16];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t got;
	int events;

	if (poll(&pfd, 1, timeout_ms) <= 0)
		return 0;
	got = recv(fd, buf, sizeof(buf), 0);
	if (got < 0) {
		if (errno == ENOBUFS)
			overruns++;
		else if (errno != EINTR && errno != EAGAIN)
			err_exit_errno(LL_EXIT_FAIL, "recv");
		return 1;
	}
	pthread_mutex_lock(&track_lock);
	events = cnproc_parse(&tally, buf, (size_t)got);
	pthread_mutex_unlock(&track_lock);
	/* Counted, not fatal: an exit would lose the run's evidence. */
	if (events < 0)
		wl_integrity_error("a malformed proc connector message (%zd bytes)", got);
	else
		wl_progress((uint64_t)events);
	return 1;
}

/*
 * Rename the listener CNPROC_SENTINEL_COMM on each CPU it may run on, in
 * turn, counting them in sent, and receive (whatever is queued before them
 * too) until each CPU's came back, or nothing came for 1 s, or 10 s passed.
 * True if all came.
 */
static bool sentinel_round(int fd, uint32_t *sent)
{
	char name[17] = "";
	cpu_set_t allowed, one;
	unsigned int cpu, ncpus = CPU_SETSIZE < CNPROC_MAX_CPUS ? CPU_SETSIZE : CNPROC_MAX_CPUS;
	uint64_t end = now_ns() + 10000000000ULL;
	int idle;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return false;
	prctl(PR_GET_NAME, name, 0, 0, 0);
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		if (!prctl(PR_SET_NAME, CNPROC_SENTINEL_COMM, 0, 0, 0))
			sent[cpu]++;
	}
	sched_setaffinity(0, sizeof(allowed), &allowed);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	for (idle = 0; idle < 10 && now_ns() < end;) {
		bool all = true;

		pthread_mutex_lock(&track_lock);
		for (cpu = 0; cpu < ncpus; cpu++)
			if (track.sentinels[cpu] < sent[cpu])
				all = false;
		pthread_mutex_unlock(&track_lock);
		if (all)
			return true;
		if (listen_once(fd, 100))
			idle = 0;
		else
			idle++;
	}
	return false;
}

static void *storm_main(void *arg)
{
	struct storm *s = arg;

	pthread_mutex_lock(&track_lock);
	cnproc_track_worker(&track, gettid());
	pthread_mutex_unlock(&track_lock);
	while (!wl_done(s->base.deadline_ns)) {
		pid_t pid = fork();

		if (pid < 0) {
			s->base.error = errno;
			s->base.what = "fork";
			break;
		}
		if (pid == 0) {
			prctl(PR_SET_NAME, CNPROC_CHILD_COMM, 0, 0, 0);
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		pthread_mutex_lock(&track_lock);
		cnproc_track_forked(&track, pid);
		pthread_mutex_unlock(&track_lock);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		s->children++;
		wl_progress(1);
		wl_pace(&s->base);
	}
	return NULL;
}

/* The storms run beside the listener, which stops once they are over. */
struct storm_set {
	const struct wl_common *wc;
	struct storm *storms;
	volatile int done;
};

static void *storms_run(void *arg)
{
	struct storm_set *set = arg;

	set->storms = wl_workers_run(set->wc, sizeof(*set->storms), storm_main);
	set->done = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		WL_COMMON_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	static uint32_t sent[CNPROC_MAX_CPUS];
	uint64_t children = 0;
	struct storm_set set = { 0 };
	struct wl_common wc;
	pthread_t runner;
	uint64_t quiet_end;
	bool covered;
	unsigned int i;
	int c, fd;

	ll_prog = "locklat-cnproc";
	wl_common_init(&wc);
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1)
		if (!wl_common_option(&wc, c, optarg, usage_text))
			wl_unknown_option(argv);

	if (cnproc_track_init(&track, getpid()))
		err_exit(LL_EXIT_FAIL, "out of memory");
	tally.error = integrity_error;
	tally.track = &track;
	fd = listener_open();
	wl_start(&wc, argc, argv);
	/* Every CPU's sequence known before the first fork. */
	covered = sentinel_round(fd, sent);
	set.wc = &wc;
	if (pthread_create(&runner, NULL, storms_run, &set))
		err_exit(LL_EXIT_FAIL, "pthread_create failed");
	/* Listen until the storms are over ... */
	while (!set.done)
		listen_once(fd, 100);
	pthread_join(runner, NULL);
	/*
	 * A child reaped by waitpid() may still be running the tail of
	 * do_exit(): proc_exit_connector() comes after exit_notify(), so its
	 * exit event can follow a sentinel sent now. Drain until the socket
	 * has been quiet for 200 ms (at most 5 s) first ...
	 */
	for (quiet_end = now_ns() + 5000000000ULL; now_ns() < quiet_end && listen_once(fd, 200);)
		;
	/*
	 * ... and then until a message from every CPU came after their last
	 * (the socket drained up to them): a loss at the end shows too.
	 */
	covered = sentinel_round(fd, sent) && covered;
	cnproc_track_finish(&tally, covered);
	wl_integrity_checked(tally.checked);
	for (i = 0; i < wc.threads; i++)
		children += set.storms[i].children;
	close(fd);
	wl_stats("cnproc", "seconds=%.3f children=%llu events=%llu fork=%llu exec=%llu "
		 "comm=%llu exit=%llu lost=%llu overruns=%llu missing=%llu reordered=%llu covered=%d",
		 wl_elapsed_s(&wc), (unsigned long long)children,
		 (unsigned long long)tally.events, (unsigned long long)tally.fork,
		 (unsigned long long)tally.exec, (unsigned long long)tally.comm,
		 (unsigned long long)tally.exit, (unsigned long long)tally.lost,
		 (unsigned long long)overruns, (unsigned long long)track.missing,
		 (unsigned long long)tally.reordered, covered ? 1 : 0);
	cnproc_track_free(&track);
	free(set.storms);
	return 0;
}
