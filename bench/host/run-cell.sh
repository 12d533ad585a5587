#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-cell.sh - run one measurement cell (variant x workload x repetition) end to end.
#
# Usage: bench/host/run-cell.sh --variant V --out DIR (--workload W | --command CMD) [options]
#   --variant V       a variant built by `make kernels` (its manifest is read)
#   --workload W      a workload (workloads/<W>/workload), or a pass that runs
#                     in a cell of its own (bench/passes/<W>/pass: cell=own)
#   --command CMD     instead of a workload: run CMD in the guest (smoke tests)
#   --out DIR         the cell directory, e.g. results/<run-id>/cells/<variant>/<workload>/rep1
#   --duration S      seconds of the latency pass, guest time (default 10)
#   --trace-duration S  seconds of each tracer and verification pass (default:
#                     the latency pass's)
#   --warmup S        seconds the workload runs before a pass measures (default 2)
#   --passes LIST     space-separated passes of bench/passes/, and NAME.N
#                     for round N of a pass a traced cell repeats (default:
#                     the workload's passes= if it has one, else a traced
#                     cell's: bench/passes/passes.sh traced_cell_passes).
#                     With a pass of kernel=traced the cell boots the
#                     variant's traced kernel (<variant>+tracers), else (and
#                     for --command) its plain one
#   --rep N           repetition number recorded in meta (default 1)
#   --tasks N         workload tasks per vCPU ({tasks}; default
#                     LOCKLAT_TASKS_PER_CPU: contention on each CPU's lock)
#   --accel A         auto (default), kvm, tcg-icount, tcg
#   --cpus N          vCPUs (default: 1 under tcg-icount, else 2); --pin LIST
#                     host CPUs (default 0..N-1)
#   --mem MIB         guest memory (default 512)
#   --allow-overcommit  more vCPUs than host CPUs to pin to
#   --function-trace  record every function inside the tracers' sections
#                     (off by default: under icount it lengthens them)
#   --deadline S      wall seconds before the watchdog stops QEMU (default:
#                     12x the guest work plus two minutes, per boot:
#                     bench/passes/passes.sh's cell_guest_seconds,
#                     lib/common.sh's cell_deadline_s)
#   --silence S       wall seconds without a line of the guest's init after
#                     which the watchdog stops QEMU (default: LOCKLAT_SILENCE_S
#                     for workload cells, whose guest logs a heartbeat; never
#                     for --command)
#   --step-budget S   guest seconds after which the guest ends a step of the
#                     cell as hung, runs the other passes and retries it once
#                     (powers off only when a kill cannot end it; default
#                     10x (warm-up + duration) + 60: step_budget_s)
#   --initramfs FILE  the guest image (default: bench/guest/mkinitramfs.sh's, built
#                     if needed); run-matrix.sh passes one image to every cell
#   --targets LIST    comma-separated kernel functions the verify pass counts,
#                     instead of the workload's targets= (an A/B run's: the
#                     functions its range changes)
#   --inject-hang P   for tests: the first attempt of pass P never ends (the
#                     guest must end it, record it as hung and retry it once)
#   --inject-wedge P  for tests: the first boot's guest falls silent when pass
#                     P starts (the host must end that boot and run P and
#                     the passes not yet run in a second boot)
#
# A guest that the host has to end (a deadline, silence, a hung poweroff)
# costs only the pass it was stuck in: a second boot runs the passes not yet
# run, then that one once more (DIR/boot2/ holds its QEMU record; its results
# join DIR/guest/).
#
# The cell is assembled in DIR.partial and renamed to DIR when complete, so a
# DIR that exists is complete (its meta has complete=1). Layout and meta keys:
# results/README.md.
# Exit: 0 OK, 1 FINDINGS (kernel splats), 3 TIMEOUT, 5 INVALID (no result or
# the workload did not reach its call site), 70 infrastructure error, 2 usage.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"
# shellcheck source=kernels/variants.sh
. "$LOCKLAT_ROOT/kernels/variants.sh"
# shellcheck source=workloads/workloads.sh
. "$LOCKLAT_ROOT/workloads/workloads.sh"

