#!/usr/bin/env bats
# tr-otf2: the round trip through OTF2 (tr-read of the written archive
# gives the stream written), otf2-print's verdict, the analysis results as
# metrics with hand-computed values, and every way the output can fail.

load common

setup_file() {
	export FIX="$BATS_FILE_TMPDIR/fix"
	gen-otf2 -a -r 2 -t 2 -i 4 -R 3000000000 -o 1000000000000 "$FIX/trace"
	tr-read -M "$FIX/trace.otf2" > "$FIX/trace.tr"
}

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# Round trip of the tr-read stream $1 through $TMP/rt/NAME.
round_trip() {
	rm -rf "$TMP/rt"
	tr-otf2 -o "$TMP/rt/t" "$1" &&
		tr-read -M "$TMP/rt/t.otf2" > "$TMP/back.tr" &&
		diff <(body "$1") <(body "$TMP/back.tr")
}

@test "round trip: every event, time, role and attribute of a Score-P-like archive comes back" {
	run --separate-stderr round_trip "$FIX/trace.tr"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run jq -r 'select(.k == "header") | .producer' <(tr-cat -J "$TMP/back.tr")
	assert_output "tr-read 0.1.0"
}

@test "round trip: another clock resolution and a rank whose clock is behind" {
	gen-otf2 -r 2 -t 1 -i 2 -R 1000000000 -o 5000 -k 700 "$TMP/skewed/t"
	tr-read -M "$TMP/skewed/t.otf2" > "$TMP/skewed.tr"
	run round_trip "$TMP/skewed.tr"
	assert_success
	assert_output ""
}

@test "round trip from standard input gives the same archive content" {
	tr-otf2 -o "$TMP/file/t" "$FIX/trace.tr"
	tr-otf2 -o "$TMP/pipe/t" < "$FIX/trace.tr"
	run diff <(tr-read -J "$TMP/file/t.otf2" | grep -v header) \
		 <(tr-read -J "$TMP/pipe/t.otf2" | grep -v header)
	assert_success
	run ls -A "$TMP/pipe"
	assert_output "t
t.def
t.otf2"
}

@test "otf2-print reads what tr-otf2 writes without a warning" {
	tr-otf2 -o "$TMP/a/t" "$FIX/trace.tr"
	run otf2-print --silent -Werror "$TMP/a/t.otf2"
	assert_success
}

# The late-sender scenario of tests/data/mpi, analysed, written and read back.
late_sender_archive() {
	set -o pipefail
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" |
		tr-deps -M | tr-waits -M | tr-critpath -M | tr-otf2 -o "$TMP/ls/t"
}

@test "metrics: Critical Path, Blame and Waiting Time on late sender, computed by hand" {
	# tr-critpath: rank 0 (stream 0) is on the path 0..850 (main, compute,
	# main, Send and its transit until the Send ends), rank 1 (stream 1)
	# 850..1000 (the rest of the transit on its Recv, then main). tr-waits:
	# rank 1's Recv waits 100..800 (700 ns), blamed on rank 0's main (262)
	# and compute 200..700 (438). Each metric is a counter of tr-read's:
	# "stream time counter value", in the order written.
	run --separate-stderr late_sender_archive
	assert_success
	assert_equal "$stderr" ""
	run otf2-print --silent -Werror "$TMP/ls/t.otf2"
	assert_success
	run jq -r 'select(.k == "counter") | "\(.id) \(.name) \(.unit)"' <(tr-read -J "$TMP/ls/t.otf2")
	assert_output "0 Critical Path boolean
1 Blame s
2 Waiting Time s"
	run jq -r 'select(.k == "sample") | "\(.s) \(.t) \(.counter) \(.val)"' <(tr-read -J "$TMP/ls/t.otf2")
	assert_output "0 0 0 1
0 0 1 0
1 0 0 0
1 100 2 0
0 200 1 0
0 700 1 4.38e-07
1 800 2 7e-07
0 850 0 0
1 850 0 1
0 1000 1 2.62e-07
1 1000 0 0"
}

@test "metrics: the wait state's pattern rides on its Waiting Time value" {
	late_sender_archive
	run bash -c "otf2-print '$TMP/ls/t.otf2' | grep -A1 'Waiting Time.*7e-07' | tail -1"
	assert_output --partial '("Wait State" <0>; STRING; "late_sender"'
}

