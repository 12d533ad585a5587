/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procfs.h - the /proc/meminfo and /proc/buddyinfo readers of locklat-lru,
 * apart so that they can be tested against real files (tests/unit/test-lru.c).
 * Both return 0 for a file that cannot be read.
 */
#ifndef LOCKLAT_LRU_PROCFS_H
#define LOCKLAT_LRU_PROCFS_H

#include <stdint.h>

/* The value (kB) of the meminfo line "key:", or 0 if there is none. */
uint64_t meminfo_kib(const char *meminfo_path, const char *key);

/*
 * Free blocks of at least the given order, in units of that order, over every
 * zone of a buddyinfo file ("Node 0, zone DMA32 n0 n1 ... n10").
 */
uint64_t buddy_free_blocks(const char *buddyinfo_path, unsigned int order);

#endif /* LOCKLAT_LRU_PROCFS_H */
