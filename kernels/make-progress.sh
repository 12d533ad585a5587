#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make-progress.sh - how far a kernel make is, read from make's output.
#
# Usage: make ... 2>&1 | tee -a build.log | kernels/make-progress.sh [OPTIONS] NAME
#   --expected N   the objects the last make of this kernel compiled: shows
#                  "done/N objects (P%)" and an ETA from the rate since
#                  the first object (default 0: none known, a plain count)
#   --count FILE   at the end of the input, write the objects counted to FILE
#   --tty          the terminal form (default when stderr is a terminal)
#   --no-tty       the plain form (default otherwise)
#   --recorded     each input line is "SECONDS<TAB>text", SECONDS since make
#                  started: a recorded make output, whose clock is taken
#                  from the input instead of the wall (for tests)
#
# An object is a line of kbuild's that starts "  CC " or "  AS " (each a
# call of $(CC) that writes an object, ccache's answers included): what a
# cold build spends its time on. On a terminal, one line on stderr is
# rewritten in place (\r) at most once a second, also while make prints
# nothing (the link), and erased at the end. Otherwise (a log, CI) a line
# for each tenth of the expected objects or, with none expected or more
# objects than expected, at most one a minute; never a \r.
#
# It reads its input to the end whatever happens, so that tee before it
# never writes into a closed pipe: an interrupted make still writes its last
# words to build.log, and an interrupt reaches the build as it did before
# the progress line: INT, TERM and HUP wait until make has closed its output,
# then end this script by the same signal.
#
# Exit status: 0 (or death by the signal it was sent), 2 bad usage.

set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

expected=0 count_file='' tty='' recorded='' name=''
while [ $# -gt 0 ]; do
	case $1 in
	--expected) [ $# -ge 2 ] || err_exit "--expected needs a number" 2
		expected=$2; shift ;;
	--count) [ $# -ge 2 ] || err_exit "--count needs a file" 2
		count_file=$2; shift ;;
	--tty) tty=1 ;;
	--no-tty) tty=0 ;;
	--recorded) recorded=1 ;;
	-h | --help) usage_from_header "$0"; exit 0 ;;
	-*) err_exit "unknown option '$1' (see --help)" 2 ;;
	*) [ -z "$name" ] || err_exit "one kernel name only, got '$name' and '$1'" 2
		name=$1 ;;
	esac
	shift
done
[ -n "$name" ] || err_exit "usage: make-progress.sh [OPTIONS] NAME (see --help)" 2
case $expected in
'' | *[!0-9]*) err_exit "--expected wants a whole number, got '$expected'" 2 ;;
esac
expected=$((10#$expected))
if [ -z "$tty" ]; then
	if [ -t 2 ]; then tty=1; else tty=0; fi
fi

# A display that cannot be written (stderr closed, its reader gone) must not
# end the script: make's output would then have nowhere to go.
trap '' PIPE
signal=''
for s in INT TERM HUP; do
	# shellcheck disable=SC2064 # the signal's name is fixed when the trap is set
	trap "signal=$s" "$s"
done

count=0 now=0 shown=0 step=0 width=0 first=-1

# mmss VAR SECONDS: VAR set to m:ss (printf -v: no subshell per line).
mmss() {
	printf -v "$1" '%d:%02d' $(($2 / 60)) $(($2 % 60))
}

# show: the progress line, if one is due.
show() {
	local msg pad took left fraction=0
	if [ "$expected" -gt 0 ] && [ "$count" -le "$expected" ]; then
		fraction=1
	fi
	if [ "$tty" -eq 1 ]; then
		[ "$now" -gt "$shown" ] || return 0
	elif [ "$fraction" -eq 1 ]; then
		[ $((10 * count / expected)) -gt "$step" ] || return 0
		step=$((10 * count / expected))
	else
		[ $((now - shown)) -ge 60 ] || return 0
	fi
	shown=$now
	mmss took "$now"
	if [ "$fraction" -eq 1 ]; then
		msg="$count/$expected objects ($((100 * count / expected))%) in $took"
		# The rate from the first object on: make's own start-up
		# (Kconfig, headers) before it made the ETA of a cold build at
		# 10% three times the time left. Below 1% it says little.
		if [ "$count" -lt "$expected" ] && [ $((100 * count)) -ge "$expected" ] &&
			[ "$count" -gt 0 ] && [ "$now" -gt "$first" ]; then
			mmss left $(((now - first) * (expected - count) / count))
			msg+=", about $left left"
		fi
	else
		msg="$count objects in $took"
		[ "$expected" -eq 0 ] || msg+=" ($expected the last time)"
	fi
	msg="  $name: $msg"
	if [ "$tty" -eq 1 ]; then
		# Spaces over what the previous line had beyond this one: no
		# terminal escapes, so a dumb terminal shows it right too.
		pad=$((width > ${#msg} ? width - ${#msg} : 0))
		printf '\r%s%*s' "$msg" "$pad" '' >&2 || :
		width=${#msg}
	else
		printf '%s\n' "$msg" >&2 || :
	fi
}

# One line at a time; a read that times out (a second without a whole line)
# or that a signal cuts short keeps what it got of the line, and the
# terminal line ticks on.
buf='' eof=''
while [ -z "$eof" ]; do
	status=0
	IFS= read -r -t 1 part || status=$?
	if [ "$status" -gt 128 ]; then
		buf+=$part
		if [ -z "$recorded" ]; then
			now=$SECONDS
			show
		fi
		continue
	fi
	line=$buf$part buf=''
	if [ "$status" -ne 0 ]; then
		eof=1
		[ -n "$line" ] || break
	fi
	if [ -n "$recorded" ]; then
		now=${line%%$'\t'*} line=${line#*$'\t'}
		case $now in
		'' | *[!0-9]*) err_exit "--recorded: a line without its seconds: '$line'" 2 ;;
		esac
	else
		now=$SECONDS
	fi
	case $line in
	'  CC '* | '  AS '*)
		count=$((count + 1))
		[ "$first" -ge 0 ] || first=$now ;;
	esac
	show
done

if [ "$tty" -eq 1 ] && [ "$width" -gt 0 ]; then
	printf '\r%*s\r' "$width" '' >&2 || :
fi
[ -z "$count_file" ] || printf '%s\n' "$count" >"$count_file"
if [ -n "$signal" ]; then
	trap - "$signal"
	kill -s "$signal" "$$"
fi
exit 0
