#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# traced.t - integration: the traced evidence holds. A traced squashfs cell
# on the smoke variant (local_lock: its decompressor keeps preemption off for
# a whole block) whose first timerlat pass hangs (--inject-hang): the guest
# must end it, record it, run the other passes, and retry it once; the retry's
# timerlat.dat must be a trace-cmd file the summary reads with libtracecmd,
# naming the decompressor's section, with each tracer pass's runs kept; no
# wake-up over the threshold may be reported as none. A second cell whose
# guest falls silent in its timerlat pass (--inject-wedge) must be ended by
# the host and resumed in a second boot that runs what is left, that pass
# last, with the first boot's latency pass for its threshold.
# shellcheck source=lib/guest.sh
. "$(dirname "$0")/lib/guest.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 17

"$root/kernels/build.sh" --flavour traced "$variant" >"$tmp/build.log" 2>&1
tap_result $? "kernels/build.sh --flavour traced $variant"

out=$tmp/run/$variant/squashfs/traced
mkdir -p "$(dirname "$out")"
"$root/bench/host/run-cell.sh" --variant "$variant" --workload squashfs --out "$out" \
	--passes "latency timerlat preemptoff timerlat.2" --duration 3 --trace-duration 2 --warmup 1 \
	--step-budget 20 --inject-hang timerlat >"$tmp/cell.log" 2>&1
tap_result $? "a traced cell whose first timerlat pass hangs still ends OK"
tap_is "$(kv_get "$out/meta" reason)" "retried after a hang: timerlat" "meta says which pass was retried"
tap_is "$(tr '\n' ' ' <"$out/guest/steps")" "setup 0 latency 0 timerlat hung preemptoff 0 timerlat.2 0 timerlat 0 " \
	"the hung pass is ended and recorded, the others run, then it is retried once"
trace-cmd report -i "$out/guest/timerlat/timerlat.dat" >"$tmp/report" 2>/dev/null
tap_result $? "timerlat.dat is a trace-cmd file (trace-cmd report, KernelShark)"
grep -q 'timerlat:.*context:1' "$tmp/report" && grep -q 'preempt_disable:' "$tmp/report"
tap_result $? "it holds timerlat's samples and the preemptirq events"

"$root/build/bin/locklat-summary" "$tmp/run" >/dev/null 2>&1
tap_result $? "locklat-summary reads the cell"
json=$tmp/run/summary.json
wake=$(jq -r '.cells[0].worst_wakeup | "\(.hit) \(.blame.kind) \(.blame.call_site) \(.runs_max_us | length)"' "$json")
tap_is "$wake" "true call_site squashfs multi-CPU decompressor 2" \
	"the traced worst wake-up is the decompressor's section, from two timerlat runs"
tap_is "$(jq -r '.cells[0].preemptoff.blame.call_site' "$json")" "squashfs multi-CPU decompressor" \
	"the preemptoff pass, run after the hang, names it too"
# Never "none" when timerlat saw a wake-up at or over the threshold.
tap_is "$(jq '[.cells[].worst_wakeup | select(. != null and .hit == false and .trace_lost == false
	and .timerlat_max_us != null and .timerlat_max_us >= .threshold_us)] | length' "$json")" 0 \
	"no cell reports no hit while timerlat's max reached its threshold"
tap_is "$(jq -r '.cells[0].worst_wakeup | (.idle_max_us < .threshold_us) and (.latency_pass_max_us > 0)' "$json")" true \
	"the threshold sits above the idle noise timerlat measured, from the latency pass's maximum"

wedged=$tmp/wedge/$variant/squashfs/traced
mkdir -p "$(dirname "$wedged")"
"$root/bench/host/run-cell.sh" --variant "$variant" --workload squashfs --out "$wedged" \
	--passes "latency timerlat preemptoff" --duration 3 --trace-duration 2 --warmup 1 \
	--silence 20 --inject-wedge timerlat >"$tmp/wedge.log" 2>&1
tap_result $? "a traced cell whose guest falls silent in timerlat still ends OK, in two boots"
tap_is "$(kv_get "$wedged/meta" boots) $(kv_get "$wedged/meta" resumed_passes)" "2 preemptoff timerlat" \
	"the second boot runs the pass not yet run, then the one the guest was stuck in"
tap_is "$(tr '\n' ' ' <"$wedged/guest/steps")" "setup 0 latency 0 setup 0 preemptoff 0 timerlat 0 " \
	"the steps of both boots, in order"
tap_like "$(kv_get "$wedged/meta" reason)" "first boot: the guest fell silent.* in step timerlat .*; a second boot ran preemptoff timerlat$" \
	"meta says why a second boot ran, and what"
"$root/build/bin/locklat-summary" "$tmp/wedge" >/dev/null 2>&1
wake=$(jq -r '.cells[0].worst_wakeup | "\(.hit) \(.blame.call_site) \(.latency_pass_max_us > 0)"' "$tmp/wedge/summary.json")
tap_is "$wake" "true squashfs multi-CPU decompressor true" \
	"the second boot's timerlat pass, its threshold from the first boot's latency pass, names the decompressor"
[ -f "$wedged/boot2/console.log" ] && [ -f "$wedged/boot2/qemu-cmdline" ] && ! grep -q partial "$wedged/boot2/qemu-cmdline"
tap_result $? "the second boot's console and exact QEMU command are kept under boot2/"
