#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cli.t - the command-line front ends: help, the --dry-run plan, resume
# accounting on a fake result tree, the output lock, and bad input (one line
# on stderr, non-zero exit, nothing created or deleted). Needs no QEMU.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
# shellcheck source=kernels/variants.sh
. "$LOCKLAT_ROOT/kernels/variants.sh"
# shellcheck source=workloads/workloads.sh
. "$LOCKLAT_ROOT/workloads/workloads.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm_=$root/run-matrix.sh
tap_plan 88

out=$("$rm_" --help)
tap_result $? "run-matrix.sh --help exits 0"
# Each script whose --help is its header prints all of it, to its last line.
helped=0 cut=
# shellcheck disable=SC2016 # the scripts' literal "$0"
for s in $(cd "$root" && git grep -l 'usage_from_header "$0"' -- ':!tests'); do
	last=$(awk 'NR > 2 && !/^#/ { exit } NR > 2 { l = $0 } END { sub(/^# ?/, "", l); print l }' "$root/$s")
	[ "$("$root/$s" --help | tail -n 1)" = "$last" ] || cut="$cut $s"
	helped=$((helped + 1))
done
[ "$helped" -ge 4 ] && [ -z "$cut" ]
tap_result $? "--help prints the whole header of the $helped scripts that use it${cut:+ (cut short:$cut)}"
tap_like "$out" '--dry-run' "--help lists the options"

out=$("$rm_" --dry-run --out "$tmp/fresh" --accel tcg-icount 2>&1)
tap_result $? "--dry-run exits 0"
tap_like "$out" "accel tcg-icount; $(nproc) cell\(s\) at once" "--jobs defaults to one cell per host CPU under tcg-icount"
"$rm_" --help | grep -q 'one per host CPU under'
tap_result $? "and --help says so"
# The default plan's size, from the data: the matrix's variants times the
# cells of each default workload (its repetitions and traced cell, or one)
# and of each default pass with a cell of its own (one).
per_variant=0
for w in $(default_workloads) $(own_cell_passes default); do
	per_variant=$((per_variant + $(workload_cells "$w" 4 | wc -l)))
done
n=$(( $(matrix_variants | wc -l) * per_variant ))
tap_like "$out" "cells: +$n in $tmp/fresh: $n to run, 0 complete" \
	"default plan: $(matrix_variants | wc -l) variants x $per_variant cells of the default workloads ($n)"
tap_like "$out" 'estimated: +[0-9]+ min' "the plan has an estimate"
[ ! -e "$tmp/fresh" ]
tap_result $? "--dry-run creates nothing"

# A fake result tree: one complete cell, one INFRA cell (redone), one partial,
# and the record of the settings it was started with (the keys it holds
# must match; the test's record names the repetitions only).
fake=$tmp/fake/cells/baseline/squashfs
mkdir -p "$fake/rep1" "$fake/rep2" "$fake/rep3.partial"
echo reps=3 >"$tmp/fake/matrix"
printf 'layout_version=%s\nstatus=OK\ncomplete=1\n' "$LOCKLAT_LAYOUT_VERSION" >"$fake/rep1/meta"
printf 'layout_version=%s\nstatus=INFRA\ncomplete=1\n' "$LOCKLAT_LAYOUT_VERSION" >"$fake/rep2/meta"
out=$("$rm_" --dry-run --out "$tmp/fake" --variants baseline --workloads squashfs --reps 3 --accel tcg-icount 2>&1)
tap_like "$out" 'cells: +4 in .*: 3 to run, 1 complete and kept' "resume: a complete cell is kept; INFRA and partial cells are redone (3 reps + traced)"
[ -f "$fake/rep1/meta" ] && [ -d "$fake/rep3.partial" ]
tap_result $? "--dry-run on an existing tree deletes nothing"

# The estimate learns from earlier cells: one 600 s cell of the same kind
# (accelerator, duration, warm-up) runs on one CPU, the traced cell beside
# it; with the fixed stages (packages, tools, the sources and rtla, image,
# the built kernels' checks, summary, plots: ~150 s) the simulated schedule
# takes 13 min.
hist=$tmp/history/run1/cells/baseline/squashfs/rep1
mkdir -p "$hist"
printf '%s\n' variant=baseline workload=squashfs rep=1 passes=latency accel=tcg-icount duration_s=3 \
	trace_duration_s=3 warmup_s=1 wall_seconds=600 complete=1 >"$hist/meta"
