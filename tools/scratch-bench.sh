#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scratch-bench.sh - a run from scratch against its CPU floor: how close the
# executor keeps the host's CPUs busy.
#
# Usage: tools/scratch-bench.sh --out DIR [RUN_MATRIX_OPTION...]
#   --out DIR   a new folder: DIR/tree, a fresh clone of this tree's HEAD
#               (no build/: tools, rtla, guest image and every kernel are
#               built), DIR/ccache, an empty CCACHE_DIR, and DIR/run, the run
#   the other options go to run-matrix.sh as they are (e.g. --variants)
#
# Times DIR/tree/run-matrix.sh --out DIR/run with bash's time, then prints
# its wall time, user and system seconds, its CPU floor ((user + sys) / host
# CPUs: the wall time if no CPU ever idled) and how far above it the run
# was; the host's /proc/stat over the run: its CPUs' real idle and I/O
# wait, and the CPU time spent outside the run's processes, which `time`
# does not see (writeback and other kernel threads, interrupts, other
# processes); and per kind of job (DIR/run/logs/jobs) the jobs' wall, user
# and system seconds, and where the CPUs idled (no job held them, at the
# start, middle and end; or a job held them unused, per kind), into
# DIR/bench. METHODOLOGY.md ("From scratch") holds what it measured. The
# Debian packages are not part of it: installed before, their job takes
# seconds.
# Exit: 0 measured, 1 the run failed, 2 bad usage.

set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

out=''
args=()
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage_from_header "$0"; exit 0 ;;
	--out) [ $# -ge 2 ] || err_exit "--out needs a value" 2; out=$2; shift 2 ;;
	*) args+=("$1"); shift ;;
	esac
done
[ -n "$out" ] || err_exit "--out is required" 2
[ ! -e "$out" ] || err_exit "$out exists: choose a new --out" 2
mkdir -p "$out/ccache"
git clone -q "$LOCKLAT_ROOT" "$out/tree" || err_exit "cannot clone $LOCKLAT_ROOT into $out/tree"
TIMEFORMAT='%R %U %S'
# The host's own CPU accounting around the run: what `time` cannot see
# (kernel threads such as writeback, interrupts, other processes) and the
# CPUs' real idle and I/O wait.
read -ra stat_before < <(grep "^cpu " /proc/stat)
# A run that contradicts an expectation of kernels/comparisons exits 1
# having done all its work (its verdicts.tap says which): measured all the same.
status=0
{ time CCACHE_DIR=$out/ccache "$out/tree/run-matrix.sh" --out "$out/run" "${args[@]}" \
	>"$out/run.log" 2>&1; } 2>"$out/time" || status=$?
if [ "$status" -ne 0 ] && { [ "$status" -ne 1 ] || ! grep -q '^not ok' "$out/run/verdicts.tap" 2>/dev/null; }; then
	tail -n 5 "$out/run.log" >&2
	err_exit "the run failed (log: $out/run.log)"
fi
read -ra stat_after < <(grep "^cpu " /proc/stat)
read -r wall user sys <"$out/time"
awk -v wall="$wall" -v user="$user" -v sys="$sys" -v cpus="$(nproc)" 'BEGIN {
	floor = (user + sys) / cpus
	printf "wall %.0f s, user %.0f s, sys %.0f s, %d host CPUs: floor %.0f s, wall %.1f%% above it\n",
		wall, user, sys, cpus, floor, (wall / floor - 1) * 100 }' | tee "$out/bench"
awk -v hz="$(getconf CLK_TCK)" -v user="$user" -v sys="$sys" -v b="${stat_before[*]:1:8}" -v a="${stat_after[*]:1:8}" 'BEGIN {
	split(b, x, " "); split(a, y, " ")
	for (i = 1; i <= 8; i++) d[i] = (y[i] - x[i]) / hz
	busy = d[1] + d[2] + d[3] + d[6] + d[7] + d[8]
	printf "host CPUs over the run: busy %.0f s (user %.0f, sys %.0f, irq %.0f, steal %.0f), idle %.0f s, iowait %.0f s; busy outside the run'"'"'s processes %.0f s\n",
		busy, d[1] + d[2], d[3], d[6] + d[7], d[8], d[4], d[5], busy - user - sys }' | tee -a "$out/bench"
jobs_by_kind "$out/run/logs/jobs" | while read -r kind w u s; do
	printf '  %-12s wall %6d s  user %6d s  sys %5d s\n' "$kind" "$w" "$u" "$s"
done | tee -a "$out/bench"
# Where the CPUs idled: seconds no job held a CPU (from each job's start and
# wall), at the run's start, middle and end; and CPUs held by a job that did
# not use them (its wall x CPUs - user - sys), per kind.
awk -F'\t' -v cpus="$(nproc)" -v wall="$wall" '
	NF >= 7 && $4 != "-" {
		n = split($6, c, ","); if ($6 !~ /^[0-9,]+$/) n = 0
		for (s = $7; s < $7 + $3; s++) held[s] += n
		k = $1; sub(/:.*/, "", k); idle[k] += $3 * n - $4 - $5
		if (!(k in seen)) { seen[k] = 1; order[++kinds] = k }
		if ($7 + $3 > end) end = $7 + $3
	}
	END {
		for (s = 0; s < end; s++) {
			u = cpus - held[s]; if (u < 0) u = 0
			if (s < 60) first += u; else if (s >= end - 60) last += u; else middle += u
		}
		printf "CPU s no job held: %d in the first minute, %d in the middle, %d in the last minute; %.0f outside the jobs (the executor before and after them)\n",
			first, middle, last, (wall - end) * cpus
		printf "CPU s held but not used:"
		for (i = 1; i <= kinds; i++) if (idle[order[i]] >= 1) printf " %s %.0f", order[i], idle[order[i]]
		printf "\n"
	}' "$out/run/logs/jobs" | tee -a "$out/bench"
