#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# plugins.t - adding one of each is adding its own files. In a scratch copy
# of the tree (a git repository, so that what was touched shows): a variant
# (one file of kernels/variants/), a workload (one folder of workloads/, its
# program included), a pass (one folder of bench/passes/, its C file in the
# summary and one line of passes.c) and a comparison (one line of
# kernels/comparisons). The dry-run plan, the guest image and the summary
# take each up, and nothing else was touched.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$root/build/bin/locklat-summary" ] || tap_skip_all "tools not built (make tools)"
[ -x /bin/busybox ] || tap_skip_all "no busybox (make deps)"
tap_plan 14
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copy=$tmp/tree
git=(git -C "$copy" -c user.name=plugins.t -c user.email=plugins.t@localhost)

# The copy: the tracked files as they are now, committed; its own build
# folder with this tree's tools, and rtla (the guest image carries it;
# a stand-in when no kernel built it yet).
mkdir -p "$copy/build/rtla"
(cd "$root" && git ls-files -z | xargs -0 tar -cf -) | tar -xf - -C "$copy"
"${git[@]}" init -q && "${git[@]}" add -A && "${git[@]}" commit -q -m base
for d in bin guest-bin; do
	[ ! -d "$root/build/$d" ] || cp -a "$root/build/$d" "$copy/build/"
done
if [ -x "$root/build/rtla/rtla" ]; then
	cp "$root/build/rtla/rtla" "$copy/build/rtla/rtla"
else
	cp /bin/true "$copy/build/rtla/rtla"
fi
export LOCKLAT_BUILD=$copy/build

# A variant: one file.
sed 's/^description=.*/description=a variant added by plugins.t/' "$copy/kernels/variants/baseline" \
	>"$copy/kernels/variants/plugin-v"
# A workload: one folder, its file and its program.
mkdir -p "$copy/workloads/plugin-w"
printf '%s\n' "description=a workload added by plugins.t" setup=none targets=- \
	"command=locklat-plugin-w" default=yes >"$copy/workloads/plugin-w/workload"
printf '%s\n' '// SPDX-License-Identifier: GPL-2.0' '/* plugin-w.c - a workload added by plugins.t. */' \
	'int main(void)' '{' '	return 0;' '}' >"$copy/workloads/plugin-w/plugin-w.c"
# A pass: one folder (its pass file and guest code), its C file, one line of passes.c.
mkdir -p "$copy/bench/passes/plugin-p"
printf '%s\n' "description=a pass added by plugins.t" kernel=plain length=trace order=150 \
	>"$copy/bench/passes/plugin-p/pass"
cat >"$copy/bench/passes/plugin-p/run" <<'EOF'
# SPDX-License-Identifier: GPL-2.0
# plugin-p/run - a pass added by plugins.t: one number in NAME/answer.

# shellcheck shell=sh

pass_main() {
	mkdir -p "$RESULTS/$1" && echo 42 >"$RESULTS/$1/answer"
}
EOF
cat >"$copy/bench/report/summary/pass-plugin-p.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/* pass-plugin-p.c - a pass added by plugins.t: guest/plugin-p/answer. */
#include <stdio.h>
#include <stdlib.h>

#include "pass.h"

#include "locklat.h"

extern const struct pass_ops pass_plugin_p;

static void plugin_p_load(struct cell *c, const char *dir, const struct call_sites *cs, uint64_t window_us)
{
	char path[4096];
	uint64_t *answer = xrealloc(NULL, sizeof(*answer));

	(void)cs;
	(void)window_us;
	snprintf(path, sizeof(path), "%s/guest/plugin-p/answer", dir);
	if (read_u64_file(path, answer)) {
		free(answer);
		return;
	}
	c->priv[pass_index(&pass_plugin_p)] = answer;
}

static void plugin_p_free(struct cell *c)
{
	free(c->priv[pass_index(&pass_plugin_p)]);
}

static const uint64_t *plugin_p_answer(const struct cell *c)
{
	return c ? c->priv[pass_index(&pass_plugin_p)] : NULL;
}

static void md_cell_answer(FILE *f, const struct run *run, const struct group *g, struct md_notes *notes)
{
	const uint64_t *a = plugin_p_answer(g->traced_cell);

	(void)run;
	(void)notes;
	if (a)
		fprintf(f, " %llu |", (unsigned long long)*a);
	else
		fprintf(f, " – |");
}

static const struct md_row plugin_p_md_rows[] = {
	{ "plugin-p answer", md_cell_answer, ROW_ALWAYS },
};

static void plugin_p_json_cell(json_object *o, const struct run *run, const struct cell *c)
{
	const uint64_t *a = plugin_p_answer(c);

	(void)run;
	json_object_object_add(o, "plugin_p_answer", a ? json_object_new_int64((int64_t)*a) : NULL);
}

