// SPDX-License-Identifier: GPL-2.0
/*
 * test-cnproc - proc connector message accounting: event kinds, per-CPU
 * sequence gaps, foreign and malformed messages, a sequence that goes back
 * (caught); and the matching of events against the workload's forks: a
 * child's whole life passes, as do other processes' events, a pid used
 * twice and losses that were counted; a fork from the wrong parent, an exit
 * naming another parent, a wrong comm, an exit of a pid never forked, a
 * second exit and events missing without a loss counted are caught. The
 * messages are built the way the kernel's send_msg() lays them out
 * (nlmsghdr, cn_msg, proc_event).
 */
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>

#include "cnproc-msg.h"
#include "tap.h"

#define MSG_SPACE NLMSG_SPACE(sizeof(struct cn_msg) + sizeof(struct proc_event))

/* Append one proc event message at buf + *off; its event, to fill in. */
static struct proc_event *put(char *buf, size_t *off, unsigned int idx, unsigned int what,
			      unsigned int cpu, unsigned int seq)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)(buf + *off);
	struct cn_msg *msg;
	struct proc_event *ev;

	memset(nlh, 0, MSG_SPACE);
	nlh->nlmsg_len = NLMSG_LENGTH(sizeof(*msg) + sizeof(*ev));
	nlh->nlmsg_type = NLMSG_DONE;
	msg = NLMSG_DATA(nlh);
	msg->id.idx = idx;
	msg->id.val = CN_VAL_PROC;
	msg->seq = seq;
	msg->len = sizeof(*ev);
	ev = (struct proc_event *)msg->data;
	ev->what = what;
	ev->cpu = cpu;
	*off += MSG_SPACE;
	return ev;
}

/* The workload: process SELF, forking from worker threads WORKER and WORKER2. */
#define SELF 1000
#define WORKER 1001
#define WORKER2 1002

static unsigned int errors_seen;

static void on_error(const char *msg)
{
	errors_seen++;
	printf("# integrity error: %s\n", msg);
}

/* One datagram at a time, each event on CPU 0 in sequence unless said otherwise. */
static struct cnproc_tally tally;
static struct cnproc_track track;
static unsigned int seq0;

static void reset(void)
{
	cnproc_track_free(&track);
	memset(&tally, 0, sizeof(tally));
	cnproc_track_init(&track, SELF);
	cnproc_track_worker(&track, WORKER);
	cnproc_track_worker(&track, WORKER2);
	tally.error = on_error;
	tally.track = &track;
	errors_seen = 0;
	seq0 = 100;
}

static void send_ev(const struct proc_event *ev)
{
	static char one[MSG_SPACE];
	size_t off = 0;
	struct proc_event *e = put(one, &off, CN_IDX_PROC, ev->what, 0, seq0++);

	e->event_data = ev->event_data;
	cnproc_parse(&tally, one, off);
}

static void ev_fork(int parent, int parent_tgid, int child)
{
	struct proc_event ev = { .what = PROC_EVENT_FORK };

	ev.event_data.fork.parent_pid = parent;
	ev.event_data.fork.parent_tgid = parent_tgid;
	ev.event_data.fork.child_pid = child;
	ev.event_data.fork.child_tgid = child;
	send_ev(&ev);
}

static void ev_comm(int pid, const char *comm)
{
	struct proc_event ev = { .what = PROC_EVENT_COMM };

	ev.event_data.comm.process_pid = pid;
	ev.event_data.comm.process_tgid = pid;
	snprintf(ev.event_data.comm.comm, sizeof(ev.event_data.comm.comm), "%s", comm);
	send_ev(&ev);
}

static void ev_exec(int pid)
{
	struct proc_event ev = { .what = PROC_EVENT_EXEC };

	ev.event_data.exec.process_pid = pid;
	ev.event_data.exec.process_tgid = pid;
	send_ev(&ev);
}

