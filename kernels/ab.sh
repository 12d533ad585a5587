# SPDX-License-Identifier: GPL-2.0
# ab.sh - the data of an A/B run (./run-matrix.sh --ab [-C TREE] BASE..TIP,
# or --ab-mbox FILE --ab-base REF):
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

# ab_tree_dir TREE: TREE as an absolute path, or an error naming what is wrong.
ab_tree_dir() {
	git -C "$1" rev-parse --git-dir >/dev/null 2>&1 || err_exit "$1 is not a git tree" 2
	(cd "$1" && pwd -P)
}

# ab_resolve RANGE TREE MBOX BASE: the A/B run's range as TREE@BASE..TIP,
# pinned to commit ids when the run starts, from what a git user types:
#   --ab [-C TREE] BASE..TIP      TREE defaults to the current directory
#   --ab TREE@BASE..TIP           the older form
#   --ab-mbox FILE --ab-base REF [-C TREE]
#                                 the mail series applied onto REF (git am's
#                                 rules) in a scratch repository (ab_mbox_tree)
# The user's tree is only read.
ab_resolve() {
	local range=$1 tree=$2 mbox=$3 base=$4 base_id tip_id
	if [ -n "$mbox" ] || [ -n "$base" ]; then
		[ -z "$range" ] || err_exit "--ab and --ab-mbox are two ways to name the change: give one" 2
		[ -n "$mbox" ] || err_exit "--ab-base needs --ab-mbox FILE (the series to apply onto it)" 2
		[ -n "$base" ] || err_exit "--ab-mbox needs --ab-base REF (the commit the series applies to)" 2
		patch_item_check "mbox:$mbox"
		tree=$(ab_tree_dir "${tree:-.}") || exit 2
		base_id=$(git_commit "$tree" "$base") || exit 2
		ab_mbox_tree "$tree" "$base_id" "$mbox" || exit 2
		return 0
	fi
	[ -n "$range" ] || err_exit "-C names the tree of --ab or --ab-mbox: give one of them" 2
	case $range in
	*@*)
		[ -z "$tree" ] || err_exit "--ab $range names its tree, and so does -C $tree: give one" 2
		read -r tree range <<<"$(git_spec "$range")" ;;
	esac
	case $range in
	?*..?*) ;;
	*) err_exit "--ab wants BASE..TIP (with -C TREE) or TREE@BASE..TIP, got '$1'" 2 ;;
	esac
	tree=$(ab_tree_dir "${tree:-.}") || exit 2
	base_id=$(git_commit "$tree" "${range%%..*}") || exit 2
	tip_id=$(git_commit "$tree" "${range#*..}") || exit 2
	printf '%s@%s..%s\n' "$tree" "$base_id" "$tip_id"
}

# ab_mbox_tree TREE BASE MBOX: a scratch bare repository under build/ab-trees/
# whose commits are MBOX's messages applied onto BASE, one commit each, as
# git am makes them (author, date, subject and body from the mail, the diff
# applied without fuzz, git apply). It borrows TREE's objects (alternates)
# and writes none into TREE. Made once per base and mbox content; prints
# SCRATCH@BASE..TIP.
ab_mbox_tree() {
	local tree=$1 base=$2 mbox=$3 key dir msg parent info subject
	key=$(printf '%s %s' "$base" "$(sha256_of "$mbox")" | sha256sum | cut -c1-16)
	dir=$LOCKLAT_BUILD/ab-trees/$key
	if [ ! -f "$dir/locklat-tip" ]; then
		rm -rf "$dir.tmp" "$dir"
		mkdir -p "$dir.tmp/mail"
		git_scratch_repo "$dir.tmp/repo.git" "$tree"
		git mailsplit -o"$dir.tmp/mail" "$mbox" >/dev/null || err_exit "--ab-mbox $mbox: git mailsplit failed" 2
		parent=$base
		for msg in "$dir.tmp"/mail/[0-9]*; do
			info=$(git mailinfo "$dir.tmp/body" "$dir.tmp/patch" <"$msg") ||
				err_exit "--ab-mbox $mbox: cannot read message $(basename "$msg")" 2
			subject=$(sed -n 's/^Subject: //p' <<<"$info")
			[ -s "$dir.tmp/patch" ] || err_exit "--ab-mbox $mbox: message $(basename "$msg") ($subject) has no patch" 2
			parent=$(ab_commit_patch "$dir.tmp" "$parent" "$info" "$subject") ||
				err_exit "--ab-mbox $mbox: '$subject' does not apply onto $(git -C "$tree" log -1 --format=%h "$base") (git apply)" 2
		done
		printf '%s\n' "$parent" >"$dir.tmp/locklat-tip"
		rm -rf "$dir.tmp/mail" "$dir.tmp/body" "$dir.tmp/patch" "$dir.tmp/index"
		mv "$dir.tmp" "$dir"
	fi
	printf '%s/repo.git@%s..%s\n' "$dir" "$base" "$(cat "$dir/locklat-tip")"
}

