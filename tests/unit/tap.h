/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - TAP output for locklat's C unit tests (run through prove).
 */
#ifndef LOCKLAT_TAP_H
#define LOCKLAT_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define tap_plan(n) printf("1..%d\n", (n))

#define ok(cond, ...)                                               \
	do {                                                        \
		int ok_ = !!(cond);                                 \
		printf("%s %d - ", ok_ ? "ok" : "not ok", ++tap_n); \
		printf(__VA_ARGS__);                                \
		putchar('\n');                                      \
		if (!ok_) {                                         \
			tap_failed++;                               \
			printf("#   failed: %s (%s:%d)\n", #cond,   \
			       __FILE__, __LINE__);                 \
		}                                                   \
	} while (0)

#define is_u64(got, want, ...)                                              \
	do {                                                                \
		unsigned long long g_ = (got), w_ = (want);                 \
		ok(g_ == w_, __VA_ARGS__);                                  \
		if (g_ != w_)                                               \
			printf("#   got %llu, want %llu\n", g_, w_);        \
	} while (0)

#define is_str(got, want, ...)                                              \
	do {                                                                \
		const char *g_ = (got), *w_ = (want);                       \
		ok(g_ && !strcmp(g_, w_), __VA_ARGS__);                     \
		if (!g_ || strcmp(g_, w_))                                  \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_); \
	} while (0)

#define tap_exit() return tap_failed ? 1 : 0

#endif /* LOCKLAT_TAP_H */