# A built-kernel stand-in keeps the build estimate out of the sum, so the
# test means the same on a fresh clone (CI) and on a machine with builds.
mkdir -p "$tmp/build/kernels/baseline" "$tmp/build/kernels/baseline+tracers"
: >"$tmp/build/kernels/baseline/manifest"
: >"$tmp/build/kernels/baseline+tracers/manifest"
out=$(LOCKLAT_BUILD=$tmp/build LOCKLAT_RESULTS=$tmp/history "$rm_" --dry-run --out "$tmp/h" --variants baseline \
	--workloads squashfs --reps 1 --duration 3 --warmup 1 --accel tcg-icount --jobs 2 2>&1)
tap_like "$out" 'built and kept: baseline baseline\+tracers$' "built kernels (plain and traced) are not planned again"
tap_like "$out" 'estimated: +12 min wall: 2 host CPUs, cells beside builds; .*1 kinds timed by earlier runs' "the estimate uses earlier cells' wall time"
rm "$tmp/build/kernels/baseline+tracers/manifest"
out=$(LOCKLAT_BUILD=$tmp/build "$rm_" --dry-run --out "$tmp/h" --variants baseline --workloads squashfs \
	--accel tcg-icount 2>&1)
tap_like "$out" 'to build, every object: baseline\+tracers$' "a variant whose traced kernel is missing plans that build"
out=$(LOCKLAT_BUILD=$tmp/nobuild "$rm_" --dry-run --out "$tmp/h" --variants baseline,local_lock,rt \
	--workloads squashfs --accel tcg-icount 2>&1)
tap_like "$out" "every object: baseline baseline\+tracers rt rt\+tracers
 +to build, a built configuration's objects from ccache: local_lock local_lock\+tracers\$" \
	"the plan names the kernels whose configuration an earlier one builds first"

# The cells' order: shuffled from a seed the plan names; a tree already
# ordered keeps its order file's seed and refuses another, or other cells.
out=$("$rm_" --dry-run --out "$tmp/o1" --seed 7 --accel tcg-icount 2>&1)
tap_like "$out" 'shuffled, seed 7$' "the plan names the order's seed"
mkdir -p "$tmp/o2"
printf '# seed=5\nbaseline squashfs rep1\nbaseline squashfs traced\nbaseline squashfs rep2\n' >"$tmp/o2/order"
out=$("$rm_" --dry-run --out "$tmp/o2" --variants baseline --workloads squashfs --reps 2 --accel tcg-icount 2>&1)
tap_like "$out" 'shuffled, seed 5$' "a resumed tree keeps its recorded seed"
out=$("$rm_" --dry-run --out "$tmp/o2" --variants baseline --workloads squashfs --reps 2 --seed 6 \
	--accel tcg-icount 2>&1)
tap_is "$?:$(wc -l <<<"$out")" "2:1" "another --seed for an ordered tree: one line, exit 2"
out=$("$rm_" --dry-run --out "$tmp/o2" --variants baseline --workloads squashfs --reps 3 --accel tcg-icount 2>&1)
tap_like "$out" 'holds another matrix' "a resumed tree with other cells is refused"
tap_is "$(cat "$tmp/o2/order")" "$(printf '# seed=5\nbaseline squashfs rep1\nbaseline squashfs traced\nbaseline squashfs rep2')" \
	"and its order file is left as it was"

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
bad_input "--trace-duration 0" 2 "--trace-duration wants a positive whole number" "$rm_" --trace-duration 0 --out "$tmp/never"
bad_input "--seed x" 2 "--seed wants a positive whole number" "$rm_" --seed x --out "$tmp/never"
bad_input "more jobs than host CPUs" 2 "host CPUs to pin to" "$rm_" --jobs $(( $(nproc) + 1 )) --accel tcg-icount --out "$tmp/never"
bad_input "more vCPUs than host CPUs under tcg" 2 "host CPUs to pin to" "$rm_" --accel tcg --cpus $(( $(nproc) + 1 )) --out "$tmp/never"
bad_input "more vCPUs than the guest kernel has CPUs" 2 "--cpus is at most 8, got 999" "$rm_" --accel tcg-icount --cpus 999 --out "$tmp/never"
bad_input "--reps past its maximum" 2 "--reps is at most 100, got 101" "$rm_" --reps 101 --out "$tmp/never"
bad_input "--duration past its maximum" 2 "--duration is at most 3600, got 3601" "$rm_" --duration 3601 --out "$tmp/never"
bad_input "a number too long for bash" 2 "--warmup is out of range, got '99999999999999999999'" "$rm_" --warmup 99999999999999999999 --out "$tmp/never"
bad_input "a variant named twice" 2 "--variants names 'rt' twice" "$rm_" --variants rt,rt --out "$tmp/never"
bad_input "a workload named twice" 2 "--workloads names 'squashfs' twice" "$rm_" --workloads squashfs,zram,squashfs --out "$tmp/never"
if [ "$("$root/bench/host/qemu.sh" --detect-accel)" != kvm ]; then
	bad_input "--accel kvm where KVM cannot run" 2 "--accel kvm: this host cannot run KVM guests" "$rm_" --accel kvm --out "$tmp/never"
