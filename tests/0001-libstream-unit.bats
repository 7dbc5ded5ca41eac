#!/usr/bin/env bats
# libstream's C unit tests (tests/helper/ls-unit.c), one group per test.

load common

# The group passes with nothing on stderr (failed checks are printed there).
group_passes() {
	run --separate-stderr ls-unit "$1"
	assert_success
	assert_equal "$stderr" ""
}

@test "msgpack heads, skipping, truncation and nesting limits" {
	group_passes mp
}

@test "record views: fields, typed getters, odd encodings, malformed maps" {
	group_passes record
}

@test "records of kinds a stage does not read are framed, not indexed, and still checked" {
	group_passes skim
}

@test "packed records unpack to the view parsing made (and skimmed, to their kind); padded parsing is parsing" {
	group_passes packed
}

@test "reader front: (t, s) order in memory, with the reader's word and through runs on disk; selection; a shard's processes (a block of them, or by modulo); a spill or a merge that fails is said; no file left" {
	mkdir "$BATS_TEST_TMPDIR/tmp"
	TMPDIR="$BATS_TEST_TMPDIR/tmp" group_passes front
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR/tmp")" ""
}

@test "external sort: in order, equal records as added, in memory and through runs on disk; a run that cannot be made is said; no file left" {
	mkdir "$BATS_TEST_TMPDIR/tmp"
	TMPDIR="$BATS_TEST_TMPDIR/tmp" group_passes xsort
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR/tmp")" ""
}

@test "reader front: the runs it writes to disk hold no uninitialized byte (valgrind)" {
	unit=$(command -v ls-unit)
	if grep -qa -e __asan_init -e __tsan_init "$unit"; then
		skip_unless valgrind "a sanitizer build: valgrind cannot run it (the plain build checks this)"
	fi
	mkdir "$BATS_TEST_TMPDIR/tmp"
	TMPDIR="$BATS_TEST_TMPDIR/tmp" run valgrind -q --error-exitcode=9 "$unit" front
	assert_success
	assert_output ""
}

@test "id map: puts, gets and deletes agree with a plain array" {
	group_passes idmap
}

@test "JSON to msgpack and back, judged against msgpack-c's own packing" {
	group_passes json
}

@test "the encoder writes what msgpack-c's packer writes, byte for byte" {
	group_passes enc
}

@test "id sets" {
	group_passes idset
}

@test "id sets keep consecutive ids as one run, and agree with a bitmap on ids in no order" {
	group_passes idset-runs
}

@test "schema name tables agree with each other" {
	group_passes schema
}

@test "pipes between stages get 1 MiB where the system allows it" {
	group_passes pipe
}

@test "a record built with fewer fields than ls_build_begin was told stops a checked build (DEV=1, sanitizers)" {
	run --separate-stderr ls-unit build-miscount
	[ "$output" != unchecked ] || skip_unless unchecked "built without LS_CHECK_BUILD (make DEV=1 checks)"
	assert_failure 134
	assert_equal "$stderr" "ls_build_end: the record built does not hold the 3 fields ls_build_begin was given"
}
