# SPDX-License-Identifier: GPL-2.0
# plan.sh - what a run is made of, as a file an executor runs (sourced by
# run-matrix.sh): the run's cells and kernels from its options, the checks
# that a resumed run is the same matrix, and the plan itself,
# results/<run>/plan, which bench/host/execute.sh runs (rcutorture's kvm.sh
# --dryrun script: the plan is data, not shell).
#
# The plan's lines, tab-separated:
#   set  KEY  VALUE                     a setting every job of the run shares
#   job  ID  NEEDS  CPUS  SECONDS  ARG...
# ID is KIND[:NAME] (packages, tools, sources, rtla, image, kernel:<name>, modules:<variant>,
# equivalence:<a>-vs-<b>, cell:<variant>/<workload>/<cell>, summary, plots);
# NEEDS the comma-separated IDs (shell patterns allowed) that must be done
# before it starts, "-" none; CPUS the host CPUs it runs on, "1-N" when it
# takes what is free up to N (make -j follows), 0 for a cell a lab host
# runs; SECONDS its expected wall time on CPUS (the estimate's, and the
# schedule simulation's); ARG the job's own fields (a kernel: variant and
# flavour; a cell: variant, workload, cell, repetition, passes).

# shellcheck shell=bash
# shellcheck disable=SC2154 # the settings: set by run-matrix.sh, which sources this

# Wall tenths of a second per guest second, cell_guest_seconds' setup and
# collection included. tcg-icount on a 2-core machine: the default matrix
# took a median 27 s wall for a repetition's 21 guest seconds and 86 s for
# a traced cell's 54: 1.5 over the matrix's mix (METHODOLOGY.md, "Measured
# figures").
plan_factor_x10() {
	case $1 in kvm) echo 20 ;; tcg-icount) echo 15 ;; *) echo 30 ;; esac
}

# Fixed stages' expected wall seconds (a kernel's: LOCKLAT_BUILD_*_SECONDS,
# scaled by plan_compile_speed), as DIR/logs/jobs has them on this machine:
# the packages installed, a built kernel found current (make -j1), the
# summary and plots of a default run; the tools built from scratch, the
# sources' extraction, rtla's build, the guest image, a variant's modules
# and the equivalence check as the two from-scratch runs of 2026-12-07 took
# them (METHODOLOGY.md, "From scratch"). A job that takes "1-N" CPUs and
# ran on one is given its seconds on two (execute.sh's speed-up: 1.35).
PLAN_SECONDS_PACKAGES=2 PLAN_SECONDS_TOOLS=23 PLAN_SECONDS_SOURCES=20 PLAN_SECONDS_RTLA=11 PLAN_SECONDS_IMAGE=7
PLAN_SECONDS_MODULES=7
PLAN_SECONDS_EQUIVALENCE=28 PLAN_SECONDS_BUILT_KERNEL=6 PLAN_SECONDS_SUMMARY=5 PLAN_SECONDS_PLOTS=10

# list_select RESULT_ARRAY WHAT VALUE KNOWN...: the comma list VALUE (or all
# of KNOWN for "all") into RESULT_ARRAY, each item checked. Runs in the
# caller's shell, so that a bad item stops the script.
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

