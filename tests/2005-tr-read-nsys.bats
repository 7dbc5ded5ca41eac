#!/usr/bin/env bats
# tr-read on Nsight Systems SQLite exports written here with sqlite3, as
# Nsight lays its tables out (only the columns tr-read asks for), whose
# every time is given: roles, the refs correlation ids make, Nsight's MPI
# domain, a call recorded twice, several ranks, bad input.

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# An export at $1 of rank $2 whose session started at $3 ns (UTC): thread
# 4242 of a process whose globalPid is (1 << 48) | (4242 << 24) runs
#   region A (NVTX)              [500, 9500]
#   cudaLaunchKernel_v7000       [1000, 1500] corr 10 -> my_kernel [1600, 8000] on stream 13
#   cudaStreamSynchronize_v3020  [4000, 9000] corr 12 (stream 13)
#   cudaMalloc [9100, 9200] holding cudaMalloc_v3020 [9110, 9190], corr 11: one call
#   MPI_Send (NVTX, domain "MPI") [9600, 9900]; a mark at 9950
mkdb() {
	local gpid=$(((1 << 48) | (4242 << 24))) tid
	tid=$((gpid + 4242))
	sqlite3 "$1" <<-EOF
		CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
		INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cudaStreamSynchronize_v3020'),
			(3, 'my_kernel'), (5, 'MPI_Send'), (6, 'region A'), (7, 'MPI Rank $2'),
			(10, 'cudaMalloc'), (11, 'cudaMalloc_v3020');
		CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER,
			globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
		INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1500, 0, $tid, 10, 1, 0),
			(4000, 9000, 0, $tid, 12, 2, 0), (9100, 9200, 67, $tid, 11, 10, 0), (9110, 9190, 0, $tid, 11, 11, 0);
		CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
			contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, shortName INTEGER);
		INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1600, 8000, 0, 1, 13, 10, $gpid, 3);
		CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER, end INTEGER, deviceId INTEGER,
			contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, syncType INTEGER,
			eventId INTEGER);
		INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (4000, 8000, 0, 1, 13, 12, $gpid, 3, 4294967295);
		CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,
			text TEXT, globalTid INTEGER, textId INTEGER, domainId INTEGER);
		INSERT INTO NVTX_EVENTS VALUES (100, NULL, 75, NULL, 'MPI', $tid, NULL, 1),
			(500, 9500, 59, NULL, NULL, $tid, 6, 0), (9600, 9900, 59, NULL, NULL, $tid, 5, 1),
			(9950, NULL, 34, NULL, 'a mark', $tid, NULL, 0);
		CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
		INSERT INTO ThreadNames VALUES (7, 0, $tid);
		CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
		INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES ($3, '', '');
	EOF
}

# "KIND T NAME ref_stream corr" for each enter and leave of stream $1 in the stream $2
events() {
	tr-cat -J "$2" | jq -rs '(map(select(.k == "region") | {key: (.id | tostring), value: "\(.name)/\(.role)"}) | from_entries) as $n |
		.[] | select((.k == "enter" or .k == "leave") and .s == '"$1"') | "\(.k) \(.t) \($n[.r | tostring]) \(.ref_stream) \(.corr)"'
}

@test "an export: its process by the thread Nsight's MPI trace names, calls, kernels and NVTX ranges nested, each call's stream" {
	mkdb "$TMP/a.sqlite" 3 1000000000
	run --separate-stderr tr-read "$TMP/a.sqlite"
	assert_success
	assert_equal "$stderr" "tr-read: $TMP/a.sqlite: 1 runtime calls Nsight recorded twice (as cudaMalloc and cudaMalloc_v3020, one correlation id): read once"
	tr-read "$TMP/a.sqlite" 2>/dev/null > "$TMP/a.tr"
	run tr-cat --check "$TMP/a.tr"
	assert_success
	run bash -c "tr-cat -J '$TMP/a.tr' | jq -c 'select(.k == \"process\" or .k == \"stream\")'"
	assert_output '{"k":"process","id":0,"name":"MPI Rank 3","rank":3}
{"k":"stream","id":0,"process":0,"name":"MPI Rank 3","type":"host","native":4242}
{"k":"stream","id":1,"process":0,"name":"CUDA[0:13]","type":"gpu","device":0,"native":13}'
	run events 0 "$TMP/a.tr"
	assert_output "enter 500 region A/cpu null null
enter 1000 cudaLaunchKernel_v7000/launch 1 10
leave 1500 cudaLaunchKernel_v7000/launch null 10
enter 4000 cudaStreamSynchronize_v3020/stream_sync 1 12
leave 9000 cudaStreamSynchronize_v3020/stream_sync null 12
enter 9100 cudaMalloc/alloc null 11
leave 9200 cudaMalloc/alloc null 11
leave 9500 region A/cpu null null
enter 9600 MPI_Send/mpi_send null null
leave 9900 MPI_Send/mpi_send null null"
	run events 1 "$TMP/a.tr"
	assert_output "enter 1600 my_kernel/kernel null 10
leave 8000 my_kernel/kernel null 10"
	run bash -c "tr-cat -J '$TMP/a.tr' | jq -r 'select(.k == \"region\" and .name == \"MPI_Send\").paradigm'"
	assert_output mpi
}

