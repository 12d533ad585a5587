# SPDX-License-Identifier: GPL-2.0
# tests/lib/guest.sh - the start of a test that boots guests: TAP helpers,
# $root, lib/common.sh and the workloads' and modules' loaders, $variant (LOCKLAT_SMOKE_VARIANT, default
# local_lock), and a skip of the whole file when the kernel source or QEMU is
# missing.
#
# Usage: . "$(dirname "$0")/lib/guest.sh"

# shellcheck shell=bash
# shellcheck source=tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../lib/common.sh
. "$root/lib/common.sh"
# shellcheck source=../../workloads/workloads.sh
. "$root/workloads/workloads.sh"
# shellcheck source=../../kernels/modules/modules.sh
. "$root/kernels/modules/modules.sh"
# shellcheck disable=SC2034 # read by the test that sources this file
variant=${LOCKLAT_SMOKE_VARIANT:-local_lock}
[ -r "$LOCKLAT_KERNEL_TARBALL" ] || tap_skip_all "$LOCKLAT_KERNEL_TARBALL missing (make deps)"
command -v qemu-system-x86_64 >/dev/null || tap_skip_all "qemu-system-x86_64 missing (make deps)"
