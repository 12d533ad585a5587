// SPDX-License-Identifier: GPL-2.0
/*
 * pass-timerlat.c - the timerlat pass (bench/passes/timerlat/): the traced
 * worst wake-up of each run, read from its
 * trace-cmd file (NAME/timerlat.dat, bench/passes/timerlat/run) with
 * libtracecmd and libtraceevent: the sample that stopped tracing, the
 * interrupt's and the thread's latency, the preempt-off or irqs-off section
 * that delayed it (from the preemptirq events), the task the timer
 * interrupted and the stack timerlat saved there.
 */
#define _GNU_SOURCE
#include "analyse.h"
#include "pass.h"
#include "render-md.h"
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#include "locklat.h"

/* timerlat's sample context (kernel/trace/trace_osnoise.c). */
enum { TIMERLAT_IRQ = 0, TIMERLAT_THREAD = 1 };

struct timerlat_scan {
	struct tep_handle *tep;
	struct tep_event *sample, *stack, *preempt_off, *preempt_on, *irq_off, *irq_on;
	unsigned long long stext;
	unsigned long long threshold_ns;
	/* First pass: the stop, the last sample at or over the threshold. */
	bool found;
	int cpu;
	unsigned long long seq, stop_ts;
	int context;
	/* Second pass, on the stop's CPU. */
	bool after_irq, done;
	/*
	 * Preemption on the CPU: unknown until its first preempt event (a
	 * section may have opened before the trace's first event), then on,
	 * or off with where it went off.
	 */
	enum { PREEMPT_UNKNOWN, PREEMPT_ON, PREEMPT_OFF } preempt, preempt_at_irq;
	char preempt_opened[96];
	char irq_opened[96];		/* where interrupts went off, while they are ("" before the first) */
	char irq_section_opened[96], irq_section_closed[96];	/* the last irqs-off section that ended */
	struct wakeup_trace *w;
};

static bool field_u64(struct tep_event *ev, struct tep_record *rec, const char *name, unsigned long long *v)
{
	return ev && tep_get_field_val(NULL, ev, name, rec, v, 0) == 0;
}

static bool is_event(struct tep_event *ev, struct tep_record *rec, struct tep_handle *tep)
{
	return ev && tep_data_type(tep, rec) == ev->id;
}

/* Where a section opened when the trace holds no event of it. */
#define BEFORE_TRACE "(before the trace began)"

/* The function a preemptirq event's caller offset (from _stext) falls in. */
static void caller_name(struct timerlat_scan *s, struct tep_event *ev, struct tep_record *rec,
			char *dst, size_t size)
{
	unsigned long long offs;
	const char *fn;

	snprintf(dst, size, "?");
	if (!s->stext || !field_u64(ev, rec, "caller_offs", &offs))
		return;
	fn = tep_find_function(s->tep, s->stext + (unsigned long long)(long long)(int)offs);
	snprintf(dst, size, "%s", fn ? fn : "?");
}

static int stop_find(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct timerlat_scan *s = data;
	unsigned long long lat, seq, ctx;

	(void)h;
	if (!is_event(s->sample, rec, s->tep) || !field_u64(s->sample, rec, "timer_latency", &lat) ||
	    !field_u64(s->sample, rec, "seqnum", &seq) || !field_u64(s->sample, rec, "context", &ctx))
		return 0;
	if (lat >= s->threshold_ns && (!s->found || rec->ts >= s->stop_ts)) {
		s->found = true;
		s->cpu = cpu;
		s->seq = seq;
		s->context = (int)ctx;
		s->stop_ts = rec->ts;
	}
	return 0;
}

/* The timer interrupt of the stop: what was open then, and who ran. */
static void irq_sample_seen(struct timerlat_scan *s, struct tep_record *rec, unsigned long long lat)
{
	struct wakeup_trace *w = s->w;
	const char *comm = tep_data_comm_from_pid(s->tep, tep_data_pid(s->tep, rec));

	s->after_irq = true;
	w->irq_latency_us = lat / 1000.0;
	snprintf(w->blocking_thread, sizeof(w->blocking_thread), "%s:%d", comm ? comm : "?",
		 tep_data_pid(s->tep, rec));
	if (s->context == TIMERLAT_IRQ || w->irq) {
		/* The interrupt came late: the irqs-off section that ended as it came. */
		w->irq = true;
		snprintf(w->opened, sizeof(w->opened), "%s", s->irq_section_opened);
		snprintf(w->closed, sizeof(w->closed), "%s", s->irq_section_closed);
	} else if (s->preempt == PREEMPT_OFF) {
		/* The thread came late: the preempt-off section the interrupt found open. */
		snprintf(w->opened, sizeof(w->opened), "%s", s->preempt_opened);
	}
	s->preempt_at_irq = s->preempt;
}

