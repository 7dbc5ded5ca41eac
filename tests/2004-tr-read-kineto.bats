#!/usr/bin/env bats
# tr-read on Kineto traces (PyTorch profiler JSON) whose every time
# follows from their text: bench/gen-kineto's data-parallel run (see its
# header for the schedule), and small files written here. Times, nesting,
# what correlation ids say, NCCL collectives across ranks, bad input.

load common

setup_file() {
	export FIX="$BATS_FILE_TMPDIR/fix"
	gen-kineto --ranks 2 --steps 4 "$FIX/run"
	tr-read "$FIX/run" > "$FIX/run.tr" 2> "$FIX/run.err"
	tr-deps < "$FIX/run.tr" | tr-waits | tr-critpath > "$FIX/analysed.tr"
	tr-cat -J "$FIX/analysed.tr" > "$FIX/analysed.ndjson"
}

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# jq over the analysed stream of the generated run
q() {
	jq -r "$@" "$FIX/analysed.ndjson"
}

# The ids of the regions named $1 (a jq string test on .name).
regions() {
	q "select(.k == \"region\" and (.name | $1)).id" | paste -sd, -
}

@test "a folder of ranks: one process per file, named by its rank; a valid stream, nothing odd" {
	run --separate-stderr tr-cat --check "$FIX/run.tr"
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$(cat "$FIX/run.err")" ""
	run q 'select(.k == "process") | "\(.id) \(.name) \(.rank)"'
	assert_output "0 Rank 0 0
1 Rank 1 1"
	run q 'select(.k == "stream") | "\(.process) \(.name) \(.type) \(.native)"'
	assert_output "0 thread 1000 host 1000
0 CUDA[0:7] gpu 7
0 CUDA[0:20] gpu 20
1 thread 1001 host 1001
1 CUDA[0:7] gpu 7
1 CUDA[0:20] gpu 20"
}

@test "times: microseconds with three decimals since baseTimeNanoseconds, exactly in ns; 0 is the first" {
	# rank 0's compute kernel of step k: [k * 500 + 20, k * 500 + 120] us
	k=$(regions 'startswith("compute_kernel")')
	run q "select((.k == \"enter\" or .k == \"leave\") and .r == $k and .s == 1) | \"\(.k) \(.t)\""
	assert_output "enter 20000
leave 120000
enter 520000
leave 620000
enter 1020000
leave 1120000
enter 1520000
leave 1620000"
	run q 'select(.k == "enter") | .t' 
	assert_equal "$(echo "$output" | sort -n | head -1)" 0
}

@test "baseTimeNanoseconds after traceEvents, where Kineto writes it, or before: the ranks aligned by their bases either way (turn4)" {
	# two ranks, bases 1.7e18 and 1.7e18 + 1e9 ns, one op at ts 1000 us each
	want='{"s":0,"t":0} {"s":1,"t":1000000000}'
	run bash -c "tr-read '$DATA/repros/kineto-base-after-events' | tr-cat -J | jq -c 'select(.k == \"enter\") | {s, t}' | paste -sd' '"
	assert_output "$want"
	mkdir "$TMP/before"
	for f in "$DATA"/repros/kineto-base-after-events/*.json; do
		jq -c '{baseTimeNanoseconds} + .' "$f" > "$TMP/before/${f##*/}"
	done
	run bash -c "tr-read '$TMP/before' | tr-cat -J | jq -c 'select(.k == \"enter\") | {s, t}' | paste -sd' '"
	assert_output "$want"
}

