#!/usr/bin/env bats
# tr-read on archives written by bench/gen-otf2 (the way Score-P writes
# them), whose every event follows from gen-otf2's options: role and
# attribute mapping, clock conversion, order, options, failure paths.

load common

setup_file() {
	export FIX="$BATS_FILE_TMPDIR/fix"
	gen-otf2 -a -r 2 -t 2 -i 4 -R 3000000000 -o 1000000000000 "$FIX/trace"
	tr-read -M "$FIX/trace.otf2" > "$FIX/trace.tr"
	tr-cat -J "$FIX/trace.tr" > "$FIX/trace.ndjson"
}

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

@test "the stream keeps the contract: header, definitions, (t, stream) order" {
	run --separate-stderr tr-cat --check "$FIX/trace.tr"
	assert_success
	assert_equal "$stderr" ""
	run jq -r 'select(.k == "header") | "\(.major).\(.minor) \(.producer) \(.source)"' "$FIX/trace.ndjson"
	assert_output "1.1 tr-read 0.1.0 $FIX/trace.otf2"
}

@test "every API name gets the role docs/roles.md gives it" {
	# the oracle is the documentation's table, not the code's: each
	# "| `role` | `name`, `name` |" row of its name table, one pair a line
	awk '/^## / { t = ($0 == "## The name table") } t && /^\| `/ {
		split($0, col, "|"); gsub(/[` ]/, "", col[2])
		n = split(col[3], names, ",")
		for (i = 1; i <= n; i++) { gsub(/`/, "", names[i]); gsub(/^ +| +$/, "", names[i]); print names[i] "\t" col[2] }
	}' "$TOP/docs/roles.md" | sort > "$TMP/want"
	[ "$(wc -l < "$TMP/want")" -ge 100 ] || fail "docs/roles.md's name table not found"
	jq -r 'select(.k == "region") | "\(.name)\t\(.role)"' "$FIX/trace.ndjson" | sort > "$TMP/got"
	run comm -23 "$TMP/want" "$TMP/got"
	assert_output ""
}

@test "suffixes _v2 and friends are ignored; copy directions come from the name" {
	run jq -r 'select(.k == "region" and (.name | startswith("cuMemcpy")) and (.name | test("_v2$"))) | "\(.name) \(.role) \(.dir)"' "$FIX/trace.ndjson"
	assert_output "cuMemcpyDtoH_v2 memcpy dtoh
cuMemcpyHtoD_v2 memcpy htod"
}

@test "CUDA_STREAM_REF, CUDA_EVENT_REF and CUDA_DRV_API_RESULT become ref_stream, cuda_event, result" {
	gpu=$(jq -r 'select(.k == "stream" and .type == "gpu" and .process == 0).id' "$FIX/trace.ndjson")
	roles() { jq -r "select(.k == \"region\" and (.role | IN($1))).id" "$FIX/trace.ndjson" | paste -sd, -; }
	launches=$(roles '"launch"')
	run jq -s "[.[] | select(.k == \"enter\" and (.r | IN($launches)) and .s == 0)] | map(.ref_stream) | unique" "$FIX/trace.ndjson"
	assert_output "[
  $gpu
]"
	events=$(roles '"event_record", "event_sync", "event_query", "stream_wait"')
	run jq -s "[.[] | select(.k == \"enter\" and (.r | IN($events)))] | map(.cuda_event) | unique" "$FIX/trace.ndjson"
	assert_output "[
  48879
]"
	queries=$(roles '"event_query", "stream_query"')
	run jq -s "[.[] | select(.k == \"leave\" and (.r | IN($queries)))] | map(.result) | unique" "$FIX/trace.ndjson"
	assert_output "[
  600
]"
}

@test "Score-P's callsite id links each launch to its kernel" {
	kernel=$(jq -r 'select(.k == "region" and .name == "jacobi_kernel").id' "$FIX/trace.ndjson")
	launches=$(jq -r 'select(.k == "region" and .name == "cuLaunchKernel").id' "$FIX/trace.ndjson" | paste -sd, -)
	jq -r "select(.k == \"enter\" and .r == $kernel) | .corr" "$FIX/trace.ndjson" | sort -n > "$TMP/kernels"
	jq -r "select(.k == \"leave\" and (.r | IN($launches)) and .corr != null) | .corr" "$FIX/trace.ndjson" | sort -n > "$TMP/launches"
	assert_equal "$(wc -l < "$TMP/kernels")" 8
	run diff "$TMP/kernels" "$TMP/launches"
	assert_success
	assert_equal "$(paste -sd' ' "$TMP/kernels")" "1 2 3 4 5 6 7 8"
}

