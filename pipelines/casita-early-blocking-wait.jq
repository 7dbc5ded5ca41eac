# CASITA's "Early blocking wait", for comparing with CASITA 1.9: every
# blocking call (a synchronization, or a blocking copy or set) during which
# a kernel of its process ran counts with its WHOLE duration; "on compute
# kernels" is the time kernels ran during those calls. tr-waits' blame_kernel
# counts only the time the call waited for device work other than its own
# copy. Prints "COUNT SECONDS ON-KERNEL-SECONDS".
#   tr-read run.otf2 | tr-cat -J | jq -rs -f pipelines/casita-early-blocking-wait.jq
(map(select(.k == "region")) | map({key: (.id|tostring), value: .role}) | from_entries) as $role
| (map(select(.k == "stream")) | map({key: (.id|tostring), value: .}) | from_entries) as $stream
| [map(select(.k | IN("enter", "leave"))) | group_by(.s)[]
   | reduce .[] as $e ({open: [], acts: []};
       if $e.k == "enter" then .open += [$e]
       else .acts += [{s: $e.s, r: .open[-1].r, t0: .open[-1].t, t1: $e.t}] | .open |= .[:-1] end)
   | .acts[]
   | . + {p: $stream[.s|tostring].process, gpu: ($stream[.s|tostring].type == "gpu"),
          role: $role[.r|tostring]}] as $acts
| ($acts | map(select(.gpu and .role == "kernel"))) as $kernels
| [$acts[] | select((.gpu | not) and
                    (.role | IN("memcpy", "memset", "ctx_sync", "stream_sync", "event_sync")))
   | . as $c
   | [$kernels[] | select(.p == $c.p and .t0 < $c.t1 and .t1 > $c.t0)
      | ([.t1, $c.t1] | min) - ([.t0, $c.t0] | max)]
   | select(length > 0)
   | {whole: ($c.t1 - $c.t0), on_kernel: add}]
| "\(length) \(map(.whole) | add / 1e9) \(map(.on_kernel) | add / 1e9)"
