#!/usr/bin/env bats
# tr-record on real MPI programs under mpirun (4 ranks, oversubscribed on
# a small machine): tests/programs/mpi-patterns.c and .f90 delay one rank
# by a known time before its part, and the wait states tr-read's stream
# shows must be those delays, within 10 %.

load common

DELAY_MS=200

setup() {
	TMP=$(mktemp -d)
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
}

teardown() {
	rm -rf "${TMP:-/nonexistent}"
}

# record SCENARIO [PROGRAM]: 4 ranks into $TMP/SCENARIO
record() {
	mpirun -n 4 tr-record -o "$TMP/$1" -- "${2:-mpi-patterns}" "$1" "$DELAY_MS"
}

# analyse DIR: the stream through tr-waits and tr-critpath, into DIR.tr;
# tr-analyze's of the same logs (the stages in one process, taking the
# reader's events typed: a message's peer and tag, a collective's comm,
# request, root and op) byte for byte the same
analyse() {
	tr-read "$1" | tr-deps | tr-waits | tr-critpath > "$1.tr"
	tr-cat --check "$1.tr"
	tr-analyze -q --no-clock --stream "$1.analyzed.tr" "$1" > /dev/null
	cmp "$1.tr" "$1.analyzed.tr" || fail "tr-analyze's stream is not the filters'"
}

# waited DIR PATTERN: the ns of waiting of PATTERN
waited() {
	tr-rank --json "$1.tr" | jq -r --arg p "$2" 'select(.k == "wait_summary" and .pattern == $p) | .ns'
}

# near NS EXPECTED_NS: within 10 %
near() {
	local got=${1:-0} want=$2
	[ $((got > want ? got - want : want - got)) -le $((want / 10)) ] ||
		fail "$got ns, not within 10 % of $want ns"
}

ms() {
	echo $(($1 * DELAY_MS * 1000000))
}

@test "a late sender: rank 1 waits for rank 0's delay, and the critical path runs through rank 0's compute" {
	record late-sender
	[ "$(ls "$TMP/late-sender")" = "$(printf 'rank-%s.trlog\n' 0 1 2 3)" ]
	analyse "$TMP/late-sender"
	near "$(waited "$TMP/late-sender" late_sender)" "$(ms 1)"
	# the path: rank 0's program (region 0) between MPI_Init and its send
	run jq -rs '[.[] | select(.k == "crit" and .s == 0 and .r == 0) | .dur] | max' <(tr-cat -J "$TMP/late-sender.tr")
	near "$output" "$(ms 1)"
	# and the waiting is blamed on it
	run bash -c "tr-rank --json '$TMP/late-sender.tr' | jq -r 'select(.k == \"rating\" and .name == \"mpi-patterns\") | .blame'"
	[ "$output" -ge $(($(ms 1) * 9 / 10)) ]
}

@test "a Waitall on more requests than the recorder keeps on its stack: every completion recorded, the wait found" {
	record many
	analyse "$TMP/many"
	# 40 messages from rank 1, each matched to its receive; rank 0 waits
	# in MPI_Waitall for rank 1's delay (its first send)
	run bash -c "tr-cat -J '$TMP/many.tr' | jq -s '[.[] | select(.k == \"edge\" and .type == \"msg\")] | length'"
	assert_output 40
	near "$(waited "$TMP/many" late_sender)" "$(ms 1)"
}

