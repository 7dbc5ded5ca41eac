#!/usr/bin/env bats
# Streams that broke the tools (tests/data/repros, found by mutation
# fuzzing) and the classes they stand for: times out of range, sums past
# 64 bits, events out of order. Each ends as docs/stream.md rule 8 says:
# one line naming the input and position, exit 1, the valid part written.

load common

setup() {
	TMP=$(mktemp -d)
	REPRO="$DATA/repros"
}

teardown() {
	rm -rf "$TMP"
}

STAGES="tr-deps tr-waits tr-critpath tr-rank tr-project"

@test "a join with no fork before it: no wait state, no overflow (INT64_MIN - t in decide_join)" {
	run --separate-stderr tr-waits -J "$REPRO/tr-waits-join-overflow.tr"
	assert_success
	assert_equal "$stderr" ""
	refute_output --partial '"k":"wait"'
	assert_equal "$(printf '%s\n' "$output" | wc -l)" 6
}

@test "a stream whose first event is in no activity (a team end, found by fuzzing): tr-waits passes it on, no time computed from before it" {
	# its time since the stream's start (INT64_MIN) was computed even with
	# nothing open: a signed overflow that only a clang UBSan build saw
	run --separate-stderr tr-waits -J "$REPRO/waits-first-event-outside.ndjson"
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$(printf '%s\n' "$output" | grep -c '"k":"\(team_end\|join\)"')" 2
}

@test "an enter at t = INT64_MIN: every stage stops at it, what came before written" {
	for tool in $STAGES; do
		opt=-J; [ "$tool" = tr-rank ] && opt=
		run --separate-stderr "$tool" $opt "$REPRO/int64-min-time.ndjson"
		assert_failure 1
		assert_equal "$stderr" "$tool: $REPRO/int64-min-time.ndjson: line 5: enter field \"t\" is not a time in [-2^62, 2^62) ns"
		[ "$tool" = tr-rank ] && continue
		assert_equal "$(printf '%s\n' "$output" | grep -c '"k":"\(process\|stream\|region\)"')" 3
	done
	run --separate-stderr tr-cat --check "$REPRO/int64-min-time.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $REPRO/int64-min-time.ndjson: line 5: enter field \"t\" is not a time in [-2^62, 2^62) ns"
	run --separate-stderr tr-otf2 -o "$TMP/x" "$REPRO/int64-min-time.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $REPRO/int64-min-time.ndjson: line 5: enter field \"t\" is not a time in [-2^62, 2^62) ns"
	run ls -A "$TMP"
	assert_output ""
}

@test "the edges of the time range: -2^62 and 2^62 - 1 are times, 2^62 is not" {
	cat > "$TMP/s.ndjson" <<'IN'
{"k":"header","major":1,"minor":0,"producer":"hand","clock":"ns"}
{"k":"process","id":0,"name":"p"}
{"k":"stream","id":0,"process":0,"name":"t","type":"host"}
{"k":"region","id":0,"name":"main","role":"cpu"}
{"k":"enter","id":0,"t":-4611686018427387904,"s":0,"r":0}
{"k":"leave","id":1,"t":4611686018427387903,"s":0,"r":0}
IN
	run tr-cat --check "$TMP/s.ndjson"
	assert_success
	run --separate-stderr bash -c "tr-deps '$TMP/s.ndjson' | tr-waits | tr-critpath | tr-rank --json"
	assert_success
	assert_line --partial '"k":"run_summary","runtime":9223372036854775807,"cp":9223372036854775807'
	sed -i 's/"t":4611686018427387903/"t":4611686018427387904/' "$TMP/s.ndjson"
	for tool in $STAGES; do
		run --separate-stderr "$tool" "$TMP/s.ndjson"
		assert_failure 1
		assert_equal "$stderr" "$tool: $TMP/s.ndjson: line 6: leave field \"t\" is not a time in [-2^62, 2^62) ns"
	done
}

