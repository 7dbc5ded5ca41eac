#!/usr/bin/env bats
# tr-critpath on hand-written scenarios: every crit record computed by hand
# below and compared exactly (integer ns). A scenario is the MPI or CUDA
# defs of tests/data/{mpi,cuda}/defs.ndjson followed by
# tests/data/crit/NAME.ndjson, through tr-deps and tr-waits.
#
# The rule: walking back from the run's end (the latest leave of
# MPI_Finalize, else the last event of the streams that did the main work:
# GPU work, GPU calls that give or wait for it, MPI; else the last event),
# each event's predecessor is the
# later of the event before it on its stream and the sources of edges into
# it (for a leave, an edge counts if it is later than the activity's
# enter); ties stay on the stream, then the edge read first. Between two
# events of one stream the path is in the activity open after the first;
# across an edge it is charged to the activity of the edge's source until
# that activity ends, then to the activity open on the target's stream
# before the target (none: in no activity).

load common

# The crit records of scenario NAME after the defs of KIND (mpi, cuda):
# tests/data/crit/NAME.ndjson, else tests/data/KIND/NAME.ndjson; then
# tr-critpath's options. BEFORE_CRIT, if set, names a filter to run
# between tr-waits and tr-critpath.
path_of() {
	local f=$DATA/crit/$2.ndjson

	[ -e "$f" ] || f=$DATA/$1/$2.ndjson
	set -o pipefail
	cat "$DATA/$1/defs.ndjson" "$f" |
		tr-deps -M | tr-waits -M | "${BEFORE_CRIT:-cat}" | tr-critpath -J "${@:3}" |
		grep '"k":"crit"'
}

# CASITA's rule: edges against time dropped (pipelines/casita-reverse-edges.jq).
casita_edges() {
	tr-cat -J | jq -c -n -f "$TOP/pipelines/casita-reverse-edges.jq"
}

@test "late sender: the path moves to the sender" {
	# rank 1 waits in Recv 100..900 for rank 0's send (810), then ends at 1000.
	# Back from 1000 on rank 1: recv (900) waited for the send (810 > Recv
	# enter 100): to rank 0 at the send; Send 800..810 and its transit to
	# 900 until the Send ends (850), the rest (850..900, the message still
	# on its way) on rank 1's Recv.
	run --separate-stderr path_of mpi late-sender
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":200,"act":0,"r":0}
{"k":"crit","s":0,"t":200,"dur":500,"act":3,"r":14}
{"k":"crit","s":0,"t":700,"dur":100,"act":0,"r":0}
{"k":"crit","s":0,"t":800,"dur":50,"act":5,"r":1}
{"k":"crit","s":1,"t":850,"dur":50,"act":2,"r":2}
{"k":"crit","s":1,"t":900,"dur":100,"act":1,"r":0}
OUT
	assert_equal "$stderr" ""
}

@test "blame on the path: an activity's blame times its time on the path over its exclusive time" {
	# Rank 2 computes 0..550 (C), then sends to rank 1 (550..600); rank 1
	# computes 0..1000 (A) with a Recv from rank 2 inside it (300..600),
	# then sends to rank 0 (1000..1060), which waits in a Recv from 100.
	# Waits: rank 1 300..550 (250, on C, its only activity since the
	# start), rank 0 100..1000 (900, on A: its 400 exclusive since the Recv).
	# The path (from rank 1's Send leave, the last event): C 0..550, the
	# Send and its transit 550..600, A 600..1000, the Send 1000..1060.
	# A: 700 exclusive (1000 less the Recv's 300), 400 on the path:
	# 900 * 400 / 700 = 514 (514.29); C: 550 of 550, all of its 250.
	set -o pipefail
	run bash -c "cat '$DATA/mpi/defs.ndjson' '$DATA/crit/path-blame.ndjson' | tr-deps -M | tr-waits -M |
		tr-critpath -J | grep -E '\"k\":\"(crit|path_blame)\"'"
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":2,"t":0,"dur":550,"act":1,"r":14}
{"k":"crit","s":2,"t":550,"dur":50,"act":5,"r":1}
{"k":"crit","s":1,"t":600,"dur":400,"act":0,"r":14}
{"k":"path_blame","act":1,"r":14,"ns":250,"s":2}
{"k":"path_blame","act":0,"r":14,"ns":514,"s":1}
{"k":"crit","s":1,"t":1000,"dur":60,"act":11,"r":1}
OUT
	# tr-rank's column, its JSON and its first line
	cat "$DATA/mpi/defs.ndjson" "$DATA/crit/path-blame.ndjson" | tr-deps -M | tr-waits -M | tr-critpath -M \
		> "$BATS_TEST_TMPDIR/a.tr"
	run tr-rank "$BATS_TEST_TMPDIR/a.tr"
	assert_line --index 0 --partial "blame 0.000001150 s (0.000000764 s on the path)"
	assert_line --regexp '^ +1 +compute +2 .* 0\.000001150 100\.00% +0\.000000764 '
	run bash -c "tr-rank --json '$BATS_TEST_TMPDIR/a.tr' | jq -c 'select(.k == \"rating\" or .k == \"run_summary\") | [.name, .blame, .cp_blame]'"
	assert_output - <<'OUT'
[null,1150,764]
["compute",1150,764]
["MPI_Send",0,0]
["MPI_Recv",0,0]
OUT
	# run again on its own output: replaced, not added
	run bash -c "tr-critpath -M '$BATS_TEST_TMPDIR/a.tr' | tr-rank --json | jq 'select(.k == \"run_summary\") | .cp_blame'"
	assert_output 764
}

