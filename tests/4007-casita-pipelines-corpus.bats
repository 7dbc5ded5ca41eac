#!/usr/bin/env bats
# The CASITA comparison pipelines of pipelines/ on every corpus archive:
# each runs without error and prints its figures in its stated form, zero
# where the archive has nothing of the kind (no blocking call during a
# kernel, no Waitall, no MPI). What each reproduces of CASITA 1.9 is pinned
# by the tests of 4003 and 4004 and said in tr-waits(1) and tr-critpath(1).

load common

setup() {
	corpus_setup
}

teardown() {
	corpus_teardown
}

# Every pipeline on archive NAME: one line per pipeline, "PIPELINE: OUTPUT"
# (its last line), in $TMP/NAME.out; anything on stderr fails it.
pipelines_on() {
	local name=$1 out=$TMP/$1
	set -o pipefail
	tr-read -M "$(archive "$name")" 2> /dev/null > "$out.read"
	tr-deps -M "$out.read" 2> /dev/null > "$out.deps"
	tr-waits -M "$out.deps" 2> /dev/null > "$out.waits"
	{
		echo "early-blocking-wait: $(tr-cat -J "$out.read" |
			jq -rs -f "$TOP/pipelines/casita-early-blocking-wait.jq")"
		echo "waitall-late-partner: $(tr-cat -J "$out.deps" |
			jq -rs -f "$TOP/pipelines/casita-waitall-late-partner.jq")"
		echo "blame-before-start: $(tr-cat -J "$out.waits" |
			jq -rs -f "$TOP/pipelines/casita-blame-before-start.jq" | tail -1)"
		echo "reverse-edges: $(tr-cat -J "$out.waits" |
			jq -c -n -f "$TOP/pipelines/casita-reverse-edges.jq" | tr-critpath |
			tr-rank --json | jq -r 'select(.k == "run_summary") | .cp')"
	} > "$out.out" 2> "$out.err"
	rm "$out.read" "$out.deps" "$out.waits"
	[ ! -s "$out.err" ] || { cat "$out.err" >&2; return 1; }
}

@test "every CASITA pipeline runs on every corpus archive and prints its figures" {
	export -f pipelines_on archive
	export TMP TOP CORPUS
	# two archives at a time: jq takes most of a minute on the largest
	ls "$CORPUS/otf2" | xargs -P 2 -I{} bash -c 'pipelines_on {} || { echo "{}: failed" >&2; exit 255; }'
	num='[0-9.e+-]+'
	for name in $(ls "$CORPUS/otf2"); do
		run cat "$TMP/$name.out"
		assert_line --index 0 --regexp "^early-blocking-wait: [0-9]+ $num $num\$"
		assert_line --index 1 --regexp "^waitall-late-partner: [0-9]+ $num\$"
		assert_line --index 2 --regexp "^blame-before-start: total $num\$"
		assert_line --index 3 --regexp '^reverse-edges: [0-9]+$'
	done
	# where there is nothing of the kind: 0, not an error
	run cat "$TMP/casita-4_mpi_ls_barr.out"
	assert_line --index 0 "early-blocking-wait: 0 0 0"
	assert_line --index 1 "waitall-late-partner: 0 0"
	run cat "$TMP/casita-1_scorep-ompt-host-nested.out"
	assert_line --index 2 "blame-before-start: total 0"
	# and the figures where there is. CASITA 1.9 on cloverleaf: "Early
	# blocking wait: 8.166953 s (6576)", "... on compute kernels: 8.136492
	# s": the same; "MPI_Waitall late partner: 0.012464 s (146)": the same.
	# On jacobi CASITA has 0.611751 s (5030), "on compute kernels" 0.129004
	# s: not reproduced (tr-waits(1)).
	run cat "$TMP/casita-2_cloverleaf_oaccregions_cudafull.out"
	assert_line --index 0 "early-blocking-wait: 6576 8.166952933 8.136492145"
	assert_line --index 1 "waitall-late-partner: 146 0.012464315"
	run cat "$TMP/casita-2_jacobi_blame_cpu_015.out"
	assert_line --index 0 "early-blocking-wait: 5055 0.62848773 0.544197344"
}
