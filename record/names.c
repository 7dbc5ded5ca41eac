/* Names in the log, each written once: a hash of the names so far, under the log's lock. */
#include <stdlib.h>
#include <string.h>

#include "../formats/trlog/trlog.h"
#include "../libstream/enc.h"
#include "names.h"

struct slot {
	char *name;
	int64_t id;
};

static struct slot *slots;
static size_t nslots, nused;	/* nslots: a power of two */

static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 1099511628211u;
	return h;
}

static struct slot *find(const char *name)
{
	size_t i = (size_t)hash(name) & (nslots - 1);

	while (slots[i].name && strcmp(slots[i].name, name))
		i = (i + 1) & (nslots - 1);
	return &slots[i];
}

static int grow(void)
{
	struct slot *old = slots;
	size_t nold = nslots;

	if (!(slots = calloc(nold ? 2 * nold : 256, sizeof(*slots)))) {
		slots = old;
		return -1;
	}
	nslots = nold ? 2 * nold : 256;
	for (size_t i = 0; i < nold; i++)
		if (old[i].name)
			*find(old[i].name) = old[i];
	free(old);
	return 0;
}

int64_t rec_name(struct ls_buf *b, const char *name)
{
	struct slot *s;

	if (!name)
		name = "?";
	if ((nused + 1) * 2 > nslots && grow() < 0)
		return -1;
	s = find(name);
	if (s->name)
		return s->id;
	if (!(s->name = strdup(name)))
		return -1;
	s->id = (int64_t)nused++;
	ls_enc_array(b, 3);
	ls_enc_uint(b, TRLOG_NAME);
	ls_enc_int(b, s->id);
	ls_enc_str(b, name, strlen(name));
	return s->id;
}