@test "late receiver: the blocking send's end leads to the receive's posting" {
	# rank 0's Send 100..600 waited for rank 1 to enter Recv (500); rank 0
	# ends last (1200). Back from it: the Send's leave to Recv's enter (500
	# > Send enter 100): rank 1's main 0..100, compute 100..500, then the
	# Recv's transit 500..600 to the Send's leave; rank 0's main to 1200.
	run --separate-stderr path_of mpi late-receiver
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":1,"t":0,"dur":100,"act":1,"r":0}
{"k":"crit","s":1,"t":100,"dur":400,"act":3,"r":14}
{"k":"crit","s":1,"t":500,"dur":100,"act":6,"r":2}
{"k":"crit","s":0,"t":600,"dur":600,"act":0,"r":0}
OUT
}

@test "barrier fan-in: the path comes from the last arriver, ends at Finalize" {
	# Ranks 0, 1, 2 compute until 300, 500, 200, then Barrier until 520;
	# then compute until 900, 600, 700 and Finalize until 950; main to 1000.
	# End: the latest leave of Finalize (950; equal, the last read: rank 2).
	# It waited for rank 0's Finalize enter (900); rank 0 back to its
	# Barrier leave (520), which waited for rank 1's enter (500, the last
	# arriver): rank 1's compute 0..500, its Barrier 500..520 in transit.
	run --separate-stderr path_of mpi barrier --summary
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":1,"t":0,"dur":500,"act":3,"r":14}
{"k":"crit","s":1,"t":500,"dur":20,"act":11,"r":7}
{"k":"crit","s":0,"t":520,"dur":380,"act":14,"r":14}
{"k":"crit","s":0,"t":900,"dur":50,"act":26,"r":13}
OUT
	# 950 ns on the path: rank 0 380 + 50 = 430 (45.26 %), rank 1 520.
	[[ "$stderr" == *"critical path 0.000000950 s of a 0.000001000 s run, 2 changes of stream, 33 events"* ]]
	# processes and streams by id and name
	[[ "$stderr" == *"  0 rank 0             all                           0.000000430   45.26%"* ]] || fail "$stderr"
	[[ "$stderr" == *"                       1 main thread                 0.000000520   54.74%"* ]] || fail "$stderr"
}

@test "offload: from the host to the GPU stream and back through a blocking sync" {
	# The host computes 0..50, launches 50..60, synchronizes 70..1000; the
	# kernel runs 80..980. Back from the end (1100): the sync's leave waited
	# for the kernel's leave (980 > sync enter 70), the kernel's enter for
	# its launch (50). The launch's transit to the kernel's enter (80) is the
	# launch until it ends (50..60), then the GPU stream before the kernel:
	# idle, in no activity (60..80, queued); the kernel 80..980, and its
	# transit to the sync's leave (1000) on the sync, as the kernel ended.
	run --separate-stderr path_of cuda offload
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":50,"act":1,"r":11}
{"k":"crit","s":0,"t":50,"dur":10,"act":3,"r":1}
{"k":"crit","s":2,"t":60,"dur":20}
{"k":"crit","s":2,"t":80,"dur":900,"act":6,"r":2}
{"k":"crit","s":0,"t":980,"dur":20,"act":5,"r":3}
{"k":"crit","s":0,"t":1000,"dur":50,"act":9,"r":11}
{"k":"crit","s":0,"t":1050,"dur":50,"act":0,"r":0}
OUT
}

@test "clock skew: a kernel that starts before its launch; CASITA's rule keeps the path on the GPU" {
	# The GPU's clock runs behind: kernel 1 runs 80..500, launched 100..110;
	# kernel 2 runs 710..990, launched 720..730. The host computes 110..700,
	# synchronizes 700..710 (kernel 1 ended long before: the path stays on
	# the host) and 740..1000 (waits for kernel 2). Back from main's end
	# (1050): the sync's leave to kernel 2's leave (990), its enter (710) to
	# its launch (720), a step back in time that takes 0 ns; kernel 2 is on
	# the path 720..990 (270), its transit to 1000 on the sync (it ended at
	# 990). Then the host: main
	# 710..720, sync 700..710, compute 110..700, launch 100..110, main 0..100.
	run --separate-stderr path_of cuda skewed-launch
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":100,"act":0,"r":0}
{"k":"crit","s":0,"t":100,"dur":10,"act":2,"r":1}
{"k":"crit","s":0,"t":110,"dur":590,"act":4,"r":11}
{"k":"crit","s":0,"t":700,"dur":10,"act":7,"r":3}
{"k":"crit","s":0,"t":710,"dur":10,"act":0,"r":0}
{"k":"crit","s":2,"t":720,"dur":270,"act":9,"r":2}
{"k":"crit","s":0,"t":990,"dur":10,"act":12,"r":3}
{"k":"crit","s":0,"t":1000,"dur":50,"act":0,"r":0}
OUT
	[[ "$stderr" == *"1 steps of the path go back in time"* ]] || fail "$stderr"
	# pipelines/casita-reverse-edges.jq drops both launch edges, as CASITA
	# drops edges against time: from kernel 2's enter the path goes back
	# along the GPU stream, idle 500..710 (210, in no activity) and kernel 1
	# 80..500 (420), where it begins: no event before it, no edge into it;
	# kernel 2 710..990 (280), its transit on the sync.
	BEFORE_CRIT=casita_edges run --separate-stderr path_of cuda skewed-launch
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":2,"t":80,"dur":420,"act":1,"r":2}
{"k":"crit","s":2,"t":500,"dur":210}
{"k":"crit","s":2,"t":710,"dur":280,"act":9,"r":2}
{"k":"crit","s":0,"t":990,"dur":10,"act":12,"r":3}
{"k":"crit","s":0,"t":1000,"dur":50,"act":0,"r":0}
OUT
}

