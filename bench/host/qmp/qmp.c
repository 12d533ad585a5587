// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-qmp - send one QMP command to a QEMU monitor socket.
 *
 * Usage and options: msg_opts[] below (--help).
 *
 * COMMAND is a QMP command without arguments (cont, quit, query-status,
 * query-cpus-fast, ...). The tool waits for the socket to appear (QEMU creates
 * it shortly after it starts; polling it is how we know QEMU is ready), does
 * the capabilities handshake, sends the command and prints its "return" value
 * as JSON. For query-cpus-fast it prints "CPU_INDEX THREAD_ID" lines instead,
 * which is what vCPU pinning needs.
 *
 * Exit: 0 success, 1 QMP error or timeout, 2 bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <json.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "locklat.h"

enum option_values {
	OPT_HELP = 1,
	OPT_TIMEOUT,
};

struct qmp {
	int fd;
	uint64_t deadline_ns;
	char buf[65536];
	size_t len;
};

static const char *const msg_opts[] = {
	"usage: locklat-qmp [--timeout SECONDS] SOCKET COMMAND",
	"",
	"  --timeout SECONDS  give up after this long (default 10)",
	"  --help             this text",
	NULL,
};

static void usage(int status)
{
	usage_exit(msg_opts, status);
}

static int qmp_connect(const char *path, uint64_t deadline_ns)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path))
		err_exit(LL_EXIT_USAGE, "socket path too long: %s", path);
	strcpy(addr.sun_path, path);
	for (;;) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			err_exit_errno(LL_EXIT_FAIL, "socket");
		if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0)
			return fd;
		close(fd);
		if (errno != ENOENT && errno != ECONNREFUSED)
			err_exit_errno(LL_EXIT_FAIL, "connect %s", path);
		if (now_ns() > deadline_ns)
			err_exit(LL_EXIT_FAIL, "no QMP socket at %s in time", path);
		nanosleep(&pause, NULL);
	}
}

/* Read one JSON object (QMP sends one per line). Caller puts it. */
static json_object *qmp_read(struct qmp *q)
{
	for (;;) {
		char *nl = memchr(q->buf, '\n', q->len);

		if (nl) {
			json_object *obj;
			size_t n = (size_t)(nl - q->buf) + 1;

			*nl = '\0';
			obj = json_tokener_parse(q->buf);
			memmove(q->buf, q->buf + n, q->len - n);
			q->len -= n;
			if (!obj)
				err_exit(LL_EXIT_FAIL, "QMP sent something that is not JSON");
			return obj;
		}
		if (q->len == sizeof(q->buf) - 1)
			err_exit(LL_EXIT_FAIL, "QMP line longer than %zu bytes", q->len);

		struct pollfd pfd = { .fd = q->fd, .events = POLLIN };
		uint64_t now = now_ns();
		int ms = now >= q->deadline_ns ? 0 :
			 (int)((q->deadline_ns - now) / 1000000);
		int r = poll(&pfd, 1, ms);

		if (r == 0)
			err_exit(LL_EXIT_FAIL, "QMP did not answer in time");
		if (r < 0)
			err_exit_errno(LL_EXIT_FAIL, "poll");
		ssize_t got = read(q->fd, q->buf + q->len, sizeof(q->buf) - 1 - q->len);
		if (got < 0)
			err_exit_errno(LL_EXIT_FAIL, "read QMP");
		if (got == 0)
			return NULL; /* QEMU closed the monitor (e.g. after quit) */
		q->len += (size_t)got;
	}
}

/* Send a command; return its "return" member (owned by the caller). */
static json_object *qmp_execute(struct qmp *q, const char *command)
{
	json_object *cmd = json_object_new_object();
	const char *text;

	json_object_object_add(cmd, "execute", json_object_new_string(command));
	text = json_object_to_json_string_ext(cmd, JSON_C_TO_STRING_PLAIN);
	if (write(q->fd, text, strlen(text)) < 0 || write(q->fd, "\n", 1) < 0)
		err_exit_errno(LL_EXIT_FAIL, "write QMP");
	json_object_put(cmd);

	for (;;) {
		json_object *msg = qmp_read(q), *ret, *err, *desc;

		if (!msg) {
			if (strcmp(command, "quit") == 0)
				return json_object_new_object();
			err_exit(LL_EXIT_FAIL, "QEMU closed the monitor during %s", command);
		}
		if (json_object_object_get_ex(msg, "return", &ret)) {
			json_object_get(ret);
			json_object_put(msg);
			return ret;
		}
		if (json_object_object_get_ex(msg, "error", &err)) {
			const char *what = "unknown error";

			if (json_object_object_get_ex(err, "desc", &desc))
				what = json_object_get_string(desc);
			fprintf(stderr, "%s: error: %s: %s\n", ll_prog, command, what);
			exit(LL_EXIT_FAIL);
		}
		json_object_put(msg); /* an asynchronous event: not our answer */
	}
}

static void print_cpus(json_object *ret)
{
	size_t i, n;

	if (!json_object_is_type(ret, json_type_array))
		err_exit(LL_EXIT_FAIL, "query-cpus-fast did not return a list");
	n = json_object_array_length(ret);
	for (i = 0; i < n; i++) {
		json_object *cpu = json_object_array_get_idx(ret, i), *idx, *tid;

		if (!json_object_object_get_ex(cpu, "cpu-index", &idx) ||
		    !json_object_object_get_ex(cpu, "thread-id", &tid))
			err_exit(LL_EXIT_FAIL, "query-cpus-fast entry without cpu-index/thread-id");
		printf("%d %d\n", json_object_get_int(idx), json_object_get_int(tid));
	}
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t timeout_s = 10;
	struct qmp q = { .fd = -1 };
	json_object *greeting, *ret;
	int c;

	ll_prog = "locklat-qmp";
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_HELP:
			usage(LL_EXIT_OK);
			break;
		case OPT_TIMEOUT:
			if (!parse_u64(optarg, 1, 3600, &timeout_s))
				err_exit(LL_EXIT_USAGE, "--timeout wants 1..3600 seconds, got '%s'", optarg);
			break;
		default:
			usage(LL_EXIT_USAGE);
		}
	}
	if (argc - optind != 2)
		usage(LL_EXIT_USAGE);

	q.deadline_ns = now_ns() + timeout_s * 1000000000ULL;
	q.fd = qmp_connect(argv[optind], q.deadline_ns);
	greeting = qmp_read(&q);
	if (!greeting || !json_object_object_get_ex(greeting, "QMP", NULL))
		err_exit(LL_EXIT_FAIL, "%s is not a QMP monitor", argv[optind]);
	json_object_put(greeting);
	json_object_put(qmp_execute(&q, "qmp_capabilities"));

	ret = qmp_execute(&q, argv[optind + 1]);
	if (strcmp(argv[optind + 1], "query-cpus-fast") == 0)
		print_cpus(ret);
	else
		printf("%s\n", json_object_to_json_string_ext(ret, JSON_C_TO_STRING_PLAIN));
	json_object_put(ret);
	close(q.fd);
	return LL_EXIT_OK;
}