else
	tap_result 0 "# SKIP this host runs KVM guests"
fi
: >"$tmp/a-file"
bad_input "--out below a file" 2 "--out: $tmp/a-file is not a directory" "$rm_" --out "$tmp/a-file/run"

# Resume resumes only the same matrix: each recorded setting, the code and
# the kernels must be as they were; the tree is left as it was.
mkdir -p "$tmp/r/cells/baseline/squashfs/rep1"
printf 'layout_version=%s\nstatus=OK\ncomplete=1\n' "$LOCKLAT_LAYOUT_VERSION" >"$tmp/r/cells/baseline/squashfs/rep1/meta"
printf '%s\n' duration_s=30 >"$tmp/r/matrix"
bad_input "resume with another --duration" 2 "$tmp/r was started with duration_s=30, not 3: rerun it with the options it was started with, or choose another --out" \
	"$rm_" --dry-run --out "$tmp/r" --variants baseline --workloads squashfs --duration 3
printf '%s\n' code_sha256=0123 >"$tmp/r/matrix"
bad_input "resume after the measurement code changed" 2 "the measurement code \(bench/, workloads/, lib/\) changed since this run started" \
	"$rm_" --dry-run --out "$tmp/r" --variants baseline --workloads squashfs
mkdir -p "$tmp/rb/kernels/baseline"
printf 'bzimage_sha256=feed\n' >"$tmp/rb/kernels/baseline/manifest"
printf '%s\n' kernel.baseline=beef >"$tmp/r/matrix"
bad_input "resume after a kernel was rebuilt" 2 "kernel baseline was rebuilt since this run started \(its bzImage differs\)" \
	env LOCKLAT_BUILD="$tmp/rb" "$rm_" --dry-run --out "$tmp/r" --variants baseline --workloads squashfs
rm "$tmp/r/matrix"
bad_input "cells without a record of their settings" 2 "holds cells but no record of the settings" \
	"$rm_" --dry-run --out "$tmp/r" --variants baseline --workloads squashfs
[ -f "$tmp/r/cells/baseline/squashfs/rep1/meta" ] && [ ! -e "$tmp/r/order" ]
tap_result $? "a refused resume leaves the tree as it was"

# A file that skips: kselftest's exit 4 when run alone, a pass under prove.
# shellcheck disable=SC2016 # the script's own $1, expanded when it runs
printf '%s\n' '. "$1/tests/lib/tap.sh"' 'tap_skip_all "nothing to do here"' >"$tmp/skip.t"
env -u HARNESS_ACTIVE bash "$tmp/skip.t" "$root" >/dev/null
tap_is "$?" 4 "a skipped test file exits 4 when run alone"
prove -e "bash" "$tmp/skip.t" :: "$root" >/dev/null 2>&1
tap_result $? "and prove counts it as skipped, not failed"
bad_input "unknown accelerator" 2 "--accel wants" "$rm_" --accel xen --out "$tmp/never"
bad_input "unknown option" 2 "unknown option '--frobnicate'" "$rm_" --frobnicate
bad_input "option without value" 2 "--out needs a value" "$rm_" --out

# A tree of another result layout is not resumed into, and nothing in it goes.
old=$tmp/old-layout/baseline/squashfs/rep1
mkdir -p "$old"
printf 'layout_version=1\nstatus=OK\ncomplete=1\n' >"$old/meta"
bad_input "a result tree from an older layout" 2 \
	"holds cells of result layout 1 \(this locklat writes $LOCKLAT_LAYOUT_VERSION\): choose another --out" \
	"$rm_" --out "$tmp/old-layout" --variants baseline --workloads squashfs --reps 1
[ -f "$old/meta" ]
tap_result $? "the old tree is left as it was"