@test "ties: an edge as late as the stream's own event does not move the path" {
	# Ranks 0 and 2 enter Allreduce at 400, rank 1 at 100; rank 0 ends last.
	# Rank 0's leave has an edge from rank 2's enter (400), not later than
	# its own enter (400): the path stays on rank 0.
	run --separate-stderr path_of mpi ties
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":400,"act":1,"r":14}
{"k":"crit","s":0,"t":400,"dur":50,"act":9,"r":8}
{"k":"crit","s":0,"t":450,"dur":550,"act":14,"r":14}
OUT
}

@test "ties: of two equally late edges the one read first wins" {
	# Kernels on streams 2 and 3 both end at 900; a context sync 50..950
	# has an edge from each, stream 2's first: the path goes to stream 2,
	# whose kernel (60..900) waited for its launch (10..20), then idle
	# 20..60; the transit 900..950 on the sync.
	run --separate-stderr path_of cuda sync-tie
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":10,"act":0,"r":0}
{"k":"crit","s":0,"t":10,"dur":10,"act":1,"r":1}
{"k":"crit","s":2,"t":20,"dur":40}
{"k":"crit","s":2,"t":60,"dur":840,"act":6,"r":2}
{"k":"crit","s":0,"t":900,"dur":50,"act":5,"r":4}
{"k":"crit","s":0,"t":950,"dur":50,"act":0,"r":0}
OUT
}

@test "-j: sub-paths resolved on several threads give the same bytes" {
	set -o pipefail
	for f in "$DATA"/crit/*.ndjson "$DATA"/mpi/[!d]*.ndjson "$DATA"/cuda/[!d]*.ndjson; do
		defs=$DATA/$(basename "$(dirname "$f")")/defs.ndjson
		[ "$(basename "$(dirname "$f")")" = crit ] && defs=$DATA/mpi/defs.ndjson &&
			grep -q '"ref_stream"' "$f" && defs=$DATA/cuda/defs.ndjson
		cat "$defs" "$f" | tr-deps -M 2>/dev/null | tr-waits -M 2>/dev/null > "$BATS_TEST_TMPDIR/in"
		tr-critpath -M -j 1 "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/one" 2>/dev/null
		tr-critpath -M -j 2 "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/two" 2>/dev/null
		cmp <(body "$BATS_TEST_TMPDIR/one") <(body "$BATS_TEST_TMPDIR/two")
	done
}

# N iterations of 720 ns: two ranks compute, meet at a Barrier (comm 1)
# that ends at 710, and go on after 10 ns of main. Rank 0 is late (compute
# 700, the other 300) in even iterations, rank 1 in odd ones.
alternating() {
	awk -v n="$1" 'BEGIN {
		id = 0
		for (i = 0; i < n; i++) {
			t = 720 * i; late = i % 2; early = 1 - late
			for (s = 0; s < 2; s++) {
				if (i == 0)
					print "{\"k\":\"enter\",\"id\":" id++ ",\"t\":0,\"s\":" s ",\"r\":0}"
				print "{\"k\":\"enter\",\"id\":" id++ ",\"t\":" t ",\"s\":" s ",\"r\":14}"
			}
			print "{\"k\":\"leave\",\"id\":" id++ ",\"t\":" t + 300 ",\"s\":" early ",\"r\":14}"
			print "{\"k\":\"enter\",\"id\":" id++ ",\"t\":" t + 300 ",\"s\":" early ",\"r\":7}"
			print "{\"k\":\"leave\",\"id\":" id++ ",\"t\":" t + 700 ",\"s\":" late ",\"r\":14}"
			print "{\"k\":\"enter\",\"id\":" id++ ",\"t\":" t + 700 ",\"s\":" late ",\"r\":7}"
			for (s = 0; s < 2; s++) {
				print "{\"k\":\"coll_end\",\"id\":" id++ ",\"t\":" t + 710 ",\"s\":" s ",\"comm\":1}"
				print "{\"k\":\"leave\",\"id\":" id++ ",\"t\":" t + 710 ",\"s\":" s ",\"r\":7}"
			}
		}
		for (s = 0; s < 2; s++)
			print "{\"k\":\"leave\",\"id\":" id++ ",\"t\":" 720 * n ",\"s\":" s ",\"r\":0}"
	}'
}

@test "a long run is written in pieces as it goes, with the exact path" {
	# 30 000 iterations, 300 004 events: collected several times (every
	# 65 536 events at least). The path: the late rank's compute (700), its
	# Barrier to 710 (the early rank's leave waited for it), then the next
	# late rank's main (10). Rank 0: iteration 0 (710, from its main enter
	# at 0) and 14 999 more even ones (720): 10 799 990 ns; rank 1: 15 000
	# odd ones and the last 10 of main: 10 800 010. Pieces: 2 in iteration
	# 0, 3 in each later one, the last main: 90 000; 29 999 changes.
	set -o pipefail
	{ cat "$DATA/mpi/defs.ndjson"; alternating 30000; } | tr-deps -M | tr-waits -M \
		> "$BATS_TEST_TMPDIR/in"
	run --separate-stderr bash -c "tr-critpath -J --summary '$BATS_TEST_TMPDIR/in' |
		jq -c 'select(.k == \"crit\")' | jq -sc '{n: length,
			compute: (map(select(.r == 14) | .dur) | add),
			barrier: (map(select(.r == 7) | .dur) | add),
			main: (map(select(.r == 0) | .dur) | add),
			s0: (map(select(.s == 0) | .dur) | add),
			s1: (map(select(.s == 1) | .dur) | add),
			gaps: ([range(1; length) as \$i | select(.[\$i].t != .[\$i - 1].t + .[\$i - 1].dur)] | length)}'"
	assert_success
	assert_output '{"n":90000,"compute":21000000,"barrier":300000,"main":300000,"s0":10799990,"s1":10800010,"gaps":0}'
	[[ "$stderr" == *"critical path 0.021600000 s of a 0.021600000 s run, 29999 changes of stream, 300004 events"* ]]
	# it did not keep the whole run
	peak=$(sed -n 's/.*kept at most \([0-9]*\) events.*/\1/p' <<< "$stderr")
	[ "$peak" -lt 150000 ]
	# blame on the path (path_blame), per region, collected or kept whole.
	# The early rank waits 400 in each Barrier, blamed on the late rank
	# since its last Barrier: its main's 10 and its compute's 700, 5 and
	# 395 (394.4 rounded down, the 1 left over to the largest); iteration
	# 0 has no main between: compute 400. Compute: 400 + 29 999 * 395 =
	# 11 850 005, all on the path (each late compute whole). Main, open
	# all the run: rank 0 blame 14 999 * 5, 149 990 of its 300 000
	# exclusive on the path: 37 495; rank 1 75 000 * 150 010 / 300 000 =
	# 37 502. A compute's blame may come after its share is known.
	for keep in "" 1; do
		run bash -c "TR_CRITPATH_KEEP_ALL=$keep tr-critpath -J '$BATS_TEST_TMPDIR/in' |
			jq -c 'select(.k == \"path_blame\")' | jq -sc 'group_by(.r) | map([.[0].r, (map(.ns) | add)])'"
		assert_output '[[0,74997],[14,11850005]]'
	done
	# 30 000 sub-paths on 3 threads: the same bytes
	tr-critpath -M -j 1 "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/one"
	tr-critpath -M -j 3 "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/three"
	cmp <(body "$BATS_TEST_TMPDIR/one") <(body "$BATS_TEST_TMPDIR/three")
}

