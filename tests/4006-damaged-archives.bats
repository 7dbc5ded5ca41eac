#!/usr/bin/env bats
# Damaged OTF2 archives: the ones the fuzzing campaign found
# (../shared/repros), and copies of the corpus archives damaged at test
# time (tests/helper/damage-archive). tr-read either stops with one line
# (counted warnings besides) and exit 1, or writes a stream tr-cat --check
# accepts and the whole pipeline analyses; never a crash or a leak of ours.

load common

setup() {
	corpus_setup
	# libotf2 itself loses memory on some damaged records (its error paths
	# return before free): suppressed where libotf2's own code allocated it,
	# which malloc_context_size=2 makes the one frame looked at
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_context_size=2"
	export LSAN_OPTIONS="$LSAN_OPTIONS:suppressions=$TOP/tests/lsan-libotf2-reader.supp"
}

teardown() {
	corpus_teardown
}

# repro NAME: the repro's archive in $a (not in a subshell: skip must reach the test)
repro() {
	require_repros
	a="$REPROS/$1/traces.otf2"
}

@test "repro: an event file out of time order: one line naming the location, exit 1, the stream up to it" {
	repro damaged-evt-time-order
	run --separate-stderr bash -c "tr-read -M '$a' > '$TMP/out.tr'"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $a: location 0 (Master thread): an event at 139612768 ns after one at 562950000040092 ns: events out of time order (a damaged event file?)"
	# valid up to there, and without a trailer: the next tool sees the cut
	run --separate-stderr tr-cat --check "$TMP/out.tr"
	assert_failure 1
	assert_regex "$stderr" "^tr-cat: $TMP/out.tr: the stream ends at record 314 \(byte [0-9]+\) without its trailer: it was cut short \(did a tool before this one fail\?\)$"
}

@test "repro: a local definition file missing: its collectives and messages left out, counted" {
	repro damaged-missing-local-def
	run --separate-stderr bash -c "tr-read -M '$a' > '$TMP/out.tr'"
	assert_success
	assert_equal "$stderr" "tr-read: $a: 20 messages or roots naming a rank outside their communicator, left out
tr-read: $a: 12 collective operations on a communicator not written, left out"
	run tr-cat --check "$TMP/out.tr"
	assert_success
}

@test "repro: a mapping table of no known kind, and a missing event file: said, and no leak of ours (turn3 F14)" {
	repro turn3/otf2-leaks/flipped-local-def
	# libotf2 keeps the table's IdMap it does not apply: its leak, suppressed as libotf2's
	run --separate-stderr bash -c "LSAN_OPTIONS='$LSAN_OPTIONS:exitcode=23' tr-read -M '$a' > '$TMP/out.tr'"
	assert_success
	assert_equal "$stderr" "tr-read: $a: 1 id mapping tables of no kind OTF2 knows (a damaged NUMBER.def): not applied"
	run tr-cat --check "$TMP/out.tr"
	assert_success
	repro turn3/otf2-leaks/missing-evt
	run --separate-stderr bash -c "LSAN_OPTIONS='$LSAN_OPTIONS:exitcode=23' tr-read -M '$a' > '$TMP/out.tr'"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $a: ${a%.otf2}/0.evt: missing (the events of location 0, Master thread)"
}

@test "repro: a region name that is not UTF-8: repaired with U+FFFD, counted" {
	repro damaged-gdef-bad-utf8
	run --separate-stderr bash -c "tr-read -M '$a' > '$TMP/out.tr'"
	assert_success
	assert_equal "$stderr" "tr-read: $a: 1 strings that are not valid UTF-8 (names, the input's name): the bytes that break them written as U+FFFD"
	run tr-cat --check "$TMP/out.tr"
	assert_success
	run bash -c "tr-cat -J '$TMP/out.tr' | grep -c $'\xef\xbf\xbd'"
	assert_output 1
}

@test "repro: empty global definitions: one line, exit 1, nothing written, no leak" {
	repro damaged-empty-gdef
	run --separate-stderr tr-read -M "$a"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "tr-read: $a: ${a%.otf2}.def: empty (the archive's global definitions)"
}

# tr-read on one damaged copy: "ok" (a checked stream the pipeline takes),
# "refused" (one line besides counts, exit 1), or what went wrong.
verdict() {
	local a=$1 st
	tr-read -M "$a" > "$TMP/out.tr" 2> "$TMP/err"
	st=$?
	if grep -q 'Sanitizer\|runtime error' "$TMP/err"; then
		echo "sanitizer: $(grep -m1 'ERROR\|runtime error' "$TMP/err")"
	elif [ "$st" -eq 1 ]; then
		local lines
		lines=$(grep -vc ': [0-9]* .*\(left out\|without\|never\|of another\|not valid UTF-8\)' "$TMP/err")
		[ "$lines" -eq 1 ] && echo refused || echo "$lines error lines: $(head -c 300 "$TMP/err")"
	elif [ "$st" -ne 0 ]; then
		echo "exit $st: $(head -c 300 "$TMP/err")"
	elif ! tr-cat --check "$TMP/out.tr" 2> "$TMP/check"; then
		echo "exit 0 with a stream tr-cat --check refuses: $(cat "$TMP/check")"
	elif ! (set -o pipefail; tr-deps -M "$TMP/out.tr" | tr-waits -M | tr-critpath -M |
		tr-rank > /dev/null) 2> "$TMP/pipe"; then
		echo "the pipeline failed: $(grep -v 'clock skew' "$TMP/pipe" | head -c 300)"
	elif grep -q 'Sanitizer\|runtime error' "$TMP/pipe"; then
		echo "pipeline sanitizer: $(grep -m1 'ERROR\|runtime error' "$TMP/pipe")"
	else
		echo ok
	fi
}

@test "corpus archives damaged 8 ways at 3 places each: refused in one line or read into a valid stream" {
	local bad=0 ok=0 refused=0
	for name in casita-4_mpi_ls_barr casita-10_scorep_mpi_tags casita-2_cuda_simple \
		casita-1_sptc casita-1_ocl_deps casita-1_scorep-ompt-host-nested \
		casita-1_xeonphi_jacobi_01 pipit-ping-pong-otf2 pipit-ping-pong-otf2-papi \
		tracer-stencil4d-32 fastotf2-mi300-hip; do
		for kind in cut-evt cut-def empty-def no-local-def no-evt flip-evt flip-def bad-utf8; do
			for seed in 13 50 99; do
				rm -rf "$TMP/d"
				a=$(damage-archive "$(archive "$name")" "$TMP/d" "$kind" "$seed")
				v=$(verdict "$a")
				case $v in
				ok) ok=$((ok + 1)) ;;
				refused) refused=$((refused + 1)) ;;
				*) echo "$name $kind $seed: $v" >&2; bad=$((bad + 1)) ;;
				esac
			done
		done
	done
	echo "# $ok read, $refused refused" >&3
	[ "$bad" -eq 0 ]
	[ "$ok" -gt 50 ] && [ "$refused" -gt 50 ]
}
