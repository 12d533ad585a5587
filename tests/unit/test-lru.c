// SPDX-License-Identifier: GPL-2.0
/*
 * test-lru - locklat-lru's /proc readers against real files: the buddyinfo
 * and meminfo of this project's build host (tests/fixtures/proc/, "-host") and
 * of a guest kernel of ours ("-guest", from a --command cell); and its data
 * checks (verify.c): a page's pattern passes, a flipped byte, another
 * page's content or a zero page is caught (zeros pass where MADV_FREE allows
 * them); LRU counters of a real guest pass, a wrapped one or ones that add
 * up to more than the memory are caught.
 */
#define _GNU_SOURCE	/* mkstemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfs.h"
#include "tap.h"
#include "verify.h"

#define FIXTURE "tests/fixtures/proc/"
#define PAGE 4096

/* A vmstat file with these LRU counters (and other lines around them); its path. */
static const char *vmstat_write(char *path, size_t size, const uint64_t pages[LRU_COUNTERS])
{
	FILE *f;
	int fd, i;

	snprintf(path, size, "%s/test-lru-vmstat.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		return NULL;
	fprintf(f, "nr_free_pages 31337\nnr_zone_inactive_anon 5\n");
	for (i = 0; i < LRU_COUNTERS; i++)
		fprintf(f, "%s %llu\n", lru_counter_names[i], (unsigned long long)pages[i]);
	fprintf(f, "nr_slab_reclaimable 2741\npgpgin 1000\n");
	fclose(f);
	return path;
}

/* Whether the counters of a vmstat file with these values are sane; why into why. */
static int counters_sane(const uint64_t pages[LRU_COUNTERS], uint64_t memtotal, char *why, size_t size)
{
	struct lru_counters c;
	char path[4096];
	int sane;

	why[0] = '\0';
	if (!vmstat_write(path, sizeof(path), pages) || lru_counters_read(path, &c))
		return -1;
	unlink(path);
	sane = lru_counters_sane(&c, memtotal, 16, why, size);
	if (why[0])
		printf("# %s\n", why);
	return sane;
}

/* What the error message says of a page that failed, and that it reads the page again. */
static void explain_checks(void)
{
	static uint64_t page[PAGE / 8];
	static uint64_t written[PAGE / 8];
	uint64_t seed = lru_page_key(7, 3), key = lru_page_key(seed, 10), got = 0;
	char how[200], want[200];
	long bad;

	lru_page_fill(written, PAGE, key);
	lru_page_fill(page, PAGE, key);
	page[248] = 0x1234;
	bad = lru_page_check(page, PAGE, key, true, &got);
	is_u64(got, 0x1234, "the word that differs, as read");
	page[248] = 0x5678;
	lru_page_explain(page, PAGE, key, true, bad, seed, 64, got, how, sizeof(how));
	snprintf(want, sizeof(want), "read 0x1234, wrote %#llx, now 0x5678; 1 of 512 words differ, 0 of them zero",
		 (unsigned long long)written[248]);
	is_str(how, want, "one word written over: what was read, what was written, what is there now");
	memset(page + 248, 0, PAGE - 248 * 8);
	bad = lru_page_check(page, PAGE, key, true, &got);
	lru_page_explain(page, PAGE, key, true, bad, seed, 64, got, how, sizeof(how));
	ok(bad == 248 * 8 && strstr(how, "264 of 512 words differ, 264 of them zero"),
	   "a page as written up to a word, zeros after: counted as zeros (%s)", how);
	lru_page_fill(page, PAGE, lru_page_key(seed, 42));
	bad = lru_page_check(page, PAGE, key, true, &got);
	lru_page_explain(page, PAGE, key, true, bad, seed, 64, got, how, sizeof(how));
	ok(bad == 0 && strstr(how, "512 of 512 words differ") && strstr(how, "; read is page 42's"),
	   "another page of the same writes: named (%s)", how);
	memset(page, 0, PAGE);
	page[3] = 9;
	bad = lru_page_check(page, PAGE, key, true, &got);
	lru_page_explain(page, PAGE, key, true, bad, seed, 64, got, how, sizeof(how));
	is_str(how, "read 0x9, wrote 0, now 0x9; 1 of 512 words differ, 0 of them zero",
	       "a dropped page with one word that is not zero: 0 was what it should hold");
}

static void page_checks(void)
{
	static uint64_t page[PAGE / 8], zeros[PAGE / 8];
	uint64_t key = lru_page_key(3, 17);
	unsigned char *b = (unsigned char *)page;

	ok(key && key != lru_page_key(3, 18) && key != lru_page_key(4, 17),
	   "page keys: never 0, another page or another cycle another key");
	lru_page_fill(page, PAGE, key);
	is_u64(lru_page_check(page, PAGE, key, false, NULL), (uint64_t)-1, "a page as written passes");
	is_u64(lru_page_check(page, PAGE, key, true, NULL), (uint64_t)-1, "and where zeros would pass too");
	b[0] ^= 0x01;
	is_u64(lru_page_check(page, PAGE, key, false, NULL), 0, "a bit flipped in the first byte: caught at offset 0");
	b[0] ^= 0x01;
	b[2053] ^= 0x80;
	is_u64(lru_page_check(page, PAGE, key, false, NULL), 2048, "a bit flipped in byte 2053: caught in the word at 2048");
	b[2053] ^= 0x80;
	b[PAGE - 1] = (unsigned char)~b[PAGE - 1];
	is_u64(lru_page_check(page, PAGE, key, true, NULL), PAGE - 8, "the last byte changed: caught, even where zeros pass");
	b[PAGE - 1] = (unsigned char)~b[PAGE - 1];
	is_u64(lru_page_check(page, PAGE, lru_page_key(3, 16), false, NULL), 0, "another page's content: caught");
	is_u64(lru_page_check(page, PAGE, lru_page_key(2, 17), false, NULL), 0, "the page of another cycle: caught");
	is_u64(lru_page_check(zeros, PAGE, key, false, NULL), 0, "a zero page where the data must be: caught");
	is_u64(lru_page_check(zeros, PAGE, key, true, NULL), (uint64_t)-1, "a zero page after MADV_FREE: passes");
	memset(b + PAGE / 2, 0, PAGE / 2);
	is_u64(lru_page_check(page, PAGE, key, true, NULL), PAGE / 2, "half data, half zeros after MADV_FREE: caught");
	memset(page, 0, sizeof(page));
	page[100] = 1;
	is_u64(lru_page_check(page, PAGE, key, true, NULL), 800, "zeros but one word after MADV_FREE: caught");
	explain_checks();
}

static void counter_checks(void)
{
	/* A guest of ours after a run: 499056 kB of MemTotal. */
	uint64_t memtotal = meminfo_kib(FIXTURE "meminfo-guest", "MemTotal") / 4;
	uint64_t good[LRU_COUNTERS] = { 2011, 1534, 9120, 4460, 0 };
	uint64_t bad[LRU_COUNTERS];
	struct lru_counters c;
	char why[256], path[4096];

	is_u64(memtotal, 124764, "guest MemTotal in pages");
	ok(vmstat_write(path, sizeof(path), good) && !lru_counters_read(path, &c), "a vmstat file is read");
	unlink(path);
	ok(c.found[LRU_INACTIVE_ANON] && c.pages[LRU_INACTIVE_ANON] == 2011 && c.found[LRU_UNEVICTABLE] &&
	   c.pages[LRU_ACTIVE_FILE] == 4460, "the five LRU counters, not the zone ones of the same name");
	is_u64(counters_sane(good, memtotal, why, sizeof(why)), 1, "a guest's counters are sane");
	memcpy(bad, good, sizeof(bad));
	bad[LRU_ACTIVE_ANON] = (uint64_t)-3;
	ok(counters_sane(bad, memtotal, why, sizeof(why)) == 0 && strstr(why, "nr_active_anon") && strstr(why, "wrapped"),
	   "a counter wrapped below zero: caught, and named");
	memcpy(bad, good, sizeof(bad));
	bad[LRU_UNEVICTABLE] = memtotal + 17;
	is_u64(counters_sane(bad, memtotal, why, sizeof(why)), 0, "one counter above the memory: caught");
	bad[LRU_UNEVICTABLE] = memtotal + 16;
	is_u64(counters_sane(bad, memtotal, why, sizeof(why)), 0, "within the slack alone, but the sum above: caught");
	memcpy(bad, good, sizeof(bad));
	bad[LRU_INACTIVE_FILE] = bad[LRU_ACTIVE_FILE] = memtotal / 2 + 100;
	is_u64(counters_sane(bad, memtotal, why, sizeof(why)), 0, "each possible, together more than the memory: caught");
	ok(lru_counters_read(FIXTURE "no-such-file", &c) < 0 && !c.found[LRU_ACTIVE_ANON],
	   "an unreadable vmstat: nothing found, no check");
}

int main(void)
{
	tap_plan(12 + 12 + 5 + 9);
	/* DMA 1+2*3, DMA32 3+2*751, Normal 207+2*400 */
	is_u64(buddy_free_blocks(FIXTURE "buddyinfo-host", 9), 7 + 1505 + 1007, "host: free order-9 blocks, order 10 counting twice");
	is_u64(buddy_free_blocks(FIXTURE "buddyinfo-host", 10), 3 + 751 + 400, "host: free order-10 blocks");
	is_u64(buddy_free_blocks(FIXTURE "buddyinfo-host", 11), 0, "host: nothing above MAX_PAGE_ORDER");
	is_u64(buddy_free_blocks(FIXTURE "buddyinfo-guest", 9), 2 + 2 * 103, "guest: free order-9 blocks (one zone, DMA32)");
	is_u64(meminfo_kib(FIXTURE "meminfo-host", "MemFree"), 22149356, "host: MemFree");
	is_u64(meminfo_kib(FIXTURE "meminfo-host", "Mem"), 0, "a key is a whole name, not a prefix");
	is_u64(meminfo_kib(FIXTURE "meminfo-host", "Hugepagesize"), 2048, "host: Hugepagesize");
	is_u64(meminfo_kib(FIXTURE "meminfo-guest", "MemTotal"), 499056, "guest: MemTotal, the first line");
	is_u64(meminfo_kib(FIXTURE "meminfo-guest", "Hugepagesize"), 2048, "guest: Hugepagesize, after lines without a unit");
	is_u64(meminfo_kib(FIXTURE "meminfo-host", "NoSuchKey"), 0, "an absent key is 0");
	is_u64(meminfo_kib(FIXTURE "no-such-file", "MemFree"), 0, "an unreadable meminfo gives 0");
	is_u64(buddy_free_blocks(FIXTURE "no-such-file", 9), 0, "an unreadable buddyinfo gives 0");
	page_checks();
	counter_checks();
	tap_exit();
}
