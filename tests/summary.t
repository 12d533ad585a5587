#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# summary.t - locklat-summary on a fixture run tree made of real cells
# (tests/fixtures/run: 4 repetitions of two variants, an INVALID, a TIMEOUT,
# and a FINDINGS cell, an overflowed histogram, a single repetition, a
# verify-only lru cell that missed a target, a panic in a latency pass, a
# baseline-rt lru cell whose load died), checked
# against golden outputs, plus the properties a reader relies on.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/common.sh
. "$root/lib/common.sh"
# shellcheck source=workloads/workloads.sh
. "$LOCKLAT_ROOT/workloads/workloads.sh"
bin=$root/build/bin/locklat-summary
[ -x "$bin" ] || tap_skip_all "$bin not built (make tools)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a "$root/tests/fixtures/run" "$tmp/run"
golden=$root/tests/fixtures/summary
tap_plan 74

"$bin" --call-sites "$root/kernels/call-sites" --comparisons "$root/kernels/comparisons" \
	--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$tmp/run" >/dev/null
tap_result $? "locklat-summary on the fixture run"
# Paths in the outputs are relative to the run: a copied or committed run
# keeps working links.
! grep -l "$tmp" "$tmp/run/summary.md" "$tmp/run/summary.csv" "$tmp/run/summary.json"
tap_result $? "no output names the run directory's absolute path"
# (Masked all the same, should one come back.)
for f in summary.md summary.csv summary.json; do
	sed "s|$tmp/run|RUN|g" "$tmp/run/$f" >"$tmp/$f"
	diff -u "$golden/$f" "$tmp/$f" >"$tmp/$f.diff"
	tap_result $? "$f equals the golden output"
	[ -s "$tmp/$f.diff" ] && head -n 20 "$tmp/$f.diff" | sed 's/^/# /'
done
# One meaning per name: each column of summary.csv is summary.json's member
# of the same name, cell by cell (tests/unit/test-csvjson.c).
out=$("$root/build/tests/test-csvjson" "$tmp/run")
tap_result $? "summary.csv equals summary.json, column by column$(grep -m1 '^not ok' <<<"$out" | sed 's/^not ok [0-9]* - /: /')"
# The fixture is of result layout 5 (cells at the top level); the same
# cells under cells/ (layout 6) summarise alike: only the cells' paths
# differ.
run6=$tmp/layout6/run
mkdir -p "$run6/cells"
(cd "$tmp/run" && for d in */; do
	[ -f "$(find "$d" -mindepth 3 -maxdepth 3 -name meta -print -quit)" ] && cp -a "$d" "$run6/cells/"
done)
"$bin" --call-sites "$root/kernels/call-sites" --comparisons "$root/kernels/comparisons" \
	--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$run6" >/dev/null
diff <(sed "s|$tmp/run|RUN|g" "$tmp/run/summary.json") \
	<(sed "s|$run6|RUN|g; s|cells/||g" "$run6/summary.json") >"$tmp/layout.diff"
tap_result $? "the same cells in layout 6 (RUN/cells/) give the same summary.json but for their paths"
[ -s "$tmp/layout.diff" ] && head -n 10 "$tmp/layout.diff" | sed 's/^/# /'

md=$tmp/summary.md
# The note a table cell points to: ERE matches a row up to the cell's
# marker ("[c]"); the note of that marker under the same table is printed.
cell_note() {
	awk -v re="$1" '
		!mark && match($0, re) {
			rest = substr($0, RSTART + RLENGTH)
			if (match(rest, /^ *\[[a-z]+\]/)) {
				mark = substr(rest, RSTART, RLENGTH)
				sub(/^ */, "", mark)
			}
			next
		}
		mark && index($0, "- " mark " ") == 1 { print substr($0, length(mark) + 4); exit }' "$md"
}
sed -n '/^## Cells that did not finish/,/^## /p' "$md" | grep -q '^- .baseline-rt/squashfs/rep3. FINDINGS: kernel panic'
tap_result $? "a repetition that panicked in its latency pass is among the cells that did not finish"
grep -q '^- Latency pass: 5, 30, 3, 1 s of guest time' "$md"
tap_result $? "the header lists each distinct pass duration (3 is not taken for part of 30)"
grep -q 'Instruction time, not hardware latency' "$md"
tap_result $? "tcg runs carry the instruction-time caveat"
grep -q '^- .baseline-rt/squashfs/rep1. TIMEOUT: watchdog killed QEMU after 264 s (its latency pass had completed: it counts)' "$md"
tap_result $? "a TIMEOUT cell is listed with its reason, and its completed latency pass counts"
tap_like "$(cell_note '^\| repetitions measured / cells \| 4 / 4 \| 4 / 4 \| 0 / 0 \| 2 / 4; 2 hung')" \
	'^2 repetitions hung or panicked in the latency pass$' \ "repetitions that hung or panicked in their latency pass are counted, not dropped"
