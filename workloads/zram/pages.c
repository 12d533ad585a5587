// SPDX-License-Identifier: GPL-2.0
/*
 * pages.c - page hashes for the zram workload's swap-in check.
 */
#include "pages.h"

#include "workload.h"

void pages_hash(const char *mem, size_t npages, uint64_t *hash)
{
	size_t p;

	for (p = 0; p < npages; p++)
		hash[p] = wl_hash64(mem + p * PAGE_BYTES, PAGE_BYTES);
}

size_t pages_check(const char *mem, size_t npages, const uint64_t *hash, volatile size_t *next,
		   uint64_t *got)
{
	for (; *next < npages; (*next)++) {
		uint64_t h = wl_hash64(mem + *next * PAGE_BYTES, PAGE_BYTES);

		if (h != hash[*next]) {
			*got = h;
			return *next;
		}
	}
	return npages;
}
