#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare.t - locklat-compare on two runs made from the fixture run's
# summary: a run against itself (every ratio 1), against a copy whose
# baseline squashfs maxima are three times as long (B higher, the interval
# above 1), against one made under another accelerator (refused in one line
# naming it, unless --allow-different), against one missing a group (named
# as measured in one run only); an old summary without settings is refused;
# the committed reference compares with itself; report.sh compare writes
# where make compare says. The gate: a copy with one group's maxima scaled
# by 1.15 prints that row first on stdout, counts 1 regressed, writes a
# "not ok" TAP line and exits 1; a threshold above the change lets it
# pass; the same run twice is warned of; errors exit 2, never 1.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/bin/locklat-compare
{ [ -x "$bin" ] && [ -x "$root/build/bin/locklat-summary" ]; } || tap_skip_all "tools not built (make tools)"
command -v jq >/dev/null || tap_skip_all "no jq (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 22

cp -a "$root/tests/fixtures/run" "$tmp/a"
"$root/build/bin/locklat-summary" --call-sites "$root/kernels/call-sites" --comparisons "$root/kernels/comparisons" \
	--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$tmp/a" >/dev/null
# derive NAME JQ_FILTER: a run whose summary.json is the fixture's through the filter.
derive() {
	mkdir -p "$tmp/$1"
	jq "$2" "$tmp/a/summary.json" >"$tmp/$1/summary.json"
}

"$bin" --out "$tmp/same" "$tmp/a" "$tmp/a" >/dev/null 2>"$tmp/same.err"
tap_result $? "a run against itself"
tap_like "$(cat "$tmp/same.err")" 'warning: A and B are the same run' "is warned of"
tap_is "$(jq '[.groups[] | select(.ratio_b_over_a != null and .ratio_b_over_a != 1)] | length' "$tmp/same/compare.json")" 0 \
	"every ratio B/A is 1"
tap_is "$(jq '.groups | length' "$tmp/same/compare.json")" \
	"$(jq '[.groups[] | select(.measured + .died_in_latency + .load_dead > 0)] | length' "$tmp/a/summary.json")" \
	"a line for every group with repetitions"

derive slower '(.groups[] | select(.variant == "baseline" and .workload == "squashfs") | .max_us) |= map(. * 3)'
"$bin" --out "$tmp/slower-cmp" "$tmp/a" "$tmp/slower" >"$tmp/slower.out"
tap_is "$?" 1 "B slower than A: exit 1 (regressed)"
row=$(grep '^| baseline | squashfs |' "$tmp/slower-cmp/compare.md")
tap_like "$row" '\| B higher: 3\.00× \[[0-9.]+–[0-9.]+\] \(pass maximum, 1 µs resolution\) \|$' "three times the maxima: B higher, 3.00×"
lo=$(jq '.groups[] | select(.variant == "baseline" and .workload == "squashfs") | .ratio_ci95[0]' "$tmp/slower-cmp/compare.json")
tap_like "$lo" '^[1-9]' "and the interval's lower end is above 1 ($lo)"
tap_like "$(grep '^| local_lock | squashfs |' "$tmp/slower-cmp/compare.md")" 'no difference shown' \
	"an unchanged group stays unchanged"

derive kvm '.settings.accel = "kvm"'
err=$("$bin" --out "$tmp/kvm-cmp" "$tmp/a" "$tmp/kvm" 2>&1)
tap_like "$?:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:.*different settings: accel \(tcg-icount vs kvm\) \(--allow-different, make compare ALLOW_DIFFERENT=1," \
	"another accelerator: refused in one line naming it, and the knob of make compare"
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
tap_like "$?:$err" "^2:.*no settings: written by an older locklat-summary" "a summary without settings: refused, saying why (exit 2: 1 is a regression)"

# The gate, as LKP reads a comparison: one group of the committed
# reference (tcg-icount: repetitions within a fraction of a percent) 15%
# slower.
mkdir -p "$tmp/ref-scaled"
jq '(.groups[] | select(.variant == "local_lock" and .workload == "squashfs") | .max_us, .block_median_us) |= map(. * 1.15)' \
	"$root/results/reference/summary.json" >"$tmp/ref-scaled/summary.json"
out=$("$bin" --out "$tmp/scaled-cmp" "$root/results/reference" "$tmp/ref-scaled")
tap_is "$?" 1 "one group 1.15x slower: exit 1"
tap_like "$(sed -n 2p <<<"$out")" '^local_lock/squashfs +.* \+15\.0% .* regressed$' "its row comes first, +15.0%, regressed"
tap_like "$(tail -n 2 <<<"$out" | head -n 1)" '^0 improved, 1 regressed, [0-9]+ unchanged, [0-9]+ not comparable' \
	"the count: 1 regressed"
tap_is "$(grep -c '^not ok' "$tmp/scaled-cmp/verdicts.tap"):$(grep -c '^not ok.*local_lock/squashfs: regressed' "$tmp/scaled-cmp/verdicts.tap")" "1:1" \
	"verdicts.tap: one not ok, that group's"
"$bin" --threshold 20 --out "$tmp/scaled20-cmp" "$root/results/reference" "$tmp/ref-scaled" >"$tmp/scaled20.out"
tap_like "$?:$(grep '^local_lock/squashfs' "$tmp/scaled20.out")" '^0:.*changed, under the threshold$' \
	"--threshold 20: the 15% change is under it, exit 0"
err=$("$bin" --threshold lots --out "$tmp/never" "$tmp/a" "$tmp/scaled" 2>&1)
tap_like "$?:$err" "^2:.*--threshold wants a percentage" "a threshold that is no number: exit 2"
# --pair A_V:B_V (a bisect step): B's rt against A's baseline-rt, other builds by name.
"$bin" --pair baseline-rt:rt --out "$tmp/pair-cmp" "$root/results/reference" "$root/results/reference" >"$tmp/pair.out" 2>/dev/null
tap_like "$?:$(jq -r '.groups[] | select(.variant == "rt" and .workload == "squashfs") | "\(.a.max_us[0]) \(.change)"' \
	"$tmp/pair-cmp/compare.json")" '^0:527[0-9][0-9] improved$' \
	"--pair baseline-rt:rt: B's rt set against A's baseline-rt (52 ms), improved"
err=$("$bin" --pair rt --out "$tmp/never" "$tmp/a" "$tmp/a" 2>&1)
tap_like "$?:$err" "^2:.*--pair wants A_VARIANT:B_VARIANT" "a --pair without its colon: exit 2"

# make compare A= B= (report.sh compare): the reference against itself.
out=$("$root/bench/report/report.sh" compare "$root/results/reference" "$root/results/reference" "$tmp/ref-cmp" 2>/dev/null)
tap_like "$?:$(tail -n 1 <<<"$out")" "^0:.*compare.md: [1-9][0-9]* groups compared" \
	"report.sh compare: the committed reference against itself ($(printf '%s' "$out" | tail -n 1))"
tap_done