tap_like "$(cell_note '^\| targets reached \(verify pass\) \| 9 of 10')" \
	'^verify pass: not reached .lru_add_drain_cpu_zone.; hits by any task, without an idle control$' \ "the targets a verification pass missed are named; a cell without an idle control says so"
# The answer comes first: the first section, the primary question of
# kernels/comparisons with its verdict, then the A/A check and what did not finish.
tap_is "$(grep -m1 '^## ' "$md")" "## Answer" "summary.md opens with the answer, before the tables"
sed -n '/^## Answer$/,/^## The run$/p' "$md" >"$tmp/answer"
grep -q '^\*\*rt vs baseline-rt on squashfs\*\* (the question kernels/comparisons asks first): 2 vs 2 measured repetitions, instruction time (tcg-icount); failed under load: 0/2 rt vs 2/4 baseline-rt (Fisher p = 0.467, no difference shown); measured: inconclusive: 2 vs 2 repetitions.*; p (max) = 0.333, the strongest result 2 vs 2 repetitions can give\.$' "$tmp/answer" &&
	grep -q '^- A/A check, local_lock vs baseline (expected the same):.* squashfs: no difference shown' "$tmp/answer" &&
	grep -q '^- Did not finish: 4 cells (2 TIMEOUT, 1 INVALID, 0 INFRA, 1 panicked)' "$tmp/answer"
tap_result $? "the answer: the question's verdict with its repetitions, the A/A check, what did not finish"
# A question with an interval: both medians, the change in words at the
# precision the data has, the repetitions and the clock (local_lock vs
# baseline, 4 vs 4, asked first by a comparisons file of the test's own).
{ echo 'question | local_lock | baseline | squashfs'; grep -v '^question' "$root/kernels/comparisons"; } >"$tmp/ask-aa"
cp -a "$root/tests/fixtures/run" "$tmp/ask"
"$bin" --call-sites "$root/kernels/call-sites" --comparisons "$tmp/ask-aa" \
	--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$tmp/ask" >/dev/null
tap_like "$(grep -m1 '^\*\*local_lock vs baseline on squashfs' "$tmp/ask/summary.md")" \
	'\): baseline [0-9,]+ µs → local_lock [0-9,]+ µs \(medians of the pass maxima\): \*\*[+−][0-9.]+%\*\*, 4 vs 4 measured repetitions, instruction time \(tcg-icount\); no difference shown: ' \
	"the answer with an interval: both medians, the change in words, n vs n and the clock"
# The reviewer's verdict: a block per "verdict" line of kernels/comparisons,
# the change against its base, with what appeared or went away.
sed -n '/^## For a reviewer$/,/^## The run$/p' "$md" >"$tmp/reviewer"
grep -q '^local_lock vs baseline (preempt):$' "$tmp/reviewer" && grep -q '^rt vs baseline-rt (rt):$' "$tmp/reviewer" &&
	grep -q '^  squashfs: failed under load: 0/2 rt vs 2/4 baseline-rt (Fisher p = 0.467, no difference shown); measured: inconclusive: 2 vs 2 repetitions' "$tmp/reviewer" &&
	grep -q '^    splats appeared: none; went away: scheduling-while-atomic, bug, oops, panic$' "$tmp/reviewer" &&
	grep -q '^  binary equivalence: not checked in this run' "$tmp/reviewer"
tap_result $? "the reviewer's verdict: each pair, the verdicts, the splats that went away, equivalence not checked"
# A real baseline-rt lru cell whose load the pre-series bug killed: left
# out, with how and the splat, and counted as a failure in the comparisons.
grep -q '^- .baseline-rt/lru/rep1. (a failure under load): the workload was gone when cyclictest ended (killed by signal 11).*the kernel said: BUG: scheduling while atomic: locklat-lru' "$md"
tap_result $? "a dead load is left out, with how it ended and the splat, and counted as a failure"
tap_like "$(cell_note '^\| load alive through the latency pass \| .* \| 0 of 1; \*\*1 died\*\*')" \
	'^the load died or stalled in 1 repetition, the first at 0.0 s into the latency pass$' \ "the table says the load died, and when"
# A section only inside a call site is not that site's: an interrupt that
# landed in the decompressor is the interrupt's, the site only what it
# interrupted. One far longer than every wake-up of its column (local_lock's
# 219 ms preemptoff section, traced with function tracing on, against 110
# ms) is flagged, not a culprit.
tap_like "$(cell_note '\| 1716')" \
	'^\*\*local_lock\*\*, irqsoff worst: 1716 µs \(a single run\): a local timer interrupt \(the tick or a measurement.s hrtimer\) \(irqentry_enter…asm_sysvec_apic_timer_interrupt\); it interrupted lzma_main ← xz_dec_lzma2_run ← xz_dec_run \(in squashfs multi-CPU decompressor\)$' \ "a trace that only passes through a call site is the interrupt's; the site is context"
