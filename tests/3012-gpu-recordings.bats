#!/usr/bin/env bats
# Real recordings from an NVIDIA H100 (tests/data/gpu, README.md there):
# tr-record's logs of tests/programs/cuda-patterns.cu, of
# examples/imbalance-cuda.cu on 4 ranks and of bench/accuracy/streams.cu,
# and a PyTorch step recorded by torch.profiler (Kineto) and by tr-record.
# What each program put in is found again, within 10 % where it is a
# time; no GPU needed.

load common
load cuda-patterns

GPU="$DATA/gpu"

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "${TMP:-/nonexistent}"
}

analysed() {
	tr-read -q "$GPU/$1" | tr-deps | tr-clock | tr-waits | tr-critpath
}

# "start duration name" of each kernel of stream file $1, by start
kernels() {
	tr-cat -J "$1" | jq -r -s '(map(select(.k == "region")) | map({key: (.id | tostring), value: .}) | from_entries) as $r |
		[.[] | select((.k == "enter" or .k == "leave") and $r[.r | tostring].role == "kernel")] | group_by(.s) |
		map(sort_by(.t) | [range(0; length; 2) as $i | [.[$i].t, .[$i + 1].t - .[$i].t, $r[.[$i].r | tostring].name]]) |
		add | sort_by(.[0]) | .[] | "\(.[0]) \(.[1]) \(.[2])"'
}

@test "every GPU recording goes through every stage, and tr-clock finds no GPU work ending after the call that waited for it" {
	for f in cuda-patterns imbalance-cuda streams/n1-w1-1 streams/n4-w2-5 torch/trlog-1 torch/kineto-1.json.gz torch/both; do
		run --separate-stderr bash -c "set -o pipefail; tr-read -q '$GPU/$f' | tr-deps | tr-clock | tr-waits | tr-critpath > '$TMP/out'"
		assert_success
		[[ "$stderr" != *"ended after the host call"* ]] || fail "$f: $stderr"
		tr-cat --check "$TMP/out"
		tr-rank "$TMP/out" > /dev/null
	done
}

@test "cuda-patterns (100 ms): its streams, the null one flagged; its kernels demangled; the launches' streams; its NVTX range" {
	analysed cuda-patterns > "$TMP/p.tr"
	cuda_patterns_found "$TMP/p.tr"
}

@test "cuda-patterns (100 ms): the waits it was written to make, within 10 %" {
	analysed cuda-patterns > "$TMP/p.tr"
	cuda_patterns_waits "$TMP/p.tr" 100
}

@test "imbalance-cuda, 4 ranks on one GPU: rank r's 5 kernels last 10 + 5 r ms, and its host waits for each in cudaStreamSynchronize" {
	# The four ranks' kernels share one GPU, which time-slices between
	# their contexts: a kernel spinning on the global timer ends at its
	# deadline or, switched out then, up to a slice later (2 of the 20 took
	# 12 % longer). So: at least its length, at most 20 % more.
	run --separate-stderr tr-read --stats -q "$GPU/imbalance-cuda"
	assert_regex "$stderr" "clocks agree with rank 0's"
	analysed imbalance-cuda > "$TMP/i.tr"
	tr-cat -J "$TMP/i.tr" | jq -r -s '(map(select(.k == "stream")) | map({key: (.id | tostring), value: .process}) | from_entries) as $p |
		(map(select(.k == "region")) | map({key: (.id | tostring), value: .name}) | from_entries) as $n |
		(.[] | select(.k == "enter" and $n[.r | tostring] == "work(unsigned long long)") | "kernel \($p[.s | tostring]) \(.id)"),
		(.[] | select(.k == "wait") | "\(.pattern) \($p[.s | tostring]) \(.dur) \($n[.r | tostring])")' > "$TMP/facts"
	for r in 0 1 2 3; do
		want=$(((10 + 5 * r) * 1000000))
		assert_equal "$(awk -v r=$r '$1 == "kernel" && $2 == r' "$TMP/facts" | wc -l)" 5
		tr-cat -J "$TMP/i.tr" | jq -r -s --argjson r "$r" '(map(select(.k == "stream")) | map({key: (.id | tostring), value: .process}) | from_entries) as $p |
			[.[] | select((.k == "enter" or .k == "leave") and ($p[.s | tostring] == $r))] as $ev |
			(map(select(.k == "region" and .role == "kernel"))[0].id) as $k |
			[$ev[] | select(.r == $k)] | sort_by(.t) | [range(0; length; 2) as $i | .[$i + 1].t - .[$i].t] | .[]' |
			while read -r d; do
				[ "$d" -ge $((want * 99 / 100)) ] && [ "$d" -le $((want * 12 / 10)) ] ||
					fail "rank $r's kernel: $d ns for $want"
			done
		run awk -v r=$r '$1 == "blame_kernel" && $2 == r && $4 == "cudaStreamSynchronize" { print $3 }' "$TMP/facts"
		assert_equal "${#lines[@]}" 5
		for d in "${lines[@]}"; do
			[ "$d" -ge $((want * 9 / 10)) ] || fail "rank $r waited $d ns for a kernel of $want"
		done
	done
	# the ranks meet in MPI_Barrier five times
	run bash -c "tr-cat -J '$TMP/i.tr' | jq -r 'select(.k == \"coll_end\") | .comm' | wc -l"
	assert_output 20
}

