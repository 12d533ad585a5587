#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# verdict.t - locklat-verdict, the one judge of a cell (run-cell.sh writes
# its answer to meta, the summary reads it): each rule on a cell made of the
# files run-cell.sh and the guest leave (results/README.md), worst first,
# and the passes a second boot runs after a first boot the host ended.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/bin/locklat-verdict
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 21

# mkcell NAME: a complete OK cell: a squashfs workload with its verify pass,
# its target reached well above the idle control.
mkcell() {
	local d=$tmp/$1
	mkdir -p "$d/guest"
	printf 'mode=cell\nworkload=squashfs\ntargets=squashfs_decompress\npasses=latency timerlat verify\n' >"$d/cell.conf"
	echo ok >"$d/qemu-exit"
	printf 'locklat: step setup: start\nlocklat: step setup: exit 0\n' >"$d/console.log"
	: >"$d/findings"
	: >"$d/results-tar.err"
	printf 'setup 0\nlatency 0\ntimerlat 0\nverify 0\n' >"$d/guest/steps"
	echo complete >"$d/guest/guest-complete"
	echo 'squashfs_decompress 120 3' >"$d/guest/path-hits"
	echo "$d"
}
judge() {
	"$bin" --deadline 300,200 --silence 150 --heartbeat 5 --hung-grace 30 --results-disk-mib 256 "$1" |
		sed -n 's/^status=//p; s/^reason=//p' | paste -sd'|'
}

d=$(mkcell ok)
tap_is "$(judge "$d")" "OK|" "a complete cell with its target reached: OK"

d=$(mkcell splats)
printf 'warning\t2\tWARNING: CPU: 0 PID: 1\nlockdep\t1\tpossible circular locking\n' >"$d/findings"
tap_is "$(judge "$d")" "FINDINGS|kernel splats: warning lockdep" "splats: FINDINGS, their kinds named"

d=$(mkcell panic)
printf 'panic\t1\tKernel panic - not syncing\n' >"$d/findings"
tap_is "$(judge "$d")" "FINDINGS|kernel panic" "a panic: FINDINGS"

d=$(mkcell corrupt)
printf 'locklat-integrity workload=zram checked=10 errors=2 first=page 3 wrong\n' >"$d/guest/workload-latency.out"
tap_is "$(judge "$d")" "FINDINGS|data corrupted: 2 of 10 checks wrong (first, latency pass: page 3 wrong)" \
	"wrong data read back: FINDINGS, the first error named"

d=$(mkcell few-hits)
echo 'squashfs_decompress 9 0' >"$d/guest/path-hits"
tap_like "$(judge "$d")" '^INVALID\|no target reached \(squashfs_decompress; at least 10 hits' \
	"9 hits: below the summary's rule, INVALID (the same rule the summary reads hits with)"
echo 'squashfs_decompress 50 6' >"$d/guest/path-hits"
tap_like "$(judge "$d")" '^INVALID\|no target reached' "50 hits against 6 idle: under 10x the control, INVALID"

d=$(mkcell failed)
printf 'setup 0\nlatency 0\ntimerlat 1\nverify 0\n' >"$d/guest/steps"
tap_is "$(judge "$d")" "INVALID|guest steps failed: timerlat 1" "a failed step: INVALID, named"

d=$(mkcell unfinished)
rm "$d/guest/guest-complete"
tap_is "$(judge "$d")" "INVALID|the guest did not finish its steps" "no guest-complete: INVALID"

d=$(mkcell damaged)
echo 'tar: Unexpected EOF in archive' >"$d/results-tar.err"
tap_like "$(judge "$d")" '^INVALID\|the guest.s results archive is damaged \(tar: Unexpected EOF in archive\): results disk full \(256 MiB\)' \
	"a damaged archive: INVALID, with tar's word and the disk size"

d=$(mkcell retried)
printf 'setup 0\nlatency 0\ntimerlat hung\nverify 0\ntimerlat 0\n' >"$d/guest/steps"
tap_is "$(judge "$d")" "OK|retried after a hang: timerlat" "a step that hung and whose retry ended: judged by its retry, said"