static int stop_explain(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct timerlat_scan *s = data;
	struct wakeup_trace *w = s->w;
	char fn[96];

	(void)h;
	if (cpu != s->cpu || s->done)
		return 0;
	if (is_event(s->sample, rec, s->tep)) {
		unsigned long long lat, seq, ctx;

		if (!field_u64(s->sample, rec, "seqnum", &seq) || seq != s->seq ||
		    !field_u64(s->sample, rec, "context", &ctx) || !field_u64(s->sample, rec, "timer_latency", &lat))
			return 0;
		if (ctx == TIMERLAT_IRQ) {
			irq_sample_seen(s, rec, lat);
		} else {
			w->latency_us = lat / 1000.0;
		}
		if (ctx == TIMERLAT_IRQ && s->context == TIMERLAT_IRQ)
			w->latency_us = lat / 1000.0;
	} else if (is_event(s->stack, rec, s->tep) && s->after_irq && rec->ts >= s->stop_ts) {
		struct tep_format_field *caller = tep_find_field(s->stack, "caller");
		unsigned long long n, i, room;
		int long_size = tep_get_long_size(s->tep);
		const unsigned char *raw;

		/*
		 * The format gives the array FTRACE_STACK_ENTRIES (8) entries;
		 * the record holds size of them, up to its own end.
		 */
		if (!caller || !field_u64(s->stack, rec, "size", &n) || (int)caller->offset >= rec->size)
			return 0;
		raw = (const unsigned char *)rec->data + caller->offset;
		room = (unsigned long long)(rec->size - caller->offset) / long_size;
		for (i = 0; i < n && i < room && w->nstack < WAKEUP_MAX_FRAMES; i++) {
			unsigned long long addr = 0;
			const char *name;

			memcpy(&addr, raw + i * long_size, long_size);
			name = tep_find_function(s->tep, addr);
			snprintf(w->stack[w->nstack++], sizeof(w->stack[0]), "%s", name ? name : "?");
		}
		s->done = true;
	} else if (is_event(s->preempt_off, rec, s->tep)) {
		if (!s->after_irq) {
			caller_name(s, s->preempt_off, rec, s->preempt_opened, sizeof(s->preempt_opened));
			s->preempt = PREEMPT_OFF;
		}
	} else if (is_event(s->preempt_on, rec, s->tep)) {
		caller_name(s, s->preempt_on, rec, fn, sizeof(fn));
		if (!s->after_irq) {
			s->preempt = PREEMPT_ON;
		} else if (!w->irq && !w->closed[0] && s->preempt_at_irq != PREEMPT_ON) {
			/*
			 * The first enable after the interrupt ends the section it
			 * found open, or one that opened before the trace began.
			 */
			if (s->preempt_at_irq == PREEMPT_UNKNOWN)
				snprintf(w->opened, sizeof(w->opened), "%s", BEFORE_TRACE);
			snprintf(w->closed, sizeof(w->closed), "%s", fn);
			s->preempt_at_irq = PREEMPT_OFF;
		}
	} else if (is_event(s->irq_off, rec, s->tep) && !s->after_irq) {
		caller_name(s, s->irq_off, rec, s->irq_opened, sizeof(s->irq_opened));
	} else if (is_event(s->irq_on, rec, s->tep) && !s->after_irq) {
		snprintf(s->irq_section_opened, sizeof(s->irq_section_opened), "%s",
			 s->irq_opened[0] ? s->irq_opened : BEFORE_TRACE);
		caller_name(s, s->irq_on, rec, s->irq_section_closed, sizeof(s->irq_section_closed));
		s->irq_opened[0] = '\0';
	}
	return 0;
}

/* The events the scan reads, from h's format descriptions (NULL: not recorded). */
static void events_find(struct timerlat_scan *s, struct tracecmd_input *h)
{
	s->tep = tracecmd_get_tep(h);
	s->sample = tep_find_event_by_name(s->tep, "ftrace", "timerlat");
	s->stack = tep_find_event_by_name(s->tep, "ftrace", "kernel_stack");
	s->preempt_off = tep_find_event_by_name(s->tep, "preemptirq", "preempt_disable");
	s->preempt_on = tep_find_event_by_name(s->tep, "preemptirq", "preempt_enable");
	s->irq_off = tep_find_event_by_name(s->tep, "preemptirq", "irq_disable");
	s->irq_on = tep_find_event_by_name(s->tep, "preemptirq", "irq_enable");
}

