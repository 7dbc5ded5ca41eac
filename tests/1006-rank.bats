#!/usr/bin/env bats
# tr-rank: the activity rating and the pattern summary, on hand-built
# scenarios through the whole pipeline (numbers computed by hand below);
# the README's walk through the rating is what it prints.

load common

# A Jacobi-like offload loop of N iterations (CUDA defs: host stream 0,
# GPU stream 2): launch (10 ns), the kernel runs KERNEL ns from 10 ns
# after the launch's end; the host computes HOST ns, then synchronizes;
# the sync returns 5 ns after the kernel ended (or after its own enter).
offload_loop() {
	local n=$1 host=$2 kernel=$3

	awk -v n="$n" -v c="$host" -v k="$kernel" 'function ev(t, s, line) {
			printf "%d %d %06d\t%s\n", t, s, seq++, line }
		BEGIN {
			t = 0
			ev(0, 0, "\"k\":\"enter\",\"t\":0,\"s\":0,\"r\":0")
			for (i = 0; i < n; i++) {
				ev(t, 0, "\"k\":\"enter\",\"t\":" t ",\"s\":0,\"r\":1,\"ref_stream\":2")
				ev(t + 10, 0, "\"k\":\"leave\",\"t\":" t + 10 ",\"s\":0,\"r\":1")
				ev(t + 20, 2, "\"k\":\"enter\",\"t\":" t + 20 ",\"s\":2,\"r\":2")
				ev(t + 20 + k, 2, "\"k\":\"leave\",\"t\":" t + 20 + k ",\"s\":2,\"r\":2")
				ev(t + 10, 0, "\"k\":\"enter\",\"t\":" t + 10 ",\"s\":0,\"r\":11")
				ev(t + 10 + c, 0, "\"k\":\"leave\",\"t\":" t + 10 + c ",\"s\":0,\"r\":11")
				ev(t + 10 + c, 0, "\"k\":\"enter\",\"t\":" t + 10 + c ",\"s\":0,\"r\":3,\"ref_stream\":2")
				end = (t + 20 + k > t + 10 + c ? t + 20 + k : t + 10 + c) + 5
				ev(end, 0, "\"k\":\"leave\",\"t\":" end ",\"s\":0,\"r\":3")
				t = end
			}
			ev(t, 0, "\"k\":\"leave\",\"t\":" t ",\"s\":0,\"r\":0")
		}' | sort -k1,1n -k2,2n -k3,3n | cut -f2 |
		awk '{ printf "{\"id\":%d,%s}\n", NR - 1, $0 }'
}

# The rating rows of the loop, as name:cp_blame:cp_idle (blame and idle blame on the path).
cpath_loop() {
	set -o pipefail
	{ cat "$DATA/cuda/defs.ndjson"; offload_loop "$@"; } | tr-deps -M | tr-waits -M |
		tr-critpath -M | tr-rank --json -n 0 |
		jq -r 'select(.k == "rating") | "\(.name):\(.cp_blame):\(.cp_idle)"'
}

# The rating rows of the loop, as name:cp:blame:rating (4 decimals).
rate_loop() {
	set -o pipefail
	{ cat "$DATA/cuda/defs.ndjson"; offload_loop "$@"; } | tr-deps -M | tr-waits -M |
		tr-critpath -M | tr-rank --json -n 0 |
		jq -r 'select(.k == "rating") | "\(.name):\(.cp):\(.blame):\(.rating * 10000 | round / 10000)"'
}

# tr-rank's text table of the loop.
text_loop() {
	set -o pipefail
	{ cat "$DATA/cuda/defs.ndjson"; offload_loop "$@"; } | tr-deps | tr-waits |
		tr-critpath | tr-rank
}

@test "Table 1, GPU-bound: the kernel is on top" {
	# 3 iterations of 825 ns: host compute 100, kernel 800. The path per
	# iteration: launch 0..10, its transit to the kernel on the GPU stream
	# in no activity 10..20 (queued), kernel 20..820, and its transit to the
	# sync's end on the sync 820..825 (the kernel ended): kernel 3 x 800 =
	# 2400, launch 30, sync 15.
	# Blame: each sync waits 110..820 = 710 for the kernel (blame_kernel,
	# 2130: all the wait-state blame); the GPU idles 25 ns between kernels
	# twice (gpu_idle, 50, on the host's sync, launch and compute: idle
	# blame, apart). Kernel: 2400/2475 + 2130/2130 = 1.969697.
	run --separate-stderr rate_loop 3 100 800
	assert_success
	assert_line --index 0 "kernel:2400:2130:1.9697"
	assert_line --index 1 "cuLaunchKernel:30:0:0.0121"
	assert_line --index 2 "cuStreamSynchronize:15:0:0.0061"
	run text_loop 3 100 800
	assert_success
	assert_line --index 0 "<stdin>: run 0.000002475 s, critical path 0.000002475 s, waiting 0.000002130 s, blame 0.000002130 s (0.000002130 s on the path), GPU idle 0.000000050 s"
	assert_line --regexp '^blame_kernel +3 +0\.000002130 '
	assert_line --regexp '^gpu_idle +2 +0\.000000050 '
	# blame on the path: the kernels (800 exclusive, all on the path) all
	# their 2130; of the idle blame the launches after a kernel (10 of 10
	# on the path) their 10 each; the syncs 5 * 5 / 715 = 0 (5 of their
	# 715 on the path), the host's compute none (not on the path)
	run cpath_loop 3 100 800
	assert_output - <<'OUT'
kernel:2130:0
cuLaunchKernel:0:20
cuStreamSynchronize:0:0
main:0:0
compute:0:0
OUT
}