@test "activities nest whatever order the file gives them in" {
	# record_param_comms [30, 40] holds the NCCL launch [32, 37]; ProfilerStep [0, 480] holds both
	run bash -c "tr-cat -J '$FIX/run.tr' | jq -r 'select((.k == \"enter\" or .k == \"leave\") and .s == 0 and .t < 500000) | \"\(.k) \(.t) \(.r)\"'"
	names=$(q 'select(.k == "region") | "\(.id)=\(.name)"')
	out=$output
	for pair in $names; do out=$(echo "$out" | sed "s/ ${pair%%=*}\$/ ${pair#*=}/"); done
	assert_equal "$out" "enter 0 ProfilerStep#0
enter 10000 cudaLaunchKernel
leave 15000 cudaLaunchKernel
enter 16000 cudaEventRecord
leave 18000 cudaEventRecord
enter 19000 cudaStreamWaitEvent
leave 21000 cudaStreamWaitEvent
enter 30000 record_param_comms
enter 32000 cudaLaunchKernel
leave 37000 cudaLaunchKernel
leave 40000 record_param_comms
enter 45000 cudaStreamSynchronize
leave 372000 cudaStreamSynchronize
leave 480000 ProfilerStep#0"
}

@test "correlation ids: each launch names the stream of its kernel; the event record and the stream's wait, the event and streams the synchronization records name" {
	launch=$(regions '. == "cudaLaunchKernel"')
	run q "select(.k == \"enter\" and .r == $launch and .s == 0) | \"\(.t) \(.ref_stream) \(.corr)\""
	assert_output "10000 1 1
32000 2 4
510000 1 11
532000 2 14
1010000 1 21
1032000 2 24
1510000 1 31
1532000 2 34"
	rec=$(regions '. == "cudaEventRecord"')
	wait=$(regions '. == "cudaStreamWaitEvent"')
	run q "select(.k == \"enter\" and (.r == $rec or .r == $wait) and .s == 0 and .t < 500000) | \"\(.r == $rec) \(.ref_stream) \(.cuda_event)\""
	assert_output "true 1 1
false 2 1"
}

@test "tr-deps links every kernel to its launch, every synchronization to what it waited for" {
	run q 'select(.k == "edge") | .type'
	assert_equal "$(echo "$output" | sort | uniq -c | awk '{ print $2, $1 }' | paste -sd' ')" \
		"coll 8 launch 16 stream_wait 8 sync 8"
}

@test "CUDA graphs (gen-kineto --graph): the three kernels of each replay linked to its cudaGraphLaunch, and the run's every figure as with one kernel (issue 56)" {
	gen-kineto --ranks 2 --steps 4 --graph "$TMP/graph"
	run --separate-stderr bash -c "tr-read '$TMP/graph' | tr-deps | tr-cat -J | jq -r 'select(.k == \"edge\") | .type' | sort | uniq -c | awk '{ print \$2, \$1 }' | paste -sd' '"
	assert_success
	# 8 launches of the NCCL kernel, 8 replays of 3 kernels: 32 launch edges
	assert_output "coll 8 launch 32 stream_wait 8 sync 8"
	assert_equal "$stderr" ""
	# every figure of the rating as without --graph: the run line, waiting
	# per pattern, and the compute kernel's figures as the sum of its parts'
	tr-analyze --json "$TMP/graph" > "$TMP/g.json" 2> "$TMP/g.err"
	tr-analyze --json "$FIX/run" > "$TMP/p.json" 2> /dev/null
	assert_equal "$(cat "$TMP/g.err")" ""
	summary='select(.k == "run_summary" or .k == "wait_summary") | del(.source)'
	assert_equal "$(jq -c "$summary" "$TMP/g.json")" "$(jq -c "$summary" "$TMP/p.json")"
	parts='[.[] | select(.k == "rating" and (.name | startswith("compute")))] | [(map(.calls) | add), (map(.excl) | add), (map(.cp) | add), (map(.blame) | add)]'
	assert_equal "$(jq -sc "$parts" "$TMP/g.json")" "[24,1600000,1200000,1504000]"
	assert_equal "$(jq -sc "$parts" "$TMP/p.json")" "[8,1600000,1200000,1504000]"
}

