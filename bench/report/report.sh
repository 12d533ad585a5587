#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# report.sh - write a run's summary, or draw its plots.
#
# Usage: bench/report/report.sh summary [RUN_DIR]
#        bench/report/report.sh plots [RUN_DIR]
#        bench/report/report.sh compare A_RUN B_RUN [OUT_DIR]
#        bench/report/report.sh --help
# RUN_DIR defaults to results/latest (the newest run of run-matrix.sh).
#   summary  locklat-summary -> RUN_DIR/summary.{md,json,csv}, RUN_DIR/plot-data/,
#            and results/summary.md (the same text, its links made relative to results/);
#            an --each-commit run's RUN_DIR/commits.md (bench/report/commits.sh)
#   plots    gnuplot plots/*.gp -> RUN_DIR/plots/*.{png,svg}, copied to plots/
#            (a run of several strata: RUN_DIR/by-host/<stratum>/plots/)
#   compare  locklat-compare: B against A from their summary.json -> its
#            table on stdout, OUT_DIR/compare.{md,json} and verdicts.tap
#            (default results/compare/<A>-vs-<B>); exit 0 nothing regressed,
#            1 something did, 2 error. LOCKLAT_COMPARE_ALLOW_DIFFERENT=1
#            compares runs made with different settings,
#            LOCKLAT_COMPARE_THRESHOLD=PCT sets the change that counts
#            (default 10)

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"
# shellcheck source=kernels/variants.sh
. "$LOCKLAT_ROOT/kernels/variants.sh"

