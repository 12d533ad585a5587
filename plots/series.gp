# SPDX-License-Identifier: GPL-2.0
# series.gp - one build's latency passes on one workload as time series: the
# worst wake-up of each second (over the vCPUs' cyclictest threads), one line
# per repetition, overlaid on a log y axis, against the worst of them. A
# repetition whose load died is marked where it died: the quiet seconds after
# that were not measured under load.
#
# Usage: gnuplot -e "data='RUN/plot-data/series-V-W.dat'; out='RUN/plots/series-V-W'; \
#                    worst=N; names='rep1 rep2 ...'; died='- 0.0 ...'; \
#                    title='...'; caption='...'" plots/series.gp
# The data file has a block per repetition (separated by two blank lines),
# each a quoted name, then "second max" rows (NaN: no window started in that
# second). names and died are the blocks', in order (died: the second its
# load died, or "-"). Writes out.png and out.svg.

if (!exists("data") || !exists("out") || !exists("worst") || !exists("names") || !exists("died")) {
	print "series.gp: set data, out, worst, names and died"; exit status 2
}
if (!exists("title")) title = ""
if (!exists("caption")) caption = ""

stats data using 1 nooutput
blocks = STATS_blocks

set title title noenhanced
set xlabel "second of the latency pass (by expected wake-up time)"
set ylabel "worst wake-up latency in that second (µs)"
set logscale y
set yrange [0.8:*]
set xrange [-0.5:*]
set xtics 1
set grid
set key outside right top noenhanced
set datafile missing "NaN"
set bmargin 5
set label 1 caption at screen 0.01, screen 0.03 left font ",9" noenhanced
do for [i=1:words(died)] {
	if (word(died, i) ne "-") {
		d = word(died, i) + 0
		set arrow from d, graph 0 to d, graph 1 nohead lw 2 lc rgb "#c00000"
		set label (10 + i) sprintf("✗ %s: load died at %.1f s", word(names, i), d) at d, graph 0.95 - 0.06 * (i - 1) \
			left offset 0.5, 0 textcolor rgb "#c00000" font ",9" noenhanced
	}
}

do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 900,480 font ",10" } else { set terminal svg size 900,480 dynamic font ",10" }
	set output out . "." . fmt
	plot for [i=0:blocks-1] data index i using 1:2 with linespoints pt 7 ps 0.6 lc i + 1 title columnheader(1), \
	     (worst < 1 ? 1 : worst) with lines dt 2 lc rgb "black" title sprintf("worst %d µs", worst)
}
