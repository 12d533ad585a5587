# SPDX-License-Identifier: GPL-2.0
# sources.sh - where a variant's kernel source and patches come from
# (kernels/README.md, "Sources"): sourced by kernels/build.sh and
# kernels/verify-equivalence.sh after lib/common.sh. Functions only.
#
# A variant's source= is one of
#   debian              Debian's linux-source-6.12 tarball (the default)
#   tarball:PATH        a kernel source tarball (one top-level folder)
#   git:TREE@REF        a local kernel git tree at a commit, tag or branch
# and each word of its patches= one of
#   NAME                the series kernels/patches/NAME/ (its series file)
#   git:TREE@BASE..TIP  the commits of a range of a local git tree
#   mbox:PATH           the messages of an mbox, in order
# Every patch is applied with patch -p1 (GNU patch, as git am would apply
# a commit's diff), so the five built-in variants are one instance of this.
# Nothing here reaches the network.

# shellcheck shell=bash

# source_kind SOURCE: debian, tarball or git; an error for anything else.
source_kind() {
	case $1 in
	debian) echo debian ;;
	tarball:?*) echo tarball ;;
	git:?*@?*) echo git ;;
	*) err_exit "source '$1': want debian, tarball:PATH or git:TREE@REF" 2 ;;
	esac
}

# git_spec SPEC: "TREE REF" of TREE@REF (the last @ splits: a path may hold one).
git_spec() {
	printf '%s %s\n' "${1%@*}" "${1##*@}"
}

# git_commit TREE REF: the commit REF names in TREE, or an error naming what is wrong.
git_commit() {
	git -C "$1" rev-parse --git-dir >/dev/null 2>&1 || err_exit "$1 is not a git tree" 2
	git -C "$1" rev-parse --verify -q "$2^{commit}" ||
		err_exit "$1 has no commit '$2'" 2
}

# git_scratch_repo DIR TREE: an empty bare repository at DIR that borrows
# TREE's objects (alternates): what it makes is written there, not in TREE.
git_scratch_repo() {
	git init -q --bare "$1" || err_exit "cannot make a scratch repository in $1"
	git -C "$2" rev-parse --path-format=absolute --git-common-dir | sed 's|$|/objects|' \
		>"$1/objects/info/alternates"
}

# source_check SOURCE [NEEDS_RT]: stop with one line if SOURCE cannot be a
# kernel source here; with NEEDS_RT=1, also if it has no PREEMPT_RT.
source_check() {
	local tree ref commit preempt kind
	# Apart, not in the case word: a failed substitution there goes unnoticed.
	kind=$(source_kind "$1") || exit 2
	case $kind in
	debian)
		[ -r "$LOCKLAT_KERNEL_TARBALL" ] ||
			err_exit "$LOCKLAT_KERNEL_TARBALL not found: install the Debian package $LOCKLAT_KERNEL_PACKAGE (make deps)"
		return 0 ;;
	tarball)
		{ [ -f "${1#tarball:}" ] && [ -r "${1#tarball:}" ]; } || err_exit "source $1: no readable tarball there" 2
		preempt=$(tar -xOf "${1#tarball:}" --wildcards --no-anchored 'kernel/Kconfig.preempt' 2>/dev/null) ||
			err_exit "source $1: not a kernel source tarball (no kernel/Kconfig.preempt)" 2 ;;
	git)
		read -r tree ref <<<"$(git_spec "${1#git:}")"
		commit=$(git_commit "$tree" "$ref") || exit 2
		if ! git -C "$tree" cat-file -e "$commit:Makefile" 2>/dev/null ||
			! preempt=$(git -C "$tree" show "$commit:kernel/Kconfig.preempt" 2>/dev/null); then
			err_exit "source $1: not a kernel tree at $ref (no Makefile, kernel/Kconfig.preempt)" 2
		fi ;;
	esac
	if [ "${2:-0}" = 1 ] && ! grep -q '^config PREEMPT_RT$' <<<"$preempt"; then
		err_exit "source $1: this kernel has no PREEMPT_RT (mainline has it from 6.12; earlier ones need the RT patch set)" 2
	fi
	return 0
}

