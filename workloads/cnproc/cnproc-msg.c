// SPDX-License-Identifier: GPL-2.0
/*
 * cnproc-msg.c - proc connector message accounting and matching, see
 * cnproc-msg.h.
 */
#include "cnproc-msg.h"

#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(struct cnproc_tally *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(struct cnproc_tally *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	t->errors++;
	if (!t->error)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->error(msg);
}

/* The table of children. */

static size_t home(const struct cnproc_track *k, int32_t pid)
{
	return (size_t)(((uint64_t)(uint32_t)pid * 0x9e3779b97f4a7c15ULL) >> 32) & k->mask;
}

static struct cnproc_child *slot(const struct cnproc_track *k, int32_t pid)
{
	size_t i = home(k, pid);

	while (k->children[i].pid && k->children[i].pid != pid)
		i = (i + 1) & k->mask;
	return &k->children[i];
}

static int table_alloc(struct cnproc_track *k, size_t slots)
{
	k->children = calloc(slots, sizeof(*k->children));
	if (!k->children)
		return -1;
	k->mask = slots - 1;
	k->n = 0;
	return 0;
}

/* The entry of pid, made if there is none; NULL (and broken) when out of memory. */
static struct cnproc_child *child_get(struct cnproc_track *k, int32_t pid)
{
	struct cnproc_child *c = slot(k, pid);

	if (c->pid)
		return c;
	if (2 * (k->n + 1) > k->mask + 1) {
		struct cnproc_child *old = k->children;
		size_t i, slots = k->mask + 1;

		if (table_alloc(k, 2 * slots)) {
			k->children = old;
			k->broken = true;
			return NULL;
		}
		for (i = 0; i < slots; i++)
			if (old[i].pid) {
				*slot(k, old[i].pid) = old[i];
				k->n++;
			}
		free(old);
		c = slot(k, pid);
	}
	c->pid = pid;
	k->n++;
	return c;
}

const struct cnproc_child *cnproc_track_child(const struct cnproc_track *k, int32_t pid)
{
	const struct cnproc_child *c;

	if (pid <= 0)
		return NULL;
	c = slot(k, pid);
	return c->pid ? c : NULL;
}

int cnproc_track_init(struct cnproc_track *k, int32_t self)
{
	memset(k, 0, sizeof(*k));
	k->self = self;
	return table_alloc(k, 1024);
}

void cnproc_track_free(struct cnproc_track *k)
{
	free(k->children);
	free(k->workers);
	k->children = NULL;
	k->workers = NULL;
}

void cnproc_track_worker(struct cnproc_track *k, int32_t tid)
{
	if (k->nworkers == k->workers_cap) {
		size_t cap = k->workers_cap ? 2 * k->workers_cap : 16;
		int32_t *w = realloc(k->workers, cap * sizeof(*w));

		if (!w) {
			k->broken = true;
			return;
		}
		k->workers = w;
		k->workers_cap = cap;
	}
	k->workers[k->nworkers++] = tid;
}

static bool is_worker(const struct cnproc_track *k, int32_t tid)
{
	size_t i;

	for (i = 0; i < k->nworkers; i++)
		if (k->workers[i] == tid)
			return true;
	return false;
}

void cnproc_track_forked(struct cnproc_track *k, int32_t pid)
{
	struct cnproc_child *c;

	if (pid <= 0)
		return;
	c = child_get(k, pid);
	if (c)
		c->made++;
}

/* The live child of pid, or NULL. */
static struct cnproc_child *live_child(struct cnproc_track *k, int32_t pid)
{
	struct cnproc_child *c;

	if (pid <= 0)
		return NULL;
	c = slot(k, pid);
	return c->pid && c->live ? c : NULL;
}

static void track_fork(struct cnproc_tally *t, const struct proc_event *ev)
{
	struct cnproc_track *k = t->track;
	int32_t parent = ev->event_data.fork.parent_pid, child = ev->event_data.fork.child_pid;
	struct cnproc_child *c = live_child(k, child);

	/* A new task with the pid of a live child: that child's exit event was lost. */
	if (c)
		c->live = 0;
	if (ev->event_data.fork.parent_tgid != k->self || child != ev->event_data.fork.child_tgid ||
	    child <= 0 || child == k->self)
		return;		/* not a process the workload forked */
	c = child_get(k, child);
	if (!c)
		return;
	c->fork_events++;
	c->live = 1;
	c->parent = parent;
	c->comm = c->exec = 0;
	if (!is_worker(k, parent))
		fail(t, "fork event of child %d names parent thread %d, which is not a worker that forks",
		     (int)child, (int)parent);
	else
		t->checked++;
}

static void track_comm(struct cnproc_tally *t, const struct proc_event *ev)
{
	struct cnproc_track *k = t->track;
	int32_t pid = ev->event_data.comm.process_pid;
	struct cnproc_child *c = live_child(k, pid);
	char comm[sizeof(ev->event_data.comm.comm) + 1];

	memcpy(comm, ev->event_data.comm.comm, sizeof(ev->event_data.comm.comm));
	comm[sizeof(comm) - 1] = '\0';
	if (!c) {
		if (pid == k->self && ev->event_data.comm.process_tgid == k->self &&
		    !strcmp(comm, CNPROC_SENTINEL_COMM) && ev->cpu < CNPROC_MAX_CPUS)
			k->sentinels[ev->cpu]++;
		return;
	}
	if (strcmp(comm, CNPROC_CHILD_COMM)) {
		if (!t->lost)
			fail(t, "comm event of child %d: '%s', not '%s'", (int)pid, comm, CNPROC_CHILD_COMM);
	} else if (c->exec) {
		if (!t->lost)
			fail(t, "comm event of child %d after its exec event", (int)pid);
	} else {
		t->checked++;
	}
	c->comm = 1;
}

