/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cnproc-msg.h - parse proc connector messages (NETLINK_CONNECTOR, CN_IDX_PROC).
 */
#ifndef LOCKLAT_CNPROC_MSG_H
#define LOCKLAT_CNPROC_MSG_H

#include <stddef.h>
#include <stdint.h>

#define CNPROC_MAX_CPUS 256

/* What a listener has seen so far. */
struct cnproc_tally {
	uint64_t events;		/* proc events received */
	uint64_t fork, exec, comm, exit, other;
	uint64_t lost;			/* gaps in a CPU's sequence numbers */
	uint64_t foreign;		/* netlink messages that are not proc events */
	uint32_t next_seq[CNPROC_MAX_CPUS];
	uint8_t seen[CNPROC_MAX_CPUS];
};

/*
 * Account every netlink message in buf[0..len). send_msg() numbers the
 * messages of each CPU consecutively (cn_msg.seq, a per-CPU counter), so a
 * jump in a CPU's sequence is that many messages lost. Returns the number of
 * proc events found, or -1 if buf is malformed.
 */
int cnproc_parse(struct cnproc_tally *t, const void *buf, size_t len);

#endif /* LOCKLAT_CNPROC_MSG_H */