static void ev_exit(int pid, int parent, int parent_tgid)
{
	struct proc_event ev = { .what = PROC_EVENT_EXIT };

	ev.event_data.exit.process_pid = pid;
	ev.event_data.exit.process_tgid = pid;
	ev.event_data.exit.exit_signal = 17;
	ev.event_data.exit.parent_pid = parent;
	ev.event_data.exit.parent_tgid = parent_tgid;
	send_ev(&ev);
}

/* A child's whole life as the workload makes it: recorded fork, then its events. */
static void life(int worker, int child)
{
	cnproc_track_forked(&track, child);
	ev_fork(worker, SELF, child);
	ev_comm(child, CNPROC_CHILD_COMM);
	ev_exec(child);
	ev_exit(child, worker, SELF);
}

static void sequence_checks(void)
{
	static char buf[4 * MSG_SPACE];
	size_t off = 0;

	reset();
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_FORK, 3, 0xfffffffe);
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_FORK, 3, 0xffffffff);
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_FORK, 3, 0);
	cnproc_parse(&tally, buf, off);
	ok(!tally.lost && !tally.reordered && !errors_seen, "a CPU's sequence wrapping at 2^32 is in order");
	off = 0;
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_FORK, 2, 50);
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_EXIT, 2, 52);
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_COMM, 2, 51); /* sent before 52, received after */
	cnproc_parse(&tally, buf, off);
	ok(tally.reordered == 1 && errors_seen == 1, "a CPU's sequence going back (51 after 52): caught");
	off = 0;
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_EXIT, 2, 53);
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_EXIT, 2, 53);
	cnproc_parse(&tally, buf, off);
	ok(tally.reordered == 2 && errors_seen == 2, "a sequence number repeated: caught");
	is_u64(tally.errors, 2, "both counted as errors");
}

