#!/usr/bin/env bats
# tr-read of tr-record's logs, from one real 4-rank recording: the clock
# correction against skewed clocks, the logs' bad inputs, and tr-record's
# refusals (it never replaces or deletes anything).

load common

setup_file() {
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
	REC="$BATS_FILE_TMPDIR/run"
	mpirun -n 4 tr-record -o "$REC" -- mpi-patterns nonblocking 200
	export REC
}

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "${TMP:-/nonexistent}"
}

# late DIR: the late-sender ns tr-waits finds in the logs DIR
late() {
	tr-read "$1" | tr-deps | tr-waits | tr-critpath | tr-rank --json |
		jq -r 'select(.k == "wait_summary" and .pattern == "late_sender") | .ns'
}

# backwards DIR: the messages received before they were sent
backwards() {
	tr-read -J "$1" | jq -rs '
		(map(select(.k == "stream")) | map({key: (.id | tostring), value: .process}) | from_entries) as $p |
		[.[] | select(.k == "send") | {from: $p[.s | tostring], to: .peer, tag, t}] as $sends |
		[.[] | select(.k == "recv") | {from: .peer, to: $p[.s | tostring], tag, t}] as $recvs |
		[$recvs[] | . as $r | $sends[] | select(.from == $r.from and .to == $r.to and .tag == $r.tag and .t > $r.t)] |
		length'
}

@test "clocks off by an offset and a drift per rank: corrected to rank 0's, no message backwards, waits within 1 %" {
	mkdir "$TMP/skewed"
	cp "$REC/rank-0.trlog" "$TMP/skewed/"
	# the receiver rank 1 300 ms early and 50 ppm fast, rank 2 3 ms late and 30 ppm slow, rank 3 20 ms late
	trlog-skew -300000000 50 "$REC/rank-1.trlog" "$TMP/skewed/rank-1.trlog"
	trlog-skew 3000000 -30 "$REC/rank-2.trlog" "$TMP/skewed/rank-2.trlog"
	trlog-skew 20000000 0 "$REC/rank-3.trlog" "$TMP/skewed/rank-3.trlog"
	[ "$(backwards "$REC")" = 0 ]
	[ "$(backwards "$TMP/skewed")" = 0 ]
	want=$(late "$REC")
	got=$(late "$TMP/skewed")
	[ $((got > want ? got - want : want - got)) -le $((want / 100)) ] || fail "$got ns against $want ns unskewed"
	# the correction it made, said with --stats: the offset added, and the
	# drift added (50 ppm) as far as the run tells it: each offset is off by
	# up to the error bound said (half a round trip), so the drift by up to
	# twice that over the run between MPI_Init and MPI_Finalize (two
	# delays of 200 ms at least)
	run bash -c "tr-read --stats '$TMP/skewed' 2>&1 >/dev/null"
	line=$(grep "clocks corrected to rank 0's" <<< "$output")
	[[ "$line" =~ offsets\ up\ to\ 299[0-9]{6}\ ns,\ drift\ up\ to\ ([0-9.]+)\ ppm,\ error\ at\ most\ ([0-9]+)\ ns ]] ||
		fail "no clock correction said: $output"
	awk -v d="${BASH_REMATCH[1]}" -v e="${BASH_REMATCH[2]}" 'BEGIN { exit !(d - 50 <= 2 * e / 0.4e9 * 1e6 && 50 - d <= 2 * e / 0.4e9 * 1e6 + 10) }' ||
		fail "drift ${BASH_REMATCH[1]} ppm, not 50 within twice ${BASH_REMATCH[2]} ns over 0.4 s (and the ranks' own few ppm)"
}

