#!/usr/bin/env bats
# tr-deps and tr-waits on hand-written MPI scenarios: every edge, wait
# state and blame computed by hand below and compared exactly (integer ns).
# Each scenario is tests/data/mpi/defs.ndjson (3 ranks, streams 0..2 =
# processes 0..2, comm 0 = all three, comm 1 = ranks 0 and 1) followed by
# tests/data/mpi/NAME.ndjson. Blame goes to the causing stream's activities
# between its previous blocking MPI call and the cause, by exclusive time;
# rounding leftovers go to the largest share.

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# The derived records of scenario NAME after tr-deps | tr-waits.
analyse() {
	set -o pipefail
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/$1.ndjson" |
		tr-deps -M | tr-waits -J "${@:2}" |
		grep -E '"k":"(edge|instance|wait|blame|wait_summary)"'
}

@test "late sender: the receive waits from its enter to the send's enter" {
	# rank 1 enters Recv at 100; rank 0 enters Send at 800.
	# wait = 800 - 100 = 700. Rank 0 before the Send (no MPI before it):
	# main 0..200 + 700..800 = 300, compute 200..700 = 500; total 800.
	# main 700*300/800 = 262.5 -> 262, compute 437.5 -> 437, +1 left: 438.
	run --separate-stderr analyse late-sender
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":6,"to":8,"type":"msg"}
{"k":"wait","at":2,"t":100,"dur":700,"pattern":"late_sender","s":1,"cause":6,"r":2}
{"k":"blame","to":0,"r":0,"ns":262,"pattern":"late_sender","wait":2,"s":0}
{"k":"blame","to":3,"r":14,"ns":438,"pattern":"late_sender","wait":2,"s":0}
OUT
	assert_equal "$stderr" ""
}

@test "two messages pending on one pair: matched by tag, and those of one tag in the order sent" {
	# Rank 0 sends tag 1 (its Send 100..110, the send event 4) and tag 2
	# (200..210, event 7); rank 1 receives tag 2 first (its Recv 50..250)
	# and tag 1 after (260..270): each receive takes its tag's message,
	# edges 7 -> 9 and 4 -> 12. The first Recv waits from 50 until the tag
	# 2 Send's enter at 200: 150 (late_sender: the tag 1 message was sent
	# after it began, so no wrong order), blamed on rank 0's time since its
	# last call that rank 1 could have waited in (the Send at 110): main
	# 110..200, all 150. Then two messages of tag 3 (sends 300 and 400,
	# events 15 and 22): the first Recv (320..330) takes the first, the
	# second (350..420) the second, waiting 350..400 = 50, on main
	# 310..400. Ignoring the tag would match the tag 2 Recv to the tag 1
	# send (a wait of 50); taking the later of one tag would swap the last
	# two edges.
	run --separate-stderr analyse tags
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":7,"to":9,"type":"msg"}
{"k":"wait","at":2,"t":50,"dur":150,"pattern":"late_sender","s":1,"cause":7,"r":2}
{"k":"blame","to":0,"r":0,"ns":150,"pattern":"late_sender","wait":2,"s":0}
{"k":"edge","from":4,"to":12,"type":"msg"}
{"k":"edge","from":15,"to":18,"type":"msg"}
{"k":"edge","from":22,"to":24,"type":"msg"}
{"k":"wait","at":20,"t":350,"dur":50,"pattern":"late_sender","s":1,"cause":22,"r":2}
{"k":"blame","to":0,"r":0,"ns":50,"pattern":"late_sender","wait":20,"s":0}
OUT
	assert_equal "$stderr" ""
}

@test "late receiver: a blocking send waits until its receive is posted" {
	# rank 0's Send runs 100..600; rank 1 posts the Recv at 500 (< 600):
	# wait = 500 - 100 = 400, caused by the Recv's enter (6). Rank 1 before
	# it: main 0..100 = 100, compute 100..500 = 400: blame 80 and 320.
	run --separate-stderr analyse late-receiver
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":4,"to":8,"type":"msg"}
{"k":"wait","at":2,"t":100,"dur":400,"pattern":"late_receiver","s":0,"cause":6,"r":1}
{"k":"blame","to":1,"r":0,"ns":80,"pattern":"late_receiver","wait":2,"s":1}
{"k":"blame","to":3,"r":14,"ns":320,"pattern":"late_receiver","wait":2,"s":1}
OUT
}