@test "event ids with gaps or out of order give the same path" {
	# ids run on by one as tr-read numbers them, then in runs of 7 with
	# gaps, then backwards; the path, written in pieces, is the same once
	# its activity ids are mapped back
	set -o pipefail
	renumbered() {
		jq -c "if .t != null and .id != null then .id |= ($1) else . end" |
			tr-deps -M | tr-waits -M | tr-critpath -J | jq -c "select(.k == \"crit\") | .act |= ($2)"
	}
	{ cat "$DATA/mpi/defs.ndjson"; alternating 10000; } > "$BATS_TEST_TMPDIR/run"
	renumbered . . < "$BATS_TEST_TMPDIR/run" > "$BATS_TEST_TMPDIR/want"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/want")" = 30000 ]
	renumbered '. + 1000 * (. / 7 | floor)' '. - 1000 * (. / 1007 | floor)' \
		< "$BATS_TEST_TMPDIR/run" | cmp - "$BATS_TEST_TMPDIR/want"
	renumbered '1000000000 - .' '1000000000 - .' < "$BATS_TEST_TMPDIR/run" |
		cmp - "$BATS_TEST_TMPDIR/want"
}

@test "crit records of an earlier run are replaced, not doubled" {
	set -o pipefail
	cat "$DATA/mpi/defs.ndjson" "$DATA/crit/barrier.ndjson" | tr-deps -M | tr-waits -M |
		tr-critpath -M > "$BATS_TEST_TMPDIR/once"
	tr-critpath -M "$BATS_TEST_TMPDIR/once" > "$BATS_TEST_TMPDIR/twice"
	cmp <(body "$BATS_TEST_TMPDIR/once") <(body "$BATS_TEST_TMPDIR/twice")
	tr-cat --check "$BATS_TEST_TMPDIR/once"
}

@test "records it does not read pass on as they came; a key twice there is left to their reader" {
	local extra='{"k":"idle","at":0,"t":0,"dur":5,"dur":6,"pattern":"gpu_idle","s":0,"mine":[1,{"a":"b"}]}
{"k":"my_own","x":1,"x":2}'

	set -o pipefail
	{ cat "$DATA/mpi/defs.ndjson" "$DATA/crit/barrier.ndjson" | tr-deps -M | tr-waits -J | sed '$d'
	  echo "$extra"; echo '{"k":"trailer"}'; } > "$BATS_TEST_TMPDIR/in"
	tr-critpath -J "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/out"
	assert_equal "$(grep -v '"k":"\(crit\|path_blame\)"' "$BATS_TEST_TMPDIR/out" | tail -3 | head -2)" "$extra"
	# tr-rank reads idle periods: there it is an error, at the record's line
	run --separate-stderr tr-rank "$BATS_TEST_TMPDIR/out"
	assert_failure 1
	assert_equal "$stderr" "tr-rank: $BATS_TEST_TMPDIR/out: line $(grep -n '"dur":6' "$BATS_TEST_TMPDIR/out" | cut -d: -f1): record has a key twice"
}

