/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cell.h - one result cell as the summary sees it (layout: results/README.md).
 */
#ifndef LOCKLAT_CELL_H
#define LOCKLAT_CELL_H

#include <stdbool.h>
#include <stdint.h>

#include "kvfile.h"
#include "stats.h"

#define CELL_MAX_THREADS 64
#define CELL_MAX_ITEMS 32
#define CELL_MAX_SECONDS 86400
/* Passes the summary knows (pass.h: summary_passes) and runs of them a cell may hold. */
#define CELL_MAX_PASSES 16
/* A second of a time series with no data. */
#define LL_NO_VALUE UINT64_MAX

/* A call site of kernels/call-sites: the functions that open or close its section, and those inside it. */
struct call_site {
	char *name;
	char **functions;		/* boundary functions first, then inside ones */
	unsigned int nfunctions, nboundary;
};

struct call_sites {
	struct call_site *sites;
	unsigned int count;
};

/*
 * Who a traced section is blamed on (blame.c; METHODOLOGY.md, "Traced
 * evidence"): a call site only when the section opened or closed in one of
 * its boundary functions; an interrupt when it opened or closed in interrupt
 * entry or exit code (its interrupted context is shown as context, never as
 * a culprit); else nobody, with where it opened and closed.
 */
enum blame_kind { BLAME_NONE, BLAME_SITE, BLAME_INTERRUPT };

struct blame {
	enum blame_kind kind;
	const char *call_site;		/* BLAME_SITE: kernels/call-sites' name */
	char interrupt[80];		/* BLAME_INTERRUPT: "local timer interrupt", ... */
	char section[200];		/* "opened…closed", or one name */
	char context[240];		/* the interrupted code, or where the stack was: "f ← g ← h (in site)" */
	char text[480];			/* all of it, in words */
};

/*
 * The section that opened in opened and closed in closed (either may be ""),
 * with its stack (innermost first; an interrupt's entry frames, asm_*,
 * separate it from the code it interrupted), blamed by cs's rules.
 */
void blame_section(struct blame *b, const struct call_sites *cs, const char *opened, const char *closed,
		   const char *const *stack, unsigned int nstack);
/*
 * "task_blocks_on_rt_mutex.constprop.0+0x1f4/0x3a0 [mod]" ->
 * "task_blocks_on_rt_mutex": a stack frame's function, without its offset
 * and the compiler's clone suffixes, as kernels/call-sites names it.
 */
void frame_function(char *dst, size_t size, const char *frame);
/* The index in cs of the first site with frame's function among its (boundary, with boundary_only) functions, or -1. */
int call_site_index(const struct call_sites *cs, const char *frame, bool boundary_only);

#define TRACE_MAX_RUNS 4

/* The worst section a latency tracer kept (the worst of its runs). */
struct trace_worst {
	bool present;
	uint64_t max_us;	/* tracing_max_latency, read in the guest */
	uint64_t header_us;	/* "# latency: N us" of trace.txt */
	char started[128];
	char ended[128];
	char stack[8][128];	/* innermost first, as the kernel prints it */
	unsigned int nstack;
	struct blame blame;
	char run[16];		/* the pass it came from: "preemptoff", "preemptoff.2" */
	bool load_dead;		/* that pass's workload had died when it ended (guest/workload-RUN.alive) */
	/* Every run's maximum, in pass order: the spread of this noisy quantity. */
	uint64_t runs_us[TRACE_MAX_RUNS];
	unsigned int nruns;
};

#define WAKEUP_MAX_FRAMES 24

/*
 * The worst wake-up, traced (a timerlat pass, guest/timerlat[.N]/, read by
 * pass-timerlat.c from its timerlat.dat): tracing stopped at the first wake-up
 * later than threshold_us; the sample that stopped it, the section that
 * delayed it (preemptirq events) and the stack at the timer interrupt.
 */
