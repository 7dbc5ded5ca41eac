#!/usr/bin/env bats
# tr-otf2 on every corpus archive: the round trip through OTF2 gives the
# stream back, otf2-print reads the archive without a warning, and an
# analysed trace's metrics add up to the analysis.

load common

setup() {
	corpus_setup
}

teardown() {
	corpus_teardown
}

@test "every corpus archive: tr-read | tr-otf2 | tr-read gives the same stream; otf2-print is content" {
	for dir in "$CORPUS"/otf2/*/; do
		name=$(basename "$dir")
		tr-read -M "$(archive "$name")" > "$TMP/a.tr" 2> /dev/null
		tr-otf2 -o "$TMP/$name/t" "$TMP/a.tr" || fail "$name: tr-otf2 failed"
		otf2-print --silent -Werror "$TMP/$name/t.otf2" > /dev/null 2> "$TMP/err" ||
			fail "$name: otf2-print: $(cat "$TMP/err")"
		tr-read -M "$TMP/$name/t.otf2" > "$TMP/b.tr" 2> /dev/null
		diff <(tr-cat -J "$TMP/a.tr" | grep -v '"k":"header"') \
		     <(tr-cat -J "$TMP/b.tr" | grep -v '"k":"header"') > "$TMP/diff" ||
			fail "$name: the stream read back differs: $(head -5 "$TMP/diff")"
	done
}

@test "every corpus archive: tr-otf2 keeps its location groups, communicators, teams and RMA windows" {
	for dir in "$CORPUS"/otf2/*/; do
		name=$(basename "$dir")
		tr-read -M "$(archive "$name")" 2> /dev/null | tr-otf2 -o "$TMP/$name/t" ||
			fail "$name: tr-otf2 failed"
		otf2-comm-defs "$(archive "$name")" > "$TMP/in"
		otf2-comm-defs "$TMP/$name/t.otf2" > "$TMP/out"
		[ -s "$TMP/in" ] || fail "$name: otf2-comm-defs read nothing"
		# tr-otf2 may add its own (a communicator for events the input
		# had on none), never lose or change one
		comm -23 "$TMP/in" "$TMP/out" > "$TMP/lost"
		[ ! -s "$TMP/lost" ] || fail "$name: not written back: $(head -3 "$TMP/lost")"
	done
}

@test "every corpus archive: tr-otf2 writes each location under the input's id, and the groups of teams under Score-P's names (turn3 F17)" {
	# readers such as CASITA take an MPI group's location ids as ranks:
	# Score-P makes a rank's master thread the rank itself
	for dir in "$CORPUS"/otf2/*/; do
		name=$(basename "$dir")
		tr-read -M "$(archive "$name")" 2> /dev/null | tr-otf2 -o "$TMP/$name/t" ||
			fail "$name: tr-otf2 failed"
		locations() { otf2-print -G "$1" 2>/dev/null | awk '$1 == "LOCATION" { print $2 }' | sort; }
		diff <(locations "$(archive "$name")") <(locations "$TMP/$name/t.otf2") > "$TMP/diff" ||
			fail "$name: location ids: $(head -4 "$TMP/diff")"
	done
	otf2-print -G "$TMP/casita-2_cuda_simple/t.otf2" | grep '^GROUP' |
		sed 's/^GROUP *[0-9]* *//; s/ <[0-9]*>//g' > "$TMP/groups"
	run grep -c 'Name: "CUDA", Type: COMM_LOCATIONS, Paradigm: CUDA' "$TMP/groups"
	assert_output 1
	run grep -c 'Name: "CUDA_GROUP", Type: COMM_GROUP, Paradigm: CUDA' "$TMP/groups"
	assert_output 2
	run grep 'Type: LOCATIONS' "$TMP/groups"
	assert_output 'Name: "CUDA_GROUP", Type: LOCATIONS, Paradigm: UNKNOWN, Flags: NONE, 2 Members: "CUDA[0:7]", "CUDA[0:7]"'
	run grep -c 'Name: "OpenMP", Type: COMM_LOCATIONS, Paradigm: OPENMP' "$TMP/groups"
	assert_output 1
}