# plan_select: variants and workloads from --variants and --workloads (an
# A/B run's variants come from its range: kernels/ab.sh, ab_dir). A pass
# that runs in a cell of its own (bench/passes/: cell=own) is selected as a
# workload is.
plan_select() {
	local all_workloads all_variants question
	mapfile -t all_workloads < <({ known_workloads; own_cell_passes; } | LC_ALL=C sort)
	if [ "$workloads_opt" = default ] && [ "${each_commit:-0}" -eq 1 ]; then
		# Each commit gets a latency pass per workload, not a modules cell.
		mapfile -t workloads < <(default_workloads | LC_ALL=C sort)
	elif [ "$workloads_opt" = default ]; then
		mapfile -t workloads < <({ default_workloads; own_cell_passes default; } | LC_ALL=C sort)
		[ "${#workloads[@]}" -gt 0 ] || err_exit "no workload says default=yes ($LOCKLAT_WORKLOADS_DIR)" 2
	else
		list_select workloads workloads "$workloads_opt" "${all_workloads[@]}"
	fi
	if [ -n "$ab" ]; then
		ab_check "$ab"
		question=${workloads[0]}
		[[ " ${workloads[*]} " != *" squashfs "* ]] || question=squashfs
		ab_prepare "$ab_dir" "$ab" "$question" "$([ "${each_commit:-0}" -eq 0 ] || echo each)"
		[ -n "$targets" ] || targets=$(paste -sd, "$ab_dir/targets")
		[ -n "$targets" ] || err_exit "--ab $ab: the range changes no function of a .c file: give --targets" 2
		export LOCKLAT_VARIANTS_DIR=$ab_dir/variants
		LOCKLAT_SERIES=$(cat "$ab_dir/series")
		export LOCKLAT_SERIES
	fi
	mapfile -t all_variants < <(known_variants)
	list_select variants variants "$variants_opt" "${all_variants[@]}"
	# "all": the matrix's variants (a variant file may say matrix=no).
	if [ "$variants_opt" = all ]; then mapfile -t variants < <(matrix_variants); fi
}

# plan_hosts: the accelerator, vCPUs, CPUs per cell and cells at once, from
# this host (qemu.sh --detect-accel) or from the lab's hosts' answers.
plan_hosts() {
	local usable line login state why
	if [ -n "$hosts" ]; then
		[ -z "$jobs" ] || err_exit "--hosts and --jobs exclude each other: each host's line says its cells at once (N/LOGIN)" 2
		lab_hosts_read "$hosts"
		progress matrix "asking ${#LAB_LOGIN[@]} host(s) of $hosts what they can run"
		lab_probe "$accel"
		accel=$LAB_ACCEL
	else
		usable=$("$LOCKLAT_ROOT/bench/host/qemu.sh" --detect-accel)
		[ "$accel" = auto ] && accel=$usable
		[ "$accel" != kvm ] || [ "$usable" = kvm ] ||
			err_exit "--accel kvm: this host cannot run KVM guests (no vmx/svm flag, or /dev/kvm not usable); use --accel tcg-icount" 2
	fi
	cpus=${cpus:-$(default_vcpus "$accel")}
	# CPUs each cell pins to: one TCG thread under tcg-icount, one per vCPU else.
	per_cell=$cpus
	[ "$accel" = tcg-icount ] && per_cell=1
	# Under tcg-icount a cell's figures are in its own instructions: a
	# build beside it changes its wall time, not its figures (METHODOLOGY.md,
	# "Cells beside builds"). Under kvm and tcg the guest's clock is the
	# host's, and a build beside a cell would be measured.
	[ -n "$overlap" ] || { overlap=no; [ "$accel" != tcg-icount ] || overlap=yes; }
	if [ -n "$hosts" ]; then
		lab_keep "$per_cell"
		for line in "${LAB_REPORT[@]}"; do
			IFS=$'\t' read -r login state why <<<"$line"
			[ "$login" != : ] || login=": (this machine)"
			if [ "$state" = kept ]; then progress matrix "host $login: $why"; else warn "host $login left out: $why"; fi
		done
		jobs=$(lab_slots)
		[ "$jobs" -gt 0 ] || err_exit "no host of $hosts can run cells (see above)" 1
		budget=$(nproc)
	else
		if [ -z "$jobs" ]; then
			jobs=1
			[ "$accel" = tcg-icount ] && jobs=$(nproc)
		fi
		[ $((jobs * per_cell)) -le "$(nproc)" ] ||
			err_exit "$jobs jobs x $per_cell host CPUs each > $(nproc) host CPUs to pin to (lower --jobs or --cpus)" 2
		budget=$((jobs * per_cell))
	fi
}

# plan_out_check: the output directory, or the nearest folder above it
# that exists, must take new files (checked without writing any).
plan_out_check() {
	local parent=$out
	while [ ! -e "$parent" ]; do parent=$(dirname -- "$parent"); done
	[ -d "$parent" ] || err_exit "--out: $parent is not a directory" 2
	if ! { [ -w "$parent" ] && [ -x "$parent" ]; }; then
		[ "$parent" != "$out" ] || err_exit "the output directory $out is not writable" 1
		err_exit "cannot create the output directory $out: $parent is not writable" 1
	fi
}