@test "the stages on it: the kernel linked to its launch, the synchronization waits 4000 ns for it" {
	mkdb "$TMP/a.sqlite" 3 1000000000
	tr-read "$TMP/a.sqlite" 2>/dev/null | tr-deps | tr-waits | tr-cat -J > "$TMP/a.ndjson"
	run jq -r 'select(.k == "edge") | "\(.type) \(.from) \(.to)"' "$TMP/a.ndjson"
	assert_output "launch 1 3
sync 5 6"
	run jq -r 'select(.k == "wait") | "\(.pattern) \(.t) \(.dur)"' "$TMP/a.ndjson"
	assert_output "blame_kernel 4000 4000"
}

@test "a CUDA graph: cudaGraphLaunch's three kernels (its correlation id, graphId) each linked to it, the sync to the last (issue 56)" {
	# thread 4242: cudaGraphLaunch_v10000 [1000, 1500] corr 20 -> g1 [2000,
	# 3000], g2 [3000, 4000], g3 [4000, 6000] on stream 13, all corr 20
	# (graph 5); cudaStreamSynchronize_v3020 [1600, 6100] corr 21
	local gpid=$(((1 << 48) | (4242 << 24))) tid
	tid=$((gpid + 4242))
	sqlite3 "$TMP/g.sqlite" <<-EOF
		CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
		INSERT INTO StringIds VALUES (1, 'cudaGraphLaunch_v10000'), (2, 'cudaStreamSynchronize_v3020'),
			(3, 'g1'), (4, 'g2'), (5, 'g3');
		CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER,
			globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
		INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1500, 0, $tid, 20, 1, 0),
			(1600, 6100, 0, $tid, 21, 2, 0);
		CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
			contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, shortName INTEGER,
			graphId INTEGER, graphNodeId INTEGER);
		INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000, 3000, 0, 1, 13, 20, $gpid, 3, 5, 1),
			(3000, 4000, 0, 1, 13, 20, $gpid, 4, 5, 2), (4000, 6000, 0, 1, 13, 20, $gpid, 5, 5, 3);
		CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER, end INTEGER, deviceId INTEGER,
			contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, syncType INTEGER,
			eventId INTEGER);
		INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (1600, 6000, 0, 1, 13, 21, $gpid, 3, 4294967295);
		CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
		INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1000000000, '', '');
	EOF
	run --separate-stderr bash -c "tr-read '$TMP/g.sqlite' | tr-deps | tr-waits | tr-cat -J |
		jq -r 'select(.k == \"edge\" or .k == \"wait\") | if .k == \"edge\" then \"\(.type) \(.from) \(.to)\" else \"\(.pattern) \(.t) \(.dur)\" end'"
	assert_success
	assert_equal "$stderr" ""
	# ids: the launch 0 and 1, the sync 2, g1 3 and 4, g2 5 and 6, g3 7 and 8,
	# the sync's leave 9; it waits from 1600 to g3's end, 6000. The launch
	# is read once (the export joins its three kernels to it), not said to
	# be recorded twice
	assert_output "launch 0 3
launch 0 5
launch 0 7
sync 8 9
blame_kernel 1600 4400"
}

