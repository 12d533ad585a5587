#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-matrix.sh - the locklat pipeline: plan a run of variants x workloads x
# repetitions into DIR/plan (bench/host/plan.sh), then run it
# (bench/host/execute.sh): packages, kernels, guest image, cells, summary, plots.
#
# Usage: ./run-matrix.sh [options]
#   --variants LIST   comma-separated, or "all" (default: every variant of
#                     kernels/variants/ but those whose file says matrix=no)
#   --workloads LIST  comma-separated, or "all" (default: those whose
#                     workloads/<name>/workload says default=yes)
#   --duration S      guest seconds of each latency pass (default 10), at most 3600
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
#                     own host CPU; else 1); the run's jobs, builds included,
#                     share their host CPUs
#   --overlap yes|no  cells run while other kernels still build (default: yes
#                     under tcg-icount, whose figures a build beside does not
#                     change, METHODOLOGY.md; no under kvm and tcg)
#   --out DIR         result directory (default results/<date-time>); running
#                     again with the same --out resumes it
#   --seed N          the seed of the cells' shuffled order (default: random;
#                     recorded in DIR/order, which a resumed run keeps)
#   --ab BASE..TIP    A/B a kernel change: the range's base and tip on
#                     CONFIG_PREEMPT and PREEMPT_RT, and its tip under lockdep,
#                     instead of kernels/variants/ (kernels/ab.sh), refs pinned
#                     to commits when the run starts; DIR/ab/ keeps what the
#                     run was made of. TREE@BASE..TIP names the tree too
#   -C TREE           the git tree of --ab or --ab-mbox (default: the current
#                     directory); it is only read
#   --ab-mbox FILE    A/B a mail series (an mbox: b4, git format-patch)
#                     applied onto --ab-base REF as git am would, in a scratch
#                     repository under build/ab-trees/
#   --ab-base REF     the commit of -C TREE that --ab-mbox applies onto
#   --config C        every kernel's base: a developer's .config file, or a
#                     defconfig target of the tree (x86_64_defconfig), instead
#                     of allnoconfig; locklat's fragments (guest, workloads,
#                     passes, preemption model, lockdep, tracers) are merged
#                     onto it with merge_config.sh, and what of it did not
#                     stick is said (kernels/build.sh)
#   --each-commit     with --ab or --ab-mbox: the base and every commit of
#                     the range, each on CONFIG_PREEMPT and PREEMPT_RT (plain
#                     kernels, no traced cell), one repetition unless --reps;
#                     DIR/commits.md: a row per commit, its build seconds,
#                     boots, splats, maxima and change against the one before
#   --bisect RUN      bisect the regression of a finished --ab run: git
#                     bisect run over its range, each step built, booted and
#                     judged against RUN's base with RUN's settings
#                     (bench/bisect/bisect.sh); takes only --workloads W,
#                     --variants ab-tip|ab-tip-rt, --threshold PCT, --out
#   --threshold PCT   for --bisect: a step regressed when its interval
#                     excludes 1 and the change is over PCT % (default 10)
#   --targets LIST    comma-separated kernel functions the verify pass counts
#                     for every workload, instead of each workload's own
#                     (default for --ab: the functions the range changes)
#   --hosts FILE      run the cells on several hosts (GNU parallel over ssh;
#                     FILE is its --sshloginfile: "[N/]LOGIN" per line, ":"
#                     for this machine): kernels and the guest image are built
#                     here, each host runs whichever cell is next. Excludes
#                     --jobs (bench/host/lab.sh, README.md "A lab")
#   --dry-run         print the plan and its estimate, change nothing (with
#                     --hosts the hosts are asked what they can run)
#   -h, --help        this text
#
# Each variant and workload gets rep1..repN on the variant's plain kernel and
# one cell "traced" running every pass of a traced cell (bench/passes/) on its
# traced kernel; a workload whose file says cells=once, and a pass with a
# cell of its own (bench/passes/modules), get rep1 alone.
# Exit: 0 done (cells may hold findings), 1 a stage failed or the run
# contradicts an expectation of kernels/comparisons (DIR/verdicts.tap: a
# TAP test per comparison, "not ok" for each contradicted), 2 bad usage.

set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
# shellcheck source=kernels/variants.sh
. "$LOCKLAT_ROOT/kernels/variants.sh"
# shellcheck source=workloads/workloads.sh
. "$LOCKLAT_ROOT/workloads/workloads.sh"
# shellcheck source=kernels/sources.sh
. "$LOCKLAT_ROOT/kernels/sources.sh"
# shellcheck source=kernels/ab.sh
. "$LOCKLAT_ROOT/kernels/ab.sh"
# shellcheck source=bench/host/lab.sh
. "$LOCKLAT_ROOT/bench/host/lab.sh"
# shellcheck source=bench/host/plan.sh
. "$LOCKLAT_ROOT/bench/host/plan.sh"

variants=() workloads=() cells=()
variants_opt=all workloads_opt=default duration=10 trace_duration=3 warmup=1 reps=4
tasks=$LOCKLAT_TASKS_PER_CPU
accel=auto cpus='' jobs='' out='' dry_run=0 seed='' ab='' targets='' hosts='' overlap=''
ab_tree='' ab_mbox='' ab_base='' bisect='' threshold='' each_commit=0 config='' given=()
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage_from_header "$0"; exit 0 ;;
	--dry-run) dry_run=1; shift; continue ;;
	--each-commit) each_commit=1 given+=("$1"); shift; continue ;;
	# git's order too: --ab -C TREE BASE..TIP.
	--ab) if [ "${2:-}" = -C ]; then
		[ $# -ge 4 ] || err_exit "--ab -C needs a tree and a range" 2
		ab_tree=$3 ab=$4 given+=(--ab -C)
		shift 4
		continue
	fi ;;&
	--variants | --workloads | --duration | --trace-duration | --warmup | --reps | --tasks | --accel | --cpus | \
		--jobs | --overlap | --out | --seed | --ab | --ab-mbox | --ab-base | -C | --targets | --hosts | --bisect | \
		--threshold | --config)
		[ $# -ge 2 ] || err_exit "$1 needs a value" 2 ;;
	*) err_exit "unknown option '$1' (see --help)" 2 ;;
	esac
	# Each option's variable is its name (variants and workloads: NAME_opt;
	# -C, git's: ab_tree).
	opt=${1#--}
	case $opt in variants | workloads) opt=${opt}_opt ;; -C) opt=ab_tree ;; esac
	printf -v "${opt//-/_}" '%s' "$2"
	given+=("$1")
	shift 2
