/*
 * Matching point-to-point messages offline: each send to its receive by
 * communicator, sender, receiver and tag, in MPI's non-overtaking order
 * (first sent, first received among those that match). The trace names
 * the actual source and tag of every receive, so ANY_SOURCE and ANY_TAG
 * receives match like any other. Either side may come first: a receive
 * seen before its send (skewed clocks) waits for it.
 */
#ifndef AN_P2P_H
#define AN_P2P_H

#include <stdint.h>

#include "idmap.h"

/* One side of a message: its event and the time that side began. */
struct an_msg_end {
	uint64_t ev;
	int64_t t;
};

struct an_p2p_msg {
	struct an_msg_end end;
	int64_t tag;
	uint32_t comm;
	uint32_t next;		/* next in its queue, or free list */
};

/* The messages from one process to another not matched yet. */
struct an_p2p_chan {
	uint32_t sends, sends_tail;	/* sends without a receive, oldest first */
	uint32_t recvs, recvs_tail;	/* receives without a send, oldest first */
};

struct an_p2p {
	struct an_idmap chan_ix;	/* (sender << 32 | receiver) -> channel */
	struct an_p2p_chan *chans;
	struct an_p2p_msg *msgs;
	uint32_t nchans, chans_cap, nmsgs, msgs_cap, free;
	uint64_t pending_sends, pending_recvs;
};

void an_p2p_init(struct an_p2p *p);

/*
 * A message sent from process index src to dst. Returns 1 and the
 * receive in *other if one was waiting for it, 0 if it now waits for its
 * receive, or LS_ERR_NOMEM.
 */
int an_p2p_send(struct an_p2p *p, uint32_t src, uint32_t dst, uint32_t comm,
		int64_t tag, struct an_msg_end send, struct an_msg_end *other);

/* A message received by dst from src: as an_p2p_send, the other way. */
int an_p2p_recv(struct an_p2p *p, uint32_t src, uint32_t dst, uint32_t comm,
		int64_t tag, struct an_msg_end recv, struct an_msg_end *other);

void an_p2p_release(struct an_p2p *p);

#endif