variant='' workload='' command='' out='' duration=10 trace_duration='' warmup=2 rep=1
tasks=$LOCKLAT_TASKS_PER_CPU
passes='' passes_given=0 targets='' accel=auto cpus='' pin='' mem=512
deadline='' initramfs='' step_budget='' silence_s='' function_trace=0 inject_hang='' inject_wedge=''
overcommit=()
while [ $# -gt 0 ]; do
	case $1 in
	--allow-overcommit) overcommit=(--allow-overcommit); shift; continue ;;
	--function-trace) function_trace=1; shift; continue ;;
	-h | --help) usage_from_header "$0"; exit 0 ;;
	--*) [ $# -ge 2 ] || err_exit "$1 needs a value" "$CELL_EXIT_USAGE" ;;
	*) err_exit "unexpected argument '$1' (see --help)" "$CELL_EXIT_USAGE" ;;
	esac
	case $1 in
	--variant) variant=$2 ;;
	--workload) workload=$2 ;;
	--command) command=$2 ;;
	--out) out=$2 ;;
	--duration) duration=$2 ;;
	--trace-duration) trace_duration=$2 ;;
	--warmup) warmup=$2 ;;
	--passes) passes=$2 passes_given=1 ;;
	--rep) rep=$2 ;;
	--tasks) tasks=$2 ;;
	--accel) accel=$2 ;;
	--cpus) cpus=$2 ;;
	--pin) pin=$2 ;;
	--mem) mem=$2 ;;
	--deadline) deadline=$2 ;;
	--step-budget) step_budget=$2 ;;
	--silence) silence_s=$2 ;;
	--initramfs) initramfs=$2 ;;
	--targets) targets=$2 ;;
	--inject-hang) inject_hang=$2 ;;
	--inject-wedge) inject_wedge=$2 ;;
	*) err_exit "unknown option '$1' (see --help)" "$CELL_EXIT_USAGE" ;;
	esac
	shift 2
done

usage_error() { err_exit "$1" "$CELL_EXIT_USAGE"; }
[ -n "$variant" ] || usage_error "--variant is required"
[ -n "$out" ] || usage_error "--out is required"
if [ -n "$workload" ] && [ -n "$command" ]; then
	usage_error "--workload and --command exclude each other"
fi
[ -n "$workload" ] || [ -n "$command" ] || usage_error "--workload or --command is required"
positive_int duration "$duration" "$CELL_EXIT_USAGE"
trace_duration=${trace_duration:-$duration}
positive_int trace-duration "$trace_duration" "$CELL_EXIT_USAGE"
positive_int warmup "$warmup" "$CELL_EXIT_USAGE"
positive_int rep "$rep" "$CELL_EXIT_USAGE"
positive_int tasks "$tasks" "$CELL_EXIT_USAGE"
[ -z "$cpus" ] || positive_int cpus "$cpus" "$CELL_EXIT_USAGE"
positive_int mem "$mem" "$CELL_EXIT_USAGE"
[ -z "$deadline" ] || positive_int deadline "$deadline" "$CELL_EXIT_USAGE"
[ -z "$step_budget" ] || positive_int step-budget "$step_budget" "$CELL_EXIT_USAGE"
[ -z "$silence_s" ] || positive_int silence "$silence_s" "$CELL_EXIT_USAGE"
for p in $passes; do
	is_pass "$p" || usage_error "unknown pass '$p' (known: $(known_passes | tr '\n' ' '))"
done
[ -z "$inject_hang" ] || [[ " $passes " == *" $inject_hang "* ]] ||
	usage_error "--inject-hang $inject_hang: not one of the cell's passes ($passes)"
[ -z "$inject_wedge" ] || [[ " $passes " == *" $inject_wedge "* ]] ||
	usage_error "--inject-wedge $inject_wedge: not one of the cell's passes ($passes)"
if [ -n "$workload" ] && is_own_cell_pass "$workload"; then
	# A pass with a cell of its own runs with no workload.
	WORKLOAD_SETUP=none WORKLOAD_TARGETS=- WORKLOAD_COMMAND=- WORKLOAD_PASSES=$workload
elif [ -n "$workload" ] && ! workload_load "$workload"; then
	usage_error "unknown workload '$workload'; known: $(known_workloads | tr '\n' ' ')"
