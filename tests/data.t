#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# data.t - workloads and setup kinds are data every stage reads: each
# workload file loads and names a setup kind that exists; each setup kind's
# guest script parses and its disk file names what the host must attach;
# each workload's Kconfig fragment (workloads/<name>/config) is a fragment
# and reaches every kernel's merge, before the variant's own; a pass with a
# cell of its own (bench/passes/modules: cell=own) gets that one cell; bad
# values stop with one line and exit 2.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
# shellcheck source=workloads/workloads.sh
. "$LOCKLAT_ROOT/workloads/workloads.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
setups=$root/bench/guest/setup
tap_plan 19

bad=''
for w in $(known_workloads); do
	( workload_load "$w" ) >/dev/null 2>&1 || { bad="$bad $w(load)"; continue; }
	workload_load "$w"
	kind=${WORKLOAD_SETUP%%:*}
	[ "$kind" = none ] || [ -f "$setups/$kind/run" ] || bad="$bad $w(setup $kind)"
done
tap_is "$bad" "" "every workload file loads and names a setup kind of bench/guest/setup/"

bad=''
for d in "$setups"/*/; do
	d=${d%/}
	[ -x "$d/run" ] && sh -n "$d/run" || bad="$bad ${d##*/}/run"
	[ -f "$d/disk" ] || continue
	kv_get "$d/disk" serial >/dev/null || bad="$bad ${d##*/}/disk(serial)"
	if img=$(kv_get "$d/disk" image); then
		[ -x "$root/$img" ] || bad="$bad ${d##*/}/disk(image $img)"
	elif [ "$(kv_get "$d/disk" scratch)" != yes ]; then
		bad="$bad ${d##*/}/disk(neither image nor scratch)"
	fi
done
tap_is "$bad" "" "every setup kind's run parses and its disk file names a serial and an image or a scratch disk"

bad=''
for f in "$root"/workloads/*/config "$root"/bench/passes/*/config; do
	grep -Evq '^(#.*|CONFIG_[A-Z0-9_]+=.+|)$' "$f" && bad="$bad ${f#"$root"/}"
done
tap_is "$bad" "" "every workloads/*/config and bench/passes/*/config holds only CONFIG_ lines and comments"

# Every pass: its file loads, its guest code parses and defines pass_main,
# its host file (if any) parses as bash.
bad=''
for p in $(known_passes); do
	( pass_load "$p" ) >/dev/null 2>&1 || { bad="$bad $p(load)"; continue; }
	run=$root/bench/passes/$p/run
	# shellcheck disable=SC2016 # a $ of the file's text, not of this shell
	{ sh -n "$run" && grep -q '^pass_main() {' "$run" || grep -q '^\. "$PASSES_DIR/' "$run"; } 2>/dev/null ||
		bad="$bad $p(run)"
	[ ! -f "$root/bench/passes/$p/host" ] || bash -n "$root/bench/passes/$p/host" || bad="$bad $p(host)"
done
tap_is "$bad" "" "every pass file loads; its run parses and defines pass_main (or sources a pass that does)"
printf '%s\n' kernel=both >"$tmp/pass"
mkdir -p "$tmp/passes/bad" && mv "$tmp/pass" "$tmp/passes/bad/pass"
err=$(LOCKLAT_PASSES_DIR=$tmp/passes bash -c '. "$1/lib/common.sh"; . "$1/workloads/workloads.sh"; pass_load bad' _ "$root" 2>&1)
tap_like "$?:$err" "^2:.*kernel=both: want plain or traced" "a pass file with a bad value: exit 2, one line"

# Every kernel merges every workload's fragment and the plain passes', before
# its variant's own; a traced kernel the traced passes' last.
frags=$("$root/kernels/build.sh" --fragments --flavour traced rt)
want=$(for w in $(known_workloads); do
	[ -f "$root/workloads/$w/config" ] && printf ' %s' "$root/workloads/$w/config"
done)
passes=$root/bench/passes
tap_is "$frags" "rt+tracers:$want $passes/modules/config $passes/verify/config $LOCKLAT_CONFIGS_DIR/guest-base.config $LOCKLAT_CONFIGS_DIR/rt.config $passes/irqsoff/config $passes/preemptoff/config $passes/timerlat/config" \
	"kernels/build.sh --fragments: the workloads', the plain passes', the variant's, then the traced passes'"

