// SPDX-License-Identifier: GPL-2.0
/*
 * verdict.c - a cell's status and reason from its files (verdict.h), worst
 * first: the host ended a boot (TIMEOUT), QEMU failed (INFRA), the kernel
 * panicked or the data came back wrong (FINDINGS), a step hung again when
 * retried (TIMEOUT), the results are damaged or incomplete, a step failed,
 * the workload reached none of its targets by the summary's rule
 * (PATH_MIN_HITS: INVALID), the kernel printed splats (FINDINGS), else OK.
 */
#define _GNU_SOURCE
#include "verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell.h"
#include "kvfile.h"
#include "locklat.h"

int steps_load(struct steps *st, const char *guest_dir)
{
	char path[4096], line[128], name[STEP_NAME_MAX], status[16];
	FILE *f;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "%s/steps", guest_dir);
	f = fopen(path, "r");
	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		struct step *s;
		unsigned int i;

		if (sscanf(line, "%15s %15s", name, status) != 2)
			continue;
		for (i = 0; i < st->n && strcmp(st->s[i].name, name); i++)
			;
		if (i == st->n) {
			if (st->n == STEPS_MAX)
				continue;
			snprintf(st->s[st->n++].name, STEP_NAME_MAX, "%s", name);
		}
		s = &st->s[i];
		snprintf(s->last, sizeof(s->last), "%s", status);
		s->hung += !strcmp(status, "hung");
	}
	fclose(f);
	return 0;
}

const struct step *steps_find(const struct steps *st, const char *name)
{
	unsigned int i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->s[i].name, name))
			return &st->s[i];
	return NULL;
}

void console_step_in_progress(char *out, size_t size, const char *console_path)
{
	FILE *f = fopen(console_path, "r");
	char *line = NULL, *p, name[24];
	size_t cap = 0;

	out[0] = '\0';
	if (!f)
		return;
	while (getline(&line, &cap, f) >= 0) {
		p = strstr(line, "locklat: step ");
		if (!p || sscanf(p, "locklat: step %23[a-z.0-9]:", name) != 1)
			continue;
		if (strstr(p, ": start"))
			snprintf(out, size, "%s", name);
		else if (strstr(p, ": exit"))
			out[0] = '\0';
	}
	free(line);
	fclose(f);
}

/* The first (or last) line of a file, without its newline ("" if none). */
static void file_line(char *out, size_t size, const char *path, bool last)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	out[0] = '\0';
	if (!f)
		return;
	while (getline(&line, &cap, f) >= 0) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(out, size, "%s", line);
		if (!last)
			break;
	}
	free(line);
	fclose(f);
}

/* Appends printf-style text to buf. */
static void __attribute__((format(printf, 3, 4))) append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len >= size - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/*
 * Why the host ended the boot whose QEMU record is in boot_dir (qemu.sh's
 * timeout, silent or hung), or false when it ended by itself.
 */
static bool boot_timeout_reason(char *out, size_t size, const char *boot_dir, const struct steps *st,
				uint64_t deadline_s, const struct boot_limits *lim)
{
	char exit_word[32], step[24], path[4096], in_step[64] = "";
	unsigned int i;

	file_word(exit_word, sizeof(exit_word), boot_dir, "qemu-exit");
	snprintf(path, sizeof(path), "%s/console.log", boot_dir);
	console_step_in_progress(step, sizeof(step), path);
	if (step[0])
		snprintf(in_step, sizeof(in_step), " in step %s", step);
	if (!strcmp(exit_word, "timeout")) {
		snprintf(out, size, "watchdog killed QEMU after %llu s%s", (unsigned long long)deadline_s, in_step);
	} else if (!strcmp(exit_word, "hung")) {
		const char *name = "";

		for (i = 0; i < st->n; i++)
			if (st->s[i].hung)
				name = st->s[i].name;
		snprintf(out, size, "step %s hung: no end within its budget of guest time (the guest's own "
			 "watchdog); its poweroff did not finish, QEMU killed %llu s later", name,
			 (unsigned long long)lim->hung_grace_s);
	} else if (!strcmp(exit_word, "silent")) {
		snprintf(out, size, "the guest fell silent: no line of its init for %llu s of wall time%s "
			 "(workload cells log a heartbeat every %llu s of guest time: its userspace or its clock "
			 "stopped)", (unsigned long long)lim->silence_s, in_step,
			 (unsigned long long)lim->heartbeat_s);
	} else {
		return false;
	}
	return true;
}

