#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# image.sh - build (once) the squashfs image the squashfs workload reads.
#
# Usage: workloads/squashfs/image.sh [COMP[,BLOCK]]   (default xz,1M)
#   COMP   xz or zstd
#   BLOCK  the squashfs block size, 4K..1M, a power of two (mksquashfs's
#          default is 128K): one squashfs_decompress() call decompresses one
#          block, so the block size sets the length of the section measured
#
# 8 files x 4 MiB of generated text (locklat-squashfs --generate, with the
# checksums the guest's reader checks every chunk against), packed with
# BLOCK-sized blocks and no fragments, so every read of a block goes through
# one squashfs_decompress() call of a whole block. Cached under
# build/data/ by the hash of the generator and the parameters, with the
# image's sha256 beside it: a cached image that no longer matches (a crash
# mid-copy, a bad disk) is refused, not mounted. Prints the path.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"

case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
[ $# -le 1 ] || err_exit "usage: image.sh [COMP[,BLOCK]] (see --help)" 2
spec=${1:-xz}
comp=${spec%%,*} block=1M
[ "$comp" = "$spec" ] || block=${spec#*,}
case $comp in xz | zstd) ;; *) err_exit "the compressor is xz or zstd, got '$comp'" 2 ;; esac
case $block in 4K | 8K | 16K | 32K | 64K | 128K | 256K | 512K | 1M) ;;
*) err_exit "the block size is a power of two from 4K to 1M (4K 8K ... 512K 1M), got '$block'" 2 ;;
esac

generator=$LOCKLAT_BUILD/guest-bin/locklat-squashfs
[ -x "$generator" ] || err_exit "$generator not built: run 'make tools'"
files=8 size=$((4 << 20)) seed=1
params="files=$files size=$size seed=$seed comp=$comp block=$block no-fragments"
# By content alone, not paths: a lab host finds the image sent to it under
# the same name (run-matrix.sh --hosts).
key=$(content_key "$params generator=$(sha256_of "$generator") script=$(sha256_of "$0")")
out=$LOCKLAT_BUILD/data/squashfs-$comp-$block-$key.img
if [ -f "$out" ]; then
	[ "$(sha256_of "$out")" = "$(cat "$out.sha256" 2>/dev/null)" ] ||
		err_exit "cached image $out is corrupt (its sha256 differs from $out.sha256): remove both and run again"
	printf '%s\n' "$out"
	exit 0
fi
# Only a build needs mksquashfs: a lab host is sent the cached image.
command -v mksquashfs >/dev/null || err_exit "mksquashfs not found: run 'make deps' (squashfs-tools)"
mkdir -p "$LOCKLAT_BUILD/data"
work=$(mktemp -d "$LOCKLAT_BUILD/data/squashfs.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$generator" --generate "$work/tree" --files "$files" --size "$size" --seed "$seed"
mksquashfs "$work/tree" "$work/image" -comp "$comp" -b "$block" -no-fragments \
	-noappend -no-progress -quiet -all-root >/dev/null
sha256_of "$work/image" >"$work/image.sha256"
mv "$work/image.sha256" "$out.sha256"
mv "$work/image" "$out"
printf '%s\n' "$out"
