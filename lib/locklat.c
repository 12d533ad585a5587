// SPDX-License-Identifier: GPL-2.0
/*
 * locklat.c - error reporting and number parsing shared by locklat's tools.
 */
#define _POSIX_C_SOURCE 200809L
#include "locklat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *ll_prog = "locklat";

static void vmsg(const char *kind, const char *fmt, va_list ap, int errnum)
{
	fprintf(stderr, "%s: %s: ", ll_prog, kind);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

void usage_exit(const char *const *msg_opts, int status)
{
	/* Bad usage: the synopsis alone, on one line; the rest is --help's. */
	if (status) {
		fprintf(stderr, "%s (see --help)\n", msg_opts[0]);
		exit(status);
	}
	for (; *msg_opts; msg_opts++)
		printf("%s\n", *msg_opts);
	exit(status);
}

void err_exit(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap, 0);
	va_end(ap);
	exit(status);
}

void err_exit_errno(int status, const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap, errnum);
	va_end(ap);
	exit(status);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning", fmt, ap, 0);
	va_end(ap);
}

bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool parse_duration_ns(const char *s, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		uint64_t mult;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000ULL }, { "m", 60000000000ULL },
		{ "h", 3600000000000ULL }, { "", 1000000000ULL },
	};
	unsigned long long v;
	char *end;
	size_t i;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v == 0)
		return false;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].suffix) == 0) {
			if (v > UINT64_MAX / units[i].mult)
				return false;
			*ns = v * units[i].mult;
			return true;
		}
	}
	return false;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void path_join(char *out, size_t size, const char *dir, const char *name)
{
	int n = snprintf(out, size, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= size)
		err_exit(LL_EXIT_FAIL, "path too long: %s/%s", dir, name);
}

int read_u64_file(const char *path, uint64_t *out)
{
	FILE *f = fopen(path, "r");
	unsigned long long v;
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (!ok)
		return -1;
	*out = v;
	return 0;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p && size)
		err_exit(LL_EXIT_FAIL, "out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		err_exit(LL_EXIT_FAIL, "out of memory");
	return d;
}