@test "a crit piece or wait state past the time range, or of more than 2^63 ns, is refused" {
	doc_examples > "$TMP/doc.ndjson"
	sed 's/"k":"crit","s":1,"t":1800,"dur":100/"k":"crit","s":1,"t":1800,"dur":9223372036854775808/' \
		"$TMP/doc.ndjson" > "$TMP/big.ndjson"
	run --separate-stderr tr-cat --check "$TMP/big.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $TMP/big.ndjson: line 62: crit field \"dur\" is not a duration in [0, 2^63) ns"
	run --separate-stderr tr-rank "$TMP/big.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-rank: $TMP/big.ndjson: line 62: crit piece of more than 2^63 ns"
	sed 's/"k":"crit","s":1,"t":1800,"dur":100/"k":"crit","s":1,"t":1800,"dur":4611686018427387000/' \
		"$TMP/doc.ndjson" > "$TMP/past.ndjson"
	run --separate-stderr tr-cat --check "$TMP/past.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: $TMP/past.ndjson: line 62: crit from t=1800 for 4611686018427387000 ns ends outside the times a stream may hold ([-2^62, 2^62) ns)"
	run --separate-stderr tr-otf2 -o "$TMP/o/x" "$TMP/past.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/past.ndjson: line 62: crit from t=1800 for 4611686018427387000 ns ends outside the times a stream may hold ([-2^62, 2^62) ns)"
}

@test "blame that adds up past 2^64 ns: tr-rank and tr-otf2 say so instead of wrapping" {
	{
		doc_examples | grep -v '"k":"\(blame\|crit\|path_blame\|rating\|run_summary\|gpu_summary\|rating_diff\|wait_summary\|projection\|trailer\)"'
		for _ in 1 2 3; do
			echo '{"k":"blame","to":1,"r":0,"ns":9223372036854775807,"pattern":"late_sender","wait":6,"s":2}'
		done
		echo '{"k":"trailer"}'
	} > "$TMP/s.ndjson"
	run --separate-stderr tr-rank "$TMP/s.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-rank: $TMP/s.ndjson: line 62: totals add up to more than 2^64 ns"
	run --separate-stderr tr-otf2 -o "$TMP/o/x" "$TMP/s.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/s.ndjson: line 62: the blame adds up to more than 2^64 ns"
}

@test "a run whose times span 2^63 ns: tr-rank gives its length, no overflow (runtime in tr-rank.c)" {
	run --separate-stderr tr-rank "$REPRO/tr-rank-runtime-overflow.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-rank: $REPRO/tr-rank-runtime-overflow.tr: record 230 (byte 14433): enter at t=-4611686018427367308 on stream 3 comes after t=9394 on stream 3 (events must be ordered by time, then stream)"
}

@test "events out of time order: every stage stops at the first, as tr-cat --check does" {
	doc_examples > "$TMP/doc.ndjson"
	sed 's/"id":4,"t":1800/"id":4,"t":1600/' "$TMP/doc.ndjson" > "$TMP/s.ndjson"
	want='line 22: enter at t=1600 on stream 1 comes after t=1700 on stream 0 (events must be ordered by time, then stream)'
	for tool in $STAGES tr-cat; do
		opt=; [ "$tool" = tr-cat ] && opt=--check
		run --separate-stderr "$tool" $opt "$TMP/s.ndjson"
		assert_failure 1
		assert_equal "$stderr" "$tool: $TMP/s.ndjson: $want"
	done
	# equal times: the stream id decides
	sed 's/"id":1,"t":1000,"s":2/"id":1,"t":1000,"s":0/;s/"id":0,"t":1000,"s":0/"id":0,"t":1000,"s":2/' \
		"$TMP/doc.ndjson" > "$TMP/tie.ndjson"
	for tool in $STAGES; do
		run --separate-stderr "$tool" "$TMP/tie.ndjson"
		assert_failure 1
		assert_equal "$stderr" "$tool: $TMP/tie.ndjson: line 19: enter at t=1000 on stream 0 comes after t=1000 on stream 2 (events must be ordered by time, then stream)"
	done
}

