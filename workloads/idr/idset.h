/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idset.h - a set of the kernel ids (pids, SysV IPC ids, inotify watch
 * descriptors) locklat-idr holds at one time, and the checks it makes on
 * them; apart from the workload so that tests/unit/test-idr.c can feed it
 * right and wrong ids. Not thread-safe: the caller locks.
 *
 * An idr hands out each id once until it is freed: an id the kernel returns
 * while the set still holds it is one idr gave twice (corruption of the
 * tree, e.g. a preloaded node used by two allocations).
 */
#ifndef LOCKLAT_IDR_IDSET_H
#define LOCKLAT_IDR_IDSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct idset {
	int32_t *slots;		/* open addressing, linear probing; IDSET_EMPTY: free */
	size_t mask;		/* slots - 1, a power of two minus one */
	size_t n;		/* ids held */
};

#define IDSET_EMPTY (-1)

/* An empty set with room for max ids before it grows. 0, or -1 (no memory). */
int idset_init(struct idset *s, size_t max);
void idset_free(struct idset *s);

enum idset_result {
	IDSET_OK,		/* added / removed */
	IDSET_DUPLICATE,	/* add: the id is held already */
	IDSET_ABSENT,		/* remove: the id is not held */
	IDSET_INVALID,		/* a negative id, or no memory to grow */
};

enum idset_result idset_add(struct idset *s, int32_t id);
enum idset_result idset_remove(struct idset *s, int32_t id);
bool idset_has(const struct idset *s, int32_t id);

/*
 * Whether the errno of a lookup of an id just freed (msgctl(IPC_STAT) after
 * IPC_RMID, a second inotify_rm_watch()) says the id is gone: EINVAL, or
 * EIDRM for SysV IPC. Any other outcome, success above all, means the
 * kernel still finds the id it freed.
 */
bool idset_gone_errno(int err);

#endif /* LOCKLAT_IDR_IDSET_H */
