#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make-progress.t - kernels/make-progress.sh, the build's progress line, fed
# a real make output (tests/fixtures/make-progress/baseline.log, a cold
# baseline build: 1193 objects in 250 s) on a recorded clock: the plain form
# (a line per tenth, the fraction and ETA, no \r), the terminal form (one
# line rewritten at most once a second, erased at the end), the count it
# hands build.sh, and that it reads make's output to the end even when
# interrupted, then dies of the signal as make does.
# shellcheck disable=SC2317 # reader_started is called through wait_until
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
progress=$root/kernels/make-progress.sh
log=$root/tests/fixtures/make-progress/baseline.log
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 26

objects=$(grep -cE '^  (CC|AS) ' "$log")
# The recorded clock: the log's lines spread evenly over the 250 s the
# build took, each "SECONDS<TAB>line".
awk -v n="$(wc -l <"$log")" '{ printf "%d\t%s\n", int(NR * 250 / n), $0 }' "$log" >"$tmp/rec"

# The first line at or past COUNT objects: its second, for the ETA the
# script should show there (time since the first object * objects left /
# objects done).
second_of() {
	awk -F '\t' -v want="$1" '$2 ~ /^  (CC|AS) / && ++n == want { print $1; exit }' "$tmp/rec"
}
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
t0=$(second_of 1)

# 1. Plain form, the last build's count known.
"$progress" --recorded --no-tty --expected "$objects" --count "$tmp/count" baseline \
	<"$tmp/rec" >"$tmp/stdout" 2>"$tmp/plain"
tap_is "$?" 0 "plain form: exit 0"
tap_is "$(cat "$tmp/count")" "$objects" "counts every CC and AS line of the log: $objects objects"
[ ! -s "$tmp/stdout" ]
tap_result $? "writes nothing on stdout (build.sh's progress lines go there)"
tap_is "$(wc -l <"$tmp/plain")" 10 "one line per tenth of the objects"
! grep -q $'\r' "$tmp/plain"
tap_result $? "no carriage return"
tenth=$(((objects + 9) / 10))
t=$(second_of "$tenth")
tap_is "$(head -n 1 "$tmp/plain")" \
	"  baseline: $tenth/$objects objects (10%) in $(mmss "$t"), about $(mmss $(((t - t0) * (objects - tenth) / tenth))) left" \
	"the first line: the fraction, the time so far, the ETA from the rate so far"
half=$(((objects + 1) / 2))
t=$(second_of "$half")
tap_is "$(sed -n 5p "$tmp/plain")" \
	"  baseline: $half/$objects objects (50%) in $(mmss "$t"), about $(mmss $(((t - t0) * (objects - half) / half))) left" \
	"the fifth line: half the objects, the ETA from the rate since the first object"
tap_is "$(tail -n 1 "$tmp/plain")" "  baseline: $objects/$objects objects (100%) in $(mmss "$(second_of "$objects")")" \
	"the last line: all the objects, no ETA"

# 2. Plain form, no earlier build: a count, a line a minute.
"$progress" --recorded --no-tty baseline <"$tmp/rec" 2>"$tmp/count-only"
tap_is "$(wc -l <"$tmp/count-only")" 4 "no expected count: a line a minute (250 s: 4)"
tap_like "$(head -n 1 "$tmp/count-only")" '^  baseline: [0-9]+ objects in 1:00$' "each a plain count and the time"

# 3. More objects than the last build: the count, and what the last one was.
"$progress" --recorded --no-tty --expected 600 baseline <"$tmp/rec" 2>"$tmp/over"
tap_like "$(tail -n 1 "$tmp/over")" "^  baseline: [0-9]+ objects in [0-9]:[0-9]{2} \\(600 the last time\\)$" \
	"past the expected count: a plain count that names the last one"
[ "$(wc -l <"$tmp/over")" -le 14 ]
tap_result $? "and still at most a line a minute ($(wc -l <"$tmp/over") lines)"

