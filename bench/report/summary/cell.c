// SPDX-License-Identifier: GPL-2.0
/*
 * cell.c - read one result cell: its meta, findings, the workload's data
 * checks and the kernel's preemption model, then each pass's files through
 * the pass's own load (pass.h, passes.c); the helpers the passes' loaders
 * share.
 */
#define _GNU_SOURCE
#include "cell.h"
#include "pass.h"
#include "verdict.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "locklat.h"
#include "table.h"

char *cell_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

/* The comma-separated functions of list appended to site's. */
static void site_functions_add(struct call_site *site, char *list)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!*cell_trim(tok))
			continue;
		site->functions = xrealloc(site->functions, (site->nfunctions + 1) * sizeof(char *));
		site->functions[site->nfunctions++] = xstrdup(cell_trim(tok));
	}
}

int call_sites_load(struct call_sites *cs, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	memset(cs, 0, sizeof(*cs));
	if (!f)
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		char *field[3];
		struct call_site *site;
		size_t n = table_fields(line, field, 3);

		if (!n)
			continue;
		cs->sites = xrealloc(cs->sites, (cs->count + 1) * sizeof(*cs->sites));
		site = &cs->sites[cs->count++];
		memset(site, 0, sizeof(*site));
		site->name = xstrdup(field[0]);
		site_functions_add(site, field[1]);
		site->nboundary = site->nfunctions;
		if (n > 2)
			site_functions_add(site, field[2]);
	}
	free(line);
	fclose(f);
	return 0;
}

void call_sites_free(struct call_sites *cs)
{
	unsigned int i, j;

	for (i = 0; i < cs->count; i++) {
		for (j = 0; j < cs->sites[i].nfunctions; j++)
			free(cs->sites[i].functions[j]);
		free(cs->sites[i].functions);
		free(cs->sites[i].name);
	}
	free(cs->sites);
	memset(cs, 0, sizeof(*cs));
}

void file_word(char *out, size_t size, const char *dir, const char *name)
{
	char path[4096], word[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%31s", word) != 1)
			word[0] = '\0';
		fclose(f);
	}
	snprintf(out, size, "%s", word);
}

