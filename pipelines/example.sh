#!/usr/bin/env bash
# The main job on the bundled examples. First a real recording: the
# project's own 4-rank MPI program examples/imbalance.c (out of balance
# into a barrier, a late sender, an allreduce), run under mpirun with
# tr-record, and its logs analysed: wait states, critical path, rating.
# Then a Score-P-like OTF2 trace of a 4-rank MPI + CUDA + OpenMP Jacobi
# run (written by bench/gen-otf2), read into the record stream, checked,
# analysed, rated, and written back as an OTF2 archive with the analysis
# as metrics. Grows with the analysis stages.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PWD/bench:$PATH"
out=examples/out

# 4 ranks on however many cores (waiting ranks yield theirs); as root (a container),
# Open MPI asks to be told so
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
if [ "$(id -u)" -eq 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
rm -rf "$out/imbalance" "$out/imbalance.tr"
mkdir -p "$out"
echo "== a real run, recorded: mpirun -n 4 tr-record -o $out/imbalance -- examples/imbalance"
mpirun -n 4 tr-record -o "$out/imbalance" -- examples/imbalance
ls "$out/imbalance"
echo "its logs as one stream (tr-read --stats), its wait states, critical path and rating:"
tr-read --stats "$out/imbalance" | tr-deps | tr-clock | tr-waits | tr-critpath > "$out/imbalance.tr"
tr-cat --check "$out/imbalance.tr"
tr-rank -n 8 "$out/imbalance.tr"
echo "(5 iterations: 30 ms of barrier waiting each, a 20 ms late sender, 40 ms in the allreduce:"
echo " 0.15 s, 0.10 s and 0.20 s; MPI_Init is Open MPI's start-up, on the path as long as it lasts)"
echo
if [ -x examples/imbalance-cuda ] && command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
	rm -rf "$out/imbalance-cuda" "$out/imbalance-cuda.tr"
	echo "== its CUDA variant, recorded: mpirun -n 4 tr-record -o $out/imbalance-cuda -- examples/imbalance-cuda"
	mpirun -n 4 tr-record -o "$out/imbalance-cuda" -- examples/imbalance-cuda
	tr-read "$out/imbalance-cuda" | tr-deps | tr-clock | tr-waits | tr-critpath > "$out/imbalance-cuda.tr"
	tr-cat --check "$out/imbalance-cuda.tr"
	tr-rank -n 8 "$out/imbalance-cuda.tr"
	echo
else
	echo "(its CUDA variant, examples/imbalance-cuda.cu, runs where nvcc built it and a GPU is: not here)"
	echo
fi

echo "== a Score-P-like trace of an MPI + CUDA + OpenMP run: bench/gen-otf2 -i 20"
# examples/out holds only what this script writes
rm -rf "$out/jacobi" "$out/jacobi.otf2" "$out/jacobi.def" "$out/jacobi.tr" \
	"$out/jacobi-waits.tr" "$out/jacobi-analysed.tr" "$out/jacobi-analysed" \
	"$out/jacobi-analysed.otf2" "$out/jacobi-analysed.def" "$out/jacobi-in-one.tr" \
	"$out/jacobi.svg" "$out/jacobi-perfetto.json"
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
echo "the analysed run as a picture (tr-svg), as the README shows it (docs/example.svg):"
tr-svg "$out/jacobi-analysed.tr" > "$out/jacobi.svg"
echo "$out/jacobi.svg: open it in a browser; tr-chrome writes the same for Perfetto"
tr-chrome "$out/jacobi-analysed.tr" > "$out/jacobi-perfetto.json"
echo "the same analysis in one process (tr-analyze -n 3 --stream):"
tr-analyze -n 3 --stream "$out/jacobi-in-one.tr" "$out/jacobi.otf2"
tr-read "$out/jacobi.otf2" 2>/dev/null | tr-deps 2>/dev/null | tr-clock 2>/dev/null | tr-waits 2>/dev/null |
	tr-critpath 2>/dev/null | cmp - "$out/jacobi-in-one.tr"
echo "$out/jacobi-in-one.tr: byte for byte what tr-read | tr-deps | tr-clock | tr-waits | tr-critpath writes"
