#!/usr/bin/env bats
# tr-analyze on generated archives: the filters' stream byte for byte and
# tr-rank's rating (tr-project's what-if among them), options passed on
# as the filters take them, a progress line on a terminal only, the
# --stream file never half written nor a user's file replaced, clear
# errors.

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# The filters' stream of archive $1 (tr-read's options $2..., tr-clock's in
# $CLOCK, tr-critpath's in $CRIT; with NO_CLOCK set, without tr-clock) into
# $TMP/p.tr.
filters() {
	local archive=$1
	shift
	tr-read "$@" "$archive" 2>/dev/null | tr-deps 2>/dev/null |
		if [ -n "${NO_CLOCK:-}" ]; then cat; else tr-clock ${CLOCK:-} 2>/dev/null; fi |
		tr-waits 2>/dev/null | tr-critpath ${CRIT:-} > "$TMP/p.tr" 2>/dev/null
}

@test "generated archives (MPI + OpenMP + CUDA, GPU-heavy, 16 ranks): the filters' stream and tr-rank's rating" {
	gen-otf2 -i 300 "$TMP/jacobi/t" > /dev/null
	gen-otf2 -g 4 -t 1 -i 200 "$TMP/offload/t" > /dev/null
	gen-otf2 -r 16 -t 2 -i 20 "$TMP/ranks/t" > /dev/null
	for a in jacobi offload ranks; do
		filters "$TMP/$a/t.otf2"
		# on the reader's thread alone, on two, with a thread per stage
		for n in 1 2 3; do
			rm -f "$TMP/a.tr"
			tr-analyze --threads $n --stream "$TMP/a.tr" "$TMP/$a/t.otf2" > "$TMP/a.txt" 2> "$TMP/a.err" ||
				fail "$a: $(cat "$TMP/a.err")"
			cmp "$TMP/p.tr" "$TMP/a.tr" || fail "$a, $n threads: the streams differ"
		done
		tr-rank "$TMP/p.tr" | sed 1d > "$TMP/p.txt"
		sed 1d "$TMP/a.txt" | diff "$TMP/p.txt" - || fail "$a: the ratings differ"
		head -1 "$TMP/a.txt" | grep -q "^$TMP/$a/t.otf2: run [0-9.]* s, critical path" ||
			fail "$a: the table's first line: $(head -1 "$TMP/a.txt")"
	done
}

@test "-o: the annotated archive tr-otf2 writes from the filters' stream; refused where one is, replaced with -f" {
	gen-otf2 -g 2 -t 2 -i 100 "$TMP/g/t" > /dev/null
	filters "$TMP/g/t.otf2"
	tr-otf2 -o "$TMP/f/t" "$TMP/p.tr"
	# the taker on a thread of its own from two threads on
	for n in 1 2 3; do
		tr-analyze -q -f --threads $n -o "$TMP/a/t" "$TMP/g/t.otf2" > "$TMP/a.txt"
		for flags in "" -G; do
			cmp <(otf2-print $flags "$TMP/f/t.otf2") <(otf2-print $flags "$TMP/a/t.otf2") ||
				fail "$n threads: otf2-print $flags differs"
		done
	done
	run ls -A "$TMP/a"
	assert_output "$(printf 't\nt.def\nt.otf2')"
	run --separate-stderr tr-analyze -q -o "$TMP/a/t" "$TMP/g/t.otf2"
	assert_failure 1
	assert_equal "$stderr" "tr-analyze: $TMP/a/t.otf2 exists; give --force to replace the archive"
	# with the stream kept too, and over the old archive
	rm -f "$TMP/s.tr"
	tr-analyze -q -f -o "$TMP/a/t" --stream "$TMP/s.tr" "$TMP/g/t.otf2" > /dev/null
	cmp "$TMP/p.tr" "$TMP/s.tr"
	cmp <(otf2-print "$TMP/f/t.otf2") <(otf2-print "$TMP/a/t.otf2")
	run ls -A "$TMP/a"
	assert_output "$(printf 't\nt.def\nt.otf2')"
}

