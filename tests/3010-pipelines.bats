#!/usr/bin/env bats
# The recipes of pipelines/ run as a user runs them: analyze.mk's targets,
# made again only when what they are made of changes; the shell questions
# against docs/stream.md's example by hand and against the streams of
# generated archives; tools/compare-builds, tools/shard-traffic and tools/clock-fixpoint, as the team runs them.

load common

setup() {
	TMP=$(mktemp -d)
	doc_examples | tr-cat -M > "$TMP/doc.tr"
}

teardown() {
	rm -rf "$TMP"
}

@test "analyze.mk: every output, each the tool's own; made again only from what changed; a failed step leaves no target" {
	gen-otf2 -i 30 "$TMP/run/traces" > /dev/null
	cd "$TMP"
	make -s -f "$TOP/pipelines/analyze.mk" TRACE=run/traces.otf2 OUT=out > /dev/null 2>&1
	run ls out
	assert_output "$(printf 'analysed.tr\nannotated\nannotated.def\nannotated.otf2\ndeps.tr\nperfetto.json\nrating.json\nrating.txt\nread.tr\nreport.html\ntimeline.svg\nwaits.tr')"
	analysed run/traces.otf2 p.tr
	tr-rank -n 0 p.tr | sed 1d | diff - <(sed 1d out/rating.txt)
	chrome-check.py out/perfetto.json > /dev/null
	otf2-print out/annotated.otf2 > /dev/null
	tr-svg p.tr | cmp - out/timeline.svg
	tr-report p.tr | cmp - out/report.html
	run make -f "$TOP/pipelines/analyze.mk" TRACE=run/traces.otf2 OUT=out
	assert_output --partial "Nothing to be done"
	# a location file changed: the stream read again, and all after it
	touch -d '+1 min' run/traces/1.evt
	run make -f "$TOP/pipelines/analyze.mk" TRACE=run/traces.otf2 OUT=out
	assert_output --partial "tr-read -q run/traces.otf2"
	assert_output --partial "tr-chrome out/analysed.tr"
	# tr-waits failing (a deps.tr that never went through tr-deps): no waits.tr, nothing after it
	mkdir bad
	cp out/read.tr bad/read.tr && touch -d '+2 min' bad/read.tr
	cp out/read.tr bad/deps.tr && touch -d '+3 min' bad/deps.tr
	run make -f "$TOP/pipelines/analyze.mk" TRACE=run/traces.otf2 OUT=bad
	assert_failure
	[ ! -e bad/waits.tr ] && [ ! -e bad/waits.tr.part ] && [ ! -e bad/analysed.tr ]
	# interrupted while a stream is half written: make removes it
	mkdir slow && ln -s "$TOP"/bin/* slow/ && rm slow/tr-read
	printf '#!/bin/sh\nprintf half\nexec sleep 30\n' > slow/tr-read && chmod +x slow/tr-read
	make -f "$TOP/pipelines/analyze.mk" TRACE=run/traces.otf2 OUT=cut TR_BIN="$TMP/slow" > /dev/null 2>&1 &
	for i in $(seq 50); do [ -s cut/read.tr ] && break; sleep 0.1; done
	[ -s cut/read.tr ]
	kill -TERM $!
	wait $! || true
	run ls -A cut
	assert_output ""
	run make -f "$TOP/pipelines/analyze.mk"
	assert_failure
	assert_output --partial "give the trace: make -f pipelines/analyze.mk TRACE="
}

@test "longest-waits.sh: the example's late sender by hand; a generated run's longest first, its N" {
	run "$TOP/pipelines/longest-waits.sh" "$TMP/doc.tr"
	assert_success
	assert_output "$(printf '0.000000050\tlate_sender\tMPI_Recv\tMPI Rank 0\tMaster thread')"
	gen-otf2 -i 30 "$TMP/g/t" > /dev/null
	analysed "$TMP/g/t.otf2" "$TMP/g.tr"
	run "$TOP/pipelines/longest-waits.sh" "$TMP/g.tr" 4
	assert_success
	[ "${#lines[@]}" -eq 4 ]
	longest=$(tr-cat -J "$TMP/g.tr" | jq -s '[.[] | select(.k == "wait") | .dur] | max')
	assert_equal "$(cut -f1 <<< "${lines[0]}")" "$(awk -v n="$longest" 'BEGIN { printf "%.9f", n / 1e9 }')"
	sort -rn -k1,1 <<< "$output" | diff - <(echo "$output")
	run "$TOP/pipelines/longest-waits.sh" "$TMP/g.tr" x
	assert_failure 2
}

@test "waits-by-rank.sh: the example by hand; a generated run's totals per pattern are tr-rank's" {
	run "$TOP/pipelines/waits-by-rank.sh" "$TMP/doc.tr"
	assert_success
	assert_output "$(printf '0\tMPI Rank 0\tlate_sender\t1\t0.000000050')"
	gen-otf2 -i 30 "$TMP/g/t" > /dev/null
	analysed "$TMP/g/t.otf2" "$TMP/g.tr"
	"$TOP/pipelines/waits-by-rank.sh" "$TMP/g.tr" |
		awk -F'\t' '{ n[$3] += $4; s[$3] += $5 } END { for (p in n) printf "%s %d %.9f\n", p, n[p], s[p] }' |
		sort > "$TMP/ours"
	tr-rank --json "$TMP/g.tr" | tr-cat -J |
		jq -r 'select(.k == "wait_summary" and .pattern != "gpu_idle" and .pattern != "blame_sync") |
			"\(.pattern) \(.count) \(.ns)"' |
		awk '{ printf "%s %d %.9f\n", $1, $2, $3 / 1e9 }' | sort | diff - "$TMP/ours"
}

@test "path-over-time.sh: the example's path all on its GPU stream; a generated run's windows each whole" {
	run "$TOP/pipelines/path-over-time.sh" "$TMP/doc.tr" 2
	assert_success
	assert_output "$(printf '0.000000000-0.000000050\tMPI Rank 0: CUDA[0:7]\t100\n0.000000050-0.000000100\tMPI Rank 0: CUDA[0:7]\t100')"
	gen-otf2 -i 30 "$TMP/g/t" > /dev/null
	analysed "$TMP/g/t.otf2" "$TMP/g.tr"
	run "$TOP/pipelines/path-over-time.sh" "$TMP/g.tr" 5
	assert_success
	[ "${#lines[@]}" -eq 5 ]
	# each window's shares add up to 100 %, give or take their rounding
	for line in "${lines[@]}"; do
		awk -F'\t' '{ for (i = 3; i <= NF; i += 2) s += $i; exit !(s > 99.9 && s < 100.1) }' <<< "$line" ||
			fail "a window that is not whole: $line"
	done
	run --separate-stderr "$TOP/pipelines/path-over-time.sh" "$TMP/g.tr" 0
	assert_failure 2
}

@test "tools/compare-builds: a build against itself, nothing differs; a build whose tr-waits says otherwise, that output and exit 1" {
	gen-otf2 -i 20 "$TMP/g/t" > /dev/null
	run "$TOP/tools/compare-builds" "$TOP/bin" "$TOP/bin" "$TMP/g/t.otf2"
	assert_success
	assert_output "1 inputs, 0 outputs differ"
	# another build: these tools, with a tr-waits that leaves the late senders out
	mkdir "$TMP/other"
	for t in "$TOP"/bin/tr-*; do ln -s "$t" "$TMP/other/"; done
	rm "$TMP/other/tr-waits"
	printf '#!/bin/sh\n"%s" "$@" | "%s" -J | grep -v late_sender | "%s" -M\n' \
		"$TOP/bin/tr-waits" "$TOP/bin/tr-cat" "$TOP/bin/tr-cat" > "$TMP/other/tr-waits"
	chmod +x "$TMP/other/tr-waits"
	run "$TOP/tools/compare-builds" "$TOP/bin" "$TMP/other" "$TMP/g/t.otf2"
	assert_failure 1
	assert_output "$(printf '%s\n' "$TMP/g/t.otf2: waits differs" "$TMP/g/t.otf2: critpath differs" \
		"$TMP/g/t.otf2: rank differs" "1 inputs, 3 outputs differ")"
	run "$TOP/tools/compare-builds" "$TOP/bin"
	assert_failure 2
}

@test "tools/clock-fixpoint: tr-clock's new times and stream on a hand scenario and on a skewed run; bad usage" {
	set -o pipefail
	# tests/1008's receive before its send, by hand there: the same 7 of 14 moved
	cat "$DATA/mpi/defs.ndjson" "$DATA/clock/recv-early.ndjson" | tr-deps -J > "$TMP/d.json"
	tr-clock -J "$TMP/d.json" > "$TMP/c.json"
	run "$TOP/tools/clock-fixpoint" "$TMP/d.json" "$TMP/c.json"
	assert_success
	assert_output "14 events, 7 moved, 0 differ from tr-clock's (by 0 ns at most)"
	# and the stream it writes is tr-clock's, record for record, but for the header's stages
	"$TOP/tools/clock-fixpoint" --write "$TMP/d.json" > "$TMP/f.json"
	cmp <(grep -v '"k":"header"' "$TMP/f.json") <(grep -v '"k":"header"' "$TMP/c.json")
	tr-cat --check "$TMP/f.json"
	# rank 1's clock 50000 ticks off, a run shorter than the window (no
	# event written before the end): tr-clock goes back to a move that
	# another process's later move lets go further, so whatever order its
	# edges came in it ends where the rules do (before, 106 events of the
	# other ranks stayed 20 ns short)
	gen-otf2 -r 4 -t 2 -k 50000 -i 5 "$TMP/g/t" > /dev/null
	tr-read -M "$TMP/g/t.otf2" | tr-deps -J > "$TMP/d.json"
	tr-clock -J "$TMP/d.json" > "$TMP/c.json" 2> /dev/null
	run "$TOP/tools/clock-fixpoint" "$TMP/d.json" "$TMP/c.json"
	assert_success
	assert_output "712 events, 534 moved, 0 differ from tr-clock's (by 0 ns at most)"
	run "$TOP/tools/clock-fixpoint" "$TMP/d.json"
	assert_failure 1
	assert_output "usage: tools/clock-fixpoint [--window SECONDS] DEPS.ndjson CLOCK.ndjson, or [--window SECONDS] --write DEPS.ndjson"
	run "$TOP/tools/clock-fixpoint" --window 0 "$TMP/d.json" "$TMP/c.json"
	assert_failure 1
}

@test "tools/shard-traffic: what would cross shards of processes, by hand on a late sender; bad usage" {
	# tests/data/mpi late-sender: ranks 0, 1, 2 (streams 0, 1, 2); 12 events,
	# 7 on rank 0, 5 on rank 1. At P = 2 ranks 0 and 1 are one block (p * 2
	# / 3 = 0), rank 2 (no events) the other: all 12 events in one shard
	# (12 against a mean of 6), nothing crosses. At P = 3 rank 1 is alone in
	# its shard: the message edge (rank 0 to 1) crosses, the path hands over
	# once (0 to 1), and both shares of rank 1's wait blame rank 0.
	# (40 + 32 + 2 x 40) / 12 bytes.
	set -o pipefail
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" | tr-deps -M | tr-waits -M | tr-critpath -M > "$TMP/a.tr"
	run bash -c "tr-cat -J '$TMP/a.tr' | '$TOP/tools/shard-traffic' 2 3"
	assert_success
	assert_output '| P | events | largest shard / mean | edges crossing | path hand-overs | blame crossing | bytes/event |
|---|---|---|---|---|---|---|
| 2 | 12 | 2.00 | 0 of 1 () | 0 | 0 of 2 | 0.00 |
| 3 | 12 | 1.75 | 1 of 1 (msg 1) | 1 | 2 of 2 | 12.67 |'
	run bash -c "tr-cat -J '$TMP/a.tr' | '$TOP/tools/shard-traffic' 0"
	assert_failure 1
	assert_output "usage: tr-cat -J analysed.tr | shard-traffic [P ...]"
}
