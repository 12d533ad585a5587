#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bisect.sh - a latency bisect: the first commit of a finished --ab run's
# range that regressed, found by git bisect run with locklat as its judge.
#
# Usage: bench/bisect/bisect.sh --from RUN [--workload W] [--variant V]
#                               [--threshold PCT] [--out DIR]
#        bench/bisect/bisect.sh --help
#   --from RUN       a finished ./run-matrix.sh --ab run: its range
#                    (RUN/ab/series) and its base's repetitions
#   --workload W     the regressed workload (default: the first "not ok"
#                    tip-vs-base line of RUN/verdicts.tap)
#   --variant V      ab-tip-rt (PREEMPT_RT) or ab-tip (CONFIG_PREEMPT); the
#                    default as for --workload, else ab-tip-rt
#   --threshold PCT  a step is bad when its maxima's interval against RUN's
#                    base excludes 1 and the change is over PCT % (default
#                    10), or it fails more often under load (locklat-compare)
#   --out DIR        where the steps and the report go (default RUN/bisect)
#
# The tip is first held against the base within RUN by the same rule: a tip
# that did not regress has nothing to bisect. Then git bisect run, in a
# scratch bare repository (DIR/repo.git) that borrows the tree's objects,
# --no-checkout: the tree is only read. Each step is bench/bisect/judge.sh:
# the commit built, booted and measured with RUN's settings and judged
# against RUN's base; one that cannot build or boot is skipped.
# LOCKLAT_BISECT_JUDGE names another judge with the same arguments (tests).
# Writes DIR/steps/<n>-<commit>/ (each step's run and verdict),
# DIR/bisect.log (git bisect log) and DIR/report.md (the first bad commit,
# its evidence, each step and its time), printed at the end.
# Exit: 0 the tip did not regress, 1 a first bad commit named (or the
# commits it is among, when skips hide it), 2 bad usage or error.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"
# shellcheck source=kernels/sources.sh
. "$LOCKLAT_ROOT/kernels/sources.sh"
# shellcheck source=bench/bisect/lib.sh
. "$LOCKLAT_ROOT/bench/bisect/lib.sh"

run='' workload='' variant='' threshold=10 out=''
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage_from_header "$0"; exit 0 ;;
	--from | --workload | --variant | --threshold | --out)
		[ $# -ge 2 ] || err_exit "$1 needs a value" 2 ;;
	*) err_exit "unknown option '$1' (see --help)" 2 ;;
	esac
	case $1 in
	--from) run=$2 ;;
	--workload) workload=$2 ;;
	--variant) variant=$2 ;;
	--threshold) threshold=$2 ;;
	--out) out=$2 ;;
	esac
	shift 2
done
[ -n "$run" ] || err_exit "--from RUN is required: a finished ./run-matrix.sh --ab run" 2
[ -f "$run/ab/series" ] || err_exit "$run is not an --ab run (no ab/series)" 2
{ [ -f "$run/summary.json" ] && [ -f "$run/verdicts.tap" ]; } ||
	err_exit "$run has no summary.json and verdicts.tap: not a finished run" 2
case $variant in '' | ab-tip | ab-tip-rt) ;; *) err_exit "--variant wants ab-tip or ab-tip-rt, got '$variant'" 2 ;; esac
[[ $threshold =~ ^[0-9]+(\.[0-9]+)?$ ]] || err_exit "--threshold wants a percentage, got '$threshold'" 2
run=$(cd "$run" && pwd -P)
out=${out:-$run/bisect}
judge=${LOCKLAT_BISECT_JUDGE:-$LOCKLAT_ROOT/bench/bisect/judge.sh}

# regressed_pair: "variant workload" of the first tip-vs-base comparison
# RUN's gate failed ("not ok"), matching --variant and --workload if given.
regressed_pair() {
	sed -n 's/^not ok [0-9]* - \([^:]*\): \(ab-tip\(-rt\)\{0,1\}\) vs ab-base\(-rt\)\{0,1\} (.*/\2 \1/p' "$run/verdicts.tap" |
		awk -v v="$variant" -v w="$workload" '(v == "" || $1 == v) && (w == "" || $2 == w) { print; exit }'
}

if [ -z "$workload" ] || [ -z "$variant" ]; then
	read -r v w <<<"$(regressed_pair)"
	if [ -z "${v:-}" ]; then
		[ -n "$workload" ] || {
			echo "$run: its tip did not regress against its base (verdicts.tap): nothing to bisect"
			exit 0
		}
		v=ab-tip-rt
	fi
	variant=${variant:-$v} workload=${workload:-$w}
fi
read -r tree range <<<"$(git_spec "$(sed 's/^git://' "$run/ab/series")")"
base=${range%%..*} tip=${range#*..}
mkdir -p "$out"
# RUN's tip against its base, by the steps' rule.
change=$(bisect_change "$run" "$run" "$variant" "$workload" "$threshold" "$out/tip") ||
	err_exit "locklat-compare failed on $run: $(tail -n 1 "$out/tip.log")" 2
if [ "$change" != regressed ]; then
	echo "$run: $variant on $workload $change against its base (threshold $threshold%): nothing to bisect"
	exit 0
fi

repo=$out/repo.git
rm -rf "$repo" "$out/steps"
mkdir -p "$out/steps"
git_scratch_repo "$repo" "$tree"
git -C "$repo" update-ref --no-deref HEAD "$tip"
progress bisect "$variant on $workload: $(git -C "$repo" rev-list --count "$base..$tip") commits between $(git -C "$repo" log -1 --format=%h "$base") and $(git -C "$repo" log -1 --format=%h "$tip")"
start=$SECONDS
git -C "$repo" bisect start --no-checkout "$tip" "$base" >/dev/null
rc=0
git -C "$repo" bisect run "$judge" "$run" "$variant" "$workload" "$threshold" "$out/steps" >"$out/bisect.out" 2>&1 || rc=$?
git -C "$repo" bisect log >"$out/bisect.log" 2>/dev/null || true
git -C "$repo" bisect reset >/dev/null 2>&1 || true
first=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$out/bisect.out")
candidates=$(sed -n '/only .skip.ped commits left to test/,/^We cannot bisect more/p' "$out/bisect.out" | grep -o '^[0-9a-f]\{40\}' || true)
if [ -z "$first" ] && [ -z "$candidates" ]; then
	tail -n 5 "$out/bisect.out" >&2
	err_exit "git bisect run ended without a first bad commit (exit $rc; $out/bisect.out)" 2
fi
"$LOCKLAT_ROOT/bench/bisect/report.sh" "$out" "$variant" "$workload" "$threshold" "$((SECONDS - start))" \
	"${first:-}" "$candidates" >"$out/report.md.tmp"
mv "$out/report.md.tmp" "$out/report.md"
cat "$out/report.md"
exit 1
