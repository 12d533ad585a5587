#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# execute.sh - run a plan: the jobs of results/<run>/plan (written by
# bench/host/plan.sh for run-matrix.sh, which then starts this), each when
# the jobs it needs are done and host CPUs of the run's budget are free.
#
# Usage: bench/host/execute.sh [--simulate [--schedule]] PLAN
#   --simulate   run nothing: print the wall time the plan's schedule takes
#                from its jobs' expected seconds, and its CPU work, one line
#                (run-matrix.sh --dry-run's estimate). A build given fewer
#                CPUs than its plan's most is taken to speed up by 0.35 per
#                CPU (a cold kernel build keeps 1.35 of 2 cores busy:
#                METHODOLOGY.md, "Build time")
#   --schedule   with --simulate, first a line per job as the scheduler
#                would run it: start and end second, host CPUs, ID
#   -h, --help   this text
#
# One scheduler, one set of host CPUs (0 .. budget-1): a job is given CPUs
# when it starts and holds them until it ends; a cell pins its QEMU to
# them, every other job runs under taskset on them, so make -j, which
# follows the CPUs it may use (nproc), never oversubscribes them. A lab's
# hosts (--hosts; DIR/hosts.kept, "N/LOGIN") are more of the same: a lab
# cell is given a free slot of a host as a local cell is given CPUs, and
# goes back to wait, for another host, when it does not come back (three
# tries). Builds come first and cells take the CPUs no build can use (see
# schedule); a build takes what is free up to its plan's CPUS, but only its
# least when another job that could start fits on the rest. Under
# overlap=no (kvm, tcg: the guest's clock is the host's, a build beside a
# cell would be measured) a cell starts only when no build is left.
#
# Resume is running the plan again: a complete cell is kept (an INFRA one
# is redone), a kernel build finds its kernel current. A cell whose kernel
# or modules did not build is written as an INFRA cell saying so. The
# packages, tools, sources, rtla and image jobs are the run's: one that fails stops it.
# Each job's wall, user and system seconds go to DIR/logs/jobs (a line per
# job: ID, status, wall, user, sys, CPUs, start second).
# Exit: 0 done (cells may hold findings), 1 a stage failed or the run
# contradicts an expectation of kernels/comparisons (DIR/verdicts.tap), 2
# the run's tree holds another matrix's kernels, 130 interrupted.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"
# shellcheck source=bench/host/lab.sh
. "$LOCKLAT_ROOT/bench/host/lab.sh"

simulate=0 schedule=0
while [ $# -gt 1 ]; do
	case $1 in
	--simulate) simulate=1 ;;
	--schedule) schedule=1 ;;
	*) break ;;
	esac
	shift
