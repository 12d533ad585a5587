// SPDX-License-Identifier: GPL-2.0
/*
 * test-integrity - the workloads' data checks fed good and corrupted data:
 * the shared count and its locklat-integrity line (workloads/lib), the
 * squashfs files' checksums (workloads/squashfs/sums.c) and the zram pages'
 * hashes (workloads/zram/pages.c). Every corruption must be caught.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locklat.h"
#include "pages.h"
#include "readers.h"
#include "sums.h"
#include "tap.h"
#include "workload.h"

static void test_count(void)
{
	char line[512];

	wl_integrity_reset();
	wl_integrity_checked(10);
	wl_integrity_format(line, sizeof(line), "w");
	is_str(line, "locklat-integrity workload=w checked=10 errors=0", "clean: no first=");
	wl_integrity_error("chunk %d wrong\nsecond line", 3);
	wl_integrity_error("chunk %d wrong", 4);
	wl_integrity_format(line, sizeof(line), "w");
	is_str(line, "locklat-integrity workload=w checked=12 errors=2 first=chunk 3 wrong second line",
	       "errors counted, the first kept on one line");
	is_u64(wl_integrity_errors(), 2, "wl_integrity_errors");
	wl_integrity_reset();
}

static void test_pace(void)
{
	char line[128];

	wl_pace_reset();
	wl_pace_format(line, sizeof(line));
	is_str(line, "fifo_op_max_us=0 fifo_busy_pct=0", "pace: nothing counted yet");
	wl_pace_account(50000000, 150000000);
	wl_pace_account(90000000, 90000000);
	wl_pace_format(line, sizeof(line));
	is_str(line, "fifo_op_max_us=90000 fifo_busy_pct=36",
	       "pace: the longest operation, and 140 ms busy of 380 ms");
	wl_pace_account(1000, 0);
	wl_pace_format(line, sizeof(line));
	is_str(line, "fifo_op_max_us=90000 fifo_busy_pct=36", "pace: a shorter one leaves the longest");
	wl_pace_reset();
}

/* The readers of a CPU never share a file; each reads all of its own. */
static void test_reader_files(void)
{
	unsigned int cpu, t, k, seen[2][8] = { { 0 } }, shared = 0, missed = 0, wrong = 0;

	for (cpu = 0; cpu < 2; cpu++)
		for (t = 0; t < 3; t++)
			for (k = 0; k < 24; k++) {
				unsigned int f = reader_file(t, 3, cpu, k, 8);

				if (f >= 8 || f % 3 != t)
					wrong++;
				else if (seen[cpu][f] && seen[cpu][f] != t + 1)
					shared++;
				else
					seen[cpu][f] = t + 1;
			}
	for (cpu = 0; cpu < 2; cpu++)
		for (k = 0; k < 8; k++)
			missed += !seen[cpu][k];
	is_u64(wrong, 0, "readers: 3 tasks, 8 files: a task's files are its index modulo 3");
	is_u64(shared, 0, "readers: no file read by two tasks of one CPU");
	is_u64(missed, 0, "readers: every file read on each CPU");
	is_u64(reader_file(0, 2, 1, 0, 8), 2, "readers: CPU 1's first task starts at its second file");
}

static void test_hashes(void)
{
	char a[64] = "local_lock", b[64] = "local_lock";

	is_u64(wl_fnv1a("", 0, WL_FNV_INIT), 0xcbf29ce484222325ULL, "FNV-1a of nothing is its basis");
	is_u64(wl_fnv1a("a", 1, WL_FNV_INIT), 0xaf63dc4c8601ec8cULL, "FNV-1a of \"a\" (published vector)");
	ok(wl_hash64(a, sizeof(a)) == wl_hash64(b, sizeof(b)), "hash64: same bytes, same hash");
	b[63] ^= 1;
	ok(wl_hash64(a, sizeof(a)) != wl_hash64(b, sizeof(b)), "hash64: the last bit flipped changes it");
}

