# SPDX-License-Identifier: GPL-2.0
# tests/lib/fake-tree.sh - a copy of the tree whose run-matrix.sh stages are
# fakes (tests/fakes/stage: fast, no kernel, no guest; the summary and plots
# the real ones behind it), for tests of the pipeline's plumbing (faults.t,
# ab.t).
#
# Usage: root=...; . "$root/tests/lib/fake-tree.sh"; fake_tree COPY
# The copy holds the tracked files as they are now (git ls-files: a new file
# must be added first) and the built tools with their mtimes, so that make
# finds them current. Sets LOCKLAT_BUILD to COPY/build and FAULTS_DIR (the
# fakes' control folder) to COPY.ctl.

# shellcheck shell=bash
# shellcheck disable=SC2154 # root: set by the test that sources this

fake_tree() {
	local copy=$1 d f
	mkdir -p "$copy/build" "$copy.ctl"
	(cd "$root" && git ls-files -z | xargs -0 tar -cf -) | tar -xf - -C "$copy"
	for d in bin guest-bin tests; do
		[ ! -d "$root/build/$d" ] || cp -a "$root/build/$d" "$copy/build/"
	done
	for f in tools/install-deps.sh kernels/build.sh kernels/modules/build.sh bench/guest/mkinitramfs.sh \
		bench/host/run-cell.sh; do
		cp "$root/tests/fakes/stage" "$copy/$f"
	done
	# The report and the equivalence pairs are the real ones, behind the fake.
	for f in bench/report/report.sh kernels/verify-equivalence.sh; do
		mv "$copy/$f" "$copy/$f.real"
		cp "$root/tests/fakes/stage" "$copy/$f"
	done
	export LOCKLAT_BUILD=$copy/build FAULTS_DIR=$copy.ctl
}
