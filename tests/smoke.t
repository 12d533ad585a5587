#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# smoke.t - integration: build the smallest variant, boot it in QEMU and check
# what comes back: a command's output, a hang (TIMEOUT), a panic (finding),
# a missing kernel, a forced KVM without hardware support; then every workload
# (workloads/*/workload) for a few seconds with all passes (two cells at once,
# each pinned to its own host CPU), the modules pass in its own cell (llcheck
# and llbench built and run), and the summary and plots of those cells.
# Set LOCKLAT_SMOKE_VARIANT to use another variant (default local_lock).
# shellcheck source=lib/guest.sh
. "$(dirname "$0")/lib/guest.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cell=$root/bench/host/run-cell.sh
tap_plan $((33 + $(known_workloads | wc -l) + $(own_cell_passes | wc -l) + 30))

"$root/kernels/build.sh" "$variant" >"$tmp/build.log" 2>&1
tap_result $? "kernels/build.sh $variant"
manifest=$LOCKLAT_BUILD/kernels/$variant/manifest
release=$(kv_get "$manifest" kernel_release)
tap_like "$release" "^6\.12\.[0-9]+-locklat-$variant\$" "manifest names the kernel release"
traced_release=$(kv_get "$LOCKLAT_BUILD/kernels/$variant+tracers/manifest" kernel_release)
tap_like "$traced_release" "^6\.12\.[0-9]+-locklat-$variant\+tracers\$" "the traced kernel is built too"
# The plain kernel has no latency tracer; the traced one has both.
tap_is "$(grep -cE '^CONFIG_(PREEMPT|IRQSOFF)_TRACER=y' "$(kv_get "$manifest" config_path)")/$(grep -cE '^CONFIG_(PREEMPT|IRQSOFF)_TRACER=y' "$(kv_get "$LOCKLAT_BUILD/kernels/$variant+tracers/manifest" config_path)")" \
	0/2 "plain kernel without the preemptoff/irqsoff tracers, traced kernel with both"

# The kernel modules: built against this variant, checkpatch-clean.
"$root/kernels/modules/build.sh" "$variant" >"$tmp/modules.log" 2>&1
tap_result $? "kernels/modules/build.sh $variant"
for m in $LOCKLAT_MODULES; do
	perl "$LOCKLAT_BUILD/src/pristine/scripts/checkpatch.pl" --no-tree -q --terse \
		-f "$root/kernels/modules/$m/$m.c" >"$tmp/checkpatch-$m.log" 2>&1
	tap_result $? "checkpatch: $m.c is clean$(grep -m1 -E 'ERROR|WARNING' "$tmp/checkpatch-$m.log" | sed 's/^/ -- /')"
done

t0=$SECONDS
"$root/kernels/build.sh" "$variant" >"$tmp/rebuild.log" 2>&1
tap_result $? "second build of $variant"
! grep -q '^  CC ' "$LOCKLAT_BUILD/kernels/$variant/build.log" "$LOCKLAT_BUILD/kernels/$variant+tracers/build.log"
tap_result $? "second build compiled nothing in either kernel ($((SECONDS - t0)) s)"
tap_is "$(kv_get "$manifest" make_compiled)/$(kv_get "$LOCKLAT_BUILD/kernels/$variant+tracers/manifest" make_compiled)" \
	0/0 "and each manifest counts 0 compiled objects (ccache's log of that make)"

# The same boot runs each workload without what it needs (no setup step ran):
# a one-line error and exit 1, not a silent pass.
# shellcheck disable=SC2016 # the guest's shell expands $w and $?
"$cell" --variant "$variant" --command 'uname -r; nproc; for w in lru zram; do locklat-$w --duration 1; echo "$w exit $?"; done 2>&1; locklat-squashfs --dir /mnt/none --duration 1 2>&1; echo "squashfs exit $?"' \
	--out "$tmp/cmd" >/dev/null 2>&1
tap_result $? "a command cell ends OK"
tap_is "$(head -n 1 "$tmp/cmd/guest/command.out" 2>/dev/null)" "$release" "the guest ran the variant's kernel and returned its output"
for w in lru zram squashfs; do
	msg=$(grep -B1 -x "$w exit 1" "$tmp/cmd/guest/command.out" 2>/dev/null | head -n 1)
	tap_like "$msg" "^locklat-$w: error: (no active swap|open /mnt/none)" "locklat-$w without its setup: exit 1 ($msg)"