done
case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
[ $# -eq 1 ] || err_exit "want one plan file (see --help)" 2
[ "$schedule" -eq 0 ] || [ "$simulate" -eq 1 ] || err_exit "--schedule goes with --simulate" 2
plan=$1
{ [ -f "$plan" ] && [ -r "$plan" ]; } || err_exit "cannot read the plan $plan" 2

# --- the plan, read ------------------------------------------------------
declare -A S=() index_of=()
J_ID=() J_KIND=() J_NEEDS=() J_MIN=() J_MAX=() J_SEC=() J_ARGS=() J_STATE=() J_WHY=() J_PIN=() J_START=() J_END=()
declare -A pid_job=()
plan_read() {
	local kind id needs cpus seconds args n=0 line
	while IFS= read -r line; do
		case $line in
		'#'* | '') continue ;;
		set$'\t'*)
			IFS=$'\t' read -r kind id args <<<"$line"
			S[$id]=$args ;;
		job$'\t'*)
			IFS=$'\t' read -r kind id needs cpus seconds args <<<"$line"
			[[ $seconds =~ ^[0-9]+$ ]] || err_exit "$plan: job $id: seconds '$seconds' is not a number" 2
			case $cpus in
			[0-9]*-[0-9]*) J_MIN[n]=${cpus%-*} J_MAX[n]=${cpus#*-} ;;
			*[!0-9]* | '') err_exit "$plan: job $id: CPUs '$cpus' is neither N nor MIN-MAX" 2 ;;
			*) J_MIN[n]=$cpus J_MAX[n]=$cpus ;;
			esac
			J_ID[n]=$id J_KIND[n]=${id%%:*} J_NEEDS[n]=$needs J_SEC[n]=$seconds J_ARGS[n]=$args J_STATE[n]=wait J_WHY[n]=''
			index_of[$id]=$n
			n=$((n + 1)) ;;
		*) err_exit "$plan: a line that is neither set nor job: '${line:0:40}'" 2 ;;
		esac
	done <"$plan"
	[ "$n" -gt 0 ] || err_exit "$plan holds no job" 2
	for kind in out budget overlap accel vcpus per_cell; do
		[ -n "${S[$kind]:-}" ] || err_exit "$plan: no '$kind' setting" 2
	done
}
# needs_resolve: each job's NEEDS, IDs and patterns, into the indices of
# the jobs it waits for (space-separated).
needs_resolve() {
	local i j pattern resolved patterns
	for i in "${!J_ID[@]}"; do
		resolved=''
		if [ "${J_NEEDS[i]}" != - ]; then
			IFS=, read -r -a patterns <<<"${J_NEEDS[i]}"
			for pattern in "${patterns[@]}"; do
				if [[ $pattern == *[*?[]* ]]; then
					for j in "${!J_ID[@]}"; do
						# shellcheck disable=SC2053 # a pattern on purpose
						[[ ${J_ID[j]} != $pattern ]] || resolved="$resolved $j"
					done
				else
					[ -n "${index_of[$pattern]:-}" ] ||
						err_exit "$plan: job ${J_ID[i]} needs $pattern, which the plan does not have" 2
					resolved="$resolved ${index_of[$pattern]}"
				fi
			done
		fi
		J_NEEDS[i]=$resolved
	done
}
plan_read
needs_resolve
out=${S[out]}
budget=${S[budget]}

# --- a lab's hosts: slots, given to its cells as CPUs are -------------------
HOST_LOGIN=() HOST_FREE=()
J_HOST=() J_AVOID=() J_TRIES=()
if [ "${S[hosts]:--}" != - ]; then
	if [ "$simulate" -eq 0 ] && [ -f "$out/hosts.kept" ]; then
		while IFS= read -r kept; do
			HOST_LOGIN+=("${kept#*/}") HOST_FREE+=("${kept%%/*}")
		done <"$out/hosts.kept"
	else
		# The dry run's estimate: the slots together.
		HOST_LOGIN=(lab) HOST_FREE=("${S[jobs]}")
	fi
fi
# host_take I: a slot for lab cell I, of the host with the most free ones,
# another than the one it did not come back from when there is one; false
# when none is free.
host_take() {
	local h best='' avoid=${J_AVOID[$1]:-}
	for h in "${!HOST_LOGIN[@]}"; do
		[ "${HOST_FREE[h]}" -gt 0 ] || continue
		if [ -z "$best" ] || host_better "$h" "$best" "$avoid"; then best=$h; fi
	done
	[ -n "$best" ] || return 1
	J_HOST[$1]=$best
	HOST_FREE[best]=$((HOST_FREE[best] - 1))
}
# host_better H B AVOID: host H before host B: B is the one to avoid and H
# is not, or neither is (or both) and H has more free slots.
host_better() {
	[ "$2" != "$3" ] || [ "$1" = "$3" ] || return 0
	[ "$1" != "$3" ] || [ "$2" = "$3" ] || return 1
	[ "${HOST_FREE[$1]}" -gt "${HOST_FREE[$2]}" ]
}
host_give() {
	local h=${J_HOST[$1]:-}
	[ -n "$h" ] || return 0
	HOST_FREE[h]=$((HOST_FREE[h] + 1))
}

is_build() {
	case ${J_KIND[$1]} in packages | tools | sources | rtla | image | kernel | modules | equivalence) return 0 ;; esac
	return 1
}

# --- CPUs ------------------------------------------------------------------
FREE=()
for ((c = 0; c < budget; c++)); do FREE+=("$c"); done
cpus_take() {
	local n=$1
	J_PIN[$2]=$(IFS=,; echo "${FREE[*]:0:n}")
	FREE=("${FREE[@]:n}")
}
cpus_give() {
	local c
	[ -n "${J_PIN[$1]:-}" ] || return 0
	IFS=, read -r -a c <<<"${J_PIN[$1]}"
	FREE+=("${c[@]}")
	mapfile -t FREE < <(printf '%s\n' "${FREE[@]}" | sort -n)
	J_PIN[$1]=''
}

