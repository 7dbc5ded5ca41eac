/*
 * The communicators a process knows: each gets a local number, and is
 * described in the log once with its members as world ranks and a key
 * every member agrees on (the world rank and count of the member that is
 * its rank 0, sent to the others), so that tr-read tells one communicator
 * from another across the logs.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/enc.h"
#include "../log.h"
#include "mpirec.h"

struct comm {
	MPI_Comm handle;
	int64_t local;
	int *world;		/* rank -> world rank; NULL: the identity (MPI_COMM_WORLD) */
	int *remote;		/* an intercommunicator's remote group */
	int n, nremote;
	uint64_t key;		/* the one all members agree on */
	uint64_t idups;		/* nonblocking dups made of it */
	bool alive;
};

/*
 * The table, under a lock for MPI_THREAD_MULTIPLE programs; never held
 * across an MPI call that waits for other processes (making a key).
 */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct comm *comms;
static size_t ncomms, cap;
static uint64_t made;		/* communicators this process made */

static struct comm *find(MPI_Comm handle)
{
	for (size_t i = 0; i < ncomms; i++)
		if (comms[i].alive && comms[i].handle == handle)
			return &comms[i];
	return NULL;
}

/* The world ranks of group's members, in group order. */
static int *world_ranks(MPI_Group group, int *n)
{
	MPI_Group world;
	int *ranks, *out;

	PMPI_Group_size(group, n);
	ranks = malloc(sizeof(int) * (size_t)(*n + 1));
	out = malloc(sizeof(int) * (size_t)(*n + 1));
	if (!ranks || !out) {
		free(ranks);
		free(out);
		*n = 0;
		return NULL;
	}
	for (int i = 0; i < *n; i++)
		ranks[i] = i;
	PMPI_Comm_group(MPI_COMM_WORLD, &world);
	PMPI_Group_translate_ranks(group, *n, ranks, world, out);
	PMPI_Group_free(&world);
	free(ranks);
	return out;
}