done
tap_is "$(kv_get "$tmp/cmd/meta" complete)" 1 "meta says complete"
tap_like "$(kv_get "$tmp/cmd/meta" pinning)" '^vcpu0:tid[0-9]+:cpu[0-9]' "vCPU pinning recorded"
grep -q -- '-kernel .*bzImage' "$tmp/cmd/qemu-cmdline"
tap_result $? "the exact QEMU command is kept"

"$cell" --variant "$variant" --command 'sleep 100000' --deadline 45 --out "$tmp/hang" >/dev/null 2>&1
tap_is "$?" "$CELL_EXIT_TIMEOUT" "a hanging guest command is killed: exit TIMEOUT"
tap_is "$(kv_get "$tmp/hang/meta" status)" TIMEOUT "meta status TIMEOUT"
# A guest whose init says nothing for --silence seconds is stopped then (a
# workload cell's guest logs a heartbeat; silence means its userspace or its
# clock stopped, even if the kernel still prints).
"$cell" --variant "$variant" --command 'sleep 100000' --silence 15 --out "$tmp/silent" >/dev/null 2>&1
tap_is "$?" "$CELL_EXIT_TIMEOUT" "a silent guest is stopped: exit TIMEOUT"
tap_like "$(kv_get "$tmp/silent/meta" reason)" '^the guest fell silent: no line of its init for 15 s of wall time in step command' \
	"the reason says the guest fell silent, in which step"

"$cell" --variant "$variant" --command 'echo c > /proc/sysrq-trigger' --out "$tmp/panic" >/dev/null 2>&1
tap_is "$?" "$CELL_EXIT_FINDINGS" "a panicking guest: exit FINDINGS"
tap_like "$(cat "$tmp/panic/findings")" '^panic	1	Kernel panic - not syncing: sysrq triggered crash' "the panic is a finding, quoted"
grep -qx 'setup 0' "$tmp/panic/guest/steps"
tap_result $? "files written before the panic still arrive"

# A step that outlives its budget of guest time: the guest's own watchdog
# reports it and powers off, long before the host's deadline.
t0=$SECONDS
"$cell" --variant "$variant" --workload idle --passes latency --duration 3 --warmup 1 \
	--step-budget 1 --out "$tmp/stepbudget" >/dev/null 2>&1
tap_is "$?" "$CELL_EXIT_TIMEOUT" "a step over its guest-time budget: exit TIMEOUT ($((SECONDS - t0)) s)"
tap_like "$(kv_get "$tmp/stepbudget/meta" reason)" "^step latency hung: .*the guest's own watchdog" \
	"the reason names the hung step and the guest's watchdog"
tap_is "$(kv_get "$tmp/stepbudget/meta" kernel_flavour) $(kv_get "$tmp/stepbudget/meta" manifest.kernel_release)" \
	"plain $release" "a latency-only cell boots the plain kernel"

# Multi-threaded TCG gives each vCPU its own thread, as KVM does: the pinning
# code KVM users depend on runs here. QMP's thread ids, one host CPU each,
# and the affinity read back from each thread.
if [ "$(nproc)" -ge 2 ]; then
	"$cell" --variant "$variant" --command true --accel tcg --cpus 2 --out "$tmp/tcg2" >/dev/null 2>&1
	tap_is "$?" 0 "--accel tcg --cpus 2: a command cell runs"
	pins=$(kv_get "$tmp/tcg2/meta" pinning)
	tap_like "$pins" '^vcpu0:tid([0-9]+):cpu0 vcpu1:tid([0-9]+):cpu1$' "the cell records each vCPU on its own host CPU ($pins)"
	awk '{ tid[$2]++; cpu[$3]++ } END { exit !(NR == 2 && length(tid) == 2 && length(cpu) == 2) }' "$tmp/tcg2/pinning"
	tap_result $? "two vCPU threads, each with its own single-CPU affinity (read back from the thread)"
else
	for _ in 1 2 3; do tap_result 0 "# SKIP needs 2 host CPUs"; done
