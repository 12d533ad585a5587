# SPDX-License-Identifier: GPL-2.0
# lib/common.sh - paths and helpers shared by every locklat shell script.
#
# Usage: . "$(dirname "$0")/../lib/common.sh"   (from a script one level down)
#
# Holds the project's fixed locations (the one place that names them) and the
# error/progress helpers. It defines functions and variables only.

# shellcheck shell=bash
# shellcheck disable=SC2034 # the paths are read by the scripts that source this

LOCKLAT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Build output never enters git: build/ is ignored.
LOCKLAT_BUILD=${LOCKLAT_BUILD:-$LOCKLAT_ROOT/build}
# The kernel source: Debian's linux-source-6.12 (not the linux-source
# metapackage, which is 6.1 on bookworm and has no PREEMPT_RT).
LOCKLAT_KERNEL_PACKAGE=linux-source-6.12
LOCKLAT_KERNEL_TARBALL=${LOCKLAT_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
# Overridable so that a test can feed build.sh a variant of its own, or a
# series that does not apply.
LOCKLAT_VARIANTS_DIR=${LOCKLAT_VARIANTS_DIR:-$LOCKLAT_ROOT/kernels/variants}
LOCKLAT_PATCHES_DIR=${LOCKLAT_PATCHES_DIR:-$LOCKLAT_ROOT/kernels/patches}
# Where run-matrix.sh writes runs and finds earlier ones (overridable for tests).
LOCKLAT_RESULTS=${LOCKLAT_RESULTS:-$LOCKLAT_ROOT/results}
# The Debian packages the suite needs (overridable for tests).
LOCKLAT_PACKAGES=${LOCKLAT_PACKAGES:-$LOCKLAT_ROOT/tools/debian-packages}
LOCKLAT_CONFIGS_DIR=$LOCKLAT_ROOT/kernels/configs

LOCKLAT_PROG=${LOCKLAT_PROG:-$(basename "$0")}
LOCKLAT_T0=${LOCKLAT_T0:-$SECONDS}

# usage_from_header SCRIPT: print SCRIPT's header comment (after the shebang
# and SPDX lines, up to the first line that is not a comment) as its --help,
# so the usage text lives once, where a reader of the script sees it.
usage_from_header() {
	awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$1"
}

# err_exit MESSAGE [STATUS]: one line on stderr, then exit (default 1).
err_exit() {
	printf '%s: error: %s\n' "$LOCKLAT_PROG" "$1" >&2
	exit "${2:-1}"
}

warn() {
	printf '%s: warning: %s\n' "$LOCKLAT_PROG" "$1" >&2
}

# elapsed: m:ss since the script started.
elapsed() {
	local s=$((SECONDS - LOCKLAT_T0))
	printf '%d:%02d' $((s / 60)) $((s % 60))
}

# progress TAG MESSAGE: one progress line with elapsed time.
progress() {
	printf '[%s %s] %s\n' "$(elapsed)" "$1" "$2"
}

# sha256_of FILE: the hex digest only.
sha256_of() {
	local sum
	sum=$(sha256sum -- "$1") || return 1
	printf '%s\n' "${sum%% *}"
}

# content_key TEXT FILE...: 16 hex digits naming TEXT and the content of the
# FILEs, for caches that must be rebuilt when any input changes.
content_key() {
	local f
	{
		printf '%s\n' "$1"
		shift
		for f in "$@"; do
			printf '%s %s\n' "$f" "$(sha256_of "$f")"
		done
	} | sha256sum | cut -c1-16
}

# positive_int OPTION VALUE [STATUS]: stop unless VALUE is a whole number > 0
# without leading zeros, naming --OPTION (status 2 by default).
positive_int() {
	case $2 in
	'' | *[!0-9]* | 0*) err_exit "--$1 wants a positive whole number, got '$2'" "${3:-2}" ;;
	esac
	# More digits would wrap around in bash's 64-bit arithmetic.
	[ ${#2} -le 10 ] || err_exit "--$1 is out of range, got '$2'" "${3:-2}"
}

# kv_write FILE KEY VALUE...: append key=value lines (pairs of arguments).
# Values must be single lines: the key=value format has no escaping.
kv_write() {
	local file=$1 key value
	shift
	while [ $# -ge 2 ]; do
		key=$1 value=$2
		shift 2
		case $value in
		*$'\n'*) err_exit "internal: value of '$key' spans lines" 70 ;;
		esac
		printf '%s=%s\n' "$key" "$value" >>"$file"
	done
}

# kv_get FILE KEY: print the value of KEY (last one wins), status 1 if absent.
kv_get() {
	local file=$1 key=$2 line found=1 value=
	while IFS= read -r line; do
		case $line in
		"$key="*) value=${line#*=} found=0 ;;
		esac
	done <"$file"
	[ "$found" -eq 0 ] && printf '%s\n' "$value"
	return "$found"
}

# The series whose effect locklat measures (kernels/patches/<series>/): a
# variant with it and one without it, alike otherwise, are a pair that
# make verify-equivalence compares object by object.
LOCKLAT_SERIES=${LOCKLAT_SERIES:-local-lock}

# require_disk_space DIR MIB: stop before a step that needs MIB free.
require_disk_space() {
	local dir=$1 need=$2 avail
	avail=$(df -Pm -- "$dir" | awk 'NR == 2 { print $4 }')
	[ -n "$avail" ] || err_exit "cannot read free space of $dir"
	[ "$avail" -ge "$need" ] ||
		err_exit "only ${avail} MiB free in $dir, need ${need} MiB: free disk space and run again" 75
}

LOCKLAT_WORKLOADS_DIR=${LOCKLAT_WORKLOADS_DIR:-$LOCKLAT_ROOT/workloads}

# trim STRING: without leading and trailing white space.
trim() {
	local s=$1
	s=${s#"${s%%[![:space:]]*}"}
	printf '%s\n' "${s%"${s##*[![:space:]]}"}"
}

# default_vcpus ACCEL: the guest's vCPUs unless --cpus says otherwise. Under
# tcg-icount one host thread runs every vCPU in turn on one instruction
# clock, so with 2 vCPUs a section lasts its own instructions plus the other
# vCPU's: baseline squashfs maxima were 53-107 ms (log-SD 0.34, the ~2x
# when both decompress) against 52.6-52.8 ms with 1 vCPU (METHODOLOGY.md,
# "The clock"). With one vCPU a microsecond is 1000 of its own
# instructions. kvm and multi-threaded tcg run vCPUs in parallel: 2.
default_vcpus() {
	case $1 in tcg-icount) echo 1 ;; *) echo 2 ;; esac
}

# measurement_sha256: one hash of the code that measures (bench/, workloads/,
# lib/: the guest, the cell runner, the workloads, the analysis), by content,
# so that an edit not yet committed counts too. The kernels are recorded apart.
measurement_sha256() {
	(cd "$LOCKLAT_ROOT" && find bench workloads lib -type f -print0 | sort -z |
		xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

# The most repetitions run-matrix.sh accepts per variant and workload: past
# it the cell count, not the statistics, is what grows (METHODOLOGY.md,
# "Choosing the defaults": 4 give the interval its power).
LOCKLAT_MAX_REPS=100

# The range of cyclictest's latency histogram (-h), in microseconds.
LOCKLAT_HIST_RANGE_US=400000
# cyclictest's wake-up interval (-i), in microseconds.
LOCKLAT_INTERVAL_US=200

# The result layout (results/README.md) this suite writes. 6: cells under
# RUN/cells/, beside the run's own files and folders (5: cells at the top
# level; 4: tracer passes once; 3: rep1 ran every pass on a kernel with the
# tracers; 2 had per-window maxima, 1 no sample stream). The summary reads
# every layout; run-matrix.sh resumes only a tree of this one.
LOCKLAT_LAYOUT_VERSION=6

# The result layout's cells, in one place.
# cell_dir RUN VARIANT WORKLOAD CELL: a cell's folder.
cell_dir() {
	printf '%s/cells/%s/%s/%s\n' "$1" "$2" "$3" "$4"
}
# cells_metas RUN: the meta file of each cell folder of RUN, of this
# layout or an older one (cells at the top level), NUL-separated.
cells_metas() {
	local d
	for d in "$1" "$1/cells"; do
		[ ! -d "$d" ] || find "$d" -mindepth 4 -maxdepth 4 -name meta -type f -print0
	done
}
# cell_done DIR: a complete cell, kept by a resumed run; an INFRA cell (the
# harness failed, nothing was measured) is redone.
cell_done() {
	[ -f "$1/meta" ] && [ "$(kv_get "$1/meta" complete)" = 1 ] &&
		[ "$(kv_get "$1/meta" status)" != INFRA ]
}

# matrix_compare RUN WANT_LINES: each key of RUN/matrix (what defines the
# run's cells: its settings, its code, its kernels) that WANT_LINES also
# has must hold the same value; a resumed run that would mix two matrices
# is refused with the first difference (status 2).
matrix_compare() {
	local dir=$1 key value now
	while IFS='=' read -r key value; do
		now=$(printf '%s\n' "$2" | awk -v k="$key" 'index($0, k "=") == 1 { print substr($0, length(k) + 2) }')
		[ -z "$now" ] || [ "$now" = "$value" ] || {
			case $key in
			kernel.*) err_exit "$dir: kernel ${key#kernel.} was rebuilt since this run started (its bzImage differs): choose another --out" 2 ;;
			code_sha256) err_exit "$dir: the measurement code (bench/, workloads/, lib/) changed since this run started: choose another --out" 2 ;;
			*) err_exit "$dir was started with $key=$value, not $now: rerun it with the options it was started with, or choose another --out" 2 ;;
			esac
		}
	done <"$dir/matrix"
}

# jobs_by_kind JOBS: DIR/logs/jobs (bench/host/execute.sh) summed by kind
# of job, in the order the kinds first ended: "KIND WALL USER SYS" lines,
# whole seconds.
jobs_by_kind() {
	awk -F'\t' '$4 != "-" { k = $1; sub(/:.*/, "", k); w[k] += $3; u[k] += $4; s[k] += $5
			if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
		END { for (i = 1; i <= n; i++) printf "%s %.0f %.0f %.0f\n", order[i], w[order[i]], u[order[i]], s[order[i]] }' "$1"
}

# The raw disk a guest writes its results onto, and what a finished cell
# takes (~5 MiB with its traces; the rest is margin). Overridable so that a
# test can ask for more than any disk has.
LOCKLAT_RESULTS_DISK_MIB=${LOCKLAT_RESULTS_DISK_MIB:-256}
LOCKLAT_CELL_SPACE_MIB=${LOCKLAT_CELL_SPACE_MIB:-8}
# A cell's guest logs a heartbeat line this often (guest seconds) while a
# step runs; the host takes LOCKLAT_SILENCE_S wall seconds without a line of
# the guest's init for a guest whose userspace or clock stopped (the guest's
# own watchdog runs in that userspace; a wedged kernel may still print RCU
# stall warnings) and stops it then, not at the cell's deadline minutes
# later. 30x: traced, busy guests run up to ~10x slower than wall time on a
# shared CPU.
LOCKLAT_HEARTBEAT_S=${LOCKLAT_HEARTBEAT_S:-5}
LOCKLAT_SILENCE_S=${LOCKLAT_SILENCE_S:-$((LOCKLAT_HEARTBEAT_S * 30))}
# The scratch disk a setup kind may ask for (bench/guest/setup/<kind>/disk:
# scratch=yes; the swapdisk setup's swap, whose writes complete in the
# virtio-blk interrupt). Sparse; what the guest writes takes host disk until
# the cell ends and removes it.
LOCKLAT_SCRATCH_DISK_MIB=${LOCKLAT_SCRATCH_DISK_MIB:-128}

# Tasks per vCPU of every workload ({tasks} in a workload's command): more
# than one, pinned together, the first SCHED_FIFO (workloads/lib/workload.h),
# so that on PREEMPT_RT a call site's per-CPU local_lock is contended by the
# tasks that share its data, and priority inheritance has a holder to boost.
LOCKLAT_TASKS_PER_CPU=2

# targets_check LIST [STATUS]: stop unless LIST is kernel function names
# separated by commas (--targets of run-matrix.sh and run-cell.sh; empty: none
# given). Status 2 by default.
targets_check() {
	case $1 in
	*[!A-Za-z0-9_,.]* | ,* | *, | *,,*)
		err_exit "--targets wants kernel function names separated by commas, got '$1'" "${2:-2}" ;;
	esac
}