d=$(mkcell hung-twice)
printf 'setup 0\nlatency 0\ntimerlat hung\nverify 0\ntimerlat hung\n' >"$d/guest/steps"
tap_like "$(judge "$d")" '^TIMEOUT\|step timerlat hung: .*and again when retried' "hung again when retried: TIMEOUT"

d=$(mkcell silent)
echo silent >"$d/qemu-exit"
printf 'setup 0\nlatency 0\n' >"$d/guest/steps"
rm "$d/guest/guest-complete"
printf 'locklat: step timerlat: start\n' >>"$d/console.log"
printf 'warning\t1\tBUG: scheduling while atomic\n' >"$d/findings"
tap_like "$(judge "$d")" '^TIMEOUT\|the guest fell silent: no line of its init for 150 s of wall time in step timerlat .*; kernel splats: warning$' \
	"a silent guest: TIMEOUT, the step it was in, the splats before"
tap_is "$("$bin" --resume "$d")" "verify timerlat" \
	"--resume: the pass never run, then the one it was stuck in"

d=$(mkcell deadline)
echo timeout >"$d/qemu-exit"
printf 'setup 0\nlatency 0\ntimerlat hung\n' >"$d/guest/steps"
tap_is "$("$bin" --resume "$d")" "verify timerlat" "--resume: a step the guest ended hung, without its retry, runs again last"
printf 'locklat: step timerlat: start\n' >>"$d/console.log"
tap_is "$("$bin" --resume "$d")" "verify" "--resume: not a retry that stuck again"

d=$(mkcell stuck-in-latency)
echo silent >"$d/qemu-exit"
printf 'setup 0\n' >"$d/guest/steps"
printf 'locklat: step latency: start\n' >>"$d/console.log"
tap_is "$("$bin" --resume "$d")" "timerlat verify" \
	"--resume: never the latency pass again (its failure is the result), the others yes"
printf 'mode=cell\nworkload=squashfs\npasses=latency\n' >"$d/cell.conf"
tap_is "$("$bin" --resume "$d")" "" "--resume: a repetition stuck in its latency pass gets no second boot"

# A panic ends the boot by itself, its steps not done: a second boot too.
d=$(mkcell panicked)
printf 'setup 0\nlatency 0\n' >"$d/guest/steps"
rm "$d/guest/guest-complete"
printf 'locklat: step timerlat: start\n[    3.6] Kernel panic - not syncing: Fatal exception\n' >>"$d/console.log"
printf 'panic\t1\tKernel panic - not syncing: Fatal exception\n' >"$d/findings"
tap_is "$("$bin" --resume "$d")" "verify timerlat" "--resume after a panic: the passes left, then the one it panicked in"
mkdir -p "$d/boot2"
echo ok >"$d/boot2/qemu-exit"
printf 'mode=cell\npasses=verify timerlat\n' >"$d/boot2/cell.conf"
printf 'setup 0\nlatency 0\nsetup 0\nverify 0\ntimerlat 0\n' >"$d/guest/steps"
echo complete >"$d/guest/guest-complete"
tap_is "$(judge "$d")" "FINDINGS|kernel panic; first boot: the kernel panicked in step timerlat; a second boot ran verify timerlat" \
	"the panic stays the finding; the second boot's evidence is said"

# A second boot: boot2/ with its own QEMU record; the first's reason kept.
d=$(mkcell second-boot)
echo silent >"$d/qemu-exit"
printf 'locklat: step timerlat: start\n' >>"$d/console.log"
mkdir -p "$d/boot2"
echo ok >"$d/boot2/qemu-exit"
printf 'mode=cell\npasses=verify timerlat\n' >"$d/boot2/cell.conf"
printf 'setup 0\nlatency 0\nsetup 0\nverify 0\ntimerlat 0\n' >"$d/guest/steps"
tap_like "$(judge "$d")" '^OK\|first boot: the guest fell silent: .* in step timerlat .*; a second boot ran verify timerlat$' \
	"a second boot that finished: judged on it, the first boot's end said"

"$bin" --deadline soon "$d" >/dev/null 2>&1
tap_is "$?" 2 "a bad --deadline: exit 2"
tap_done
