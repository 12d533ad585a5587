#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lab-probe.sh - what a lab host can do, asked before any cell is sent to it
# (run-matrix.sh --hosts; bench/host/lab.sh runs it on every host through GNU
# parallel --nonall, from the copy of the tree it sends).
#
# Usage: bench/host/lab-probe.sh ACCEL...
# Prints one line of tab-separated key=value fields: login (GNU parallel's
# sshlogin the line came through, ":" for this machine), host, cpus,
# cpu_model, free_mib (free space where the cells will be written: this
# folder), missing (Debian packages of tools/install-deps.sh --runtime
# that are not installed, space-separated), and per ACCEL asked about
# accel.<ACCEL>=ok or the reason QEMU does not start with it.
# Exit: 0 (what the host lacks is in the line, not the status), 2 bad usage.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"

case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
[ $# -ge 1 ] || err_exit "usage: lab-probe.sh ACCEL... (see --help)" 2
fields=("login=${PARALLEL_SSHLOGIN:-:}" "host=$(uname -n)" "cpus=$(nproc)"
	"cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	"free_mib=$(df -Pm . | awk 'NR == 2 { print $4 }')")
missing=$("$LOCKLAT_ROOT/tools/install-deps.sh" --runtime --check 2>&1 >/dev/null |
	sed -n 's/^missing Debian packages: //p') || true
fields+=("missing=$missing")
for accel in "$@"; do
	if [ -n "$missing" ]; then
		why="not tried: packages missing"
	elif why=$("$LOCKLAT_ROOT/bench/host/qemu.sh" --check-accel "$accel" 2>&1); then
		why=ok
	else
		why=${why#qemu.sh: error: }
	fi
	fields+=("accel.$accel=$(printf '%s' "$why" | head -n 1 | tr '\t' ' ')")
done
(IFS=$'\t'; printf '%s\n' "${fields[*]}")