@test "messages in wrong order: a late message while an earlier one waits" {
	# rank 1 sends to rank 2 at 100 (tag 1); rank 2 first receives from
	# rank 0 (tag 0), entering at 200; rank 0 sends at 500: wait 300, and
	# rank 1's message sat there since before 200: wrong order. Blame: rank
	# 0's main 0..500, all of it. The second receive (enters 540, message
	# sent at 100) does not wait; rank 1's Send (100..120) ended before
	# its receive was posted (540): no late receiver (eager send).
	run analyse wrong-order
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":8,"to":10,"type":"msg"}
{"k":"wait","at":6,"t":200,"dur":300,"pattern":"late_sender_wrong_order","s":2,"cause":8,"r":2}
{"k":"blame","to":0,"r":0,"ns":300,"pattern":"late_sender_wrong_order","wait":6,"s":0}
{"k":"edge","from":4,"to":13,"type":"msg"}
OUT
}

@test "equal times at the pattern boundaries: a send at the receive's own completion is late; a post at the send's end is not waited for; a message sent as the receive begins is no wrong order (turn4's test gaps)" {
	# Late sender: the Recv (100..800) completes at 800, the instant the
	# Send enters (800, its send event at 800): late_sender 700, as in
	# late-sender (main 262, compute 438). (With "received before sent"
	# taken at <=: no wait, and the message counted as clock skew.)
	run --separate-stderr analyse late-sender-same-instant
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":6,"to":7,"type":"msg"}
{"k":"wait","at":2,"t":100,"dur":700,"pattern":"late_sender","s":1,"cause":6,"r":2}
{"k":"blame","to":0,"r":0,"ns":262,"pattern":"late_sender","wait":2,"s":0}
{"k":"blame","to":3,"r":14,"ns":438,"pattern":"late_sender","wait":2,"s":0}
OUT
	assert_equal "$stderr" ""
	# Late receiver: the Send (100..600) ends the instant the Recv is
	# posted (600): it did not wait for the post, no wait. (Taken at <=:
	# late_receiver 500.)
	run --separate-stderr analyse late-receiver-at-end
	assert_success
	assert_output '{"k":"edge","from":4,"to":8,"type":"msg"}'
	# Wrong order: rank 1's message (sent at 200) arrives the instant rank
	# 2's first Recv begins (200), not before it: the wait for rank 0's
	# (sent at 500) is a plain late_sender 300, all on rank 0's main.
	# (Taken at <=: late_sender_wrong_order.)
	run --separate-stderr analyse wrong-order-same-instant
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":8,"to":10,"type":"msg"}
{"k":"wait","at":5,"t":200,"dur":300,"pattern":"late_sender","s":2,"cause":8,"r":2}
{"k":"blame","to":0,"r":0,"ns":300,"pattern":"late_sender","wait":5,"s":0}
{"k":"edge","from":4,"to":13,"type":"msg"}
OUT
}

@test "matching keeps communicators apart: one tag on two communicators between one pair of ranks (turn4's test gaps)" {
	# rank 0 sends tag 1 on comm 1 (at 100), then tag 1 on comm 0 (at
	# 200); rank 1 receives on comm 0 first (50..250), then on comm 1
	# (260..270). comm 0's receive gets comm 0's message: late_sender
	# 50..200 = 150, blamed on rank 0's main since its first Send (110..200);
	# comm 1's receive the first message, no wait. (Matched by tag alone:
	# edges 4->9 and 7->12, a wait of 50.)
	run --separate-stderr analyse two-comms-one-tag
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":7,"to":9,"type":"msg"}
{"k":"wait","at":2,"t":50,"dur":150,"pattern":"late_sender","s":1,"cause":7,"r":2}
{"k":"blame","to":0,"r":0,"ns":150,"pattern":"late_sender","wait":2,"s":0}
{"k":"edge","from":4,"to":12,"type":"msg"}
OUT
}

@test "a broadcast whose members name different roots is counted as such, its root the last to leave's (turn4's messages)" {
	# Ranks 0 and 1 name root 0, rank 2 names root 1 (all leave at 210, rank
	# 2 last as ties go by stream): one instance, root 1 (the last to leave
	# naming one decides, whatever order they come in), and it is said: it
	# was read without a word. Rank 0 entered at 100, before the root
	# (150): late_broadcast 50, blamed on rank 1's main.
	run --separate-stderr analyse bcast-roots-differ
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":4,"to":7,"type":"coll"}
{"k":"edge","from":4,"to":11,"type":"coll"}
{"k":"instance","acts":[3,4,5],"comm":0,"root":1}
{"k":"wait","at":3,"t":100,"dur":50,"pattern":"late_broadcast","s":0,"cause":4,"r":9}
{"k":"blame","to":1,"r":0,"ns":50,"pattern":"late_broadcast","wait":3,"s":1}
OUT
	assert_equal "$stderr" "tr-deps: <stdin>: 1 collective instances whose members ran different operations or named different roots"
}

