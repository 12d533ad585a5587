/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pages.h - what the zram workload wrote to each page, and whether a page
 * read back after swap-in still holds it.
 */
#ifndef LOCKLAT_ZRAM_PAGES_H
#define LOCKLAT_ZRAM_PAGES_H

#include <stddef.h>
#include <stdint.h>

#define PAGE_BYTES 4096UL

/* hash[i] = the hash of page i of mem (npages pages). */
void pages_hash(const char *mem, size_t npages, uint64_t *hash);

/*
 * Compare npages pages of mem with hash, from page *next on; stop at the
 * first page that differs. Returns that page's index (and its hash in
 * *got), or npages when every page matched. *next is where to go on: a
 * caller that counts every wrong page calls again from the returned index
 * plus one. Reading a page swaps it in: *next says how far the check got
 * if that faults.
 */
size_t pages_check(const char *mem, size_t npages, const uint64_t *hash, volatile size_t *next,
		   uint64_t *got);

#endif /* LOCKLAT_ZRAM_PAGES_H */
