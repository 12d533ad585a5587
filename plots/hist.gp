# SPDX-License-Identifier: GPL-2.0
# hist.gp - latency histogram of one workload, OSADL style: wake-ups per bin
# on a log y axis against latency in µs, a step line per variant in its own
# colour, each variant's maximum marked with a labelled line. The wake-ups
# the coordinated-omission correction added (periods a late wake-up made
# cyclictest skip) are drawn apart, as dots: they were not measured. The x
# axis is linear, or logarithmic when the variants' maxima are more than 50x
# apart (rt's 4 µs beside a baseline's 52 ms); the label says which.
#
# Usage: gnuplot -e "data='RUN/plot-data/hist-W.dat'; out='RUN/plots/hist-W'; \
#                    colours='#0072B2 ...'; names='baseline ...'; maxima='52771 ...'; \
#                    title='...'; caption='...'" plots/hist.gp
# The data file has one block per variant (separated by two blank lines), each
# starting with a quoted "<variant> (N wake-ups)" line, then "bin-start-us
# measured back-filled" lines (1 µs bins below 100 µs, two significant digits
# above). colours, names and maxima are the blocks', in order. Writes out.png
# and out.svg.

if (!exists("data") || !exists("out") || !exists("colours") || !exists("names") || !exists("maxima")) {
	print "hist.gp: set data, out, colours, names and maxima"; exit status 2
}
if (!exists("title")) title = ""
if (!exists("caption")) caption = ""

stats data using 1 nooutput
blocks = STATS_blocks
lo = 0; hi = 0
do for [i=1:words(maxima)] {
	m = word(maxima, i) + 0
	if (i == 1 || m < lo) { lo = m }
	if (m > hi) { hi = m }
}
logx = hi > 50 * (lo < 1 ? 1 : lo)
colour(i) = word(colours, i + 1)

set title title noenhanced
if (logx) {
	set xlabel "latency (µs, log scale: the maxima are orders of magnitude apart)"
	set logscale x
	set xrange [1:hi * 2]
} else {
	set xlabel "latency (µs)"
	set xrange [0:hi * 1.1 + 1]
}
set ylabel "wake-ups per bin (log scale)"
set logscale y
set yrange [0.8:*]
set grid
set key tmargin center horizontal maxcols 3 noenhanced
set bmargin 5
set label 1 caption . "; bins 1 µs below 100 µs, two significant digits above; dots: wake-ups cyclictest skipped, back-filled, not measured" at screen 0.01, screen 0.03 left font ",9" noenhanced
do for [i=0:blocks-1] {
	m = word(maxima, i + 1) + 0
	set arrow from m, graph 0 to m, graph 1 nohead dt 2 lw 1.5 lc rgb colour(i)
	set label (10 + i) sprintf("%s max %d µs", word(names, i + 1), m) at m, graph 0.96 - 0.05 * i right offset -0.5, 0 \
		textcolor rgb colour(i) font ",9" noenhanced
}

do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1000,620 font ",11" } else { set terminal svg size 1000,620 dynamic font ",11" }
	set output out . "." . fmt
	plot for [i=0:blocks-1] data index i using ($1 < 1 && logx ? 1 : $1):($2 > 0 ? $2 : NaN) with steps lw 2 \
		lc rgb colour(i) title columnheader(1), \
	     for [i=0:blocks-1] data index i using ($1 < 1 && logx ? 1 : $1):($3 > 0 ? $3 : NaN) with points pt 7 ps 0.4 \
		lc rgb colour(i) notitle, \
	     NaN with points pt 7 ps 0.6 lc rgb "#808080" title "dots: back-filled"
}
