/* Headers and trailers: the stream's version, its stages, its end. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "header.h"

/* A string entry of a map being built: its key and value. */
static void put_entry_str(struct ls_writer *w, const char *key, const char *value)
{
	w->oom |= ls_enc_str(w->build, key, strlen(key)) < 0;
	ls_put_text(w, value);
}

/* The stages field: the items of old (if not NULL) as they were, then self. */
static void put_stages(struct ls_writer *w, struct ls_iter *old, uint32_t nold,
		       const struct ls_stage *self)
{
	struct mp_item item;
	const uint8_t *raw;
	size_t len;

	ls_put_array(w, LS_F_STAGES, nold + 1);
	while (old && ls_array_next(old, &item, &raw, &len))
		w->oom |= ls_buf_add(w->build, raw, len) < 0;
	w->oom |= ls_enc_map(w->build, 3) < 0;
	put_entry_str(w, "tool", self->tool);
	put_entry_str(w, "version", self->version);
	w->oom |= ls_enc_str(w->build, "args", 4) < 0 ||
		  ls_enc_array(w->build, (uint32_t)self->argc) < 0;
	for (int i = 0; i < self->argc; i++)
		ls_put_text(w, self->argv[i]);
}

int ls_write_header_length(struct ls_writer *w, const char *producer, const char *source,
			   const struct ls_stage *self, uint64_t length)
{
	ls_build_begin(w, 5 + (source != NULL) + (length != 0) + (self != NULL));
	ls_put_kind(w, LS_K_HEADER);
	ls_put_u64(w, LS_F_MAJOR, LS_VERSION_MAJOR);
	ls_put_u64(w, LS_F_MINOR, LS_VERSION_MINOR);
	ls_put_str(w, LS_F_PRODUCER, producer);
	ls_put_str(w, LS_F_CLOCK, "ns");
	if (source)
		ls_put_str(w, LS_F_SOURCE, source);
	if (length)
		ls_put_u64(w, LS_F_LENGTH, length);
	if (self)
		put_stages(w, NULL, 0, self);
	return ls_build_end(w);
}

int ls_write_header(struct ls_writer *w, const char *producer, const char *source,
		    const struct ls_stage *self)
{
	return ls_write_header_length(w, producer, source, self, 0);
}

int ls_write_header_from(struct ls_writer *w, const struct ls_record *in,
			 const struct ls_stage *self)
{
	struct ls_iter fields, old;
	struct mp_item key;
	const uint8_t *raw, *value;
	size_t len;
	uint64_t minor = 0;
	bool listed = ls_array_field(in, LS_F_STAGES, &old) == 0;

	ls_get_u64(in, LS_F_MINOR, &minor);
	ls_build_begin(w, in->nfields + !listed);
	ls_map_at(in->raw, in->raw + in->len, &fields);
	while (ls_map_next(&fields, &key, &value, &raw, &len)) {
		enum ls_field f = ls_field_lookup(key.v.s.p, key.v.s.n);

		if (f == LS_F_MINOR)
			ls_put_u64(w, LS_F_MINOR, minor > LS_VERSION_MINOR ? minor : LS_VERSION_MINOR);
		else if (f == LS_F_STAGES)
			put_stages(w, &old, old.left, self);
		else
			w->oom |= ls_buf_add(w->build, raw, len) < 0;
	}
	if (!listed)
		put_stages(w, NULL, 0, self);
	return ls_build_end(w);
}

int ls_write_trailer(struct ls_writer *w)
{
	ls_build_begin(w, 1);
	ls_put_kind(w, LS_K_TRAILER);
	return ls_build_end(w);
}

/* Where the value of key in the map at p starts, or NULL. */
static const uint8_t *map_value(const uint8_t *p, const uint8_t *end, const char *key)
{
	struct ls_iter it;
	struct mp_item k;
	const uint8_t *raw, *value;
	size_t len, n = strlen(key);

	if (ls_map_at(p, end, &it) < 0)
		return NULL;
	while (ls_map_next(&it, &k, &value, &raw, &len))
		if (k.type == MP_STR && k.v.s.n == n && memcmp(k.v.s.p, key, n) == 0)
			return value;
	return NULL;
}

/* The string value of key in the map at p, if it has one. */
static bool map_str(const uint8_t *p, const uint8_t *end, const char *key, struct mp_item *v)
{
	const uint8_t *value = map_value(p, end, key);

	return value && mp_head(value, end, v) > 0 && v->type == MP_STR;
}

/* Is the value at p a list of strings? */
static bool strings(const uint8_t *p, const uint8_t *end)
{
	struct ls_iter it;
	struct mp_item item;
	const uint8_t *raw;
	size_t len;

	if (ls_array_at(p, end, &it) < 0)
		return false;
	while (ls_array_next(&it, &item, &raw, &len))
		if (item.type != MP_STR)
			return false;
	return true;
}

int ls_header_check_stages(const struct ls_record *header, const char **why)
{
	const uint8_t *end = header->raw + header->len;
	struct ls_iter list;
	struct mp_item item, value;
	const uint8_t *raw, *args;
	size_t len;
	int rc = ls_array_field(header, LS_F_STAGES, &list);

	if (rc == LS_ERR_ABSENT)
		return 0;
	*why = "header field \"stages\" is not a list of stages (maps with a string \"tool\" "
	       "and \"version\", \"args\" a list of strings)";
	if (rc < 0)
		return LS_ERR_SYNTAX;
	while (ls_array_next(&list, &item, &raw, &len))
		if (item.type != MP_MAP || !map_str(raw, end, "tool", &value) ||
		    !map_str(raw, end, "version", &value) ||
		    ((args = map_value(raw, end, "args")) && !strings(args, end)))
			return LS_ERR_SYNTAX;
	return 0;
}

int ls_header_has_stage(const struct ls_record *header, const char *tool)
{
	const uint8_t *end = header->raw + header->len;
	struct ls_iter list;
	struct mp_item item, name;
	const uint8_t *raw;
	size_t len, n = strlen(tool);

	if (ls_array_field(header, LS_F_STAGES, &list) < 0)
		return -1;
	while (ls_array_next(&list, &item, &raw, &len))
		if (map_str(raw, end, "tool", &name) && name.v.s.n == n &&
		    memcmp(name.v.s.p, tool, n) == 0)
			return 1;
	return 0;
}

void ls_header_tools(const struct ls_record *header, char *out, size_t n)
{
	const uint8_t *end = header->raw + header->len;
	struct ls_iter list;
	struct mp_item item, name;
	const uint8_t *raw;
	size_t len, at = 0;

	out[0] = '\0';
	if (ls_array_field(header, LS_F_STAGES, &list) < 0)
		return;
	while (at < n && ls_array_next(&list, &item, &raw, &len))
		if (map_str(raw, end, "tool", &name))
			at += (size_t)snprintf(out + at, n - at, "%s%.*s", at ? " | " : "", (int)name.v.s.n,
					       name.v.s.p);
}

bool ls_header_wants_trailer(const struct ls_record *header)
{
	uint64_t major = 0, minor = 0;

	ls_get_u64(header, LS_F_MAJOR, &major);
	ls_get_u64(header, LS_F_MINOR, &minor);
	return major > 1 || (major == 1 && minor >= 1);
}