# Output directory: one that cannot be created (a read-only place, even for
# root), and a disk without room for the cells.
bad_input "read-only output directory" 1 "cannot create the output directory /proc/locklat" \
	"$rm_" --out /proc/locklat/run --variants baseline --workloads idle --reps 1
# An existing --out that takes no files: chattr +i, which stops root too
# (chmod does not), or chmod for other users.
ro=$tmp/read-only
mkdir -p "$ro"
if [ "$(id -u)" -eq 0 ]; then chattr +i "$ro" 2>/dev/null; else chmod 555 "$ro"; fi
if [ -w "$ro" ]; then
	tap_result 0 "# SKIP neither chattr +i nor chmod makes $ro read-only here"
else
	bad_input "read-only existing output directory" 1 "the output directory $ro is not writable" \
		"$rm_" --out "$ro" --variants baseline --workloads idle --reps 1
fi
chattr -i "$ro" 2>/dev/null; chmod 755 "$ro"
bad_input "output directory on a full disk" 75 "MiB free in $tmp/full, need [0-9]+ MiB" \
	env LOCKLAT_CELL_SPACE_MIB=999999999 "$rm_" --out "$tmp/full" --variants baseline --workloads idle --reps 1

# Missing Debian packages: --check names them; without root, the exact
# apt-get line to run.
printf 'locklat-no-such-package\n' >"$tmp/packages"
bad_input "missing packages (--check)" 1 "missing Debian packages: locklat-no-such-package" \
	env LOCKLAT_PACKAGES="$tmp/packages" "$root/tools/install-deps.sh" --check
chmod 755 "$tmp" && chmod 644 "$tmp/packages"
if [ "$(id -u)" -eq 0 ] && setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	bad_input "missing packages, not root" 1 "run as root: apt-get install --no-install-recommends locklat-no-such-package" \
		env LOCKLAT_PACKAGES="$tmp/packages" setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$root/tools/install-deps.sh"
else
	tap_result 0 "# SKIP needs root to run the check as nobody"
fi

# A cached squashfs image that no longer matches its checksum is refused and kept.
if [ -x "$root/build/guest-bin/locklat-squashfs" ] && command -v mksquashfs >/dev/null; then
	mkdir -p "$tmp/build"
	ln -s "$root/build/guest-bin" "$tmp/build/guest-bin"
	image=$(LOCKLAT_BUILD=$tmp/build "$root/workloads/squashfs/image.sh" 2>/dev/null)
	tap_result $? "squashfs image built into an empty cache"
	printf 'corrupt' | dd of="$image" bs=1 seek=4096 conv=notrunc status=none
	bad_input "corrupted squashfs image" 1 "cached image $image is corrupt" \
		env LOCKLAT_BUILD="$tmp/build" "$root/workloads/squashfs/image.sh"
	[ -f "$image" ] && [ -f "$image.sha256" ]
	tap_result $? "the corrupt image is kept for the user to look at"
else
	for _ in 1 2 3; do tap_result 0 "# SKIP build/guest-bin/locklat-squashfs not built"; done
fi

# Host safety: no host-side script loads or unloads a kernel module; only the
# guest's init (bench/guest/) may, inside QEMU. Guests have no network.
# The scripts and Makefiles (the C tools only parse what the guest reports).
offenders=$(cd "$root" && git ls-files -- '*.sh' run-matrix.sh Makefile .ci/run |
	grep -v '^bench/guest/' | xargs grep -lE '(^|[^[:alnum:]_-])(insmod|modprobe|rmmod)([^[:alnum:]_-]|$)' 2>/dev/null)
tap_is "$offenders" "" "no host-side script runs insmod, modprobe or rmmod"
grep -q -- '-nic none' "$root/bench/host/qemu.sh"
tap_result $? "QEMU guests are started without a network (-nic none)"

# A second run on the same output directory is refused through its lock.
mkdir -p "$tmp/locked"
exec 7>"$tmp/locked/.lock"
flock -n 7 || echo "# could not take the test lock"
err=$("$rm_" --out "$tmp/locked" --variants baseline --workloads idle --reps 1 --accel tcg-icount 2>&1 >/dev/null)
status=$?
exec 7>&-
tap_is "$status" 1 "a second run-matrix.sh on a locked output directory is refused"
tap_like "$err" "another run-matrix.sh is running on $tmp/locked" "and says why"

