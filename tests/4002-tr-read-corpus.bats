#!/usr/bin/env bats
# tr-read on every Score-P archive of the shared corpus: a valid stream,
# the same events as otf2-print counts (tests/helper/otf2-expected-kinds),
# and the roles the archive is known to hold.

load common

setup() {
	corpus_setup
}

teardown() {
	corpus_teardown
}

# Read archive NAME into $TMP/NAME.tr; check the stream and the event counts.
reads_like_otf2_print() {
	local a
	a=$(archive "$1")
	tr-read -M "$a" > "$TMP/$1.tr" 2> "$TMP/$1.err" || fail "tr-read $1 failed: $(cat "$TMP/$1.err")"
	run --separate-stderr tr-cat --check "$TMP/$1.tr"
	assert_success
	assert_equal "$stderr" ""
	otf2-expected-kinds "$a" > "$TMP/expected" 2>/dev/null
	tr-cat -J "$TMP/$1.tr" | jq -r 'select(.t != null and (.k | IN("wait", "crit") | not)).k' |
		sort | uniq -c | awk '{ print $2, $1 }' | sort > "$TMP/got"
	run diff "$TMP/expected" "$TMP/got"
	assert_success
}

# Every PROCESS ROLE pair given is found in $TMP/NAME.tr.
has_roles() {
	local name=$1
	shift
	roles_by_process < "$TMP/$name.tr" > "$TMP/roles"
	for pair in "$@"; do
		grep -qxF "$pair" "$TMP/roles" || fail "$name: no '$pair' in: $(tr '\n' ';' < "$TMP/roles")"
	done
}

@test "casita-2_cuda_simple: kernels, launches, blocking copies, syncs and MPI on both ranks" {
	reads_like_otf2_print casita-2_cuda_simple
	assert_equal "$(cat "$TMP/casita-2_cuda_simple.err")" ""
	for p in 0 1; do
		has_roles casita-2_cuda_simple "$p kernel" "$p launch" "$p memcpy" "$p dev_memcpy" \
			"$p ctx_sync" "$p mpi_sendrecv" "$p mpi_n2n" "$p mpi_barrier" "$p omp_parallel" \
			"$p omp_barrier" "$p omp_lock"
	done
	# every launch names the GPU stream it enqueues on
	run bash -c "tr-cat -J '$TMP/casita-2_cuda_simple.tr' | jq -s '[.[] | select(.k == \"region\" and .role == \"launch\") | .id] as \$l | [.[] | select(.k == \"enter\" and (.r | IN(\$l[])) and .ref_stream == null)] | length'"
	assert_output 0
}

@test "casita-2_jacobi_blame_cpu_015: 300,816 events of MPI, OpenMP and CUDA" {
	reads_like_otf2_print casita-2_jacobi_blame_cpu_015
	has_roles casita-2_jacobi_blame_cpu_015 "0 kernel" "1 kernel" "0 mpi_n2n" "1 omp_lock" "1 omp_barrier"
}

@test "casita-1_sptc: concurrent kernels on nine streams, context syncs, async copies" {
	reads_like_otf2_print casita-1_sptc
	has_roles casita-1_sptc "0 kernel" "0 ctx_sync" "0 memcpy_async" "0 dev_memcpy" "0 launch"
	run bash -c "tr-cat -J '$TMP/casita-1_sptc.tr' | jq -s '[.[] | select(.k == \"stream\" and .type == \"gpu\")] | length'"
	assert_output 9
}

@test "casita-4_mpi_ls_barr: point-to-point and barriers on four ranks" {
	reads_like_otf2_print casita-4_mpi_ls_barr
	for p in 0 1 2 3; do
		has_roles casita-4_mpi_ls_barr "$p mpi_barrier"
	done
}

@test "casita-10_scorep_mpi_tags: ten ranks, messages with tags" {
	reads_like_otf2_print casita-10_scorep_mpi_tags
	run bash -c "tr-cat -J '$TMP/casita-10_scorep_mpi_tags.tr' | jq -rs '[.[] | select(.k == \"send\") | .tag] | unique | length > 1'"
	assert_output true
}

