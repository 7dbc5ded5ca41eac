# CASITA's critical path on GPU streams, for comparing with CASITA 1.9:
# CASITA links a kernel to a launch when it reads the kernel's start, from
# the launches it has read before, so where a GPU's clock runs behind its
# host's and a kernel seems to start before its launch, it cannot link it
# to it, and CASITA's path, once on a GPU stream, stays there. tr-critpath instead
# follows such an edge back to the launch, in 0 ns, and counts the step.
# This filter drops every dependency whose source is later than its target
# (a "reverse edge", which only clocks that disagree produce) from the
# stream (NDJSON in, NDJSON out), between tr-waits and tr-critpath; what it
# does and does not reproduce of CASITA's path: tr-critpath(1). It keeps
# every event's time, so it needs memory for the whole run: keep it for
# comparing.
#   tr-read run.otf2 | tr-deps | tr-waits | tr-cat -J |
#     jq -c -n -f pipelines/casita-reverse-edges.jq | tr-critpath | tr-rank
foreach inputs as $r ({};
	if $r.id != null and $r.t != null then .[$r.id | tostring] = $r.t else . end;
	if $r.k != "edge" then $r
	else .[$r.from | tostring] as $from | .[$r.to | tostring] as $to
	| if $from != null and $to != null and $from > $to then empty else $r end end)