@test "an accelerator tr-read does not know (MTIA's categories): said once, not read as host code in silence (issue 59)" {
	# a runtime call of MTIA's and the kernel it launched (a flow between
	# them), in categories tr-read has no reader for; an operator around them
	printf '%s\n' '{"schemaVersion": 1, "traceName": "t", "traceEvents": [' \
		'{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 100, "dur": 50},' \
		'{"ph": "X", "cat": "mtia_runtime", "name": "launchKernel", "pid": 1, "tid": 1, "ts": 110, "dur": 10, "args": {"correlation": 1}},' \
		'{"ph": "X", "cat": "mtia_ccp_events", "name": "add_kernel", "pid": 2, "tid": 5, "ts": 130, "dur": 100, "args": {"correlation": 1}},' \
		'{"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 110, "cat": "ac2g", "name": "ac2g"},' \
		'{"ph": "f", "id": 1, "pid": 2, "tid": 5, "ts": 130, "cat": "ac2g", "name": "ac2g", "bp": "e"}' ']}' > "$TMP/mtia.json"
	run --separate-stderr tr-read "$TMP/mtia.json"
	assert_success
	assert_equal "$stderr" "tr-read: $TMP/mtia.json: 2 events of an accelerator tr-read does not know (categories such as mtia_runtime): read as host code, its calls not linked to its device work"
	# the generated run, CUDA's categories, says nothing of the kind
	run --separate-stderr tr-read "$FIX/run"
	[[ "$stderr" != *accelerator* ]] || fail "$stderr"
}

@test "NCCL allreduces matched across ranks by process group and sequence number: rank 0 waits 200 us a step in them" {
	run q 'select(.k == "comm") | "\(.name) \(.members)"'
	assert_output 'NCCL process group 0 [0,1]'
	# 1048576 Float elements each way: 4 MiB
	run q 'select(.k == "coll_end") | "\(.s) \(.t) \(.comm) \(.op) \(.sent) \(.recvd)"'
	assert_equal "$(echo "$output" | head -2)" "2 370000 0 allreduce 4194304 4194304
5 370000 0 allreduce 4194304 4194304"
	# rank 0 enters at k * 500 + 120, rank 1 at k * 500 + 320: 4 waits of 200 us, on rank 0's stream 20
	run q 'select(.k == "wait" and .pattern == "wait_nxn") | "\(.s) \(.dur)"'
	assert_output "2 200000
2 200000
2 200000
2 200000"
}

@test "gzip and plain read alike; one file reads as one rank" {
	gen-kineto --ranks 2 --steps 4 --gz "$TMP/gz"
	tr-read "$TMP/gz" | tr-cat -J | jq -c 'select(.k != "header")' > "$TMP/gz.ndjson"
	tr-cat -J "$FIX/run.tr" | jq -c 'select(.k != "header")' > "$TMP/plain.ndjson"
	run diff "$TMP/plain.ndjson" "$TMP/gz.ndjson"
	assert_success
	run --separate-stderr tr-read "$TMP/gz/rank-1.json.gz"
	assert_success
	run bash -c "tr-read '$FIX/run/rank-1.json' 2>/dev/null | tr-cat -J | jq -r 'select(.k == \"process\").name'"
	assert_output "Rank 1"
}

