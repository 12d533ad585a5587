# SPDX-License-Identifier: GPL-2.0
# ccdf.gp - latency CCDF of one workload: for each variant, the fraction of
# its wake-ups that came at or after x µs, log-log, a step line each. Where a
# line ends is the longest wake-up the variant had; how high it ends, how
# many wake-ups reached that tail.
#
# Usage: gnuplot -e "data='RUN/plot-data/ccdf-W.dat'; out='RUN/plots/ccdf-W'; \
#                    colours='#0072B2 ...'; title='...'; caption='...'" plots/ccdf.gp
# The data file has one block per variant (separated by two blank lines), each
# starting with a quoted "<variant> (N wake-ups)" line, then "x fraction" lines;
# colours are the blocks' (each variant's own, kernels/variants.sh). Writes
# out.png and out.svg.

if (!exists("data") || !exists("out") || !exists("colours")) { print "ccdf.gp: set data, out and colours"; exit status 2 }
if (!exists("title")) title = ""
if (!exists("caption")) caption = ""
colour(i) = word(colours, i + 1)

stats data using 1 nooutput
blocks = STATS_blocks

set title title noenhanced
set xlabel "latency x (µs)"
set ylabel "fraction of wake-ups at or after x"
set logscale xy
set format y "10^{%L}"
set xrange [1:*]
set yrange [*:1.5]
set grid
set key outside right top noenhanced
set bmargin 6
set label 1 caption . "; skipped wake-ups counted (coordinated-omission correction)" at screen 0.01, screen 0.03 left font ",9" noenhanced

do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1000,560 font ",11" } else { set terminal svg size 1000,560 dynamic font ",11" }
	set output out . "." . fmt
	plot for [i=0:blocks-1] data index i using ($1 < 1 ? 1 : $1):2 with steps lw 2 lc rgb colour(i) title columnheader(1)
}
