# bars.gp: grouped bar chart, one group per variant, one bar per series (build configuration).
#   gnuplot -c plots/bars.gp DATA OUTBASE NSERIES LOG YBOTTOM HLINE TITLE YLABEL LASTREF
# DATA is the TSV that plots/plotdata.jq writes (one block per series, a header line with
# the series name, then x y ylow yhigh xlow xhigh label_y label_text; a last block of x tic
# labels).  Writes OUTBASE.svg and OUTBASE.png.  LOG 1: logarithmic y axis from YBOTTOM.
# HLINE: y of a dashed reference line, or "none".  LASTREF 1: the last series is the
# reference programs (grey).  Error bars span ylow..yhigh where the data has them
# (the 95 % interval of the median, or min..max for runs without one).
# Arguments are data, never gnuplot code.

data = ARG1
outbase = ARG2
nseries = int(ARG3)
logscale = int(ARG4)
ybottom = real(ARG5)
lastref = int(ARG9)

set datafile separator "\t"
set datafile missing "NaN"
set key autotitle columnhead
set key outside below center horizontal noenhanced
set title ARG7 noenhanced
set ylabel ARG8 noenhanced
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
if (ARG6 ne "none") {
	set arrow 1 from graph 0, first real(ARG6) to graph 1, first real(ARG6) nohead dt 2 lc rgb "#555555" front
}

# Series colours: a fixed, colour-blind friendly cycle; the reference series is grey.
array colours[8] = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"]
colour(i) = (lastref && i == nseries - 1) ? "#999999" : colours[(i % 8) + 1]

set terminal svg size 1100,560 fixed font "sans,12" background "#ffffff"
set output outbase.".svg"
plot \
	for [s=0:nseries-1] data index s using 1:2:5:6:(ybottom):2 with boxxyerror \
		fc rgb colour(s) title columnhead(1), \
	for [s=0:nseries-1] data index s using 1:3:(0):($4-$3) with vectors \
		heads size screen 0.006,90 lc rgb "#222222" lw 1.2 notitle, \
	for [s=0:nseries-1] data index s using 1:7:8 with labels rotate by 90 left \
		font ",9" tc rgb "#b00000" noenhanced notitle, \
	data index nseries using 1:(NaN):xtic(2) notitle  # the x tic labels; draws nothing

set terminal pngcairo size 1100,560 font "sans,10" background "#ffffff"
set output outbase.".png"
replot
set output
