#!/usr/bin/env bats
# The shape of the reliability campaign (issue 36): damaged copies of real
# inputs (Kineto traces and Nsight exports of the corpus, analysed streams
# of a corpus trace) into every tool that reads them. Each run ends with
# exit 0 and output the next tool takes (tr-cat --check; well-formed SVG
# and Chrome JSON; an archive otf2-print reads), or exit 1 with its lines
# on standard error each naming the tool; never a crash, a sanitizer's
# report or a hang. tests/helper/mutants.py makes the mutants, seeded
# (TR_MUTANT_SEED, 1 unless given; TR_MUTANTS per input, 24 unless given),
# and says what each holds.

load common

SEED=${TR_MUTANT_SEED:-1}
COUNT=${TR_MUTANTS:-24}

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# judge TOOL STATUS ERRFILE WHAT: the run of TOOL on the mutant WHAT
# ended as it may (its output is checked by the caller where STATUS is 0)
judge() {
	local tool=$1 status=$2 err=$3 what=$4
	[ "$status" -le 1 ] || fail "$what: $tool exit $status: $(head -3 "$err")"
	! grep -q 'Sanitizer\|runtime error' "$err" || fail "$what: $tool: $(grep -m1 'Sanitizer\|runtime error' "$err")"
	if grep -qv "^$tool: " "$err"; then
		fail "$what: $tool wrote a line that does not name it: $(grep -m1 -v "^$tool: " "$err")"
	fi
	[ "$status" -eq 0 ] || [ -s "$err" ] || fail "$what: $tool exit 1 without a word"
}

# run_tool TOOL INPUT OUT WHAT [ARGS...]: run it with a time limit, judge it; its status in $status
run_tool() {
	local tool=$1 in=$2 out=$3 what=$4
	shift 4
	status=0
	timeout 60 "$tool" "$@" "$in" > "$out" 2> "$TMP/err" || status=$?
	judge "$tool" "$status" "$TMP/err" "$what"
}

# what tr-cat --check says is wrong with stream $1, its position left out ("" if nothing)
wrong_with() {
	tr-cat --check "$1" 2>&1 | sed 's/^tr-cat: [^:]*: \(record [0-9]* (byte [0-9]*)\|line [0-9]*\): //'
}

# check_stream OUT WHAT [INPUT]: OUT is a stream tr-cat --check takes, or
# one that carries on unread what was wrong with INPUT (rule 8: a stage
# checks the kinds it reads; the next tool that reads the kind reports it)
check_stream() {
	local why
	why=$(wrong_with "$1")
	[ -z "$why" ] || { [ -n "${3-}" ] && [ "$why" = "$(wrong_with "$3")" ]; } ||
		fail "$2: its output: $why"
}

# read_mutants KIND INPUT [ANALYZE]: KIND's mutants of INPUT through tr-read,
# tr-deps on what it writes, and (given ANALYZE) tr-analyze
read_mutants() {
	mutants.py "$1" "$2" "$TMP/m" "$COUNT" "$SEED" > "$TMP/list"
	while read -r m what; do
		run_tool tr-read "$m" "$TMP/out.tr" "$m ($what)"
		[ "$status" -eq 0 ] || continue
		check_stream "$TMP/out.tr" "$m ($what)"
		run_tool tr-deps "$TMP/out.tr" "$TMP/deps.tr" "$m ($what)"
		[ "$status" -ne 0 ] || check_stream "$TMP/deps.tr" "$m ($what)"
		[ -z "${3-}" ] || run_tool tr-analyze "$m" /dev/null "$m ($what)" -q
	done < "$TMP/list"
	rm -r "$TMP/m"
}

@test "damaged Kineto traces: tr-read, tr-deps on what it writes, and tr-analyze" {
	require_corpus
	for f in "$CORPUS"/kineto/hta-simple_add/*.json.gz "$CORPUS"/kineto/hta-cuda_event_sync/*.json.gz; do
		read_mutants kineto "$f" analyze
	done
}

@test "damaged Nsight exports: tr-read, and tr-deps on what it writes" {
	require_corpus
	read_mutants nsys "$CORPUS/nsys/pipit-saxpy-mpi-cuda-rank0.sqlite"
}

@test "damaged streams into the stages: tr-deps, tr-clock, tr-project and tr-waits; tr-critpath after tr-waits" {
	tr-cat -J "$DATA/repros/c10-deps.tr" > "$TMP/deps.ndjson"
	mutants.py stream "$TMP/deps.ndjson" "$TMP/m" "$COUNT" "$SEED" > "$TMP/list"
	while read -r m what; do
		for tool in tr-deps tr-clock tr-waits; do
			run_tool "$tool" "$m" "$TMP/out.tr" "$m ($what)"
			[ "$status" -ne 0 ] || check_stream "$TMP/out.tr" "$m ($what)" "$m"
		done
		run_tool tr-project "$m" "$TMP/out.tr" "$m ($what)" --scale '*=0.5'
		[ "$status" -ne 0 ] || check_stream "$TMP/out.tr" "$m ($what)" "$m"
	done < "$TMP/list"
	rm -r "$TMP/m"
	tr-waits "$DATA/repros/c10-deps.tr" | tr-cat -J > "$TMP/waits.ndjson"
	mutants.py stream "$TMP/waits.ndjson" "$TMP/m" "$COUNT" "$SEED" > "$TMP/list"
	while read -r m what; do
		run_tool tr-critpath "$m" "$TMP/out.tr" "$m ($what)"
		[ "$status" -ne 0 ] || check_stream "$TMP/out.tr" "$m ($what)" "$m"
	done < "$TMP/list"
}

@test "damaged analysed streams: tr-rank, tr-report, tr-svg, tr-chrome and tr-otf2" {
	tr-cat -J "$DATA/repros/c10-analysed.tr" > "$TMP/analysed.ndjson"
	mutants.py stream "$TMP/analysed.ndjson" "$TMP/m" "$COUNT" "$SEED" > "$TMP/list"
	while read -r m what; do
		run_tool tr-rank "$m" /dev/null "$m ($what)"
		run_tool tr-report "$m" "$TMP/r.html" "$m ($what)"
		[ "$status" -ne 0 ] || python3 -c 'import sys; t = open(sys.argv[1], "rb").read().decode("utf-8"); assert t.rstrip().endswith("</html>")' "$TMP/r.html" ||
			fail "$m ($what): tr-report's page is not whole UTF-8"
		run_tool tr-svg "$m" "$TMP/p.svg" "$m ($what)"
		[ "$status" -ne 0 ] || xmllint --noout "$TMP/p.svg" || fail "$m ($what): tr-svg's SVG"
		run_tool tr-chrome "$m" "$TMP/c.json" "$m ($what)"
		[ "$status" -ne 0 ] || chrome-check.py "$TMP/c.json" > /dev/null || fail "$m ($what): tr-chrome's JSON"
		rm -rf "$TMP/o"
		run_tool tr-otf2 "$m" /dev/null "$m ($what)" -q -o "$TMP/o/t"
		if [ "$status" -eq 0 ]; then
			otf2-print --silent "$TMP/o/t.otf2" > /dev/null 2>&1 || fail "$m ($what): otf2-print"
		else
			[ ! -e "$TMP/o" ] || [ -z "$(ls -A "$TMP/o")" ] || fail "$m ($what): tr-otf2 left $(ls -A "$TMP/o")"
		fi
	done < "$TMP/list"
}
