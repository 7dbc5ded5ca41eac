#!/usr/bin/env bats
# The seed paper's own check (Schmitt et al. 2017, Figure 10 and Table 1)
# on generated OTF2 archives through the whole pipeline: a Jacobi run with
# 10 % and with 90 % of each iteration's work offloaded (bench/gen-otf2 -f:
# 4 ranks of 4 threads, 20 iterations, a 1 GHz clock so that times are
# exact ns). Per iteration and rank, from T: cuLaunchKernel T .. T+5000, the
# kernel from T+3000 for 1000 * P ns; the threads compute the rest from
# T+5130 (loop enter) and the host reaches its cuStreamSynchronize at
# T+5220 + 1000 * (100 - P); the sync returns 300 ns after the later of
# that and the kernel's end. Every number below follows from that.

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# Analyse the run with P % offloaded into $TMP/P.tr.
offload_run() {
	set -o pipefail
	gen-otf2 -f "$1" -i 20 -R 1000000000 "$TMP/g$1/trace"
	tr-read -M "$TMP/g$1/trace.otf2" | tr-deps -M | tr-waits -M | tr-critpath -M > "$TMP/$1.tr"
}

# "NAME CP BLAME RATING(4 places)" of the rating rows named.
rows() {
	tr-rank --json -n 0 "$TMP/$1.tr" | jq -r --arg re "$2" 'select(.k == "rating" and (.name | test($re))) |
		"\(.name) \(.cp) \(.blame) \(.rating * 10000 | round / 10000)"'
}

# The crit pieces on GPU streams: "COUNT NS".
gpu_pieces() {
	tr-cat -J "$TMP/$1.tr" | jq -r -n '[inputs] |
		(map(select(.k == "stream" and .type == "gpu") | .id)) as $gpu |
		map(select(.k == "crit" and (.s | IN($gpu[])))) | "\(length) \(map(.dur) | add // 0)"'
}

@test "90 % offloaded: the kernel rates first, the path goes through every kernel" {
	offload_run 90
	# the path each iteration: the launch T .. T+3000 (its transit to the
	# kernel's start), the kernel 90000, the sync's 300 after it: the kernel
	# 20 x 90000 on the path, the launch 20 x 3000. Each sync waits for the
	# kernel from T+15220 to T+93000: blame_kernel 77780, 80 of them.
	# The ranks start 1000 ns apart: in the first Sendrecv two late
	# receivers (1000 each) and a late sender (3000) are blamed on ranks 2
	# and 3 since their MPI_Init (through the threads' barrier): main 500,
	# cuMemAlloc 9900, the copy 30000, the launch 5000, the parallel region
	# 60, the loop 10000, the sync 78080 (133540). The launch's part:
	# 1000*5000/133540 = 37.4 -> 37, twice, and 3000*5000/133540 = 112.3 ->
	# 112: 186, of 14000 ns of waiting in all (rating + 0.0000).
	run rows 90 '^(jacobi_kernel|cuLaunchKernel)$'
	assert_line --index 0 "jacobi_kernel 1800000 6222400 1.7841"
	assert_line --index 1 "cuLaunchKernel 60000 186 0.0262"
	# on GPU streams: the 20 kernels. The setup's blocking host-to-device
	# copy (29000 ns, before the loop) is not: its call does not wait for
	# it (pageable memory: tr-deps(1)), so the path stays in the call
	run gpu_pieces 90
	assert_output "20 1800000"
	run bash -c "tr-rank -n 1 '$TMP/90.tr' | sed -n 3p"
	assert_output --regexp '^ +1 +jacobi_kernel '
}

@test "10 % offloaded: every kernel rates 0, the path stays on the host" {
	offload_run 10
	# the kernel (T+3000 .. T+13000) ends long before the sync is reached
	# (T+95220): no wait, the path stays with the threads' loop, 20 x 90000
	# The first Sendrecv's waits (above) on ranks 2 and 3 since MPI_Init:
	# main 500, cuMemAlloc 9900, the copy 30000, the launch 5000, the
	# parallel region 60, the loop 90000, the sync 300 (135760). The loop,
	# the largest share, gets what rounding leaves: 1000*90000/135760 =
	# 662.9 -> 662 + 5 = 667, twice, and 3000*90000/135760 = 1988.8 -> 1988
	# + 4 = 1992: 3326 of 14000 (+ 0.2376 on its path share 0.7713); the
	# launch 36 + 36 + 110 = 182 (+ 0.0130).
	run rows 10 '^(jacobi_kernel|!\$omp for @jacobi.c:175|cuLaunchKernel)$'
	assert_line "jacobi_kernel 0 0 0"
	assert_line --index 0 '!$omp for @jacobi.c:175 1800000 3326 1.0089'
	assert_line "cuLaunchKernel 100000 182 0.0559"
	# nothing on GPU streams (the setup's copy's call keeps the path)
	run gpu_pieces 10
	assert_output "0 0"
	# the GPU idles after each kernel until its late sync (blame_sync, idle,
	# not waiting): T+13000 .. T+95220, 82220 x 80
	run bash -c "tr-rank --json '$TMP/10.tr' | jq -c 'select(.k == \"wait_summary\" and .pattern == \"blame_sync\") | [.count, .ns]'"
	assert_output "[80,6577600]"
}
