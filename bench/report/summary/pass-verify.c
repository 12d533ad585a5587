// SPDX-License-Identifier: GPL-2.0
/*
 * pass-verify.c - the verify pass (bench/passes/verify/): the path proof
 * (guest/path-hits, read by cell.c's path_hits_read, which the cell's judge
 * reads too) and the lock events with their stacks attributed to call
 * sites; its rows of a workload's table and its members of a cell in
 * summary.json.
 */
#define _GNU_SOURCE
#include "pass.h"
#include "render-md.h"
#include "render.h"

#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locklat.h"

/*
 * A pi_setprio stack through the lock side of an rtmutex is a waiter
 * raising the owner's priority: task_blocks_on_rt_mutex() and the chain
 * walk, or (where 6.12 inlines those) the slow-path function that called
 * them, rtlock_slowlock_locked() for a spinlock_t/local_lock,
 * rt_mutex_slowlock*() for an rt_mutex. The unlock side
 * (rt_mutex_slowunlock()) is the owner dropping back: a de-boost.
 */
static bool boost_frame(const char *fn)
{
	return !strcmp(fn, "task_blocks_on_rt_mutex") || !strcmp(fn, "rt_mutex_adjust_prio_chain") ||
	       !strcmp(fn, "rtlock_slowlock_locked") || !strncmp(fn, "rt_mutex_slowlock", 17) ||
	       !strcmp(fn, "__rt_mutex_slowlock") || !strcmp(fn, "__rt_mutex_slowlock_locked");
}

/* The index in cs of the site whose boundary functions include fn, or -1. */
static int boundary_site(const struct call_sites *cs, const char *fn)
{
	int i = call_site_index(cs, fn, true);

	return i < CELL_MAX_SITES ? i : -1;
}

/* One entry's hitcount ("} hitcount: N") into s, by the site and kind its frames gave. */
static void lock_entry_add(struct lock_stacks *s, const char *close, int site, bool boost)
{
	const char *h = strstr(close, "hitcount:");
	unsigned long long v;

	if (!h || sscanf(h + 9, "%llu", &v) != 1)
		return;
	s->hits += v;
	if (site >= 0)
		s->site_hits[site] += v;
	else
		s->unattributed += v;
	if (boost) {
		s->boosts += v;
		if (site >= 0)
			s->site_boosts[site] += v;
	}
}

/*
 * ftrace's hist output: per entry "{ common_stacktrace:" then a frame a
 * line ("symbol+0xOFF/0xSIZE [module]", innermost first), then "}
 * hitcount: N"; "Totals:" with Hits, Entries and Dropped at the end. A key
 * and its "}" on one line ("{ common_pid: ... } hitcount: N") are read too.
 */
int lock_stacks_load(struct lock_stacks *s, const char *path, const struct call_sites *cs, bool boosts)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	bool in_key = false, boost = false, totals = false;
	int site = -1;
	unsigned long long v;

	memset(s, 0, sizeof(*s));
	if (!f)
		return errno == ENOENT ? 1 : -1;
	while (getline(&line, &cap, f) >= 0) {
		char *t = cell_trim(line), *close, fn[128];

		if (!in_key) {
			size_t label;

			if (sscanf(t, "Hits: %llu", &v) == 1)
				totals = true;
			else if (sscanf(t, "Entries: %llu", &v) == 1)
				s->entries = v;
			else if (sscanf(t, "Dropped: %llu", &v) == 1)
				s->dropped = v;
			if (*t != '{')
				continue;
			/* "{ common_stacktrace:" (older kernels: "stacktrace:"); a frame may follow on the line. */
			in_key = true;
			boost = false;
			site = -1;
			t = cell_trim(t + 1);
			label = strcspn(t, " \t");
			if (label && t[label - 1] == ':')
				t = cell_trim(t + label);
		}
		close = strchr(t, '}');
		if (close)
			*close = '\0';
		t = cell_trim(t);
		if (*t && *t != '#') {
			frame_function(fn, sizeof(fn), t);
			if (site < 0)
				site = boundary_site(cs, fn);
			boost |= boosts && boost_frame(fn);
		}
		if (close) {
			lock_entry_add(s, close + 1, site, boost);
			in_key = false;
		}
	}
	free(line);
	fclose(f);
	s->present = true;
	return totals || s->hits ? 0 : -1;
}