@test "Table 1, CPU-bound: the host's compute is on top, the kernel rates 0" {
	# 3 iterations of 815 ns: host compute 800, kernel 100: the path stays
	# on the host (launch 10, compute 800, sync 5 each, run 2445): compute
	# 2400, 2400/2445 = 0.981595. No host activity waits: no wait-state
	# blame. The GPU is idle instead: after each kernel until its late
	# sync (blame_sync, 690 each, on the sync) and, between kernels, while
	# the host computes (gpu_idle 715 twice: 690 on compute, 5 on the
	# sync, 10 each on launch and compute). The kernel rates 0.
	run --separate-stderr rate_loop 3 800 100
	assert_success
	assert_line --index 0 "compute:2400:0:0.9816"
	assert_line "kernel:0:0:0"
	run --separate-stderr text_loop 3 800 100
	assert_line --index 0 "<stdin>: run 0.000002445 s, critical path 0.000002445 s, waiting 0.000000000 s, blame 0.000000000 s (0.000000000 s on the path), GPU idle 0.000001430 s"
	assert_line --regexp '^blame_sync +3 +0\.000002070 '
	assert_line --regexp '^ +1 +compute +3 .* 0\.000000000 +0\.000001400 +0\.9816$'
	# every activity with idle blame lies on the path whole: all of it there
	run cpath_loop 3 800 100
	assert_output - <<'OUT'
compute:0:1400
cuLaunchKernel:0:20
cuStreamSynchronize:0:2080
main:0:0
kernel:0:0
OUT
}

@test "--idle rates idle blame as blame: a share of wait-state and idle blame together" {
	# The CPU-bound loop: idle blame 3500 (blame_sync 2070, gpu_idle
	# 1430): compute 1400 (0.4), the sync 2070 + 10 = 2080 (0.594286),
	# launch 20. compute 0.981595 + 0.4; the sync 15/2445 + 0.594286.
	set -o pipefail
	run bash -c "{ cat '$DATA/cuda/defs.ndjson'; $(declare -f offload_loop); offload_loop 3 800 100; } |
		tr-deps | tr-waits | tr-critpath | tr-rank --idle --json -n 0 |
		jq -r 'select(.k == \"rating\") | \"\\(.name):\\(.idle):\\(.blame_share * 1e6 | round):\\(.rating * 10000 | round / 10000)\"'"
	assert_success
	assert_line --index 0 "compute:1400:400000:1.3816"
	assert_line --index 1 "cuStreamSynchronize:2080:594286:0.6004"
}

@test "-n, -e, --csv: rows limited, blame split by pattern" {
	# the GPU idles between kernels on the host's sync after its
	# blame_kernel wait ended (the two do not overlap): no idle_under column
	set -o pipefail
	{ cat "$DATA/cuda/defs.ndjson"; offload_loop 3 100 800; } | tr-deps | tr-waits |
		tr-critpath > "$BATS_TEST_TMPDIR/a"
	run tr-rank -n 1 -e --csv "$BATS_TEST_TMPDIR/a"
	assert_success
	assert_line --index 0 "kind,name,region,calls,excl_ns,cp_ns,cp_share,blame_ns,blame_share,cp_blame_ns,idle_ns,idle_share,cp_idle_ns,rating,blame_blame_kernel_ns,pattern,count,ns,min_ns,max_ns,most_process"
	assert_line --index 1 "run,,,,2475,2475,,2130,,2130,50,,20,,,,,2130,,,"
	assert_line --index 2 --regexp '^rating,"kernel",2,3,2400,2400,0\.969697,2130,1\.000000,2130,0,0\.000000,0,1\.969697,2130,,,,,,$'
	# the path's 30 ns on the GPU stream between the launches and their kernels, in no row
	assert_line --index 3 "outside,GPU streams between activities,,,,30,0.012121,,,,,,,,,,,,,,"
	assert_line --index 4 "wait_summary,,,,,,,,,,,,,,,blame_kernel,3,2130,2130,2130,0"
	assert_line --index 5 "wait_summary,,,,,,,,,,,,,,,gpu_idle,2,50,50,50,0"
	[ "${#lines[@]}" -eq 6 ]
}

@test "--json is a valid stream; --diff tells what gained and lost" {
	set -o pipefail
	for run in gpu:100:800 cpu:800:100; do
		IFS=: read -r name host kernel <<< "$run"
		{ cat "$DATA/cuda/defs.ndjson"; offload_loop 3 "$host" "$kernel"; } |
			tr-deps | tr-waits | tr-critpath | tr-rank --json -e > "$BATS_TEST_TMPDIR/$name.json"
		tr-cat --check "$BATS_TEST_TMPDIR/$name.json"
	done
	run tr-rank --diff --json "$BATS_TEST_TMPDIR/gpu.json" "$BATS_TEST_TMPDIR/cpu.json"
	assert_success
	# the kernel lost its whole rating, the compute gained most
	assert_line --index 0 --regexp '^\{"k":"header",'
	assert_line --index 1 --regexp '^\{"k":"rating_diff","name":"kernel","cp_a":2400,"cp_b":0,"blame_a":2130,"blame_b":0,'
	run tr-rank --diff "$BATS_TEST_TMPDIR/gpu.json" "$BATS_TEST_TMPDIR/cpu.json"
	assert_success
	# the runs first (issue 59): gpu's 3 steps of 100 host and 800 kernel
	# against cpu's 800 and 100, as each rating's run_summary has them;
	# then the regions, largest change of seconds (path and blame) first
	read -r ra ca wa <<< "$(jq -r 'select(.k == "run_summary") | "\(.runtime) \(.cp) \(.waiting)"' "$BATS_TEST_TMPDIR/gpu.json")"
	read -r rb cb wb <<< "$(jq -r 'select(.k == "run_summary") | "\(.runtime) \(.cp) \(.waiting)"' "$BATS_TEST_TMPDIR/cpu.json")"
	assert_line --index 0 "$(awk -v ra="$ra" -v rb="$rb" -v ca="$ca" -v cb="$cb" -v wa="$wa" -v wb="$wb" 'BEGIN {
		printf "run %.9f s -> %.9f s (%+.2f %%), critical path %.9f s -> %.9f s (%+.2f %%), waiting %.9f s -> %.9f s (%+.2f %%)",
			ra / 1e9, rb / 1e9, 100 * (rb - ra) / ra, ca / 1e9, cb / 1e9, 100 * (cb - ca) / ca, wa / 1e9, wb / 1e9, 100 * (wb - wa) / wa }')"
	assert_line --index 2 --regexp '^kernel +0\.000002400 +-0\.000002400 +0\.000002130 +-0\.000002130 +-1\.9697$'
}

