#!/usr/bin/env bats
# tr-project on hand-written scenarios (every projected time computed by
# hand below), identity through the model, the first pass over a pipe,
# bad options and bad input.

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# Scenario NAME of tests/data/project after DIR's definitions, tr-deps and
# tr-project ARGS: its records after the definitions.
project() {
	set -o pipefail
	local dir=$1 name=$2
	shift 2
	cat "$DATA/$dir/defs.ndjson" "$DATA/project/$name.ndjson" | tr-deps -M |
		tr-project -J "$@" | grep -v -E '"k":"(header|process|stream|region|comm)"'
}

@test "a kernel halved on the critical path: the run gains half of it" {
	# The host launches the kernel (100..110), waits for it in
	# cuStreamSynchronize (120..860, the kernel 150..850), computes
	# (870..990). Halved, the kernel ends at 150 + 350 = 500; the
	# synchronization at the later of its enter (120) and the kernel's
	# end, plus the 10 ns the trace shows after that: 510; the rest of the
	# host follows 350 earlier: the run takes 650, not 1000.
	# (The floor of cuStreamSynchronize given as 10 ns: its one instance in
	# the trace is this long wait.)
	echo "10 cuStreamSynchronize" > "$TMP/min"
	run project cuda kernel-on-path --scale kernel=0.5 --min "$TMP/min"
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"enter","id":1,"t":100,"s":0,"r":1,"ref_stream":2}
{"k":"leave","id":2,"t":110,"s":0,"r":1}
{"k":"enter","id":3,"t":120,"s":0,"r":3,"ref_stream":2}
{"k":"enter","id":4,"t":150,"s":2,"r":2}
{"k":"edge","from":1,"to":4,"type":"launch"}
{"k":"leave","id":5,"t":500,"s":2,"r":2}
{"k":"leave","id":6,"t":510,"s":0,"r":3}
{"k":"edge","from":5,"to":6,"type":"sync"}
{"k":"enter","id":7,"t":520,"s":0,"r":11}
{"k":"leave","id":8,"t":640,"s":0,"r":11}
{"k":"leave","id":9,"t":650,"s":0,"r":0}
{"k":"projection","spec":"kernel=0.5","before":1000,"after":650}
{"k":"trailer"}
OUT
}

@test "a kernel halved off the critical path: the run takes as long" {
	# The host computes (120..900) past the kernel's end (150..500); its
	# synchronization (910..920) waited for nothing. Halved, the kernel
	# ends at 325; the host is as it was.
	run project cuda kernel-off-path --scale kernel=0.5
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"enter","id":1,"t":100,"s":0,"r":1,"ref_stream":2}
{"k":"leave","id":2,"t":110,"s":0,"r":1}
{"k":"enter","id":3,"t":120,"s":0,"r":11}
{"k":"enter","id":4,"t":150,"s":2,"r":2}
{"k":"edge","from":1,"to":4,"type":"launch"}
{"k":"leave","id":5,"t":325,"s":2,"r":2}
{"k":"leave","id":6,"t":900,"s":0,"r":11}
{"k":"enter","id":7,"t":910,"s":0,"r":3,"ref_stream":2}
{"k":"leave","id":8,"t":920,"s":0,"r":3}
{"k":"edge","from":5,"to":8,"type":"sync"}
{"k":"leave","id":9,"t":1000,"s":0,"r":0}
{"k":"projection","spec":"kernel=0.5","before":1000,"after":1000}
{"k":"trailer"}
OUT
}

@test "a late sender whose wait goes when the sender's compute is halved" {
	# Rank 1 waits in MPI_Recv from 600 for rank 0's send at 810 (after
	# its compute, 200..700); the receive completes 90 ns after the send.
	# Halved, the compute ends at 450 and the send comes at 560, before
	# rank 1 entered: the receive completes at the later of its enter
	# (600) and the send (560), plus 90: 690, no wait; rank 1 ends 100
	# later, at 790; rank 0 at 750.
	echo "10 MPI_Recv" > "$TMP/min"
	run project mpi late-sender --scale compute=0.5 --min "$TMP/min"
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"enter","id":1,"t":0,"s":1,"r":0}
{"k":"enter","id":2,"t":200,"s":0,"r":14}
{"k":"leave","id":4,"t":450,"s":0,"r":14}
{"k":"enter","id":5,"t":550,"s":0,"r":1}
{"k":"send","id":6,"t":560,"s":0,"peer":1,"tag":0,"comm":0}
{"k":"leave","id":7,"t":600,"s":0,"r":1}
{"k":"enter","id":3,"t":600,"s":1,"r":2}
{"k":"recv","id":8,"t":690,"s":1,"peer":0,"tag":0,"comm":0}
{"k":"edge","from":6,"to":8,"type":"msg"}
{"k":"leave","id":9,"t":690,"s":1,"r":2}
{"k":"leave","id":10,"t":750,"s":0,"r":0}
{"k":"leave","id":11,"t":790,"s":1,"r":0}
{"k":"projection","spec":"compute=0.5","before":1000,"after":790}
{"k":"trailer"}
OUT
}