@test "device copies (RMA get/put + completion) become dev_memcpy activities with bytes" {
	run jq -r 'select(.k == "region" and .role == "dev_memcpy") | "\(.name) \(.dir)"' "$FIX/trace.ndjson"
	assert_output "memcpy HtoD htod
memcpy DtoH dtoh"
	htod=$(jq -r 'select(.k == "region" and .name == "memcpy HtoD").id' "$FIX/trace.ndjson")
	run jq -s "[.[] | select(.k == \"enter\" and .r == $htod) | .bytes]" "$FIX/trace.ndjson"
	assert_output "[
  1048576,
  1048576
]"
}

@test "ticks become ns exactly: floor((ticks - offset) * 1e9 / resolution)" {
	# location 0 is stream 0: compare its timestamps in otf2-print and in the stream
	otf2-print "$FIX/trace.otf2" | awk '$2 == "0" && $1 ~ /^(ENTER|LEAVE|MPI_|THREAD_)/ { print $3 }' > "$TMP/ticks"
	while read -r t; do
		d=$((t - 1000000000000))
		echo $(( d / 3000000000 * 1000000000 + d % 3000000000 * 1000000000 / 3000000000 ))
	done < "$TMP/ticks" > "$TMP/want"
	jq -r 'select(.s == 0 and .t != null and .k != "sample") | .t' "$FIX/trace.ndjson" > "$TMP/got"
	assert_equal "$(wc -l < "$TMP/want")" "$(wc -l < "$TMP/got")"
	run diff "$TMP/want" "$TMP/got"
	assert_success
}

@test "same archive, same stream, byte for byte; another seed, another stream" {
	tr-read -M "$FIX/trace.otf2" | cmp - "$FIX/trace.tr"
	gen-otf2 -a -r 2 -t 2 -i 4 -R 3000000000 -o 1000000000000 "$TMP/same/trace"
	run bash -c "tr-read -J '$TMP/same/trace.otf2' | sed 1d | cmp - <(sed 1d '$FIX/trace.ndjson')"
	assert_success
	gen-otf2 -a -r 2 -t 2 -i 4 -s 7 -R 3000000000 -o 1000000000000 "$TMP/other/trace"
	run bash -c "tr-read -J '$TMP/other/trace.otf2' | sed 1d | cmp -s - <(sed 1d '$FIX/trace.ndjson')"
	assert_failure
}

@test "-p keeps the events of the chosen processes, and every definition" {
	run --separate-stderr tr-read -J -p 1 "$FIX/trace.otf2"
	assert_success
	printf '%s\n' "$output" > "$TMP/p1"
	tr-cat --check "$TMP/p1"
	streams=$(jq -r 'select(.k == "stream" and .process == 1).id' "$TMP/p1" | paste -sd, -)
	run jq -s "[.[] | select(.t != null and .k != \"wait\" and .k != \"crit\" and (.s | IN($streams) | not))] | length" "$TMP/p1"
	assert_output 0
	assert_equal "$(jq -c 'select(.k == "process")' "$TMP/p1" | wc -l)" 2
}

@test "-p opens only the chosen processes' locations: their events as a whole read has them, a fraction of the memory" {
	gen-otf2 -r 128 -t 1 -i 20 "$TMP/g/t" > /dev/null
	# a process's events without the others' are those of the whole run
	# (ids aside: they number what is written); halves make the whole
	events() { tr-cat -J "$1" | jq -c 'select(.t != null) | del(.id)' | sort; }
	tr-read "$TMP/g/t.otf2" > "$TMP/all.tr"
	tr-read -p 0-63 "$TMP/g/t.otf2" > "$TMP/a.tr"
	tr-read -p 64-127 "$TMP/g/t.otf2" > "$TMP/b.tr"
	run diff <(events "$TMP/all.tr") <(sort -m <(events "$TMP/a.tr") <(events "$TMP/b.tr"))
	assert_success
	# the events not read count as left out (as many as their locations'
	# definitions say), as when they were read and dropped: a's and b's
	# add up to the archive's events, as its locations' definitions count them
	left() { tr-read --stats -p "$1" "$TMP/g/t.otf2" 2>&1 > /dev/null | sed -n 's/.*: \([0-9]*\) events left out by.*/\1/p'; }
	total=$(otf2-print -G "$TMP/g/t.otf2" | sed -n 's/^LOCATION .*# Events: \([0-9]*\),.*/\1/p' | awk '{ s += $1 } END { print s }')
	assert_equal "$(( $(left 0-63) + $(left 64-127) ))" "$total"
	# libotf2 holds some 2 MB a location it opens: one process of 128 takes a fraction
	whole=$(/usr/bin/time -f %M tr-read "$TMP/g/t.otf2" 2>&1 > /dev/null | tail -1)
	one=$(/usr/bin/time -f %M tr-read -p 0 "$TMP/g/t.otf2" 2>&1 > /dev/null | tail -1)
	[ "$one" -lt $((whole / 4)) ] || fail "tr-read -p 0: $one KB, the whole archive $whole KB"
}

