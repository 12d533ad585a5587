#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# execute.t - the executor's scheduler on hand-made plans (bench/host/
# execute.sh --simulate --schedule: the decisions a real run makes, on the
# plans' expected seconds): what waits for what, how host CPUs are shared
# between builds and cells with and without --overlap, a lab's cells on
# its hosts' slots, and a plan it cannot run. Needs no QEMU.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
ex=$root/bench/host/execute.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 17

# plan FILE OVERLAP: the tools; two cold kernels, a and b; c, which shares
# a's configuration and waits for it (as local_lock waits for baseline);
# three cells of a, two of c.
plan() {
	local k r
	{
		printf '%s\n' "set	out	$tmp/run" "set	budget	2" "set	overlap	$2" "set	accel	tcg-icount" \
			"set	vcpus	1" "set	per_cell	1" "set	jobs	2" \
			"job	tools	-	1-2	10" \
			"job	kernel:a	tools	1-2	100	a	plain	cold" \
			"job	kernel:b	tools	1-2	100	b	plain	cold" \
			"job	kernel:c	tools,kernel:a	1-2	100	c	plain	shared"
		for k in a c; do
			for r in 1 2 3; do
				[ "$k$r" != c3 ] || continue
				printf 'job\tcell:%s/w/rep%s\tkernel:%s\t1\t30\t%s\tw\trep%s\t%s\tlatency\n' "$k" "$r" "$k" "$k" "$r" "$r"
			done
		done
		printf 'job\tsummary\tcell:*\t1\t5\n'
	} >"$1"
}
# at SCHEDULE ID: "start end CPUs" of job ID.
at() { awk -F'\t' -v id="$2" '$4 == id { print $1, $2, $3 }' <<<"$1"; }

plan "$tmp/overlap" yes
out=$("$ex" --simulate --schedule "$tmp/overlap")
tap_result $? "--simulate --schedule exits 0"
tap_is "$(at "$out" tools)" "0 10 0,1" "the tools build on both CPUs: nothing else can run"
# 100 s on 2 CPUs is 135 s on one (a build keeps 1.35 of 2 cores busy).
tap_is "$(at "$out" kernel:a) / $(at "$out" kernel:b)" "10 145 0 / 10 145 1" \
	"two kernels that can both start build side by side, one CPU each"
tap_is "$(at "$out" kernel:c)" "145 280 0" \
	"builds first: the kernel that waited for a takes a's CPU before a's cells"
tap_is "$(at "$out" cell:a/w/rep1)" "145 175 1" "overlap: a cell takes the CPU no build can use"
tap_is "$(at "$out" cell:c/w/rep1) / $(at "$out" cell:c/w/rep2)" "280 310 0 / 280 310 1" \
	"the last kernel's cells on both CPUs"
tap_is "$(at "$out" summary)" "310 315 0" "the summary waits for every cell"

plan "$tmp/serial" no
out=$("$ex" --simulate --schedule "$tmp/serial")
tap_is "$(at "$out" cell:a/w/rep1) / $(at "$out" kernel:c)" "280 310 0 / 145 280 0" \
	"no overlap: the cells wait until no build is left"

# Cells of 2 vCPUs on 2 host CPUs: none fits beside a build, so the build
# takes both.
printf '%s\n' "set	out	$tmp/run" "set	budget	2" "set	overlap	yes" "set	accel	tcg-icount" \
	"set	vcpus	2" "set	per_cell	2" "set	jobs	1" \
	"job	kernel:a	-	1-2	100	a	plain	cold" \
	"job	kernel:b	kernel:a	1-2	100	b	plain	shared" \
	"job	cell:a/w/rep1	kernel:a	2	30	a	w	rep1	1	latency" >"$tmp/wide"
out=$("$ex" --simulate --schedule "$tmp/wide")
tap_is "$(at "$out" kernel:b) / $(at "$out" cell:a/w/rep1)" "100 200 0,1 / 200 230 0,1" \
	"a build leaves no CPU that no ready job could use"

# The run's tail: the plan orders its last 2 x jobs cells longest first
# (bench/host/plan.sh), so that it does not end on one long cell beside an
# idle CPU; the order file keeps that order.
order=$(bash -c '. "$1/lib/common.sh"; . "$1/workloads/workloads.sh"; . "$1/bench/host/plan.sh"
	variants=(baseline) workloads=(squashfs) reps=4 jobs=3 out=$2/none seed=7 duration=10 trace_duration=3 warmup=1 accel=tcg-icount
	plan_order; printf "%s\n" "${cells[@]}"' _ "$root" "$tmp")
# With 3 cells at once the tail (6) takes all five cells.
tap_is "$(head -n 1 <<<"$order" | cut -d' ' -f3) $(wc -l <<<"$order")" "traced 5" \
	"the traced cell, the longest, comes first in a run that is all tail"
tap_is "$(sed -n '2,$p' <<<"$order" | grep -c rep)" 4 "and the repetitions follow it"

# A lab (--hosts): its cells (CPUs 0) wait for every build (the bundle
# carries every kernel), then take the hosts' slots (jobs: 2 in all) as
# cells take CPUs, the summary after the last.
{
	printf '%s\n' "set	out	$tmp/run" "set	budget	2" "set	overlap	yes" "set	accel	tcg-icount" \
		"set	vcpus	1" "set	per_cell	1" "set	jobs	2" "set	hosts	$tmp/hosts" \
		"job	kernel:a	-	1-2	100	a	plain	cold"
	for r in 1 2 3; do printf 'job\tcell:a/w/rep%s\tkernel:a\t0\t30\ta\tw\trep%s\t%s\tlatency\n' "$r" "$r" "$r"; done
	printf 'job\tsummary\tcell:*\t1\t5\n'
} >"$tmp/lab"
out=$("$ex" --simulate --schedule "$tmp/lab")
tap_is "$(for r in 1 2 3; do at "$out" "cell:a/w/rep$r"; done | tr '\n' ';')" "100 130 lab;100 130 lab;130 160 lab;" \
	"a lab: cells after the builds, two at once on the hosts' two slots, the third when one frees"
tap_is "$(at "$out" summary)" "160 165 0" "and the summary after the last"

# bad_plan NAME REGEX: the plan in $tmp/bad is refused with one line, exit 2.
bad_plan() {
	local err status
	err=$("$ex" --simulate "$tmp/bad" 2>&1)
	status=$?
	[ "$status" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && grep -Eq -- "$2" <<<"$err"
	tap_result $? "$1 (exit $status: $err)"
}
printf 'set\tout\t%s\nset\tbudget\t1\nset\toverlap\tno\nset\taccel\ttcg\nset\tvcpus\t1\nset\tper_cell\t1\n' "$tmp/run" >"$tmp/head"
{ cat "$tmp/head"; printf 'job\ta\tb\t1\t1\njob\tb\ta\t1\t1\n'; } >"$tmp/bad"
bad_plan "a cycle" "job a can never start"
{ cat "$tmp/head"; printf 'job\ta\tnope\t1\t1\n'; } >"$tmp/bad"
bad_plan "an unknown need" "job a needs nope, which the plan does not have"
{ cat "$tmp/head"; printf 'job\ta\t-\tmany\t1\n'; } >"$tmp/bad"
bad_plan "CPUs that are not a number" "CPUs 'many' is neither N nor MIN-MAX"
printf 'frobnicate\n' >"$tmp/bad"
bad_plan "a line of no known kind" "neither set nor job"
tap_done
