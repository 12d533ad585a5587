# SPDX-License-Identifier: GPL-2.0
# passes.sh - the pass registry's loader: bench/passes/<name>/ (a pass per
# folder: its pass file, the guest code that runs it, its Kconfig fragment,
# its host hooks; bench/passes/README.md), and what a cell runs of them.
#
# Usage: . "$LOCKLAT_ROOT/bench/passes/passes.sh"   (after lib/common.sh, which names the paths;
#        workloads/workloads.sh sources it)
#
# The loader lives beside the data it reads; lib/common.sh, which every
# stage sources, holds helpers and reads no registry. It defines functions only.

# shellcheck shell=bash
# shellcheck disable=SC2034 # PASS_*: read by the scripts that source this

LOCKLAT_PASSES_DIR=${LOCKLAT_PASSES_DIR:-$LOCKLAT_ROOT/bench/passes}

# known_passes: the passes, one per line: the folders of bench/passes/ that
# hold a pass file, by name.
known_passes() {
	local f
	for f in "$LOCKLAT_PASSES_DIR"/*/pass; do
		[ -f "$f" ] && basename "$(dirname "$f")"
	done | LC_ALL=C sort
}

# pass_load NAME: NAME's pass file into PASS_DESCRIPTION, PASS_KERNEL (plain
# or traced), PASS_LENGTH (duration or trace), PASS_PERIODS, PASS_EXTRA_S,
# PASS_ORDER (a number, or - when a traced cell does not run it),
# PASS_ROUNDS, PASS_CELL (shared or own), PASS_DEFAULT, PASS_PROGRAMS,
# PASS_NEEDS and PASS_CONF (its "conf.KEY=VALUE" lines as "KEY VALUE"
# lines); status 1 if unknown, and an error for a key the format does not
# have or a value it cannot take.
pass_load() {
	local file=$LOCKLAT_PASSES_DIR/$1/pass key value
	case $1 in '' | *[!a-z0-9_-]*) return 1 ;; esac
	[ -f "$file" ] || return 1
	PASS_DESCRIPTION='' PASS_KERNEL=plain PASS_LENGTH=trace PASS_PERIODS=1 PASS_EXTRA_S=0
	PASS_ORDER=- PASS_ROUNDS=1 PASS_CELL=shared PASS_DEFAULT=no PASS_PROGRAMS='' PASS_NEEDS='' PASS_CONF=''
	while IFS='=' read -r key value; do
		case $key in
		'' | '#'*) ;;
		description) PASS_DESCRIPTION=$value ;;
		kernel) PASS_KERNEL=$value ;;
		length) PASS_LENGTH=$value ;;
		periods) PASS_PERIODS=$value ;;
		extra_s) PASS_EXTRA_S=$value ;;
		order) PASS_ORDER=$value ;;
		rounds) PASS_ROUNDS=$value ;;
		cell) PASS_CELL=$value ;;
		default) PASS_DEFAULT=$value ;;
		programs) PASS_PROGRAMS=$value ;;
		needs) PASS_NEEDS=$value ;;
		conf.*) PASS_CONF+="${key#conf.} $value"$'\n' ;;
		*) err_exit "$file: unknown key '$key'" 2 ;;
		esac
	done <"$file"
	case $PASS_KERNEL in plain | traced) ;; *) err_exit "$file: kernel=$PASS_KERNEL: want plain or traced" 2 ;; esac
	case $PASS_LENGTH in duration | trace) ;; *) err_exit "$file: length=$PASS_LENGTH: want duration or trace" 2 ;; esac
	case $PASS_CELL in shared | own) ;; *) err_exit "$file: cell=$PASS_CELL: want shared or own" 2 ;; esac
	# extra_s may name one of the pass's own conf keys: the guest spends
	# what it is told to.
	if [[ $PASS_EXTRA_S == conf.* ]]; then
		PASS_EXTRA_S=$(pass_conf "${PASS_EXTRA_S#conf.}") || err_exit "$file: extra_s names no conf key" 2
	fi
	[[ $PASS_PERIODS =~ ^[0-9]+$ && $PASS_EXTRA_S =~ ^[0-9]+$ && $PASS_ROUNDS =~ ^[1-9][0-9]*$ ]] ||
		err_exit "$file: periods, extra_s and rounds want whole numbers" 2
	[[ $PASS_ORDER == - || $PASS_ORDER =~ ^[0-9]+$ ]] || err_exit "$file: order=$PASS_ORDER: want a number or -" 2
	# The one build a pass may ask for beyond its kernels (the executor's
	# job kind modules: kernels/modules/build.sh).
	case $PASS_NEEDS in '' | modules) ;; *) err_exit "$file: needs=$PASS_NEEDS: want modules or nothing" 2 ;; esac
	return 0
}

# pass_conf KEY: the value of the loaded pass's conf.KEY.
pass_conf() {
	local k v
	while read -r k v; do
		[ "$k" = "$1" ] && { printf '%s\n' "$v"; return 0; }
	done <<<"$PASS_CONF"
	return 1
}

# pass_file NAME FILE: the path of a file of pass NAME's folder (run, config,
# host), nothing when it has none.
pass_file() {
	[ -f "$LOCKLAT_PASSES_DIR/$1/$2" ] && printf '%s\n' "$LOCKLAT_PASSES_DIR/$1/$2"
	return 0
}

# is_pass NAME: NAME is a pass a cell may run, or "NAME.N" (2 <= N <=
# rounds): round N of a pass a traced cell runs more than once.
is_pass() {
	local round
	if [[ $1 =~ ^([a-z0-9_-]+)\.([1-9][0-9]*)$ ]]; then
		round=${BASH_REMATCH[2]}
		(pass_load "${1%.*}" 2>/dev/null && [ "$round" -ge 2 ] && [ "$round" -le "$PASS_ROUNDS" ])
	else
		(pass_load "$1" 2>/dev/null)
	fi
}

# traced_cell_passes: what a traced cell runs, in order: every pass with an
# order, round N of a pass at its order + 100 (N - 1), named "NAME.N".
traced_cell_passes() {
	local p r
	for p in $(known_passes); do
		pass_load "$p"
		[ "$PASS_ORDER" != - ] || continue
		for ((r = 1; r <= PASS_ROUNDS; r++)); do
			printf '%d %s\n' $((PASS_ORDER + 100 * (r - 1))) "$p$([ "$r" -eq 1 ] || echo ".$r")"
		done
	done | sort -n -k1,1 | awk '{ printf "%s%s", sep, $2; sep = " " } END { print "" }'
}

# own_cell_passes [default]: the passes that run in a cell of their own, one
# per variant and without a workload (cell=own), one per line; with
# "default", those of the default matrix.
own_cell_passes() {
	local p
	for p in $(known_passes); do
		pass_load "$p"
		[ "$PASS_CELL" = own ] || continue
		[ "${1:-}" != default ] || [ "$PASS_DEFAULT" = yes ] || continue
		printf '%s\n' "$p"
	done
}

# is_own_cell_pass NAME: NAME runs in a cell of its own.
is_own_cell_pass() {
	(pass_load "$1" 2>/dev/null && [ "$PASS_CELL" = own ])
}

# passes_flavour PASSES: the kernel a cell running PASSES boots: traced when
# any of them needs the traced kernel, else plain.
passes_flavour() {
	local p
	for p in $1; do
		pass_load "${p%%.*}"
		[ "$PASS_KERNEL" = traced ] && { echo traced; return; }
	done
	echo plain
}

# pass_fragments FLAVOUR: the passes' Kconfig fragments a FLAVOUR kernel
# merges, "pass-<name>" each: a plain kernel those of the plain passes, a
# traced one those of the traced passes (the traced kernel has every plain
# fragment too: kernels/build.sh).
pass_fragments() {
	local p
	for p in $(known_passes); do
		pass_load "$p"
		[ "$PASS_KERNEL" = "$1" ] && [ -n "$(pass_file "$p" config)" ] && printf 'pass-%s\n' "$p"
	done
	return 0
}

# pass_needs PASSES: the build jobs a cell running PASSES needs beyond its
# kernel (needs=: "modules"), one per line.
pass_needs() {
	local p
	for p in $1; do
		pass_load "${p%%.*}"
		[ -z "$PASS_NEEDS" ] || printf '%s\n' "$PASS_NEEDS"
	done | sort -u
}

# cell_guest_seconds PASSES DURATION TRACE_DURATION WARMUP: the guest seconds
# of a cell's passes: each a warm-up, its periods of its length (DURATION or
# TRACE_DURATION), its extra seconds, and 10 s of setup and collection.
cell_guest_seconds() {
	local p s=10 len
	for p in $1; do
		pass_load "${p%%.*}"
		len=$3
		[ "$PASS_LENGTH" = trace ] || len=$2
		s=$((s + $4 + PASS_PERIODS * len + PASS_EXTRA_S))
	done
	echo "$s"
}

# passes_distinct PASSES: each pass of PASSES once, "NAME.N" as NAME, in
# order, one per line.
passes_distinct() {
	local p seen=' '
	for p in $1; do
		p=${p%%.*}
		[[ $seen == *" $p "* ]] && continue
		seen+="$p "
		printf '%s\n' "$p"
	done
}

# cell_conf_passes PASSES: the cell.conf lines ("KEY VALUE") of PASSES'
# parameters, each pass's once.
cell_conf_passes() {
	local p
	for p in $(passes_distinct "$1"); do
		pass_load "$p"
		[ -z "$PASS_CONF" ] || printf '%s' "$PASS_CONF"
	done
}

# pass_host NAME HOOK ARGS...: run hook HOOK of pass NAME's host file (a
# bash file of functions host_check, host_conf, host_stage, host_collect:
# bench/passes/README.md) in a subshell; nothing when it has no such hook.
pass_host() {
	local host
	host=$(pass_file "$1" host)
	[ -n "$host" ] || return 0
	(
		# shellcheck source=/dev/null
		. "$host"
		declare -F "$2" >/dev/null || exit 0
		"${@:2}"
	)
}

# passes_host HOOK PASSES ARGS...: pass_host HOOK for each distinct pass of
# PASSES, in order; the first failure stops.
passes_host() {
	local hook=$1 list=$2 p
	shift 2
	for p in $(passes_distinct "$list"); do
		pass_host "$p" "$hook" "$@" || return
	done
}
