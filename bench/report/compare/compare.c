// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-compare - set two locklat runs side by side: the same matrix on two
 * machines, on two dates, under KVM and TCG, or before and after a change.
 *
 * Usage and options: msg_opts[] below (--help).
 *
 * Reads A_RUN/summary.json and B_RUN/summary.json (locklat-summary's; a
 * committed run such as results/reference has them without its cells). For
 * each variant and workload measured in both, B against A as the summary
 * sets two builds against each other (bench/report/lib/judge.h): the
 * Hodges-Lehmann ratio B/A of the measured pass maxima with its exact 95%
 * interval widened by the 1 µs resolution, the rank test's p, failures under
 * load compared as proportions (Fisher's exact test), and a verdict.
 * Runs whose measurement settings differ (accelerator, vCPUs, memory, pass
 * and warm-up lengths, histogram range, start-up window) are refused in one
 * line naming what differs, unless --allow-different.
 *
 * Each group is then regressed (B's latency higher: the interval above 1
 * and the change over the threshold), improved (the same, lower), unchanged
 * or not comparable (no interval). stdout gets the table, LKP-style, the
 * changed rows first, and a count; OUT/verdicts.tap a TAP test per group,
 * "not ok" for a regression, for a CI.
 * Exit: 0 nothing regressed, 1 something did, 2 error (bad usage, settings
 * that differ, a file that cannot be read or written).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "judge.h"
#include "locklat.h"
#include "output.h"
#include "stats.h"

enum option_values {
	OPT_ALLOW_DIFFERENT = 1,
	OPT_HELP,
	OPT_OUT,
	OPT_PAIR,
	OPT_THRESHOLD,
};

/* Exit statuses: a CI reads 1 as "regressed", so an error is 2, never 1. */
enum { EXIT_CLEAN = 0, EXIT_REGRESSED = 1, EXIT_ERROR = 2 };

/* What became of a group from A to B, in the order stdout lists them. */
enum change { CH_REGRESSED, CH_IMPROVED, CH_BELOW, CH_UNCHANGED, CH_NOT_COMPARABLE, CH_N };
static const char *const change_words[CH_N] = {
	[CH_REGRESSED] = "regressed", [CH_IMPROVED] = "improved", [CH_BELOW] = "changed, under the threshold",
	[CH_UNCHANGED] = "unchanged", [CH_NOT_COMPARABLE] = "not comparable",
};

/* One compared group, for the stdout table and the TAP file. */
struct row {
	char name[256];
	char a[48], b[48], change[24], interval[64];
	enum change kind;
	char verdict[480];
};

/* The settings that make two runs' numbers comparable (summary.json's "settings"). */
static const char *const measurement_settings[] = {
	"accel", "vcpus", "guest_mem_mib", "duration_s", "warmup_s", "hist_range_us",
};
/* Settings shown when they differ, which a comparison across machines or versions is for. */
static const char *const context_settings[] = {
	"kernel_source", "gcc", "qemu", "rt_tests", "host_cpu", "suite_revision", "trace_duration_s",
};

/* One variant on one workload of a run, as summary.json has it. */
struct side {
	const char *variant, *workload;
	double max[JUDGE_MAX_VALUES], blocks[JUDGE_MAX_VALUES];
	size_t n, failed;
	unsigned int min_blocks;
};

struct run {
	const char *dir, *name;
	json_object *root, *groups, *settings;
};

static const char *const msg_opts[] = {
	"usage: locklat-compare [--allow-different] [--threshold PCT] [--pair A_VARIANT:B_VARIANT] --out DIR A_RUN B_RUN",
	"",
	"  --allow-different  compare runs made with different settings (what",
	"                     differs is said at the top of the output; make",
	"                     compare: ALLOW_DIFFERENT=1)",
	"  --threshold PCT    a change is a regression or an improvement when its",
	"                     interval excludes 1 and it is over PCT % (default 10;",
	"                     make compare: THRESHOLD=PCT)",
	"  --out DIR          where compare.md, compare.json and verdicts.tap go (created)",
	"  --pair A_V:B_V     B's build B_V against A's build A_V (a bisect step's",
	"                     tip against the --ab run's base); other builds by name",
	"  --help             this text",
	NULL,
};

static void usage(int status)
{
	usage_exit(msg_opts, status);
}

static const char *json_str(json_object *o, const char *key, const char *fallback)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return fallback;
	return json_object_get_string(v);
}