@test "streams.cu on 1 to 4 streams: each run's kernels, copies and synchronizations, its streams, its NVTX range" {
	for d in "$GPU"/streams/n*-w*-1; do
		n=$(basename "$d" | sed 's/^n\([0-9]\).*/\1/')
		run --separate-stderr bash -c "tr-read --stats -q '$d' > /dev/null"
		[[ "$stderr" =~ kernel\ +$((51 * n)) ]] || fail "$d: not $((51 * n)) kernels: $stderr"
		[[ "$stderr" =~ dev_memcpy\ +$((51 * n)) ]] || fail "$d: not $((51 * n)) copies: $stderr"
		[[ "$stderr" =~ ctx_sync\ +51 ]] || fail "$d: not 51 synchronizations: $stderr"
		run bash -c "tr-read -q '$d' | tr-cat -J | jq -rs '(map(select(.k == \"region\" and .role == \"kernel\"))[0].id) as \$k |
			[.[] | select(.k == \"enter\" and .r == \$k) | .s] | unique | length'"
		assert_output "$n"
		run bash -c "tr-read -q '$d' | tr-cat -J | jq -r 'select(.k == \"region\" and .paradigm == \"user\") | .name'"
		assert_output "$(printf 'streams\nloop')"
	done
}

@test "a PyTorch step: Kineto's trace and tr-record's log of the same program agree on kernels (count, names in order) and kernel time within 1 %" {
	# torch.profiler and tr-record cannot record one run together (CUPTI
	# serves one subscriber): three windows of 5 steps each recorded by
	# each, in runs one after the other (README.md)
	for w in 1 2 3; do
		tr-read -q "$GPU/torch/kineto-$w.json.gz" > "$TMP/k$w.tr"
		kernels "$TMP/k$w.tr" > "$TMP/k$w"
		assert_equal "$(wc -l < "$TMP/k$w")" 160
	done
	tr-read -q "$GPU/torch/trlog-1" > "$TMP/t.tr"
	kernels "$TMP/t.tr" > "$TMP/t"
	# tr-record's windows: its NVTX ranges "window"
	tr-cat -J "$TMP/t.tr" | jq -r -s '(map(select(.k == "region" and .name == "window"))[0].id) as $w |
		[.[] | select((.k == "enter" or .k == "leave") and .r == $w) | .t] | _nwise(2) | "\(.[0]) \(.[1])"' > "$TMP/windows"
	assert_equal "$(wc -l < "$TMP/windows")" 3
	w=0
	while read -r from to; do
		w=$((w + 1))
		awk -v a="$from" -v b="$to" '$1 >= a && $1 <= b' "$TMP/t" > "$TMP/t$w"
		assert_equal "$(wc -l < "$TMP/t$w")" 160
	done < "$TMP/windows"
	diff <(cut -d' ' -f3- "$TMP/k1") <(cut -d' ' -f3- "$TMP/t1") || fail "the kernels differ in name or order"
	sum() { awk '{ s += $2 } END { print s }' "$1"; }
	median() { sort -n | sed -n 2p; }
	kineto=$(for w in 1 2 3; do sum "$TMP/k$w"; done | median)
	ours=$(for w in 1 2 3; do sum "$TMP/t$w"; done | median)
	awk -v a="$kineto" -v b="$ours" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; exit !(d <= 0.01) }' ||
		fail "kernel time per window: Kineto $kineto ns, tr-record $ours ns"
}

@test "torch.profiler under tr-record: Kineto finds CUPTI taken and has no GPU activity; the log has all of them" {
	run bash -c "tr-read -q '$GPU/torch/both/kineto.json.gz' | tr-cat -J | jq -r 'select(.k == \"stream\") | .type' | sort -u"
	assert_output host
	tr-read -q "$GPU/torch/both" > "$TMP/b.tr"
	kernels "$TMP/b.tr" > "$TMP/k"
	# warm-up and one window of 5 steps, and what the set-up ran
	[ "$(wc -l < "$TMP/k")" -ge 160 ] || fail "$(wc -l < "$TMP/k") kernels"
	run bash -c "tr-cat -J '$TMP/b.tr' | jq -r 'select(.k == \"region\" and .paradigm == \"user\") | .name'"
	assert_output "$(printf 'python3.12\nstep\nwindow')"
}

@test "tr-project on the H100's runs of one kernel on 1 to 4 streams (bench/accuracy/gpu): each median error under 2.5 %, as measured" {
	run --separate-stderr env OUT="$TMP/acc" "$TOP/bench/accuracy/gpu"
	assert_success
	assert_line --regexp '^kernel 0\.911 ms at WORK, 1\.820 ms at 2 WORK on 1 stream: factor 1\.998'
	# streams, the two loops with their spreads, then median and max error each way
	run awk '$1 ~ /^[1-4]$/ { print $1, $10, $14 }' <<< "$output"
	assert_equal "${#lines[@]}" 4
	for l in "${lines[@]}"; do
		read -r n up down <<< "$l"
		awk -v u="$up" -v d="$down" 'BEGIN { exit !(u < 2.5 && d < 2.5) }' || fail "$n streams: $up % and $down %"
	done
}

@test "tools/gpu-fixtures: prepare builds the CUDA programs and a runnable Open MPI; bad usage" {
	run "$TOP/tools/gpu-fixtures"
	assert_failure 2
	assert_output --partial "usage: tools/gpu-fixtures prepare DIR | record DIR OUT"
	# it replaces no folder it did not make, and no log or tarball
	mkdir "$TMP/theirs" "$TMP/out"
	echo keep > "$TMP/theirs/f"
	echo keep > "$TMP/out/log"
	run "$TOP/tools/gpu-fixtures" prepare "$TMP/theirs"
	assert_failure 1
	assert_output "tools/gpu-fixtures: $TMP/theirs exists and is not one prepare made: not replaced"
	run "$TOP/tools/gpu-fixtures" record "$TMP/theirs" "$TMP/out"
	assert_failure 1
	assert_output "tools/gpu-fixtures: $TMP/out/log is there already: not replaced"
	assert_equal "$(cat "$TMP/theirs/f") $(cat "$TMP/out/log")" "keep keep"
	command -v "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" > /dev/null || skip_unless cuda "no nvcc here: nothing to prepare"
	"$TOP/tools/gpu-fixtures" prepare "$TMP/gpu" > /dev/null
	for p in cuda-patterns imbalance-cuda streams cuda-semantics; do
		[ -x "$TMP/gpu/programs/$p" ] || fail "$p not built"
	done
	# the bundled mpirun, with its libraries and Open MPI's own folders, runs here
	run env LD_LIBRARY_PATH="$TMP/gpu/ompi/lib" "$TMP/gpu/ompi/bin/mpirun" --version
	assert_success
	assert_line --partial "Open MPI"
	[ -d "$TMP/gpu/ompi/openmpi/lib/openmpi3" ] && [ -d "$TMP/gpu/ompi/pmix2" ] || fail "Open MPI's plugins not bundled"
	# its own folder it makes again; stopped by a signal, it leaves nothing
	"$TOP/tools/gpu-fixtures" prepare "$TMP/gpu" > /dev/null
	"$TOP/tools/gpu-fixtures" prepare "$TMP/killed" > /dev/null 2>&1 &
	sleep 1
	kill -TERM $!
	wait $! || true
	run ls "$TMP"
	assert_output "$(printf 'gpu\nout\ntheirs')"
}