@test "casita-1_xeonphi_jacobi_01: OpenMP offload; task records are left out and counted" {
	reads_like_otf2_print casita-1_xeonphi_jacobi_01
	has_roles casita-1_xeonphi_jacobi_01 "0 omp_parallel" "0 omp_task" "0 dev_memcpy" "0 mpi_n2n"
	run --separate-stderr tr-read --stats "$(archive casita-1_xeonphi_jacobi_01)"
	[[ "$stderr" == *"1202 records without meaning here, left out: 1 RmaWinCreate, 1 RmaWinDestroy, 400 ThreadTaskCreate, 400 ThreadTaskSwitch, 400 ThreadTaskComplete"* ]]
}

@test "casita-1_ocl_deps: OpenCL kernels and queue synchronization" {
	reads_like_otf2_print casita-1_ocl_deps
	has_roles casita-1_ocl_deps "0 launch" "0 kernel" "0 stream_sync" "0 memcpy_async"
}

@test "casita-1_scorep-ompt-host-nested: OMPT parallel regions, implicit tasks, barriers" {
	reads_like_otf2_print casita-1_scorep-ompt-host-nested
	has_roles casita-1_scorep-ompt-host-nested "0 omp_parallel" "0 omp_implicit_task" "0 omp_barrier"
}

@test "pipit-ping-pong-otf2: two ranks, Score-P 7" {
	reads_like_otf2_print pipit-ping-pong-otf2
	has_roles pipit-ping-pong-otf2 "0 mpi_send" "1 mpi_recv"
}

@test "pipit-ping-pong-otf2-papi: PAPI counters become counters and samples" {
	reads_like_otf2_print pipit-ping-pong-otf2-papi
	run bash -c "tr-cat -J '$TMP/pipit-ping-pong-otf2-papi.tr' | jq -r 'select(.k == \"counter\").name' | sort | tr '\n' ' '"
	assert_output "PAPI_BR_MSP PAPI_L2_TCM PAPI_TOT_CYC "
}

@test "tracer-stencil4d-32: unbalanced enters and leaves are reported once, never fatal" {
	reads_like_otf2_print tracer-stencil4d-32
	a=$(archive tracer-stencil4d-32)
	assert_equal "$(cat "$TMP/tracer-stencil4d-32.err")" \
"tr-read: $a: 2 leaves of another region than the one entered
tr-read: $a: 2 enters never left (a rank that did not finish, or a time window)"
	run bash -c "tr-cat -J '$TMP/tracer-stencil4d-32.tr' | jq -s '[.[] | select(.k == \"process\")] | length'"
	assert_output 32
}

@test "fastotf2-mi300-hip: HIP launches linked to their kernels by callsite id" {
	reads_like_otf2_print fastotf2-mi300-hip
	has_roles fastotf2-mi300-hip "0 launch" "0 kernel" "0 event_sync"
	# the accelerator groups of Score-P 9 belong to the one process
	run bash -c "tr-cat -J '$TMP/fastotf2-mi300-hip.tr' | jq -s '[.[] | select(.k == \"process\")] | length'"
	assert_output 1
	# each kernel enter carries the corr its launch's leave carries
	run bash -c "tr-cat -J '$TMP/fastotf2-mi300-hip.tr' | jq -rs '
		(map(select(.k == \"region\")) | map({key: (.id | tostring), value: .role}) | from_entries) as \$r |
		[.[] | select(.k == \"enter\" and \$r[.r | tostring] == \"kernel\") | .corr] as \$k |
		[.[] | select(.k == \"leave\" and \$r[.r | tostring] == \"launch\") | .corr] as \$l |
		\"\(\$k | length) \(\$k == \$l and (\$k | all(. != null)))\"'"
	assert_output "2 true"
	# hipNullStream marks the null streams
	run bash -c "tr-cat -J '$TMP/fastotf2-mi300-hip.tr' | jq -s '[.[] | select(.k == \"stream\" and .null == true)] | length'"
	assert_output 2
}