@test "bad input: one line naming the position, what was valid is written" {
	printf '%s\n' '{"k":"header","major":1,"minor":0,"producer":"hand","clock":"ns"}' \
		'{"k":"enter","id":0,"t":0,"s":9,"r":0}' > "$BATS_TEST_TMPDIR/bad"
	run --separate-stderr tr-critpath -J "$BATS_TEST_TMPDIR/bad"
	assert_failure 1
	assert_equal "$stderr" "tr-critpath: $BATS_TEST_TMPDIR/bad: line 2: event on an undefined stream"
	assert_output "{\"k\":\"header\",\"major\":1,\"minor\":1,\"producer\":\"hand\",\"clock\":\"ns\",\"stages\":[{\"tool\":\"tr-critpath\",\"version\":\"0.1.0\",\"args\":[\"-J\",\"$BATS_TEST_TMPDIR/bad\"]}]}"
	run --separate-stderr tr-critpath -j 0 "$BATS_TEST_TMPDIR/bad"
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "tr-critpath: -j 0: give a number of threads from 1 to 64"
}

# Rank 0 sends to rank 1 (100..600), whose receive was posted late (an
# Irecv at 500, a Wait from 950 that completes at 1 000 000: a late
# receiver, decided only then); meanwhile rank 0 receives from rank 2 and
# rank 2 computes N times, so that the path is collected before the late
# receiver's wait comes. The path: rank 2's main 0..850, its Send's message
# in transit 850..900, rank 0's main 900..1 000 200.
late_receiver_run() {
	awk -v n="$1" '
		BEGIN {
			id = 0
			ev("enter", 0, 0, "\"r\":0"); ev("enter", 0, 1, "\"r\":0"); ev("enter", 0, 2, "\"r\":0")
			ev("enter", 100, 0, "\"r\":1"); ev("send", 100, 0, "\"peer\":1,\"tag\":0,\"comm\":0")
			ev("enter", 500, 1, "\"r\":5"); ev("recv_post", 500, 1, "\"req\":1"); ev("leave", 510, 1, "\"r\":5")
			ev("enter", 520, 1, "\"r\":14")
			ev("leave", 600, 0, "\"r\":1")
			ev("enter", 700, 0, "\"r\":2")
			ev("enter", 850, 2, "\"r\":1"); ev("send", 850, 2, "\"peer\":0,\"tag\":0,\"comm\":0")
			ev("leave", 890, 1, "\"r\":14")
			ev("recv", 900, 0, "\"peer\":2,\"tag\":0,\"comm\":0"); ev("leave", 900, 0, "\"r\":2")
			ev("leave", 900, 2, "\"r\":1")
			ev("enter", 950, 1, "\"r\":6")
			for (i = 0; i < n; i++) {
				ev("enter", 1000 + 20 * i, 2, "\"r\":14"); ev("leave", 1010 + 20 * i, 2, "\"r\":14")
			}
			ev("recv", 1000000, 1, "\"peer\":0,\"tag\":0,\"comm\":0,\"req\":1"); ev("leave", 1000000, 1, "\"r\":6")
			ev("leave", 1000100, 1, "\"r\":0"); ev("leave", 1000100, 2, "\"r\":0")
			ev("leave", 1000200, 0, "\"r\":0")
		}
		function ev(k, t, s, rest) { printf "{\"k\":\"%s\",\"id\":%d,\"t\":%d,\"s\":%d,%s}\n", k, id++, t, s, rest }'
}

@test "a late receiver's wait that comes after a collection: nothing lost, the path as without collecting" {
	set -o pipefail
	{ cat "$DATA/mpi/defs.ndjson"; late_receiver_run 40000; } | tr-deps -M | tr-waits -M \
		> "$BATS_TEST_TMPDIR/in"
	run --separate-stderr tr-critpath -J "$BATS_TEST_TMPDIR/in"
	assert_success
	assert_equal "$stderr" ""
	grep '"k":"crit"' <<< "$output" > "$BATS_TEST_TMPDIR/crit"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/crit")" '{"k":"crit","s":2,"t":0,"dur":850,"act":2,"r":0}
{"k":"crit","s":2,"t":850,"dur":50,"act":11,"r":1}
{"k":"crit","s":0,"t":900,"dur":999300,"act":0,"r":0}'
	TR_CRITPATH_KEEP_ALL=1 tr-critpath -J "$BATS_TEST_TMPDIR/in" | grep '"k":"crit"' |
		cmp - "$BATS_TEST_TMPDIR/crit"
}

@test "a ring of blocking Sendrecvs is collected as it goes: each message received frees its send" {
	set -o pipefail
	gen-otf2 -r 2 -t 1 -i 10000 "$BATS_TEST_TMPDIR/ring/t"
	run --separate-stderr bash -c "tr-read -M '$BATS_TEST_TMPDIR/ring/t.otf2' | tr-deps -M |
		tr-waits -M | tr-critpath -M --summary > /dev/null"
	assert_success
	[[ "$stderr" == *"540024 events"* ]]
	peak=$(sed -n 's/.*kept at most \([0-9]*\) events.*/\1/p' <<< "$stderr")
	[ "$peak" -lt 150000 ]
}

@test "--summary's figures of the implementation only with -v" {
	cat "$DATA/mpi/defs.ndjson" "$DATA/crit/barrier.ndjson" | tr-deps -M | tr-waits -M > "$BATS_TEST_TMPDIR/in"
	run --separate-stderr tr-critpath --summary "$BATS_TEST_TMPDIR/in"
	assert_success
	[[ "$stderr" == *"  kept at most 33 events at once"$'\n'* ]] || fail "$stderr"
	[[ "$stderr" != *"bytes each"* ]] || fail "$stderr"
	run --separate-stderr tr-critpath -v --summary "$BATS_TEST_TMPDIR/in"
	[[ "$stderr" == *"  kept at most 33 events at once (124 bytes each)"* ]] || fail "$stderr"
}

