# What tests/programs/cuda-patterns.cu was written to make, checked on an
# analysed stream of its run with DELAY ms: by tests/3008 on a run it
# records where a GPU is, by tests/3012 on the H100's (tests/data/gpu).

# "pattern ns region" of each wait of stream file $1
waits_of() {
	tr-cat -J "$1" | jq -r -s '(map(select(.k == "region")) | map({key: (.id | tostring), value: .name}) | from_entries) as $n |
		.[] | select(.k == "wait" or .k == "idle") | "\(.pattern) \(.dur) \($n[.r | tostring])"'
}

# fail unless $1 is within 10 % of $2, saying $3
near() {
	[ -n "$1" ] && [ "$1" -ge $(($2 * 9 / 10)) ] && [ "$1" -le $(($2 * 11 / 10)) ] ||
		fail "$3: '$1' ns, not within 10 % of $2"
}

# Its streams (the null one flagged), its kernels (demangled), the
# launches' streams, its NVTX range, in stream file $1.
cuda_patterns_found() {
	local f=$1
	run bash -c "tr-cat -J '$f' | jq -r 'select(.k == \"stream\" and .type == \"gpu\") | .null // false' | sort | uniq -c | tr -s ' '"
	assert_output "$(printf ' 2 false\n 1 true')"
	run bash -c "tr-cat -J '$f' | jq -r -s '(map(select(.k == \"region\")) | map({key: (.id | tostring), value: .}) | from_entries) as \$r |
		.[] | select(.k == \"enter\" and \$r[.r | tostring].role == \"kernel\") | \$r[.r | tostring].name' | uniq -c | tr -s ' '"
	assert_output " 4 spin(unsigned long long)"
	run bash -c "tr-cat -J '$f' | jq -rs '(map(select(.k == \"region\")) | map({key: (.id | tostring), value: .role}) | from_entries) as \$r |
		[.[] | select(.k == \"enter\" and \$r[.r | tostring] == \"launch\") | .ref_stream != null] | \"\(length) \(unique)\"'"
	assert_output "4 [true]"
	run bash -c "tr-cat -J '$f' | jq -r 'select(.k == \"region\" and .paradigm == \"user\") | .name'"
	assert_output "$(printf 'cuda-patterns\nsolve')"
}

# Its waits in stream file $1, run with $2 ms, within 10 %: a kernel of
# DELAY on stream a, synchronized at once: the host waits DELAY in
# cudaStreamSynchronize. A kernel of DELAY/2 on a, an event after it,
# stream b waits for the event: b's 1 ms kernel waits DELAY/2
# (stream_wait). A 1 ms kernel on the null stream waits for both, once:
# DELAY/2 + 1 ms (null_stream). cudaDeviceSynchronize waits for all:
# DELAY/2 + 2 ms.
cuda_patterns_waits() {
	local w=$BATS_TEST_TMPDIR/waits ms=$2
	waits_of "$1" | awk '$1 != "gpu_idle"' > "$w"
	assert_equal "$(wc -l < "$w")" 4
	near "$(awk '$1 == "blame_kernel" && $3 == "cudaStreamSynchronize" { print $2 }' "$w")" $((ms * 1000000)) \
		"cudaStreamSynchronize"
	near "$(awk '$1 == "stream_wait" { print $2 }' "$w")" $((ms * 500000)) "stream b's kernel"
	near "$(awk '$1 == "null_stream" { print $2 }' "$w")" $((ms * 500000 + 1000000)) "the null stream's kernel"
	near "$(awk '$1 == "blame_kernel" && $3 == "cudaDeviceSynchronize" { print $2 }' "$w")" $((ms * 500000 + 2000000)) \
		"cudaDeviceSynchronize"
}
