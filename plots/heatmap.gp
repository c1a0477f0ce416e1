# heatmap.gp: variants down, build configurations across, each cell's text printed in it.
#   gnuplot -c plots/heatmap.gp DATA OUTBASE NCOLS NROWS TITLE
# DATA as for bars.gp (the throughput table).  The colour is the cell's share of its
# row's best as the model gives it: cells whose intervals overlap share a colour, so
# colour never ranks a tie.  Cells that are not ok are grey with their status word.
# Writes OUTBASE.svg and OUTBASE.png.  Arguments are data, never gnuplot code.

data = ARG1
outbase = ARG2
ncols = int(ARG3)
nrows = int(ARG4)

set datafile separator "\t"
set datafile missing "NaN"
set encoding utf8
# room for the longest text (about 7 pixels a byte); slanted names when they are wider
stats data using 1:(strlen(strcol(7))) nooutput
colw = STATS_max_y * 7 + 24 > 150 ? int(STATS_max_y * 7 + 24) : 150
stats data using 1:(strlen(strcol(9))) nooutput
xrot = STATS_max_y * 7 > colw
# a title that fits the width, on two lines
w = 260 + colw * ncols < 640 ? 640 : 260 + colw * ncols
fit(t) = strlen(t) > int(w / 7.5) ? t[1:int(w / 7.5) - 3]."..." : t
set title fit(ARG5)."\n".fit("colour: share of the row's best; builds the one comparison cannot tell apart share a colour") noenhanced
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

h = 190 + 34 * nrows + (xrot ? 110 : 0)
y(r) = nrows - 1 - r
set terminal svg size w,h fixed font "sans,12" background "#ffffff"
set output outbase.".svg"
plot \
	for [s=0:ncols-1] data index s using (s):(y($1)):(0.5):(0.5):5 with boxxyerror fc palette, \
	for [s=0:ncols-1] data index s using (s):($6 > 0 ? NaN : y($1)):(0.5):(0.5) with boxxyerror fc rgb "#d0d0d0", \
	for [s=0:ncols-1] data index s using (s):(y($1)):7 with labels font ",10" noenhanced, \
	for [s=0:ncols-1] data index s every ::1::1 using (s):(NaN):xtic(9), \
	data index 0 using (NaN):(y($1)):ytic(8)

set terminal pngcairo size w,h font "sans,10" background "#ffffff"
set output outbase.".png"
replot
set output