# matrix_settings: what defines this run's cells, recorded in DIR/matrix
# when it starts. A run resumed with other settings, other measurement code
# or other kernels would mix cells of two matrices in one summary.
matrix_settings() {
	printf '%s\n' "variants=$(printf '%s\n' "${variants[@]}" | sort | paste -sd' ')" \
		"workloads=$(printf '%s\n' "${workloads[@]}" | sort | paste -sd' ')" \
		"reps=$reps" "tasks_per_cpu=$tasks" "duration_s=$duration" "trace_duration_s=$trace_duration" "warmup_s=$warmup" \
		"accel=$accel" "cpus=$cpus" "code_sha256=$(measurement_sha256)" \
		"series=$LOCKLAT_SERIES" "targets=$targets"
	# Only when given: runs made before --config keep their record.
	[ -z "${LOCKLAT_BASE_CONFIG:-}" ] || printf 'base_config=%s\n' "$(base_config_key)"
}

# base_config_key: what names --config's base: a file's sha256, or the defconfig target.
base_config_key() {
	if [ -f "$LOCKLAT_BASE_CONFIG" ]; then
		printf '%s %s\n' "$(basename "$LOCKLAT_BASE_CONFIG")" "$(sha256_of "$LOCKLAT_BASE_CONFIG")"
	else
		printf '%s\n' "$LOCKLAT_BASE_CONFIG"
	fi
}

