#!/usr/bin/env bats
# tr-cat: conversion, concatenation, headers, and every failure path.

load common

setup() {
	TMP=$(mktemp -d)
	doc_examples > "$TMP/doc.ndjson"
	tr-cat -M "$TMP/doc.ndjson" > "$TMP/doc.tr"
}

teardown() {
	rm -rf "$TMP"
}

@test "-h prints the usage on stdout and exits 0" {
	run --separate-stderr tr-cat -h
	assert_success
	assert_output "usage: tr-cat [-chJM] [file ...]"
	assert_equal "$stderr" ""
}

@test "an unknown option prints the usage on stderr and exits 2" {
	run --separate-stderr tr-cat -x
	assert_failure 2
	assert_output ""
	[[ "$stderr" == *$'\n'"usage: tr-cat [-chJM] [file ...]" ]]
}

@test "-J and -M together are a usage error" {
	run --separate-stderr tr-cat -J -M "$TMP/doc.tr"
	assert_failure 2
	[[ "$stderr" == "tr-cat: -J and -M exclude each other"* ]]
}

@test "no operand and - both read stdin" {
	run --separate-stderr tr-cat -J < "$TMP/doc.tr"
	assert_success
	assert_output "$(cat "$TMP/doc.ndjson")"
	run --separate-stderr tr-cat -J - < "$TMP/doc.tr"
	assert_success
	assert_output "$(cat "$TMP/doc.ndjson")"
}

@test "msgpack is the default output when stdout is not a terminal" {
	tr-cat "$TMP/doc.ndjson" > "$TMP/out.tr"
	cmp "$TMP/out.tr" "$TMP/doc.tr"
}

@test "concatenation keeps the first header and drops the later ones" {
	head -2 "$TMP/doc.ndjson" > "$TMP/a.ndjson"
	{ head -1 "$TMP/doc.ndjson" | sed 's/"hand"/"other"/'; sed -n 3p "$TMP/doc.ndjson"; } > "$TMP/b.ndjson"
	run --separate-stderr tr-cat -J "$TMP/a.ndjson" "$TMP/b.ndjson"
	assert_success
	assert_output "$(head -3 "$TMP/doc.ndjson")"
}

@test "a stream without a header gets a fresh one" {
	sed 1d "$TMP/doc.ndjson" | head -2 > "$TMP/nohead.ndjson"
	run --separate-stderr tr-cat -J "$TMP/nohead.ndjson"
	assert_success
	assert_line --index 0 '{"k":"header","major":1,"minor":0,"producer":"tr-cat","clock":"ns"}'
	assert_line --index 1 "$(sed -n 2p "$TMP/doc.ndjson")"
}

@test "empty input gives a stream of just a header" {
	run --separate-stderr tr-cat -J < /dev/null
	assert_success
	assert_output '{"k":"header","major":1,"minor":0,"producer":"tr-cat","clock":"ns"}'
}

@test "blank lines in NDJSON are skipped" {
	{ head -1 "$TMP/doc.ndjson"; echo; echo "   "; sed -n 2p "$TMP/doc.ndjson"; } > "$TMP/blank.ndjson"
	run --separate-stderr tr-cat -J "$TMP/blank.ndjson"
	assert_success
	assert_output "$(head -2 "$TMP/doc.ndjson")"
}

@test "a missing file is reported, the next file is still read, exit 1" {
	run --separate-stderr tr-cat -J "$TMP/missing.tr" "$TMP/doc.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $TMP/missing.tr: No such file or directory"
	assert_output "$(cat "$TMP/doc.ndjson")"
}

@test "truncated msgpack: valid records before it are written, error names record and byte" {
	size=$(stat -c %s "$TMP/doc.tr")
	head -c $((size - 3)) "$TMP/doc.tr" > "$TMP/cut.tr"
	n=$(wc -l < "$TMP/doc.ndjson")
	at=$(head -n $((n - 1)) "$TMP/doc.ndjson" | tr-cat -M | wc -c)
	run --separate-stderr tr-cat -J "$TMP/cut.tr"
	assert_failure 1
	assert_output "$(head -n $((n - 1)) "$TMP/doc.ndjson")"
	assert_equal "$stderr" "tr-cat: $TMP/cut.tr: record $n (byte $at): input ends inside the record"
}

