#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh - build locklat kernel variants from Debian's linux-source-6.12.
#
# Usage: kernels/build.sh [-j JOBS] [--list] [--fragments] [--flavour F] [--only TARGETS] [VARIANT...]
#        kernels/build.sh [-j JOBS] --sources | --rtla
#
# For each variant (a file in kernels/variants/; when none is named, those
# the matrix runs: all but the ones whose file says matrix=no) and each of its
# two kernels (LOCKLAT_FLAVOURS: plain, and traced with the traced passes'
# fragments merged last): extract the pristine tree once, give the kernel its
# own source tree (hard links into the pristine one, the variant's patches
# applied), merge the workloads' and the plain passes' Kconfig fragments
# (workloads/<name>/config, bench/passes/<pass>/config) and its own onto
# allnoconfig with the tree's merge_config.sh (or onto LOCKLAT_BASE_CONFIG,
# a developer's .config or a defconfig target: base_config_file),
# check that every requested option stuck, build bzImage out of tree with
# ccache, and write the kernel's manifest. Everything lands under build/
# (ignored by git). Later stages read only the manifest:
#   build/kernels/<variant>/manifest          the plain kernel, key=value lines
#                                             (kernels/README.md)
#   build/kernels/<variant>+tracers/manifest  the traced kernel
#   build/kernels/<name>/bzImage              the kernel a manifest describes
#   build/kernels/<name>/src, src/obj         its source tree, its objdir
#   build/rtla/rtla                           rtla from the same tree, for the guest
#
# One tree per kernel, the objdir a direct subfolder of it: kbuild then names
# the source tree ".." (srctree), so the compiler sees the same command and
# paths in every kernel, and ccache answers for every object whose sources
# are the same in two kernels: a variant that differs from another of its
# configuration by its patches compiles only the objects those patches reach.
#
# --only "lib/radix-tree.o mm/swap.o" builds just those make targets (no
# bzImage, no manifest): enough for verify-equivalence.sh.
#
# Exit status: 0 built, 1 build or check failed, 2 bad usage, 75 out of disk.

set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
# shellcheck source=kernels/variants.sh
. "$LOCKLAT_ROOT/kernels/variants.sh"
# shellcheck source=workloads/workloads.sh
. "$LOCKLAT_ROOT/workloads/workloads.sh"
# shellcheck source=sources.sh
. "$LOCKLAT_ROOT/kernels/sources.sh"

usage() {
	cat <<EOF
usage: kernels/build.sh [-j JOBS] [--list] [--fragments] [--flavour F] [--only TARGETS] [--no-rtla] [VARIANT...]
       kernels/build.sh [-j JOBS] --sources | --rtla
  -j JOBS         parallel make jobs (default: nproc = $(nproc))
  --list          print the known variants and exit
  --fragments     print each kernel's Kconfig fragments in merge order and exit
  --flavour F     build only the plain or the traced kernel of each variant
                  (default: both; with --only: plain)
  --only TARGETS  build only these make targets (e.g. objects), no manifest
  --sources       only Debian's pristine tree (what every kernel's tree
                  links; a run's "sources" job)
  --rtla          only rtla, built from that tree (what the guest image
                  needs; a run's "rtla" job)
  --no-rtla       the kernels without rtla (a run's kernel jobs: its rtla
                  job builds it beside them)
Known variants: $(known_variants | tr '\n' ' ')
EOF
}

jobs=$(nproc)
only=''
fragments_only=0 sources_only=0 rtla_only=0 with_rtla=1
flavours=''
variants=()
while [ $# -gt 0 ]; do
	case $1 in
	-j) [ $# -ge 2 ] || err_exit "-j needs a number" 2
		jobs=$2; shift ;;
	-j*) jobs=${1#-j} ;;
	--list) known_variants; exit 0 ;;
	--fragments) fragments_only=1 ;;
	--sources) sources_only=1 ;;
	--rtla) rtla_only=1 ;;
	--no-rtla) with_rtla=0 ;;
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

# kernel_configs FLAVOUR: the fragments of the loaded variant's kernel of
# that flavour, in merge order (workloads/workloads.sh: kernel_fragments).
kernel_configs() {
	kernel_fragments "$1" "$VARIANT_CONFIGS"
}