@test "-s keeps the chosen streams; --stats counts what was left out" {
	run --separate-stderr tr-read -J -s 0,2-3 --stats "$FIX/trace.otf2"
	assert_success
	run jq -r 'select(.t != null) | .s' <<< "$output"
	assert_equal "$(sort -u <<< "$output" | paste -sd' ')" "0 2 3"
}

@test "-t keeps events inside the window, with units" {
	run --separate-stderr tr-read -J -t 100us:0.2ms "$FIX/trace.otf2"
	assert_success
	run jq -s '[.[] | select(.t != null) | .t] | [min >= 100000, max <= 200000, length > 0]' <<< "$output"
	assert_output "[
  true,
  true,
  true
]"
}

@test "bad option values are usage errors" {
	run --separate-stderr tr-read -t 5:1 "$FIX/trace.otf2"
	assert_failure 2
	assert_equal "$stderr" "tr-read: -t 5:1: not a time window like 1.5s:2s, 0:200ms or 1000:"
	run --separate-stderr tr-read -p 3-1 "$FIX/trace.otf2"
	assert_failure 2
	assert_equal "$stderr" "tr-read: -p 3-1: not a list of ids and ranges like 0-3,7"
	# a selection that keeps nothing of the trace: said, exit 2
	run --separate-stderr tr-read -p 7 "$FIX/trace.otf2"
	assert_failure 2
	assert_equal "$stderr" "tr-read: $FIX/trace.otf2: -p and -s select no stream of the trace"
	run --separate-stderr tr-read -p 0 -s 99 "$FIX/trace.otf2"
	assert_failure 2
	run --separate-stderr tr-read -t 100s: "$FIX/trace.otf2"
	assert_failure 2
	[[ "$stderr" == "tr-read: $FIX/trace.otf2: -t keeps no event of the trace: its events lie from "*" s to "*" s" ]] || fail "$stderr"
	run --separate-stderr tr-read
	assert_failure 2
	[[ "$stderr" == "usage: tr-read "* ]]
}

@test "-h prints the usage on stdout" {
	run --separate-stderr tr-read -h
	assert_success
	[[ "$output" == "usage: tr-read [-hJMq] "* ]]
}

@test "a missing path, a folder of no trace and a file that is not an archive: one line, exit 1, no output" {
	run --separate-stderr tr-read "$TMP/none.otf2"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "tr-read: $TMP/none.otf2: No such file or directory"
	# no format fits: the formats tr-read knows, and how to give each
	mkdir "$TMP/other" && echo notes > "$TMP/other/notes.txt"
	for f in "$TMP/other" "$FIX/trace.def" "$DATA/stream/pass-through.ndjson" /dev/null; do
		run --separate-stderr tr-read "$f"
		assert_failure 1
		assert_output ""
		assert_equal "$stderr" "tr-read: $f: not a trace tr-read reads (it reads OTF2 archives, by their anchor file, NAME.otf2, or the folder holding it (Score-P's experiment folder); tr-record logs, by their folder, or logs of one run, NAME.trlog; Kineto traces, by their files, NAME.json or NAME.json.gz, or their folder; Nsight Systems exports, by their files, NAME.sqlite (nsys export --type sqlite))"
	done
	# an anchor file cut short: recognized, and libotf2 says what is wrong
	# (losing memory of its own on the way: tests/lsan-libotf2-reader.supp)
	head -c 8 "$FIX/trace.otf2" > "$TMP/cut.otf2"
	run --separate-stderr env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_context_size=2" \
		LSAN_OPTIONS="$LSAN_OPTIONS:suppressions=$TOP/tests/lsan-libotf2-reader.supp" \
		tr-read "$TMP/cut.otf2"
	assert_failure 1
	assert_output ""
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
	[[ "$stderr" == "tr-read: $TMP/cut.otf2: not an OTF2 archive"* ]]
}

