#!/usr/bin/env bats
# tr-clock on hand-written scenarios (every new time computed by hand
# below), on a generated trace with clocks set off by known amounts, and
# on bad input.

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# Scenario NAME of tests/data/clock/ (or DIR/NAME) after DIR's definitions,
# tr-deps and tr-clock ARGS: its records after the definitions.
clock() {
	set -o pipefail
	local dir=$1 name=$2
	shift 2
	cat "$DATA/$dir/defs.ndjson" "$DATA/$name.ndjson" | tr-deps -M | tr-clock -J "$@" |
		grep -v -E '"k":"(header|process|stream|region|comm)"'
}

@test "a receive before its send: its rank moves as a whole, its intervals kept" {
	# Rank 1's recv (id 4) at 200 came before rank 0's send (9) at 510:
	# it moves to 510 (least latency 0), 310 later. The events after it on
	# rank 1 move by 310 too; those before it (1 main 0, 3 MPI_Recv 150)
	# are the source of no edge that stops them: they move by 310 as well.
	# Rank 0 is not moved. The edge comes after its two ends and the events
	# read before it that did not move (rank 0's, up to 9).
	run --separate-stderr clock mpi clock/recv-early --summary
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"enter","id":2,"t":100,"s":0,"r":14}
{"k":"enter","id":1,"t":310,"s":1,"r":0}
{"k":"leave","id":7,"t":400,"s":0,"r":14}
{"k":"enter","id":3,"t":460,"s":1,"r":2}
{"k":"enter","id":8,"t":500,"s":0,"r":1}
{"k":"send","id":9,"t":510,"s":0,"peer":1,"tag":0,"comm":0}
{"k":"recv","id":4,"t":510,"s":1,"peer":0,"tag":0,"comm":0}
{"k":"edge","from":9,"to":4,"type":"msg"}
{"k":"leave","id":10,"t":520,"s":0,"r":1}
{"k":"leave","id":5,"t":520,"s":1,"r":2}
{"k":"enter","id":6,"t":610,"s":1,"r":14}
{"k":"leave","id":11,"t":910,"s":1,"r":14}
{"k":"leave","id":12,"t":1000,"s":0,"r":0}
{"k":"leave","id":13,"t":1310,"s":1,"r":0}
{"k":"trailer"}
OUT
	[[ "$stderr" == *"<stdin>: 1 edges broke the clock condition; 7 of 14 events moved, by 0.000000310 s at most, 0.000002170 s in all"* ]] || fail "$stderr"
	[[ "$stderr" == *"  msg                     1"* ]] || fail "$stderr"
	# with a least message latency of 40 ns it lands at 550
	run clock mpi clock/recv-early --latency msg=40
	assert_line '{"k":"recv","id":4,"t":550,"s":1,"peer":0,"tag":0,"comm":0}'
	assert_line '{"k":"leave","id":13,"t":1350,"s":1,"r":0}'
}

@test "edges that broke the clock condition are counted in the times as recorded, the least latency included" {
	# Rank 1's first recv (5) lands on its send (4) at 100, its second (11)
	# 10 ns after its send (10) at 300. With latency 0 neither is broken:
	# nothing moves. With 40 both are as recorded (100 + 40 > 100, 300 +
	# 40 > 310): the first moves rank 1 by 40 as a whole (recv 5 to 140,
	# recv 11 to 350, no edge holds its events before it back), which
	# mends the second (340 <= 350) before it comes; it counts all the same.
	run --separate-stderr clock mpi clock/recorded-count --summary
	assert_success
	assert_line '{"k":"recv","id":11,"t":310,"s":1,"peer":0,"tag":0,"comm":0}'
	[[ "$stderr" == *"<stdin>: 0 edges broke the clock condition; 0 of 16 events moved"* ]] || fail "$stderr"
	run --separate-stderr clock mpi clock/recorded-count --summary --latency msg=40
	assert_success
	assert_line '{"k":"enter","id":1,"t":40,"s":1,"r":0}'
	assert_line '{"k":"recv","id":5,"t":140,"s":1,"peer":0,"tag":0,"comm":0}'
	assert_line '{"k":"recv","id":11,"t":350,"s":1,"peer":0,"tag":0,"comm":0}'
	assert_line '{"k":"leave","id":15,"t":1040,"s":1,"r":0}'
	[[ "$stderr" == *"<stdin>: 2 edges broke the clock condition; 8 of 16 events moved, by 0.000000040 s at most, 0.000000320 s in all"* ]] || fail "$stderr"
	[[ "$stderr" == *"  msg                     2"* ]] || fail "$stderr"
}