# matrix_kernels [VARIANT...]: "kernel.NAME=BZIMAGE_SHA256" for each built
# kernel of the variants (default: the run's), the kernels a cell boots.
matrix_kernels() {
	local v f m
	[ $# -gt 0 ] || set -- "${variants[@]}"
	for v in "$@"; do
		for f in $LOCKLAT_FLAVOURS; do
			m=$(kernel_dir "$v" "$f")/manifest
			[ -f "$m" ] && printf 'kernel.%s=%s\n' "$(kernel_name "$v" "$f")" "$(kv_get "$m" bzimage_sha256)"
		done
	done
	return 0
}

# plan_history: what earlier cells took, the median wall_seconds of complete
# cells under results/ with this accelerator, duration and warm-up, by
# "variant/workload/kind" (the kind: its passes joined by "+"), into
# history_seconds. Workloads and RT kernels differ by 2-4x, which one
# factor cannot say.
declare -A history_seconds=()
plan_history() {
	local key seconds
	# shellcheck disable=SC2016 # awk programs, expanded by awk
	while read -r key seconds; do
		history_seconds[$key]=$seconds
	done < <(find "$LOCKLAT_RESULTS" -name meta -type f -print0 2>/dev/null |
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

# cell_seconds VARIANT WORKLOAD CELL: the wall seconds a cell is expected to
# take: what earlier cells of its kind took, else its guest seconds
# (cell_guest_seconds) times the accelerator's factor.
cell_seconds() {
	local passes kind
	passes=$(cell_passes "$2" "$3")
	kind=${passes// /+}
	echo "${history_seconds[$1/$2/$kind]:-$(( $(cell_guest_seconds "$passes" "$duration" "$trace_duration" "$warmup") * $(plan_factor_x10 "$accel") / 10 ))}"
}

# plan_resume_check: a tree written by another result layout, another
# matrix or without the record of its settings is not mixed with this one's.
plan_resume_check() {
	local versions
	[ -d "$out" ] || return 0
	# shellcheck disable=SC2016 # an awk program, expanded by awk
	versions=$(cells_metas "$out" | xargs -0 -r awk -F= '$1 == "layout_version" { v[$2] = 1 } END { for (k in v) print k }' |
		sort -u | tr '\n' ' ')
	case " $versions" in
	" " | " $LOCKLAT_LAYOUT_VERSION ") ;;
	*) err_exit "$out holds cells of result layout ${versions% } (this locklat writes $LOCKLAT_LAYOUT_VERSION): choose another --out" 2 ;;
	esac
	if [ -f "$out/matrix" ]; then
		matrix_compare "$out" "$(matrix_settings; matrix_kernels)"
	elif [ -n "$(cells_metas "$out" | head -c 1)" ]; then
		err_exit "$out holds cells but no record of the settings they were made with (DIR/matrix): choose another --out" 2
	fi
}

# plan_order: the cells, "variant workload cell" each, into cells, in the
# order they run: shuffled from a recorded seed, so that a drift of the host
# or the harness over the run is spread over every variant instead of
# falling on whichever ran last. DIR/order keeps the seed and the order; a
# resumed run follows it.
plan_order() {
	local v w c recorded ordered
	cells=()
	for v in "${variants[@]}"; do
		for w in "${workloads[@]}"; do
			for c in $(workload_cells "$w" "$reps"); do cells+=("$v $w $c"); done
		done
	done
	if [ -f "$out/order" ]; then
		recorded=$(sed -n 's/^# seed=//p' "$out/order")
		[ -z "$seed" ] || [ "$seed" = "$recorded" ] ||
			err_exit "$out was ordered with seed $recorded, not $seed: resume without --seed or choose another --out" 2
		seed=$recorded
		mapfile -t ordered < <(grep -v '^#' "$out/order")
		[ "$(printf '%s\n' "${ordered[@]}" | sort)" = "$(printf '%s\n' "${cells[@]}" | sort)" ] ||
			err_exit "$out holds another matrix (its order file lists other cells): resume it with the options it was started with, or choose another --out" 2
		cells=("${ordered[@]}")
	else
		seed=${seed:-$((RANDOM * 32768 + RANDOM + 1))}
		# awk's rand() from the seed gives each cell a key; the order file,
		# not the seed, is what a resumed run reads.
		mapfile -t cells < <(printf '%s\n' "${cells[@]}" |
			awk -v seed="$seed" 'BEGIN { srand(seed) } { printf "%.12f\t%s\n", rand(), $0 }' |
			sort -k1,1 | cut -f2-)
		plan_tail_longest_first
	fi
}

# plan_tail_longest_first: the last 2 x jobs cells of the order, longest
# first (cell_seconds; ties keep the shuffle), so that the run does not end
# on one long cell while the other CPUs idle; the drift the shuffle spreads
# is not worth that tail. The order file records the result: it stays the
# order the cells run in.
plan_tail_longest_first() {
	local n=${#cells[@]} k=$((2 * jobs)) c v w cell
	local -a tail
	[ "$k" -lt "$n" ] || k=$n
	mapfile -t tail < <(for c in "${cells[@]:n-k}"; do
		read -r v w cell <<<"$c"
		printf '%s\t%s\n' "$(cell_seconds "$v" "$w" "$cell")" "$c"
	done | sort -s -t$'\t' -k1,1nr | cut -f2-)
	cells=("${cells[@]:0:n-k}" "${tail[@]}")
}

# plan_job ID NEEDS CPUS SECONDS ARG...: one job line.
plan_job() {
	local IFS=$'\t'
	printf 'job\t%s\n' "$*"
}

# plan_compile_speed: what a cold and a shared kernel build take on this
# host today, into build_cold_s and build_shared_s: LOCKLAT_BUILD_*_SECONDS
# scaled by the compile probe's reading (compile_ms) against the one taken
# beside them. LOCKLAT_COMPILE_MS gives the reading instead (a test, or a
# host that knows its own). A probe that cannot compile (a fresh machine
# before its packages job) leaves them unscaled and compile_ms "none".
compile_ms='' build_cold_s=$LOCKLAT_BUILD_COLD_SECONDS build_shared_s=$LOCKLAT_BUILD_SHARED_SECONDS
plan_compile_speed() {
	[ -z "$compile_ms" ] || return 0
	compile_ms=${LOCKLAT_COMPILE_MS:-}
	if [ -n "$compile_ms" ]; then
		case $compile_ms in
		*[!0-9]* | 0*) err_exit "LOCKLAT_COMPILE_MS wants a positive whole number of milliseconds, got '$compile_ms'" 2 ;;
		esac
	else
		compile_ms=$("$LOCKLAT_ROOT/kernels/compile-probe.sh" 2>/dev/null) || compile_ms=none
	fi
	[ "$compile_ms" != none ] || return 0
	build_cold_s=$(( (LOCKLAT_BUILD_COLD_SECONDS * compile_ms + LOCKLAT_BUILD_PROBE_MS / 2) / LOCKLAT_BUILD_PROBE_MS ))
	build_shared_s=$(( (LOCKLAT_BUILD_SHARED_SECONDS * compile_ms + LOCKLAT_BUILD_PROBE_MS / 2) / LOCKLAT_BUILD_PROBE_MS ))
}

# plan_kernel_jobs: a job per kernel of the run's variants. The first kernel
# of a configuration compiles every object; a later one with the same
# configuration waits for it and gets from ccache every object its patches
# do not reach (kernels/build.sh).
plan_kernel_jobs() {
	local v f k cfg seconds needs state
	local -A first_of=()
	for v in "${variants[@]}"; do
		for f in $LOCKLAT_FLAVOURS; do
			k=$(kernel_name "$v" "$f")
			cfg=$(kv_get "$LOCKLAT_VARIANTS_DIR/$v" configs)
			cfg="$cfg $f"
			needs=sources seconds=$PLAN_SECONDS_BUILT_KERNEL state=built
			if [ ! -f "$(kernel_dir "$v" "$f")/manifest" ]; then
				plan_compile_speed
				seconds=$build_cold_s state=cold
				if [ -n "${first_of[$cfg]:-}" ]; then
					needs=sources,kernel:${first_of[$cfg]} seconds=$build_shared_s state=shared
				fi
			fi
			first_of[$cfg]=${first_of[$cfg]:-$k}
			plan_job "kernel:$k" "$needs" "1-$budget" "$seconds" "$v" "$f" "$state"
		done
	done
}

# plan_write: the plan, on stdout.
plan_write() {
	local v w c a b r passes needs need cell_cpus=$per_cell s builds
	printf '# locklat plan (bench/host/plan.sh): run by bench/host/execute.sh\n'
	printf 'set\t%s\t%s\n' out "$out" accel "$accel" vcpus "$cpus" per_cell "$per_cell" budget "$budget" \
		jobs "$jobs" overlap "$overlap" tasks "$tasks" duration "$duration" trace_duration "$trace_duration" \
		warmup "$warmup" targets "${targets:--}" hosts "${hosts:--}" seed "$seed" reps "$reps" \
		variants "${variants[*]}" workloads "${workloads[*]}" series "$LOCKLAT_SERIES" \
		variants_dir "$(if [ -n "$ab" ]; then echo "$out/ab/variants"; else echo "$LOCKLAT_VARIANTS_DIR"; fi)" factor_x10 "$(plan_factor_x10 "$accel")" \
		history_kinds "${#history_seconds[@]}"
	plan_job packages - 1 "$PLAN_SECONDS_PACKAGES"
	plan_job tools packages "1-$budget" "$PLAN_SECONDS_TOOLS"
	# Debian's pristine tree (kernels/build.sh --sources), which each
	# kernel's tree links, beside the tools, one CPU each (the executor
	# leaves a build its least CPUs when another job can start beside it):
	# the extraction, xz and tar in a pipe, takes 45 s there against 31 on
	# both CPUs after the tools, and the first kernel starts no later. Then
	# rtla from it (--rtla), on one CPU, beside the first kernel: the guest
	# image packs it.
	s=$PLAN_SECONDS_SOURCES
	[ ! -f "$LOCKLAT_BUILD/src/pristine/Makefile" ] || s=$PLAN_SECONDS_BUILT_KERNEL
	plan_job sources packages "1-$budget" "$s"
	s=$PLAN_SECONDS_RTLA
	[ ! -x "$LOCKLAT_BUILD/rtla/rtla" ] || s=$PLAN_SECONDS_BUILT_KERNEL
	plan_job rtla sources 1 "$s"
	plan_job image tools,rtla 1 "$PLAN_SECONDS_IMAGE"
	plan_kernel_jobs
	# What the passes build per variant beyond its kernels (a pass file's
	# needs=: the modules, against the plain kernel).
	builds=$(for w in "${workloads[@]}"; do pass_needs "$(cell_passes "$w" rep1)"; done | sort -u)
	for need in $builds; do
		for v in "${variants[@]}"; do
			plan_job "$need:$v" "kernel:$v" 1 "$PLAN_SECONDS_MODULES" "$v"
		done
	done
	# Each pair of the run's variants that differs by the series alone
	# (verify-equivalence.sh --pairs), compared object by object into
	# DIR/equivalence/A-vs-B.txt; done once.
	while read -r a b; do
		[[ " ${variants[*]} " == *" $a "* && " ${variants[*]} " == *" $b "* ]] || continue
		[ -s "$out/equivalence/$a-vs-$b.txt" ] && continue
		plan_job "equivalence:$a-vs-$b" "kernel:$a,kernel:$b" "1-$budget" "$PLAN_SECONDS_EQUIVALENCE" "$a" "$b"
	done < <("$LOCKLAT_ROOT/kernels/verify-equivalence.sh" --pairs)
	[ -z "$hosts" ] || cell_cpus=0
	for c in "${cells[@]}"; do
		read -r v w c <<<"$c"
		passes=$(cell_passes "$w" "$c")
		r=1
		[[ $c != rep* ]] || r=${c#rep}
		needs=kernel:$(kernel_name "$v" "$(passes_flavour "$passes")"),image
		for need in $(pass_needs "$passes"); do needs=$needs,$need:$v; done
		s=0
		cell_done "$(cell_dir "$out" "$v" "$w" "$c")" || s=$(cell_seconds "$v" "$w" "$c")
		plan_job "cell:$v/$w/$c" "$needs" "$cell_cpus" "$s" "$v" "$w" "$c" "$r" "$passes"
	done
	plan_job summary 'cell:*,equivalence:*' 1 "$PLAN_SECONDS_SUMMARY"
	plan_job plots summary 1 "$PLAN_SECONDS_PLOTS"
}

# plan_kernels PLAN STATE: the kernels of PLAN that are built, cold (every
# object to compile) or shared (from ccache), on one line.
plan_kernels() {
	awk -F'\t' -v s="$2" '$1 == "job" && $2 ~ /^kernel:/ && $8 == s { print substr($2, 8) }' "$1" | paste -sd' '
}

# plan_describe_compile: the kernel seconds the estimate took and where
# from, when the run builds a kernel.
plan_describe_compile() {
	case $compile_ms in
	'') ;;
	none) printf '  compile:     not probed (gcc could not compile): a cold kernel %d s, a shared one %d s (make -j2), as measured\n' \
		"$build_cold_s" "$build_shared_s" ;;
	*) printf '  compile:     %d ms a probe compile (%d ms when the kernel seconds were measured): a cold kernel %d s, a shared one %d s (make -j2)\n' \
		"$compile_ms" "$LOCKLAT_BUILD_PROBE_MS" "$build_cold_s" "$build_shared_s" ;;
	esac
}

