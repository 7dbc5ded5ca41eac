#!/usr/bin/env bats
# tr-project against real MPI runs: bench/accuracy (make bench-project)
# runs a 2-rank program under mpirun that records its own events with real
# timestamps, at two sizes of its compute phase, and projects each run of
# one size to the other. Here once each, briefly: the harness works, the
# recordings go through the whole pipeline, and the projections go the
# way the change does (the accuracy itself: make bench-project on a quiet
# machine, tr-project(1)).

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "${TMP:-/nonexistent}"
}

@test "a real 2-rank MPI run, recorded, projected to half its compute and back" {
	run env RUNS=1 ITERATIONS=40 WORK=4 OUT="$TMP" "$TOP/bench/accuracy/run"
	assert_success
	assert_line --partial "1 runs each, 40 iterations, compute 4 and 2 units on rank 0 (rank 1: 1.5 x)"
	assert_line --regexp '^    error: median [0-9.]+ %, at most [0-9.]+ % \(target: at most the spread\)$'
	# halving the compute shortens the run, doubling it lengthens it (how
	# close to the measured runs is timing, and other tests run beside
	# this one: make bench-project measures it on a quiet machine)
	read -r _ before after < <(grep '^full ' "$TMP/times")
	[ "$after" -lt "$before" ] || fail "compute=0.5: $before ns projected to $after"
	read -r _ before after < <(grep '^half ' "$TMP/times")
	[ "$after" -gt "$before" ] || fail "compute=2: $before ns projected to $after"
	# the recording is a stream the pipeline takes: rank 0 waits for rank 1 (a late sender)
	rec="$TMP/full-1.tr"
	tr-cat --check "$rec"
	run bash -c "tr-waits '$rec' | tr-critpath | tr-rank --json | jq -r 'select(.k == \"wait_summary\") | .pattern'"
	assert_success
	assert_line late_sender
}