static void match_checks(void)
{
	const struct cnproc_child *c;
	int i;

	reset();
	life(WORKER, 2000);
	life(WORKER2, 2001);
	ok(!errors_seen && tally.checked > 0, "two children's lives: no error, checked");
	c = cnproc_track_child(&track, 2000);
	ok(c && c->made == 1 && c->fork_events == 1 && c->exit_events == 1 && !c->live && c->comm && c->exec,
	   "a child: forked once, its fork, comm, exec and exit events, no longer live");
	/* The fork event reaches the listener before the worker records the fork. */
	ev_fork(WORKER, SELF, 2002);
	cnproc_track_forked(&track, 2002);
	ev_exit(2002, WORKER, SELF);
	/* Other processes: a fork, a thread, their exits. */
	ev_fork(1, 1, 3000);
	ev_exit(3000, 1, 1);
	ev_comm(3001, "bash");
	ev_exit(3001, 1, 1);
	/* The pid of a child forked again after its reap. */
	life(WORKER2, 2000);
	cnproc_track_finish(&tally, true);
	ok(!errors_seen && !track.missing, "a fork recorded after its event, other processes, a pid used twice: no error");
	is_u64(cnproc_track_child(&track, 2000)->made, 2, "the pid used twice: two forks matched");

	reset();
	cnproc_track_forked(&track, 2000);
	ev_fork(4242, SELF, 2000);
	ok(errors_seen == 1, "a fork event from a thread that does not fork (the wrong parent): caught");

	reset();
	cnproc_track_forked(&track, 2000);
	ev_fork(WORKER, SELF, 2000);
	ev_exit(2000, WORKER2, SELF);
	ok(errors_seen == 1, "an exit event naming another parent than the fork event: caught");

	reset();
	cnproc_track_forked(&track, 2000);
	ev_fork(WORKER, SELF, 2000);
	ev_exit(2000, 0, 0);
	cnproc_track_finish(&tally, true);
	ok(errors_seen == 0 && track.missing == 0,
	   "an exit event with parent 0/0 (the zombie reaped before proc_exit_connector ran): no error");

	reset();
	cnproc_track_forked(&track, 2000);
	ev_fork(WORKER, SELF, 2000);
	ev_comm(2000, "locklat-cX");
	ok(errors_seen == 1, "a comm event with another name than the child set: caught");

	reset();
	cnproc_track_forked(&track, 2000);
	ev_fork(WORKER, SELF, 2000);
	ev_exec(2000);
	ev_comm(2000, CNPROC_CHILD_COMM);
	ok(errors_seen == 1, "a comm event after the exec event: caught");

	reset();
	life(WORKER, 2000);
	ev_exit(2500, WORKER, SELF);
	is_u64(errors_seen, 0, "an exit of a child of ours not forked: not yet (its fork event may be lost)");
	cnproc_track_finish(&tally, true);
	ok(errors_seen == 1, "... but the workload never forked it: caught at the end");

	reset();
	life(WORKER, 2000);
	ev_exit(2000, WORKER, SELF);
	cnproc_track_finish(&tally, true);
	ok(errors_seen == 1, "a second exit event of a child forked once: caught");

	reset();
	ev_fork(WORKER, SELF, 2000);
	ev_exit(2000, WORKER, SELF);
	cnproc_track_finish(&tally, true);
	ok(errors_seen == 1, "a fork event of a child the workload never forked: caught");

	reset();
	for (i = 0; i < 3; i++)
		cnproc_track_forked(&track, 2000 + i);
	life(WORKER, 2010);
	cnproc_track_finish(&tally, true);
	ok(errors_seen == 1 && track.missing == 6,
	   "three forks without their six events and nothing counted lost: caught");

	reset();
	cnproc_track_forked(&track, 2000);
	ev_fork(WORKER, SELF, 2000);
	seq0 += 2;	/* two messages lost: this child's comm and exec, say */
	ev_exit(2000, WORKER, SELF);
	cnproc_track_forked(&track, 2001);
	ev_fork(WORKER, SELF, 2001);
	seq0 += 1;	/* its exit event lost */
	cnproc_track_forked(&track, 2002);
	seq0 += 1;	/* its fork event lost */
	ev_exit(2002, WORKER, SELF);
	/* 2001's pid goes to another process: its life ends without an error. */
	ev_fork(1, 1, 2001);
	ev_comm(2001, "bash");
	ev_exit(2001, 1, 1);
	cnproc_track_finish(&tally, true);
	ok(!errors_seen && tally.lost == 4 && track.missing == 2,
	   "events missing, no more than the messages counted lost, a pid taken by another process: no error");

	reset();
	cnproc_track_forked(&track, 2000);
	cnproc_track_finish(&tally, false);
	ok(!errors_seen && track.missing == 2,
	   "events missing without the sentinels from every CPU (uncovered): counted, not an error");
	cnproc_track_free(&track);
}

int main(void)
{
	static char buf[16 * MSG_SPACE];
	struct cnproc_tally t;
	size_t off = 0;

	tap_plan(9 + 4 + 16);
	memset(&t, 0, sizeof(t));
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_FORK, 0, 10);
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_COMM, 0, 11);
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_EXEC, 1, 500);
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_EXIT, 0, 14); /* 12, 13 lost */
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_EXIT, 1, 501);
	put(buf, &off, CN_IDX_PROC + 1, PROC_EVENT_FORK, 0, 99); /* another connector */
	is_u64(cnproc_parse(&t, buf, off), 5, "five proc events in one datagram");
	is_u64(t.fork, 1, "fork events");
	is_u64(t.exec, 1, "exec events");
	is_u64(t.comm, 1, "comm events");
	is_u64(t.exit, 2, "exit events");
	is_u64(t.lost, 2, "a gap of two in CPU 0's sequence is two lost messages");
	is_u64(t.foreign, 1, "a message of another connector index is not an event");

	off = 0;
	put(buf, &off, CN_IDX_PROC, PROC_EVENT_FORK, 0, 15);
	cnproc_parse(&t, buf, off);
	is_u64(t.lost, 2, "the sequence carries over between datagrams");

	((struct nlmsghdr *)buf)->nlmsg_len = NLMSG_LENGTH(4);
	ok(cnproc_parse(&t, buf, off) < 0, "a truncated message is malformed");
	sequence_checks();
	match_checks();
	tap_exit();
}
