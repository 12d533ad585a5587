/* SPDX-License-Identifier: GPL-2.0 */
/*
 * locklat.h - helpers shared by locklat's C tools (host side and guest side).
 */
#ifndef LOCKLAT_H
#define LOCKLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes shared by the tools (kselftest-like). */
enum {
	LL_EXIT_OK = 0,
	LL_EXIT_FAIL = 1,
	LL_EXIT_USAGE = 2,
	LL_EXIT_SKIP = 4,
};

/* Set once by main(): prefixes every message. */
extern const char *ll_prog;

/* Print "prog: error: msg" and exit with status. */
void err_exit(int status, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
/* As err_exit, with ": strerror(errno)" appended. */
void err_exit_errno(int status, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * A tool's usage, one line per entry of its NULL-terminated msg_opts[]
 * (rtla's style: the one place its options are described), on stdout for
 * --help (status 0); for bad usage its synopsis (msg_opts[0]) alone, on
 * stderr. Then exit with status.
 */
void usage_exit(const char *const *msg_opts, int status) __attribute__((noreturn));

/*
 * Parse a whole unsigned number in [min, max]. Returns false on anything
 * else (sign, junk, overflow, empty).
 */
bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Parse a duration: a positive whole number with an optional unit
 * (ns, us, ms, s, m, h; seconds when none) into nanoseconds.
 */
bool parse_duration_ns(const char *s, uint64_t *ns);

/* realloc and strdup that exit with "out of memory" instead of returning NULL. */
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

/* one for n == 1, else many: "1 cell", "2 cells". */
static inline const char *plural(unsigned long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* out = dir/name; exits if it does not fit. */
void path_join(char *out, size_t size, const char *dir, const char *name);

/* The number a file (a /proc or tracefs value) begins with: 0, or -1. */
int read_u64_file(const char *path, uint64_t *out);

/* Monotonic clock in nanoseconds. */
uint64_t now_ns(void);

#endif /* LOCKLAT_H */