/*
 * How a boot that ended by itself before its steps were done ended: a
 * kernel panic (its console says so) or a guest that stopped, and in which
 * step.
 */
static void boot_ended_early(char *out, size_t size, const char *boot_dir)
{
	char path[4096], step[24], *line = NULL;
	size_t cap = 0;
	bool panic = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/console.log", boot_dir);
	console_step_in_progress(step, sizeof(step), path);
	f = fopen(path, "r");
	while (f && !panic && getline(&line, &cap, f) >= 0)
		panic = strstr(line, "Kernel panic - not syncing") != NULL;
	if (f)
		fclose(f);
	free(line);
	snprintf(out, size, "%s%s%s", panic ? "the kernel panicked" : "the guest stopped before its steps were done",
		 step[0] ? " in step " : "", step);
}

/* Does the cell's cell.conf ask for a workload with targets and a verify pass? */
static bool verify_expected(const struct kvfile *conf, const char **targets)
{
	const char *passes = kv_str(conf, "passes", "");
	char padded[512];

	*targets = kv_str(conf, "targets", "-");
	snprintf(padded, sizeof(padded), " %s ", passes);
	return !strcmp(kv_str(conf, "mode", "command"), "cell") && strcmp(*targets, "-") &&
	       strstr(padded, " verify ");
}

/* The splat kinds of a findings list, space-separated. */
static void splat_kinds(char *out, size_t size, const struct finding *f, unsigned int n)
{
	unsigned int i;

	out[0] = '\0';
	for (i = 0; i < n; i++)
		append(out, size, "%s%s", i ? " " : "", f[i].kind);
}

