# SPDX-License-Identifier: GPL-2.0
# workloads.sh - the workload registry's loader: workloads/<name>/
# (a workload per folder: its workload file, its Kconfig options in config),
# the cells a run makes of each and the passes each cell runs.
#
# Usage: . "$LOCKLAT_ROOT/workloads/workloads.sh"   (after lib/common.sh, which names the paths)
#
# A workload names passes (bench/passes/): their loader comes with this one.
#
# The loader lives beside the data it reads; lib/common.sh, which every
# stage sources, holds helpers and reads no registry. It defines functions only.

# shellcheck shell=bash
# shellcheck disable=SC2034 # VARIANT_*, WORKLOAD_*: read by the scripts that source this

# shellcheck source=bench/passes/passes.sh
. "$LOCKLAT_ROOT/bench/passes/passes.sh"

# known_workloads: the workloads, one per line: the folders of workloads/
# that hold a workload file (workloads/README.md), by name.
known_workloads() {
	local f
	for f in "$LOCKLAT_WORKLOADS_DIR"/*/workload; do
		[ -f "$f" ] && basename "$(dirname "$f")"
	done | LC_ALL=C sort
}

# workload_fragments: the workloads' Kconfig fragments, "workload-<name>" for
# each workload with a workloads/<name>/config (kselftest-style: the options
# it needs), one per line. kernels/build.sh merges them into every kernel
# before the variant's own fragments, which win where they differ: a kernel
# serves every workload, so its configuration does not depend on which ones
# a run picks.
workload_fragments() {
	local w
	for w in $(known_workloads); do
		[ -f "$LOCKLAT_WORKLOADS_DIR/$w/config" ] && printf 'workload-%s\n' "$w"
	done
	return 0
}

# kernel_fragments FLAVOUR VARIANT_CONFIGS: the Kconfig fragments of a
# variant's kernel of that flavour, in merge order (a later one wins): the
# workloads' (workload_fragments), the plain passes' (pass_fragments: what
# every kernel needs to run them), the variant's own, and for the traced
# kernel the traced passes' last.
kernel_fragments() {
	local configs
	configs="$(workload_fragments | tr '\n' ' ')$(pass_fragments plain | tr '\n' ' ')$2"
	[ "$1" = plain ] || configs="$configs $(pass_fragments traced | tr '\n' ' ')"
	printf '%s\n' "${configs% }"
}

# fragment_path NAME: the file of a Kconfig fragment: workload-<w> is
# workloads/<w>/config, pass-<p> bench/passes/<p>/config, any other name
# kernels/configs/<name>.config.
fragment_path() {
	case $1 in
	workload-*) printf '%s/%s/config\n' "$LOCKLAT_WORKLOADS_DIR" "${1#workload-}" ;;
	pass-*) printf '%s/%s/config\n' "$LOCKLAT_PASSES_DIR" "${1#pass-}" ;;
	*) printf '%s/%s.config\n' "$LOCKLAT_CONFIGS_DIR" "$1" ;;
	esac
}

# default_workloads: those whose file says default=yes, one per line.
default_workloads() {
	local w
	for w in $(known_workloads); do
		[ "$(kv_get "$LOCKLAT_WORKLOADS_DIR/$w/workload" default 2>/dev/null)" != yes ] || printf '%s\n' "$w"
	done
	return 0
}

# workload_load NAME: NAME's workload file into WORKLOAD_SETUP,
# WORKLOAD_TARGETS, WORKLOAD_COMMAND, WORKLOAD_DESCRIPTION, WORKLOAD_CELLS
# and WORKLOAD_PASSES (workloads/README.md); status 1 if unknown, and an
# error for a key the format does not have or a value it cannot take.
workload_load() {
	local file=$LOCKLAT_WORKLOADS_DIR/$1/workload key value p
	case $1 in '' | *[!A-Za-z0-9_-]*) return 1 ;; esac
	[ -f "$file" ] || return 1
	WORKLOAD_SETUP=none WORKLOAD_TARGETS=- WORKLOAD_COMMAND=- WORKLOAD_DESCRIPTION=
	WORKLOAD_CELLS=repetitions WORKLOAD_PASSES=-
	while IFS='=' read -r key value; do
		case $key in
		'' | '#'*) ;;
		description) WORKLOAD_DESCRIPTION=$value ;;
		setup) WORKLOAD_SETUP=$value ;;
		targets) WORKLOAD_TARGETS=$value ;;
		command) WORKLOAD_COMMAND=$value ;;
		cells) WORKLOAD_CELLS=$value ;;
		passes) WORKLOAD_PASSES=$value ;;
		default) ;;	# default_workloads'
		*) err_exit "$file: unknown key '$key'" 2 ;;
		esac
	done <"$file"
	case $WORKLOAD_CELLS in
	repetitions) ;;
	once) [ "$WORKLOAD_PASSES" != - ] || err_exit "$file: cells=once needs its passes (passes=...)" 2 ;;
	*) err_exit "$file: cells=$WORKLOAD_CELLS: want repetitions or once" 2 ;;
	esac
	if [ "$WORKLOAD_PASSES" != - ]; then
		for p in $WORKLOAD_PASSES; do
			is_pass "$p" || err_exit "$file: unknown pass '$p' (known: $(known_passes | tr '\n' ' '))" 2
		done
	fi
	return 0
}

# setup_image SETUP: the path of the read-only image setup SETUP ("kind" or
# "kind:arg", a workload's setup=) has its disk built from
# (bench/guest/setup/<kind>/disk: image=CMD, run as CMD [arg]; built once,
# cached), nothing for a setup without one; status 1 if it cannot be built.
setup_image() {
	local kind=${1%%:*} arg='' disk cmd
	[ "$kind" = "$1" ] || arg=${1#*:}
	disk=$LOCKLAT_ROOT/bench/guest/setup/$kind/disk
	[ -f "$disk" ] || return 0
	cmd=$(kv_get "$disk" image) || return 0
	"$LOCKLAT_ROOT/$cmd" ${arg:+"$arg"}
}

# workload_cells NAME REPS: the cell folders a run makes of NAME: rep1 alone
# for a pass with a cell of its own (bench/passes/: cell=own) or a workload
# with cells=once; else rep1..repREPS and traced.
workload_cells() {
	local r
	if is_own_cell_pass "$1"; then echo rep1; return 0; fi
	workload_load "$1" || return 1
	if [ "$WORKLOAD_CELLS" = once ]; then
		echo rep1
		return 0
	fi
	for ((r = 1; r <= $2; r++)); do echo "rep$r"; done
	# A run without traced kernels (--each-commit) has no traced cell.
	! traced_kernels || echo traced
}

# cell_passes NAME CELL: the passes of NAME's cell CELL (a folder of
# workload_cells): for a pass with a cell of its own, that pass; for a
# workload, its own passes when it names them, else every pass of a traced
# cell (traced_cell_passes) for the traced cell, the latency pass for a
# repetition.
cell_passes() {
	if is_own_cell_pass "$1"; then echo "$1"; return 0; fi
	workload_load "$1" || return 1
	if [ "$WORKLOAD_PASSES" != - ]; then echo "$WORKLOAD_PASSES"
	elif [ "$2" = traced ]; then traced_cell_passes
	else echo latency; fi
}
