#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh - assemble the guest initramfs, cached by the hash of its inputs.
#
# Usage: bench/guest/mkinitramfs.sh [--print-inputs | --help]
#
# Contents: busybox (static) and its applets, the guest init with its
# library, each pass's guest code (bench/passes/<pass>/run) and the setup
# kinds' scripts (bench/guest/setup/), the host programs the passes name
# (cyclictest, trace-cmd, rtla) and stress-ng, with every shared library ldd names and
# the dynamic loader, the workload binaries from build/guest-bin/ and the
# workload list. The image is build/initramfs/initramfs-<hash>.cpio.gz where
# <hash> covers the content of every input file, so any changed input makes a
# new image and an unchanged set reuses the old one. Prints the image path.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"
case ${1:-} in
-h | --help) usage_from_header "$0"; exit 0 ;;
'' | --print-inputs) ;;
*) err_exit "unknown argument '$1' (see --help)" 2 ;;
esac

# shellcheck source=bench/passes/passes.sh
. "$LOCKLAT_ROOT/bench/passes/passes.sh"

# Host programs the guest runs, by absolute path: those the passes name
# (bench/passes/<pass>/pass: programs=) and stress-ng, the workloads' load;
# Debian's, but for rtla, which kernels/build.sh builds from the kernel tree
# (Debian's is 6.1).
rtla=$LOCKLAT_BUILD/rtla/rtla
host_programs=(/usr/bin/stress-ng)
for p in $(known_passes); do
	pass_load "$p"
	for prog in $PASS_PROGRAMS; do
		case $prog in
		rtla) prog=$rtla
			[ -x "$rtla" ] || err_exit "$rtla not found: run 'make kernels' (it builds rtla from the same tree)" ;;
		*) prog=/usr/bin/$prog ;;
		esac
		[[ " ${host_programs[*]} " == *" $prog "* ]] || host_programs+=("$prog")
	done
done
busybox=/bin/busybox
guest_bin=$LOCKLAT_BUILD/guest-bin
out_dir=$LOCKLAT_BUILD/initramfs

for p in "$busybox" "${host_programs[@]}"; do
	[ -x "$p" ] || err_exit "$p not found: run 'make deps'"
done
# The image has no busybox libraries: it must be the static build.
case $(ldd "$busybox" 2>&1 || true) in
*'not a dynamic executable'*) ;;
*) err_exit "$busybox is not statically linked: install busybox-static" ;;
esac

# shared_libs PROGRAM...: every library path ldd resolves, and the loader.
shared_libs() {
	ldd "$@" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' |
		sort -u
}

# input_files: "guest_path host_path" for every file of the image.
input_files() {
	local f
	echo "bin/busybox $busybox"
	echo "init $LOCKLAT_ROOT/bench/guest/init"
	echo "lib/locklat/lib.sh $LOCKLAT_ROOT/bench/guest/lib.sh"
	for f in $(known_passes); do
		echo "lib/locklat/passes/$f/run $LOCKLAT_PASSES_DIR/$f/run"
	done
	for f in "$LOCKLAT_ROOT"/bench/guest/setup/*/run; do
		f=${f%/run}
		echo "lib/locklat/setup/${f##*/} $f/run"
	done
	for f in "${host_programs[@]}"; do
		echo "usr/bin/${f##*/} $f"
	done
	shared_libs "${host_programs[@]}" | while IFS= read -r f; do
		echo "${f#/} $f"
	done
	if [ -d "$guest_bin" ]; then
		for f in "$guest_bin"/*; do
			[ -f "$f" ] && echo "usr/bin/${f##*/} $f"
		done
	fi
}

mapfile -t inputs < <(input_files)
if [ "${1:-}" = --print-inputs ]; then
	printf '%s\n' "${inputs[@]}"
	exit 0
fi
hash=$(content_key "$(printf '%s\n' "${inputs[@]}")" "$0" "${inputs[@]#* }")
image=$out_dir/initramfs-$hash.cpio.gz
# versions_write: beside the image, the Debian versions of the programs it
# carries, which a cell records as what its guest ran (on a lab host the
# host's own packages may differ, or be absent: run-matrix.sh --hosts).
versions_write() {
	local versions=${image%.cpio.gz}.versions
	[ -f "$versions" ] && return 0
	: >"$versions.tmp"
	kv_write "$versions.tmp" \
		cyclictest_version "$(dpkg-query -W -f='${Version}' rt-tests 2>/dev/null)" \
		trace_cmd_version "$(dpkg-query -W -f='${Version}' trace-cmd 2>/dev/null)" \
		stress_ng_version "$(dpkg-query -W -f='${Version}' stress-ng 2>/dev/null)"
	mv "$versions.tmp" "$versions"
}
if [ -f "$image" ]; then
	versions_write
	printf '%s\n' "$image"
	exit 0
fi

mkdir -p "$out_dir"
stage=$(mktemp -d "$out_dir/stage.XXXXXX")
# Each build writes its own temporary image and renames it into place:
# two cells building the same image at once (run-cell.sh without
# --initramfs) both produce it whole, where a shared .tmp name interleaved
# their archives and booted guests without their cell.conf.
packed=$(mktemp "$out_dir/.packing.XXXXXX")
trap 'rm -rf "$stage" "$packed"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,mnt,etc/locklat,results}
for entry in "${inputs[@]}"; do
	dst=$stage/${entry%% *}
	mkdir -p "$(dirname "$dst")"
	cp -L "${entry#* }" "$dst"
done
# Busybox applets as symlinks; host programs keep their own names.
"$busybox" --list-full | while IFS= read -r applet; do
	[ -e "$stage/$applet" ] || ln -s /bin/busybox "$stage/$applet"
done
chmod 0755 "$stage/init"
# On x86_64 Debian the loader is found at /lib64; keep /lib pointing at usr.
[ -e "$stage/lib64/ld-linux-x86-64.so.2" ] || err_exit "dynamic loader missing from image"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -6 -n >"$packed"
chmod 0644 "$packed"
mv -f "$packed" "$image"
versions_write
printf '%s\n' "$image"
