// SPDX-License-Identifier: GPL-2.0
/*
 * test-idr - locklat-idr's set of live ids (workloads/idr/idset.c): ids the
 * kernel hands out in sequence pass, a duplicate among the live ones is
 * caught, a freed one can be handed out again, the set stays right through
 * many adds and removes (checked against a plain array) and across its
 * growth; and the lookup of a freed id counts as gone only with EINVAL or
 * EIDRM.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "idset.h"
#include "tap.h"

/* The set against a bitmap of ids 0..RANGE-1 over n random adds and removes: mismatches. */
#define RANGE 2048
static unsigned int churn(struct idset *s, unsigned int n, uint64_t seed)
{
	static unsigned char held[RANGE];
	static unsigned int count;	/* ids held, from call to call */
	unsigned int i, bad = 0;
	int32_t id;

	for (i = 0; i < n; i++) {
		enum idset_result r;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		id = (int32_t)((seed >> 33) % RANGE);
		if ((seed >> 20) & 1) {
			r = idset_add(s, id);
			bad += r != (held[id] ? IDSET_DUPLICATE : IDSET_OK);
			count += !held[id];
			held[id] = 1;
		} else {
			r = idset_remove(s, id);
			bad += r != (held[id] ? IDSET_OK : IDSET_ABSENT);
			count -= held[id];
			held[id] = 0;
		}
	}
	for (id = 0; id < RANGE; id++)
		bad += idset_has(s, id) != !!held[id];
	bad += s->n != count;
	return bad;
}

int main(void)
{
	struct idset s;
	unsigned int dups = 0;
	int32_t id;

	tap_plan(17);

	ok(!idset_init(&s, 4), "a set for 4 live ids");
	/* Cyclic allocation, like pids and inotify watch descriptors: each new. */
	for (id = 300; id < 304; id++)
		dups += idset_add(&s, id) != IDSET_OK;
	is_u64(dups, 0, "four ids handed out in sequence: all new");
	is_u64(idset_add(&s, 302), IDSET_DUPLICATE, "an id handed out again while live is caught");
	is_u64(s.n, 4, "the duplicate is not added");
	is_u64(idset_remove(&s, 302), IDSET_OK, "the id freed leaves the set");
	ok(!idset_has(&s, 302) && idset_has(&s, 301) && idset_has(&s, 303),
	   "only the freed id left; its neighbours are still found");
	is_u64(idset_add(&s, 302), IDSET_OK, "an id freed may be handed out again");
	is_u64(idset_remove(&s, 999), IDSET_ABSENT, "an id never held cannot be removed");
	is_u64(idset_add(&s, -1), IDSET_INVALID, "a negative id (a failed call) is refused");
	is_u64(idset_add(&s, 0), IDSET_OK, "id 0 (the first SysV IPC id) is an id");
	idset_free(&s);

	ok(!idset_init(&s, 1), "a set for one id");
	is_u64(churn(&s, 200000, 42), 0, "200000 random adds and removes of 2048 ids, growing from one: the set is the reference");
	is_u64(churn(&s, 200000, 7), 0, "and 200000 more, from the set as it stands");
	idset_free(&s);

	/* A SysV IPC id: (seq << 15) + index, all of them in one sequence; one repeats. */
	ok(!idset_init(&s, 64), "a set for 64 message queue ids");
	dups = 0;
	for (id = 0; id < 64; id++) {
		int32_t n = id == 40 ? 39 : id;	/* the 41st is the 40th again */

		dups += idset_add(&s, (n / 8 << 15) + n % 8) == IDSET_DUPLICATE;
	}
	is_u64(dups, 1, "one id handed out twice in 64: exactly one duplicate");
	idset_free(&s);

	ok(idset_gone_errno(EINVAL) && idset_gone_errno(EIDRM),
	   "a freed id looked up: EINVAL or EIDRM is gone");
	ok(!idset_gone_errno(0) && !idset_gone_errno(EPERM) && !idset_gone_errno(EACCES),
	   "success or another error means the freed id is still found: caught");
	tap_exit();
}