/*
 * The workload's call site: the first site with a function among the
 * verify targets (path-hits), else the one the most contention stacks
 * passed through.
 */
static void lock_site_choose(struct cell *c, const struct call_sites *cs)
{
	const struct lock_event *e = cell_lock_event(c, LOCK_EVENT_CONTENTION);
	unsigned int i, j, k;
	uint64_t best = 0;

	c->lock_site = -1;
	c->lock_site_by_targets = false;
	for (i = 0; cs && i < c->nlock_sites; i++)
		for (j = 0; j < cs->sites[i].nfunctions; j++)
			for (k = 0; k < c->nhits; k++)
				if (!strcmp(cs->sites[i].functions[j], c->hits[k].function)) {
					c->lock_site = (int)i;
					c->lock_site_by_targets = true;
					return;
				}
	for (i = 0; e && i < c->nlock_sites; i++)
		if (e->workload.site_hits[i] > best) {
			best = e->workload.site_hits[i];
			c->lock_site = (int)i;
		}
}

static int lock_events_load(struct cell *c, const char *guest_dir, const struct call_sites *cs)
{
	char path[8192], line[256], name[32], count[32], idle[32];
	unsigned int i;
	uint64_t n, m;
	FILE *f;

	c->has_lock_events = false;
	c->nlock_events = 0;
	c->nlock_sites = 0;
	c->lock_site = -1;
	for (i = 0; cs && i < cs->count && i < CELL_MAX_SITES; i++)
		c->lock_sites[c->nlock_sites++] = cs->sites[i].name;
	snprintf(path, sizeof(path), "%s/lock-events", guest_dir);
	f = fopen(path, "r");
	if (!f)
		return 1;
	c->has_lock_events = true;
	while (c->nlock_events < CELL_MAX_LOCK_EVENTS && fgets(line, sizeof(line), f)) {
		struct lock_event *e = &c->lock_events[c->nlock_events];
		int fields = sscanf(line, "%31s %31s %31s", name, count, idle);
		bool boosts = !strcmp(name, LOCK_EVENT_PI_SETPRIO);

		if (fields < 2 || name[0] == '#')
			continue;
		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%s", name);
		if (!strcmp(count, "unavailable")) {
			e->unavailable = true;
		} else if (!parse_u64(count, 0, UINT64_MAX, &n)) {
			continue;
		} else {
			e->workload_hits = n;
			if (fields == 3 && parse_u64(idle, 0, UINT64_MAX, &m)) {
				e->idle_hits = m;
				e->has_idle = true;
			}
			snprintf(path, sizeof(path), "%s/lock-events.d/workload-%s.hist", guest_dir, name);
			lock_stacks_load(&e->workload, path, cs, boosts);
			snprintf(path, sizeof(path), "%s/lock-events.d/idle-%s.hist", guest_dir, name);
			lock_stacks_load(&e->idle, path, cs, boosts);
		}
		c->nlock_events++;
	}
	fclose(f);
	lock_site_choose(c, cs);
	return 0;
}

/* The path proof and the lock events of the cell in dir. */
static void verify_load(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us)
{
	char path[4096];

	(void)window_us;
	snprintf(path, sizeof(path), "%s/guest/path-hits", dir);
	c->nhits = path_hits_read(c->hits, CELL_MAX_ITEMS, path);
	snprintf(path, sizeof(path), "%s/guest", dir);
	lock_events_load(c, path, cs);
}

/* The analysis */

/* The group's first repetitions with target hits and with lock events. */
static void verify_group_add(struct group *g, const struct cell *c)
{
	if (c->nhits && (!g->verify_cell || c->rep < g->verify_cell->rep))
		g->verify_cell = c;
	if (c->has_lock_events && (!g->lock_cell || c->rep < g->lock_cell->rep))
		g->lock_cell = c;
}

static void verify_run_finish(struct run *run)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		run->has_lock_events |= run->cells[i].has_lock_events;
}

/* summary.md */

