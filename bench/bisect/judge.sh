#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# judge.sh - one step of a latency bisect (bench/bisect/bisect.sh): is COMMIT
# good or bad against the base of a finished --ab run?
#
# Usage: bench/bisect/judge.sh RUN TIP_VARIANT WORKLOAD THRESHOLD STEPS_DIR
#
# Run by git bisect run in the bisect's repository: COMMIT is its
# BISECT_HEAD, its step's folder STEPS_DIR/<n>-<commit> (n counts the steps).
# Builds COMMIT as TIP_VARIANT (ab-tip or ab-tip-rt: the range from RUN's
# base to COMMIT, plain and traced kernels), runs RUN's repetitions of
# WORKLOAD on it with RUN's settings (./run-matrix.sh --ab ... --out
# STEP/run), then sets its pass maxima against RUN's base
# (locklat-compare --pair BASE_VARIANT:TIP_VARIANT --threshold THRESHOLD).
# Writes STEP/verdict: "commit=", "verdict=good|bad|skip", "why=", "seconds=".
# Exit, as git bisect run reads it: 0 good (nothing regressed), 1 bad
# (regressed, or failed more often under load), 125 skip (no measurement:
# the commit did not build or boot, or its repetitions give no interval),
# 128 error (bisect stops).

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"
# shellcheck source=kernels/sources.sh
. "$LOCKLAT_ROOT/kernels/sources.sh"
# shellcheck source=bench/bisect/lib.sh
. "$LOCKLAT_ROOT/bench/bisect/lib.sh"

# Anything that fails unexpectedly stops the bisect: under set -e this
# script would exit 1, which git bisect run reads as "bad".
trap 'exit 128' ERR
case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
[ $# -eq 5 ] || { usage_from_header "$0" >&2; exit 128; }
run=$1 tipv=$2 workload=$3 threshold=$4 steps=$5
basev=${tipv/ab-tip/ab-base}
start=$SECONDS
commit=$(git rev-parse --verify BISECT_HEAD) || exit 128
n=$(find "$steps" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)
step=$steps/$((n + 1))-$(git rev-parse --short "$commit")

# verdict WORD WHY: the step's outcome into STEP/verdict, and its exit status.
verdict() {
	printf 'commit=%s\nverdict=%s\nwhy=%s\nseconds=%s\n' "$commit" "$1" "$2" "$((SECONDS - start))" >"$step/verdict"
	progress bisect "$(git log -1 --format='%h %s' "$commit"): $1 ($2)"
	case $1 in good) exit 0 ;; bad) exit 1 ;; skip) exit 125 ;; *) exit 128 ;; esac
}

# setting KEY: RUN's matrix record of KEY.
setting() { kv_get "$run/matrix" "$1"; }

mkdir -p "$step"
read -r tree range <<<"$(git_spec "$(sed 's/^git://' "$run/ab/series")")"
base=${range%%..*}
set -- --ab "$tree@$base..$commit" --variants "$tipv" --workloads "$workload" \
	--reps "$(setting reps)" --duration "$(setting duration_s)" --trace-duration "$(setting trace_duration_s)" \
	--warmup "$(setting warmup_s)" --tasks "$(setting tasks_per_cpu)" --accel "$(setting accel)" \
	--cpus "$(setting cpus)" --seed 1 --out "$step/run"
targets=$(setting targets) || targets=
[ -z "$targets" ] || set -- "$@" --targets "$targets"
# A commit that does not build or boot leaves no measured group: a skip, not a verdict.
# git bisect run hands this script GIT_DIR (the scratch repository): the run
# must read the developer's tree, not that.
env -u GIT_DIR -u GIT_WORK_TREE -u GIT_INDEX_FILE -u GIT_PREFIX \
	"$LOCKLAT_ROOT/run-matrix.sh" "$@" >"$step/run.log" 2>&1 || true
[ -f "$step/run/summary.json" ] || verdict skip "no summary: it did not build or boot (see $step/run.log)"
change=$(bisect_change "$run" "$step/run" "$tipv" "$workload" "$threshold" "$step/compare") ||
	verdict error "locklat-compare failed: $(tail -n 1 "$step/compare.log")"
case $change in
regressed) verdict bad "regressed against $basev (over $threshold%)" ;;
improved | unchanged | "changed, under the threshold") verdict good "$change against $basev" ;;
*) verdict skip "$change against $basev: no interval from its repetitions" ;;
esac
