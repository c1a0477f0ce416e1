# heatmap.gp: variants down, build configurations across, the value printed in each cell,
# the colour its share of the row's best (1 = the best configuration for that variant).
#   gnuplot -c plots/heatmap.gp DATA OUTBASE NCOLS NROWS COLWIDTH XROTATE TITLE
# DATA is the TSV that plots/plotdata.jq writes: block 0 rows  x y ratio text ok(1|0),
# block 1 x tic labels, block 2 y tic labels.  Cells that are not ok are grey with their
# status word.  COLWIDTH: pixels per column (room for the longest cell text, e.g.
# "7.36 GiB/s ±1.2% †"); XROTATE 1: the column names are slanted.  Writes OUTBASE.svg
# and OUTBASE.png.  Arguments are data, never gnuplot code.

data = ARG1
outbase = ARG2
ncols = int(ARG3)
nrows = int(ARG4)
colw = int(ARG5)
xrot = int(ARG6)

set datafile separator "\t"
set datafile missing "NaN"
set encoding utf8
set title ARG7 noenhanced
unset key
set border 0
set tics scale 0 noenhanced
set xtics nomirror
if (xrot) {
	set xtics rotate by -25
}
set ytics nomirror
set xrange [-0.5:ncols-0.5]
set yrange [-0.5:nrows-0.5]
set cbrange [0:1]
set cblabel "share of the row's best"
set palette defined (0 "#d73027", 0.5 "#fdae61", 0.75 "#fee08b", 0.9 "#d9ef8b", 1 "#1a9850")
set style fill solid 1.0 border lc rgb "#ffffff"

w = 260 + colw * ncols
h = 170 + 34 * nrows + (xrot ? 110 : 0)
set terminal svg size w,h fixed font "sans,12" background "#ffffff"
set output outbase.".svg"
plot \
	data index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fc palette, \
	data index 0 using 1:($5 > 0 ? NaN : $2):(0.5):(0.5) with boxxyerror fc rgb "#d0d0d0", \
	data index 0 using 1:2:4 with labels font ",10" noenhanced, \
	data index 1 using 1:(NaN):xtic(2), \
	data index 2 using (NaN):1:ytic(2)

set terminal pngcairo size w,h font "sans,10" background "#ffffff"
set output outbase.".png"
replot
set output