@test "-j, -p, -s, -t, --window, --latency, --end: the stream lists them where the filters would, and is theirs" {
	gen-otf2 -i 100 "$TMP/g/t" > /dev/null
	CLOCK="--window 0.02 --latency msg=40" CRIT="-j 2 --end last" filters "$TMP/g/t.otf2" -p 1-2 -t 0:20ms
	tr-analyze -q --window 0.02 -j 2 -p 1-2 --latency msg=40 --end last -t 0:20ms --stream "$TMP/a.tr" \
		"$TMP/g/t.otf2" > /dev/null
	cmp "$TMP/p.tr" "$TMP/a.tr"
	run bash -c "tr-cat -J '$TMP/a.tr' | head -1 | jq -c '[.stages[] | [.tool, (.args | length)]]'"
	assert_output '[["tr-read",5],["tr-deps",0],["tr-clock",4],["tr-waits",0],["tr-critpath",4]]'
	filters "$TMP/g/t.otf2" -s 0,4
	tr-analyze -q -s 0,4 --stream "$TMP/b.tr" "$TMP/g/t.otf2" > /dev/null
	cmp "$TMP/p.tr" "$TMP/b.tr"
	# --no-clock: the chain without tr-clock, as before it ran one
	NO_CLOCK=1 filters "$TMP/g/t.otf2"
	tr-analyze -q --no-clock --stream "$TMP/c.tr" "$TMP/g/t.otf2" > /dev/null
	cmp "$TMP/p.tr" "$TMP/c.tr"
	run --separate-stderr tr-analyze --no-clock --latency msg=40 "$TMP/g/t.otf2"
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: --latency is tr-clock's: not with --no-clock"
	run --separate-stderr tr-analyze --no-clock --window 0.02 "$TMP/g/t.otf2"
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: --window is tr-clock's and tr-project's: with --no-clock, only with --scale, --set or --min"
	run --separate-stderr tr-analyze --end soon "$TMP/g/t.otf2"
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: --end soon: give last, region=NAME, stream=NAME or seconds after the first event"
}

