#!/usr/bin/env bats
# tr-chrome: an analysed stream as Chrome trace-event JSON, checked by a
# structural validator that fails on malformed output
# (tests/helper/chrome-check.py: JSON, ph/ts/pid/tid on every event, B/E
# nested per thread, flows paired) and against the stream: the path's
# track adds up to tr-critpath's path, waits and blame are where the
# records put them.

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# The sum of the stream's crit records, ns.
path_ns() {
	tr-cat -J "$1" | jq -s '[.[] | select(.k == "crit") | .dur] | add'
}

@test "docs/stream.md's example: the late sender's wait and its blame as the slices' args, by hand" {
	doc_examples | tr-cat -M > "$TMP/run.tr"
	tr-chrome "$TMP/run.tr" > "$TMP/run.json"
	run chrome-check.py "$TMP/run.json"
	assert_success
	assert_output "$(path_ns "$TMP/run.tr") 4"
	# MPI_Recv (enter 6, at 1950 ns, the run starting at 1000 ns) waited 50 ns as a late sender
	run jq -c '.traceEvents[] | select(.ph == "B" and .args.wait != null) | [.name, .ts, .args.wait, .args.wait_ns]' "$TMP/run.json"
	assert_output '["MPI_Recv",0.95,"late_sender",50]'
	# the sender's main on rank 1 (enter 1) got the blame; the idle blame, rank 0's main's, apart
	run jq -c '[.traceEvents[] | select(.ph == "B" and (.args.blame_ns or .args.gpu_idle_blame_ns)) | [.pid, .name, .args.blame_ns, .args.gpu_idle_blame_ns]]' "$TMP/run.json"
	assert_output '[[0,"main",null,50],[1,"main",50,null]]'
	# processes and streams named, the path's track first
	run jq -r '.traceEvents[] | select(.ph == "M" and .name == "process_name") | .args.name' "$TMP/run.json"
	assert_output "$(printf 'MPI Rank 0\nMPI Rank 1\ncritical path')"
}

@test "generated archives (MPI + OpenMP + CUDA, GPU-heavy): valid, the path's track is the path, a thread per stream" {
	gen-otf2 -i 50 "$TMP/j/t" > /dev/null
	gen-otf2 -g 4 -t 1 -i 50 "$TMP/o/t" > /dev/null
	for a in j o; do
		analysed "$TMP/$a/t.otf2" "$TMP/$a.tr"
		# from a pipe too: read twice through a copy
		tr-chrome < "$TMP/$a.tr" > "$TMP/$a.json"
		run chrome-check.py "$TMP/$a.json"
		assert_success
		streams=$(tr-cat -J "$TMP/$a.tr" | jq -s '[.[] | select(.k == "stream" and .type != "metric")] | length')
		# every host thread and GPU stream with activities, and the path's track
		assert_output "$(path_ns "$TMP/$a.tr") $((streams + 1))"
		# an arrow wherever the path changes stream
		changes=$(tr-cat -J "$TMP/$a.tr" | jq -s '[.[] | select(.k == "crit") | .s] |
			[range(1; length) as $i | select(.[$i] != .[$i - 1])] | length')
		[ "$(jq '[.traceEvents[] | select(.ph == "s")] | length' "$TMP/$a.json")" -eq "$changes" ]
	done
}

@test "the corpus's CUDA trace: valid, its path's track tr-critpath's length" {
	corpus_setup
	analysed "$(archive casita-2_cuda_simple)" "$TMP/c.tr"
	tr-chrome "$TMP/c.tr" > "$TMP/c.json"
	run chrome-check.py "$TMP/c.json"
	assert_success
	len=$(tr-critpath --summary "$TMP/c.tr" 2>&1 >/dev/null | sed -n 's/.*critical path \([0-9.]*\) s of.*/\1/p' | tr -d .)
	[ "$(cut -d' ' -f1 <<< "$output")" -eq "$((10#$len))" ]
}

@test "names are JSON strings whatever they hold; a stream not analysed, or empty, is refused" {
	doc_examples | sed 's/"name":"cuLaunchKernel"/"name":"a \\"quoted\\" \\\\ name\\tand tab"/' | tr-cat -M > "$TMP/q.tr"
	tr-chrome "$TMP/q.tr" > "$TMP/q.json"
	run chrome-check.py "$TMP/q.json"
	assert_success
	run jq -r '.traceEvents[] | select(.ph == "B" and .args.region == 3) | .name' "$TMP/q.json"
	assert_output "$(printf 'a "quoted" \\ name\tand tab')"
	gen-otf2 -i 5 "$TMP/g/t" > /dev/null
	run --separate-stderr bash -c "tr-read '$TMP/g/t.otf2' | tr-deps | tr-chrome"
	assert_failure 1
	[[ $stderr == *"has not been through tr-waits: run it before tr-chrome"* ]] || fail "$stderr"
	run --separate-stderr tr-chrome < /dev/null
	assert_failure 1
	assert_equal "$stderr" "tr-chrome: <stdin>: empty input: no records (not a record stream)"
}

@test "the validator fails on malformed output: an E missing, a flow unpaired, a field missing, not JSON" {
	gen-otf2 -i 5 "$TMP/g/t" > /dev/null
	tr-read "$TMP/g/t.otf2" 2>/dev/null | tr-deps 2>/dev/null | tr-waits 2>/dev/null |
		tr-critpath 2>/dev/null | tr-chrome > "$TMP/good.json"
	chrome-check.py "$TMP/good.json" > /dev/null
	[ "$(jq '[.traceEvents[] | select(.ph == "f")] | length' "$TMP/good.json")" -gt 0 ]
	jq -c '.traceEvents |= (map(select(.ph != "E")))' "$TMP/good.json" > "$TMP/bad1.json"
	run chrome-check.py "$TMP/bad1.json"
	assert_failure 1
	jq -c '.traceEvents |= (map(select(.ph != "f")))' "$TMP/good.json" > "$TMP/bad2.json"
	run chrome-check.py "$TMP/bad2.json"
	assert_failure 1
	jq -c '.traceEvents[5] |= del(.ts)' "$TMP/good.json" > "$TMP/bad3.json"
	run chrome-check.py "$TMP/bad3.json"
	assert_failure 1
	head -c 200 "$TMP/good.json" > "$TMP/bad4.json"
	run chrome-check.py "$TMP/bad4.json"
	assert_failure
}
