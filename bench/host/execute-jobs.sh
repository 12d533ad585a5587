# SPDX-License-Identifier: GPL-2.0
# execute-jobs.sh - what each kind of a plan's jobs runs, and what its end
# means for the run (sourced by bench/host/execute.sh; its --simulate
# replaces these with a clock).
#
# Every job runs under locklat-guard (bench/host/guard): in a process group
# of its own that is killed whole when the executor dies, even by SIGKILL,
# so no apt-get, compiler or QEMU outlives the run; the guard is started
# directly (a function run with & would put a subshell between the
# executor and the guard) and reports the job's CPU time.

# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034 # S, J_*, HOST_*, out, plan: execute.sh's; J_WHY, LAB_*: read there and by lab.sh

export LOCKLAT_VARIANTS_DIR=${S[variants_dir]:-$LOCKLAT_VARIANTS_DIR} LOCKLAT_SERIES=${S[series]:-$LOCKLAT_SERIES}
mkdir -p -- "$out/logs" 2>/dev/null || err_exit "cannot create the output directory $out" 1
# The output lock: held by run-matrix.sh, whose fd 8 this inherits, or taken here.
{ true >&8; } 2>/dev/null || exec 8>>"$out/.lock"
flock -n 8 || err_exit "another run-matrix.sh is running on $out" 1
guard=$LOCKLAT_ROOT/build/bin/locklat-guard
# The guard needs gcc and make alone: built before the packages job, which
# it guards too.
make -s -C "$LOCKLAT_ROOT" build/bin/locklat-guard >/dev/null ||
	err_exit "cannot build $guard (gcc and make are needed)" 1
jobs_dir=$out/.jobs
rm -rf "$jobs_dir"
mkdir -p "$jobs_dir"
# What a finished job took stays; complete cells are kept.
trap 'warn "interrupted: complete cells are kept; run again with --out $out to resume"; exit 130' INT TERM
initramfs=''
t_start=$SECONDS

# The cells in plan order: their numbers in progress lines; a complete one
# is kept.
CELLS=()
for i in "${!J_ID[@]}"; do
	[ "${J_KIND[i]}" = cell ] && CELLS+=("$i")
done
declare -A cell_number=()
for k in "${!CELLS[@]}"; do
	i=${CELLS[k]}
	cell_number[$i]=$((k + 1))
	IFS=$'\t' read -r v w c _ <<<"${J_ARGS[i]}"
	d=$(cell_dir "$out" "$v" "$w" "$c")
	if cell_done "$d"; then
		J_STATE[i]=ok
		progress matrix "cell $((k + 1))/${#CELLS[@]} $v/$w/$c: kept ($(kv_get "$d/meta" status))"
	fi
done

# CELL_ARGS: run-cell.sh's options every cell of the run shares (the
# plan's settings), for a local cell and a lab's alike.
CELL_ARGS=(--tasks "${S[tasks]}" --duration "${S[duration]}" --trace-duration "${S[trace_duration]}"
	--warmup "${S[warmup]}" --accel "${S[accel]}" --cpus "${S[vcpus]}")
[ "${S[per_cell]}" -ge "${S[vcpus]}" ] || CELL_ARGS+=(--allow-overcommit)
[ "${S[targets]}" = - ] || CELL_ARGS+=(--targets "${S[targets]}")

