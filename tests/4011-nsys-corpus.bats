#!/usr/bin/env bats
# tr-read on the Nsight Systems exports of the shared corpus (Pipit's test
# files, Nsight 2022.2 and 2024.5): every one through every stage; what is
# read counted against sqlite3 queries of the same tables; the CUDA
# patterns of CloverLeaf; copies with a column renamed or a table dropped.

load common

setup() {
	corpus_setup
}

teardown() {
	corpus_teardown
}

q() {
	sqlite3 "$CORPUS/nsys/$1.sqlite" "$2"
}

# The enters of stream $2 whose region has role $3, in tr-read's stream of export $1.
enters() {
	tr-read "$CORPUS/nsys/$1.sqlite" 2>/dev/null | tr-cat -J |
		jq -s "[.[] | select(.k == \"region\" and .role == \"$2\") | .id] as \$r | [.[] | select(.k == \"enter\" and (.r | IN(\$r[])))] | length"
}

@test "every Nsight export of the corpus goes through every stage" {
	for f in "$CORPUS"/nsys/*.sqlite; do
		name=$(basename "$f" .sqlite)
		tr-read "$f" > "$TMP/$name.tr" 2> "$TMP/$name.err" || fail "tr-read $name: $(cat "$TMP/$name.err")"
		tr-cat --check "$TMP/$name.tr" > /dev/null || fail "$name: not a valid stream"
		(set -o pipefail; tr-deps < "$TMP/$name.tr" 2> /dev/null | tr-waits | tr-critpath 2> /dev/null > "$TMP/$name.an") ||
			fail "$name: the stages failed"
		tr-rank < "$TMP/$name.an" > /dev/null || fail "tr-rank $name"
		tr-otf2 -o "$TMP/$name-otf2" < "$TMP/$name.an" 2> /dev/null || fail "tr-otf2 $name"
	done
}

@test "kernels, copies and runtime calls as many as sqlite3 counts (a call recorded twice, once)" {
	for name in pipit-saxpy-mpi-cuda-rank0 pipit-cloverleaf-4gpu; do
		assert_equal "$(enters $name kernel)" "$(q $name 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')"
		assert_equal "$(enters $name dev_memcpy)" "$(q $name 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY')"
		calls=$(q $name "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME a WHERE NOT EXISTS (SELECT 1
			FROM CUPTI_ACTIVITY_KIND_RUNTIME b WHERE b.globalTid = a.globalTid AND b.correlationId = a.correlationId
			AND b.rowid != a.rowid AND b.start <= a.start AND b.end >= a.end AND (b.start < a.start OR b.end > a.end))")
		got=$(tr-read "$CORPUS/nsys/$name.sqlite" 2>/dev/null | tr-cat -J |
			jq -s '[.[] | select(.k == "region" and .paradigm == "cuda" and (.role | IN("kernel", "dev_memcpy", "dev_memset") | not)) | .id] as $r | [.[] | select(.k == "enter" and (.r | IN($r[])))] | length')
		assert_equal "$got" "$calls"
	done
	assert_equal "$(q pipit-saxpy-mpi-cuda-rank0 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME')" 95
	assert_equal "$(enters pipit-saxpy-mpi-cuda-rank0 gpu_api)" 19
}

@test "pipit-saxpy-mpi-cuda-rank0: Nsight's MPI trace (NVTX domain MPI) as MPI calls of rank 0" {
	for pair in "MPI_Send mpi_send" "MPI_Recv mpi_recv" "MPI_Init mpi_init" "MPI_Finalize mpi_finalize"; do
		set -- $pair
		want=$(q pipit-saxpy-mpi-cuda-rank0 "SELECT count(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId
			WHERE n.eventType = 59 AND s.value = '$1' AND n.domainId = (SELECT domainId FROM NVTX_EVENTS
			WHERE eventType = 75 AND text = 'MPI')")
		assert_equal "$(enters pipit-saxpy-mpi-cuda-rank0 $2)" "$want"
	done
	run bash -c "tr-read '$CORPUS/nsys/pipit-saxpy-mpi-cuda-rank0.sqlite' 2>/dev/null | tr-cat -J | jq -c 'select(.k == \"process\")'"
	assert_output '{"k":"process","id":0,"name":"MPI Rank 0","rank":0}'
}

@test "pipit-cloverleaf-4gpu: each kernel linked to its launch; the host waits in cudaDeviceSynchronize as sqlite3 finds" {
	(set -o pipefail; tr-read "$CORPUS/nsys/pipit-cloverleaf-4gpu.sqlite" | tr-deps | tr-waits | tr-cat -J > "$TMP/cl.ndjson")
	launched=$(q pipit-cloverleaf-4gpu "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1
		FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId)) + (SELECT count(*)
		FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r
		WHERE r.correlationId = m.correlationId))")
	assert_equal "$(jq -c 'select(.k == "edge" and .type == "launch")' "$TMP/cl.ndjson" | wc -l)" "$launched"
	# each cudaDeviceSynchronize that begins before the kernel launched last ends: a wait until that end
	want=$(q pipit-cloverleaf-4gpu "WITH calls AS (SELECT r.start, r.end, r.correlationId, s.value AS name
		FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId),
		k AS (SELECT c.start AS launch, kk.end AS kend FROM CUPTI_ACTIVITY_KIND_KERNEL kk
		JOIN calls c ON c.correlationId = kk.correlationId),
		w AS (SELECT d.start, d.end, (SELECT kend FROM k WHERE launch < d.start ORDER BY launch DESC LIMIT 1) AS kend
		FROM calls d WHERE d.name LIKE 'cudaDeviceSynchronize%')
		SELECT count(*) || ' ' || sum(min(end, kend) - start) FROM w WHERE kend > start")
	got=$(jq -rs '(map(select(.k == "region")) | map({key: (.id | tostring), value: .name}) | from_entries) as $n |
		(map(select(.k == "enter" or .k == "leave")) | map({key: (.id | tostring), value: .r}) | from_entries) as $r |
		[.[] | select(.k == "wait" and .pattern == "blame_kernel" and ($n[$r[.at | tostring] | tostring] | startswith("cudaDeviceSynchronize")))] |
		"\(length) \(map(.dur) | add)"' "$TMP/cl.ndjson")
	assert_equal "$got" "$want"
	assert_equal "$want" "1310 298720420"
	# every synchronization record read (as what its call waited for)
	run --separate-stderr tr-read --stats "$CORPUS/nsys/pipit-cloverleaf-4gpu.sqlite"
	n=$(q pipit-cloverleaf-4gpu 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION')
	[[ "$stderr" == *"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION $(printf '%12d %10d' "$n" 0)"* ]] || fail "$stderr"
}

@test "corpus copies with a column renamed or a table dropped: the clear error" {
	cp "$CORPUS/nsys/pipit-cloverleaf-4gpu.sqlite" "$TMP/col.sqlite"
	chmod u+w "$TMP/col.sqlite"
	sqlite3 "$TMP/col.sqlite" "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME COLUMN streamId TO stream"
	run --separate-stderr tr-read "$TMP/col.sqlite"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "tr-read: $TMP/col.sqlite: table CUPTI_ACTIVITY_KIND_KERNEL has no column streamId: an Nsight Systems export tr-read does not know (it knows those of 2022.2 to 2024.5)"
	cp "$CORPUS/nsys/pipit-saxpy-mpi-cuda-rank0.sqlite" "$TMP/drop.sqlite"
	chmod u+w "$TMP/drop.sqlite"
	sqlite3 "$TMP/drop.sqlite" "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL"
	run --separate-stderr tr-read "$TMP/drop.sqlite"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/drop.sqlite: 5 calls launch kernels, and the export has no table CUPTI_ACTIVITY_KIND_KERNEL"
	sqlite3 "$TMP/drop.sqlite" "DROP TABLE StringIds"
	run --separate-stderr tr-read "$TMP/drop.sqlite"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/drop.sqlite: no table StringIds: not an Nsight Systems export (nsys export --type sqlite)"
}
