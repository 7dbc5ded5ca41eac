#!/usr/bin/env bats
# tr-analyze --mpi under a real mpirun (oversubscribed on a small
# machine): each rank reads a shard of the processes (rank 0 on a thread
# of its own) and runs tr-deps on it, the ranks sending each other what
# crosses shards; rank 0 merges and runs the stages after tr-deps. For
# P = 1, 2, 3, 4, 8 (and more ranks than processes) the analysed stream,
# the table and the annotated archive are the single-process run's, byte
# for byte (the archive under otf2-print), and so are the warnings; a
# failing shard is said in one line by rank 0.

load common

setup() {
	TMP=$(mktemp -d)
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
	# sanitizer runs: Open MPI's components lose memory at MPI_Finalize and
	# are unloaded by the time LeakSanitizer looks, so that it cannot tell
	# theirs from ours; memory errors are still caught
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}

teardown() {
	rm -rf "${TMP:-/nonexistent}"
}

# same ARCHIVE P...: tr-analyze alone, then under mpirun -n P with --mpi,
# write the same stream, table, warnings and annotated archive.
same() {
	local a=$1 p
	shift
	rm -rf "$TMP/one.tr" "$TMP/one"
	tr-analyze -q --stream "$TMP/one.tr" -o "$TMP/one/a" "$a" > "$TMP/one.txt" 2> "$TMP/one.err"
	for p in "$@"; do
		rm -rf "$TMP/m.tr" "$TMP/m"
		mpirun -n "$p" tr-analyze --mpi --stream "$TMP/m.tr" -o "$TMP/m/a" "$a" > "$TMP/m.txt" 2> "$TMP/m.err" ||
			fail "$a, $p ranks: $(cat "$TMP/m.err")"
		cmp "$TMP/one.tr" "$TMP/m.tr" || fail "$a, $p ranks: another stream"
		cmp "$TMP/one.txt" "$TMP/m.txt" || fail "$a, $p ranks: another table"
		diff "$TMP/one.err" "$TMP/m.err" || fail "$a, $p ranks: other warnings"
		cmp <(otf2-print "$TMP/one/a.otf2") <(otf2-print "$TMP/m/a.otf2") || fail "$a, $p ranks: other events"
		cmp <(otf2-print -G "$TMP/one/a.otf2") <(otf2-print -G "$TMP/m/a.otf2") ||
			fail "$a, $p ranks: other definitions"
	done
}

@test "generated runs (MPI, OpenMP threads, GPU streams) under 1, 2, 3, 4, 8 and 12 ranks: the single process's stream, table, warnings and archive; a selection, a what-if" {
	gen-otf2 -r 8 -t 2 -i 20 "$TMP/g/t" > /dev/null
	same "$TMP/g/t.otf2" 1 2 3 4 8 12
	gen-otf2 -r 6 -g 3 -i 10 "$TMP/gpu/t" > /dev/null
	same "$TMP/gpu/t.otf2" 2 3 4
	# a selection and a window: the shards read the processes chosen (the
	# header names the arguments given, --mpi among them: the rest alike)
	tr-analyze -q -p 1-5 -t 0.2ms:1ms -n 0 --json "$TMP/g/t.otf2" > "$TMP/sel.json" 2> "$TMP/sel.err"
	run --separate-stderr mpirun -n 3 tr-analyze --mpi -p 1-5 -t 0.2ms:1ms -n 0 --json "$TMP/g/t.otf2"
	assert_success
	assert_equal "$(sed 1d <<< "$output")" "$(sed 1d "$TMP/sel.json")"
	assert_equal "$stderr" "$(cat "$TMP/sel.err")"
	# a what-if: tr-project after tr-clock, over the stream rank 0 merged
	tr-analyze -q --scale 'main=0.5' --stream "$TMP/p1.tr" "$TMP/g/t.otf2" > "$TMP/p1.txt"
	mpirun -n 3 tr-analyze --mpi --scale 'main=0.5' --stream "$TMP/p3.tr" "$TMP/g/t.otf2" > "$TMP/p3.txt"
	cmp "$TMP/p1.tr" "$TMP/p3.tr"
	cmp "$TMP/p1.txt" "$TMP/p3.txt"
}

