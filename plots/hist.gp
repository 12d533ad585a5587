# SPDX-License-Identifier: GPL-2.0
# hist.gp - latency histogram of one workload, OSADL style: a step line per
# variant on a log y axis, each normalised to its own wake-ups so that
# variants with different counts draw on one scale.
#
# Usage: gnuplot -e "data='RUN/plot-data/hist-W.dat'; out='RUN/plots/hist-W'; \
#                    title='...'" plots/hist.gp
# The data file has one block per variant (separated by two blank lines), each
# starting with a quoted "<variant> (N wake-ups)" line, then "bin-start-us
# fraction-per-us" lines (1 us bins below 100 us, two significant digits above).
# Writes out.png and out.svg.

if (!exists("data") || !exists("out")) { print "hist.gp: set data and out"; exit status 2 }
if (!exists("title")) title = ""

stats data using 1 nooutput
blocks = STATS_blocks

set title title noenhanced
set xlabel "latency (µs)"
set ylabel "fraction of the variant's wake-ups per µs"
set logscale xy
set format y "10^{%L}"
set xrange [1:*]
set grid
set key outside right top noenhanced

do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1000,560 font ",11" } else { set terminal svg size 1000,560 dynamic font ",11" }
	set output out . "." . fmt
	plot for [i=0:blocks-1] data index i using ($1 < 1 ? 1 : $1):2 with steps lw 2 title columnheader(1)
}