@test "an event id used twice: every stage stops at it, as tr-cat --check does (turn4)" {
	for tool in $STAGES tr-clock tr-cat; do
		opt=; [ "$tool" = tr-cat ] && opt=--check
		run --separate-stderr "$tool" $opt "$REPRO/stages-id-reuse.ndjson"
		assert_failure 1
		[[ $stderr == "$tool: $REPRO/stages-id-reuse.ndjson: line 7: enter id 0 is not unique"* ]] || fail "$tool: $stderr"
	done
	# tr-otf2 too, before anything is written (its blame and metrics name activities by id)
	run --separate-stderr tr-otf2 -o "$TMP/twice" < "$REPRO/stages-id-reuse.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: <stdin>: line 7: enter id 0 is not unique (rule 4)"
	[ ! -e "$TMP/twice.otf2" ] && [ ! -e "$TMP/twice" ]
	# among the kinds a stage passes on unread (rule 8: tr-deps and tr-waits read some events),
	# the stages that read every event stop at it
	doc_examples > "$TMP/doc.ndjson"
	sed 's/"k":"send_done","id":13,/"k":"send_done","id":8,/' "$TMP/doc.ndjson" > "$TMP/twice.ndjson"
	for tool in tr-critpath tr-rank tr-project; do
		run --separate-stderr "$tool" "$TMP/twice.ndjson"
		assert_failure 1
		assert_equal "$stderr" "$tool: $TMP/twice.ndjson: line 31: send_done id 8 is not unique (rule 4)"
	done
	for tool in tr-deps tr-waits; do
		run bash -c "$tool '$TMP/twice.ndjson' 2>/dev/null | tr-cat --check"
		assert_failure 1
		assert_output --regexp "^tr-cat: <stdin>: record [0-9]+ \(byte [0-9]+\): send_done id 8 is not unique$"
	done
}

@test "a derived record that names an event not read before it, or a wait past the last event: the stages that read it refuse it (turn4)" {
	doc_examples > "$TMP/doc.ndjson"
	sed 's/"k":"blame","to":1,"r":0,"ns":50/"k":"blame","to":77,"r":0,"ns":50/' "$TMP/doc.ndjson" > "$TMP/nowhere.ndjson"
	for tool in tr-rank tr-cat; do
		opt=; [ "$tool" = tr-cat ] && opt=--check
		run --separate-stderr "$tool" $opt "$TMP/nowhere.ndjson"
		assert_failure 1
		assert_equal "$stderr" "$tool: $TMP/nowhere.ndjson: line 60: blame field \"to\" points at event 77, which is not earlier in the stream"
	done
	# 146 years of waiting in a run of 5 us: its record comes once the wait is decided
	sed 's/"k":"wait","at":6,"t":1950,"dur":50,/"k":"wait","at":6,"t":1950,"dur":4611686018427385000,/' \
		"$TMP/doc.ndjson" > "$TMP/long.ndjson"
	for tool in tr-critpath tr-rank; do
		run --separate-stderr "$tool" "$TMP/long.ndjson"
		assert_failure 1
		assert_regex "$stderr" "^$tool: $TMP/long.ndjson: line 58: wait at t=1950 of 4611686018427385000 ns ends after the last event read \(t=[0-9]+\): a wait is written once decided$"
	done
	# an edge from an event to come
	sed 's/"k":"edge","from":8,"to":10,/"k":"edge","from":99,"to":10,/' "$TMP/doc.ndjson" > "$TMP/edge.ndjson"
	grep -q '"from":99' "$TMP/edge.ndjson" || fail "no such edge in docs/stream.md's examples"
	for tool in tr-critpath tr-rank; do
		run --separate-stderr "$tool" "$TMP/edge.ndjson"
		assert_failure 1
		assert_regex "$stderr" "^$tool: $TMP/edge.ndjson: line [0-9]+: edge field \"from\" points at event 99, which is not earlier in the stream$"
	done
	# and into the stages that re-time tr-deps' stream
	tr-cat -J "$REPRO/c10-deps.tr" | sed '496s/"from":179,/"from":999999,/' > "$TMP/deps.ndjson"
	for tool in tr-clock tr-project; do
		run --separate-stderr "$tool" "$TMP/deps.ndjson"
		assert_failure 1
		assert_equal "$stderr" "$tool: $TMP/deps.ndjson: line 496: edge field \"from\" points at event 999999, which is not earlier in the stream"
	done
}

@test "a team's stream of a process that is not a member: every stage and tr-otf2 refuse it in one line, tr-otf2 writes nothing" {
	doc_examples | sed '/"CUDA_COMM"/s/"members":\[0\]/"members":[1]/' > "$TMP/s.ndjson"
	for tool in $STAGES; do
		run --separate-stderr "$tool" "$TMP/s.ndjson"
		assert_failure 1
		assert_equal "$stderr" "$tool: $TMP/s.ndjson: line 16: comm stream whose process is not a member"
	done
	mkdir "$TMP/o"
	run --separate-stderr tr-otf2 -o "$TMP/o/x" "$TMP/s.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/s.ndjson: line 16: comm stream whose process is not a member"
	assert_equal "$(ls -A "$TMP/o")" ""
}