/* A number file of dir (decimal), into v; false if absent. */
static bool dir_u64(const char *dir, const char *name, uint64_t *v)
{
	char path[8192];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_u64_file(path, v) == 0;
}

static int wakeup_dat_load(struct wakeup_trace *w, const char *dir)
{
	struct timerlat_scan s = { 0 };
	struct tracecmd_input *h;
	char path[8192], line[64];
	uint64_t v;
	FILE *f;

	memset(w, 0, sizeof(*w));
	if (!dir_u64(dir, "threshold_us", &w->threshold_us))
		return 1;
	w->present = true;
	dir_u64(dir, "idle_max_us", &w->idle_max_us);
	dir_u64(dir, "threshold_percent", &w->threshold_percent);
	if (dir_u64(dir, "latency_pass_max_us", &v))
		w->latency_pass_max_us = v;
	if (dir_u64(dir, "max_us", &v)) {
		w->max_us = (double)v;
		w->has_max = true;
	}
	snprintf(path, sizeof(path), "%s/stopped", dir);
	f = fopen(path, "r");
	if (f) {
		w->stopped = fgets(line, sizeof(line), f) && !strncmp(line, "yes", 3);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/stext", dir);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llx", &s.stext) != 1)
			s.stext = 0;
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/timerlat.dat", dir);
	if (access(path, R_OK) != 0 || !(h = tracecmd_open(path, 0))) {
		w->trace_lost = w->stopped || (w->has_max && w->max_us >= (double)w->threshold_us);
		return 0;
	}
	s.threshold_ns = w->threshold_us * 1000;
	s.w = w;
	/* Two passes over the events: find the stop, then explain it. */
	events_find(&s, h);
	if (w->stopped && s.sample)
		tracecmd_iterate_events(h, NULL, 0, stop_find, &s);
	tracecmd_close(h);
	if (s.found && (h = tracecmd_open(path, 0))) {
		w->hit = true;
		w->irq = s.context == TIMERLAT_IRQ;
		w->cpu = s.cpu;
		events_find(&s, h);
		tracecmd_iterate_events(h, NULL, 0, stop_explain, &s);
		tracecmd_close(h);
	}
	w->trace_lost = !w->hit && (w->stopped || (w->has_max && w->max_us >= (double)w->threshold_us));
	return 0;
}
static int wakeup_load(struct wakeup_trace *w, const char *dir, const struct call_sites *cs)
{
	const char *frames[WAKEUP_MAX_FRAMES];
	unsigned int i;
	int ret = wakeup_dat_load(w, dir);

	if (ret || !w->hit)
		return ret;
	for (i = 0; i < w->nstack; i++)
		frames[i] = w->stack[i];
	/*
	 * The stack is the timer interrupt's: context for a thread latency
	 * (the code it found preemption off in), nothing about the irqs-off
	 * section that held the interrupt itself back.
	 */
	blame_section(&w->blame, cs, w->opened, w->closed, frames, w->irq ? 0 : w->nstack);
	return 0;
}

/*
 * The timerlat runs into c->wakeup: of those whose load lived (else of
 * all), the hit with the largest latency, else the run with the largest max.
 */
static void timerlat_load(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us)
{
	double runs[TRACE_MAX_RUNS] = { 0 };
	char worst[16] = "";
	unsigned int n = 0;
	struct wakeup_trace *w = &c->wakeup;
	unsigned int run;

	(void)window_us;
	memset(w, 0, sizeof(*w));
	for (run = 1; run <= TRACE_MAX_RUNS; run++) {
		struct wakeup_trace r;
		char path[4096], rn[16];
		bool better;

		pass_run_name(rn, sizeof(rn), "timerlat", run);
		snprintf(path, sizeof(path), "%s/guest/%s", dir, rn);
		if (wakeup_load(&r, path, cs))
			continue;
		r.load_dead = pass_load_dead(dir, rn);
		better = !w->present || (w->load_dead && !r.load_dead) ||
			 (w->load_dead == r.load_dead &&
			  ((r.hit && (!w->hit || r.latency_us > w->latency_us)) ||
			   (!r.hit && !w->hit && (r.trace_lost || (!w->trace_lost && r.max_us > w->max_us)))));
		if (better) {
			*w = r;
			snprintf(worst, sizeof(worst), "%s", rn);
		}
		runs[n++] = r.has_max ? r.max_us : r.latency_us;
	}
	memcpy(w->runs_us, runs, sizeof(runs));
	w->nruns = n;
	snprintf(w->run, sizeof(w->run), "%s", worst);
}