@test "bad input: one line, exit 1; a missing diff side too" {
	printf '%s\n' '{"k":"region","id":0,"name":"main","role":"cpu"}' \
		'{"k":"blame","to":0,"ns":5,"pattern":"late_sender","wait":0}' > "$BATS_TEST_TMPDIR/bad"
	run --separate-stderr tr-rank "$BATS_TEST_TMPDIR/bad"
	assert_failure 1
	assert_equal "$stderr" "tr-rank: $BATS_TEST_TMPDIR/bad: line 2: blame without the region of its activity ('r': from tr-waits 0.1.0 or later)"
	run --separate-stderr tr-rank --diff "$BATS_TEST_TMPDIR/none.json" "$BATS_TEST_TMPDIR/bad"
	assert_failure 1
	[[ "$stderr" == "tr-rank: $BATS_TEST_TMPDIR/none.json: "* ]]
	# an analysed stream is rated as tr-rank rates it: against itself, no change
	run --separate-stderr tr-rank --diff "$DATA/repros/c10-analysed.tr" "$DATA/repros/c10-analysed.tr"
	assert_success
	[ "${#lines[@]}" -eq "$(($(tr-rank --json -n 0 "$DATA/repros/c10-analysed.tr" | grep -c '"k":"rating"') + 2))" ]
	assert_line --index 0 --regexp '^run ([0-9.]+) s -> \1 s \(\+0\.00 %\), critical path ([0-9.]+) s -> \2 s \(\+0\.00 %\), waiting ([0-9.]+) s -> \3 s \(\+0\.00 %\)$'
	run bash -c "tr-rank --diff '$DATA/repros/c10-analysed.tr' '$DATA/repros/c10-analysed.tr' | awk 'NR > 2 && \$NF != \"+0.0000\"'"
	assert_output ""
	# a rating without rating records (turn3 F10: an empty table, exit 0, and qsort of NULL)
	tr-rank --json "$DATA/repros/c10-analysed.tr" | grep -v '"k":"rating"' > "$BATS_TEST_TMPDIR/none.ndjson"
	run --separate-stderr tr-rank --diff "$BATS_TEST_TMPDIR/none.ndjson" "$DATA/repros/c10-analysed.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-rank: $BATS_TEST_TMPDIR/none.ndjson: holds no rating records (give an analysed stream or tr-rank --json output)"
	assert_output ""
	# a stream not analysed: what to run first
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" | tr-deps > "$BATS_TEST_TMPDIR/deps.tr"
	run --separate-stderr tr-rank --diff "$BATS_TEST_TMPDIR/deps.tr" "$DATA/repros/c10-analysed.tr"
	assert_failure 1
	[[ "$stderr" == *"has not been through tr-waits"* ]]
	run --separate-stderr tr-rank -n x
	assert_failure 2
	# nonsense options are usage errors, not quietly taken
	run --separate-stderr tr-rank -n -1 "$BATS_TEST_TMPDIR/bad"
	assert_failure 2
	assert_equal "$stderr" "tr-rank: -n -1: give a number of rows (0: all)"
	run --separate-stderr tr-rank -n 4294967296 "$BATS_TEST_TMPDIR/bad"
	assert_failure 2
	run --separate-stderr tr-rank --csv --json "$BATS_TEST_TMPDIR/bad"
	assert_failure 2
	assert_equal "$stderr" "tr-rank: --csv and --json exclude each other"
}

