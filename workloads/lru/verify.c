// SPDX-License-Identifier: GPL-2.0
/*
 * verify.c - see verify.h.
 */
#define _GNU_SOURCE
#include "verify.h"

#include <stdio.h>
#include <string.h>

/* An odd step: key + i * STEP never repeats within 2^64 words. */
#define STEP 0x9e3779b97f4a7c15ULL

/* Word i of a page written with key (lru_page_fill). */
static uint64_t pattern_word(uint64_t key, size_t i)
{
	return key + i * STEP;
}

uint64_t lru_page_key(uint64_t seed, uint64_t index)
{
	/* splitmix64's finaliser over both. */
	uint64_t z = seed * 0xbf58476d1ce4e5b9ULL + index * STEP + 0x632be59bd9b4e019ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z | 1;
}

void lru_page_fill(void *page, size_t size, uint64_t key)
{
	unsigned char *p = page;
	size_t i;

	for (i = 0; i + 8 <= size; i += 8) {
		uint64_t w = pattern_word(key, i / 8);

		memcpy(p + i, &w, 8);
	}
}

long lru_page_check(const void *page, size_t size, uint64_t key, bool zero_ok, uint64_t *got)
{
	const unsigned char *p = page;
	uint64_t w = 0;
	size_t i;

	for (i = 0; i + 8 <= size; i += 8) {
		memcpy(&w, p + i, 8);
		if (w != pattern_word(key, i / 8))
			break;
	}
	if (i + 8 > size)
		return -1;
	if (zero_ok && i == 0) {
		for (; i + 8 <= size; i += 8) {
			memcpy(&w, p + i, 8);
			if (w)
				break;
		}
		if (i + 8 > size)
			return -1;
	}
	if (got)
		*got = w;
	return (long)i;
}

void lru_page_explain(const void *page, size_t size, uint64_t key, bool zero_ok, long bad,
		      uint64_t seed, size_t pages, uint64_t got, char *buf, size_t n)
{
	const unsigned char *p = page;
	uint64_t first, now = 0, want;
	size_t i, j, word = (size_t)bad / 8, wrong = 0, zero = 0;
	bool dropped;
	int len;

	memcpy(&first, p, 8);
	dropped = zero_ok && first == 0;
	for (i = 0; i + 8 <= size; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		if (i / 8 == word)
			now = w;
		if (w == (dropped ? 0 : pattern_word(key, i / 8)))
			continue;
		wrong++;
		zero += !w;
	}
	want = dropped ? 0 : pattern_word(key, word);
	len = snprintf(buf, n, "read %#llx, wrote %#llx, now %#llx; %zu of %zu words differ, %zu of them zero",
		       (unsigned long long)got, (unsigned long long)want, (unsigned long long)now,
		       wrong, size / 8, zero);
	for (j = 0; j < pages && len >= 0 && (size_t)len < n; j++) {
		if (got == pattern_word(lru_page_key(seed, j), word)) {
			snprintf(buf + len, n - (size_t)len, "; read is page %zu's", j);
			break;
		}
	}
}

const char *const lru_counter_names[LRU_COUNTERS] = {
	[LRU_INACTIVE_ANON] = "nr_inactive_anon",
	[LRU_ACTIVE_ANON] = "nr_active_anon",
	[LRU_INACTIVE_FILE] = "nr_inactive_file",
	[LRU_ACTIVE_FILE] = "nr_active_file",
	[LRU_UNEVICTABLE] = "nr_unevictable",
};

int lru_counters_read(const char *vmstat_path, struct lru_counters *c)
{
	FILE *f = fopen(vmstat_path, "r");
	char key[64];
	unsigned long long v;
	int i;

	memset(c, 0, sizeof(*c));
	if (!f)
		return -1;
	while (fscanf(f, "%63s %llu", key, &v) == 2)
		for (i = 0; i < LRU_COUNTERS; i++)
			if (!strcmp(key, lru_counter_names[i])) {
				c->pages[i] = v;
				c->found[i] = true;
			}
	fclose(f);
	return 0;
}

bool lru_counters_sane(const struct lru_counters *c, uint64_t memtotal_pages, uint64_t slack,
		       char *why, size_t size)
{
	uint64_t limit = memtotal_pages + slack, sum = 0;
	int i;

	for (i = 0; i < LRU_COUNTERS; i++) {
		if (!c->found[i])
			continue;
		if (c->pages[i] > limit) {
			snprintf(why, size, "%s=%llu pages, more than the %llu pages of memory (MemTotal)%s",
				 lru_counter_names[i], (unsigned long long)c->pages[i],
				 (unsigned long long)memtotal_pages,
				 c->pages[i] > UINT64_MAX / 2 ? ": wrapped below zero" : "");
			return false;
		}
		sum += c->pages[i];
	}
	if (sum > limit) {
		snprintf(why, size, "the LRU lists hold %llu pages, more than the %llu pages of memory (MemTotal)",
			 (unsigned long long)sum, (unsigned long long)memtotal_pages);
		return false;
	}
	return true;
}
