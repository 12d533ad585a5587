// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-cnproc - drive the proc connector's send_msg().
 *
 * Usage: locklat-cnproc [--threads N] [--duration D]
 *
 * A listener joins the proc connector (NETLINK_CONNECTOR, group CN_IDX_PROC,
 * PROC_CN_MCAST_LISTEN); N threads fork children that rename themselves
 * (prctl(PR_SET_NAME): a comm event), exec /bin/true (exec) and exit (exit).
 * Each event goes through send_msg(), the section the 2020 series put under
 * local_event.lock. The listener counts events and, from the per-CPU sequence
 * numbers, the ones lost (also ENOBUFS overruns).
 *
 * Output: progress lines, one op per child forked, exec'd and reaped and one
 * per event received (see workload.h), then one
 * "locklat-stats workload=cnproc ..." line. Exit 0, 1 error
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

static const char usage_text[] = "usage: locklat-cnproc [--threads N] [--duration D]\n";

struct storm {
	struct wl_worker base;
	uint64_t children;
};

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

static void *storm_main(void *arg)
{
	struct storm *s = arg;

	while (!wl_done(s->base.deadline_ns)) {
		pid_t pid = fork();

		if (pid < 0) {
			s->base.error = errno;
			s->base.what = "fork";
			break;
		}
		if (pid == 0) {
			prctl(PR_SET_NAME, "locklat-cn", 0, 0, 0);
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		s->children++;
		wl_progress(1);
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
	uint64_t children = 0, overruns = 0;
	struct cnproc_tally tally;
	struct storm_set set = { 0 };
	struct wl_common wc;
	pthread_t runner;
	static char buf[1 << 16];
	unsigned int i;
	int c, fd;

	ll_prog = "locklat-cnproc";
	wl_common_init(&wc);
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1)
		if (!wl_common_option(&wc, c, optarg, usage_text))
			wl_unknown_option(argv);

	memset(&tally, 0, sizeof(tally));
	fd = listener_open();
	wl_start(&wc, argc, argv);
	set.wc = &wc;
	if (pthread_create(&runner, NULL, storms_run, &set))
		err_exit(LL_EXIT_FAIL, "pthread_create failed");
	/* Listen until the storms are over and the socket has drained. */
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t got;
		int events;

		if (poll(&pfd, 1, 100) <= 0) {
			if (set.done)
				break;
			continue;
		}
		got = recv(fd, buf, sizeof(buf), 0);
		if (got < 0) {
			if (errno == ENOBUFS)
				overruns++;
			else if (errno != EINTR)
				err_exit_errno(LL_EXIT_FAIL, "recv");
			continue;
		}
		events = cnproc_parse(&tally, buf, (size_t)got);
		if (events < 0)
			err_exit(LL_EXIT_FAIL, "malformed proc connector message");
		wl_progress((uint64_t)events);
	}
	pthread_join(runner, NULL);
	for (i = 0; i < wc.threads; i++)
		children += set.storms[i].children;
	close(fd);
	wl_stats("cnproc", "threads=%llu seconds=%.3f children=%llu events=%llu fork=%llu exec=%llu "
		 "comm=%llu exit=%llu lost=%llu overruns=%llu",
		 (unsigned long long)wc.threads, wl_elapsed_s(&wc), (unsigned long long)children,
		 (unsigned long long)tally.events, (unsigned long long)tally.fork,
		 (unsigned long long)tally.exec, (unsigned long long)tally.comm,
		 (unsigned long long)tally.exit, (unsigned long long)tally.lost,
		 (unsigned long long)overruns);
	free(set.storms);
	return 0;
}