@test "several exports, one per rank: on one clock by their sessions' start" {
	mkdb "$TMP/r3.sqlite" 3 1000000000
	mkdb "$TMP/r4.sqlite" 4 1000000700
	tr-read "$TMP/r3.sqlite" "$TMP/r4.sqlite" 2>/dev/null > "$TMP/two.tr"
	run bash -c "tr-cat -J '$TMP/two.tr' | jq -r 'select(.k == \"process\") | \"\(.id) \(.name)\"'"
	assert_output "0 MPI Rank 3
1 MPI Rank 4"
	run events 2 "$TMP/two.tr"
	assert_line --index 0 "enter 1200 region A/cpu null null"
	assert_line --index 1 "enter 1700 cudaLaunchKernel_v7000/launch 3 10"
}

@test "--stats: rows read and skipped by table" {
	mkdb "$TMP/a.sqlite" 3 1000000000
	run --separate-stderr tr-read --stats "$TMP/a.sqlite"
	[[ "$stderr" == *"CUPTI_ACTIVITY_KIND_RUNTIME             3          1"* ]] || fail "$stderr"
	[[ "$stderr" == *"NVTX_EVENTS                             2          2"* ]] || fail "$stderr"
}

@test "bad input: a table or column missing named; a report of Nsight's own; not an export" {
	mkdb "$TMP/a.sqlite" 3 1000000000
	cp "$TMP/a.sqlite" "$TMP/col.sqlite"
	sqlite3 "$TMP/col.sqlite" "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME RENAME COLUMN correlationId TO corrId"
	run --separate-stderr tr-read "$TMP/col.sqlite"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "tr-read: $TMP/col.sqlite: table CUPTI_ACTIVITY_KIND_RUNTIME has no column correlationId: an Nsight Systems export tr-read does not know (it knows those of 2022.2 to 2024.5)"
	cp "$TMP/a.sqlite" "$TMP/nokernel.sqlite"
	sqlite3 "$TMP/nokernel.sqlite" "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL"
	run --separate-stderr tr-read "$TMP/nokernel.sqlite"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/nokernel.sqlite: 1 calls launch kernels, and the export has no table CUPTI_ACTIVITY_KIND_KERNEL"
	sqlite3 "$TMP/other.sqlite" "CREATE TABLE t (x INTEGER)"
	run --separate-stderr tr-read "$TMP/other.sqlite"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/other.sqlite: no table StringIds: not an Nsight Systems export (nsys export --type sqlite)"
	echo "not sqlite" > "$TMP/run.nsys-rep"
	run --separate-stderr tr-read "$TMP/run.nsys-rep"
	assert_failure 1
	assert_equal "$stderr" "tr-read: $TMP/run.nsys-rep: an Nsight Systems report, which only Nsight reads: tr-read reads its SQLite export (nsys export --type sqlite --output NAME.sqlite $TMP/run.nsys-rep)"
	# SQLite opens a database by its name: not from standard input
	run --separate-stderr bash -c "cat '$TMP/a.sqlite' | tr-read -"
	assert_failure 1
	assert_equal "$stderr" "tr-read: -: Nsight Systems exports are read by their files, NAME.sqlite (nsys export --type sqlite), not from standard input"
	printf 'SQLite format 3\0garbage' > "$TMP/broken.sqlite"
	run --separate-stderr tr-read "$TMP/broken.sqlite"
	assert_failure 1
	[[ "$stderr" == "tr-read: $TMP/broken.sqlite: "* ]] || fail "$stderr"
	[ "$(echo "$stderr" | wc -l)" -eq 1 ] || fail "$stderr"
}

@test "on a terminal a progress line with the share of the export's rows read; none with -q" {
	gpid=$((4242 << 24))
	sqlite3 "$TMP/big.sqlite" <<-SQL
		CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
		INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'k');
		CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER,
			correlationId INTEGER, nameId INTEGER);
		CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
			streamId INTEGER, correlationId INTEGER, globalPid INTEGER, shortName INTEGER);
		WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < 299999)
			INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT n * 1000, n * 1000 + 300, $gpid + 4242, n + 1, 1 FROM i;
		WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < 299999)
			INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT n * 1000 + 400, n * 1000 + 900, 0, 7, n + 1, $gpid, 2 FROM i;
	SQL
	script -qec "tr-read '$TMP/big.sqlite' > /dev/null" "$TMP/tty.log" > /dev/null
	assert_progress_line tr-read events "$TMP/tty.log"
	script -qec "tr-read -q '$TMP/big.sqlite' > /dev/null" "$TMP/quiet.log" > /dev/null
	assert_no_progress_line events "$TMP/quiet.log"
}

