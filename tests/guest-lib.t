#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guest-lib.t - bench/guest/lib.sh under busybox sh, the shell the guest runs
# it in: cyclictest's zero-padded maxima read as decimal (busybox awk reads a
# leading 0 as octal), and a process tree ended whole.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
command -v busybox >/dev/null || tap_skip_all "busybox missing (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 6

# guest_sh SCRIPT: SCRIPT in busybox sh with lib.sh sourced.
guest_sh() {
	busybox sh -c ". '$root/bench/guest/lib.sh'; $1"
}

printf '# Min Latencies: 00002 00003\n# Avg Latencies: 00010 00011\n# Max Latencies: 04053 00900\n' >"$tmp/ct.out"
tap_is "$(guest_sh "latency_pass_max '$tmp/ct.out'")" 4053 "latency_pass_max: 04053 is 4053, not octal 2091"
tap_is "$(busybox awk 'BEGIN { print "04053" + 0 }')" 2091 "busybox awk itself reads 04053 as octal (why the zeros go first)"
printf '# Max Latencies: 00000 00000\n' >"$tmp/zero.out"
tap_is "$(guest_sh "latency_pass_max '$tmp/zero.out'")" 0 "latency_pass_max: all zeros is 0"
printf '# Max Latencies: 52688\n' >"$tmp/one.out"
tap_is "$(guest_sh "latency_pass_max '$tmp/one.out'")" 52688 "latency_pass_max: one unpadded field"
tap_is "$(guest_sh "latency_pass_max '$tmp/none'")" "" "latency_pass_max: no file, nothing"

# A parent with a child with a grandchild: tree_kill ends all three.
busybox sh -c 'sh -c "sleep 300 & sleep 300 & wait" & wait' &
top=$!
tree_up() { [ "$(guest_sh "descendants $top" | wc -l)" -ge 3 ]; }
wait_until 10 tree_up
kids=$(guest_sh "descendants $top")
guest_sh "tree_kill $top"
wait "$top" 2>/dev/null
left=0
for p in $kids; do
	[ -d "/proc/$p" ] && [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" != Z ] && left=$((left + 1))
done
tap_is "$left" 0 "tree_kill: the process and everything below it ended ($(wc -w <<<"$kids") below it)"