@test "members that ran different functions of one shape (MPI_Allreduce, MPI_Allgather) are counted, matched as one instance" {
	# Ranks 0 and 1 enter MPI_Allreduce at 100 and 150, rank 2
	# MPI_Allgather (region 15, mpi_n2n too) at 200; all leave at 210.
	# Matched as one n2n instance: all wait for the last to enter (rank 2's
	# 5): rank 0 waits 100, rank 1 50, all blamed on rank 2's main before
	# its call. Programs that mix collectives are wrong (or traced wrong):
	# the instance is counted, once. With rank 2 in MPI_Allreduce too,
	# nothing is counted. MPI_Init against MPI_Init_thread is not compared.
	run --separate-stderr analyse allreduce-allgather
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":5,"to":7,"type":"coll"}
{"k":"edge","from":5,"to":9,"type":"coll"}
{"k":"edge","from":4,"to":11,"type":"coll"}
{"k":"instance","acts":[3,4,5],"comm":0}
{"k":"wait","at":3,"t":100,"dur":100,"pattern":"wait_nxn","s":0,"cause":5,"r":8}
{"k":"blame","to":2,"r":0,"ns":100,"pattern":"wait_nxn","wait":3,"s":2}
{"k":"wait","at":4,"t":150,"dur":50,"pattern":"wait_nxn","s":1,"cause":5,"r":8}
{"k":"blame","to":2,"r":0,"ns":50,"pattern":"wait_nxn","wait":4,"s":2}
OUT
	assert_equal "$stderr" "tr-deps: <stdin>: 1 collective instances whose members ran different operations or named different roots"
	run --separate-stderr bash -c "set -o pipefail; sed 's/\"r\":15/\"r\":8/' '$DATA/mpi/allreduce-allgather.ndjson' |
		cat '$DATA/mpi/defs.ndjson' - | tr-deps -M > /dev/null"
	assert_success
	assert_equal "$stderr" ""
	# nonblocking: rank 2 posts MPI_Iallgather where ranks 0 and 1 post
	# MPI_Iallreduce (tests/data/mpi/icoll.ndjson, its post's region changed)
	run --separate-stderr bash -c "set -o pipefail; { cat '$DATA/mpi/defs.ndjson'
		echo '{\"k\":\"region\",\"id\":16,\"name\":\"MPI_Iallgather\",\"role\":\"mpi_icoll\",\"paradigm\":\"mpi\"}'
		sed -E '/\"s\":2,\"r\":15/s/\"r\":15/\"r\":16/' '$DATA/mpi/icoll.ndjson'; } | tr-deps -M > /dev/null"
	assert_success
	assert_equal "$stderr" "tr-deps: <stdin>: 1 collective instances whose members ran different operations or named different roots
tr-deps: <stdin>: 1 nonblocking collectives completed without their post"
}

@test "a ring where every rank sends before it receives does not deadlock" {
	# rank i: Send to i+1 (eager, 10 ns), then Recv from i-1; ranks start
	# sending at 100, 200, 300. Only rank 0 waits: Recv entered at 110,
	# rank 2 sends at 300: 190, blamed on rank 2's main (0..300).
	run analyse ring
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":4,"to":11,"type":"msg"}
{"k":"edge","from":8,"to":17,"type":"msg"}
{"k":"edge","from":14,"to":19,"type":"msg"}
{"k":"wait","at":6,"t":110,"dur":190,"pattern":"late_sender","s":0,"cause":14,"r":2}
{"k":"blame","to":2,"r":0,"ns":190,"pattern":"late_sender","wait":6,"s":2}
OUT
}

@test "Irecv + Waitall with ANY_SOURCE: the wait lands on the completing call" {
	# rank 0 posts Irecv req 1 (from rank 1) at 10 and req 2 (ANY_SOURCE;
	# the recv names rank 2) at 20, then Waitall 100..620. Rank 1 Isends
	# at 600: Waitall waits 600 - 100 = 500 (a Wait on several is never
	# "wrong order"), blamed on rank 1's main 0..600.
	# Rank 2's blocking Send runs 12..40; its receive was posted by the
	# Irecv entered at 20: late receiver 20 - 12 = 8, caused by recv_post 9,
	# blamed on rank 0 before that Irecv: main 0..10, Irecv 10..20: 4 + 4.
	# The send's wait is decided when its edge comes (at 17).
	run analyse waitall
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":14,"to":16,"type":"msg"}
{"k":"edge","from":5,"to":17,"type":"msg"}
{"k":"wait","at":4,"t":12,"dur":8,"pattern":"late_receiver","s":2,"cause":9,"r":1}
{"k":"blame","to":0,"r":0,"ns":4,"pattern":"late_receiver","wait":4,"s":0}
{"k":"blame","to":3,"r":5,"ns":4,"pattern":"late_receiver","wait":4,"s":0}
{"k":"wait","at":12,"t":100,"dur":500,"pattern":"late_sender","s":0,"cause":14,"r":6}
{"k":"blame","to":1,"r":0,"ns":500,"pattern":"late_sender","wait":12,"s":1}
OUT
}