# ab_commit_patch DIR PARENT INFO SUBJECT: DIR/patch applied onto PARENT in
# DIR/repo.git (an index of its own, no work tree), committed with the
# mail's author and date; prints the commit. Run in a subshell: it exports
# GIT_DIR and GIT_INDEX_FILE.
ab_commit_patch() {
	local dir=$1 parent=$2 info=$3 subject=$4 tree_id field
	local -A mail=()
	while IFS= read -r field; do
		mail[${field%%: *}]=${field#*: }
	done <<<"$info"
	export GIT_DIR=$dir/repo.git GIT_INDEX_FILE=$dir/index
	git read-tree "$parent" && git apply --cached "$dir/patch" 2>/dev/null && tree_id=$(git write-tree) &&
		{ printf '%s\n\n' "$subject"; cat "$dir/body"; } |
		GIT_AUTHOR_NAME=${mail[Author]:-unknown} GIT_AUTHOR_EMAIL=${mail[Email]:-unknown} \
		GIT_AUTHOR_DATE=${mail[Date]:-} GIT_COMMITTER_NAME=locklat GIT_COMMITTER_EMAIL=locklat@localhost \
		git commit-tree "$tree_id" -p "$parent"
}

# ab_check SPEC: stop with one line unless SPEC (TREE@BASE..TIP, as
# ab_resolve wrote it) is a range with commits of a kernel git tree.
ab_check() {
	local tree range
	read -r tree range <<<"$(git_spec "$1")"
	patch_item_check "git:$1"
	source_check "git:$tree@${range%%..*}"
}

# ab_has_rt TREE COMMIT: true when the kernel at COMMIT has PREEMPT_RT.
ab_has_rt() {
	git -C "$1" show "$2:kernel/Kconfig.preempt" 2>/dev/null | grep -q '^config PREEMPT_RT$'
}

# ab_variant FILE SPEC DESCRIPTION CONFIGS SOURCE [PATCHES]: one variant file.
ab_variant() {
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo "# Written by ./run-matrix.sh --ab $2 (kernels/ab.sh)."
		echo "description=$3"
		echo "source=$5"
		[ -z "${6:-}" ] || echo "patches=$6"
		echo "configs=$4"
		echo "bootargs="
	} >"$1"
}

