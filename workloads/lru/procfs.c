// SPDX-License-Identifier: GPL-2.0
/*
 * procfs.c - see procfs.h.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"

uint64_t meminfo_kib(const char *meminfo_path, const char *key)
{
	FILE *f = fopen(meminfo_path, "r");
	char name[64];
	unsigned long long v, found = 0;
	size_t len = strlen(key);

	if (!f)
		return 0;
	/* "Name:   value kB", the unit absent on some lines. */
	while (fscanf(f, "%63s %llu%*[^\n]", name, &v) == 2)
		if (!strncmp(name, key, len) && name[len] == ':' && !name[len + 1])
			found = v;
	fclose(f);
	return found;
}

uint64_t buddy_free_blocks(const char *buddyinfo_path, unsigned int order)
{
	FILE *f = fopen(buddyinfo_path, "r");
	char line[512];
	uint64_t blocks = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "zone"), *end;
		unsigned int o;

		if (!p)
			continue;
		p += strlen("zone");
		p += strspn(p, " ");
		p += strcspn(p, " ");	/* the zone's name */
		for (o = 0;; o++, p = end) {
			unsigned long long n = strtoull(p, &end, 10);

			if (end == p)
				break;
			if (o >= order && o - order < 32)
				blocks += (uint64_t)n << (o - order);
		}
	}
	fclose(f);
	return blocks;
}
