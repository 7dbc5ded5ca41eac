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
	assert_line --index 0 "usage: tr-cat [-chJM] [file ...]"
	assert_line --partial "-c, --check"
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

@test "concatenation keeps the first header and drops the later ones, and the inner trailers" {
	{ head -2 "$TMP/doc.ndjson"; echo '{"k":"trailer"}'; } > "$TMP/a.ndjson"
	{ head -1 "$TMP/doc.ndjson" | sed 's/"tr-read 0.1"/"other"/'; sed -n 3p "$TMP/doc.ndjson"
	  echo '{"k":"trailer"}'; } > "$TMP/b.ndjson"
	run --separate-stderr tr-cat -J "$TMP/a.ndjson" "$TMP/b.ndjson"
	assert_success
	assert_output "$(head -3 "$TMP/doc.ndjson"; echo '{"k":"trailer"}')"
}

@test "a stream cut short is reported, what came before is written, and no trailer" {
	head -3 "$TMP/doc.ndjson" > "$TMP/cut.ndjson"
	run --separate-stderr tr-cat -J "$TMP/cut.ndjson"
	assert_failure 1
	assert_output "$(head -3 "$TMP/doc.ndjson")"
	assert_equal "$stderr" "tr-cat: $TMP/cut.ndjson: the stream ends at line 3 without its trailer: it was cut short (did a tool before this one fail?)"
	tr-cat -M "$TMP/cut.ndjson" > "$TMP/cut.tr" 2>/dev/null || true
	run --separate-stderr tr-cat -J "$TMP/cut.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $TMP/cut.tr: the stream ends at record 3 (byte $(head -2 "$TMP/doc.ndjson" | tr-cat -M 2>/dev/null | wc -c)) without its trailer: it was cut short (did a tool before this one fail?)"
}

@test "a record after the trailer (streams joined by cat) is refused" {
	cat "$TMP/doc.tr" "$TMP/doc.tr" > "$TMP/twice.tr"
	run --separate-stderr tr-cat -J "$TMP/twice.tr"
	assert_failure 1
	n=$(wc -l < "$TMP/doc.ndjson")
	size=$(stat -c %s "$TMP/doc.tr")
	assert_equal "$stderr" "tr-cat: $TMP/twice.tr: record $((n + 1)) (byte $size): a record after the stream's trailer (two streams one after the other: join them with tr-cat)"
}

@test "a stream without a header gets a fresh one" {
	sed 1d "$TMP/doc.ndjson" | head -2 > "$TMP/nohead.ndjson"
	run --separate-stderr tr-cat -J "$TMP/nohead.ndjson"
	assert_success
	# tr-cat does not analyse: it is in no stages list (turn3 F13)
	assert_line --index 0 '{"k":"header","major":1,"minor":1,"producer":"tr-cat 0.1.0","clock":"ns"}'
	assert_line --index 1 "$(sed -n 2p "$TMP/doc.ndjson")"
	assert_line --index 3 '{"k":"trailer"}'
}

@test "empty input gives a stream of just a header and a trailer" {
	run --separate-stderr tr-cat -J < /dev/null
	assert_success
	assert_output '{"k":"header","major":1,"minor":1,"producer":"tr-cat 0.1.0","clock":"ns"}
{"k":"trailer"}'
}

@test "blank lines in NDJSON are skipped" {
	{ head -1 "$TMP/doc.ndjson"; echo; echo "   "; sed -n 2p "$TMP/doc.ndjson"; tail -1 "$TMP/doc.ndjson"; } > "$TMP/blank.ndjson"
	run --separate-stderr tr-cat -J "$TMP/blank.ndjson"
	assert_success
	assert_output "$(head -2 "$TMP/doc.ndjson"; tail -1 "$TMP/doc.ndjson")"
}

@test "a missing file is reported, the next file is still read, exit 1, no trailer" {
	run --separate-stderr tr-cat -J "$TMP/missing.tr" "$TMP/doc.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $TMP/missing.tr: No such file or directory"
	assert_output "$(head -n -1 "$TMP/doc.ndjson")"
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
	sed '1s/"minor":1/"minor":7/' "$TMP/doc.ndjson" > "$TMP/v17.ndjson"
	run --separate-stderr tr-cat -J "$TMP/v17.ndjson"
	assert_success
	assert_output "$(cat "$TMP/v17.ndjson")"
}

@test "a value JSON cannot hold is an error on NDJSON output" {
	# the stream up to its trailer (tr-cat says it is cut), a record with a
	# binary value, the trailer
	{ head -n -1 "$TMP/doc.ndjson" | tr-cat -M 2> /dev/null || true
	  printf '\x82\xa1k\xa1x\xa1b\xc4\x01\x00\x81\xa1k\xa7trailer'; } > "$TMP/bin.tr"
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
	assert_output '{"k":"header","major":1,"minor":1,"producer":"ls-bench","clock":"ns","stages":[{"tool":"ls-bench","version":"0.1.0","args":[]}]}'
	assert_equal "$stderr" ""
}
