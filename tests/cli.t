#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cli.t - the command-line front ends: help, the --dry-run plan, resume
# accounting on a fake result tree, the output lock, and bad input (one line
# on stderr, non-zero exit, nothing created or deleted). Needs no QEMU.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm_=$root/run-matrix.sh
tap_plan 37

out=$("$rm_" --help)
tap_result $? "run-matrix.sh --help exits 0"
tap_like "$out" '--dry-run' "--help lists the options"

out=$("$rm_" --dry-run --out "$tmp/fresh" --accel tcg-icount 2>&1)
tap_result $? "--dry-run exits 0"
tap_like "$out" "cells: +60 in $tmp/fresh: 60 to run, 0 complete" "default plan: 5 variants x 3 workloads x 4 reps"
tap_like "$out" 'estimated: +[0-9]+ min' "the plan has an estimate"
[ ! -e "$tmp/fresh" ]
tap_result $? "--dry-run creates nothing"

# A fake result tree: one complete cell, one INFRA cell (redone), one partial.
fake=$tmp/fake/baseline/squashfs
mkdir -p "$fake/rep1" "$fake/rep2" "$fake/rep3.partial"
printf 'status=OK\ncomplete=1\n' >"$fake/rep1/meta"
printf 'status=INFRA\ncomplete=1\n' >"$fake/rep2/meta"
out=$("$rm_" --dry-run --out "$tmp/fake" --variants baseline --workloads squashfs --reps 3 --accel tcg-icount 2>&1)
tap_like "$out" 'cells: +3 in .*: 2 to run, 1 complete and kept' "resume: a complete cell is kept; INFRA and partial cells are redone"
[ -f "$fake/rep1/meta" ] && [ -d "$fake/rep3.partial" ]
tap_result $? "--dry-run on an existing tree deletes nothing"

