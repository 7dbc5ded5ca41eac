#!/usr/bin/env bats
# tr-deps and tr-waits on hand-written CUDA and OpenMP scenarios: every
# edge, wait state and blame computed by hand (in the comments) and
# compared exactly. Each scenario is tests/data/cuda/defs.ndjson (one
# process: host threads 0 and 1; GPU streams 2, 3, 4 and the null stream
# 5 of device 0) followed by tests/data/cuda/NAME.ndjson.

load common

analyse() {
	set -o pipefail
	cat "$DATA/cuda/defs.ndjson" "$DATA/cuda/$1.ndjson" |
		tr-deps -M | tr-waits -J |
		grep -E '"k":"(edge|instance|wait|idle|blame)"'
}

@test "blocking memcpy after two async kernels: launch FIFO, sync edges, blame_kernel" {
	# K1 (4) and K2 (8) linked in FIFO order to launches 1 and 3. The copy
	# call (6) waits from 200 until K2 ends at 700: 500, blamed by overlap
	# with [200, 700]: K1 200 (200..400), K2 300. Its own copy (10) is not
	# waited for. The GPU idles 700..710 while the host is in the copy:
	# gpu_idle 10 on the copy call.
	run --separate-stderr analyse blocking-copy
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":4,"type":"launch"}
{"k":"edge","from":3,"to":8,"type":"launch"}
{"k":"idle","at":8,"t":700,"dur":10,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":6,"r":9,"ns":10,"pattern":"gpu_idle","wait":8,"s":0}
{"k":"edge","from":6,"to":10,"type":"launch"}
{"k":"edge","from":9,"to":12,"type":"sync"}
{"k":"edge","from":11,"to":12,"type":"sync"}
{"k":"wait","at":6,"t":200,"dur":500,"pattern":"blame_kernel","s":0,"cause":9,"r":9}
{"k":"blame","to":4,"r":2,"ns":200,"pattern":"blame_kernel","wait":6,"s":2}
{"k":"blame","to":8,"r":2,"ns":300,"pattern":"blame_kernel","wait":6,"s":2}
OUT
}

@test "blocking copies to the device wait for the work before them, not for their own copies, which run after they return" {
	# K1 (3) on stream 2, 120..300. Call A, cudaMemcpy (4, 200..350), names
	# no direction: its copy (7, 360..500), the trace's first, has not begun
	# when A returns (staged pageable memory), so it is not waited for, and
	# it is linked when it comes (launch 4 -> 7), not taken for lost. A
	# waits for K1: 200..300 = 100 (blame_kernel, on K1). Call B,
	# cuMemcpyHtoD (9, 600..650): waits for copy A (sync 8 -> 10, ended
	# before: no wait), not for its own (11, 660..700). Call C, cudaMemcpy
	# (13, 800..850): its copy (14) begins at 820 and ends at 900, after C
	# returned; it ran host to device, so C waits for copy B (12 -> 15),
	# not for it. Stream 2 idles 300..360 (50 in A, 10 in main), 500..660
	# (100 + 10 in main, 50 in B), 700..820 (100 in main, 20 in C).
	run --separate-stderr analyse blocking-copies-to-device
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":3,"type":"launch"}
{"k":"edge","from":5,"to":6,"type":"sync"}
{"k":"wait","at":4,"t":200,"dur":100,"pattern":"blame_kernel","s":0,"cause":5,"r":16}
{"k":"blame","to":3,"r":2,"ns":100,"pattern":"blame_kernel","wait":4,"s":2}
{"k":"idle","at":3,"t":300,"dur":60,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":4,"r":16,"ns":50,"pattern":"gpu_idle","wait":3,"s":0}
{"k":"blame","to":0,"r":0,"ns":10,"pattern":"gpu_idle","wait":3,"s":0}
{"k":"edge","from":4,"to":7,"type":"launch"}
{"k":"edge","from":8,"to":10,"type":"sync"}
{"k":"idle","at":7,"t":500,"dur":160,"pattern":"gpu_idle","s":2,"r":17}
{"k":"blame","to":0,"r":0,"ns":110,"pattern":"gpu_idle","wait":7,"s":0}
{"k":"blame","to":9,"r":18,"ns":50,"pattern":"gpu_idle","wait":7,"s":0}
{"k":"edge","from":9,"to":11,"type":"launch"}
{"k":"idle","at":11,"t":700,"dur":120,"pattern":"gpu_idle","s":2,"r":17}
{"k":"blame","to":0,"r":0,"ns":100,"pattern":"gpu_idle","wait":11,"s":0}
{"k":"blame","to":13,"r":16,"ns":20,"pattern":"gpu_idle","wait":11,"s":0}
{"k":"edge","from":13,"to":14,"type":"launch"}
{"k":"edge","from":12,"to":15,"type":"sync"}
OUT
	[ -z "$stderr" ]
}

@test "a blocking set (cudaMemset) is no synchronization: no edge from the kernel running, no wait" {
	# K1 (3) runs 120..400 on stream 2; cudaMemset (4, 200..210) returns
	# at once; its set (7) runs after K1, 410..430, linked to it. No sync
	# edge, no blame_kernel; the stream idles 400..410 while main runs.
	run --separate-stderr analyse blocking-set
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":3,"type":"launch"}
{"k":"idle","at":3,"t":400,"dur":10,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":0,"r":0,"ns":10,"pattern":"gpu_idle","wait":3,"s":0}
{"k":"edge","from":4,"to":7,"type":"launch"}
OUT
	[ -z "$stderr" ]
}

@test "context sync over three streams; a late sync leaves a stream idle" {
	# The sync (11, 400..610) waits for the last work of streams 2, 3, 4.
	# blame_kernel: 400 until the latest end 600 = 200; overlaps: a (7)
	# 100, b (8) 200, c 0: 200*100/300 = 66, 133 + leftover 1 = 134.
	# c (9) ended at 300, before the sync began: blame_sync 100 on
	# stream 4, blamed on the sync.
	run --separate-stderr analyse ctx-sync
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":7,"type":"launch"}
{"k":"edge","from":3,"to":8,"type":"launch"}
{"k":"edge","from":5,"to":9,"type":"launch"}
{"k":"edge","from":12,"to":14,"type":"sync"}
{"k":"edge","from":13,"to":14,"type":"sync"}
{"k":"edge","from":10,"to":14,"type":"sync"}
{"k":"wait","at":11,"t":400,"dur":200,"pattern":"blame_kernel","s":0,"cause":13,"r":4}
{"k":"blame","to":7,"r":2,"ns":66,"pattern":"blame_kernel","wait":11,"s":2}
{"k":"blame","to":8,"r":2,"ns":134,"pattern":"blame_kernel","wait":11,"s":3}
{"k":"idle","at":9,"t":300,"dur":100,"pattern":"blame_sync","s":4,"cause":11,"r":2}
{"k":"blame","to":11,"r":4,"ns":100,"pattern":"blame_sync","wait":9,"s":0}
OUT
}

@test "a stream sync naming no stream: the work that ended by its return, not another stream's that ran on past it (turn4)" {
	# cuStreamSynchronize (9, 400..510) names no stream: the last work of
	# streams 2, 3 and 4 are a (7, 160..500), b (8, 170..900) and c (12,
	# 700..800). a ended before the call returned: waited for. b ran on
	# past the return and c began after it: another stream's work, not
	# waited for (counted, not linked). blame_kernel: 400 until a's end
	# 500 = 100, all on a.
	run --separate-stderr analyse stream-sync-unnamed
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":7,"type":"launch"}
{"k":"edge","from":3,"to":8,"type":"launch"}
{"k":"edge","from":5,"to":12,"type":"launch"}
{"k":"edge","from":10,"to":11,"type":"sync"}
{"k":"wait","at":9,"t":400,"dur":100,"pattern":"blame_kernel","s":0,"cause":10,"r":3}
{"k":"blame","to":7,"r":2,"ns":100,"pattern":"blame_kernel","wait":9,"s":2}
OUT
	assert_equal "$stderr" "tr-deps: <stdin>: 2 GPU activities a stream synchronization naming no stream did not wait for (they ended after the call returned): not linked to it"
}

@test "cuMemFree synchronizes: it waits for the kernel running (turn4's test gaps)" {
	# A kernel on stream 2 runs 130..700 (launched 100..110); the host is
	# in cuMemFree (a region of role free) over 200..710: a sync edge from
	# the kernel's end, and blame_kernel 200..700 = 500 on the kernel.
	# (With free not among the synchronizing calls: neither.)
	run --separate-stderr analyse free-syncs
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":3,"type":"launch"}
{"k":"edge","from":5,"to":6,"type":"sync"}
{"k":"wait","at":4,"t":200,"dur":500,"pattern":"blame_kernel","s":0,"cause":5,"r":16}
{"k":"blame","to":3,"r":2,"ns":500,"pattern":"blame_kernel","wait":4,"s":2}
OUT
}

@test "what tr-deps says of GPU calls it cannot link, and of an idle GPU synchronized" {
	# A stream synchronization (1) with nothing queued on its stream: an
	# idle GPU synchronized, ordinary: no edge, not among the diagnostics,
	# in --stats as found idle. An event record (3) and a stream wait (7)
	# the trace gives without their event: two calls the recording does
	# not describe. A stream wait (5) naming the host stream 1: one call
	# naming a stream that is no GPU stream (counted once, not once for
	# the stream and again for the wait). No edge from any of them.
	run --separate-stderr bash -c "cat '$DATA/cuda/defs.ndjson' '$DATA/cuda/untold-calls.ndjson' |
		tr-deps --stats | tr-cat -J | grep -c '\"k\":\"edge\"'"
	assert_output 0
	assert_equal "$stderr" "tr-deps: <stdin>: 2 GPU calls the trace gives without the CUDA event or stream they act on (the recording does not say): not linked
tr-deps: <stdin>: 1 GPU calls naming a stream that is not a GPU stream of their process: not linked
<stdin>: edges
  instances               0
<stdin>: GPU synchronizations
  found idle              1"
}

@test "a CUDA graph of three activities on one stream after a kernel, then a stream sync: each linked to the launch, the sync waits for the last (issue 56)" {
	# cudaGraphLaunch (3, 120..140) enqueues G1 (8, kernel, 310..400), G2
	# (10, a copy node, 410..450) and G3 (12, 460..600) on stream 2, all
	# with its correlation id 2, after K0 (6, 200..300) of launch 1. The
	# sync on stream 2 (5, 150..610) waits for the graph's last activity:
	# G3's end, 600, not G1's: 450. Blame over what ran in [150, 600]: K0
	# 100, G1 90, G2 40, G3 140 (370): 450*100/370 = 121, 109, 48, 170 +
	# the 2 left over to the largest, G3: 172. The launch after the sync
	# (15) gets K4 (17). GPU idle: the gaps 300..310, 400..410, 450..460
	# (on the sync), 600..720 (the sync 10, main 100, the launch 10).
	run --separate-stderr analyse graph-one-stream
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":6,"type":"launch"}
{"k":"idle","at":6,"t":300,"dur":10,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":5,"r":3,"ns":10,"pattern":"gpu_idle","wait":6,"s":0}
{"k":"edge","from":3,"to":8,"type":"launch"}
{"k":"idle","at":8,"t":400,"dur":10,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":5,"r":3,"ns":10,"pattern":"gpu_idle","wait":8,"s":0}
{"k":"edge","from":3,"to":10,"type":"launch"}
{"k":"idle","at":10,"t":450,"dur":10,"pattern":"gpu_idle","s":2,"r":10}
{"k":"blame","to":5,"r":3,"ns":10,"pattern":"gpu_idle","wait":10,"s":0}
{"k":"edge","from":3,"to":12,"type":"launch"}
{"k":"edge","from":13,"to":14,"type":"sync"}
{"k":"wait","at":5,"t":150,"dur":450,"pattern":"blame_kernel","s":0,"cause":13,"r":3}
{"k":"blame","to":6,"r":2,"ns":121,"pattern":"blame_kernel","wait":5,"s":2}
{"k":"blame","to":8,"r":2,"ns":109,"pattern":"blame_kernel","wait":5,"s":2}
{"k":"blame","to":10,"r":10,"ns":48,"pattern":"blame_kernel","wait":5,"s":2}
{"k":"blame","to":12,"r":2,"ns":172,"pattern":"blame_kernel","wait":5,"s":2}
{"k":"idle","at":12,"t":600,"dur":120,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":5,"r":3,"ns":10,"pattern":"gpu_idle","wait":12,"s":0}
{"k":"blame","to":0,"r":0,"ns":100,"pattern":"gpu_idle","wait":12,"s":0}
{"k":"blame","to":15,"r":1,"ns":10,"pattern":"gpu_idle","wait":12,"s":0}
{"k":"edge","from":15,"to":17,"type":"launch"}
OUT
	assert_equal "$stderr" ""
	# the path, from main's end back: main 710..1000, the launch 700..710,
	# main 610..700, the sync's own 600..610, then the graph's last
	# activity and the stream's order back through it: G3 460..600, G2
	# 410..450, G1 310..400 (each after the one before, later than the
	# launch), K0 200..300, its launch 100..110 and the time to the GPU,
	# main 0..100
	run bash -c "cat '$DATA/cuda/defs.ndjson' '$DATA/cuda/graph-one-stream.ndjson' | tr-deps -M |
		tr-waits -M | tr-critpath -J | grep '\"crit\"' | jq -c '[.t, .dur, .act]'"
	assert_output - <<'OUT'
[0,100,0]
[100,10,1]
[110,90,null]
[200,100,6]
[300,10,null]
[310,90,8]
[400,10,null]
[410,40,10]
[450,10,null]
[460,140,12]
[600,10,5]
[610,90,0]
[700,10,15]
[710,290,0]
OUT
}

@test "a CUDA graph spread over two streams: the sync after it waits for its last activity on each, blame over both (issue 56)" {
	# The graph (launch 1, correlation 7) runs G1 (4, 200..300) and G3 (7,
	# 310..400) on stream 2 and G2 (5, 210..500) on stream 3. The sync on
	# stream 2 (3, 130..510) waits for the whole graph: an edge from its
	# last activity on each stream, G3 (8) and G2 (9), as a context sync
	# would. blame_kernel 130 until the latest end 500 = 370, over G1 100,
	# G3 90, G2 290 (480): 77, 69, 223 + 1 left over to G2: 224. No GPU
	# idle: stream 3 runs through stream 2's gap.
	run --separate-stderr analyse graph-two-streams
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":4,"type":"launch"}
{"k":"edge","from":1,"to":5,"type":"launch"}
{"k":"edge","from":1,"to":7,"type":"launch"}
{"k":"edge","from":8,"to":10,"type":"sync"}
{"k":"edge","from":9,"to":10,"type":"sync"}
{"k":"wait","at":3,"t":130,"dur":370,"pattern":"blame_kernel","s":0,"cause":9,"r":3}
{"k":"blame","to":4,"r":2,"ns":77,"pattern":"blame_kernel","wait":3,"s":2}
{"k":"blame","to":7,"r":2,"ns":69,"pattern":"blame_kernel","wait":3,"s":2}
{"k":"blame","to":5,"r":2,"ns":224,"pattern":"blame_kernel","wait":3,"s":3}
OUT
	assert_equal "$stderr" ""
}

@test "a CUDA graph launched twice: each launch its own activities, the sync after both waits for the second's last (issue 56)" {
	# Launches 1 (correlation 2) and 3 (correlation 3) of one graph of two
	# kernels: A1 (6) and A2 (8) are the first's, B1 (10) and B2 (12) the
	# second's, on stream 2. The sync (5, 140..410) waits until B2 ends,
	# 400: 260, over A1 50, A2 40, B1 40, B2 40 (170): 76, 61, 61, 61 + 1
	# left over to A1: 77. GPU idle: the gaps between them, 10 each.
	run --separate-stderr analyse graph-twice
	assert_success
	run jq -c 'select(.k != "idle" and (.k != "blame" or .pattern != "gpu_idle"))' <<< "$output"
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":6,"type":"launch"}
{"k":"edge","from":1,"to":8,"type":"launch"}
{"k":"edge","from":3,"to":10,"type":"launch"}
{"k":"edge","from":3,"to":12,"type":"launch"}
{"k":"edge","from":13,"to":14,"type":"sync"}
{"k":"wait","at":5,"t":140,"dur":260,"pattern":"blame_kernel","s":0,"cause":13,"r":3}
{"k":"blame","to":6,"r":2,"ns":77,"pattern":"blame_kernel","wait":5,"s":2}
{"k":"blame","to":8,"r":2,"ns":61,"pattern":"blame_kernel","wait":5,"s":2}
{"k":"blame","to":10,"r":2,"ns":61,"pattern":"blame_kernel","wait":5,"s":2}
{"k":"blame","to":12,"r":2,"ns":61,"pattern":"blame_kernel","wait":5,"s":2}
OUT
}

@test "event query polled five times, the fourth successful" {
	# Event 9 recorded after the launch: it stands for kernel 5 (150..450).
	# Queries 6, 8, 10 fail while it runs: 10 ns each, blamed on it; the
	# fourth (13) succeeds: an event edge; the fifth (15) too, no wait.
	run --separate-stderr analyse event-query
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":5,"type":"launch"}
{"k":"edge","from":12,"to":14,"type":"event"}
{"k":"wait","at":6,"t":200,"dur":10,"pattern":"event_query","s":0,"cause":12,"r":7}
{"k":"blame","to":5,"r":2,"ns":10,"pattern":"event_query","wait":6,"s":2}
{"k":"wait","at":8,"t":300,"dur":10,"pattern":"event_query","s":0,"cause":12,"r":7}
{"k":"blame","to":5,"r":2,"ns":10,"pattern":"event_query","wait":8,"s":2}
{"k":"wait","at":10,"t":400,"dur":10,"pattern":"event_query","s":0,"cause":12,"r":7}
{"k":"blame","to":5,"r":2,"ns":10,"pattern":"event_query","wait":10,"s":2}
{"k":"edge","from":12,"to":16,"type":"event"}
OUT
}

@test "stream wait event between two streams" {
	# KB (11) on stream 3 waits for event 5 = KA (9) on stream 2. KB could
	# start at its launch (140); KA ends at 500: stream_wait 360, blamed on
	# KA. The device idles 500..510 while main runs: gpu_idle 10.
	run --separate-stderr analyse stream-wait
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":9,"type":"launch"}
{"k":"idle","at":9,"t":500,"dur":10,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":0,"r":0,"ns":10,"pattern":"gpu_idle","wait":9,"s":0}
{"k":"edge","from":7,"to":11,"type":"launch"}
{"k":"edge","from":10,"to":11,"type":"stream_wait"}
{"k":"wait","at":11,"t":140,"dur":360,"pattern":"stream_wait","s":3,"cause":10,"r":2}
{"k":"blame","to":9,"r":2,"ns":360,"pattern":"stream_wait","wait":11,"s":2}
OUT
}

@test "a stream wait holds the stream's next work only, not the work after it (turn4's test gaps)" {
	# As stream-wait, with a second kernel KC (15) launched on stream 3
	# after KB: KB waits for KA (360, blamed on KA); KC runs after KB on
	# its own stream, no stream_wait edge of its own. (With the stream's
	# waits kept past its next work: an edge 12->15 too.)
	run --separate-stderr analyse stream-wait-next-only
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":11,"type":"launch"}
{"k":"idle","at":11,"t":500,"dur":10,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":0,"r":0,"ns":10,"pattern":"gpu_idle","wait":11,"s":0}
{"k":"edge","from":7,"to":13,"type":"launch"}
{"k":"edge","from":12,"to":13,"type":"stream_wait"}
{"k":"wait","at":13,"t":140,"dur":360,"pattern":"stream_wait","s":3,"cause":12,"r":2}
{"k":"blame","to":11,"r":2,"ns":360,"pattern":"stream_wait","wait":13,"s":2}
{"k":"idle","at":13,"t":700,"dur":10,"pattern":"gpu_idle","s":3,"r":2}
{"k":"blame","to":0,"r":0,"ns":10,"pattern":"gpu_idle","wait":13,"s":0}
{"k":"edge","from":9,"to":15,"type":"launch"}
OUT
}

@test "stream wait event: a tie in time, and an event address wider than 40 bits" {
	# As above, with the streams swapped and no gap: KB (10) on stream 2
	# begins at 500, the time KA (9) on stream 3 ends, so KB's enter is read
	# before KA's leave (11). The edge waits for that leave; stream_wait
	# 140..500 = 360 on KA. The event is an address, 2^47 + 5.
	run --separate-stderr analyse stream-wait-tie
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":9,"type":"launch"}
{"k":"edge","from":7,"to":10,"type":"launch"}
{"k":"edge","from":11,"to":10,"type":"stream_wait"}
{"k":"wait","at":10,"t":140,"dur":360,"pattern":"stream_wait","s":2,"cause":11,"r":2}
{"k":"blame","to":9,"r":2,"ns":360,"pattern":"stream_wait","wait":10,"s":3}
OUT
	[ -z "$stderr" ]
}

@test "null stream serialization between two streams" {
	# KN (9) on the null stream waits for KA (7) on stream 2: launched at
	# 120, KA ends at 400: 280. KB (11) on stream 3, launched after KN,
	# waits for it: 140..600 = 460. Idle gaps 400..420 and 600..610.
	run --separate-stderr analyse null-stream
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":7,"type":"launch"}
{"k":"idle","at":7,"t":400,"dur":20,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":0,"r":0,"ns":20,"pattern":"gpu_idle","wait":7,"s":0}
{"k":"edge","from":3,"to":9,"type":"launch"}
{"k":"edge","from":8,"to":9,"type":"null_stream"}
{"k":"wait","at":9,"t":120,"dur":280,"pattern":"null_stream","s":5,"cause":8,"r":2}
{"k":"blame","to":7,"r":2,"ns":280,"pattern":"null_stream","wait":9,"s":2}
{"k":"idle","at":9,"t":600,"dur":10,"pattern":"gpu_idle","s":5,"r":2}
{"k":"blame","to":0,"r":0,"ns":10,"pattern":"gpu_idle","wait":9,"s":0}
{"k":"edge","from":5,"to":11,"type":"launch"}
{"k":"edge","from":10,"to":11,"type":"null_stream"}
{"k":"wait","at":11,"t":140,"dur":460,"pattern":"null_stream","s":3,"cause":10,"r":2}
{"k":"blame","to":9,"r":2,"ns":460,"pattern":"null_stream","wait":11,"s":5}
OUT
}

@test "null stream after a stream's own work: the stream's next kernel waits for the null stream's (turn4's test gaps)" {
	# Launches on stream 2 (KA), the null stream (KN), stream 2 again (KB):
	# KA 160..400, KN 420..600, KB 610..800. KN waits for KA (launched at
	# 120, KA ends at 400: 280, as in null-stream); KB, placed after KN,
	# waits for it too, from its own stream's KA's end (400) to KN's end
	# (600): 200, blamed on KN. (With the null stream's last work taken as
	# placed before the stream's own: KB's edge and wait are gone.)
	run --separate-stderr analyse null-stream-after-own
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":7,"type":"launch"}
{"k":"idle","at":7,"t":400,"dur":20,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":0,"r":0,"ns":20,"pattern":"gpu_idle","wait":7,"s":0}
{"k":"edge","from":3,"to":9,"type":"launch"}
{"k":"edge","from":8,"to":9,"type":"null_stream"}
{"k":"wait","at":9,"t":120,"dur":280,"pattern":"null_stream","s":5,"cause":8,"r":2}
{"k":"blame","to":7,"r":2,"ns":280,"pattern":"null_stream","wait":9,"s":2}
{"k":"idle","at":9,"t":600,"dur":10,"pattern":"gpu_idle","s":5,"r":2}
{"k":"blame","to":0,"r":0,"ns":10,"pattern":"gpu_idle","wait":9,"s":0}
{"k":"edge","from":5,"to":11,"type":"launch"}
{"k":"edge","from":10,"to":11,"type":"null_stream"}
{"k":"wait","at":11,"t":400,"dur":200,"pattern":"null_stream","s":2,"cause":10,"r":2}
{"k":"blame","to":9,"r":2,"ns":200,"pattern":"null_stream","wait":11,"s":5}
OUT
}

@test "null stream after a stream wait (tests/programs/cuda-patterns.cu): one wait for two sources" {
	# KA (11) on stream 2; stream 3 waits for its event, so KB (13),
	# launched at 140, waits for KA's end: stream_wait 140..500 = 360. KN
	# (15) on the null stream, launched at 152, waits for both: null_stream
	# edges from KB (14) and KA (12), one wait 152..700 = 548, caused by the
	# later, KB. Blamed by overlap with [152, 700]: KA ran 340 (160..500),
	# KB 190 (510..700): 548 * 340 / 530 = 351.5 -> 352 on KA, 196 on KB.
	# (A wait per edge counted 348 of it twice, as on the H100.)
	run --separate-stderr analyse null-stream-after-wait
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":11,"type":"launch"}
{"k":"idle","at":11,"t":500,"dur":10,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":0,"r":0,"ns":10,"pattern":"gpu_idle","wait":11,"s":0}
{"k":"edge","from":7,"to":13,"type":"launch"}
{"k":"edge","from":12,"to":13,"type":"stream_wait"}
{"k":"wait","at":13,"t":140,"dur":360,"pattern":"stream_wait","s":3,"cause":12,"r":2}
{"k":"blame","to":11,"r":2,"ns":360,"pattern":"stream_wait","wait":13,"s":2}
{"k":"idle","at":13,"t":700,"dur":10,"pattern":"gpu_idle","s":3,"r":2}
{"k":"blame","to":0,"r":0,"ns":10,"pattern":"gpu_idle","wait":13,"s":0}
{"k":"edge","from":9,"to":15,"type":"launch"}
{"k":"edge","from":14,"to":15,"type":"null_stream"}
{"k":"edge","from":12,"to":15,"type":"null_stream"}
{"k":"wait","at":15,"t":152,"dur":548,"pattern":"null_stream","s":5,"cause":14,"r":2}
{"k":"blame","to":13,"r":2,"ns":196,"pattern":"null_stream","wait":15,"s":3}
{"k":"blame","to":11,"r":2,"ns":352,"pattern":"null_stream","wait":15,"s":2}
OUT
	[ -z "$stderr" ]
}

@test "CUPTI-style out-of-order record: the sync comes before the event record" {
	# The event sync (4) names event 7, whose record (7) comes after it: the
	# edge from kernel 3 is written once the record is read. blame_kernel
	# 200..400 = 200 on the kernel.
	run --separate-stderr analyse out-of-order
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":3,"type":"launch"}
{"k":"edge","from":5,"to":6,"type":"event"}
{"k":"wait","at":4,"t":200,"dur":200,"pattern":"blame_kernel","s":0,"cause":5,"r":6}
{"k":"blame","to":3,"r":2,"ns":200,"pattern":"blame_kernel","wait":4,"s":2}
OUT
}

@test "work that ended before its call was read (skewed clocks): edges, syncs and blame as if in order" {
	# Kernel 1 (100..200), copy 7 (500..520) and kernel 11 (700..800) each
	# end before the call that enqueued them (3, 9, 13; matched by corr).
	# Each launch edge still goes call -> work. The stream sync 5 (400)
	# and 15 (920) wait for the last work placed on stream 2: kernels 1
	# and 11 (sync edges 2->6, 12->16); the blocking copy call 9 for the
	# stream's last work (2) and its own copy (8). Nothing was running
	# when the syncs began: blame_sync 200 (200..400) and 120 (800..920).
	# GPU idle 200..500 (300): main 100 + 90 + 50 = 240, launch 3 10,
	# sync 5 50; 520..700 (180): main 90 + 80 = 170, copy call 9 10.
	# The work of calls 3 and 9 is held by nothing but the call when it
	# comes: tr-deps wrote into freed slots here (repros/turn3 F1).
	run --separate-stderr analyse ended-before-launch
	assert_success
	assert_equal "$stderr" "tr-deps: <stdin>: 3 GPU activities that came before the call that enqueued them (host and device clocks differ)"
	assert_output - <<'OUT'
{"k":"edge","from":3,"to":1,"type":"launch"}
{"k":"edge","from":2,"to":6,"type":"sync"}
{"k":"idle","at":1,"t":200,"dur":200,"pattern":"blame_sync","s":2,"cause":5,"r":2}
{"k":"blame","to":5,"r":3,"ns":200,"pattern":"blame_sync","wait":1,"s":0}
{"k":"idle","at":1,"t":200,"dur":300,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":0,"r":0,"ns":240,"pattern":"gpu_idle","wait":1,"s":0}
{"k":"blame","to":3,"r":1,"ns":10,"pattern":"gpu_idle","wait":1,"s":0}
{"k":"blame","to":5,"r":3,"ns":50,"pattern":"gpu_idle","wait":1,"s":0}
{"k":"edge","from":9,"to":7,"type":"launch"}
{"k":"edge","from":2,"to":10,"type":"sync"}
{"k":"edge","from":8,"to":10,"type":"sync"}
{"k":"idle","at":7,"t":520,"dur":180,"pattern":"gpu_idle","s":2,"r":10}
{"k":"blame","to":0,"r":0,"ns":170,"pattern":"gpu_idle","wait":7,"s":0}
{"k":"blame","to":9,"r":9,"ns":10,"pattern":"gpu_idle","wait":7,"s":0}
{"k":"edge","from":13,"to":11,"type":"launch"}
{"k":"edge","from":12,"to":16,"type":"sync"}
{"k":"idle","at":11,"t":800,"dur":120,"pattern":"blame_sync","s":2,"cause":15,"r":2}
{"k":"blame","to":15,"r":3,"ns":120,"pattern":"blame_sync","wait":11,"s":0}
OUT
}

@test "stream queries (one overlapping its work's end) and a context sync issued while work is queued" {
	# Kernel 3 (stream 2, 150..450, launched by 1). cuStreamQuery on stream
	# 2: 4 (200..210) finds it running: stream_query 10, on the kernel; 6
	# (440..460) too, but the kernel ends at 450 inside it: the wait is
	# clamped to 440..450 = 10, not 20 (no wait outlasts its work); 9
	# (500..510) finds it done: a sync edge 7 -> 10. The GPU idles 450..650
	# (200): query 6 10, main 40 + 90 + 10 = 140, query 9 10, launch 11
	# 10, the context sync 30. The context sync 13 (620..700) is issued
	# while kernel 14 (stream 3) is queued, not begun (650..690): it waits
	# for it, 620..690 = 70, blame_kernel on it, and the sync edge 15 -> 16.
	run --separate-stderr analyse stream-query
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":3,"type":"launch"}
{"k":"edge","from":7,"to":10,"type":"sync"}
{"k":"wait","at":4,"t":200,"dur":10,"pattern":"stream_query","s":0,"cause":7,"r":16}
{"k":"blame","to":3,"r":2,"ns":10,"pattern":"stream_query","wait":4,"s":2}
{"k":"wait","at":6,"t":440,"dur":10,"pattern":"stream_query","s":0,"cause":7,"r":16}
{"k":"blame","to":3,"r":2,"ns":10,"pattern":"stream_query","wait":6,"s":2}
{"k":"idle","at":3,"t":450,"dur":200,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":6,"r":16,"ns":10,"pattern":"gpu_idle","wait":3,"s":0}
{"k":"blame","to":0,"r":0,"ns":140,"pattern":"gpu_idle","wait":3,"s":0}
{"k":"blame","to":9,"r":16,"ns":10,"pattern":"gpu_idle","wait":3,"s":0}
{"k":"blame","to":11,"r":1,"ns":10,"pattern":"gpu_idle","wait":3,"s":0}
{"k":"blame","to":13,"r":4,"ns":30,"pattern":"gpu_idle","wait":3,"s":0}
{"k":"edge","from":11,"to":14,"type":"launch"}
{"k":"edge","from":15,"to":16,"type":"sync"}
{"k":"wait","at":13,"t":620,"dur":70,"pattern":"blame_kernel","s":0,"cause":15,"r":4}
{"k":"blame","to":14,"r":2,"ns":70,"pattern":"blame_kernel","wait":13,"s":3}
OUT
}

@test "GPU idle with two busy host threads, split equally" {
	# The GPU idles 200..420. 200..250: main (0) and thread 1 (1) 25 each;
	# 250..300: compute (6) and 1, 25 each; 300..350: compute 50 alone;
	# 350..400 main 50; 400..410 launch (9) 10; 410..420 main 10.
	# main 85, 1 50, compute 75, launch 10: 220.
	run --separate-stderr analyse gpu-idle
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":2,"to":4,"type":"launch"}
{"k":"idle","at":4,"t":200,"dur":220,"pattern":"gpu_idle","s":2,"r":2}
{"k":"blame","to":0,"r":0,"ns":85,"pattern":"gpu_idle","wait":4,"s":0}
{"k":"blame","to":1,"r":11,"ns":50,"pattern":"gpu_idle","wait":4,"s":1}
{"k":"blame","to":6,"r":11,"ns":75,"pattern":"gpu_idle","wait":4,"s":0}
{"k":"blame","to":9,"r":1,"ns":10,"pattern":"gpu_idle","wait":4,"s":0}
{"k":"edge","from":9,"to":11,"type":"launch"}
OUT
}

@test "OpenMP: a barrier with one late thread, lock contention, fork/join" {
	# Barrier: thread 0 enters at 200, thread 1 at 510: wait 310, blamed on
	# thread 1's time since its team began: parallel 20, compute 350:
	# 310*20/370 = 16, 293 + 1 = 294. Lock: thread 1 asks at 630, thread 0
	# releases at 710: 80, blamed on thread 0's time from acquire (610) to
	# release: set_lock 10, parallel 20, compute 60, unset_lock 10 -> 8, 16,
	# 48, 8. Join: the master ends its share at 810, thread 1 at 910: 100.
	run --separate-stderr analyse openmp
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":3,"type":"fork"}
{"k":"edge","from":9,"to":10,"type":"barrier"}
{"k":"instance","acts":[7,9]}
{"k":"wait","at":7,"t":200,"dur":310,"pattern":"omp_barrier","s":0,"cause":9,"r":13}
{"k":"blame","to":5,"r":12,"ns":16,"pattern":"omp_barrier","wait":7,"s":1}
{"k":"blame","to":6,"r":11,"ns":294,"pattern":"omp_barrier","wait":7,"s":1}
{"k":"edge","from":19,"to":21,"type":"lock"}
{"k":"wait","at":15,"t":630,"dur":80,"pattern":"omp_lock","s":1,"cause":19,"r":14}
{"k":"blame","to":12,"r":14,"ns":8,"pattern":"omp_lock","wait":15,"s":0}
{"k":"blame","to":4,"r":12,"ns":16,"pattern":"omp_lock","wait":15,"s":0}
{"k":"blame","to":16,"r":11,"ns":48,"pattern":"omp_lock","wait":15,"s":0}
{"k":"blame","to":18,"r":15,"ns":8,"pattern":"omp_lock","wait":15,"s":0}
{"k":"edge","from":26,"to":27,"type":"join"}
{"k":"wait","at":0,"t":810,"dur":100,"pattern":"omp_fork_join","s":0,"cause":26,"r":0}
{"k":"blame","to":5,"r":12,"ns":100,"pattern":"omp_fork_join","wait":0,"s":1}
OUT
}

@test "OpenMP: a barrier both threads enter at once: the last is the one read last (its stream after), whatever the team's order (turn4's test gaps)" {
	# Thread 1 begins its share (20) before the master (30), so the team
	# lists it first; both enter the barrier at 200. Ties go by stream:
	# thread 1's enter (9) is read after the master's (7), so it is the
	# last to arrive: its edge to the master's leave (10). No one waited.
	# (With the later of two equal times taken by team order: 7->11.)
	run --separate-stderr analyse openmp-barrier-tie
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":2,"type":"fork"}
{"k":"edge","from":9,"to":10,"type":"barrier"}
{"k":"instance","acts":[9,7]}
{"k":"edge","from":13,"to":14,"type":"join"}
OUT
}

@test "OpenMP: a join after two threads that ended at one time: the cause is the one read last (its stream after), whatever the team's order (turn4's test gaps)" {
	# A third host thread (stream 6) is defined. The master's share ends
	# at 300; threads 1 and 2 (streams 1 and 6) both end at 500; the join
	# at 510. omp_fork_join 300..500 = 200 on the master's main, caused by
	# thread 2's end (13), read after thread 1's (11) as ties go by
	# stream, and blamed on its compute, whether thread 2 began first (3)
	# or last (7) in the team. (By the team's order, the first or the
	# last member: 13 in one of the two, 11 in the other.)
	run --separate-stderr analyse openmp-join-end-tie
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":2,"type":"fork"}
{"k":"edge","from":1,"to":6,"type":"fork"}
{"k":"edge","from":13,"to":14,"type":"join"}
{"k":"edge","from":11,"to":14,"type":"join"}
{"k":"wait","at":0,"t":300,"dur":200,"pattern":"omp_fork_join","s":0,"cause":13,"r":0}
{"k":"blame","to":3,"r":11,"ns":200,"pattern":"omp_fork_join","wait":0,"s":6}
OUT
	run --separate-stderr analyse openmp-join-end-tie-team-order
	assert_success
	assert_output - <<'OUT'
{"k":"edge","from":1,"to":2,"type":"fork"}
{"k":"edge","from":1,"to":6,"type":"fork"}
{"k":"edge","from":11,"to":14,"type":"join"}
{"k":"edge","from":13,"to":14,"type":"join"}
{"k":"wait","at":0,"t":300,"dur":200,"pattern":"omp_fork_join","s":0,"cause":13,"r":0}
{"k":"blame","to":7,"r":11,"ns":200,"pattern":"omp_fork_join","wait":0,"s":6}
OUT
}

@test "OpenMP: a join at the very time of a team thread's end, before it in the stream: its edge, the same join wait" {
	# The scenario above, its join (27) at 910, the time of thread 1's team
	# end (26), as a coarse clock stamps them or tr-clock moves a target
	# onto its source: the order (time, then stream) puts the join first.
	# tr-deps writes the join edge at the team end; tr-waits takes it
	# there. Everything comes out as above, the join wait too: the master
	# ends its share at 810, thread 1 at 910: 100, blamed on thread 1.
	run --separate-stderr analyse openmp
	assert_success
	untied=$output
	run --separate-stderr analyse openmp-join-tie
	assert_success
	assert_output "$untied"
	assert_line '{"k":"wait","at":0,"t":810,"dur":100,"pattern":"omp_fork_join","s":0,"cause":26,"r":0}'
	assert_equal "$stderr" ""
}

@test "OpenMP: a thread that asks for a lock the instant it is released did not wait: no 0 ns wait state (turn4's test gaps)" {
	# Thread 0 releases lock 1 at 710 (in omp_unset_lock 700..720);
	# thread 1 enters omp_set_lock at 710 and acquires at 730: linked, but
	# the release came no later than its ask: no omp_lock wait. (Taken at
	# <: a wait of 0 ns.)
	run --separate-stderr analyse lock-at-release
	assert_success
	assert_output '{"k":"edge","from":8,"to":11,"type":"lock"}'
}

@test "OpenMP: a lock acquire stamped before the release it waited for: linked, waited until the acquire" {
	# The scenario above, but thread 1's acquire stamped at 705, before
	# thread 0's release (710): OMPT calls back after the fact, and under
	# load the next holder's callback can run first. The edge comes with
	# the release; the wait ends at the acquire: 630..705 = 75, blamed on
	# thread 0's 100 from acquire to release: 7.5, 15, 45, 7.5 -> 7, 15,
	# 45 + 1 (the largest), 7.
	run --separate-stderr analyse openmp-early-acquire
	assert_success
	run grep lock <<< "$output"
	assert_output - <<'OUT'
{"k":"edge","from":20,"to":19,"type":"lock"}
{"k":"wait","at":15,"t":630,"dur":75,"pattern":"omp_lock","s":1,"cause":20,"r":14}
{"k":"blame","to":12,"r":14,"ns":7,"pattern":"omp_lock","wait":15,"s":0}
{"k":"blame","to":4,"r":12,"ns":15,"pattern":"omp_lock","wait":15,"s":0}
{"k":"blame","to":16,"r":11,"ns":46,"pattern":"omp_lock","wait":15,"s":0}
{"k":"blame","to":18,"r":15,"ns":7,"pattern":"omp_lock","wait":15,"s":0}
OUT
	run --separate-stderr bash -c "cat '$DATA/cuda/defs.ndjson' '$DATA/cuda/openmp-early-acquire.ndjson' | tr-deps -M > /dev/null"
	assert_equal "$stderr" "tr-deps: <stdin>: 1 lock acquires stamped before the release they waited for (the OpenMP runtime calls back after the fact): linked to it all the same"
}

@test "blame adds up to waiting time, and idle blame to idle time, in every scenario" {
	# an invariant holds of anything, nothing included: every scenario must
	# give wait states or idle periods (but openmp-barrier-tie,
	# lock-at-release and untold-calls, whose point is that no one waits),
	# and every tool in the pipe succeed
	for f in "$DATA"/cuda/*.ndjson; do
		case $(basename "$f") in
		defs.ndjson | openmp-barrier-tie.ndjson | lock-at-release.ndjson | untold-calls.ndjson) continue ;;
		esac
		run bash -c "set -o pipefail; cat '$DATA/cuda/defs.ndjson' '$f' | tr-deps 2>/dev/null | tr-waits | tr-cat -J |
			jq -s '[([.[]|select(.k==\"wait\")|.dur]|add // 0) -
				([.[]|select(.k==\"blame\" and (.pattern|IN(\"gpu_idle\",\"blame_sync\")|not))|.ns]|add // 0),
				([.[]|select(.k==\"idle\")|.dur]|add // 0) -
				([.[]|select(.k==\"blame\" and (.pattern|IN(\"gpu_idle\",\"blame_sync\")))|.ns]|add // 0),
				([.[]|select(.k==\"wait\" or .k==\"idle\")]|length > 0)]' -c"
		assert_success
		assert_output "[0,0,true]"
	done
}

@test "oddities are counted once on stderr: kernel without launch, event never recorded" {
	printf '%s\n' '{"k":"enter","id":0,"t":0,"s":2,"r":2}' '{"k":"leave","id":1,"t":10,"s":2,"r":2}' \
		'{"k":"enter","id":2,"t":20,"s":0,"r":6,"cuda_event":4}' '{"k":"leave","id":3,"t":30,"s":0,"r":6}' >"$BATS_TEST_TMPDIR/odd.ndjson"
	run --separate-stderr bash -c "cat '$DATA/cuda/defs.ndjson' '$BATS_TEST_TMPDIR/odd.ndjson' | tr-deps > /dev/null"
	assert_success
	assert_equal "$stderr" "tr-deps: <stdin>: 1 GPU activities no launch or copy call was found for
tr-deps: <stdin>: 1 waits on CUDA events never recorded"
}

@test "gen-otf2 -g (the GPU-heavy bench program): every CUDA edge and pattern, no oddity" {
	# Not hand-computed: a check that the bench archive exercises every rule
	# and that every device activity is linked to its launch.
	gen-otf2 -g 4 -t 1 -r 2 -i 30 "$BATS_TEST_TMPDIR/t"
	tr-read -M "$BATS_TEST_TMPDIR/t.otf2" > "$BATS_TEST_TMPDIR/t.tr"
	run --separate-stderr bash -c "tr-deps -M '$BATS_TEST_TMPDIR/t.tr' | tr-waits -J"
	assert_success
	[ -z "$stderr" ]
	echo "$output" > "$BATS_TEST_TMPDIR/an.ndjson"
	run jq -rs '[.[] | select(.k == "edge") | .type] | unique | join(" ")' "$BATS_TEST_TMPDIR/an.ndjson"
	assert_output "coll event launch null_stream stream_wait sync"
	run jq -rs '[.[] | select(.k == "wait") | .pattern] | unique | join(" ")' "$BATS_TEST_TMPDIR/an.ndjson"
	assert_output "blame_kernel event_query null_stream stream_query stream_wait wait_finalize wait_init wait_nxn"
	run jq -rs '[.[] | select(.k == "idle") | .pattern] | unique | join(" ")' "$BATS_TEST_TMPDIR/an.ndjson"
	assert_output "blame_sync gpu_idle"
	run jq -rs '([.[] | select(.k == "stream" and .type == "gpu") | .id]) as $g |
		[.[] | select(.k == "enter" and (.s as $s | $g | index($s)))] | length' "$BATS_TEST_TMPDIR/an.ndjson"
	activities=$output
	run jq -rs '[.[] | select(.k == "edge" and .type == "launch")] | length' "$BATS_TEST_TMPDIR/an.ndjson"
	assert_output "$activities"
	run jq -rs '[([.[] | select(.k == "wait" or .k == "idle") | .dur] | add), ([.[] | select(.k == "blame") | .ns] | add)] | .[0] == .[1]' "$BATS_TEST_TMPDIR/an.ndjson"
	assert_output true
}

@test "OpenMP: a lock whose id is 2^40 or more is left out, and said (tr-deps keys locks by process and id)" {
	run --separate-stderr bash -c "cat '$DATA/cuda/defs.ndjson' '$DATA/cuda/openmp.ndjson' |
		sed 's/\"lock\":1/\"lock\":1099511627776/' | tr-deps -J | jq -c 'select(.k == \"edge\" and .type == \"lock\")'"
	assert_success
	assert_output ""
	[ "$stderr" = "tr-deps: <stdin>: 3 lock events without a lock id below 2^40, left out" ]
}

@test "a synchronization whose work is found never to have run: its edges right after the event of its own process that found it, not after another process's" {
	# process 0: K1 (corr 1) runs on stream 1; K2 (corr 2) is enqueued on
	# stream 2, cuCtxSynchronize waits for both; then K3 (corr 3) begins
	# on stream 2 at 500: K2 never ran, so the sync's one edge (K1's
	# leave to its leave) is known there. Process 1's kernel ends at 600,
	# before process 0's next event: the edge must not wait for it, nor
	# for K3's end at 700 (tr-analyze --mpi puts it where one process does)
	run --separate-stderr bash -c "tr-deps -J < '$DATA/gpu-order/sync-after-lost-work.ndjson' | jq -c 'select(.id >= 13 or .k == \"edge\")'"
	assert_success
	assert_equal "$output" '{"k":"edge","from":0,"to":2,"type":"launch"}
{"k":"edge","from":3,"to":7,"type":"launch"}
{"k":"enter","id":13,"t":500,"s":2,"r":2,"corr":3}
{"k":"edge","from":11,"to":13,"type":"launch"}
{"k":"edge","from":8,"to":10,"type":"sync"}
{"k":"leave","id":14,"t":600,"s":4,"r":2}
{"k":"leave","id":15,"t":700,"s":2,"r":2}'
	assert_equal "$stderr" "tr-deps: <stdin>: 1 launches or copies whose GPU activity never came"
}
