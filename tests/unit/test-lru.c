// SPDX-License-Identifier: GPL-2.0
/*
 * test-lru - locklat-lru's /proc readers against real files: the buddyinfo
 * and meminfo of this project's build host (tests/fixtures/proc/, "-host") and
 * of a guest kernel of ours ("-guest", from a --command cell).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "procfs.h"
#include "tap.h"

#define FIXTURE "tests/fixtures/proc/"

int main(void)
{
	tap_plan(12);
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
	tap_exit();
}
