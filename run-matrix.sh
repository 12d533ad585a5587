#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-matrix.sh - the whole locklat pipeline: packages, kernels, guest image,
# every cell of variants x workloads x repetitions, then summary and plots.
#
# Usage: ./run-matrix.sh [options]
#   --variants LIST   comma-separated, or "all" (default: every variant of
#                     kernels/variants/ but those whose file says matrix=no)
#   --workloads LIST  comma-separated, or "all" (default: those whose
#                     workloads/<name>/workload says default=yes)
#   --duration S      guest seconds of each latency pass (default 10: the
#                     typical worst second needs ~9 whole seconds after the
#                     start-up window to settle, METHODOLOGY.md); at most 3600
#   --trace-duration S  guest seconds of each tracer and verification pass
#                     (default 3, at most 3600)
#   --warmup S        guest seconds of workload before each pass (default 1,
#                     at most 3600)
#   --reps N          repetitions per variant and workload (default 4, at most
#                     LOCKLAT_MAX_REPS = 100)
#   --tasks N         workload tasks per vCPU, pinned together, the first
#                     SCHED_FIFO (default LOCKLAT_TASKS_PER_CPU = 2: on
#                     PREEMPT_RT they contend for each call site's local
#                     lock; 1 measures one task per CPU), at most 64
#   --accel A         auto (default), kvm, tcg-icount, tcg; kvm only where the
#                     host can run KVM guests (vmx/svm and a usable /dev/kvm)
#   --cpus N          vCPUs per guest (default: 1 under tcg-icount, whose one
#                     instruction clock is shared by all vCPUs; else 2), at most
#                     the guest kernel's CONFIG_NR_CPUS, and under kvm and tcg
#                     at most the host CPUs (each vCPU is pinned to its own)
#   --jobs N          cells run at once (default: one per host CPU under
#                     tcg-icount, where each cell's single TCG thread gets its
#                     own host CPU; else 1)
#   --out DIR         result directory (default results/<date-time>); running
#                     again with the same --out resumes it
#   --seed N          the seed of the cells' shuffled order (default: random;
#                     recorded in DIR/order, which a resumed run keeps)
#   --ab TREE@BASE..TIP  A/B any kernel change: instead of kernels/variants/,
#                     the range's base and tip (commits of a local kernel git
#                     tree) on CONFIG_PREEMPT and PREEMPT_RT, and its tip
#                     under lockdep (ab-base, ab-tip, ab-base-rt, ab-tip-rt,
#                     ab-tip-lockdep; kernels/ab.sh), compared tip against
#                     base, with a reviewer's verdict in the summary. The run
#                     keeps what it was made of in DIR/ab/
#   --targets LIST    comma-separated kernel functions the verify pass counts
#                     for every workload, instead of each workload's own
#                     (default for --ab: the functions the range changes,
#                     DIR/ab/targets)
#   --hosts FILE      run the cells on several hosts (GNU parallel over ssh;
#                     FILE is its --sshloginfile: "[N/]LOGIN" per line, ":"
#                     for this machine, N its cells at once): kernels and the
#                     guest image are built here, each host is sent them and
#                     runs whichever cell is next; its cells come back into
#                     DIR. A host that cannot be reached, lacks a package of
#                     tools/install-deps.sh --runtime, or cannot start QEMU
#                     with the accelerator is reported and left out (--accel
#                     auto: kvm if every host has it). Excludes --jobs
#                     (bench/host/lab.sh, README.md "A lab")
#   --dry-run         print the plan and the estimated time, change nothing
#                     (with --hosts the hosts are asked what they can run:
#                     the probe's files are sent and removed)
#   -h, --help        this text
#
# Each variant and workload gets its repetitions, rep1..repN, which run the
# latency pass on the variant's plain kernel (the statistics need repeated
# maxima), and one cell "traced", which runs every pass (LOCKLAT_PASSES:
# latency, timerlat, preemptoff, irqsoff, verify) on its traced kernel: the
# tracers' hooks lengthen the sections they trace (lib/common.sh). A workload
# whose file says cells=once gets one cell, rep1, running its own passes
# (workloads/README.md): the modules workload runs the kernel modules of
# kernels/modules, built here against each variant's plain kernel when a
# workload of the run has the modules pass. Each pair of the run's variants
# that differs by the series alone is checked for binary equivalence
# (kernels/verify-equivalence.sh, into DIR/equivalence/).
# Exit: 0 done (cells may hold findings), 1 a stage failed, 2 bad usage.

