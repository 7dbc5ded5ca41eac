# CASITA's critical path, for comparing with CASITA 1.9: CASITA ignores
# every dependency whose source is later than its target (a "reverse
# edge", which only clocks that disagree produce). Where a GPU's clock runs
# behind its host's, every kernel seems to start before its launch, so no
# launch edge is left: CASITA's path, once on a GPU stream, stays there,
# idle stretches included. tr-critpath instead follows such an edge back
# to the launch, in 0 ns, and counts the step. This filter drops those
# edges from the stream (NDJSON in, NDJSON out), between tr-waits and
# tr-critpath. It keeps every event's time, so it needs memory for the
# whole run: keep it for comparing.
#   tr-read run.otf2 | tr-deps | tr-waits | tr-cat -J |
#     jq -c -n -f pipelines/casita-reverse-edges.jq | tr-critpath | tr-rank
foreach inputs as $r ({};
	if $r.id != null and $r.t != null then .[$r.id | tostring] = $r.t else . end;
	if $r.k != "edge" then $r
	else .[$r.from | tostring] as $from | .[$r.to | tostring] as $to
	| if $from != null and $to != null and $from > $to then empty else $r end end)