fi

# A guest that declares a step hung but whose poweroff never ends QEMU is
# ended by the host LOCKLAT_HUNG_GRACE_S after the declaration, not at the
# cell's deadline. The guest cannot be kept from powering off (init's
# poweroff is a busybox applet, chrt is not in the image), so QEMU is run
# through a wrapper on PATH that adds -no-shutdown: the VM stops at its
# poweroff and the process stays, which is what the host sees of a guest
# wedged in its poweroff.
mkdir -p "$tmp/shim"
printf '%s\n' '#!/bin/sh' "exec $(command -v qemu-system-x86_64) \"\$@\" -no-shutdown" \
	>"$tmp/shim/qemu-system-x86_64"
chmod +x "$tmp/shim/qemu-system-x86_64"
t0=$SECONDS
PATH=$tmp/shim:$PATH LOCKLAT_HUNG_GRACE_S=10 "$cell" --variant "$variant" --step-budget 2 \
	--out "$tmp/nopoweroff" --command 'sleep 3600' >/dev/null 2>&1
tap_is "$?" "$CELL_EXIT_TIMEOUT" "a hung guest whose poweroff does not end QEMU: exit TIMEOUT ($((SECONDS - t0)) s)"
tap_is "$(cat "$tmp/nopoweroff/qemu-exit" 2>/dev/null)" hung "the host ended it once the guest had declared the step hung"
tap_like "$(kv_get "$tmp/nopoweroff/meta" reason)" "^step command hung: .*its poweroff did not finish, QEMU killed 10 s later" \
	"the reason says so"

# A guest whose results outgrow their disk fails its own cell, saying why.
LOCKLAT_RESULTS_DISK_MIB=2 "$cell" --variant "$variant" --command 'head -c 4000000 /dev/zero' \
	--out "$tmp/diskfull" >/dev/null 2>&1
tap_is "$?" "$CELL_EXIT_INVALID" "a guest that fills its results disk: exit INVALID"
tap_like "$(kv_get "$tmp/diskfull/meta" reason)" "results archive is damaged .*results disk full \(2 MiB\)" \
	"the reason names the damaged archive and the disk"

out=$(LOCKLAT_BUILD=$tmp/nobuild "$cell" --variant "$variant" --command true --out "$tmp/nokernel" 2>&1)
tap_is "$?" "$CELL_EXIT_INFRA" "a variant that is not built: infrastructure error"
tap_like "$out" "variant $variant is not built .*make kernels VARIANTS=$variant" "the error says how to build it"

# Every workload, a few seconds each, as one small run: each a traced cell
# (all passes, the traced kernel); each pass with a cell of its own (the
# modules) its rep1.
mapfile -t workloads < <(known_workloads; own_cell_passes)
run=$tmp/run
slot=0
pids=()
# cell_of W: the cell folder of workload W in this run: with no
# repetitions, the traced cell, or the one cell of a cells=once workload or
# of a pass with a cell of its own.
cell_of() {
	workload_cells "$1" 0
}
for w in "${workloads[@]}"; do
	# A heartbeat every guest second, so that a 2 s pass shows some.
	LOCKLAT_HEARTBEAT_S=1 "$cell" --variant "$variant" --workload "$w" --duration 2 --warmup 1 \
		--pin "$slot" --allow-overcommit --out "$run/cells/$variant/$w/$(cell_of "$w")" \
		>"$tmp/cell-$w.log" 2>&1 &
	pids[slot]=$!
	slot=$(( (slot + 1) % 2 ))
	[ -z "${pids[slot]:-}" ] || wait "${pids[slot]}"
done
wait
# One repetition as the matrix runs it (the latency pass alone, the plain
# kernel), so that the summary has a measured column to set the traced
# kernel's pass against.
"$cell" --variant "$variant" --workload squashfs --passes latency --duration 2 --warmup 1 \
	--out "$run/cells/$variant/squashfs/rep1" >"$tmp/cell-squashfs-rep1.log" 2>&1
tap_is "$(kv_get "$run/cells/$variant/squashfs/rep1/meta" status) $(kv_get "$run/cells/$variant/squashfs/rep1/meta" kernel_flavour)" \
	"OK plain" "squashfs rep1: a latency pass on the plain kernel"
