#!/usr/bin/env bats
# libstream's C unit tests (tests/helper/ls-unit.c), one group per test.

load common

@test "msgpack heads, skipping, truncation and nesting limits" {
	run --separate-stderr ls-unit mp
	assert_success
	assert_equal "$stderr" ""
}

@test "record views: fields, typed getters, odd encodings, malformed maps" {
	run --separate-stderr ls-unit record
	assert_success
	assert_equal "$stderr" ""
}

@test "JSON to msgpack and back, judged against msgpack-c's own packing" {
	run --separate-stderr ls-unit json
	assert_success
	assert_equal "$stderr" ""
}

@test "id sets" {
	run --separate-stderr ls-unit idset
	assert_success
	assert_equal "$stderr" ""
}

@test "schema name tables agree with each other" {
	run --separate-stderr ls-unit schema
	assert_success
	assert_equal "$stderr" ""
}
