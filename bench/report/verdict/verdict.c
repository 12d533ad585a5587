// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-verdict - the status and reason of one cell, from its files, by
 * the rules the summary's loader shares (bench/report/summary/verdict.c):
 * bench/host/run-cell.sh asks when a cell ends and writes the answer to its
 * meta; with --resume, the passes a second boot runs after a first one the
 * host had to end. Usage and options: msg_opts[] below (--help).
 * Exit: 0 answered, 2 bad usage.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locklat.h"
#include "verdict.h"

enum option_values {
	OPT_DEADLINE = 1,
	OPT_HEARTBEAT,
	OPT_HELP,
	OPT_HUNG_GRACE,
	OPT_RESULTS_DISK_MIB,
	OPT_RESUME,
	OPT_SILENCE,
};

static const char *const msg_opts[] = {
	"usage: locklat-verdict [options] CELL_DIR",
	"       locklat-verdict --resume CELL_DIR",
	"",
	"  Prints status=S and reason=R (key=value lines) of the cell assembled in",
	"  CELL_DIR (results/README.md), worst first: TIMEOUT, INFRA, FINDINGS,",
	"  INVALID, OK.",
	"",
	"  --deadline S[,S2]      the wall seconds QEMU was given (a second boot's after",
	"                         the comma), for a deadline's reason",
	"  --silence S            the silence watchdog's wall seconds",
	"  --heartbeat S          the guest's heartbeat, guest seconds",
	"  --hung-grace S         seconds a guest that declared a step hung had to power off",
	"  --results-disk-mib N   the size of the results disk",
	"  --resume               instead: the passes a second boot runs, one line,",
	"                         empty when the first boot ended by itself",
	"  --help                 this text",
	NULL,
};

static void usage(int status)
{
	usage_exit(msg_opts, status);
}

static uint64_t seconds_arg(const char *opt, const char *s)
{
	uint64_t v;

	if (!parse_u64(s, 0, 1000000000, &v))
		err_exit(LL_EXIT_USAGE, "%s: '%s' is not a number of seconds", opt, s);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "deadline", required_argument, NULL, OPT_DEADLINE },
		{ "heartbeat", required_argument, NULL, OPT_HEARTBEAT },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "hung-grace", required_argument, NULL, OPT_HUNG_GRACE },
		{ "results-disk-mib", required_argument, NULL, OPT_RESULTS_DISK_MIB },
		{ "resume", no_argument, NULL, OPT_RESUME },
		{ "silence", required_argument, NULL, OPT_SILENCE },
		{ NULL, 0, NULL, 0 },
	};
	struct boot_limits lim = { { 0, 0 }, 0, 0, 30, 0 };
	bool resume = false;
	char *comma;
	int c;

	ll_prog = "locklat-verdict";
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_DEADLINE:
			comma = strchr(optarg, ',');
			if (comma) {
				*comma = '\0';
				lim.deadline_s[1] = seconds_arg("--deadline", comma + 1);
			}
			lim.deadline_s[0] = seconds_arg("--deadline", optarg);
			if (!comma)
				lim.deadline_s[1] = lim.deadline_s[0];
			break;
		case OPT_HEARTBEAT:
			lim.heartbeat_s = seconds_arg("--heartbeat", optarg);
			break;
		case OPT_HELP:
			usage(LL_EXIT_OK);
			break;
		case OPT_HUNG_GRACE:
			lim.hung_grace_s = seconds_arg("--hung-grace", optarg);
			break;
		case OPT_RESULTS_DISK_MIB:
			lim.results_disk_mib = seconds_arg("--results-disk-mib", optarg);
			break;
		case OPT_RESUME:
			resume = true;
			break;
		case OPT_SILENCE:
			lim.silence_s = seconds_arg("--silence", optarg);
			break;
		default:
			usage(LL_EXIT_USAGE);
		}
	}
	if (argc - optind != 1)
		usage(LL_EXIT_USAGE);
	if (resume) {
		char names[STEPS_MAX][STEP_NAME_MAX];
		unsigned int n = passes_to_resume(argv[optind], names, STEPS_MAX), i;

		for (i = 0; i < n; i++)
			printf("%s%s", i ? " " : "", names[i]);
		printf("\n");
	} else {
		struct verdict v;

		cell_verdict(&v, argv[optind], &lim);
		printf("status=%s\nreason=%s\n", v.status, v.reason);
	}
	return LL_EXIT_OK;
}