for w in "${workloads[@]}"; do
	d=$run/cells/$variant/$w/$(cell_of "$w")
	st=$(kv_get "$d/meta" status 2>/dev/null)
	WORKLOAD_TARGETS=- WORKLOAD_COMMAND=-
	is_own_cell_pass "$w" || workload_load "$w"
	hits=$(awk '{ n += $2 } END { print n + 0 }' "$d/guest/path-hits" 2>/dev/null)
	ok=0
	[ "$st" = OK ] || ok=1
	[ "$WORKLOAD_TARGETS" = - ] || [ "${hits:-0}" -gt 0 ] || ok=1
	# Our own workloads print their statistics line.
	# Our own workloads print their statistics line; every load, loadmon's
	# (stress) included, its per-second progress.
	case $WORKLOAD_COMMAND in
	locklat-loadmon*) ;;
	locklat-*) grep -q "^locklat-stats workload=" "$d/guest/workload-latency.out" 2>/dev/null || ok=1 ;;
	esac
	case $WORKLOAD_COMMAND in
	-) ;;
	*) grep -q "^locklat-progress uptime_ms=[0-9]* ops=[0-9]" "$d/guest/workload-latency.out" 2>/dev/null || ok=1 ;;
	esac
	tap_result "$ok" "workload $w: status ${st:-none}, target hits ${hits:-none}"
done
grep -q 'locklat: step latency: running, 1 s' "$run/cells/$variant/idle/traced/console.log" 2>/dev/null
tap_result $? "a workload cell's guest logs its heartbeat while a step runs"
# lru reaches the batches that need more than faults and madvise: the
# interrupt-side rotation at swap-disk writeback end and order-9 compaction.
for fn in lru_move_tail lru_add_drain_cpu_zone; do
	n=$(awk -v fn="$fn" '$1 == fn { print $2 }' "$run/cells/$variant/lru/traced/guest/path-hits" 2>/dev/null)
	tap_like "${n:-none}" '^[1-9][0-9]*$' "lru: $fn ran (verify pass: ${n:-none} hits)"
done
stats=$(grep -h '^locklat-stats workload=lru' "$run/cells/$variant/lru/traced/guest/workload-verify.out" 2>/dev/null)
tap_like "$stats" ' pgrotated=[1-9][0-9]* compact_stall=[1-9]' "lru: folios rotated, direct compaction stalls (vmstat)"
# The modules cell: every llcheck scenario loaded and removed, llbench twice.
mods=$run/cells/$variant/modules/rep1/guest/modules
ok=0
for s in $(llcheck_scenarios); do
	grep -qx 'insmod 0 rmmod 0' "$mods/llcheck-$s.status" 2>/dev/null || ok=1
done
tap_result "$ok" "modules: each llcheck scenario loaded and unloaded"
grep -qx 'insmod 0 rmmod 0' "$mods/llbench-first.status" 2>/dev/null &&
	grep -qx 'insmod 0 rmmod 0' "$mods/llbench.status" 2>/dev/null
tap_result $? "modules: llbench loads again after removal"
tap_is "$(grep -c 'llbench: op=.* median_ns=[0-9.]* ' "$mods/llbench.dmesg" 2>/dev/null)" 5 \
	"modules: llbench timed its 5 operations"
tap_is "$(kv_get "$run/cells/$variant/modules/rep1/meta" kernel_flavour)" plain "modules: on the plain kernel"
tap_is "$(kv_get "$run/cells/$variant/squashfs/traced/meta" manifest.kernel_release)" "$traced_release" \
	"a cell with the tracer passes boots the traced kernel"
max=$(cat "$run/cells/$variant/squashfs/traced/guest/preemptoff/tracing_max_latency" 2>/dev/null)
hdr=$(sed -n 's/^# latency: \([0-9]*\) us.*/\1/p' "$run/cells/$variant/squashfs/traced/guest/preemptoff/trace.txt" 2>/dev/null)
tap_is "$max" "$hdr" "preemptoff: tracing_max_latency equals the trace's own header"
# Which section is worst in 2 s varies (the 5 s passes of the reference run
# always found squashfs_decompress on non-RT); that it is named does not.
grep -q 'started at: [a-z_]' "$run/cells/$variant/squashfs/traced/guest/preemptoff/trace.txt" &&
	grep -q '^ => ' "$run/cells/$variant/squashfs/traced/guest/preemptoff/trace.txt"