struct wakeup_trace {
	bool present;		/* the pass ran: it wrote its threshold */
	uint64_t threshold_us;
	uint64_t idle_max_us;		/* timerlat's idle noise, measured first (0: unknown) */
	uint64_t latency_pass_max_us;	/* what the threshold is a fraction of (0: unknown) */
	uint64_t threshold_percent;	/* the fraction, in % (0: unknown) */
	bool has_max;
	double max_us;		/* timerlat's largest thread latency while tracing ran */
	bool stopped;		/* the threshold stopped tracing */
	bool hit;		/* stopped, and the sample that did it is in the trace */
	bool trace_lost;	/* a wake-up crossed the threshold, but its trace is not there */
	int cpu;
	/* hit: */
	bool irq;		/* IRQ latency (interrupts were off), else thread latency */
	double latency_us, irq_latency_us;
	char blocking_thread[64];	/* comm:pid the timer interrupted */
	char stack[WAKEUP_MAX_FRAMES][96];	/* at the timer IRQ, innermost first */
	unsigned int nstack;
	char opened[96];	/* thread: the preempt-off section open at the IRQ; IRQ: the irqs-off one before it */
	char closed[96];	/* where it closed */
	struct blame blame;
	char run[16];		/* the pass it came from */
	bool load_dead;		/* that pass's workload had died when it ended (guest/workload-RUN.alive) */
	double runs_us[TRACE_MAX_RUNS];	/* each run's max_us, in pass order */
	unsigned int nruns;
};

/* What the summary's analysis (analyse.c) makes of a cell. */
struct cell_verdict {
	/*
	 * Its latency numbers count: it measured (OK or FINDINGS, or TIMEOUT
	 * in a later pass after its latency pass completed), on the plain
	 * kernel, and its load ran through the pass.
	 */
	bool measured;
	bool died_in_latency;		/* the guest hung or panicked in the latency pass */
	bool failed_in_latency;		/* that, or its load died there: ranked as the worst */
	bool panicked;			/* the findings include a kernel panic */
	const char *left_out;		/* why it is not among its group's repetitions, or NULL */
	/* Of the steady histogram (the whole pass's without one); *_over: among the overflows. */
	uint64_t p50_us, p99_us, p999_us;
	bool p50_over, p99_over, p999_over;
	/* Of the whole pass's histogram, as summary.csv has them. */
	uint64_t pass_p50_us, pass_p99_us, pass_p999_us;
};

#define LOAD_MAX_SECONDS 600

/*
 * Whether the workload ran through the latency pass. Its progress lines
 * ("locklat-progress uptime_ms=N ops=M", one a second) and the pass's start
 * and end on the same clock (/proc/uptime) say when it stopped; the guest's
 * workload-latency.alive whether it was still running when cyclictest ended.
 */
enum load_verdict {
	LOAD_NONE,	/* the workload runs nothing (idle) */
	LOAD_UNKNOWN,	/* no progress data (a cell from before it was written) */
	LOAD_ALIVE,	/* running and progressing in every second of the pass */
	LOAD_DEAD,	/* died, exited early or stalled: not a measurement under load */
};

struct load_state {
	enum load_verdict verdict;
	double died_at_s;		/* LOAD_DEAD: seconds into the pass it stopped progressing */
	char reason[400];		/* LOAD_DEAD: died / exited early / stalled, how, and the first splat */
	double pass_start_s, pass_end_s;	/* guest/latency-window, uptime seconds */
	/* Operations done in each second of the pass (from the progress lines). */
	unsigned int nseconds;
	uint64_t ops[LOAD_MAX_SECONDS];
};

struct finding {
	char kind[40];
	unsigned int count;
	char line[240];
};

/*
 * The path proof's rule (METHODOLOGY.md, "Path proof"): a target is reached
 * when the workload's own processes hit it at least PATH_MIN_HITS times and
 * at least PATH_IDLE_FACTOR times as often as every task of the same kernel
 * did in the idle control of the same length.
 */
