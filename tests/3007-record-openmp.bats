#!/usr/bin/env bats
# tr-record on real OpenMP programs under LLVM's libomp, which has OMPT
# (tests/programs/omp-patterns.c, 4 threads, built with clang -fopenmp):
# the barrier and lock wait states tr-waits finds are the delays put in,
# within 10 % (the lock waits also as the lock events give them, to the
# ns). GCC's libgomp has no OMPT: that is said, once.

load common

DELAY_MS=100

setup() {
	[ -x "$TOP/tests/helper/omp-patterns" ] || skip_unless ompt "no OMPT header (LLVM's omp-tools.h) here: the OpenMP collector is not built"
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "${TMP:-/nonexistent}"
}

# waited SCENARIO PATTERN: record the scenario, the ns of PATTERN's waiting
waited() {
	tr-record -o "$TMP/$1" -- omp-patterns "$1" "$DELAY_MS" > /dev/null
	tr-read "$TMP/$1" | tr-deps | tr-waits | tr-critpath > "$TMP/$1.tr"
	tr-cat --check "$TMP/$1.tr"
	tr-rank --json "$TMP/$1.tr" | jq -r --arg p "$2" 'select(.k == "wait_summary" and .pattern == $p) | .ns'
}

near() {
	local got=${1:-0} want=$2
	[ $((got > want ? got - want : want - got)) -le $((want / 10)) ] ||
		fail "$got ns, not within 10 % of $want ns"
}

@test "an explicit barrier: three threads wait for the one that computes" {
	near "$(waited barrier omp_barrier)" $((3 * DELAY_MS * 1000000))
	# the team as the stream has it: a fork and a join, four implicit tasks, each thread a stream
	run bash -c "tr-cat -J '$TMP/barrier.tr' | jq -r 'select(.k == \"fork\" or .k == \"join\" or .k == \"team_begin\" or .k == \"team_end\") | .k' | sort | uniq -c | tr -s ' '"
	assert_output "$(printf ' 1 fork\n 1 join\n 4 team_begin\n 4 team_end')"
	run bash -c "tr-cat -J '$TMP/barrier.tr' | jq -r 'select(.k == \"region\" and .paradigm == \"openmp\") | \"\\(.name) \\(.role)\"'"
	assert_line '!$omp parallel omp_parallel'
	assert_line '!$omp implicit task omp_implicit_task'
	assert_line '!$omp barrier omp_barrier'
}

# The lock waits of stream $1 as the program's own lock events give them:
# each thread from asking (its critical's enter) until the thread that
# held the lock before it let go, or until it got the lock where that was
# stamped first; in the order taken.
lock_waits_by_hand() {
	tr-cat -J "$1" | jq -s -c '
		(map(select(.k == "region" and .role == "omp_lock")) | .[0].id) as $ask |
		[.[] | select((.k == "enter" and .r == $ask) or .k == "lock_acquire" or .k == "lock_release")] as $ev |
		[foreach $ev[] as $e ({asked: {}, holder: null, released: null, out: null};
			.out = null |
			if $e.k == "enter" then .asked[$e.s | tostring] = $e.t
			elif $e.k == "lock_acquire" then
				(if .holder != null and .holder != $e.s then
					.out = ([.released // $e.t, $e.t] | min) - .asked[$e.s | tostring] else . end) |
				.holder = $e.s | .released = null
			elif $e.s == .holder then .released = $e.t
			else . end;
			.out | select(. != null and . > 0))]'
}

@test "a critical section held by one thread: the three that come later wait for it" {
	# each of the three comes DELAY/10 after the holder took it, and waits
	# until it lets go: about 9/10 DELAY each. tr-waits's waits are those
	# the lock events give, to the ns; of the three, two at least within
	# 10 % of 9/10 DELAY (one may be kept from asking in time on a loaded
	# machine: then it waits less, and the events say so)
	waited critical omp_lock > /dev/null
	run bash -c "tr-cat -J '$TMP/critical.tr' | jq -s -c '[.[] | select(.k == \"wait\" and .pattern == \"omp_lock\") | .dur]'"
	assert_output "$(lock_waits_by_hand "$TMP/critical.tr")"
	jq -e --argjson want $((DELAY_MS * 9 / 10 * 1000000)) \
		'length == 3 and (map(select(. - $want | fabs <= $want / 10)) | length >= 2)' <<< "$output" ||
		fail "$output; the waits and locks, by stream: $(tr-cat -J "$TMP/critical.tr" |
			jq -c 'select(.k == "wait" or .k == "lock_acquire" or .k == "lock_release" or
				(.k == "enter" and .s > 0)) | [.k, .s, .t, .dur, .r]' | tr '\n' ' ')"
	run bash -c "tr-cat -J '$TMP/critical.tr' | jq -r 'select(.k == \"lock_acquire\" or .k == \"lock_release\") | \"\\(.k) \\(.lock)\"' | sort | uniq -c | tr -s ' '"
	assert_output "$(printf ' 4 lock_acquire 0\n 4 lock_release 0')"
}

@test "GCC's libgomp has no OMPT: said once, and the program runs as it would" {
	command -v gcc > /dev/null || skip_unless gcc "no gcc"
	gcc -fopenmp -O2 -o "$TMP/gomp" "$TOP/tests/programs/omp-patterns.c"
	run --separate-stderr tr-record -o "$TMP/gomp-logs" -- "$TMP/gomp" barrier 1
	assert_success
	assert_output "omp-patterns: barrier done (0)"
	[ "$stderr" = "tr-record: the program's OpenMP runtime, GCC's libgomp, has no OMPT: its OpenMP is not recorded (LLVM's libomp has: clang -fopenmp)" ]
}