static void test_sums(void)
{
	char dir[] = "/tmp/locklat-test-sums.XXXXXX", path[256], what[256];
	const struct sums_file *f;
	struct sums s;
	char *buf = malloc(SUMS_CHUNK);
	FILE *in;
	size_t n;

	ok(buf && mkdtemp(dir), "scratch folder");
	/* 2 files of 1.5 chunks: a whole chunk and a short last one each. */
	ok(sums_generate(dir, 2, SUMS_CHUNK + SUMS_CHUNK / 2, 7) == 0, "generate files and sums");
	ok(sums_load(&s, dir) == 0 && s.count == 2, "load the sums of 2 files");
	f = sums_find(&s, "data-001.txt");
	ok(f && f->nchunks == 2, "data-001.txt has 2 chunks");
	snprintf(path, sizeof(path), "%s/data-001.txt", dir);
	in = fopen(path, "r");
	n = fread(buf, 1, SUMS_CHUNK, in);
	is_u64(sums_check(f, 0, buf, n, what, sizeof(what)), 0, "chunk 0 as written passes");
	buf[12345] ^= 0x20;
	is_u64(sums_check(f, 0, buf, n, what, sizeof(what)), 1, "one flipped bit is caught");
	ok(strstr(what, "data-001.txt chunk 0: fnv1a") != NULL, "and named: %s", what);
	buf[12345] ^= 0x20;
	is_u64(sums_check(f, 1, buf, SUMS_CHUNK / 2, what, sizeof(what)), 1,
	       "another chunk's data in its place is caught");
	n = fread(buf, 1, SUMS_CHUNK, in);
	is_u64(sums_check(f, 1, buf, n, what, sizeof(what)), 0, "the short last chunk passes");
	is_u64(sums_check(f, 1, buf, n - 1, what, sizeof(what)), 1, "a chunk cut short is caught");
	is_u64(sums_check(f, 2, buf, n, what, sizeof(what)), 1, "a chunk past the end is caught");
	fclose(in);
	ok(sums_find(&s, "data-002.txt") == NULL, "a file the sums do not list is not found");
	sums_free(&s);
	snprintf(path, sizeof(path), "%s/" SUMS_FILE, dir);
	in = fopen(path, "a");
	fputs("data-000.txt 1572864 9 0123\n", in);
	fclose(in);
	ok(sums_load(&s, dir) == -1, "a sums file with a chunk past its file is refused");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	ok(system(path) == 0, "scratch folder removed");
	free(buf);
}

static void test_pages(void)
{
	enum { NPAGES = 8 };
	char *mem = malloc(NPAGES * PAGE_BYTES);
	uint64_t hash[NPAGES], seed = 3, got = 0;
	volatile size_t next = 0;
	char tmp[PAGE_BYTES];

	wl_text_fill(mem, NPAGES * PAGE_BYTES, &seed);
	pages_hash(mem, NPAGES, hash);
	is_u64(pages_check(mem, NPAGES, hash, &next, &got), NPAGES, "pages as written pass");
	mem[5 * PAGE_BYTES + 100] ^= 1;
	next = 0;
	is_u64(pages_check(mem, NPAGES, hash, &next, &got), 5, "a flipped bit in page 5 is caught there");
	ok(got != hash[5], "with the hash it had");
	next = 6;
	is_u64(pages_check(mem, NPAGES, hash, &next, &got), NPAGES, "going on after it: the rest pass");
	mem[5 * PAGE_BYTES + 100] ^= 1;
	/* Two pages swapped: what a shared stream's mix-up would give. */
	memcpy(tmp, mem + 2 * PAGE_BYTES, PAGE_BYTES);
	memcpy(mem + 2 * PAGE_BYTES, mem + 3 * PAGE_BYTES, PAGE_BYTES);
	memcpy(mem + 3 * PAGE_BYTES, tmp, PAGE_BYTES);
	next = 0;
	is_u64(pages_check(mem, NPAGES, hash, &next, &got), 2, "two pages swapped: the first caught");
	next = 3;
	is_u64(pages_check(mem, NPAGES, hash, &next, &got), 3, "and the second");
	memset(mem + 7 * PAGE_BYTES, 0, PAGE_BYTES);
	next = 4;
	is_u64(pages_check(mem, NPAGES, hash, &next, &got), 7, "a page read back as zeros is caught");
	free(mem);
}

/* Whether a SIGBUS raised inside a check returns to it (wl_sigbus_return). */
static int sigbus_returns(void)
{
	volatile int returned = 0;
	sigjmp_buf env;

	wl_sigbus_return = &env;
	if (sigsetjmp(env, 1))
		returned = 1;
	else
		raise(SIGBUS);
	wl_sigbus_return = NULL;
	return returned;
}

/* A failed swap-in's SIGBUS returns to the check that set wl_sigbus_return. */
static void test_sigbus(void)
{
	wl_sigbus_install();
	ok(sigbus_returns(), "a SIGBUS inside a check returns to it");
	/* Twice: the handler must not leave SIGBUS blocked after siglongjmp. */
	ok(sigbus_returns(), "and again: the signal is not left blocked");
}

int main(void)
{
	tap_plan(37);
	ll_prog = "test-integrity";
	test_count();
	test_pace();
	test_reader_files();
	test_hashes();
	test_sums();
	test_pages();
	test_sigbus();
	tap_exit();
}
