#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# call-sites.t - kernels/call-sites against the kernel sources it describes
# (kernels/call-sites-check.sh): every function defined, each site with a
# boundary function that takes its section, in the pristine 6.12 tree and in
# every variant's patched tree built so far (baseline's pre-series
# primitives included); a name that is not the tree's is caught, and so are
# the sections the negative control (rt-nolock) no longer takes.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
check=$root/kernels/call-sites-check.sh
trees=()
[ -d "$LOCKLAT_BUILD/src/pristine/mm" ] && trees+=("$LOCKLAT_BUILD/src/pristine")
for t in "$LOCKLAT_BUILD"/kernels/*/src; do
	case $t in *+*) continue ;; esac
	[ -d "$t/mm" ] && trees+=("$t")
done
[ ${#trees[@]} -gt 0 ] || tap_skip_all "no kernel source tree under $LOCKLAT_BUILD (make kernels)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan $((${#trees[@]} + 2))

for t in "${trees[@]}"; do
	out=$("$check" "$t" 2>&1)
	status=$?
	name=${t#"$LOCKLAT_BUILD"/}
	if [ "$name" = kernels/rt-nolock/src ]; then
		# The negative control drops the squashfs and zram local locks:
		# the check must see that nothing takes those sections.
		tap_is "$status:$(cut -d'|' -f1 <<<"$out" | tr -s ' \n' ' ')" "1:squashfs multi-CPU decompressor zram zcomp streams " \
			"the negative control's tree: the squashfs and zram sections taken by nothing"
	else
		tap_result "$status" "kernels/call-sites matches $name${out:+: $out}"
	fi
done
sed 's/zcomp_stream_get, /zcomp_stream_gett, /' "$root/kernels/call-sites" >"$tmp/call-sites"
out=$("$check" --call-sites "$tmp/call-sites" "${trees[0]}" 2>&1)
tap_like "$?:$out" "^1:zram zcomp streams \| zcomp_stream_gett: not defined in " "a function the tree does not define: named, exit 1"
"$check" "$tmp/no-such-tree" >/dev/null 2>&1
tap_is "$?" 2 "not a source tree: exit 2"