# bad_input NAME EXPECTED_STATUS REGEX CMD...: one line on stderr, the status, nothing made.
bad_input() {
	local name=$1 want=$2 re=$3 err status
	shift 3
	err=$("$@" 2>&1 >/dev/null)
	status=$?
	[ "$status" -eq "$want" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
		printf '%s\n' "$err" | grep -Eq -- "$re" && [ ! -e "$tmp/never" ]
	tap_result $? "$name (exit $status: $err)"
}
bad_input "unknown variant" 2 "unknown variant 'nope'; known: .*baseline" "$rm_" --variants baseline,nope --out "$tmp/never"
bad_input "unknown workload" 2 "unknown workload 'nope'" "$rm_" --workloads nope --out "$tmp/never"
bad_input "malformed duration" 2 "--duration wants a positive whole number, got 'abc'" "$rm_" --duration abc --out "$tmp/never"
bad_input "fractional duration" 2 "--duration wants a positive whole number" "$rm_" --duration 1.5 --out "$tmp/never"
bad_input "zero duration" 2 "--duration wants a positive whole number, got '0'" "$rm_" --duration 0 --out "$tmp/never"
bad_input "negative duration" 2 "--duration wants a positive whole number, got '-5'" "$rm_" --duration -5 --out "$tmp/never"
bad_input "--reps 0" 2 "--reps wants a positive whole number" "$rm_" --reps 0 --out "$tmp/never"
bad_input "--cpus 0" 2 "--cpus wants a positive whole number" "$rm_" --cpus 0 --out "$tmp/never"
bad_input "more jobs than host CPUs" 2 "host CPUs to pin to" "$rm_" --jobs $(( $(nproc) + 1 )) --accel tcg-icount --out "$tmp/never"
bad_input "more vCPUs than host CPUs under kvm" 2 "host CPUs to pin to" "$rm_" --accel kvm --cpus $(( $(nproc) + 1 )) --out "$tmp/never"
bad_input "unknown accelerator" 2 "--accel wants" "$rm_" --accel xen --out "$tmp/never"
bad_input "unknown option" 2 "unknown option '--frobnicate'" "$rm_" --frobnicate
bad_input "option without value" 2 "--out needs a value" "$rm_" --out

# A second run on the same output directory is refused through its lock.
mkdir -p "$tmp/locked"
exec 7>"$tmp/locked/.lock"
flock -n 7 || echo "# could not take the test lock"
err=$("$rm_" --out "$tmp/locked" --variants baseline --workloads idle --reps 1 --accel tcg-icount 2>&1 >/dev/null)
status=$?
exec 7>&-
tap_is "$status" 1 "a second run-matrix.sh on a locked output directory is refused"
tap_like "$err" "another run-matrix.sh is running on $tmp/locked" "and says why"

cell=$root/bench/run-cell.sh
bad_input "run-cell: no variant" 2 "--variant is required" "$cell" --workload idle --out "$tmp/never"
bad_input "run-cell: unknown variant" 2 "unknown variant 'nope'" "$cell" --variant nope --workload idle --out "$tmp/never"
bad_input "run-cell: unknown workload" 2 "unknown workload 'nope'" "$cell" --variant baseline --workload nope --out "$tmp/never"
bad_input "run-cell: --workload and --command" 2 "exclude each other" "$cell" --variant baseline --workload idle --command true --out "$tmp/never"
bad_input "run-cell: unknown pass" 2 "unknown pass 'x'" "$cell" --variant baseline --workload idle --passes "latency x" --out "$tmp/never"
bad_input "run-cell: zero duration" 2 "--duration wants a positive whole number" "$cell" --variant baseline --workload idle --duration 0 --out "$tmp/never"
mkdir -p "$tmp/existing"
bad_input "run-cell: an existing cell is never overwritten" 2 "exists" "$cell" --variant baseline --workload idle --out "$tmp/existing"
[ -d "$tmp/existing" ]
tap_result $? "run-cell: the existing cell is still there"

build=$root/kernels/build.sh
bad_input "build.sh: unknown variant" 2 "unknown variant 'nope'; known: baseline" "$build" nope
bad_input "build.sh: missing tarball" 1 "install the Debian package linux-source-6.12" \
	env LOCKLAT_KERNEL_TARBALL="$tmp/none.tar.xz" "$build" baseline
bad_input "build.sh: bad -j" 2 "-j wants a positive whole number" "$build" -j 0 baseline
# A series that no longer applies (as after a 6.12.x update): the build stops
# naming the patch, the file and the hunk, and leaves no patched tree behind.
if [ -r "$LOCKLAT_KERNEL_TARBALL" ]; then
	mkdir -p "$tmp/patches/baseline"
	bad=0003-squashfs-Revert-to-get_cpu_ptr-in-the-multi-CPU-deco.patch
	sed 's|^ #include <linux/percpu.h>$| #include <linux/percpu-renamed.h>|' \
		"$root/kernels/patches/baseline/$bad" >"$tmp/patches/baseline/$bad"
	printf '%s\n' "$bad" >"$tmp/patches/baseline/series"
	err=$(LOCKLAT_PATCHES_DIR=$tmp/patches LOCKLAT_BUILD=$tmp/build "$build" baseline 2>&1 >/dev/null)
	tap_is "$?" 1 "build.sh: a patch that does not apply stops the build"
	tap_like "$err" "$bad: fs/squashfs/decompressor_multi_percpu.c: Hunk #1 FAILED at [0-9]+" \
		"and names the patch, the file and the failing hunk"
	[ ! -e "$tmp/build/src/baseline" ] && [ -f "$tmp/build/src/pristine/Makefile" ]
	tap_result $? "no half-patched tree is left to be trusted; the pristine tree is kept"
	rm -rf "$tmp/build"
else
	for _ in 1 2 3; do tap_result 0 "# SKIP $LOCKLAT_KERNEL_TARBALL missing"; done
fi
tap_done
