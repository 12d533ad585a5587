/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kvfile.h - read locklat's key=value files (manifest, meta, cell.conf).
 *
 * One pair per line, the key up to the first '=', the value the rest of the
 * line. Lines starting with '#' and blank lines are skipped. A later pair
 * with the same key wins, as in the shell's kv_get.
 */
#ifndef LOCKLAT_KVFILE_H
#define LOCKLAT_KVFILE_H

#include <stddef.h>

struct kv_pair {
	char *key;
	char *value;
};

struct kvfile {
	struct kv_pair *pairs;
	size_t count;
};

/* Load path into kv; returns 0, or -1 with errno set (the file is unread). */
int kv_load(struct kvfile *kv, const char *path);
/* The value of key, or NULL. */
const char *kv_lookup(const struct kvfile *kv, const char *key);
/* The value of key, or fallback. */
const char *kv_str(const struct kvfile *kv, const char *key, const char *fallback);
void kv_free(struct kvfile *kv);

#endif /* LOCKLAT_KVFILE_H */