# The crit records of the Kineto trace tests/data/crit/NAME.json through
# the pipeline, then tr-critpath's options.
kineto_path_of() {
	set -o pipefail
	tr-read "$DATA/crit/$1.json" | tr-deps -M 2> /dev/null | tr-waits -M |
		tr-critpath -J "${@:2}" | grep '"k":"crit"'
}

@test "no MPI_Finalize: the path ends with the run's main work, not with a thread that polls" {
	# A profiler trace (us, from 100): the main thread's ProfilerStep#1
	# 100..400 launches k1 (call 110..120, kernel 130..230) and k2 (call
	# 130..140, kernel 230..330), synchronizes 150..335, runs post
	# 340..390; a watchdog thread polls cudaEventQuery at 200, 600 and
	# 1000 (1 us each), the last event. The main work (GPU work, the
	# calls that give or wait for it) ends at 400: back from there, the
	# step 10 (390..400), post 50, the step 5 (335..340), the sync 5 (k2's
	# end 330 to the sync's leave, after k2 ended: on the sync), k2 100,
	# k1 100, none 10 on the GPU stream (120..130, after the launch ended),
	# the launch 10, the step 10: 300 us, the step 25 of it.
	run --separate-stderr kineto_path_of watchdog
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":10000,"act":0,"r":0}
{"k":"crit","s":0,"t":10000,"dur":10000,"act":1,"r":1}
{"k":"crit","s":2,"t":20000,"dur":10000}
{"k":"crit","s":2,"t":30000,"dur":100000,"act":4,"r":2}
{"k":"crit","s":2,"t":130000,"dur":100000,"act":10,"r":3}
{"k":"crit","s":0,"t":230000,"dur":5000,"act":6,"r":4}
{"k":"crit","s":0,"t":235000,"dur":5000,"act":0,"r":0}
{"k":"crit","s":0,"t":240000,"dur":50000,"act":13,"r":5}
{"k":"crit","s":0,"t":290000,"dur":10000,"act":0,"r":0}
OUT
	assert_equal "$stderr" "tr-critpath: <stdin>: the path ends where the run's main work (GPU work, the calls that give or wait for it, MPI) ends, 0.000300000 s after the first event, on stream 0 (thread 1); 1 streams went on without it, up to 0.000601000 s longer (stream 1, thread 2): --end last ends the path there"
	# --end last: the old end, the watchdog's last event at 1001: 801 us,
	# all of it on the watchdog (3 in its queries, 798 in none)
	run --separate-stderr kineto_path_of watchdog --end last
	assert_success
	run jq -s -c '[length, (map(.dur) | add), (map(.s) | unique), (map(select(.r != null) | .dur) | add)]' <<< "$output"
	assert_output "[5,801000,[1],3000]"
}

@test "the path resting in plain code while another thread of the process drives the GPU: said once, naming both (turn4's case 3)" {
	# PyTorch's backward (us, from 100): the main thread (tid 1, stream 0)
	# in ProfilerStep#1 100..1100 launches fwd (110..120), then waits in
	# the annotation ## backward ## 200..1000 while the autograd thread
	# (tid 2, stream 1) launches bwd1 (300) and bwd2 (600) and polls an
	# event (850); the main thread launches step (1010..1020) and leaves
	# at 1100, the run's end. No event links the threads: the path stays
	# on the main thread, 1000 us, 800 of them in ## backward ##'s own
	# time, within which the autograd thread made 2 GPU calls that give
	# work (the poll is not work: a watchdog's would not count).
	run --separate-stderr kineto_path_of autograd
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":10000,"act":0,"r":0}
{"k":"crit","s":0,"t":10000,"dur":10000,"act":1,"r":1}
{"k":"crit","s":0,"t":20000,"dur":80000,"act":0,"r":0}
{"k":"crit","s":0,"t":100000,"dur":800000,"act":5,"r":3}
{"k":"crit","s":0,"t":900000,"dur":10000,"act":0,"r":0}
{"k":"crit","s":0,"t":910000,"dur":10000,"act":19,"r":1}
{"k":"crit","s":0,"t":920000,"dur":80000,"act":0,"r":0}
OUT
	assert_equal "$stderr" "tr-critpath: <stdin>: 0.000800000 s of the path (80.0 %) is in plain code on stream 0 (thread 1) while stream 1 (thread 2) of its process made 2 GPU calls: no event of the trace links the two (PyTorch's main thread waits in an annotation while its autograd thread works), so the path stays on the waiting thread and the working thread's calls are not on it"
	# tr-analyze says it too
	run --separate-stderr tr-analyze -q "$DATA/crit/autograd.json"
	assert_success
	[[ "$stderr" == *"0.000800000 s of the path (80.0 %) is in plain code on stream 0 (thread 1) while stream 1 (thread 2)"* ]] ||
		fail "$stderr"
}