@test "a Waitall whose entries the recorder cannot allocate: the 32 its stack holds logged, the rest left out, the run and its log whole" {
	# the collector's allocations of 1 KiB or more fail (tests/helper/fail-malloc.c):
	# the 40 entries of the Waitall do not fit its stack
	mpirun -n 4 tr-record -o "$TMP/nomem" -- sh -c 'LD_PRELOAD="$LD_PRELOAD $0" exec "$@"' \
		"$TOP/tests/helper/libfail-malloc.so" env TR_FAIL_MALLOC_FROM=libtr-mpi TR_FAIL_MALLOC_MIN=1024 \
		mpi-patterns many "$DELAY_MS"
	run --separate-stderr bash -c "tr-read '$TMP/nomem' | tr-deps > '$TMP/nomem.tr'"
	assert_success
	assert_equal "$stderr" "tr-deps: <stdin>: 8 sends never received"
	tr-cat --check "$TMP/nomem.tr"
	run bash -c "tr-cat -J '$TMP/nomem.tr' | jq -s '[.[] | select(.k == \"edge\" and .type == \"msg\")] | length'"
	assert_output 32
}

@test "an imbalanced barrier: the three early ranks wait for the last" {
	record barrier
	analyse "$TMP/barrier"
	near "$(waited "$TMP/barrier" wait_barrier)" "$(ms 3)"
}

@test "nonblocking point-to-point: Isend, Irecv, Waitall and Waitany find their late senders" {
	record nonblocking
	analyse "$TMP/nonblocking"
	# ranks 1-3 wait in Waitall for rank 0; rank 0 in Waitany for rank 1
	near "$(waited "$TMP/nonblocking" late_sender)" "$(ms 4)"
	run bash -c "tr-cat -J '$TMP/nonblocking.tr' | jq -r 'select(.k == \"recv\" and .s == 0) | \"\\(.peer) \\(.tag) \\(.req != null)\"'"
	assert_output "1 4 true"
	run bash -c "tr-cat -J '$TMP/nonblocking.tr' | jq -r 'select(.k == \"region\") | .name' | sort | tr '\n' ' '"
	assert_output --partial "MPI_Irecv MPI_Isend MPI_Wait MPI_Waitall MPI_Waitany"
}

@test "a nonblocking collective: the three early ranks wait in MPI_Wait for the last one's MPI_Iallreduce" {
	record icoll
	analyse "$TMP/icoll"
	near "$(waited "$TMP/icoll" wait_nxn)" "$(ms 3)"
	# posted in MPI_Iallreduce (mpi_icoll), completed in MPI_Wait: one instance of both per rank
	run bash -c "tr-cat -J '$TMP/icoll.tr' | jq -c 'select(.k == \"instance\" and .comm == 0) | .acts | length'"
	assert_output 8
}

@test "a split and a Cartesian communicator: members as world ranks, their collectives matched" {
	record comms
	analyse "$TMP/comms"
	run bash -c "tr-cat -J '$TMP/comms.tr' | jq -c 'select(.k == \"comm\") | [.name, .members]'"
	assert_line '["MPI_COMM_WORLD",[0,1,2,3]]'
	assert_line --regexp '^\["MPI_Comm_split [0-9]+",\[0,2\]\]$'
	assert_line --regexp '^\["MPI_Comm_split [0-9]+",\[1,3\]\]$'
	assert_line --regexp '^\["MPI_Cart_create [0-9]+",\[0,1,2,3\]\]$'
	# one rank of each half waits for the other (2 x 1 delay), three ranks for the Cartesian one's rank 0 (3 x 1)
	near "$(waited "$TMP/comms" wait_nxn)" "$(ms 5)"
}

@test "MPI_ANY_SOURCE with MPI_STATUS_IGNORE: the message's real source and tag" {
	record anysource
	analyse "$TMP/anysource"
	run bash -c "tr-cat -J '$TMP/anysource.tr' | jq -r 'select(.k == \"recv\") | \"\\(.s) \\(.peer) \\(.tag)\"'"
	assert_output "1 0 9"
	near "$(waited "$TMP/anysource" late_sender)" "$(ms 1)"
}

