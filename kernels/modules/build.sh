#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh - build the out-of-tree modules of kernels/modules/ (llcheck,
# llbench) against each variant's plain kernel (the modules pass boots it:
# llbench times preempt_disable() without the tracers' hooks). They are only
# ever loaded inside a locklat guest (bench/guest/init), never on the host.
#
# Usage: kernels/modules/build.sh [VARIANT...]   (default: every built variant)
#
# Linux 6.12's kbuild writes an external module's objects next to its sources,
# so the sources are copied (mtimes kept, so make rebuilds only what changed)
# to build/modules/<variant>/src/<module>/ and built there against
# the plain kernel's build/kernels/<variant> (its Module.symvers comes from
# kernels/build.sh).
# Results: build/modules/<variant>/<module>.ko and a manifest (key=value:
# kernel_release, vermagic and sha256 of each module).
# Exit: 0 built, 1 a build failed, 2 bad usage.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"
# shellcheck source=kernels/variants.sh
. "$LOCKLAT_ROOT/kernels/variants.sh"
# shellcheck source=kernels/modules/modules.sh
. "$LOCKLAT_ROOT/kernels/modules/modules.sh"

case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
	for v in $(known_variants); do
		[ -f "$(kernel_dir "$v" plain)/manifest" ] && variants+=("$v")
	done
	[ ${#variants[@]} -gt 0 ] || err_exit "no variant is built: run 'make kernels' first"
fi
for v in "${variants[@]}"; do
	is_variant "$v" || err_exit "unknown variant '$v'; known: $(known_variants | tr '\n' ' ')" 2
	[ -f "$(kernel_dir "$v" plain)/manifest" ] ||
		err_exit "variant $v is not built: run 'make kernels VARIANTS=$v'"
done

# module_build VARIANT MODULE: MODULE.ko for VARIANT, or stop.
module_build() {
	local v=$1 m=$2 objdir src log
	objdir=$(kv_get "$(kernel_dir "$v" plain)/manifest" objdir)
	[ -f "$objdir/Module.symvers" ] ||
		err_exit "$objdir/Module.symvers missing: rebuild the kernel with 'make kernels VARIANTS=$v'"
	src=$LOCKLAT_BUILD/modules/$v/src/$m
	log=$LOCKLAT_BUILD/modules/$v/$m.log
	mkdir -p "$src"
	cp -p "$LOCKLAT_ROOT/kernels/modules/$m/Kbuild" "$LOCKLAT_ROOT/kernels/modules/$m/"*.c "$src/"
	# The compiler the kernel was built with (kernels/build.sh), or kbuild
	# warns that it differs.
	CCACHE_BASEDIR=$LOCKLAT_BUILD make -C "$objdir" M="$src" CC="ccache gcc" modules >"$log" 2>&1 ||
		err_exit "$m for $v failed to build: $(grep -m1 -E 'error|ERROR' "$log" || tail -n 1 "$log") (log: $log)"
	cp "$src/$m.ko" "$LOCKLAT_BUILD/modules/$v/$m.ko.tmp"
	mv "$LOCKLAT_BUILD/modules/$v/$m.ko.tmp" "$LOCKLAT_BUILD/modules/$v/$m.ko"
}

for v in "${variants[@]}"; do
	t0=$SECONDS
	release=$(kv_get "$(kernel_dir "$v" plain)/manifest" kernel_release)
	manifest=$LOCKLAT_BUILD/modules/$v/manifest
	mkdir -p "$LOCKLAT_BUILD/modules/$v"
	: >"$manifest.tmp"
	kv_write "$manifest.tmp" variant "$v" kernel_release "$release"
	for m in $LOCKLAT_MODULES; do
		module_build "$v" "$m"
		ko=$LOCKLAT_BUILD/modules/$v/$m.ko
		vermagic=$(modinfo -F vermagic "$ko")
		# A module for another kernel would not load: say so here, not in the guest.
		[ "${vermagic%% *}" = "$release" ] ||
			err_exit "$m for $v has vermagic '$vermagic', kernel is $release"
		kv_write "$manifest.tmp" "$m.vermagic" "$vermagic" "$m.sha256" "$(sha256_of "$ko")"
	done
	mv "$manifest.tmp" "$manifest"
	progress modules "$v: $LOCKLAT_MODULES in $((SECONDS - t0)) s ($release)"
done