#define PATH_MIN_HITS 10
#define PATH_IDLE_FACTOR 10

/* One target of the verification pass (guest/path-hits). */
struct path_hit {
	char function[80];
	bool unavailable;	/* the kernel could not probe it */
	bool has_idle;		/* an idle control was counted (cells since the kprobe pass) */
	uint64_t hits;		/* by the workload's processes (older cells: by any task) */
	uint64_t idle_hits;	/* by every task, no workload, same duration */
	bool reached;		/* by the rule above; older cells: hits > 0 */
};

/*
 * The lock events of the verification pass (guest/lock-events, results/README.md):
 * per event, the hits with the workload running (the harness's processes
 * left out) and in an idle control of the same length, and the stacks
 * behind them (guest/lock-events.d/{workload,idle}-<event>.hist, ftrace hist
 * triggers keyed by common_stacktrace). A stack belongs to the call site
 * (kernels/call-sites) whose boundary function it passes through, the
 * innermost one if several: the site that called the lock.
 *   contention  lock:contention_begin with LCB_F_RT: a task entered the RT
 *               lock slow path (on PREEMPT_RT every spinlock_t, so every
 *               local_lock, is an rtmutex; elsewhere only rt_mutex).
 *   pi_setprio  sched:sched_pi_setprio: a priority change by priority
 *               inheritance; a BOOST when the stack passes through
 *               task_blocks_on_rt_mutex or rt_mutex_adjust_prio_chain (a
 *               waiter raising the owner), else a de-boost (the unlock).
 */
#define CELL_MAX_SITES 16
#define CELL_MAX_LOCK_EVENTS 8
#define LOCK_EVENT_CONTENTION "contention"
#define LOCK_EVENT_PI_SETPRIO "pi_setprio"

/* One histogram file's stacks, summed. */
struct lock_stacks {
	bool present;			/* the .hist file was read */
	uint64_t hits;			/* its entries' hitcounts, summed */
	uint64_t entries, dropped;	/* its Totals: Entries, Dropped */
	uint64_t boosts;		/* pi_setprio: hits whose stack is a boost */
	uint64_t unattributed;		/* hits through no call site's boundary function */
	uint64_t site_hits[CELL_MAX_SITES];	/* per call site, indexed as cell.lock_sites */
	uint64_t site_boosts[CELL_MAX_SITES];
};

struct lock_event {
	char name[32];
	bool unavailable;		/* the kernel lacks it ("<event> unavailable") */
	bool has_idle;			/* the line has an idle control count */
	uint64_t workload_hits, idle_hits;	/* guest/lock-events */
	struct lock_stacks workload, idle;	/* guest/lock-events.d/{workload,idle}-<event>.hist */
};

/*
 * The data the workload checked (its locklat-integrity lines, one per pass's
 * output: guest/workload-<pass>.out), summed over the cell's passes.
 */
struct integrity {
	bool present;			/* some pass's output had the line */
	unsigned int passes;		/* outputs with the line */
	uint64_t checked, errors;
	char first[240];		/* the first error's description, in pass order */
	char first_pass[16];		/* and the pass it came from */
};

/* One llcheck scenario of the modules pass (kernels/modules/llcheck). */
struct llcheck_result {
	char scenario[24];
	bool loaded;		/* insmod and rmmod both succeeded */
	bool detected;		/* the kernel reported it: a splat in that load's dmesg */
	char kind[40];		/* findings.sh kind of the first splat */
	char line[240];		/* and its first line */
	char irqs_off[8];	/* interrupts off in every local_lock_irqsave section: yes, no, n/a */
	int debug_locks;	/* after the scenario; -1 unknown */
};

/* One operation of llbench: ns per lock/unlock pair over its rounds. */
struct llbench_result {
	char op[32];
	unsigned int iterations, rounds;
	double min_ns, median_ns, max_ns;
};

