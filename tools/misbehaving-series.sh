#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# misbehaving-series.sh - a kernel git tree to try A/B, --each-commit and
# --bisect on: Debian's pristine linux-source-6.12 as its first commit,
# then a series of three that misbehaves on purpose. No network.
#
# Usage: tools/misbehaving-series.sh DIR
#        tools/misbehaving-series.sh --help
#   1. squashfs: say why the decompressor's stream is per CPU   (a comment)
#   2. squashfs: account decompression with preemption off      (the culprit)
#      a 200 µs udelay() under preempt_disable() after each decompression
#      in squashfs_decompress(): a non-preemptible section that the
#      squashfs workload reaches on PREEMPT_RT, where the local_lock around
#      it is preemptible and the maximum is a few µs
#   3. mm/swap: say what the folio batches hold                 (a comment)
# DIR must not exist. Prints DIR's commits, base first. Commit dates are
# fixed, so the same source gives the same commit ids.

# shellcheck disable=SC2016 # the edits are perl programs: their $1 is perl's
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
# shellcheck source=kernels/sources.sh
. "$LOCKLAT_ROOT/kernels/sources.sh"

case ${1:-} in -h | --help | '') usage_from_header "$0"; [ -n "${1:-}" ] && exit 0; exit 2 ;; esac
dir=$1
[ ! -e "$dir" ] || err_exit "$dir exists: give a new folder" 2
export GIT_AUTHOR_NAME=locklat GIT_AUTHOR_EMAIL=locklat@localhost GIT_COMMITTER_NAME=locklat \
	GIT_COMMITTER_EMAIL=locklat@localhost GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
	GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'

pristine=$(source_extract debian)
mkdir -p "$dir"
progress series "copying $pristine into a git tree at $dir"
cp -a "$pristine/." "$dir/"
rm -f "$dir/.locklat-source"
git -C "$dir" init -q
# -f: Debian's tree ignores its own top level (its .gitignore says "/*").
git -C "$dir" -c core.compression=1 -c core.looseCompression=1 add -f -A .
git -C "$dir" commit -q -m "Linux 6.12 (Debian linux-source-6.12)"

# commit FILE SUBJECT BODY PERL: FILE edited by the perl -0pi program PERL, committed.
commit() {
	local file=$dir/$1 before
	before=$(sha256_of "$file")
	perl -0pi -e "$4" "$file"
	[ "$(sha256_of "$file")" != "$before" ] || err_exit "$1: the edit for '$2' changed nothing (another 6.12?)"
	git -C "$dir" commit -q -am "$2" -m "$3"
}
commit fs/squashfs/decompressor_multi_percpu.c "squashfs: say why the decompressor's stream is per CPU" \
	"A comment only." \
	's|(\tlocal_lock\(&percpu->lock\);\n)|\t/* One stream per CPU: the local lock keeps it ours while we decompress. */\n$1|'
commit fs/squashfs/decompressor_multi_percpu.c "squashfs: account decompression with preemption off" \
	"Misbehaves on purpose (tools/misbehaving-series.sh): a 200 us non-preemptible section after each
decompression, which PREEMPT_RT's preemptible local lock no longer hides." \
	's|(#include <linux/local_lock.h>\n)|$1#include <linux/delay.h>\n|; s|(\tlocal_unlock\(&percpu->lock\);\n)|$1\n\tpreempt_disable();\n\tudelay(200);\n\tpreempt_enable();\n|'
commit mm/swap.c "mm/swap: say what the folio batches hold" "A comment only." \
	's|\n(struct cpu_fbatches \{\n)|\n/* Per-CPU batches of folios waiting for the LRU lock. */\n$1|'
git -C "$dir" log --reverse --format='%H %s'
