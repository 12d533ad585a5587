/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sums.h - the squashfs workload's data and its checksums.
 *
 * The generator writes N files of seeded text and, beside them, the file
 * SUMS_FILE: one FNV-1a 64 checksum per SUMS_CHUNK bytes of each file,
 * recorded when the image is built, so a reader in the guest can check
 * every chunk it decompressed.
 *
 *   # locklat-squashfs sums chunk=<bytes>
 *   <file name> <size> <chunk index> <fnv1a64 hex>
 */
#ifndef LOCKLAT_SQUASHFS_SUMS_H
#define LOCKLAT_SQUASHFS_SUMS_H

#include <stddef.h>
#include <stdint.h>

#define SUMS_FILE ".locklat-sums"
#define SUMS_CHUNK (1 << 20)

struct sums_file {
	char *name;
	uint64_t size;
	unsigned int nchunks;
	uint64_t *sums;		/* [nchunks] */
};

struct sums {
	struct sums_file *files;
	unsigned int count;
};

/*
 * Write files data-000.txt .. into dir (created if needed) and their
 * SUMS_FILE. Same seed, same bytes. 0, or -1 with errno set.
 */
int sums_generate(const char *dir, uint64_t files, uint64_t size, uint64_t seed);

/* Read dir/SUMS_FILE. 0, or -1 (errno set; a malformed file: EINVAL). */
int sums_load(struct sums *s, const char *dir);
void sums_free(struct sums *s);

/* The entry of a file by its name (no directory), or NULL. */
const struct sums_file *sums_find(const struct sums *s, const char *name);

/*
 * Check chunk index of file f, len bytes at data (len must be the chunk's
 * whole length: SUMS_CHUNK, or what is left at the end of the file).
 * Returns 0 if it matches, 1 if not (what names the mismatch, one line).
 */
int sums_check(const struct sums_file *f, unsigned int index, const void *data, size_t len,
	       char *what, size_t what_size);

#endif /* LOCKLAT_SQUASHFS_SUMS_H */