set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
# shellcheck source=kernels/sources.sh
. "$LOCKLAT_ROOT/kernels/sources.sh"
# shellcheck source=kernels/ab.sh
. "$LOCKLAT_ROOT/kernels/ab.sh"
# shellcheck source=bench/host/lab.sh
. "$LOCKLAT_ROOT/bench/host/lab.sh"

variants=() workloads=()
variants_opt=all workloads_opt=default duration=10 trace_duration=3 warmup=1 reps=4
tasks=$LOCKLAT_TASKS_PER_CPU
accel=auto cpus='' jobs='' out='' dry_run=0 seed='' ab='' targets='' hosts=''

usage() { usage_from_header "$0"; }

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--dry-run) dry_run=1; shift; continue ;;
	--variants | --workloads | --duration | --trace-duration | --warmup | --reps | --tasks | --accel | --cpus | --jobs | --out | --seed | --ab | --targets | --hosts)
		[ $# -ge 2 ] || err_exit "$1 needs a value" 2 ;;
	*) err_exit "unknown option '$1' (see --help)" 2 ;;
	esac
	case $1 in
	--variants) variants_opt=$2 ;;
	--workloads) workloads_opt=$2 ;;
	--duration) duration=$2 ;;
	--trace-duration) trace_duration=$2 ;;
	--warmup) warmup=$2 ;;
	--reps) reps=$2 ;;
	--tasks) tasks=$2 ;;
	--accel) accel=$2 ;;
	--cpus) cpus=$2 ;;
	--jobs) jobs=$2 ;;
	--out) out=$2 ;;
	--seed) seed=$2 ;;
	--ab) ab=$2 ;;
	--targets) targets=$2 ;;
	--hosts) hosts=$2 ;;
	esac
	shift 2
done

# --- validate everything before any work ---------------------------------
# at_most OPTION VALUE MAX: a number past its documented maximum.
at_most() {
	[ "$2" -le "$3" ] || err_exit "--$1 is at most $3, got $2" 2
}
positive_int duration "$duration"
positive_int trace-duration "$trace_duration"
positive_int warmup "$warmup"
positive_int reps "$reps"
positive_int tasks "$tasks"
at_most tasks "$tasks" 64
[ -z "$cpus" ] || positive_int cpus "$cpus"
[ -z "$jobs" ] || positive_int jobs "$jobs"
[ -z "$seed" ] || positive_int seed "$seed"
at_most duration "$duration" 3600
at_most trace-duration "$trace_duration" 3600
at_most warmup "$warmup" 3600
at_most reps "$reps" "$LOCKLAT_MAX_REPS"
[ -z "$cpus" ] || at_most cpus "$cpus" "$(guest_max_cpus)"
case $accel in auto | kvm | tcg-icount | tcg) ;; *) err_exit "--accel wants auto, kvm, tcg-icount or tcg, got '$accel'" 2 ;; esac
targets_check "$targets"

