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
(map(select(.k == "region")) | map({key: (.id|tostring), value: .name}) | from_entries) as $name
| map(select(.t != null and .id != null)) as $events
| ($events | map({key: (.id|tostring), value: .t}) | from_entries) as $t
| ($events | group_by(.s) | map({key: (.[0].s|tostring), value: (map(.t) | min)}) | from_entries) as $first
| ($events | map(.t) | min) as $t0
| (map(select(.k == "wait")) | map({key: (.at|tostring), value: .}) | from_entries) as $wait
| [.[] | select(.k == "blame") | . as $b | $wait[$b.wait|tostring] as $w
   | if $w.pattern == "wait_init" then
       $t[$w.cause|tostring] as $arrival
       | {r: $b.r, ns: ($b.ns * ($arrival - $first[$b.s|tostring]) / ($arrival - $t0))}
     else {r: $b.r, ns: $b.ns} end]
| (group_by(.r) | map({name: $name[.[0].r|tostring], s: (map(.ns) | add / 1e9)})
   | sort_by(-.s) | .[] | "\(.name) \(.s)"),
  "total \(map(.ns) | add / 1e9)"
