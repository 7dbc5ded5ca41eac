# CASITA's "MPI_Waitall late partner" time, for comparing with CASITA 1.9.
# A Waitall waits until the latest of its requests' partners stopped, as
# CASITA learns it from the partner: for a receive, the end of the call
# that sent (the Isend's end, where tr-waits, as Scalasca, takes the send's
# begin); for an Isend, the end of the call that posted the receive (the
# Irecv's end; a Recv's end), which tr-waits does not count as waiting at
# all (the Isend's data went out). Each Waitall waits from its begin to
# that stop, at most to its own end. Prints "COUNT SECONDS".
#   tr-read run.otf2 | tr-deps | tr-cat -J | jq -rs -f pipelines/casita-waitall-late-partner.jq
(map(select(.k == "region")) | map({key: (.id|tostring), value: .role}) | from_entries) as $role
# per stream, in order: each call's end; the call each send, receive and
# Isend completion (send_done, matched to its send by request) is in, and
# the call that posted each Irecv's receive (recv_post, by request)
| [group_by(.s)[] | map(select(.k | IN("enter", "leave", "send", "recv", "send_done", "recv_post")))
   | foreach .[] as $e ({open: [], req: {}, post: {}, out: null};
       .out = null
       | if $e.k == "enter" then .open += [[$e.id, $e.r, $e.t]]
         elif $e.k == "leave" then .out = {leave: .open[-1][0], t: $e.t} | .open |= .[:-1]
         elif $e.k == "send_done" then
           .out = {done: .req[$e.req|tostring], call: .open[-1]} | del(.req[$e.req|tostring])
         elif $e.k == "recv_post" then .post[$e.req|tostring] = .open[-1]
         elif $e.k == "recv" and $e.req != null then
           .out = {at: $e.id, call: .open[-1], posted: .post[$e.req|tostring]}
           | del(.post[$e.req|tostring])
         else .out = {at: $e.id, call: .open[-1]}
           | if $e.k == "send" and $e.req != null then .req[$e.req|tostring] = $e.id else . end
         end;
       .out // empty)] as $facts
| ($facts | map(select(.leave != null) | {key: (.leave|tostring), value: .t}) | from_entries) as $left
| ($facts | map(select(.at != null) | {key: (.at|tostring), value: .call}) | from_entries) as $call
| ($facts | map(select(.posted != null) | {key: (.at|tostring), value: .posted}) | from_entries) as $posted
| ($facts | map(select(.done != null) | {key: (.done|tostring), value: .call}) | from_entries) as $done
# each Waitall and a partner's stop: the receiving side, then the sending
| [map(select(.k == "edge" and .type == "msg"))[]
   | $call[.from|tostring] as $sc | $call[.to|tostring] as $rc | $done[.from|tostring] as $dc
   | ($posted[.to|tostring] // $rc) as $pc
   | ({w: $rc, stop: $left[$sc[0]|tostring]}, {w: $dc, stop: $left[$pc[0]|tostring]})
   | select(.w != null and $role[.w[1]|tostring] == "mpi_wait" and .stop != null)
   | {id: .w[0], t0: .w[2], t1: $left[.w[0]|tostring], stop}]
| group_by(.id) | map({t0: .[0].t0, t1: .[0].t1, stop: (map(.stop) | max)})
| map(select(.stop > .t0) | ([.stop, .t1] | min) - .t0)
| "\(length) \((add // 0) / 1e9)"
