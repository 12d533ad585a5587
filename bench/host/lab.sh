# SPDX-License-Identifier: GPL-2.0
# lab.sh - run-matrix.sh --hosts FILE: the cells of a run on several hosts,
# carried by GNU parallel over ssh (sourced by run-matrix.sh and
# bench/host/execute.sh). Kernels, tools and the guest image are built once,
# here; the executor, whose one scheduler gives each cell a free slot of a
# host as it gives a local cell its CPUs, starts each on its host
# (lab_cell_run: parallel -S, the bundle sent by --basefile, which rsync
# finds current after a host's first cell); each cell comes back
# (--return) into the run's tree as a local cell is written there.
#
# FILE is GNU parallel's --sshloginfile: one host per line, "[N/]LOGIN" with
# LOGIN "[user@]host", an ssh command and its host ("ssh -p 2222 user@host"),
# or ":" for this machine; N the cells it runs at once (default: as a local
# run would choose there: one per host CPU under tcg-icount, else one); "#"
# starts a comment. ssh runs as PARALLEL_SSH says (default: ssh in batch
# mode, so that a host asking for a password is refused, not waited for,
# with keep-alives); a LOGIN with its own ssh command runs that command as
# it is.
#
# While a run is dispatched, under DIR/.lab/ (a dot folder, which the
# summary does not read; removed when the cells are in):
#   sshlogins               the hosts kept, "N/LOGIN"
#   jobs/<ID>.{cell,out,err,joblog}  a cell's launch: "variant workload cell rep
#                           passes" (tab-separated), lab-cell.sh's line, parallel's
#                           complaints and job log (appended to DIR/logs/lab-joblog)
#   W/bundle/               what each host is sent: the tree, build/bin, the run's
#                           kernels and modules, the guest image, setup images
#   W/incoming/<v>/<w>/<c>  a cell as it comes back (":" writes it there directly)
#   W/logs/<v>-<w>-<c>.log  its run-cell.sh log
# W is .locklat-lab/<run key>: on a remote host the same folder under its
# user's home, removed at the end too.

# shellcheck shell=bash
# shellcheck source=workloads/workloads.sh
. "$LOCKLAT_ROOT/workloads/workloads.sh"

LAB_LOGIN=() LAB_SLOTS=() LAB_KEPT=() LAB_REPORT=() LAB_WORKLOADS=() LAB_ACCEL='' LAB_ERR=''
LAB_INITRAMFS='' LAB_W='' LAB_REVISION=''
declare -A LAB_ANSWER=()

