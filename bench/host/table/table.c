// SPDX-License-Identifier: GPL-2.0
/*
 * locklat-table - print one field of each line of a '|'-separated data file
 * of kernels/ (kernels/modules/llcheck/scenarios, kernels/comparisons,
 * kernels/call-sites), so that the shell reads them with the one parser the
 * summary uses (lib/table.c) rather than one of its own.
 *
 * Usage and options: msg_opts[] below (--help).
 *
 * Lines without the field print nothing; comments and blank lines are
 * skipped. Exit: 0, 1 if FILE cannot be read, 2 bad usage.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "locklat.h"
#include "table.h"

#define MAX_FIELDS 16

enum option_values {
	OPT_FIELD = 1,
	OPT_HELP,
};

static const char *const msg_opts[] = {
	"usage: locklat-table [--field N] FILE",
	"",
	"  --field N   the field to print, from 1 (default 1: the name)",
	"  --help      this text",
	NULL,
};

static void usage(int status)
{
	usage_exit(msg_opts, status);
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "field", required_argument, NULL, OPT_FIELD },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	char *line = NULL, *fields[MAX_FIELDS];
	uint64_t field = 1;
	size_t cap = 0;
	FILE *f;
	int c;

	ll_prog = "locklat-table";
	while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_FIELD:
			if (!parse_u64(optarg, 1, MAX_FIELDS, &field))
				err_exit(LL_EXIT_USAGE, "--field wants 1-%d, got '%s'", MAX_FIELDS, optarg);
			break;
		case OPT_HELP:
			usage(LL_EXIT_OK);
			break;
		default:
			usage(LL_EXIT_USAGE);
		}
	}
	if (argc - optind != 1)
		usage(LL_EXIT_USAGE);
	f = fopen(argv[optind], "r");
	if (!f)
		err_exit_errno(LL_EXIT_FAIL, "read %s", argv[optind]);
	while (getline(&line, &cap, f) >= 0)
		if (table_fields(line, fields, MAX_FIELDS) >= field)
			printf("%s\n", fields[field - 1]);
	free(line);
	fclose(f);
	return LL_EXIT_OK;
}
