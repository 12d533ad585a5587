#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compile-probe.sh - how fast this host compiles today, for the plan's
# estimate of a kernel build.
#
# Usage: kernels/compile-probe.sh [--count N]
#   --count N   compiles to time (default 9)
#
# Compiles compile-probe.c (beside this script) N times, one after
# another, with gcc -O2 as kbuild would (the driver, cc1 and as: the
# processes, page faults and parsing of a kernel object), and prints the
# median wall milliseconds of one compile. A kernel build is thousands of
# such compiles, so it takes time in proportion: on one machine, the same
# kernel's build took 1.9 times as long from one day to the next while xz
# ran as fast (METHODOLOGY.md, "From scratch"). The plan scales the kernel
# seconds measured beside a probe reading (lib/common.sh,
# LOCKLAT_BUILD_*_SECONDS) by today's. Takes about 2 s.
# Exit: 0 measured, 1 the compiler failed, 2 bad usage.

set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

count=9
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage_from_header "$0"; exit 0 ;;
	--count) [ $# -ge 2 ] || err_exit "--count needs a number" 2
		positive_int count "$2"
		count=$2; shift 2 ;;
	*) err_exit "unknown option '$1' (see --help)" 2 ;;
	esac
done

src=$(dirname "$0")/compile-probe.c
obj=$(mktemp "${TMPDIR:-/tmp}/locklat-probe.XXXXXX")
trap 'rm -f -- "$obj"' EXIT
ms=()
for ((i = 0; i < count; i++)); do
	t0=$EPOCHREALTIME
	gcc -std=c11 -O2 -Wall -Wextra -Werror -c -o "$obj" "$src" ||
		err_exit "gcc could not compile $src"
	t1=$EPOCHREALTIME
	ms+=($(( (${t1/./} - ${t0/./}) / 1000 )))
done
printf '%s\n' "${ms[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