const struct pass_ops pass_plugin_p = {
	.name = "plugin-p",
	.load = plugin_p_load,
	.free = plugin_p_free,
	.md_rows = plugin_p_md_rows,
	.nmd_rows = ARRAY_SIZE(plugin_p_md_rows),
	.json_cell = plugin_p_json_cell,
};
EOF
sed -i 's/^\tPASS(modules)$/\tPASS(plugin_p) \\\n&/' "$copy/bench/report/summary/passes.c"
# A comparison: one line.
echo 'plugin-v | baseline | * | same | a comparison added by plugins.t' >>"$copy/kernels/comparisons"

# Nothing but those: four new folders' or files' worth, two lines changed.
touched=$("${git[@]}" status --porcelain --untracked-files=all | sort | tr '\n' ' ')
tap_is "$touched" " M bench/report/summary/passes.c  M kernels/comparisons ?? bench/passes/plugin-p/pass ?? bench/passes/plugin-p/run ?? bench/report/summary/pass-plugin-p.c ?? kernels/variants/plugin-v ?? workloads/plugin-w/plugin-w.c ?? workloads/plugin-w/workload " \
	"what was added: the variant's file, the workload's folder, the pass's folder and C file, a line each of passes.c and comparisons"
tap_is "$("${git[@]}" diff --numstat | awk '{ a += $1; d += $2 } END { print a "+" d "-" }')" "2+0-" \
	"and the two changed files each gained one line"

# The plan takes each up.
plan=$("$copy/run-matrix.sh" --dry-run --reps 1 --accel tcg-icount --out "$tmp/run" 2>&1)
tap_like "$plan" "variants: +.* plugin-v( |\$)" "the default plan takes the new variant"
tap_like "$plan" "workloads: +.*plugin-w( |\$)" "and the new workload (default=yes)"
tap_like "$plan" "passes: +the traced cell's: latency .*timerlat\.2 plugin-p verify\$" \
	"and the new pass, in a traced cell at its order"
[ ! -e "$tmp/run" ]
tap_result $? "the dry run made nothing"

# The guest image takes each up: the workload's program, the pass's code.
make -C "$copy" build/guest-bin/locklat-plugin-w build/bin/locklat-summary >"$tmp/make.log" 2>&1
tap_result $? "the workload's program and the summary with the new pass build$(tail -n 3 "$tmp/make.log" | grep -m1 error | sed 's/^/: /')"
inputs=$("$copy/bench/guest/mkinitramfs.sh" --print-inputs 2>&1)
tap_like "$inputs" "^usr/bin/locklat-plugin-w $copy/build/guest-bin/locklat-plugin-w\$" "the guest image carries the workload's program"
tap_like "$inputs" "^lib/locklat/passes/plugin-p/run $copy/bench/passes/plugin-p/run\$" "and the pass's guest code"
# The cell a run would boot for the new pass: plain kernel, its time counted.
# shellcheck disable=SC2016 # expanded by that bash
secs=$(bash -c '. "$1/lib/common.sh"; . "$1/workloads/workloads.sh"; passes_flavour plugin-p; cell_guest_seconds plugin-p 10 3 1' _ "$copy")
tap_is "$(echo "$secs" | tr '\n' ' ')" "plain 14 " "a cell of it boots the plain kernel; its time is its warm-up and length, with setup (10 + 1 + 3 s)"

# The summary takes each up: a run whose traced cell ran the new pass, of
# the new variant and workload, compared by the new line.
run=$tmp/summary-run
for v in baseline plugin-v; do
	for c in rep1 rep2 rep3 rep4; do
		mkdir -p "$run/cells/$v/plugin-w"
		cp -a "$root/tests/fixtures/run/baseline/squashfs/$c" "$run/cells/$v/plugin-w/$c"
		sed -i "s/^variant=.*/variant=$v/; s/^workload=.*/workload=plugin-w/" "$run/cells/$v/plugin-w/$c/meta"
	done
done
traced=$run/cells/plugin-v/plugin-w/traced
cp -a "$run/cells/plugin-v/plugin-w/rep1" "$traced"
printf '%s\n' kernel_flavour=traced >>"$traced/meta"
mkdir -p "$traced/guest/plugin-p"
echo 42 >"$traced/guest/plugin-p/answer"
"$copy/build/bin/locklat-summary" --call-sites "$copy/kernels/call-sites" --comparisons "$copy/kernels/comparisons" \
	--llcheck-scenarios "$copy/kernels/modules/llcheck/scenarios" "$run" >"$tmp/summary.log" 2>&1
tap_result $? "the summary of that run$(tail -n 1 "$tmp/summary.log" | sed 's/^/: /')"
tap_like "$(grep -F '| plugin-p answer |' "$run/summary.md")" '^\| plugin-p answer \| – \| 42 \|$' \
	"summary.md: the new pass's row, under the new variant, in the new workload's table"
tap_like "$(grep -F '| plugin-v vs baseline (' "$run/summary.md" | head -n 1)" '^\| plugin-v vs baseline \(4 vs 4\) \|' \
	"and the new comparison's row"
tap_is "$(jq -c '[.cells[] | select(.dir | endswith("plugin-v/plugin-w/traced")) | .plugin_p_answer]' "$run/summary.json")" "[42]" \
	"summary.json: the new pass's member of the cell"
exit $((TAP_FAILED > 0))
