/*
 * The shards' facts over MPI (analysis/remote.h): each rank's stage sends
 * what another shard needs straight to that rank, as it makes it, never
 * through rank 0, on a communicator of their own.
 *
 * A message to a rank carries facts, each with its key, and the sender's
 * mark: every fact it will ever send with a key before the mark is in
 * this message or an earlier one. A shard at its event of key k takes the
 * facts of the ranks it asks with keys before k, each rank's in its order,
 * and stops where they decide its match (the other side came, every other
 * member left) or no such fact can come (each rank's mark is past k).
 * Where it must wait, it first sends its mark (k) to every rank, and its
 * stream so far to rank 0, then waits for a rank whose mark is behind. So
 * the shard with the least key never waits, and no wait is circular.
 * Sends never block (MPI_Isend); a rank sends its mark whenever it sends
 * a batch of its stream to rank 0 or waits, and its last mark (the end)
 * when it ends.
 */
#ifndef FAN_PORT_H
#define FAN_PORT_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "../../analysis/remote.h"

struct port;

/* A port among the ranks of comm (MPI_COMM_WORLD: duplicated here, a collective call). NULL: out of memory. */
struct port *port_new(MPI_Comm comm);

/*
 * The shards' view of it (valid while p lives); before_wait(ctx, at_end)
 * is called before the port waits on another rank (it flushes the stream
 * to rank 0), at_end where this shard's stage is at its end.
 */
const struct an_remote *port_remote(struct port *p, void (*before_wait)(void *ctx, bool at_end), void *ctx);

/* Send every rank what this one has for it, with its mark: 0, or -1 where MPI failed. */
int port_flush(struct port *p);

/*
 * This shard's end: its mark past every key sent, the others' facts
 * taken to their ends (and let go), every send completed; then freed.
 * Bytes sent to other ranks into *sent. Returns 0, or -1 where MPI failed.
 */
int port_close(struct port *p, uint64_t *sent);

#endif
