#!/usr/bin/env bats
# tr-cat --check: each rule of docs/stream.md, broken once, is reported
# with its position; a valid stream passes silently.

load common

setup() {
	TMP=$(mktemp -d)
	doc_examples > "$TMP/doc.ndjson"
}

teardown() {
	rm -rf "$TMP"
}

# check_fails SED-SCRIPT WANT: apply the edit to the doc stream; --check must
# fail with exactly "tr-cat: FILE: WANT" and exit 1.
check_fails() {
	sed "$1" "$TMP/doc.ndjson" > "$TMP/s.ndjson"
	run --separate-stderr tr-cat --check "$TMP/s.ndjson"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "tr-cat: $TMP/s.ndjson: $2"
}

@test "a valid stream passes silently, in either form" {
	run --separate-stderr tr-cat --check "$TMP/doc.ndjson"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	tr-cat -M "$TMP/doc.ndjson" > "$TMP/doc.tr"
	run --separate-stderr tr-cat -c "$TMP/doc.tr"
	assert_success
	assert_equal "$stderr" ""
}

@test "msgpack positions are record and byte" {
	sed '2s/"name":"MPI Rank 0",//' "$TMP/doc.ndjson" | tr-cat -M > "$TMP/s.tr"
	hdr=$(head -1 "$TMP/doc.ndjson" | tr-cat -M | wc -c)
	run --separate-stderr tr-cat --check "$TMP/s.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $TMP/s.tr: record 2 (byte $hdr): process without required field \"name\""
}

@test "the stream must start with a header" {
	check_fails 1d 'line 1: stream does not start with a header'
}

@test "a second header is refused" {
	check_fails '2{h;s/.*/{"k":"header","major":1,"minor":0,"producer":"x","clock":"ns"}/;G}' \
		'line 2: a header that is not the first record (two streams one after the other: join them with tr-cat)'
}

@test "the clock must be ns" {
	check_fails '1s/"clock":"ns"/"clock":"us"/' 'line 1: header field "clock" has unknown value "us"'
}

@test "a required field is missing" {
	check_fails '/"id":4,"t":1800/s/"r":4,//' 'line 22: enter without required field "r"'
}

@test "a field has the wrong type" {
	check_fails '/"id":4,"t":1800/s/"t":1800/"t":"1800"/' 'line 22: enter field "t" is not a time in [-2^62, 2^62) ns'
	check_fails '/"id":4,"t":1800/s/"id":4/"id":-4/' 'line 22: enter field "id" is not a non-negative integer'
	# in the range, but a float: said as one (turn4)
	check_fails '/"id":4,"t":1800/s/"t":1800/"t":1.8e3/' 'line 22: enter field "t" is 1800, a number with a fraction or an exponent: give it as a time in [-2^62, 2^62) ns written in digits'
	check_fails '/"k":"measure","id":30/s/"on":false/"on":0/' 'line 48: measure field "on" is not a boolean'
	check_fails '/"k":"comm"/s/"members":\[0,1\]/"members":[0,"1"]/' 'line 15: comm field "members" is not an array of non-negative integers'
}

@test "an unknown role, stream type or pattern is refused" {
	check_fails 's/"role":"kernel"/"role":"kernal"/' 'line 11: region field "role" has unknown value "kernal"'
	check_fails '4s/"type":"host"/"type":"cpu"/' 'line 4: stream field "type" has unknown value "cpu"'
	check_fails 's/"pattern":"late_sender","s"/"pattern":"late","s"/' 'line 58: wait field "pattern" has unknown value "late"'
}

@test "definitions must come before use" {
	check_fails '/"id":4,"t":1800/s/"s":1/"s":9/' 'line 22: enter field "s" names undefined stream 9'
	check_fails '/"id":4,"t":1800/s/"r":4/"r":99/' 'line 22: enter field "r" names undefined region 99'
	check_fails '/"k":"comm"/s/\[0,1\]/[0,5]/' 'line 15: comm field "members" names undefined process 5'
	check_fails '/"CUDA_COMM"/s/"streams":\[1\]/"streams":[9]/' 'line 16: comm field "streams" names undefined stream 9'
	check_fails '/"k":"send"/s/"comm":0/"comm":3/' 'line 26: send field "comm" names undefined comm 3'
	check_fails '/"k":"sample"/s/"counter":0/"counter":1/' 'line 50: sample field "counter" names undefined counter 1'
}

@test "ids must be unique" {
	check_fails '/"id":4,"t":1800/s/"id":4/"id":3/' 'line 22: enter id 3 is not unique'
	check_fails '3s/"id":1/"id":0/' 'line 3: process id 0 is not unique'
}

@test "a list names each of its items once" {
	check_fails '/"k":"comm"/s/\[0,1\]/[0,1,0]/' 'line 15: comm field "members" lists 0 twice'
	check_fails '/"CUDA_COMM"/s/"streams":\[1\]/"streams":[1,1]/' 'line 16: comm field "streams" lists 1 twice'
	check_fails '/"k":"instance"/s/\[16,18\]/[16,16]/' 'line 57: instance field "acts" lists 16 twice'
}

@test "events must be in time order, then stream order" {
	check_fails '/"id":4,"t":1800/s/"t":1800/"t":1600/' \
		'line 22: enter at t=1600 on stream 1 comes after t=1700 on stream 0 (events must be ordered by time, then stream)'
	check_fails '/"id":1,"t":1000/s/"s":2/"s":0/;/"id":0,"t":1000/s/"s":0/"s":2/' \
		'line 19: enter at t=1000 on stream 0 comes after t=1000 on stream 2 (events must be ordered by time, then stream)'
}

@test "derived records must point at earlier events" {
	check_fails 's/"from":8,"to":10/"from":8,"to":99/' 'line 53: edge field "to" points at event 99, which is not earlier in the stream'
	check_fails 's/"k":"blame","to":1/"k":"blame","to":100/' 'line 60: blame field "to" points at event 100, which is not earlier in the stream'
}

@test "strings must be valid UTF-8" {
	printf '%s\n' "$(head -1 "$TMP/doc.ndjson")" > "$TMP/s.ndjson"
	printf '{"k":"process","id":0,"name":"bad \xff"}\n' >> "$TMP/s.ndjson"
	run --separate-stderr tr-cat --check "$TMP/s.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $TMP/s.ndjson: line 2: process field \"name\" is not valid UTF-8"
}

@test "unknown kinds and fields are valid" {
	sed '2s/}$/,"mine":[1,{"x":null}]}/; 3a{"k":"my_kind","whatever":true}' "$TMP/doc.ndjson" > "$TMP/s.ndjson"
	run --separate-stderr tr-cat --check "$TMP/s.ndjson"
	assert_success
	assert_equal "$stderr" ""
}

@test "only the first problem of an input is reported; each input is checked alone" {
	sed '/"id":4,"t":1800/s/"r":4,//; /"id":5,"t":1900/s/"r":4,//' "$TMP/doc.ndjson" > "$TMP/s.ndjson"
	run --separate-stderr tr-cat --check "$TMP/s.ndjson" "$TMP/doc.ndjson" "$TMP/s.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $TMP/s.ndjson: line 22: enter without required field \"r\"
tr-cat: $TMP/s.ndjson: line 22: enter without required field \"r\""
}

@test "an empty input is not a valid stream" {
	run --separate-stderr tr-cat --check < /dev/null
	assert_failure 1
	assert_equal "$stderr" "tr-cat: <stdin>: stream is empty (no header)"
}
