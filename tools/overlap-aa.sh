#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# overlap-aa.sh - the A/A behind run-matrix.sh --overlap: the same cells,
# in the same order, alone and beside a kernel build.
#
# Usage: tools/overlap-aa.sh --out DIR [--variants LIST] [--workloads LIST]
#            [--reps N] [--accel A]
#   --out DIR         where the two runs go: DIR/alone, DIR/beside
#   --variants LIST   (default baseline,rt)
#   --workloads LIST  (default squashfs,lru)
#   --reps N          repetitions (default 4, the matrix's)
#   --accel A         (default tcg-icount: the accelerator --overlap is for)
#
# Both runs put their cells on host CPU 0 (--jobs 1) with one seed; the
# second runs while a cold kernel build (tools/build-profile.sh -j1: its own
# scratch build folder and empty ccache, restarted until the run ends)
# keeps the other host CPU busy. Then compares beside against alone
# (bench/report/report.sh compare: DIR/beside/compare.md). Under
# tcg-icount a cell's figures are in its own instructions, so the two must
# agree within the emulator's jitter; under kvm or tcg they need not, which
# is why --overlap is off there. Needs the kernels built; takes twice the
# cells' time.
# Exit: 0 both runs and the comparison done, 1 one failed, 2 bad usage.

set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

out='' variants=baseline,rt workloads=squashfs,lru reps=4 accel=tcg-icount
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage_from_header "$0"; exit 0 ;;
	--out | --variants | --workloads | --reps | --accel) [ $# -ge 2 ] || err_exit "$1 needs a value" 2 ;;
	*) err_exit "unknown option '$1' (see --help)" 2 ;;
	esac
	case $1 in
	--out) out=$2 ;; --variants) variants=$2 ;; --workloads) workloads=$2 ;; --reps) reps=$2 ;; --accel) accel=$2 ;;
	esac
	shift 2
done
[ -n "$out" ] || err_exit "--out is required" 2
[ ! -e "$out" ] || err_exit "$out exists: choose a new --out" 2
[ "$(nproc)" -ge 2 ] || err_exit "needs two host CPUs: one for the cells, one for the build" 2
positive_int reps "$reps"
seed=$((RANDOM + 1))
# cpu1_ticks: host CPU 1's busy and total ticks (/proc/stat).
cpu1_ticks() {
	awk '$1 == "cpu1" { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat
}
# run DIR: the cells into DIR, and how busy host CPU 1 was meanwhile
# (DIR/host-cpu1-busy): the evidence that the build beside them ran
# throughout, or that nothing did.
run() {
	local b0 t0 b1 t1
	read -r b0 t0 < <(cpu1_ticks)
	"$LOCKLAT_ROOT/run-matrix.sh" --variants "$variants" --workloads "$workloads" --reps "$reps" \
		--accel "$accel" --jobs 1 --overlap no --seed "$seed" --out "$1"
	read -r b1 t1 < <(cpu1_ticks)
	echo "$(( (b1 - b0) * 100 / (t1 - t0) ))% of host CPU 1 busy while the cells ran" >"$1/host-cpu1-busy"
	progress aa "$(cat "$1/host-cpu1-busy")"
}

progress aa "alone: cells on CPU 0, nothing beside"
run "$out/alone"
progress aa "beside: cells on CPU 0, a cold kernel build on CPU 1"
mkdir -p "$out/beside"
# The build restarts until the run ends: the load must outlive every cell.
# Job control gives it a process group of its own, killed whole at the end.
set -m
(
	while :; do
		taskset -c 1 "$LOCKLAT_ROOT/tools/build-profile.sh" -j 1 >>"$out/beside/build-beside.log" 2>&1 || true
	done
) &
load=$!
trap 'kill -- "-$load" 2>/dev/null || true' EXIT
run "$out/beside"
"$LOCKLAT_ROOT/bench/report/report.sh" compare "$out/alone" "$out/beside"