@test "each collective shape: Init, Barrier, Allreduce, Bcast, Reduce, Scan, Finalize" {
	# Init enters 10, 20, 40 (ranks 0, 1, 2): 0 and 1 wait for rank 2:
	#   30, 20, blamed on rank 2's main 0..40.
	# Barrier enters 100, 150, 300: waits 200, 150 for rank 2, whose time
	#   since Init (60..300): main 60..100 + 250..300 = 90, compute 150;
	#   200 -> 75 + 125; 150 -> 56.25 + 93.75 -> 56 + 93, +1: 94.
	#   Rank 2 (last) depends on the second latest, rank 1 (edge 11 -> 19).
	# Allreduce enters 400, 500, 420: waits 100 and 80 for rank 1 (main
	#   310..500).
	# Bcast, root 1, enters 600, 700, 650: non-roots wait 100 and 50.
	# Reduce, root 2, enters 800, 900, 750: the root waits for the last
	#   contributor (rank 1): 150. Non-roots have no dependency.
	# Scan enters 1000, 950, 1100: rank i needs 0..i-1. Rank 1 waits
	#   for rank 0: 50 (rank 0's main 910..1000); rank 2 needs ranks 0 and
	#   1, latest 1000 < 1100: no wait.
	# Finalize enters 1200, 1210, 1250: 50 and 40, blamed on rank 2's main.
	run analyse collectives
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":5,"to":6,"type":"coll"}
{"k":"edge","from":5,"to":7,"type":"coll"}
{"k":"edge","from":4,"to":8,"type":"coll"}
{"k":"instance","acts":[3,4,5]}
{"k":"wait","at":3,"t":10,"dur":30,"pattern":"wait_init","s":0,"cause":5,"r":12}
{"k":"blame","to":2,"r":0,"ns":30,"pattern":"wait_init","wait":3,"s":2}
{"k":"wait","at":4,"t":20,"dur":20,"pattern":"wait_init","s":1,"cause":5,"r":12}
{"k":"blame","to":2,"r":0,"ns":20,"pattern":"wait_init","wait":4,"s":2}
{"k":"edge","from":13,"to":15,"type":"coll"}
{"k":"edge","from":13,"to":17,"type":"coll"}
{"k":"edge","from":11,"to":19,"type":"coll"}
{"k":"instance","acts":[9,11,13],"comm":0}
{"k":"wait","at":9,"t":100,"dur":200,"pattern":"wait_barrier","s":0,"cause":13,"r":7}
{"k":"blame","to":2,"r":0,"ns":75,"pattern":"wait_barrier","wait":9,"s":2}
{"k":"blame","to":10,"r":14,"ns":125,"pattern":"wait_barrier","wait":9,"s":2}
{"k":"wait","at":11,"t":150,"dur":150,"pattern":"wait_barrier","s":1,"cause":13,"r":7}
{"k":"blame","to":2,"r":0,"ns":56,"pattern":"wait_barrier","wait":11,"s":2}
{"k":"blame","to":10,"r":14,"ns":94,"pattern":"wait_barrier","wait":11,"s":2}
{"k":"edge","from":22,"to":24,"type":"coll"}
{"k":"edge","from":21,"to":26,"type":"coll"}
{"k":"edge","from":22,"to":28,"type":"coll"}
{"k":"instance","acts":[20,22,21],"comm":0}
{"k":"wait","at":20,"t":400,"dur":100,"pattern":"wait_nxn","s":0,"cause":22,"r":8}
{"k":"blame","to":1,"r":0,"ns":100,"pattern":"wait_nxn","wait":20,"s":1}
{"k":"wait","at":21,"t":420,"dur":80,"pattern":"wait_nxn","s":2,"cause":22,"r":8}
{"k":"blame","to":1,"r":0,"ns":80,"pattern":"wait_nxn","wait":21,"s":1}
{"k":"edge","from":31,"to":33,"type":"coll"}
{"k":"edge","from":31,"to":37,"type":"coll"}
{"k":"instance","acts":[29,31,30],"comm":0,"root":1}
{"k":"wait","at":29,"t":600,"dur":100,"pattern":"late_broadcast","s":0,"cause":31,"r":9}
{"k":"blame","to":1,"r":0,"ns":100,"pattern":"late_broadcast","wait":29,"s":1}
{"k":"wait","at":30,"t":650,"dur":50,"pattern":"late_broadcast","s":2,"cause":31,"r":9}
{"k":"blame","to":1,"r":0,"ns":50,"pattern":"late_broadcast","wait":30,"s":1}
{"k":"edge","from":40,"to":46,"type":"coll"}
{"k":"instance","acts":[39,40,38],"comm":0,"root":2}
{"k":"wait","at":38,"t":750,"dur":150,"pattern":"early_reduce","s":2,"cause":40,"r":10}
{"k":"blame","to":1,"r":0,"ns":150,"pattern":"early_reduce","wait":38,"s":1}
{"k":"edge","from":48,"to":53,"type":"coll"}
{"k":"edge","from":48,"to":55,"type":"coll"}
{"k":"instance","acts":[48,47,49],"comm":0}
{"k":"wait","at":47,"t":950,"dur":50,"pattern":"early_scan","s":1,"cause":48,"r":11}
{"k":"blame","to":0,"r":0,"ns":50,"pattern":"early_scan","wait":47,"s":0}
{"k":"edge","from":58,"to":59,"type":"coll"}
{"k":"edge","from":58,"to":60,"type":"coll"}
{"k":"edge","from":57,"to":61,"type":"coll"}
{"k":"instance","acts":[56,57,58]}
{"k":"wait","at":56,"t":1200,"dur":50,"pattern":"wait_finalize","s":0,"cause":58,"r":13}
{"k":"blame","to":2,"r":0,"ns":50,"pattern":"wait_finalize","wait":56,"s":2}
{"k":"wait","at":57,"t":1210,"dur":40,"pattern":"wait_finalize","s":1,"cause":58,"r":13}
{"k":"blame","to":2,"r":0,"ns":40,"pattern":"wait_finalize","wait":57,"s":2}
OUT
}