@test "metrics: each activity's blame summed at its leave, its one pattern only; blame that cannot be placed said once; the metrics numbered without gaps" {
	# tests/data/otf2/blame-placed.ndjson: work (1) on main gets 5 ns of
	# late_sender and 7 of wait_nxn: 12 ns at its leave (t 50), no pattern;
	# work (2) on worker 3 ns of GPU idle blame (t 60), GPU Idle Blame
	# alone; work (5) is never left (0 at its enter, t 70, then nothing);
	# 3 is a leave, no activity; one record has no stream (s). No critical
	# path nor waiting time: Blame and GPU Idle Blame are metrics 0 and 1.
	run --separate-stderr tr-otf2 -o "$TMP/b/t" "$DATA/otf2/blame-placed.ndjson"
	assert_success
	assert_equal "$stderr" "tr-otf2: $TMP/b/t: 2 blamed activities never entered or never left in the stream: their blame is not written
tr-otf2: $TMP/b/t: 1 blame records without their activity's stream (s): not written"
	run otf2-print --silent -Werror "$TMP/b/t.otf2"
	assert_success
	run jq -r 'select(.k == "counter" or .k == "sample") | if .k == "counter" then "\(.id) \(.name)" else "\(.s) \(.t) \(.counter) \(.val)" end' \
		<(tr-read -J "$TMP/b/t.otf2" 2>/dev/null)
	assert_output "0 Blame
1 GPU Idle Blame
0 10 0 0
1 10 1 0
0 50 0 1.2e-08
1 60 1 3e-09
1 70 0 0"
	run bash -c "otf2-print '$TMP/b/t.otf2' | grep -A1 'Blame.*1.2e-08' | grep -c 'Wait State'"
	assert_output 0
}

@test "a role OTF2 cannot carry: written, and said once" {
	run --separate-stderr tr-otf2 -o "$TMP/r/t" "$DATA/otf2/lost-role.ndjson"
	assert_success
	assert_equal "$stderr" "tr-otf2: $TMP/r/t: 1 regions whose role OTF2 cannot carry: tr-read gives them the role their name has"
	run jq -r 'select(.k == "region") | "\(.name) \(.role)"' <(tr-read -J "$TMP/r/t.otf2")
	assert_output --partial "my_send mpi_other"
}

@test "--stats counts what was written and what OTF2 has no place for" {
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" | tr-deps -M |
		tr-waits -M > "$TMP/an.tr"
	run --separate-stderr tr-otf2 --stats -o "$TMP/s/t" "$TMP/an.tr"
	assert_success
	assert_equal "$stderr" "$TMP/s/t: 12 events written
  Blame                     4 values
  Waiting Time              2 values
$TMP/s/t: 1 edge records left out (OTF2 has no place for them)"
}

# Nothing but the input in $TMP/out: no archive, no staging folder.
assert_nothing_written() {
	run ls -A "$TMP/out"
	assert_output ""
}

@test "a truncated stream: one line, exit 1, nothing written" {
	mkdir "$TMP/out"
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" | tr-cat -M | head -c 1000 > "$TMP/cut.tr"
	run --separate-stderr tr-otf2 -o "$TMP/out/t" "$TMP/cut.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/cut.tr: record 20 (byte 964): input ends inside the record"
	assert_nothing_written
}

@test "an event on an undefined stream: one line, exit 1, nothing written" {
	mkdir "$TMP/out"
	run --separate-stderr tr-otf2 -o "$TMP/out/t" <<'IN'
{"k":"header","major":1,"minor":0,"producer":"hand","clock":"ns"}
{"k":"process","id":0,"name":"p"}
{"k":"stream","id":0,"process":0,"name":"t","type":"host"}
{"k":"region","id":0,"name":"main","role":"cpu"}
{"k":"enter","id":0,"t":5,"s":3,"r":0}
IN
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: <stdin>: line 5: enter names undefined stream 3"
	assert_nothing_written
}

@test "events out of time order on a stream: one line, exit 1" {
	mkdir "$TMP/out"
	run --separate-stderr tr-otf2 -o "$TMP/out/t" <<'IN'
{"k":"process","id":0,"name":"p"}
{"k":"stream","id":0,"process":0,"name":"t","type":"host"}
{"k":"region","id":0,"name":"main","role":"cpu"}
{"k":"enter","id":0,"t":5,"s":0,"r":0}
{"k":"leave","id":1,"t":4,"s":0,"r":0}
IN
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: <stdin>: line 5: leave at t=4 comes after t=5 on its stream (OTF2 keeps each stream in time order)"
	assert_nothing_written
}

