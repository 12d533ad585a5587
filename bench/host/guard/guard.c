// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-guard - run one stage of run-matrix.sh so that nothing the stage
 * started outlives run-matrix.sh, even when run-matrix.sh is killed with
 * SIGKILL and cannot clean up after itself.
 *
 * Usage and options: msg_opts[] below (--help).
 *
 * COMMAND runs in a process group of its own, its standard input
 * /dev/null (a stage never asks: a background group that read the terminal
 * would stop). The guard asks the kernel for a signal when its parent dies
 * (PR_SET_PDEATHSIG), and then kills the whole group with SIGKILL: make and
 * its compilers, QEMU, apt-get. With --tree, every other process descended
 * from COMMAND too, which the guard keeps as their child subreaper
 * (PR_SET_CHILD_SUBREAPER): GNU parallel starts each job in a group of its
 * own (run-matrix.sh --hosts), and a job, or the ssh that carries a remote
 * one, must not outlive the run either (a remote job ends when its ssh
 * does: parallel's own wrapper). Only there: a package's daemon started by
 * the packages stage is meant to outlive it. SIGINT, SIGTERM and SIGHUP to
 * the guard do the same. When COMMAND exits, the guard kills what is left
 * (a stage leaves nothing running) and exits with COMMAND's status.
 *
 * Standalone (no locklat library, no json-c): run-matrix.sh builds it with
 * gcc alone before the packages stage, which it guards too.
 *
 * Exit: COMMAND's status, 128 + N when COMMAND or the guard died of signal
 * N, 126 when COMMAND cannot be run, 2 bad usage.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The signal the kernel sends the guard when its parent dies. */
#define PARENT_DIED SIGUSR1

static const char *const msg_opts[] = {
	"usage: locklat-guard [--tree] [--rusage FILE] -- COMMAND [ARG...]",
	"",
	"  Runs COMMAND in its own process group and kills that group when the",
	"  guard's parent dies, when the guard is interrupted, and when COMMAND exits.",
	"",
	"  --tree   also every other process below COMMAND (the guard is their",
	"           child subreaper)",
	"  --rusage FILE  when COMMAND has ended, write the user and system CPU",
	"           seconds of everything below it that was waited for, \"USER SYS\"",
	"  --help   this text",
	NULL,
};

/* Standalone: lib/locklat.c's usage_exit(), written again. */
static void usage(int status)
{
	const char *const *m;

	if (status) {
		fprintf(stderr, "%s (see --help)\n", msg_opts[0]);
		exit(status);
	}
	for (m = msg_opts; *m; m++)
		printf("%s\n", *m);
	exit(status);
}

static void die(const char *what)
{
	fprintf(stderr, "locklat-guard: %s: %s\n", what, strerror(errno));
	exit(126);
}

/* The parent of process pid (/proc/<pid>/stat, after the command name), or 0. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) state ppid": comm may hold spaces and parentheses. */
	p = strrchr(buf, ')');
	if (!p || strlen(p) < 4)
		return 0;
	return (pid_t)atoi(p + 4);
}

/* Whether pid descends from ancestor (its parent, its parent's parent, ...). */
static int descends_from(pid_t pid, pid_t ancestor)
{
	int depth;

	for (depth = 0; pid > 1 && depth < 64; depth++) {
		pid = parent_of(pid);
		if (pid == ancestor)
			return 1;
	}
	return 0;
}

/*
 * SIGKILL the group of child and, with tree, every process below the guard,
 * and reap them, until none is left (a dying process's children come to
 * the guard, its subreaper, and are found in the next round). A pid read
 * from /proc may be reused before the kill: a descendant that ended in
 * that instant is the only way to miss, not to hit, a process.
 */
static void kill_all(pid_t child, int tree)
{
	pid_t self = getpid();
	int round, found;

	kill(-child, SIGKILL);
	for (round = 0; tree && round < 50; round++) {
		DIR *d = opendir("/proc");
		struct dirent *de;

		found = 0;
		while (d && (de = readdir(d))) {
			pid_t pid;

			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			pid = (pid_t)atoi(de->d_name);
			if (pid != self && descends_from(pid, self)) {
				kill(pid, SIGKILL);
				found = 1;
			}
		}
		if (d)
			closedir(d);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!found)
			return;
		usleep(10000);
	}
}

/*
 * rusage_write: the CPU time of the command and of every descendant that
 * was waited for (by it or, as their subreaper, by the guard), for the
 * run's per-stage accounting (bench/host/execute.sh).
 */
static void rusage_write(const char *path)
{
	struct rusage ru;
	FILE *f;

	if (!path || getrusage(RUSAGE_CHILDREN, &ru))
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%ld.%06ld %ld.%06ld\n", (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
		(long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec);
	fclose(f);
}

int main(int argc, char **argv)
{
	sigset_t set, old;
	pid_t parent = getppid(), child;
	int sig, status = 0, devnull, tree = 0;
	const char *rusage_path = NULL;

	if (argc > 1 && !strcmp(argv[1], "--help"))
		usage(0);
	for (;;) {
		if (argc > 1 && !strcmp(argv[1], "--tree")) {
			tree = 1;
			argv++, argc--;
		} else if (argc > 2 && !strcmp(argv[1], "--rusage")) {
			rusage_path = argv[2];
			argv += 2, argc -= 2;
		} else {
			break;
		}
	}
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
	if (prctl(PR_SET_PDEATHSIG, PARENT_DIED) || (tree && prctl(PR_SET_CHILD_SUBREAPER, 1)))
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
			pid_t pid;
			int done = 0, st;

			/* The command, or an orphan of it that came to the guard. */
			while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
				if (pid == child) {
					status = st;
					done = 1;
				}
			if (!done)
				continue;
			kill_all(child, tree);
			rusage_write(rusage_path);
			if (WIFSIGNALED(status))
				return 128 + WTERMSIG(status);
			return WEXITSTATUS(status);
		}
		/* The parent died or the run is being stopped: the stage goes with it. */
		kill_all(child, tree);
		return 128 + (sig == PARENT_DIED ? SIGKILL : sig);
	}
}