builds_left() {
	local i
	for i in "${!J_ID[@]}"; do
		is_build "$i" && [[ ${J_STATE[i]} == wait || ${J_STATE[i]} == run ]] && return 0
	done
	return 1
}
# needs_state I: NS is "ok" when every job I needs is done, "fail:K"
# when job K of them failed, else "wait" (a variable, not output: the
# scheduler asks it of every job at every step).
needs_state() {
	local j
	for j in ${J_NEEDS[$1]}; do
		[ "${J_STATE[j]}" != fail ] || { NS=fail:$j; return; }
	done
	for j in ${J_NEEDS[$1]}; do
		[ "${J_STATE[j]}" = ok ] || { NS="wait"; return; }
	done
	NS=ok
}
# needs_ended I: every job I needs has ended, done or failed (the report's:
# it summarises what there is).
needs_ended() {
	local j
	for j in ${J_NEEDS[$1]}; do
		[[ ${J_STATE[j]} == ok || ${J_STATE[j]} == fail ]] || return 1
	done
}

# --- the clock: real, or the simulation's -----------------------------------
now=0
running=0
if [ "$simulate" -eq 1 ]; then
	# A build's speed-up on N CPUs, in hundredths: 100 + 35 (N - 1).
	speedup() { echo $((100 + 35 * ($1 - 1))); }
	job_launch() {
		local wall=${J_SEC[$1]}
		[ "$2" -ge "${J_MAX[$1]}" ] || wall=$((wall * $(speedup "${J_MAX[$1]}") / $(speedup "$2")))
		J_END[$1]=$((now + wall))
		[ "$schedule" -eq 0 ] || printf '%d\t%d\t%s\t%s\n' "$now" "${J_END[$1]}" \
			"${J_PIN[$1]:-${HOST_LOGIN[${J_HOST[$1]:-0}]:-}}" "${J_ID[$1]}"
	}
	job_reap() {
		local i first=''
		for i in "${!J_ID[@]}"; do
			[ "${J_STATE[i]}" = run ] || continue
			[ -n "$first" ] && [ "${J_END[i]}" -ge "${J_END[first]}" ] || first=$i
		done
		now=${J_END[first]}
		job_ended "$first" 0
	}
else
	# shellcheck source=bench/host/execute-jobs.sh
	. "$LOCKLAT_ROOT/bench/host/execute-jobs.sh"
fi

