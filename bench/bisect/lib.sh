# SPDX-License-Identifier: GPL-2.0
# lib.sh - what bisect.sh and judge.sh share: the rule that calls a tip
# regressed. Sourced after lib/common.sh. Functions only.

# shellcheck shell=bash

# bisect_change A_RUN B_RUN TIP_VARIANT WORKLOAD THRESHOLD OUT: what B's
# TIP_VARIANT did on WORKLOAD against A's base variant of the same model
# (locklat-compare --pair, its table and log into OUT): its change word
# ("regressed", "improved", "unchanged", "changed, under the threshold",
# "not comparable", or "absent"). Status 2 when locklat-compare failed.
bisect_change() {
	local a=$1 b=$2 tipv=$3 workload=$4 threshold=$5 out=$6 rc=0
	"$LOCKLAT_ROOT/build/bin/locklat-compare" --pair "${tipv/ab-tip/ab-base}:$tipv" --threshold "$threshold" \
		--out "$out" "$a" "$b" >"$out.log" 2>&1 || rc=$?
	[ "$rc" -le 1 ] || return 2
	jq -r --arg v "$tipv" --arg w "$workload" \
		'[.groups[] | select(.variant == $v and .workload == $w) | .change][0] // "absent"' "$out/compare.json"
}