# Validate every named variant before any work starts.
for v in "${variants[@]}"; do
	variant_load "$v"
	needs_rt=0
	for c in $(kernel_configs traced); do
		[ -f "$(fragment_path "$c")" ] ||
			err_exit "variant $v: no config fragment $(fragment_path "$c")" 2
		! grep -qx 'CONFIG_PREEMPT_RT=y' "$(fragment_path "$c")" || needs_rt=1
	done
	[ "$fragments_only" -eq 1 ] && continue
	# Each check's one line names the variant (set -e: its status ends the build).
	( source_check "$VARIANT_SOURCE" "$needs_rt" ) 2>&1 | sed "s/: error: /: error: variant $v: /" >&2
	for p in $VARIANT_PATCHES; do
		( patch_item_check "$p" ) 2>&1 | sed "s/: error: /: error: variant $v: /" >&2
	done
done
if [ "$fragments_only" -eq 1 ]; then
	for v in "${variants[@]}"; do
		variant_load "$v"
		for f in $flavours; do
			printf '%s:' "$(kernel_name "$v" "$f")"
			for c in $(kernel_configs "$f"); do
				printf ' %s' "$(fragment_path "$c")"
			done
			printf '\n'
		done
	done
	exit 0
fi

# rtla is built from Debian's tree whatever the variants' sources.
[ -r "$LOCKLAT_KERNEL_TARBALL" ] ||
	err_exit "$LOCKLAT_KERNEL_TARBALL not found: install the Debian package $LOCKLAT_KERNEL_PACKAGE (make deps)"
for tool in gcc make flex bison bc ccache xz patch git; do
	command -v "$tool" >/dev/null || err_exit "'$tool' not found: run 'make deps'"
done

mkdir -p "$LOCKLAT_BUILD/src" "$LOCKLAT_BUILD/kernels"
# The shared source trees (the pristine ones, rtla) have one writer at a
# time: a second builder waits for the first while it extracts or builds
# them. Each kernel's own tree and objdir are locked apart (kernel_lock),
# so that builders of different kernels compile side by side (the run's
# executor gives each its CPUs).
exec 9>"$LOCKLAT_BUILD/.kernels.lock"
if ! flock -n 9; then
	progress kernels "another kernels/build.sh is extracting a source tree on $LOCKLAT_BUILD: waiting"
	flock 9
fi
# kernel_lock NAME: hold NAME's lock for the rest of this script; a builder
# of the same kernel waits.
kernel_lock() {
	local fd lock
	lock=$(kernel_path "$1").lock
	exec {fd}>"$lock"
	flock -n "$fd" && return 0
	progress kernels "$1: another kernels/build.sh is building it: waiting"
	flock "$fd"
}

# Debian's pristine tree (rtla is built from it); each kernel's own source is
# extracted by source_extract (kernels/sources.sh).
pristine=$LOCKLAT_BUILD/src/pristine

# debian_stamp_migrate: a pristine tree extracted by an earlier locklat
# carries .locklat-tarball; if it is this tarball's, it stays.
debian_stamp_migrate() {
	[ -f "$pristine/.locklat-tarball" ] && [ ! -f "$pristine/.locklat-source" ] || return 0
	[ "$(cat "$pristine/.locklat-tarball")" = "$(source_key debian | cut -d' ' -f2)" ] || return 0
	source_key debian >"$pristine/.locklat-source"
}

# layout_migrate: build/ of an earlier locklat kept one tree per patch series
# (build/src/<series>) and used build/kernels/<name> itself as the objdir.
# Both are removed once; the kernels are rebuilt (from ccache where it can).
layout_migrate() {
	local d
	for d in "$LOCKLAT_BUILD"/src/*/; do
		[ -f "$d.locklat-patches" ] || continue
		progress kernels "removing ${d%/} (one tree per series: the old layout)"
		rm -rf "${d%/}"
	done
	for d in "$LOCKLAT_BUILD"/kernels/*/; do
		[ -f "$d/Makefile" ] || continue
		progress kernels "removing ${d%/} (the old layout's objdir)"
		rm -rf "${d%/}"
	done
}

