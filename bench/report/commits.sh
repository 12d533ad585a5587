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
. "$(dirname "$0")/../../lib/common.sh"

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
	# shellcheck disable=SC2016 # an awk program
	awk -F'\t' -v sfx="$1" -v workloads="$workloads" '
		# ab/commits: "name commit subject", separated by spaces.
		FILENAME == ARGV[1] {
			split($0, word, " "); name[++n] = word[1]; commit[word[1]] = substr(word[2], 1, 12)
			subject[word[1]] = substr($0, length(word[1]) + length(word[2]) + 3); next
		}
		FILENAME == ARGV[2] { if ($1 ~ /^kernel:/) build[substr($1, 8)] = $3; next }
		{ v = $1; max[v, $2] = $3; cells[v] += $4; booted[v] += $5; splats[v] += $6 }
		END {
			nw = split(workloads, w, " ")
			printf "| # | commit | build s | booted | splats |"
			for (i = 1; i <= nw; i++) printf " %s max µs | vs before |", w[i]
			printf "\n|---|---|---|---|---|"
			for (i = 1; i <= nw; i++) printf "---|---|"
			printf "\n"
			for (k = 1; k <= n; k++) {
				v = name[k] sfx
				printf "| %s | %s %s | %s | %s | %s |", substr(name[k], 4), commit[name[k]], subject[name[k]],
					(v in build) ? build[v] : "kept", cells[v] ? booted[v] " of " cells[v] : "–", splats[v] + 0
				for (i = 1; i <= nw; i++) {
					m = ((v, w[i]) in max) ? max[v, w[i]] : "–"
					p = k > 1 && ((name[k - 1] sfx, w[i]) in max) ? max[name[k - 1] sfx, w[i]] : ""
					printf " %s | %s |", m, change(m, p)
				}
				printf "\n"
			}
		}
		function change(now, before) {
			if (now !~ /^[0-9.]+$/ || before !~ /^[0-9.]+$/ || before == 0) return "–"
			r = now / before
			if (r >= 2) return sprintf("**%.1f×**", r)
			if (r <= 0.5) return sprintf("%.2f×", r)
			return (r - 1 < 0.005 && 1 - r < 0.005) ? "0%" : sprintf("%+.0f%%", 100 * (r - 1))
		}' "$run/ab/commits" "$jobs" - <<<"$table"
}

echo "# Each commit of \`$(sed 's/^git://' "$run/ab/series")\`"
echo
echo "One repetition per commit and workload unless --reps said more (the median then): a survey, not a"
echo "test; the change against the commit before is a ratio of maxima, in instruction time under"
echo "tcg-icount. Build seconds are the kernel's make (ccache shares what neighbouring commits have in"
echo "common); splats count events, over the commit's cells."
table "" "CONFIG_PREEMPT (ab-cNN)"
table "-rt" "PREEMPT_RT (ab-cNN-rt)"