@test "a trace without location ids (tr-record, Kineto, Nsight, by hand): Score-P's, 2^32 k + process for a process's k-th stream" {
	cat "$DATA/cuda/defs.ndjson" "$DATA/cuda/blocking-copy.ndjson" | tr-otf2 -o "$TMP/t" -
	run bash -c "otf2-print -G '$TMP/t.otf2' 2>/dev/null | awk '\$1 == \"LOCATION\" { print \$2 }'"
	assert_output "0
4294967296
8589934592
12884901888
17179869184
21474836480"
	# an id given twice is no id: Score-P's for all
	cat "$DATA/cuda/defs.ndjson" "$DATA/cuda/blocking-copy.ndjson" |
		sed 's/"k":"stream","id":\([0-9]\)/"k":"stream","location":7,"id":\1/' | tr-otf2 -o "$TMP/u" -
	run bash -c "otf2-print -G '$TMP/u.otf2' 2>/dev/null | awk '\$1 == \"LOCATION\" { print \$2 }' | head -2"
	assert_output "0
4294967296"
}

@test "cuda_simple analysed: Waiting Time, Blame, GPU Idle Time, GPU Idle Blame and Critical Path add up to the analysis" {
	set -o pipefail
	tr-read -M "$(archive casita-2_cuda_simple)" 2> /dev/null | tr-deps -M 2> /dev/null |
		tr-waits -M | tr-critpath -M 2> /dev/null > "$TMP/an.tr"
	tr-otf2 -o "$TMP/an/t" "$TMP/an.tr"
	run otf2-print --silent -Werror "$TMP/an/t.otf2"
	assert_success
	# the analysis: total waiting and blame (ns), time on the path per stream
	want=$(tr-cat -J "$TMP/an.tr" | jq -s -r '
		([.[] | select(.k == "wait") | .dur] | add),
		([.[] | select(.k == "blame" and (.pattern | IN("gpu_idle", "blame_sync") | not)) | .ns] | add),
		([.[] | select(.k == "idle") | .dur] | add),
		([.[] | select(.k == "blame" and (.pattern | IN("gpu_idle", "blame_sync"))) | .ns] | add),
		([.[] | select(.k == "crit") | {s, dur}] | group_by(.s) |
		 map("\(.[0].s):\(map(.dur) | add)") | join(" "))')
	# read back: values in ns, and time between each 1 and the next value
	got=$(tr-read -J "$TMP/an/t.otf2" | jq -s -r '
		(map(select(.k == "counter")) | map({key: .name, value: .id}) | from_entries) as $c |
		([.[] | select(.k == "sample" and .counter == $c["Waiting Time"]) | .val] | add * 1e9 | round),
		([.[] | select(.k == "sample" and .counter == $c["Blame"]) | .val] | add * 1e9 | round),
		([.[] | select(.k == "sample" and .counter == $c["GPU Idle Time"]) | .val] | add * 1e9 | round),
		([.[] | select(.k == "sample" and .counter == $c["GPU Idle Blame"]) | .val] | add * 1e9 | round),
		([.[] | select(.k == "sample" and .counter == $c["Critical Path"])] | group_by(.s) |
		 map(. as $v | "\(.[0].s):\([range(0; length - 1) | select($v[.].val == 1) |
		     $v[. + 1].t - $v[.].t] | add)") | map(select(endswith(":null") | not)) | join(" "))')
	assert_equal "$got" "$want"
}

@test "the trace's own length (its clock properties) rides in the header and back into the archive; tr-project's re-timing drops it" {
	a=$(archive casita-2_cuda_simple)
	run bash -c "tr-read -J '$a' 2>/dev/null | head -1 | jq -r .length"
	assert_output 710087112
	length() { otf2-print -G "$1" 2>/dev/null | awk '$1 == "CLOCK_PROPERTIES" { for (i = 1; i <= NF; i++) if ($i == "Length:") print $(i + 1) }' | tr -d ,; }
	tr-read "$a" 2>/dev/null | tr-otf2 -o "$TMP/rt/t"
	assert_equal "$(length "$TMP/rt/t.otf2")" 710087112
	# the last event is earlier: the length a run of events alone gives
	tr-read "$a" 2>/dev/null | tr-deps 2>/dev/null | tr-project --scale 'init_cuda=0.5' 2>/dev/null | tr-otf2 -o "$TMP/p/t"
	[ "$(length "$TMP/p/t.otf2")" -lt 710087112 ] || fail "tr-project's archive kept the input's length"
}