# list_select RESULT_ARRAY WHAT VALUE KNOWN...: the comma list VALUE (or all
# of KNOWN for "all") into RESULT_ARRAY, each item checked. Runs in this
# shell, so that a bad item stops the script.
list_select() {
	local -n result=$1
	local what=$2 value=$3 item items
	shift 3
	if [ "$value" = all ]; then
		result=("$@")
		return
	fi
	IFS=, read -r -a items <<<"$value"
	[ ${#items[@]} -gt 0 ] || err_exit "--$what is empty" 2
	result=()
	for item in "${items[@]}"; do
		printf '%s\n' "$@" | grep -qxF -- "$item" ||
			err_exit "unknown ${what%s} '$item'; known: $*" 2
		# Two slots of one name would write the same cell folders.
		[[ " ${result[*]} " != *" $item "* ]] || err_exit "--$what names '$item' twice" 2
		result+=("$item")
	done
}
mapfile -t all_workloads < <(known_workloads)
if [ "$workloads_opt" = default ]; then
	mapfile -t workloads < <(default_workloads)
	[ "${#workloads[@]}" -gt 0 ] || err_exit "no workload says default=yes ($LOCKLAT_WORKLOADS_DIR)" 2
else
	list_select workloads workloads "$workloads_opt" "${all_workloads[@]}"
fi
# An A/B run's variants, comparisons and series are written from the range
# (kernels/ab.sh), first to a scratch folder, into DIR/ab/ when the run starts.
if [ -n "$ab" ]; then
	ab_check "$ab"
	ab_dir=$(mktemp -d)
	trap 'rm -rf "$ab_dir"' EXIT
	question=${workloads[0]}
	[[ " ${workloads[*]} " != *" squashfs "* ]] || question=squashfs
	ab_prepare "$ab_dir" "$ab" "$question"
	[ -n "$targets" ] || targets=$(paste -sd, "$ab_dir/targets")
	[ -n "$targets" ] || err_exit "--ab $ab: the range changes no function of a .c file: give --targets" 2
	export LOCKLAT_VARIANTS_DIR=$ab_dir/variants
	LOCKLAT_SERIES=$(cat "$ab_dir/series")
	export LOCKLAT_SERIES
fi
mapfile -t all_variants < <(known_variants)
list_select variants variants "$variants_opt" "${all_variants[@]}"
# "all": the matrix's variants (a variant file may say matrix=no).
[ "$variants_opt" = all ] && mapfile -t variants < <(matrix_variants)
if [ -n "$hosts" ]; then
	# A lab: the hosts say which accelerator the run can have, and how
	# many cells run at once (bench/host/lab.sh).
	[ -z "$jobs" ] || err_exit "--hosts and --jobs exclude each other: each host's line says its cells at once (N/LOGIN)" 2
	lab_hosts_read "$hosts"
	progress matrix "asking ${#LAB_LOGIN[@]} host(s) of $hosts what they can run"
	lab_probe "$accel"
	accel=$LAB_ACCEL
else
	usable_accel=$("$LOCKLAT_ROOT/bench/host/qemu.sh" --detect-accel)
	[ "$accel" = auto ] && accel=$usable_accel
	[ "$accel" != kvm ] || [ "$usable_accel" = kvm ] ||
		err_exit "--accel kvm: this host cannot run KVM guests (no vmx/svm flag, or /dev/kvm not usable); use --accel tcg-icount" 2
fi
cpus=${cpus:-$(default_vcpus "$accel")}
host_cpus=$(nproc)
# CPUs each cell pins to: one TCG thread under tcg-icount, one per vCPU else.
per_cell=$cpus
[ "$accel" = tcg-icount ] && per_cell=1
if [ -n "$hosts" ]; then
	lab_keep "$per_cell"
	for line in "${LAB_REPORT[@]}"; do
		IFS=$'\t' read -r login state why <<<"$line"
		[ "$login" != : ] || login=": (this machine)"
		if [ "$state" = kept ]; then
			progress matrix "host $login: $why"
		else
			warn "host $login left out: $why"
		fi
	done
	jobs=$(lab_slots)
	[ "$jobs" -gt 0 ] || err_exit "no host of $hosts can run cells (see above)" 1
else
	if [ -z "$jobs" ]; then
		jobs=1
		[ "$accel" = tcg-icount ] && jobs=$host_cpus
	fi
	if [ $((jobs * per_cell)) -gt "$host_cpus" ]; then
		err_exit "$jobs jobs x $per_cell host CPUs each > $host_cpus host CPUs to pin to (lower --jobs or --cpus)" 2
	fi
fi
[ -n "$out" ] || out=$LOCKLAT_RESULTS/$(date -u '+%Y%m%d-%H%M%S')
# The output directory, or the nearest folder above it that exists, must
# take new files (checked without writing any).
out_parent=$out
while [ ! -e "$out_parent" ]; do out_parent=$(dirname -- "$out_parent"); done
[ -d "$out_parent" ] || err_exit "--out: $out_parent is not a directory" 2
if ! { [ -w "$out_parent" ] && [ -x "$out_parent" ]; }; then
	[ "$out_parent" != "$out" ] || err_exit "the output directory $out is not writable" 1
	err_exit "cannot create the output directory $out: $out_parent is not writable" 1
fi

# What defines this run's cells, recorded in DIR/matrix when it starts. A
# run resumed with other settings, other measurement code or other kernels
# would mix cells of two matrices in one summary: refused, naming the first
# difference.
matrix_settings() {
	printf '%s\n' "variants=$(printf '%s\n' "${variants[@]}" | sort | tr '\n' ' ' | sed 's/ $//')" \
		"workloads=$(printf '%s\n' "${workloads[@]}" | sort | tr '\n' ' ' | sed 's/ $//')" \
		"reps=$reps" "tasks_per_cpu=$tasks" "duration_s=$duration" "trace_duration_s=$trace_duration" "warmup_s=$warmup" \
		"accel=$accel" "cpus=$cpus" "code_sha256=$(measurement_sha256)" \
		"series=$LOCKLAT_SERIES" "targets=$targets"
}
# matrix_kernels: "kernel.NAME=BZIMAGE_SHA256" for each built kernel of the
# run's variants (the kernel a cell boots).
matrix_kernels() {
	local v f m
	for v in "${variants[@]}"; do
		for f in $LOCKLAT_FLAVOURS; do
			m=$(kernel_dir "$v" "$f")/manifest
			[ -f "$m" ] && printf 'kernel.%s=%s\n' "$(kernel_name "$v" "$f")" "$(kv_get "$m" bzimage_sha256)"
		done
	done
	return 0
}
# matrix_compare WANT_LINES: each recorded key that WANT_LINES also has must
# hold the same value.
matrix_compare() {
	local key value now
	while IFS='=' read -r key value; do
		now=$(printf '%s\n' "$1" | awk -v k="$key" 'index($0, k "=") == 1 { print substr($0, length(k) + 2) }')
		[ -z "$now" ] || [ "$now" = "$value" ] || {
			case $key in
			kernel.*) err_exit "$out: kernel ${key#kernel.} was rebuilt since this run started (its bzImage differs): choose another --out" 2 ;;
			code_sha256) err_exit "$out: the measurement code (bench/, workloads/, lib/) changed since this run started: choose another --out" 2 ;;
			*) err_exit "$out was started with $key=$value, not $now: rerun it with the options it was started with, or choose another --out" 2 ;;
			esac
		}
	done <"$out/matrix"
}