@test "tr-read - reads a trace on standard input, piped or redirected, as by its name" {
	gen-kineto --ranks 1 --steps 2 --gz "$TMP/gz"
	tr-read "$TMP/gz/rank-0.json.gz" | tr-cat -J | jq -c 'select(.k != "header")' > "$TMP/named.ndjson"
	# a pipe is copied to a temporary file first (the reader reads twice);
	# gzip or not, as given
	for how in "cat '$TMP/gz/rank-0.json.gz' | tr-read -" "zcat '$TMP/gz/rank-0.json.gz' | tr-read -" \
		"tr-read - < '$TMP/gz/rank-0.json.gz'"; do
		run --separate-stderr bash -c "$how > '$TMP/in.tr'"
		assert_success
		run bash -c "tr-cat -J '$TMP/in.tr' | jq -c 'select(.k != \"header\")' | diff '$TMP/named.ndjson' -"
		assert_success
	done
	run bash -c "tr-cat -J '$TMP/in.tr' | jq -c 'select(.k == \"header\") | [.source, .stages[0].args]'"
	assert_output '["/dev/stdin",["-"]]'
	# the temporary copy is made in TMPDIR, and gone at once
	mkdir "$TMP/tmpdir"
	run bash -c "cat '$TMP/gz/rank-0.json.gz' | TMPDIR='$TMP/tmpdir' tr-read - | tr-cat --check && ls -A '$TMP/tmpdir'"
	assert_success
	assert_output ""
	run --separate-stderr bash -c "cat '$TMP/gz/rank-0.json.gz' | TMPDIR='$TMP/none' tr-read -"
	assert_failure 1
	assert_equal "$stderr" "tr-read: -: standard input: cannot keep a copy in TMPDIR=$TMP/none to read: No such file or directory"
	# with another trace, or where no trace comes
	run --separate-stderr bash -c "tr-read - '$TMP/gz/rank-0.json.gz' < /dev/null"
	assert_failure 1
	assert_equal "$stderr" "tr-read: -: - (standard input) is a trace of its own: give it alone"
	run --separate-stderr bash -c "tr-read - < /dev/null"
	assert_failure 1
	[[ "$stderr" == "tr-read: -: not a trace tr-read reads (it reads OTF2"* ]] || fail "$stderr"
}

@test "standard input that is no trace is refused before any of it is kept; a copy stops short of filling TMPDIR; a folder is said to be one (turn3 F9, F16)" {
	mkdir "$TMP/tmpdir"
	# endless zeros: refused at once, from a device or a pipe, nothing kept
	for how in "tr-read - < /dev/zero" "cat /dev/zero | tr-read -"; do
		run --separate-stderr timeout 10 bash -c "TMPDIR='$TMP/tmpdir' $how"
		assert_failure 1
		[[ "$stderr" == "tr-read: -: not a trace tr-read reads (it reads OTF2"* ]] || fail "$how: $stderr"
	done
	run ls -A "$TMP/tmpdir"
	assert_output ""
	run --separate-stderr bash -c "tr-read - < '$TMP'"
	assert_failure 1
	assert_equal "$stderr" "tr-read: -: standard input is a folder: give a folder of traces by its name"
	# the start of a Kineto trace, then more than a small TMPDIR holds
	mkdir "$TMP/small"
	mount -t tmpfs -o size=16m tmpfs "$TMP/small" 2>/dev/null || skip_unless tmpfs "cannot mount a tmpfs here"
	run --separate-stderr bash -c "(printf '{\"traceEvents\":['; head -c 50000000 /dev/zero | tr '\0' ' ') |
		TMPDIR='$TMP/small' tr-read -"
	umount_and() { umount "$TMP/small"; "$@"; }
	[[ "$stderr" == "tr-read: -: standard input: its copy in TMPDIR=$TMP/small reached 1"*" MB, and more would leave it nearly full: give the trace as a file (or TMPDIR a roomier folder)" ]] ||
		umount_and fail "$stderr"
	umount_and assert_failure 1
}

@test "NCCL kernels without PyTorch 2.x's metadata: said once, not matched; integer microseconds since the epoch" {
	gen-kineto --old --ranks 2 --steps 3 "$TMP/old"
	run --separate-stderr tr-read "$TMP/old"
	assert_success
	assert_equal "$stderr" "tr-read: $TMP/old: 6 NCCL kernels without the collective's name, process group and sequence number (PyTorch 2.x's profiler writes them): not matched across ranks"
	run bash -c "tr-read '$TMP/old' 2>/dev/null | tr-cat -J | jq -c 'select(.k == \"coll_end\" or .k == \"comm\")' | wc -l"
	assert_output 0
}

