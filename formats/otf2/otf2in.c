/*
 * Reading an OTF2 archive: open it, read the definitions, write them, then
 * read every location's events through libotf2's global (merging) reader.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../libstream/error.h"
#include "diagnose.h"
#include "errors.h"
#include "otf2in_private.h"

int otf2in_fail(struct otf2in *in, int code, const char *fmt, ...)
{
	va_list ap;

	if (in->status < 0)
		return in->status;
	va_start(ap, fmt);
	vsnprintf(in->err, in->errlen, fmt, ap);
	va_end(ap);
	in->status = code;
	return code;
}

/*
 * Which locations to read: those of the streams -p, -s and the shard
 * select (and orphans, whose events are counted, in one shard); the
 * others are not opened at all, so that libotf2 holds nothing for them
 * (some 2 MB a location), and their events, as many as their definitions
 * say, count as left out. Returns whether any is read.
 */
static bool choose_locations(struct otf2in *in)
{
	const struct ls_front_options *opt = in->front->opt;
	bool any = false, first_shard = opt->shards < 2 || opt->shard == 0;

	for (uint32_t i = 0; i < in->nlocs; i++) {
		struct location *l = &in->locs[i];

		l->unread = l->orphan ? !first_shard : !ls_front_selected(in->front, l->stream);
		any |= !l->unread;
		if (l->unread) {
			ls_front_unread(in->front, l->stream, l->events);
			in->events_total -= l->events < in->events_total ? l->events : in->events_total;
		}
	}
	return any;
}

/* A location's mapping table: libotf2 applies it; one of no known kind is counted. */
static OTF2_CallbackCode on_mapping(void *data, OTF2_MappingType type, const OTF2_IdMap *map)
{
	struct otf2in *in = data;

	(void)map;
	in->report.bad_mappings += type >= OTF2_MAPPING_MAX;
	return OTF2_CALLBACK_SUCCESS;
}

/* Select the locations to read and read their local definitions (mapping
 * tables, clock offsets), which the global event reader then applies. */
static int open_locations(struct otf2in *in, OTF2_Reader *reader)
{
	OTF2_DefReaderCallbacks *callbacks = OTF2_DefReaderCallbacks_New();

	if (!callbacks)
		return otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
	OTF2_DefReaderCallbacks_SetMappingTableCallback(callbacks, on_mapping);
	for (uint32_t i = 0; i < in->nlocs; i++)
		if (!in->locs[i].unread)
			OTF2_Reader_SelectLocation(reader, in->locs[i].ref);
	if (OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS) {
		for (uint32_t i = 0; i < in->nlocs; i++) {
			OTF2_DefReader *defs;
			uint64_t count;

			if (in->locs[i].unread ||
			    !(defs = OTF2_Reader_GetDefReader(reader, in->locs[i].ref)))
				continue;	/* not read, or without local definitions */
			OTF2_Reader_RegisterDefCallbacks(reader, defs, callbacks, in);
			in->report.bad_local_defs +=
				OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &count) != OTF2_SUCCESS;
			OTF2_Reader_CloseDefReader(reader, defs);
		}
		OTF2_Reader_CloseDefFiles(reader);
	}
	OTF2_DefReaderCallbacks_Delete(callbacks);
	if (OTF2_Reader_OpenEvtFiles(reader) != OTF2_SUCCESS)
		return otf2in_fail_events(in, in->otf2_msg);
	for (uint32_t i = 0; i < in->nlocs; i++)
		if (!in->locs[i].unread)
			OTF2_Reader_GetEvtReader(reader, in->locs[i].ref);
	return 0;
}

static int read_events(struct otf2in *in, OTF2_Reader *reader)
{
	OTF2_GlobalEvtReader *events;
	uint64_t count;
	OTF2_ErrorCode rc;

	if (!choose_locations(in))	/* nothing to read: a shard without processes, a selection of none */
		goto end;
	if (open_locations(in, reader) < 0)
		return in->status;
	events = OTF2_Reader_GetGlobalEvtReader(reader);
	if (!events)
		return otf2in_fail_events(in, in->otf2_msg);
	if (otf2in_register_events(in, events) < 0)
		return in->status;
	rc = OTF2_Reader_ReadAllGlobalEvents(reader, events, &count);
	OTF2_Reader_CloseGlobalEvtReader(reader, events);
	if (in->status < 0)
		return in->status;
	if (rc != OTF2_SUCCESS && rc != OTF2_ERROR_INTERRUPTED_BY_CALLBACK)
		return otf2in_fail_events(in, in->otf2_msg[0] ? in->otf2_msg
					  : OTF2_Error_GetDescription(rc));
	OTF2_Reader_CloseEvtFiles(reader);
end:
	otf2in_finish_events(in);
	if (in->status == 0 && ls_write_trailer(in->w) < 0)
		otf2in_fail(in, LS_ERR_IO, "cannot write the stream");
	return in->status;
}