@test "a move held back by another process's event: no feedback through the collectives, every violation mended" {
	# MPI_Init over the world: rank 1 enters last (4, at 300), ranks 0 and
	# 2 left at 100 (2, 3): both move by 200 as a whole (0 and 1 to 200,
	# their leaves to 300). Rank 0's MPI_Allreduce (pair) enter (7) then
	# goes on to 560 + 200 = 760, its coll_end and leave (8, 9) to 850.
	# Rank 0 entered the Allreduce last (at 560 before the move): rank 1's
	# leave (11, at 650) moves to 760, by 110, with its coll_end (10);
	# back along its stream its enter (6) to 660 and its MPI_Init leave
	# (5) to 510, but not its MPI_Init enter (4): the source of edges to
	# ranks 0's and 2's leaves at 300, which another process's clock
	# holds there (slack 0). Moving it along with them, as before, moved
	# rank 0 again, whose Allreduce enter moved rank 1 again, 110 ns a
	# round: every event ended 10 ms (the window) later, the MPI_Init
	# edges still broken. As recorded, two edges are broken (4 to 2 and 4
	# to 3): the Allreduce's (7 to 11) broke only once rank 0 had moved.
	run --separate-stderr clock mpi clock/collective-feedback --summary
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":200,"s":0,"r":12}
{"k":"enter","id":1,"t":200,"s":2,"r":12}
{"k":"leave","id":2,"t":300,"s":0,"r":12}
{"k":"enter","id":4,"t":300,"s":1,"r":12}
{"k":"leave","id":3,"t":300,"s":2,"r":12}
{"k":"leave","id":5,"t":510,"s":1,"r":12}
{"k":"edge","from":4,"to":2,"type":"coll"}
{"k":"edge","from":1,"to":5,"type":"coll"}
{"k":"edge","from":4,"to":3,"type":"coll"}
{"k":"instance","acts":[0,4,1]}
{"k":"enter","id":6,"t":660,"s":1,"r":8}
{"k":"enter","id":7,"t":760,"s":0,"r":8}
{"k":"coll_end","id":10,"t":760,"s":1,"comm":1}
{"k":"leave","id":11,"t":760,"s":1,"r":8}
{"k":"coll_end","id":8,"t":850,"s":0,"comm":1}
{"k":"leave","id":9,"t":850,"s":0,"r":8}
{"k":"edge","from":6,"to":9,"type":"coll"}
{"k":"edge","from":7,"to":11,"type":"coll"}
{"k":"instance","acts":[7,6],"comm":1}
{"k":"trailer"}
OUT
	[[ "$stderr" == *"<stdin>: 2 edges broke the clock condition; 11 of 12 events moved, by 0.000000200 s at most, 0.000001840 s in all"* ]] || fail "$stderr"
	[[ "$stderr" != *"further than the window"* ]] || fail "$stderr"
}

