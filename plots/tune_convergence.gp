# tune_convergence.gp: best so far against time, one line per technique of a tune.
#   gnuplot -c plots/tune_convergence.gp DATA OUTBASE TITLE YLABEL
# DATA is a tune folder's convergence.tsv: a block per technique (two blank lines
# between), each line  technique seconds best_ratio, steps already drawn (the ratio
# holds until the next best).  Writes OUTBASE.svg.  Arguments are data, never code.

data = ARG1
outbase = ARG2
set datafile separator "\t"
set encoding utf8
set title ARG3 noenhanced
set xlabel "seconds of the technique's own batches" noenhanced
set ylabel ARG4 noenhanced
set key outside below center horizontal noenhanced
set grid lc rgb "#dddddd"
set yrange [*:*]
set xrange [0:*]
set terminal svg size 900,420 dynamic font "sans,12"
set output outbase.".svg"
stats data using 2 nooutput
nblocks = STATS_blocks
plot for [i=0:nblocks-1] data index i using 2:3 with lines lw 2 title columnhead(1)
