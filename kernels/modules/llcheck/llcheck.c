// SPDX-License-Identifier: GPL-2.0
/*
 * llcheck - what lockdep sees of a local_lock that it cannot see of a bare
 * preempt_disable(). Loaded only inside a locklat guest, one scenario per
 * load (scenario=...); the kernel's own checks (lockdep, lockdep_assert_held)
 * report, the harness counts their splats in dmesg between this module's
 * "start" and "end" lines.
 *
 *   a-preempt  per-CPU data under bare preempt_disable() in task context and
 *              touched from hard-irq context (irq_work): nothing can tell.
 *   a          the same data under a named local_lock, taken in task context
 *              with interrupts on and in hard-irq context: lockdep reports
 *              inconsistent lock usage ({HARDIRQ-ON-W} -> {IN-HARDIRQ-W}).
 *   b          the wrong substitution of Documentation/locking/locktypes.rst:
 *              two distinct local locks serialise one shared func3(), which
 *              asserts the lock it needs with lockdep_assert_held_once().
 *   c          the correct substitution: one local lock for both callers.
 *
 * Each scenario also prints whether interrupts were off inside
 * local_lock_irqsave(): on PREEMPT_RT they are not (the lock is a per-CPU
 * spinlock_t there).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debug_locks.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/local_lock.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/string.h>

static char *scenario = "c";
module_param(scenario, charp, 0444);
MODULE_PARM_DESC(scenario, "a-preempt, a, b or c (see the module's header)");

static unsigned int iterations = 1000;
module_param(iterations, uint, 0444);
MODULE_PARM_DESC(iterations, "task-context passes over the per-CPU data (1..1000000)");

struct llcheck_pcpu {
	local_lock_t lock;	/* scenarios a and c: the one right lock */
	local_lock_t lock_1;	/* scenario b: func1's lock */
	local_lock_t lock_2;	/* scenario b: func2's lock */
	unsigned long data;
};

static DEFINE_PER_CPU(struct llcheck_pcpu, llcheck_pcpu) = {
	.lock = INIT_LOCAL_LOCK(lock),
	.lock_1 = INIT_LOCAL_LOCK(lock_1),
	.lock_2 = INIT_LOCAL_LOCK(lock_2),
};

/* Interrupts were off in every section that should have turned them off. */
static bool irqs_off_in_sections;

/* --- scenario a: task context and hard-irq context share per-CPU data --- */

static bool use_local_lock;

static void llcheck_irq_work_fn(struct irq_work *work)
{
	if (use_local_lock) {
		local_lock(&llcheck_pcpu.lock);
		this_cpu_inc(llcheck_pcpu.data);
		local_unlock(&llcheck_pcpu.lock);
	} else {
		this_cpu_inc(llcheck_pcpu.data);
	}
}

/* Hard-irq context also on PREEMPT_RT, where irq_work would run in a thread. */
static struct irq_work llcheck_irq_work = IRQ_WORK_INIT_HARD(llcheck_irq_work_fn);

static void scenario_a(bool local)
{
	unsigned int i;

	use_local_lock = local;
	for (i = 0; i < iterations; i++) {
		if (local) {
			local_lock(&llcheck_pcpu.lock);
			this_cpu_inc(llcheck_pcpu.data);
			local_unlock(&llcheck_pcpu.lock);
		} else {
			preempt_disable();
			this_cpu_inc(llcheck_pcpu.data);
			preempt_enable();
		}
	}
	/*
	 * The hard-irq user runs after the task-context sections: no real
	 * deadlock, only the usage lockdep records.
	 */
	irq_work_queue(&llcheck_irq_work);
	irq_work_sync(&llcheck_irq_work);
}

/* --- scenarios b and c: callers of one function that needs one lock --- */

static void func3(void)
{
	/* lockdep_assert_held(), warning once per load rather than per call. */
	lockdep_assert_held_once(this_cpu_ptr(&llcheck_pcpu.lock));
	if (!irqs_disabled())
		irqs_off_in_sections = false;
	this_cpu_inc(llcheck_pcpu.data);
}

static void func1(bool wrong)
{
	unsigned long flags;

	if (wrong) {
		local_lock_irqsave(&llcheck_pcpu.lock_1, flags);
		func3();
		local_unlock_irqrestore(&llcheck_pcpu.lock_1, flags);
	} else {
		local_lock_irqsave(&llcheck_pcpu.lock, flags);
		func3();
		local_unlock_irqrestore(&llcheck_pcpu.lock, flags);
	}
}

static void func2(bool wrong)
{
	unsigned long flags;

	if (wrong) {
		local_lock_irqsave(&llcheck_pcpu.lock_2, flags);
		func3();
		local_unlock_irqrestore(&llcheck_pcpu.lock_2, flags);
	} else {
		local_lock_irqsave(&llcheck_pcpu.lock, flags);
		func3();
		local_unlock_irqrestore(&llcheck_pcpu.lock, flags);
	}
}

static void scenario_bc(bool wrong)
{
	unsigned int i;

	for (i = 0; i < iterations; i++) {
		func1(wrong);
		func2(wrong);
	}
}

static int __init llcheck_init(void)
{
	if (iterations < 1 || iterations > 1000000) {
		pr_err("iterations=%u: want 1..1000000\n", iterations);
		return -EINVAL;
	}
	if (strcmp(scenario, "a-preempt") && strcmp(scenario, "a") &&
	    strcmp(scenario, "b") && strcmp(scenario, "c")) {
		pr_err("scenario=%s: want a-preempt, a, b or c\n", scenario);
		return -EINVAL;
	}
	irqs_off_in_sections = true;
	pr_info("scenario=%s start iterations=%u lockdep=%d preempt_rt=%d\n", scenario,
		iterations, IS_ENABLED(CONFIG_PROVE_LOCKING), IS_ENABLED(CONFIG_PREEMPT_RT));
	if (!strcmp(scenario, "a-preempt"))
		scenario_a(false);
	else if (!strcmp(scenario, "a"))
		scenario_a(true);
	else
		scenario_bc(!strcmp(scenario, "b"));
	/* debug_locks drops to 0 once lockdep has reported (it then stops checking). */
	pr_info("scenario=%s end irqs_off_in_irqsave_sections=%s debug_locks=%d\n", scenario,
		strcmp(scenario, "b") && strcmp(scenario, "c") ? "n/a" :
		irqs_off_in_sections ? "yes" : "no", debug_locks);
	return 0;
}

static void __exit llcheck_exit(void)
{
	irq_work_sync(&llcheck_irq_work);
}

module_init(llcheck_init);
module_exit(llcheck_exit);
MODULE_DESCRIPTION("locklat: local_lock misuse that lockdep detects and preempt_disable() hides");
MODULE_LICENSE("GPL");
