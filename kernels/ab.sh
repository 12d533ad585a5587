# SPDX-License-Identifier: GPL-2.0
# ab.sh - the data of an A/B run (./run-matrix.sh --ab TREE@BASE..TIP):
# any kernel change, a range of commits of a local git tree, measured as the
# 2020 series is: its base and its tip on CONFIG_PREEMPT and on PREEMPT_RT,
# and its tip under lockdep. Sourced by run-matrix.sh after lib/common.sh and
# kernels/sources.sh. Functions only.
#
# ab_prepare writes, into the run's ab/ folder, what the built-in matrix keeps
# under kernels/: the variants (ab-base, ab-tip, ab-base-rt, ab-tip-rt,
# ab-tip-lockdep; source and range pinned to commit ids, so that a branch
# moving on does not change a run), the comparisons with the question asked
# first, the series under test (the range), which the summary and
# verify-equivalence read, and from the range's diff the functions it
# changes: the verify pass's targets and the traces' call sites.

# shellcheck shell=bash

# The A/B variants: "name configs patched": the base has no patches, the
# others the range.
AB_VARIANTS="ab-base:guest-base preempt:no
ab-tip:guest-base preempt:yes
ab-base-rt:guest-base rt:no
ab-tip-rt:guest-base rt:yes
ab-tip-lockdep:guest-base preempt lockdep:yes"

# ab_check SPEC: stop with one line unless SPEC (TREE@BASE..TIP) is a range
# of commits of a kernel git tree that has PREEMPT_RT at BASE.
ab_check() {
	local tree range
	read -r tree range <<<"$(git_spec "$1")"
	case $1 in *@?*..?*) ;; *) err_exit "--ab wants TREE@BASE..TIP, got '$1'" 2 ;; esac
	patch_item_check "git:$1"
	source_check "git:$tree@${range%%..*}" 1
}

# ab_prepare DIR SPEC QUESTION_WORKLOAD: the A/B data into DIR.
ab_prepare() {
	local dir=$1 tree range base tip line name configs patched functions
	read -r tree range <<<"$(git_spec "$2")"
	base=$(git_commit "$tree" "${range%%..*}") || exit 2
	tip=$(git_commit "$tree" "${range#*..}") || exit 2
	mkdir -p "$dir/variants"
	while IFS= read -r line; do
		IFS=: read -r name configs patched <<<"$line"
		{
			echo "# SPDX-License-Identifier: GPL-2.0"
			echo "# Written by ./run-matrix.sh --ab $2 (kernels/ab.sh)."
			if [ "$patched" = yes ]; then
				echo "description=${range#*..} ($tree, ${range%%..*} and the range's commits): $configs"
			else
				echo "description=${range%%..*} ($tree): $configs"
			fi
			echo "source=git:$tree@$base"
			[ "$patched" = no ] || echo "patches=git:$tree@$base..$tip"
			echo "configs=$configs"
			echo "bootargs="
		} >"$dir/variants/$name"
	done <<<"$AB_VARIANTS"
	printf 'git:%s@%s..%s\n' "$tree" "$base" "$tip" >"$dir/series"
	# What the change touches: the verify pass's targets for every workload
	# (a workload that reaches none of them does not exercise the change),
	# and a call site per changed file for the traces' attribution.
	functions=$(series_functions "git:$tree@$base..$tip")
	awk 'NF { print $2 }' <<<"$functions" | LC_ALL=C sort -u >"$dir/targets"
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo "# Written by ./run-matrix.sh --ab $2 (kernels/ab.sh); format: kernels/call-sites."
		awk '
			!NF { next }
			$1 != file { if (file != "") print file " (changed) | " fns; file = $1; fns = $2; next }
			{ fns = fns ", " $2 }
			END { if (file != "") print file " (changed) | " fns }' <<<"$functions"
	} >"$dir/call-sites"
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo "# Written by ./run-matrix.sh --ab $2 (kernels/ab.sh); format: kernels/comparisons."
		echo "question | ab-tip-rt | ab-base-rt | $3"
		echo "ab-tip | ab-base | * | not-higher | the change on CONFIG_PREEMPT must not raise the maximum: the run exits 1 when the tip's interval lies wholly above 1.05, or it fails more often under load"
		echo "ab-tip-rt | ab-base-rt | * | not-higher | the change on PREEMPT_RT must not raise the maximum: the run exits 1 when the tip's interval lies wholly above 1.05, or it fails more often under load"
		echo "ab-tip-lockdep | ab-tip | * | not-lower | lockdep adds work to every lock operation"
		echo "verdict | ab-tip | ab-base"
		echo "verdict | ab-tip-rt | ab-base-rt"
	} >"$dir/comparisons"
}