/* What was odd, to the front's one report. */
static void report(struct otf2in *in)
{
	const struct otf2in_report *r = &in->report;

	ls_front_odd(in->front, r->undefined_location, "events on undefined locations, left out");
	ls_front_odd(in->front, r->unknown_records,
		     "records of types this libotf2 does not know, left out");
	ls_front_odd(in->front, r->rma_unmatched, "RMA completions without an open copy, left out");
	ls_front_odd(in->front, r->unknown_peer,
		     "messages or roots naming a rank outside their communicator, left out");
	ls_front_odd(in->front, r->unknown_comm,
		     "collective operations on a communicator not written, left out");
	ls_front_odd_definitions(in->front, r->comms_unplaced, "communicators with a rank of no process "
		     "(or a process twice) or of no stream, left out");
	/* a location's own definitions are read by its shard alone: counted as its events are */
	ls_front_odd(in->front, r->bad_local_defs, "locations whose local definitions (NUMBER.def: "
		     "id mappings, clock offsets) are damaged: read up to the damage");
	ls_front_odd(in->front, r->bad_mappings, "id mapping tables of no kind OTF2 knows "
		     "(a damaged NUMBER.def): not applied");
	ls_front_odd_definitions(in->front, r->orphan_locations,
		     "locations of an undefined process, left out with their events");
	ls_front_odd(in->front, r->unknown_counter, "metric values of an undefined metric, left out");
#define OTF2IN_IGNORED_NAME(kind, name) name,
	static const char *const ignored_name[IGN__COUNT] = { OTF2IN_IGNORED(OTF2IN_IGNORED_NAME) };

	for (int k = 0; k < IGN__COUNT; k++)
		ls_front_left_out(in->front, ignored_name[k], r->ignored[k]);
}

static void release(struct otf2in *in)
{
	for (uint32_t i = 0; i < in->strings.n; i++)
		free(in->strings.v[i]);
	for (uint32_t i = 0; i < in->groups.n; i++)
		free(in->groups.v[i].members);
	for (uint32_t i = 0; i < in->comms.n; i++)
		free(in->comms.v[i].process), free(in->comms.v[i].stream);
	for (uint32_t i = 0; i < in->metrics.n; i++)
		free(in->metrics.v[i].members);
	for (uint32_t i = 0; i < in->nlocs; i++)
		free(in->locs[i].stack);
	free(in->strings.v);
	free(in->regions.v);
	free(in->groups.v);
	free(in->comms.v);
	free(in->lgroups.v);
	free(in->members.v);
	free(in->metrics.v);
	free(in->locs);
	free(in->loc_slot);
}

bool otf2in_sniff(const uint8_t *head, size_t n)
{
	/* an anchor file: a byte of its own, the byte order, then "OTF2" */
	return n >= 6 && memcmp(head + 2, "OTF2", 4) == 0;
}

int otf2in_read(const char *path, const struct ls_stage *stage, struct ls_front *front,
		struct ls_writer *w, char *err, size_t n)
{
	char otf2_msg[OTF2_MSG_SIZE] = "";
	struct otf2in in = { .stage = stage, .front = front, .w = w, .err = err, .errlen = n,
			     .anchor = path, .otf2_msg = otf2_msg };
	OTF2_ErrorCallback previous;
	OTF2_Reader *reader;
	struct stat st;

	err[0] = '\0';
	/* libotf2 takes any path and fails late; say plainly what is wrong */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		otf2in_fail(&in, LS_ERR_IO, "%s", stat(path, &st) < 0 ? strerror(errno)
			    : "not an OTF2 archive (give the anchor file, NAME.otf2)");
		return in.status;
	}
	if (!otf2_anchor_named(path)) {
		otf2in_fail(&in, LS_ERR_SYNTAX, "an OTF2 anchor file must be named NAME.otf2, "
			    "beside NAME.def and the folder NAME/ (libotf2 opens no other name)");
		return in.status;
	}
	previous = OTF2_Error_RegisterCallback(otf2_keep_first_error, otf2_msg);
	reader = OTF2_Reader_Open(path);
	if (!reader || OTF2_Reader_SetSerialCollectiveCallbacks(reader) != OTF2_SUCCESS) {
		otf2in_fail(&in, LS_ERR_SYNTAX, "not an OTF2 archive%s%s",
			    otf2_msg[0] ? ": " : "", otf2_msg);
		goto out;
	}
	if (otf2in_read_definitions(&in, reader) == 0 &&
	    otf2in_write_definitions(&in, path) == 0)
		read_events(&in, reader);
	else if (in.status == 0)
		otf2in_fail(&in, LS_ERR_IO, "cannot write the stream");
out:
	if (reader)
		OTF2_Reader_Close(reader);
	OTF2_Error_RegisterCallback(previous, NULL);
	report(&in);
	release(&in);
	return in.status;
}