@test "every multi-process archive of the corpus under 2, 3 and 4 ranks: the single process's stream, table, warnings and archive" {
	require_corpus
	for name in casita-10_scorep_mpi_tags casita-1_sptc casita-2_cuda_simple casita-4_mpi_ls_barr \
		casita-2_jacobi_blame_cpu_015 casita-2_cloverleaf_oaccregions_cudafull pipit-ping-pong-otf2 \
		tracer-stencil4d-32; do
		same "$(archive "$name")" 2 3 4
	done
}

@test "a collective whose members ran different functions (tests/data/mpi/allreduce-allgather) is counted by the shard that completes it, as by one process" {
	# each rank's part goes to the others as a fact with the function it ran
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/allreduce-allgather.ndjson" | tr-otf2 -o "$TMP/mixed/a"
	same "$TMP/mixed/a.otf2" 2 3
	grep -q 'members ran different operations' "$TMP/m.err" || fail "not counted: $(cat "$TMP/m.err")"
}

@test "256 application processes under 8 ranks: the single process's stream; with -v under 4, each rank's quarter of the events and what it sent" {
	gen-otf2 -r 256 -t 1 -i 10 "$TMP/b/t" > /dev/null
	tr-analyze -q --stream "$TMP/one.tr" "$TMP/b/t.otf2" > "$TMP/one.txt"
	mpirun -n 8 tr-analyze --mpi --stream "$TMP/m.tr" "$TMP/b/t.otf2" > "$TMP/m.txt"
	cmp "$TMP/one.tr" "$TMP/m.tr"
	cmp "$TMP/one.txt" "$TMP/m.txt"
	# 64 processes a shard, each of the same run: a quarter of the events each
	events=$(tr-cat -J "$TMP/one.tr" | jq -s '[.[] | select(.id != null and .t != null)] | length')
	run --separate-stderr mpirun -n 4 tr-analyze --mpi -q -v "$TMP/b/t.otf2"
	assert_success
	for r in 0 1 2 3; do
		line=$(grep "^tr-analyze: rank $r analysed [0-9]* events of its shard in tr-deps in [0-9]*\.[0-9][0-9] s of CPU; sent" <<< "$stderr")
		[ "$(awk '{print $5}' <<< "$line")" = $((events / 4)) ] || fail "rank $r: $line (of $events)"
		# a block's outer neighbours and every collective's other members are other shards': facts go between the ranks
		facts=$(sed 's/.* and \([0-9]*\) bytes of facts.*/\1/' <<< "$line")
		[ "$facts" -gt 0 ] || fail "rank $r sent no facts: $line"
	done
	assert_equal "$(grep -c 'bytes of stream to rank 0' <<< "$stderr")" 4
	grep -q "^tr-analyze: rank 0 analysed all $events events in the stages after tr-deps: [0-9]*\.[0-9][0-9] s of CPU in all, its shard's included$" <<< "$stderr"
}

