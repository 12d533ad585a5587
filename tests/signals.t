#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# signals.t - the tests whose subject is a signal hold however make check
# was started: run as "nohup make check &" does, with SIGINT ignored (a
# background job of a shell without job control) and SIGHUP ignored
# (nohup), make-progress.t still passes. A bash script cannot trap a signal
# that was ignored when it started, so the tests restore the default for the
# process under test (env --default-signal).
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 2

(
	trap '' INT HUP
	exec bash "$root/tests/make-progress.t"
) >"$tmp/out" 2>&1
tap_is "$?" 0 "make-progress.t with SIGINT and SIGHUP ignored at its start: exit 0"
tap_is "$(grep -c '^not ok' "$tmp/out")" 0 "and no test of it fails"
[ ! -s "$tmp/out" ] || grep '^not ok' "$tmp/out" | sed 's/^/# /'
tap_done