@test "persistent requests: each start of a send or receive is a message, its wait the late sender's" {
	record persistent
	analyse "$TMP/persistent"
	near "$(waited "$TMP/persistent" late_sender)" "$(ms 2)"
	run bash -c "tr-cat -J '$TMP/persistent.tr' | jq -r 'select(.k == \"send\" or .k == \"recv\" or .k == \"recv_post\") | \"\\(.k) \\(.s) \\(.req)\"'"
	assert_output "$(printf '%s\n' 'recv_post 1 1' 'send 0 1' 'recv 1 1' 'recv_post 1 2' 'send 0 2' 'recv 1 2')"
}

@test "a receive cancelled: posted, then cancelled in the wait that completes it, and no message" {
	record cancel
	run --separate-stderr bash -c "tr-read '$TMP/cancel' | tr-deps | tr-waits | tr-cat -J | jq -r 'select(.k == \"recv_post\" or .k == \"req_cancel\" or .k == \"recv\" or (.k == \"wait\" and (.pattern | startswith(\"late\")))) | \"\\(.k) \\(.s) \\(.req)\"'"
	assert_success
	assert_output "$(printf 'recv_post 1 1\nreq_cancel 1 1')"
	[ -z "$stderr" ]
}

# A Fortran program ($1: the mpif.h / use mpi build or the mpi_f08 one) recorded: its waits and calls.
fortran_recorded() {
	mpirun -n 4 tr-record -o "$TMP/fortran" -- "$1" "$DELAY_MS"
	analyse "$TMP/fortran"
	# rank 1 for rank 0 (MPI_ANY_SOURCE, MPI_STATUS_IGNORE), then ranks 1-3 in Waitall for rank 0
	near "$(waited "$TMP/fortran" late_sender)" "$(ms 4)"
	# rank 3 slept through the first message: only rank 2 waits at the barrier
	near "$(waited "$TMP/fortran" wait_barrier)" "$(ms 1)"
	run bash -c "tr-cat -J '$TMP/fortran.tr' | jq -c 'select(.k == \"comm\") | .members' | sort"
	assert_output "$(printf '%s\n' '[0,1,2,3]' '[0,2]' '[1,3]' '[]')"
	# and the rest of the Fortran entry points: each call as often as the program made it
	run bash -c "tr-cat -J '$TMP/fortran.tr' | jq -rs '(map(select(.k == \"region\")) | map({key: (.id | tostring), value: .name}) | from_entries) as \$n | .[] | select(.k == \"enter\") | \$n[.r | tostring]' | sort | uniq -c | tr -s ' '"
	assert_line " 4 MPI_Allgather"
	assert_line " 4 MPI_Gather"
	assert_line " 1 MPI_Waitany"
	assert_line --regexp '^ [0-9]+ MPI_Test$'
	# the message rank 0 tested for came from rank 1, tag 5
	run bash -c "tr-cat -J '$TMP/fortran.tr' | jq -r 'select(.k == \"recv\" and .tag == 5) | \"\\(.s) \\(.peer)\"'"
	assert_output "0 1"
}

@test "a Fortran program (use mpi): its calls go through Open MPI's Fortran bindings, and are recorded" {
	fortran_recorded mpi-patterns-f
}

@test "a Fortran program (use mpi_f08): its calls, through the mpi_f08 entry points, are recorded alike" {
	fortran_recorded mpi-patterns-f08
}

@test "the README's example program: its barrier, late-sender and allreduce waiting as documented" {
	mpirun -n 4 tr-record -o "$TMP/imbalance" -- "$TOP/examples/imbalance" 5
	analyse "$TMP/imbalance"
	# 5 iterations: 30 ms at the barrier, 20 ms late sender, 3 x 20 ms in the allreduce (examples/imbalance.c)
	near "$(waited "$TMP/imbalance" wait_barrier)" 150000000
	near "$(waited "$TMP/imbalance" late_sender)" 100000000
	near "$(waited "$TMP/imbalance" wait_nxn)" 200000000
	run bash -c "tr-rank --json '$TMP/imbalance.tr' | jq -r 'select(.k == \"rating\") | .name' | head -1"
	assert_output imbalance
}