static int64_t json_int(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

static void run_load(struct run *r, const char *dir)
{
	char path[4096];

	r->dir = dir;
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	r->root = json_object_from_file(path);
	if (!r->root)
		err_exit(EXIT_ERROR, "cannot read %s (make summary RUN=%s first)", path, dir);
	/* A run of several strata has no pooled groups: each stratum is a summary of its own. */
	if (json_object_object_get_ex(r->root, "strata", NULL))
		err_exit(EXIT_ERROR, "%s ran under several accelerators or host CPU models: compare one of its "
			 "strata, %s/by-host/<stratum> (its summary.md lists them)", dir, dir);
	if (!json_object_object_get_ex(r->root, "groups", &r->groups) ||
	    !json_object_is_type(r->groups, json_type_array))
		err_exit(EXIT_ERROR, "%s has no groups: not a locklat summary", path);
	if (!json_object_object_get_ex(r->root, "settings", &r->settings))
		err_exit(EXIT_ERROR, "%s has no settings: written by an older locklat-summary (make summary RUN=%s)",
			 path, dir);
	r->name = json_str(r->root, "run", dir);
}

/* An array of numbers into v (at most JUDGE_MAX_VALUES); how many. */
static size_t json_numbers(json_object *a, double *v)
{
	size_t i, n = 0;

	if (!a || !json_object_is_type(a, json_type_array))
		return 0;
	for (i = 0; i < json_object_array_length(a) && n < JUDGE_MAX_VALUES; i++)
		v[n++] = json_object_get_double(json_object_array_get_idx(a, i));
	return n;
}

/* The group of variant on workload in run r, or false. */
static bool side_find(const struct run *r, const char *variant, const char *workload, struct side *s)
{
	size_t i;

	for (i = 0; i < json_object_array_length(r->groups); i++) {
		json_object *g = json_object_array_get_idx(r->groups, i), *a = NULL;

		if (strcmp(json_str(g, "variant", ""), variant) || strcmp(json_str(g, "workload", ""), workload))
			continue;
		memset(s, 0, sizeof(*s));
		s->variant = variant;
		s->workload = workload;
		json_object_object_get_ex(g, "max_us", &a);
		s->n = json_numbers(a, s->max);
		a = NULL;
		json_object_object_get_ex(g, "block_median_us", &a);
		if (json_numbers(a, s->blocks) != s->n)
			for (size_t k = 0; k < s->n; k++)
				s->blocks[k] = NAN;
		s->failed = (size_t)(json_int(g, "died_in_latency") + json_int(g, "load_dead"));
		s->min_blocks = (unsigned int)json_int(g, "steady_seconds_min");
		return s->n + s->failed > 0;
	}
	return false;
}

/* "name (a vs b)" for each setting in names that differs between the runs, ", "-separated; "" if none. */
static void settings_differ(const struct run *a, const struct run *b, const char *const *names, size_t count,
			    char *out, size_t size)
{
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < count && len < size; i++) {
		const char *va = json_str(a->settings, names[i], "?"), *vb = json_str(b->settings, names[i], "?");

		if (strcmp(va, vb))
			len += (size_t)snprintf(out + len, size - len, "%s%s (%s vs %s)", len ? ", " : "",
						names[i], va, vb);
	}
}

/* "median ±P%" of a side's maxima (P: half their range, of the median), or "–"; "+ failed" when some failed. */
static const char *spread_pct(char *buf, size_t size, const struct side *s)
{
	double m;

	if (!s->n) {
		snprintf(buf, size, "%s", s->failed ? "all failed" : "–");
		return buf;
	}
	m = median(s->max, s->n);
	snprintf(buf, size, "%.0f ±%.1f%%%s", m, m > 0 ? 50 * (max_of(s->max, s->n) - min_of(s->max, s->n)) / m : 0,
		 s->failed ? " +failed" : "");
	return buf;
}

/*
 * What a judgement of B against A says, at threshold (a fraction: 0.1 for
 * 10%): failures under load first, when Fisher's test tells the sides
 * apart, then the measured maxima's interval (widened by the resolution).
 */
static enum change change_of(const struct judgement *j, double threshold)
{
	if (j->failed_more)
		return j->failed_more > 0 ? CH_REGRESSED : CH_IMPROVED;
	if (!j->ci.valid || j->ci.coverage <= 0 || isnan(j->ci.estimate))
		return CH_NOT_COMPARABLE;
	if (j->ci.lo > 1)
		return j->ci.estimate > 1 + threshold ? CH_REGRESSED : CH_BELOW;
	if (j->ci.hi < 1)
		return j->ci.estimate < 1 / (1 + threshold) ? CH_IMPROVED : CH_BELOW;
	return CH_UNCHANGED;
}

