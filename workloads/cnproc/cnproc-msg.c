// SPDX-License-Identifier: GPL-2.0
/*
 * cnproc-msg.c - proc connector message accounting, see cnproc-msg.h.
 */
#include "cnproc-msg.h"

#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <string.h>

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
		if (cpu >= CNPROC_MAX_CPUS)
			continue;
		/* The first message from a CPU sets where its sequence stands. */
		if (t->seen[cpu] && msg->seq != t->next_seq[cpu])
			t->lost += (uint32_t)(msg->seq - t->next_seq[cpu]);
		t->seen[cpu] = 1;
		t->next_seq[cpu] = msg->seq + 1;
	}
	return found;
}
