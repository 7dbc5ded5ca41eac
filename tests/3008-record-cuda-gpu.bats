#!/usr/bin/env bats
# tr-record on a real CUDA program (tests/programs/cuda-patterns.cu), on a
# machine with an NVIDIA GPU, nvcc and the CUDA collector; skipped
# elsewhere, saying why. The waits are the kernels' known lengths (they
# spin on the GPU's global timer), within 10 % (tests/cuda-patterns.bash;
# tests/3012 checks the same on an H100's run, without a GPU).

load common
load cuda-patterns

DELAY_MS=100

setup() {
	[ -e "$TOP/lib/tr/libtr-cuda.so" ] || skip_unless cuda "the CUDA collector is not built here (no CUPTI)"
	command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1 || skip_unless gpu "no NVIDIA GPU here"
	NVCC=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
	[ -x "$NVCC" ] || skip_unless gpu "no nvcc at $NVCC"
	TMP=$(mktemp -d)
	"$NVCC" -O2 -o "$TMP/cuda-patterns" "$TOP/tests/programs/cuda-patterns.cu"
	tr-record -o "$TMP/cuda" -- "$TMP/cuda-patterns" "$DELAY_MS"
	tr-read "$TMP/cuda" | tr-deps | tr-waits | tr-critpath > "$TMP/cuda.tr"
	tr-cat --check "$TMP/cuda.tr"
}

teardown() {
	rm -rf "${TMP:-/nonexistent}"
}

@test "a real CUDA program: its streams (the null one flagged), kernels, launches with their streams, its NVTX range" {
	cuda_patterns_found "$TMP/cuda.tr"
}

@test "a real CUDA program: the waits it was written to make, within 10 %" {
	cuda_patterns_waits "$TMP/cuda.tr" "$DELAY_MS"
}