@test "the fuzzer's out-of-order stream: tr-deps stops at its first bad event" {
	run --separate-stderr tr-deps "$REPRO/out-of-order-events.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-deps: $REPRO/out-of-order-events.tr: record 260 (byte 15225): enter field \"t\" is not a time in [-2^62, 2^62) ns"
}

# Rank 0 sends n messages no one receives (Isends, each its own request).
unreceived() {
	cat "$DATA/mpi/defs.ndjson"
	awk -v n="$1" 'BEGIN {
		id = 0
		print "{\"k\":\"enter\",\"id\":" id++ ",\"t\":0,\"s\":0,\"r\":0}"
		for (i = 0; i < n; i++) {
			t = 10 + 10 * i
			print "{\"k\":\"enter\",\"id\":" id++ ",\"t\":" t ",\"s\":0,\"r\":4}"
			print "{\"k\":\"send\",\"id\":" id++ ",\"t\":" t ",\"s\":0,\"peer\":1,\"tag\":" i ",\"comm\":0,\"req\":" i "}"
			print "{\"k\":\"leave\",\"id\":" id++ ",\"t\":" t + 5 ",\"s\":0,\"r\":4}"
		}
	}'
}

@test "TR_MAX_MEM: a stage past it stops with what it holds, not the OOM killer; a bad size is a usage error" {
	unreceived 400000 > "$TMP/sends.ndjson"
	run --separate-stderr bash -c "TR_MAX_MEM=8M tr-deps -M '$TMP/sends.ndjson' > '$TMP/out.tr'"
	assert_failure 1
	assert_regex "$stderr" "^tr-deps: $TMP/sends.ndjson: line [0-9]+: [0-9.]+ MiB held, more than TR_MAX_MEM \\(8\\.0 MiB\\): [0-9]+ sends and 0 receives waiting for their other side, 0 collective instances open \\(a process that never received\\?\\)$"
	# what came before is written, without a trailer: the next tool sees the cut
	run --separate-stderr tr-cat --check "$TMP/out.tr"
	assert_failure 1
	assert_regex "$stderr" "without its trailer"
	# with room enough, the same input is read through
	run --separate-stderr bash -c "TR_MAX_MEM=1G tr-deps -M '$TMP/sends.ndjson' > /dev/null"
	assert_success
	for bad in x 12Q -5 0; do
		run --separate-stderr env TR_MAX_MEM="$bad" tr-critpath "$TMP/sends.ndjson"
		assert_failure 2
		assert_equal "$stderr" "tr-critpath: TR_MAX_MEM=$bad: give a size in bytes, or with K, M, G or T (4G)"
	done
	# the same for tr-analyze; a size past 2^64 is no "no limit" (turn3)
	run --separate-stderr env TR_MAX_MEM=x tr-analyze "$TMP/none.otf2"
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: TR_MAX_MEM=x: give a size in bytes, or with K, M, G or T (4G)"
	for big in 99999999999999999999 20000000T; do
		for tool in tr-critpath tr-analyze; do
			run --separate-stderr env TR_MAX_MEM=$big $tool "$TMP/sends.ndjson"
			assert_failure 2
			assert_equal "$stderr" "$tool: TR_MAX_MEM=$big: more than 2^64 bytes; give a size this machine can have"
		done
	done
}

@test "an empty input is no stream: every analysis stage and tr-otf2 say so in one line, and write nothing" {
	for tool in $STAGES tr-clock; do
		run --separate-stderr bash -c ": | $tool > '$TMP/out'"
		assert_failure 1
		assert_equal "$stderr" "$tool: <stdin>: empty input: no records (not a record stream)"
	done
	printf '\n\n' > "$TMP/blank.ndjson"
	run --separate-stderr tr-deps "$TMP/blank.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-deps: $TMP/blank.ndjson: empty input: no records (not a record stream)"
	mkdir "$TMP/o"
	run --separate-stderr bash -c ": | tr-otf2 -o '$TMP/o/run'"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: <stdin>: empty input: no records (not a record stream)"
	run ls -A "$TMP/o"
	assert_output ""
}

@test "a kernel that ended before its launch was read, then more kernels: no write into a freed slot (turn3 F1)" {
	run --separate-stderr tr-deps -J "$REPRO/deps-work-pool-overflow.ndjson"
	assert_success
	assert_line '{"k":"edge","from":100000,"to":0,"type":"launch"}'
	assert_equal "$(printf '%s\n' "$stderr" | grep -c 'came before the call that enqueued them')" 1
}

