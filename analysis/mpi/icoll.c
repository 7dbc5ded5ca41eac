/* Nonblocking collectives: posts by process and request, completions by stream. */
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "icoll.h"

void an_icoll_init(struct an_icoll *c)
{
	memset(c, 0, sizeof(*c));
}

int an_icoll_post(struct an_icoll *c, uint32_t proc, uint64_t req, struct an_icoll_post post)
{
	uint64_t key;
	uint32_t i;
	int rc;

	if (!ls_key_pair(proc, req, &key)) {
		c->unposted++;
		return 0;
	}
	if (ls_idmap_get(&c->post_ix, key, &i)) {	/* a request id used again before it completed */
		c->posts[i] = post;
		return 0;
	}
	if (c->nfree) {
		i = c->free_posts[--c->nfree];
	} else {
		if ((rc = ls_vec_room(&c->posts, &c->posts_cap, c->nposts, sizeof(*c->posts))) < 0)
			return rc;
		i = c->nposts++;
	}
	c->posts[i] = post;
	return ls_idmap_put(&c->post_ix, key, i);
}

/* Room for stream s's completions. */
static int streams_room(struct an_icoll *c, uint32_t s)
{
	uint32_t n = c->nstreams;

	if (s < n)
		return 0;
	if (ls_vec_room(&c->done, &c->nstreams, s, sizeof(*c->done)) < 0)
		return LS_ERR_NOMEM;
	{
		uint32_t *nd = realloc(c->ndone, sizeof(*nd) * c->nstreams);
		uint32_t *cap = nd ? realloc(c->done_cap, sizeof(*cap) * c->nstreams) : NULL;

		if (nd)
			c->ndone = nd;
		if (!nd || !cap) {
			c->nstreams = n;
			return LS_ERR_NOMEM;
		}
		c->done_cap = cap;
	}
	for (uint32_t i = n; i < c->nstreams; i++) {
		c->done[i] = NULL;
		c->ndone[i] = c->done_cap[i] = 0;
	}
	return 0;
}

int an_icoll_complete(struct an_icoll *c, uint32_t proc, uint64_t req, uint32_t s, uint32_t comm,
		      uint32_t root, enum ls_role shape)
{
	uint64_t key;
	uint32_t i;
	int rc;

	if (!ls_key_pair(proc, req, &key) || !ls_idmap_get(&c->post_ix, key, &i)) {
		c->unposted++;
		return 0;
	}
	if ((rc = streams_room(c, s)) < 0 ||
	    (rc = ls_vec_room(&c->done[s], &c->done_cap[s], c->ndone[s], sizeof(**c->done))) < 0 ||
	    (rc = ls_vec_room(&c->free_posts, &c->free_cap, c->nfree, sizeof(*c->free_posts))) < 0)
		return rc;
	c->done[s][c->ndone[s]++] = (struct an_icoll_done){ c->posts[i], comm, root, shape };
	ls_idmap_del(&c->post_ix, key);
	c->free_posts[c->nfree++] = i;
	return 0;
}

const struct an_icoll_done *an_icoll_ended(struct an_icoll *c, uint32_t s, uint32_t *n)
{
	if (s >= c->nstreams || !c->ndone[s]) {
		*n = 0;
		return NULL;
	}
	*n = c->ndone[s];
	c->ndone[s] = 0;
	return c->done[s];
}

void an_icoll_release(struct an_icoll *c)
{
	for (uint32_t i = 0; i < c->nstreams; i++)
		free(c->done[i]);
	free(c->done);
	free(c->ndone);
	free(c->done_cap);
	free(c->posts);
	free(c->free_posts);
	ls_idmap_release(&c->post_ix);
}