fi
# A setup may carry an argument: "squashfs:zstd" is the squashfs setup with a
# zstd image, "zram:zstd" zram with the zstd compressor.
setup_name=${WORKLOAD_SETUP:-none}
setup_arg=''
case $setup_name in *:*) setup_arg=${setup_name#*:} setup_name=${setup_name%%:*} ;; esac
# --targets: the functions the verify pass counts, instead of the workload's.
if [ -n "$targets" ]; then
	targets_check "$targets" "$CELL_EXIT_USAGE"
	WORKLOAD_TARGETS=$targets
fi
# A workload that names its passes (workloads/README.md: passes=) runs those
# unless --passes says otherwise.
[ "$passes_given" -eq 1 ] || [ -z "$workload" ] || [ "$WORKLOAD_PASSES" = - ] || passes=$WORKLOAD_PASSES
[ -n "$passes" ] || passes=$(traced_cell_passes)
if [ -n "$workload" ] && [ "$setup_name" != none ] &&
	[ ! -f "$LOCKLAT_ROOT/bench/guest/setup/$setup_name/run" ]; then
	usage_error "workload $workload: unknown setup '$setup_name' (known: none $(cd "$LOCKLAT_ROOT/bench/guest/setup" && printf '%s ' */ | tr -d /))"
fi
if ! is_variant "$variant"; then
	usage_error "unknown variant '$variant'; known: $(known_variants | tr '\n' ' ')"
fi
if [ -e "$out" ]; then
	err_exit "$out exists: a complete cell is never overwritten (remove it to redo)" "$CELL_EXIT_USAGE"
fi
# The passes of kernel=plain run on the variant's plain kernel, those that
# need the traced one (the preemptoff and irqsoff tracers) on that: one boot,
# one kernel. A command runs no pass: the plain kernel.
flavour=plain
[ -n "$command" ] || flavour=$(passes_flavour "$passes")
manifest=$(kernel_dir "$variant" "$flavour")/manifest
[ -f "$manifest" ] ||
	err_exit "variant $variant is not built ($manifest missing): run 'make kernels VARIANTS=$variant'" "$CELL_EXIT_INFRA"
# The image beside its manifest (a lab host holds the kernel folder at
# another path than the build's bzimage_path), and the very one built.
bzimage=$(dirname "$manifest")/bzImage
[ -f "$bzimage" ] || err_exit "kernel image $bzimage missing: run 'make kernels VARIANTS=$variant'" "$CELL_EXIT_INFRA"
want_sha=$(kv_get "$manifest" bzimage_sha256 2>/dev/null || true)
[ -z "$want_sha" ] || [ "$(sha256_of "$bzimage")" = "$want_sha" ] ||
	err_exit "kernel image $bzimage is not the one its manifest names (sha256 differs): rebuild it" "$CELL_EXIT_INFRA"
# What each pass needs of the host (its host file's host_check: the
# modules pass, its variant's modules built).
[ -n "$command" ] || passes_host host_check "$passes" "$variant" || exit
[ -x "$LOCKLAT_BUILD/bin/locklat-verdict" ] ||
	err_exit "$LOCKLAT_BUILD/bin/locklat-verdict not built: run 'make tools'" "$CELL_EXIT_INFRA"
[ "$accel" = auto ] && accel=$("$LOCKLAT_ROOT/bench/host/qemu.sh" --detect-accel)
cpus=${cpus:-$(default_vcpus "$accel")}

partial=$out.partial
rm -rf "$partial"
mkdir -p "$partial/guest"
started=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
t0=$SECONDS

if [ -z "$initramfs" ]; then
	initramfs=$("$LOCKLAT_ROOT/bench/guest/mkinitramfs.sh") || err_exit "initramfs build failed" "$CELL_EXIT_INFRA"
fi
[ -f "$initramfs" ] || usage_error "initramfs $initramfs not found"

# job_write DIR PASSES: the guest's cell.conf for one boot that runs PASSES,
# appended to the initramfs as a second cpio archive (the kernel unpacks
# concatenated archives in order): DIR/initrd.img, DIR/cell.conf. A second
# boot also gets the first one's latency-pass summary
# (/etc/locklat/latency-pass.out): its timerlat threshold is a fraction of it.
job_write() {
	local dir=$1 boot_passes=$2 stage=$1/job conf workload_cmd key value
	mkdir -p "$stage/etc/locklat"
	conf=$stage/etc/locklat/cell.conf
	if [ -n "$command" ]; then
		kv_write "$conf" mode command command "$command"
		# A command may take any time, unless the caller gives it a budget.
		[ -z "$step_budget" ] || kv_write "$conf" step_budget "$step_budget"
	else
		workload_cmd=${WORKLOAD_COMMAND//\{cpus\}/$cpus}
		workload_cmd=${workload_cmd//\{tasks\}/$tasks}
		workload_cmd=${workload_cmd//\{seconds\}/$((duration + warmup + 60))}
		kv_write "$conf" mode cell workload "$workload" setup "$setup_name" \
			setup_arg "$setup_arg" \
			targets "$WORKLOAD_TARGETS" workload_cmd "$workload_cmd" \
			duration "$duration" trace_duration "$trace_duration" warmup "$warmup" passes "$boot_passes" \
			step_budget "${step_budget:-$(step_budget_s "$duration" "$warmup")}" \
			heartbeat "$LOCKLAT_HEARTBEAT_S" \
			function_trace "$function_trace" \
			inject_hang "$inject_hang"
		# A wedge is injected in the first boot only.
		[ "$dir" != "$partial" ] || kv_write "$conf" inject_wedge "$inject_wedge"
		# The passes' parameters: their pass files' conf.KEY, and what
		# their host files compute (host_conf CPUS DURATION).
		while read -r key value; do
			[ -z "$key" ] || kv_write "$conf" "$key" "$value"
		done < <(cell_conf_passes "$boot_passes"; passes_host host_conf "$boot_passes" "$cpus" "$duration")
		# What the passes add to the guest (host_stage: the modules, a
		# second boot's first latency pass).
		passes_host host_stage "$boot_passes" "$stage" "$partial" "$dir" "$variant" || exit
	fi
	(cd "$stage" && find . -mindepth 1 | sed 's|^\./||' | cpio -o -H newc -R 0:0 --quiet) | gzip -n >"$dir/job.cpio.gz"
	cat "$initramfs" "$dir/job.cpio.gz" >"$dir/initrd.img"
	cp "$conf" "$dir/cell.conf"
	rm -rf "$stage"
}

# boot_deadline PASSES: the wall-clock deadline of a boot that runs PASSES
# (--deadline, else lib/common.sh's cell_deadline_s).
boot_deadline() {
	if [ -n "$deadline" ]; then
		echo "$deadline"
	else
		cell_deadline_s "$(cell_guest_seconds "$1" "$duration" "$trace_duration" "$warmup")"
	fi
}

# Workload cells log a heartbeat (commands may be silent for any time).
[ -n "$command" ] || silence_s=${silence_s:-$LOCKLAT_SILENCE_S}
silence=()
[ -z "$silence_s" ] || silence=(--silence "$silence_s")

# boot DIR PASSES: one boot of the guest that runs PASSES, with its results
# disk and its setup's disk; QEMU's record in DIR (console.log, qemu-cmdline,
# ...), what the guest wrote in DIR/guest, DIR/results-tar.err what tar said
# of a damaged archive (empty when it was whole). Sets boot_deadline_s.
boot() {
	local dir=$1 boot_passes=$2 disks serial image setup_disk
	mkdir -p "$dir/guest"
	job_write "$dir" "$boot_passes"
	# The results channel: a raw disk the guest writes a tar archive onto.
	truncate -s "${LOCKLAT_RESULTS_DISK_MIB}M" "$dir/results.img"
	disks=(--disk "locklat-results=$dir/results.img")
	# The disk a setup kind asks for (bench/guest/setup/<kind>/disk): a
	# read-only image its script builds, or an empty scratch disk.
	setup_disk=$LOCKLAT_ROOT/bench/guest/setup/$setup_name/disk
	if [ -n "$workload" ] && [ -f "$setup_disk" ]; then
		serial=$(kv_get "$setup_disk" serial) || err_exit "$setup_disk: no serial=" "$CELL_EXIT_INFRA"
		image=$(setup_image "$WORKLOAD_SETUP") ||
			err_exit "building the $WORKLOAD_SETUP image failed" "$CELL_EXIT_INFRA"
		if [ -n "$image" ]; then
			disks+=(--disk "$serial=$image:ro")
		elif [ "$(kv_get "$setup_disk" scratch)" = yes ]; then
			truncate -s "${LOCKLAT_SCRATCH_DISK_MIB}M" "$dir/scratch.img"
			disks+=(--disk "$serial=$dir/scratch.img")
		fi
	fi
	boot_deadline_s=$(boot_deadline "$boot_passes")
	local qemu_status=0
	# If this script dies, even by SIGKILL, the kernel kills qemu.sh, whose
	# death kills QEMU the same way: no guest outlives the cell that started it.
	setpriv --pdeathsig KILL -- "$LOCKLAT_ROOT/bench/host/qemu.sh" --kernel "$bzimage" --initrd "$dir/initrd.img" \
		--out "$dir" --accel "$accel" --cpus "$cpus" ${pin:+--pin "$pin"} \
		--mem "$mem" --deadline "$boot_deadline_s" "${silence[@]}" "${overcommit[@]}" \
		--append "$(kv_get "$manifest" bootargs)" "${disks[@]}" || qemu_status=$?
	if [ "$qemu_status" -eq 2 ]; then
		rm -rf "$partial"
		exit "$CELL_EXIT_USAGE"
	fi
	# What the guest wrote, even if it later panicked. A damaged archive
	# (the guest filled its results disk, or died while writing) still gives
	# what it holds, and tar says what went wrong.
	if tar -xf "$dir/results.img" -C "$dir/guest" 2>"$dir/results-tar.err"; then
		: >"$dir/results-tar.err"
	fi
	rm -f "$dir/results.img" "$dir/initrd.img" "$dir/scratch.img"
}

# boot_merge DIR: a second boot's results into the cell's: its passes'
# files join guest/ (the first attempt's folder of a pass run again is kept
# as NAME.hung/, as the guest keeps its own retries'), its steps follow the
# first boot's, its kernel log is guest/dmesg-boot2.txt.
boot_merge() {
	local b=$1/guest f name
	[ ! -f "$b/steps" ] || cat "$b/steps" >>"$partial/guest/steps"
	[ ! -f "$b/dmesg.txt" ] || mv "$b/dmesg.txt" "$partial/guest/dmesg-boot2.txt"
	rm -f "$b/steps" "$b/cell.conf"
	# Every entry, dot-files too (find, not a glob).
	while IFS= read -r -d '' f; do
		name=${f##*/}
		if [ -d "$f" ] && [ -d "$partial/guest/$name" ]; then
			rm -rf "$partial/guest/$name.hung"
			mv "$partial/guest/$name" "$partial/guest/$name.hung"
		fi
		rm -rf "${partial:?}/guest/$name"
		mv "$f" "$partial/guest/"
	done < <(find "$b" -mindepth 1 -maxdepth 1 -print0)
	rmdir "$b"
}

# The one judge of a cell (bench/report/summary/verdict.c), by the rules the
# summary reads cells with; with --resume, what a second boot runs.
verdict() {
	"$LOCKLAT_BUILD/bin/locklat-verdict" --deadline "$first_deadline_s,$boot_deadline_s" \
		--silence "${silence_s:-0}" --heartbeat "$LOCKLAT_HEARTBEAT_S" \
		--hung-grace "${LOCKLAT_HUNG_GRACE_S:-30}" --results-disk-mib "$LOCKLAT_RESULTS_DISK_MIB" "$@"
}

boot "$partial" "$passes"
first_deadline_s=$boot_deadline_s
boots=1
resumed=$(verdict --resume "$partial")
if [ -n "$resumed" ]; then
	progress cell "$variant/$workload/$(basename "$out"): first boot ended ($(cat "$partial/qemu-exit")); a second boot runs: $resumed"
	boot "$partial/boot2" "$resumed"
	boots=2
	boot_merge "$partial/boot2"
fi
# What the passes read on the host from what their guest wrote
# (host_collect: the modules' splats, load by load).
[ -n "$command" ] || passes_host host_collect "$passes" "$partial" || true

logs=()
for f in "$partial/console.log" "$partial/boot2/console.log" "$partial/guest/dmesg.txt" "$partial/guest/dmesg-boot2.txt"; do
	[ ! -f "$f" ] || logs+=("$f")
done
"$LOCKLAT_ROOT/bench/host/findings.sh" "${logs[@]}" >"$partial/findings" || true

# status and reason: what this cell says, worst first.
verdict_out=$(verdict "$partial")
status=$(sed -n 's/^status=//p' <<<"$verdict_out")
reason=$(sed -n 's/^reason=//p' <<<"$verdict_out")

# guest_version KEY PACKAGE: the version of a program the guest ran, from
# the image's record (mkinitramfs.sh), else this host's package.
guest_version() {
	local versions=${initramfs%.cpio.gz}.versions
	if [ -f "$versions" ]; then
		kv_get "$versions" "$1" || true
	else
		dpkg-query -W -f='${Version}' "$2" 2>/dev/null || true
	fi
}

# meta: every fact a reader needs to trust or redo this cell; manifest.* keys
# are the variant's build manifest, copied so that the cell stands alone.
meta=$partial/meta
: >"$meta"
kv_write "$meta" \
	layout_version "$LOCKLAT_LAYOUT_VERSION" \
	status "$status" \
	reason "$reason" \
	variant "$variant" \
	workload "${workload:-command}" \
	setup "${WORKLOAD_SETUP:-none}" \
	targets "${WORKLOAD_TARGETS:--}" \
	command "$command" \
	rep "$rep" \
	tasks_per_cpu "$tasks" \
	duration_s "$duration" \
	trace_duration_s "$trace_duration" \
	function_trace "$function_trace" \
	hist_range_us "$LOCKLAT_HIST_RANGE_US" \
	interval_us "$LOCKLAT_INTERVAL_US" \
	warmup_s "$warmup" \
	passes "$passes" \
	boots "$boots" \
	resumed_passes "$resumed" \
	kernel_flavour "$flavour" \
	accel "$(cat "$partial/accel" 2>/dev/null || echo "$accel")" \
	vcpus "$cpus" \
	guest_mem_mib "$mem" \
	pinning "$(awk '{ printf "%svcpu%s:tid%s:cpu%s", sep, $1, $2, $3; sep = " " }' "$partial/pinning" 2>/dev/null)" \
	qemu_version "$(cat "$partial/qemu-version" 2>/dev/null)" \
	qemu_cmdline_file qemu-cmdline \
	cyclictest_version "$(guest_version cyclictest_version rt-tests)" \
	trace_cmd_version "$(guest_version trace_cmd_version trace-cmd)" \
	stress_ng_version "$(guest_version stress_ng_version stress-ng)" \
	host "$(uname -n)" \
	host_cpu "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" \
	host_kernel "$(uname -r)" \
	suite_revision "${LOCKLAT_SUITE_REVISION:-$(git -C "$LOCKLAT_ROOT" describe --always --dirty 2>/dev/null || echo unknown)}" \
	initramfs "$initramfs" \
	started "$started" \
	wall_seconds "$((SECONDS - t0))"
sed 's/^/manifest./' "$manifest" >>"$meta"
kv_write "$meta" complete 1
# The command names the cell's final paths, so it can be re-run by hand
# (results/README.md says how to recreate initrd.img and results.img).
sed -i "s|$partial/|$out/|g" "$partial/qemu-cmdline"
[ ! -f "$partial/boot2/qemu-cmdline" ] || sed -i "s|$partial/|$out/|g" "$partial/boot2/qemu-cmdline"
mv "$partial" "$out"

progress cell "$variant/${workload:-command}/$(basename "$out"): $status${reason:+ ($reason)} in $((SECONDS - t0)) s"
case $status in
OK) exit "$CELL_EXIT_OK" ;;
FINDINGS) exit "$CELL_EXIT_FINDINGS" ;;
TIMEOUT) exit "$CELL_EXIT_TIMEOUT" ;;
INVALID) exit "$CELL_EXIT_INVALID" ;;
*) exit "$CELL_EXIT_INFRA" ;;
esac
