#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# patches.t - the baseline series applies to pristine 6.12, and pristine +
# baseline + local-lock is byte-identical to pristine (the forward port is
# faithful to upstream). Works on the touched files only, taken from the tarball.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
[ -r "$LOCKLAT_KERNEL_TARBALL" ] || tap_skip_all "$LOCKLAT_KERNEL_TARBALL missing (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

series() { # the patch files of a series, in order
	grep -v '^#' "$LOCKLAT_PATCHES_DIR/$1/series" | sed "s|^|$LOCKLAT_PATCHES_DIR/$1/|"
}
apply() { # TREE SERIES
	local p
	while IFS= read -r p; do
		patch -d "$1" -p1 --forward --batch --quiet --no-backup-if-mismatch <"$p" || return 1
	done < <(series "$2")
}

mapfile -t patches < <(series baseline; series local-lock)
mapfile -t files < <(sed -n 's|^+++ b/||p' "${patches[@]}" | sort -u)
tap_plan 7
tap_is "${#files[@]}" 8 "the series touch the 8 files of the five call sites"

top=$(tar -tJf "$LOCKLAT_KERNEL_TARBALL" | head -n 1)
top=${top%%/*}
mkdir "$tmp/pristine"
tar -xJf "$LOCKLAT_KERNEL_TARBALL" -C "$tmp/pristine" --strip-components=1 \
	"${files[@]/#/$top/}"
tap_result $? "extract the touched files from $(basename "$LOCKLAT_KERNEL_TARBALL")"

cp -a "$tmp/pristine" "$tmp/work"
apply "$tmp/work" baseline
tap_result $? "baseline applies to pristine"
! grep -q 'local_lock(\|local_unlock(\|local_lock_irqsave(' \
	"$tmp/work/lib/radix-tree.c" "$tmp/work/mm/swap.c" \
	"$tmp/work/fs/squashfs/decompressor_multi_percpu.c" \
	"$tmp/work/drivers/connector/cn_proc.c" "$tmp/work/drivers/block/zram/zcomp.c" \
	"$tmp/work/include/linux/idr.h" "$tmp/work/include/linux/radix-tree.h"
tap_result $? "baseline leaves no local_lock call at any call site"
grep -q 'stream = get_cpu_ptr(percpu);' "$tmp/work/fs/squashfs/decompressor_multi_percpu.c"
tap_result $? "baseline squashfs uses get_cpu_ptr() again"

apply "$tmp/work" local-lock
tap_result $? "local-lock applies on top of baseline"
diff -r "$tmp/pristine" "$tmp/work" >"$tmp/diff"
tap_result $? "pristine + baseline + local-lock == pristine, byte for byte"
[ -s "$tmp/diff" ] && sed 's/^/# /' "$tmp/diff" | head -n 20
tap_done
