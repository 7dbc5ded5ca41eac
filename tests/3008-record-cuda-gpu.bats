#!/usr/bin/env bats
# tr-record on a real CUDA program (tests/programs/cuda-patterns.cu), on a
# machine with an NVIDIA GPU, nvcc and the CUDA collector; skipped
# elsewhere, saying why. The waits are the kernels' known lengths (they
# spin on the GPU's global timer), within 10 %.

load common

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

# the ns of waiting (or idleness) of pattern $1
waited() {
	tr-cat -J "$TMP/cuda.tr" | jq -s --arg p "$1" '[.[] | select((.k == "wait" or .k == "idle") and .pattern == $p) | .dur] | add // 0'
}

@test "a real CUDA program: its streams (the null one flagged), kernels, launches with their streams, its NVTX range" {
	run bash -c "tr-cat -J '$TMP/cuda.tr' | jq -r 'select(.k == \"stream\" and .type == \"gpu\") | .null // false' | sort | uniq -c | tr -s ' '"
	assert_line --regexp '^ [0-9]+ false$'
	assert_line ' 1 true'
	run bash -c "tr-cat -J '$TMP/cuda.tr' | jq -rs '(map(select(.k == \"region\")) | map({key: (.id | tostring), value: .role}) | from_entries) as \$r |
		[.[] | select(.k == \"enter\" and \$r[.r | tostring] == \"launch\") | .ref_stream != null] | unique'"
	assert_output '[
  true
]'
	run bash -c "tr-cat -J '$TMP/cuda.tr' | jq -r 'select(.k == \"region\" and .role == \"kernel\") | .name'"
	assert_output --partial spin
	run bash -c "tr-cat -J '$TMP/cuda.tr' | jq -r 'select(.k == \"region\" and .paradigm == \"user\") | .name'"
	assert_line solve
}

@test "a real CUDA program: the host waits the kernel's length in cudaStreamSynchronize, stream b the other's in its stream wait" {
	got=$(waited blame_kernel) want=$((DELAY_MS * 1000000))
	[ "$got" -ge $((want * 9 / 10)) ] && [ "$got" -le $((want * 12 / 10)) ] || fail "blame_kernel $got ns for $want"
	got=$(waited stream_wait) want=$((DELAY_MS * 500000))
	[ "$got" -ge $((want * 8 / 10)) ] && [ "$got" -le $((want * 11 / 10)) ] || fail "stream_wait $got ns for $want"
}