grep -q '| 219358 \[[a-z]\]: \*\*flagged\*\* |' "$md" &&
	cell_note '\| 219358' | grep -q ': 219358 µs (a single run): \*\*flagged\*\*: over 2× the column.s worst wake-up, 109526 µs: no latency pass saw it; not a culprit$'
tap_result $? "a traced section over twice the column's worst wake-up is flagged, without a call site"
# The same on rt lru with function tracing on: rt's worst preempt-off section
# (89 us) against a latency pass that saw 6 us, flagged, never a call site.
grep -q '| 89 \[[a-z]\]: \*\*flagged\*\* |$' "$md" &&
	cell_note '\| 89' | grep -q '^\*\*rt\*\*, preemptoff worst: 89 µs (a single run): \*\*flagged\*\*: over 2× the column.s worst wake-up, 6 µs: no latency pass saw it; not a culprit$'
tap_result $? "rt lru, traced with function tracing on: the section is flagged, not a culprit"
tap_like "$(cell_note '^\| worst wake-up traced \(timerlat\): culprit \| .* \| –')" \
	'^\*\*rt\*\*, traced worst wake-up \(a single run\): none reached the threshold of 100 µs$' \ "a timerlat pass (older layout) that stopped at nothing says so, without a maximum it did not keep"
grep -q '^| targets reached (verify pass) | .* | 10 of 10 |$' "$md"
tap_result $? "a verify pass with its idle control counts the reached targets"
# local_lock zram: a repetition on the plain kernel and the traced cell on
# local_lock+tracers (layout 4). The traced cell is not a repetition; its own
# latency pass is set against the repetitions and is what its traces are
# held against.
grep -q '^| repetitions measured / cells | 0 / 0 | 1 / 1 | 0 / 0 |' "$md"
tap_result $? "the traced cell is not counted among the repetitions"
grep -q '^| max latency on the traced kernel, one pass (× the median above: the tracers. cost) | – | 132 (1.22×) |' "$md"
tap_result $? "the traced kernel's latency pass, with its ratio to the plain repetitions"
grep -q '| 224 \[[a-z]\]: _raw_spin_lock_irq…, \*\*inflated\*\* |' "$md" &&
	cell_note '\| 224' | grep -q ': 224 µs (2 runs: 224, 94 µs): thread latency (IRQ 2 µs), _raw_spin_lock_irq…_raw_spin_unlock_irq; at __mem_cgroup_uncharge_swap ← swap_entry_range_free ← swapcache_free_entries (\*\*inflated\*\*: 2.1× the plain kernel.s maximum, 108 µs: the events recorded lengthen it)$'
tap_result $? "a traced wake-up under 2x its own kernel's pass (139 us) but over 2x the plain kernel's (108 us) is flagged as inflated, with both runs"
sed -n '/^## For a reviewer$/,/^## The run$/p' "$md" >"$tmp/reviewer"
grep -q '^    traced wake-ups (timerlat):$' "$tmp/reviewer" && grep -q '^    preemptoff sections:$' "$tmp/reviewer" &&
	grep -q '^    irqsoff sections:$' "$tmp/reviewer" &&
	grep -q '^      (this is the A/A pair: how far apart it is, is the noise other pairs are held against)$' "$tmp/reviewer"
tap_result $? "the reviewer's block keeps wake-ups, preemptoff and irqsoff sections apart; the A/A pair's own difference is the noise"
tap_like "$(grep -c '^local_lock,zram,1,traced,OK,' "$tmp/run/summary.csv")" '^1$' "summary.csv says which kernel a cell booted"
grep -q '^- .*. INVALID: ' "$md"
tap_result $? "an INVALID cell is listed with its reason"
grep -q 'scheduling-while-atomic' "$md"
tap_result $? "kernel splats are listed"
grep -Eq '^\| local_lock vs baseline \(4 vs 4\) \| [0-9.]+× \[[0-9.]+–[0-9.]+\] \| (–|[0-9.]+× \[[0-9.]+–[0-9.]+\]) \| [0-9.]+ \| none \| none shown \[1\] \| same \|$' "$md" &&
	grep -q '^1\. \*\*local_lock vs baseline\*\*: no difference shown: .*; ratio of median maxima [0-9.]*×\. Expected the same, within ±5%: an A/A check' "$md"