/*
 * How many of the workload's target functions the verification pass reached
 * (its own processes, well above the idle control: PATH_MIN_HITS,
 * PATH_IDLE_FACTOR), in the first repetition that has one, naming those it
 * did not reach and those the kernel could not probe: the call sites a
 * column's latency figures actually stand for.
 */
static void md_targets_reached(FILE *f, const struct group *g, struct md_notes *notes)
{
	const struct cell *c = g->verify_cell;
	unsigned int k, reached = 0, probed = 0, missed = 0, unavailable = 0;
	bool controlled = false;
	char text[768];
	size_t len;

	if (!c) {
		fprintf(f, " – |");
		return;
	}
	for (k = 0; k < c->nhits; k++) {
		reached += c->hits[k].reached;
		probed += !c->hits[k].unavailable;
		controlled |= c->hits[k].has_idle;
	}
	fprintf(f, " %u of %u", reached, probed);
	len = (size_t)snprintf(text, sizeof(text), "verify pass:");
	for (k = 0; k < c->nhits && len < sizeof(text); k++)
		if (!c->hits[k].reached && !c->hits[k].unavailable)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s`%s`", missed++ ? ", " : " not reached ",
						c->hits[k].function);
	for (k = 0; k < c->nhits && len < sizeof(text); k++)
		if (c->hits[k].unavailable)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s`%s`",
						unavailable++ ? ", " : missed ? "; not probeable " : " not probeable ",
						c->hits[k].function);
	if (!controlled && len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, "%shits by any task, without an idle control",
			 missed + unavailable ? "; " : " ");
	if (missed || unavailable || !controlled)
		md_note(f, notes, "%s", text);
	fprintf(f, " |");
}

static void md_cell_targets(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	md_targets_reached(f, g, notes);
}

static void md_lock_cell(FILE *f, const struct group *g, const char *event, bool boosts)
{
	unsigned long long n = 0, idle = 0;
	bool has_idle = false;
	const char *why;

	if (!lock_at_site(g, event, boosts, &n, &idle, &has_idle, &why)) {
		fprintf(f, " %s |", why);
		return;
	}
	fprintf(f, " %llu", n);
	if (has_idle)
		fprintf(f, " (idle %llu)", idle);
	fprintf(f, "%s |", !boosts && lock_site_odd(g) ? " †" : "");
}

static void md_cell_contention(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	(void)notes;
	md_lock_cell(f, g, LOCK_EVENT_CONTENTION, false);
}

static void md_cell_boosts(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	(void)run;
	(void)notes;
	md_lock_cell(f, g, LOCK_EVENT_PI_SETPRIO, true);
}

static const struct md_row verify_md_rows[] = {
	{ "targets reached (verify pass)", md_cell_targets, ROW_ALWAYS },
	{ "RT lock slow path at the site (verify)", md_cell_contention, ROW_LOCK },
	{ "PI boosts at the site (verify)", md_cell_boosts, ROW_LOCK },
};

/* summary.json */

/* One histogram's stacks per call site ({site: {workload, idle[, boosts, idle_boosts]}}), sites with any hit. */
static json_object *json_lock_sites(const struct cell *c, const struct lock_event *e, bool boosts)
{
	json_object *o = json_object_new_object();
	unsigned int s;

	for (s = 0; s < c->nlock_sites; s++) {
		json_object *site;

		if (!e->workload.site_hits[s] && !e->idle.site_hits[s])
			continue;
		site = json_object_new_object();
		json_object_object_add(site, "workload", json_object_new_int64((int64_t)e->workload.site_hits[s]));
		json_object_object_add(site, "idle", e->idle.present ?
				       json_object_new_int64((int64_t)e->idle.site_hits[s]) : NULL);
		if (boosts) {
			json_object_object_add(site, "boosts", json_object_new_int64((int64_t)e->workload.site_boosts[s]));
			json_object_object_add(site, "idle_boosts", e->idle.present ?
					       json_object_new_int64((int64_t)e->idle.site_boosts[s]) : NULL);
		}
		json_object_object_add(o, c->lock_sites[s], site);
	}
	return o;
}

/*
 * The verify pass's lock events (cell.h: struct lock_event), keyed by event:
 * the counts of guest/lock-events and what the stacks behind them say.
 */
