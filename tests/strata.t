#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# strata.t - a run whose cells ran on two host CPU models (run-matrix.sh
# --hosts) is not pooled: the fixture run with half its cells' host_cpu
# changed gets a summary per stratum under by-host/ (each from its own cells
# alone, its own comparisons, its own plots), and a summary.md and
# summary.json that say "not pooled" and name them; locklat-compare refuses
# the pooled run in one line and takes a stratum; the fixture itself (one
# stratum) has no by-host/, and loses a stale one.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/bin
{ [ -x "$bin/locklat-summary" ] && [ -x "$bin/locklat-compare" ]; } || tap_skip_all "tools not built (make tools)"
command -v jq >/dev/null || tap_skip_all "no jq (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 16
summary() {
	"$bin/locklat-summary" --call-sites "$root/kernels/call-sites" --comparisons "$root/kernels/comparisons" \
		--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$1"
}

run=$tmp/run
cp -a "$root/tests/fixtures/run" "$run"
# The first repetitions ran on another machine, with another CPU.
n=0
for meta in "$run"/*/*/rep1/meta; do
	sed -i 's/^host_cpu=.*/host_cpu=Intel(R) Xeon(R) Gold 6130/' "$meta"
	sed -i 's/^complete=1$/host=lab2\ncomplete=1/' "$meta"
	n=$((n + 1))
done
total=$(find "$run" -mindepth 4 -maxdepth 4 -name meta | wc -l)
out=$(summary "$run" 2>&1)
tap_result $? "the summary of a run of two strata$(printf '%s' "$out" | grep -i error | sed 's/^/: /')"
strata=$(find "$run/by-host" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2>/dev/null | sort | tr '\n' ' ')
tap_is "$strata" "tcg-icount-amd-epyc tcg-icount-intel-r-xeon-r-gold-6130 " "one folder per stratum, named by accelerator and host CPU"
tap_is "$(jq -r '[.strata[].cells] | add' "$run/summary.json"):$(jq -r '.strata | length' "$run/summary.json"):$(jq 'has("groups")' "$run/summary.json")" \
	"$total:2:false" "summary.json: the strata, every cell in one, no pooled group"
tap_is "$(jq -r '.cells | length' "$run/by-host/tcg-icount-intel-r-xeon-r-gold-6130/summary.json")" "$n" \
	"a stratum's summary holds its own cells alone"
tap_is "$(jq -r '[.cells[] | select(.dir | test("/rep1$"))] | length' "$run/by-host/tcg-icount-amd-epyc/summary.json")" 0 \
	"and none of the other's"
tap_is "$(jq -r '.stratum.hosts' "$run/by-host/tcg-icount-intel-r-xeon-r-gold-6130/summary.json")" lab2 \
	"its summary.json names the stratum and its hosts"
tap_like "$(grep -c '^| `tcg-icount-' "$run/summary.md"):$(grep -m1 'Not pooled' "$run/summary.md")" '^2:\*\*Not pooled\.\*\*' \
	"summary.md says it is not pooled and lists both"
# shellcheck disable=SC2016 # backquotes of markdown, not a command
tap_is "$(grep -c '^- `tcg-icount-.*`: rt vs baseline-rt on squashfs: ' "$run/summary.md"):$(jq -r '[.strata[].answer | select(. != null)] | length' "$run/summary.json")" \
	2:2 "and each stratum's answer to the question, in summary.md and summary.json"
grep -q '](by-host/tcg-icount-amd-epyc/summary.md)' "$run/summary.md"
tap_result $? "and links each stratum's summary"
[ ! -e "$run/summary.csv" ] && [ ! -e "$run/plot-data" ] && [ -d "$run/by-host/tcg-icount-amd-epyc/plot-data" ]
tap_result $? "no pooled summary.csv or plot-data; each stratum has its own"
"$root/bench/report/report.sh" plots "$run" >/dev/null 2>&1
tap_result $? "report.sh plots draws each stratum's plots ($(find "$run/by-host" -name '*.svg' | wc -l) svg)"

err=$("$bin/locklat-compare" --out "$tmp/cmp" "$run" "$run" 2>&1)
st=$?
err=$(grep -v ': warning: A and B are the same run' <<<"$err")
tap_like "$st:$(printf '%s\n' "$err" | wc -l):$err" '^2:1:.*several accelerators or host CPU models: compare one of its strata' \
	"locklat-compare refuses the pooled run in one line (exit 2, an error)"
"$bin/locklat-compare" --out "$tmp/cmp" "$run/by-host/tcg-icount-amd-epyc" "$run/by-host/tcg-icount-amd-epyc" >/dev/null
tap_result $? "and compares a stratum"

# Summarised again: the same strata (by-host/ is no variant: no incomplete
# cells counted), and a folder of no stratum removed.
mkdir -p "$run/by-host/stale-stratum"
summary "$run" >/dev/null
tap_is "$(grep -c 'unfinished cell' "$run/by-host/tcg-icount-amd-epyc/summary.md")" 0 "a second summary reads no cells in by-host/"
[ ! -e "$run/by-host/stale-stratum" ] && [ -d "$run/by-host/tcg-icount-amd-epyc" ]
tap_result $? "and removes a folder of no stratum, keeping the strata"

# One stratum again: the summary is the pooled one, by-host/ removed.
mkdir -p "$tmp/one" && cp -a "$root/tests/fixtures/run/." "$tmp/one/" && mkdir -p "$tmp/one/by-host/stale"
summary "$tmp/one" >/dev/null && [ ! -e "$tmp/one/by-host" ] && jq -e 'has("groups")' "$tmp/one/summary.json" >/dev/null
tap_result $? "a run of one stratum: pooled summary, a stale by-host/ removed"
tap_done