# --- the plan ------------------------------------------------------------
# Wall tenths of a second per guest second, cell_guest_seconds' setup and
# collection included. tcg-icount on a 2-core machine: the default matrix
# (ref-20261206-2) took a median 27 s wall for a repetition's 21 guest
# seconds and 86 s for a traced cell's 54: 1.5 over the matrix's mix
# (METHODOLOGY.md, "Measured figures").
case $accel in kvm) factor_x10=20 ;; tcg-icount) factor_x10=15 ;; tcg) factor_x10=30 ;; esac
# What earlier cells took: the median wall_seconds of complete cells under
# results/ with this accelerator, duration and warm-up, by "variant/workload/
# kind" (the kind: its passes, joined by "+"). Workloads and RT kernels differ by 2-4x, which one factor
# cannot say.
declare -A history_seconds=()
history_load() {
	local key seconds
	# shellcheck disable=SC2016 # awk programs, expanded by awk
	while read -r key seconds; do
		history_seconds[$key]=$seconds
	done < <(find "$LOCKLAT_RESULTS" -path '*/*/*/*/meta' -type f -print0 2>/dev/null |
		xargs -0 -r awk -F= -v accel="$accel" -v duration="$duration" -v warmup="$warmup" -v trace="$trace_duration" '
			function passes_key(p) { gsub(/ /, "+", p); return p }
			function flush() {
				if (m["complete"] == 1 && m["accel"] == accel && m["duration_s"] == duration &&
				    m["warmup_s"] == warmup && m["wall_seconds"] ~ /^[0-9]+$/ &&
				    (m["passes"] == "latency" || m["trace_duration_s"] == trace))
					print m["variant"] "/" m["workload"] "/" passes_key(m["passes"]), m["wall_seconds"]
				delete m
			}
			FNR == 1 && NR > 1 { flush() }
			{ m[$1] = substr($0, length($1) + 2) }
			END { if (NR) flush() }' |
		sort -k1,1 -k2,2n |
		awk '$1 != key { if (n) print key, v[int((n + 1) / 2)]; key = $1; n = 0 }
			{ v[++n] = $2 } END { if (n) print key, v[int((n + 1) / 2)] }')
}
history_load
# cell_seconds VARIANT WORKLOAD CELL: the wall seconds a cell is expected to
# take: what earlier cells of its kind took, else its guest seconds
# (lib/common.sh's cell_guest_seconds, boot and collection included) times
# the accelerator's factor (factor_x10).
cell_seconds() {
	local passes kind
	passes=$(cell_passes "$2" "$3")
	kind=${passes// /+}
	echo "${history_seconds[$1/$2/$kind]:-$(( $(cell_guest_seconds "$passes" "$duration" "$trace_duration" "$warmup") * factor_x10 / 10 ))}"
}
# A tree written by another result layout is not mixed with this one's cells.
layout_check() {
	local versions
	[ -d "$out" ] || return 0
	# shellcheck disable=SC2016 # an awk program, expanded by awk
	versions=$(find "$out" -mindepth 4 -maxdepth 4 -name meta -type f -print0 |
		xargs -0 -r awk -F= '$1 == "layout_version" { v[$2] = 1 } END { for (k in v) print k }' |
		sort -u | tr '\n' ' ')
	case " $versions" in
	" " | " $LOCKLAT_LAYOUT_VERSION ") ;;
	*) err_exit "$out holds cells of result layout ${versions% } (this locklat writes $LOCKLAT_LAYOUT_VERSION): choose another --out" 2 ;;
	esac
}
layout_check
if [ -f "$out/matrix" ]; then
	matrix_compare "$(matrix_settings; matrix_kernels)"
