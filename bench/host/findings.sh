#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# findings.sh - find kernel splats in a guest's console log and dmesg.
#
# Usage: bench/host/findings.sh LOG...
#        bench/host/findings.sh --help
#
# Prints one line per kind found: KIND<TAB>COUNT<TAB>FIRST LINE. A kind's
# count is its largest count in any one log (the console and dmesg repeat each
# other, so they are not added). Kinds, first match wins per line:
#   panic, oops, sleeping-in-atomic, scheduling-while-atomic, lockdep,
#   rcu-stall, hung-task, bug, warning
# Exit: 0 none found, 1 findings, 2 bad usage.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"
case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
[ $# -ge 1 ] || err_exit "usage: findings.sh LOG... (see --help)" 2
for f in "$@"; do
	[ -r "$f" ] || err_exit "cannot read $f" 2
done

awk '
function kind_of(line) {
	if (line ~ /Kernel panic - not syncing/) return "panic"
	if (line ~ /Oops: /) return "oops"
	if (line ~ /BUG: sleeping function called from invalid context/) return "sleeping-in-atomic"
	if (line ~ /BUG: scheduling while atomic/) return "scheduling-while-atomic"
	if (line ~ /(inconsistent lock state|possible circular locking dependency|possible recursive locking|Invalid wait context|possible irq lock inversion|bad unlock balance|held lock freed|lock held when returning to user space|suspicious RCU usage|BUG: looking up invalid subclass|possible deadlock)/) return "lockdep"
	if (line ~ /rcu: INFO: .* detected stalls|self-detected stall on CPU/) return "rcu-stall"
	if (line ~ /INFO: task .* blocked for more than/) return "hung-task"
	if (line ~ /BUG: /) return "bug"
	if (line ~ /WARNING: CPU: /) return "warning"
	return ""
}
FNR == 1 { file++ }
{
	sub(/\r$/, "")
	k = kind_of($0)
	if (k == "") next
	n[file, k]++
	if (!(k in first)) { first[k] = $0; order[++kinds] = k }
}
END {
	for (i = 1; i <= kinds; i++) {
		k = order[i]; max = 0
		for (f = 1; f <= file; f++) if (n[f, k] > max) max = n[f, k]
		line = first[k]
		sub(/^\[ *[0-9.]+\] /, "", line)
		printf "%s\t%d\t%s\n", k, max, line
	}
	exit kinds ? 1 : 0
}' "$@"
