#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# workloads.t - the workload programs on the host, without touching the host
# kernel's state: argument checking (one line, exit 2), --help, the list's
# consistency with the programs, and the squashfs data generator
# (reproducible, compressible like text, not trivially). Their in-guest runs
# are in smoke.t.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
bin=$LOCKLAT_BUILD/guest-bin
[ -d "$bin" ] || tap_skip_all "$bin not built (make tools)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t progs < <(cd "$bin" && ls)
tap_plan $(( ${#progs[@]} * 4 + 4 ))

for p in "${progs[@]}"; do
	"$bin/$p" --help >/dev/null
	tap_result $? "$p --help"
	err=$("$bin/$p" --threads 0 2>&1 >/dev/null)
	tap_is "$?:$(printf '%s\n' "$err" | wc -l)" "2:1" "$p --threads 0: exit 2, one line ($err)"
	err=$("$bin/$p" --duration -1 2>&1 >/dev/null)
	tap_is "$?" 2 "$p --duration -1: exit 2 ($err)"
	err=$("$bin/$p" --frobnicate 2>&1 >/dev/null)
	tap_like "$?:$err" "^2:.*unknown option" "$p --frobnicate: exit 2, says so"
done

# Every workload command in the list names a program that exists.
missing=''
while IFS= read -r w; do
	workload_load "$w"
	prog=${WORKLOAD_COMMAND%% *}
	case $prog in locklat-*) [ -x "$bin/$prog" ] || missing="$missing $prog" ;; esac
done < <(known_workloads)
tap_is "$missing" "" "every locklat-* command in workloads/list is built"

gen=$bin/locklat-squashfs
"$gen" --generate "$tmp/a" --files 2 --size 1048576 --seed 7 &&
	"$gen" --generate "$tmp/b" --files 2 --size 1048576 --seed 7
tap_result $? "the generator runs"
cmp -s "$tmp/a/data-000.txt" "$tmp/b/data-000.txt" && ! cmp -s "$tmp/a/data-000.txt" "$tmp/a/data-001.txt"
tap_result $? "same seed, same bytes; files differ from each other"
ratio=$(( 1048576 / $(xz -c "$tmp/a/data-000.txt" | wc -c) ))
[ "$ratio" -ge 3 ] && [ "$ratio" -le 50 ]
tap_result $? "generated text compresses like text, not like zeros (xz ratio $ratio)"
tap_done
