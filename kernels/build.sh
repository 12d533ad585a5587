#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh - build locklat kernel variants from Debian's linux-source-6.12.
#
# Usage: kernels/build.sh [-j JOBS] [--list] [--flavour F] [--only TARGETS] [VARIANT...]
#
# For each variant (a file in kernels/variants/; when none is named, those
# the matrix runs: all but the ones whose file says matrix=no) and each of its
# two kernels (LOCKLAT_FLAVOURS: plain, and traced with tracers.config merged
# last): extract the pristine tree once, apply the variant's patch series
# into a shared per-series tree, merge its Kconfig fragments onto allnoconfig
# with the tree's merge_config.sh, check that every requested option stuck,
# build bzImage out of tree with ccache, and write the kernel's manifest.
# Everything lands under build/ (ignored by git). Later stages read only the
# manifest:
#   build/kernels/<variant>/manifest          the plain kernel, key=value lines
#                                             (kernels/README.md)
#   build/kernels/<variant>+tracers/manifest  the traced kernel
#   build/kernels/<name>/bzImage              the kernel a manifest describes
#   build/rtla/rtla                           rtla from the same tree, for the guest
#
# --only "lib/radix-tree.o mm/swap.o" builds just those make targets (no
# bzImage, no manifest): enough for verify-equivalence.sh.
#
# Exit status: 0 built, 1 build or check failed, 2 bad usage, 75 out of disk.

set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

usage() {
	cat <<EOF
usage: kernels/build.sh [-j JOBS] [--list] [--flavour F] [--only TARGETS] [VARIANT...]
  -j JOBS         parallel make jobs (default: nproc = $(nproc))
  --list          print the known variants and exit
  --flavour F     build only the plain or the traced kernel of each variant
                  (default: both; with --only: plain)
  --only TARGETS  build only these make targets (e.g. objects), no manifest
Known variants: $(known_variants | tr '\n' ' ')
EOF
}

jobs=$(nproc)
only=''
flavours=''
variants=()
while [ $# -gt 0 ]; do
	case $1 in
	-j) [ $# -ge 2 ] || err_exit "-j needs a number" 2
		jobs=$2; shift ;;
	-j*) jobs=${1#-j} ;;
	--list) known_variants; exit 0 ;;
	--only) [ $# -ge 2 ] || err_exit "--only needs make targets" 2
		only=$2; shift ;;
	--flavour) [ $# -ge 2 ] || err_exit "--flavour needs plain or traced" 2
		flavours=$2; shift ;;
	-h|--help) usage; exit 0 ;;
	-*) err_exit "unknown option '$1' (see --help)" 2 ;;
	*) variants+=("$1") ;;
	esac
	shift
done
case $jobs in
'' | *[!0-9]* | 0) err_exit "-j wants a positive whole number, got '$jobs'" 2 ;;
esac
case $flavours in
'') flavours=$LOCKLAT_FLAVOURS
	[ -z "$only" ] || flavours=plain ;;
plain | traced) ;;
*) err_exit "--flavour wants plain or traced, got '$flavours'" 2 ;;
esac
if [ ${#variants[@]} -eq 0 ]; then
	mapfile -t variants < <(matrix_variants)
fi

# variant_load NAME: read kernels/variants/NAME into VARIANT_* variables.
variant_load() {
	local name=$1 file=$LOCKLAT_VARIANTS_DIR/$1 key value
	is_variant "$name" ||
		err_exit "unknown variant '$name'; known: $(known_variants | tr '\n' ' ')" 2
	VARIANT_DESCRIPTION='' VARIANT_PATCHES='' VARIANT_CONFIGS='' VARIANT_BOOTARGS=''
	while IFS='=' read -r key value; do
		case $key in
		'' | '#'*) ;;
		description) VARIANT_DESCRIPTION=$value ;;
		patches) VARIANT_PATCHES=$value ;;
		configs) VARIANT_CONFIGS=$value ;;
		bootargs) VARIANT_BOOTARGS=$value ;;
		matrix) ;;	# run-matrix.sh's (matrix_variants)
		*) err_exit "$file: unknown key '$key'" 2 ;;
		esac
	done <"$file"
	[ -n "$VARIANT_CONFIGS" ] || err_exit "$file: no configs= line" 2
}

# Validate every named variant before any work starts.
for v in "${variants[@]}"; do
	variant_load "$v"
	for p in $VARIANT_PATCHES; do
		[ -f "$LOCKLAT_PATCHES_DIR/$p/series" ] ||
			err_exit "variant $v: no patch series '$p' (kernels/patches/$p/series)" 2
	done
	for c in $VARIANT_CONFIGS $LOCKLAT_TRACERS_CONFIG; do
		[ -f "$LOCKLAT_CONFIGS_DIR/$c.config" ] ||
			err_exit "variant $v: no config fragment kernels/configs/$c.config" 2
	done