@test "a move held back by another process's event goes further when that event moves: the order edges come in does not matter" {
	# Rank 0's recv (6) at 180 came before rank 2's send (7) at 280: it
	# moves by 100, and back along its stream its send (3) at 100, but only
	# by 10: rank 1's recv of it (5) is at 110. Then rank 2's send (8) at
	# 400 moves rank 1's recv (4) at 105 by 295, and with it its recv 5 to
	# 405: rank 0's send may now move by the whole 100 (to 200), and its
	# main enter (0) with it (to 100); taken the other way round, the
	# edges would have put them there at once. Rank 1's enter (1) moves
	# back to 295.
	run --separate-stderr clock mpi clock/revisit --summary
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":2,"t":0,"s":2,"r":0}
{"k":"enter","id":0,"t":100,"s":0,"r":0}
{"k":"send","id":3,"t":200,"s":0,"peer":1,"tag":0,"comm":0}
{"k":"recv","id":6,"t":280,"s":0,"peer":2,"tag":0,"comm":0}
{"k":"send","id":7,"t":280,"s":2,"peer":0,"tag":0,"comm":0}
{"k":"edge","from":7,"to":6,"type":"msg"}
{"k":"enter","id":1,"t":295,"s":1,"r":0}
{"k":"recv","id":4,"t":400,"s":1,"peer":2,"tag":0,"comm":0}
{"k":"send","id":8,"t":400,"s":2,"peer":1,"tag":0,"comm":0}
{"k":"edge","from":8,"to":4,"type":"msg"}
{"k":"recv","id":5,"t":405,"s":1,"peer":0,"tag":0,"comm":0}
{"k":"edge","from":3,"to":5,"type":"msg"}
{"k":"leave","id":11,"t":500,"s":2,"r":0}
{"k":"leave","id":9,"t":600,"s":0,"r":0}
{"k":"leave","id":10,"t":795,"s":1,"r":0}
{"k":"trailer"}
OUT
	[[ "$stderr" == *"<stdin>: 2 edges broke the clock condition; 8 of 12 events moved, by 0.000000295 s at most, 0.000001580 s in all"* ]] || fail "$stderr"
}

@test "a kernel before its launch: the GPU stream moves; a host call it would pass is left, counted" {
	# Kernel 1 enters at 80, its launch (2) at 100: the GPU stream moves by
	# 20 (kernel 1 100..520, kernel 2 from 730). Kernel 2's launch (10) at
	# 720 is then before it: no more to move (both launches broke the
	# condition as recorded, kernel 2 at 710). Kernel 2 now ends at 1010,
	# after the cuStreamSynchronize that waited for it (1000): the host is
	# not moved for the GPU's clock (it would move every launch after it),
	# the edge is counted.
	run --separate-stderr clock cuda crit/skewed-launch --summary
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"enter","id":2,"t":100,"s":0,"r":1,"ref_stream":2}
{"k":"enter","id":1,"t":100,"s":2,"r":2}
{"k":"edge","from":2,"to":1,"type":"launch"}
{"k":"leave","id":3,"t":110,"s":0,"r":1}
{"k":"enter","id":4,"t":110,"s":0,"r":11}
{"k":"leave","id":5,"t":520,"s":2,"r":2}
{"k":"leave","id":6,"t":700,"s":0,"r":11}
{"k":"enter","id":7,"t":700,"s":0,"r":3,"ref_stream":2}
{"k":"leave","id":8,"t":710,"s":0,"r":3}
{"k":"edge","from":5,"to":8,"type":"sync"}
{"k":"enter","id":10,"t":720,"s":0,"r":1,"ref_stream":2}
{"k":"leave","id":11,"t":730,"s":0,"r":1}
{"k":"enter","id":9,"t":730,"s":2,"r":2}
{"k":"edge","from":10,"to":9,"type":"launch"}
{"k":"enter","id":12,"t":740,"s":0,"r":3,"ref_stream":2}
{"k":"leave","id":14,"t":1000,"s":0,"r":3}
{"k":"leave","id":13,"t":1010,"s":2,"r":2}
{"k":"edge","from":13,"to":14,"type":"sync"}
{"k":"leave","id":15,"t":1050,"s":0,"r":0}
{"k":"trailer"}
OUT
	[[ "$stderr" == *"tr-clock: <stdin>: 1 GPU activities that ended after the host call that waited for them"* ]] || fail "$stderr"
	[[ "$stderr" == *"2 edges broke the clock condition; 4 of 16 events moved, by 0.000000020 s at most, 0.000000080 s in all"* ]] || fail "$stderr"
}