tap_result $? "squashfs: the worst preempt-off section is named, with its stack"

# The path proof leaves the harness out: with the workload running, no hit
# is init's or one of its forks' (the idle control has them).
harness=$(grep -hE '^\{ common_pid: (init|sleep|cat|sed|ps) ' "$run/cells/$variant"/*/traced/guest/path-hits.d/workload-*.hist 2>/dev/null | head -n 3)
tap_is "$harness" "" "verify: no hit by the harness's processes is counted for the workload"
tap_like "$(awk '$1 == "folio_mark_accessed" { print NF }' "$run/cells/$variant/lru/traced/guest/path-hits" 2>/dev/null)" '^3$' \
	"verify: each target has the workload's count and the idle control's"
grep -qx 'timerlat 0' "$run/cells/$variant/squashfs/traced/guest/steps" 2>/dev/null &&
	grep -q 'Blocking thread' "$run/cells/$variant/squashfs/traced/guest/timerlat/rtla.out"
tap_result $? "timerlat: rtla (from the 6.12 tree) stopped on squashfs and analysed the wake-up"

"$root/bench/report/report.sh" summary "$run" >/dev/null 2>&1
tap_result $? "summary of the smoke run"
# Each workload's progress lines cover its latency pass: no load is dead,
# none unknown (the guest wrote the pass's window and the load's state).
n=$(grep -cE '"verdict":"(dead|unknown)"' "$run/summary.json" 2>/dev/null)
tap_is "$n" 0 "summary: every load ran through its latency pass (progress lines, window, alive)"
[ "$n" = 0 ] || grep -A3 '^## Repetitions left out' -A20 "$run/summary.md" | sed 's/^/# /'
[ "$n" = 0 ] || grep -h 'locklat-progress' "$run"/cells/*/*/traced/guest/workload-latency.out | sed 's/^/# /' | tail -n 40
# On a CONFIG_PREEMPT kernel the decompressor's section blocks the worst
# wake-up: the timerlat trace itself says so (the section opens or closes in
# squashfs_decompress).
grep -q '"worst_wakeup_culprit":"[a-z_…]* → squashfs multi-CPU decompressor"' "$run/summary.json"
tap_result $? "summary: squashfs's worst wake-up is the multi-CPU decompressor's section"
grep -qE '^\| max latency on the traced kernel, one pass \(× the median above: the tracers. cost\) \| [0-9]+ \([0-9.]+×\)' "$run/summary.md"
tap_result $? "summary: the traced kernel's latency pass set against the plain kernel's repetition"
n=$(grep -c '^## Workload' "$run/summary.md" 2>/dev/null)
tap_is "$n" "$(( ${#workloads[@]} - 1 ))" "summary.md has a section per latency workload"
# The modules table: a row per scenario, each cell filled for this variant.
n=$(grep -cE '^\| (c|a-preempt|b|a) \| (silent|\*\*detected\*\*)' "$run/summary.md" 2>/dev/null)
tap_is "$n" "$(llcheck_scenarios | wc -l)" "summary.md: llcheck table, a result per scenario"
"$root/bench/report/report.sh" plots "$run" >/dev/null 2>&1
tap_result $? "plots of the smoke run"
[ -s "$run/plots/max.svg" ] && [ -s "$run/plots/hist-squashfs.png" ]
tap_result $? "plots written (SVG and PNG)"

if grep -Eqw 'vmx|svm' /proc/cpuinfo; then
	tap_result 0 "# SKIP host has hardware virtualisation"
	tap_result 0 "# SKIP host has hardware virtualisation"
else
	t0=$SECONDS
	out=$("$cell" --variant "$variant" --command true --accel kvm --out "$tmp/kvm" 2>&1)
	status=$?
	[ "$status" -ne 0 ] && [ $((SECONDS - t0)) -le 150 ]
	tap_result $? "forced --accel kvm without vmx/svm fails within the boot deadline (exit $status)"
	tap_like "$out" 'kvm|KVM' "and says why"
fi
tap_done