@test "garbage msgpack is a syntax error with its position" {
	{ cat "$TMP/doc.tr"; printf '\x93\x01\x02\x03'; } > "$TMP/bad.tr"
	run --separate-stderr tr-cat -J "$TMP/bad.tr"
	assert_failure 1
	n=$(wc -l < "$TMP/doc.ndjson")
	size=$(stat -c %s "$TMP/doc.tr")
	assert_equal "$stderr" "tr-cat: $TMP/bad.tr: record $((n + 1)) (byte $size): record is not a msgpack map"
}

@test "malformed NDJSON names line and column" {
	{ head -3 "$TMP/doc.ndjson"; echo '{"k":"enter","id":1,}'; } > "$TMP/bad.ndjson"
	run --separate-stderr tr-cat -J "$TMP/bad.ndjson"
	assert_failure 1
	assert_output "$(head -3 "$TMP/doc.ndjson")"
	assert_equal "$stderr" "tr-cat: $TMP/bad.ndjson: line 4, column 21: expected a string key"
}

@test "a JSON line that is not an object, or has no kind, is refused" {
	{ head -1 "$TMP/doc.ndjson"; printf '[1,2]\n'; } > "$TMP/arr.ndjson"
	run --separate-stderr tr-cat -J "$TMP/arr.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $TMP/arr.ndjson: line 2: record is not a JSON object"
	printf '{"id":1}\n' > "$TMP/nok.ndjson"
	run --separate-stderr tr-cat -J "$TMP/nok.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $TMP/nok.ndjson: line 1: record has no kind \"k\""
}

@test "a file that is no record stream at all is named as such" {
	printf 'SQLite format 3\0' > "$TMP/db"
	printf 'x\0\0\0' > "$TMP/bin"
	for f in "$TMP/db" "$TMP/bin"; do
		run --separate-stderr tr-cat -J "$f"
		assert_failure 1
		assert_equal "$stderr" "tr-cat: $f: not a record stream (it starts with neither a msgpack map nor a JSON object)"
	done
}

@test "a newer major version is refused with a clear message" {
	echo '{"k":"header","major":2,"minor":1,"producer":"future","clock":"ns"}' > "$TMP/v2.ndjson"
	run --separate-stderr tr-cat -J "$TMP/v2.ndjson"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "tr-cat: $TMP/v2.ndjson: line 1: stream format 2.1 is newer than this tool reads (1.x)"
}

@test "a newer minor version is read" {
	sed '1s/"minor":0/"minor":7/' "$TMP/doc.ndjson" > "$TMP/v17.ndjson"
	run --separate-stderr tr-cat -J "$TMP/v17.ndjson"
	assert_success
	assert_output "$(cat "$TMP/v17.ndjson")"
}

@test "a value JSON cannot hold is an error on NDJSON output" {
	{ cat "$TMP/doc.tr"; printf '\x82\xa1k\xa1x\xa1b\xc4\x01\x00'; } > "$TMP/bin.tr"
	run --separate-stderr tr-cat -J "$TMP/bin.tr"
	assert_failure 1
	[[ "$stderr" == "tr-cat: $TMP/bin.tr: record "*"has a value JSON cannot hold"* ]]
	run --separate-stderr tr-cat -M "$TMP/bin.tr"
	assert_success
}

@test "writing to a full disk fails with exit 1" {
	run --separate-stderr bash -c 'tr-cat -J "$1" > /dev/full' _ "$TMP/doc.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: <stdout>: No space left on device"
}

@test "a closed pipe ends tr-cat quietly" {
	ls-bench gen 200000 "$TMP/big.tr"
	run --separate-stderr bash -c 'tr-cat -J "$1" | head -1' _ "$TMP/big.tr"
	assert_success
	assert_output '{"k":"header","major":1,"minor":0,"producer":"ls-bench","clock":"ns"}'
	assert_equal "$stderr" ""
}