@test "a GPU clock that runs slow: moved by the launches, held back by the synchronizations" {
	# The GPU's clock loses 10 ns every 990 of its own: kernel i (own times
	# 990i + 0..99, truly 1000i + 0..100) began 10i ns before its launch at
	# 1000i; a cuStreamSynchronize waited for it until 1000i + 105.
	# Kernel 1 moves by 10 (1000..1099). Kernel 2 is then 10 early: it and
	# the rest of the stream move by 10, and kernel 1 back by as much as its
	# synchronization lets its end go: 6 (1006..1105). Likewise kernels 3
	# and 4. Between two synchronizations a stream is taken to be off by a
	# constant: kernels 1 to 3 are 6 ns late at their start, 5 at their end
	# (the drift over one synchronization interval); kernel 4, after every
	# raise, lasts 99.
	run --separate-stderr clock cuda clock/drift --summary
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"enter","id":2,"t":1000,"s":0,"r":1,"ref_stream":2}
{"k":"enter","id":1,"t":1006,"s":2,"r":2}
{"k":"edge","from":2,"to":1,"type":"launch"}
{"k":"leave","id":3,"t":1010,"s":0,"r":1}
{"k":"enter","id":4,"t":1020,"s":0,"r":3,"ref_stream":2}
{"k":"leave","id":6,"t":1105,"s":0,"r":3}
{"k":"leave","id":5,"t":1105,"s":2,"r":2}
{"k":"edge","from":5,"to":6,"type":"sync"}
{"k":"enter","id":8,"t":2000,"s":0,"r":1,"ref_stream":2}
{"k":"enter","id":7,"t":2006,"s":2,"r":2}
{"k":"edge","from":8,"to":7,"type":"launch"}
{"k":"leave","id":9,"t":2010,"s":0,"r":1}
{"k":"enter","id":10,"t":2020,"s":0,"r":3,"ref_stream":2}
{"k":"leave","id":12,"t":2105,"s":0,"r":3}
{"k":"leave","id":11,"t":2105,"s":2,"r":2}
{"k":"edge","from":11,"to":12,"type":"sync"}
{"k":"enter","id":14,"t":3000,"s":0,"r":1,"ref_stream":2}
{"k":"enter","id":13,"t":3006,"s":2,"r":2}
{"k":"edge","from":14,"to":13,"type":"launch"}
{"k":"leave","id":15,"t":3010,"s":0,"r":1}
{"k":"enter","id":16,"t":3020,"s":0,"r":3,"ref_stream":2}
{"k":"leave","id":18,"t":3105,"s":0,"r":3}
{"k":"leave","id":17,"t":3105,"s":2,"r":2}
{"k":"edge","from":17,"to":18,"type":"sync"}
{"k":"enter","id":20,"t":4000,"s":0,"r":1,"ref_stream":2}
{"k":"enter","id":19,"t":4000,"s":2,"r":2}
{"k":"edge","from":20,"to":19,"type":"launch"}
{"k":"leave","id":21,"t":4010,"s":0,"r":1}
{"k":"enter","id":22,"t":4020,"s":0,"r":3,"ref_stream":2}
{"k":"leave","id":23,"t":4099,"s":2,"r":2}
{"k":"leave","id":24,"t":4105,"s":0,"r":3}
{"k":"edge","from":23,"to":24,"type":"sync"}
{"k":"leave","id":25,"t":4300,"s":0,"r":0}
{"k":"trailer"}
OUT
	[[ "$stderr" == *"4 edges broke the clock condition; 8 of 26 events moved, by 0.000000040 s at most, 0.000000236 s in all"* ]] || fail "$stderr"
}

@test "a stream without events comes back as it was" {
	# (found by make fuzz: nothing to sort once passed qsort a null array)
	tr-deps -M "$DATA/mpi/defs.ndjson" > "$TMP/d.tr"
	tr-clock "$TMP/d.tr" > "$TMP/c.tr"
	cmp <(body "$TMP/d.tr") <(body "$TMP/c.tr")
}

@test "a stream over the whole range of times comes back as it was" {
	# (found by make fuzz: the step to the next eighth of a window was
	# the difference of two times, one of them floored below -2^62)
	tr-deps < "$DATA/repros/project-full-range.ndjson" > "$TMP/d.tr"
	tr-clock "$TMP/d.tr" > "$TMP/c.tr"
	cmp <(body "$TMP/d.tr") <(body "$TMP/c.tr")
}

@test "a stream whose clocks agree comes back record for record" {
	for name in late-sender late-receiver collectives ring; do
		cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/$name.ndjson" | tr-deps -M > "$TMP/d.tr"
		tr-clock "$TMP/d.tr" > "$TMP/c.tr" 2> "$TMP/err"
		assert_equal "$(cat "$TMP/err")" ""
		cmp <(body "$TMP/d.tr") <(body "$TMP/c.tr") || fail "$name changed"
	done
}

