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
 * Output: one "locklat-stats workload=cnproc ..." line. Exit 0, 1 error
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

enum option_values {
	OPT_DURATION = 1,
	OPT_HELP,
	OPT_THREADS,
};

struct storm {
	uint64_t deadline_ns;
	uint64_t children;
	int error;
};

static void usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: locklat-cnproc [--threads N] [--duration D]\n");
	exit(status);
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

static void *storm_main(void *arg)
{
	struct storm *s = arg;

	while (!wl_done(s->deadline_ns)) {
		pid_t pid = fork();

		if (pid < 0) {
			s->error = errno;
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
	}
	return NULL;
}

struct storm_set {
	struct storm *storms;
	unsigned int n;
	volatile int done;
};

static void *storms_run(void *arg)
{
	struct storm_set *set = arg;

	wl_run_threads(set->n, storm_main, set->storms, sizeof(*set->storms));
	set->done = 1;
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
	uint64_t threads = 0, duration_ns = 10000000000ULL, t0, children = 0, overruns = 0;
	struct cnproc_tally tally;
	struct storm_set set;
	pthread_t runner;
	static char buf[1 << 16];
	unsigned int i;
	int c, fd;

	ll_prog = "locklat-cnproc";
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

	memset(&tally, 0, sizeof(tally));
	fd = listener_open();
	wl_signals_install();
	set.n = (unsigned int)threads;
	set.done = 0;
	set.storms = calloc(threads, sizeof(*set.storms));
	if (!set.storms)
		err_exit(LL_EXIT_FAIL, "out of memory");
	t0 = now_ns();
	for (i = 0; i < threads; i++)
		set.storms[i].deadline_ns = t0 + duration_ns;
	if (pthread_create(&runner, NULL, storms_run, &set))
		err_exit(LL_EXIT_FAIL, "pthread_create failed");
	/* Listen until the storms are over and the socket has drained. */
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t got;

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
		if (cnproc_parse(&tally, buf, (size_t)got) < 0)
			err_exit(LL_EXIT_FAIL, "malformed proc connector message");
	}
	pthread_join(runner, NULL);
	for (i = 0; i < threads; i++) {
		if (set.storms[i].error)
			err_exit(LL_EXIT_FAIL, "storm %u: fork: %s", i, strerror(set.storms[i].error));
		children += set.storms[i].children;
	}
	close(fd);
	double secs = (double)(now_ns() - t0) / 1e9;
	wl_stats("cnproc", "threads=%llu seconds=%.3f children=%llu events=%llu fork=%llu exec=%llu "
		 "comm=%llu exit=%llu lost=%llu overruns=%llu",
		 (unsigned long long)threads, secs, (unsigned long long)children,
		 (unsigned long long)tally.events, (unsigned long long)tally.fork,
		 (unsigned long long)tally.exec, (unsigned long long)tally.comm,
		 (unsigned long long)tally.exit, (unsigned long long)tally.lost,
		 (unsigned long long)overruns);
	free(set.storms);
	return 0;
}