# job_launch I N: job I on its N CPUs (J_PIN), in the background.
job_launch() {
	local i=$1 n=$2 pin=${J_PIN[$1]:-} ru log f a b v w c r passes eta=0 k where
	ru=$jobs_dir/${J_ID[i]//[\/:]/_}.rusage
	J_START[i]=$SECONDS
	IFS=$'\t' read -r a b c r passes <<<"${J_ARGS[i]}"
	case ${J_KIND[i]} in
	packages) "$guard" --rusage "$ru" -- "$LOCKLAT_ROOT/tools/install-deps.sh" & ;;
	tools)
		progress matrix "building tools"
		"$guard" --rusage "$ru" -- taskset -c "$pin" make -s -j "$n" -C "$LOCKLAT_ROOT" tools >/dev/null & ;;
	sources) "$guard" --rusage "$ru" -- taskset -c "$pin" "$LOCKLAT_ROOT/kernels/build.sh" -j "$n" --sources & ;;
	rtla) "$guard" --rusage "$ru" -- taskset -c "$pin" "$LOCKLAT_ROOT/kernels/build.sh" -j "$n" --rtla & ;;
	image) "$guard" --rusage "$ru" -- taskset -c "$pin" "$LOCKLAT_ROOT/bench/guest/mkinitramfs.sh" >"$jobs_dir/image.out" & ;;
	kernel)
		progress matrix "kernel $(kernel_name "$a" "$b") on CPU $pin"
		# As many make jobs as CPUs: one more (-j2 pinned to one CPU), to fill
		# what a -j1 build leaves idle, compiled 206 objects in its first two
		# minutes against 291.
		"$guard" --rusage "$ru" -- taskset -c "$pin" "$LOCKLAT_ROOT/kernels/build.sh" -j "$n" --no-rtla \
			--flavour "$b" "$a" & ;;
	modules) "$guard" --rusage "$ru" -- taskset -c "$pin" "$LOCKLAT_ROOT/kernels/modules/build.sh" "$a" & ;;
	equivalence)
		mkdir -p "$out/equivalence"
		progress matrix "binary equivalence: $a vs $b"
		"$guard" --rusage "$ru" -- taskset -c "$pin" "$LOCKLAT_ROOT/kernels/verify-equivalence.sh" "$a" "$b" \
			>"$out/equivalence/$a-vs-$b.txt.tmp" & ;;
	cell)
		v=$a w=$b
		f=$(cell_dir "$out" "$v" "$w" "$c")
		rm -rf -- "$f"
		log=$out/logs/$v-$w-$c.log
		for k in "${CELLS[@]}"; do
			[ "${J_STATE[k]}" != wait ] || eta=$((eta + J_SEC[k]))
		done
		where="CPU $pin"
		[ -z "${J_HOST[i]:-}" ] || where=${HOST_LOGIN[J_HOST[i]]}
		progress matrix "cell ${cell_number[$i]}/${#CELLS[@]} $v/$w/$c on $where ($passes); ETA ~$(( (eta / S[jobs] + 59) / 60 )) min after it"
		if [ -n "${J_HOST[i]:-}" ]; then
			# A lab cell: the slot its host was given (bench/host/lab.sh).
			lab_ready
			lab_cell_run "$out" "$i" "${HOST_LOGIN[J_HOST[i]]}" "$ru" "${S[per_cell]}" "$LAB_CODE" \
				"$v" "$w" "$c" "$r" "$passes" "${CELL_ARGS[@]}" --initramfs "$LAB_INITRAMFS" &
			pid_job[$!]=$i
			return 0
		fi
		"$guard" --rusage "$ru" -- "$LOCKLAT_ROOT/bench/host/run-cell.sh" --variant "$v" --workload "$w" --rep "$r" \
			--passes "$passes" "${CELL_ARGS[@]}" --pin "$pin" --initramfs "$initramfs" --out "$f" \
			>"$log" 2>&1 8>&- & ;;
	summary)
		# results/latest: the newest run, for make summary/plots without RUN=.
		case $(realpath "$out") in
		"$(realpath "$LOCKLAT_ROOT/results")"/*)
			ln -sfn "$(realpath --relative-to="$LOCKLAT_ROOT/results" "$out")" "$LOCKLAT_ROOT/results/latest" ;;
		esac
		"$guard" --rusage "$ru" -- taskset -c "$pin" "$LOCKLAT_ROOT/bench/report/report.sh" summary "$out" & ;;
	plots) "$guard" --rusage "$ru" -- taskset -c "$pin" "$LOCKLAT_ROOT/bench/report/report.sh" plots "$out" & ;;
	*) err_exit "$plan: job ${J_ID[i]}: no such kind of job" 2 ;;
	esac
	pid_job[$!]=$i
}

# job_reap: wait for a job to end, say what it means, account for it.
job_reap() {
	local pid='' st=0 i
	wait -n -p pid || st=$?
	[ -n "$pid" ] && [ -n "${pid_job[$pid]:-}" ] || return 0
	i=${pid_job[$pid]}
	unset "pid_job[$pid]"
	job_account "$i" "$st"
	job_outcome "$i" "$st" || {
		[ $? -ne 2 ] || { job_requeue "$i"; return 0; }
		st=1
	}
	job_ended "$i" "$st"
}

# job_account I STATUS: a line of DIR/logs/jobs: ID, exit status, wall,
# user and system seconds, CPUs, start second (of the executor's clock).
job_account() {
	local i=$1 ru user=- sys=- where
	ru=$jobs_dir/${J_ID[i]//[\/:]/_}.rusage
	[ ! -s "$ru" ] || read -r user sys <"$ru"
	# Where it ran: its CPUs, or a lab cell's host.
	where=${J_PIN[i]:-}
	[ -n "$where" ] || [ -z "${J_HOST[$i]:-}" ] || where=${HOST_LOGIN[${J_HOST[$i]}]}
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${J_ID[i]}" "$2" $((SECONDS - J_START[i])) "$user" "$sys" "$where" \
		$((J_START[i] - t_start)) >>"$out/logs/jobs"
}

# job_outcome I STATUS: what job I's end means; status 1 if it failed, 2
# if it is to run again (a lab cell that did not come back). The run's own
# stages stop it; a kernel or modules that did not build make their cells
# INFRA (J_WHY says why); a cell's status is in its meta.
job_outcome() {
	local i=$1 st=$2 a b f line
	IFS=$'\t' read -r a b _ <<<"${J_ARGS[i]}"
	case ${J_KIND[i]} in
	packages | tools | sources | rtla | image | summary | plots)
		[ "$st" -eq 0 ] || err_exit "the ${J_KIND[i]} stage failed (exit $st)" 1
		[ "${J_KIND[i]}" != image ] || initramfs=$(tail -n 1 "$jobs_dir/image.out") ;;
	kernel)
		f=$(kernel_dir "$a" "$b")
		if [ "$st" -ne 0 ]; then
			J_WHY[i]="kernel build failed: $f/build.log"
			warn "kernel $(kernel_name "$a" "$b") failed to build: its cells are marked INFRA (log: $f/build.log)"
			return 1
		fi
		# A kernel that a resumed run rebuilt (another patch or fragment)
		# is refused before any of its cells runs; the first run records it.
		line=kernel.$(kernel_name "$a" "$b")=$(kv_get "$f/manifest" bzimage_sha256)
		matrix_compare "$out" "$line"
		grep -qxF -- "$line" "$out/matrix" || printf '%s\n' "$line" >>"$out/matrix" ;;
	modules)
		[ "$st" -eq 0 ] && return 0
		J_WHY[i]="module build failed: $LOCKLAT_BUILD/modules/$a/"
		warn "modules for $a failed to build: its modules cell is marked INFRA"
		return 1 ;;
	equivalence)
		f=$out/equivalence/$a-vs-$b.txt
		if [ "$st" -eq 0 ]; then
			# Its findings, not its progress lines ("[m:ss equivalence] ...").
			grep -v '^\[[0-9]*:[0-9]* ' "$f.tmp" >"$f" || true
			rm -f "$f.tmp"
			return 0
		fi
		rm -f "$f.tmp"
		warn "verify-equivalence.sh $a $b failed: the summary says it was not checked"
		return 1 ;;
	cell)
		if [ -n "${J_HOST[i]:-}" ]; then
			lab_cell_take "$out" "$i" && return 0
			# Not back whole: again on another host, three tries in all,
			# then INFRA (redone when the run is resumed).
			J_TRIES[i]=$(( ${J_TRIES[i]:-0} + 1 ))
			[ "${J_TRIES[i]}" -lt 3 ] && return 2
			cell_failed_build "$i" "no lab host ran it, three tries ($out/logs/lab-joblog)"
			return 0
		fi
		IFS=$'\t' read -r a b f _ <<<"${J_ARGS[i]}"
		progress matrix "$(tail -n 1 "$out/logs/$a-$b-$f.log")" ;;
	esac
	return 0
}

# cell_failed_build I REASON: cell I written complete, INFRA, saying what
# did not build (or that no lab host ran it).
cell_failed_build() {
	local v w c r dir
	IFS=$'\t' read -r v w c r _ <<<"${J_ARGS[$1]}"
	dir=$(cell_dir "$out" "$v" "$w" "$c")
	rm -rf "$dir" "$dir.partial"
	mkdir -p "$dir.partial"
	kv_write "$dir.partial/meta" layout_version "$LOCKLAT_LAYOUT_VERSION" status INFRA \
		reason "$2" variant "$v" workload "$w" rep "$r" accel "${S[accel]}" complete 1
	mv "$dir.partial" "$dir"
}

# lab_ready: once, before a lab's first cell: the bundle every host is
# sent (its kernels, the guest image, the modules where a cell needs them)
# and the dispatch's folders (bench/host/lab.sh).
LAB_READY=0
lab_ready() {
	local i modules=0 passes
	local -a variants_run
	[ "$LAB_READY" -eq 0 ] || return 0
	read -r -a variants_run <<<"${S[variants]}"
	read -r -a LAB_WORKLOADS <<<"${S[workloads]}"
	for i in "${CELLS[@]}"; do
		IFS=$'\t' read -r _ _ _ _ passes <<<"${J_ARGS[i]}"
		[ -z "$(pass_needs "$passes")" ] || modules=1
	done
	LAB_CODE=$(kv_get "$out/matrix" code_sha256)
	# The hosts kept, as the plan found them ("N/LOGIN" each).
	mapfile -t LAB_KEPT <"$out/hosts.kept"
	rm -rf "$out/.lab"
	mkdir -p "$out/.lab"
	progress matrix "the bundle each host is sent"
	lab_bundle "$out" "$initramfs" "$modules" "$LAB_CODE" "${variants_run[@]}"
	lab_start "$out"
	progress matrix "cells to ${S[jobs]} slot(s) on ${#HOST_LOGIN[@]} host(s)"
	LAB_READY=1
}

# run_finish: the last lines: the cells, and the CPU each kind of job took
# (user/sys seconds, from DIR/logs/jobs).
run_finish() {
	[ "$LAB_READY" -eq 0 ] || lab_finish "$out"
	progress matrix "${#CELLS[@]} cells done in $(( (SECONDS - t_start) / 60 )) min"
	# shellcheck disable=SC2016 # an awk program, expanded by awk
	progress matrix "CPU, user/sys s: $(jobs_by_kind "$out/logs/jobs" | awk '
		{ printf "%s %d/%d, ", $1, $3, $4; u += $3; s += $4 } END { printf "all %d/%d", u, s }') ($out/logs/jobs)"
	rm -rf "$jobs_dir"
	# The short form (render-glance.c), then where the rest is.
	[ ! -s "$out/summary.txt" ] || cat "$out/summary.txt"
	[ ! -s "$out/commits.md" ] || cat "$out/commits.md"
	progress matrix "summary: $out/summary.md"
	# The gate: an expectation of kernels/comparisons that the run
	# contradicts (a "not ok" of verdicts.tap, a stratum's too) fails it.
	local contradicted
	contradicted=$(cat "$out/verdicts.tap" "$out"/by-host/*/verdicts.tap 2>/dev/null | grep '^not ok' || true)
	# A build that failed left its cells INFRA: the run finished, but it is
	# not the run that was asked for, and a CI must not read it as a pass.
	# A cell's own outcome (FINDINGS, TIMEOUT, INVALID: run-cell.sh's exit)
	# is a result, which the summary reports and kernels/comparisons
	# judges; only a cell that a resumed run would redo (cell_done: INFRA,
	# or not written) leaves the run short.
	local i v w c failed=()
	for i in "${!J_ID[@]}"; do
		[ "${J_STATE[i]}" = fail ] || continue
		if [ "${J_KIND[i]}" = cell ]; then
			IFS=$'\t' read -r v w c _ <<<"${J_ARGS[i]}"
			cell_done "$(cell_dir "$out" "$v" "$w" "$c")" && continue
		fi
		failed+=("${J_ID[i]}")
	done
	[ ${#failed[@]} -eq 0 ] || warn "${#failed[@]} job(s) failed, their cells INFRA: ${failed[*]}"
	if [ -n "$contradicted" ]; then
		warn "$(wc -l <<<"$contradicted") expectation(s) of kernels/comparisons contradicted: $(head -n 3 <<<"$contradicted" |
			sed 's/^not ok [0-9]* - //' | paste -sd';')"
		exit 1
	fi
	[ ${#failed[@]} -eq 0 ] || exit 1
}
