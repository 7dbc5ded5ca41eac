# CASITA's "MPI_Waitall late partner" time, for comparing with CASITA 1.9:
# each Waitall waits until the END of the partner's Isend call (tr-waits,
# as Scalasca, waits only until its begin). Prints "COUNT SECONDS".
#   tr-read run.otf2 | tr-deps | tr-cat -J | jq -rs -f pipelines/casita-waitall-late-partner.jq
(map(select(.k == "region")) | map({key: (.id|tostring), value: .role}) | from_entries) as $role
| ([map(select(.k | IN("enter", "leave", "send", "recv"))) | group_by(.s)[] | . as $e
    | range(length) as $i | $e[$i] | select(.k | IN("send", "recv"))
    | {key: (.id|tostring), value: {t, call: ([$e[:$i][] | select(.k == "enter")] | last),
                                     left: ([$e[$i+1:][] | select(.k == "leave")] | first)}}]
   | from_entries) as $at
| [map(select(.k == "edge" and .type == "msg"))[]
   | $at[.from|tostring] as $s | $at[.to|tostring] as $r
   | select($role[$r.call.r|tostring] == "mpi_wait")
   | {w: $r.call.id, ns: (([$s.left.t, $r.left.t] | min) - $r.call.t)}]
| group_by(.w) | map(map(.ns) | max) | map(select(. > 0))
| "\(length) \(add / 1e9)"
