# Blame of MPI collective waits as CASITA 1.9 spreads it, for comparing with
# it. Both tools blame a collective's waiting on what its last arriver ran
# before it, by duration, back to the end of that rank's previous blocking
# MPI call; neither ends it at an OpenMP barrier. They differ in what ends
# that stretch: for tr-waits every MPI call that communicates except Isend
# and Irecv (a Wait or Waitall always); for CASITA a Wait or Waitall only
# where it waited for a late sender, so that a Waitall that did not wait
# takes a share of the blame. CASITA also keeps the waiting inside the
# stretch (a Waitall that waited, an OpenMP barrier's wait) in the time it
# spreads over, and a stretch that reaches the
# rank's first event begins at the run's first, its part before the rank's
# first event blamed on nothing (so that the total is less than the
# waiting time where a rank came late to MPI_Init). Prints "SECONDS REGION"
# per region, most first, then "total SECONDS".
#   tr-read run.otf2 | tr-deps | tr-waits | tr-cat -J | jq -rs -f pipelines/casita-collective-blame.jq
. as $all
| (map(select(.k == "region")) | map({key: (.id|tostring), value: .}) | from_entries) as $region
# a Wait or Waitall that waited: the enters of late-sender waits
| (map(select(.k == "wait" and (.pattern | startswith("late_sender"))) | {key: (.at|tostring), value: true})
   | from_entries) as $waited
# the collective waits' blame, per last arriver's enter
| (map(select(.k == "wait" and (.pattern | IN("wait_nxn", "wait_barrier", "early_reduce",
       "late_broadcast", "early_scan", "wait_init", "wait_finalize"))))
   | group_by(.cause) | map({key: (.[0].cause|tostring), value: (map(.dur) | add)}) | from_entries) as $blame
| (map(select(.t != null and .id != null)) | map(.t) | min) as $t0
# per stream, its enters and leaves in order, each with the region running
# after it, and at a last arriver's enter where its stretch begins (the
# leave of the stream's latest blocking call, -1: none) and its blame
| [map(select(.k == "enter" or .k == "leave")) | group_by(.s)[]
   | [foreach .[] as $e ({stack: [], last: -1, i: -1};
       .i += 1
       | if $e.k == "enter" then .stack += [[$e.r, $e.id]] | .after = $e.r
           | .cause = (if $blame[$e.id|tostring] != null then [.last, $blame[$e.id|tostring]] else null end)
         else .stack[-1] as $open | .stack |= .[:-1] | .after = .stack[-1][0] | .cause = null
           | ($region[$e.r|tostring].role) as $role
           | if ($role | IN("mpi_init", "mpi_finalize", "mpi_n2n", "mpi_barrier", "mpi_one2n",
                            "mpi_n2one", "mpi_scan", "mpi_sendrecv", "mpi_recv", "mpi_send"))
                or ($role == "mpi_wait" and $waited[$open[1]|tostring] != null)
             then .last = .i else . end
         end;
       {t: $e.t, after, cause})]
   | . as $evs | to_entries[] | select(.value.cause) | .key as $at | .value.cause[0] as $from
   | .value.cause[1] as $b
   | ($evs[$at].t - (if $from < 0 then $t0 else $evs[$from].t end)) as $span
   | select($span > 0)
   | range([$from, 0] | max; $at) as $i
   | {r: $evs[$i].after, ns: ($b * ($evs[$i + 1].t - $evs[$i].t) / $span)}]
| (group_by(.r) | map({name: ($region[.[0].r|tostring].name // "(no activity)"), s: (map(.ns) | add / 1e9)})
   | sort_by(-.s)[] | "\(.s) \(.name)"),
  "total \((map(.ns) | add // 0) / 1e9)"