# patch_apply TREE PATCHFILE: apply with patch -p1 and append the files it
# changed to TREE/.locklat-touched; on failure name the patch and each
# failing hunk ("Hunk #2 FAILED at 331" of which file).
patch_apply() {
	local tree=$1 file=$2 out
	if ! out=$(patch -d "$tree" -p1 --forward --batch --no-backup-if-mismatch \
		-r - <"$file" 2>&1); then
		printf '%s\n' "$out" | awk -v p="${file#"$LOCKLAT_ROOT"/}" '
			/^patching file / { f = $3 }
			/FAILED at/ { printf "%s: %s: %s\n", p, f, $0; n++ }
			END { if (!n) printf "%s: does not apply\n", p }' >&2
		err_exit "patch $(basename "$file") does not apply to $(source_release "$src_pristine") (see above)"
	fi
	printf '%s\n' "$out" | sed -n 's/^patching file //p' >>"$tree/.locklat-touched"
}

# source_release TREE: the kernel version a source tree says it is.
source_release() {
	make -s -C "$1" kernelversion
}

# kernel_source NAME SOURCE PATCH_ITEM...: build/kernels/NAME/src, the
# kernel's own tree: a hard-link copy of SOURCE's pristine tree
# (kernels/sources.sh) with the patches applied in order (GNU patch writes
# each patched file anew, so the pristine tree is never modified). A stamp
# of the source's content key and the patches' hashes tells a later run
# whether the tree is current. When only the patches changed, the tree is
# made again and its mtimes are set so that make rebuilds exactly what
# changed: a file patched as before keeps its old mtime; a file that the old
# series changed and the new one does not (back to pristine content, with
# the pristine's old mtime) gets a fresh copy, so the objects built from the
# patched content are rebuilt. Another source drops the tree and its objects
# whole: tar and git archive give files their archive's old mtimes, and make
# would keep objects built from the previous sources (ccache still answers
# where their content did not change).
kernel_source() {
	local name=$1 source=$2 tree want f s key src_pristine
	tree=$(kernel_srcdir "$name")
	shift 2
	src_pristine=$(source_extract "$source")
	key=$(source_key "$source")
	want=$( { printf '%s\n' "$key"
		for s in "$@"; do patch_item_files "$s"; done | while IFS= read -r f; do
			printf '%s %s\n' "$(sha256_of "$f")" "$(basename "$f")"
		done; } )
	if [ -f "$tree/.locklat-patches" ] && [ "$(cat "$tree/.locklat-patches")" = "$want" ]; then
		return 0
	fi
	if [ -d "$tree" ] && [ "$(head -n 1 "$tree/.locklat-patches" 2>/dev/null)" != "$key" ]; then
		progress kernels "$name: another source ($source): its tree and objects are made anew"
		rm -rf "$tree"
	fi
	progress kernels "$name: source tree ($source) with patches: ${*:-none}"
	rm -rf "$tree.tmp"
	mkdir -p "${tree%/*}"
	cp -al "$src_pristine" "$tree.tmp"
	: >"$tree.tmp/.locklat-touched"
	for s in "$@"; do
		while IFS= read -r f; do
			patch_apply "$tree.tmp" "$f"
		done < <(patch_item_files "$s")
	done
	if [ -d "$tree" ]; then
		# The objdir moves into the new tree: make decides from mtimes.
		[ ! -d "$tree/obj" ] || mv "$tree/obj" "$tree.tmp/obj"
		while IFS= read -r f; do
			if [ -f "$tree/$f" ] && [ -f "$tree.tmp/$f" ] && cmp -s "$tree/$f" "$tree.tmp/$f"; then
				touch -r "$tree/$f" "$tree.tmp/$f"
			fi
		done <"$tree.tmp/.locklat-touched"
		[ -f "$tree/.locklat-touched" ] && while IFS= read -r f; do
			if [ -f "$tree.tmp/$f" ] && [ "$tree.tmp/$f" -ef "$src_pristine/$f" ]; then
				cp "$src_pristine/$f" "$tree.tmp/$f.locklat-new"
				mv -f "$tree.tmp/$f.locklat-new" "$tree.tmp/$f"
			fi
		done <"$tree/.locklat-touched"
	fi
	printf '%s\n' "$want" >"$tree.tmp/.locklat-patches"
	rm -rf "$tree"
	mv "$tree.tmp" "$tree"
}

