#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# workloads.t - the guest programs (the workloads and locklat-loadmon) on the
# host, without changing the host kernel's state: argument checking (one
# line, exit 2), --help, the list's consistency with the programs, the
# squashfs data generator (reproducible, compressible like text, not
# trivially), the progress lines (idr for 3 s: its processes, message queues
# and inotify watches are its own and gone when it ends) and loadmon's
# signals and exit status. Their in-guest runs are in smoke.t.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
# shellcheck source=workloads/workloads.sh
. "$LOCKLAT_ROOT/workloads/workloads.sh"
bin=$LOCKLAT_BUILD/guest-bin
[ -d "$bin" ] || tap_skip_all "$bin not built (make tools)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t progs < <(cd "$bin" && ls)
tap_plan $(( ${#progs[@]} * 4 + 4 + 10 ))

for p in "${progs[@]}"; do
	"$bin/$p" --help >/dev/null
	tap_result $? "$p --help"
	err=$("$bin/$p" --tasks 0 2>&1 >/dev/null)
	tap_is "$?:$(printf '%s\n' "$err" | wc -l)" "2:1" "$p --tasks 0: exit 2, one line ($err)"
	err=$("$bin/$p" --duration -1 2>&1 >/dev/null)
	tap_is "$?" 2 "$p --duration -1: exit 2 ($err)"
	err=$("$bin/$p" --frobnicate 2>&1 >/dev/null)
	tap_like "$?:$err" "^2:.*unknown option" "$p --frobnicate: exit 2, says so"
done

# Every workload's command names a program that exists.
missing=''
while IFS= read -r w; do
	workload_load "$w"
	prog=${WORKLOAD_COMMAND%% *}
	case $prog in locklat-*) [ -x "$bin/$prog" ] || missing="$missing $prog" ;; esac
done < <(known_workloads)
tap_is "$missing" "" "every locklat-* command of a workload file is built"

gen=$bin/locklat-squashfs
"$gen" --generate "$tmp/a" --files 2 --size 1048576 --seed 7 &&
	"$gen" --generate "$tmp/b" --files 2 --size 1048576 --seed 7
tap_result $? "the generator runs"
cmp -s "$tmp/a/data-000.txt" "$tmp/b/data-000.txt" && ! cmp -s "$tmp/a/data-000.txt" "$tmp/a/data-001.txt"
tap_result $? "same seed, same bytes; files differ from each other"
ratio=$(( 1048576 / $(xz -c "$tmp/a/data-000.txt" | wc -c) ))
[ "$ratio" -ge 3 ] && [ "$ratio" -le 50 ]
tap_result $? "generated text compresses like text, not like zeros (xz ratio $ratio)"

# progress_order FILE: "ok" if FILE's progress lines never go back in
# uptime_ms or ops and the last has more ops than the first; else the fault.
progress_order() {
	awk -F'[ =]' '
	$1 == "locklat-progress" {
		if (n == 0) first = $5 + 0
		else if ($3 + 0 < t || $5 + 0 < ops) { print "line " NR " goes back: " $0; bad = 1; exit }
		t = $3 + 0; ops = $5 + 0; n++
	}
	END { if (!bad) print (ops > first ? "ok" : "ops never grew") }' "$1"
}

# idr for 3 s: a line at the start, one a second, its integrity line, a
# last one before its statistics, whose operations are the ones counted.
out=$tmp/idr.out
"$bin/locklat-idr" --cpus 1 --tasks 1 --duration 3 >"$out" 2>&1
tap_result $? "locklat-idr --duration 3 runs on the host"
bad=$(grep -v '^locklat-stats workload=idr ' "$out" | grep -v '^locklat-integrity workload=idr checked=[0-9]* errors=0$' |
	grep -cvE '^locklat-progress uptime_ms=[0-9]+ ops=[0-9]+$')
lines=$(grep -c '^locklat-progress ' "$out")
first=$(grep -m1 '^locklat-progress ' "$out")
tap_is "$bad:$((lines >= 3 && lines <= 5)):${first##* }" "0:1:ops=0" \
	"idr: progress lines well-formed, the first with ops=0, about one a second ($lines in 3 s)"
tap_is "$(progress_order "$out")" ok "idr: uptime_ms and ops never go back, ops grows"
tap_like "$(tail -n 2 "$out" | cut -d' ' -f1 | tr '\n' ' ')" '^locklat-progress locklat-stats $' \
	"idr: the last progress line comes right before the statistics"
last=$(awk -F'ops=' '/^locklat-progress /{ ops = $2 } END { print ops }' "$out")
sum=$(sed -n 's/.* forks=\([0-9]*\) msg_queues=\([0-9]*\) inotify_watches=\([0-9]*\).*/\1 + \2 + \3/p' "$out")
tap_is "$last" "$((sum))" "idr: the last line counts every fork, queue and watch ($sum)"

# loadmon around a shell and a busy child: progress from their CPU time,
# SIGTERM forwarded to the whole group, the child's status as its own.
mon=$bin/locklat-loadmon
out=$tmp/loadmon.out
# shellcheck disable=SC2016 # $$ and $1 are the inner shell's
env --default-signal=TERM "$mon" -- sh -c 'echo $$ >"$1"; yes >/dev/null' sh "$tmp/group" >"$out" 2>&1 &
pid=$!
sleep 2.5
kill -TERM "$pid"
wait "$pid"
tap_is "$?" 143 "loadmon: SIGTERM ends the child, exit 128 + 15"
group=$(cat "$tmp/group")
# Zombies do not count: a reaper outside the test may be slow or absent.
left=
for _ in 1 2 3 4 5 6 7 8 9 10; do
	left=$(ps -eo pgid=,pid=,stat=,comm= | awk -v g="$group" '$1 == g && $3 !~ /^Z/')
	[ -z "$left" ] && break
	sleep 0.1
done
tap_is "$left" "" "loadmon: the signal reached the whole group, the busy grandchild too"
# A failure must not leave yes spinning.
[ -z "$left" ] || kill -KILL -- "-$group"
lines=$(grep -c '^locklat-progress ' "$out")
tap_is "$(grep -vc '^locklat-progress ' "$out"):$((lines >= 3 && lines <= 4))" "0:1" \
	"loadmon: progress lines only, one a second and a last one ($lines in 2.5 s)"
tap_is "$(progress_order "$out")" ok "loadmon: uptime_ms and ops never go back, ops (CPU ticks) grows"
"$mon" -- sh -c 'exit 3' >/dev/null 2>&1
st=$?
"$mon" -- sh -c 'kill -KILL $$' >/dev/null 2>&1
tap_is "$st:$?" "3:137" "loadmon: exits with the child's status, 128 + N when signal N killed it"
tap_done
