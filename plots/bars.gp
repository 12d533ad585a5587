# SPDX-License-Identifier: GPL-2.0
# bars.gp - grouped bars, one group per workload, one bar per variant, log y.
#
# Usage: gnuplot -e "data='RUN/plot-data/max.dat'; out='RUN/plots/max'; \
#                    columns=N; title='...'; ylabel='...'" plots/bars.gp
# The data file (written by locklat-summary) has a header "workload v1 v2 ..."
# (N words) and one row per workload; NaN marks a cell with no data. Writes
# out.png and out.svg.

if (!exists("data") || !exists("out") || !exists("columns")) { print "bars.gp: set data, out and columns"; exit status 2 }
if (!exists("title")) title = ""
if (!exists("ylabel")) ylabel = "latency (µs)"

set title title noenhanced
set ylabel ylabel
set logscale y
set yrange [1:*]
set grid ytics
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key outside right top noenhanced
set xtics noenhanced

do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1000,560 font ",11" } else { set terminal svg size 1000,560 dynamic font ",11" }
	set output out . "." . fmt
	# A variant with no data in any group (NaN throughout: every repetition
	# hung, or a kernel without the tracer) would stop gnuplot with "No
	# valid points in histogram": its NaNs become a value under the y
	# range, drawn as nothing, and its key entry stays.
	plot for [i=2:columns] data using (valid(i) ? column(i) : 1e-9):xtic(1) title columnheader(i)
}
