#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# share.t - build only what differs (kernels/build.sh, "one tree per
# kernel"). A variant with local_lock's configuration and patches plus one
# patch to init/calibrate.c, built after local_lock, compiles that file and
# the few that hold the kernel's release string; ccache answers for every
# other object. Taking the patch away again must recompile calibrate.c
# (back to pristine content, which make would otherwise take for older than
# the object built from the patched one), and the object is then
# byte-identical to local_lock's.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
[ -r "$LOCKLAT_KERNEL_TARBALL" ] || tap_skip_all "$LOCKLAT_KERNEL_TARBALL missing (make deps)"
tap_plan 12
tmp=$(mktemp -d)
name=share-test
# A test killed before its trap ran leaves the kernel behind, built.
rm -rf "$(kernel_path "$name")"
trap 'rm -rf "$tmp" "$(kernel_path "$name")"' EXIT
build=$root/kernels/build.sh

"$build" --flavour plain local_lock >"$tmp/build.log" 2>&1
tap_result $? "kernels/build.sh --flavour plain local_lock"

# The test's variant: its own variants and patches folders (the real series
# linked in), so nothing under kernels/ changes.
mkdir -p "$tmp/variants" "$tmp/patches/$name"
ln -s "$LOCKLAT_PATCHES_DIR/baseline" "$LOCKLAT_PATCHES_DIR/local-lock" "$tmp/patches/"
printf '%s\n' "description=local_lock plus a comment in init/calibrate.c" \
	"patches=baseline local-lock $name" "configs=guest-base preempt" "bootargs=" >"$tmp/variants/$name"
first=$(head -n 1 "$LOCKLAT_BUILD/src/pristine/init/calibrate.c")
printf '%s\n' '--- a/init/calibrate.c' '+++ b/init/calibrate.c' '@@ -1 +1,2 @@' \
	" $first" "+/* locklat share.t $(date +%s%N): a change no other build saw, not even an earlier run of this test */" >"$tmp/patches/$name/0001-comment.patch"
echo 0001-comment.patch >"$tmp/patches/$name/series"
share_build() {
	LOCKLAT_VARIANTS_DIR=$tmp/variants LOCKLAT_PATCHES_DIR=$tmp/patches \
		"$build" --flavour plain "$name" >"$tmp/share.log" 2>&1
}
# misses: the sources ccache compiled in the last make of the kernel.
misses() {
	awk '/^# / { src = $2 } $0 == "cache_miss" { print src }' "$(kernel_path "$name")/ccache-stats.log"
}

t0=$SECONDS
share_build
tap_result $? "a second variant of local_lock's configuration builds ($((SECONDS - t0)) s)"
manifest=$(kernel_path "$name")/manifest
compiled=$(kv_get "$manifest" make_compiled)
cached=$(kv_get "$manifest" make_cached)
echo "# compiled: $(misses | tr '\n' ' ')"
grep -q "$name: done in [0-9]* s, $compiled compiled, $cached from ccache" "$tmp/share.log"
tap_result $? "build.sh prints how many objects were compiled and how many came from ccache"
misses | grep -qx '../init/calibrate.c'
tap_result $? "the patched file is compiled"
# What else a second kernel must compile: what holds its release string
# (utsrelease.h, vermagic.h), what holds the image's own sizes and bytes,
# and the compiler probes (-x c /dev/null). Anything more would mean ccache
# hashes something that differs between kernels (a path, the objdir).
expected='^(\.\./init/calibrate\.c|\.\./init/version(-timestamp)?\.c|\.\./kernel/sys\.c|\.\./kernel/module/main\.c|\.\./arch/x86/boot/version\.c|\.\./arch/x86/boot/header\.S|arch/x86/boot/compressed/piggy\.S|/dev/null)$'
others=$(misses | grep -Ev "$expected" | tr '\n' ' ')
[ -n "$compiled" ] && [ -z "$others" ]
tap_result $? "and nothing else: $compiled compiled, ${others:-none} beyond the patched file, the release string and the image's layout"
[ "${cached:-0}" -ge 1000 ]
tap_result $? "ccache answers for the rest: $cached objects"

# The patch goes: init/calibrate.c is pristine again.
: >"$tmp/patches/$name/series"
share_build
tap_result $? "the variant without its extra patch builds"
grep -q '^# \.\./init/calibrate\.c$' "$(kernel_path "$name")/ccache-stats.log"
tap_result $? "make compiles init/calibrate.c again (its pristine content got a fresh mtime)"
cmp -s "$(kernel_objdir "$name")/init/calibrate.o" "$(kernel_objdir local_lock)/init/calibrate.o"
tap_result $? "and the object is byte-identical to local_lock's"

# A make killed with -9 (its marker left, an object cut short after it):
# the next build makes that object again instead of linking the stump.
obj=$(kernel_objdir "$name")
touch -d '1 minute ago' "$obj/.locklat-make-running"
: >"$obj/init/calibrate.o"
share_build
tap_result $? "after a killed make (marker left, init/calibrate.o truncated) the variant builds"
grep -q "$name: the last make did not finish; [1-9][0-9]* objects it wrote are made again" "$tmp/share.log"
tap_result $? "build.sh says the last make did not finish"
cmp -s "$obj/init/calibrate.o" "$(kernel_objdir local_lock)/init/calibrate.o" &&
	[ -f "$(kernel_path "$name")/manifest" ] && [ ! -e "$obj/.locklat-make-running" ]
tap_result $? "the cut object is whole again, the manifest is back, the marker gone"
tap_done
