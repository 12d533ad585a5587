#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# faults.t - the fault battery: run-matrix.sh killed with SIGKILL in each of
# its stages (packages, a kernel build, the initramfs, a cell, the summary,
# the plots), then the same command again. A copy of the tree runs, its
# stage scripts replaced by tests/fakes/stage (fast, no kernel; the summary
# and plots are the real ones behind it), which holds a child process while
# it is armed. Each kill must take the stage and its child with it (the
# stage guard, bench/host/guard); each rerun must finish without redoing a
# complete cell, and redo a cell whose meta is empty. The real kill of a
# booted cell is interrupt.t's.
# shellcheck disable=SC2317 # the predicates below are called through wait_until
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
[ -x "$root/build/bin/locklat-summary" ] || tap_skip_all "tools not built (make tools)"
stages=(packages kernels initramfs cell summary plots)
tap_plan $(( ${#stages[@]} * 3 + 14 ))
tmp=$(mktemp -d)
trap 'pkill -KILL -f -- "$tmp/" 2>/dev/null; rm -rf "$tmp"' EXIT

# The copy: the tracked files as they are now, the stages faked.
# shellcheck source=lib/fake-tree.sh
. "$root/tests/lib/fake-tree.sh"
copy=$tmp/tree
fake_tree "$copy"
args=(--variants baseline --workloads idle --reps 2 --duration 1 --warmup 1 --accel tcg-icount --jobs 1)

# A fake stage is up within a second: poll finer than the default.
WAIT_POLL_S=0.2
gone() { ! kill -0 "$1" 2>/dev/null && ! kill -0 "$2" 2>/dev/null; }
# complete_cells: "folder checksum-of-meta" of each complete cell.
complete_cells() {
	find "$run/cells" -mindepth 4 -maxdepth 4 -name meta -path '*/rep*/meta' -exec grep -l '^complete=1$' {} + 2>/dev/null |
		sort | xargs -r sha256sum
}

# Each stage's kill in a run of its own: a kill in the cell stage has one
# complete cell behind it, one in the summary or plots stage both.
for s in "${stages[@]}"; do
	run=$tmp/run-$s
	run_args=("${args[@]}" --out "$run")
	touch "$FAULTS_DIR/arm-$s"
	"$copy/run-matrix.sh" "${run_args[@]}" >"$tmp/run-$s.log" 2>&1 &
	pid=$!
	if wait_until 60 test -s "$FAULTS_DIR/running-$s"; then
		read -r stage_pid child_pid <"$FAULTS_DIR/running-$s"
		kill -KILL "$pid"
		wait "$pid" 2>/dev/null
		wait_until 5 gone "$stage_pid" "$child_pid"
		tap_result $? "killed in the $s stage: the stage and its child went with run-matrix.sh"
	else
		kill -KILL "$pid" 2>/dev/null
		tap_result 1 "killed in the $s stage: the stage never started ($(tail -n 1 "$tmp/run-$s.log"))"
	fi
	rm -f "$FAULTS_DIR/arm-$s" "$FAULTS_DIR/running-$s"
	before=$(complete_cells)
	"$copy/run-matrix.sh" "${run_args[@]}" >"$tmp/rerun-$s.log" 2>&1
	tap_result $? "then the same command finishes$(tail -n 1 "$tmp/rerun-$s.log" | sed 's/^/: /')"
	after=$(complete_cells)
	# comm wants its input sorted: sha256sum's lines lead with the hash.
	[ -z "$before" ] || [ "$(comm -23 <(printf '%s\n' "$before" | sort) <(printf '%s\n' "$after" | sort))" = "" ]
	tap_result $? "and no complete cell was redone ($(printf '%s' "$before" | grep -c .) complete before)"
done

# A cell whose meta is empty (a write cut short) is not complete: redone.
: >"$run/cells/baseline/idle/rep2/meta"
"$copy/run-matrix.sh" "${run_args[@]}" >"$tmp/rerun-empty.log" 2>&1
tap_result $? "a run with an empty meta finishes"
grep -q '^complete=1$' "$run/cells/baseline/idle/rep2/meta" && ! grep -q 'baseline/idle/rep2: kept' "$tmp/rerun-empty.log"
tap_result $? "the cell with the empty meta was redone, not kept"

# A kernel that does not build: the run goes on; its cells are INFRA,
# saying so; the other variant's cells ran.
touch "$FAULTS_DIR/fail-kernels-local_lock"
"$copy/run-matrix.sh" --variants baseline,local_lock --workloads idle --reps 1 --duration 1 --warmup 1 \
	--accel tcg-icount --out "$tmp/run-fail" >"$tmp/run-fail.log" 2>&1
tap_like "$?:$(grep 'failed, their cells INFRA' "$tmp/run-fail.log")" '^1:.*job\(s\) failed, their cells INFRA: kernel:local_lock' \
	"a run with a kernel that does not build finishes, names it and exits 1"
rm -f "$FAULTS_DIR/fail-kernels-local_lock"
tap_like "$(grep -h '^status=\|^reason=' "$tmp/run-fail/cells/local_lock/idle/rep1/meta" | tr '\n' ' ')" \
	'^status=INFRA reason=kernel build failed: .*/kernels/local_lock(\+tracers)?/build.log $' \
	"its cells are INFRA, naming the build's log"
tap_is "$(cat "$tmp/run-fail/cells/baseline/idle/"*/meta | grep -c '^status=OK$')" 2 "the other variant's cells ran"

# A cell that ends FINDINGS (a splat, corrupted data) is a result, which the
# summary reports and kernels/comparisons judges, not a failed job: with no
# comparison contradicted the run exits 0 and names no failed job.
touch "$FAULTS_DIR/findings-cell"
"$copy/run-matrix.sh" --variants baseline --workloads idle --reps 1 --duration 1 --warmup 1 \
	--accel tcg-icount --jobs 1 --out "$tmp/run-findings" >"$tmp/run-findings.log" 2>&1
tap_is "$?:$(grep -c 'job(s) failed' "$tmp/run-findings.log")" 0:0 "a run whose cells end FINDINGS exits 0 and names no failed job"
rm -f "$FAULTS_DIR/findings-cell"
tap_like "$(cat "$tmp/run-findings/summary.md")" '[0-9]+ FINDINGS\)' "and its summary counts them"

# A workload added as a folder and a variant added as a file (lockdep on
# PREEMPT_RT), nothing else touched: the default plan, a run and its
# summary pick them up.
mkdir -p "$copy/workloads/extra"
printf '%s\n' "description=a workload added by faults.t" setup=none targets=- command=- default=yes \
	>"$copy/workloads/extra/workload"
printf '%s\n' "description=local_lock on PREEMPT_RT under lockdep" "patches=baseline local-lock" \
	"configs=guest-base rt lockdep" bootargs= >"$copy/kernels/variants/lockdep-rt"
plan=$("$copy/run-matrix.sh" --dry-run --out "$tmp/run-extra" 2>&1)
tap_like "$plan" "workloads: +extra lru modules squashfs squashfs-128k zram\$" "the default plan takes the new workload (default=yes)"
tap_like "$plan" "variants: +.* lockdep-rt( |\$)" "and the new variant"
"$copy/run-matrix.sh" --variants baseline,lockdep-rt --workloads extra --reps 1 --duration 1 --warmup 1 \
	--accel tcg-icount --jobs 1 --out "$tmp/run-extra" >"$tmp/run-extra.log" 2>&1
tap_result $? "a run of them finishes$(tail -n 1 "$tmp/run-extra.log" | sed 's/^/: /')"
grep -A1 -F "## Workload \`extra\`" "$tmp/run-extra/summary.md" >/dev/null &&
	grep -qE '^\|  \| baseline \| lockdep-rt \|$' "$tmp/run-extra/summary.md"
tap_result $? "and its summary has a section for the workload with a column for the variant"

# The gate: a run that contradicts an expectation of kernels/comparisons
# (identical cells, a line expecting one build higher) exits 1, and
# DIR/verdicts.tap says which comparison failed.
cp -a "$root/tests/fixtures/run/baseline/squashfs/rep2" "$FAULTS_DIR/cell-template"
echo 'local_lock | baseline | idle | higher | faults.t: identical cells cannot be higher' >>"$copy/kernels/comparisons"
"$copy/run-matrix.sh" --variants baseline,local_lock --workloads idle --reps 4 --duration 1 --warmup 1 \
	--accel tcg-icount --out "$tmp/run-gate" >"$tmp/run-gate.log" 2>&1
tap_is "$?" 1 "a run that contradicts an expectation exits 1$(tail -n 1 "$tmp/run-gate.log" | sed 's/^/: /')"
tap_like "$(grep '^not ok' "$tmp/run-gate/verdicts.tap")" '^not ok [0-9]+ - idle: local_lock vs baseline \([0-9]+ vs [0-9]+ measured\), expected higher' \
	"and its verdicts.tap has a failing line for that comparison"
grep -qE '^local_lock vs baseline +[0-9,]+ +[0-9,]+ +.* same ✗' "$tmp/run-gate.log" && grep -qF "$(head -n 1 "$tmp/run-gate/summary.txt")" "$tmp/run-gate.log"
tap_result $? "the run ends by printing its short form, the contradicted line marked"
rm -rf "$FAULTS_DIR/cell-template"
tap_done