# base_config_file KERNEL: LOCKLAT_BASE_CONFIG as a file: a .config as it
# is, a defconfig target (x86_64_defconfig) made in the kernel's tree into
# its base-config/ folder. Prints its path.
base_config_file() {
	local dir
	case $LOCKLAT_BASE_CONFIG in
	*defconfig)
		[ ! -f "$LOCKLAT_BASE_CONFIG" ] || { printf '%s\n' "$LOCKLAT_BASE_CONFIG"; return 0; }
		dir=$(kernel_path "$1")/base-config
		mkdir -p "$dir"
		make -s -C "$(kernel_srcdir "$1")" O="$dir" "$LOCKLAT_BASE_CONFIG" >>"$(kernel_path "$1")/build.log" 2>&1 ||
			build_failed "$1" "make $LOCKLAT_BASE_CONFIG failed (--config: not a defconfig target of this tree?)"
		printf '%s\n' "$dir/.config" ;;
	*) printf '%s\n' "$LOCKLAT_BASE_CONFIG" ;;
	esac
}

# config_generate KERNEL: merge the fragments (allnoconfig base) into the
# kernel's objdir, then check them. Skipped when fragments and tree are
# unchanged, so that an unchanged variant costs no Kconfig work and make sees
# no new .config.
config_generate() {
	local v=$1 obj tree frags=() c inputs report base=() how=-n
	obj=$(kernel_objdir "$v") tree=$(kernel_srcdir "$v")
	# A developer's configuration is the base that ours are merged onto
	# (alldefconfig for what it leaves unset), instead of allnoconfig.
	if [ -n "${LOCKLAT_BASE_CONFIG:-}" ]; then
		base=("$(base_config_file "$v")") how=
	fi
	for c in $KERNEL_CONFIGS; do
		frags+=("$(fragment_path "$c")")
	done
	inputs=$( { cat "$tree/.locklat-patches"; for c in "${base[@]}" "${frags[@]}"; do
		printf '%s %s\n' "$(sha256_of "$c")" "$(basename "$c")"; done; } )
	if [ -f "$obj/.config" ] && [ -f "$obj/.locklat-config-inputs" ] &&
		[ "$(cat "$obj/.locklat-config-inputs")" = "$inputs" ]; then
		return 0
	fi
	progress kernels "$v: merge_config.sh ${how:-onto ${LOCKLAT_BASE_CONFIG:-}} ${KERNEL_CONFIGS}"
	rm -f "$obj/.locklat-config-inputs"
	# shellcheck disable=SC2086 # how: no word, or -n
	(cd "$tree" && scripts/kconfig/merge_config.sh $how -O "$obj" "${base[@]}" "${frags[@]}") \
		>>"$(kernel_path "$v")/build.log" 2>&1 || build_failed "$v" "merge_config.sh failed"
	if ! report=$("$LOCKLAT_ROOT/kernels/configcheck.sh" "$obj/.config" "${frags[@]}"); then
		mv "$obj/.config" "$obj/.config.rejected"
		printf '%s\n' "$report" >&2
		err_exit "$v: options above did not stick after merge_config.sh/olddefconfig (kept as $obj/.config.rejected)"
	fi
	# Ours override the developer's: say which of theirs did not stick.
	if [ ${#base[@]} -gt 0 ] && ! report=$("$LOCKLAT_ROOT/kernels/configcheck.sh" "$obj/.config" "${base[@]}"); then
		warn "$v: of --config $LOCKLAT_BASE_CONFIG, $(grep -c . <<<"$report") line(s) did not stick (locklat's fragments or Kconfig's dependencies won): $(head -n 3 <<<"$report" | paste -sd';')"
	fi
	printf '%s\n' "$inputs" >"$obj/.locklat-config-inputs"
}

# build_failed KERNEL WHAT: the end of the kernel's build log, then exit.
build_failed() {
	local log
	log=$(kernel_path "$1")/build.log
	echo "---- last lines of $log ----" >&2
	tail -n 30 "$log" >&2
	err_exit "$1: $2 (full log: $log)"
}

# make_killed_clean KERNEL: a make that was killed (kill -9, power loss) may
# leave an object half written with a fresh mtime, and with an unchanged
# command in its .cmd file kbuild would take it as up to date. A marker
# touched before each make and removed after it says whether the last one
# finished; if not, every build product it wrote since is deleted, so make
# writes them again (ccache answers for most).
make_killed_clean() {
	local obj n
	obj=$(kernel_objdir "$1")
	[ -f "$obj/.locklat-make-running" ] || return 0
	n=$(find "$obj" -type f -newer "$obj/.locklat-make-running" \( -name '*.o' -o -name '*.a' \
		-o -name '*.ko' -o -name '*.bin' -o -name '*.elf' -o -name 'vmlinux*' -o -name bzImage \) \
		-print -delete | wc -l)
	progress kernels "$1: the last make did not finish; $n objects it wrote are made again"
}

# kernel_make KERNEL TARGETS...: make with ccache; sets MAKE_SECONDS, and
# MAKE_COMPILED and MAKE_CACHED: the compiler calls that compiled (a ccache
# miss) and those ccache answered, from ccache's log of this make alone
# (build/kernels/KERNEL/ccache-stats.log). While make runs,
# kernels/make-progress.sh shows how many objects it has done, out of those
# the last make of the whole kernel did (build/kernels/KERNEL/make-objects),
# and when it should be through them.
kernel_make() {
	local v=$1 dir obj tree t0=$SECONDS expected=0 record='' done_objects
	shift
	dir=$(kernel_path "$v") obj=$(kernel_objdir "$v") tree=$(kernel_srcdir "$v")
	# --only makes a few objects: it neither reads nor replaces the count
	# of the whole kernel.
	if [ -z "$only" ]; then
		record=$dir/make-objects
		[ ! -f "$record" ] || read -r expected <"$record" || :
		case $expected in
		'' | *[!0-9]*) expected=0 ;;
		esac
	fi
	require_disk_space "$LOCKLAT_BUILD" 1500
	progress kernels "$v: make -j$jobs $* (log: ${dir#"$LOCKLAT_ROOT"/}/build.log)"
	make_killed_clean "$v"
	touch "$obj/.locklat-make-running"
	: >"$dir/ccache-stats.log"
	# With srctree ".." the command lines hold no absolute path, so every
	# kernel gives ccache the same input wherever the sources are the same
	# (CCACHE_BASEDIR catches any absolute path left). Depend mode takes the
	# headers from the compiler's own -MMD output instead of running the
	# preprocessor once more for each miss (baseline cold: 367 s without it,
	# 256 s with it; METHODOLOGY.md, "Build time"). Fixed build user/host/time/number make the
	# version string, and so the image, independent of who built it when
	# and of how often it was linked. Only the real-mode setup and
	# trampoline code is compiled with -g, for which ccache would hash the
	# objdir (DWARF's comp_dir) and so never share it across kernels;
	# objcopy -O binary drops that debug information on the way into
	# setup.bin and realmode.bin, so the directory cannot reach the image
	# (CCACHE_NOHASHDIR).
	CCACHE_STATSLOG=$dir/ccache-stats.log CCACHE_BASEDIR=$LOCKLAT_BUILD CCACHE_DEPEND=1 CCACHE_NOHASHDIR=1 \
	KBUILD_BUILD_USER=locklat KBUILD_BUILD_HOST=locklat KBUILD_BUILD_VERSION=1 \
	KBUILD_BUILD_TIMESTAMP="$(date -u -r "$LOCKLAT_KERNEL_TARBALL" '+%Y-%m-%d %H:%M:%S UTC')" \
		make -C "$tree" O="$obj" -j"$jobs" CC="ccache gcc" \
		LOCALVERSION="-locklat-$v" "$@" 2>&1 |
		(trap '' INT TERM HUP; exec tee -a "$dir/build.log") |
		"$LOCKLAT_ROOT/kernels/make-progress.sh" --expected "$expected" \
			--count "$dir/make-objects.new" "$v" ||
		build_failed "$v" "kernel build failed"
	# Above, tee ignores the signals that interrupt a build and
	# make-progress.sh holds them until its input ends: both read make's
	# output to its end, so an interrupted make still writes its last lines
	# to build.log and the build ends as it did when make wrote there
	# itself. pipefail makes make's status the pipeline's.
	rm -f "$obj/.locklat-make-running"
	MAKE_SECONDS=$((SECONDS - t0))
	# A make that had nothing to do says nothing about the next one: the
	# count stays that of the last make that compiled.
	read -r done_objects <"$dir/make-objects.new"
	if [ -n "$record" ] && [ "$done_objects" -gt 0 ]; then
		mv "$dir/make-objects.new" "$record"
	else
		rm -f "$dir/make-objects.new"
	fi
	# One "# <source>" record per call: cache_miss, or a direct or
	# preprocessed hit.
	read -r MAKE_COMPILED MAKE_CACHED < <(awk '$0 == "cache_miss" { m++ }
		$0 == "direct_cache_hit" || $0 == "preprocessed_cache_hit" { h++ }
		END { print m + 0, h + 0 }' "$dir/ccache-stats.log")
}

# manifest_write KERNEL: the facts every later stage reads.
manifest_write() {
	local v=$1 dir obj tree m s f c release model
	dir=$(kernel_path "$v") obj=$(kernel_objdir "$v") tree=$(kernel_srcdir "$v")
	m=$dir/manifest.tmp
	release=$(make -s -C "$tree" O="$obj" LOCALVERSION="-locklat-$v" kernelrelease)
	if grep -qx 'CONFIG_PREEMPT_RT=y' "$obj/.config"; then
		model=rt
	elif grep -qx 'CONFIG_PREEMPT=y' "$obj/.config"; then
		model=preempt
	else
		model=other
	fi
	cp "$obj/arch/x86/boot/bzImage" "$dir/bzImage.tmp"
	mv "$dir/bzImage.tmp" "$dir/bzImage"
	: >"$m"
	kv_write "$m" \
		variant "$VARIANT_NAME" \
		kernel "$v" \
		flavour "$KERNEL_FLAVOUR" \
		description "$VARIANT_DESCRIPTION" \
		kernel_release "$release" \
		source "$VARIANT_SOURCE" \
		source_key "$(source_key "$VARIANT_SOURCE")" \
		source_version "$(source_release "$tree")" \
		source_package "$(source_package)" \
		source_tarball_sha256 "$(source_tarball_sha256)" \
		patches "$VARIANT_PATCHES" \
		configs "$KERNEL_CONFIGS" \
		preempt_model "$model" \
		lockdep "$(grep -qx 'CONFIG_PROVE_LOCKING=y' "$obj/.config" && echo y || echo n)" \
		bootargs "$VARIANT_BOOTARGS" \
		config_sha256 "$(sha256_of "$obj/.config")" \
		config_path "$obj/.config" \
		bzimage_path "$dir/bzImage" \
		bzimage_sha256 "$(sha256_of "$dir/bzImage")" \
		objdir "$obj" \
		srcdir "$tree" \
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
		done < <(patch_item_files "$s")
	done
	for c in $KERNEL_CONFIGS; do
		kv_write "$m" "config_fragment_sha256.$c" "$(sha256_of "$(fragment_path "$c")")"
	done
	mv "$m" "$dir/manifest"
}

# source_package: what summaries name as the kernel source: Debian's
# package and version, or the variant's source= (and its content key).
source_package() {
	if [ "$VARIANT_SOURCE" = debian ]; then
		printf '%s %s\n' "$LOCKLAT_KERNEL_PACKAGE" \
			"$(dpkg-query -W -f='${Version}' "$LOCKLAT_KERNEL_PACKAGE" 2>/dev/null || echo unknown)"
	else
		printf '%s (%s)\n' "$VARIANT_SOURCE" "$(source_key "$VARIANT_SOURCE")"
	fi
}

# source_tarball_sha256: the tarball's sha256, "-" for a git source.
source_tarball_sha256() {
	case $VARIANT_SOURCE in
	git:*) echo - ;;
	*) source_key "$VARIANT_SOURCE" | cut -d' ' -f2 ;;
	esac
}

