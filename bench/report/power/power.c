// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-power - how many repetitions a comparison needs: the power of the
 * summary's test (the 95% Hodges-Lehmann interval of the ratio of maxima
 * excluding 1) to see a given change, by simulation.
 *
 * Usage and options: msg_opts[] below (--help).
 *
 * For each size it prints the share of simulated comparisons whose interval
 * excludes 1 with the change (the power) and without it (the false-positive
 * rate, which should stay under 0.05), and the median interval's width as
 * the ratio hi/lo. The summary reads its verdicts from the same interval, so
 * this is the power of what it reports.
 * Exit: 0, 1 error, 2 bad usage.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locklat.h"
#include "stats.h"

#define MAX_POOL 4096
#define MAX_SIZES 32
#define MAX_SIDE 64

enum option_values {
	OPT_GROUP = 1,
	OPT_HELP,
	OPT_LOG_SD,
	OPT_RATIO,
	OPT_REPS,
	OPT_RUNS,
	OPT_SEED,
	OPT_STATISTIC,
	OPT_SUMMARY,
};

static const char *const msg_opts[] = {
	"usage: locklat-power [options]",
	"",
	"  --group V/W      a group of --summary whose per-repetition maxima give",
	"                   the spread (repeatable: their log maxima, each centred",
	"                   on its median, are pooled and resampled)",
	"  --log-sd S       without --group: log maxima normally distributed with",
	"                   this standard deviation (default 0.5)",
	"  --ratio R        the change to detect, B's maxima times R (default 2)",
	"  --reps LIST      repetitions per side to try, comma-separated",
	"                   (default 4,6,8,10,12)",
	"  --runs N         simulated comparisons per size (default 2000)",
	"  --seed N         the generator's seed (default 1)",
	"  --statistic KEY  the group field --group resamples: max_us (the pass",
	"                   maxima, default) or block_median_us (the typical",
	"                   worst seconds)",
	"  --summary FILE   a run's summary.json, for --group",
	"  --help           this text",
	NULL,
};

static void usage(int status)
{
	usage_exit(msg_opts, status);
}

