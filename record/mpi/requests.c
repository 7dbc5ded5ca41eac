/*
 * The requests a process has open: what each will complete (a send's
 * peer, tag and bytes are known when it is posted; a receive's only from
 * its status), by handle, in an open-addressed table. A handle is freed by
 * its completion and may come back for the next request.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mpirec.h"

/* Threads of an MPI_THREAD_MULTIPLE program post and complete requests at once. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct slot {
	bool used;
	MPI_Request handle;
	struct rec_req req;
};

static struct slot *slots;
static size_t nslots, nused;	/* nslots: a power of two */
static uint64_t next_id = 1;

static size_t hash(MPI_Request h)
{
	uint64_t v = 0;

	memcpy(&v, &h, sizeof(h) < sizeof(v) ? sizeof(h) : sizeof(v));
	v ^= v >> 29;
	v *= 0xbf58476d1ce4e5b9u;
	v ^= v >> 32;
	return (size_t)v & (nslots - 1);
}

static struct slot *lookup(MPI_Request h)
{
	if (!nslots)
		return NULL;
	for (size_t i = hash(h);; i = (i + 1) & (nslots - 1)) {
		if (!slots[i].used)
			return NULL;
		if (slots[i].handle == h)
			return &slots[i];
	}
}

static void put(MPI_Request h, const struct rec_req *r)
{
	size_t i = hash(h);

	while (slots[i].used && slots[i].handle != h)
		i = (i + 1) & (nslots - 1);
	if (!slots[i].used)
		nused++;
	slots[i] = (struct slot){ true, h, *r };
}

static int grow(void)
{
	struct slot *old = slots;
	size_t nold = nslots;

	slots = calloc(nold ? 2 * nold : 256, sizeof(*slots));
	if (!slots) {
		slots = old;
		return -1;
	}
	nslots = nold ? 2 * nold : 256;
	nused = 0;
	for (size_t i = 0; i < nold; i++)
		if (old[i].used)
			put(old[i].handle, &old[i].req);
	free(old);
	return 0;
}

uint64_t rec_req_new(MPI_Request h, int how, MPI_Comm comm, int64_t peer, int64_t tag, int64_t bytes)
{
	uint64_t id = 0;

	pthread_mutex_lock(&lock);
	if (h != MPI_REQUEST_NULL && ((nused + 1) * 2 <= nslots || grow() == 0)) {
		struct rec_req r = { next_id, how, comm, peer, tag, bytes, false };

		put(h, &r);
		id = next_id++;
	}
	pthread_mutex_unlock(&lock);
	return id;
}

void rec_req_persistent(MPI_Request h, int how, MPI_Comm comm, int64_t peer, int64_t tag, int64_t bytes)
{
	pthread_mutex_lock(&lock);
	if (h != MPI_REQUEST_NULL && ((nused + 1) * 2 <= nslots || grow() == 0)) {
		struct rec_req r = { 0, how, comm, peer, tag, bytes, true };

		put(h, &r);
	}
	pthread_mutex_unlock(&lock);
}

bool rec_req_start(MPI_Request h, struct rec_req *out)
{
	struct slot *s;

	pthread_mutex_lock(&lock);
	if ((s = h == MPI_REQUEST_NULL ? NULL : lookup(h))) {
		s->req.id = next_id++;
		*out = s->req;
	}
	pthread_mutex_unlock(&lock);
	return s != NULL;
}

bool rec_req_get(MPI_Request h, struct rec_req *out)
{
	struct slot *s;

	pthread_mutex_lock(&lock);
	/* a persistent request not started completes nothing */
	if ((s = h == MPI_REQUEST_NULL ? NULL : lookup(h)) && s->req.id == 0)
		s = NULL;
	if (s)
		*out = s->req;
	pthread_mutex_unlock(&lock);
	return s != NULL;
}

static void forget(MPI_Request h, bool freed);

void rec_req_done(MPI_Request h)
{
	forget(h, false);
}

void rec_req_free(MPI_Request h)
{
	forget(h, true);
}

/*
 * Take h's slot out, moving back the ones after it that probed past it;
 * a persistent request's only where it is freed (else it is not started).
 */
static void forget(MPI_Request h, bool freed)
{
	struct slot *s;
	size_t i, j;

	pthread_mutex_lock(&lock);
	if (!(s = h == MPI_REQUEST_NULL ? NULL : lookup(h)) || (s->req.persistent && !freed)) {
		if (s)
			s->req.id = 0;
		pthread_mutex_unlock(&lock);
		return;
	}
	i = (size_t)(s - slots);
	slots[i].used = false;
	nused--;
	for (j = (i + 1) & (nslots - 1); slots[j].used; j = (j + 1) & (nslots - 1)) {
		size_t home = hash(slots[j].handle);

		/* j's entry may fill the hole at i if its home is not in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			slots[i] = slots[j];
			slots[j].used = false;
			i = j;
		}
	}
	pthread_mutex_unlock(&lock);
}