# ab_prepare DIR SPEC QUESTION_WORKLOAD [each]: the A/B data into DIR; with
# "each", a variant per commit instead (ab_prepare_each).
ab_prepare() {
	local dir=$1 tree range base tip line name configs patched functions
	read -r tree range <<<"$(git_spec "$2")"
	base=$(git_commit "$tree" "${range%%..*}") || exit 2
	tip=$(git_commit "$tree" "${range#*..}") || exit 2
	mkdir -p "$dir/variants"
	# A tree without PREEMPT_RT (before 6.12, without the RT patch set)
	# runs the CONFIG_PREEMPT half, and the plan says so.
	if ab_has_rt "$tree" "$base"; then echo "preempt rt"; else echo preempt; fi >"$dir/models"
	if [ "${4:-}" = each ]; then
		ab_prepare_each "$dir" "$2" "$tree" "$base" "$tip" "$3"
	else
		while IFS= read -r line; do
			IFS=: read -r name configs patched <<<"$line"
			[[ $configs != *rt* ]] || grep -qw rt "$dir/models" || continue
			if [ "$patched" = yes ]; then
				ab_variant "$dir/variants/$name" "$2" "$(ab_describe "$tree" "$tip") on $(ab_describe "$tree" "$base"): $configs" \
					"$configs" "git:$tree@$base" "git:$tree@$base..$tip"
			else
				ab_variant "$dir/variants/$name" "$2" "$(ab_describe "$tree" "$base"): $configs" "$configs" "git:$tree@$base"
			fi
		done <<<"$AB_VARIANTS"
		{ ab_comparisons "$2" "$3" ab-tip ab-base "$dir"; ab_gate ab-tip ab-base "$dir"; } >"$dir/comparisons"
		echo "ab-tip-lockdep | ab-tip | * | not-lower | lockdep adds work to every lock operation" >>"$dir/comparisons"
	fi
	printf 'git:%s@%s..%s\n' "$tree" "$base" "$tip" >"$dir/series"
	# What the change touches: the verify pass's targets for every workload
	# (a workload that reaches none of them does not exercise the change),
	# and a call site per changed file for the traces' attribution.
	functions=$(series_functions "git:$tree@$base..$tip")
	printf '%s\n' "$functions" >"$dir/functions"
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
}

# ab_describe TREE COMMIT: "abbrev subject" of COMMIT.
ab_describe() {
	git -C "$1" log -1 --format='%h %s' "$2"
}

# ab_comparisons SPEC QUESTION NEW OLD DIR: the head of a kernels/comparisons
# file whose question is NEW-rt against OLD-rt on QUESTION (NEW against
# OLD when DIR/models has no rt).
ab_comparisons() {
	local rt=-rt
	grep -qw rt "$5/models" || rt=
	echo "# SPDX-License-Identifier: GPL-2.0"
	echo "# Written by ./run-matrix.sh --ab $1 (kernels/ab.sh); format: kernels/comparisons."
	echo "question | $3$rt | $4$rt | $2"
}

# ab_gate NEW OLD DIR: NEW not higher than OLD on CONFIG_PREEMPT and, when
# DIR/models has it, PREEMPT_RT, and their verdicts.
ab_gate() {
	local why="must not raise the maximum: the run exits 1 when the interval lies wholly above 1.05, or it fails more often under load"
	echo "$1 | $2 | * | not-higher | the change on CONFIG_PREEMPT $why"
	echo "verdict | $1 | $2"
	grep -qw rt "$3/models" || return 0
	echo "$1-rt | $2-rt | * | not-higher | the change on PREEMPT_RT $why"
	echo "verdict | $1-rt | $2-rt"
}

