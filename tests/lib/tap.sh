# SPDX-License-Identifier: GPL-2.0
# tests/lib/tap.sh - minimal TAP producer for locklat's shell tests (run by prove).
#
# Usage: . "$(dirname "$0")/lib/tap.sh"; tap_plan N; tap_ok COND_STATUS "name"; ...
# Exit status follows kselftest: 0 pass, 1 fail, 4 skip (0 under prove).

# shellcheck shell=bash

TAP_N=0
TAP_FAILED=0

tap_plan() {
	echo "1..$1"
}

# tap_skip_all REASON: the whole file is skipped (TAP "1..0 # SKIP"). Exit 4
# is kselftest's skip; prove (which sets HARNESS_ACTIVE) reads any non-zero
# exit as a failure and takes the skip from the plan line, so under prove 0.
tap_skip_all() {
	echo "1..0 # SKIP $1"
	[ -z "${HARNESS_ACTIVE:-}" ] || exit 0
	exit 4
}

# tap_result STATUS NAME: ok when STATUS is 0.
tap_result() {
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
		TAP_FAILED=$((TAP_FAILED + 1))
	fi
}

# tap_run NAME CMD...: ok when CMD exits 0.
tap_run() {
	local name=$1
	shift
	"$@"
	tap_result $? "$name"
}

# tap_is GOT WANT NAME
tap_is() {
	if [ "$1" = "$2" ]; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
		printf '# got:  %s\n# want: %s\n' "$1" "$2"
	fi
}

# tap_like GOT REGEX NAME
tap_like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
		printf '# got: %s\n# wanted a match for: %s\n' "$1" "$2"
	fi
}

tap_done() {
	[ "$TAP_FAILED" -eq 0 ]
	exit $?
}

# wait_until SECONDS COMMAND...: poll COMMAND every WAIT_POLL_S seconds (0.5)
# until it succeeds (status 0) or SECONDS have passed (status 1).
wait_until() {
	local limit=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$limit" ] || return 1
		sleep "${WAIT_POLL_S:-0.5}"
	done
}