@test "a process group with a rank whose trace is not given: not matched, said once" {
	gen-kineto --ranks 3 --steps 2 --compute 100,200,300 "$TMP/three"
	run --separate-stderr tr-read --stats "$TMP/three/rank-0.json" "$TMP/three/rank-2.json"
	assert_success
	[[ "$stderr" == *"1 ranks of the run (distributedInfo's world_size) without a trace given"* ]] || fail "$stderr"
	[[ "$stderr" == *": 4 NCCL kernels on process groups not matched across ranks"* ]] || fail "$stderr"
	[[ "$stderr" == *'NCCL collectives not matched across ranks on process group "0": the traces of 1 of its 3 ranks were not given'* ]] || fail "$stderr"
}

# A trace of the events given (JSON objects, one a line) in a file $TMP/$1.json.
trace() {
	local name=$1
	shift
	{
		echo '{"schemaVersion": 1, "traceEvents": ['
		printf '%s\n' "$@" | paste -sd,
		echo '], "traceName": "t"}'
	} > "$TMP/$name.json"
}

@test "decimal times keep every nanosecond: a double of microseconds since the epoch would not" {
	# 1707417525512145.123 us cannot be told apart from .125 in a double
	trace dec '{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1707417525512145.123, "dur": 0.877}' \
		'{"ph": "X", "cat": "cpu_op", "name": "b", "pid": 1, "tid": 1, "ts": 1707417525512146.001, "dur": 1e-3}'
	run bash -c "tr-read '$TMP/dec.json' | tr-cat -J | jq -r 'select(.t != null) | \"\(.k) \(.t)\"'"
	assert_output "enter 0
leave 877
enter 878
leave 879"
}

@test "activities alike (same start, same length) nest as the file gives them: the first outside" {
	trace same '{"ph": "X", "cat": "cpu_op", "name": "inner", "pid": 1, "tid": 1, "ts": 100, "dur": 5}' \
		'{"ph": "X", "cat": "cpu_op", "name": "outer", "pid": 1, "tid": 1, "ts": 100, "dur": 5}' \
		'{"ph": "X", "cat": "cpu_op", "name": "zero", "pid": 1, "tid": 1, "ts": 105, "dur": 0}' \
		'{"ph": "X", "cat": "cpu_op", "name": "next", "pid": 1, "tid": 1, "ts": 105, "dur": 2}'
	run --separate-stderr bash -c "tr-read '$TMP/same.json' | tr-cat -J | jq -rs '(map(select(.k == \"region\") | {key: (.id | tostring), value: .name}) | from_entries) as \$n | .[] | select(.t != null) | \"\(.k) \(.t) \(\$n[.r | tostring])\"'"
	assert_output "enter 0 inner
enter 0 outer
leave 5000 outer
leave 5000 inner
enter 5000 zero
leave 5000 zero
enter 5000 next
leave 7000 next"
	assert_equal "$stderr" ""
}

@test "PyTorch 1.8's profiler: capitalized categories, a GPU stream named in tid, the stream in args" {
	trace old '{"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 100, "dur": 5, "args": {"correlation": 3}}' \
		'{"ph": "X", "cat": "Kernel", "name": "k", "pid": 0, "tid": "stream 7", "ts": 110, "dur": 20, "args": {"correlation": 3, "device": 0, "stream": 7}}'
	run bash -c "tr-read '$TMP/old.json' | tr-deps | tr-cat -J | jq -c 'select(.k == \"enter\" or .k == \"edge\")'"
	assert_output '{"k":"enter","id":0,"t":0,"s":0,"r":0,"ref_stream":1,"corr":3}
{"k":"enter","id":2,"t":10000,"s":1,"r":1,"corr":3}
{"k":"edge","from":0,"to":2,"type":"launch"}'
}

@test "bad input: one line naming the file, the byte and what is wrong; exit 1" {
	printf '{"traceEvents": [{"ph": "X", "ts": 1,, }]}' > "$TMP/bad.json"
	run --separate-stderr tr-read "$TMP/bad.json"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/bad.json: byte 17 of its text: a string expected"
	printf '{"schemaVersion": 1}' > "$TMP/other.json"
	run --separate-stderr tr-read "$TMP/other.json"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/other.json: byte 0 of its text: no traceEvents: a JSON object, not a Chrome trace-event file"
	printf '{"traceEvents": 7}' > "$TMP/notarray.json"
	run --separate-stderr tr-read "$TMP/notarray.json"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/notarray.json: byte 16 of its text: traceEvents is not an array"
	gen-kineto --ranks 2 --steps 1 "$TMP/twice"
	cp "$TMP/twice/rank-0.json" "$TMP/twice/rank-0-copy.json"
	run --separate-stderr tr-read "$TMP/twice"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/twice: $TMP/twice/rank-0-copy.json and $TMP/twice/rank-0.json are both rank 0 (their distributedInfo)"
}