void cell_verdict(struct verdict *v, const char *dir, const struct boot_limits *lim)
{
	char path[8192], guest[4096], last_boot[4096], kinds[512], tar_err[256], stderr_line[256];
	char exit_word[32], corrupt[512] = "", retried[256] = "", timeout[1024];
	static struct finding findings[CELL_MAX_ITEMS];
	static struct path_hit hits[CELL_MAX_ITEMS];
	struct integrity in;
	struct kvfile conf = { 0 };
	struct steps st;
	const char *targets = "-";
	unsigned int nfindings, nhits, i, reached = 0;
	bool second_boot, panicked = false, complete;

	memset(v, 0, sizeof(*v));
	snprintf(guest, sizeof(guest), "%s/guest", dir);
	snprintf(last_boot, sizeof(last_boot), "%s/boot2", dir);
	second_boot = access(last_boot, F_OK) == 0;
	if (!second_boot)
		snprintf(last_boot, sizeof(last_boot), "%s", dir);
	snprintf(path, sizeof(path), "%s/cell.conf", dir);
	kv_load(&conf, path);
	steps_load(&st, guest);
	snprintf(path, sizeof(path), "%s/findings", dir);
	nfindings = findings_read(findings, CELL_MAX_ITEMS, path);
	splat_kinds(kinds, sizeof(kinds), findings, nfindings);
	for (i = 0; i < nfindings; i++)
		panicked |= !strcmp(findings[i].kind, "panic");
	integrity_load(&in, guest);
	if (in.errors)
		snprintf(corrupt, sizeof(corrupt), "%llu of %llu checks wrong (first, %s pass: %s)",
			 (unsigned long long)in.errors, (unsigned long long)in.checked, in.first_pass, in.first);
	for (i = 0; i < st.n; i++)
		if (st.s[i].hung && strcmp(st.s[i].last, "hung"))
			append(retried, sizeof(retried), "%s%s", retried[0] ? " " : "", st.s[i].name);
	snprintf(path, sizeof(path), "%s/results-tar.err", last_boot);
	file_line(tar_err, sizeof(tar_err), path, false);
	snprintf(path, sizeof(path), "%s/guest-complete", guest);
	complete = access(path, F_OK) == 0;
	snprintf(path, sizeof(path), "%s/path-hits", guest);
	nhits = path_hits_read(hits, CELL_MAX_ITEMS, path);
	for (i = 0; i < nhits; i++)
		reached += hits[i].reached;
	file_word(exit_word, sizeof(exit_word), last_boot, "qemu-exit");

	if (boot_timeout_reason(timeout, sizeof(timeout), last_boot, &st, lim->deadline_s[second_boot], lim)) {
		snprintf(v->status, sizeof(v->status), "TIMEOUT");
		snprintf(v->reason, sizeof(v->reason), "%s", timeout);
	} else if (strcmp(exit_word, "ok")) {
		snprintf(path, sizeof(path), "%s/qemu-stderr", last_boot);
		file_line(stderr_line, sizeof(stderr_line), path, true);
		snprintf(v->status, sizeof(v->status), "INFRA");
		if (exit_word[0])
			snprintf(v->reason, sizeof(v->reason), "QEMU ended %s: %s", exit_word, stderr_line);
		else
			snprintf(v->reason, sizeof(v->reason), "qemu.sh ended without saying how QEMU did (no "
				 "qemu-exit)%s%s", stderr_line[0] ? ": " : "", stderr_line);
	} else if (panicked) {
		snprintf(v->status, sizeof(v->status), "FINDINGS");
		snprintf(v->reason, sizeof(v->reason), "kernel panic%s%s", corrupt[0] ? "; data corrupted: " : "",
			 corrupt);
	} else if (corrupt[0]) {
		/* Wrong data is a finding whatever else the cell shows. */
		snprintf(v->status, sizeof(v->status), "FINDINGS");
		snprintf(v->reason, sizeof(v->reason), "data corrupted: %s", corrupt);
		if (nfindings)
			append(v->reason, sizeof(v->reason), "; kernel splats: %s", kinds);
	} else {
		const struct step *hung = NULL, *failed = NULL;

		for (i = 0; i < st.n; i++) {
			if (!hung && !strcmp(st.s[i].last, "hung"))
				hung = &st.s[i];
			else if (!failed && strcmp(st.s[i].last, "0") && strcmp(st.s[i].last, "hung"))
				failed = &st.s[i];
		}
		if (hung) {
			snprintf(v->status, sizeof(v->status), "TIMEOUT");
			snprintf(v->reason, sizeof(v->reason), "step %s hung: no end within its budget of guest time "
				 "(the guest's own watchdog)%s", hung->name, hung->hung > 1 ?
				 ", and again when retried; the other passes ran" : "; the guest powered off");
		} else if (tar_err[0]) {
			snprintf(v->status, sizeof(v->status), "INVALID");
			snprintf(v->reason, sizeof(v->reason), "the guest's results archive is damaged (%s): results "
				 "disk full (%llu MiB) or the guest died while writing", tar_err,
				 (unsigned long long)lim->results_disk_mib);
		} else if (!complete) {
			snprintf(v->status, sizeof(v->status), "INVALID");
			snprintf(v->reason, sizeof(v->reason), "the guest did not finish its steps");
		} else if (failed) {
			snprintf(v->status, sizeof(v->status), "INVALID");
			snprintf(v->reason, sizeof(v->reason), "guest steps failed:");
			for (i = 0; i < st.n; i++)
				if (strcmp(st.s[i].last, "0"))
					append(v->reason, sizeof(v->reason), " %s %s", st.s[i].name, st.s[i].last);
		} else if (verify_expected(&conf, &targets) && !reached) {
			snprintf(v->status, sizeof(v->status), "INVALID");
			snprintf(v->reason, sizeof(v->reason), "no target reached (%s; at least %d hits and %dx the idle "
				 "control's): the workload did not reach its call site", targets, PATH_MIN_HITS,
				 PATH_IDLE_FACTOR);
		} else if (nfindings) {
			snprintf(v->status, sizeof(v->status), "FINDINGS");
			snprintf(v->reason, sizeof(v->reason), "kernel splats: %s", kinds);
		} else {
			snprintf(v->status, sizeof(v->status), "OK");
		}
	}
	/* A pass that hung and whose retry ended is evidence from the retry; say so. */
	if (retried[0])
		append(v->reason, sizeof(v->reason), "%sretried after a hang: %s", v->reason[0] ? "; " : "", retried);
	/* So is the evidence of a second boot. */
	if (second_boot) {
		char first[1024] = "", resumed[512] = "";

		if (!boot_timeout_reason(first, sizeof(first), dir, &st, lim->deadline_s[0], lim))
			boot_ended_early(first, sizeof(first), dir);
		snprintf(path, sizeof(path), "%s/cell.conf", last_boot);
		{
			struct kvfile conf2 = { 0 };

			if (!kv_load(&conf2, path)) {
				snprintf(resumed, sizeof(resumed), "%s", kv_str(&conf2, "passes", ""));
				kv_free(&conf2);
			}
		}
		append(v->reason, sizeof(v->reason), "%sfirst boot: %s; a second boot ran %s", v->reason[0] ? "; " : "",
		       first, resumed);
	}
	/*
	 * A cell that did not finish still names what the kernel and the data
	 * said before it stopped: a hang after an oops is the oops's.
	 */
	if (!strcmp(v->status, "TIMEOUT") || !strcmp(v->status, "INVALID") || !strcmp(v->status, "INFRA")) {
		if (corrupt[0])
			append(v->reason, sizeof(v->reason), "; data corrupted: %s", corrupt);
		if (nfindings)
			append(v->reason, sizeof(v->reason), "; kernel splats: %s", kinds);
	}
	kv_free(&conf);
}