@test "an edge that waited for its events goes out after every record read before it: nothing moved, nothing reordered" {
	# tests/data/clock/woken-edge.ndjson, held 100 ns: the sync edge 3 -> 4
	# is read after events 5 (t 220) and 6 (t 230), while 3 and 4 are
	# still held; event 7 (t 315) lets 0..4 go (their t + 100 <= 315) but
	# not 5 and 6. The edge, woken by 4, waits for 5 and 6: the stream
	# comes back as it was read.
	tr-clock --window 0.0000001 "$DATA/clock/woken-edge.ndjson" > "$TMP/c.tr" 2> "$TMP/err"
	assert_equal "$(cat "$TMP/err")" ""
	cmp <(body "$DATA/clock/woken-edge.ndjson") <(body "$TMP/c.tr")
}

# A generated run (2 ranks, a GPU stream each) as read, and the same with
# rank 1's clock 5000 ns behind and rank 0's GPU 3000 ns behind its host:
# $TMP/true.tr and $TMP/skewed.tr, both after tr-deps.
skewed_pair() {
	gen-otf2 -r 2 -t 1 -i 3 "$TMP/g/t" > /dev/null
	tr-read -J "$TMP/g/t.otf2" > "$TMP/u.json"
	tr-deps -M "$TMP/u.json" > "$TMP/true.tr"
	jq -c 'if .t != null and .s != null then
		(if .s == 2 or .s == 3 then .t -= 5000 elif .s == 1 then .t -= 3000 else . end)
		else . end' "$TMP/u.json" > "$TMP/s1.json"
	(grep -v -e '"t":' -e '"k":"trailer"' "$TMP/s1.json"
	 grep '"t":' "$TMP/s1.json" | jq -s -c 'sort_by([.t, .s])[]'
	 echo '{"k":"trailer"}') | tr-deps -M > "$TMP/skewed.tr"
}

# "id t" of every event of stream file $1, ordered as join wants.
times() {
	tr-cat -J "$1" | jq -r 'select(.t != null and .id != null) | "\(.id) \(.t)"' | sort
}

@test "clocks set off by known amounts: corrected within the least latencies, exactly with them" {
	skewed_pair
	# the generated run's least latencies: a message 2000 ns, a launch 900
	tr-clock --latency msg=2000 --latency launch=900 "$TMP/skewed.tr" > "$TMP/fixed.tr"
	cmp <(times "$TMP/true.tr") <(times "$TMP/fixed.tr") || fail "not the true times"
	# what --summary says the trace shows: half the least round trip between
	# the two ranks, the offset cancelled: the generated run's least, 2000
	tr-clock --summary "$TMP/skewed.tr" 2> "$TMP/summary" > /dev/null
	grep -qF "least message latency the trace shows: 2000 ns (half the least round trip, over 1 pairs of processes): --latency msg=2000" "$TMP/summary" ||
		fail "$(cat "$TMP/summary")"
	# with none given (0): each clock is behind by the latency it could not see,
	# rank 1's host by the message's 2000, its GPU by that and the launch's 900,
	# rank 0's GPU by the launch's 900; every interval kept
	tr-clock "$TMP/skewed.tr" > "$TMP/fixed0.tr"
	times "$TMP/true.tr" > "$TMP/true.t"
	times "$TMP/fixed0.tr" > "$TMP/fixed0.t"
	run bash -c "join '$TMP/true.t' '$TMP/fixed0.t' | awk '{ print \$3 - \$2 }' | sort -n |
		uniq -c | awk '{ print \$2, \$1 }'"
	assert_output - <<'OUT'
-2900 12
-2000 82
-900 12
0 82
OUT
	# the analysis of the corrected run is the true run's
	for f in true fixed; do
		tr-waits "$TMP/$f.tr" | tr-critpath | tr-rank > "$TMP/$f.rank" 2>&1
	done
	cmp "$TMP/true.rank" "$TMP/fixed.rank" || fail "$(diff "$TMP/true.rank" "$TMP/fixed.rank")"
	# and tr-clock's output keeps the stream contract
	tr-cat --check "$TMP/fixed0.tr"
}

