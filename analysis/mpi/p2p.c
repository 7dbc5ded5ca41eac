/* Offline message matching: a queue of unmatched sends and receives per
 * (sender, receiver) pair; comm and tag are compared along the queue. */
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/defs.h"
#include "p2p.h"
#include "../../libstream/vec.h"

void an_p2p_init(struct an_p2p *p)
{
	memset(p, 0, sizeof(*p));
	p->free = LS_NONE;
}

static struct an_p2p_chan *chan(struct an_p2p *p, uint32_t src, uint32_t dst)
{
	uint64_t key = (uint64_t)src << 32 | dst;
	uint32_t c;

	if (ls_idmap_get(&p->chan_ix, key, &c))
		return &p->chans[c];
	if (ls_vec_room(&p->chans, &p->chans_cap, p->nchans, sizeof(*p->chans)) < 0)
		return NULL;
	if (ls_idmap_put(&p->chan_ix, key, p->nchans) < 0)
		return NULL;
	p->chans[p->nchans] = (struct an_p2p_chan){
		{ { LS_NONE, LS_NONE }, { LS_NONE, LS_NONE } } };
	return &p->chans[p->nchans++];
}

/*
 * Take the oldest message of queue q with this comm and tag out of it
 * into *end. Returns 1, or 0 if there is none.
 */
static int take(struct an_p2p *p, struct an_p2p_queue *q, uint32_t comm,
		int64_t tag, struct an_msg_end *end)
{
	uint32_t prev = LS_NONE;

	for (uint32_t m = q->head; m != LS_NONE; prev = m, m = p->msgs[m].next) {
		struct an_p2p_msg *msg = &p->msgs[m];

		if (msg->comm != comm || msg->tag != tag)
			continue;
		*end = msg->end;
		if (prev == LS_NONE)
			q->head = msg->next;
		else
			p->msgs[prev].next = msg->next;
		if (q->tail == m)
			q->tail = prev;
		msg->next = p->free;
		p->free = m;
		return 1;
	}
	return 0;
}

static int append(struct an_p2p *p, struct an_p2p_queue *q, uint32_t comm,
		  int64_t tag, struct an_msg_end end)
{
	uint32_t m = p->free;

	if (m != LS_NONE) {
		p->free = p->msgs[m].next;
	} else {
		if (ls_vec_room(&p->msgs, &p->msgs_cap, p->nmsgs, sizeof(*p->msgs)) < 0)
			return LS_ERR_NOMEM;
		m = p->nmsgs++;
	}
	p->msgs[m] = (struct an_p2p_msg){ end, tag, comm, LS_NONE };
	if (q->tail == LS_NONE)
		q->head = m;
	else
		p->msgs[q->tail].next = m;
	q->tail = m;
	return 0;
}

int an_p2p_arrive(struct an_p2p *p, enum an_p2p_side side, uint32_t src,
		  uint32_t dst, uint32_t comm, int64_t tag,
		  struct an_msg_end end, struct an_msg_end *other)
{
	struct an_p2p_chan *c = chan(p, src, dst);
	enum an_p2p_side them = side == AN_P2P_SEND ? AN_P2P_RECV : AN_P2P_SEND;
	int rc;

	if (!c)
		return LS_ERR_NOMEM;
	if (take(p, &c->q[them], comm, tag, other)) {
		p->pending[them]--;
		p->remote_pending[them] -= other->remote;
		return 1;
	}
	if ((rc = append(p, &c->q[side], comm, tag, end)) < 0)
		return rc;
	p->pending[side]++;
	p->remote_pending[side] += end.remote;
	return 0;
}

bool an_p2p_waiting(const struct an_p2p *p, enum an_p2p_side side, uint32_t src, uint32_t dst, uint32_t comm,
		    int64_t tag)
{
	uint32_t c;

	if (!ls_idmap_get(&p->chan_ix, (uint64_t)src << 32 | dst, &c))
		return false;
	for (uint32_t m = p->chans[c].q[side].head; m != LS_NONE; m = p->msgs[m].next)
		if (p->msgs[m].comm == comm && p->msgs[m].tag == tag)
			return true;
	return false;
}

void an_p2p_release(struct an_p2p *p)
{
	ls_idmap_release(&p->chan_ix);
	free(p->chans);
	free(p->msgs);
	an_p2p_init(p);
}