#define CELL_MAX_MODULE_ROWS 8

/*
 * The settings a run's cells are compared on and their provenance, as meta
 * records them (results/README.md): the keys are named once, in cell.c's
 * table, and the stages after load ask by this enum.
 */
enum cell_setting {
	CS_ACCEL,
	CS_VCPUS,
	CS_GUEST_MEM_MIB,
	CS_DURATION_S,
	CS_WARMUP_S,
	CS_TRACE_DURATION_S,
	CS_HIST_RANGE_US,
	CS_KERNEL_SOURCE,
	CS_GCC,
	CS_QEMU,
	CS_RT_TESTS,
	CS_TRACE_CMD,
	CS_HOST_CPU,
	CS_HOST,
	CS_SUITE_REVISION,
	CS_N
};

struct cell {
	char *dir;
	/* Read once, at load (cell.c); the stages after it use the fields below. */
	struct kvfile meta;
	const char *variant, *workload, *status, *reason, *accel;
	unsigned int rep;
	const char *setting[CS_N];	/* as recorded, "?" when absent */
	const char *passes;		/* the passes it ran; NULL in cells that lack the key */
	const char *setup, *targets;	/* its workload's; NULL when absent */
	const char *host, *host_cpu;	/* NULL in cells from before they were kept */
	const char *kernel_release, *kernel_source, *patches;	/* of the kernel it booted ("" when absent) */
	const char *preempt_model;	/* "preempt", "rt"; NULL when absent */
	bool lockdep;			/* its kernel has lockdep */
	bool flavour_recorded;		/* meta names its kernel_flavour (cells since the plain/traced split) */
	char series_applied[256];	/* the patch series its kernel applied, space-separated */
	uint64_t vcpus, duration_s, warmup_s, layout_version;	/* 0 when absent */
	/*
	 * The cell booted the variant's traced kernel (meta kernel_flavour:
	 * the passes that need the preemptoff/irqsoff tracers run there). Its
	 * latency pass measures the tracers' hooks too: shown apart, never
	 * among the repetitions. Older cells (no kernel_flavour) are plain.
	 */
	bool traced_kernel;
	char name[24];			/* its folder: rep<N>, or traced */

	bool has_latency;		/* cyclictest.json parsed */
	bool latency_step_ok;		/* guest/steps: "latency 0", the pass completed */
	char hung_step[24];		/* TIMEOUT: the step the console shows started, never ended */
	unsigned int nthreads;
	uint64_t thread_max_us[CELL_MAX_THREADS];
	uint64_t thread_cycles[CELL_MAX_THREADS];
	uint64_t max_us;		/* over all threads: cyclictest's true max */
	uint64_t cycles;
	double avg_us;			/* sample-weighted over threads */
	struct histogram hist;		/* all threads merged */
	uint64_t text_max_us;		/* "# Max Latencies" of cyclictest.out, 0 if absent */
	bool has_text_max;
	uint64_t text_overflow;		/* "# Histogram Overflows", summed */
	bool has_text_overflow;

	/*
	 * The latency pass as a time series: per thread, the maximum of each
	 * second, from every sample cyclictest printed (-v, file
	 * guest/cyclictest-samples). A sample belongs to the second of its
	 * expected wake-up time, which the samples give exactly: cyclictest
	 * sets the next wake-up one interval on, then skips whole intervals
	 * until it is no longer in the past, so after a sample of latency L
	 * the next expected time is max(1, ceil(L / interval)) intervals on.
	 * LL_NO_VALUE marks a second without a sample.
	 */
	bool has_series;
	unsigned int series_threads, series_seconds;
	uint64_t *series;		/* [thread * series_seconds + second] */

