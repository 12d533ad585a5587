#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# configcheck.sh - check that every option the fragments ask for holds in a .config.
#
# Usage: kernels/configcheck.sh DOT_CONFIG FRAGMENT...
#
# After olddefconfig, Kconfig silently drops options whose dependencies are
# missing. Like rcutorture's configcheck.sh, this names each one that did not
# stick: "CONFIG_X: asked y, got n (fragment.config)". Exit 0 when all hold,
# 1 when any did not, 2 on bad usage.

set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
[ $# -ge 2 ] || err_exit "usage: configcheck.sh DOT_CONFIG FRAGMENT... (see --help)" 2
dot_config=$1
shift
for f in "$dot_config" "$@"; do
	[ -r "$f" ] || err_exit "cannot read $f" 2
done

# The last fragment that names an option wins, as in merge_config.sh.
awk '
function parse(line,    m) {
	if (line ~ /^CONFIG_[A-Za-z0-9_]+=/) {
		opt = substr(line, 1, index(line, "=") - 1)
		val = substr(line, index(line, "=") + 1)
		return 1
	}
	if (line ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) {
		split(line, m, " ")
		opt = m[2]; val = "n"
		return 1
	}
	return 0
}
FNR == 1 { file++ }
file == 1 { if (parse($0)) have[opt] = val; next }
{
	if (!parse($0)) next
	if (!(opt in want)) order[++n] = opt
	want[opt] = val
	from[opt] = FILENAME
}
END {
	bad = 0
	for (i = 1; i <= n; i++) {
		opt = order[i]
		got = (opt in have) ? have[opt] : "n"
		if (got != want[opt]) {
			f = from[opt]; sub(/.*\//, "", f)
			printf "%s: asked %s, got %s (%s)\n", opt, want[opt], got, f
			bad++
		}
	}
	exit bad ? 1 : 0
}' "$dot_config" "$@"