done

[ -r "$LOCKLAT_KERNEL_TARBALL" ] ||
	err_exit "$LOCKLAT_KERNEL_TARBALL not found: install the Debian package $LOCKLAT_KERNEL_PACKAGE (make deps)"
for tool in gcc make flex bison bc ccache xz patch; do
	command -v "$tool" >/dev/null || err_exit "'$tool' not found: run 'make deps'"
done

mkdir -p "$LOCKLAT_BUILD/src" "$LOCKLAT_BUILD/kernels"
# One builder at a time: two would race on the shared source trees. A second
# one waits for the first (its variants may then need no work at all).
exec 9>"$LOCKLAT_BUILD/.kernels.lock"
if ! flock -n 9; then
	progress kernels "another kernels/build.sh is running on $LOCKLAT_BUILD: waiting"
	flock 9
fi

pristine=$LOCKLAT_BUILD/src/pristine

# source_extract: the pristine tree, extracted once. Extraction goes to a
# temporary name and is renamed when complete, so an interrupted run never
# leaves a half tree that a later run would trust.
source_extract() {
	if [ -f "$pristine/Makefile" ]; then
		return 0
	fi
	require_disk_space "$LOCKLAT_BUILD" 2500
	progress kernels "extracting $LOCKLAT_KERNEL_TARBALL"
	rm -rf "$pristine.tmp" "$pristine"
	mkdir -p "$pristine.tmp"
	tar -xJf "$LOCKLAT_KERNEL_TARBALL" -C "$pristine.tmp" --strip-components=1
	mv "$pristine.tmp" "$pristine"
}

# series_files SERIES: the patch files of a series, in order.
series_files() {
	local dir=$LOCKLAT_PATCHES_DIR/$1 line
	while IFS= read -r line; do
		case $line in
		'' | '#'*) ;;
		*) [ -f "$dir/$line" ] || err_exit "series $1 names a missing patch $line"
			printf '%s\n' "$dir/$line" ;;
		esac
	done <"$dir/series"
}

# patch_apply TREE PATCHFILE: apply with patch -p1; on failure name the patch
# and each failing hunk ("Hunk #2 FAILED at 331" of which file).
patch_apply() {
	local tree=$1 file=$2 out
	if ! out=$(patch -d "$tree" -p1 --forward --batch --no-backup-if-mismatch \
		-r - <"$file" 2>&1); then
		printf '%s\n' "$out" | awk -v p="${file#"$LOCKLAT_ROOT"/}" '
			/^patching file / { f = $3 }
			/FAILED at/ { printf "%s: %s: %s\n", p, f, $0; n++ }
			END { if (!n) printf "%s: does not apply\n", p }' >&2
		err_exit "patch $(basename "$file") does not apply to $(source_release) (see above)"
	fi
}

source_release() {
	make -s -C "$pristine" kernelversion
}