	/*
	 * The pass split at the start-up window (cell_load's window_us): what
	 * falls in it is cyclictest's own start (thread creation, mlockall
	 * faults) and the load's ramp, reported apart; the steady state after
	 * it is what the statistics compare. From the sample stream; without
	 * one (older cells) has_steady is false and the whole pass stands in.
	 */
	bool has_steady;
	uint64_t window_us;		/* the start-up window applied */
	uint64_t duration_us, interval_us;	/* the pass as cyclictest was asked to run it */
	uint64_t steady_max_us;		/* over threads, after the window (tail and censored waits included) */
	uint64_t startup_max_us;	/* over threads, inside the window */
	uint64_t stream_max_us;		/* of the printed samples, whole pass (<= max_us) */
	bool max_in_tail;		/* cyclictest's max fell among the last, unprinted wake-ups */
	/*
	 * A thread that stopped waking before the pass ended (or never woke):
	 * its wait from the last wake-up the stream accounts for to the end
	 * of the pass is a latency of at least that long, a lower bound.
	 */
	uint64_t censored_us;		/* the longest such wait over threads, 0 if none */
	unsigned int starved_threads;	/* threads with such a wait */
	bool steady_censored;		/* steady_max_us is such a lower bound */
	uint64_t wakeups_due;		/* duration / interval, summed over threads */
	uint64_t wakeups_due_steady;	/* the same, after the window */
	uint64_t wakeups_steady;	/* recorded after the window (printed + unprinted tail) */
	/*
	 * The steady state's samples, corrected for coordinated omission:
	 * each period a late wake-up made cyclictest skip is counted as the
	 * wake-up it would have been (latency L - k * interval at the k-th
	 * skipped period), as HdrHistogram's correction does. Percentiles
	 * come from it.
	 */
	struct histogram steady_hist;
	struct histogram steady_measured;	/* the same without the correction: the wake-ups cyclictest printed */
	uint64_t steady_added;		/* wake-ups the correction added */
	/*
	 * The worst wake-up of each whole second after the window, over all
	 * threads, skipped periods counted as above (a second a stall spans
	 * has the wait it would have seen): the pass as block maxima. Their
	 * median is a repetition's typical worst second, far steadier than its
	 * single worst one, and the repetitions stay the units a test compares.
	 */
	unsigned int nblocks;
	uint64_t *blocks;		/* [nblocks] */
	uint64_t block_median_us;

	/* The load during the latency pass (guest/workload-latency.*, latency-window). */
	struct load_state load;

	struct trace_worst preemptoff, irqsoff;
	struct wakeup_trace wakeup;

	bool has_modules;		/* guest/modules/ exists: the modules pass ran */
	struct llcheck_result llcheck[CELL_MAX_MODULE_ROWS];
	unsigned int nllcheck;
	struct llbench_result llbench[CELL_MAX_MODULE_ROWS];
	unsigned int nllbench;

	struct finding findings[CELL_MAX_ITEMS];
	unsigned int nfindings;
	struct path_hit hits[CELL_MAX_ITEMS];
	unsigned int nhits;
	char workload_stats[512];	/* the locklat-stats line of the latency pass */
	/*
	 * The workload's tasks (the first locklat-stats line in pass order:
	 * cpus=, tasks= per CPU, fifo_prio= of each CPU's first task, 0: none;
	 * else meta tasks_per_cpu); 0 / -1 when unknown (older cells: threads=).
	 */
	unsigned int tasks_per_cpu, task_cpus;
	int fifo_prio;
	struct integrity integrity;
	/*
	 * PREEMPT_RT: its kernel's manifest.preempt_model is "rt" (kernels/build.sh
	 * sets it from the built .config's CONFIG_PREEMPT_RT=y); without that key,
	 * uname.txt's "PREEMPT_RT". rt_known: either said.
	 */
	bool preempt_rt, rt_known;
	/* The verify pass's lock events; lock_sites: kernels/call-sites' names, in its order. */
	bool has_lock_events;
	struct lock_event lock_events[CELL_MAX_LOCK_EVENTS];
	unsigned int nlock_events;
	const char *lock_sites[CELL_MAX_SITES];
	unsigned int nlock_sites;
	/*
	 * The workload's call site: the first of kernels/call-sites with a
	 * function among the cell's verify targets (path-hits), else the one
	 * with the most contention hits; -1 if neither. lock_site_by_targets:
	 * found by the targets.
	 */
	int lock_site;
	bool lock_site_by_targets;
	char reason_buf[256];		/* owns reason when the summary changes it */