@test "odd rows (an end before the start, no end, a time outside the range or not an integer, a correlation id that is text): counted, said once, left out or not linked" {
	require_corpus
	src="$CORPUS/nsys/pipit-saxpy-mpi-cuda-rank0.sqlite"
	# a copy with the constraints off, one column of one table damaged
	mutate() {
		cp "$src" "$TMP/$1.sqlite"
		python3 - "$TMP/$1.sqlite" "$2" "$3" "${4-}" <<'PY'
import sqlite3, sys
path, table, sql, arg = sys.argv[1:5]
c = sqlite3.connect(path)
cols = list(c.execute('pragma table_info("%s")' % table))
c.execute('create table "%s__u" (%s)' % (table, ', '.join('"%s" %s' % (r[1], r[2]) for r in cols)))
c.execute('insert into "%s__u" select * from "%s"' % (table, table))
c.execute('drop table "%s"' % table)
c.execute('alter table "%s__u" rename to "%s"' % (table, table))
c.execute(sql, (arg,) if arg else ())
c.commit()
PY
	}
	K=CUPTI_ACTIVITY_KIND_KERNEL R=CUPTI_ACTIVITY_KIND_RUNTIME
	mutate kend_lt_start $K "update $K set \"end\" = \"start\" - 1000"
	mutate kend_null $K "update $K set \"end\" = NULL"
	mutate kstart_text $K "update $K set \"start\" = ?" soon
	mutate rt_start_min $R "update $R set \"start\" = -9223372036854775808"
	mutate corr_text $R "update $R set correlationId = ?" abc
	dup="tr-read: %s: 38 runtime calls Nsight recorded twice (as cudaMalloc and cudaMalloc_v3020, one correlation id): read once"
	for case in "kend_lt_start:5 calls or activities that end before they start, left out:94" \
		    "kend_null:5 calls or GPU activities without a start or end, left out:94" \
		    "kstart_text:5 calls or activities whose start or end is not an integer, left out:94" \
		    "rt_start_min:95 calls or activities outside the times a stream may hold ([-2^61, 2^61) ns), left out:42" \
		    "corr_text:57 correlation ids that are not integers: those calls and GPU activities not linked:99"; do
		name=${case%%:*} rest=${case#*:} what=${case#*:}
		what=${what%:*} enters=${rest##*:}
		f="$TMP/$name.sqlite"
		tr-read "$f" > "$TMP/$name.tr" 2> "$TMP/$name.err"
		grep -vF "$(printf "$dup" "$f")" "$TMP/$name.err" | grep -v 'tables tr-read has no reader for' > "$TMP/$name.odd" || true
		assert_equal "$(cat "$TMP/$name.odd")" "tr-read: $f: $what"
		assert_equal "$(tr-cat -J "$TMP/$name.tr" | grep -c '"k":"enter"')" "$enters"
		run tr-cat --check "$TMP/$name.tr"
		assert_success
	done
	# a text correlation id links nothing: no launch finds its kernel
	assert_equal "$(tr-read "$src" 2>/dev/null | tr-deps -J 2>/dev/null | grep -c '"type":"launch"')" 20
	assert_equal "$(tr-deps -J "$TMP/corr_text.tr" 2>/dev/null | grep -c '"type":"launch"')" 0
	# the Nsight export's strings as BLOBs, not UTF-8: repaired, said
	mutate strings_blob StringIds "update StringIds set value = ?" x
	python3 -c "
import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('update StringIds set value = ?', (b'\xff\xfe\x80abc',)); c.commit()" "$TMP/strings_blob.sqlite"
	tr-read "$TMP/strings_blob.sqlite" > "$TMP/blob.tr" 2> "$TMP/blob.err"
	grep -q 'strings that are not valid UTF-8' "$TMP/blob.err"
	run tr-cat --check "$TMP/blob.tr"
	assert_success
}

@test "the tables of events tr-read has no reader for (OS runtime calls, scheduling, samples, call stacks): their rows said in one line, each table in --stats" {
	require_corpus
	db="$CORPUS/nsys/pipit-cloverleaf-4gpu.sqlite"
	# what the database holds, asked of SQLite: every table with a start or
	# timestamp column, or of call stacks, but the ones tr-read reads
	python3 - "$db" > "$TMP/want" <<'PY'
import sqlite3, sys
read = {"StringIds", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
        "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "CUPTI_ACTIVITY_KIND_CUDA_EVENT",
        "NVTX_EVENTS", "ThreadNames", "PROCESSES", "TARGET_INFO_SESSION_START_TIME", "TARGET_INFO_CUDA_NULL_STREAM"}
c = sqlite3.connect(sys.argv[1])
rows = []
for (t,) in c.execute("select name from sqlite_master where type = 'table' order by name"):
    cols = [r[1] for r in c.execute('pragma table_info("%s")' % t)]
    if t in read or not ('start' in cols or 'timestamp' in cols or t.endswith('CALLCHAINS')):
        continue
    n = c.execute('select count(*) from "%s"' % t).fetchone()[0]
    if n:
        rows.append((t, n))
print(sum(n for _, n in rows))
print(", ".join("%s %d" % r for r in rows))
PY
	run --separate-stderr bash -c "tr-read '$db' > /dev/null"
	assert_success
	[[ "$stderr" == *"tr-read: $db: $(sed -n 1p "$TMP/want") rows of tables tr-read has no reader for (OS runtime calls, scheduling, CPU samples, ...: tr-read --stats names them), left out"* ]] ||
		fail "$stderr"
	run --separate-stderr bash -c "tr-read --stats '$db' > /dev/null"
	[[ "$stderr" == *"$db: tables not read: $(sed -n 2p "$TMP/want")"* ]] || fail "$stderr"
	grep -q OSRT_API "$TMP/want"
}

@test "unified memory's page migrations (copy kinds 11-13): GPU work of their own role, which no call enqueues; nothing said of a missing call" {
	require_corpus
	# the saxpy export with three migrations added on its copy stream, with
	# no correlation id: HtoD 2 us, DtoH 3 us, and a second HtoD 1 us
	python3 - "$CORPUS/nsys/pipit-saxpy-mpi-cuda-rank0.sqlite" "$TMP/um.sqlite" <<'PY'
import shutil, sqlite3, sys
shutil.copy(sys.argv[1], sys.argv[2])
c = sqlite3.connect(sys.argv[2])
start, pid = c.execute('select start, globalPid from CUPTI_ACTIVITY_KIND_MEMCPY order by start limit 1').fetchone()
for i, (kind, dur) in enumerate([(11, 2000), (12, 3000), (11, 1000)]):
    t = start - 1000000 + i * 10000
    c.execute('insert into CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, correlationId, '
              'globalPid, bytes, copyKind) values (?, ?, 0, 1, 7, NULL, ?, 65536, ?)', (t, t + dur, pid, kind))
c.commit()
PY
	run --separate-stderr bash -c "tr-read '$TMP/um.sqlite' | tr-cat -J |
		jq -c 'select(.k == \"region\" and .role == \"dev_migrate\") | [.name, .dir]'"
	assert_success
	assert_output '["Unified memory HtoD","htod"]
["Unified memory DtoH","dtoh"]'
	# their time, as enters and leaves on the copy stream
	run bash -c "tr-read '$TMP/um.sqlite' 2>/dev/null | tr-cat -J | jq -s -c '
		(map(select(.k == \"region\" and .role == \"dev_migrate\") | .id)) as \$m |
		map(select(.k == \"enter\" or .k == \"leave\") | select(.r as \$r | \$m | index(\$r))) |
		[group_by(.r)[] | [.[0].r, (map(select(.k == \"leave\") | .t) | add) - (map(select(.k == \"enter\") | .t) | add)]]'"
	assert_output --regexp '^\[\[[0-9]+,3000\],\[[0-9]+,3000\]\]$'
	# tr-deps looks for no call of theirs: the export's own oddities only
	run --separate-stderr bash -c "tr-read '$CORPUS/nsys/pipit-saxpy-mpi-cuda-rank0.sqlite' 2>/dev/null | tr-deps > /dev/null"
	want=$stderr
	run --separate-stderr bash -c "tr-read '$TMP/um.sqlite' 2>/dev/null | tr-deps > /dev/null"
	assert_success
	assert_equal "$stderr" "$want"
	run --separate-stderr bash -c "tr-read --stats '$TMP/um.sqlite' 2>&1 > /dev/null | grep -E '^  dev_migrate '"
	assert_output --regexp '^  dev_migrate +3$'
}
