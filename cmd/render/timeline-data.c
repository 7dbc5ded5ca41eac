/* The timeline's items for the page's script (timeline-data.h). */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "timeline-data.h"

int tl_data_init(struct tl_data *d, uint32_t nlanes)
{
	const char *max = getenv("TR_ZOOM_ITEMS");
	char *end;

	*d = (struct tl_data){ .nlanes = nlanes, .max = TIMELINE_DATA_MAX };
	if (max && *max) {
		unsigned long long v = strtoull(max, &end, 10);

		if (!*end && *max != '-')
			d->max = v;
	}
	d->lane = calloc(nlanes + 1, sizeof(*d->lane));
	return d->lane ? 0 : LS_ERR_NOMEM;
}

/* Numbers appended to b as JSON array items: false where out of memory. */
static bool add(struct ls_buf *b, const int64_t *v, int n)
{
	char text[96];
	int len = 0;

	for (int i = 0; i < n; i++)
		len += snprintf(text + len, sizeof(text) - (size_t)len, "%s%" PRId64,
				b->len || i ? "," : "", v[i]);
	return ls_buf_add(b, text, (size_t)len) == 0;
}

/* One more item: false where none are kept any more. */
static bool room(struct tl_data *d)
{
	if (d->over || d->oom)
		return false;
	if (++d->nitems > d->max) {
		d->over = true;
		return false;
	}
	return true;
}

/* b - a of two offsets below 2^63: it fits either way. */
static int64_t since(uint64_t a, uint64_t b)
{
	return b >= a ? (int64_t)(b - a) : -(int64_t)(a - b);
}

void tl_data_act(struct tl_data *d, uint32_t l, uint64_t t0, uint64_t t1, unsigned paint, unsigned depth,
		 uint32_t region)
{
	struct tl_lane *x = &d->lane[l];
	int64_t v[] = { since(x->last_act, t0), since(t0, t1), paint, depth,
			region == UINT32_MAX ? -1 : (int64_t)region };

	if (!room(d))
		return;
	d->oom |= !add(&x->acts, v, 5);
	x->last_act = t0;
}

void tl_data_wait(struct tl_data *d, uint32_t l, uint64_t t0, uint64_t dur)
{
	struct tl_lane *x = &d->lane[l];
	int64_t v[] = { since(x->last_wait, t0), (int64_t)(dur > INT64_MAX ? INT64_MAX : dur) };

	if (d->over || d->oom)
		return;
	d->oom |= !add(&x->waits, v, 2);
	x->last_wait = t0;
}

void tl_data_piece(struct tl_data *d, uint32_t l, uint64_t t0, uint64_t dur)
{
	int64_t v[] = { l, since(d->last_piece, t0), (int64_t)(dur > INT64_MAX ? INT64_MAX : dur) };

	if (!room(d))
		return;
	d->oom |= !add(&d->path, v, 3);
	d->last_piece = t0;
}

static void items(const struct ls_buf *b)
{
	printf("[%.*s]", (int)b->len, b->len ? (const char *)b->p : "");
}

bool tl_data_kept(const struct tl_data *d)
{
	return !d->over && !d->oom;
}

void tl_data_print(const struct tl_data *d)
{
	printf("\"acts\":[");
	for (uint32_t l = 0; l < d->nlanes; l++) {
		fputs(l ? "," : "", stdout);
		items(&d->lane[l].acts);
	}
	printf("],\"waits\":[");
	for (uint32_t l = 0; l < d->nlanes; l++) {
		fputs(l ? "," : "", stdout);
		items(&d->lane[l].waits);
	}
	printf("],\"path\":");
	items(&d->path);
}

void tl_data_release(struct tl_data *d)
{
	for (uint32_t l = 0; d->lane && l < d->nlanes; l++) {
		ls_buf_release(&d->lane[l].acts);
		ls_buf_release(&d->lane[l].waits);
	}
	free(d->lane);
	ls_buf_release(&d->path);
	*d = (struct tl_data){ 0 };
}