/* s on f, padded with spaces to width columns (UTF-8: a character is a column), right-aligned when right. */
static void print_padded(const char *s, int width, bool right)
{
	int cols = 0;
	const char *p;

	for (p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	if (right)
		printf("%*s%s", width > cols ? width - cols : 0, "", s);
	else
		printf("%s%*s", s, width > cols ? width - cols : 0, "");
}

static void row_print(const char *name, const char *a, const char *change, const char *b, const char *interval,
		      const char *verdict)
{
	print_padded(name, 26, false);
	print_padded(a, 22, true);
	print_padded(change, 10, true);
	print_padded(b, 22, true);
	fputs("  ", stdout);
	print_padded(interval, 24, false);
	printf(" %s\n", verdict);
}

/* The rows on stdout, the changed first, and the count of each kind. */
static void rows_print(const struct row *rows, size_t n, double threshold)
{
	size_t counts[CH_N] = { 0 }, i;
	int k;

	row_print("build/workload", "A max ±spread", "%change", "B max ±spread", "B/A [95% interval]", "change");
	for (k = 0; k < CH_N; k++)
		for (i = 0; i < n; i++)
			if (rows[i].kind == (enum change)k) {
				row_print(rows[i].name, rows[i].a, rows[i].change, rows[i].b, rows[i].interval,
					  change_words[k]);
				counts[k]++;
			}
	printf("%zu improved, %zu regressed, %zu unchanged, %zu not comparable (a change: the interval excludes 1 "
	       "and it is over %.0f%%)\n", counts[CH_IMPROVED], counts[CH_REGRESSED], counts[CH_UNCHANGED] + counts[CH_BELOW],
	       counts[CH_NOT_COMPARABLE], threshold * 100);
}

/* OUT/verdicts.tap: a test per compared group, "not ok" for a regression. */
static void tap_write(const char *out, const struct row *rows, size_t n)
{
	FILE *f = output_open(out, "verdicts.tap");
	size_t i;

	fprintf(f, "TAP version 13\n1..%zu\n", n);
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		fprintf(f, "%s %zu - %s: %s %s, B/A %s: %s%s\n", r->kind == CH_REGRESSED ? "not ok" : "ok", i + 1, r->name,
			change_words[r->kind], r->change, r->interval, r->verdict,
			r->kind == CH_NOT_COMPARABLE ? " # SKIP no interval" : "");
	}
	output_close(f, out, "verdicts.tap");
}

/* "median [min–max]" of n values, or "–". */
static const char *spread(char *buf, size_t size, const struct side *s)
{
	if (!s->n)
		snprintf(buf, size, "–");
	else if (s->n == 1)
		snprintf(buf, size, "%.0f", s->max[0]);
	else
		snprintf(buf, size, "%.0f [%.0f–%.0f]", median(s->max, s->n), min_of(s->max, s->n),
			 max_of(s->max, s->n));
	return buf;
}





static json_object *json_side(const struct side *s)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	for (i = 0; i < s->n; i++)
		json_object_array_add(a, json_object_new_double(s->max[i]));
	json_object_object_add(o, "measured", json_object_new_int64((int64_t)s->n));
	json_object_object_add(o, "failed_under_load", json_object_new_int64((int64_t)s->failed));
	json_object_object_add(o, "max_us", a);
	return o;
}

/* The build of A that B's variant is set against: itself, or A_V of --pair A_V:B_V. */
static const char *variant_in_a(const char *variant, const char *pair_a, const char *pair_b)
{
	return pair_b && !strcmp(variant, pair_b) ? pair_a : variant;
}

/* The build of B that A's variant is set against. */
static const char *variant_in_b(const char *variant, const char *pair_a, const char *pair_b)
{
	return pair_a && !strcmp(variant, pair_a) ? pair_b : variant;
}