tap_result $? "the A/A comparison has a ratio with its interval and exact p-values, its verdict in words in a note"
grep -q '2× change is not ruled out' "$md"
tap_result $? "an interval that includes 1 says whether it rules out a 2× change"
# Every field summary.json writes is documented in results/README.md (the
# keys of path_hits are the workloads' target functions, those of
# max_by_length_us numbers of seconds: data, not fields).
targets=$(for w in $(known_workloads); do workload_load "$w"; printf '%s\n' "$WORKLOAD_TARGETS"; done |
	tr ',' '\n' | grep '^[a-z_]')
missing=$(grep -o '"[a-z_0-9]*":' "$tmp/run/summary.json" | tr -d '":' | sort -u | grep -vxF "$targets" | grep -vx '[0-9]*' |
	while read -r key; do grep -q "\`$key\`" "$root/results/README.md" || echo "$key"; done)
tap_is "$missing" "" "every summary.json field is documented in results/README.md"
grep -q 'inconclusive' "$md"
tap_result $? "too few repetitions are called inconclusive"
[ "$(wc -l <"$tmp/run/summary.csv")" -eq $(( $(find "$tmp/run" -name meta | wc -l) + 1 )) ]
tap_result $? "summary.csv has a row per cell"
for f in max preemptoff irqsoff; do [ -s "$tmp/run/plot-data/$f.dat" ] || false; done
tap_result $? "plot data written"
# The cells with cyclictest's samples get a time series (the traced cell's
# named so). rt/squashfs/rep1 (1 s): vCPU1's JSON max (5954 us) fell in the
# last 42 wake-ups, which cyclictest did not print: the series shows 370 for
# it, the plot the cell max.
[ "$(cut -d' ' -f1,2 "$tmp/run/plot-data/series" | tr '\n' ,)" = \
	"series-local_lock-zram-rep1 108,series-local_lock-zram-traced 139,series-rt-squashfs-rep1 5954," ] &&
	[ "$(sed -n 2p "$tmp/run/plot-data/series-rt-squashfs-rep1.dat")" = "0 4991 370" ]