# 4. Terminal form: one line, rewritten.
"$progress" --recorded --tty --expected "$objects" baseline <"$tmp/rec" 2>"$tmp/tty"
tr '\r' '\n' <"$tmp/tty" | grep 'objects' | sed 's/ *$//' >"$tmp/updates"
tap_is "$(tr -cd '\n' <"$tmp/tty" | wc -c)" 0 "terminal form: no newline, each update starts with a carriage return"
seconds=$(cut -f 1 "$tmp/rec" | sort -un | awk '$1 > 0' | wc -l)
tap_is "$(wc -l <"$tmp/updates")" "$seconds" "one update per second of the recording ($seconds), not one per line"
# The line at second 125: the objects up to the first line of that second.
read -r n t < <(awk -F '\t' '$2 ~ /^  (CC|AS) / { n++ } $1 == 125 { print n + 0, $1; exit }' "$tmp/rec")
tap_is "$(grep -F "in $(mmss 125)," "$tmp/updates")" \
	"  baseline: $n/$objects objects ($((100 * n / objects))%) in $(mmss "$t"), about $(mmss $(((t - t0) * (objects - n) / n))) left" \
	"the update at 2:05: the fraction and the ETA"
awk '{ split($0, a, " in "); split(a[2], b, "[:,]"); s = b[1] * 60 + b[2]
	if (NR > 1 && s <= last) bad++; last = s } END { exit bad > 0 }' "$tmp/updates"
tap_result $? "the time shown only goes forward"
last_width=$(tail -n 1 "$tmp/updates" | wc -L)
tail=$(tr '\r' '\n' <"$tmp/tty" | tail -n 1)
[ "$(tail -c 1 "$tmp/tty" | od -An -c | tr -d ' ')" = '\r' ] && [ -z "${tail// /}" ] &&
	[ "${#tail}" -ge "$last_width" ]
tap_result $? "at the end the line is erased (${#tail} spaces over ${last_width} characters) and the cursor back at its start"

# 5. The form follows stderr: a file gets the plain form, a terminal the other.
"$progress" --recorded --expected "$objects" baseline <"$tmp/rec" 2>"$tmp/auto"
! grep -q $'\r' "$tmp/auto" && [ "$(wc -l <"$tmp/auto")" -eq 10 ]
tap_result $? "stderr a file: the plain form by default"
if command -v script >/dev/null; then
	script -qec "'$progress' --recorded --expected $objects baseline <'$tmp/rec'" /dev/null \
		</dev/null >"$tmp/pty" 2>&1
	grep -q $'\r  baseline: [0-9]*/'"$objects"' objects' "$tmp/pty"
	tap_result $? "stderr a terminal (script(1)'s): the line rewritten in place"
else
	tap_result 0 "stderr a terminal # SKIP script(1) (util-linux) not installed"
fi

# 6. On the wall clock, behind tee as in build.sh: the log is make's output
# byte for byte, a last line without a newline counted too.
printf '  CC      last.o' >"$tmp/unterminated"
cat "$log" "$tmp/unterminated" | (trap '' INT TERM HUP; exec tee -a "$tmp/build.log") |
	"$progress" --no-tty --expected "$objects" --count "$tmp/count" baseline 2>/dev/null
tap_is "$?" 0 "live clock, behind tee: exit 0"
cat "$log" "$tmp/unterminated" | cmp -s - "$tmp/build.log"
tap_result $? "build.log holds make's output unchanged"
tap_is "$(cat "$tmp/count")" $((objects + 1)) "every object counted, the unterminated last line too"

# 7. Interrupted: it reads to the end of its input, then dies of the signal.
# (Job control, so that the background reader may take SIGINT at all, and
# SIGINT's default restored for it: a script cannot trap a signal ignored
# when it started, as it is under "nohup make check &".)
trap '' PIPE
mkfifo "$tmp/fifo"
set -m
env --default-signal=INT "$progress" --no-tty --expected 1 --count "$tmp/int-count" baseline <"$tmp/fifo" 2>"$tmp/int-err" &
pid=$!
set +m
exec 3>"$tmp/fifo"
printf '  CC      a.o\n' >&3
reader_started() { grep -q '1/1 objects' "$tmp/int-err"; }
wait_until 10 reader_started
kill -INT "$pid"
printf '  CC      b.o\n' >&3
exec 3>&-
wait "$pid"
tap_is "$?" 130 "SIGINT: dies of it (status 130) once make's output ends"
tap_is "$(cat "$tmp/int-count" 2>/dev/null)" 2 "and reads that output to the end first (the object after the signal counted)"

# 8. Bad usage.
"$progress" </dev/null 2>/dev/null
tap_is "$?" 2 "no kernel name: exit 2"
"$progress" --expected many baseline </dev/null 2>/dev/null
tap_is "$?" 2 "--expected not a number: exit 2"
tap_done
