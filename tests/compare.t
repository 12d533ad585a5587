#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare.t - locklat-compare on two runs made from the fixture run's
# summary: a run against itself (every ratio 1), against a copy whose
# baseline squashfs maxima are three times as long (B higher, the interval
# above 1), against one made under another accelerator (refused in one line
# naming it, unless --allow-different), against one missing a group (named
# as measured in one run only); an old summary without settings is refused;
# the committed reference compares with itself; report.sh compare writes
# where make compare says.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/bin/locklat-compare
{ [ -x "$bin" ] && [ -x "$root/build/bin/locklat-summary" ]; } || tap_skip_all "tools not built (make tools)"
command -v jq >/dev/null || tap_skip_all "no jq (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 12

cp -a "$root/tests/fixtures/run" "$tmp/a"
"$root/build/bin/locklat-summary" --call-sites "$root/kernels/call-sites" --comparisons "$root/kernels/comparisons" \
	--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$tmp/a" >/dev/null
# derive NAME JQ_FILTER: a run whose summary.json is the fixture's through the filter.
derive() {
	mkdir -p "$tmp/$1"
	jq "$2" "$tmp/a/summary.json" >"$tmp/$1/summary.json"
}

"$bin" --out "$tmp/same" "$tmp/a" "$tmp/a" >/dev/null
tap_result $? "a run against itself"
tap_is "$(jq '[.groups[] | select(.ratio_b_over_a != null and .ratio_b_over_a != 1)] | length' "$tmp/same/compare.json")" 0 \
	"every ratio B/A is 1"
tap_is "$(jq '.groups | length' "$tmp/same/compare.json")" \
	"$(jq '[.groups[] | select(.measured + .died_in_latency + .load_dead > 0)] | length' "$tmp/a/summary.json")" \
	"a line for every group with repetitions"

derive slower '(.groups[] | select(.variant == "baseline" and .workload == "squashfs") | .max_us) |= map(. * 3)'
"$bin" --out "$tmp/slower-cmp" "$tmp/a" "$tmp/slower" >/dev/null
row=$(grep '^| baseline | squashfs |' "$tmp/slower-cmp/compare.md")
tap_like "$row" '\| B higher: 3\.00× \[[0-9.]+–[0-9.]+\] \(pass maximum\) \|$' "three times the maxima: B higher, 3.00×"
lo=$(jq '.groups[] | select(.variant == "baseline" and .workload == "squashfs") | .ratio_ci95[0]' "$tmp/slower-cmp/compare.json")
tap_like "$lo" '^[1-9]' "and the interval's lower end is above 1 ($lo)"
tap_like "$(grep '^| local_lock | squashfs |' "$tmp/slower-cmp/compare.md")" 'no difference shown' \
	"an unchanged group stays unchanged"

derive kvm '.settings.accel = "kvm"'
err=$("$bin" --out "$tmp/kvm-cmp" "$tmp/a" "$tmp/kvm" 2>&1)
tap_like "$?:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:.*different settings: accel \(tcg-icount vs kvm\)" \
	"another accelerator: refused in one line naming it"
[ ! -e "$tmp/kvm-cmp" ]
tap_result $? "and nothing written"
"$bin" --allow-different --out "$tmp/kvm-cmp" "$tmp/a" "$tmp/kvm" >/dev/null &&
	grep -q '^- Measurement settings that differ: accel (tcg-icount vs kvm) (compared because of --allow-different' \
		"$tmp/kvm-cmp/compare.md"
tap_result $? "--allow-different compares them and says what differs"

derive fewer 'del(.groups[] | select(.variant == "local_lock" and .workload == "zram"))'
"$bin" --out "$tmp/fewer-cmp" "$tmp/a" "$tmp/fewer" >/dev/null
tap_is "$(jq -c '.only_in_a' "$tmp/fewer-cmp/compare.json")" '["local_lock/zram"]' "a group measured in A only is named"

derive old 'del(.settings)'
err=$("$bin" --out "$tmp/old-cmp" "$tmp/a" "$tmp/old" 2>&1)
tap_like "$?:$err" "^1:.*no settings: written by an older locklat-summary" "a summary without settings: refused, saying why"

# make compare A= B= (report.sh compare): the reference against itself.
out=$("$root/bench/report/report.sh" compare "$root/results/reference" "$root/results/reference" "$tmp/ref-cmp" 2>&1)
tap_like "$?:$out" "^0:.*compare.md: [1-9][0-9]* groups compared" \
	"report.sh compare: the committed reference against itself ($(printf '%s' "$out" | tail -n 1))"
tap_done