unsigned int passes_to_resume(const char *dir, char names[][STEP_NAME_MAX], unsigned int max)
{
	char path[4096], exit_word[32], stuck[24], err[256], *list, *tok, *save = NULL;
	char again[STEPS_MAX][STEP_NAME_MAX];
	unsigned int n = 0, nagain = 0, i;
	struct kvfile conf = { 0 };
	struct steps st;

	file_word(exit_word, sizeof(exit_word), dir, "qemu-exit");
	snprintf(path, sizeof(path), "%s/guest/guest-complete", dir);
	/* Ended by the host, or by itself before its steps were done (a panic). */
	if (strcmp(exit_word, "timeout") && strcmp(exit_word, "silent") && strcmp(exit_word, "hung") &&
	    (strcmp(exit_word, "ok") || access(path, F_OK) == 0))
		return 0;
	snprintf(path, sizeof(path), "%s/results-tar.err", dir);
	file_line(err, sizeof(err), path, false);
	snprintf(path, sizeof(path), "%s/cell.conf", dir);
	if (err[0] || kv_load(&conf, path))
		return 0;
	if (strcmp(kv_str(&conf, "mode", "command"), "cell")) {
		kv_free(&conf);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/guest", dir);
	steps_load(&st, path);
	snprintf(path, sizeof(path), "%s/console.log", dir);
	console_step_in_progress(stuck, sizeof(stuck), path);
	list = xstrdup(kv_str(&conf, "passes", ""));
	for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		const struct step *s = steps_find(&st, tok);

		if (!strcmp(tok, stuck) || (s && !strcmp(s->last, "hung"))) {
			/*
			 * Once more, last; not a third time, nor a retry that
			 * stuck again. Never the latency pass: its failure under
			 * load is the cell's result (a repetition that hung or
			 * panicked in it is a failure under load), and a second
			 * attempt would keep only the runs that survive.
			 */
			if (!strcmp(tok, "latency") || (s && (s->hung >= 2 || (s->hung >= 1 && !strcmp(tok, stuck)))))
				continue;
			if (nagain < STEPS_MAX)
				snprintf(again[nagain++], STEP_NAME_MAX, "%.15s", tok);
		} else if (!s && n < max) {
			snprintf(names[n++], STEP_NAME_MAX, "%.15s", tok);
		}
	}
	for (i = 0; i < nagain && n < max; i++)
		snprintf(names[n++], STEP_NAME_MAX, "%.15s", again[i]);
	free(list);
	kv_free(&conf);
	return n;
}
