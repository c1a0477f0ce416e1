# bars.gp: grouped bar chart of one table: a group per row (variant), a bar per column.
#   gnuplot -c plots/bars.gp DATA OUTBASE NCOLS NROWS HLINE TITLE YLABEL
# DATA is `flagbench tables --format tsv --family F --table T`: a block per column, its
# first line the column's name, then  row value low high share ok text row-label column.
# Error bars span low..high: the interval the tables show as ± of a figure, as [low, high]
# of a ratio (not symmetric: the bar reaches further on one side).  A cell that is not ok
# shows its status word at the foot of its bar.  Values spanning more than a factor 10 get
# a logarithmic y axis.  HLINE: y of a dashed line, or "none".  Writes OUTBASE.svg and OUTBASE.png.
# Arguments are data, never gnuplot code.

data = ARG1
outbase = ARG2
n = int(ARG3)
w = 0.8 / n
x(s) = column(1) + (s - (n - 1) / 2.0) * w

set datafile separator "\t"
set datafile missing "NaN"
set encoding utf8
# a title that fits: at most 110 characters
title = strlen(ARG6) > 110 ? ARG6[1:107]."..." : ARG6
stats data using 2 nooutput
logscale = STATS_max / STATS_min > 10
ybottom = logscale ? 10 ** floor(log10(STATS_min) - 0.05) : 0
set key autotitle columnhead
set key outside below center horizontal noenhanced
set title title noenhanced
set ylabel ARG7 noenhanced
set xtics noenhanced nomirror scale 0 rotate by -25
set ytics nomirror
set grid ytics lc rgb "#dddddd"
set border 3
set style fill solid 0.85 border lc rgb "#333333"
set offsets 0.5, 0.5, 0, 0
if (logscale) {
	set logscale y
	set yrange [ybottom:*]
	set format y "%g"
} else {
	set yrange [0:*]
}
if (ARG5 ne "none") {
	set arrow 1 from graph 0, first real(ARG5) to graph 1, first real(ARG5) nohead dt 2 lc rgb "#555555" front
}

# a fixed, colour-blind friendly cycle
array colours[8] = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"]

set terminal svg size 1100,560 fixed font "sans,12" background "#ffffff"
set output outbase.".svg"
plot \
	for [s=0:n-1] data index s using (x(s)):2:(x(s) - w / 2):(x(s) + w / 2):(ybottom):2 with boxxyerror \
		fc rgb colours[(s % 8) + 1] title columnhead(1), \
	for [s=0:n-1] data index s using (x(s)):3:(0):($4 - $3) with vectors \
		heads size screen 0.006,90 lc rgb "#222222" lw 1.2 notitle, \
	for [s=0:n-1] data index s using (x(s)):($6 > 0 ? NaN : (logscale ? ybottom * 1.15 : 0)):7 with labels \
		rotate by 90 left font ",9" tc rgb "#b00000" noenhanced notitle, \
	data index 0 using 1:(NaN):xtic(8) notitle

set terminal pngcairo size 1100,560 font "sans,10" background "#ffffff"
set output outbase.".png"
replot
set output