@test "a trace cut short (a profiler killed) is read up to the cut, and said" {
	gen-kineto --ranks 1 --steps 200 "$TMP/cut"
	head -c 5000 "$TMP/cut/rank-0.json" > "$TMP/cut.json"
	run --separate-stderr tr-read "$TMP/cut.json"
	assert_success
	assert_equal "$stderr" "tr-read: $TMP/cut.json: 1 traces cut inside traceEvents (a profiler killed, or a full disk): read up to the cut"
	gzip -c "$TMP/cut/rank-0.json" | head -c 5000 > "$TMP/cut.json.gz"
	run --separate-stderr tr-read "$TMP/cut.json.gz"
	assert_success
	[[ "$stderr" == *"1 traces cut inside traceEvents"* ]] || fail "$stderr"
}

@test "a progress line on a terminal (events, rate, share of the input), erased at the end; none otherwise or with -q" {
	gen-kineto --ranks 1 --steps 30000 "$TMP/long"
	script -qec "tr-read -M '$TMP/long' > /dev/null" "$TMP/tty.log" > /dev/null
	assert_progress_line tr-read events "$TMP/tty.log"
	grep -q $'\r\e\[K\r*$' "$TMP/tty.log" || fail "the line is not erased: $(cat -A "$TMP/tty.log" | tail -3)"
	script -qec "tr-read -q -M '$TMP/long' > /dev/null" "$TMP/quiet.log" > /dev/null
	assert_no_progress_line events "$TMP/quiet.log"
	run --separate-stderr tr-read -M "$TMP/long"
	assert_success
	assert_equal "$stderr" ""
}

@test "--stats: the input's records by kind, read and skipped" {
	run --separate-stderr tr-read --stats "$FIX/run/rank-0.json"
	assert_success
	[[ "$stderr" == *"kernel                                  8          0"* ]] || fail "$stderr"
	[[ "$stderr" == *"s, f (flows: as correlation)            0         16"* ]] || fail "$stderr"
	[[ "$stderr" == *"cuda_sync (references)                  8          0"* ]] || fail "$stderr"
}

@test "strings that are not UTF-8 (raw bytes, a lone surrogate, a file's name): U+FFFD in the stream, said once; a bad \\u escape is an error" {
	R="$DATA/repros"
	run --separate-stderr tr-read "$R/kineto-bad-u-escape.json"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $R/kineto-bad-u-escape.json: byte 16 of its text: a bad escape in a string"
	# a\xffb: one string repaired, said; the stream is one tr-cat --check accepts
	tr-read "$R/kineto-raw-invalid-utf8.json" > "$TMP/raw.tr" 2> "$TMP/raw.err"
	assert_equal "$(cat "$TMP/raw.err")" "tr-read: $R/kineto-raw-invalid-utf8.json: 1 strings that are not valid UTF-8 (names, the input's name): the bytes that break them written as U+FFFD"
	run tr-cat --check "$TMP/raw.tr"
	assert_success
	run bash -c "tr-cat -J '$TMP/raw.tr' | jq -r 'select(.k==\"region\") | .name'"
	assert_output "a"$'\xef\xbf\xbd'"b"
	# a\ud800b: half a surrogate pair is no character: U+FFFD
	run bash -c "tr-read '$R/kineto-lone-surrogate.json' | tr-cat -J | jq -r 'select(.k==\"region\") | .name'"
	assert_success
	assert_output "a"$'\xef\xbf\xbd'"b"
	# a file whose name is Latin-1: the header's source and arguments repaired too
	latin=$(printf '%s/caf\xe9.json' "$TMP")
	cp "$R/kineto-lone-surrogate.json" "$latin"
	tr-read "$latin" > "$TMP/latin.tr" 2> "$TMP/latin.err"
	assert_equal "$(grep -c 'strings that are not valid UTF-8' "$TMP/latin.err")" 1
	run tr-cat --check "$TMP/latin.tr"
	assert_success
	run bash -c "tr-cat -J '$TMP/latin.tr' | jq -r 'select(.k==\"header\") | .source'"
	assert_output "$TMP/caf"$'\xef\xbf\xbd'".json"
	# and every picture of it is well-formed
	tr-deps "$TMP/raw.tr" 2>/dev/null | tr-waits | tr-critpath > "$TMP/a.tr"
	tr-svg "$TMP/a.tr" > "$TMP/a.svg"
	python3 -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" "$TMP/a.svg"
	tr-chrome "$TMP/a.tr" > "$TMP/a.json"
	jq -e . "$TMP/a.json" > /dev/null
}