@test "skewed clocks: waits clamp to the activity, impossible ones count" {
	# Rank 1's clock runs ahead. Barrier on comm 1: rank 0 is in it
	# 100..150, rank 1 enters at 300: 200 would exceed the 50 it lasted,
	# so 50 (blamed on rank 1's main 200..300, after its Recv).
	# Rank 1's Recv completes at 200, before rank 0's Send begins at 500:
	# the edge is still written (when the send comes), with no wait.
	run --separate-stderr analyse skew
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":8,"to":5,"type":"coll"}
{"k":"edge","from":2,"to":10,"type":"coll"}
{"k":"instance","acts":[2,8],"comm":1}
{"k":"wait","at":2,"t":100,"dur":50,"pattern":"wait_barrier","s":0,"cause":8,"r":7}
{"k":"blame","to":1,"r":0,"ns":50,"pattern":"wait_barrier","wait":2,"s":1}
{"k":"edge","from":12,"to":6,"type":"msg"}
OUT
	[[ "$stderr" == *"tr-deps: <stdin>: 1 receives that completed before their send began (clock skew)"* ]]
	[[ "$stderr" == *"tr-waits: <stdin>: 1 messages received before they were sent (clock skew): no wait state for them"* ]]
	[[ "$stderr" == *"tr-waits: <stdin>: 1 wait states cut to their activity's duration (clock skew)"* ]]
}

@test "a send outside any MPI call: its message gets no wait state, and that is said" {
	# rank 0 records a send at 500 in main, in no MPI call (a broken or
	# hand-made trace): tr-deps matches it to rank 1's receive, but no
	# MPI activity sent it, so the receive's wait cannot be decided.
	run --separate-stderr analyse send-outside
	assert_success
	assert_output '{"k":"edge","from":3,"to":4,"type":"msg"}'
	[[ "$stderr" == *"tr-waits: <stdin>: 1 message events in no MPI call: no wait state for them"* ]]
	[[ "$stderr" == *"tr-waits: <stdin>: 1 edges or instance members naming no MPI send, receive or collective"* ]]
}

@test "causes at the same time: the pattern does not depend on the order edges come in" {
	# gen-otf2's MPI_Sendrecv partners enter together: late sender (by the
	# partner's send) and late receiver (by its receive) tie; the cause
	# with the smaller event id wins, with the message edges where tr-deps
	# wrote them or all at the end in reverse order
	gen-otf2 -r 2 -t 1 -i 4 "$TMP/g/t" > /dev/null
	tr-read -M "$TMP/g/t.otf2" | tr-deps -J > "$TMP/d.json"
	(grep -v -e '"type":"msg"' -e '"k":"trailer"' "$TMP/d.json"
	 grep '"type":"msg"' "$TMP/d.json" | tac
	 echo '{"k":"trailer"}') > "$TMP/late.json"
	tr-waits -J "$TMP/d.json" | grep -E '"k":"(wait|blame)"' | sort > "$TMP/a"
	tr-waits -J "$TMP/late.json" | grep -E '"k":"(wait|blame)"' | sort > "$TMP/b"
	[ -s "$TMP/a" ]
	grep -q '"pattern":"late_receiver"' "$TMP/a"
	cmp "$TMP/a" "$TMP/b" || fail "$(diff "$TMP/a" "$TMP/b")"
}