static int by_rank(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* [3, local, key, [world ranks]]: an intercommunicator's both groups, ascending. */
static void describe(const struct comm *c, uint64_t key)
{
	int n = c->n + c->nremote;
	int *members = malloc(sizeof(int) * (size_t)(n + 1));
	struct ls_buf *b;
	uint64_t thread;

	if (!members)
		return;
	for (int i = 0; i < c->n; i++)
		members[i] = c->world ? c->world[i] : i;
	if (c->nremote) {
		memcpy(members + c->n, c->remote, sizeof(int) * (size_t)c->nremote);
		qsort(members, (size_t)n, sizeof(int), by_rank);
	}
	if ((b = rec_begin(&thread))) {
		ls_enc_array(b, 4);
		ls_enc_uint(b, TRLOG_COMM);
		ls_enc_int(b, c->local);
		ls_enc_uint(b, key);
		ls_enc_array(b, (uint32_t)n);
		for (int i = 0; i < n; i++)
			ls_enc_int(b, members[i]);
		rec_end();
	}
	free(members);
}

static struct comm *add(MPI_Comm handle)
{
	struct comm *c;

	if (ncomms == cap) {
		size_t ncap = cap ? 2 * cap : 16;
		struct comm *grown = realloc(comms, ncap * sizeof(*comms));

		if (!grown)
			return NULL;
		comms = grown;
		cap = ncap;
	}
	c = &comms[ncomms];
	memset(c, 0, sizeof(*c));
	c->handle = handle;
	c->local = (int64_t)ncomms++;
	c->alive = true;
	return c;
}

/* MPI_COMM_WORLD and MPI_COMM_SELF, the first time a communicator is asked for. */
static void known(void)
{
	struct comm *c;
	int rank;

	if (ncomms)
		return;
	if ((c = add(MPI_COMM_WORLD))) {
		PMPI_Comm_size(MPI_COMM_WORLD, &c->n);
		c->key = 0;
		describe(c, 0);
	}
	if ((c = add(MPI_COMM_SELF))) {
		/* every process's own: one key, no members (docs/stream.md) */
		c->key = 1;
		describe(c, 1);
		PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
		if ((c->world = malloc(sizeof(int)))) {
			c->world[0] = rank;
			c->n = 1;
		}
	}
}

int64_t rec_comm(MPI_Comm comm)
{
	struct comm *c;
	int64_t local;

	if (comm == MPI_COMM_NULL)
		return TRLOG_NO_RANK;
	pthread_mutex_lock(&lock);
	known();
	local = (c = find(comm)) ? c->local : TRLOG_NO_RANK;
	pthread_mutex_unlock(&lock);
	/* made by a call not recorded: described, with a key of its own */
	return c ? local : rec_comm_made(MPI_COMM_NULL, comm, true);
}

/*
 * The local number of the known communicator comm and the world rank of
 * rank in it (TRLOG_NO_RANK for none), under one lock; false where comm
 * is not known.
 */
static bool world_rank_of(MPI_Comm comm, int rank, int64_t *local, int64_t *world)
{
	struct comm *c;

	pthread_mutex_lock(&lock);
	known();
	if ((c = find(comm))) {
		*local = c->local;
		if (rank == MPI_PROC_NULL || rank < 0)
			*world = TRLOG_NO_RANK;
		else if (c->nremote)
			*world = rank < c->nremote ? c->remote[rank] : TRLOG_NO_RANK;
		else if (!c->world)
			*world = rank;
		else
			*world = rank < c->n ? c->world[rank] : TRLOG_NO_RANK;
	}
	pthread_mutex_unlock(&lock);
	return c != NULL;
}

int64_t rec_comm_peer(MPI_Comm comm, int rank, int64_t *world)
{
	int64_t local = TRLOG_NO_RANK;

	*world = TRLOG_NO_RANK;
	if (comm == MPI_COMM_NULL)
		return TRLOG_NO_RANK;
	if (!world_rank_of(comm, rank, &local, world) && rec_comm(comm) >= 0)
		world_rank_of(comm, rank, &local, world);
	return local;
}

/*
 * The key of a new intracommunicator: its rank 0's world rank and count,
 * which rank 0 sends to the rest.
 */
static uint64_t intra_key(MPI_Comm comm, uint64_t mine)
{
	uint64_t key = mine;

	PMPI_Bcast(&key, 1, MPI_UINT64_T, 0, comm);
	return key;
}

/*
 * The key of a new intercommunicator: the smaller of its two groups'
 * leaders' keys. A reduction over an intercommunicator gives each group
 * the other's: first the remote leader's key, then, reduced back, the
 * local one's.
 */
static uint64_t inter_key(MPI_Comm comm, uint64_t mine)
{
	uint64_t remote = 0, local = 0;
	int rank;

	PMPI_Comm_rank(comm, &rank);
	mine = rank == 0 ? mine : 0;
	PMPI_Allreduce(&mine, &remote, 1, MPI_UINT64_T, MPI_MAX, comm);
	PMPI_Allreduce(&remote, &local, 1, MPI_UINT64_T, MPI_MAX, comm);
	return local < remote ? local : remote;
}

int64_t rec_comm_made(MPI_Comm parent, MPI_Comm newcomm, bool nonblocking)
{
	struct comm *c, *p;
	int *members, *remote = NULL, n = 0, nremote = 0, world, inter = 0;
	uint64_t key;
	MPI_Group group;
	int64_t local;

	if (newcomm == MPI_COMM_NULL)
		return TRLOG_NO_RANK;
	PMPI_Comm_rank(MPI_COMM_WORLD, &world);
	PMPI_Comm_test_inter(newcomm, &inter);
	PMPI_Comm_group(newcomm, &group);
	members = world_ranks(group, &n);
	PMPI_Group_free(&group);
	if (inter) {
		PMPI_Comm_remote_group(newcomm, &group);
		remote = world_ranks(group, &nremote);
		PMPI_Group_free(&group);
	}
	pthread_mutex_lock(&lock);
	known();
	key = ((uint64_t)(world + 1) << 32) | ++made;
	if (nonblocking) {
		/*
		 * A nonblocking dup cannot be used before it completes: its key
		 * comes from its parent's and how many the members made of it
		 * before (they make them in one order). A communicator made by a
		 * call not recorded has no parent: its key is this process's own.
		 */
		p = parent == MPI_COMM_NULL ? NULL : find(parent);
		key = p ? (uint64_t)1 << 63 | ((p->key * 0x9e3779b97f4a7c15u + ++p->idups) >> 1)
			: (uint64_t)1 << 62 | key;
	}
	pthread_mutex_unlock(&lock);
	if (!nonblocking)	/* with the other members: no lock held */
		key = inter ? inter_key(newcomm, key) : intra_key(newcomm, key);
	pthread_mutex_lock(&lock);
	if ((c = find(newcomm)))	/* a handle MPI gave back again */
		c->alive = false;
	if (!(c = add(newcomm))) {
		pthread_mutex_unlock(&lock);
		free(members);
		free(remote);
		return TRLOG_NO_RANK;
	}
	c->world = members;
	c->n = n;
	c->remote = remote;
	c->nremote = nremote;
	c->key = key;
	describe(c, key);
	local = c->local;
	pthread_mutex_unlock(&lock);
	return local;
}

void rec_comm_freed(MPI_Comm comm)
{
	struct comm *c;

	pthread_mutex_lock(&lock);
	if ((c = find(comm)) && c->local > TRLOG_COMM_SELF) {
		c->alive = false;
		free(c->world);
		free(c->remote);
		c->world = c->remote = NULL;
	}
	pthread_mutex_unlock(&lock);
}