# Cell exit codes and status names: bench/host/run-cell.sh returns them and
# run-matrix.sh and the summary read them. Documented in results/README.md.
CELL_EXIT_OK=0
CELL_EXIT_FINDINGS=1
CELL_EXIT_USAGE=2
CELL_EXIT_TIMEOUT=3
CELL_EXIT_INVALID=5
CELL_EXIT_INFRA=70

# Each variant is built twice (kernels/README.md, "Two kernels per variant"):
# its plain kernel, build/kernels/<variant>, from the variant's fragments, and
# its traced kernel, build/kernels/<variant>+tracers, with
# the traced passes' Kconfig fragments merged last (bench/passes/<pass>/config,
# kernel=traced). The preemptoff and irqsoff tracers' hooks lengthen every
# preempt_disable() section (zram's latency maxima were 0.77x without them),
# so the latency passes and the modules run on the plain kernel and only the
# passes that need those tracers on the traced one.
LOCKLAT_FLAVOURS="plain traced"

# traced_kernels: true when the run builds traced kernels (--each-commit's
# does not: LOCKLAT_FLAVOURS=plain), and so has traced cells.
traced_kernels() {
	[[ " $LOCKLAT_FLAVOURS " == *" traced "* ]]
}
LOCKLAT_TRACED_SUFFIX=tracers