@test "--scale, --set, --min: tr-project after tr-clock, the stream the filters' with it, on 1 to 3 threads" {
	gen-otf2 -g 2 -t 2 -i 100 "$TMP/g/t" > /dev/null
	printf '# floors\n2000 MPI_Allreduce\n' > "$TMP/min"
	tr-read "$TMP/g/t.otf2" | tr-deps | tr-clock 2>/dev/null |
		tr-project --scale 'jacobi_*=0.5' --set update_halo=2us --min "$TMP/min" 2>/dev/null |
		tr-waits | tr-critpath > "$TMP/p.tr" 2>/dev/null
	for n in 1 2 3; do
		rm -f "$TMP/a.tr"
		tr-analyze -q --threads $n --scale 'jacobi_*=0.5' --set update_halo=2us --min "$TMP/min" \
			--stream "$TMP/a.tr" "$TMP/g/t.otf2" > "$TMP/a.txt" 2> "$TMP/a.err" || fail "$(cat "$TMP/a.err")"
		cmp "$TMP/p.tr" "$TMP/a.tr" || fail "$n threads: the streams differ"
	done
	# the table after the what-if's line is tr-rank's of the filters' stream
	tr-rank "$TMP/p.tr" | sed 1d | diff - <(sed 1,2d "$TMP/a.txt")
	run bash -c "tr-cat -J '$TMP/a.tr' | head -1 | jq -c '[.stages[] | [.tool, .args]][1:]'"
	assert_output '[["tr-deps",[]],["tr-clock",[]],["tr-project",["--scale","jacobi_*=0.5","--set","update_halo=2us","--min","'"$TMP/min"'"]],["tr-waits",[]],["tr-critpath",[]]]'
	# the what-if shortens the run: its line says from what to what, the
	# run before as tr-analyze gives it without the what-if, the run after
	# as the projected table's first line (issue 59)
	run bash -c "tr-analyze -q '$TMP/g/t.otf2' | head -1 | sed 's/.*run \([0-9.]*\) s.*/\1/'"
	before=$output
	run bash -c "sed -n '2s/.*run \([0-9.]*\) s.*/\1/p' '$TMP/a.txt'"
	after=$output
	awk -v a="$after" -v b="$before" 'BEGIN { exit !(a < b) }' || fail "run $after s, not less than $before s"
	pct=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%+.2f", 100 * (a - b) / b }')
	run head -1 "$TMP/a.txt"
	assert_output "what-if --scale jacobi_*=0.5 --set update_halo=2us --min $TMP/min: run $before s -> $after s ($pct %); the rating below is the projected run's"
	# without tr-clock: tr-project right after tr-deps
	tr-read "$TMP/g/t.otf2" | tr-deps | tr-project --scale 'jacobi_*=0.5' 2>/dev/null | tr-waits |
		tr-critpath > "$TMP/p.tr" 2>/dev/null
	tr-analyze -q --no-clock --scale 'jacobi_*=0.5' --stream "$TMP/c.tr" "$TMP/g/t.otf2" > /dev/null
	cmp "$TMP/p.tr" "$TMP/c.tr"
	# --window: tr-clock's and tr-project's both, where each runs, as the filters take it
	tr-read "$TMP/g/t.otf2" | tr-deps | tr-clock --window 0.000001 2>/dev/null |
		tr-project --window 0.000001 --scale 'jacobi_*=0.5' 2> "$TMP/w.err" | tr-waits | tr-critpath > "$TMP/w.tr" 2>/dev/null
	tr-analyze -q --window 0.000001 --scale 'jacobi_*=0.5' --stream "$TMP/aw.tr" "$TMP/g/t.otf2" > /dev/null 2> "$TMP/aw.err"
	cmp "$TMP/w.tr" "$TMP/aw.tr"
	# at 1 us tr-project leaves edges unfollowed, in one process as in the pipeline
	late=$(sed -n 's/^tr-project: <stdin>: \([0-9]* edges into events already settled\).*/\1/p' "$TMP/w.err")
	[ -n "$late" ]
	grep -q "^tr-analyze: $TMP/g/t.otf2: $late " "$TMP/aw.err" || fail "$(cat "$TMP/aw.err")"
	tr-read "$TMP/g/t.otf2" | tr-deps | tr-project --scale 'jacobi_*=0.5' --window 0.000001 2>/dev/null | tr-waits |
		tr-critpath > "$TMP/w.tr" 2>/dev/null
	tr-analyze -q --no-clock --scale 'jacobi_*=0.5' --window 0.000001 --stream "$TMP/cw.tr" "$TMP/g/t.otf2" > /dev/null
	cmp "$TMP/w.tr" "$TMP/cw.tr"
	# and the annotated archive is tr-otf2's of that stream
	tr-otf2 -o "$TMP/f/t" "$TMP/p.tr" 2> /dev/null
	tr-analyze -q --no-clock --scale 'jacobi_*=0.5' -o "$TMP/a/t" "$TMP/g/t.otf2" > /dev/null
	cmp <(otf2-print "$TMP/f/t.otf2") <(otf2-print "$TMP/a/t.otf2")
	run --separate-stderr tr-analyze --scale 'jacobi_*=fast' "$TMP/g/t.otf2"
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: --scale jacobi_*=fast: give the factor as a number from 0 to 1000"
	run --separate-stderr tr-analyze --min "$TMP/none" "$TMP/g/t.otf2"
	assert_failure 1
	assert_equal "$stderr" "tr-analyze: --min $TMP/none: No such file or directory"
	# nowhere to keep the stream tr-project reads: one line, no output left
	rm -f "$TMP/a.tr"
	TMPDIR="$TMP/none" run --separate-stderr tr-analyze -q --scale main=2 --stream "$TMP/a.tr" "$TMP/g/t.otf2"
	assert_failure 1
	assert_equal "$stderr" "tr-analyze: cannot make a temporary file in TMPDIR=$TMP/none to keep the stream for tr-project: No such file or directory"
	[ ! -e "$TMP/a.tr" ]
	[ -z "$(ls -A "$TMP" | grep '^\.')" ]
	# the file system full while it is kept (the size limit: EFBIG): one line, nothing left there or beside the output
	mkdir "$TMP/tmp"
	gen-otf2 -i 4000 "$TMP/big/t" > /dev/null
	TMPDIR="$TMP/tmp" run --separate-stderr bash -c "ulimit -f 200; tr-analyze -q --scale main=2 --stream '$TMP/a.tr' '$TMP/big/t.otf2'"
	assert_failure 1
	assert_equal "$stderr" "tr-analyze: cannot keep the stream for tr-project in a temporary file in TMPDIR=$TMP/tmp: File too large"
	[ ! -e "$TMP/a.tr" ]
	assert_equal "$(ls -A "$TMP/tmp")" ""
	[ -z "$(ls -A "$TMP" | grep '^\.')" ]
}