# rtla_build: rtla from the same tree (tools/tracing/rtla), for the guest's
# timerlat pass. Debian's rtla is 6.1: older than the auto-analysis that names
# the blocking thread and its stack. Built once, against Debian's
# libtracefs/libtraceevent; mkinitramfs.sh packs it with its libraries.
rtla_build() {
	local out=$LOCKLAT_BUILD/rtla
	[ -x "$out/rtla" ] && return 0
	progress kernels "rtla: building from $(source_release "$pristine")'s tools/tracing/rtla"
	mkdir -p "$out"
	make -C "$pristine/tools/tracing/rtla" OUTPUT="$out/" -j"$jobs" >"$out/build.log" 2>&1 ||
		err_exit "rtla does not build (log: $out/build.log)"
}

# kernel_build NAME: one kernel (VARIANT_*, KERNEL_FLAVOUR, KERNEL_CONFIGS set)
# into build/kernels/NAME: its source tree, its objdir, its manifest.
kernel_build() {
	local v=$1 dir t0=$SECONDS
	dir=$(kernel_path "$v")
	# The manifest says "this bzImage is complete"; it goes before anything
	# changes, so a build killed from here on leaves no kernel to boot.
	# (--only relinks no bzImage: the old one and its manifest still agree.)
	[ -n "$only" ] || rm -f "$dir/manifest"
	# shellcheck disable=SC2086 # the series list is word-split on purpose
	kernel_source "$v" "$VARIANT_SOURCE" $VARIANT_PATCHES
	mkdir -p "$(kernel_objdir "$v")"
	: >"$dir/build.log"
	config_generate "$v"
	if [ -n "$only" ]; then
		# shellcheck disable=SC2086 # the target list is word-split on purpose
		kernel_make "$v" $only
		progress kernels "$v: built $only in $((SECONDS - t0)) s, $MAKE_COMPILED compiled, $MAKE_CACHED from ccache"
		return
	fi
	# modules: every option is =y, so this builds no module; it writes
	# Module.symvers and scripts/module.lds, which the out-of-tree modules
	# of kernels/modules link against.
	kernel_make "$v" bzImage modules
	manifest_write "$v"
	progress kernels "$v: done in $((SECONDS - t0)) s, $MAKE_COMPILED compiled, $MAKE_CACHED from ccache ($(kv_get "$dir/manifest" kernel_release))"
}

