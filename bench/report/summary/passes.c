// SPDX-License-Identifier: GPL-2.0
/*
 * passes.c - the summary's passes (pass.h), a line each, in the order their
 * rows and sections appear. A pass is its folder, bench/passes/<name>/, and
 * its file here, pass-<name>.c, which defines pass_<name>.
 */
#include "pass.h"

#define SUMMARY_PASSES \
	PASS(latency) \
	PASS(timerlat) \
	PASS(preemptoff) \
	PASS(irqsoff) \
	PASS(verify) \
	PASS(modules)

#define PASS(name) extern const struct pass_ops pass_##name;
SUMMARY_PASSES
#undef PASS

#define PASS(name) &pass_##name,
const struct pass_ops *const summary_passes[] = { SUMMARY_PASSES NULL };
#undef PASS

size_t pass_index(const struct pass_ops *ops)
{
	size_t i;

	for (i = 0; summary_passes[i] && summary_passes[i] != ops; i++)
		;
	return i;
}