@test "a comm listing a process twice: one line, exit 1, nothing written (it overflowed the writer's table)" {
	mkdir "$TMP/out"
	run --separate-stderr tr-otf2 -o "$TMP/out/x" "$DATA/repros/tr-otf2-comm-members-overflow.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $DATA/repros/tr-otf2-comm-members-overflow.ndjson: line 4: comm that lists a process twice"
	assert_nothing_written
}

@test "locks: ids up to 2^32 - 1 come back; past OTF2's 32 bits one line, exit 1, nothing written" {
	doc_examples | sed 's/"lock":1}/"lock":4294967295}/' > "$TMP/s.ndjson"
	tr-otf2 -o "$TMP/ok/x" "$TMP/s.ndjson"
	run tr-read -J "$TMP/ok/x.otf2"
	assert_line --partial '"k":"lock_acquire","id":38,"t":7000,"s":0,"lock":4294967295}'
	assert_line --partial '"k":"lock_release","id":39,"t":7100,"s":0,"lock":4294967295}'
	doc_examples | sed 's/"lock":1}/"lock":4294967296}/' > "$TMP/s.ndjson"
	mkdir "$TMP/out"
	run --separate-stderr tr-otf2 -o "$TMP/out/x" "$TMP/s.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/s.ndjson: line 46: lock 4294967296 has no OTF2 number (OTF2 numbers locks in 32 bits)"
	assert_nothing_written
}

@test "a name with a NUL byte ends there, as OTF2 strings do (the fuzzer's overflow in otf2out_string)" {
	# many names after a NUL: one of them probes the slot of the empty string,
	# which a comparison up to the NUL took for a match and read past (ASan)
	{ doc_examples | sed 's/"name":"main"/"name":"ma\\u0000in"/' | head -14
	  for i in $(seq 100 399); do
		echo "{\"k\":\"region\",\"id\":$i,\"name\":\"\\u0000r$i\",\"role\":\"cpu\"}"
	  done
	  doc_examples | tail -n +15; } > "$TMP/s.ndjson"
	tr-otf2 -o "$TMP/o/x" "$TMP/s.ndjson" 2> /dev/null
	run tr-read -J "$TMP/o/x.otf2"
	assert_line '{"k":"region","id":0,"name":"ma","role":"cpu","paradigm":"user"}'
	assert_line '{"k":"region","id":399,"name":"","role":"cpu","paradigm":"user"}'
}

@test "a folder that cannot be made: one line, exit 1" {
	touch "$TMP/file"
	run --separate-stderr tr-otf2 -o "$TMP/file/t" "$FIX/trace.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/file: Not a directory"
}

@test "a folder that cannot be written: one line, exit 1" {
	[ "$(id -u)" != 0 ] || skip_unless root "root writes anywhere"
	mkdir -m 500 "$TMP/ro"
	run --separate-stderr tr-otf2 -o "$TMP/ro/t" "$FIX/trace.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/ro: cannot write there: Permission denied"
}

@test "an existing archive: refused without --force and left alone" {
	tr-otf2 -o "$TMP/a/t" "$FIX/trace.tr"
	before=$(cat "$TMP/a/t.def" | md5sum)
	run --separate-stderr tr-otf2 -o "$TMP/a/t" "$DATA/otf2/lost-role.ndjson"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/a/t.otf2 exists; give --force to replace the archive"
	assert_equal "$(cat "$TMP/a/t.def" | md5sum)" "$before"
	run ls -A "$TMP/a"
	assert_output "t
t.def
t.otf2"
}

@test "--force replaces the archive's own three parts and nothing else" {
	tr-otf2 -o "$TMP/a/t" "$FIX/trace.tr"
	echo mine > "$TMP/a/t.txt"
	echo mine > "$TMP/a/other.otf2"
	mkdir "$TMP/a/t2"
	run tr-otf2 --force -o "$TMP/a/t" "$DATA/otf2/lost-role.ndjson"
	assert_success
	run ls -A "$TMP/a"
	assert_output "other.otf2
t
t.def
t.otf2
t.txt
t2"
	run jq -r 'select(.k == "region") | .name' <(tr-read -J "$TMP/a/t.otf2")
	assert_output --partial "my_send"
}

