/*
 * Matching point-to-point messages offline: each send to its receive by
 * communicator, sender, receiver and tag, in MPI's non-overtaking order
 * (first sent, first received among those that match). The trace names
 * the actual source and tag of every receive, so ANY_SOURCE and ANY_TAG
 * receives match like any other. Either side may come first: a receive
 * seen before its send (skewed clocks) waits for it.
 */
#ifndef AN_MPI_P2P_H
#define AN_MPI_P2P_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/idmap.h"

/* One side of a message: its event and the time that side began. */
struct an_msg_end {
	uint64_t ev;
	int64_t t;
	bool remote;		/* another shard's (analysis/remote.h): that shard writes its edge */
};

struct an_p2p_msg {
	struct an_msg_end end;
	int64_t tag;
	uint32_t comm;
	uint32_t next;		/* next in its queue, or free list */
};

/* Sides of a message, indexing the queues of a channel. */
enum an_p2p_side { AN_P2P_SEND, AN_P2P_RECV };

struct an_p2p_queue {
	uint32_t head, tail;	/* oldest first */
};

/*
 * The messages from one process to another not matched yet: sends
 * without a receive, receives without a send.
 */
struct an_p2p_chan {
	struct an_p2p_queue q[2];	/* by enum an_p2p_side */
};

struct an_p2p {
	struct ls_idmap chan_ix;	/* (sender << 32 | receiver) -> channel */
	struct an_p2p_chan *chans;
	struct an_p2p_msg *msgs;
	uint32_t nchans, chans_cap, nmsgs, msgs_cap, free;
	uint64_t pending[2];	/* by enum an_p2p_side */
	uint64_t remote_pending[2];	/* of them, another shard's */
};

void an_p2p_init(struct an_p2p *p);

/*
 * One side of a message from process index src to dst: its send or its
 * receive. Returns 1 and the other side in *other if it was waiting, 0 if
 * this side now waits for it, or LS_ERR_NOMEM.
 */
int an_p2p_arrive(struct an_p2p *p, enum an_p2p_side side, uint32_t src,
		  uint32_t dst, uint32_t comm, int64_t tag,
		  struct an_msg_end end, struct an_msg_end *other);

/* Whether a side of this kind waits on the channel from src to dst with this comm and tag. */
bool an_p2p_waiting(const struct an_p2p *p, enum an_p2p_side side, uint32_t src, uint32_t dst, uint32_t comm,
		    int64_t tag);

void an_p2p_release(struct an_p2p *p);

#endif