unsigned int findings_read(struct finding *out, unsigned int max, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned int n = 0;

	if (!f)
		return 0;
	while (getline(&line, &cap, f) >= 0 && n < max) {
		struct finding *fd = &out[n];
		char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;

		if (!t2)
			continue;
		*t1 = *t2 = '\0';
		copy_str(fd->kind, sizeof(fd->kind), line);
		fd->count = (unsigned int)strtoul(t1 + 1, NULL, 10);
		copy_str(fd->line, sizeof(fd->line), cell_trim(t2 + 1));
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

/*
 * guest/path-hits: "function workload_hits idle_hits" lines, or "function
 * unavailable" for a target the kernel could not probe. Cells from before the
 * idle control have "function hits" (any task, no control).
 */
unsigned int path_hits_read(struct path_hit *out, unsigned int max, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256], fn[80], count[32], idle[32];
	unsigned int nhits = 0;
	uint64_t n, m;

	if (!f)
		return 0;
	while (nhits < max && fgets(line, sizeof(line), f)) {
		struct path_hit *h = &out[nhits];
		int fields = sscanf(line, "%79s %31s %31s", fn, count, idle);

		if (fields < 2)
			continue;
		memset(h, 0, sizeof(*h));
		copy_str(h->function, sizeof(h->function), fn);
		if (!strcmp(count, "unavailable")) {
			h->unavailable = true;
		} else if (!parse_u64(count, 0, UINT64_MAX, &n)) {
			continue;
		} else if (fields == 3 && parse_u64(idle, 0, UINT64_MAX, &m)) {
			h->hits = n;
			h->idle_hits = m;
			h->has_idle = true;
			h->reached = n >= PATH_MIN_HITS && n >= PATH_IDLE_FACTOR * m;
		} else {
			h->hits = n;
			h->reached = n > 0;
		}
		nhits++;
	}
	fclose(f);
	return nhits;
}

unsigned int cell_pass_order(const char *guest_dir, char names[][16])
{
	struct steps st;
	unsigned int n = 0, i, j;

	steps_load(&st, guest_dir);
	for (i = 0; i < st.n && n < CELL_MAX_PASSES; i++)
		if (strcmp(st.s[i].name, "setup"))
			copy_str(names[n++], sizeof(names[0]), st.s[i].name);
	for (i = 0; summary_passes[i] && n < CELL_MAX_PASSES; i++) {
		for (j = 0; j < n && strcmp(names[j], summary_passes[i]->name); j++)
			;
		if (j == n)
			copy_str(names[n++], sizeof(names[0]), summary_passes[i]->name);
	}
	return n;
}

bool integrity_line_parse(const char *line, uint64_t *checked, uint64_t *errors, char *first, size_t size)
{
	unsigned long long n, m;
	const char *p;
	int end = 0;

	if (strncmp(line, "locklat-integrity ", 18))
		return false;
	p = strstr(line, " checked=");
	if (!p || sscanf(p, " checked=%llu errors=%llu%n", &n, &m, &end) != 2)
		return false;
	*checked = n;
	*errors = m;
	p += end;
	if (first && size) {
		first[0] = '\0';
		if (!strncmp(p, " first=", 7)) {
			size_t len;

			p += 7 + strspn(p + 7, " \t");
			copy_str(first, size, p);
			len = strlen(first);
			while (len && isspace((unsigned char)first[len - 1]))
				first[--len] = '\0';
		}
	}
	return true;
}

void integrity_load(struct integrity *in, const char *guest_dir)
{
	char names[CELL_MAX_PASSES][16], path[8192], first[240];
	unsigned int n = cell_pass_order(guest_dir, names), i;
	char *line = NULL;
	size_t cap = 0;

	memset(in, 0, sizeof(*in));
	for (i = 0; i < n; i++) {
		FILE *f;
		bool seen = false;

		snprintf(path, sizeof(path), "%s/workload-%s.out", guest_dir, names[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		/* One line per run of the workload; a pass runs it once, but sum whatever is there. */
		while (getline(&line, &cap, f) >= 0) {
			uint64_t checked, errors;

			if (!integrity_line_parse(cell_trim(line), &checked, &errors, first, sizeof(first)))
				continue;
			seen = true;
			in->checked += checked;
			in->errors += errors;
			if (errors && !in->first_pass[0]) {
				copy_str(in->first, sizeof(in->first), first[0] ? first : "(no description)");
				snprintf(in->first_pass, sizeof(in->first_pass), "%.15s", names[i]);
			}
		}
		fclose(f);
		in->passes += seen;
	}
	free(line);
	in->present = in->passes > 0;
}

/* The kernel it booted is PREEMPT_RT: its manifest says so, or (without the key) its uname. */
static void preempt_rt_load(struct cell *c, const char *guest_dir)
{
	const char *model = kv_str(&c->meta, "manifest.preempt_model", NULL);
	char path[8192], line[512];
	FILE *f;

	c->rt_known = model != NULL;
	c->preempt_rt = model && !strcmp(model, "rt");
	if (model)
		return;
	snprintf(path, sizeof(path), "%s/uname.txt", guest_dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		c->rt_known = true;
		c->preempt_rt = strstr(line, " PREEMPT_RT ") != NULL;
	}
	fclose(f);
}

const struct lock_event *cell_lock_event(const struct cell *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->nlock_events; i++)
		if (!strcmp(c->lock_events[i].name, name))
			return &c->lock_events[i];
	return NULL;
}

const char *load_verdict_name(enum load_verdict v)
{
	static const char *const names[] = {
		[LOAD_NONE] = "none", [LOAD_UNKNOWN] = "unknown", [LOAD_ALIVE] = "alive", [LOAD_DEAD] = "dead",
	};

	return names[v];
}

bool cell_panicked(const struct cell *c)
{
	unsigned int k;

	for (k = 0; k < c->nfindings; k++)
		if (!strcmp(c->findings[k].kind, "panic"))
			return true;
	return false;
}

void cell_invalidate(struct cell *c, const char *why)
{
	c->status = "INVALID";
	copy_str(c->reason_buf, sizeof(c->reason_buf), why);
	c->reason = c->reason_buf;
}

void pass_run_name(char *dst, size_t size, const char *name, unsigned int run)
{
	if (run == 1)
		snprintf(dst, size, "%s", name);
	else
		snprintf(dst, size, "%s.%u", name, run);
}

bool pass_load_dead(const char *dir, const char *run)
{
	char name[64], word[8];

	snprintf(name, sizeof(name), "guest/workload-%s.alive", run);
	file_word(word, sizeof(word), dir, name);
	return !strcmp(word, "no");
}

/* The meta key of each setting: the one place they are named after load. */
static const char *const setting_keys[CS_N] = {
	[CS_ACCEL] = "accel",
	[CS_VCPUS] = "vcpus",
	[CS_GUEST_MEM_MIB] = "guest_mem_mib",
	[CS_DURATION_S] = "duration_s",
	[CS_WARMUP_S] = "warmup_s",
	[CS_TRACE_DURATION_S] = "trace_duration_s",
	[CS_HIST_RANGE_US] = "hist_range_us",
	[CS_KERNEL_SOURCE] = "manifest.source_package",
	[CS_GCC] = "manifest.gcc_version",
	[CS_QEMU] = "qemu_version",
	[CS_RT_TESTS] = "cyclictest_version",
	[CS_TRACE_CMD] = "trace_cmd_version",
	[CS_HOST_CPU] = "host_cpu",
	[CS_HOST] = "host",
	[CS_SUITE_REVISION] = "suite_revision",
};

/* meta into the cell's typed fields (the stages after load never read its keys). */
static void meta_type(struct cell *c)
{
	const char *prefix = "manifest.patch_sha256.";
	size_t i, n = strlen(prefix), len = 0;

	for (i = 0; i < CS_N; i++)
		c->setting[i] = kv_str(&c->meta, setting_keys[i], "?");
	c->passes = kv_lookup(&c->meta, "passes");
	c->setup = kv_lookup(&c->meta, "setup");
	c->targets = kv_lookup(&c->meta, "targets");
	c->host = kv_lookup(&c->meta, "host");
	c->host_cpu = kv_lookup(&c->meta, "host_cpu");
	c->kernel_release = kv_str(&c->meta, "manifest.kernel_release", "");
	c->kernel_source = kv_str(&c->meta, "manifest.source", "debian");
	c->patches = kv_str(&c->meta, "manifest.patches", "");
	c->preempt_model = kv_lookup(&c->meta, "manifest.preempt_model");
	c->lockdep = !strcmp(kv_str(&c->meta, "manifest.lockdep", "n"), "y");
	c->flavour_recorded = kv_lookup(&c->meta, "kernel_flavour") != NULL;
	parse_u64(kv_str(&c->meta, "vcpus", ""), 1, 4096, &c->vcpus);
	parse_u64(kv_str(&c->meta, "duration_s", ""), 1, CELL_MAX_SECONDS, &c->duration_s);
	parse_u64(kv_str(&c->meta, "warmup_s", ""), 0, CELL_MAX_SECONDS, &c->warmup_s);
	parse_u64(kv_str(&c->meta, "layout_version", ""), 0, 1000, &c->layout_version);
	/* manifest.patch_sha256.<series>/<file>: a hash per patch it applied. */
	for (i = 0; i < c->meta.count; i++) {
		const char *k = c->meta.pairs[i].key, *slash;
		char name[64];

		if (strncmp(k, prefix, n) || !(slash = strchr(k + n, '/')) || (size_t)(slash - k - n) >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(slash - k - n), k + n);
		if (!series_listed(c->series_applied, name) && len + strlen(name) + 2 < sizeof(c->series_applied))
			len += (size_t)snprintf(c->series_applied + len, sizeof(c->series_applied) - len, "%s%s",
						len ? " " : "", name);
	}
}

bool series_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

int cell_load(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us)
{
	char path[4096];
	uint64_t rep;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->dir = xstrdup(dir);
	snprintf(path, sizeof(path), "%s/meta", dir);
	if (kv_load(&c->meta, path))
		return errno == ENOENT ? 1 : -1;
	if (strcmp(kv_str(&c->meta, "complete", "0"), "1"))
		return 1;
	meta_type(c);
	c->variant = kv_str(&c->meta, "variant", "?");
	c->workload = kv_str(&c->meta, "workload", "?");
	c->status = kv_str(&c->meta, "status", "INVALID");
	c->reason = kv_str(&c->meta, "reason", "");
	c->accel = kv_str(&c->meta, "accel", "?");
	c->rep = parse_u64(kv_str(&c->meta, "rep", ""), 1, 1000000, &rep) ? (unsigned int)rep : 0;
	c->traced_kernel = !strcmp(kv_str(&c->meta, "kernel_flavour", "plain"), "traced");
	if (c->traced_kernel)
		snprintf(c->name, sizeof(c->name), "traced");
	else
		snprintf(c->name, sizeof(c->name), "rep%u", c->rep);
	snprintf(path, sizeof(path), "%s/findings", dir);
	c->nfindings = findings_read(c->findings, CELL_MAX_ITEMS, path);
	/*
	 * A panic, like a hang, leaves a step started and not ended (in the
	 * last boot's console, when a second one ran).
	 */
	if (!strcmp(c->status, "TIMEOUT") || cell_panicked(c)) {
		snprintf(path, sizeof(path), "%s/boot2/console.log", dir);
		if (access(path, F_OK))
			snprintf(path, sizeof(path), "%s/console.log", dir);
		console_step_in_progress(c->hung_step, sizeof(c->hung_step), path);
	}
	snprintf(path, sizeof(path), "%s/guest", dir);
	integrity_load(&c->integrity, path);
	preempt_rt_load(c, path);
	for (i = 0; summary_passes[i]; i++)
		if (summary_passes[i]->load)
			summary_passes[i]->load(c, dir, cs, window_us);
	/*
	 * Wrong data read back is a finding, never OK (run-cell.sh says so
	 * itself; a cell from a harness that did not is made one here).
	 */
	if (cell_corrupted(c) && !strcmp(c->status, "OK")) {
		c->status = "FINDINGS";
		snprintf(c->reason_buf, sizeof(c->reason_buf), "data corrupted: %llu of %llu checks wrong (first, %.15s pass: %.150s)",
			 (unsigned long long)c->integrity.errors, (unsigned long long)c->integrity.checked,
			 c->integrity.first_pass, c->integrity.first);
		c->reason = c->reason_buf;
	}
	/* A load that died beside a splat: the splat is the likely why, quoted. */
	if (c->load.verdict == LOAD_DEAD && c->nfindings) {
		size_t len = strlen(c->load.reason);

		snprintf(c->load.reason + len, sizeof(c->load.reason) - len, "; the kernel said: %s",
			 c->findings[0].line);
	}
	return 0;
}

void cell_free(struct cell *c)
{
	size_t i;

	for (i = 0; summary_passes[i]; i++)
		if (summary_passes[i]->free)
			summary_passes[i]->free(c);
	free(c->series);
	free(c->blocks);
	hist_free(&c->steady_hist);
	hist_free(&c->steady_measured);
	hist_free(&c->hist);
	kv_free(&c->meta);
	free(c->dir);
	memset(c, 0, sizeof(*c));
}