	struct cell_verdict judged;	/* set by the analysis (analyse.c), zero from cell_load */
	/* A pass's own data (pass.h), by its index in summary_passes; its free op releases it. */
	void *priv[CELL_MAX_PASSES];
};

int call_sites_load(struct call_sites *cs, const char *path);
void call_sites_free(struct call_sites *cs);

/*
 * Parse the cell in dir. Returns 0 for a complete cell (meta has complete=1),
 * 1 for a directory that is not a complete cell, -1 on a read error. A
 * problem with the cell's content (e.g. cyclictest's maxima disagree) turns
 * its status into INVALID with the reason.
 */
int cell_load(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us);
/* A load verdict's name in summary.json and summary.csv: "none", "unknown", "alive", "dead". */
const char *load_verdict_name(enum load_verdict v);
/* The findings include a kernel panic. */
bool cell_panicked(const struct cell *c);
/* Which of its variant's kernels the cell booted: "plain" or "traced". */
static inline const char *cell_flavour(const struct cell *c)
{
	return c->traced_kernel ? "traced" : "plain";
}
void cell_free(struct cell *c);

/* The event named name of c, or NULL. */
const struct lock_event *cell_lock_event(const struct cell *c, const char *name);
/*
 * "locklat-integrity workload=W checked=N errors=M[ first=TEXT]": N, M and
 * TEXT into checked, errors and first ("" without one); false for another line.
 */
bool integrity_line_parse(const char *line, uint64_t *checked, uint64_t *errors, char *first, size_t size);
/* The integrity lines of every guest/workload-<pass>.out of guest_dir, summed, in pass order. */
void integrity_load(struct integrity *in, const char *guest_dir);
/* The first word of dir/name (qemu-exit, workload-PASS.alive) into out; "" if absent. */
void file_word(char *out, size_t size, const char *dir, const char *name);
/* Whether name is a word of the space-separated list (a cell's series_applied). */
bool series_listed(const char *list, const char *name);
/* A cell's findings file (findings.sh: "kind<TAB>count<TAB>first line") into out; how many. */
unsigned int findings_read(struct finding *out, unsigned int max, const char *path);
/* A cell's guest/path-hits into out, each judged reached or not (PATH_MIN_HITS); how many. */
unsigned int path_hits_read(struct path_hit *out, unsigned int max, const char *path);
/* The cell's data integrity checks found a wrong item: a finding, never OK. */
static inline bool cell_corrupted(const struct cell *c)
{
	return c->integrity.errors > 0;
}

/*
 * For the passes' loaders (pass.h): s without its leading and trailing
 * white space (in place); the cell made INVALID for why; "NAME" for run 1
 * of a pass, "NAME.N" after it (bench/guest/init's repeated passes);
 * whether the workload of the pass RUN had died when the pass ended (it
 * wrote guest/workload-RUN.alive "no": a traced figure of that pass is not
 * the workload's; unknown counts as alive); the passes whose workload output
 * a cell may have, in the order they ran (guest/steps' order, then the
 * registry's for any it does not name), each at most 15 chars: how many.
 */
char *cell_trim(char *s);
void cell_invalidate(struct cell *c, const char *why);
void pass_run_name(char *dst, size_t size, const char *name, unsigned int run);
bool pass_load_dead(const char *dir, const char *run);
unsigned int cell_pass_order(const char *guest_dir, char names[][16]);

#endif /* LOCKLAT_CELL_H */
