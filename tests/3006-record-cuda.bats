#!/usr/bin/env bats
# The CUDA collector's record handling, fed CUPTI's own structs by
# tests/helper/cupti-feed (no GPU needed): the log it writes, and the
# stream tr-read makes of it, to the ns. Times below are from the NVTX
# range's start, B in cupti-feed.c. Built only where a CUDA toolkit with
# CUPTI is (make says so otherwise); real recordings from an H100 are
# tests/3012's (tests/data/gpu).

load common

setup() {
	[ -x "$TOP/tests/helper/cupti-feed" ] || skip_unless cuda "no CUDA toolkit with CUPTI here: the CUDA collector is not built"
	TMP=$(mktemp -d)
	mkdir "$TMP/cuda"
	TR_RECORD_DIR="$TMP/cuda" cupti-feed
	tr-read -J "$TMP/cuda" > "$TMP/cuda.ndjson"
}

teardown() {
	rm -rf "${TMP:-/nonexistent}"
}

# the records of kind $1 as "field field ..." of the fields $2..., B-relative t
records() {
	local kind=$1
	shift
	jq -r --arg k "$kind" --arg f "$*" -s '
		(map(select(.k == "enter" and .r == 1)) | .[0].t) as $b |
		.[] | select(.k == $k) | . as $r | ($f | split(" ")) | map(if . == "t" then ($r.t - $b) else $r[.] end) |
		map(tostring) | join(" ")' "$TMP/cuda.ndjson"
}

@test "the log: one per process, its streams (the null one flagged) and regions with their roles" {
	run ls "$TMP/cuda"
	assert_output --regexp '^pid-[0-9]+\.trlog$'
	run records stream name type null
	assert_output "$(printf '%s\n' 'Master thread host null' 'CUDA[0:7] gpu true' 'CUDA[0:8] gpu null')"
	run records region name role paradigm dir
	assert_line "solver cpu user null"
	assert_line "jacobi_kernel(float const*, float*, int) kernel cuda null"	# demangled
	assert_line "memcpy DtoH dev_memcpy cuda dtoh"
	assert_line "memset dev_memset cuda null"
	assert_line "cudaLaunchKernel launch cuda null"
	assert_line "cudaStreamSynchronize stream_sync cuda null"
	assert_line "cudaEventRecord event_record cuda null"
	assert_line "cudaStreamWaitEvent stream_wait cuda null"
	assert_line "cudaDeviceSynchronize ctx_sync cuda null"
	tr-cat --check "$TMP/cuda.ndjson"
}

@test "calls get the stream and event they refer to from CUPTI's records, before or after them, by correlation id" {
	# stream ids: 1 is CUDA[0:7], 2 CUDA[0:8]
	run records enter t s r ref_stream cuda_event corr
	assert_line "1000 0 4 1 null 10"	# cudaLaunchKernel: its kernel's stream (activity first)
	assert_line "5000 0 5 1 null 11"	# cudaMemcpyAsync: its copy's
	assert_line "7000 0 6 1 null 12"	# cudaStreamSynchronize: the synchronization's (activity after)
	assert_line "115000 0 7 1 5 13"	# cudaEventRecord: event 5 on stream 7
	assert_line "122000 0 10 2 5 15"	# cudaStreamWaitEvent: stream 8 waits for event 5
	assert_line "124000 0 11 null null 16"	# cudaDeviceSynchronize: the whole device
	assert_line "4000 1 2 null null 10"	# the kernel, with its launch's correlation id
	run records enter t s r bytes
	assert_line "104000 1 3 4096"
	assert_line "119000 2 9 1024"
	run records leave t s r result
	assert_line "114000 1 3 null"
	assert_line "114500 0 6 0"
	assert_line "126000 0 1 null"	# the NVTX range popped
}

@test "the wait states of the recorded calls, to the ns" {
	tr-read "$TMP/cuda" | tr-deps | tr-waits -J > "$TMP/waits.ndjson"
	# the synchronization waits from 7000 until the copy ends at 114000;
	# the kernel is to blame until it ends at 104000, the copy after
	run jq -r 'select(.k == "wait") | "\(.pattern) \(.dur)"' "$TMP/waits.ndjson"
	assert_output "blame_kernel 107000"
	run jq -r 'select(.k == "blame" and .pattern == "blame_kernel") | "\(.r) \(.ns)"' "$TMP/waits.ndjson"
	assert_output "$(printf '2 97000\n3 10000')"
}

@test "a CUDA graph replayed: its three kernels, which carry cudaGraphLaunch's correlation id, each linked to it; the sync waits for the last (issue 56)" {
	mkdir "$TMP/graph"
	TR_RECORD_DIR="$TMP/graph" cupti-feed graph
	run --separate-stderr bash -c "tr-read '$TMP/graph' | tr-deps | tr-waits | tr-cat -J |
		jq -r 'select(.k == \"edge\" or .k == \"wait\") | if .k == \"edge\" then .type else \"\(.pattern) \(.dur)\" end'"
	assert_success
	assert_equal "$stderr" ""
	# the sync waits from 5000 until the third kernel ends at 44000
	assert_output "launch
launch
launch
sync
blame_kernel 39000"
}

@test "a log cut inside a CUDA record: the rest read, the cut counted" {
	log=$(ls "$TMP"/cuda/*.trlog)
	size=$(stat -c %s "$log")
	truncate -s $((size - 20)) "$log"
	run --separate-stderr bash -c "tr-read '$TMP/cuda' | tr-cat --check"
	assert_success
	assert_regex "$stderr" "1 logs cut inside a record"
}

@test "NVTX ranges come from NVTX itself (its header-only nvtx3, no GPU): nested, with NVTX's answers kept" {
	[ -x "$TOP/tests/helper/nvtx-ranges" ] || skip_unless cuda "no CUDA toolkit here: the NVTX helper is not built"
	run --separate-stderr nvtx-ranges
	assert_output "-2 -2 -2 -2 -2"
	run --separate-stderr tr-record -o "$TMP/nvtx" -- "$TOP/tests/helper/nvtx-ranges"
	assert_success
	assert_output "0 1 1 0 -1"
	[ -z "$stderr" ]
	tr-read -J "$TMP/nvtx" > "$TMP/nvtx.ndjson"
	# the program's own region, then outer around inner; the pop too many is not recorded
	run jq -r -s '(map(select(.k == "region")) | map({key: (.id | tostring), value: .name}) | from_entries) as $n |
		.[] | select(.k == "enter" or .k == "leave") | "\(.k) \($n[.r | tostring])"' "$TMP/nvtx.ndjson"
	assert_output "$(printf '%s\n' 'enter nvtx-ranges' 'enter outer' 'enter inner' 'leave inner' 'leave outer' 'leave nvtx-ranges')"
	run jq -r 'select(.k == "region" and .name != "nvtx-ranges") | "\(.name) \(.role) \(.paradigm)"' "$TMP/nvtx.ndjson"
	assert_output "$(printf '%s\n' 'outer cpu user' 'inner cpu user')"
}
