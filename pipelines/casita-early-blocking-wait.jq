# CASITA's "Early blocking wait", for comparing with CASITA 1.9: every
# blocking call (a synchronization, or a blocking copy or set) during which
# a kernel of its process ran counts with its WHOLE duration; "on compute
# kernels" is the time kernels ran during those calls. tr-waits' blame_kernel
# counts only the time the call waited for device work other than its own
# copy. Prints "COUNT SECONDS ON-KERNEL-SECONDS"; with --arg by region,
# "SECONDS REGION" for each kernel region instead: the time its kernels ran
# during those calls, CASITA's blame of the kernel ("host wait"); with
# --arg by transfer, "SECONDS REGION" for each copy region: the whole time
# of its blocking copies during which no kernel ran, which CASITA counts as
# waiting and blames on the copy itself ("blocking transfer").
#   tr-read run.otf2 | tr-cat -J | jq -rs -f pipelines/casita-early-blocking-wait.jq

# How many of the sorted numbers $a are less than $x (after: at most $x).
def below($a; $x): ($a | bsearch($x)) as $i | if $i < 0 then -1 - $i
	else [range($i; -1; -1) | select($a[.] < $x)] | first // -1 | . + 1 end;
def upto($a; $x): ($a | bsearch($x)) as $i | if $i < 0 then -1 - $i
	else [range($i; $a | length) | select($a[.] > $x)] | first // ($a | length) end;

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
# per process: the kernels' sorted begins and ends, and the time kernels ran
# up to each change in how many ran (kernels running together count each)
| ($acts | map(select(.gpu and .role == "kernel")) | group_by(.p)
   | map({key: (.[0].p|tostring), value: (
       (map([.t0, 1], [.t1, -1]) | sort) as $ch
       | {t0: (map(.t0) | sort), t1: (map(.t1) | sort), at: ($ch | map(.[0])),
          ran: [foreach $ch[] as $c ({t: null, n: 0, ran: 0};
                  .ran += (if .t == null then 0 else .n * ($c[0] - .t) end)
                  | .t = $c[0] | .n += $c[1];
                  [.ran, .n])]})})
   | from_entries) as $kernels
# the kernels' time up to t in process p's kernels $k
| def ran($k; $t): upto($k.at; $t) as $i
	| if $i == 0 then 0 else $k.ran[$i - 1] as $r | $r[0] + $r[1] * ($t - $k.at[$i - 1]) end;
  [$acts[] | select((.gpu | not) and
                    (.role | IN("memcpy", "memset", "ctx_sync", "stream_sync", "event_sync")))
   | . as $c | $kernels[.p|tostring] as $k | select($k != null)
   # kernels that began before the call ended and ended after it began
   | select(below($k.t0; $c.t1) - upto($k.t1; $c.t0) > 0)] as $early
| if $ARGS.named.by == "transfer" then
    # a blocking copy during which no kernel of its process ran: a "late"
    # synchronization, its whole duration waiting blamed on itself
    (map(select(.k == "region")) | map({key: (.id|tostring), value: .name}) | from_entries) as $name
    | [$acts[] | select((.gpu | not) and .role == "memcpy")
       | . as $c | $kernels[.p|tostring] as $k
       | select($k == null or below($k.t0; $c.t1) - upto($k.t1; $c.t0) <= 0)]
    | group_by(.r) | map({r: .[0].r, ns: (map(.t1 - .t0) | add)}) | sort_by(-.ns)[]
    | "\(.ns / 1e9) \($name[.r|tostring])"
  elif $ARGS.named.by == "region" then
    # per GPU stream, its kernels in order (begins and ends both sorted)
    ($acts | map(select(.gpu and .role == "kernel")) | group_by(.s)
     | map({p: .[0].p, t0: map(.t0), t1: map(.t1), r: map(.r)})) as $streams
    | (map(select(.k == "region")) | map({key: (.id|tostring), value: .name}) | from_entries) as $name
    | reduce ($early[] as $c | $streams[] | select(.p == $c.p) | . as $q
              | range(upto($q.t1; $c.t0); below($q.t0; $c.t1))
              | {r: $q.r[.], ns: (([$q.t1[.], $c.t1] | min) - ([$q.t0[.], $c.t0] | max))}) as $o
        ({}; .[$o.r|tostring] += $o.ns)
    | to_entries | sort_by(-.value)[] | "\(.value / 1e9) \($name[.key])"
  else
    $early | "\(length) \((map(.t1 - .t0) | add // 0) / 1e9) \((map(. as $c | $kernels[.p|tostring]
      | ran(.; $c.t1) - ran(.; $c.t0)) | add // 0) / 1e9)"
  end