@test "a Score-P experiment folder reads as the archive in it; a folder of two archives says to give one (issue 59)" {
	# the folder holding trace.otf2, trace.def and trace/ (Score-P's
	# scorep-*/ holds traces.otf2 and scorep.cfg beside them): the same
	# stream as its anchor file's, but for the header's arguments
	tr-read -M "$FIX" > "$TMP/dir.tr"
	cmp <(tr-cat -J "$FIX/trace.tr" | tail -n +2) <(tr-cat -J "$TMP/dir.tr" | tail -n +2)
	tr-analyze -q "$FIX" > /dev/null
	gen-otf2 -r 1 -t 1 -i 1 "$TMP/two/a" > /dev/null
	gen-otf2 -r 1 -t 1 -i 1 "$TMP/two/b" > /dev/null
	run --separate-stderr tr-read "$TMP/two"
	assert_failure 1
	assert_output ""
	[[ $stderr == "tr-read: $TMP/two: a folder of 2 OTF2 archives: give the anchor file of one ($TMP/two/"[ab]".otf2)" ]] ||
		fail "$stderr"
}

@test "an archive libotf2 cannot read: one line naming the file and what is wrong with it" {
	# what libotf2 says ("This is no chunk header!", "Could not find file
	# extension!") is put as which file is missing, unreadable, empty or damaged
	a=$TMP/broken/trace
	fault() {	# a fresh copy, then the damage given as a command
		rm -rf "$TMP/broken"
		cp -r "$FIX" "$TMP/broken"
		eval "$1"
		# (a stream cut after its definitions: no trailer, so the next tool sees it)
		run --separate-stderr bash -c "tr-read '$a.otf2' > /dev/null"
		assert_failure 1
		assert_equal "$stderr" "tr-read: $a.otf2: $2"
	}
	fault 'rm -r "$a"' "$a/: missing (the folder of the archive's event files)"
	fault 'rm "$a/1.evt"' "$a/1.evt: missing (the events of location 1, Master thread)"
	fault ': > "$a/0.evt"' "$a/0.evt: empty (the events of location 0, Master thread)"
	fault 'rm "$a.def"' "$a.def: missing (the archive's global definitions)"
	fault 'rm "$a.def"; mkdir "$a.def"' "$a.def: not a file (the archive's global definitions)"
	fault 'head -c 100 "$FIX/trace.def" > "$a.def"' \
		"$a.def: damaged: the global definitions do not read (libotf2: This is no chunk header!: Invalid or inconsistent record data)"
	fault 'head -c 30 "$FIX/trace/1.evt" > "$a/1.evt"' \
		"$a/: damaged: the event files do not read (libotf2: This is no chunk header!: Invalid or inconsistent record data)"
	# an archive is a folder of files: not from standard input
	run --separate-stderr bash -c "tr-read - < '$FIX/trace.otf2'"
	assert_failure 1
	assert_equal "$stderr" "tr-read: -: OTF2 archives are read by their anchor file, NAME.otf2, or the folder holding it (Score-P's experiment folder), not from standard input"
	# an anchor not named NAME.otf2, which libotf2 refuses to open
	cp "$FIX/trace.otf2" "$TMP/broken/anchor"
	run --separate-stderr tr-read "$TMP/broken/anchor"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/broken/anchor: an OTF2 anchor file must be named NAME.otf2, beside NAME.def and the folder NAME/ (libotf2 opens no other name)"
}

@test "a full disk fails with exit 1; a closed pipe ends quietly" {
	run --separate-stderr bash -c 'tr-read -M "$1" > /dev/full' _ "$FIX/trace.otf2"
	assert_failure 1
	assert_equal "$stderr" "tr-read: <stdout>: No space left on device"
	gen-otf2 -i 2000 "$TMP/big/trace"
	run --separate-stderr bash -c 'tr-read -J "$1" | head -1' _ "$TMP/big/trace.otf2"
	assert_success
	assert_equal "$stderr" ""
}

@test "the archive's clock offsets are applied: rank 1's events move by exactly the offset" {
	gen-otf2 -r 2 -t 1 -i 2 -R 1000000000 -o 5000 "$TMP/plain/t"
	gen-otf2 -r 2 -t 1 -i 2 -R 1000000000 -o 5000 -k 700 "$TMP/skewed/t"
	for s in 0 1 2 3; do
		paste <(tr-read -J "$TMP/plain/t.otf2" | jq -r "select(.t != null and .s == $s) | .t") \
		      <(tr-read -J "$TMP/skewed/t.otf2" | jq -r "select(.t != null and .s == $s) | .t") |
			awk -v s=$s '{ print s, $2 - $1 }' | sort -u
	done > "$TMP/shifts"
	# streams 0, 1: rank 0 (master thread, GPU); 2, 3: rank 1
	assert_equal "$(cat "$TMP/shifts")" "0 0
1 0
2 700
3 700"
}