@test "an edge into an event already written is counted where it breaks the condition, not enforced; one that holds is no news" {
	# a window of 100 ns: rank 1's events before 410 are written before the
	# send (510) is read; the receive (200) before it is not moved, and said
	run --separate-stderr clock mpi clock/recv-early --window 0.0000001
	assert_success
	assert_equal "$(grep '^tr-clock' <<< "$stderr")" "tr-clock: <stdin>: 1 edges that put their target before their source, read after the target was written: not enforced (a longer --window lets them in before it)"
	assert_line '{"k":"recv","id":4,"t":200,"s":1,"peer":0,"tag":0,"comm":0}'
	# the summary counts it among those that broke the condition: the two
	# lines agree (it said 0 beside the 1 above: turn4's case 4)
	run --separate-stderr clock mpi clock/recv-early --window 0.0000001 --summary
	[[ "$stderr" == *"<stdin>: 1 edges broke the clock condition; 0 of "* ]] || fail "$stderr"
	# edges into events already written where the condition holds (a
	# collective's, come at its end): no news. tr-clock said "4 edges into
	# events already written (...?): not enforced" of this trace beside
	# "0 edges broke the clock condition" (issue 37)
	run --separate-stderr bash -c "tr-clock --summary '$DATA/repros/c10-deps.tr' > /dev/null"
	assert_success
	assert_equal "$stderr" "$DATA/repros/c10-deps.tr: 0 edges broke the clock condition; 0 of 428 events moved, by 0.000000000 s at most, 0.000000000 s in all
  held at most 72 events at once"
}

@test "events are written at each multiple of an eighth of the window the input passes, whatever events the trace has" {
	# A window of 2000 ns, written at each multiple of 250. Rank 1's recv (2)
	# at 100 came before rank 0's send (3) at 2200. When the send is read
	# the input has passed 2000, so what is before 0 is written: nothing;
	# the recv is still held, and its move of 2100 is past the window:
	# counted as such. Writing an eighth of a window after the last write
	# (at 0, then at 2200: what is before 200) wrote the recv first, and
	# when depended on which events came between: a shard of the processes
	# would have written elsewhere than the whole trace.
	run --separate-stderr clock mpi clock/grid --window 0.000002
	assert_success
	assert_line '{"k":"recv","id":2,"t":100,"s":1,"peer":0,"tag":0,"comm":0}'
	assert_equal "$(grep '^tr-clock' <<< "$stderr")" "tr-clock: <stdin>: 1 events that would move further than the window (or edges in a cycle): not moved"
}

@test "the window limits a move: an event that would move further than it stays, counted" {
	# Rank 1's receive (200) came before rank 0's send (510): rank 1 moves
	# 310 later, its send to rank 2 from 220 to 530. Rank 2's receive
	# (100) came before that send even as written (220): it moves to 220
	# first, and would have to move 430 in all to follow it to 530. With a
	# window of 400 ns that is further than the window: it stays at 220,
	# counted; with 1 us it moves to 530.
	run --separate-stderr clock mpi clock/cascade --window 0.0000004
	assert_success
	assert_line '{"k":"recv","id":7,"t":510,"s":1,"peer":0,"tag":0,"comm":0}'
	assert_line '{"k":"send","id":10,"t":530,"s":1,"peer":2,"tag":0,"comm":0}'
	assert_line '{"k":"recv","id":4,"t":220,"s":2,"peer":1,"tag":0,"comm":0}'
	assert_equal "$(grep '^tr-clock' <<< "$stderr")" "tr-clock: <stdin>: 1 events that would move further than the window (or edges in a cycle): not moved"
	run --separate-stderr clock mpi clock/cascade --window 0.000001
	assert_success
	assert_line '{"k":"recv","id":4,"t":530,"s":2,"peer":1,"tag":0,"comm":0}'
	assert_equal "$(grep '^tr-clock' <<< "$stderr")" ""
}