# source_stack PATCH_SERIES...: a tree with the series applied in order,
# shared by every variant with the same series. The tree is a hard-link copy
# of the pristine one; GNU patch writes each patched file anew, so the
# pristine tree is never modified. A stamp of the patches' hashes tells a
# later run whether the tree is still current.
source_stack() {
	local name=${*:-none} tree stamp want s f
	name=${name// /+}
	tree=$LOCKLAT_BUILD/src/$name
	stamp=$tree/.locklat-patches
	want=$(for s in "$@"; do series_files "$s"; done | while IFS= read -r f; do
		printf '%s %s\n' "$(sha256_of "$f")" "$(basename "$f")"
	done)
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
		STACK_TREE=$tree
		return 0
	fi
	progress kernels "patching tree $name"
	rm -rf "$tree.tmp" "$tree"
	cp -al "$pristine" "$tree.tmp"
	for s in "$@"; do
		while IFS= read -r f; do
			patch_apply "$tree.tmp" "$f"
		done < <(series_files "$s")
	done
	printf '%s\n' "$want" >"$tree.tmp/.locklat-patches"
	mv "$tree.tmp" "$tree"
	STACK_TREE=$tree
}

# config_generate KERNEL OBJDIR TREE: merge the fragments (allnoconfig base),
# then check them. Skipped when fragments and tree are unchanged, so that an
# unchanged variant costs no Kconfig work and make sees no new .config.
config_generate() {
	local v=$1 obj=$2 tree=$3 frags=() c inputs report
	for c in $KERNEL_CONFIGS; do
		frags+=("$LOCKLAT_CONFIGS_DIR/$c.config")
	done
	inputs=$( { cat "$tree/.locklat-patches"; for c in "${frags[@]}"; do
		printf '%s %s\n' "$(sha256_of "$c")" "$(basename "$c")"; done; } )
	if [ -f "$obj/.config" ] && [ -f "$obj/.locklat-config-inputs" ] &&
		[ "$(cat "$obj/.locklat-config-inputs")" = "$inputs" ]; then
		return 0
	fi
	progress kernels "$v: merge_config.sh -n ${KERNEL_CONFIGS}"
	rm -f "$obj/.locklat-config-inputs"
	(cd "$tree" && scripts/kconfig/merge_config.sh -n -O "$obj" "${frags[@]}") \
		>>"$obj/build.log" 2>&1 || build_failed "$v" "$obj" "merge_config.sh failed"
	if ! report=$("$LOCKLAT_ROOT/kernels/configcheck.sh" "$obj/.config" "${frags[@]}"); then
		mv "$obj/.config" "$obj/.config.rejected"
		printf '%s\n' "$report" >&2
		err_exit "$v: options above did not stick after merge_config.sh/olddefconfig (kept as $obj/.config.rejected)"
	fi
	printf '%s\n' "$inputs" >"$obj/.locklat-config-inputs"
}

build_failed() {
	echo "---- last lines of $2/build.log ----" >&2
	tail -n 30 "$2/build.log" >&2
	err_exit "$1: $3 (full log: $2/build.log)"
}

# kernel_make KERNEL OBJDIR TREE TARGETS...: make with ccache; sets
# MAKE_SECONDS, and MAKE_COMPILED and MAKE_CACHED: the compiler calls that
# compiled (a ccache miss) and those ccache answered, from ccache's log of
# this make alone (OBJDIR/ccache-stats.log).
kernel_make() {
	local v=$1 obj=$2 tree=$3 t0=$SECONDS
	shift 3
	require_disk_space "$LOCKLAT_BUILD" 1500
	progress kernels "$v: make -j$jobs $* (log: ${obj#"$LOCKLAT_ROOT"/}/build.log)"
	: >"$obj/ccache-stats.log"
	# CCACHE_BASEDIR makes paths under build/ relative, so a new O= folder
	# at the same depth hits the cache. Fixed build user/host/time make the
	# version string, and so the image, independent of who built it when.
	CCACHE_STATSLOG=$obj/ccache-stats.log CCACHE_BASEDIR=$LOCKLAT_BUILD \
	KBUILD_BUILD_USER=locklat KBUILD_BUILD_HOST=locklat \
	KBUILD_BUILD_TIMESTAMP="$(date -u -r "$LOCKLAT_KERNEL_TARBALL" '+%Y-%m-%d %H:%M:%S UTC')" \
		make -C "$tree" O="$obj" -j"$jobs" CC="ccache gcc" \
		LOCALVERSION="-locklat-$v" "$@" >>"$obj/build.log" 2>&1 ||
		build_failed "$v" "$obj" "kernel build failed"
	MAKE_SECONDS=$((SECONDS - t0))
	# One "# <source>" record per call: cache_miss, or a direct or
	# preprocessed hit.
	read -r MAKE_COMPILED MAKE_CACHED < <(awk '$0 == "cache_miss" { m++ }
		$0 == "direct_cache_hit" || $0 == "preprocessed_cache_hit" { h++ }
		END { print m + 0, h + 0 }' "$obj/ccache-stats.log")
}

# manifest_write KERNEL OBJDIR TREE: the facts every later stage reads.
manifest_write() {
	local v=$1 obj=$2 tree=$3 m=$2/manifest.tmp s f c release model
	release=$(make -s -C "$tree" O="$obj" LOCALVERSION="-locklat-$v" kernelrelease)
	if grep -qx 'CONFIG_PREEMPT_RT=y' "$obj/.config"; then
		model=rt
	elif grep -qx 'CONFIG_PREEMPT=y' "$obj/.config"; then
		model=preempt
	else
		model=other
	fi
	cp "$obj/arch/x86/boot/bzImage" "$obj/bzImage.tmp"
	mv "$obj/bzImage.tmp" "$obj/bzImage"
	: >"$m"
	kv_write "$m" \
		variant "$VARIANT_NAME" \
		kernel "$v" \
		flavour "$KERNEL_FLAVOUR" \
		description "$VARIANT_DESCRIPTION" \
		kernel_release "$release" \
		source_version "$(source_release)" \
		source_package "$LOCKLAT_KERNEL_PACKAGE $(dpkg-query -W -f='${Version}' "$LOCKLAT_KERNEL_PACKAGE" 2>/dev/null || echo unknown)" \
		source_tarball_sha256 "$(tarball_sha256)" \
		patches "$VARIANT_PATCHES" \
		configs "$KERNEL_CONFIGS" \
		preempt_model "$model" \
		lockdep "$(grep -qx 'CONFIG_PROVE_LOCKING=y' "$obj/.config" && echo y || echo n)" \
		bootargs "$VARIANT_BOOTARGS" \
		config_sha256 "$(sha256_of "$obj/.config")" \
		config_path "$obj/.config" \
		bzimage_path "$obj/bzImage" \
		bzimage_sha256 "$(sha256_of "$obj/bzImage")" \
		objdir "$obj" \
		gcc_version "$(gcc -dumpfullversion)" \
		ccache_version "$(ccache --version | awk 'NR == 1 { print $3 }')" \
		make_jobs "$jobs" \
		make_seconds "$MAKE_SECONDS" \
		make_compiled "$MAKE_COMPILED" \
		make_cached "$MAKE_CACHED" \
		built_at "$(date -u '+%Y-%m-%dT%H:%M:%SZ')"
	for s in $VARIANT_PATCHES; do
		while IFS= read -r f; do
			kv_write "$m" "patch_sha256.$s/$(basename "$f")" "$(sha256_of "$f")"
		done < <(series_files "$s")
	done
	for c in $KERNEL_CONFIGS; do
		kv_write "$m" "config_fragment_sha256.$c" "$(sha256_of "$LOCKLAT_CONFIGS_DIR/$c.config")"
	done
	mv "$m" "$obj/manifest"
}

# tarball_sha256: cached next to the pristine tree (hashing 140 MB each run
# would dominate a no-op build).
tarball_sha256() {
	local cache=$LOCKLAT_BUILD/src/.tarball-sha256 key
	key="$(stat -c '%s %Y' "$LOCKLAT_KERNEL_TARBALL")"
	if [ ! -f "$cache" ] || [ "$(head -n 1 "$cache")" != "$key" ]; then
		printf '%s\n%s\n' "$key" "$(sha256_of "$LOCKLAT_KERNEL_TARBALL")" >"$cache"
	fi
	tail -n 1 "$cache"
}

# rtla_build: rtla from the same tree (tools/tracing/rtla), for the guest's
# timerlat pass. Debian's rtla is 6.1: older than the auto-analysis that names
# the blocking thread and its stack. Built once, against Debian's
# libtracefs/libtraceevent; mkinitramfs.sh packs it with its libraries.
rtla_build() {
	local out=$LOCKLAT_BUILD/rtla
	[ -x "$out/rtla" ] && return 0
	progress kernels "rtla: building from $(source_release)'s tools/tracing/rtla"
	mkdir -p "$out"
	make -C "$pristine/tools/tracing/rtla" OUTPUT="$out/" -j"$jobs" >"$out/build.log" 2>&1 ||
		err_exit "rtla does not build (log: $out/build.log)"
}

# kernel_build NAME: one kernel (VARIANT_*, KERNEL_FLAVOUR, KERNEL_CONFIGS set)
# into build/kernels/NAME, in the tree STACK_TREE.
kernel_build() {
	local v=$1 obj=$LOCKLAT_BUILD/kernels/$1 t0=$SECONDS
	mkdir -p "$obj"
	: >"$obj/build.log"
	config_generate "$v" "$obj" "$STACK_TREE"
	if [ -n "$only" ]; then
		# shellcheck disable=SC2086 # the target list is word-split on purpose
		kernel_make "$v" "$obj" "$STACK_TREE" $only
		progress kernels "$v: built $only in $((SECONDS - t0)) s"
		return
	fi
	# modules: every option is =y, so this builds no module; it writes
	# Module.symvers and scripts/module.lds, which the out-of-tree modules
	# of kernels/modules link against.
	kernel_make "$v" "$obj" "$STACK_TREE" bzImage modules
	manifest_write "$v" "$obj" "$STACK_TREE"
	progress kernels "$v: done in $((SECONDS - t0)) s, $MAKE_COMPILED compiled, $MAKE_CACHED from ccache ($(kv_get "$obj/manifest" kernel_release))"
}

source_extract
[ -n "$only" ] || rtla_build
for VARIANT_NAME in "${variants[@]}"; do
	variant_load "$VARIANT_NAME"
	# shellcheck disable=SC2086 # the series list is word-split on purpose
	source_stack $VARIANT_PATCHES
	for KERNEL_FLAVOUR in $flavours; do
		KERNEL_CONFIGS=$VARIANT_CONFIGS
		[ "$KERNEL_FLAVOUR" = plain ] || KERNEL_CONFIGS="$KERNEL_CONFIGS $LOCKLAT_TRACERS_CONFIG"
		kernel_build "$(kernel_name "$VARIANT_NAME" "$KERNEL_FLAVOUR")"
	done
done
