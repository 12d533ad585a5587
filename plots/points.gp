# SPDX-License-Identifier: GPL-2.0
# points.gp - one point per variant in each workload's slot, on a log y axis
# (where a bar's length would mean nothing), with the repetitions' min-max as
# whiskers, each variant in its own colour and point type.
#
# Usage: gnuplot -e "data='RUN/plot-data/max.dat'; out='RUN/plots/max'; \
#                    variants=N; spread=1; colours='#0072B2 ...'; points='5 ...'; \
#                    title='...'; ylabel='...'; caption='...'" plots/points.gp
# The data file (written by locklat-summary) has a header "workload" then,
# per variant, "v v:min v:max v:failed v:why", and one row per workload: the
# value, the smallest and largest repetition's (whiskers when spread=1), how
# many repetitions failed under load (hung, panicked, load died), and, with
# no value, why (one word: TIMEOUT, failed, not-run, ...). Failures are
# marked above their slot ("✗N failed"); a slot with no value says why.
# colours and points give each variant's style, in the columns' order
# (kernels/variants.sh: variant_plot_style). caption goes under the chart
# (the clock). Writes out.png and out.svg.

if (!exists("data") || !exists("out") || !exists("variants") || !exists("colours") || !exists("points")) {
	print "points.gp: set data, out, variants, colours and points"; exit status 2
}
if (!exists("title")) title = ""
if (!exists("ylabel")) ylabel = "latency (µs)"
if (!exists("spread")) spread = 0
if (!exists("caption")) caption = ""

# Column of variant v's field k (0 value, 1 min, 2 max, 3 failed, 4 why).
col(v, k) = 2 + 5 * v + k
# The top of the y axis, above the largest value: the failure marks go there.
top = 1
do for [v=0:variants-1] {
	stats data using (valid(col(v, 2)) ? column(col(v, 2)) : 1) nooutput
	if (STATS_max > top) { top = STATS_max }
}
# The workloads: the rows whose failure count is a number (not the header).
stats data using (column(col(0, 3))) nooutput
rows = STATS_records
mark_y = top * 4
# Variant v's place in row k's slot, centred on x = k.
slot(k, v) = k + (v - (variants - 1) / 2.0) * 0.7 / variants
colour(v) = word(colours, v + 1)
point(v) = word(points, v + 1) + 0

set title title noenhanced
set xlabel "workload"
set ylabel ylabel
set logscale y
set yrange [1:top * 16]
set xrange [-0.6:rows - 0.4]
set grid ytics
set key outside right top noenhanced autotitle columnhead
set xtics noenhanced
set bmargin 6
set label 1 caption at screen 0.01, screen 0.03 left font ",9" noenhanced

do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1000,560 font ",11" } else { set terminal svg size 1000,560 dynamic font ",11" }
	set output out . "." . fmt
	if (spread) {
		plot data using 0:(NaN):xtic(1) notitle, \
		for [v=0:variants-1] data using (slot($0, v)):(valid(col(v, 0)) ? column(col(v, 0)) : NaN): \
			(column(col(v, 1))):(column(col(v, 2))) with yerrorbars lc rgb colour(v) pt point(v) ps 1.4 lw 1.5 \
			title columnheader(col(v, 0)), \
		for [v=0:variants-1] data using (slot($0, v)):(mark_y):(column(col(v, 3)) > 0 ? sprintf("✗%d failed", column(col(v, 3))) : "") \
			with labels rotate by 90 textcolor rgb "#c00000" notitle, \
		for [v=0:variants-1] data using (slot($0, v)):(1.3):(valid(col(v, 0)) || column(col(v, 3)) > 0 ? "" : \
			"no data: " . stringcolumn(col(v, 4))) with labels rotate by 90 left font ",9" notitle
	} else {
		plot data using 0:(NaN):xtic(1) notitle, \
		for [v=0:variants-1] data using (slot($0, v)):(valid(col(v, 0)) ? column(col(v, 0)) : NaN) \
			with points lc rgb colour(v) pt point(v) ps 1.6 title columnheader(col(v, 0)), \
		for [v=0:variants-1] data using (slot($0, v)):(1.3):(valid(col(v, 0)) ? "" : "no data: " . stringcolumn(col(v, 4))) \
			with labels rotate by 90 left font ",9" notitle
	}
}
