#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sources.t - a variant's source and patches as data (kernels/sources.sh),
# without a network: bad sources and patches stop kernels/build.sh with one
# line naming the variant before anything is built; then the 2020 series
# taken through the generic path (Debian's tarball committed into a scratch
# git tree, the baseline revert and the local-lock series applied there as
# commits with git am) gives the same kernels as the built-in variants: the
# same .config, the same patched files, byte-identical converted objects,
# and verify-equivalence on the git range gives the built-in pair's result.
# An mbox of the series gives the same tree again.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
# shellcheck source=../kernels/sources.sh
. "$root/kernels/sources.sh"
[ -r "$LOCKLAT_KERNEL_TARBALL" ] || tap_skip_all "$LOCKLAT_KERNEL_TARBALL missing (make deps)"
command -v git >/dev/null || tap_skip_all "no git (make deps)"
tmp=$(mktemp -d)
build=$root/kernels/build.sh
# The test's kernels and their sources go with it.
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	rm -rf "$tmp" "$LOCKLAT_BUILD"/kernels/src-test-* "$LOCKLAT_BUILD"/src/git-tree-* \
		"$LOCKLAT_BUILD"/patches/git-* "$LOCKLAT_BUILD"/patches/mbox-*
}
trap cleanup EXIT
tap_plan 21
export GIT_AUTHOR_NAME=locklat GIT_AUTHOR_EMAIL=locklat@localhost \
	GIT_COMMITTER_NAME=locklat GIT_COMMITTER_EMAIL=locklat@localhost

mkdir -p "$tmp/variants"
# variant NAME KEY=VALUE...: a variant file in the test's variants folder.
variant() {
	local name=$1
	shift
	printf '%s\n' "description=sources.t" "$@" >"$tmp/variants/$name"
}
# bad NAME WANT KEY=VALUE...: build.sh on that variant stops with one line
# naming it and matching WANT, exit 2.
bad() {
	local name=$1 want=$2 err status
	shift 2
	variant "$name" "$@"
	err=$(LOCKLAT_VARIANTS_DIR=$tmp/variants "$build" "$name" 2>&1 >/dev/null)
	status=$?
	tap_like "$status:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:.*: error: variant $name: .*$want" \
		"$name: $(printf '%s' "$err" | sed 's/.*error: //')"
}

# A tiny git tree that is not a kernel, and one whose kernel has no PREEMPT_RT.
git init -q "$tmp/notkernel" && git -C "$tmp/notkernel" commit -q --allow-empty -m empty
mkdir -p "$tmp/oldkernel/kernel"
printf 'VERSION = 5\n' >"$tmp/oldkernel/Makefile"
printf 'config PREEMPT\n\tbool\n' >"$tmp/oldkernel/kernel/Kconfig.preempt"
git init -q "$tmp/oldkernel" && git -C "$tmp/oldkernel" add -A && git -C "$tmp/oldkernel" commit -q -m v5
bad bad-kind "want debian, tarball:PATH or git:TREE@REF" source=cvs:/x "configs=guest-base preempt"
bad no-tree "is not a git tree" "source=git:$tmp/nowhere@v6.12" "configs=guest-base preempt"
bad no-ref "has no commit 'v9.9'" "source=git:$tmp/notkernel@v9.9" "configs=guest-base preempt"
bad not-kernel "not a kernel tree at HEAD" "source=git:$tmp/notkernel@HEAD" "configs=guest-base preempt"
bad no-rt "has no PREEMPT_RT" "source=git:$tmp/oldkernel@HEAD" "configs=guest-base rt"
bad no-tarball "no readable tarball" "source=tarball:$tmp/none.tar.xz" "configs=guest-base preempt"
bad empty-range "the range has no commits" "patches=git:$tmp/notkernel@HEAD..HEAD" "configs=guest-base preempt"
printf 'not a mail\n' >"$tmp/not.mbox"
bad not-mbox "not an mbox" "patches=mbox:$tmp/not.mbox" "configs=guest-base preempt"
[ ! -e "$LOCKLAT_BUILD/kernels/no-rt" ] && [ ! -e "$LOCKLAT_BUILD/kernels/not-kernel" ]
tap_result $? "nothing was built for a bad variant"

# The 2020 series through the generic path: Debian's tree as a commit, the
# baseline revert and the local-lock series as commits made by git am.
repo=$tmp/linux
mkdir -p "$repo"
tar -xJf "$LOCKLAT_KERNEL_TARBALL" -C "$repo" --strip-components=1
git -C "$repo" init -q
# -f: Debian's tree ignores its own top level (.gitignore's "/*").
git -C "$repo" -c core.compression=1 -c core.looseCompression=1 add -f -A . >/dev/null &&
	git -C "$repo" commit -q -m "linux-source-6.12" &&
	git -C "$repo" am -q "$LOCKLAT_PATCHES_DIR"/baseline/0*.patch &&
	git -C "$repo" tag base &&
	git -C "$repo" am -q "$LOCKLAT_PATCHES_DIR"/local-lock/0*.patch &&
	git -C "$repo" tag tip
tap_result $? "the Debian tree committed to a scratch git tree, the series applied with git am"
cat "$LOCKLAT_PATCHES_DIR"/local-lock/0*.patch >"$tmp/local-lock.mbox"
base_cfg=$(kv_get "$LOCKLAT_VARIANTS_DIR/baseline" configs)
variant src-test-base "source=git:$repo@base" "configs=$base_cfg"
variant src-test-tip "source=git:$repo@base" "patches=git:$repo@base..tip" "configs=$base_cfg"
variant src-test-mbox "source=git:$repo@base" "patches=mbox:$tmp/local-lock.mbox" "configs=$base_cfg"
cp "$LOCKLAT_VARIANTS_DIR"/baseline "$LOCKLAT_VARIANTS_DIR"/local_lock "$tmp/variants/"

