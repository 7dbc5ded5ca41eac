# CASITA's "Idle device", for comparing with CASITA 1.9: per process, the
# time none of its GPU streams ran a kernel, copy or set, from its first
# offload call (a launch, copy, set, synchronization, event or stream
# query) to its last one's end. tr-waits' gpu_idle counts only between two device activities:
# a GPU not given work yet, or not any more, is not idle for it. Prints
# "SECONDS BETWEEN-ACTIVITIES-SECONDS": CASITA's figure, then the part of it
# between device activities (tr-waits' gpu_idle where host threads were busy).
#   tr-read run.otf2 | tr-cat -J | jq -rs -f pipelines/casita-idle-device.jq
(map(select(.k == "region")) | map({key: (.id|tostring), value: .role}) | from_entries) as $role
| (map(select(.k == "stream")) | map({key: (.id|tostring), value: .}) | from_entries) as $stream
# every activity, from its enter and leave (a stack per stream)
| [foreach (.[] | select(.k == "enter" or .k == "leave")) as $e ({open: {}, act: null};
     ($e.s | tostring) as $s
     | if $e.k == "enter" then .open[$s] += [[$e.r, $e.t]] | .act = null
       else .open[$s][-1] as $o | .act = {s: $e.s, r: $o[0], t0: $o[1], t1: $e.t}
       | .open[$s] |= .[:-1] end;
     .act // empty)
   | . + {p: $stream[.s|tostring].process, gpu: ($stream[.s|tostring].type == "gpu"),
          role: $role[.r|tostring]}] as $acts
| [$acts | group_by(.p)[]
   | (map(select(.gpu and (.role | IN("kernel", "dev_memcpy", "dev_memset")))) | sort_by(.t0)) as $dev
   | (map(select((.gpu | not) and (.role | IN("launch", "memcpy", "memcpy_async", "memset",
        "memset_async", "stream_sync", "ctx_sync", "event_sync", "event_query",
        "stream_query", "event_record", "stream_wait"))))) as $calls
   | select(($dev | length) > 0)
   # the gaps between device activities, and where the last one ended
   | (reduce $dev[] as $x ({end: null, gaps: 0};
        (if .end != null and $x.t0 > .end then .gaps += $x.t0 - .end else . end)
        | .end = ([.end // $x.t1, $x.t1] | max))) as $run
   | {gaps: $run.gaps,
      before: ([$dev[0].t0 - ($calls | map(.t0) | min // $dev[0].t0), 0] | max),
      after: ([($calls | map(.t1) | max // $run.end) - $run.end, 0] | max)}]
| "\((map(.gaps + .before + .after) | add // 0) / 1e9) \((map(.gaps) | add // 0) / 1e9)"