@test "the path resting in a GPU call (not plain code) while another thread drives the GPU: nothing said" {
	# the trace above, with the main thread in cudaMallocHost 200..1000
	# instead of the annotation: the path is the same 1000 us, 800 of them
	# in the call, which the trace shows waiting for nothing; time in a
	# call is the call's, not work beside the path: no note
	run --separate-stderr kineto_path_of autograd-alloc
	assert_success
	assert_output "$(kineto_path_of autograd)"
	assert_equal "$stderr" ""
	run --separate-stderr tr-analyze -q "$DATA/crit/autograd-alloc.json"
	assert_success
	[[ "$stderr" != *"plain code"* ]] || fail "$stderr"
}

@test "--end: a region's latest leave, a stream's last event, a time; one that names nothing is an error" {
	# the watchdog trace above. stream=CUDA[0:7]: k2's end at 330 us: k2,
	# k1, none, the launch, the step: 230 us. 0.0002 s after the first
	# event (300 us): k2's start at 230, the latest event by then: 130 us.
	# region=ProfilerStep#1: its leave, the run's end above (300 us).
	local want
	for want in "stream=CUDA[0:7] 230000" "stream=2 230000" "0.0002 130000" "region=ProfilerStep#1 300000" \
		"region=0 300000"; do
		run --separate-stderr kineto_path_of watchdog --end "${want% *}"
		assert_success
		assert_equal "$stderr" ""
		assert_equal "$(jq -s 'map(.dur) | add' <<< "$output")" "${want#* }"
	done
	run --separate-stderr kineto_path_of watchdog --end region=nosuch
	assert_failure
	assert_equal "$stderr" "tr-critpath: <stdin>: --end region=nosuch: no region of that name (or id) was left"
	run --separate-stderr kineto_path_of watchdog --end stream=nosuch
	assert_failure
	assert_equal "$stderr" "tr-critpath: <stdin>: --end stream=nosuch: no stream of that name (or id) has an event"
	run --separate-stderr tr-critpath --end soon /dev/null
	assert_failure 2
	assert_equal "$stderr" "tr-critpath: --end soon: give last, region=NAME, stream=NAME or seconds after the first event"
}

@test "a user annotation longer than the profiler's span: clipped to it, and the path with it" {
	# ProfilerStep#1 from 100 us for 13 s; the profiler's Trace record
	# spans 12999700 .. 13000100 us (400 us), in which aten::mm (-800 ..
	# -750 from the span's end) launches triton_mm (200 us) and a sync
	# waits for it. Clipped to the span, the step runs 0 .. 400 us: the
	# step 100, aten::mm 10, the launch 10, none 10, the kernel 200, the
	# sync 10, the step 60: 400 us (13 s, nearly all of it the step's,
	# unclipped).
	run --separate-stderr kineto_path_of long-annotation
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":100000,"act":0,"r":0}
{"k":"crit","s":0,"t":100000,"dur":10000,"act":1,"r":1}
{"k":"crit","s":0,"t":110000,"dur":10000,"act":2,"r":2}
{"k":"crit","s":1,"t":120000,"dur":10000}
{"k":"crit","s":1,"t":130000,"dur":200000,"act":4,"r":3}
{"k":"crit","s":0,"t":330000,"dur":10000,"act":6,"r":4}
{"k":"crit","s":0,"t":340000,"dur":60000,"act":0,"r":0}
OUT
	assert_equal "$stderr" "tr-read: $DATA/crit/long-annotation.json: 1 host activities (annotations, operators, calls) that reached outside the profiler's span (its Trace record): clipped to it"
}

@test "OpenMP team start: a fork's transit is the runtime's own region on the team thread, not the forking function's" {
	# The master forks at 100 inside main; thread 1 begins its share at 300
	# (the runtime took 200 to start it). Back from main's end (600): main
	# 530..600 and, the join having waited for thread 1's team end at 525
	# (in no activity, which carries nothing), the transit 525..530 on the
	# master's main too; thread 1's 520..525 in none, parallel 510..520, the
	# barrier 500..510 (the last to arrive: its barrier edge to the master's
	# leave at 510), compute 310..500, parallel 300..310; then the fork:
	# 100..300 is the team start, on thread 1, in the stream's region of
	# role omp_team_start (16); main 0..100. 600 in all. (Charged to the
	# forking activity, as before, main had 0..300 and thread 1 nothing
	# before 300.)
	run --separate-stderr path_of cuda team-start
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":100,"act":0,"r":0}
{"k":"crit","s":1,"t":100,"dur":200,"r":16}
{"k":"crit","s":1,"t":300,"dur":10,"act":8,"r":12}
{"k":"crit","s":1,"t":310,"dur":190,"act":9,"r":11}
{"k":"crit","s":1,"t":500,"dur":10,"act":11,"r":13}
{"k":"crit","s":1,"t":510,"dur":10,"act":8,"r":12}
{"k":"crit","s":1,"t":520,"dur":5}
{"k":"crit","s":0,"t":525,"dur":75,"act":0,"r":0}
OUT
	# without such a region, the team start is in no activity, on thread 1
	run bash -c "set -o pipefail; { cat '$DATA/cuda/defs.ndjson'; grep -v omp_team_start '$DATA/crit/team-start.ndjson'; } |
		tr-deps -M | tr-waits -M | tr-critpath -J | grep '\"k\":\"crit\",\"s\":1,\"t\":100,'"
	assert_output '{"k":"crit","s":1,"t":100,"dur":200}'
	# the rating has it as a region of its own (no calls, no time of its own);
	# --summary says how long the path was in it
	cat "$DATA/cuda/defs.ndjson" "$DATA/crit/team-start.ndjson" | tr-deps -M | tr-waits -M |
		tr-critpath -M --summary > "$BATS_TEST_TMPDIR/a.tr" 2> "$BATS_TEST_TMPDIR/summary"
	grep -qxF "  0.000000200 s in the OpenMP runtime's team start (from a fork to each thread's own start in the team)" \
		"$BATS_TEST_TMPDIR/summary" || fail "$(cat "$BATS_TEST_TMPDIR/summary")"
	run bash -c "tr-rank --json -n 0 '$BATS_TEST_TMPDIR/a.tr' | jq -r 'select(.k == \"rating\" and .name == \"OpenMP team start\") | \"\(.calls) \(.excl) \(.cp)\"'"
	assert_output "0 0 200"
	# the table and the words say what the region the tools made up measures (issue 59)
	run tr-rank -v "$BATS_TEST_TMPDIR/a.tr"
	assert_line "      OpenMP team start: no region of the trace: the OpenMP runtime's work of starting a team's threads, from the fork to each thread's own start in the team"
	assert_line --regexp "^ 2\. OpenMP team start: 33\.33 % of the critical path .* It is no region of the trace: the OpenMP runtime's work of starting a team's threads, from the fork to each thread's own start in the team \(usually: parallel regions too short for the cost of waking their team, threads asleep under a passive wait policy, or more threads than cores\)\.$"
}

