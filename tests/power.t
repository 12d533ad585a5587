#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# power.t - locklat-power, the power of the summary's interval by simulation:
# its figures against the normal-theory expectation (a two-sample test at
# d = log 2 / 0.5 = 1.39 has ~25% power at 4 a side, ~80% at 10), the
# false-positive rate below the interval's error rate, resampling a
# summary's groups, and bad input.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/bin/locklat-power
[ -x "$bin" ] || tap_skip_all "$bin not built (make tools)"
tap_plan 6

out=$("$bin" --log-sd 0.5 --reps 4,10 --runs 2000)
tap_result $? "locklat-power runs"
read -r _ p4 fp4 _ <<<"$(grep '^4 ' <<<"$out")"
read -r _ p10 fp10 _ <<<"$(grep '^10 ' <<<"$out")"
awk -v p="$p4" 'BEGIN { exit !(p > 0.17 && p < 0.33) }'
tap_result $? "4 vs 4 at log-SD 0.5 sees a 2x change about a quarter of the time ($p4)"
awk -v p="$p10" 'BEGIN { exit !(p > 0.72 && p < 0.88) }'
tap_result $? "10 vs 10 about 80% of the time ($p10)"
awk -v a="$fp4" -v b="$fp10" 'BEGIN { exit !(a <= 0.06 && b <= 0.07) }'
tap_result $? "without a change the interval excludes 1 at most at its error rate ($fp4, $fp10)"
out=$("$bin" --summary "$root/results/reference/summary.json" --group baseline/squashfs --reps 4 --runs 500 2>&1)
tap_like "$out" 'resampled' "a summary's group gives the spread"
out=$("$bin" --reps 1 2>&1)
tap_is "$?:$(wc -l <<<"$out")" "2:1" "bad input: one line, exit 2"
tap_done
