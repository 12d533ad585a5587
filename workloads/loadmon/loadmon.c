// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-loadmon - progress lines for a load that prints none (stress-ng).
 *
 * Usage: locklat-loadmon [--help] [--] COMMAND [ARG...]
 *
 * Runs COMMAND as a child in a process group of its own and prints the
 * progress lines of workload.h for it, with ops = the CPU time of the group
 * in clock ticks (USER_HZ): utime + stime of each process whose
 * /proc/<pid>/stat names the group, plus cutime + cstime, the time of the
 * children it reaped, so that a worker's time stays counted after it exits
 * and the sum does not drop. A zombie counts until it is reaped, for the
 * same reason. A running load adds ticks every second; a load that died or
 * sleeps in a deadlock adds none. The last line is printed when COMMAND has
 * exited, however it ended, before it is reaped (its ticks still count).
 *
 * SIGTERM and SIGINT are forwarded to the group, so the guest's init stops
 * the whole load by stopping this program.
 *
 * Not a workload itself: a workload file's command runs it around one
 * ("locklat-loadmon -- stress-ng ...").
 *
 * Exit: COMMAND's status, 128 + N if signal N killed it, 126 or 127 if it
 * could not be run (as a shell), 1 error, 2 bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "locklat.h"
#include "workload.h"

enum option_values {
	OPT_HELP = 1,
};

static const char usage_text[] = "usage: locklat-loadmon [--help] [--] COMMAND [ARG...]\n";

/* The child's process group (its pid), for the signal handler. */
static volatile sig_atomic_t group;

static void forward(int sig)
{
	kill(-(pid_t)group, sig);
}

/*
 * The group's CPU ticks: the progress reporter's ops. A process that ends
 * between readdir() and reading its stat is missed once, a small dip beside
 * the ~100 ticks a second of each busy CPU.
 */
static uint64_t group_ticks(void)
{
	/* opendir may fail (out of file descriptors): repeat the last sum. */
	static uint64_t last;
	uint64_t sum = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		return last;
	while ((de = readdir(d))) {
		unsigned long long utime, stime;
		long long cutime, cstime;
		char path[sizeof("/proc//stat") + sizeof(de->d_name)], buf[1024], *end;
		ssize_t len;
		int fd, pgrp;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		/* comm, in parentheses, may itself hold spaces and ')'. */
		end = strrchr(buf, ')');
		if (!end || sscanf(end + 1, " %*c %*d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
				   &pgrp, &utime, &stime, &cutime, &cstime) != 5)
			continue;
		if (pgrp == group)
			sum += utime + stime + (uint64_t)cutime + (uint64_t)cstime;
	}
	closedir(d);
	last = sum;
	return sum;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct sigaction sa;
	sigset_t stops, old;
	siginfo_t info;
	int c, status;
	pid_t pid;

	ll_prog = "locklat-loadmon";
	opterr = 0;	/* wl_unknown_option() says it */
	/* "+": the first non-option is COMMAND, whose options are its own. */
	while ((c = getopt_long(argc, argv, "+", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_HELP:
			fputs(usage_text, stdout);
			return LL_EXIT_OK;
		default:
			wl_unknown_option(argv);
		}
	}
	if (optind == argc)
		err_exit(LL_EXIT_USAGE, "no command to run (see --help)");

	/*
	 * SIGTERM and SIGINT wait, blocked, until the group exists: one that
	 * came earlier would end this program and leave the load running.
	 * SA_RESTART: the waits below resume after forwarding.
	 */
	sigemptyset(&stops);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGINT);
	pthread_sigmask(SIG_BLOCK, &stops, &old);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	pid = fork();
	if (pid < 0)
		err_exit_errno(LL_EXIT_FAIL, "fork");
	if (pid == 0) {
		/* exec resets the handlers; the mask it keeps must be the one we got. */
		setpgid(0, 0);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		execvp(argv[optind], argv + optind);
		warn_msg("cannot run %s: %s", argv[optind], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	/*
	 * Both sides make the group, so it exists whichever runs first (here it
	 * fails harmlessly once the child has exec'd: it made the group itself).
	 */
	setpgid(pid, pid);
	group = pid;
	wl_progress_start(group_ticks);
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	/* The end, without reaping: the last line reads the child's stat. */
	if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT))
		err_exit_errno(LL_EXIT_FAIL, "waitid");
	wl_progress_end();
	if (waitpid(pid, &status, 0) < 0)
		err_exit_errno(LL_EXIT_FAIL, "waitpid");
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