# source_key SOURCE: what identifies its content: the tarball's sha256, or
# the git tree object of the commit (the same tree from two commits is one).
source_key() {
	local tree ref kind
	kind=$(source_kind "$1") || exit 2
	case $kind in
	debian) printf 'tarball %s\n' "$(file_sha256_cached "$LOCKLAT_KERNEL_TARBALL")" ;;
	tarball) printf 'tarball %s\n' "$(file_sha256_cached "${1#tarball:}")" ;;
	git)
		read -r tree ref <<<"$(git_spec "${1#git:}")"
		printf 'git-tree %s\n' "$(git -C "$tree" rev-parse "$(git_commit "$tree" "$ref")^{tree}")" ;;
	esac
}

# file_sha256_cached FILE: its sha256, cached under build/src/ by size and
# mtime (hashing a 140 MB tarball on every build would dominate a no-op one).
file_sha256_cached() {
	local cache stamp
	stamp="$(stat -c '%s %Y' "$1") $(readlink -f "$1")"
	cache=$LOCKLAT_BUILD/src/.sha256-$(printf '%s' "$stamp" | sha256sum | cut -c1-16)
	if [ ! -f "$cache" ] || [ "$(head -n 1 "$cache")" != "$stamp" ]; then
		mkdir -p "$LOCKLAT_BUILD/src"
		printf '%s\n%s\n' "$stamp" "$(sha256_of "$1")" >"$cache"
	fi
	tail -n 1 "$cache"
}

# source_dir SOURCE: its pristine tree under build/src/: Debian's at
# pristine/ (as ever), any other at one folder per content key.
source_dir() {
	if [ "$1" = debian ]; then
		printf '%s/src/pristine\n' "$LOCKLAT_BUILD"
	else
		local key
		key=$(source_key "$1") || exit 2
		printf '%s/src/%s\n' "$LOCKLAT_BUILD" "$(printf '%s' "$key" | tr ' ' - | cut -c1-32)"
	fi
}

# source_extract SOURCE: its pristine tree, extracted once per content.
# Extraction goes to a temporary name and is renamed when complete, so an
# interrupted run never leaves a half tree that a later run would trust.
# Prints the tree's path.
source_extract() {
	local dir key tree ref
	dir=$(source_dir "$1") || exit 2
	key=$(source_key "$1") || exit 2
	# It is removed and made again below: never anything but a source's own folder.
	case $dir in "$LOCKLAT_BUILD"/src/?*) ;; *) err_exit "internal: source folder '$dir' for $1" 70 ;; esac
	[ -n "$key" ] || err_exit "internal: no content key for $1" 70
	if [ -f "$dir/Makefile" ] && [ "$(cat "$dir/.locklat-source" 2>/dev/null)" = "$key" ]; then
		printf '%s\n' "$dir"
		return 0
	fi
	require_disk_space "$LOCKLAT_BUILD" 2500
	progress kernels "extracting $1" >&2
	rm -rf "$dir.tmp" "$dir"
	mkdir -p "$dir.tmp"
	case $(source_kind "$1") in # checked by source_key above
	debian) tar -xJf "$LOCKLAT_KERNEL_TARBALL" -C "$dir.tmp" --strip-components=1 ;;
	tarball) tar -xf "${1#tarball:}" -C "$dir.tmp" --strip-components=1 ;;
	git)
		read -r tree ref <<<"$(git_spec "${1#git:}")"
		git -C "$tree" archive --format=tar "$(git_commit "$tree" "$ref")" | tar -xf - -C "$dir.tmp" ;;
	esac || err_exit "extracting $1 failed"
	printf '%s\n' "$key" >"$dir.tmp/.locklat-source"
	mv "$dir.tmp" "$dir"
	printf '%s\n' "$dir"
}