static void md_run(FILE *f, const char *label, const struct run *r)
{
	fprintf(f, "- %s: `%s` (%s): %s, %s vCPU(s), %s MiB, %s s passes after %s s warm-up; %s; host %s; "
		"locklat %s\n", label, r->name, r->dir, json_str(r->settings, "accel", "?"),
		json_str(r->settings, "vcpus", "?"), json_str(r->settings, "guest_mem_mib", "?"),
		json_str(r->settings, "duration_s", "?"), json_str(r->settings, "warmup_s", "?"),
		json_str(r->settings, "kernel_source", "?"), json_str(r->settings, "host_cpu", "?"),
		json_str(r->settings, "suite_revision", "?"));
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "allow-different", no_argument, NULL, OPT_ALLOW_DIFFERENT },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "out", required_argument, NULL, OPT_OUT },
		{ "pair", required_argument, NULL, OPT_PAIR },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ NULL, 0, NULL, 0 },
	};
	char differ[4096], context[4096], buf_a[128], buf_b[128];
	char lo[16], hi[16], est[16];
	json_object *jroot, *jgroups, *jonly_a, *jonly_b;
	const char *out = NULL, *pair_a = NULL, *pair_b = NULL;
	struct run a, b;
	bool allow = false, same;
	size_t i, compared = 0, regressed = 0;
	struct row *rows;
	double threshold = 0.10;
	char *end, *real_a, *real_b;
	FILE *md;
	int c;

	ll_prog = "locklat-compare";
	/* Whatever fails exits 2: 1 is a regression. */
	output_exit_status = EXIT_ERROR;
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_ALLOW_DIFFERENT:
			allow = true;
			break;
		case OPT_HELP:
			usage(LL_EXIT_OK);
			break;
		case OPT_OUT:
			out = optarg;
			break;
		case OPT_PAIR:
			pair_b = strchr(optarg, ':');
			if (!pair_b || pair_b == optarg || !pair_b[1])
				err_exit(EXIT_ERROR, "--pair wants A_VARIANT:B_VARIANT, got '%s'", optarg);
			pair_a = strndup(optarg, (size_t)(pair_b - optarg));
			pair_b++;
			break;
		case OPT_THRESHOLD:
			threshold = strtod(optarg, &end) / 100;
			if (end == optarg || *end || !(threshold >= 0) || threshold > 100)
				err_exit(EXIT_ERROR, "--threshold wants a percentage from 0 to 10000, got '%s'", optarg);
			break;
		default:
			usage(LL_EXIT_USAGE);
		}
	}
	if (argc - optind != 2 || !out)
		usage(EXIT_ERROR);
	/* The same run twice compares nothing: every change is 0 by construction. */
	real_a = realpath(argv[optind], NULL);
	real_b = realpath(argv[optind + 1], NULL);
	same = real_a && real_b && !strcmp(real_a, real_b);
	free(real_a);
	free(real_b);
	if (same)
		fprintf(stderr, "%s: warning: A and B are the same run (%s): every change is 0 by construction\n", ll_prog,
			argv[optind]);
	run_load(&a, argv[optind]);
	run_load(&b, argv[optind + 1]);
	settings_differ(&a, &b, measurement_settings, ARRAY_SIZE(measurement_settings), differ, sizeof(differ));
	if (json_object_get_double(json_object_object_get(a.root, "startup_window_s")) !=
	    json_object_get_double(json_object_object_get(b.root, "startup_window_s"))) {
		size_t len = strlen(differ);

		snprintf(differ + len, sizeof(differ) - len, "%sstartup_window_s (%g vs %g)", len ? ", " : "",
			 json_object_get_double(json_object_object_get(a.root, "startup_window_s")),
			 json_object_get_double(json_object_object_get(b.root, "startup_window_s")));
	}
	if (differ[0] && !allow)
		err_exit(EXIT_ERROR, "the runs were made with different settings: %s (--allow-different, make compare "
			 "ALLOW_DIFFERENT=1, compares them anyway)", differ);
	settings_differ(&a, &b, context_settings, ARRAY_SIZE(context_settings), context, sizeof(context));
	if (mkdir(out, 0755) && errno != EEXIST)
		err_exit_errno(EXIT_ERROR, "mkdir %s", out);
	rows = calloc(json_object_array_length(b.groups) + 1, sizeof(*rows));
	if (!rows)
		err_exit(EXIT_ERROR, "out of memory");

	md = output_open(out, "compare.md");
	fprintf(md, "# locklat compare: `%s` → `%s`\n\n", a.name, b.name);
	md_run(md, "A", &a);
	md_run(md, "B", &b);
	fprintf(md, "- Measurement settings that differ: %s%s\n", differ[0] ? differ : "none",
		differ[0] ? " (compared because of --allow-different: ratios mix the settings' effect with the builds')" : "");
	fprintf(md, "- Also different: %s\n", context[0] ? context : "nothing else recorded");
	if (same)
		fprintf(md, "- **A and B are the same run**: every change is 0 by construction.\n");
	fputc('\n', md);
	fprintf(md, "B against A for each build and workload measured in both: the Hodges–Lehmann ratio B/A "
		"of the pass maxima with its exact 95%% interval, widened by the 1 µs resolution; the "
		"Mann–Whitney p of the pass maxima; repetitions that failed under load (hung, panicked, lost "
		"their load) counted apart and compared as proportions (Fisher's exact test). Ratios within "
		"±%.0f%% are the same. All latencies in µs, maxima as median [min–max] (measured "
		"repetitions).\n\n", JUDGE_NEGLIGIBLE * 100);
	fprintf(md, "| build | workload | A max | B max | B/A [95%% interval] | p (max) | failed under load | verdict |\n"
		"|---|---|---|---|---|---|---|---|\n");

	jroot = json_object_new_object();
	jgroups = json_object_new_array();
	jonly_a = json_object_new_array();
	jonly_b = json_object_new_array();
	for (i = 0; i < json_object_array_length(b.groups); i++) {
		json_object *g = json_object_array_get_idx(b.groups, i), *o;
		const char *variant = json_str(g, "variant", ""), *workload = json_str(g, "workload", "");
		struct side sa, sb;
		struct judge_side ja, jb;
		struct judgement j;
		bool in_a = side_find(&a, variant_in_a(variant, pair_a, pair_b), workload, &sa),
		     in_b = side_find(&b, variant, workload, &sb);
		char name[256];

		snprintf(name, sizeof(name), "%s/%s", variant, workload);
		if (!in_b)
			continue;
		if (!in_a) {
			json_object_array_add(jonly_b, json_object_new_string(name));
			continue;
		}
		/* B is the side judged: "B higher" reads as the change from A to B. */
		jb = (struct judge_side){ .name = "B", .max = sb.max, .blocks = sb.blocks, .n = sb.n,
					  .failed = sb.failed, .min_blocks = sb.min_blocks };
		ja = (struct judge_side){ .name = "A", .max = sa.max, .blocks = sa.blocks, .n = sa.n,
					  .failed = sa.failed, .min_blocks = sa.min_blocks };
		judge(&j, &jb, &ja);
		{
			struct row *r = &rows[compared];

			snprintf(r->name, sizeof(r->name), "%s", name);
			spread_pct(r->a, sizeof(r->a), &sa);
			spread_pct(r->b, sizeof(r->b), &sb);
			r->kind = change_of(&j, threshold);
			if (j.ci.valid && !isnan(j.ci.estimate) && !isinf(j.ci.estimate))
				snprintf(r->change, sizeof(r->change), "%+.1f%%", 100 * (j.ci.estimate - 1));
			else
				snprintf(r->change, sizeof(r->change), "–");
			if (j.ci.valid && j.ci.coverage > 0)
				snprintf(r->interval, sizeof(r->interval), "%s× [%s–%s]",
					 ratio_str(est, sizeof(est), j.ci.estimate), ratio_str(lo, sizeof(lo), j.ci.lo),
					 ratio_str(hi, sizeof(hi), j.ci.hi));
			else
				snprintf(r->interval, sizeof(r->interval), "no interval");
			snprintf(r->verdict, sizeof(r->verdict), "%s", j.verdict);
			regressed += r->kind == CH_REGRESSED;
		}
		compared++;
		fprintf(md, "| %s | %s | %s%s | %s%s |", variant, workload, spread(buf_a, sizeof(buf_a), &sa),
			sa.failed ? " + failed" : "", spread(buf_b, sizeof(buf_b), &sb), sb.failed ? " + failed" : "");
		if (j.ci.valid && j.ci.coverage > 0)
			fprintf(md, " %s× [%s–%s] |", ratio_str(est, sizeof(est), j.ci.estimate),
				ratio_str(lo, sizeof(lo), j.ci.lo), ratio_str(hi, sizeof(hi), j.ci.hi));
		else if (j.ci.valid)
			fprintf(md, " %s× [no interval] |", ratio_str(est, sizeof(est), j.ci.estimate));
		else
			fprintf(md, " – |");
		if (isnan(j.p_max))
			fprintf(md, " – |");
		else
			fprintf(md, " %.3f |", j.p_max);
		if (j.fa || j.fb)
			fprintf(md, " %zu/%zu vs %zu/%zu (Fisher p = %.3f) |", j.fb, j.nb + j.fb, j.fa, j.na + j.fa,
				j.p_failed);
		else
			fprintf(md, " none |");
		fprintf(md, " %s |\n", j.verdict);

		o = json_object_new_object();
		json_object_object_add(o, "variant", json_object_new_string(variant));
		json_object_object_add(o, "workload", json_object_new_string(workload));
		json_object_object_add(o, "a", json_side(&sa));
		json_object_object_add(o, "b", json_side(&sb));
		json_object_object_add(o, "statistic", json_object_new_string("pass maximum"));
		json_object_object_add(o, "p_failed", json_double_or_null(j.p_failed));
		json_object_object_add(o, "ratio_b_over_a", j.ci.valid ? json_double_or_null(j.ci.estimate) : NULL);
		json_object_object_add(o, "ratio_ci95", json_interval(&j.ci));
		json_object_object_add(o, "ci_coverage", j.ci.valid ? json_object_new_double(j.ci.coverage) : NULL);
		json_object_object_add(o, "ratio_max", j.ci_max.valid ? json_double_or_null(j.ci_max.estimate) : NULL);
		json_object_object_add(o, "ratio_max_ci95", json_interval(&j.ci_max));
		json_object_object_add(o, "p_max", json_double_or_null(j.p_max));
		json_object_object_add(o, "verdict", json_object_new_string(j.verdict));
		json_object_object_add(o, "change", json_object_new_string(change_words[rows[compared - 1].kind]));
		json_object_array_add(jgroups, o);
	}
	/* Groups A measured that B did not. */
	for (i = 0; i < json_object_array_length(a.groups); i++) {
		json_object *g = json_object_array_get_idx(a.groups, i);
		const char *variant = json_str(g, "variant", ""), *workload = json_str(g, "workload", "");
		struct side s;
		char name[256];

		if (side_find(&a, variant, workload, &s) &&
		    !side_find(&b, variant_in_b(variant, pair_a, pair_b), workload, &s)) {
			snprintf(name, sizeof(name), "%s/%s", variant, workload);
			json_object_array_add(jonly_a, json_object_new_string(name));
		}
	}
	if (!compared)
		fprintf(md, "| – | – | – | – | – | – | – | no build and workload measured in both runs |\n");
	fputc('\n', md);
	if (json_object_array_length(jonly_a) || json_object_array_length(jonly_b)) {
		fprintf(md, "Measured in one run only:");
		for (i = 0; i < json_object_array_length(jonly_a); i++)
			fprintf(md, "%s A: %s", i ? "," : "", json_object_get_string(json_object_array_get_idx(jonly_a, i)));
		for (i = 0; i < json_object_array_length(jonly_b); i++)
			fprintf(md, "%s B: %s", i || json_object_array_length(jonly_a) ? "," : "",
				json_object_get_string(json_object_array_get_idx(jonly_b, i)));
		fprintf(md, ".\n");
	}
	output_close(md, out, "compare.md");

	json_object_object_add(jroot, "a", json_object_new_string(a.name));
	json_object_object_add(jroot, "b", json_object_new_string(b.name));
	json_object_object_add(jroot, "settings_a", json_object_get(a.settings));
	json_object_object_add(jroot, "settings_b", json_object_get(b.settings));
	json_object_object_add(jroot, "measurement_settings_differ", json_object_new_string(differ));
	json_object_object_add(jroot, "also_different", json_object_new_string(context));
	json_object_object_add(jroot, "groups", jgroups);
	json_object_object_add(jroot, "only_in_a", jonly_a);
	json_object_object_add(jroot, "only_in_b", jonly_b);
	json_object_object_add(jroot, "threshold_pct", json_object_new_double(threshold * 100));
	json_object_object_add(jroot, "same_run", json_object_new_boolean(same));
	md = output_open(out, "compare.json");
	fputs(json_object_to_json_string_ext(jroot, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE), md);
	fputc('\n', md);
	output_close(md, out, "compare.json");
	tap_write(out, rows, compared);
	rows_print(rows, compared, threshold);
	printf("%s/compare.md: %zu groups compared\n", out, compared);
	free(rows);
	json_object_put(jroot);
	json_object_put(a.root);
	json_object_put(b.root);
	return regressed ? EXIT_REGRESSED : EXIT_CLEAN;
}
