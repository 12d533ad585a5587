/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cnproc-msg.h - parse proc connector messages (NETLINK_CONNECTOR,
 * CN_IDX_PROC), and match the events against the children the workload
 * forked. Pure (no I/O, no locks: the caller serialises), so that
 * tests/unit/test-cnproc.c can feed it right and wrong messages.
 */
#ifndef LOCKLAT_CNPROC_MSG_H
#define LOCKLAT_CNPROC_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CNPROC_MAX_CPUS 256

/* What the workload's children name themselves (prctl(PR_SET_NAME)) before exec. */
#define CNPROC_CHILD_COMM "locklat-cn"
/*
 * What the listener names itself on each CPU in turn, at the start and at
 * the end: a message from every CPU after which a lost message shows as a
 * gap (cnproc_track.sentinels).
 */
#define CNPROC_SENTINEL_COMM "locklat-cn-mark"

/* An integrity error, described in one line (the workload: wl_integrity_error()). */
typedef void cnproc_error_fn(const char *msg);

struct cnproc_track;

/* What a listener has seen so far. */
struct cnproc_tally {
	uint64_t events;		/* proc events received */
	uint64_t fork, exec, comm, exit, other;
	uint64_t lost;			/* gaps in a CPU's sequence numbers */
	uint64_t reordered;		/* messages whose CPU's sequence went back or repeated */
	uint64_t foreign;		/* netlink messages that are not proc events */
	uint64_t checked;		/* messages in sequence, events and matches found right */
	uint64_t errors;		/* integrity errors */
	uint32_t next_seq[CNPROC_MAX_CPUS];
	uint8_t seen[CNPROC_MAX_CPUS];
	cnproc_error_fn *error;		/* called for each integrity error; NULL: count only */
	struct cnproc_track *track;	/* NULL: no matching against the children */
};

/*
 * Account every netlink message in buf[0..len). send_msg() numbers the
 * messages of each CPU consecutively (cn_msg.seq, a per-CPU counter) and,
 * under local_event.lock, sends them in that order, so a jump in a CPU's
 * sequence is that many messages lost and a step back (or a repeat) is the
 * lock failing: an integrity error. With t->track, each event goes on to
 * cnproc_track. Returns the number of proc events found, or -1 if buf is
 * malformed.
 */
int cnproc_parse(struct cnproc_tally *t, const void *buf, size_t len);

/* One pid that was a child of the workload, by its forks and events. */
struct cnproc_child {
	int32_t pid;			/* 0: a free slot */
	uint32_t made;			/* forks that returned it, as the workers recorded them */
	uint32_t fork_events;		/* fork events naming it a child of the workload */
	uint32_t exit_events;		/* exit events naming it a child of the workload */
	int32_t parent;			/* the live child's parent thread, by its fork event */
	uint8_t live;			/* between its fork event and its exit event */
	uint8_t comm, exec;		/* its comm / exec event came */
};

/*
 * Matching the events against the workload's forks. Fork events naming a
 * child of process self (parent_tgid) start a life of that pid, its exit
 * event ends it; in between its comm and exec events must come in that
 * order, with comm CNPROC_CHILD_COMM. Errors (through tally.error):
 *   - a sequence that goes back or repeats (cnproc_parse)
 *   - a fork event of a child of self from a thread that is not a worker
 *     (the wrong parent)
 *   - an exit event of a live child naming another parent than its fork
 *     event, or no longer a child of self
 *   - a comm event of a live child with another name, or after its exec
 *   - at the end (cnproc_track_finish()), per pid: more fork events, or more
 *     exit events, than the forks the workers made of it (a fork the
 *     workload never made, an exit of a pid never forked, a second exit);
 *     and more fork and exit events missing than the messages counted lost
 * The errors a lost message could explain (a stale live child) are made
 * only while no message has been counted lost.
 */
struct cnproc_track {
	int32_t self;			/* the workload's pid (tgid) */
	struct cnproc_child *children;	/* open addressing by pid */
	size_t mask, n;
	int32_t *workers;		/* thread ids of the workers that fork */
	size_t nworkers, workers_cap;
	bool broken;			/* out of memory: a fork not recorded, no end matching */
	uint64_t missing;		/* fork and exit events of the workload's children not received */
	uint32_t sentinels[CNPROC_MAX_CPUS];	/* the listener's own comm events, per CPU */
};

/* 0, or -1 (no memory). */
int cnproc_track_init(struct cnproc_track *k, int32_t self);
void cnproc_track_free(struct cnproc_track *k);
/* A worker thread that forks, by its thread id (before its first fork). */
void cnproc_track_worker(struct cnproc_track *k, int32_t tid);
/* A fork of the workload returned pid (after the fork, before the reap). */
void cnproc_track_forked(struct cnproc_track *k, int32_t pid);
/* The child of pid, or NULL (for the tests). */
const struct cnproc_child *cnproc_track_child(const struct cnproc_track *k, int32_t pid);
/*
 * After the last event: match per pid the forks made with the events
 * received, and the events missing with t->lost. covered: the sentinels
 * came from every CPU after the last fork, so that every loss shows in
 * t->lost; if not, missing events beyond it are not an error (the tail of
 * a sequence is lost without a trace).
 */
void cnproc_track_finish(struct cnproc_tally *t, bool covered);

#endif /* LOCKLAT_CNPROC_MSG_H */
