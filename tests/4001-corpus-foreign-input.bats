#!/usr/bin/env bats
# Real files of other formats from the shared corpus are not record streams:
# tr-cat must say so in one line and exit 1, never crash or hang.

load common

setup() {
	corpus_setup
}

teardown() {
	corpus_teardown
}

# refused FILE: tr-cat reads it, writes nothing, says one line, exits 1.
refused() {
	run --separate-stderr tr-cat -J "$1"
	assert_failure 1
	assert_output ""
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
	[[ "$stderr" == "tr-cat: $1: "* ]]
}

@test "Kineto JSON traces are refused with one line" {
	for gz in "$CORPUS"/kineto/*/*.json.gz; do
		zcat "$gz" > "$TMP/trace.json"
		refused "$TMP/trace.json"
	done
}

@test "Nsight Systems SQLite exports are refused with one line" {
	for db in "$CORPUS"/nsys/*.sqlite; do
		refused "$db"
		assert_equal "$stderr" "tr-cat: $db: not a record stream (it starts with neither a msgpack map nor a JSON object)"
	done
}

@test "OTF2 anchor, definition and event files are refused with one line" {
	for dir in "$CORPUS"/otf2/*/; do
		refused "$dir/traces.otf2"
		refused "$dir/traces.def"
		refused "$(ls "$dir"/traces/*.evt | head -1)"
	done
}
