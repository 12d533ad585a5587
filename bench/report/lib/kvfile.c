// SPDX-License-Identifier: GPL-2.0
/*
 * kvfile.c - key=value files, see kvfile.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "kvfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kv_load(struct kvfile *kv, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	kv->pairs = NULL;
	kv->count = 0;
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *eq;
		struct kv_pair *grown;

		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq)
			continue;
		grown = realloc(kv->pairs, (kv->count + 1) * sizeof(*grown));
		if (!grown)
			goto nomem;
		kv->pairs = grown;
		*eq = '\0';
		kv->pairs[kv->count].key = strdup(line);
		kv->pairs[kv->count].value = strdup(eq + 1);
		if (!kv->pairs[kv->count].key || !kv->pairs[kv->count].value)
			goto nomem;
		kv->count++;
	}
	free(line);
	fclose(f);
	return 0;
nomem:
	free(line);
	fclose(f);
	kv_free(kv);
	errno = ENOMEM;
	return -1;
}

const char *kv_lookup(const struct kvfile *kv, const char *key)
{
	size_t i;

	for (i = kv->count; i-- > 0;)
		if (strcmp(kv->pairs[i].key, key) == 0)
			return kv->pairs[i].value;
	return NULL;
}

const char *kv_str(const struct kvfile *kv, const char *key, const char *fallback)
{
	const char *v = kv_lookup(kv, key);

	return v ? v : fallback;
}

void kv_free(struct kvfile *kv)
{
	size_t i;

	for (i = 0; i < kv->count; i++) {
		free(kv->pairs[i].key);
		free(kv->pairs[i].value);
	}
	free(kv->pairs);
	kv->pairs = NULL;
	kv->count = 0;
}
