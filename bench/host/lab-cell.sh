#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lab-cell.sh - run one cell on a lab host: the job GNU parallel starts for
# each cell of run-matrix.sh --hosts (bench/host/lab.sh), on another machine
# over ssh or on this one (":"), in the folder that holds the tree and the
# build output it was sent (bundle/).
#
# Usage: bundle/bench/host/lab-cell.sh --out DIR --log FILE --host-cpus N
#            --code-sha256 HASH [--revision REV] -- RUN_CELL_ARGS...
#   --out DIR         the cell folder to write (relative: returned from there)
#   --log FILE        run-cell.sh's output
#   --host-cpus N     host CPUs the cell pins to (its TCG thread, or one per vCPU)
#   --code-sha256 H   the run's measurement code (lib/common.sh
#                     measurement_sha256): a copy that differs is refused
#   --revision REV    the locklat revision the cells record (the copy is no
#                     git tree)
# The cell's CPUs are the first free group of N on this host, held with
# flock on /tmp/locklat-cpus/cpu<K>.lock for the cell's life: two lab
# cells, of this run or another, never share a CPU (a local run-matrix.sh
# on the host takes no such lock). Prints one line, the cell's
# folder, its digest and its result with this host's name.
# Exit: 0 a complete cell was written (its status is in its meta), 1 the
# copy is not the run's, 2 bad usage, 75 no free CPUs, 70 no cell written.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"
# shellcheck source=bench/host/lab.sh
. "$LOCKLAT_ROOT/bench/host/lab.sh"

pin='' out='' log='' per_cell='' code_sha256='' revision=''
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	--out | --log | --host-cpus | --code-sha256 | --revision) [ $# -ge 2 ] || err_exit "$1 needs a value" 2 ;;
	*) err_exit "unknown option '$1' (see --help)" 2 ;;
	esac
	case $1 in
	--out) out=$2 ;;
	--log) log=$2 ;;
	--host-cpus) per_cell=$2 ;;
	--code-sha256) code_sha256=$2 ;;
	--revision) revision=$2 ;;
	esac
	shift 2
done
{ [ -n "$out" ] && [ -n "$log" ] && [ -n "$code_sha256" ]; } || err_exit "--out, --log and --code-sha256 are required" 2
positive_int host-cpus "$per_cell"
host=$(uname -n)
[ "$(measurement_sha256)" = "$code_sha256" ] ||
	err_exit "$host: the copy of the measurement code in $LOCKLAT_ROOT is not the run's (sha256 differs)" 1

# cpus_take: the first group of per_cell host CPUs whose locks are all free,
# held on open descriptors of this shell (inherited by the cell, so held as
# long as its QEMU runs), into pin; fails if every group is busy.
lock_dir=/tmp/locklat-cpus
mkdir -p "$lock_dir"
chmod 1777 "$lock_dir" 2>/dev/null || true
held=()
cpus_release() {
	local fd
	for fd in "${held[@]}"; do exec {fd}<&-; done
	held=()
}
cpus_take() {
	local slots=$(( $(nproc) / per_cell )) s k fd
	for ((s = 0; s < slots; s++)); do
		for ((k = s * per_cell; k < (s + 1) * per_cell; k++)); do
			[ -e "$lock_dir/cpu$k.lock" ] || : >>"$lock_dir/cpu$k.lock"
			exec {fd}<"$lock_dir/cpu$k.lock"
			held+=("$fd")
			flock -n "$fd" || { cpus_release; continue 2; }
		done
		pin=$(seq -s, $((s * per_cell)) $(((s + 1) * per_cell - 1)))
		return 0
	done
	return 1
}
cpus_take || err_exit "$host: no $per_cell free host CPUs (other cells hold them: $lock_dir)" 75

# A folder left by an earlier attempt of this cell is not this cell.
rm -rf -- "$out" "$out.partial"
mkdir -p -- "$(dirname -- "$out")" "$(dirname -- "$log")"
LOCKLAT_SUITE_REVISION=${revision:-} "$LOCKLAT_ROOT/bench/host/run-cell.sh" "$@" --pin "$pin" --out "$out" \
	>"$log" 2>&1 || true
cpus_release
line=$(tail -n 1 "$log")
# The cell's folder, its digest (what the run checks the returned copy
# against: bench/host/lab.sh), and what became of it.
digest=-
[ ! -d "$out" ] || digest=$(cell_digest "$out")
printf '%s\t%s\t%s on %s\n' "$out" "$digest" "${line#\[*\] }" "$host"
[ -f "$out/meta" ] || exit 70
exit 0