objects=$(series_sources local-lock | sed 's/\.c$/.o/' | tr '\n' ' ')
for v in baseline local_lock src-test-base src-test-tip src-test-mbox; do
	LOCKLAT_VARIANTS_DIR=$tmp/variants "$build" --only "$objects" "$v" >"$tmp/build-$v.log" 2>&1 ||
		{ echo "# $v did not build:"; tail -n 5 "$tmp/build-$v.log" | sed 's/^/# /'; }
done
obj() { printf '%s/%s\n' "$(kernel_objdir "$1")" "$2"; }
cmp -s "$(obj baseline .config)" "$(obj src-test-base .config)" &&
	cmp -s "$(obj baseline .config)" "$(obj src-test-tip .config)"
tap_result $? "the same .config from the git tree as from the tarball"
differ=''
for f in $(series_sources local-lock) $(series_sources baseline); do
	cmp -s "$(kernel_srcdir local_lock)/$f" "$(kernel_srcdir src-test-tip)/$f" || differ="$differ tip:$f"
	cmp -s "$(kernel_srcdir local_lock)/$f" "$(kernel_srcdir src-test-mbox)/$f" || differ="$differ mbox:$f"
	cmp -s "$(kernel_srcdir baseline)/$f" "$(kernel_srcdir src-test-base)/$f" || differ="$differ base:$f"
done
tap_is "$differ" "" "the patched files are the same: base as baseline, the range and the mbox as local_lock"
differ=''
for o in $objects; do
	cmp -s "$(obj baseline "$o")" "$(obj src-test-base "$o")" || differ="$differ base:$o"
	cmp -s "$(obj local_lock "$o")" "$(obj src-test-tip "$o")" || differ="$differ tip:$o"
done
tap_is "$differ" "" "the converted objects are byte-identical to the built-in variants'"
out=$(LOCKLAT_VARIANTS_DIR=$tmp/variants LOCKLAT_SERIES="git:$repo@base..tip" \
	"$root/kernels/verify-equivalence.sh" --pairs 2>&1)
tap_like "$out" "^src-test-tip src-test-base\$" "verify-equivalence pairs the range's variant with its base"
out=$(LOCKLAT_VARIANTS_DIR=$tmp/variants LOCKLAT_SERIES="git:$repo@base..tip" \
	"$root/kernels/verify-equivalence.sh" src-test-tip src-test-base 2>&1)
tap_like "$out" '^drivers/block/zram/zcomp.o: .*, 1 differ \(zcomp_stream_get\)$' \
	"and finds what it finds for local_lock vs baseline: only zcomp_stream_get differs"
manifest_free=$([ ! -e "$LOCKLAT_BUILD/kernels/src-test-tip/manifest" ] && echo yes)
tap_is "$manifest_free" yes "--only wrote no manifest (no bzImage to describe)"
# An mbox whose patch does not apply stops the build, naming the patch, the
# file and the hunk, before any kernel of the build is compiled.
sed 's|^ #include <linux/percpu.h>$| #include <linux/percpu-renamed.h>|' "$tmp/local-lock.mbox" >"$tmp/bad.mbox"
variant src-test-bad "source=git:$repo@base" "patches=mbox:$tmp/bad.mbox" "configs=$base_cfg"
rm -rf "$(kernel_path src-test-base)"
err=$(LOCKLAT_VARIANTS_DIR=$tmp/variants "$build" --only lib/radix-tree.o src-test-base src-test-bad 2>&1 >/dev/null)
tap_like "$?:$(printf '%s\n' "$err" | grep -m1 FAILED)" "^1:.*: fs/squashfs/decompressor_multi_percpu.c: Hunk #[0-9]+ FAILED" \
	"a patch of the mbox that does not apply: the build stops naming the patch, the file and the hunk"
[ ! -e "$(kernel_objdir src-test-base)/lib/radix-tree.o" ]
tap_result $? "and nothing was compiled, not even the kernel before it"
# --config (LOCKLAT_BASE_CONFIG): a developer's .config is the base, ours are
# merged onto it (merge_config.sh, alldefconfig for the rest); their option
# that ours override (PRINTK, which the guest console needs) is named.
printf 'CONFIG_BLK_DEV_RAM=y\nCONFIG_BLK_DEV_RAM_COUNT=4\n# CONFIG_PRINTK is not set\n' >"$tmp/dev.config"
variant src-test-config "source=git:$repo@base" "configs=$base_cfg"
LOCKLAT_BASE_CONFIG=$tmp/dev.config LOCKLAT_VARIANTS_DIR=$tmp/variants "$build" --only lib/radix-tree.o \
	src-test-config >"$tmp/config.log" 2>&1
tap_result $? "--config: a kernel's objects built on a developer's .config$(tail -n 1 "$tmp/config.log" | sed 's/^/: /')"
cfg=$(obj src-test-config .config)
grep -qx CONFIG_BLK_DEV_RAM=y "$cfg" && grep -qx CONFIG_BLK_DEV_RAM_COUNT=4 "$cfg" && grep -qx CONFIG_PREEMPT=y "$cfg" &&
	grep -qx CONFIG_PRINTK=y "$cfg"
tap_result $? "its options and ours are in the .config, ours winning where both name one"
tap_like "$(grep 'did not stick' "$tmp/config.log")" "of --config $tmp/dev.config, 1 line\(s\) did not stick.*CONFIG_PRINTK" \
	"what of theirs did not stick is said"
tap_done
