// SPDX-License-Identifier: GPL-2.0
/*
 * sums.c - generate the squashfs workload's files with their checksums, and
 * check what a reader got back against them.
 */
#define _GNU_SOURCE
#include "sums.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "locklat.h"
#include "workload.h"

static int write_file(const char *path, uint64_t size, uint64_t seed, FILE *sums, const char *name,
		      char *buf)
{
	uint64_t done = 0, s = seed;
	unsigned int index = 0;
	FILE *out = fopen(path, "w");

	if (!out)
		return -1;
	while (done < size) {
		size_t n = size - done < SUMS_CHUNK ? (size_t)(size - done) : SUMS_CHUNK;

		wl_text_fill(buf, n, &s);
		if (fwrite(buf, 1, n, out) != n) {
			fclose(out);
			return -1;
		}
		fprintf(sums, "%s %llu %u %016llx\n", name, (unsigned long long)size, index++,
			(unsigned long long)wl_fnv1a(buf, n, WL_FNV_INIT));
		done += n;
	}
	return fclose(out) ? -1 : 0;
}

int sums_generate(const char *dir, uint64_t files, uint64_t size, uint64_t seed)
{
	char path[PATH_MAX], name[32];
	char *buf = malloc(SUMS_CHUNK);
	FILE *sums;
	uint64_t f;
	int ret = 0;

	if (!buf)
		return -1;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		free(buf);
		return -1;
	}
	path_join(path, sizeof(path), dir, SUMS_FILE);
	sums = fopen(path, "w");
	if (!sums) {
		free(buf);
		return -1;
	}
	fprintf(sums, "# locklat-squashfs sums chunk=%d\n", SUMS_CHUNK);
	for (f = 0; f < files && !ret; f++) {
		snprintf(name, sizeof(name), "data-%03llu.txt", (unsigned long long)f);
		path_join(path, sizeof(path), dir, name);
		ret = write_file(path, size, seed * 1000003ULL + f + 1, sums, name, buf);
	}
	if (fclose(sums))
		ret = -1;
	free(buf);
	return ret;
}

/* The entry for name, added if new. */
static struct sums_file *entry(struct sums *s, const char *name, uint64_t size)
{
	struct sums_file *f;
	unsigned int i;

	for (i = 0; i < s->count; i++)
		if (!strcmp(s->files[i].name, name))
			return s->files[i].size == size ? &s->files[i] : NULL;
	s->files = xrealloc(s->files, (s->count + 1) * sizeof(*s->files));
	f = &s->files[s->count++];
	f->name = xstrdup(name);
	f->size = size;
	f->nchunks = (unsigned int)((size + SUMS_CHUNK - 1) / SUMS_CHUNK);
	f->sums = calloc(f->nchunks ? f->nchunks : 1, sizeof(*f->sums));
	if (!f->sums)
		err_exit(LL_EXIT_FAIL, "out of memory");
	return f;
}

int sums_load(struct sums *s, const char *dir)
{
	char path[PATH_MAX], line[512], name[256];
	unsigned long long size, sum;
	unsigned int index, chunk = 0;
	FILE *in;
	int bad = 0;

	memset(s, 0, sizeof(*s));
	path_join(path, sizeof(path), dir, SUMS_FILE);
	in = fopen(path, "r");
	if (!in)
		return -1;
	if (!fgets(line, sizeof(line), in) ||
	    sscanf(line, "# locklat-squashfs sums chunk=%u", &chunk) != 1 || chunk != SUMS_CHUNK)
		bad = 1;
	while (!bad && fgets(line, sizeof(line), in)) {
		struct sums_file *f;

		if (sscanf(line, "%255s %llu %u %llx", name, &size, &index, &sum) != 4) {
			bad = 1;
			break;
		}
		f = entry(s, name, size);
		if (!f || index >= f->nchunks) {
			bad = 1;
			break;
		}
		f->sums[index] = sum;
	}
	fclose(in);
	if (bad || !s->count) {
		sums_free(s);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

void sums_free(struct sums *s)
{
	unsigned int i;

	for (i = 0; i < s->count; i++) {
		free(s->files[i].name);
		free(s->files[i].sums);
	}
	free(s->files);
	memset(s, 0, sizeof(*s));
}

const struct sums_file *sums_find(const struct sums *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->count; i++)
		if (!strcmp(s->files[i].name, name))
			return &s->files[i];
	return NULL;
}

int sums_check(const struct sums_file *f, unsigned int index, const void *data, size_t len,
	       char *what, size_t what_size)
{
	uint64_t want_len, got;

	if (index >= f->nchunks) {
		snprintf(what, what_size, "%s: chunk %u past the file's %u", f->name, index, f->nchunks);
		return 1;
	}
	want_len = f->size - (uint64_t)index * SUMS_CHUNK;
	if (want_len > SUMS_CHUNK)
		want_len = SUMS_CHUNK;
	if (len != want_len) {
		snprintf(what, what_size, "%s chunk %u: %zu bytes, want %llu", f->name, index, len,
			 (unsigned long long)want_len);
		return 1;
	}
	got = wl_fnv1a(data, len, WL_FNV_INIT);
	if (got != f->sums[index]) {
		snprintf(what, what_size, "%s chunk %u: fnv1a %016llx, want %016llx", f->name, index,
			 (unsigned long long)got, (unsigned long long)f->sums[index]);
		return 1;
	}
	return 0;
}