# A workload added with a config: the kernels take its fragment, nothing else touched.
cp -a "$root/workloads" "$tmp/workloads"
mkdir -p "$tmp/workloads/extra"
printf '%s\n' "description=extra" setup=none targets=- command=- default=no >"$tmp/workloads/extra/workload"
printf '%s\n' "# extra's options" CONFIG_SYSVIPC=y >"$tmp/workloads/extra/config"
frags=$(LOCKLAT_WORKLOADS_DIR=$tmp/workloads "$root/kernels/build.sh" --fragments --flavour plain baseline)
tap_like "$frags" "^baseline: .*$tmp/workloads/extra/config .*/guest-base.config " \
	"a new workload's config is merged into the kernels, before guest-base"
rm "$tmp/workloads/extra/workload"
frags=$(LOCKLAT_WORKLOADS_DIR=$tmp/workloads "$root/kernels/build.sh" --fragments --flavour plain baseline)
tap_like "$frags" "^baseline: $tmp/workloads/cnproc/config .*/preempt.config\$" "without its workload file the folder is no workload..."
case $frags in *extra*) tap_result 1 "...and its config is not merged" ;; *) tap_result 0 "...and its config is not merged" ;; esac

# The cells of a workload: repetitions and a traced cell, or one cell.
tap_is "$(workload_cells squashfs 2 | tr '\n' ' ')" "rep1 rep2 traced " "squashfs (cells=repetitions): rep1..repN and traced"
tap_is "$(workload_cells modules 2 | tr '\n' ' ')" "rep1 " "the modules pass (cell=own): rep1 alone"
tap_is "$(cell_passes squashfs rep1):$(cell_passes squashfs traced)" "latency:$(traced_cell_passes)" \
	"a repetition runs the latency pass, the traced cell every pass"
tap_is "$(cell_passes modules rep1)" modules "the modules pass's cell runs that pass alone"

# Bad values: one line, exit 2.
mkdir -p "$tmp/workloads/bad"
printf '%s\n' setup=none cells=twice >"$tmp/workloads/bad/workload"
err=$(LOCKLAT_WORKLOADS_DIR=$tmp/workloads bash -c '. "$1/lib/common.sh"; . "$1/workloads/workloads.sh"; workload_load bad' _ "$root" 2>&1)
tap_is "$?:$(printf '%s\n' "$err" | wc -l)" "2:1" "cells=twice: exit 2, one line ($err)"
printf '%s\n' setup=none cells=once passes="latency frobnicate" >"$tmp/workloads/bad/workload"
err=$(LOCKLAT_WORKLOADS_DIR=$tmp/workloads bash -c '. "$1/lib/common.sh"; . "$1/workloads/workloads.sh"; workload_load bad' _ "$root" 2>&1)
tap_like "$?:$err" "^2:.*unknown pass 'frobnicate'" "an unknown pass: exit 2, named"
printf '%s\n' setup=tmpfs targets=- command=- >"$tmp/workloads/bad/workload"
err=$(LOCKLAT_WORKLOADS_DIR=$tmp/workloads "$root/bench/host/run-cell.sh" --variant baseline --workload bad \
	--out "$tmp/cell" 2>&1)
tap_like "$?:$err" "^2:.*unknown setup 'tmpfs'" "run-cell.sh: a workload with an unknown setup kind: exit 2, named"

# The one reader of kernels/' '|' files from the shell (lib/table.c, as the summary).
table=$root/build/bin/locklat-table
printf '%s\n' '# a comment' '' '  a | first | x ' 'no bar here' 'b|second|y|z' ' # c | not | data' >"$tmp/table"
tap_is "$("$table" "$tmp/table" | tr '\n' ' ')/$("$table" --field 4 "$tmp/table" | tr '\n' ' ')" "a b /z " \
	"locklat-table: fields trimmed; comments (indented too), blank and bar-less lines skipped"
err=$("$table" --field 0 "$tmp/table" 2>&1)
tap_like "$?:$err" "^2:.*--field wants" "locklat-table --field 0: exit 2, says so"

# The guest image carries the guest library and every setup kind.
if [ -x "$LOCKLAT_BUILD/rtla/rtla" ]; then
	inputs=$("$root/bench/guest/mkinitramfs.sh" --print-inputs)
	missing=''
	for d in "$setups"/*/; do
		d=${d%/}
		grep -qx "lib/locklat/setup/${d##*/} $d/run" <<<"$inputs" || missing="$missing ${d##*/}"
	done
	grep -qx "lib/locklat/lib.sh $root/bench/guest/lib.sh" <<<"$inputs" || missing="$missing lib.sh"
	tap_is "$missing" "" "the initramfs holds bench/guest/lib.sh and every setup kind's script"
else
	echo "ok $((TAP_N + 1)) # SKIP no rtla built yet (make kernels): mkinitramfs.sh cannot list its inputs"
	TAP_N=$((TAP_N + 1))
fi
tap_done