@test "a synchronization held at its floor, its shortest instance in the trace by default" {
	# Two kernels, each waited for by a cuStreamSynchronize: the first
	# (160..200) for nothing, the shortest: 40 ns, cuStreamSynchronize's
	# floor. With kernels taking no time, the second (entered at 330)
	# would end 5 ns after its kernel's end (320), at 335: held at
	# 330 + 40 = 370; main ends 75 later, at 445.
	run --separate-stderr project cuda sync-floor --scale kernel=0 --summary
	assert_success
	assert_line '{"k":"leave","id":12,"t":370,"s":0,"r":3}'
	assert_line '{"k":"projection","spec":"kernel=0","before":1000,"after":445}'
	[[ "$stderr" == *"floors: 2 API functions (their shortest instance in the input, or --min), 1 calls held at them"* ]] || fail "$stderr"
	# with a floor of 0 given, 335 and 410
	echo "0 cuStreamSynchronize" > "$TMP/min"
	run project cuda sync-floor --scale kernel=0 --min "$TMP/min"
	assert_line '{"k":"leave","id":12,"t":335,"s":0,"r":3}'
	assert_line '{"k":"projection","spec":"kernel=0","before":1000,"after":410}'
}

@test "a collective whose last arriver gets faster: every member leaves earlier" {
	# Rank 2 computes 100..300 and arrives at the MPI_Allreduce last (310);
	# the others leave at 320, rank 2 at 325. Halved, its compute ends at
	# 200 and it arrives at 210: ranks 0 and 1 end the collective 10 ns
	# after that (220), rank 2 15 ns after (225); all end 100 earlier.
	run project mpi allreduce --scale compute=0.5
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"enter","id":1,"t":0,"s":1,"r":0}
{"k":"enter","id":2,"t":0,"s":2,"r":0}
{"k":"enter","id":3,"t":100,"s":0,"r":8}
{"k":"enter","id":4,"t":100,"s":2,"r":14}
{"k":"enter","id":5,"t":150,"s":1,"r":8}
{"k":"leave","id":6,"t":200,"s":2,"r":14}
{"k":"enter","id":7,"t":210,"s":2,"r":8}
{"k":"coll_end","id":8,"t":220,"s":0,"comm":0}
{"k":"leave","id":9,"t":220,"s":0,"r":8}
{"k":"edge","from":7,"to":9,"type":"coll"}
{"k":"coll_end","id":10,"t":220,"s":1,"comm":0}
{"k":"leave","id":11,"t":220,"s":1,"r":8}
{"k":"edge","from":7,"to":11,"type":"coll"}
{"k":"coll_end","id":12,"t":225,"s":2,"comm":0}
{"k":"leave","id":13,"t":225,"s":2,"r":8}
{"k":"edge","from":5,"to":13,"type":"coll"}
{"k":"instance","acts":[3,5,7],"comm":0}
{"k":"leave","id":14,"t":300,"s":0,"r":0}
{"k":"leave","id":15,"t":300,"s":1,"r":0}
{"k":"leave","id":16,"t":300,"s":2,"r":0}
{"k":"projection","spec":"compute=0.5","before":400,"after":300}
{"k":"trailer"}
OUT
}

@test "an OpenMP barrier: the slower thread's work halved, the team leaves it earlier" {
	# Thread 1 computes 150..500 and reaches the barrier last (510); the
	# master, waiting there since 200, leaves at 520. Halved: thread 1's
	# compute ends at 325, it reaches the barrier at 335, the master
	# leaves at 345; the join follows thread 1's team end (455) by 20 ns:
	# 475; the run ends at 525, not 700.
	run project cuda omp-barrier --scale compute=0.5
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"fork","id":1,"t":100,"s":0,"threads":2}
{"k":"team_begin","id":2,"t":110,"s":0}
{"k":"team_begin","id":3,"t":120,"s":1}
{"k":"edge","from":1,"to":3,"type":"fork"}
{"k":"enter","id":4,"t":130,"s":0,"r":12}
{"k":"enter","id":5,"t":140,"s":1,"r":12}
{"k":"enter","id":6,"t":150,"s":1,"r":11}
{"k":"enter","id":7,"t":200,"s":0,"r":13}
{"k":"leave","id":8,"t":325,"s":1,"r":11}
{"k":"enter","id":9,"t":335,"s":1,"r":13}
{"k":"leave","id":10,"t":345,"s":0,"r":13}
{"k":"edge","from":9,"to":10,"type":"barrier"}
{"k":"leave","id":11,"t":355,"s":1,"r":13}
{"k":"instance","acts":[7,9]}
{"k":"leave","id":12,"t":425,"s":0,"r":12}
{"k":"team_end","id":13,"t":435,"s":0}
{"k":"leave","id":14,"t":445,"s":1,"r":12}
{"k":"team_end","id":15,"t":455,"s":1}
{"k":"join","id":16,"t":475,"s":0}
{"k":"edge","from":15,"to":16,"type":"join"}
{"k":"leave","id":17,"t":525,"s":0,"r":0}
{"k":"projection","spec":"compute=0.5","before":700,"after":525}
{"k":"trailer"}
OUT
}