/* The analysis */

/* trace_beyond_latency's test for the traced wake-up. */
static bool wakeup_beyond_latency(const struct group *g, const struct wakeup_trace *w)
{
	return g->trace_ref_us > 0 && w->hit && w->latency_us > TRACE_LATENCY_FACTOR * g->trace_ref_us;
}


/* The group's traced wake-up: its first repetition whose timerlat pass reported. */
static void timerlat_group_add(struct group *g, const struct cell *c)
{
	if (c->wakeup.present && (!g->wakeup_cell || c->rep < g->wakeup_cell->rep))
		g->wakeup_cell = c;
}

static void timerlat_group_finish(struct group *g)
{
	g->wakeup_flagged = g->wakeup_cell && wakeup_beyond_latency(g, &g->wakeup_cell->wakeup);
	g->wakeup_inflated = g->wakeup_cell && g->wakeup_cell->wakeup.hit && g->n && g->latency_max_us > 0 &&
			     g->wakeup_cell->wakeup.latency_us > TRACE_LATENCY_FACTOR * g->latency_max_us;
}

/* summary.md */

static void md_cell_wakeup(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	md_trace_ev(f, g, TK_WAKEUP, notes);
}

static const struct md_row timerlat_md_rows[] = {
	{ "worst wake-up traced (timerlat): culprit", md_cell_wakeup, ROW_ALWAYS },
};

/* summary.json */

static json_object *json_wakeup(const struct wakeup_trace *w)
{
	json_object *o, *stack;
	unsigned int i;

	if (!w->present)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "run", json_object_new_string(w->run));
	json_object_object_add(o, "threshold_us", json_object_new_int64((int64_t)w->threshold_us));
	json_object_object_add(o, "threshold_percent", json_object_new_int64((int64_t)w->threshold_percent));
	json_object_object_add(o, "latency_pass_max_us", json_object_new_int64((int64_t)w->latency_pass_max_us));
	json_object_object_add(o, "idle_max_us", json_object_new_int64((int64_t)w->idle_max_us));
	json_object_object_add(o, "timerlat_max_us", w->has_max ? json_object_new_double(w->max_us) : NULL);
	json_object_object_add(o, "runs_max_us", json_runs(w->runs_us, w->nruns));
	json_object_object_add(o, "stopped", json_object_new_boolean(w->stopped));
	json_object_object_add(o, "hit", json_object_new_boolean(w->hit));
	json_object_object_add(o, "trace_lost", json_object_new_boolean(w->trace_lost));
	json_object_object_add(o, "load_alive", json_object_new_boolean(!w->load_dead));
	if (!w->hit)
		return o;
	json_object_object_add(o, "kind", json_object_new_string(w->irq ? "irq" : "thread"));
	json_object_object_add(o, "latency_us", json_object_new_double(w->latency_us));
	json_object_object_add(o, "irq_latency_us", json_object_new_double(w->irq_latency_us));
	json_object_object_add(o, "interrupted_task", json_object_new_string(w->blocking_thread));
	json_object_object_add(o, "section_opened_in", json_object_new_string(w->opened));
	json_object_object_add(o, "section_closed_in", json_object_new_string(w->closed));
	json_object_object_add(o, "blame", json_blame(&w->blame));
	stack = json_object_new_array();
	for (i = 0; i < w->nstack; i++)
		json_object_array_add(stack, json_object_new_string(w->stack[i]));
	json_object_object_add(o, "stack_at_irq", stack);
	return o;
}


static void timerlat_json_cell(json_object *o, const struct run *run, const struct cell *c)
{
	(void)run;
	json_object_object_add(o, "worst_wakeup", json_wakeup(&c->wakeup));
}

const struct pass_ops pass_timerlat = {
	.name = "timerlat",
	.load = timerlat_load,
	.group_add = timerlat_group_add,
	.group_finish = timerlat_group_finish,
	.md_rows = timerlat_md_rows,
	.nmd_rows = ARRAY_SIZE(timerlat_md_rows),
	.json_cell = timerlat_json_cell,
};
