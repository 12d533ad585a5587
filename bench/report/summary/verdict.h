/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.h - a cell's status and reason from its files, by one set of
 * rules (verdict.c): bench/host/run-cell.sh asks for them when a cell ends
 * (locklat-verdict) and writes them to its meta, which the summary reads.
 * The guest's step log (guest/steps) has its one parser here.
 */
#ifndef LOCKLAT_VERDICT_H
#define LOCKLAT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STEPS_MAX 32
#define STEP_NAME_MAX 16

/* A step of guest/steps ("NAME STATUS" lines; STATUS a number or "hung"). */
struct step {
	char name[STEP_NAME_MAX];
	char last[16];		/* its last line's status: a step is judged by its last attempt */
	unsigned int hung;	/* how many of its lines say hung */
};

/* Every step of a guest/steps, in the order each first ran. */
struct steps {
	unsigned int n;
	struct step s[STEPS_MAX];
};

/* guest_dir/steps into st; 0 read, 1 absent (st empty). */
int steps_load(struct steps *st, const char *guest_dir);
const struct step *steps_find(const struct steps *st, const char *name);

/* The last step console_path shows started and not ended ("" if none). */
void console_step_in_progress(char *out, size_t size, const char *console_path);

/* What the host allowed each boot, for the reasons that name it. */
struct boot_limits {
	uint64_t deadline_s[2];		/* the first boot's, the second's */
	uint64_t silence_s, heartbeat_s, hung_grace_s, results_disk_mib;
};

#define VERDICT_REASON_MAX 2048

struct verdict {
	char status[16];	/* OK, FINDINGS, TIMEOUT, INVALID, INFRA */
	char reason[VERDICT_REASON_MAX];
};

/*
 * The verdict on the cell assembled in dir (its cell.conf, QEMU's record,
 * findings, guest/, and boot2/ when a second boot ran), worst first.
 */
void cell_verdict(struct verdict *v, const char *dir, const struct boot_limits *lim);

/*
 * After a first boot the host had to end (deadline, silence, a hung
 * poweroff), or that ended by itself before its steps were done (a
 * panic): the passes a second boot runs, those that never ran or ended
 * hung without their retry, in cell.conf's order, then the one the guest
 * was stuck in unless it was already a retry or is the latency pass (whose
 * failure is the cell's result). Returns how many went into
 * names; 0 for a command, a boot that finished its steps, or a damaged
 * results archive.
 */
unsigned int passes_to_resume(const char *dir, char names[][STEP_NAME_MAX], unsigned int max);

#endif /* LOCKLAT_VERDICT_H */
