#!/usr/bin/env bash
# The main job on the bundled example: a Score-P-like OTF2 trace of a
# 4-rank MPI + CUDA + OpenMP Jacobi run (written by bench/gen-otf2), read
# into the record stream, checked, analysed for wait states and the
# critical path, rated, and written back as an OTF2 archive with the
# analysis as metrics. Grows with the analysis stages.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PWD/bench:$PATH"
out=examples/out

# examples/out holds only what this script writes
rm -rf "$out/jacobi" "$out/jacobi.otf2" "$out/jacobi.def" "$out/jacobi.tr" \
	"$out/jacobi-waits.tr" "$out/jacobi-analysed.tr" "$out/jacobi-analysed" \
	"$out/jacobi-analysed.otf2" "$out/jacobi-analysed.def"
mkdir -p "$out"
gen-otf2 -i 20 "$out/jacobi"
tr-read --stats "$out/jacobi.otf2" > "$out/jacobi.tr"
tr-cat --check "$out/jacobi.tr"
echo "$out/jacobi.tr: a valid record stream; its first events:"
tr-cat -J "$out/jacobi.tr" | jq -c 'select(.t != null)' | sed -n 1,5p
echo "its wait states (tr-deps | tr-clock | tr-waits --summary):"
tr-deps "$out/jacobi.tr" | tr-clock | tr-waits --summary > "$out/jacobi-waits.tr"
tr-cat --check "$out/jacobi-waits.tr"
echo "its critical path (tr-critpath --summary):"
tr-critpath --summary "$out/jacobi-waits.tr" > "$out/jacobi-analysed.tr"
tr-cat --check "$out/jacobi-analysed.tr"
echo "what to optimize first (tr-rank -n 8):"
tr-rank -n 8 "$out/jacobi-analysed.tr"
echo "the analysed run for Vampir (tr-otf2 --stats):"
tr-otf2 --stats -o "$out/jacobi-analysed" "$out/jacobi-analysed.tr"
otf2-print --silent "$out/jacobi-analysed.otf2" > /dev/null
echo "$out/jacobi-analysed.otf2: an OTF2 archive otf2-print reads"
