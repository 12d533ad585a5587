#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# interrupt.t - kill run-matrix.sh while a guest runs (SIGKILL, then SIGTERM)
# and run it again with the same arguments: no QEMU outlives it, the output
# lock is free again, the complete cell is kept and the partial one redone,
# and the summary comes out. Boots the smoke variant (LOCKLAT_SMOKE_VARIANT,
# default local_lock) with the idle workload.
# shellcheck disable=SC2317 # the predicates below are called through wait_until
# shellcheck source=lib/guest.sh
. "$(dirname "$0")/lib/guest.sh"
tmp=$(mktemp -d)
out=$tmp/run
cells=$out/cells/$variant/idle
# Whatever happens, no guest of this test outlives it.
trap 'pkill -KILL -f -- "$out/" 2>/dev/null; rm -rf "$tmp"' EXIT
tap_plan 15

"$root/kernels/build.sh" "$variant" >"$tmp/build.log" 2>&1
tap_result $? "kernels/build.sh $variant"

# Two cells: rep1 (the plain kernel) and traced (every pass, the traced kernel).
args=(--variants "$variant" --workloads idle --reps 1 --duration 1 --trace-duration 1 --warmup 1 --jobs 1 --out "$out")

guest_running() { pgrep -f -- "qemu-system-x86_64 .*$out/" >/dev/null; }
nothing_running() { ! pgrep -f -- "$out/" >/dev/null; }
# The cells run in a shuffled order (run-matrix.sh writes it to $out/order
# before the first cell): first and second are its cell folders in that order.
order_read() {
	first=$(awk '!/^#/ { print $3; exit }' "$out/order" 2>/dev/null)
	second=$(awk '!/^#/ && ++n == 2 { print $3; exit }' "$out/order" 2>/dev/null)
}
first_done_second_running() { [ -f "$cells/$first/meta" ] && pgrep -f -- "qemu-system-x86_64 .*$cells/$second" >/dev/null; }

# 1. SIGKILL during the first cell's guest.
"$root/run-matrix.sh" "${args[@]}" >"$tmp/run1.log" 2>&1 &
pid=$!
wait_until 300 guest_running
tap_result $? "first run: a guest is running"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
wait_until 10 nothing_running
tap_result $? "SIGKILL: no cell script, qemu.sh or QEMU is left behind"
flock -n "$out/.lock" true
tap_result $? "SIGKILL: the output lock is free"
order_read
[ -d "$cells/$first.partial" ] && [ ! -e "$cells/$first" ]
tap_result $? "SIGKILL: the interrupted cell ($first, first in $out/order) is left partial, not complete"

# 2. SIGTERM once the first cell is complete and the second one's guest runs.
env --default-signal=INT,TERM "$root/run-matrix.sh" "${args[@]}" >"$tmp/run2.log" 2>&1 &
pid=$!
wait_until 400 first_done_second_running
tap_result $? "second run: $first done, $second's guest running"
kill -TERM "$pid"
wait "$pid"
tap_is "$?" 130 "SIGTERM: run-matrix.sh exits 130"
grep -q 'interrupted: complete cells are kept; run again with --out' "$tmp/run2.log"
tap_result $? "SIGTERM: it says how to resume"
wait_until 10 nothing_running
tap_result $? "SIGTERM: no QEMU is left behind"
started=$(kv_get "$cells/$first/meta" started)

# 3. The same command again finishes the run.
"$root/run-matrix.sh" "${args[@]}" >"$tmp/run3.log" 2>&1
tap_result $? "third run completes"
tap_like "$(cat "$tmp/run3.log")" "cell 1/2 $variant/idle/$first: kept" "the complete cell is kept (the order is kept too)"
tap_is "$(kv_get "$cells/$first/meta" started)" "$started" "and not redone"
tap_is "$(kv_get "$cells/$second/meta" complete)" 1 "the interrupted cell is redone, complete"
[ ! -e "$cells/$first.partial" ] && [ ! -e "$cells/$second.partial" ]
tap_result $? "no partial cell is left"
grep -q '^2 cells written' "$out/summary.md"
tap_result $? "the summary counts both cells"
tap_done
