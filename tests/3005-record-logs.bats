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

@test "an empty folder, a folder of no logs: one line each" {
	mkdir "$TMP/empty"
	run --separate-stderr tr-read "$TMP/empty"
	assert_failure 1
	[ "$stderr" = "tr-read: $TMP/empty: $TMP/empty: holds no tr-record log (NAME.trlog)" ]
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
	[ "$stderr" = "tr-read: $TMP/newer: $TMP/newer/rank-3.trlog: a log of format 2.0, which this tr-read (of format 1.0) does not read: read it with a newer tr-read" ]
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
	# 200000 calls a rank, 26 bytes each: 5 MB of log, four write-outs of 1 MiB a rank
	# (messages of a few hundred ns, within the clock correction's error:
	# the odd one may come out received before it was sent, and be said so)
	mpirun -n 2 tr-record -o "$TMP/flush" -- record-calls 200000 > /dev/null
	run --separate-stderr bash -c "tr-read '$TMP/flush' | tr-deps | tr-waits | tr-critpath | tr-rank --json | jq -r 'select(.k == \"rating\" and .name == \"tr-record buffer flush\") | .calls'"
	assert_success
	assert_output 8
}

@test "a full disk while recording: each process says so once and runs on, and what was written is read" {
	# a file size limit of 2 MiB (SIGXFSZ ignored: writes fail with EFBIG, as on a full disk) for each rank
	run --separate-stderr mpirun -n 2 bash -c "trap '' XFSZ; ulimit -f 2048; exec tr-record -o '$TMP/full' -- record-calls 200000"
	assert_success
	[ "$(grep -c '^tr-record: writing the log: File too large; recording stops here$' <<< "$stderr")" = 2 ]
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