@test "GPU idle blame, two host threads and an MPI wait: split among the routines that ran, apart in every output" {
	# tests/data/idle/gpu-idle-mpi.ndjson: rank 0 (master 0, thread 1,
	# GPU stream 2) and rank 1 (3). Rank 0's MPI_Recv (8) waits 250..550
	# for rank 1's late send: late_sender 300, blamed on rank 1's compute
	# (3), all that ran there before it. The GPU idles from the first
	# kernel's end (200) to the second's start (670): 470, split equally
	# among the busy host threads: 200..250 main (0) and compute (1) 25
	# each; 250..400 the Recv and compute 75 each; 400..600 the Recv 200;
	# 600..650 main 50; 650..660 the launch (16) 10; 660..670 main 10.
	# main 85, compute 100, MPI_Recv 275, launch 10: 470, blocking call
	# included. None of it is waiting, blame or rating.
	set -o pipefail
	tr-deps "$DATA/idle/gpu-idle-mpi.ndjson" | tr-waits > "$BATS_TEST_TMPDIR/w.tr"
	run bash -c "tr-cat -J '$BATS_TEST_TMPDIR/w.tr' | grep -E '\"k\":\"(wait|idle|blame)\"'"
	assert_output - <<'OUT'
{"k":"wait","at":8,"t":250,"dur":300,"pattern":"late_sender","s":0,"cause":12,"r":3}
{"k":"blame","to":3,"r":5,"ns":300,"pattern":"late_sender","wait":8,"s":3}
{"k":"idle","at":6,"t":200,"dur":470,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":0,"r":0,"ns":85,"pattern":"gpu_idle","wait":6,"s":0}
{"k":"blame","to":1,"r":5,"ns":100,"pattern":"gpu_idle","wait":6,"s":1}
{"k":"blame","to":8,"r":3,"ns":275,"pattern":"gpu_idle","wait":6,"s":0}
{"k":"blame","to":16,"r":1,"ns":10,"pattern":"gpu_idle","wait":6,"s":0}
OUT
	tr-critpath "$BATS_TEST_TMPDIR/w.tr" > "$BATS_TEST_TMPDIR/a.tr"
	run bash -c "tr-rank --json -n 0 '$BATS_TEST_TMPDIR/a.tr' | jq -c -r '
		select(.k == \"run_summary\") // select(.k == \"rating\") | [.name, .blame, .idle]'"
	assert_output - <<'OUT'
[null,300,470]
["compute",300,100]
["main",0,85]
["MPI_Send",0,0]
["cuLaunchKernel",0,10]
["kernel",0,0]
["MPI_Recv",0,275]
OUT
	run bash -c "tr-rank -n 0 '$BATS_TEST_TMPDIR/a.tr'"
	# compute on rank 1's path whole: its 300 all on the path; the idle blame on none
	assert_line --index 0 "$BATS_TEST_TMPDIR/a.tr: run 0.000001000 s, critical path 0.000001000 s, waiting 0.000000300 s, blame 0.000000300 s (0.000000300 s on the path), GPU idle 0.000000470 s"
	assert_line --regexp '^ +6 +MPI_Recv +1 .* 0\.000000000 +0\.00% +0\.000000000 +0\.000000275 +0\.0000$'
	run bash -c "tr-rank --csv -n 0 '$BATS_TEST_TMPDIR/a.tr' | grep '^rating,\"MPI_Recv\"'"
	assert_output 'rating,"MPI_Recv",3,1,350,0,0.000000,0,0.000000,0,275,0.585106,0,0.000000,,,,,,'
	# tr-otf2: GPU Idle Blame and GPU Idle Time apart from Blame and Waiting Time
	tr-otf2 -o "$BATS_TEST_TMPDIR/o/a" "$BATS_TEST_TMPDIR/a.tr"
	run bash -c "tr-read -J '$BATS_TEST_TMPDIR/o/a.otf2' | jq -s -c '
		(map(select(.k == \"counter\")) | map({key: (.id | tostring), value: .name}) | from_entries) as \$c |
		map(select(.k == \"sample\" and \$c[.counter | tostring] != \"Critical Path\")) | group_by(.counter) |
		map({(\$c[.[0].counter | tostring]): (map(.val) | add * 1e9 | round)}) | add'"
	assert_output '{"Blame":300,"Waiting Time":300,"GPU Idle Blame":470,"GPU Idle Time":470}'
}

@test "-e: idle blame on a call in a wait state under that wait's pattern, whichever record comes first" {
	# gpu-idle-mpi: the Recv's late_sender wait (decided at 550) comes before
	# the idle period's blame (decided at 670): its 275 of idle blame lie
	# under late_sender (the whole activity's, its 550..600 too).
	# idle-before-wait: the GPU idles 50..320 (a kernel 20..50, the next at
	# 320) while rank 0's master is in main 50..100 then MPI_Recv, and
	# thread 1 computes and launches: 270 split equally, main 25, the Recv
	# 110 (100..320), compute 125 + 5, the launch 5; written at 320, before
	# the Recv's late_sender wait (100..490, decided at the receive, 500).
	# The Recv's 110 lie under late_sender; compute's 130 under none.
	set -o pipefail
	for case in gpu-idle-mpi:275 idle-before-wait:110; do
		IFS=: read -r name under <<< "$case"
		tr-deps "$DATA/idle/$name.ndjson" | tr-waits | tr-critpath > "$BATS_TEST_TMPDIR/a.tr"
		run bash -c "tr-rank -e --json -n 0 '$BATS_TEST_TMPDIR/a.tr' | jq -c -r '
			select(.k == \"rating\" and .idle > 0) | [.name, .idle, .idle_by]'"
		assert_success
		assert_line "[\"MPI_Recv\",$under,{\"late_sender\":$under}]"
		assert_line --regexp '^\["compute",[0-9]+,\{\}\]$'
		run tr-rank -e "$BATS_TEST_TMPDIR/a.tr"
		assert_line --index 1 --regexp ' late_sender idle@late_sender$'
		assert_line --regexp "^ +[0-9]+ +MPI_Recv .* 0\.000000000 +0\.000000$under\$"
		run bash -c "tr-rank -e --csv -n 0 '$BATS_TEST_TMPDIR/a.tr' | grep -E '^(kind|rating,\"MPI_Recv\")'"
		assert_line --index 0 --partial ',blame_late_sender_ns,idle_under_late_sender_ns,pattern,'
		assert_line --index 1 --regexp ",0,$under,,,,,,\$"
	done
	run bash -c "tr-rank -e --json -n 0 '$BATS_TEST_TMPDIR/a.tr' | jq -c 'select(.k == \"rating\" and .name == \"compute\") | .idle'"
	assert_output 130
}

@test "long region names keep the table's columns: their start and end shown, cut at characters" {
	long='void ns::detail::very_long_template_name<std::vector<double>>::apply(int, double*) [clone]'
	utf='rechnung_für_größere_übergänge_mit_äußerst_langem_namen_ÿ'
	{
		grep -v '"k":"region","id":14,' "$DATA/mpi/defs.ndjson"
		echo "{\"k\":\"region\",\"id\":14,\"name\":\"$long\",\"role\":\"cpu\"}"
		echo "{\"k\":\"region\",\"id\":15,\"name\":\"$utf\",\"role\":\"cpu\"}"
		cat <<'IN'
{"k":"enter","id":0,"t":0,"s":0,"r":0}
{"k":"enter","id":1,"t":10,"s":0,"r":14}
{"k":"leave","id":2,"t":60,"s":0,"r":14}
{"k":"enter","id":3,"t":70,"s":0,"r":15}
{"k":"leave","id":4,"t":90,"s":0,"r":15}
{"k":"leave","id":5,"t":100,"s":0,"r":0}
IN
	} | tr-deps | tr-waits | tr-critpath > "$BATS_TEST_TMPDIR/a.tr"
	tr-rank "$BATS_TEST_TMPDIR/a.tr" > "$BATS_TEST_TMPDIR/table"
	grep -qF 'void ns::detail::v...t, double*) [clone]' "$BATS_TEST_TMPDIR/table"
	grep -qF 'rechnung_für_größe...erst_langem_namen_ÿ' "$BATS_TEST_TMPDIR/table"
	# on every row, counted in characters: the name in 40, then the calls
	run jq -R -r 'select(test("^ +[0-9]+  ")) | "\(.[46:47] == " ") \(.[47:57] | test("^ *[0-9]+$"))"' \
		"$BATS_TEST_TMPDIR/table"
	assert_output - <<'OUT'
true true
true true
true true
OUT
	# whole in the CSV
	tr-rank --csv "$BATS_TEST_TMPDIR/a.tr" | grep -qF "\"$long\""
	tr-rank --csv "$BATS_TEST_TMPDIR/a.tr" | grep -qF "\"$utf\""
}

@test "GPU summary by hand: busy, kernels, copies, their overlap, start-up delay on an idle GPU" {
	# tests/data/rank/gpu-usage.ndjson: one process, GPU streams 1 and 2.
	# Kernels 50..150 (s1), 180..300 (s1), 315..400 (s1), 500..600 (s2),
	# 550..650 (s1); a copy 100..200 (s2). Busy: 50..300, 315..400,
	# 500..650 = 250 + 85 + 150 = 485 of the run's 700 (69.29%); a kernel
	# running: 100 + 120 + 85 + 150 = 455; the copy beside a kernel
	# 100..150 and 180..200 = 70; two kernels at once 550..600 = 50.
	# Start-up on an idle GPU: the first kernel, 20 (its launch returned)
	# to 50: 30; the kernel of 500, launched 410..420 on a GPU idle since
	# 400: 420 to 500, 80. Not counted: the kernel of 180 (the copy ran),
	# of 315 (it began before its launch returned at 320), of 550 (the
	# kernel of 500 ran).
	tr-deps "$DATA/rank/gpu-usage.ndjson" | tr-waits | tr-critpath > "$BATS_TEST_TMPDIR/a.tr"
	run bash -c "tr-rank --json '$BATS_TEST_TMPDIR/a.tr' | jq -c 'select(.k == \"gpu_summary\")'"
	assert_output '{"k":"gpu_summary","process":0,"name":"MPI Rank 0","busy":485,"kernels":5,"kernel":455,"copies":1,"copy":100,"copy_kernel":70,"kernel_kernel":50,"startups":2,"startup":110}'
	run bash -c "tr-rank '$BATS_TEST_TMPDIR/a.tr' | sed -n '/^GPU/,\$p'"
	assert_output - <<'OUT'
GPU (of the processes that used one)    count         time [s]  
busy (kernels or copies)                           0.000000485  69.29% of the run, per process
kernels                                     5      0.000000455
copies and sets                             1      0.000000100
copies beside kernels                              0.000000070  70.00% of the copy time
kernels beside kernels                             0.000000050
kernel start-up on an idle GPU              2      0.000000110  0.000055 ms per kernel so started
early synchronization (blame_kernel)        0      0.000000000
late synchronization (blame_sync)           0      0.000000000
OUT
	# the regions on the host and on the GPU apart: launches and main; kernels and the copy
	run bash -c "tr-rank '$BATS_TEST_TMPDIR/a.tr' | grep '^      all '"
	assert_line --index 0 --regexp '^      all 3 regions on the host +7 +0\.000000700 '
	assert_line --index 1 --regexp '^      all 2 regions on GPUs +6 +0\.000000605 '
	tr-rank --json "$BATS_TEST_TMPDIR/a.tr" | tr-cat --check
}

@test "who waited most per pattern, and the least and most any process waited" {
	tr-deps "$DATA/idle/gpu-idle-mpi.ndjson" | tr-waits | tr-critpath > "$BATS_TEST_TMPDIR/a.tr"
	run tr-rank "$BATS_TEST_TMPDIR/a.tr"
	assert_line "2 processes, 3 host threads, 1 GPU streams; waiting per process from 0.000000000 s (MPI Rank 1) to 0.000000300 s (MPI Rank 0)"
	assert_line --regexp '^late_sender +1 +0\.000000300 +0\.000000000 +0\.000000300  MPI Rank 0$'
	run bash -c "tr-rank --json '$BATS_TEST_TMPDIR/a.tr' | jq -c 'select(.k == \"wait_summary\") | [.pattern, .most]'"
	assert_output - <<'OUT'
["late_sender",0]
["gpu_idle",0]
OUT
	run bash -c "tr-rank --csv '$BATS_TEST_TMPDIR/a.tr' | grep '^wait_summary' | cut -d, -f15-"
	assert_output - <<'OUT'
late_sender,1,300,0,300,0
gpu_idle,1,470,0,470,0
OUT
}

@test "the README's rating (Reading the rating) is what tr-rank prints of the example's run, columns as it says" {
	gen-otf2 -i 20 "$BATS_TEST_TMPDIR/jacobi" > /dev/null
	tr-read "$BATS_TEST_TMPDIR/jacobi.otf2" 2>/dev/null | tr-deps | tr-clock 2>/dev/null | tr-waits | tr-critpath 2>/dev/null \
		> "$BATS_TEST_TMPDIR/jacobi-analysed.tr"
	# the README narrows the region column: compare with runs of spaces squeezed
	(cd "$BATS_TEST_TMPDIR" && tr-rank -n 3 jacobi-analysed.tr) | head -5 | sed 's/^jacobi-analysed/examples\/out\/jacobi-analysed/' |
		tr -s ' ' > "$BATS_TEST_TMPDIR/want"
	sed -n '/^## Reading the rating/,/^- The first line/p' "$TOP/README.md" | sed -n '/^```$/,/^```$/p' | sed '1d;$d' |
		tr -s ' ' > "$BATS_TEST_TMPDIR/got"
	diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	# the words' figures: the rating is cp % + blame %
	grep -q '0.43 + 0.67 = 1.10 for' "$TOP/README.md"
	# and its first row in words is tr-rank -v's
	want=$(cd "$BATS_TEST_TMPDIR" && tr-rank -v -n 3 jacobi-analysed.tr | grep '^ 1\. ')
	grep -qxF -- "$want" "$TOP/README.md" || fail "README lacks: $want"
}

@test "the README's Python (In Python) runs as written on the example's run, and pandas' figures are tr-rank's" {
	local d=$BATS_TEST_TMPDIR py=/usr/bin/python3
	mkdir -p "$d/examples/out"
	gen-otf2 -i 20 "$d/jacobi" > /dev/null
	tr-read "$d/jacobi.otf2" 2>/dev/null | tr-deps | tr-clock 2>/dev/null | tr-waits | tr-critpath 2>/dev/null \
		> "$d/examples/out/jacobi-analysed.tr"
	sed -n '/^## In Python/,/^## Documentation/p' "$TOP/README.md" | awk '/^```sh$/ { f = 1; next } /^```$/ { f = 0 } f' > "$d/run.sh"
	sed -n '/^## In Python/,/^## Documentation/p' "$TOP/README.md" | awk '/^```python$/ { f = 1; next } /^```$/ { f = 0 } f' > "$d/run.py"
	[ -s "$d/run.sh" ] && [ -s "$d/run.py" ]
	# pandas comes with make deps (Debian's python3-pandas), for this test only
	(cd "$d" && sh run.sh && "$py" run.py) > "$d/out" || fail "$(cat "$d/out")"
	# the rating's first three rows: tr-rank's names and shares
	tr-rank --csv "$d/examples/out/jacobi-analysed.tr" > "$d/want.csv"
	"$py" -c 'import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["kind"] == "rating"][:3]
for r in rows: print(r["name"], r["cp_share"], r["blame_share"], r["rating"])' "$d/want.csv" > "$d/want"
	sed -n '2,4p' "$d/out" | sed -E 's/^ +//; s/ +/ /g' > "$d/got"
	diff "$d/want" "$d/got"
	# the waiting per pattern: tr-rank's totals of the wait patterns (GPU idle apart), most first
	awk -F, '$1 == "wait_summary" && $15 != "gpu_idle" { printf "%s %.6f\n", $15, $17 / 1e9 }' "$d/want.csv" |
		sort -k2,2gr > "$d/want-waits"
	sed -n '/^pattern$/,$p' "$d/out" | sed 1d | sed -E 's/ +/ /g' > "$d/got-waits"
	diff "$d/want-waits" "$d/got-waits"
	[ "$(wc -l < "$d/got-waits")" -ge 5 ]
}

@test "-v: the first rows in words, every fact by hand (tests/data/words/told.ndjson)" {
	# A hand-made analysed stream. Path 1000 us: solve 100 on main A and 300
	# on main B (40 %, 25/75), MPI_Recv 100 and main 500 on main A. Blame:
	# rank A's MPI_Recv waited 200 for solve (late_sender); rank B's
	# MPI_Barrier waited 50, 30 of it on solve and 20 on main
	# (wait_barrier); a wait without its region ("r", older streams) put 10
	# on solve; the GPU's idleness 40 on solve. solve: 240 of 260 = 92.31 %.
	run tr-rank -v "$DATA/words/told.ndjson"
	assert_success
	run bash -c "tr-rank -v '$DATA/words/told.ndjson' | sed -n '/^In words:/,\$p'"
	assert_output - <<'OUT'
In words:
 1. solve: 40.00 % of the critical path (0.000400 s), on main B of rank B (75 %) and main A of rank A (25 %). 0.000240 s of blame (92.31 % of all): MPI_Recv on rank A waited for it 0.000200 s (late_sender); MPI_Barrier on rank B waited for it 0.000030 s (wait_barrier); other waits 0.000010 s. Apart from wait states, 0.000040 s of GPU idle blame: the GPU sat idle while it ran (gpu_idle).
 2. main: 50.00 % of the critical path (0.000500 s), on main A of rank A. 0.000020 s of blame (7.69 % of all): MPI_Barrier on rank B waited for it 0.000020 s (wait_barrier).
 3. MPI_Recv: 10.00 % of the critical path (0.000100 s), on main A of rank A. No wait state was blamed on it.

The patterns:
  late_sender: a receive waited for its message's send to begin. Usually: the sender had more work before the send than the receiver before the receive.
  wait_barrier: a barrier's member waited for the last member to enter. Usually: work unevenly spread over the processes before the barrier.
  gpu_idle: every GPU stream of a process sat idle while its host threads ran. Usually: host work between kernels that is not overlapped with GPU work.
OUT
	# without -v the table alone, as before; -v only with the text table
	run bash -c "tr-rank '$DATA/words/told.ndjson' | grep -c 'In words'"
	assert_output 0
	for form in --csv --json; do
		run tr-rank -v $form "$DATA/words/told.ndjson"
		assert_failure 2
		assert_output "tr-rank: -v tells the rating in words beside its text table: not with --csv, --json or --diff"
	done
}

@test "-v on a corpus run: each fact in the words is the table's figure" {
	require_corpus
	set -o pipefail
	tr-analyze -q --stream "$BATS_TEST_TMPDIR/a.tr" \
		"$CORPUS/otf2/casita-2_jacobi_blame_cpu_015/traces.otf2" > /dev/null
	tr-rank -v "$BATS_TEST_TMPDIR/a.tr" > "$BATS_TEST_TMPDIR/out"
	# rows 1..3 of the table: region, cp [s], cp %, blame [s], blame %
	# (a name of one word here); the words: the same, cp and blame to 6 places
	awk '$1 ~ /^[123]$/ && NF == 11 { printf "%s %.6f %s %.6f %s\n", $2, $5, $6, $7, $8 }' \
		"$BATS_TEST_TMPDIR/out" > "$BATS_TEST_TMPDIR/table"
	sed -n 's/^ [123]\. \([^ ]*\): \([0-9.]*\) % of the critical path (\([0-9.]*\) s).*\. \([0-9.]*\) s of blame (\([0-9.]*\) % of all).*/\1 \3 \2% \4 \5%/p' \
		"$BATS_TEST_TMPDIR/out" > "$BATS_TEST_TMPDIR/words"
	run cat "$BATS_TEST_TMPDIR/words"
	assert_output "$(cat "$BATS_TEST_TMPDIR/table")"
	assert_line --index 0 "copy_kernel 0.386371 14.33% 0.522418 58.13%"
	# and who waited: the host's copies on both ranks, for the kernel (blame_kernel)
	run grep -c '^ 1\. copy_kernel: .* on CUDA\[0:2\] of MPI Rank 0 ([0-9]* %) and CUDA\[0:2\] of MPI Rank 1 ([0-9]* %)\. .*: cuMemcpyHtoD_v2 on MPI Rank 1 and MPI Rank 0 waited for it 0\.52[0-9]* s (blame_kernel)' "$BATS_TEST_TMPDIR/out"
	assert_output 1
}

@test "-v: groups of waits summed over processes and ordered by it, every process named as such, blame apart from its wait (tests/data/words/apart.ndjson)" {
	# Three ranks. solve is on the path 100 us on each of m0, m1, m2 (30 %,
	# a third each: two streams named, one more). Each rank's MPI_Barrier
	# waits 40 us for another's solve: 120 us over every process, which
	# comes first though its shares (40 us each) are smaller than r0's
	# MPI_Recv's 100 us. A share of 110 us written after the receive's wait
	# but naming r0's barrier wait: who waited is not known. 330 us in all.
	run bash -c "tr-rank -v '$DATA/words/apart.ndjson' | grep '^ 1\\. '"
	assert_output " 1. solve: 30.00 % of the critical path (0.000300 s), on m0 of r0 (33 %), m1 of r1 (33 %) and 1 more stream. 0.000330 s of blame (100.00 % of all): MPI_Barrier on every process waited for it 0.000120 s (wait_barrier); calls not known waited for it 0.000110 s (wait_barrier); other waits 0.000100 s."
}

@test "C++ names as people read them: qualified name alone in the table, the report and the words, told apart where alike; whole in --csv and the report's hover (tests/data/rank/cpp-names.json)" {
	# Five GPU activities one after another, 600, 500, 400, 300 and 200 us:
	# two Thrust kernels whose qualified names are alike, told apart by
	# their first template argument (ParallelForAgent both: numbered in
	# the order of their definitions), a third Thrust kernel
	# (ReduceAgent), an ATen kernel, and a Kineto copy whose name has
	# parentheses but no parameter list (left as it is); a Python frame
	# "module.py(1501): _call_impl" is no signature either.
	local json="$DATA/rank/cpp-names.json"
	run bash -c "tr-analyze '$json' 2> /dev/null | sed -n '4,8p;10p' | cut -c1-46 | sed 's/ *\$//'"
	assert_output - <<'OUT'
   2  thrust::THRUST_20...ParallelForAgent> #1
   3  thrust::THRUST_20...ParallelForAgent> #2
   4  thrust::THRUST_200...educe::ReduceAgent>
   5  at::native::vector..._elementwise_kernel
   6  Memcpy HtoD (Pageable -> Device)
   8  torch/nn/modules/m...y(1501): _call_impl
OUT
	# the words name them whole but for templates and parameters
	run bash -c "tr-analyze -v '$json' 2> /dev/null | grep '^ [23]\\. ' | sed 's/: [0-9.]* % of the critical path.*//'"
	assert_output - <<'OUT'
 2. thrust::THRUST_200_700_NS::cuda_cub::core::_kernel_agent<thrust::THRUST_200_700_NS::cuda_cub::__parallel_for::ParallelForAgent> #1
 3. thrust::THRUST_200_700_NS::cuda_cub::core::_kernel_agent<thrust::THRUST_200_700_NS::cuda_cub::__parallel_for::ParallelForAgent> #2
OUT
	# --csv: the whole names, in the trace's spelling
	run bash -c "tr-analyze --csv '$json' 2> /dev/null | awk -F'\"' '/^rating/ { print \$2 }' | sed -n '2,5p'"
	assert_line --index 0 "$(jq -r '.traceEvents[2].name' "$json")"
	assert_line --index 1 "$(jq -r '.traceEvents[5].name' "$json")"
	assert_line --index 3 "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)"
	# the report: the readable name in the cell, the whole one on hover
	tr-read "$json" | tr-deps | tr-waits | tr-critpath | tr-report > "$BATS_TEST_TMPDIR/r.html" 2> /dev/null
	run grep -c 'title="void at::native::vectorized_elementwise_kernel&lt;4, at::native::FillFunctor&lt;float&gt;, at::detail::Array&lt;char\*, 1&gt; &gt;(int, at::native::FillFunctor&lt;float&gt;, at::detail::Array&lt;char\*, 1&gt;)">at::native::vectorized_elementwise_kernel</td>' "$BATS_TEST_TMPDIR/r.html"
	assert_output 1
	# --diff: its column of 32 (of tr-analyze --json's ratings, as of tr-rank --json's)
	tr-analyze --json "$json" > "$BATS_TEST_TMPDIR/a.json" 2> /dev/null
	run bash -c "tr-rank --diff '$BATS_TEST_TMPDIR/a.json' '$BATS_TEST_TMPDIR/a.json' | cut -c1-33 | grep -e thrust -e at::native | sed 's/ *\$//'"
	assert_output - <<'OUT'
at::native::ve...mentwise_kernel
thrust::THRUS...llelForAgent> #1
thrust::THRUS...llelForAgent> #2
thrust::THRUST...e::ReduceAgent>
OUT
}

@test "the path's time in no activity, host and GPU, in the table, --json, --csv, the words and the report: with the rows, the whole path (tests/data/rank/outside.json, issue 59)" {
	# One host thread, no region around its CUDA calls (us): launch 100..110
	# of k1 (130..230), a sync 150..240; launch 300..310 of k2 (320..420),
	# a sync 330..430. The path, 330: the launch 10, the GPU stream before
	# k1 starts 20, k1 100, the sync's own 10, host code in no region
	# 240..300 60, the launch 10, the GPU stream 10, k2 100, the sync 10.
	# Rows: 20 + 20 on the host (12.12 %), 200 on the GPU (60.61 %); no
	# region: 60 on the host (18.18 %), 30 on the GPU (9.09 %)
	local json="$DATA/rank/outside.json"
	run bash -c "tr-analyze '$json' 2> /dev/null | sed -n '7,10p' | cut -c7-95 | sed 's/  */ /g; s/ *$//'"
	assert_output - <<'OUT'
all 2 regions on the host 4 0.000210000 0.000040000 12.12%
all 2 regions on GPUs 2 0.000200000 0.000200000 60.61%
host code in no region 0.000060000 18.18%
GPU streams between activities 0.000030000 9.09%
OUT
	run bash -c "tr-analyze --json '$json' 2> /dev/null | jq -c 'select(.k == \"run_summary\") | [.cp, .cp_host_outside, .cp_gpu_between]'"
	assert_output "[330000,60000,30000]"
	run bash -c "tr-analyze --csv '$json' 2> /dev/null | grep '^outside,' | cut -d, -f1-7"
	assert_output "outside,host code in no region,,,,60000,0.181818
outside,GPU streams between activities,,,,30000,0.090909"
	run bash -c "tr-analyze -v '$json' 2> /dev/null | grep 'no row above'"
	assert_line --index 0 "0.000060 s of the critical path (18.18 %) is in host code in no region of the trace: code between the calls and ranges it records, which no row above holds; an NVTX range or a user region around it would name it."
	assert_line --index 1 --partial "0.000030 s of the critical path (9.09 %) is on GPU streams between their activities"
	tr-read "$json" | tr-deps | tr-waits | tr-critpath | tr-report > "$TMP/o.html" 2> /dev/null
	run grep -o '<tr><th>path[^<]*</th><td data-ns="[0-9]*"' "$TMP/o.html"
	assert_output '<tr><th>path in host code in no region</th><td data-ns="60000"
<tr><th>path on GPU streams between activities</th><td data-ns="30000"'
}

@test "--diff of runs set up differently (processes, host threads, GPU streams) says so first, tr-report's too (issue 59)" {
	gen-kineto --ranks 2 --steps 2 "$BATS_TEST_TMPDIR/two"
	tr-analyze --json "$DATA/rank/outside.json" > "$BATS_TEST_TMPDIR/a.json" 2> /dev/null
	tr-analyze --json "$BATS_TEST_TMPDIR/two" > "$BATS_TEST_TMPDIR/b.json" 2> /dev/null
	run tr-rank --diff "$BATS_TEST_TMPDIR/a.json" "$BATS_TEST_TMPDIR/b.json"
	assert_success
	# one process with a thread and a stream; two ranks of a thread and two streams each
	assert_line --index 0 "the runs were set up differently: A 1 process, 1 host thread, 1 GPU stream; B 2, 2, 4: a region's change may be the set-up's."
	assert_line --index 1 --regexp '^run '
	tr-report --diff "$BATS_TEST_TMPDIR/a.json" "$BATS_TEST_TMPDIR/b.json" > "$BATS_TEST_TMPDIR/d.html"
	run grep -c "the runs were set up differently: A 1 process, 1 host thread, 1 GPU stream; B 2, 2, 4" "$BATS_TEST_TMPDIR/d.html"
	assert_output 1
	# alike set-ups: nothing said
	run bash -c "tr-rank --diff '$BATS_TEST_TMPDIR/a.json' '$BATS_TEST_TMPDIR/a.json' | grep -c 'set up differently'"
	assert_output 0
	# the GPU streams alone differ: k2 on stream 8 instead of 7
	sed 's/"tid": 7, "ts": 320/"tid": 8, "ts": 320/; s/"correlation": 3, "device": 0, "stream": 7/"correlation": 3, "device": 0, "stream": 8/' \
		"$DATA/rank/outside.json" > "$BATS_TEST_TMPDIR/s8.json"
	tr-analyze --json "$BATS_TEST_TMPDIR/s8.json" > "$BATS_TEST_TMPDIR/c.json" 2> /dev/null
	run bash -c "tr-rank --diff '$BATS_TEST_TMPDIR/a.json' '$BATS_TEST_TMPDIR/c.json' | head -1"
	assert_output "the runs were set up differently: A 1 process, 1 host thread, 1 GPU stream; B 1, 1, 2: a region's change may be the set-up's."
}

@test "--diff orders regions by the seconds they changed, not by their change of rating (a share, which moves when others change)" {
	# two ratings by hand: small gained 10 ns of path but 0.4 of rating
	# (the others shrank); big lost 500 ns and 0.05 of rating: big first
	head='{"k":"header","major":1,"minor":1,"producer":"tr-rank 0.1.0","clock":"ns","stages":[{"tool":"tr-rank","version":"0.1.0","args":["--json"]}]}'
	rating() {
		printf '{"k":"rating","region":%s,"name":"%s","calls":1,"excl":%s,"cp":%s,"cp_share":%s,"blame":0,"blame_share":0.0,"cp_blame":0,"idle":0,"idle_share":0.0,"cp_idle":0,"rating":%s}\n' "$@"
	}
	{ echo "$head"; rating 0 small 100 100 0.5 0.5; rating 1 big 1000 1000 0.1 0.1; echo '{"k":"trailer"}'; } > "$BATS_TEST_TMPDIR/a.json"
	{ echo "$head"; rating 0 small 110 110 0.9 0.9; rating 1 big 500 500 0.05 0.05; echo '{"k":"trailer"}'; } > "$BATS_TEST_TMPDIR/b.json"
	run bash -c "tr-rank --diff '$BATS_TEST_TMPDIR/a.json' '$BATS_TEST_TMPDIR/b.json' | awk 'NR > 1 { print \$1 }'"
	assert_output "big
small"
}

@test "start-up holding most of the path is said, with the window of the run after it (tests/data/rank/startup.ndjson after tests/data/mpi/defs.ndjson, issue 59)" {
	# ranks 0 and 1 (rank 2 of the defs is never seen: its MPI_Init
	# instance is incomplete, no edge): MPI_Init 10..1000 and 10..900,
	# then compute to 1100 and 1150, main to 1200. The path, from rank 1's
	# end: main 1150..1200, compute 1000..1150, main 900..1000, MPI_Init
	# 10..900 (890 of 1200: 74.17 %), main 0..10. The run after the
	# latest MPI_Init's end, 1000 ns: -t 0.000001000s:
	run bash -c "cat '$DATA/mpi/defs.ndjson' '$DATA/rank/startup.ndjson' | tr-deps 2> /dev/null | tr-waits 2> /dev/null |
		tr-critpath | tr-rank | grep -e 'start-up' -e '^   1 '"
	assert_output --regexp '^   1  MPI_Init +2 +0\.000001880 +0\.000000890  74\.17%'
	assert_line --index 1 "      start-up: MPI_Init holds 74.17 % of the critical path; the run after it: -t 0.000001000s:"
	# where it holds less, nothing (a late sender: no MPI_Init on the path)
	run bash -c "cat '$DATA/mpi/defs.ndjson' '$DATA/mpi/late-sender.ndjson' | tr-deps | tr-waits | tr-critpath | tr-rank | grep -c start-up"
	assert_output 0
}
