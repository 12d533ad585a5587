# SPDX-License-Identifier: GPL-2.0
# series.gp - one cell's latency pass as a time series: the maximum wake-up
# latency of each second, one line per vCPU's cyclictest thread, against the
# cell's overall maximum (cyclictest's JSON), on a log y axis.
#
# Usage: gnuplot -e "data='RUN/plot-data/series-V-W-repN.dat'; \
#                    out='RUN/plots/series-V-W-repN'; cellmax=N; title='...'" \
#                plots/series.gp
# The data file starts with a "second vCPU0 vCPU1 ..." header, then one row
# per second (NaN: no window of that vCPU started in that second).
# Writes out.png and out.svg.

if (!exists("data") || !exists("out") || !exists("cellmax")) { print "series.gp: set data, out and cellmax"; exit status 2 }
if (!exists("title")) title = ""

columns = int(system("awk 'NR == 1 { print NF; exit }' '" . data . "'"))

set title title noenhanced
set xlabel "second of the latency pass (by expected wake-up time)"
set ylabel "maximum wake-up latency in that second (µs)"
set logscale y
set yrange [0.8:*]
set xrange [-0.5:*]
set xtics 1
set grid
set key outside right top noenhanced
set datafile missing "NaN"

do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 800,450 font ",10" } else { set terminal svg size 800,450 dynamic font ",10" }
	set output out . "." . fmt
	plot for [i=2:columns] data using 1:i with linespoints pt 7 ps 0.7 title columnheader(i), \
	     (cellmax < 1 ? 1 : cellmax) with lines dt 2 lc rgb "black" title sprintf("cell max %d µs", cellmax)
}
