#!/usr/bin/env bats
# tr-read on the Kineto traces of the shared corpus (Holistic Trace
# Analysis's test traces, recorded by PyTorch's profiler): every one
# through every stage; the GPU edges against tests/helper/kineto-edges.py,
# which counts them from the JSON itself by Python's own reader.

load common

setup() {
	corpus_setup
}

teardown() {
	corpus_teardown
}

# tr-read DIR, then every stage to tr-rank and tr-otf2: each must succeed.
whole_pipeline() {
	local dir=$1 name
	name=$(basename "$dir")
	tr-read "$dir" > "$TMP/$name.tr" 2> "$TMP/$name.read.err" || fail "tr-read $name: $(cat "$TMP/$name.read.err")"
	run --separate-stderr tr-cat --check "$TMP/$name.tr"
	assert_success
	# every stage's status, not the last one's only (a failing tr-deps or
	# tr-waits went unnoticed: turn4's test gaps)
	(set -o pipefail; tr-deps < "$TMP/$name.tr" 2> "$TMP/$name.deps.err" | tr-waits | tr-critpath > "$TMP/$name.an") ||
		fail "$name: the stages failed: $(cat "$TMP/$name.deps.err")"
	tr-rank < "$TMP/$name.an" > "$TMP/$name.rank" || fail "tr-rank $name"
	tr-otf2 -o "$TMP/$name-otf2" < "$TMP/$name.an" 2> /dev/null || fail "tr-otf2 $name"
	[ -f "$TMP/$name-otf2.otf2" ] || fail "no archive for $name"
}

@test "every Kineto trace of the corpus goes through every stage" {
	for dir in "$CORPUS"/kineto/*/; do
		whole_pipeline "${dir%/}"
	done
}

@test "hta-simple_add, hta-cuda_event_sync(_multi_stream): every kernel linked to its launch, every synchronization to what it waited for" {
	for name in hta-simple_add hta-cuda_event_sync hta-cuda_event_sync_multi_stream; do
		file=$(ls "$CORPUS/kineto/$name"/*.json.gz)
		kineto-edges.py "$file" | grep -v ' 0$' | sort > "$TMP/want"
		tr-read "$file" 2>/dev/null | tr-deps 2>/dev/null | tr-cat -J |
			jq -r 'select(.k == "edge").type' | sort | uniq -c | awk '{ print $2, $1 }' > "$TMP/got"
		run diff "$TMP/want" "$TMP/got"
		assert_success
	done
	# and the counts themselves, as the files give them (jq over the JSON):
	# simple_add's 79 kernels, 16 copies and 3 sets each have their launch
	run bash -c "zcat '$CORPUS'/kineto/hta-simple_add/*.json.gz | jq '[.traceEvents[] | select(.cat | IN(\"kernel\", \"gpu_memcpy\", \"gpu_memset\"))] | length'"
	assert_output 98
	run kineto-edges.py "$(ls "$CORPUS"/kineto/hta-simple_add/*.json.gz)"
	assert_output "launch 98
sync 29
event 0
stream_wait 6"
}

@test "hta-simple_add: two cudaMemsetAsync of no GPU activity are API calls; the read counts what the file holds" {
	run --separate-stderr tr-read --stats "$CORPUS/kineto/hta-simple_add"
	assert_success
	[[ "$stderr" == *"kernel                                 79          0"* ]] || fail "$stderr"
	[[ "$stderr" == *"cuda_runtime                          331          0"* ]] || fail "$stderr"
	[[ "$stderr" == *"s, f (flows: as correlation)            0        470"* ]] || fail "$stderr"
	run bash -c "tr-read '$CORPUS/kineto/hta-simple_add' 2>/dev/null | tr-cat -J | jq -sr '[.[] | select(.k == \"region\" and (.name | startswith(\"(no GPU activity\")))] as \$r | [.[] | select(.k == \"enter\" and (.r | IN(\$r[].id)))] | length'"
	assert_output 2
}

@test "hta-sampled-2rank (2 of 128 ranks, NCCL kernels without metadata): what is missing for matching is said once" {
	run --separate-stderr tr-read "$CORPUS/kineto/hta-sampled-2rank"
	assert_success
	assert_equal "$stderr" "tr-read: $CORPUS/kineto/hta-sampled-2rank: 126 ranks of the run (distributedInfo's world_size) without a trace given
tr-read: $CORPUS/kineto/hta-sampled-2rank: 20 NCCL kernels without the collective's name, process group and sequence number (PyTorch 2.x's profiler writes them): not matched across ranks"
	run bash -c "zcat '$CORPUS'/kineto/hta-sampled-2rank/*.json.gz | jq -s '[.[].traceEvents[] | select(.cat == \"kernel\" and (.name | startswith(\"nccl\")))] | length'"
	assert_output 20
}

@test "hta-sampled-2rank: the path resting in ## backward ## while the autograd thread launches is said once, naming both threads (turn4's case 3)" {
	# a main thread (tid 4045) waits in ## backward ## (0.446 s on the
	# path: nearly all of the region's 0.4458 s in the rating, which adds
	# up both ranks) while its autograd thread (tid 23704) launches the
	# backward kernels; the trace has no event of their join
	run --separate-stderr tr-analyze -q "$CORPUS/kineto/hta-sampled-2rank"
	assert_success
	[[ "$stderr" == *"0.445735000 s of the path (36.0 %) is in plain code on stream 7 (thread 4045 (python3.8)) while stream 8 (thread 23704 (python3.8)) of its process made 503 GPU calls"* ]] ||
		fail "$stderr"
	assert_regex "$output" $'\n''   1  ## backward ##  .* 0\.445829000  35\.99%'
}