@test "an --end that matches nothing: exit 1, the stage and its words, as tr-critpath says it" {
	gen-otf2 -i 20 "$TMP/g/t" > /dev/null
	run --separate-stderr tr-analyze -q --end region=nosuch --stream "$TMP/a.tr" "$TMP/g/t.otf2"
	assert_failure 1
	assert_equal "$stderr" "tr-analyze: $TMP/g/t.otf2: tr-critpath: --end region=nosuch: no region of that name (or id) was left"
	[ ! -e "$TMP/a.tr" ]
	run --separate-stderr tr-analyze -q --scale main=2 --end stream=nosuch "$TMP/g/t.otf2"
	assert_failure 1
	assert_equal "$stderr" "tr-analyze: $TMP/g/t.otf2: tr-critpath: --end stream=nosuch: no stream of that name (or id) has an event"
}

@test "the oddities of the trace and of each stage are said, on stderr, once" {
	gen-otf2 -i 50 "$TMP/g/t" > /dev/null
	run --separate-stderr tr-analyze -q -t 1ms:5ms "$TMP/g/t.otf2"
	assert_success
	# a window cuts activities: the reader says so, and the stages what that left unmatched
	[[ $stderr == *"tr-analyze: $TMP/g/t.otf2: "*" leaves without a matching enter"* ]] || fail "$stderr"
	[[ $stderr == *"tr-analyze: $TMP/g/t.otf2: "*" enters and leaves that do not pair"* ]] || fail "$stderr"
	[ "$(echo "$stderr" | grep -c 'leaves without a matching enter')" -eq 1 ]
}

@test "on a terminal a progress line (events, rate, share of the archive), erased at the end; none with -q or to a file" {
	gen-otf2 -i 16000 "$TMP/big/t" > /dev/null
	script -qec "tr-analyze '$TMP/big/t.otf2' > /dev/null" "$TMP/tty.log" > /dev/null
	assert_progress_line tr-analyze events "$TMP/tty.log"
	grep -q $'\r\e\[K' "$TMP/tty.log" || fail "the line is not erased"
	script -qec "tr-analyze -q '$TMP/big/t.otf2' > /dev/null" "$TMP/quiet.log" > /dev/null
	assert_no_progress_line events "$TMP/quiet.log"
	run --separate-stderr tr-analyze "$TMP/big/t.otf2"
	assert_success
	assert_equal "$stderr" ""
}

@test "--stream: an existing file is kept without --force; --force replaces a stream, never another file" {
	gen-otf2 -i 20 "$TMP/g/t" > /dev/null
	echo "my thesis" > "$TMP/thesis.tex"
	run --separate-stderr tr-analyze -q --stream "$TMP/thesis.tex" "$TMP/g/t.otf2"
	assert_failure 1
	assert_equal "$stderr" "tr-analyze: $TMP/thesis.tex is there already: give --force to replace it"
	run --separate-stderr tr-analyze -q --force --stream "$TMP/thesis.tex" "$TMP/g/t.otf2"
	assert_failure 1
	assert_equal "$stderr" "tr-analyze: $TMP/thesis.tex is not a record stream; not replacing it"
	run cat "$TMP/thesis.tex"
	assert_output "my thesis"
	tr-analyze -q --stream "$TMP/s.tr" "$TMP/g/t.otf2" > /dev/null
	gen-otf2 -i 30 "$TMP/h/t" > /dev/null
	tr-analyze -q --force --stream "$TMP/s.tr" "$TMP/h/t.otf2" > /dev/null
	filters "$TMP/h/t.otf2"
	cmp "$TMP/p.tr" "$TMP/s.tr"
	run ls -A "$TMP"
	assert_output "$(printf 'g\nh\np.tr\ns.tr\nthesis.tex')"
}

