// SPDX-License-Identifier: GPL-2.0
/*
 * llbench - what a local lock costs: ns per lock/unlock pair of
 * local_lock/local_unlock and local_lock_irqsave/local_unlock_irqrestore,
 * against preempt_disable/enable and local_irq_save/restore, and an empty
 * section ("none") as the loop's own cost. Every section increments a per-CPU
 * counter so that none is empty to the compiler.
 *
 * Loaded only inside a locklat guest; it runs at load time on the CPU it is
 * loaded on (migration disabled) and prints one line per operation:
 *   llbench: op=NAME iterations=N rounds=R min_ns=X median_ns=Y max_ns=Z
 * X, Y and Z are ns per pair over a round of N pairs (under tcg-icount:
 * instruction time). Then it stays loaded until removed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/local_lock.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/sort.h>

static unsigned int iterations = 100000;
module_param(iterations, uint, 0444);
MODULE_PARM_DESC(iterations, "lock/unlock pairs per round (1..100000000)");

static unsigned int rounds = 11;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "timed rounds per operation (1..1001)");

struct llbench_pcpu {
	local_lock_t lock;
	unsigned long counter;
};

static DEFINE_PER_CPU(struct llbench_pcpu, llbench_pcpu) = {
	.lock = INIT_LOCAL_LOCK(lock),
};

/* One round: n pairs of an operation. noinline keeps each loop apart. */
static noinline void round_none(unsigned int n)
{
	while (n--)
		this_cpu_inc(llbench_pcpu.counter);
}

static noinline void round_preempt_disable(unsigned int n)
{
	while (n--) {
		preempt_disable();
		this_cpu_inc(llbench_pcpu.counter);
		preempt_enable();
	}
}

static noinline void round_local_lock(unsigned int n)
{
	while (n--) {
		local_lock(&llbench_pcpu.lock);
		this_cpu_inc(llbench_pcpu.counter);
		local_unlock(&llbench_pcpu.lock);
	}
}

static noinline void round_local_irq_save(unsigned int n)
{
	unsigned long flags;

	while (n--) {
		local_irq_save(flags);
		this_cpu_inc(llbench_pcpu.counter);
		local_irq_restore(flags);
	}
}

static noinline void round_local_lock_irqsave(unsigned int n)
{
	unsigned long flags;

	while (n--) {
		local_lock_irqsave(&llbench_pcpu.lock, flags);
		this_cpu_inc(llbench_pcpu.counter);
		local_unlock_irqrestore(&llbench_pcpu.lock, flags);
	}
}

static const struct llbench_op {
	const char *name;
	void (*round)(unsigned int n);
} llbench_ops[] = {
	{ "none", round_none },
	{ "preempt_disable", round_preempt_disable },
	{ "local_lock", round_local_lock },
	{ "local_irq_save", round_local_irq_save },
	{ "local_lock_irqsave", round_local_lock_irqsave },
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* "12.34": ns per pair from a round's total ns, two decimals. */
static void per_pair(char *buf, size_t size, u64 total_ns)
{
	u64 centi = div_u64(total_ns * 100, iterations);

	snprintf(buf, size, "%llu.%02llu", centi / 100, centi % 100);
}

static int __init llbench_init(void)
{
	char lo[24], mid[24], hi[24];
	unsigned int i, r;
	u64 *ns;

	if (iterations < 1 || iterations > 100000000 || rounds < 1 || rounds > 1001) {
		pr_err("iterations=%u rounds=%u: want 1..100000000 and 1..1001\n", iterations, rounds);
		return -EINVAL;
	}
	ns = kcalloc(rounds, sizeof(*ns), GFP_KERNEL);
	if (!ns)
		return -ENOMEM;
	/* One CPU throughout: the per-CPU data and the clock stay put. */
	migrate_disable();
	for (i = 0; i < ARRAY_SIZE(llbench_ops); i++) {
		llbench_ops[i].round(iterations / 10 + 1);	/* warm caches and branch predictors */
		for (r = 0; r < rounds; r++) {
			u64 t0 = ktime_get_ns();

			llbench_ops[i].round(iterations);
			ns[r] = ktime_get_ns() - t0;
		}
		sort(ns, rounds, sizeof(*ns), cmp_u64, NULL);
		per_pair(lo, sizeof(lo), ns[0]);
		per_pair(mid, sizeof(mid), ns[rounds / 2]);
		per_pair(hi, sizeof(hi), ns[rounds - 1]);
		pr_info("op=%s iterations=%u rounds=%u min_ns=%s median_ns=%s max_ns=%s\n",
			llbench_ops[i].name, iterations, rounds, lo, mid, hi);
	}
	migrate_enable();
	kfree(ns);
	return 0;
}

static void __exit llbench_exit(void)
{
}

module_init(llbench_init);
module_exit(llbench_exit);
MODULE_DESCRIPTION("locklat: cost of local_lock against preempt_disable and local_irq_save");
MODULE_LICENSE("GPL");
