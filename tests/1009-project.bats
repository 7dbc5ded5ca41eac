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

# Scenario NAME of tests/data/project (else of tests/data/DIR) after DIR's
# definitions, tr-deps and tr-project ARGS: its records after the
# definitions.
project() {
	set -o pipefail
	local dir=$1 f=$DATA/project/$2.ndjson
	[ -e "$f" ] || f=$DATA/$1/$2.ndjson
	shift 2
	cat "$DATA/$dir/defs.ndjson" "$f" | tr-deps -M |
		tr-project -J "$@" | grep -v -E '"k":"(header|process|stream|region|comm)"'
}

@test "a kernel halved on the critical path: the run gains half of it" {
	# The host launches the kernel (100..110), waits for it in
	# cuStreamSynchronize (120..860, the kernel 150..850), computes
	# (870..990). Halved, the kernel ends at 150 + 350 = 500; the
	# synchronization at the later of its enter (120) and the kernel's
	# end, plus the 10 ns the trace shows after that: 510; the rest of the
	# host follows 350 earlier: the run takes 650, not 1000.
	run project cuda kernel-on-path --scale kernel=0.5
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
	run project mpi late-sender --scale compute=0.5
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

@test "an API call held at its floor: its least time of its own in the trace by default" {
	# Two kernels, each waited for by a cuStreamSynchronize: the first
	# (160..200) for nothing, 40 ns of its own; the second (330..925) until
	# its kernel's end (920), 5 ns of its own after it: the floor is 5.
	# Kernels taking no time and the synchronizations a tenth of theirs:
	# the first would end 4 ns after its enter (160), held at 165; the
	# second 1 ns (0.5, rounded) after its enter (295, the kernel's end at
	# 285 before it), held at 300; main ends 75 later, at 375.
	run --separate-stderr project cuda sync-floor --scale kernel=0 --scale cuStreamSynchronize=0.1 --summary
	assert_success
	assert_line '{"k":"leave","id":6,"t":165,"s":0,"r":3}'
	assert_line '{"k":"leave","id":12,"t":300,"s":0,"r":3}'
	assert_line '{"k":"projection","spec":"kernel=0 cuStreamSynchronize=0.1","before":1000,"after":375}'
	[[ "$stderr" == *"floors: 2 API functions (their least own time in the input, or --min), 2 calls held at them"* ]] || fail "$stderr"
	# with a floor of 0 given: 164, 295 and 370
	echo "0 cuStreamSynchronize" > "$TMP/min"
	run project cuda sync-floor --scale kernel=0 --scale cuStreamSynchronize=0.1 --min "$TMP/min"
	assert_line '{"k":"leave","id":6,"t":164,"s":0,"r":3}'
	assert_line '{"k":"leave","id":12,"t":295,"s":0,"r":3}'
	assert_line '{"k":"projection","spec":"kernel=0 cuStreamSynchronize=0.1","before":1000,"after":370}'
}

@test "a collective whose last arriver gets faster: every member leaves earlier" {
	# Rank 2 computes 100..300 and arrives at the MPI_Allreduce last (310);
	# the others leave at 320, rank 2 at 325. Halved, its compute ends at
	# 200 and it arrives at 210: ranks 0 and 1 end the collective 10 ns
	# after that (220), rank 2 15 ns after (225); all end 100 earlier. The
	# collective's edges, as its instance, follow every event read before
	# them (tr-waits takes them once all members left).
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
{"k":"coll_end","id":10,"t":220,"s":1,"comm":0}
{"k":"leave","id":11,"t":220,"s":1,"r":8}
{"k":"coll_end","id":12,"t":225,"s":2,"comm":0}
{"k":"leave","id":13,"t":225,"s":2,"r":8}
{"k":"edge","from":7,"to":9,"type":"coll"}
{"k":"edge","from":7,"to":11,"type":"coll"}
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
{"k":"leave","id":11,"t":355,"s":1,"r":13}
{"k":"edge","from":9,"to":10,"type":"barrier"}
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

@test "no change gives back every time, through the model; read from a file or a pipe alike" {
	gen-otf2 -r 2 -t 2 -i 3 "$TMP/g/t" > /dev/null
	tr-read -M "$TMP/g/t.otf2" | tr-deps -M | tr-clock -M > "$TMP/in.tr"
	tr-project -J --scale '*=1' "$TMP/in.tr" > "$TMP/file.json"
	tr-project -J --scale '*=1' < "$TMP/in.tr" > "$TMP/pipe.json"
	cmp <(grep -v '"k":"header"' "$TMP/file.json") <(grep -v '"k":"header"' "$TMP/pipe.json")
	cmp <(tr-cat -J "$TMP/in.tr" | grep -v '"k":"header"') \
		<(grep -v -e '"k":"header"' -e '"k":"projection"' "$TMP/file.json")
	run grep '"k":"projection"' "$TMP/file.json"
	assert_output --regexp '^\{"k":"projection","spec":"\*=1","before":([0-9]+),"after":\1\}$'
	# a region that moves no wait, halved and then doubled: the times back
	cat "$DATA/cuda/defs.ndjson" "$DATA/project/kernel-off-path.ndjson" | tr-deps -M > "$TMP/off.tr"
	tr-project --scale kernel=0.5 "$TMP/off.tr" | tr-project -J --scale kernel=2 |
		grep -v -e '"k":"header"' -e '"k":"projection"' > "$TMP/back.json"
	cmp <(tr-cat -J "$TMP/off.tr" | grep -v '"k":"header"') "$TMP/back.json"
	# and the projected stream is one the pipeline takes
	tr-project --scale 'cu*=0.5' "$TMP/in.tr" | tr-waits | tr-critpath | tr-rank > "$TMP/rank" 2> "$TMP/err"
	[ ! -s "$TMP/err" ] || fail "$(cat "$TMP/err")"
}

@test "the derived records new times make stale are left out; definitions and edges kept" {
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" | tr-deps -M | tr-waits -M |
		tr-critpath -M > "$TMP/analysed.tr"
	tr-cat -J "$TMP/analysed.tr" | jq -r .k | sort -u > "$TMP/kinds.in"
	grep -qx wait "$TMP/kinds.in" && grep -qx crit "$TMP/kinds.in" && grep -qx blame "$TMP/kinds.in"
	run bash -c "tr-project -J '$TMP/analysed.tr' | jq -r .k | sort | uniq -c | awk '{ print \$2, \$1 }'"
	assert_output - <<'OUT'
comm 2
edge 1
enter 5
header 1
leave 5
process 3
projection 1
recv 1
region 15
send 1
stream 3
trailer 1
OUT
}

@test "bad options, a stream without tr-deps and a --min file that is not one are refused" {
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" | tr-deps -M > "$TMP/d.tr"
	run tr-project --scale compute "$TMP/d.tr"
	assert_failure 2
	assert_output "tr-project: --scale compute: give PATTERN=FACTOR, a region name or shell glob and a factor"
	run tr-project --scale compute=-1 "$TMP/d.tr"
	assert_failure 2
	assert_output "tr-project: --scale compute=-1: give the factor as a number from 0 to 1000"
	run tr-project --scale compute=fast "$TMP/d.tr"
	assert_failure 2
	run tr-project --window 0 "$TMP/d.tr"
	assert_failure 2
	assert_output "tr-project: --window 0: give seconds, more than 0 and at most 86400"
	run tr-project --min "$TMP/none" "$TMP/d.tr"
	assert_failure 1
	assert_output "tr-project: --min $TMP/none: No such file or directory"
	printf '# floors\n\n10 MPI_Recv\nMPI_Send 10\n' > "$TMP/min"
	run tr-project --min "$TMP/min" "$TMP/d.tr"
	assert_failure 1
	assert_output "tr-project: --min $TMP/min: line 4: give nanoseconds, a space and a function's name"
	gen-otf2 -r 2 -t 1 -i 1 "$TMP/g/t" > /dev/null
	tr-read -M "$TMP/g/t.otf2" > "$TMP/r.tr"
	run tr-project "$TMP/r.tr"
	assert_failure 1
	assert_output --partial "the stream has not been through tr-deps: run it before tr-project"
}

@test "a --scale or --set that matches no region is an error naming the nearest region, not the run unchanged (a typo)" {
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" | tr-deps -M > "$TMP/d.tr"
	run --separate-stderr tr-project --scale compute=0.5 --scale comptue=0.5 "$TMP/d.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-project: $TMP/d.tr: --scale comptue: no region of the trace matches it (the nearest: compute): nothing would change (tr-rank lists the regions)"
	run --separate-stderr tr-project --set 'MPI_Sned*=1ms' "$TMP/d.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-project: $TMP/d.tr: --set MPI_Sned*: no region of the trace matches it (the nearest: MPI_Send): nothing would change (tr-rank lists the regions)"
	# tr-analyze says it too, and writes nothing
	gen-otf2 -r 2 -t 1 -i 2 "$TMP/g/t" > /dev/null
	run --separate-stderr tr-analyze --scale jacobi_kernle=0.5 --stream "$TMP/s.tr" "$TMP/g/t.otf2"
	assert_failure 1
	[[ $stderr == *"tr-project: --scale jacobi_kernle: no region of the trace matches it (the nearest: jacobi_kernel): nothing would change"* ]] ||
		fail "$stderr"
	[ ! -e "$TMP/s.tr" ]
	# a region name with a NUL in it is measured to the NUL (make fuzz's project target: it read past
	# the copy matched, under AddressSanitizer)
	{ cat "$DATA/mpi/defs.ndjson"; echo '{"k":"region","id":99,"name":"comp\u0000uuuuuuuuuuu","role":"cpu"}'
	  cat "$DATA/mpi/late-sender.ndjson"; } | tr-deps -M > "$TMP/nul.tr"
	run --separate-stderr tr-project --scale comptue=0.5 "$TMP/nul.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-project: $TMP/nul.tr: --scale comptue: no region of the trace matches it (the nearest: compute): nothing would change (tr-rank lists the regions)"
	# a glob that matches, and a --min file naming functions this run never calls, are fine
	printf '10 MPI_Recv\n20 cudaLaunchKernel\n' > "$TMP/min"
	run tr-project --scale 'comp*=0.5' --min "$TMP/min" "$TMP/d.tr"
	assert_success
}

@test "bad input: one line naming the position, the records before it written" {
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" | tr-deps -J |
		sed '/"k":"recv","id":8,/q' > "$TMP/bad.json"
	echo '{"k":"enter","id":99,"t":50,"s":0,"r":0}' >> "$TMP/bad.json"
	echo '{"k":"trailer"}' >> "$TMP/bad.json"
	run --separate-stderr tr-project -J "$TMP/bad.json"
	assert_failure 1
	[[ "$stderr" == "tr-project: $TMP/bad.json: line "*": enter at t=50 on stream 0 comes after t=900 on stream 1 (events must be ordered by time, then stream)" ]] || fail "$stderr"
	assert_line '{"k":"recv","id":8,"t":900,"s":1,"peer":0,"tag":0,"comm":0}'
	refute_line --partial '"id":99'
}

@test "a pipe that cannot be kept for the second pass: one line, nothing left behind" {
	gen-otf2 -r 2 -t 2 -i 40 "$TMP/g/t" > /dev/null
	tr-read -M "$TMP/g/t.otf2" | tr-deps -M > "$TMP/in.tr"
	mkdir "$TMP/tmp"
	run --separate-stderr bash -c "ulimit -S -f 16; cat '$TMP/in.tr' | TMPDIR='$TMP/tmp' tr-project > /dev/null"
	assert_failure 1
	assert_equal "$stderr" "tr-project: <stdin>: cannot keep the input in a temporary file in TMPDIR=$TMP/tmp to read it twice: File too large"
	run ls -A "$TMP/tmp"
	assert_output ""
}

@test "--set gives each activity of a region a time of its own, children not counted" {
	# the kernel of the on-path scenario set to 350 ns is the kernel halved
	run project cuda kernel-on-path --set kernel=350ns
	assert_success
	assert_line '{"k":"leave","id":5,"t":500,"s":2,"r":2}'
	assert_line '{"k":"projection","spec":"set:kernel=350ns","before":1000,"after":650}'
	# main's time of its own (0..100, 110..120, 860..870, 990..1000: 130 ns)
	# set to none: the launch at 0, the kernel 50 ns after it (as after its
	# launch in the trace) until 750, the synchronization 10 ns after that,
	# compute (120 ns) up to 880, where main ends: 120 earlier (the 10 ns
	# main ran before the synchronization are under the kernel)
	run --separate-stderr project cuda kernel-on-path --set main=0 --summary
	assert_line '{"k":"projection","spec":"set:main=0","before":1000,"after":880}'
	[[ "$stderr" == *"--set: 1 activities given their time, 0 not"* ]] || fail "$stderr"
	# seconds by default; ms and us too
	run project cuda kernel-on-path --set kernel=0.00000035
	assert_line '{"k":"projection","spec":"set:kernel=0.00000035","before":1000,"after":650}'
	# an activity whose first events settled before it ended (longer than
	# the window): left as it was, counted
	run --separate-stderr project cuda kernel-on-path --set main=0 --window 0.0000001
	assert_line '{"k":"projection","spec":"set:main=0","before":1000,"after":1000}'
	[[ "$stderr" == *"1 activities --set could not give their time (longer than --window, or with no time of their own): left as they were"* ]] || fail "$stderr"
	run tr-project --set kernel "$DATA/cuda/defs.ndjson"
	assert_failure 2
	assert_output "tr-project: --set kernel: give PATTERN=DURATION, a region name or shell glob and a duration"
	run tr-project --set kernel=5min "$DATA/cuda/defs.ndjson"
	assert_failure 2
	assert_output "tr-project: --set kernel=5min: give the duration in seconds, or with ns, us, ms or s after it, up to a day"
}

@test "across a nonblocking message: the Waitall waits less when the Isend comes earlier" {
	# Rank 1 posts its receive (Irecv 100..110) and waits in MPI_Waitall
	# from 600; rank 0 sends (Isend 800..810, the send at 805) after its
	# compute (200..700); the message completes 95 ns after the send (900).
	# Halved, the compute ends at 450, the Isend follows 100 later
	# (550..560, the send at 555); the receive at the later of the
	# Waitall's enter (600) and the send, plus 95: 695; the Waitall ends
	# with it, rank 1 100 later (795), rank 0 at 750.
	run project mpi nonblocking --scale compute=0.5
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"enter","id":1,"t":0,"s":1,"r":0}
{"k":"enter","id":2,"t":100,"s":1,"r":5}
{"k":"recv_post","id":3,"t":105,"s":1,"req":1}
{"k":"leave","id":4,"t":110,"s":1,"r":5}
{"k":"enter","id":5,"t":200,"s":0,"r":14}
{"k":"leave","id":7,"t":450,"s":0,"r":14}
{"k":"enter","id":8,"t":550,"s":0,"r":4}
{"k":"send","id":9,"t":555,"s":0,"peer":1,"tag":0,"comm":0,"req":7}
{"k":"leave","id":10,"t":560,"s":0,"r":4}
{"k":"enter","id":6,"t":600,"s":1,"r":6}
{"k":"recv","id":11,"t":695,"s":1,"peer":0,"tag":0,"comm":0,"req":1}
{"k":"edge","from":9,"to":11,"type":"msg"}
{"k":"leave","id":12,"t":695,"s":1,"r":6}
{"k":"leave","id":13,"t":750,"s":0,"r":0}
{"k":"leave","id":14,"t":795,"s":1,"r":0}
{"k":"projection","spec":"compute=0.5","before":1000,"after":795}
{"k":"trailer"}
OUT
}

@test "across a CUDA event: cuEventSynchronize waits for the kernel recorded before the event" {
	# The kernel (150..850) runs before the event recorded on its stream
	# (cuEventRecord 120..125); the host computes (130..300) and waits for
	# the event in cuEventSynchronize from 310, which returns 10 ns after
	# the kernel's end. Halved, the kernel ends at 500, the synchronization
	# at 510, the host 140 later (650).
	run project cuda event-sync --scale kernel=0.5
	assert_success
	assert_output - <<'OUT'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"enter","id":1,"t":100,"s":0,"r":1,"ref_stream":2}
{"k":"leave","id":2,"t":110,"s":0,"r":1}
{"k":"enter","id":3,"t":120,"s":0,"r":5,"ref_stream":2,"cuda_event":5}
{"k":"leave","id":4,"t":125,"s":0,"r":5}
{"k":"enter","id":5,"t":130,"s":0,"r":11}
{"k":"enter","id":6,"t":150,"s":2,"r":2}
{"k":"edge","from":1,"to":6,"type":"launch"}
{"k":"leave","id":7,"t":300,"s":0,"r":11}
{"k":"enter","id":8,"t":310,"s":0,"r":6,"cuda_event":5}
{"k":"leave","id":9,"t":500,"s":2,"r":2}
{"k":"leave","id":10,"t":510,"s":0,"r":6}
{"k":"edge","from":9,"to":10,"type":"event"}
{"k":"leave","id":11,"t":650,"s":0,"r":0}
{"k":"projection","spec":"kernel=0.5","before":1000,"after":650}
{"k":"trailer"}
OUT
}