static json_object *json_lock_events(const struct cell *c)
{
	json_object *o;
	unsigned int k;

	if (!c->has_lock_events)
		return NULL;
	o = json_object_new_object();
	for (k = 0; k < c->nlock_events; k++) {
		const struct lock_event *e = &c->lock_events[k];
		bool boosts = !strcmp(e->name, LOCK_EVENT_PI_SETPRIO), stacks = !e->unavailable && e->workload.present;
		json_object *ev = json_object_new_object();

		json_object_object_add(ev, "available", json_object_new_boolean(!e->unavailable));
		json_object_object_add(ev, "workload", e->unavailable ? NULL : json_object_new_int64((int64_t)e->workload_hits));
		json_object_object_add(ev, "idle", e->has_idle ? json_object_new_int64((int64_t)e->idle_hits) : NULL);
		json_object_object_add(ev, "at_site", stacks && c->lock_site >= 0 ?
				       json_object_new_int64((int64_t)e->workload.site_hits[c->lock_site]) : NULL);
		json_object_object_add(ev, "idle_at_site", stacks && e->idle.present && c->lock_site >= 0 ?
				       json_object_new_int64((int64_t)e->idle.site_hits[c->lock_site]) : NULL);
		if (boosts) {
			json_object_object_add(ev, "boosts", stacks ? json_object_new_int64((int64_t)e->workload.boosts) : NULL);
			json_object_object_add(ev, "deboosts", stacks ?
					       json_object_new_int64((int64_t)(e->workload.hits - e->workload.boosts)) : NULL);
			json_object_object_add(ev, "idle_boosts", stacks && e->idle.present ?
					       json_object_new_int64((int64_t)e->idle.boosts) : NULL);
			json_object_object_add(ev, "boosts_at_site", stacks && c->lock_site >= 0 ?
					       json_object_new_int64((int64_t)e->workload.site_boosts[c->lock_site]) : NULL);
			json_object_object_add(ev, "idle_boosts_at_site", stacks && e->idle.present && c->lock_site >= 0 ?
					       json_object_new_int64((int64_t)e->idle.site_boosts[c->lock_site]) : NULL);
		}
		json_object_object_add(ev, "stack_hits", stacks ? json_object_new_int64((int64_t)e->workload.hits) : NULL);
		json_object_object_add(ev, "stacks_dropped", stacks ? json_object_new_int64((int64_t)e->workload.dropped) : NULL);
		json_object_object_add(ev, "unattributed", stacks ? json_object_new_int64((int64_t)e->workload.unattributed) : NULL);
		json_object_object_add(ev, "per_site", stacks ? json_lock_sites(c, e, boosts) : NULL);
		json_object_object_add(o, e->name, ev);
	}
	return o;
}


/* A cell's path proof and lock events. */
static void verify_json_cell(json_object *o, const struct run *run, const struct cell *c)
{
	json_object *a = json_object_new_object();
	unsigned int k;

	(void)run;
	for (k = 0; k < c->nhits; k++) {
		const struct path_hit *h = &c->hits[k];
		json_object *hit = json_object_new_object();

		json_object_object_add(hit, "probed", json_object_new_boolean(!h->unavailable));
		json_object_object_add(hit, "workload_hits", h->unavailable ? NULL : json_object_new_int64((int64_t)h->hits));
		json_object_object_add(hit, "idle_hits", h->has_idle ? json_object_new_int64((int64_t)h->idle_hits) : NULL);
		json_object_object_add(hit, "reached", json_object_new_boolean(h->reached));
		json_object_object_add(a, h->function, hit);
	}
	json_object_object_add(o, "path_hits", a);
	json_object_object_add(o, "lock_site", c->has_lock_events && c->lock_site >= 0 ?
			       json_object_new_string(c->lock_sites[c->lock_site]) : NULL);
	json_object_object_add(o, "lock_events", json_lock_events(c));
}

const struct pass_ops pass_verify = {
	.name = "verify",
	.load = verify_load,
	.group_add = verify_group_add,
	.run_finish = verify_run_finish,
	.md_rows = verify_md_rows,
	.nmd_rows = ARRAY_SIZE(verify_md_rows),
	.json_cell = verify_json_cell,
};