elif [ -n "$(find "$out" -mindepth 4 -maxdepth 4 -name meta -print -quit 2>/dev/null)" ]; then
	err_exit "$out holds cells but no record of the settings they were made with (DIR/matrix): choose another --out" 2
fi

# A complete cell is kept, unless it is an INFRA cell (the harness failed,
# nothing was measured): those are redone.
cell_done() {
	[ -f "$1/meta" ] && [ "$(kv_get "$1/meta" complete)" = 1 ] &&
		[ "$(kv_get "$1/meta" status)" != INFRA ]
}

cells=()
total_s=0
kept=0
for v in "${variants[@]}"; do
	for w in "${workloads[@]}"; do
		for c in $(workload_cells "$w" "$reps"); do
			cells+=("$v $w $c")
			if cell_done "$out/$v/$w/$c"; then
				kept=$((kept + 1))
			else
				total_s=$((total_s + $(cell_seconds "$v" "$w" "$c")))
			fi
		done
	done
done
# The order cells run in: shuffled from a recorded seed, so that a drift of
# the host or of the harness over the run is spread over every variant
# instead of falling on whichever ran last (cells in blocks by variant would
# confound the two). DIR/order keeps the seed and the order; a resumed run
# follows it.
order_file=$out/order
if [ -f "$order_file" ]; then
	recorded=$(sed -n 's/^# seed=//p' "$order_file")
	[ -z "$seed" ] || [ "$seed" = "$recorded" ] ||
		err_exit "$out was ordered with seed $recorded, not $seed: resume without --seed or choose another --out" 2
	seed=$recorded
	mapfile -t ordered < <(grep -v '^#' "$order_file")
	# The same matrix: a resumed run must not silently change its cells.
	[ "$(printf '%s\n' "${ordered[@]}" | sort)" = "$(printf '%s\n' "${cells[@]}" | sort)" ] ||
		err_exit "$out holds another matrix (its order file lists other cells): resume it with the options it was started with, or choose another --out" 2
	cells=("${ordered[@]}")
else
	seed=${seed:-$((RANDOM * 32768 + RANDOM + 1))}
	# awk's rand() from the seed gives each cell a key; the order file, not
	# the seed, is what a resumed run reads, so another awk cannot reorder it.
	mapfile -t cells < <(printf '%s\n' "${cells[@]}" |
		awk -v seed="$seed" 'BEGIN { srand(seed) } { printf "%.12f\t%s\n", rand(), $0 }' |
		sort -k1,1 | cut -f2-)
fi
# The kernels to build, in build order. The first kernel of a configuration
# compiles every object; a later one with the same configuration gets from
# ccache every object its patches do not reach (kernels/build.sh): for the
# built-in variants still about two thirds of them, since the series
# changes idr.h and radix-tree.h (METHODOLOGY.md, "Builds").
cold_builds=() shared_builds=() built=()
declare -A config_seen=()
for v in "${variants[@]}"; do
	for f in $LOCKLAT_FLAVOURS; do
		k=$(kernel_name "$v" "$f")
		cfg=$(kv_get "$LOCKLAT_VARIANTS_DIR/$v" configs)
		[ "$f" = plain ] || cfg="$cfg $LOCKLAT_TRACERS_CONFIG"
		if [ -f "$(kernel_dir "$v" "$f")/manifest" ]; then
			built+=("$k")
		elif [ -n "${config_seen[$cfg]:-}" ]; then
			shared_builds+=("$k")
		else
			cold_builds+=("$k")
		fi
		config_seen[$cfg]=1
	done
