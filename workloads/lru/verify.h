/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify.h - locklat-lru's data checks, apart from the workload so that
 * tests/unit/test-lru.c can feed them right and corrupted data: the pattern
 * every page it writes holds (anonymous and tmpfs), and the sanity of the
 * kernel's LRU page counters.
 */
#ifndef LOCKLAT_LRU_VERIFY_H
#define LOCKLAT_LRU_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The key of one page: a mix of what identifies it (e.g. the task and
 * cycle in seed, its place in index). Never 0, and different keys give
 * different contents in every word.
 */
uint64_t lru_page_key(uint64_t seed, uint64_t index);

/* Fill size bytes (a multiple of 8) with key's pattern: word i = key + i * odd. */
void lru_page_fill(void *page, size_t size, uint64_t key);

/*
 * Check a page against key's pattern: -1 if it holds it, else the byte
 * offset of the first 8-byte word that differs, and that word as read into
 * *got (when got is not NULL). With zero_ok, a page of zeros passes too
 * (MADV_FREE: reclaim may have dropped it, and a fault then maps a zero
 * page; anything else is corruption).
 */
long lru_page_check(const void *page, size_t size, uint64_t key, bool zero_ok, uint64_t *got);

/*
 * What a page that failed lru_page_check holds, for the error message
 * (what differs says how: a word written over, a page being cleared,
 * another page's content): into buf, "read G, wrote W, now N; D of M words
 * differ, Z of them zero", where G is the word at offset bad as
 * lru_page_check read it (got), W what it should hold (0 in a page that
 * reclaim dropped: its first word 0, zero_ok), N what it holds when read
 * again, and D the page's words that differ from what they should hold.
 * Then, when G is the word that page q of the pages written with seed holds
 * at that offset, "; read is page q's" (the first such q below pages).
 */
void lru_page_explain(const void *page, size_t size, uint64_t key, bool zero_ok, long bad,
		      uint64_t seed, size_t pages, uint64_t got, char *buf, size_t n);

/* The LRU counters of /proc/vmstat that the checks read. */
enum lru_counter {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,
	LRU_COUNTERS,
};

extern const char *const lru_counter_names[LRU_COUNTERS];

struct lru_counters {
	uint64_t pages[LRU_COUNTERS];
	bool found[LRU_COUNTERS];
};

/* Read the counters from a vmstat file: 0, or -1 if it cannot be read. */
int lru_counters_read(const char *vmstat_path, struct lru_counters *c);

/*
 * Whether the counters are possible on a machine of memtotal_pages: each,
 * and their sum, at most memtotal_pages + slack (the per-CPU deltas not yet
 * folded into the global counters). A folio a per-CPU batch lost or added
 * twice unbalances the counter its LRU list moves; one that goes below zero
 * wraps (where the kernel does not clamp it) to near 2^64. Returns true if
 * sane; else false, with the reason in why.
 */
bool lru_counters_sane(const struct lru_counters *c, uint64_t memtotal_pages, uint64_t slack,
		       char *why, size_t size);

#endif /* LOCKLAT_LRU_VERIFY_H */
