# SPDX-License-Identifier: Apache-2.0
# Draws a benchmark CSV as one PNG: cycles/byte against buffer size (log x),
# one line per path (each implementation and each OpenSSL column); one panel
# per AES mode at its smallest key size in the CSV (128 bits unless
# --keybits left it out), and SHA-1 with update size = block size.
#
#   build/bench/bench --csv bench.csv
#   gnuplot -e "csv='bench.csv'; out='bench.png'" bench/plot.gp
#
# csv and out default to bench.csv and bench.png.  Needs gnuplot 5 (the
# pngcairo terminal, else png) and awk, which selects the rows.

if (!exists("csv")) csv = 'bench.csv'
if (!exists("out")) out = 'bench.png'

# awk condition picking the rows of a panel (CSV fields: 1 table, 2 mode,
# 3 bits, 4 bytes, 5 update, 6 path, 7 cycles_per_byte, 8 mb_per_s,
# ..., 11 openssl: the library of OpenSSL's rows).
# The smallest key size of mode m.
bits(m) = system(sprintf( \
    "awk -F, 'NR > 1 && $2 == \"%s\" { print $3 }' '%s' | sort -n | head -n 1", \
    m, csv))
rows(m) = (m eq 'sha1') ? sprintf('$2 == "%s" && $4 == $5', m) \
                        : sprintf('$2 == "%s" && $3 == %s', m, bits(m))
# Distinct values of field f over the rows matching cond, in file order.
distinct(f, cond) = system(sprintf( \
    "awk -F, 'NR > 1 && %s && !seen[$%d]++ { print $%d }' '%s'", \
    cond, f, f, csv))
# A line's name: the path, and for OpenSSL's rows the library (field 11,
# its spaces as '-'), so two libraries' rows of one path are two lines.
line_key = 'k = $6; if ($11 != "") { v = $11; gsub(/ /, "-", v); k = k " " v }'
# Distinct line names over the rows matching cond, in file order.
lines_of(cond) = system(sprintf( \
    "awk -F, 'NR > 1 && %s { %s; if (!seen[k]++) print k }' '%s' | tr ' ' '/'", \
    cond, line_key, csv))
# "bytes cycles_per_byte" of one line in one panel, by size.
series(m, p) = sprintf( \
    "< awk -F, 'NR > 1 && %s { %s; gsub(/ /, \"/\", k); if (k == \"%s\") print $4, $7 }' '%s' | sort -n", \
    rows(m), line_key, p, csv)

modes = distinct(2, '1')
n = words(modes)
if (n == 0) { print sprintf("plot.gp: no data in %s", csv); exit }
cols = (n >= 5) ? 3 : (n >= 2 ? 2 : 1)
lines = int((n + cols - 1) / cols)

if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 560 * cols, 420 * lines font ',9' noenhanced
} else {
    set terminal png size 560 * cols, 420 * lines noenhanced
}
set output out

set multiplot layout lines, cols title sprintf('%s: cycles/byte (TSC), lower is faster', csv)
set logscale x 2
set logscale y
set xlabel 'bytes'
set ylabel 'cycles/byte'
set grid
set key top right
do for [m in modes] {
    set title (m eq 'sha1') ? 'sha1 (update = block)' : m . ' AES-' . bits(m)
    paths = lines_of(rows(m))
    # One size, or one figure, in a panel: a range around it (gnuplot
    # warns about an empty range otherwise).
    sizes = distinct(4, rows(m))
    if (words(sizes) == 1) { s = real(word(sizes, 1)); set xrange [s / 2 : s * 2] } else { set autoscale x }
    figs = distinct(7, rows(m))
    if (words(figs) == 1) { c = real(word(figs, 1)); set yrange [c / 2 : c * 2] } else { set autoscale y }
    plot for [p in paths] series(m, p) using 1:2 with linespoints title p
}
unset multiplot
