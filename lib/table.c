// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - the one reader of locklat's '|'-separated data files
 * (kernels/call-sites, kernels/comparisons, the llcheck scenarios).
 */
#include <string.h>

#include "table.h"

/*
 * The '|'-separated fields of a line of one of our data files (comments,
 * also indented ones, and lines without '|' give 0), trimmed, into fields[0..max); the last field
 * keeps any further '|'. Returns how many were found.
 */
size_t table_fields(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line, *bar, *e;

	if (line[strspn(line, " \t")] == '#' || !strchr(line, '|'))
		return 0;
	line[strcspn(line, "\n")] = '\0';
	while (n < max) {
		bar = n + 1 < max ? strchr(p, '|') : NULL;
		if (bar)
			*bar = '\0';
		p += strspn(p, " \t");
		for (e = p + strlen(p); e > p && (e[-1] == ' ' || e[-1] == '\t'); e--)
			e[-1] = '\0';
		fields[n++] = p;
		if (!bar)
			break;
		p = bar + 1;
	}
	return n;
}
