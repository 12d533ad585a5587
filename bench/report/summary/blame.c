// SPDX-License-Identifier: GPL-2.0
/*
 * blame.c - who a traced section is blamed on, the one place the rules live
 * (METHODOLOGY.md, "Traced evidence"):
 *  - a call site's, only when the section opened or closed in one of its
 *    boundary functions (kernels/call-sites);
 *  - an interrupt's, when it opened or closed in interrupt entry or exit
 *    code: the interrupt is named from its entry frame (asm_sysvec_*,
 *    asm_common_interrupt), and the code it landed in is context;
 *  - nobody's otherwise: where it opened and closed, and where the stack
 *    was, as context.
 * A function the stack merely passes through is never a culprit.
 */
#define _GNU_SOURCE
#include "cell.h"

#include <stdio.h>
#include <string.h>

/* "squashfs_decompress+0x2c/0x2e0 [mod]" -> "squashfs_decompress", into dst. */
static void function_name(char *dst, size_t size, const char *frame)
{
	size_t n = strcspn(frame, "+ \t\n(");

	snprintf(dst, size, "%.*s", (int)(n < size ? n : size - 1), frame);
}

static bool prefixed(const char *s, const char *const *prefixes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strncmp(s, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

#define PREFIXED(s, list) prefixed((s), (list), sizeof(list) / sizeof((list)[0]))

/* Frames of the tracing code itself (ftrace, trace events, the ring buffer). */
static bool tracing_frame(const char *fn)
{
	static const char *const prefixes[] = { "trace_", "tracing_", "__trace", "ring_buffer_", "rb_", "__rb_",
						"ftrace_", "__ftrace", "perf_trace_", "tracer_", "timerlat_",
						"stack_trace_", "arch_stack_walk" };

	return PREFIXED(fn, prefixes);
}

/* Spinlock functions (kernel/locking/spinlock.c's, their inlined helpers). */
static bool lock_frame(const char *fn)
{
	static const char *const prefixes[] = { "_raw_", "__raw_", "do_raw_", "queued_" };

	return PREFIXED(fn, prefixes);
}

/* Interrupt entry and exit code: a section that opens or closes here is an interrupt's. */
static bool interrupt_frame(const char *fn)
{
	static const char *const prefixes[] = { "irqentry_", "asm_sysvec_", "asm_common_interrupt",
						"sysvec_", "__sysvec_", "common_interrupt", "irq_enter",
						"irq_exit", "__irq_exit", "preempt_schedule_irq" };

	return PREFIXED(fn, prefixes);
}

void frame_function(char *dst, size_t size, const char *frame)
{
	static const char *const suffixes[] = { ".constprop.", ".isra.", ".part.", ".cold", ".llvm." };
	size_t n = strcspn(frame, "+ \t\n"), i;
	char *cut;

	snprintf(dst, size, "%.*s", (int)(n < size ? n : size - 1), frame);
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		cut = strstr(dst, suffixes[i]);
		if (cut && cut > dst)
			*cut = '\0';
	}
}

int call_site_index(const struct call_sites *cs, const char *frame, bool boundary_only)
{
	unsigned int i, j;
	char fn[128];

	frame_function(fn, sizeof(fn), frame);
	for (i = 0; cs && i < cs->count; i++)
		for (j = 0; j < (boundary_only ? cs->sites[i].nboundary : cs->sites[i].nfunctions); j++)
			if (!strcmp(cs->sites[i].functions[j], fn))
				return (int)i;
	return -1;
}

/* The name of the site call_site_index finds for frame, or NULL. */
static const char *site_of(const struct call_sites *cs, const char *frame, bool boundary_only)
{
	int i = call_site_index(cs, frame, boundary_only);

	return i < 0 ? NULL : cs->sites[i].name;
}

/* The interrupt an entry frame names: "local timer interrupt", "device interrupt", ... */
static void interrupt_name(char *dst, size_t size, const char *entry, const char *const *stack, unsigned int n)
{
	unsigned int i;

	if (!strcmp(entry, "asm_sysvec_apic_timer_interrupt")) {
		for (i = 0; i < n; i++)
			if (strstr(stack[i], "timerlat_irq")) {
				snprintf(dst, size, "timerlat's own timer interrupt (the measurement)");
				return;
			}
		snprintf(dst, size, "a local timer interrupt (the tick or a measurement's hrtimer)");
	} else if (!strcmp(entry, "asm_common_interrupt")) {
		snprintf(dst, size, "a device interrupt");
	} else if (!strncmp(entry, "asm_sysvec_", 11)) {
		snprintf(dst, size, "a %.60s interrupt", entry + 11);
	} else {
		snprintf(dst, size, "an interrupt");
	}
}

/*
 * Up to three frames of code from stack[from], past tracing and lock code,
 * as "f ← g ← h", with the site a frame belongs to (boundary or inside).
 */
static void context_describe(char *dst, size_t size, const struct call_sites *cs, const char *const *stack,
			     unsigned int from, unsigned int n)
{
	const char *site = NULL;
	unsigned int i, shown = 0;
	size_t len = 0;

	dst[0] = '\0';
	for (i = from; i < n && len < size; i++) {
		char fn[128];

		function_name(fn, sizeof(fn), stack[i]);
		if (tracing_frame(fn) || lock_frame(fn))
			continue;
		if (!site)
			site = site_of(cs, fn, false);
		if (shown < 3)
			len += snprintf(dst + len, size - len, "%s%s", shown ? " ← " : "", fn);
		shown++;
	}
	if (site && len < size)
		snprintf(dst + len, size - len, " (in %s)", site);
}

void blame_section(struct blame *b, const struct call_sites *cs, const char *opened, const char *closed,
		   const char *const *stack, unsigned int nstack)
{
	char open_fn[128] = "", close_fn[128] = "";
	unsigned int i, entry = nstack;

	memset(b, 0, sizeof(*b));
	if (opened && *opened)
		function_name(open_fn, sizeof(open_fn), opened);
	if (closed && *closed)
		function_name(close_fn, sizeof(close_fn), closed);
	if (open_fn[0] && close_fn[0] && strcmp(open_fn, close_fn))
		snprintf(b->section, sizeof(b->section), "%s…%s", open_fn, close_fn);
	else
		snprintf(b->section, sizeof(b->section), "%s", open_fn[0] ? open_fn : close_fn);

	/* The innermost interrupt entry frame: below it, the interrupted code. */
	for (i = 0; i < nstack; i++) {
		char fn[128];

		function_name(fn, sizeof(fn), stack[i]);
		if (!strncmp(fn, "asm_", 4)) {
			entry = i;
			break;
		}
	}

	b->call_site = open_fn[0] ? site_of(cs, open_fn, true) : NULL;
	if (!b->call_site && close_fn[0])
		b->call_site = site_of(cs, close_fn, true);
	if (b->call_site) {
		b->kind = BLAME_SITE;
		snprintf(b->text, sizeof(b->text), "%s → %s", b->section, b->call_site);
		return;
	}
	if ((open_fn[0] && interrupt_frame(open_fn)) || (close_fn[0] && interrupt_frame(close_fn))) {
		char fn[128] = "";

		b->kind = BLAME_INTERRUPT;
		/*
		 * The interrupt's entry frame is on the stack, or the section
		 * closed (or opened) in it: then the whole stack is the
		 * interrupted code's.
		 */
		if (entry < nstack)
			function_name(fn, sizeof(fn), stack[entry]);
		else if (!strncmp(close_fn, "asm_", 4))
			snprintf(fn, sizeof(fn), "%s", close_fn);
		else if (!strncmp(open_fn, "asm_", 4))
			snprintf(fn, sizeof(fn), "%s", open_fn);
		interrupt_name(b->interrupt, sizeof(b->interrupt), fn, stack, nstack);
		if (entry < nstack)
			context_describe(b->context, sizeof(b->context), cs, stack, entry + 1, nstack);
		else if (fn[0])
			context_describe(b->context, sizeof(b->context), cs, stack, 0, nstack);
		snprintf(b->text, sizeof(b->text), "%s (%.150s)%s%.230s", b->interrupt, b->section,
			 b->context[0] ? "; it interrupted " : "", b->context);
		return;
	}
	b->kind = BLAME_NONE;
	/* Where the stack was: past an interrupt's entry if it was taken in one. */
	context_describe(b->context, sizeof(b->context), cs, stack, entry < nstack ? entry + 1 : 0, nstack);
	if (!b->section[0])
		snprintf(b->text, sizeof(b->text), "no section open%s%s", b->context[0] ? "; at " : "", b->context);
	else
		snprintf(b->text, sizeof(b->text), "%s%s%s", b->section, b->context[0] ? "; at " : "",
			 b->context);
}