# kernel_name VARIANT FLAVOUR: the kernel's name, which is its folder under
# build/kernels/ and the suffix of its release (-locklat-<name>).
kernel_name() {
	case $2 in
	plain) printf '%s\n' "$1" ;;
	traced) printf '%s+%s\n' "$1" "$LOCKLAT_TRACED_SUFFIX" ;;
	*) err_exit "internal: unknown kernel flavour '$2'" 70 ;;
	esac
}

# What one kernel build takes on two CPUs of a 2-core host (the plan's
# estimate): the first kernel of a configuration, and a later one that
# differs from it only by its patches (the series' headers reach the large
# objects, so ccache's share saves little, "Build time"); and what
# kernels/compile-probe.sh read beside them. Measured as two cold kernels
# built side by side, one CPU each, divided by the executor's speed-up of a
# second CPU (METHODOLOGY.md, "From scratch"). This host's compile speed
# changes from day to day (1.9x between two days on one machine), so the
# plan scales them by today's reading.
LOCKLAT_BUILD_COLD_SECONDS=687
LOCKLAT_BUILD_SHARED_SECONDS=616
LOCKLAT_BUILD_PROBE_MS=166

# kernel_path NAME: a kernel's build folder: its manifest, bzImage and
# build.log, and its source tree src/ with the objdir src/obj/ inside
# (kernels/build.sh, "one tree per kernel").
kernel_path() {
	printf '%s/kernels/%s\n' "$LOCKLAT_BUILD" "$1"
}
kernel_srcdir() {
	printf '%s/src\n' "$(kernel_path "$1")"
}
kernel_objdir() {
	printf '%s/src/obj\n' "$(kernel_path "$1")"
}

# kernel_dir VARIANT FLAVOUR: the build folder of a variant's kernel.
kernel_dir() {
	kernel_path "$(kernel_name "$1" "$2")"
}

# A cell's time, in one place: what its guest does
# (bench/passes/passes.sh: cell_guest_seconds, from each pass's length), and
# the limits the host and the guest derive from it (run-cell.sh's deadline
# and step budget, the plan's estimate).
#
# cell_deadline_s GUEST_SECONDS: the wall seconds the host gives one boot.
# Busy guests (fork storms, tracing) run 4-5x slower than wall time on a
# dedicated host CPU, ~10x on a shared one: a hang costs a few minutes, a
# deadline that is too tight costs a wrong TIMEOUT. Never under 2 minutes.
cell_deadline_s() {
	echo $(($1 * 12 + 120))
}
# step_budget_s DURATION WARMUP: the guest seconds after which the guest
# ends a step as hung: ten times the longest pass's warm-up and length,
# and a minute.
step_budget_s() {
	echo $(( ($1 + $2) * 10 + 60 ))
}