done

# A bisect takes its range and settings from the run it bisects.
if [ -n "$bisect" ]; then
	[ "$dry_run" -eq 0 ] || err_exit "--bisect has no --dry-run: its steps are git bisect's to choose" 2
	for opt in "${given[@]}"; do
		case $opt in --bisect | --workloads | --variants | --threshold | --out) ;;
		*) err_exit "--bisect takes RUN's settings: $opt does not go with it (only --workloads, --variants, --threshold, --out)" 2 ;;
		esac
	done
	set -- --from "$bisect"
	[ "$workloads_opt" = default ] || set -- "$@" --workload "$workloads_opt"
	[ "$variants_opt" = all ] || set -- "$@" --variant "$variants_opt"
	[ -z "$threshold" ] || set -- "$@" --threshold "$threshold"
	[ -z "$out" ] || set -- "$@" --out "$out"
	exec "$LOCKLAT_ROOT/bench/bisect/bisect.sh" "$@"
fi
[ -z "$threshold" ] || err_exit "--threshold goes with --bisect" 2
# A developer's configuration: a readable file (made absolute: the builds
# run elsewhere) or a defconfig target, which the tree's make checks.
if [ -n "$config" ]; then
	if [ -f "$config" ] && [ -r "$config" ]; then
		grep -q '^CONFIG_\|^# CONFIG_' "$config" || err_exit "--config $config: not a kernel configuration (no CONFIG_ line)" 2
		config=$(cd "$(dirname "$config")" && pwd -P)/$(basename "$config")
	else
		[[ $config =~ ^[A-Za-z0-9_.-]*defconfig$ ]] ||
			err_exit "--config wants a .config file or a defconfig target (x86_64_defconfig), got '$config'" 2
	fi
	export LOCKLAT_BASE_CONFIG=$config
fi
# Each commit: a survey of plain kernels, one repetition unless asked.
if [ "$each_commit" -eq 1 ]; then
	[ -n "$ab$ab_mbox" ] || err_exit "--each-commit goes with --ab or --ab-mbox (the range whose commits to build)" 2
	[[ " ${given[*]} " == *" --reps "* ]] || reps=1
	LOCKLAT_FLAVOURS=plain
fi

# at_most OPTION VALUE MAX: a number past its documented maximum.
at_most() { [ "$2" -le "$3" ] || err_exit "--$1 is at most $3, got $2" 2; }
for opt in duration trace-duration warmup reps tasks; do
	v=${opt//-/_}
	positive_int "$opt" "${!v}"
done
for opt in cpus jobs seed; do
	[ -z "${!opt}" ] || positive_int "$opt" "${!opt}"
done
at_most tasks "$tasks" 64
at_most duration "$duration" 3600
at_most trace-duration "$trace_duration" 3600
at_most warmup "$warmup" 3600
at_most reps "$reps" "$LOCKLAT_MAX_REPS"
[ -z "$cpus" ] || at_most cpus "$cpus" "$(guest_max_cpus)"
case $accel in auto | kvm | tcg-icount | tcg) ;; *) err_exit "--accel wants auto, kvm, tcg-icount or tcg, got '$accel'" 2 ;; esac
case $overlap in '' | yes | no) ;; *) err_exit "--overlap wants yes or no, got '$overlap'" 2 ;; esac
targets_check "$targets"
# The change under test as TREE@BASE..TIP, pinned to commit ids now.
if [ -n "$ab$ab_tree$ab_mbox$ab_base" ]; then
	ab=$(ab_resolve "$ab" "$ab_tree" "$ab_mbox" "$ab_base") || exit 2
fi
# An A/B run's variants, comparisons and series are written from the range,
# first to a scratch folder, into DIR/ab/ when the run starts.
ab_dir=''
if [ -n "$ab" ]; then
	ab_dir=$(mktemp -d)
	trap 'rm -rf "$ab_dir"' EXIT
fi

plan_select
plan_hosts
[ -n "$out" ] || out=$LOCKLAT_RESULTS/$(date -u '+%Y%m%d-%H%M%S')
# Absolute: the plan names DIR's paths (an A/B run's variants under
# DIR/ab/), and it can be run again from another directory
# (bench/host/execute.sh DIR/plan).
out=$(realpath -m -- "$out")
plan_out_check
plan_resume_check
plan_history
plan_order
plan_file=$(mktemp)
trap 'rm -rf -- "$plan_file" ${ab_dir:+"$ab_dir"}' EXIT
plan_write >"$plan_file"
estimate=$("$LOCKLAT_ROOT/bench/host/execute.sh" --simulate "$plan_file")
plan_describe "$plan_file" "$estimate"
[ "$dry_run" -eq 0 ] || exit 0

plan_commit "$plan_file"
rm -rf -- "$plan_file" ${ab_dir:+"$ab_dir"}
# The run's lock (fd 8, taken by plan_commit) stays held by the executor.
exec "$LOCKLAT_ROOT/bench/host/execute.sh" "$out/plan"
