# SPDX-License-Identifier: GPL-2.0
# bars.gp - grouped bars, one group per workload, one bar per variant, log y,
# with each bar's spread and what it leaves out.
#
# Usage: gnuplot -e "data='RUN/plot-data/max.dat'; out='RUN/plots/max'; \
#                    variants=N; spread=1; title='...'; ylabel='...'" plots/bars.gp
# The data file (written by locklat-summary) has a header "workload" then,
# per variant, "v v:min v:max v:failed", and one row per workload: the bar's
# value, the smallest and largest repetition's (drawn as a min-max bar when
# spread=1), and how many repetitions failed under load (hung, panicked,
# load died). Failures are marked above their bar's slot ("✗N failed"); a
# slot with no value says so ("no data") instead of vanishing. Writes
# out.png and out.svg.

if (!exists("data") || !exists("out") || !exists("variants")) { print "bars.gp: set data, out and variants"; exit status 2 }
if (!exists("title")) title = ""
if (!exists("ylabel")) ylabel = "latency (µs)"
if (!exists("spread")) spread = 0

# The top of the y axis, above the largest value: the marks go there.
stats data using 2 nooutput
top = 1
do for [v=0:variants-1] {
	stats data using (valid(4 + 4 * v) ? column(4 + 4 * v) : 1) nooutput
	if (STATS_max > top) { top = STATS_max }
}
mark_y = top * 4
# Clustered histogram geometry: row k's cluster is centred on x = k, each of
# its bars 1 / (variants + gap) wide (gap: the histogram style's, below).
gap = 1
slot(k, v) = k + (v - (variants - 1) / 2.0) / (variants + gap)

set title title noenhanced
set ylabel ylabel
set logscale y
set yrange [1:top * 16]
set grid ytics
set style data histograms
if (spread) { set style histogram errorbars gap 1 lw 1.5 } else { set style histogram clustered gap 1 }
set style fill solid 0.8 border -1
set boxwidth 0.9
set key outside right top noenhanced autotitle columnhead
set xtics noenhanced

do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1000,560 font ",11" } else { set terminal svg size 1000,560 dynamic font ",11" }
	set output out . "." . fmt
	# A variant with no data in any group would stop gnuplot with "No valid
	# points in histogram": its NaNs become a value under the y range, drawn
	# as nothing, and its key entry and its slot's label stay.
	if (spread) {
		plot for [v=0:variants-1] data using (valid(2 + 4 * v) ? column(2 + 4 * v) : 1e-9): \
			(valid(3 + 4 * v) ? column(3 + 4 * v) : 1e-9):(valid(4 + 4 * v) ? column(4 + 4 * v) : 1e-9):xtic(1) \
			title columnheader(2 + 4 * v), \
		for [v=0:variants-1] data using (slot($0, v)):(mark_y):(column(5 + 4 * v) > 0 ? sprintf("✗%d failed", column(5 + 4 * v)) : "") \
			with labels rotate by 90 textcolor rgb "#c00000" notitle, \
		for [v=0:variants-1] data using (slot($0, v)):(1.3):(valid(2 + 4 * v) || column(5 + 4 * v) > 0 ? "" : "no data") \
			with labels rotate by 90 left font ",9" notitle
	} else {
		plot for [v=0:variants-1] data using (valid(2 + 4 * v) ? column(2 + 4 * v) : 1e-9):xtic(1) \
			title columnheader(2 + 4 * v), \
		for [v=0:variants-1] data using (slot($0, v)):(1.3):(valid(2 + 4 * v) ? "" : "no data") \
			with labels rotate by 90 left font ",9" notitle
	}
}
