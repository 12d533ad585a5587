/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readers.h - which file of the image a squashfs reader reads next.
 *
 * The readers of one CPU read disjoint files: task t of its CPU (of T per
 * CPU) the files whose index is t modulo T, the k-th time the (k + cpu)-th
 * of them, so that CPUs start at different ones. Two tasks of a CPU reading
 * one file race to evict and look up its page cache (POSIX_FADV_DONTNEED),
 * and on PREEMPT_RT that livelocks: the SCHED_OTHER task is preempted in
 * __remove_mapping() (the i_pages lock sleeps there) with the folio's
 * refcount frozen, and the FIFO task's lockless lookup (find_get_entry())
 * retries on that folio until 6.12's fair deadline server runs the other
 * task, about a second later and ahead of every real-time task. That is
 * the page cache's hazard, not the decompressor's, whose per-CPU stream all
 * of a CPU's readers still share.
 */
#ifndef LOCKLAT_SQUASHFS_READERS_H
#define LOCKLAT_SQUASHFS_READERS_H

/* The file index for task (of tasks per CPU) on cpu, the k-th read; needs files >= tasks. */
static inline unsigned int reader_file(unsigned int task, unsigned int tasks, unsigned int cpu,
				       unsigned long long k, unsigned int files)
{
	unsigned int mine = (files - task + tasks - 1) / tasks;

	return task + tasks * (unsigned int)((k + cpu) % mine);
}

#endif