# ab_prepare_each DIR SPEC TREE BASE TIP QUESTION: ./run-matrix.sh
# --each-commit's variants, in the spirit of ktest's PATCHCHECK: the base
# and every commit of the range, each on CONFIG_PREEMPT (ab-cNN) and
# PREEMPT_RT (ab-cNN-rt), c00 the base; DIR/commits lists them ("name
# commit subject"); each commit is set against the one before.
ab_prepare_each() {
	local dir=$1 spec=$2 tree=$3 base=$4 tip=$5 commits n i=0 width name prev='' c patches model suffix models
	commits=$(git -C "$tree" rev-list --reverse "$base..$tip")
	n=$(grep -c . <<<"$commits")
	width=$((${#n} > 2 ? ${#n} : 2))
	: >"$dir/commits"
	read -r -a models <"$dir/models"
	ab_comparisons "$spec" "$6" "ab-c$(printf '%0*d' "$width" "$n")" "ab-c$(printf '%0*d' "$width" 0)" "$dir" \
		>"$dir/comparisons"
	for c in "$base" $commits; do
		name=ab-c$(printf '%0*d' "$width" "$i")
		printf '%s %s %s\n' "$name" "$c" "$(git -C "$tree" log -1 --format=%s "$c")" >>"$dir/commits"
		# The base has no patches; a commit, the range up to it.
		patches=''
		[ "$c" = "$base" ] || patches=git:$tree@$base..$c
		for model in "${models[@]}"; do
			suffix=${model/#preempt/}
			ab_variant "$dir/variants/$name${suffix:+-$suffix}" "$spec" \
				"$(ab_describe "$tree" "$c"): guest-base $model" "guest-base $model" "git:$tree@$base" "$patches"
		done
		[ -z "$prev" ] || ab_gate "$name" "$prev" "$dir" >>"$dir/comparisons"
		prev=$name i=$((i + 1))
	done
}

# ab_reach DIR CHOSEN...: whether each workload can reach what the range
# changes (DIR/targets), before anything is built: a changed function among
# its verify targets (workloads/<w>/workload), or among the functions of a
# call site of kernels/call-sites that holds one of them. A line per
# workload of CHOSEN ("w: f (a target), g (in SITE)", or that it reaches
# none), then, when no chosen workload reaches one, a line naming the others
# that might, or --targets. After the run, the verify pass says what was
# reached.
ab_reach() {
	local dir=$1 w hits reached=0 might=()
	shift
	[ -s "$dir/targets" ] || return 0
	for w in $(known_workloads); do
		workload_load "$w"
		[ "$WORKLOAD_TARGETS" != - ] || continue
		hits=$(ab_workload_functions "$WORKLOAD_TARGETS" | awk -F'\t' '
			NR == FNR { changed[$1] = 1; next }
			($1 in changed) && !seen[$1]++ { printf "%s%s (%s)", n++ ? ", " : "", $1, $2 }' "$dir/targets" -)
		if [[ " $* " != *" $w "* ]]; then
			[ -z "$hits" ] || might+=("$w")
		elif [ -n "$hits" ]; then
			reached=1
			printf '%s: %s\n' "$w" "$hits"
		else
			printf '%s: none (no changed function is its target or in its call sites)\n' "$w"
		fi
	done
	[ "$reached" -eq 0 ] || return 0
	printf 'no chosen workload reaches a function the range changes (%s): ' "$(paste -sd, "$dir/targets" | sed 's/,/, /g')"
	if [ "${#might[@]}" -gt 0 ]; then
		printf -- '--workloads %s might\n' "$(IFS=,; echo "${might[*]}")"
	else
		printf 'no workload of workloads/ does; --targets counts them all the same, a workload of your own drives them\n'
	fi
}

# ab_workload_functions TARGETS: "function<TAB>how" for a workload's targets
# ("a target") and the functions of each call site of kernels/call-sites
# that holds one of them ("in SITE").
ab_workload_functions() {
	tr ',' '\n' <<<"$1" | sed 's/$/\ta target/'
	awk -F' [|] ' -v targets="$1" '
		BEGIN { n = split(targets, a, ","); for (i = 1; i <= n; i++) t[a[i]] = 1 }
		/^#/ || NF < 2 { next }
		{
			n = split($2 ", " $3, f, ", "); hit = 0
			for (i = 1; i <= n; i++) if (f[i] in t) hit = 1
			for (i = 1; hit && i <= n; i++) if (f[i] != "") printf "%s\tin %s\n", f[i], $1
		}' "$LOCKLAT_ROOT/kernels/call-sites"
}
