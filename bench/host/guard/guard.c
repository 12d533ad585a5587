// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-guard - run one stage of run-matrix.sh so that nothing the stage
 * started outlives run-matrix.sh, even when run-matrix.sh is killed with
 * SIGKILL and cannot clean up after itself.
 *
 * Usage: locklat-guard [--help] -- COMMAND [ARG...]
 *
 * COMMAND runs in a process group of its own, its standard input
 * /dev/null (a stage never asks: a background group that read the terminal
 * would stop). The guard asks the kernel for a signal when its parent dies
 * (PR_SET_PDEATHSIG), and then kills the whole group with SIGKILL: make and
 * its compilers, QEMU, apt-get. SIGINT, SIGTERM and SIGHUP to the guard do
 * the same. When COMMAND exits, the guard kills what is left in its group
 * (a stage leaves nothing running) and exits with COMMAND's status.
 *
 * Standalone (no locklat library, no json-c): run-matrix.sh builds it with
 * gcc alone before the packages stage, which it guards too.
 *
 * Exit: COMMAND's status, 128 + N when COMMAND or the guard died of signal
 * N, 126 when COMMAND cannot be run, 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The signal the kernel sends the guard when its parent dies. */
#define PARENT_DIED SIGUSR1

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: locklat-guard [--help] -- COMMAND [ARG...]\n"
		"Runs COMMAND in its own process group and kills that group when the\n"
		"guard's parent dies, when the guard is interrupted, and when COMMAND exits.\n");
	exit(status);
}

static void die(const char *what)
{
	fprintf(stderr, "locklat-guard: %s: %s\n", what, strerror(errno));
	exit(126);
}

int main(int argc, char **argv)
{
	sigset_t set, old;
	pid_t parent = getppid(), child;
	int sig, status, devnull;

	if (argc > 1 && !strcmp(argv[1], "--help"))
		usage(0);
	if (argc < 3 || strcmp(argv[1], "--"))
		usage(2);

	/* Every signal the guard acts on is taken synchronously (sigwait). */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, PARENT_DIED);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, &old))
		die("sigprocmask");
	if (prctl(PR_SET_PDEATHSIG, PARENT_DIED))
		die("prctl");
	/* The parent may have died before the request: then nothing starts. */
	if (getppid() != parent)
		return 128 + SIGKILL;

	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		setpgid(0, 0);
		devnull = open("/dev/null", O_RDONLY);
		if (devnull < 0 || dup2(devnull, STDIN_FILENO) < 0)
			die("/dev/null");
		close(devnull);
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(argv[2], argv + 2);
		die(argv[2]);
	}
	/* Both sides set the group, so that no signal finds it unset. */
	setpgid(child, child);

	for (;;) {
		if (sigwait(&set, &sig))
			die("sigwait");
		if (sig == SIGCHLD) {
			pid_t pid = waitpid(child, &status, WNOHANG);

			if (pid != child)
				continue;
			kill(-child, SIGKILL);
			if (WIFSIGNALED(status))
				return 128 + WTERMSIG(status);
			return WEXITSTATUS(status);
		}
		/* The parent died or the run is being stopped: the stage goes with it. */
		kill(-child, SIGKILL);
		waitpid(child, &status, 0);
		return 128 + (sig == PARENT_DIED ? SIGKILL : sig);
	}
}
