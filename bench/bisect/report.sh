#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# report.sh - a latency bisect's report (bench/bisect/bisect.sh), Markdown on
# stdout, from its steps' folders.
#
# Usage: bench/bisect/report.sh DIR VARIANT WORKLOAD THRESHOLD SECONDS FIRST CANDIDATES
#   DIR         the bisect's folder: repo.git, steps/<n>-<commit>/verdict
#               (and, from the real judge, run/summary.json and
#               compare/compare.json)
#   FIRST       the first bad commit, or "" when skips left CANDIDATES
#   CANDIDATES  the commits the first bad one is among, one per line
# The first bad commit's evidence is its own step's: both sides' pass maxima,
# the interval, and the traced section behind its worst wake-up.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"

case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
[ $# -eq 7 ] || err_exit "usage: $0 DIR VARIANT WORKLOAD THRESHOLD SECONDS FIRST CANDIDATES" 2
dir=$1 variant=$2 workload=$3 threshold=$4 seconds=$5 first=$6 candidates=$7
repo=$dir/repo.git

# describe COMMIT: "abbrev subject (author)".
describe() { git -C "$repo" log -1 --format='%h %s (%an)' "$1"; }

# evidence STEP: the step's maxima against the base, its interval and verdict, and its traced culprit.
evidence() {
	local compare=$1/compare/compare.json summary=$1/run/summary.json
	if [ ! -f "$compare" ]; then
		echo "- No measurement kept by the judge (${LOCKLAT_BISECT_JUDGE:+$LOCKLAT_BISECT_JUDGE, }$1)."
		return 0
	fi
	jq -r --arg v "$variant" --arg w "$workload" '
		[.groups[] | select(.variant == $v and .workload == $w)][0] |
		"- Pass maxima, µs: the base \(.a.max_us | map(tostring) | join(", ")) → this commit \(.b.max_us | map(tostring) | join(", "))",
		"- Against the base: \(.verdict | sub("^B "; "this commit ")); p (max) \(if .p_max == null then "–" else (.p_max * 1000 | round / 1000 | tostring) end)"' "$compare"
	[ ! -f "$summary" ] || jq -r --arg v "$variant" --arg w "$workload" '
		[.groups[] | select(.variant == $v and .workload == $w)][0] |
		"- Traced worst wake-up: \(.worst_wakeup_culprit // "no section named")\(if .worst_wakeup_inflated then " (inflated by the tracing)" else "" end)"' "$summary"
}

steps=$(find "$dir/steps" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort -n | sed "s|^|$dir/steps/|")
nsteps=$(grep -c . <<<"$steps" || true)
echo "# locklat bisect: $variant on $workload"
echo
if [ -n "$first" ]; then
	echo "**First bad commit: $(describe "$first")**"
	echo
	evidence "$(grep -- "-$(git -C "$repo" rev-parse --short "$first")\$" <<<"$steps" | tail -n 1)"
else
	echo "**The first bad commit is one of these** (skipped steps, which did not build, boot or measure, hide which):"
	echo
	while IFS= read -r c; do
		[ -z "$c" ] || echo "- $(describe "$c")"
	done <<<"$candidates"
fi
echo
echo "A step is bad when its pass maxima's 95% interval against the base's lies above 1 and the change is over" \
	"$threshold%, or when it fails more often under load; skipped when it gives no measurement." \
	"$nsteps steps, $seconds s in all."
echo
echo "| step | commit | verdict | why | seconds |"
echo "|---|---|---|---|---|"
while IFS= read -r s; do
	{ [ -n "$s" ] && [ -f "$s/verdict" ]; } || continue
	printf '| %s | %s | %s | %s | %s |\n' "${s##*/}" "$(describe "$(kv_get "$s/verdict" commit)" | sed 's/|/\\|/g')" \
		"$(kv_get "$s/verdict" verdict)" "$(kv_get "$s/verdict" why | sed 's/|/\\|/g')" "$(kv_get "$s/verdict" seconds)"
done <<<"$steps"
