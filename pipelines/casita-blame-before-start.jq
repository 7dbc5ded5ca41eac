# Blame of waits at MPI_Init as CASITA 1.9 assigns it, for comparing with it.
# A rank that starts late makes the others wait in MPI_Init. Both tools
# split such a wait over the late rank's activities before its MPI_Init. For
# tr-waits that stretch begins at the rank's first event, so what ran there
# (main) takes the whole wait. For CASITA it begins at the run's first event;
# the part before the rank's first event has no activity to take its share,
# and that share is blamed on nothing. This scales each wait_init blame by
# (arrival - rank's first event) / (arrival - run's first event) and prints
# "REGION SECONDS" per region, most first, then "total SECONDS".
#   tr-read run.otf2 | tr-deps | tr-waits | tr-cat -J | jq -rs -f pipelines/casita-blame-before-start.jq
. as $all
| (map(select(.k == "region")) | map({key: (.id|tostring), value: .name}) | from_entries) as $name
| (map(select(.k == "wait")) | map({key: (.at|tostring), value: .}) | from_entries) as $wait
| ([$wait[] | select(.pattern == "wait_init") | .cause | tostring]
   | map({key: ., value: true}) | from_entries) as $causes
# each stream's first event, the run's, and the causes' times, in one pass
| reduce (.[] | select(.t != null and .id != null)) as $e ({first: {}, t0: null, t: {}};
    ($e.s | tostring) as $s
    | if .first[$s] == null or $e.t < .first[$s] then .first[$s] = $e.t else . end
    | if .t0 == null or $e.t < .t0 then .t0 = $e.t else . end
    | if $causes[$e.id | tostring] then .t[$e.id | tostring] = $e.t else . end)
| .first as $first | .t0 as $t0 | .t as $t
| [$all[] | select(.k == "blame") | . as $b | $wait[$b.wait|tostring] as $w
   | if $w.pattern == "wait_init" and $t[$w.cause|tostring] != null then
       $t[$w.cause|tostring] as $arrival
       | {r: $b.r, ns: (if $arrival > $t0
                        then $b.ns * ($arrival - $first[$b.s|tostring]) / ($arrival - $t0)
                        else $b.ns end)}
     else {r: $b.r, ns: $b.ns} end]
| (group_by(.r) | map({name: $name[.[0].r|tostring], s: (map(.ns) | add / 1e9)})
   | sort_by(-.s) | .[] | "\(.name) \(.s)"),
  "total \((map(.ns) | add // 0) / 1e9)"
