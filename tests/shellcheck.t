#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test: every shell script in the repository is shellcheck-clean.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
command -v shellcheck >/dev/null || tap_skip_all "shellcheck not installed"
cd "$root" || exit 1
# Shell scripts by their first line, wherever they live (bench/guest/init has no .sh).
mapfile -t scripts < <(git ls-files --cached --others --exclude-standard |
	while IFS= read -r f; do
		[ -f "$f" ] && head -n 1 "$f" | grep -Eq '^#!(/usr)?/bin/(env )?(ba|busybox )?sh' &&
			printf '%s\n' "$f"
	done)
# Sourced files without one: the registries' loaders, the passes' guest
# code and host hooks.
scripts+=(lib/common.sh tests/lib/tap.sh kernels/variants.sh workloads/workloads.sh kernels/modules/modules.sh
	bench/passes/passes.sh bench/passes/*/run bench/passes/*/host)
tap_plan "${#scripts[@]}"
for s in "${scripts[@]}"; do
	out=$(shellcheck "$s" 2>&1)
	tap_result $? "shellcheck $s"
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'
done
tap_done