static void track_exec(struct cnproc_tally *t, const struct proc_event *ev)
{
	struct cnproc_child *c = live_child(t->track, ev->event_data.exec.process_pid);

	if (!c)
		return;
	c->exec = 1;
	t->checked++;
}

static void track_exit(struct cnproc_tally *t, const struct proc_event *ev)
{
	struct cnproc_track *k = t->track;
	int32_t pid = ev->event_data.exit.process_pid, parent = ev->event_data.exit.parent_pid;
	bool ours = ev->event_data.exit.parent_tgid == k->self && pid == ev->event_data.exit.process_tgid &&
		    pid > 0 && pid != k->self;
	struct cnproc_child *c = live_child(k, pid);

	/*
	 * The kernel fills the parent only while the task's pid is attached
	 * (pid_alive()); proc_exit_connector() runs after exit_notify(), so a
	 * parent that reaped the zombie in between (a preempted exit) leaves
	 * 0/0: an unknown parent, not a wrong one.
	 */
	bool unknown = parent == 0 && ev->event_data.exit.parent_tgid == 0;

	if (c) {
		c->live = 0;
		c->exit_events++;
		if (unknown && pid == ev->event_data.exit.process_tgid) {
			t->checked++;
		} else if (!ours || parent != c->parent) {
			if (!t->lost)
				fail(t, "exit event of child %d names parent %d (process %d), its fork event %d (process %d)",
				     (int)pid, (int)parent, (int)ev->event_data.exit.parent_tgid, (int)c->parent,
				     (int)k->self);
		} else {
			t->checked++;
		}
		return;
	}
	/* A child whose fork event did not come: settled at the end. */
	if (ours) {
		c = child_get(k, pid);
		if (c)
			c->exit_events++;
	}
}

static void track_event(struct cnproc_tally *t, const struct proc_event *ev)
{
	switch (ev->what) {
	case PROC_EVENT_FORK: track_fork(t, ev); break;
	case PROC_EVENT_COMM: track_comm(t, ev); break;
	case PROC_EVENT_EXEC: track_exec(t, ev); break;
	case PROC_EVENT_EXIT: track_exit(t, ev); break;
	default: break;
	}
}

void cnproc_track_finish(struct cnproc_tally *t, bool covered)
{
	struct cnproc_track *k = t->track;
	uint64_t missing = 0;
	size_t i;

	if (k->broken)
		return;
	for (i = 0; i <= k->mask; i++) {
		const struct cnproc_child *c = &k->children[i];

		if (!c->pid)
			continue;
		if (c->fork_events > c->made)
			fail(t, "child %d: %u fork events, but the workload's forks returned it %u times",
			     (int)c->pid, c->fork_events, c->made);
		else if (c->exit_events > c->made)
			fail(t, "child %d: %u exit events, but the workload's forks returned it %u times",
			     (int)c->pid, c->exit_events, c->made);
		else
			t->checked++;
		if (c->made > c->fork_events)
			missing += c->made - c->fork_events;
		if (c->made > c->exit_events)
			missing += c->made - c->exit_events;
	}
	k->missing = missing;
	if (missing <= t->lost)
		t->checked++;
	else if (covered)
		fail(t, "%llu fork and exit events of the workload's children neither received nor counted lost (%llu lost)",
		     (unsigned long long)missing, (unsigned long long)t->lost);
}

int cnproc_parse(struct cnproc_tally *t, const void *buf, size_t len)
{
	const struct nlmsghdr *nlh = buf;
	int found = 0;
	/* NLMSG_OK wants an int-sized length. */
	int left = len > (size_t)0x7fffffff ? 0x7fffffff : (int)len;

	for (; NLMSG_OK(nlh, (unsigned int)left); nlh = NLMSG_NEXT(nlh, left)) {
		const struct cn_msg *msg;
		const struct proc_event *ev;
		uint32_t cpu;

		if (nlh->nlmsg_type == NLMSG_ERROR || nlh->nlmsg_type == NLMSG_NOOP)
			continue;
		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*msg) + sizeof(*ev)))
			return -1;
		msg = NLMSG_DATA(nlh);
		if (msg->id.idx != CN_IDX_PROC || msg->id.val != CN_VAL_PROC) {
			t->foreign++;
			continue;
		}
		ev = (const struct proc_event *)msg->data;
		switch (ev->what) {
		case PROC_EVENT_FORK: t->fork++; break;
		case PROC_EVENT_EXEC: t->exec++; break;
		case PROC_EVENT_COMM: t->comm++; break;
		case PROC_EVENT_EXIT: t->exit++; break;
		default: t->other++; break;
		}
		t->events++;
		found++;
		cpu = ev->cpu;
		if (cpu < CNPROC_MAX_CPUS) {
			/* The first message from a CPU sets where its sequence stands. */
			int32_t ahead = (int32_t)(msg->seq - t->next_seq[cpu]);

			if (!t->seen[cpu] || ahead >= 0) {
				if (t->seen[cpu]) {
					t->lost += (uint32_t)ahead;
					t->checked++;
				}
				t->seen[cpu] = 1;
				t->next_seq[cpu] = msg->seq + 1;
			} else {
				t->reordered++;
				fail(t, "CPU %u: message %u after %u: its sequence %s", cpu, msg->seq,
				     t->next_seq[cpu] - 1, ahead == -1 ? "repeated" : "went back");
			}
		}
		if (t->track)
			track_event(t, ev);
	}
	return found;
}