@test "a shard that fails: rank 0 says which and why in one line, exit 1, no output left; usage errors stay 2" {
	gen-otf2 -r 4 -i 5 "$TMP/g/t" > /dev/null
	rm "$TMP/g/t/3.evt"
	# in blocks (libstream/shard.h), processes 0 and 1 are rank 0's, 2 rank 1's, 3 rank 2's: the others read to their end
	run --separate-stderr mpirun -n 3 tr-analyze --mpi --stream "$TMP/s.tr" "$TMP/g/t.otf2"
	assert_failure
	assert_equal "$(grep '^tr-analyze' <<< "$stderr")" \
		"tr-analyze: $TMP/g/t.otf2: rank 2: $TMP/g/t/3.evt: missing (the events of location 3, Master thread)"
	[ ! -e "$TMP/s.tr" ]
	run ls -A "$TMP"
	assert_output "g"
	# process 0 is rank 0's own shard, read on a thread of its own
	rm "$TMP/g/t/0.evt"
	run --separate-stderr mpirun -n 2 tr-analyze --mpi --stream "$TMP/s.tr" "$TMP/g/t.otf2"
	assert_failure
	assert_equal "$(grep '^tr-analyze' <<< "$stderr")" \
		"tr-analyze: $TMP/g/t.otf2: rank 0: $TMP/g/t/0.evt: missing (the events of location 0, Master thread)"
	# rank 0 fails before it merges (its output is there): the shards still end, and nothing is touched
	gen-otf2 -r 4 -i 5 "$TMP/f/t" > /dev/null
	echo mine > "$TMP/f/s.tr"
	run --separate-stderr timeout 60 mpirun -n 3 tr-analyze --mpi --stream "$TMP/f/s.tr" "$TMP/f/t.otf2"
	assert_failure
	[ "$status" -ne 124 ] || fail "the ranks did not end"
	assert_equal "$(grep '^tr-analyze' <<< "$stderr")" \
		"tr-analyze: $TMP/f/s.tr is there already: give --force to replace it"
	assert_equal "$(cat "$TMP/f/s.tr")" mine
	rm -r "$TMP/f"
	# a signal to mpirun on the way: rank 0 leaves neither file nor folder
	gen-otf2 -r 256 -t 1 -i 300 "$TMP/big/t" > /dev/null
	mkdir "$TMP/out"
	mpirun -n 3 tr-analyze --mpi -q --stream "$TMP/out/s.tr" -o "$TMP/out/new/a" "$TMP/big/t.otf2" > /dev/null 2>&1 &
	# on its way: once rank 0 has begun writing (a loaded machine under a sanitizer starts slowly)
	for i in $(seq 400); do [ -n "$(ls -A "$TMP/out")" ] && break; sleep 0.05; done
	kill -TERM $!
	wait $! || true
	# and ended: the ranks take the signal mpirun passes on, and clean up, each in its own time
	for i in $(seq 200); do pgrep -f "tr-analyze --mpi -q --stream $TMP/out/s.tr" > /dev/null || break; sleep 0.05; done
	run ls -A "$TMP/out"
	assert_output ""
	# every rank fails, their ends come in any order: the lowest is named (a few times, as the order varies)
	for i in 1 2 3; do
		run --separate-stderr mpirun -n 3 tr-analyze --mpi "$TMP/none.otf2"
		assert_failure
		assert_equal "$(grep '^tr-analyze' <<< "$stderr")" "tr-analyze: $TMP/none.otf2: rank 0: No such file or directory"
	done
	gen-kineto --ranks 2 --steps 2 "$TMP/k"
	run --separate-stderr mpirun -n 2 tr-analyze --mpi "$TMP/k"
	assert_failure
	assert_equal "$(grep '^tr-analyze' <<< "$stderr")" "tr-analyze: $TMP/k: rank 0: --mpi reads OTF2 archives (libotf2 opens a shard's locations alone); give Kineto traces to one process"
	gen-otf2 -r 4 -i 5 "$TMP/h/t" > /dev/null
	run --separate-stderr mpirun -n 3 tr-analyze --mpi -p 9 "$TMP/h/t.otf2"
	assert_equal "$(grep '^tr-analyze' <<< "$stderr")" "tr-analyze: $TMP/h/t.otf2: -p and -s select no stream of the trace"
	grep -q 'Exit code: *2' <<< "$stderr"
}

# the archive $1 as otf2-print shows it, its name left out
events_of() {
	otf2-print "$1" | grep -v '^===\|^  *$\|Anchor\|^OTF2_PRINT'
}