# The QEMU command each accelerator gets, against golden copies: the KVM
# line (-accel kvm -cpu host) is what users with hardware KVM run, and this
# machine cannot start it. --print-cmdline starts nothing.
q=$tmp/qemu
mkdir -p "$q"
: >"$q/bzImage"; : >"$q/initrd.img"; : >"$q/results.img"; : >"$q/squashfs.img"
for a in kvm tcg-icount tcg; do
	"$root/bench/host/qemu.sh" --print-cmdline --kernel "$q/bzImage" --initrd "$q/initrd.img" --out "$q/cell" \
		--accel "$a" --cpus 2 --pin 0,1 --mem 512 --append locklat.job=1 \
		--disk "results=$q/results.img" --disk "image=$q/squashfs.img:ro" | sed "s|$q|TMP|g" >"$q/$a.cmdline"
	diff -u "$root/tests/fixtures/qemu/$a.cmdline" "$q/$a.cmdline" | sed 's/^/# /'
	cmp -s "$root/tests/fixtures/qemu/$a.cmdline" "$q/$a.cmdline"
	tap_result $? "qemu.sh --accel $a: the command line equals tests/fixtures/qemu/$a.cmdline"
done
[ ! -e "$q/cell" ]
tap_result $? "qemu.sh --print-cmdline starts nothing and writes nothing"

cell=$root/bench/host/run-cell.sh
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

# The pairs make verify-equivalence compares come from the variant files: a
# variant added with the series and one without it, alike otherwise, pair
# up; one without a partner does not.
mkdir -p "$tmp/variants"
cp "$LOCKLAT_VARIANTS_DIR"/* "$tmp/variants/"
printf '%s\n' "description=pre-series code under lockdep" "patches=baseline" \
	"configs=$(kv_get "$LOCKLAT_VARIANTS_DIR/lockdep" configs)" >"$tmp/variants/baseline-lockdep"
printf '%s\n' "description=local_lock on RT under lockdep" "patches=baseline local-lock" \
	"configs=guest-base rt lockdep" >"$tmp/variants/lockdep-rt"
tap_is "$(LOCKLAT_VARIANTS_DIR=$tmp/variants "$root/kernels/verify-equivalence.sh" --pairs | tr '\n' ,)" \
	"local_lock baseline,lockdep baseline-lockdep,rt baseline-rt," \
	"verify-equivalence --pairs: the pairs that differ by the series alone, an added one too"
rm -rf "$tmp/variants"

build=$root/kernels/build.sh
bad_input "build.sh: unknown variant" 2 "unknown variant 'nope'; known: baseline" "$build" nope
bad_input "build.sh: missing tarball" 1 "install the Debian package linux-source-6.12" \
	env LOCKLAT_KERNEL_TARBALL="$tmp/none.tar.xz" "$build" baseline
bad_input "build.sh: bad -j" 2 "-j wants a positive whole number" "$build" -j 0 baseline
bad_input "build.sh: bad --flavour" 2 "--flavour wants plain or traced, got 'both'" "$build" --flavour both baseline
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
	[ ! -e "$tmp/build/kernels/baseline/src" ] &&
		[ -f "$tmp/build/src/pristine/Makefile" ]
	tap_result $? "no half-patched tree is left to be trusted; the pristine tree is kept"
	rm -rf "$tmp/build"
else
	for _ in 1 2 3; do tap_result 0 "# SKIP $LOCKLAT_KERNEL_TARBALL missing"; done
fi
# --config: a readable kernel configuration, or a defconfig target; the
# plan says which; nothing else is taken.
err=$("$rm_" --dry-run --config "$tmp/nowhere" --out "$tmp/never" 2>&1)
tap_like "$?:$err" "^2:.*--config wants a .config file or a defconfig target" "--config: neither a file nor a defconfig target"
printf 'not a config\n' >"$tmp/not.config"
err=$("$rm_" --dry-run --config "$tmp/not.config" --out "$tmp/never" 2>&1)
tap_like "$?:$err" "^2:.*not a kernel configuration" "--config: a file without CONFIG_ lines"
printf 'CONFIG_BLK_DEV_RAM=y\n' >"$tmp/dev.config"
out=$(cd "$tmp" && "$rm_" --dry-run --config dev.config --variants baseline --workloads idle --out "$tmp/never" 2>&1)
tap_like "$out" "^  config: +$tmp/dev.config, with locklat's fragments merged onto it\$" \
	"--config FILE: the plan names it, made absolute"
out=$("$rm_" --dry-run --config x86_64_defconfig --variants baseline --workloads idle --out "$tmp/never" 2>&1)
tap_like "$out" "^  config: +x86_64_defconfig, with" "--config TARGET: a defconfig target"
tap_done
