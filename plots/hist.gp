# SPDX-License-Identifier: GPL-2.0
# hist.gp - latency histogram of one workload, one line per variant (OSADL
# style: latency on x, sample count on a log y axis).
#
# Usage: gnuplot -e "data='RUN/plot-data/hist-W.dat'; out='RUN/plots/hist-W'; \
#                    title='...'" plots/hist.gp
# The data file has one block per variant (separated by two blank lines), each
# starting with a "<variant> samples" line, then "bin-start-us samples-per-us"
# lines (1 us bins below 1 ms, three significant digits above).
# Writes out.png and out.svg.

if (!exists("data") || !exists("out")) { print "hist.gp: set data and out"; exit status 2 }
if (!exists("title")) title = ""

stats data using 1 nooutput
blocks = STATS_blocks

set title title noenhanced
set xlabel "latency (µs)"
set ylabel "samples per µs"
set logscale xy
set xrange [1:*]
set yrange [*:*]
set grid
set key outside right top noenhanced

do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1000,560 font ",11" } else { set terminal svg size 1000,560 dynamic font ",11" }
	set output out . "." . fmt
	plot for [i=0:blocks-1] data index i using ($1 < 1 ? 1 : $1):2 with points pt 7 ps 0.6 title columnheader(1)
}
