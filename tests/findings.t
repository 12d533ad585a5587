#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# findings.t - bench/host/findings.sh against real console logs: each splat kind
# counted and quoted, a clean log clean, console and dmesg not added up.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
fx=$root/tests/fixtures/findings
find_=$root/bench/host/findings.sh
tap_plan 8

out=$("$find_" "$fx/baseline-rt-zram.console.log")
tap_is "$?" 1 "splats found: exit 1"
tap_like "$out" '^scheduling-while-atomic	8	BUG: scheduling while atomic: locklat-zram/69/0x00000002$' "scheduling while atomic: counted and quoted"
tap_like "$out" '^warning	1	WARNING: CPU: 1 PID: 109 at zram_submit_bio\+0x4ac/0xa50$' "a WARNING with its location"
out2=$("$find_" "$fx/baseline-rt-zram.console.log" "$fx/baseline-rt-zram.console.log")
tap_is "$out2" "$out" "the same splats in console and dmesg are not added up"

out=$("$find_" "$fx/sysrq-panic.console.log")
tap_like "$out" '^panic	1	Kernel panic - not syncing: sysrq triggered crash$' "a panic"

out=$("$find_" "$fx/clean.console.log")
tap_is "$?" 0 "a clean log: exit 0"
tap_is "$out" "" "a clean log: nothing reported"

"$find_" "$fx/no-such.log" 2>/dev/null
tap_is "$?" 2 "an unreadable log: exit 2"
tap_done