# job_start I [N]: I gets its CPUs, N or else its most (none for a lab cell:
# host_take gave it a slot), at most what is free, and starts.
job_start() {
	local i=$1 n=${2:-${J_MAX[$1]}}
	[ "$n" -le "${J_MAX[i]}" ] || n=${J_MAX[i]}
	[ "$n" -le "${#FREE[@]}" ] || n=${#FREE[@]}
	cpus_take "$n" "$i"
	J_STATE[i]=run J_START[i]=$now
	running=$((running + 1))
	job_launch "$i" "$n"
}
# job_ended I STATUS: I's CPUs (or a lab cell's slot) back; done, or
# failed with its reason.
job_ended() {
	local i=$1
	cpus_give "$i"
	host_give "$i"
	running=$((running - 1))
	J_STATE[i]=ok
	[ "$2" -eq 0 ] || J_STATE[i]=fail
}
# job_requeue I: lab cell I waits again, for a host it did not fail on.
job_requeue() {
	job_ended "$1" 0
	J_AVOID[$1]=${J_HOST[$1]}
	unset "J_HOST[$1]"
	J_STATE[$1]='wait'
}

# cells_may_start LEFT: local cells may start now: beside the builds under
# overlap=yes, else once no build is left (LEFT: builds remain).
cells_may_start() {
	[ "${S[overlap]}" = yes ] || [ "$1" -eq 0 ]
}

# ready_jobs LEFT: READY, how many jobs could start now on CPUs of their
# own, by the CPUs each needs at least: builds whose needs are done, and the
# cells that may run beside them (LEFT: builds remain; a lab cell takes a
# host's slot, not a CPU).
declare -A READY
ready_jobs() {
	local i
	READY=()
	for i in "${!J_ID[@]}"; do
		[ "${J_STATE[i]}" = wait ] || continue
		if [ "${J_KIND[i]}" = cell ]; then
			[ "${J_MAX[i]}" -gt 0 ] || continue
			cells_may_start "$1" || continue
		elif ! is_build "$i"; then
			continue
		fi
		needs_state "$i"
		[ "$NS" != ok ] || READY[${J_MIN[i]}]=$((${READY[${J_MIN[i]}]:-0} + 1))
	done
}
# others_fit CPUS: true if a ready job other than the one asking (counted
# out of READY) could start on CPUS.
others_fit() {
	local need
	for need in "${!READY[@]}"; do
		[ "${READY[$need]}" -gt 0 ] && [ "$need" -le "$1" ] && return 0
	done
	return 1
}

# schedule: start every job that can start now; true if one did. Builds
# come first: a kernel is the long job that cells wait for, so a CPU it
# can use goes to it, and the run ends on many short cells on every CPU,
# not on one kernel building alone beside an idle CPU (the default
# matrix's two shared kernels, each as long as a cold one because the
# local-lock patches change radix-tree.h, built one after the other beside
# cells and left a CPU idle 250 s: METHODOLOGY.md, "From scratch"). A build
# takes more than its least CPUs only of those no other ready job could
# use: a kernel's make keeps 1.35 of 2 CPUs busy, another job both.
schedule() {
	local i started=1 left=0 n counted=0
	builds_left && left=1
	for i in "${!J_ID[@]}"; do
		{ [ "${J_STATE[i]}" = wait ] && is_build "$i"; } || continue
		needs_state "$i"
		case $NS in
		fail:*) J_STATE[i]=fail J_WHY[i]="needs ${J_ID[${NS#fail:}]}, which failed"; started=0; continue ;;
		wait) continue ;;
		esac
		[ "${#FREE[@]}" -ge "${J_MIN[i]}" ] || continue
		n=${J_MIN[i]}
		if [ "${J_MAX[i]}" -gt "$n" ] && [ "${#FREE[@]}" -gt "$n" ]; then
			# Who else could start: counted once a build could take more
			# than its least, less each build started after.
			[ "$counted" -eq 1 ] || { ready_jobs "$left"; counted=1; }
			READY[$n]=$((READY[$n] - 1))
			others_fit $((${#FREE[@]} - n)) || n=${J_MAX[i]}
		elif [ "$counted" -eq 1 ]; then
			READY[$n]=$((READY[$n] - 1))
		fi
		job_start "$i" "$n"; started=0
	done
	builds_left && left=1 || left=0
	for i in "${!J_ID[@]}"; do
		{ [ "${J_KIND[i]}" = cell ] && [ "${J_STATE[i]}" = wait ]; } || continue
		needs_state "$i"
		case $NS in
		fail:*) cell_unbuilt "$i" "${NS#fail:}"; started=0; continue ;;
		wait) continue ;;
		esac
		if [ "${J_MAX[i]}" -eq 0 ]; then
			# A lab cell: once no build is left (the bundle carries every
			# kernel), on a host's free slot.
			[ "$left" -eq 0 ] || continue
			host_take "$i" || continue
			job_start "$i"; started=0
			continue
		fi
		cells_may_start "$left" || continue
		[ "${#FREE[@]}" -ge "${J_MAX[i]}" ] || continue
		job_start "$i"; started=0
	done
	for i in "${!J_ID[@]}"; do
		case ${J_KIND[i]} in summary | plots) ;; *) continue ;; esac
		{ [ "${J_STATE[i]}" = wait ] && needs_ended "$i"; } || continue
		[ "${#FREE[@]}" -ge "${J_MIN[i]}" ] || continue
		job_start "$i"; started=0
	done
	return "$started"
}

# cell_unbuilt I K: cell I cannot run, job K it needs failed.
cell_unbuilt() {
	J_STATE[$1]=ok
	[ "$simulate" -eq 1 ] || cell_failed_build "$1" "${J_WHY[$2]}"
}

while :; do
	while schedule; do :; done
	[ "$running" -gt 0 ] || break
	job_reap
done
for i in "${!J_ID[@]}"; do
	[ "${J_STATE[i]}" != wait ] || err_exit "$plan: job ${J_ID[i]} can never start: its NEEDS wait for each other" 2
done

if [ "$simulate" -eq 1 ]; then
	# The CPU work: each job's seconds on the CPUs it was planned for.
	work=0 builds=0 cellwork=0
	for i in "${!J_ID[@]}"; do
		w=$((J_SEC[i] * J_MAX[i]))
		[ "${J_MAX[i]}" -gt 0 ] || w=${J_SEC[i]}
		work=$((work + w))
		if is_build "$i"; then builds=$((builds + w)); fi
		if [ "${J_KIND[i]}" = cell ]; then cellwork=$((cellwork + w)); fi
	done
	printf '%d min wall: %d host CPUs%s; CPU work %d min: builds %d, cells %d (%s kinds timed by earlier runs, others %d.%dx wall per guest second)\n' \
		$(((now + 59) / 60)) "$budget" "$([ "${S[overlap]}" = yes ] && [ "$budget" -gt 1 ] && echo ', cells beside builds' || echo ', cells after builds')" \
		$(((work + 59) / 60)) $(((builds + 59) / 60)) $(((cellwork + 59) / 60)) \
		"${S[history_kinds]:-0}" $((${S[factor_x10]:-10} / 10)) $((${S[factor_x10]:-10} % 10))
	exit 0
fi
run_finish
