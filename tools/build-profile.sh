#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-profile.sh - where the time of a cold kernel build goes.
#
# Usage: tools/build-profile.sh [-j JOBS] [--flavour plain|traced] [VARIANT]
#
# Builds one kernel of VARIANT (default: baseline, plain) as a fresh machine
# would: its own build folder and an empty ccache in a scratch directory, so
# that every object compiles. ccache's prefix_command (tools/cc-time) times
# each compiler call. Prints the wall time of each stage of kernels/build.sh,
# the compile and link parts of make, the compiler's CPU seconds and how many
# cores it kept busy, and the directories that cost most. METHODOLOGY.md
# ("Builds") holds what it measured. Takes as long as a cold build (4-6 min on
# 2 cores) and ~3 GB in the scratch directory, removed at the end.
#
# Exit status: 0 profiled, 1 the build failed, 2 bad usage.

set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
# shellcheck source=kernels/variants.sh
. "$LOCKLAT_ROOT/kernels/variants.sh"

usage() { usage_from_header "$0"; }

jobs=$(nproc) flavour=plain variant=baseline
while [ $# -gt 0 ]; do
	case $1 in
	-j) [ $# -ge 2 ] || err_exit "-j needs a number" 2
		jobs=$2; shift ;;
	--flavour) [ $# -ge 2 ] || err_exit "--flavour needs plain or traced" 2
		flavour=$2; shift ;;
	-h | --help) usage; exit 0 ;;
	-*) err_exit "unknown option '$1' (see --help)" 2 ;;
	*) variant=$1 ;;
	esac
	shift
done
is_variant "$variant" || err_exit "unknown variant '$variant'; known: $(known_variants | tr '\n' ' ')" 2

scratch=$(mktemp -d "${TMPDIR:-/tmp}/locklat-profile.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
times=$scratch/cc-times
: >"$times"
t0=$EPOCHREALTIME
LOCKLAT_BUILD=$scratch/build CCACHE_DIR=$scratch/ccache \
	CCACHE_PREFIX=$LOCKLAT_ROOT/tools/cc-time LOCKLAT_CC_TIMES=$times \
	"$LOCKLAT_ROOT/kernels/build.sh" -j "$jobs" --flavour "$flavour" "$variant" >"$scratch/out" 2>&1 ||
	{ cat "$scratch/out" >&2; err_exit "the build failed"; }
t1=$EPOCHREALTIME
kernel=$(kernel_name "$variant" "$flavour")
echo "# cold build of $kernel, make -j$jobs, $(nproc) host CPUs, $(gcc -dumpfullversion) $(ccache --version | awk 'NR == 1 { print $1, $3 }')"
# Stages: the interval from each progress line of build.sh to the next.
awk -v total="$(echo "$t1 - $t0" | bc)" '
	/^\[[0-9]+:[0-9]+ kernels\]/ {
		split(substr($1, 2), t, ":"); s = t[1] * 60 + t[2]
		if (n) printf "stage  %-52s %5d s\n", what, s - last
		what = substr($0, index($0, "]") + 2); sub(/ \(log: .*/, "", what)
		last = s; n++
	}
	END { if (n) printf "stage  %-52s %5d s\n", what, total - last }' "$scratch/out"
# The compiler calls: CPU seconds, and when the last one ended (what is
# left of make after it is the link and the image).
make_end=$(date -r "$(kernel_path "$kernel")/build.log" +%s.%N)
awk -v jobs="$jobs" -v make_end="$make_end" '
	{ d = $2 - $1; cpu += d; n++
	  if (first == "" || $1 < first) first = $1; if ($2 > last) last = $2
	  f = $3; sub(/^(\.\.\/)+/, "", f); k = split(f, p, "/")
	  dir = (k > 2 && (p[1] == "drivers" || p[1] == "arch" || p[1] == "fs")) ? p[1] "/" p[2] : (k > 1 ? p[1] : "(top)")
	  by[dir] += d; cnt[dir]++ }
	END {
		printf "compile  %d compiler calls, %.0f CPU s in %.0f s wall: %.2f of %d jobs busy\n", n, cpu, last - first, cpu / (last - first), jobs
		printf "link     from the last compiler call to the end of make: %.0f s\n", make_end - last
		for (d in by) printf "dir      %-20s %6.1f CPU s %5d calls\n", d, by[d], cnt[d] | "sort -k3,3nr | head -n 12"
	}' "$times"