@test "--force does not remove what is not an archive's part" {
	mkdir -p "$TMP/a/t.def"
	run --separate-stderr tr-otf2 --force -o "$TMP/a/t" "$FIX/trace.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/a/t.def is not part of an OTF2 archive; not replacing it"
	run ls -A "$TMP/a"
	assert_output "t.def"
}

@test "usage: -o is required" {
	run tr-otf2 "$FIX/trace.tr"
	assert_failure 2
	assert_output --partial "usage: tr-otf2"
}

@test "given a stream file on a terminal, a progress line (records, rate, share of the work), erased at the end; none from a pipe, with -q, or to a file" {
	gen-otf2 -i 16000 "$TMP/big/trace" > /dev/null
	tr-read -M "$TMP/big/trace.otf2" > "$TMP/big.tr"
	script -qec "tr-otf2 -o '$TMP/o1/t' '$TMP/big.tr'" "$TMP/tty.log" > /dev/null
	assert_progress_line tr-otf2 records "$TMP/tty.log"
	script -qec "tr-otf2 -q -o '$TMP/o2/t' '$TMP/big.tr'; tr-otf2 -o '$TMP/o3/t' < '$TMP/big.tr'" "$TMP/quiet.log" > /dev/null
	assert_no_progress_line records "$TMP/quiet.log"
	run --separate-stderr tr-otf2 -o "$TMP/o4/t" "$TMP/big.tr"
	assert_success
	assert_equal "$stderr" ""
}

@test "a name longer than an OTF2 definition holds (1 MiB): cut at 64 KiB, at a character, said once (turn3 F16)" {
	tr-cat -J "$DATA/repros/c10-analysed.tr" |
		jq -c 'if .k=="region" and .id==0 then .name=("é"*600000) else . end' | tr-cat -M > "$TMP/big.tr"
	run --separate-stderr tr-otf2 -o "$TMP/big/run" "$TMP/big.tr"
	assert_success
	assert_equal "$stderr" "tr-otf2: $TMP/big/run: 1 names longer than 65536 bytes, cut there: an OTF2 definition holds no more here"
	# 32768 two-byte characters: the cut falls between two of them
	run bash -c "tr-read -J '$TMP/big/run.otf2' | jq -r 'select(.k==\"region\" and (.name|startswith(\"é\"))) | .name | length'"
	assert_output 32768
}

@test "an attribute is defined only where a record uses it: CUDA_STREAM_REF only in a trace with ref_stream (a reader takes it for CUDA)" {
	attributes() { otf2-print -G "$1" 2>/dev/null | awk '$1 == "ATTRIBUTE" { print $4 }' | tr -d '",' | paste -sd' '; }
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" | tr-otf2 -o "$TMP/mpi/t" -
	assert_equal "$(attributes "$TMP/mpi/t.otf2")" "Wait"
	cat "$DATA/cuda/defs.ndjson" "$DATA/cuda/event-query.ndjson" | tr-otf2 -o "$TMP/cuda/t" -
	assert_equal "$(attributes "$TMP/cuda/t.otf2")" "CUDA_STREAM_REF CUDA_EVENT_REF CUDA_DRV_API_RESULT Wait"
}

@test "a definition whose name is not UTF-8: tr-otf2 refuses it in one line and writes nothing" {
	printf '%s\n' '{"k":"header","major":1,"minor":1,"producer":"hand","clock":"ns"}' \
		'{"k":"process","id":0,"name":"p"}' '{"k":"stream","id":0,"process":0,"name":"t","type":"host"}' \
		'{"k":"region","id":0,"name":"ma@FF@n","role":"cpu"}' '{"k":"enter","id":0,"t":0,"s":0,"r":0}' \
		'{"k":"leave","id":1,"t":10,"s":0,"r":0}' '{"k":"trailer"}' | sed 's/@FF@/\xff/' | tr-cat -M > "$TMP/bad.tr"
	run --separate-stderr tr-otf2 -o "$TMP/out/t" "$TMP/bad.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/bad.tr: record 4 (byte 109): name that is not valid UTF-8"
	[ ! -e "$TMP/out" ] || [ -z "$(ls -A "$TMP/out")" ]
}
