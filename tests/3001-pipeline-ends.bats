#!/usr/bin/env bats
# A pipeline's stream says how it was made and whether it is whole: the
# header's stages (each tool adds itself; a stage refuses a stream that
# has not been through what it needs) and the trailer (a stage that fails
# writes none, so the next one sees the cut, jq in the middle or not).

load common

setup_file() {
	export FIX="$BATS_FILE_TMPDIR/fix"
	gen-otf2 -r 2 -t 2 -i 4 "$FIX/trace"
}

setup() {
	TMP=$(mktemp -d)
	set -o pipefail
}

teardown() {
	rm -rf "$TMP"
}

@test "each tool adds itself to the header's stages, with its arguments; the stream ends with a trailer" {
	tr-read -M "$FIX/trace.otf2" | tr-deps | tr-waits --summary | tr-critpath -j 2 -J > "$TMP/out"
	run jq -c 'select(.k == "header") | [.minor, (.stages[] | [.tool, .version] + .args)]' "$TMP/out"
	assert_output "[1,[\"tr-read\",\"0.1.0\",\"-M\",\"$FIX/trace.otf2\"],[\"tr-deps\",\"0.1.0\"],[\"tr-waits\",\"0.1.0\",\"--summary\"],[\"tr-critpath\",\"0.1.0\",\"-j\",\"2\",\"-J\"]]"
	run tail -1 "$TMP/out"
	assert_output '{"k":"trailer"}'
	run tr-cat --check "$TMP/out"
	assert_success
}

@test "a stage on a stream that has not been through what it needs says what to run first" {
	tr-read -M "$FIX/trace.otf2" > "$TMP/read.tr"
	tr-deps "$TMP/read.tr" > "$TMP/deps.tr"
	tr-waits "$TMP/deps.tr" > "$TMP/waits.tr"
	run --separate-stderr tr-waits "$TMP/read.tr"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "tr-waits: $TMP/read.tr: record 1 (byte 0): the stream has not been through tr-deps: run it before tr-waits (tr-read TRACE | tr-deps | tr-waits | tr-critpath | tr-rank)"
	run --separate-stderr tr-critpath "$TMP/deps.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-critpath: $TMP/deps.tr: record 1 (byte 0): the stream has not been through tr-waits: run it before tr-critpath (tr-read TRACE | tr-deps | tr-waits | tr-critpath | tr-rank)"
	run --separate-stderr tr-rank "$TMP/waits.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-rank: $TMP/waits.tr: record 1 (byte 0): the stream has not been through tr-critpath: run it before tr-rank (tr-read TRACE | tr-deps | tr-waits | tr-critpath | tr-rank)"
}

@test "a header that lists no stages (version 1.0, or by hand) is not checked" {
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" > "$TMP/hand.ndjson"
	run tr-critpath -J "$TMP/hand.ndjson"
	assert_success
	run bash -c "jq -c 'select(.k == \"header\") | [.minor, .stages[].tool]' <<< '$output'"
	assert_output '[1,"tr-critpath"]'
}

# $TMP/broken.ndjson: the generated trace's stream with a broken record
# at line 200, where tr-deps fails.
broken_at_200() {
	tr-read -J "$FIX/trace.otf2" |
		awk 'NR == 200 { print "{\"k\":\"enter\",\"id\":1}"; next } { print }' > "$TMP/broken.ndjson"
}

@test "a stage fails mid-way: it writes no trailer, the next reports the cut and writes none either" {
	broken_at_200
	run --separate-stderr bash -c "tr-deps -M '$TMP/broken.ndjson' 2> '$TMP/deps.err' |
		tr-waits -J 2> '$TMP/waits.err' > '$TMP/out'; echo \${PIPESTATUS[*]}"
	assert_output "1 1"
	run cat "$TMP/deps.err"
	assert_output "tr-deps: $TMP/broken.ndjson: line 200: enter without required field \"t\""
	run cat "$TMP/waits.err"
	assert_regex "$output" "^tr-waits: <stdin>: the stream ends at record [0-9]+ \\(byte [0-9]+\\) without its trailer: it was cut short \\(did a tool before this one fail\\?\\)$"
	# what was valid came through; no trailer at its end
	[ "$(wc -l < "$TMP/out")" -gt 150 ]
	run grep -c '"k":"trailer"' "$TMP/out"
	assert_output 0
}

@test "jq in the middle keeping header and trailer: a whole stream stays whole, a cut one is seen" {
	keep='select(.k == "header" or .k == "trailer" or .k != "blame" or .pattern != "gpu_idle")'
	run --separate-stderr bash -c "tr-read '$FIX/trace.otf2' | tr-deps | tr-waits -J |
		jq -c '$keep' | tr-critpath | tr-rank -n 3"
	assert_success
	assert_equal "$stderr" ""
	broken_at_200
	run --separate-stderr bash -c "tr-deps '$TMP/broken.ndjson' 2>/dev/null |
		tr-waits -J 2>/dev/null | jq -c '$keep' | tr-critpath > /dev/null"
	assert_failure 1
	assert_regex "$stderr" "^tr-critpath: <stdin>: the stream ends at line [0-9]+ without its trailer"
}

@test "jq in the middle dropping the header makes a stream of its own: not checked, a fresh header" {
	broken_at_200
	run --separate-stderr bash -c "tr-deps '$TMP/broken.ndjson' 2>/dev/null |
		tr-cat -J 2>/dev/null | jq -c 'select(.k != \"header\")' | tr-cat -J"
	# the last tr-cat cannot know: what jq made is a stream without a header
	assert_success
	assert_success
	assert_line --index 0 '{"k":"header","major":1,"minor":1,"producer":"tr-cat 0.1.0","clock":"ns"}'
	assert_line --index -1 '{"k":"trailer"}'
}

@test "the example pipeline runs under pipefail, as every script in pipelines/ does" {
	for f in "$TOP"/pipelines/*.sh; do
		head -1 "$f" | grep -q bash || fail "$f is not a bash script"
		grep -q '^set -euo pipefail' "$f" || fail "$f does not set -o pipefail"
	done
	run --separate-stderr "$TOP/pipelines/example.sh"
	assert_success
}
