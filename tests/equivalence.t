#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# equivalence.t - the series' claim, checked on our builds: on CONFIG_PREEMPT
# without debugging, local_lock and baseline compile to the same code, except
# one known reordering in zcomp_stream_get. On PREEMPT_RT they must differ.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
[ -r "$LOCKLAT_KERNEL_TARBALL" ] || tap_skip_all "$LOCKLAT_KERNEL_TARBALL missing (make deps)"
tap_plan 9

out=$("$root/kernels/verify-equivalence.sh" local_lock baseline 2>&1)
tap_result $? "verify-equivalence.sh local_lock baseline"
printf '%s\n' "$out" | sed 's/^/# /'
for obj in mm/swap.o fs/squashfs/decompressor_multi_percpu.o drivers/connector/cn_proc.o; do
	tap_like "$out" "^$obj: [0-9]+ functions: [0-9]+ identical, 0 same code, 0 differ\$" "$obj: every function identical"
done
tap_like "$out" '^configuration: the same \.config \(sha256 [0-9a-f]{16}\); only the patches differ$' \
	"local_lock and baseline: one configuration, two patch sets"
tap_like "$out" '^cache: 10 objects byte-identical to a compile without ccache$' \
	"the converted objects from the shared ccache are those a compile without it gives"
tap_like "$out" '^lib/radix-tree.o: .*, 0 differ$' "lib/radix-tree.o: no instruction differs (static vs exported per-CPU symbol only)"
tap_like "$out" '^drivers/block/zram/zcomp.o: .*, 1 differ \(zcomp_stream_get\)$' "zcomp.o: only the known zcomp_stream_get reordering"
grep -q '^--- zcomp_stream_get' "$LOCKLAT_BUILD/equivalence/local_lock-vs-baseline.txt"
tap_result $? "the report shows the differing instructions"
tap_done
