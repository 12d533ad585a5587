// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - files written whole, and JSON numbers (output.h).
 */
#include "output.h"

#include <math.h>

#include "locklat.h"

int output_exit_status = LL_EXIT_FAIL;

FILE *output_open(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.tmp", dir, name);
	f = fopen(path, "w");
	if (!f)
		err_exit_errno(output_exit_status, "create %s", path);
	return f;
}

void output_close(FILE *f, const char *dir, const char *name)
{
	char tmp[4096], path[4096];

	snprintf(tmp, sizeof(tmp), "%s/%s.tmp", dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (fflush(f) || ferror(f) || fclose(f))
		err_exit_errno(output_exit_status, "write %s", tmp);
	if (rename(tmp, path))
		err_exit_errno(output_exit_status, "rename %s", tmp);
}

json_object *json_double_or_null(double x)
{
	return isnan(x) || isinf(x) ? NULL : json_object_new_double(x);
}

json_object *json_interval(const struct ratio_ci *ci)
{
	json_object *a;

	if (!ci->valid || ci->coverage <= 0)
		return NULL;
	a = json_object_new_array();
	json_object_array_add(a, json_double_or_null(ci->lo));
	json_object_array_add(a, json_double_or_null(ci->hi));
	return a;
}