@test "SIGTERM to rank 0 at each step of putting its outputs in place (MPI's threads never take it): the old or the new, whole, and nothing else" {
	gen-otf2 -r 4 -i 5 "$TMP/old/t" > /dev/null
	gen-otf2 -r 4 -i 8 "$TMP/new/t" > /dev/null
	mkdir "$TMP/d" "$TMP/n"
	tr-analyze -q --stream "$TMP/n/s.tr" -o "$TMP/n/a" "$TMP/new/t.otf2" > /dev/null
	fresh() {
		rm -rf "$TMP/d"/* "$TMP/d"/.[!.]*
		tr-analyze -q --stream "$TMP/d/s.tr" -o "$TMP/d/a" "$TMP/old/t.otf2" > /dev/null
		echo "my thesis" > "$TMP/d/thesis.tex"
	}
	fresh
	cp "$TMP/d/s.tr" "$TMP/old.tr"
	events_of "$TMP/d/a.otf2" > "$TMP/old.events"
	events_of "$TMP/n/a.otf2" > "$TMP/new.events"
	# the steps of rank 0 in $TMP/d (the other rank writes nothing there):
	# the first of each kind, and every rename (those a signal must wait for)
	export TR_FAULT_UNDER="$TMP/d/"
	# under AddressSanitizer the preloaded library comes before its runtime
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	mpirun -n 2 -x LD_PRELOAD="$TOP/tests/helper/libfault.so" -x TR_FAULT_UNDER -x TR_FAULT_LOG="$TMP/log" \
		tr-analyze --mpi -q --force --stream "$TMP/d/s.tr" -o "$TMP/d/a" "$TMP/new/t.otf2" > /dev/null
	steps=$(awk '$2 == "rename" || !seen[$2]++ { print $1 }' "$TMP/log")
	[ "$(wc -w <<< "$steps")" -gt 8 ]
	for n in $steps; do
		fresh
		run --separate-stderr mpirun -n 2 -x LD_PRELOAD="$TOP/tests/helper/libfault.so" -x TR_FAULT_UNDER -x TR_FAULT="$n:term" \
			tr-analyze --mpi -q --force --stream "$TMP/d/s.tr" -o "$TMP/d/a" "$TMP/new/t.otf2"
		assert_failure
		run ls -A "$TMP/d"
		assert_output "a
a.def
a.otf2
s.tr
thesis.tex"
		cmp -s "$TMP/d/s.tr" "$TMP/old.tr" || cmp -s "$TMP/d/s.tr" "$TMP/n/s.tr" ||
			fail "step $n: the stream file is neither the old nor the new one"
		events_of "$TMP/d/a.otf2" > "$TMP/got.events"
		cmp -s "$TMP/got.events" "$TMP/old.events" || cmp -s "$TMP/got.events" "$TMP/new.events" ||
			fail "step $n: the archive in place is neither the old nor the new one"
	done
}

@test "rank 1 killed (SIGKILL) while rank 0 writes: nothing of the run left once the next run in the folder has begun" {
	gen-otf2 -i 16000 "$TMP/long/t" > /dev/null
	gen-otf2 -i 20 "$TMP/g/t" > /dev/null
	mkdir "$TMP/out"
	for wait in 0.2 0.6; do
		mpirun -n 2 sh -c 'echo $$ > "$0/pid.$OMPI_COMM_WORLD_RANK"; exec tr-analyze --mpi -q --stream "$0/out/s.tr" -o "$0/out/a" "$0/long/t.otf2"' \
			"$TMP" > /dev/null 2>&1 &
		for _ in $(seq 200); do [ -n "$(ls -A "$TMP/out")" ] && break; sleep 0.05; done
		sleep "$wait"
		kill -KILL "$(cat "$TMP/pid.1")"
		status=0
		wait $! || status=$?
		[ "$status" -ne 0 ] || fail "the run ended before rank 1 was killed ($wait s)"
		[ ! -e "$TMP/out/s.tr" ] && [ ! -e "$TMP/out/a.otf2" ] || fail "a killed run placed its outputs"
		mpirun -n 2 tr-analyze --mpi -q --stream "$TMP/out/after.tr" "$TMP/g/t.otf2" > /dev/null
		run ls -A "$TMP/out"
		assert_output "after.tr"
		rm "$TMP/out/after.tr"
	done
}

@test "MPI is loaded under --mpi only (lib/tr/libtr-fan.so); without that library, one line" {
	run bash -c "ldd '$TOP/bin/tr-analyze' | grep -c 'libmpi'"
	assert_output 0
	gen-otf2 -r 2 -i 5 "$TMP/g/t" > /dev/null
	# tr-analyze alone, out of its installation: --mpi says what is missing
	mkdir "$TMP/bin"
	cp "$TOP/bin/tr-analyze" "$TMP/bin/"
	run --separate-stderr "$TMP/bin/tr-analyze" --mpi "$TMP/g/t.otf2"
	assert_failure 1
	assert_equal "$stderr" "tr-analyze: $TMP/bin/../lib/tr/libtr-fan.so: No such file or directory (not installed whole)"
	# and without --mpi it needs none
	run "$TMP/bin/tr-analyze" -q -n 1 "$TMP/g/t.otf2"
	assert_success
}

@test "damaged archives under more ranks than processes (a shard reading nothing): the single process's warnings" {
	require_repros
	for a in "$REPROS/turn3/otf2-leaks/flipped-local-def/traces.otf2" "$REPROS/damaged-missing-local-def/traces.otf2"; do
		tr-analyze -q "$a" > "$TMP/one.txt" 2> "$TMP/one.err"
		for p in 2 3; do
			run --separate-stderr mpirun -n "$p" tr-analyze --mpi -q "$a"
			assert_success
			assert_equal "$(grep '^tr-analyze' <<< "$stderr")" "$(cat "$TMP/one.err")"
			assert_equal "$output" "$(cat "$TMP/one.txt")"
		done
	done
}