@test "outputs that would meet (each other, an input, standard output): refused in one line before anything is written" {
	gen-otf2 -i 20 "$TMP/g/t" > /dev/null
	mkdir "$TMP/w"
	cd "$TMP/w"
	# refused is exit 2, one line, nothing written: --force changes none of it
	refused() {
		local want=$1
		shift
		for f in "" --force; do
			run --separate-stderr tr-analyze -q $f "$@"
			assert_failure 2
			assert_equal "$stderr" "tr-analyze: $want"
			assert_equal "$(ls -A "$TMP/w")" ""
		done
	}
	refused "--stream r.def and -o r would both write r.def: give them paths apart" \
		--stream r.def -o r "$TMP/g/t.otf2"
	refused "--stream q.otf2 and -o ./q would both write q.otf2: give them paths apart" \
		--stream q.otf2 -o ./q "$TMP/g/t.otf2"
	refused "--stream x.otf2 and -o sub/../x.otf2 would both write x.otf2: give them paths apart" \
		--stream x.otf2 -o sub/../x.otf2 "$TMP/g/t.otf2"
	refused "--stream a/s.tr would write a/s.tr inside a, which -o a writes: give them paths apart" \
		--stream a/s.tr -o a "$TMP/g/t.otf2"
	refused "-o s/a would write s/a.otf2 inside s, which --stream s writes: give them paths apart" \
		--stream s -o s/a "$TMP/g/t.otf2"
	# the same through a link to the folder
	ln -s "$TMP/w" "$TMP/link"
	refused "--stream $TMP/link/r.def and -o r would both write $TMP/link/r.def: give them paths apart" \
		--stream "$TMP/link/r.def" -o r "$TMP/g/t.otf2"
	rm "$TMP/link"
	# an input: the archive's anchor, its definitions, into its folder
	refused "--stream $TMP/g/t.otf2 would replace $TMP/g/t.otf2, an input: write it elsewhere" \
		--stream "$TMP/g/t.otf2" "$TMP/g/t.otf2"
	refused "-o $TMP/g/t would replace $TMP/g/t.otf2, an input: write it elsewhere" \
		-o "$TMP/g/t" "$TMP/g/t.otf2"
	refused "-o $TMP/g/t/x would write $TMP/g/t/x.otf2 inside $TMP/g/t, an input: write it elsewhere" \
		-o "$TMP/g/t/x" "$TMP/g/t.otf2"
	refused "--stream ../g/t.def would replace ../g/t.def, an input: write it elsewhere" \
		--stream ../g/t.def "$TMP/g/t.otf2"
	# standard output, where the rating goes
	run --separate-stderr bash -c "tr-analyze -q --stream /dev/stdout '$TMP/g/t.otf2' > '$TMP/out.txt'"
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: --stream /dev/stdout: /dev/stdout is standard output, which takes the rating: give a file of its own"
	run --separate-stderr tr-analyze -q --stream - "$TMP/g/t.otf2"
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: --stream -: standard output takes the rating; give a file (./- for one named -), or run the filters to pipe the stream"
	# tr-otf2 keeps its archive off its input the same way
	tr-analyze -q --stream "$TMP/s.tr" "$TMP/g/t.otf2" > /dev/null
	run --separate-stderr tr-otf2 -f -o "$TMP/s.tr/a" "$TMP/s.tr"
	assert_failure 2
	assert_equal "$stderr" "tr-otf2: -o $TMP/s.tr/a would write $TMP/s.tr/a.otf2 inside $TMP/s.tr, an input: write it elsewhere"
	assert_equal "$(ls -A "$TMP/w")" ""
	# a device or a named pipe is written as it is, nothing staged beside it
	tr-analyze -q --stream /dev/null "$TMP/g/t.otf2" > /dev/null
	mkfifo "$TMP/fifo"
	tr-cat --check "$TMP/fifo" > "$TMP/checked" 2>&1 &
	tr-analyze -q --stream "$TMP/fifo" "$TMP/g/t.otf2" > /dev/null
	wait $!
	[ ! -s "$TMP/checked" ] || fail "the stream through the pipe: $(cat "$TMP/checked")"
	filters "$TMP/g/t.otf2"
	cmp "$TMP/p.tr" "$TMP/s.tr"
	run ls -A "$TMP"
	assert_output "$(printf 'checked\nfifo\ng\nout.txt\np.tr\ns.tr\nw')"
}

