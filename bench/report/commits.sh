#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# commits.sh - the table of a ./run-matrix.sh --each-commit run: per model,
# a row per commit of the range (the base first) with its build time,
# whether it booted, its splats, and per workload its maximum and the change
# against the commit before. Markdown on stdout.
#
# Usage: bench/report/commits.sh RUN_DIR
# Reads RUN_DIR/ab/commits ("name commit subject", kernels/ab.sh),
# RUN_DIR/summary.json and RUN_DIR/logs/jobs (a kernel's build seconds).

set -euo pipefail
here=$(dirname "$0")
. "$here/../../lib/common.sh"

case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
[ $# -eq 1 ] || err_exit "usage: $0 RUN_DIR" 2
run=$1
[ -f "$run/ab/commits" ] || err_exit "$run is not an --each-commit run (no ab/commits)" 2
[ -f "$run/summary.json" ] || err_exit "$run has no summary.json (make summary RUN=$run)" 2
jobs=$run/logs/jobs
[ -f "$jobs" ] || jobs=/dev/null

# rows SUFFIX: "name<TAB>workload<TAB>max|failed|-<TAB>cells<TAB>booted<TAB>splats" per variant
# of the commits with SUFFIX ("" or "-rt") and workload; max the median of the measured repetitions.
rows() {
	jq -r --arg sfx "$1" '
		def med: sort | if length == 0 then null else .[(length - 1) / 2 | floor] end;
		[.cells[] | select(.variant | test("^ab-c[0-9]+" + $sfx + "$"))] as $cells |
		.groups[] | select(.variant | test("^ab-c[0-9]+" + $sfx + "$")) |
		. as $g | [$cells[] | select(.variant == $g.variant and .workload == $g.workload)] as $mine |
		[ .variant, .workload,
		  (if .measured > 0 then (.max_us | med | tostring)
		   elif (.died_in_latency + .load_dead) > 0 then "failed" else "–" end),
		  ($mine | length | tostring),
		  ([$mine[] | select(.status == "OK" or .status == "FINDINGS")] | length | tostring),
		  (.findings | tostring) ] | @tsv' "$run/summary.json"
}

# table SUFFIX MODEL: the Markdown table of one model.
table() {
	local workloads table
	table=$(rows "$1")
	workloads=$(cut -f2 <<<"$table" | LC_ALL=C sort -u | paste -sd' ')
	[ -n "$workloads" ] || return 0
	printf '\n## %s\n\n' "$2"
	awk -F'\t' -v sfx="$1" -v workloads="$workloads" -f "$here/change.awk" -f "$here/commits-table.awk" \
		"$run/ab/commits" "$jobs" - <<<"$table"
}

echo "# Each commit of \`$(sed 's/^git://' "$run/ab/series")\`"
echo
echo "One repetition per commit and workload unless --reps said more (the median then): a survey, not a"
echo "test; the change against the commit before is a ratio of maxima, as the range the 1 µs"
echo "resolution leaves (x µs is x to x + 1: 4 against 4 is −20% to +25%). Build seconds are the"
echo "kernel's make (ccache shares what neighbouring commits have in common); splats count events,"
echo "over the commit's cells."
table "" "CONFIG_PREEMPT (ab-cNN)"
table "-rt" "PREEMPT_RT (ab-cNN-rt)"