layout_migrate
debian_stamp_migrate
[ -n "$only" ] || source_extract debian >/dev/null
[ "$sources_only" -eq 0 ] || exit 0
[ -n "$only" ] || [ "$with_rtla" -eq 0 ] || rtla_build
[ "$rtla_only" -eq 0 ] || exit 0
# Every kernel's source tree first: a patch that does not apply stops the
# build before anything of it is compiled.
for VARIANT_NAME in "${variants[@]}"; do
	variant_load "$VARIANT_NAME"
	for KERNEL_FLAVOUR in $flavours; do
		kernel_lock "$(kernel_name "$VARIANT_NAME" "$KERNEL_FLAVOUR")"
		# shellcheck disable=SC2086 # the patch list is word-split on purpose
		kernel_source "$(kernel_name "$VARIANT_NAME" "$KERNEL_FLAVOUR")" "$VARIANT_SOURCE" $VARIANT_PATCHES
	done
done
# The shared trees are made: other builders may go on.
flock -u 9
for VARIANT_NAME in "${variants[@]}"; do
	variant_load "$VARIANT_NAME"
	for KERNEL_FLAVOUR in $flavours; do
		KERNEL_CONFIGS=$(kernel_configs "$KERNEL_FLAVOUR")
		kernel_build "$(kernel_name "$VARIANT_NAME" "$KERNEL_FLAVOUR")"
	done
done
