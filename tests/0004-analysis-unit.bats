#!/usr/bin/env bats
# Unit tests of analysis/ (tests/helper/an-unit.c): exact blame splits,
# collective shapes, message matching, the event graph, the least latency
# a trace shows.

load common

@test "blame split: parts add up exactly, leftovers to the largest share" {
	run an-unit split
	assert_success
	assert_output ""
}

@test "collective shapes: whom each member waits for" {
	run an-unit deps
	assert_success
	assert_output ""
}

@test "a collective's shape and root whatever order its members are taken in (least key's shape, greatest key's root)" {
	run an-unit coll-order
	assert_success
	assert_output ""
}

@test "message matching: non-overtaking per tag and comm, either side first" {
	run an-unit p2p
	assert_success
	assert_output ""
}

@test "event graph: lookup by id, stream chains, collection keeps what is marked" {
	run an-unit graph
	assert_success
	assert_output ""
}

@test "least message latency: half the least round trip, the least over pairs of processes" {
	run an-unit latency
	assert_success
	assert_output ""
}

@test "blame on the path: blame times the time on the path over the exclusive time, before or after the share is known" {
	run an-unit pathblame
	assert_success
	assert_output ""
}