# lab_hosts_read FILE: FILE's hosts into LAB_LOGIN and LAB_SLOTS (N, or
# empty for the default); a line it cannot take stops with FILE:LINE.
lab_hosts_read() {
	local file=$1 line n=0 slots login i
	{ [ -f "$file" ] && [ -r "$file" ]; } || err_exit "--hosts: cannot read $file" 2
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		line=$(printf '%s' "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		[ -n "$line" ] || continue
		slots=''
		if [[ $line =~ ^([0-9]+)/(.+)$ ]]; then
			slots=$((10#${BASH_REMATCH[1]})) login=${BASH_REMATCH[2]}
			[ "$slots" -ge 1 ] || err_exit "$file:$n: N/LOGIN wants N of 1 or more, got '$line'" 2
		elif [[ $line == */* ]] && [[ $line != *' '* ]]; then
			err_exit "$file:$n: want [N/]LOGIN (N the cells at once), got '$line'" 2
		else
			login=$line
		fi
		[[ $login != *$'\t'* ]] || err_exit "$file:$n: a tab in '$login'" 2
		for i in "${LAB_LOGIN[@]}"; do
			[ "$i" != "$login" ] || err_exit "$file:$n: $login is listed twice" 2
		done
		LAB_LOGIN+=("$login") LAB_SLOTS+=("$slots")
	done <"$file"
	[ ${#LAB_LOGIN[@]} -gt 0 ] || err_exit "--hosts: $file lists no host" 2
	command -v parallel >/dev/null || err_exit "--hosts needs GNU parallel here: run tools/install-deps.sh" 2
	command -v rsync >/dev/null || err_exit "--hosts needs rsync here: run tools/install-deps.sh" 2
	# A host that stops answering mid-cell is found in two minutes (its job
	# then fails and parallel retries it elsewhere), not never.
	export PARALLEL_SSH=${PARALLEL_SSH:-ssh -o BatchMode=yes -o ConnectTimeout=20 -o ServerAliveInterval=30 -o ServerAliveCountMax=4}
}

# lab_workdir OUT: W, the run's folder relative to the local staging folder
# and to each remote home: named by the run and by where it was started,
# so that two runs never share one.
lab_workdir() {
	local key
	local name
	key=$(printf '%s %s\n' "$(uname -n)" "$(realpath -m -- "$1")" | sha256sum | cut -c1-12)
	name=$(basename -- "$1" | tr -c 'A-Za-z0-9._\n-' '_')
	printf '.locklat-lab/%s-%s\n' "$name" "$key"
}

# link_or_copy SRC DST: a hard link where the file system allows one (the
# kernels are large), a copy where not.
link_or_copy() {
	ln -f -- "$1" "$2" 2>/dev/null || cp -- "$1" "$2"
}

# lab_tree BUNDLE: the part of the tree a host runs (the cell runner, the
# guest, the workloads, the kernels' data: the run's own variants), and the
# probe's package list.
lab_tree() {
	local bundle=$1 d
	mkdir -p "$bundle"
	for d in bench lib workloads kernels tools; do
		rm -rf "${bundle:?}/$d"
		cp -a "$LOCKLAT_ROOT/$d" "$bundle/$d"
	done
	# An A/B run's variants live in its result folder (kernels/ab.sh).
	if [ "$(realpath "$LOCKLAT_VARIANTS_DIR")" != "$(realpath "$LOCKLAT_ROOT/kernels/variants")" ]; then
		rm -rf "${bundle:?}/kernels/variants"
		cp -a "$LOCKLAT_VARIANTS_DIR" "$bundle/kernels/variants"
	fi
}

# lab_build_output BUNDLE INITRAMFS MODULES VARIANT...: the build output
# the run's cells read, into BUNDLE/build: the tools, each built kernel of
# the variants (manifest and bzImage), their modules when MODULES is 1, the
# guest image with its versions record, and the setup images of the run's
# workloads (LAB_WORKLOADS).
lab_build_output() {
	local bundle=$1 initramfs=$2 modules=$3 b d v f k w dir image
	shift 3
	b=$bundle/build
	mkdir -p "$b/kernels" "$b/initramfs" "$b/data" "$b/modules"
	for d in bin guest-bin; do
		rm -rf "${b:?}/$d"
		cp -a "$LOCKLAT_BUILD/$d" "$b/$d"
	done
	for v in "$@"; do
		for f in $LOCKLAT_FLAVOURS; do
			dir=$(kernel_dir "$v" "$f")
			[ -f "$dir/manifest" ] || continue
			k=$b/kernels/$(kernel_name "$v" "$f")
			mkdir -p "$k"
			cp "$dir/manifest" "$k/manifest"
			link_or_copy "$dir/bzImage" "$k/bzImage"
		done
		if [ "$modules" -eq 1 ] && [ -d "$LOCKLAT_BUILD/modules/$v" ]; then
			mkdir -p "$b/modules/$v"
			for f in "$LOCKLAT_BUILD/modules/$v"/*.ko; do
				[ -f "$f" ] && link_or_copy "$f" "$b/modules/$v/${f##*/}"
			done
		fi
	done
	link_or_copy "$initramfs" "$b/initramfs/${initramfs##*/}"
	cp "${initramfs%.cpio.gz}.versions" "$b/initramfs/"
	for w in "${LAB_WORKLOADS[@]}"; do
		! is_own_cell_pass "$w" || continue
		workload_load "$w"
		image=$(setup_image "$WORKLOAD_SETUP") || err_exit "building the $WORKLOAD_SETUP image failed" 1
		[ -n "$image" ] || continue
		link_or_copy "$image" "$b/data/${image##*/}"
		cp "$image.sha256" "$b/data/"
	done
}

# lab_parallel LOCAL_DIR ARGS...: GNU parallel, from LOCAL_DIR (where ":"
# jobs find W).
lab_parallel() {
	local dir=$1
	shift
	# -q: each word quoted for the host's shell (a run's folder name may
	# hold anything).
	(cd "$dir" && parallel --will-cite -q "$@")
}

# lab_probe ACCEL: every host of LAB_LOGIN asked, once, what it can do
# (bench/host/lab-probe.sh, sent with the tree; its files removed after).
# Sets LAB_ANSWER (the probe's line per login; none: no answer over ssh),
# LAB_ERR (what parallel and ssh said) and LAB_ACCEL (ACCEL, or for auto:
# kvm if every host that answered with its packages runs it, else
# tcg-icount).
lab_probe() {
	local want=$1 tmp w answers line login accels
	tmp=$(mktemp -d)
	w=.locklat-lab/probe-$(uname -n)-$$
	lab_tree "$tmp/$w/bundle"
	printf '%s\n' "${LAB_LOGIN[@]}" >"$tmp/logins"
	accels=("$want")
	[ "$want" = auto ] && accels=(kvm tcg-icount)
	answers=$(lab_parallel "$tmp" --nonall --sshloginfile "$tmp/logins" --workdir "$w" \
		--basefile "$w/./bundle" bash bundle/bench/host/lab-probe.sh "${accels[@]}" 2>"$tmp/err") || true
	LAB_ERR=$(cat "$tmp/err")
	lab_parallel "$tmp" --nonall --sshloginfile "$tmp/logins" rm -rf "$w" >/dev/null 2>&1 || true
	rm -rf "$tmp"
	LAB_ANSWER=()
	while IFS= read -r line; do
		[[ $line == login=* ]] || continue
		login=${line%%$'\t'*}
		LAB_ANSWER[${login#login=}]=$line
	done <<<"$answers"
	LAB_ACCEL=$want
	[ "$want" = auto ] || return 0
	LAB_ACCEL=kvm
	for login in "${LAB_LOGIN[@]}"; do
		line=${LAB_ANSWER[$login]:-}
		{ [ -n "$line" ] && [ -z "$(lab_field "$line" missing)" ]; } || continue
		[ "$(lab_field "$line" accel.kvm)" = ok ] || LAB_ACCEL=tcg-icount
	done
}

# lab_keep PER_CELL: from lab_probe's answers, the hosts that will run
# cells: LAB_KEPT ("N/LOGIN") and LAB_REPORT (a line per host, "LOGIN<TAB>
# kept or left out<TAB>why"). PER_CELL: the host CPUs a cell pins to.
lab_keep() {
	local per=$1 i login line f host cpus model missing n free need
	LAB_KEPT=() LAB_REPORT=()
	for i in "${!LAB_LOGIN[@]}"; do
		login=${LAB_LOGIN[$i]} line=${LAB_ANSWER[$login]:-}
		if [ -z "$line" ]; then
			# ssh's complaint names the host (the login's last word).
			f=$(printf '%s\n' "$LAB_ERR" | grep -F -- "${login##* }" | grep -v '^parallel: ' | head -n 1)
			LAB_REPORT+=("$login	left out	no answer over ssh${f:+: $f}")
			continue
		fi
		host=$(lab_field "$line" host) cpus=$(lab_field "$line" cpus) model=$(lab_field "$line" cpu_model)
		missing=$(lab_field "$line" missing)
		if [ -n "$missing" ]; then
			LAB_REPORT+=("$login	left out	$host lacks Debian packages: $missing (tools/install-deps.sh --runtime)")
			continue
		fi
		f=$(lab_field "$line" "accel.$LAB_ACCEL")
		if [ "$f" != ok ]; then
			LAB_REPORT+=("$login	left out	$host: QEMU does not start with --accel $LAB_ACCEL: $f")
			continue
		fi
		n=${LAB_SLOTS[$i]}
		free=$(lab_field "$line" free_mib)
		if [ -z "$n" ]; then
			n=1
			[ "$LAB_ACCEL" = tcg-icount ] && n=$((cpus / per))
		fi
		if [ "$n" -lt 1 ] || [ $((n * per)) -gt "$cpus" ]; then
			LAB_REPORT+=("$login	left out	$host: $n cells x $per host CPUs each > its $cpus CPUs")
			continue
		fi
		# Each cell's results and scratch disks at once, and the bundle.
		need=$((n * (LOCKLAT_RESULTS_DISK_MIB + LOCKLAT_SCRATCH_DISK_MIB) + 512))
		if [ -n "$free" ] && [ "$free" -lt "$need" ]; then
			LAB_REPORT+=("$login	left out	$host: $free MiB free in its home, $n cells need $need MiB")
			continue
		fi
		LAB_KEPT+=("$n/$login")
		LAB_REPORT+=("$login	kept	$host: $n cells at once, $cpus CPUs ($model), --accel $LAB_ACCEL")
	done
}

# lab_field LINE KEY: KEY's value in a probe line.
lab_field() {
	printf '%s\n' "$1" | tr '\t' '\n' | awk -v k="$2" 'index($0, k "=") == 1 { print substr($0, length(k) + 2); exit }'
}

# lab_local_slots: the cells this machine (":") runs at once, 0 if none:
# what the local disk must have room for beside the cells that come back.
lab_local_slots() {
	local kept
	for kept in "${LAB_KEPT[@]}"; do
		[ "${kept#*/}" != : ] || { echo "${kept%%/*}"; return 0; }
	done
	echo 0
}

# lab_slots: the cells the kept hosts run at once, together.
lab_slots() {
	local kept total=0
	for kept in "${LAB_KEPT[@]}"; do total=$((total + ${kept%%/*})); done
	echo "$total"
}

# cell_digest CELL: the sha256 of a cell's file list with each file's size:
# lab-cell.sh prints it for the cell it wrote, lab_collect checks it on
# what came back (rsync sends meta, with complete=1, before the files named
# after it: a return cut short is not a cell).
cell_digest() {
	(cd "$1" && find . -type f -printf '%P %s\n' | LC_ALL=C sort | sha256sum | cut -c1-64)
}

# lab_collect STAGE OUT [REL DIGEST]: the cell REL ("<v>/<w>/<c>") moved
# into its folder of OUT (cell_dir) if it came back whole (its digest is DIGEST, as its
# host printed it), its log into OUT/logs/ in any case; a rename on one
# file system, so a cell in OUT is whole. Only for a cell whose job has
# ended. Without REL: every cell's log (after the dispatch, for the cells
# that never came back).
lab_collect() {
	local stage=$1 out=$2 rel=${3:-} digest=${4:-} cell log dst v w c
	mkdir -p "$out/logs"
	if [ -z "$rel" ]; then
		for log in "$stage"/logs/*.log; do
			[ ! -f "$log" ] || mv -f "$log" "$out/logs/"
		done
		return 0
	fi
	cell=$stage/incoming/$rel
	log=$stage/logs/${rel//\//-}.log
	[ ! -f "$log" ] || mv -f "$log" "$out/logs/"
	[ "$(kv_get "$cell/meta" complete 2>/dev/null)" = 1 ] || return 0
	if [ "$(cell_digest "$cell")" != "$digest" ]; then
		warn "$rel came back incomplete (its files differ from what its host wrote): not kept"
		return 0
	fi
	IFS=/ read -r v w c <<<"$rel"
	dst=$(cell_dir "$out" "$v" "$w" "$c")
	mkdir -p "${dst%/*}"
	if [ -e "$dst" ]; then
		rm -rf "$cell"
	else
		mv "$cell" "$dst"
	fi
}

# lab_start OUT: the hosts' side of a dispatch, made ready: OUT/.lab/
# sshlogins (the kept hosts), the workdir's incoming/ and logs/, the
# cells' launch records (OUT/.lab/jobs/). After lab_bundle. Sets LAB_W
# (the workdir, the same on every host) and LAB_REVISION.
lab_start() {
	local out=$1 lab=$1/.lab
	LAB_W=$(lab_workdir "$out")
	printf '%s\n' "${LAB_KEPT[@]}" >"$lab/sshlogins"
	LAB_REVISION=$(git -C "$LOCKLAT_ROOT" describe --always --dirty 2>/dev/null || echo unknown)
	rm -rf "${lab:?}/$LAB_W/incoming" "${lab:?}/$LAB_W/logs" "${lab:?}/jobs"
	mkdir -p "$lab/$LAB_W/incoming" "$lab/$LAB_W/logs" "$lab/jobs"
}

# lab_cell_run OUT ID LOGIN RUSAGE PER_CELL CODE_SHA256 V W C REP PASSES
# RUN_CELL_ARGS...: one cell on the host LOGIN, from the bundle (sent by
# parallel --basefile, which rsync finds current after the first cell),
# as the process it is called in (it execs the stage guard, whose RUSAGE
# file gets parallel's CPU time here): the executor starts it as a job of
# its own and decides where each cell goes (bench/host/execute.sh).
# CODE_SHA256 is the run's measurement code, which the host's copy must
# hash to; RUN_CELL_ARGS the options every cell shares (run-cell.sh's, the
# initramfs relative to the bundle). Its output, lab-cell.sh's line, goes
# to OUT/.lab/jobs/ID.out, parallel's job log to ID.joblog; the cell to
# W/incoming/ (lab_cell_take).
lab_cell_run() {
	local out=$1 id=$2 login=$3 ru=$4 per=$5 code=$6 lab=$1/.lab
	shift 6
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >"$lab/jobs/$id.cell"
	shift 5
	# -q: each word quoted for the host's shell, the fields of a cell too.
	# --tree: parallel starts each job in a process group of its own, and
	# the job, its ssh and its QEMU must die with the run too.
	cd "$lab" && exec "$LOCKLAT_ROOT/build/bin/locklat-guard" --tree --rusage "$ru" -- \
		parallel --will-cite -q -S "1/$login" \
		--workdir "$LAB_W" --basefile "$LAB_W/./bundle" \
		--return "$LAB_W/./incoming/{1}/{2}/{3}" --return "$LAB_W/./logs/{1}-{2}-{3}.log" \
		--colsep '\t' --arg-file "jobs/$id.cell" --joblog "jobs/$id.joblog" \
		bash bundle/bench/host/lab-cell.sh --out 'incoming/{1}/{2}/{3}' --log 'logs/{1}-{2}-{3}.log' \
		--host-cpus "$per" --code-sha256 "$code" --revision "$LAB_REVISION" -- \
		--variant '{1}' --workload '{2}' --rep '{4}' --passes '{5}' "$@" \
		>"jobs/$id.out" 2>"jobs/$id.err" 8>&-
}

# lab_cell_take OUT ID: after lab_cell_run ID ended, its cell moved into
# OUT if it came back whole (lab_collect), with a progress line of what
# became of it; true if it is there.
lab_cell_take() {
	local out=$1 id=$2 lab=$1/.lab rel digest line v w c
	IFS=$'\t' read -r v w c _ <"$lab/jobs/$id.cell"
	if IFS=$'\t' read -r rel digest line <"$lab/jobs/$id.out" 2>/dev/null && [ -n "$rel" ]; then
		progress matrix "$line"
		lab_collect "$lab/$LAB_W" "$out" "${rel#incoming/}" "$digest"
	else
		sed 's/^/  /' "$lab/jobs/$id.err" >&2 2>/dev/null || true
	fi
	cat "$lab/jobs/$id.joblog" >>"$out/logs/lab-joblog" 2>/dev/null || true
	[ -e "$(cell_dir "$out" "$v" "$w" "$c")" ]
}

# lab_finish OUT: the dispatch's end: every log that came back, each
# host's folder removed, then the bundle here.
lab_finish() {
	local out=$1 lab=$1/.lab
	[ -d "$lab" ] || return 0
	lab_collect "$lab/$LAB_W" "$out"
	lab_parallel "$lab" --nonall --sshloginfile sshlogins rm -rf "$LAB_W" >/dev/null 2>&1 || true
	rm -rf "${lab:?}"
}

# lab_bundle OUT INITRAMFS MODULES CODE_SHA256 VARIANT...: what every host
# is sent, in OUT/.lab/W/bundle: the tree (lab_tree) and the build output
# (lab_build_output); its measurement code must hash to CODE_SHA256 (the
# run's, DIR/matrix: the tree was not edited since the run started). Sets
# LAB_INITRAMFS, the guest image's path as a cell on a host names it.
lab_bundle() {
	local out=$1 initramfs=$2 modules=$3 code=$4 bundle
	shift 4
	bundle=$out/.lab/$(lab_workdir "$out")/bundle
	lab_tree "$bundle"
	[ "$(LOCKLAT_ROOT=$bundle measurement_sha256)" = "$code" ] ||
		err_exit "the measurement code (bench/, workloads/, lib/) changed since this run started: choose another --out" 1
	lab_build_output "$bundle" "$initramfs" "$modules" "$@"
	# shellcheck disable=SC2034 # read by run-matrix.sh
	LAB_INITRAMFS=bundle/build/initramfs/${initramfs##*/}
}