@test "--stream: a failure, a full file system or a signal leaves no file and no staging folder" {
	gen-otf2 -i 4000 "$TMP/g/t" > /dev/null
	mkdir "$TMP/out"
	# a trace that is none
	echo "not a trace" > "$TMP/bad.otf2"
	run --separate-stderr tr-analyze -q --stream "$TMP/out/s.tr" "$TMP/bad.otf2"
	assert_failure 1
	# the file system full: the size limit stops the writes (EFBIG)
	run --separate-stderr bash -c "ulimit -f 200; tr-analyze -q --stream '$TMP/out/s.tr' '$TMP/g/t.otf2'"
	assert_failure 1
	[[ $stderr == "tr-analyze: $TMP/out/s.tr: File too large" ]] || fail "$stderr"
	# memory past TR_MAX_MEM stops a stage, with what it holds
	run --separate-stderr env TR_MAX_MEM=1K tr-analyze -q --stream "$TMP/out/s.tr" "$TMP/g/t.otf2"
	assert_failure 1
	[[ $stderr == "tr-analyze: $TMP/g/t.otf2: tr-"*": record "*"more than TR_MAX_MEM"* ]] || fail "$stderr"
	# a signal on the way, writing the stream and an archive into folders
	# it made: those go too (killed once it has begun writing, on a trace
	# long enough that it cannot have finished: its exit says which)
	gen-otf2 -i 16000 "$TMP/long/t" > /dev/null
	tr-analyze -q --stream "$TMP/out/s.tr" -o "$TMP/out/new/deeper/a" "$TMP/long/t.otf2" > /dev/null &
	for _ in $(seq 200); do [ -n "$(ls -A "$TMP/out")" ] && break; sleep 0.05; done
	kill -TERM $!
	status=0
	wait $! || status=$?
	[ "$status" -eq 143 ] || fail "tr-analyze ended with $status before the signal"
	run ls -A "$TMP/out"
	assert_output ""
	# and a what-if, whose stages before tr-project keep their stream in a
	# temporary file: killed there or after, nothing left in either place
	mkdir "$TMP/tmp"
	for wait in 0.3 1.2; do
		TMPDIR="$TMP/tmp" tr-analyze -q --scale 'jacobi_*=0.5' --stream "$TMP/out/s.tr" -o "$TMP/out/a" \
			"$TMP/long/t.otf2" > /dev/null &
		sleep "$wait"
		kill -TERM $!
		status=0
		wait $! || status=$?
		[ "$status" -eq 143 ] || fail "tr-analyze --scale ended with $status before the signal ($wait s)"
		run ls -A "$TMP/out" "$TMP/tmp"
		assert_output "$(printf '%s:\n\n%s:' "$TMP/out" "$TMP/tmp")"
	done
}