@test "a log cut inside a record (a killed process): counted, and the rest read" {
	cp -r "$REC" "$TMP/cut"
	size=$(stat -c %s "$TMP/cut/rank-2.trlog")
	truncate -s $((size - 3)) "$TMP/cut/rank-2.trlog"
	run --separate-stderr bash -c "tr-read '$TMP/cut' | tr-cat --check"
	assert_success
	[ "$stderr" = "tr-read: $TMP/cut: 1 logs cut inside a record (a process killed, or a full disk): read up to there
tr-read: $TMP/cut: 1 logs without their end (a process that did not exit normally): its program's activity ends at its last record" ]
	tr-read "$TMP/cut" 2>/dev/null | tr-deps | tr-waits | tr-critpath > /dev/null
}

@test "a rank that dies (MPI_Abort, SIGSEGV, SIGINT, SIGTERM): every rank's log written out, the run read, the death said" {
	# rank 0 sends 100 ms late to rank 1, which then dies; mpirun ends ranks 0 and 2 (SIGTERM,
	# and SIGKILL soon after: on 2 cores a rank may not have run its handler by then unless
	# given the time, as a loaded node's user would give it)
	export OMPI_MCA_odls_base_sigkill_timeout=3
	for how in abort:MPI_Abort segv:SIGSEGV int:SIGINT term:SIGTERM; do
		run mpirun -n 3 tr-record -o "$TMP/$how" -- mpi-patterns "dies-${how%%:*}" 100
		assert_failure
		run --separate-stderr bash -c "tr-read '$TMP/$how' > '$TMP/$how.tr'"
		assert_success
		assert_equal "$stderr" "tr-read: $TMP/$how: 3 logs without their end (a process that did not exit normally): its program's activity ends at its last record
tr-read: $TMP/$how: 3 logs ended by a signal or MPI_Abort (rank-$([ "${how%%:*}" = term ] && echo 0 || echo 1).trlog by ${how#*:} and more): read up to it"
		tr-cat --check "$TMP/$how.tr"
		# what each rank did before: the late sender, in rank 1's log and rank 0's
		run bash -c "tr-deps < '$TMP/$how.tr' | tr-waits | tr-critpath | tr-rank --json | jq -r 'select(.k == \"wait_summary\" and .pattern == \"late_sender\" and .process == null) | .ns'"
		assert_success
		[ "$output" -ge 90000000 ] && [ "$output" -le 110000000 ] || fail "$how: late sender $output ns, not 100 ms within 10 %"
	done
	# MPI_Abort is a call of the rank that made it
	run bash -c "tr-cat -J '$TMP/abort:MPI_Abort.tr' | jq -rs '(map(select(.k == \"region\" and .name == \"MPI_Abort\")) | .[0].id) as \$r | [.[] | select(.k == \"enter\" and .r == \$r) | .s] | @csv'"
	assert_output "1"
	# killed outright: the log holds what MPI_Init wrote out (the run, the clocks), so the run reads whole
	run mpirun -n 3 tr-record -o "$TMP/kill" -- mpi-patterns dies-kill 100
	assert_failure
	run --separate-stderr bash -c "tr-read '$TMP/kill' | tr-cat --check"
	assert_success
	assert_regex "$stderr" "2 logs ended by a signal or MPI_Abort \(rank-0.trlog by SIGTERM and more\)"
}

@test "logs of ranks that died before their first write-out: read as their launcher's ranks, said in one line" {
	# two header-only logs of one job (tr-record before it wrote out at MPI_Init and on signals)
	run --separate-stderr bash -c "tr-read '$DATA/trlog/died-early' | tee '$TMP/early.tr' | tr-cat -J | jq -rc 'select(.k == \"process\") | [.id, .name]'"
	assert_success
	assert_output "$(printf '[0,"MPI Rank 0"]\n[1,"MPI Rank 1"]')"
	assert_equal "$stderr" "tr-read: $DATA/trlog/died-early: 2 logs without their end (a process that did not exit normally): its program's activity ends at its last record
tr-read: $DATA/trlog/died-early: 2 logs that end before MPI_Init's record (rank-0.trlog and more: a process that died or was killed before its first write-out, or a log damaged there): read as the launcher's rank, its MPI calls unknown"
	tr-cat --check "$TMP/early.tr"
	# beside a whole log of the same job: the run is that log's (rank 1 cut to its header,
	# which ends with the job's id, a short string)
	mkdir "$TMP/mixed"
	cp "$REC/rank-0.trlog" "$TMP/mixed/"
	perl -0777 -ne '/^(.*?\xa3job)([\xa0-\xbf])/s or die "no job\n"; print substr($_, 0, length($1) + 1 + (ord($2) & 31))' \
		"$REC/rank-1.trlog" > "$TMP/mixed/rank-1.trlog"
	run --separate-stderr bash -c "tr-read '$TMP/mixed' | tee '$TMP/mixed.tr' | tr-cat -J | jq -rc 'select(.k == \"stream\") | .process' | paste -sd' '"
	assert_success
	assert_output "0 1"
	assert_regex "$stderr" "1 logs that end before MPI_Init's record \(rank-1.trlog: a process"
	assert_regex "$stderr" "2 ranks of the run without a log"
	tr-cat --check "$TMP/mixed.tr"
	# another job's: two runs, said as before
	cp "$DATA/trlog/died-early/rank-1.trlog" "$TMP/mixed/rank-1.trlog"
	run --separate-stderr tr-read "$TMP/mixed"
	assert_failure 1
	assert_regex "$stderr" "rank-0.trlog and rank-1.trlog are logs of two runs"
}

@test "a folder, a named pipe named like a log: left out of a folder, never waited on; by name, one line" {
	mkdir "$TMP/odd"
	cp "$REC"/rank-*.trlog "$TMP/odd/"
	mkdir "$TMP/odd/rank-9.trlog"
	mkfifo "$TMP/odd/rank-8.trlog"
	run --separate-stderr timeout 20 bash -c "tr-read '$TMP/odd' | tr-cat --check"
	assert_success
	assert_regex "$stderr" "tr-read: $TMP/odd: 2 entries named like logs that are no files \(folders, pipes\), left out"
	run --separate-stderr timeout 20 tr-read "$TMP/odd/rank-8.trlog"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/odd/rank-8.trlog: a named pipe, not a file: give it as standard input (tr-read - < $TMP/odd/rank-8.trlog)"
	run --separate-stderr timeout 20 tr-read "$TMP/odd/rank-0.trlog" "$TMP/odd/rank-9.trlog"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/odd/rank-0.trlog: $TMP/odd/rank-9.trlog: holds no tr-record log (NAME.trlog)"
}

@test "damaged call records (arguments missing, a completion not a list or naming a request twice or of no kind known, a communicator defined twice, a peer of 2^40, a negative rank): counted as damage, read up to it (turn4)" {
	trlog-damaged.py "$TMP/d"
	for d in "$TMP"/d/*; do
		run --separate-stderr bash -c "tr-read '$d' > '$d.tr'"
		assert_success
		if [ "${d##*/}" = whole ]; then
			assert_equal "$stderr" ""
		else
			assert_equal "$stderr" "tr-read: $d: 1 logs damaged (not as docs/trlog.md says): read up to the damage
tr-read: $d: 1 logs without their end (a process that did not exit normally): its program's activity ends at its last record"
		fi
		tr-cat --check "$d.tr"
		# the exchange before the damage, once (a request named twice made three receives of it)
		[ "$(tr-cat -J "$d.tr" | jq -c 'select(.k == "recv")' | wc -l)" -eq 1 ] || fail "${d##*/}: not the one receive"
	done
}

@test "an empty folder, a folder of no logs: one line each" {
	mkdir "$TMP/empty"
	run --separate-stderr tr-read "$TMP/empty"
	assert_failure 1
	# (the folder named once: it said it twice)
	[ "$stderr" = "tr-read: $TMP/empty: holds no tr-record log (NAME.trlog)" ]
	: > "$TMP/empty/rank-0.trlog"
	run --separate-stderr tr-read "$TMP/empty"
	assert_failure 1
	[ "$stderr" = "tr-read: $TMP/empty: $TMP/empty/rank-0.trlog: not a tr-record log (no header)" ]
}

@test "a log of a newer format: one line naming it" {
	cp -r "$REC" "$TMP/newer"
	perl -0777 -pi -e 's/\xa5major\x01/\xa5major\x02/' "$TMP/newer/rank-3.trlog"
	run --separate-stderr tr-read "$TMP/newer"
	assert_failure 1
	[ "$stderr" = "tr-read: $TMP/newer: $TMP/newer/rank-3.trlog: a log of format 2.1, which this tr-read (of format 1.1) does not read: read it with a newer tr-read" ]
}

@test "logs of two runs in one folder: one line naming both; the logs of one run by name are read" {
	mkdir "$TMP/runs"
	mpirun -n 2 tr-record -o "$TMP/runs" -- mpi-patterns late-sender 1
	cp "$REC/rank-3.trlog" "$TMP/runs/other-rank-3.trlog"
	run --separate-stderr tr-read "$TMP/runs"
	assert_failure 1
	assert_regex "$stderr" "^tr-read: $TMP/runs: other-rank-3.trlog and rank-0.trlog are logs of two runs \(.*, .*\): give the logs of one run$"
	# a list of logs: the run's two
	run --separate-stderr bash -c "tr-read '$TMP/runs/rank-0.trlog' '$TMP/runs/rank-1.trlog' | tr-cat --check"
	assert_success
	# two of four ranks: counted; the other two are processes without
	# streams, so that MPI_COMM_WORLD's members name processes (a valid stream)
	run --separate-stderr bash -c "tr-read '$REC/rank-0.trlog' '$REC/rank-2.trlog' > '$TMP/half.tr'"
	assert_success
	[ "$stderr" = "tr-read: $REC/rank-0.trlog: 2 ranks of the run without a log (processes without streams: what they sent and received is unmatched)" ]
	run tr-cat --check "$TMP/half.tr"
	assert_success
	run bash -c "tr-cat -J '$TMP/half.tr' | jq -r 'select(.k == \"process\") | .id' | paste -sd' '"
	assert_output "0 1 2 3"
	run bash -c "tr-cat -J '$TMP/half.tr' | jq -r 'select(.k == \"stream\" and .type == \"host\") | .process' | sort -u | paste -sd' '"
	assert_output "0 2"
	# and one log on standard input reads as by its name
	run bash -c "tr-read - < '$REC/rank-2.trlog' 2> /dev/null | tr-cat -J | jq -c 'select(.k != \"header\")' | md5sum"
	assert_output "$(tr-read "$REC/rank-2.trlog" 2> /dev/null | tr-cat -J | jq -c 'select(.k != "header")' | md5sum)"
	# an OTF2 archive is read alone
	require_corpus
	run --separate-stderr tr-read "$REC/rank-0.trlog" "$(archive casita-10_scorep_mpi_tags)"
	assert_failure 1
	[ "$stderr" = "tr-read: $REC/rank-0.trlog: $(archive casita-10_scorep_mpi_tags): not one of the tr-record logs" ]
	run --separate-stderr tr-read "$(archive casita-10_scorep_mpi_tags)" "$REC/rank-0.trlog"
	assert_failure 1
	[ "$stderr" = "tr-read: $(archive casita-10_scorep_mpi_tags): tr-read reads one of the OTF2 archives at a time" ]
}

@test "tr-record refuses a folder holding anything but logs of the same run, and leaves it as it was" {
	mkdir "$TMP/mine"
	echo "my notes" > "$TMP/mine/notes.txt"
	run --separate-stderr tr-record -o "$TMP/mine" -- mpi-patterns late-sender 1
	assert_failure 1
	[ "$stderr" = "tr-record: $TMP/mine: holds notes.txt, which is not a tr-record log: give an empty or a new folder" ]
	[ "$(ls "$TMP/mine")" = notes.txt ] && [ "$(cat "$TMP/mine/notes.txt")" = "my notes" ]
	# the logs of an earlier run
	cp -r "$REC" "$TMP/earlier"
	sums=$(cd "$TMP/earlier" && md5sum *)
	run --separate-stderr mpirun -n 2 tr-record -o "$TMP/earlier" -- mpi-patterns late-sender 1
	assert_failure
	assert_regex "$stderr" "tr-record: $TMP/earlier: holds rank-[0-3].trlog, a log of another run: give an empty or a new folder"
	[ "$(cd "$TMP/earlier" && md5sum *)" = "$sums" ]
	# a file where the folder should be
	run --separate-stderr tr-record -o "$TMP/mine/notes.txt" -- true
	assert_failure 1
	[ "$stderr" = "tr-record: $TMP/mine/notes.txt: not a folder" ]
}

@test "tr-record: usage errors, and a program that cannot be run" {
	run --separate-stderr tr-record -- true
	assert_failure 2
	assert_regex "$stderr" "^usage: tr-record"
	run --separate-stderr tr-record -o "$TMP/x"
	assert_failure 2
	run -127 --separate-stderr tr-record -o "$TMP/x" -- "$TMP/no-such-program"
	[ "$stderr" = "tr-record: cannot run $TMP/no-such-program: No such file or directory" ]
	# the folder it made for the run is gone again; one that was there stays
	[ ! -e "$TMP/x" ]
	mkdir "$TMP/mine"
	run -127 --separate-stderr tr-record -o "$TMP/mine" -- "$TMP/no-such-program"
	[ -d "$TMP/mine" ]
	run tr-record --version
	assert_success
	assert_output --regexp '^tr-record [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "tr-record's environment for the program: the MPI and OpenMP collectors preloaded first, CUDA's injected where built" {
	LD_PRELOAD=/their/lib.so run --separate-stderr tr-record -o "$TMP/env" -- env
	assert_success
	assert_line "TR_RECORD_DIR=$TMP/env"
	if [ -e "$TOP/lib/tr/libtr-omp.so" ]; then
		assert_line "LD_PRELOAD=$TOP/bin/../lib/tr/libtr-mpi.so:$TOP/bin/../lib/tr/libtr-omp.so:/their/lib.so"
	else
		assert_line "LD_PRELOAD=$TOP/bin/../lib/tr/libtr-mpi.so:/their/lib.so"
	fi
	if [ -e "$TOP/lib/tr/libtr-cuda.so" ]; then
		assert_line "CUDA_INJECTION64_PATH=$TOP/bin/../lib/tr/libtr-cuda.so"
		assert_line "NVTX_INJECTION64_PATH=$TOP/bin/../lib/tr/libtr-cuda.so"
	fi
	# another tool's injection is left alone, and said
	if [ -e "$TOP/lib/tr/libtr-cuda.so" ]; then
		CUDA_INJECTION64_PATH=/their/lib.so run --separate-stderr tr-record -o "$TMP/env2" -- env
		assert_success
		assert_line "CUDA_INJECTION64_PATH=/their/lib.so"
		[ "$stderr" = "tr-record: CUDA_INJECTION64_PATH is set (/their/lib.so): CUDA is not recorded" ]
	fi
	# a program that calls neither MPI nor CUDA leaves no log
	[ -z "$(ls "$TMP/env")" ]
}

@test "tr-record where the MPI collector cannot load (no MPI library, as on a GPU machine without MPI): one line, and the program runs without it" {
	# an installation whose MPI collector needs a library that is gone
	mkdir -p "$TMP/inst/bin" "$TMP/inst/lib/tr" "$TMP/build"
	cp "$TOP/bin/tr-record" "$TMP/inst/bin/"
	echo 'int gone(void) { return 0; }' > "$TMP/build/gone.c"
	echo 'int gone(void); int uses(void) { return gone(); }' > "$TMP/build/mpi.c"
	cc -shared -fPIC -o "$TMP/build/libgone.so" "$TMP/build/gone.c"
	cc -shared -fPIC -o "$TMP/inst/lib/tr/libtr-mpi.so" "$TMP/build/mpi.c" -L"$TMP/build" -lgone
	rm "$TMP/build/libgone.so"
	run --separate-stderr "$TMP/inst/bin/tr-record" -o "$TMP/run" -- sh -c 'echo "ran: ${LD_PRELOAD:-nothing preloaded}"'
	assert_success
	assert_output "ran: nothing preloaded"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "$stderr"
	assert_regex "$stderr" "^tr-record: the MPI collector does not load here \(.*libgone\.so.*\): MPI is not recorded$"
}

@test "the collector's buffer write-outs show in the stream, in the time of the thread they took it from" {
	# 200000 calls a rank, 26 bytes each: 5 MB of log, four write-outs of 1 MiB a rank,
	# and one a second besides (up to one more a rank for the part second)
	# (messages of a few hundred ns, within the clock correction's error:
	# the odd one may come out received before it was sent, and be said so)
	mpirun -n 2 tr-record -o "$TMP/flush" -- record-calls 200000 > /dev/null
	run --separate-stderr bash -c "tr-read '$TMP/flush' | tr-deps | tr-waits | tr-critpath | tr-rank --json | jq -rs '[(.[] | select(.k == \"rating\" and .name == \"tr-record buffer flush\") | .calls), (.[] | select(.k == \"run_summary\") | .runtime)] | @tsv'"
	assert_success
	read -r calls ns <<< "$output"
	[ -n "$ns" ] || fail "no run time: $output"
	[ "$calls" -ge 8 ] && [ "$calls" -le $((8 + 2 * (ns / 1000000000 + 1))) ] ||
		fail "$calls write-outs in a run of $ns ns: not 4 a rank and one a second"
}

@test "a full disk while recording: each process says so once and runs on, and what was written is read" {
	# a file size limit of 2 MiB (SIGXFSZ ignored: writes fail with EFBIG, as on a full disk) for each rank
	run --separate-stderr mpirun -n 2 bash -c "trap '' XFSZ; ulimit -f 2048; exec tr-record -o '$TMP/full' -- record-calls 200000"
	assert_success
	[ "$(grep -c "^tr-record: writing $TMP/full/rank-[01].trlog: File too large; recording stops here$" <<< "$stderr")" = 2 ]
	run --separate-stderr bash -c "tr-read '$TMP/full' | tr-cat --check"
	assert_success
	# a write cut at the limit ends inside a record, but for one in ~26 that ends right there
	assert_regex "$stderr" "tr-read: $TMP/full: 2 logs without their end \(a process that did not exit normally\)"
	[ -z "$(grep -v -e 'logs cut inside a record' -e 'logs without their end' <<< "$stderr")" ]
}

@test "tr-read of logs on a terminal: a progress line with the share of the logs read; none with -q" {
	mpirun -n 2 tr-record -o "$TMP/big" -- record-calls 400000 > /dev/null
	script -qec "tr-read '$TMP/big' > /dev/null" "$TMP/tty.log" > /dev/null
	assert_progress_line tr-read events "$TMP/tty.log"
	script -qec "tr-read -q '$TMP/big' > /dev/null" "$TMP/quiet.log" > /dev/null
	assert_no_progress_line events "$TMP/quiet.log"
}
