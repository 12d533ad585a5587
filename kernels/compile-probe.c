// SPDX-License-Identifier: GPL-2.0
/*
 * compile-probe.c - what kernels/compile-probe.sh compiles to time
 * this host's compiler: many headers parsed and a little code optimised,
 * the work of one kernel object in small. Never linked or run. Its
 * timing is calibrated against kernel builds (lib/common.sh,
 * LOCKLAT_BUILD_*_SECONDS): changing this file changes what one
 * millisecond of it means, so a change re-measures them.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <dirent.h>

struct node { struct node *l, *r; uint64_t key; int h; };

static int height(const struct node *n) { return n ? n->h : 0; }
static void fix(struct node *n) { int a = height(n->l), b = height(n->r); n->h = (a > b ? a : b) + 1; }
static struct node *rot_r(struct node *n) { struct node *l = n->l; n->l = l->r; l->r = n; fix(n); fix(l); return l; }
static struct node *rot_l(struct node *n) { struct node *r = n->r; n->r = r->l; r->l = n; fix(n); fix(r); return r; }
static struct node *balance(struct node *n)
{
	fix(n);
	if (height(n->l) > height(n->r) + 1) {
		if (height(n->l->r) > height(n->l->l))
			n->l = rot_l(n->l);
		return rot_r(n);
	}
	if (height(n->r) > height(n->l) + 1) {
		if (height(n->r->l) > height(n->r->r))
			n->r = rot_r(n->r);
		return rot_l(n);
	}
	return n;
}
struct node *avl_insert(struct node *n, struct node *x)
{
	if (!n)
		return x;
	if (x->key < n->key)
		n->l = avl_insert(n->l, x);
	else
		n->r = avl_insert(n->r, x);
	return balance(n);
}
uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}
int parse(const char *line, char **keys, double *vals, int max)
{
	int n = 0;
	while (*line && n < max) {
		while (isspace((unsigned char)*line))
			line++;
		const char *eq = strchr(line, '=');
		if (!eq)
			break;
		keys[n] = strndup(line, (size_t)(eq - line));
		char *end;
		errno = 0;
		vals[n] = strtod(eq + 1, &end);
		if (errno || end == eq + 1)
			return -EINVAL;
		line = end;
		n++;
	}
	return n;
}
double stats(double *v, int n, double *sd)
{
	double m = 0, s = 0;
	for (int i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	*sd = sqrt(s / (n > 1 ? n - 1 : 1));
	return m;
}
static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}
double percentile(double *v, int n, double p)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	double r = p * (n - 1);
	int i = (int)r;
	return i + 1 < n ? v[i] + (r - i) * (v[i + 1] - v[i]) : v[i];
}
