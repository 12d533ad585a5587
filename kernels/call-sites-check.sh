#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# call-sites-check.sh - check kernels/call-sites against a kernel source tree.
#
# Usage: kernels/call-sites-check.sh [--call-sites FILE] SRC_TREE
#
# The summary blames a traced section on a call site only when it opened or
# closed in one of the site's boundary functions, so those names must be the
# tree's: every function of the file (boundary and inside) must be defined
# in SRC_TREE, and each site must have a boundary function whose body takes
# the section (local_lock/local_unlock, or the pre-series primitives a
# baseline tree has: preempt_disable/enable, get/put_cpu_ptr, get/put_cpu_var,
# local_irq_save/restore). Prints "site | function: problem" per problem.
#
# Exit status: 0 the file matches the tree, 1 it does not, 2 bad usage.

set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

call_sites=$LOCKLAT_ROOT/kernels/call-sites
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage_from_header "$0"; exit 0 ;;
	--call-sites) [ $# -ge 2 ] || err_exit "--call-sites needs a value" 2; call_sites=$2; shift 2 ;;
	-*) err_exit "unknown option '$1' (see --help)" 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || err_exit "one source tree expected (see --help)" 2
tree=$1
if [ ! -f "$tree/Makefile" ] || [ ! -d "$tree/mm" ]; then
	err_exit "$tree: not a kernel source tree" 2
fi
[ -r "$call_sites" ] || err_exit "$call_sites: cannot read" 2

# Where the converted call sites live: enough to find every definition.
dirs=(mm lib fs/squashfs drivers/block/zram drivers/connector include/linux)
primitives='local_(lock|unlock)(_irq|_irqsave|_irqrestore)?\(|preempt_(disable|enable)\(|(get|put)_cpu_(ptr|var)\(|local_irq_(save|restore)\('

# body FUNCTION: the source of FUNCTION's definitions (from the line that
# names it at the start of a definition to the next "}" in column 0).
body() {
	local files
	mapfile -t files < <(cd "$tree" && grep -rlE --include='*.[ch]' "(^|[ *])$1\(" "${dirs[@]}" 2>/dev/null)
	[ ${#files[@]} -gt 0 ] || return 1
	(cd "$tree" && awk -v f="$1" '
		!inside && $0 ~ "^[a-z_].*[ *]" f "\\(" && $0 !~ /;[ \t]*$/ { inside = 1; found = 1 }
		inside { print }
		inside && /^}/ { inside = 0 }
		END { exit !found }' "${files[@]}")
}

problems=0
while IFS='|' read -r site boundary inside; do
	site=$(sed 's/^ *//; s/ *$//' <<<"$site")
	case $site in '' | '#'*) continue ;; esac
	takes=0
	for kind in boundary inside; do
		list=$boundary
		[ "$kind" = inside ] && list=${inside:-}
		for fn in ${list//,/ }; do
			if ! src=$(body "$fn"); then
				echo "$site | $fn: not defined in $tree ($kind function)"
				problems=$((problems + 1))
			elif [ "$kind" = boundary ] && grep -qE "$primitives" <<<"$src"; then
				takes=1
			fi
		done
	done
	if [ "$takes" -eq 0 ]; then
		echo "$site | (boundary functions): none takes the section ($primitives)"
		problems=$((problems + 1))
	fi
done <"$call_sites"
[ "$problems" -eq 0 ]