# jq's edit of a stream in tests/data/repros, as msgpack
edit() {
	tr-cat -J "$REPRO/$1" | jq -c "$2" | tr-cat -M
}

@test "records of kinds a stage reads that the contract rejects: tr-clock and tr-project stop at them, as the other stages do (turn3 F4)" {
	for case in \
		'c10-deps.tr|if .k=="region" then .role="nap" else . end|record 22 (byte 1210): region field "role" has unknown value "nap"' \
		'c10-deps.tr|if .k=="stream" then .type="fpga" else . end|record 12 (byte 690): stream field "type" has unknown value "fpga"' \
		'c10-deps.tr|if .k=="edge" then .type="teleport" else . end|record 496 (byte 22573): edge field "type" has unknown value "teleport"' \
		'c10-deps.tr|if .k=="enter" and (.id % 7 == 0) then .r="x" else . end|record 252 (byte 15907): enter field "r" is not a non-negative integer' \
		'c10-deps.tr|if .k=="edge" then .from=987654321 else . end|record 496 (byte 22573): edge field "from" points at event 987654321, which is not earlier in the stream' \
		'c10-deps.tr|if .k=="edge" then .to=987654321 else . end|record 496 (byte 22573): edge field "to" points at event 987654321, which is not earlier in the stream'; do
		IFS='|' read -r in prog want <<< "$case"
		edit "$in" "$prog" > "$TMP/e.tr"
		tools=(tr-clock "tr-project --scale *=0.5" tr-waits)
		# tr-waits reads some kinds of events: an edge's end it does not know is checked by the stages after it
		[[ $want = *"not earlier in the stream" ]] && unset 'tools[2]'
		for tool in "${tools[@]}"; do
			run bash -c "$tool '$TMP/e.tr' > '$TMP/out.tr'"
			assert_failure 1
			assert_equal "$(printf '%s' "$output" | sed 's/ (byte [0-9]*)//')" \
				"${tool%% *}: $TMP/e.tr: $(printf '%s' "$want" | sed 's/ (byte [0-9]*)//')"
			# what came before it is written, without a trailer: the next tool sees the cut
			run --separate-stderr tr-cat --check "$TMP/out.tr"
			assert_failure 1
			assert_equal "${stderr##*without its trailer}" ": it was cut short (did a tool before this one fail?)"
		done
	done
	# an instance that lists a member twice: tr-waits reads instances (tr-clock passes them on unread, rule 8)
	edit c10-deps.tr 'if .k=="instance" then .acts=(.acts+.acts) else . end' > "$TMP/e.tr"
	run --separate-stderr tr-waits "$TMP/e.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-waits: $TMP/e.tr: record 506 (byte 22838): instance field \"acts\" lists 17 twice"
	# a second header (two NDJSON streams joined by cat)
	tr-cat -J "$REPRO/c10-analysed.tr" | jq -c 'if .k=="header" then (.,.) else . end' > "$TMP/two.ndjson"
	for tool in "tr-project --scale *=0.5" tr-rank; do
		run --separate-stderr $tool "$TMP/two.ndjson"
		assert_failure 1
	done
	run --separate-stderr tr-project --scale '*=0.5' "$TMP/two.ndjson"
	assert_equal "$stderr" "tr-project: $TMP/two.ndjson: line 2: a header that is not the first record (two streams one after the other: join them with tr-cat)"
}

@test "negative durations in wait, crit and blame records: tr-rank and tr-report refuse them (turn3 F5)" {
	for case in 'wait|dur' 'crit|dur' 'blame|ns'; do
		IFS='|' read -r kind field <<< "$case"
		# the first record of the kind made negative
		tr-cat -J "$REPRO/c10-analysed.tr" |
			python3 -c "
import sys
done = False
for line in sys.stdin:
    if not done and '\"k\":\"$kind\"' in line:
        line = line.replace('\"$field\":', '\"$field\":-', 1)
        done = True
    sys.stdout.write(line)" | tr-cat -M > "$TMP/neg.tr"
		for tool in tr-rank tr-report; do
			run --separate-stderr $tool "$TMP/neg.tr"
			assert_failure 1
			assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
			assert_equal "$(printf '%s' "$stderr" | grep -c "$kind field \"$field\" is not a duration")" 1
		done
	done
}