@test "total blame equals total waiting time in every scenario" {
	for f in "$DATA"/mpi/*.ndjson; do
		name=$(basename "$f" .ndjson)
		[ "$name" = defs ] && continue
		analyse "$name" 2>/dev/null > "$TMP/out" || fail "$name: the pipeline failed"
		# an invariant holds of nothing too: each scenario has wait states
		# (but send-outside's, whose send lies in no MPI call, and
		# late-receiver-at-end's, whose point is that it has none)
		[ "$name" = send-outside ] || [ "$name" = late-receiver-at-end ] || [ "$(jq -s 'map(select(.k == "wait")) | length' "$TMP/out")" -gt 0 ] ||
			fail "$name: no wait state"
		waits=$(jq -s 'map(select(.k == "wait") | .dur) | add // 0' "$TMP/out")
		blame=$(jq -s 'map(select(.k == "blame") | .ns) | add // 0' "$TMP/out")
		per_wait=$(jq -s '(map(select(.k == "blame")) | group_by(.wait) |
			map({key: (.[0].wait | tostring), value: (map(.ns) | add)}) | from_entries) as $b |
			map(select(.k == "wait")) | all($b[.at | tostring] == .dur)' "$TMP/out")
		assert_equal "$name $blame" "$name $waits"
		assert_equal "$name $per_wait" "$name true"
	done
}

@test "--summary: per pattern over the run, then per process" {
	run --separate-stderr analyse collectives --summary
	assert_success
	local all=$output
	run bash -c "grep wait_summary <<< '$all' | head -4"
	assert_output - <<'OUT'
{"k":"wait_summary","pattern":"wait_nxn","count":2,"ns":180,"min":0,"max":100,"most":0}
{"k":"wait_summary","pattern":"wait_nxn","count":1,"ns":100,"process":0}
{"k":"wait_summary","pattern":"wait_nxn","count":1,"ns":80,"process":2}
{"k":"wait_summary","pattern":"wait_barrier","count":2,"ns":350,"min":0,"max":200,"most":0}
OUT
	# who waited most: the process of the largest per-process total
	run bash -c "grep '\"most\"' <<< '$all' | jq -r '[.pattern, .most] | @tsv'"
	assert_output - <<'OUT'
wait_nxn	0
wait_barrier	0
late_broadcast	0
early_reduce	2
early_scan	1
wait_init	0
wait_finalize	0
OUT
}

@test "--summary prints a table of seconds per pattern on stderr" {
	run --separate-stderr analyse collectives --summary
	assert_success
	assert_equal "$(sed -n '1,3p;5p' <<< "$stderr")" "\
<stdin>: wait states
  pattern                     count         time [s]     min/proc [s]     max/proc [s]  most
  wait_nxn                        2      0.000000180      0.000000000      0.000000100  0 rank 0
  late_broadcast                  2      0.000000150      0.000000000      0.000000100  0 rank 0"
}

@test "the output keeps the stream contract, and the stages can run again" {
	for f in "$DATA"/mpi/*.ndjson; do
		[ "$(basename "$f")" = defs.ndjson ] && continue
		cat "$DATA/mpi/defs.ndjson" "$f" | tr-deps -M 2>/dev/null | tr-waits -M > "$TMP/once" 2>/dev/null
		run tr-cat --check "$TMP/once"
		assert_success
		# a second run replaces edges, instances, waits and blame
		tr-deps -M < "$TMP/once" 2>/dev/null | tr-waits -M > "$TMP/twice" 2>/dev/null
		cmp <(body "$TMP/once") <(body "$TMP/twice")
	done
}

@test "bad input: one line naming the position, everything before it written" {
	{ cat "$DATA/mpi/defs.ndjson"; echo '{"k":"enter","id":0,"t":0,"s":9,"r":0}'; } > "$TMP/bad"
	run --separate-stderr tr-deps -J "$TMP/bad"
	assert_failure 1
	assert_equal "$stderr" "tr-deps: $TMP/bad: line 25: event on an undefined stream"
	assert_equal "$(wc -l <<< "$output")" 24
	{ cat "$DATA/mpi/defs.ndjson"; echo '{"k":"edge","from":1}'; } > "$TMP/bad"
	run --separate-stderr tr-waits -J "$TMP/bad"
	assert_failure 1
	assert_equal "$stderr" "tr-waits: $TMP/bad: line 25: edge without required field \"to\""
	printf '\x81\xa1k' > "$TMP/cut"
	run --separate-stderr tr-waits "$TMP/cut"
	assert_failure 1
	[[ "$stderr" == "tr-waits: $TMP/cut: "* ]]
}

@test "-h prints the usage; a bad option or two inputs are usage errors" {
	run tr-deps -h
	assert_success
	assert_line --index 0 "usage: tr-deps [-hJM] [--stats] [file]"
	run tr-waits -h
	assert_line --index 0 "usage: tr-waits [-hJM] [--summary] [file]"
	run tr-waits a b
	assert_failure 2
	run tr-deps -x
	assert_failure 2
}

@test "a nonblocking collective: each process arrives at its post and waits in the call that completes it" {
	# MPI_Iallreduce on comm 0: rank 2 posts at 50, rank 0 at 100, rank 1
	# (after computing 10..300) at 300, the last. Each part ends with the
	# Waitall that completed it (all at 400): edges from rank 1's post to
	# ranks 0 and 2's Waitall, from rank 0's post (the second last) to rank
	# 1's. Rank 0 waits from its Waitall's enter, 150, to 300: 150; rank 2
	# from 200: 100; rank 1 entered its Waitall after rank 0's post: none.
	# Blame: rank 1's time before its post, main 10 and compute 290: 150 ->
	# 5 and 145; 100 -> 3.33 and 96.67, 3 and 97 (the leftover to the
	# largest). The instance lists each member's post and completing call.
	# A completion whose post never came (req 9) is counted.
	run --separate-stderr analyse icoll
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":13,"to":18,"type":"coll"}
{"k":"edge","from":7,"to":20,"type":"coll"}
{"k":"edge","from":13,"to":22,"type":"coll"}
{"k":"instance","acts":[7,10,13,16,4,11],"comm":0}
{"k":"wait","at":10,"t":150,"dur":150,"pattern":"wait_nxn","s":0,"cause":13,"r":6}
{"k":"blame","to":1,"r":0,"ns":5,"pattern":"wait_nxn","wait":10,"s":1}
{"k":"blame","to":3,"r":14,"ns":145,"pattern":"wait_nxn","wait":10,"s":1}
{"k":"wait","at":11,"t":200,"dur":100,"pattern":"wait_nxn","s":2,"cause":13,"r":6}
{"k":"blame","to":1,"r":0,"ns":3,"pattern":"wait_nxn","wait":11,"s":1}
{"k":"blame","to":3,"r":14,"ns":97,"pattern":"wait_nxn","wait":11,"s":1}
OUT
	[ "$stderr" = "tr-deps: <stdin>: 1 nonblocking collectives completed without their post" ]
	# the shape comes from the operation: a nonblocking broadcast's
	# non-roots depend on the root's post only (its enter: rank 0's 7 at
	# 100, rank 1's 13 at 300, rank 2's 4 at 50), an edge to each
	# non-root's completing call (leaves 18, 20, 22), and wait for it from
	# their Waitall's enter (150, 310, 200): rooted at rank 1, ranks 0
	# and 2 wait 150 and 100 (late_broadcast); rooted at rank 0 or 2, whose
	# posts came before every other Waitall, none
	for root in 0 1 2; do
		run --separate-stderr bash -c "set -o pipefail; cat '$DATA/mpi/defs.ndjson' '$DATA/mpi/icoll.ndjson' |
			sed 's/\"op\":\"iallreduce\"/\"op\":\"ibcast\",\"root\":$root/' | tr-deps -M | tr-waits -J |
			jq -c 'select(.k == \"edge\" or .k == \"wait\") | [.k, .from // .s, .to // .dur, .type // .pattern]' |
			tr '\\n' ' '"
		assert_success
		if [ "$root" = 0 ]; then
			assert_output '["edge",7,20,"coll"] ["edge",7,22,"coll"] '
		elif [ "$root" = 1 ]; then
			assert_output '["edge",13,18,"coll"] ["edge",13,22,"coll"] ["wait",0,150,"late_broadcast"] ["wait",2,100,"late_broadcast"] '
		else
			assert_output '["edge",4,18,"coll"] ["edge",4,20,"coll"] '
		fi
	done
}

@test "hybrid: an MPI wait is blamed on the late process's time since its last MPI call, through its OpenMP barriers" {
	# Rank 0 enters the Allreduce (comm 1) at 100, rank 1 at 600: wait 500.
	# Rank 1's master since its start (no MPI call before), its barrier's
	# wait (400..510) left out: main 0..100, 510..530, 570..600 = 150,
	# compute 100..400 = 300, copy 530..570 = 40; 490 in all. 500*150/490
	# = 153.06 -> 153, 500*300/490 = 306.12 -> 306 + 1 (the largest) = 307,
	# 500*40/490 = 40.8 -> 40. (Ended at the barrier, the stretch would be
	# main 50 and copy 40: 278 and 222.) The barrier's own wait (thread 0
	# at 400, thread 1 at 500): 100, on thread 1's compute.
	run --separate-stderr analyse hybrid
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":2,"to":4,"type":"fork"}
{"k":"edge","from":11,"to":12,"type":"barrier"}
{"k":"instance","acts":[9,11]}
{"k":"wait","at":9,"t":400,"dur":100,"pattern":"omp_barrier","s":1,"cause":11,"r":15}
{"k":"blame","to":5,"r":14,"ns":100,"pattern":"omp_barrier","wait":9,"s":3}
{"k":"edge","from":15,"to":16,"type":"join"}
{"k":"edge","from":19,"to":21,"type":"coll"}
{"k":"edge","from":6,"to":23,"type":"coll"}
{"k":"instance","acts":[6,19],"comm":1}
{"k":"wait","at":6,"t":100,"dur":500,"pattern":"wait_nxn","s":0,"cause":19,"r":8}
{"k":"blame","to":1,"r":0,"ns":153,"pattern":"wait_nxn","wait":6,"s":1}
{"k":"blame","to":7,"r":14,"ns":307,"pattern":"wait_nxn","wait":6,"s":1}
{"k":"blame","to":17,"r":16,"ns":40,"pattern":"wait_nxn","wait":6,"s":1}
OUT
}

@test "hybrid: a barrier's wait is blamed on the late thread's time since the team's last barrier, through its MPI calls" {
	# Thread 1 waits at the barrier from 150 until the master comes at 400:
	# 250. The master's time since its team began, its Allreduce (100..310,
	# itself a wait) left out: compute 0..100 = 100, compute 310..400 = 90.
	# 250*100/190 = 131.6 -> 131 + 1 (the largest) = 132, 250*90/190 =
	# 118.4 -> 118. (Ended at the Allreduce: 250 on the second compute.)
	# The master's Allreduce wait (100..300) goes to rank 0's compute.
	run --separate-stderr analyse hybrid-barrier
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":4,"type":"fork"}
{"k":"edge","from":7,"to":13,"type":"coll"}
{"k":"edge","from":11,"to":15,"type":"coll"}
{"k":"instance","acts":[11,7],"comm":1}
{"k":"wait","at":7,"t":100,"dur":200,"pattern":"wait_nxn","s":1,"cause":11,"r":8}
{"k":"blame","to":0,"r":14,"ns":200,"pattern":"wait_nxn","wait":7,"s":0}
{"k":"edge","from":18,"to":21,"type":"barrier"}
{"k":"instance","acts":[18,9]}
{"k":"wait","at":9,"t":150,"dur":250,"pattern":"omp_barrier","s":3,"cause":18,"r":15}
{"k":"blame","to":3,"r":14,"ns":132,"pattern":"omp_barrier","wait":9,"s":1}
{"k":"blame","to":16,"r":14,"ns":118,"pattern":"omp_barrier","wait":9,"s":1}
{"k":"edge","from":22,"to":23,"type":"join"}
OUT
}

@test "a posted receive blames the time before it as it was then, not as it grew after" {
	# Rank 1's Send (entered at 10) waits for rank 0's post: the Irecv
	# entered at 110, so 100 ns of late receiver. Before the Irecv rank 0
	# ran main 0..40 and 100..110 (50) and compute 40..100 (60): 100 *
	# 50/110 = 45.5 -> 45, 100 * 60/110 = 54.5 -> 54 + 1 (the largest) =
	# 55. main runs on 785 ns after the post; taken as it is at the
	# Waitall, the split would be 100 * 835/895 and 100 * 60/895.
	run --separate-stderr analyse post-snapshot
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":4,"to":12,"type":"msg"}
{"k":"wait","at":3,"t":10,"dur":100,"pattern":"late_receiver","s":1,"cause":8,"r":1}
{"k":"blame","to":0,"r":0,"ns":45,"pattern":"late_receiver","wait":3,"s":0}
{"k":"blame","to":5,"r":14,"ns":55,"pattern":"late_receiver","wait":3,"s":0}
OUT
}

@test "16 000 receives posted at once: memory linear in them (it was quadratic: 3 GB)" {
	# each post keeps what its stream ran before it, as a length of the
	# stream's one history, not a copy of its own
	gen-posts 16000 | tr-deps > "$TMP/posts.tr"
	run --separate-stderr env TR_MAX_MEM=32M tr-waits -J "$TMP/posts.tr"
	assert_success
	[ "$(jq -c 'select(.k == "wait")' <<< "$output" | wc -l)" -eq 1 ]
}