@test "what a killed run left (SIGKILL) is taken back by the next run in its folder, but a live run's and an old archive's only copy" {
	gen-otf2 -i 16000 "$TMP/long/t" > /dev/null
	gen-otf2 -i 20 "$TMP/g/t" > /dev/null
	mkdir "$TMP/out"
	# killed outright, once it has begun writing both
	tr-analyze -q --stream "$TMP/out/s.tr" -o "$TMP/out/a" "$TMP/long/t.otf2" > /dev/null &
	for _ in $(seq 200); do [ "$(ls -A "$TMP/out" | wc -l)" -ge 2 ] && break; sleep 0.05; done
	kill -KILL $!
	wait $! || true
	[ "$(ls -A "$TMP/out" | grep -c '^\.')" -eq 2 ] || fail "not the two staging folders: $(ls -A "$TMP/out")"
	# the backup of an old archive whose anchor is gone (a run killed while it moved the parts) stays
	mkdir -p "$TMP/out/.b.tr-analyze-Xy12Z9/old"
	echo "the only copy" > "$TMP/out/.b.tr-analyze-Xy12Z9/old/b.otf2"
	# one whose old archive is still in place (the same file) goes
	mkdir -p "$TMP/out/.c.tr-analyze-Ab34Cd/old"
	echo "the old archive" > "$TMP/out/c.otf2"
	ln "$TMP/out/c.otf2" "$TMP/out/.c.tr-analyze-Ab34Cd/old/c.otf2"
	# a user's folder named alike, and another tool's, are not taken
	mkdir "$TMP/out/.notes.tr-analyze-mine" "$TMP/out/.x.tr-otf2-Qw12Er"
	# a live run's: kept while it writes, its output placed whole
	tr-analyze -q --stream "$TMP/out/live.tr" "$TMP/long/t.otf2" > /dev/null &
	live=$!
	for _ in $(seq 200); do ls -A "$TMP/out" | grep -q '^\.live' && break; sleep 0.05; done
	tr-analyze -q --stream "$TMP/out/s2.tr" "$TMP/g/t.otf2" > /dev/null
	wait "$live"
	tr-cat --check "$TMP/out/live.tr"
	run ls -A "$TMP/out"
	assert_output "$(printf '.b.tr-analyze-Xy12Z9\n.notes.tr-analyze-mine\n.x.tr-otf2-Qw12Er\nc.otf2\nlive.tr\ns2.tr')"
	[ "$(cat "$TMP/out/.b.tr-analyze-Xy12Z9/old/b.otf2")" = "the only copy" ]
}

@test "bad usage is exit 2 with a message; a trace that cannot be read, exit 1 and one line" {
	run --separate-stderr tr-analyze
	assert_failure 2
	run --separate-stderr tr-analyze -j 0 x
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: -j 0: give a number of threads from 1 to 64"
	run --separate-stderr tr-analyze -n -1 x
	assert_failure 2
	run --separate-stderr tr-analyze --csv --json x
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: --csv and --json exclude each other"
	run --separate-stderr tr-analyze --force x
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: --force replaces the --stream file or the -o archive: give one"
	run --separate-stderr tr-analyze -p 7x x
	assert_failure 2
	run --separate-stderr tr-analyze --threads 65 x
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: --threads 65: give a number of threads from 1 to 64"
	run --separate-stderr tr-analyze "$TMP/none.otf2"
	assert_failure 1
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == "tr-analyze: $TMP/none.otf2: "* ]] || fail "$stderr"
	run tr-analyze --version
	assert_success
	assert_output "tr-analyze $(tr-read --version | cut -d' ' -f2)"
}

@test "-v: the first rows in words after the table, as tr-rank -v tells them of the same stream" {
	gen-otf2 -r 2 -g 1 -i 20 "$TMP/g/t" > /dev/null
	tr-analyze -q -v --stream "$TMP/a.tr" "$TMP/g/t.otf2" > "$TMP/a.txt"
	run diff <(sed -n '/^In words:/,$p' "$TMP/a.txt") <(tr-rank -v "$TMP/a.tr" | sed -n '/^In words:/,$p')
	assert_success
	grep -q '^ 1\. jacobi_kernel: ' "$TMP/a.txt"
	# the table before them as without -v
	tr-analyze -q "$TMP/g/t.otf2" > "$TMP/b.txt"
	cmp "$TMP/b.txt" <(sed '/^In words:/,$d' "$TMP/a.txt" | sed '$d')
	run --separate-stderr tr-analyze -v --json "$TMP/g/t.otf2"
	assert_failure 2
	assert_equal "$stderr" "tr-analyze: -v tells the rating in words beside its text table: not with --csv or --json"
}