tap_result $? "per-second maxima: listed with the cell max, one row per second and vCPU"
# One plot per build and workload, its repetitions overlaid (the traced
# cell is not a repetition): the worst second of the vCPUs, and where a
# load died.
[ "$(cat "$tmp/run/plot-data/series-plots")" = "series-local_lock-zram 108 local_lock/zram
series-rt-squashfs 5954 rt/squashfs" ] &&
	[ "$(tr '\n' , <"$tmp/run/plot-data/series-rt-squashfs.dat")" = '"rep1",0 4991,' ] &&
	[ "$(cat "$tmp/run/plot-data/series-rt-squashfs.cells")" = "rep1 -" ]
tap_result $? "per-second maxima overlaid per build: the vCPUs' worst second, the cells and whether their load died"
grep -q '^Per-second maximum over the latency pass, each build.s repetitions overlaid: \[local_lock\](plots/series-local_lock-zram.svg)$' "$md" &&
	grep -q 'overlaid: \[rt\](plots/series-rt-squashfs.svg)$' "$md"
tap_result $? "summary.md links each build's time series"
# shellcheck disable=SC2016 # backquotes of Markdown, not of the shell
grep -q '^| a | – | – | \*\*detected\*\*: lockdep (`WARNING: inconsistent lock state`) |' "$md"
tap_result $? "llcheck: lockdep's report of scenario a is in the modules table"
grep -Eq '^\| local_lock \| – \| – \| [0-9.]+ \[[0-9.]+–[0-9.]+\] \|' "$md"
tap_result $? "llbench: ns per local_lock pair with its spread"
# A variant with no data in a chart (baseline-rt in the preemptoff chart:
# every repetition hung or its load died) must not stop gnuplot.
if command -v gnuplot >/dev/null; then
	"$root/bench/report/report.sh" plots "$tmp/run" >"$tmp/plots.log" 2>&1 &&
		for f in max preemptoff irqsoff; do [ -s "$tmp/run/plots/$f.svg" ] || exit 1; done
	tap_result $? "plots of the fixture run: every chart drawn although a variant has no data$(grep -m1 -i 'no valid' "$tmp/plots.log" | sed 's/^/ -- /')"
else
	tap_result 0 "# SKIP gnuplot not installed"
fi
# The CCDF and histogram of each workload: a line for every variant with
# measured repetitions (summary.json's groups), normalised (a CCDF starts
# at 1 and never rises), and drawn.
bad=''
while IFS= read -r w; do
	want=$(awk -v w="$w" -F'"' '$2 == "variant" { v = $4 } $2 == "workload" { ww = $4 }
		$2 == "measured" && ww == w { split($3, n, /[:,]/); if (n[2] + 0 > 0) print v }' "$tmp/run/summary.json" | tr '\n' ' ')
	for k in ccdf hist; do
		got=$(sed -n 's/^"\([^ ]*\) (.*wake-ups)"$/\1/p' "$tmp/run/plot-data/$k-$w.dat" 2>/dev/null | tr '\n' ' ')
		[ "$got" = "$want" ] || bad="$bad $k-$w($got/$want)"
		command -v gnuplot >/dev/null && { [ -s "$tmp/run/plots/$k-$w.svg" ] || bad="$bad $k-$w.svg"; }
	done
	awk 'NF == 2 && $1 !~ /^"/ { if (first) { if ($2 != 1) bad = 1; first = 0 } else if ($2 > last) bad = 1; last = $2 }
		/^"/ { first = 1 } END { exit bad }' "$tmp/run/plot-data/ccdf-$w.dat" || bad="$bad ccdf-$w(shape)"
done <"$tmp/run/plot-data/workloads"
tap_is "$bad" "" "per workload a CCDF and a histogram with a line per measured variant; each CCDF from 1 down"

# The maxima's chart data: no group for a workload without a latency pass,
# five columns a variant (median, min, max, failed under load, why none),
# the hung repetitions counted where the point is, and why a slot is empty.
max_dat=$tmp/run/plot-data/max.dat
shape=$(awk 'NR == 1 { if ((NF - 1) % 5) bad = 1; n = NF } NR > 1 && NF != n { bad = 1 } $1 == "modules" { bad = 1 }
	END { print bad ? "bad" : "ok" }' "$max_dat")
failed=$(awk 'NR == 1 { for (i = 2; i <= NF; i++) if ($i == "baseline-rt:failed") c = i }
	$1 == "squashfs" { print $c }' "$max_dat")
why=$(awk 'NR == 1 { for (i = 2; i <= NF; i++) { if ($i == "baseline-rt:why") c = i; if ($i == "lockdep:why") d = i } }
	$1 == "lru" { print $c, $d }' "$max_dat")
tap_is "$shape:$failed:$why" "ok:2:failed INVALID" \
	"max.dat: 5 columns a variant, no modules row, baseline-rt squashfs's 2 failures counted, why a slot is empty"

# The committed reference redraws from its plot-data alone, as on a fresh
# clone (make plots RUN=results/reference): every plot it links.
if command -v gnuplot >/dev/null; then
	cp -a "$root/results/reference" "$tmp/reference"
	rm -rf "$tmp/reference/plots"
	"$root/bench/report/report.sh" plots "$tmp/reference" >"$tmp/reference.plots" 2>&1
	status=$?
	for f in $(grep -o '(plots/[^)]*\.svg)' "$root/results/reference/summary.md" | tr -d '()'); do
		[ -s "$tmp/reference/$f" ] || { status=1; echo "# missing $f"; }
	done
	tap_result "$status" "the committed reference's plots redraw from its plot-data, every linked one"
else
	tap_result 0 "# SKIP gnuplot not installed"
fi

# The summary and plots draw whatever exists: runs cut from the fixture to
# one variant, to the modules pass alone, and to one workload whose only
# repetition hung in its latency pass. Each plot is drawn, those without
# data as a figure that says what is missing.
partial_run() { # NAME CELL_DIR...: a run of the fixture's cells named
	local name=$1 c
	shift
	for c in "$@"; do
		mkdir -p "$tmp/$name/$(dirname "$c")"
		cp -r "$root/tests/fixtures/run/$c" "$tmp/$name/$c"
	done
}
partial_run one-variant baseline
partial_run modules-only lockdep/modules
partial_run all-hung baseline-rt/squashfs/rep2
for name in one-variant modules-only all-hung; do
	"$bin" --call-sites "$root/kernels/call-sites" --comparisons "$root/kernels/comparisons" \
		--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$tmp/$name" >/dev/null 2>"$tmp/$name.err"
	status=$?
	if command -v gnuplot >/dev/null; then
		"$root/bench/report/report.sh" plots "$tmp/$name" >"$tmp/$name.plots" 2>&1 || status=1
		for f in max preemptoff irqsoff $(sed 's/^/hist-/; p; s/^hist-/ccdf-/' "$tmp/$name/plot-data/workloads"); do
			[ -s "$tmp/$name/plots/$f.svg" ] || status=1
		done
	fi
	tap_result "$status" "a $name run: summary and every plot drawn$(head -n 1 "$tmp/$name.err" | sed 's/^/ -- /')"
done
grep -q '^\[.*plots\] max: no latency pass measured' "$tmp/modules-only.plots" &&
	grep -qx squashfs "$tmp/all-hung/plot-data/workloads" &&
	grep -q '^\[.*plots\] hist-squashfs: no data: no repetition of workload squashfs measured' "$tmp/all-hung.plots" &&
	grep -q '^\[.*plots\] ccdf-squashfs: no data: no repetition of workload squashfs measured' "$tmp/all-hung.plots"
tap_result $? "a plot without data says what is missing (the modules-only run's maxima, the hung workload's histogram)"
# Columns and the first question come from data, not names: the fixture's
# baseline renamed "zz-pre" still comes first (its kernel lacks the series),
# and without a question line the summary asks none.
cp -a "$root/tests/fixtures/run" "$tmp/renamed"
mv "$tmp/renamed/baseline" "$tmp/renamed/zz-pre"
find "$tmp/renamed/zz-pre" -name meta -exec sed -i 's/^variant=baseline$/variant=zz-pre/' {} +
grep -v '^question' "$root/kernels/comparisons" | sed 's/^local_lock | baseline /local_lock | zz-pre /' >"$tmp/comparisons"
"$bin" --call-sites "$root/kernels/call-sites" --comparisons "$tmp/comparisons" \
	--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$tmp/renamed" >/dev/null
tap_result $? "locklat-summary on the fixture run with baseline renamed zz-pre"
tap_like "$(grep -m1 '^|  | ' "$tmp/renamed/summary.md")" '^\|  \| zz-pre \| local_lock \|' \
	"the pre-series variant is the first column whatever its name"
! grep -q 'The question the suite asks first' "$tmp/renamed/summary.md" &&
	grep -q 'local_lock vs zz-pre is an A/A check' "$tmp/renamed/summary.md"
tap_result $? "no question line, no question; the A/A check named from its 'same' line"

# The lock and the data (tests/fixtures/cells: real latency+verify cells,
# 1 vCPU, 2 tasks): rt contended at the decompressor with priority
# inheritance, local_lock (not PREEMPT_RT) with no RT lock slow path at all,
# and the rt-nolock negative control on zram whose pages came back wrong.
lock=$tmp/lock
for c in rt:squashfs:contended-rt-squashfs rt-nolock:zram:corrupt-rtnolock-zram local_lock:squashfs:uncontended-local_lock-squashfs; do
	v=${c%%:*} w=${c#*:}
	w=${w%%:*}
	mkdir -p "$lock/$v/$w"
	cp -a "$root/tests/fixtures/cells/${c##*:}" "$lock/$v/$w/rep1"
done
# The corrupt cell as a harness that did not flag it would leave it: OK.
sed -i 's/^status=FINDINGS$/status=OK/; s/^reason=.*/reason=/' "$lock/rt-nolock/zram/rep1/meta"
"$bin" --call-sites "$root/kernels/call-sites" --comparisons "$root/kernels/comparisons" \
	--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$lock" >/dev/null
tap_result $? "locklat-summary on the lock cells"
lmd=$lock/summary.md
for w in squashfs zram; do
	sed -n "/^## Workload \`$w\`\$/,/^## /p" "$lmd" >"$tmp/lock-$w"
done
grep -q '^| tasks per vCPU (FIFO prio) | 2 (10) | 2 (10) | – |$' "$tmp/lock-squashfs" &&
	grep -q '^| tasks per vCPU (FIFO prio) | – | – | 2 (10) |$' "$tmp/lock-zram"
tap_result $? "the tasks per vCPU and their FIFO priority, per variant"
grep -q '^| RT lock slow path at the site (verify) | 0 (idle 0) | 5 (idle 0) | – |$' "$tmp/lock-squashfs" &&
	grep -q '^| PI boosts at the site (verify) | 0 (idle 0) | 6 (idle 0) | – |$' "$tmp/lock-squashfs" &&
	grep -q '^| RT lock slow path at the site (verify) | – | – | 0 (idle 0) † |$' "$tmp/lock-zram" &&
	grep -q '^| PI boosts at the site (verify) | – | – | 0 (idle 0) |$' "$tmp/lock-zram"
tap_result $? "contention and PI boosts at the decompressor: on rt, none on local_lock, none at zram where the lock was dropped"
grep -q '^- † rt-nolock: zram zcomp streams: no contention reached (PREEMPT_RT; 21 slow-path entries elsewhere).$' "$tmp/lock-zram"
tap_result $? "a PREEMPT_RT variant with no contention at the site is marked, the note names the site"
grep -q '^| data integrity | 161 checked, 0 wrong | 165 checked, 0 wrong | – |$' "$tmp/lock-squashfs" &&
	grep -q '^| data integrity | – | – | \*\*70 of 94003 wrong\*\* |$' "$tmp/lock-zram" &&
	grep -q '^- \*\*data corrupted in rt-nolock/zram/rep1: 70 of 94003 wrong (latency pass), first: task 1 chunk 2 page 156: swap-in failed (SIGBUS)\*\*$' "$tmp/lock-zram"
tap_result $? "data integrity per variant, the first wrong item below the table with its cell"
sed -n '/^## Answer$/,/^## /p' "$lmd" >"$tmp/lock-answer"
grep -q '^- Kernel splats: 1 event in 1 cell (64 console lines: a kind.s repeats in one cell, a cascade, are one event) (see \[Kernel splats\](#kernel-splats)).$' "$tmp/lock-answer" &&
	grep -q '^- \*\*Data corrupted\*\* in 1 of the 3 cells that checked their data (a finding; see \[Data corruption\](#data-corruption)): data corrupted in rt-nolock/zram/rep1: 70 of 94003 wrong, first: task 1 chunk 2 page 156: swap-in failed (SIGBUS).$' "$tmp/lock-answer"
tap_result $? "the answer quotes the corruption beside the splats"
grep -q '^- RT lock contention at the workload.s call site (verify pass; slow-path entries / PI boosts): squashfs (squashfs multi-CPU decompressor): local_lock 0 / 0 (not PREEMPT_RT), rt 5 / 6; zram (zram zcomp streams): rt-nolock \*\*no contention reached\*\*.$' "$tmp/lock-answer"
tap_result $? "the answer says where the lock was contended, and that the non-RT kernel took no slow path"
grep -q '^- \*\*Failed\*\* (corrupted data or a kernel crash, BUG or oops in a workload.s cell): \*\*rt-nolock\*\* (zram: data corrupted).$' "$tmp/lock-answer"
tap_result $? "the answer names the variant that failed (the negative control) and why"
grep -q 'With 1 vCPU, 1 µs is 1000 instructions of that vCPU: .*\*\*Cross-CPU paths are not measured\*\*' "$lmd"
tap_result $? "a one-vCPU tcg-icount run says the cross-CPU paths are not measured"
# shellcheck disable=SC2016 # backquotes of Markdown, not of the shell
grep -q '^3 cells written: 3 ran to their end (2 OK, 1 FINDINGS), 0 did not ' "$lmd" &&
	grep -q '^| rt-nolock/zram/rep1 | FINDINGS | 70 / 94003 | latency pass | `task 1 chunk 2 page 156: swap-in failed (SIGBUS)` |$' "$lmd"
tap_result $? "a corrupt cell whose meta said OK counts as FINDINGS, listed under Data corruption"
tap_is "$(grep '^rt-nolock,' "$lock/summary.csv")" \
	'rt-nolock,zram,1,plain,FINDINGS,"data corrupted: 70 of 94003 checks wrong (first, latency pass: task 1 chunk 2 page 156: swap-in failed (SIGBUS))",tcg-icount,285,false,,0,285,2,3,164,14988,0,alive,,,,,,,1,rt-nolock/zram/rep1,70,2' \
	"summary.csv: FINDINGS, its reason, integrity_errors and tasks_per_cpu"
if command -v jq >/dev/null; then
	tap_is "$(jq -c '.cells[] | select(.variant == "rt" or .variant == "rt-nolock") | [.variant, .preempt_rt, .lock_site,
		.lock_events.contention.at_site, .lock_events.contention.per_site["mm/swap folio batches"].workload,
		.lock_events.pi_setprio.boosts_at_site, .lock_events.pi_setprio.deboosts, .integrity.errors, .tasks_per_cpu,
		.fifo_prio]' "$lock/summary.json" 2>&1 | tr '\n' ' ')" \
		'["rt",true,"squashfs multi-CPU decompressor",5,null,6,14,0,2,10] ["rt-nolock",true,"zram zcomp streams",0,2,0,13,70,2,10] ' \
		"summary.json: the lock events per site, boosts, integrity, tasks"
else
	tap_result 0 "# SKIP no jq (make deps)"
fi
# (path_hits' keys, squashfs_decompress and zcomp_stream_get, are target functions: data.)
missing=$(grep -o '"[a-z_0-9]*":' "$lock/summary.json" | tr -d '":' | sort -u | grep -vxF "$targets" |
	while read -r key; do grep -q "\`$key\`" "$root/results/README.md" || echo "$key"; done)
tap_is "$missing" "" "every field of the lock cells' summary.json is documented in results/README.md"

# Two workloads with the same targets and other setups (squashfs and
# squashfs-128k): set side by side, each with its setup and its ratio.
site=$tmp/site
for w in squashfs:xz,1M squashfs-128k:xz,128K; do
	mkdir -p "$site/rt/${w%%:*}"
	cp -a "$root/tests/fixtures/cells/contended-rt-squashfs" "$site/rt/${w%%:*}/rep1"
	sed -i "s/^workload=.*/workload=${w%%:*}/" "$site/rt/${w%%:*}/rep1/meta"
	printf 'setup=squashfs:%s\ntargets=squashfs_decompress\n' "${w#*:}" >>"$site/rt/${w%%:*}/rep1/meta"
done
"$bin" --call-sites "$root/kernels/call-sites" --comparisons "$root/kernels/comparisons" \
	--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$site" >/dev/null
# shellcheck disable=SC2016 # backquotes of Markdown, not of the shell
grep -q '^## One call site, other parameters: `squashfs_decompress`$' "$site/summary.md" &&
	grep -qE '^\| squashfs \(`squashfs:xz,1M`\) \| [0-9]+ \|$' "$site/summary.md" &&
	grep -qE '^\| squashfs-128k \(`squashfs:xz,128K`\) \| [0-9]+ \(1\.00×\) \|$' "$site/summary.md"
tap_result $? "workloads of one call site side by side, with their setups and the ratio to the first"

# A traced figure whose pass's load had died is not the workload's: the
# worst run is taken among those whose load lived (local_lock/zram's
# preemptoff.2, its worst, died: preemptoff's 143 us is kept), and when every
# run's load died the figure is marked.
dead=$tmp/dead
cp -a "$root/tests/fixtures/run" "$dead"
zram=$dead/local_lock/zram/traced/guest
echo no >"$zram/workload-preemptoff.2.alive"
for r in timerlat timerlat.2; do echo no >"$zram/workload-$r.alive"; done
"$bin" --call-sites "$root/kernels/call-sites" --comparisons "$root/kernels/comparisons" \
	--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$dead" >/dev/null
tap_is "$(jq -r '.cells[] | select(.variant == "local_lock" and .workload == "zram" and .preemptoff != null) |
	"\(.preemptoff.run) \(.preemptoff.max_us) \(.preemptoff.load_alive) \(.worst_wakeup.run) \(.worst_wakeup.load_alive)"' \
	"$dead/summary.json")" "preemptoff 143 true timerlat false" \
	"the worst traced run is one whose load lived; with none, the figure says its load died"
grep -q 'thread latency .*\*\*its load died\*\* in that traced pass' "$dead/summary.md"
tap_result $? "summary.md marks a traced wake-up whose pass's load had died"

# The question's line names its workload's setup (squashfs's block size sets the section).
question=$tmp/question
for v in rt baseline-rt; do
	mkdir -p "$question/$v/squashfs"
	cp -a "$root/tests/fixtures/cells/contended-rt-squashfs" "$question/$v/squashfs/rep1"
	sed -i "s/^variant=.*/variant=$v/" "$question/$v/squashfs/rep1/meta"
	printf 'setup=squashfs:xz,1M\n' >>"$question/$v/squashfs/rep1/meta"
done
"$bin" --call-sites "$root/kernels/call-sites" --comparisons "$root/kernels/comparisons" \
	--llcheck-scenarios "$root/kernels/modules/llcheck/scenarios" "$question" >/dev/null
# shellcheck disable=SC2016 # backquotes of Markdown, not of the shell
tap_like "$(grep -m1 '^\*\*rt vs baseline-rt on squashfs\*\*' "$question/summary.md")" \
	'^\*\*rt vs baseline-rt on squashfs\*\* \(setup `squashfs:xz,1M`; the question kernels/comparisons asks first\): ' \
	"the question's line names the workload's setup"
# The short form: summary.txt and summary.md's "At a glance", a line per
# comparison, none over 100 columns, before the reviewer's block.
long=$(perl -CSD -ne 'print if length($_) > 101' "$tmp/run/summary.txt" | head -n 1)
grep -q '^local_lock vs baseline  *55,478  *54,343  *+1%  *none shown ' "$tmp/run/summary.txt"
tap_result $? "summary.txt: a line per comparison, A max, B max, change, verdict$long"
[ "$(grep -n '^## ' "$md" | sed -n 2p)" = "$(grep -n '^## At a glance$' "$md")" ] &&
	grep -q '^| rt vs baseline-rt | 6 | – | 0/1 vs 1/1 failed | no ratio | – |$' "$md" &&
	[ -z "$(sed -n '/^## At a glance$/,/^## For a reviewer$/p' "$md" | perl -CSD -ne 'print if length($_) > 101')" ]
tap_result $? "summary.md opens with the short form after the answer, under 100 columns"
# Recorded never more than due: the wake-ups due after the window are those
# the rule that sorts samples counts there (k intervals, k >= W / I).
tap_is "$(jq '[.cells[] | select(.wakeups != null) | select(.wakeups.recorded > .wakeups.due or
	.wakeups.recorded_after_window > .wakeups.due_after_window)] | length' "$tmp/run/summary.json")" 0 \
	"no cell records more wake-ups than were due, in the pass or after its window"
# Tables people can read in a terminal: sentences go to the notes under a
# table, a cell keeps a number and a few words (60 characters a column).
wide=$(perl -CSD -ne 'next unless /^\|/; $c = tr/|// - 1; print if $c > 0 && length($_) - 1 > 60 * $c' "$md" |
	head -n 1 | cut -c1-120)
tap_result "$([ -z "$wide" ]; echo $?)" "no table row of summary.md is over 60 characters a column${wide:+: $wide}"
tap_done