# patch_item_check ITEM: stop with one line if a patches= word cannot be
# resolved (a missing series, a tree or ref that does not exist, a range
# without commits, an unreadable mbox).
patch_item_check() {
	local tree range base tip
	case $1 in
	git:*)
		read -r tree range <<<"$(git_spec "${1#git:}")"
		case $range in *..*) ;; *) err_exit "patches $1: want git:TREE@BASE..TIP" 2 ;; esac
		base=$(git_commit "$tree" "${range%%..*}") || exit 2
		tip=$(git_commit "$tree" "${range#*..}") || exit 2
		[ -n "$(git -C "$tree" rev-list "$base..$tip")" ] ||
			err_exit "patches $1: the range has no commits" 2 ;;
	mbox:*)
		{ [ -f "${1#mbox:}" ] && [ -r "${1#mbox:}" ]; } || err_exit "patches $1: no readable mbox there" 2
		grep -q '^From ' "${1#mbox:}" || err_exit "patches $1: not an mbox (no 'From ' line)" 2 ;;
	*)
		[ -f "$LOCKLAT_PATCHES_DIR/$1/series" ] ||
			err_exit "no patch series '$1' (kernels/patches/$1/series)" 2 ;;
	esac
}

# patch_item_files ITEM: the patch files of a patches= word, in order. A git
# range is written out with git format-patch, an mbox split with git
# mailsplit, each once, under build/patches/<content key>/.
patch_item_files() {
	local dir line tree range key
	case $1 in
	git:* | mbox:*)
		if [ "${1%%:*}" = git ]; then
			read -r tree range <<<"$(git_spec "${1#git:}")"
			key=git-$(git -C "$tree" rev-parse "${range%%..*}" "${range#*..}" | sha256sum | cut -c1-16)
		else
			key=mbox-$(sha256_of "${1#mbox:}" | cut -c1-16)
		fi
		dir=$LOCKLAT_BUILD/patches/$key
		if [ ! -d "$dir" ]; then
			rm -rf "$dir.tmp"
			mkdir -p "$dir.tmp"
			if [ "${1%%:*}" = git ]; then
				git -C "$tree" format-patch -q --no-signature -o "$dir.tmp" "$range" >/dev/null
			else
				git mailsplit -o"$dir.tmp" "${1#mbox:}" >/dev/null
			fi || err_exit "patches $1: cannot write its patches out"
			mv "$dir.tmp" "$dir"
		fi
		find "$dir" -maxdepth 1 -type f | LC_ALL=C sort ;;
	*)
		dir=$LOCKLAT_PATCHES_DIR/$1
		while IFS= read -r line; do
			case $line in
			'' | '#'*) ;;
			*) [ -f "$dir/$line" ] || err_exit "series $1 names a missing patch $line"
				printf '%s\n' "$dir/$line" ;;
			esac
		done <"$dir/series" ;;
	esac
}

# series_sources ITEM: the .c files its patches change, one per line.
series_sources() {
	local f
	patch_item_files "$1" | while IFS= read -r f; do
		sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$f"
	done | sort -u
}

# series_functions ITEM: "file function" for each function of a .c file whose
# lines the patches change, once each. A changed line belongs to the last
# function header (a line at column 0 naming "identifier(", not a macro,
# not ending in ";") before it in its hunk, else to the hunk header's
# function, until a "}" at column 0 ends it. A heuristic: a change between
# two functions is put to the one before; the list is overridable by hand
# (./run-matrix.sh --targets).
series_functions() {
	local f
	patch_item_files "$1" | while IFS= read -r f; do
		# shellcheck disable=SC2016 # an awk program
		awk '
		function fname(s,   m) {
			if (!match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/))
				return ""
			m = substr(s, RSTART, RLENGTH)
			sub(/[ \t]*\($/, "", m)
			return m ~ /^[A-Z0-9_]+$/ ? "" : m
		}
		/^\+\+\+ / { file = $2; sub(/^b\//, "", file); c = file ~ /\.c$/; cur = ""; next }
		/^--- / { next }
		/^@@/ { ctx = $0; sub(/^@@[^@]*@@ ?/, "", ctx); cur = fname(ctx); next }
		!c { next }
		/^[ +-][A-Za-z_]/ && !/;[ \t]*$/ { n = fname(substr($0, 2)); if (n != "") cur = n }
		/^[+-]/ && cur != "" { print file, cur }
		/^[ +-]}/ { cur = "" }' "$f"
	done | LC_ALL=C sort -u
}