# plan_describe PLAN ESTIMATE: what a person reads before the run starts.
# ESTIMATE: execute.sh --simulate's line.
plan_describe() {
	local plan=$1 estimate=$2 kept to_run built cold shared traced_cell='' passes="the latency pass alone (no traced kernels)"
	if traced_kernels; then
		traced_cell=", plus one cell with all passes on the traced kernel"
		passes="the traced cell's: $(traced_cell_passes)"
	fi
	kept=$(awk -F'\t' '$1 == "job" && $2 ~ /^cell:/ && $5 == 0' "$plan" | wc -l)
	to_run=$((${#cells[@]} - kept))
	built=$(plan_kernels "$plan" built) cold=$(plan_kernels "$plan" cold) shared=$(plan_kernels "$plan" shared)
	cat <<EOF
locklat plan
  variants:    ${variants[*]}
  workloads:   ${workloads[*]}
  repetitions: $reps latency passes on each plain kernel$traced_cell
  passes:      $passes
  pass:        ${duration} s guest time after ${warmup} s warm-up; $cpus vCPUs, $tasks workload tasks on each; accel $accel; $jobs cell(s) at once
  cells:       ${#cells[@]} in $out: $to_run to run, $kept complete and kept; shuffled, seed $seed
  kernels:     built and kept: ${built:-none}
               to build, every object: ${cold:-none}
               to build, a built configuration's objects from ccache: ${shared:-none}
EOF
	plan_describe_compile
	printf '  estimated:   %s\n' "$estimate"
	[ -z "${LOCKLAT_BASE_CONFIG:-}" ] || printf '  config:      %s, with locklat'"'"'s fragments merged onto it\n' "$LOCKLAT_BASE_CONFIG"
	if [ -n "$ab" ]; then
		[ "$(cat "$ab_dir/models")" != preempt ] ||
			printf '  models:      CONFIG_PREEMPT only: the tree has no PREEMPT_RT at the base\n'
		printf '  change:      %s\n' "$ab"
		printf '  changes:     %s\n' "$(awk '{ print $2 " (" $1 ")" }' "$ab_dir/functions" | paste -sd, | sed 's/,/, /g')"
		ab_reach "$ab_dir" "${workloads[@]}" | sed '1s/^/  reach:       /; 2,$s/^/               /'
	fi
	if [ -n "$hosts" ]; then
		local line login state why
		for line in "${LAB_REPORT[@]}"; do
			IFS=$'\t' read -r login state why <<<"$line"
			printf '  host:        %s: %s (%s)\n' "$login" "$state" "$why"
		done
	fi
}

# plan_commit PLAN: the run's folder made, checked for room, locked (fd 8,
# which the executor inherits) and given what defines the run: DIR/matrix
# (its settings; its kernels are added as they are built), DIR/order, an
# A/B run's DIR/ab/, a lab's DIR/hosts, and the plan, DIR/plan.
plan_commit() {
	local plan=$1 probe slots=$jobs to_run
	mkdir -p -- "$out" 2>/dev/null || err_exit "cannot create the output directory $out" 1
	probe=$(mktemp -p "$out" .write-probe.XXXXXX 2>/dev/null) || err_exit "the output directory $out is not writable" 1
	rm -f -- "$probe"
	[ -z "$hosts" ] || slots=$(lab_local_slots)
	to_run=$(awk -F'\t' '$1 == "job" && $2 ~ /^cell:/ && $5 > 0' "$plan" | wc -l)
	require_disk_space "$out" $((slots * (LOCKLAT_RESULTS_DISK_MIB + LOCKLAT_SCRATCH_DISK_MIB) + to_run * LOCKLAT_CELL_SPACE_MIB))
	exec 8>"$out/.lock"
	flock -n 8 || err_exit "another run-matrix.sh is running on $out" 1
	if [ -n "$ab" ]; then
		if [ ! -d "$out/ab" ]; then
			cp -r "$ab_dir" "$out/ab.tmp"
			mv "$out/ab.tmp" "$out/ab"
		elif ! diff -r "$ab_dir" "$out/ab" >/dev/null; then
			err_exit "$out was started with another --ab (see $out/ab/): choose another --out" 2
		fi
	fi
	if [ ! -f "$out/matrix" ]; then
		matrix_settings >"$out/matrix.tmp"
		mv "$out/matrix.tmp" "$out/matrix"
	fi
	if [ ! -f "$out/order" ]; then
		{ echo "# seed=$seed"; printf '%s\n' "${cells[@]}"; } >"$out/order.tmp"
		mv "$out/order.tmp" "$out/order"
	fi
	if [ -n "$hosts" ]; then
		printf '%s\n' "${LAB_REPORT[@]}" >"$out/hosts"
		printf '%s\n' "${LAB_KEPT[@]}" >"$out/hosts.kept"
	fi
	cp "$plan" "$out/plan.tmp"
	mv "$out/plan.tmp" "$out/plan"
}