/* xorshift64*: small, fast, and the same sequence everywhere for a seed. */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static double rng_uniform(void)
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(void)
{
	return sqrt(-2 * log(rng_uniform())) * cos(2 * M_PI * rng_uniform());
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The centred logs of group "variant/workload"'s statistic in the summary root, appended to pool. */
static size_t pool_add(json_object *root, const char *name, const char *statistic, double *pool, size_t n)
{
	json_object *groups, *g, *v, *max;
	char variant[128], workload[128];
	double logs[MAX_SIDE * 2], mid;
	size_t i, k, m = 0;

	if (sscanf(name, "%127[^/]/%127s", variant, workload) != 2)
		err_exit(LL_EXIT_USAGE, "--group wants VARIANT/WORKLOAD, got '%s'", name);
	if (!json_object_object_get_ex(root, "groups", &groups))
		err_exit(LL_EXIT_FAIL, "the summary has no groups");
	for (i = 0; i < json_object_array_length(groups); i++) {
		g = json_object_array_get_idx(groups, i);
		if (!json_object_object_get_ex(g, "variant", &v) || strcmp(json_object_get_string(v), variant) ||
		    !json_object_object_get_ex(g, "workload", &v) || strcmp(json_object_get_string(v), workload) ||
		    !json_object_object_get_ex(g, statistic, &max) || !json_object_is_type(max, json_type_array))
			continue;
		for (k = 0; k < json_object_array_length(max) && m < ARRAY_SIZE(logs); k++) {
			double x = json_object_get_double(json_object_array_get_idx(max, k));

			if (x > 0)
				logs[m++] = log(x);
		}
	}
	if (m < 2)
		err_exit(LL_EXIT_FAIL, "group %s: fewer than 2 values of %s in the summary", name, statistic);
	qsort(logs, m, sizeof(*logs), cmp_double);
	mid = m % 2 ? logs[m / 2] : (logs[m / 2 - 1] + logs[m / 2]) / 2;
	for (k = 0; k < m && n < MAX_POOL; k++)
		pool[n++] = logs[k] - mid;
	return n;
}

/* One side of a simulated comparison: n values exp(draw + shift). */
static void side_draw(double *out, size_t n, const double *pool, size_t npool, double log_sd, double shift)
{
	size_t i;

	for (i = 0; i < n; i++) {
		double x = npool ? pool[rng_next() % npool] : log_sd * rng_normal();

		out[i] = exp(x + shift);
	}
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "group", required_argument, NULL, OPT_GROUP },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "log-sd", required_argument, NULL, OPT_LOG_SD },
		{ "ratio", required_argument, NULL, OPT_RATIO },
		{ "reps", required_argument, NULL, OPT_REPS },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "statistic", required_argument, NULL, OPT_STATISTIC },
		{ "summary", required_argument, NULL, OPT_SUMMARY },
		{ NULL, 0, NULL, 0 },
	};
	const char *groups[16], *summary = NULL, *statistic = "max_us";
	size_t ngroups = 0, nsizes = 0, npool = 0, i, s;
	uint64_t sizes[MAX_SIZES], runs = 2000, seed = 1, v;
	double log_sd = 0.5, ratio = 2, *pool;
	char *end, *list = NULL, *tok, *save = NULL;
	int c;

	ll_prog = "locklat-power";
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_GROUP:
			if (ngroups == ARRAY_SIZE(groups))
				err_exit(LL_EXIT_USAGE, "at most %zu --group", ARRAY_SIZE(groups));
			groups[ngroups++] = optarg;
			break;
		case OPT_HELP:
			usage(LL_EXIT_OK);
			break;
		case OPT_LOG_SD:
			log_sd = strtod(optarg, &end);
			if (*end || !(log_sd > 0) || log_sd > 10)
				err_exit(LL_EXIT_USAGE, "--log-sd wants a number in (0, 10], got '%s'", optarg);
			break;
		case OPT_RATIO:
			ratio = strtod(optarg, &end);
			if (*end || !(ratio > 0) || ratio > 1e6)
				err_exit(LL_EXIT_USAGE, "--ratio wants a positive number, got '%s'", optarg);
			break;
		case OPT_REPS:
			list = optarg;
			break;
		case OPT_RUNS:
			if (!parse_u64(optarg, 1, 1000000, &runs))
				err_exit(LL_EXIT_USAGE, "--runs wants 1-1000000, got '%s'", optarg);
			break;
		case OPT_SEED:
			if (!parse_u64(optarg, 1, UINT64_MAX, &seed))
				err_exit(LL_EXIT_USAGE, "--seed wants a positive number, got '%s'", optarg);
			break;
		case OPT_STATISTIC:
			if (strcmp(optarg, "max_us") && strcmp(optarg, "block_median_us"))
				err_exit(LL_EXIT_USAGE, "--statistic wants max_us or block_median_us, got '%s'", optarg);
			statistic = optarg;
			break;
		case OPT_SUMMARY:
			summary = optarg;
			break;
		default:
			usage(LL_EXIT_USAGE);
		}
	}
	if (optind != argc)
		usage(LL_EXIT_USAGE);
	if (ngroups && !summary)
		err_exit(LL_EXIT_USAGE, "--group needs --summary");
	list = strdup(list ? list : "4,6,8,10,12");
	if (!list)
		err_exit(LL_EXIT_FAIL, "out of memory");
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (nsizes == MAX_SIZES || !parse_u64(tok, 2, MAX_SIDE, &v))
			err_exit(LL_EXIT_USAGE, "--reps wants up to %d sizes of 2-%d, got '%s'", MAX_SIZES, MAX_SIDE, tok);
		sizes[nsizes++] = v;
	}
	free(list);
	pool = calloc(MAX_POOL, sizeof(*pool));
	if (!pool)
		err_exit(LL_EXIT_FAIL, "out of memory");
	if (summary) {
		json_object *root = json_object_from_file(summary);

		if (!root)
			err_exit(LL_EXIT_FAIL, "cannot read %s as JSON", summary);
		for (i = 0; i < ngroups; i++)
			npool = pool_add(root, groups[i], statistic, pool, npool);
		json_object_put(root);
	}
	rng_state = seed * 0x9E3779B97F4A7C15ull | 1;

	if (npool)
		printf("# spread: %zu centred logs of %s from %zu group(s) of %s, resampled\n", npool, statistic,
		       ngroups, summary);
	else
		printf("# spread: log maxima ~ normal, sd %.3f\n", log_sd);
	printf("# change to detect: %.3gx; %llu simulated comparisons per size; seed %llu\n",
	       ratio, (unsigned long long)runs, (unsigned long long)seed);
	printf("# reps_per_side power false_positive_rate median_interval_width(hi/lo) coverage\n");
	for (s = 0; s < nsizes; s++) {
		size_t n = sizes[s], hit = 0, false_hit = 0, r;
		double a[MAX_SIDE], b[MAX_SIDE], *widths = calloc(runs, sizeof(double)), coverage = 0;
		struct ratio_ci ci;

		if (!widths)
			err_exit(LL_EXIT_FAIL, "out of memory");
		for (r = 0; r < runs; r++) {
			side_draw(b, n, pool, npool, log_sd, 0);
			side_draw(a, n, pool, npool, log_sd, log(ratio));
			if (hodges_lehmann_ratio(a, n, b, n, 0.95, &ci))
				err_exit(LL_EXIT_FAIL, "no interval for %zu vs %zu", n, n);
			hit += ci.coverage > 0 && (ci.lo > 1 || ci.hi < 1);
			widths[r] = ci.coverage > 0 ? ci.hi / ci.lo : INFINITY;
			coverage = ci.coverage;
			side_draw(a, n, pool, npool, log_sd, 0);
			if (hodges_lehmann_ratio(a, n, b, n, 0.95, &ci))
				err_exit(LL_EXIT_FAIL, "no interval for %zu vs %zu", n, n);
			false_hit += ci.coverage > 0 && (ci.lo > 1 || ci.hi < 1);
		}
		qsort(widths, runs, sizeof(*widths), cmp_double);
		printf("%zu %.3f %.3f %.2f %.4f\n", n, (double)hit / (double)runs, (double)false_hit / (double)runs,
		       widths[runs / 2], coverage);
		free(widths);
	}
	free(pool);
	return LL_EXIT_OK;
}