done
build_s=$(( ${#cold_builds[@]} * LOCKLAT_BUILD_COLD_SECONDS + ${#shared_builds[@]} * LOCKLAT_BUILD_SHARED_SECONDS ))
est=$(( total_s / jobs + build_s ))
cat <<EOF
locklat plan
  variants:    ${variants[*]}
  workloads:   ${workloads[*]}
  repetitions: $reps latency passes on each plain kernel, plus one cell with all passes on the traced kernel
  pass:        ${duration} s guest time after ${warmup} s warm-up; $cpus vCPUs, $tasks workload tasks on each; accel $accel; $jobs cell(s) at once
  cells:       ${#cells[@]} in $out: $((${#cells[@]} - kept)) to run, $kept complete and kept; shuffled, seed $seed
  kernels:     built and kept: ${built[*]:-none}
               to build, every object: ${cold_builds[*]:-none}
               to build, a built configuration's objects from ccache: ${shared_builds[*]:-none}
  estimated:   $((est / 60)) min: kernels $((build_s / 60)) min (${LOCKLAT_BUILD_COLD_SECONDS} s a configuration's first kernel, ${LOCKLAT_BUILD_SHARED_SECONDS} s a later one), cells $((total_s / jobs / 60)) min (${#history_seconds[@]} kinds timed by earlier runs, others $((factor_x10 / 10)).$((factor_x10 % 10))x wall per guest second)
EOF
if [ -n "$hosts" ]; then
	for line in "${LAB_REPORT[@]}"; do
		IFS=$'\t' read -r login state why <<<"$line"
		printf '  host:        %s: %s (%s)\n' "$login" "$state" "$why"
	done
fi
[ "$dry_run" -eq 1 ] && exit 0

# --- run -----------------------------------------------------------------
# The output directory: writable, with room for the cells, before any work.
mkdir -p -- "$out" 2>/dev/null || err_exit "cannot create the output directory $out" 1
probe=$(mktemp -p "$out" .write-probe.XXXXXX 2>/dev/null) ||
	err_exit "the output directory $out is not writable" 1
rm -f -- "$probe"
# The cells running here at once (a lab: those of ":"; the other hosts'
# room is checked by their probe) and every cell to come.
disk_jobs=$jobs
[ -z "$hosts" ] || disk_jobs=$(lab_local_slots)
require_disk_space "$out" $(( disk_jobs * (LOCKLAT_RESULTS_DISK_MIB + LOCKLAT_SCRATCH_DISK_MIB) + (${#cells[@]} - kept) * LOCKLAT_CELL_SPACE_MIB ))
exec 8>"$out/.lock"
flock -n 8 || err_exit "another run-matrix.sh is running on $out" 1
if [ -n "$ab" ]; then
	if [ ! -d "$out/ab" ]; then
		cp -r "$ab_dir" "$out/ab.tmp"
		mv "$out/ab.tmp" "$out/ab"
	elif ! diff -r "$ab_dir" "$out/ab" >/dev/null; then
		err_exit "$out was started with another --ab (see $out/ab/): choose another --out" 2
	fi
	LOCKLAT_VARIANTS_DIR=$out/ab/variants
fi
if [ ! -f "$out/matrix" ]; then
	matrix_settings >"$out/matrix.tmp"
	mv "$out/matrix.tmp" "$out/matrix"
fi
if [ ! -f "$order_file" ]; then
	{ echo "# seed=$seed"; printf '%s\n' "${cells[@]}"; } >"$order_file.tmp"
	mv "$order_file.tmp" "$order_file"
fi
# Every stage runs under locklat-guard (bench/host/guard): in a process group
# of its own that is killed whole when this script dies, even by SIGKILL, so
# no apt-get, compiler or QEMU outlives the run. It needs gcc and make alone,
# so it is built before the packages stage, which it guards too.
guard=$LOCKLAT_ROOT/build/bin/locklat-guard
make -s -C "$LOCKLAT_ROOT" build/bin/locklat-guard >/dev/null ||
	err_exit "cannot build $guard (gcc and make are needed)" 1
# stage CMD...: CMD under the guard, in the foreground (the guard's parent
# must be this script: see the cells and the initramfs below).
stage() { "$guard" -- "$@"; }
# What a stage finished stays; complete cells are kept.
trap 'warn "interrupted: complete cells are kept; run again with --out $out to resume"; exit 130' INT TERM
stage "$LOCKLAT_ROOT/tools/install-deps.sh"
progress matrix "building tools"
stage make -s -C "$LOCKLAT_ROOT" tools >/dev/null

declare -A build_failed=()
modules_needed=0
for w in "${workloads[@]}"; do
	[[ " $(cell_passes "$w" rep1) " == *" modules "* ]] && modules_needed=1
done
for v in "${variants[@]}"; do
	if ! stage "$LOCKLAT_ROOT/kernels/build.sh" "$v"; then
		logs="$(kernel_dir "$v" plain)/build.log, $(kernel_dir "$v" traced)/build.log"
		build_failed[$v]="kernel build failed: $logs"
		warn "variant $v failed to build: its cells are marked INFRA (logs: $logs)"
	elif [ "$modules_needed" -eq 1 ] && ! stage "$LOCKLAT_ROOT/kernels/modules/build.sh" "$v"; then
		build_failed[$v/modules]="module build failed: $LOCKLAT_BUILD/modules/$v/"
		warn "modules for $v failed to build: its modules cell is marked INFRA"
	fi
done
# The kernels the cells boot: a kernel that a resumed run rebuilt (another
# patch or fragment) is refused before any cell runs; the first run records
# them.
matrix_compare "$(matrix_kernels)"
matrix_kernels | while IFS= read -r line; do
	grep -qxF -- "$line" "$out/matrix" || printf '%s\n' "$line" >>"$out/matrix"
done
# The series' claim on the run's own kernels: each pair of its variants that
# differs by the series alone (verify-equivalence.sh --pairs) is compared
# object by object, into DIR/equivalence/A-vs-B.txt, which the summary's
# reviewer's verdict quotes. Kept when done; a failure is said, not fatal.
mkdir -p "$out/equivalence"
while read -r a b; do
	[[ " ${variants[*]} " == *" $a "* && " ${variants[*]} " == *" $b "* ]] || continue
	[ -z "${build_failed[$a]:-}${build_failed[$b]:-}" ] || continue
	f=$out/equivalence/$a-vs-$b.txt
	[ -s "$f" ] && continue
	progress matrix "binary equivalence: $a vs $b"
	if stage "$LOCKLAT_ROOT/kernels/verify-equivalence.sh" "$a" "$b" >"$f.tmp"; then
		# Its findings, not its progress lines ("[m:ss equivalence] ...").
		grep -v '^\[[0-9]*:[0-9]* ' "$f.tmp" >"$f" || true
		rm -f "$f.tmp"
	else
		rm -f "$f.tmp"
		warn "verify-equivalence.sh $a $b failed: the summary says it was not checked"
	fi
done < <("$LOCKLAT_ROOT/kernels/verify-equivalence.sh" --pairs)
# One guest image for the whole run, so every cell ran the same programs.
initramfs=$("$guard" -- "$LOCKLAT_ROOT/bench/guest/mkinitramfs.sh")
# A lab run: the hosts' answers recorded, and what every host is sent made once.
if [ -n "$hosts" ]; then
	rm -f "$out/.lab/cells"
	mkdir -p "$out/.lab"
	printf '%s\n' "${LAB_REPORT[@]}" >"$out/hosts"
	progress matrix "the bundle each host is sent"
	LAB_WORKLOADS=("${workloads[@]}")
	lab_bundle "$out" "$initramfs" "$modules_needed" "$(kv_get "$out/matrix" code_sha256)" "${variants[@]}"
fi

# cell_failed_build DIR V W R REASON: a complete cell saying what did not build.
cell_failed_build() {
	local dir=$1
	rm -rf "$dir.partial"
	mkdir -p "$dir.partial"
	kv_write "$dir.partial/meta" layout_version "$LOCKLAT_LAYOUT_VERSION" status INFRA \
		reason "$5" \
		variant "$2" workload "$3" rep "$4" accel "$accel" complete 1
	mv "$dir.partial" "$dir"
}

declare -A slot_pid=() slot_log=()
overcommit=()
[ "$per_cell" -lt "$cpus" ] && overcommit=(--allow-overcommit)
mkdir -p "$out/logs"

# slot_reap S: if slot S's cell has ended, print its result line; true if free.
slot_reap() {
	local pid=${slot_pid[$1]:-}
	[ -n "$pid" ] || return 0
	kill -0 "$pid" 2>/dev/null && return 1
	wait "$pid" || true
	progress matrix "$(tail -n 1 "${slot_log[$1]}")"
	slot_pid[$1]=''
}

i=0
t_start=$SECONDS
remaining_s=$total_s
for cell in "${cells[@]}"; do
	read -r v w c <<<"$cell"
	i=$((i + 1))
	dir=$out/$v/$w/$c
	# The repetition number the cell records (the traced cell: 1).
	r=1
	[[ $c == rep* ]] && r=${c#rep}
	if cell_done "$dir"; then
		progress matrix "cell $i/${#cells[@]} $v/$w/$c: kept ($(kv_get "$dir/meta" status))"
		continue
	fi
	rm -rf "$dir"
	remaining_s=$((remaining_s - $(cell_seconds "$v" "$w" "$c")))
	passes=$(cell_passes "$w" "$c")
	failed=${build_failed[$v]:-}
	[[ " $passes " == *" modules "* ]] && failed=${failed:-${build_failed[$v/modules]:-}}
	if [ -n "$failed" ]; then
		cell_failed_build "$dir" "$v" "$w" "$r" "$failed"
		continue
	fi
	if [ -n "$hosts" ]; then
		printf '%s\t%s\t%s\t%s\t%s\n' "$v" "$w" "$c" "$r" "$passes" >>"$out/.lab/cells"
		continue
	fi
	# A free slot; each slot owns its host CPUs.
	while :; do
		for ((s = 0; s < jobs; s++)); do
			slot_reap "$s" && break 2
		done
		wait -n || true
	done
	pin=$(seq -s, $((s * per_cell)) $((s * per_cell + per_cell - 1)))
	progress matrix "cell $i/${#cells[@]} $v/$w/$c on CPU $pin ($passes); ETA ~$(( (remaining_s / jobs + 59) / 60 )) min after it"
	slot_log[$s]=$out/logs/$v-$w-$c.log
	# The cell dies with this script, even by SIGKILL, and its QEMU with it
	# (the guard, started directly: a function run with & would put a
	# subshell between this script and the guard); it does not hold the
	# output lock (fd 8).
	"$guard" -- "$LOCKLAT_ROOT/bench/host/run-cell.sh" --variant "$v" --workload "$w" --rep "$r" \
		--tasks "$tasks" --duration "$duration" --trace-duration "$trace_duration" --warmup "$warmup" --passes "$passes" --accel "$accel" \
		--cpus "$cpus" --pin "$pin" "${overcommit[@]}" ${targets:+--targets "$targets"} \
		--initramfs "$initramfs" --out "$dir" >"${slot_log[$s]}" 2>&1 8>&- &
	slot_pid[$s]=$!
done
for ((s = 0; s < jobs; s++)); do
	while ! slot_reap "$s"; do wait -n || true; done
done
if [ -n "$hosts" ] && [ -s "$out/.lab/cells" ]; then
	progress matrix "$(wc -l <"$out/.lab/cells") cells to $jobs slot(s) on ${#LAB_KEPT[@]} host(s); ETA ~$(( (total_s / jobs + 59) / 60 )) min"
	lab_run "$out" "$guard" "$per_cell" "$(kv_get "$out/matrix" code_sha256)" --tasks "$tasks" --duration "$duration" \
		--trace-duration "$trace_duration" --warmup "$warmup" --accel "$accel" --cpus "$cpus" \
		"${overcommit[@]}" ${targets:+--targets "$targets"} --initramfs "$LAB_INITRAMFS"
	[ "$LAB_FAILED" -eq 0 ] || warn "$LAB_FAILED cell(s) ran on no host (GNU parallel tried each up to three times; $out/logs/lab-joblog)"
	# A cell no host could run (parallel tried it three times) is INFRA,
	# redone when the run is resumed.
	while IFS=$'\t' read -r v w c r passes; do
		[ -e "$out/$v/$w/$c" ] ||
			cell_failed_build "$out/$v/$w/$c" "$v" "$w" "$r" "no lab host ran it ($out/logs/lab-joblog)"
	done <"$out/.lab/cells"
	rm -rf "$out/.lab"
fi
progress matrix "${#cells[@]} cells done in $(( (SECONDS - t_start) / 60 )) min"

# results/latest: the newest run, for make summary/plots without RUN=.
case $(realpath "$out") in
"$(realpath "$LOCKLAT_ROOT/results")"/*)
	ln -sfn "$(realpath --relative-to="$LOCKLAT_ROOT/results" "$out")" "$LOCKLAT_ROOT/results/latest" ;;
esac
stage "$LOCKLAT_ROOT/bench/report/report.sh" summary "$out"
stage "$LOCKLAT_ROOT/bench/report/report.sh" plots "$out"
progress matrix "summary: $out/summary.md"
