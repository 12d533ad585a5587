// SPDX-License-Identifier: GPL-2.0
/*
 * idset.c - see idset.h.
 */
#include "idset.h"

#include <errno.h>
#include <stdlib.h>

static size_t home(const struct idset *s, int32_t id)
{
	uint64_t h = (uint64_t)(uint32_t)id * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & s->mask;
}

static int alloc_slots(struct idset *s, size_t slots)
{
	size_t i;

	s->slots = malloc(slots * sizeof(*s->slots));
	if (!s->slots)
		return -1;
	for (i = 0; i < slots; i++)
		s->slots[i] = IDSET_EMPTY;
	s->mask = slots - 1;
	s->n = 0;
	return 0;
}

int idset_init(struct idset *s, size_t max)
{
	size_t slots = 16;

	/* At most half full. */
	while (slots < 2 * max)
		slots *= 2;
	return alloc_slots(s, slots);
}

void idset_free(struct idset *s)
{
	free(s->slots);
	s->slots = NULL;
	s->mask = 0;
	s->n = 0;
}

/* The slot of id, or of the free slot where it would go. */
static size_t find(const struct idset *s, int32_t id)
{
	size_t i = home(s, id);

	while (s->slots[i] != IDSET_EMPTY && s->slots[i] != id)
		i = (i + 1) & s->mask;
	return i;
}

static int grow(struct idset *s)
{
	struct idset bigger;
	size_t i;

	if (alloc_slots(&bigger, 2 * (s->mask + 1)))
		return -1;
	for (i = 0; i <= s->mask; i++)
		if (s->slots[i] != IDSET_EMPTY) {
			bigger.slots[find(&bigger, s->slots[i])] = s->slots[i];
			bigger.n++;
		}
	free(s->slots);
	*s = bigger;
	return 0;
}

enum idset_result idset_add(struct idset *s, int32_t id)
{
	size_t i;

	if (id < 0)
		return IDSET_INVALID;
	i = find(s, id);
	if (s->slots[i] == id)
		return IDSET_DUPLICATE;
	if (2 * (s->n + 1) > s->mask + 1) {
		if (grow(s))
			return IDSET_INVALID;
		i = find(s, id);
	}
	s->slots[i] = id;
	s->n++;
	return IDSET_OK;
}

enum idset_result idset_remove(struct idset *s, int32_t id)
{
	size_t i, j;

	if (id < 0)
		return IDSET_INVALID;
	i = find(s, id);
	if (s->slots[i] != id)
		return IDSET_ABSENT;
	s->slots[i] = IDSET_EMPTY;
	s->n--;
	/*
	 * Backward shift: move up every id of the run after the hole that
	 * would no longer be found past it, so that no lookup stops short.
	 */
	for (j = (i + 1) & s->mask; s->slots[j] != IDSET_EMPTY; j = (j + 1) & s->mask) {
		size_t k = home(s, s->slots[j]);

		/* Stays if its home k lies cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		s->slots[i] = s->slots[j];
		s->slots[j] = IDSET_EMPTY;
		i = j;
	}
	return IDSET_OK;
}

bool idset_has(const struct idset *s, int32_t id)
{
	return id >= 0 && s->slots[find(s, id)] == id;
}

bool idset_gone_errno(int err)
{
	return err == EINVAL || err == EIDRM;
}