@test "edges in a cycle: stopped after two rounds, not at the window; each GPU activity left late counted once, as many as the output shows" {
	# gen-otf2 -a puts a call of every API on rank 0 before its loop, an
	# MPI_Finalize among them, which tr-deps matches with rank 1's real
	# one: a cycle (rank 0's first Finalize after rank 1's, rank 1's after
	# their Allreduce, rank 0's Allreduce after its first Finalize). Each
	# round of it moves the GPU work before it again; a GPU activity that
	# ends after the host call that waited for it was counted each time
	# (94 on 5 such edges), where it is one edge in the output. A round
	# moves both ranks by some 107 us: once the edge the rounds began with
	# has been broken again twice, tr-clock stops there (it went on until
	# every event had moved by the window, 10 ms).
	gen-otf2 -a -r 2 -t 1 -i 1 "$TMP/g/t" > /dev/null
	tr-read -M "$TMP/g/t.otf2" | tr-deps -M > "$TMP/d.tr"
	run --separate-stderr tr-clock -J --summary "$TMP/d.tr"
	assert_success
	grep -qF "tr-clock: $TMP/d.tr: 1 events that would move further than the window (or edges in a cycle): not moved" <<< "$stderr" ||
		fail "$stderr"
	most=$(sed -n 's/.* events moved, by \([0-9.]*\) s at most.*/\1/p' <<< "$stderr")
	awk -v m="$most" 'BEGIN { exit !(m > 0.0002 && m < 0.0004) }' || fail "moved by $most s at most"
	late=$(jq -s '([.[] | select(.k != "edge" and .id != null and .t != null) | {key: (.id | tostring), value: .t}] |
		from_entries) as $t | [.[] | select(.k == "edge" and (.type == "sync" or .type == "event") and
		$t[.from | tostring] > $t[.to | tostring])] | length' <<< "$output")
	[ "$late" -ge 1 ] || fail "no late GPU activity in the output: the scenario changed"
	assert_equal "$(grep '^tr-clock' <<< "$stderr" | grep 'GPU activities')" \
		"tr-clock: $TMP/d.tr: $late GPU activities that ended after the host call that waited for them (the GPU's clock runs late there): left as they are"
}

@test "tr-clock goes after tr-deps and before tr-waits; bad options are refused" {
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" > "$TMP/in.ndjson"
	tr-deps -M "$TMP/in.ndjson" | tr-waits -M > "$TMP/w.tr"
	run tr-clock "$TMP/w.tr"
	assert_failure 1
	assert_output --partial "the stream has been through tr-waits already: run tr-clock before it"
	gen-otf2 -r 2 -t 1 -i 1 "$TMP/g/t" > /dev/null
	tr-read -M "$TMP/g/t.otf2" > "$TMP/r.tr"
	run tr-clock "$TMP/r.tr"
	assert_failure 1
	assert_output --partial "the stream has not been through tr-deps: run it before tr-clock"
	run tr-clock --window 0 "$TMP/w.tr"
	assert_failure 2
	assert_output "tr-clock: --window 0: give seconds, more than 0 and at most 86400"
	run tr-clock --latency kernel=5 "$TMP/w.tr"
	assert_failure 2
	assert_output --partial "tr-clock: --latency kernel=5: give TYPE=NS with an edge type"
	run tr-clock --latency msg=-1 "$TMP/w.tr"
	assert_failure 2
	assert_output "tr-clock: --latency msg=-1: give the latency in ns, 0 to 1000000000"
}

@test "bad input: one line naming the position, the records before it written" {
	cat "$DATA/mpi/defs.ndjson" "$DATA/clock/recv-early.ndjson" | tr-deps -J |
		sed '/"k":"recv","id":4,/q' > "$TMP/bad.json"
	echo '{"k":"enter","id":99,"t":50,"s":0,"r":0}' >> "$TMP/bad.json"
	echo '{"k":"trailer"}' >> "$TMP/bad.json"
	run --separate-stderr tr-clock -J "$TMP/bad.json"
	assert_failure 1
	[[ "$stderr" == "tr-clock: $TMP/bad.json: line "*": enter at t=50 on stream 0 comes after t=200 on stream 1 (events must be ordered by time, then stream)" ]] || fail "$stderr"
	assert_line '{"k":"recv","id":4,"t":200,"s":1,"peer":0,"tag":0,"comm":0}'
	refute_line --partial '"id":99'
}