what=${1:-}
case $what in -h | --help) usage_from_header "$0"; exit 0 ;; esac
# compare A B [OUT]: two runs' summaries side by side.
compare_write() {
	local bin=$LOCKLAT_BUILD/bin/locklat-compare a=$1 b=$2 out=${3:-} allow=() threshold=()
	# 1 means "regressed": every error is 2.
	[ -x "$bin" ] || err_exit "$bin not built: run 'make tools'" 2
	[ -d "$a" ] || err_exit "no result directory $a" 2
	[ -d "$b" ] || err_exit "no result directory $b" 2
	a=$(cd "$a" && pwd -P) b=$(cd "$b" && pwd -P)
	out=${out:-$LOCKLAT_ROOT/results/compare/${a##*/}-vs-${b##*/}}
	[ "${LOCKLAT_COMPARE_ALLOW_DIFFERENT:-0}" != 1 ] || allow=(--allow-different)
	[ -z "${LOCKLAT_COMPARE_THRESHOLD:-}" ] || threshold=(--threshold "$LOCKLAT_COMPARE_THRESHOLD")
	mkdir -p "$(dirname "$out")"
	"$bin" "${allow[@]}" "${threshold[@]}" --out "$out" "$a" "$b"
}
if [ "$what" = compare ]; then
	{ [ $# -ge 3 ] && [ $# -le 4 ]; } || err_exit "usage: report.sh compare A_RUN B_RUN [OUT_DIR]" 2
	compare_write "$2" "$3" "${4:-}"
	exit 0
fi
run=${2:-$LOCKLAT_ROOT/results/latest}
case $what in summary | plots) ;; *) err_exit "usage: report.sh summary|plots [RUN_DIR], or compare A_RUN B_RUN [OUT_DIR]" 2 ;; esac
[ -d "$run" ] || err_exit "no result directory $run (run ./run-matrix.sh first)" 2
run=$(cd "$run" && pwd -P)

summary_write() {
	local bin=$LOCKLAT_BUILD/bin/locklat-summary rel comparisons=$LOCKLAT_ROOT/kernels/comparisons
	local series=$LOCKLAT_SERIES call_sites=$LOCKLAT_ROOT/kernels/call-sites
	[ -x "$bin" ] || err_exit "$bin not built: run 'make tools'"
	# An A/B run carries its own comparisons, series and call sites (kernels/ab.sh).
	[ ! -f "$run/ab/comparisons" ] || comparisons=$run/ab/comparisons
	[ ! -f "$run/ab/series" ] || series=$(cat "$run/ab/series")
	[ ! -f "$run/ab/call-sites" ] || call_sites=$run/ab/call-sites
	"$bin" --call-sites "$call_sites" \
		--comparisons "$comparisons" --series "$series" \
		--llcheck-scenarios "$LOCKLAT_ROOT/kernels/modules/llcheck/scenarios" "$run"
	# An --each-commit run's table, a row per commit.
	if [ -f "$run/ab/commits" ]; then
		"$LOCKLAT_ROOT/bench/report/commits.sh" "$run" >"$run/commits.md.tmp"
		mv "$run/commits.md.tmp" "$run/commits.md"
	fi
	# results/summary.md is the latest run's summary; from results/ its
	# plots are under <run-id>/plots/.
	case $run in
	"$LOCKLAT_ROOT/results/"*)
		rel=${run#"$LOCKLAT_ROOT/results/"}
		sed "s|](plots/|]($rel/plots/|g; s|\`plots/|\`$rel/plots/|g; s|](by-host/|]($rel/by-host/|g" "$run/summary.md" \
			>"$LOCKLAT_ROOT/results/summary.md.tmp"
		mv "$LOCKLAT_ROOT/results/summary.md.tmp" "$LOCKLAT_ROOT/results/summary.md" ;;
	esac
}

# empty_draw NAME TITLE WHY: the plot NAME says that it has no data, and why.
empty_draw() {
	gnuplot -e "out='$run/plots/$1'; title='$2'; why='$3'; caption='$CAPTION'" "$LOCKLAT_ROOT/plots/empty.gp"
	progress plots "$1: $3"
}

# styles_of NAME...: COLOURS and POINTS, each variant's colour and point type
# (kernels/variants.sh: variant_plot_style) in the order named, for gnuplot's
# word().
styles_of() {
	local v style
	COLOURS='' POINTS=''
	for v in "$@"; do
		style=$(variant_plot_style "$v")
		COLOURS="$COLOURS ${style% *}" POINTS="$POINTS ${style#* }"
	done
}

# points TABLE SPREAD TITLE WHY: a point per variant and workload of
# plot-data/TABLE.dat (five columns per variant: value, min, max, failed,
# why; plots/points.gp), with min-max whiskers when SPREAD is 1; without a
# value or a failure to draw, a plot that says WHY.
points() {
	local table=$run/plot-data/$1.dat variants
	if ! awk 'NR > 1 { for (i = 2; i + 4 <= NF; i += 5) if ($i != "NaN" || $(i + 3) > 0) found = 1 }
		END { exit !found }' "$table"; then
		empty_draw "$1" "$3" "$4"
		return 0
	fi
	mapfile -t variants <"$run/plot-data/variants"
	styles_of "${variants[@]}"
	gnuplot -e "data='$table'; out='$run/plots/$1'; variants=${#variants[@]}; spread=$2; title='$3'" \
		-e "colours='$COLOURS'; points='$POINTS'; caption='$CAPTION'" "$LOCKLAT_ROOT/plots/points.gp"
}

# series_draw DATA OUT: a time-series plot per build and workload listed in
# DATA/series-plots, its repetitions overlaid (plots/series.gp).
series_draw() {
	local data=$1 out=$2 name worst title names died
	[ -f "$data/series-plots" ] || return 0
	while read -r name worst title; do
		names=$(cut -d' ' -f1 "$data/$name.cells" | tr '\n' ' ')
		died=$(cut -d' ' -f2 "$data/$name.cells" | tr '\n' ' ')
		gnuplot -e "data='$data/$name.dat'; out='$out/$name'; worst=$worst; title='Per-second maximum, each repetition: $title'" \
			-e "names='$names'; died='$died'; caption='$CAPTION'" "$LOCKLAT_ROOT/plots/series.gp"
	done <"$data/series-plots"
}

# distribution_draw KIND W TITLE: plots/KIND.gp of plot-data/KIND-W.dat (hist
# or ccdf); without data (nothing of W measured), a plot that says so.
distribution_draw() {
	local file=$run/plot-data/$1-$2.dat names maxima missing caption
	if [ -s "$file" ] && awk '!/^#/ && NF { n++ } END { exit !n }' "$file"; then
		names=$(cut -d' ' -f1 "${file%.dat}.variants" | tr '\n' ' ')
		maxima=$(cut -d' ' -f2 "${file%.dat}.variants" | tr '\n' ' ')
		# The run's variants with no line here are named, not left to be missed.
		missing=$({ grep -vxF -f <(cut -d' ' -f1 "${file%.dat}.variants") "$run/plot-data/variants" || true; } | tr '\n' ' ')
		caption=$CAPTION${missing:+; no measured repetition: ${missing% }}
		# shellcheck disable=SC2086 # the names, one word each
		styles_of $names
		gnuplot -e "data='$file'; out='$run/plots/$1-$2'; title='$3'; caption='$caption'" \
			-e "colours='$COLOURS'; names='$names'; maxima='$maxima'" "$LOCKLAT_ROOT/plots/$1.gp"
	else
		empty_draw "$1-$2" "$3" "no data: no repetition of workload $2 measured"
	fi
}

plots_draw() {
	local data=$run/plot-data out=$run/plots w
	[ -f "$data/max.dat" ] || err_exit "$data/max.dat missing: run 'make summary' first"
	command -v gnuplot >/dev/null || err_exit "gnuplot not found: run 'make deps'"
	mkdir -p "$out"
	# Every plot says what its µs are; an A/B run's variants are its own.
	CAPTION="µs of $(cat "$data/clock" 2>/dev/null || echo 'an unrecorded clock'); run ${run##*/}"
	[ ! -d "$run/ab/variants" ] || LOCKLAT_VARIANTS_DIR=$run/ab/variants
	points max 1 'Maximum wake-up latency (cyclictest, after the start-up window): median of the measured repetitions, min-max whiskers' \
		'no latency pass measured: every repetition hung or failed, or the run holds only the modules pass'
	points preemptoff 0 'Worst preemption-off section (preemptoff tracer): the worst of one traced cell per build' \
		'no preemptoff trace: no traced cell ran the tracer pass to its end'
	points irqsoff 0 'Worst interrupts-off section (irqsoff tracer): the worst of one traced cell per build' \
		'no irqsoff trace: no traced cell ran the tracer pass to its end'
	while IFS= read -r w; do
		distribution_draw hist "$w" "Latency histogram: workload $w (the measured repetitions of each build merged)"
		distribution_draw ccdf "$w" "Latency CCDF: workload $w (measured repetitions, skipped wake-ups counted)"
	done <"$data/workloads"
	series_draw "$data" "$out"
	# plots/ shows the runs under results/ (not, say, a test's run in /tmp;
	# nor one stratum of a run of several).
	case $run in
	*/by-host/*) ;;
	"$LOCKLAT_ROOT/results/"*) cp "$out"/*.png "$out"/*.svg "$LOCKLAT_ROOT/plots/" ;;
	esac
	progress plots "$(find "$out" -name '*.svg' | wc -l) plots in $out"
}

case $what in
summary) summary_write ;;
plots)
	# A run of several strata has plots per stratum (locklat-summary:
	# RUN/by-host/<stratum>/), none of them pooled.
	if [ ! -d "$run/plot-data" ] && [ -d "$run/by-host" ]; then
		for stratum in "$run"/by-host/*/; do
			run=${stratum%/}
			plots_draw
		done
	else
		plots_draw
	fi ;;
esac