@test "across a stream wait: the second stream's kernel starts when the first's ends" {
	# Kernel A on stream 2 (160..500) before the event that stream 3 waits
	# for (cuStreamWaitEvent), whose kernel B starts 10 ns after A's end
	# (510..700). Both halved: A 160..330, B at the later of its launch
	# (140) and A's end, plus 10: 340, for 95 (435). The host, which waits
	# for neither, ends at 1000 still.
	run project cuda stream-wait --scale kernel=0.5
	assert_success
	run grep -E '"id":(9|10|11|12),|stream_wait|projection' <<< "$output"
	assert_output - <<'OUT'
{"k":"enter","id":9,"t":160,"s":2,"r":2}
{"k":"leave","id":10,"t":330,"s":2,"r":2}
{"k":"enter","id":11,"t":340,"s":3,"r":2}
{"k":"edge","from":10,"to":11,"type":"stream_wait"}
{"k":"leave","id":12,"t":435,"s":3,"r":2}
{"k":"projection","spec":"kernel=0.5","before":1000,"after":1000}
OUT
}

@test "across an OpenMP lock: the next holder acquires it sooner when the holder's work is halved" {
	# Thread 0 holds the lock from 610 and computes inside (640..700),
	# releases it at 710; thread 1 asks at 630 and acquires it 20 ns after
	# the release (730). Halved, the compute ends at 670, the release
	# comes at 680, the acquire at the later of thread 1's ask (630) and
	# the release, plus 20: 700; both threads end 30 earlier (870).
	run project cuda lock --scale compute=0.5
	assert_success
	run grep -E '"lock_|"type":"lock"|projection' <<< "$output"
	assert_output - <<'OUT'
{"k":"lock_acquire","id":3,"t":610,"s":0,"lock":1}
{"k":"lock_release","id":9,"t":680,"s":0,"lock":1}
{"k":"lock_acquire","id":11,"t":700,"s":1,"lock":1}
{"k":"edge","from":9,"to":11,"type":"lock"}
{"k":"projection","spec":"compute=0.5","before":900,"after":870}
OUT
}

@test "a projection past the times a stream holds: one line naming the event, exit 1, no undefined sum (turn4)" {
	# main spans -2^62 .. 2^62 - 1: twice as long it would end 2^63 ns past its start
	run --separate-stderr bash -c "tr-deps < '$DATA/repros/project-full-range.ndjson' | tr-project --scale main=2 | tr-cat -J"
	assert_failure
	[[ $stderr == "tr-project: <stdin>: event 1 at t=4611686018427387903 would move out of the times a stream may hold ([-2^62, 2^62) ns)"* ]] ||
		fail "$stderr"
	# as it is, the same stream passes
	run --separate-stderr bash -c "tr-deps < '$DATA/repros/project-full-range.ndjson' | tr-project --scale main=1 | tr-cat --check"
	assert_success
}
