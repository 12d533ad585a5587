#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compile-probe.t - the compile probe the plan scales its kernel seconds by:
# its usage, that it reads a slower compiler as slower (the probe alone on
# one host CPU, then sharing that CPU with a busy loop), and that the plan's
# kernel seconds follow its reading. Needs gcc and taskset, no QEMU.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
probe=$root/kernels/compile-probe.sh
tmp=$(mktemp -d)
hog=''
trap '[ -z "$hog" ] || kill "$hog" 2>/dev/null; rm -rf "$tmp"' EXIT
tap_plan 9

"$probe" --help | grep -q -- '--count N'
tap_result $? "--help prints the usage from the header"
err=$("$probe" --count 0 2>&1 >/dev/null)
tap_result $(($? != 2)) "--count 0 exits 2"
tap_is "$(printf '%s\n' "$err" | wc -l)" 1 "with one line on stderr"

alone=$(taskset -c 0 "$probe" --count 5)
[[ $alone =~ ^[1-9][0-9]*$ ]]
tap_result $? "it prints a number of milliseconds ($alone)"
# A busy loop on the probe's CPU takes half of it: each compile's wall time
# doubles, as a slower day's would.
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
shared=$(taskset -c 0 "$probe" --count 5)
kill "$hog"
wait "$hog" 2>/dev/null
hog=''
[ "$shared" -ge $((alone * 3 / 2)) ]
tap_result $? "sharing its CPU with a busy loop reads at least 1.5x slower ($shared ms against $alone)"

# The plan: LOCKLAT_COMPILE_MS stands in for the probe's reading.
plan() {
	LOCKLAT_BUILD=$tmp/nobuild "$root/run-matrix.sh" --dry-run --out "$tmp/run" --variants baseline,local_lock \
		--workloads squashfs --accel tcg-icount 2>&1
}
cold=$LOCKLAT_BUILD_COLD_SECONDS shared=$LOCKLAT_BUILD_SHARED_SECONDS ms=$LOCKLAT_BUILD_PROBE_MS
out=$(LOCKLAT_COMPILE_MS=$ms plan)
tap_like "$out" "compile: +$ms ms a probe compile .*: a cold kernel $cold s, a shared one $shared s" \
	"at the reading beside LOCKLAT_BUILD_*_SECONDS, a kernel takes those"
at1=$(printf '%s\n' "$out" | sed -n 's/.*estimated: *\([0-9]*\) min.*/\1/p')
out=$(LOCKLAT_COMPILE_MS=$((ms * 2)) plan)
tap_like "$out" "a cold kernel $((cold * 2)) s, a shared one $((shared * 2)) s" "at twice the reading, twice those"
at2=$(printf '%s\n' "$out" | sed -n 's/.*estimated: *\([0-9]*\) min.*/\1/p')
[ -n "$at1" ] && [ "$at2" -gt "$at1" ]
tap_result $? "and the estimate grows ($at1 -> $at2 min)"
out=$(LOCKLAT_COMPILE_MS=fast plan)
tap_like "$out" "^run-matrix.sh: error: LOCKLAT_COMPILE_MS wants a positive whole number" "a reading that is not a number: one line, no plan"
tap_done
