# SPDX-License-Identifier: GPL-2.0
# empty.gp - the plot of a figure the run has no data for: its title and why,
# in place of the chart, so that a reader sees what is missing instead of a
# file that is not there.
#
# Usage: gnuplot -e "out='RUN/plots/max'; title='...'; why='...'" plots/empty.gp
# Writes out.png and out.svg.

if (!exists("out") || !exists("why")) { print "empty.gp: set out and why"; exit status 2 }
if (!exists("title")) title = ""
if (!exists("caption")) caption = ""

set title title noenhanced
unset border
unset tics
unset key
set label 1 why at graph 0.5, 0.5 center noenhanced font ",14"
set label 2 caption at screen 0.01, screen 0.03 left font ",9" noenhanced
do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1000,560 font ",11" } else { set terminal svg size 1000,560 dynamic font ",11" }
	set output out . "." . fmt
	plot [0:1] [0:1] NaN notitle
	unset output
}