@test "messages fit one line and say what is wrong in the user's terms: a gzip CRC error, a file name with a newline (turn3 F15, F16)" {
	run --separate-stderr tr-read "$DATA/repros/kineto-gzip-crc.json.gz"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $DATA/repros/kineto-gzip-crc.json.gz: gzip data damaged (incorrect data check), after 0 bytes of its text"
	odd=$(printf '%s/a\nb\xe9.json' "$TMP")
	cp "$DATA/repros/kineto-bad-u-escape.json" "$odd"
	run --separate-stderr tr-read "$odd"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/a\\nb\\xe9.json: byte 16 of its text: a bad escape in a string"
}

@test "a ROCm trace's HIP calls have their CUDA roles: hipMemcpyWithStream is a blocking copy on its stream" {
	# t = 0 at 100 us. hipLaunchKernel (10..15 us) launches k on stream 3
	# (20..50 us); hipMemcpyWithStream (30..70 us) enqueues the copy that
	# runs 55..65 us on the same stream, and blocks: it waits for the
	# kernel before it (sync edge 5 -> 8, blame_kernel 30..50 us = 20 us on
	# k) and for its own copy (7 -> 8); the GPU idles 50..55 us inside the
	# call (gpu_idle 5 us on it). Read as a generic call (before), the
	# copy had no call and the call waited for nothing.
	trace hip '{"ph": "X", "cat": "cpu_op", "name": "step", "pid": 1, "tid": 1, "ts": 100, "dur": 100}' \
		'{"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 110, "dur": 5, "args": {"correlation": 1}}' \
		'{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 3, "ts": 120, "dur": 30, "args": {"correlation": 1, "device": 0, "stream": 3}}' \
		'{"ph": "X", "cat": "cuda_runtime", "name": "hipMemcpyWithStream", "pid": 1, "tid": 1, "ts": 130, "dur": 40, "args": {"correlation": 2}}' \
		'{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pageable)", "pid": 0, "tid": 3, "ts": 155, "dur": 10, "args": {"correlation": 2, "device": 0, "stream": 3}}'
	run --separate-stderr bash -c "set -o pipefail; tr-read '$TMP/hip.json' | tr-deps | tr-waits -J | grep -E '\"k\":\"(edge|wait|blame)\"'"
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":3,"type":"launch"}
{"k":"blame","to":4,"r":3,"ns":5000,"pattern":"gpu_idle","wait":3,"s":0}
{"k":"edge","from":4,"to":6,"type":"launch"}
{"k":"edge","from":5,"to":8,"type":"sync"}
{"k":"edge","from":7,"to":8,"type":"sync"}
{"k":"wait","at":4,"t":30000,"dur":20000,"pattern":"blame_kernel","s":0,"cause":5,"r":3}
{"k":"blame","to":3,"r":2,"ns":20000,"pattern":"blame_kernel","wait":4,"s":1}
OUT
}