@test "OpenMP team start on the master: its fork to its own team_begin is the runtime's, on the path and in no blame stretch (turn4)" {
	# The master forks at 100 in main and begins its own share at 400 (the
	# runtime took 300); thread 1 begins at 150, computes 160..200 and
	# waits in the barrier 200..510 for the master, the last to arrive
	# (500). Back from main's end (600): main 520..600 (the join at 530
	# waited for the master's own team end at 520), parallel 510..520, the
	# barrier 500..510, compute 410..500, parallel 400..410, then 100..400
	# in the master's team start (16), main 0..100.
	run --separate-stderr path_of cuda team-start-master
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":100,"act":0,"r":0}
{"k":"crit","s":0,"t":100,"dur":300,"r":16}
{"k":"crit","s":0,"t":400,"dur":10,"act":8,"r":12}
{"k":"crit","s":0,"t":410,"dur":90,"act":9,"r":11}
{"k":"crit","s":0,"t":500,"dur":10,"act":11,"r":13}
{"k":"crit","s":0,"t":510,"dur":10,"act":8,"r":12}
{"k":"crit","s":0,"t":520,"dur":80,"act":0,"r":0}
OUT
	# thread 1's barrier wait (200..500, 300) is blamed on the master's
	# time in the team before the barrier: parallel 400..410 (10) and
	# compute 410..500 (90): 30 and 270. Its team start is no activity's
	# own time, and main before the fork none of the team's (main had 240
	# of it, charged with 0..400).
	run bash -c "cat '$DATA/cuda/defs.ndjson' '$DATA/crit/team-start-master.ndjson' | tr-deps -M | tr-waits -J |
		grep -E '\"k\":\"(wait|blame)\"'"
	assert_output - <<'OUT'
{"k":"wait","at":6,"t":200,"dur":300,"pattern":"omp_barrier","s":1,"cause":11,"r":13}
{"k":"blame","to":8,"r":12,"ns":30,"pattern":"omp_barrier","wait":6,"s":0}
{"k":"blame","to":9,"r":11,"ns":270,"pattern":"omp_barrier","wait":6,"s":0}
OUT
}

@test "the path takes an event's latest dependency, whatever order its edges come in (turn4's test gaps)" {
	# A third host thread (stream 6). The join (14, at 510) has two join
	# edges, in the team's order: from thread 2's end (13, at 500) first,
	# then from thread 1's (11, at 450). The path goes back through the
	# later: main 510..600 with the transit 500..510 (a team end carries
	# nothing), thread 2's compute 20..500, the fork's transit 10..20 in
	# no activity (no team start region here), main 0..10. (Taking the
	# last edge read instead: through thread 1, compute 40..450.)
	run --separate-stderr path_of cuda join-latest
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":10,"act":0,"r":0}
{"k":"crit","s":6,"t":10,"dur":10}
{"k":"crit","s":6,"t":20,"dur":480,"act":3,"r":11}
{"k":"crit","s":0,"t":500,"dur":100,"act":0,"r":0}
OUT
}

@test "OpenMP lock: the path goes from the acquire back to the release, the unset call carrying its transit" {
	# Thread 0 holds the lock (set 600..620, acquired at 610), computes
	# 640..700, releases it in omp_unset_lock (700..720, at 710); thread 1
	# asks at 630 and acquires at 730. Back from the end (thread 1's main,
	# 900): main 740..900, omp_set_lock 720..740 (waiting: the transit
	# after the unset call ended, then its own 10), the unset call
	# 700..720 (the transit from 710 included: a lock call carries it),
	# compute 640..700, main 620..640, omp_set_lock 600..620, main 0..600.
	run --separate-stderr path_of cuda lock
	assert_success
	assert_output - <<'OUT'
{"k":"crit","s":0,"t":0,"dur":600,"act":0,"r":0}
{"k":"crit","s":0,"t":600,"dur":20,"act":2,"r":14}
{"k":"crit","s":0,"t":620,"dur":20,"act":0,"r":0}
{"k":"crit","s":0,"t":640,"dur":60,"act":6,"r":11}
{"k":"crit","s":0,"t":700,"dur":20,"act":8,"r":15}
{"k":"crit","s":1,"t":720,"dur":20,"act":5,"r":14}
{"k":"crit","s":1,"t":740,"dur":160,"act":1,"r":0}
OUT
}
