// SPDX-License-Identifier: GPL-2.0
/*
 * test-cnproc - proc connector message accounting: event kinds, per-CPU
 * sequence gaps, foreign and malformed messages. The messages are built the
 * way the kernel's send_msg() lays them out (nlmsghdr, cn_msg, proc_event).
 */
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <stdlib.h>

#include "cnproc-msg.h"
#include "tap.h"

#define MSG_SPACE NLMSG_SPACE(sizeof(struct cn_msg) + sizeof(struct proc_event))

/* Append one proc event message at buf + *off. */
static void put(char *buf, size_t *off, unsigned int idx, unsigned int what,
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
}

int main(void)
{
	static char buf[16 * MSG_SPACE];
	struct cnproc_tally t;
	size_t off = 0;

	tap_plan(9);
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
	tap_exit();
}
