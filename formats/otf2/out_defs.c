/*
 * The writer's definitions: taken in pass 1 (through ls_defs, which checks
 * ids and references, plus the names and OTF2 roles kept here), written
 * after the events, when every location's event count is known. Processes
 * and streams become location groups and locations numbered in definition
 * order, as tr-read numbers them; regions, communicators and counters keep
 * their ids as refs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/vec.h"
#include "../../libstream/error.h"
#include "otf2out_private.h"
#include "vocab.h"

/* The string field f as a ref; NONE (with the message) when absent and required. */
static OTF2_StringRef string_field(struct otf2out *o, const struct ls_record *rec,
				   enum ls_field f, bool required)
{
	const char *s;
	uint32_t n;
	OTF2_StringRef ref;

	if (ls_get_str(rec, f, &s, &n) < 0) {
		if (required)
			otf2out_fail(o, LS_ERR_SYNTAX, "%s without a valid '%s'",
				     ls_kind_name(rec->kind), ls_field_name(f));
		return required ? NONE : 0;
	}
	if ((ref = otf2out_string(o, s, n)) == NONE)
		otf2out_fail(o, LS_ERR_NOMEM, "out of memory");
	return ref;
}

static int take_region(struct otf2out *o, const struct ls_record *rec, uint32_t ix)
{
	struct out_region *r = &o->regions[ix];
	enum ls_role role = (enum ls_role)o->defs.roles[ix];
	const char *paradigm;
	uint32_t n;

	if (o->defs.region_ids[ix] >= UINT32_MAX)
		return otf2out_fail(o, LS_ERR_SYNTAX, "region id too large for OTF2");
	r->paradigm = OTF2_PARADIGM_USER;
	if (ls_get_str(rec, LS_F_PARADIGM, &paradigm, &n) == 0) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%.*s", (int)n, paradigm);
		r->paradigm = otf2_paradigm_by_name(buf);
	}
	if (role == LS_R_DEV_MEMCPY && o->defs.dirs[ix] == LS_DIR_HTOD)
		r->copy = 1;
	else if (role == LS_R_DEV_MEMCPY && o->defs.dirs[ix] == LS_DIR_DTOH)
		r->copy = -1;
	if (!r->copy && !otf2_role_for(role, o->strings.v[r->name], &r->paradigm, &r->role))
		o->report.roles_by_name++;
	return 0;
}

static int take_counter(struct otf2out *o, const struct ls_record *rec)
{
	struct out_counter *c;
	uint64_t id;
	uint32_t old;

	if (ls_get_u64(rec, LS_F_ID, &id) < 0)
		return otf2out_fail(o, LS_ERR_SYNTAX, "counter without a valid 'id'");
	if (id >= UINT32_MAX - M__COUNT)
		return otf2out_fail(o, LS_ERR_SYNTAX, "counter id too large for OTF2");
	if (ls_idmap_get(&o->counter_ix, id, &old))
		return otf2out_fail(o, LS_ERR_SYNTAX, "definition id defined twice");
	if (ls_vec_room(&o->counters, &o->cap_counters, o->ncounters, sizeof(*c)) < 0 ||
	    ls_idmap_put(&o->counter_ix, id, o->ncounters) < 0)
		return otf2out_fail(o, LS_ERR_NOMEM, "out of memory");
	c = &o->counters[o->ncounters++];
	*c = (struct out_counter){ id, 0, 0, OTF2_TYPE_UINT64, false };
	if ((c->name = string_field(o, rec, LS_F_NAME, true)) == NONE ||
	    (c->unit = string_field(o, rec, LS_F_UNIT, false)) == NONE)
		return LS_ERR_SYNTAX;
	if (id + 1 > o->metric_base)
		o->metric_base = (uint32_t)id + 1;
	return 0;
}

/* Room for index ix in a table kept beside one of ls_defs'. */
#define ROOM(o, table, cap, ix) \
	(ls_vec_room(&(o)->table, &(o)->cap, (ix), sizeof(*(o)->table)) < 0 ? \
	 otf2out_fail((o), LS_ERR_NOMEM, "out of memory") : \
	 (memset(&(o)->table[ix], 0, sizeof(*(o)->table)), 0))

int otf2out_take_definition(struct otf2out *o, const struct ls_record *rec)
{
	const char *why = "";
	int rc = ls_defs_take(&o->defs, rec, &why);
	uint32_t ix;

	if (rc == LS_ERR_SYNTAX)
		return otf2out_fail(o, rc, "%s", why);
	if (rc < 0)
		return otf2out_fail(o, rc, "out of memory");
	switch (rec->kind) {
	case LS_K_PROCESS:
		ix = o->defs.nprocs - 1;
		if (ROOM(o, procs, cap_procs, ix) < 0)
			return LS_ERR_NOMEM;
		o->procs[ix].world = NONE;
		return (o->procs[ix].name = string_field(o, rec, LS_F_NAME, true)) == NONE
		       ? LS_ERR_SYNTAX : 0;
	case LS_K_STREAM:
		ix = o->defs.nstreams - 1;
		if (ROOM(o, streams, cap_streams, ix) < 0)
			return LS_ERR_NOMEM;
		o->streams[ix].crit_open = false;
		o->streams[ix].samples = o->streams[ix].blame = (struct out_cursor){ 0, 0, NULL, 0, 0 };
		o->streams[ix].context = NONE;
		o->streams[ix].given = ls_get_u64(rec, LS_F_LOCATION, &o->streams[ix].loc) == 0 &&
				       o->streams[ix].loc != OTF2_UNDEFINED_LOCATION;
		if (ls_has(rec, LS_F_CONTEXT) &&
		    (o->streams[ix].context = string_field(o, rec, LS_F_CONTEXT, true)) == NONE)
			return LS_ERR_SYNTAX;
		return (o->streams[ix].name = string_field(o, rec, LS_F_NAME, true)) == NONE
		       ? LS_ERR_SYNTAX : 0;
	case LS_K_REGION:
		ix = o->defs.nregions - 1;
		if (ROOM(o, regions, cap_regions, ix) < 0)
			return LS_ERR_NOMEM;
		if ((o->regions[ix].name = string_field(o, rec, LS_F_NAME, true)) == NONE)
			return LS_ERR_SYNTAX;
		return take_region(o, rec, ix);
	case LS_K_COMM:
		ix = o->defs.ncomms - 1;
		if (o->defs.comms[ix].id >= UINT32_MAX - 1)
			return otf2out_fail(o, LS_ERR_SYNTAX, "comm id too large for OTF2");
		if (ROOM(o, comm_names, cap_comms, ix) < 0)
			return LS_ERR_NOMEM;
		return (o->comm_names[ix] = string_field(o, rec, LS_F_NAME, false)) == NONE
		       ? LS_ERR_NOMEM : 0;
	default:
		return take_counter(o, rec);
	}
}

void otf2out_release_definitions(struct otf2out *o)
{
	for (uint32_t i = 0; i < o->defs.nstreams; i++)
		free(o->streams[i].stack);
	ls_defs_release(&o->defs);
	ls_idmap_release(&o->counter_ix);
	free(o->procs);
	free(o->streams);
	free(o->regions);
	free(o->comm_names);
	free(o->counters);
}

/* --- writing them ------------------------------------------------------ */



/* A string of the writer's own (all made before the strings are written). */
static OTF2_StringRef fixed(struct otf2out *o, const char *s)
{
	return otf2out_string(o, s, (uint32_t)strlen(s));
}

static OTF2_LocationType location_type(const struct ls_stream *s)
{
	return s->host ? OTF2_LOCATION_TYPE_CPU_THREAD :
	       s->gpu ? OTF2_LOCATION_TYPE_ACCELERATOR_STREAM : OTF2_LOCATION_TYPE_METRIC;
}

/*
 * A location group per process, then one per accelerator context (a
 * stream's context: its name and process), created by its process's;
 * each stream's group in *group.
 */
static OTF2_ErrorCode write_location_groups(struct otf2out *o, OTF2_GlobalDefWriter *d,
					    uint32_t *group)
{
	OTF2_ErrorCode rc = OTF2_SUCCESS;
	uint32_t next = o->defs.nprocs;

	for (uint32_t p = 0; p < o->defs.nprocs && rc == OTF2_SUCCESS; p++)
		rc = OTF2_GlobalDefWriter_WriteLocationGroup(d, p, o->procs[p].name,
							     OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
							     OTF2_UNDEFINED_LOCATION_GROUP);
	for (uint32_t s = 0; s < o->defs.nstreams && rc == OTF2_SUCCESS; s++) {
		uint32_t p = o->defs.streams[s].process, k = 0;

		group[s] = p;
		if (o->streams[s].context == NONE)
			continue;
		while (k < s && (o->streams[k].context != o->streams[s].context ||
				 o->defs.streams[k].process != p))
			k++;
		if (k < s) {
			group[s] = group[k];
			continue;
		}
		group[s] = next++;
		rc = OTF2_GlobalDefWriter_WriteLocationGroup(d, group[s], o->streams[s].context,
							     OTF2_LOCATION_GROUP_TYPE_ACCELERATOR,
							     0, p);
	}
	return rc;
}

int otf2out_place_locations(struct otf2out *o)
{
	struct ls_idmap seen = LS_IDMAP_INIT;
	uint32_t *next = calloc(o->defs.nprocs + 1, sizeof(*next)), dup;
	bool keep = true;
	int rc = next ? 0 : LS_ERR_NOMEM;

	/* the input's ids where every stream has one, each its own */
	for (uint32_t s = 0; s < o->defs.nstreams && keep && rc == 0; s++) {
		keep = o->streams[s].given && !ls_idmap_get(&seen, o->streams[s].loc, &dup);
		if (keep)
			rc = ls_idmap_put(&seen, o->streams[s].loc, s);
	}
	/* else Score-P's: a process's k-th location is 2^32 k + its number */
	for (uint32_t s = 0; s < o->defs.nstreams && !keep && rc == 0; s++) {
		uint32_t p = o->defs.streams[s].process;

		o->streams[s].loc = (uint64_t)next[p]++ << 32 | p;
	}
	ls_idmap_release(&seen);
	free(next);
	return rc < 0 ? otf2out_fail(o, rc, "out of memory") : 0;
}

static int write_locations(struct otf2out *o, OTF2_GlobalDefWriter *d)
{
	OTF2_StringRef null_name = fixed(o, "CUDA_NULL_STREAM");
	OTF2_AttributeValue one = { .uint64 = 1 };
	uint32_t *group = malloc((o->defs.nstreams + 1) * sizeof(*group));
	OTF2_ErrorCode rc;

	if (!group)
		return otf2out_fail(o, LS_ERR_NOMEM, "out of memory");
	rc = write_location_groups(o, d, group);
	for (uint32_t s = 0; s < o->defs.nstreams && rc == OTF2_SUCCESS; s++) {
		rc = OTF2_GlobalDefWriter_WriteLocation(d, o->streams[s].loc, o->streams[s].name,
							location_type(&o->defs.streams[s]),
							o->streams[s].events, group[s]);
		if (rc == OTF2_SUCCESS && o->defs.streams[s].null)
			rc = OTF2_GlobalDefWriter_WriteLocationProperty(d, o->streams[s].loc, null_name,
									OTF2_TYPE_UINT64, one);
	}
	free(group);
	return rc == OTF2_SUCCESS ? 0 : LS_ERR_IO;
}

static int write_regions(struct otf2out *o, OTF2_GlobalDefWriter *d)
{
	for (uint32_t i = 0; i < o->defs.nregions; i++) {
		const struct out_region *r = &o->regions[i];

		if (!r->copy &&
		    OTF2_GlobalDefWriter_WriteRegion(d, (OTF2_RegionRef)o->defs.region_ids[i],
						     r->name, r->name, 0, r->role, r->paradigm,
						     OTF2_REGION_FLAG_NONE, 0, 0, 0) != OTF2_SUCCESS)
			return LS_ERR_IO;
	}
	return 0;
}

/*
 * Groups and communicators. otf2-print wants the refs of each kind dense
 * and in order, and comms keep their ids as refs: the ids no comm has are
 * filled with comms over an empty group of the USER paradigm, which tr-read
 * passes over.
 */
struct groups {
	uint32_t next;		/* the next group ref */
	uint32_t world, self, copies, unused;
	uint32_t *of_comm;	/* group ref per comm index */
	uint64_t *members;
};

/*
 * The MPI "world": one location per process (its first host thread), in
 * process order; a communicator's group lists indices into it, in rank
 * order, as Score-P writes them.
 */
static int write_world(struct otf2out *o, OTF2_GlobalDefWriter *d, struct groups *g)
{
	uint32_t nworld = 0;

	for (uint32_t s = 0; s < o->defs.nstreams; s++) {
		uint32_t p = o->defs.streams[s].process;

		if (o->procs[p].world == NONE &&
		    (o->defs.streams[s].host || !o->defs.procs[p].nhosts)) {
			o->procs[p].world = nworld;
			g->members[nworld++] = o->streams[s].loc;
		}
	}
	g->world = g->next++;
	return OTF2_GlobalDefWriter_WriteGroup(d, g->world, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS,
					       OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, nworld,
					       g->members) == OTF2_SUCCESS ? 0 : LS_ERR_IO;
}

static int write_named_group(OTF2_GlobalDefWriter *d, uint32_t ref, OTF2_StringRef name,
			     OTF2_GroupType type, OTF2_Paradigm paradigm, uint32_t n,
			     const uint64_t *members)
{
	return OTF2_GlobalDefWriter_WriteGroup(d, ref, name, type, paradigm, OTF2_GROUP_FLAG_NONE,
					       n, members) == OTF2_SUCCESS ? 0 : LS_ERR_IO;
}

static int write_group(OTF2_GlobalDefWriter *d, uint32_t ref, OTF2_GroupType type,
		       OTF2_Paradigm paradigm, uint32_t n, const uint64_t *members)
{
	return write_named_group(d, ref, 0, type, paradigm, n, members);
}

/*
 * The names Score-P gives a paradigm's groups of teams, which readers of
 * its archives look for: its COMM_LOCATIONS group's, its COMM_GROUPs', and
 * for a device paradigm the LOCATIONS group of its device streams' (NULL:
 * no such group).
 */
static const struct team_names {
	OTF2_Paradigm paradigm;
	const char *locations, *group, *devices;
} team_names[] = {
	{ OTF2_PARADIGM_CUDA, "CUDA", "CUDA_GROUP", "CUDA_GROUP" },
	{ OTF2_PARADIGM_OPENCL, "OPENCL", "OPENCL_GROUP", "OPENCL_GROUP" },
	{ OTF2_PARADIGM_OPENMP, "OpenMP", "", NULL },
};

static const struct team_names *names_of(OTF2_Paradigm p)
{
	static const struct team_names none = { OTF2_PARADIGM_UNKNOWN, "", "", NULL };

	for (size_t i = 0; i < sizeof(team_names) / sizeof(team_names[0]); i++)
		if (team_names[i].paradigm == p)
			return &team_names[i];
	return &none;
}

/*
 * A team of streams that holds a non-host stream, or none (a thread team
 * holds its master): a device's, whose window device copies are on.
 */
static bool window_team(const struct otf2out *o, const struct ls_comm *c)
{
	if (!c->paradigm)
		return false;
	for (uint32_t i = 0; i < c->nstreams; i++)
		if (!o->defs.streams[c->streams[i]].host)
			return true;
	return c->nstreams == 0;
}

void otf2out_place_windows(struct otf2out *o)
{
	o->nwins = 0;
	for (uint32_t s = 0; s < o->defs.nstreams; s++)
		o->streams[s].win = NONE;
	for (uint32_t c = 0; c < o->defs.ncomms; c++) {
		const struct ls_comm *team = &o->defs.comms[c];

		if (!window_team(o, team))
			continue;
		for (uint32_t i = 0; i < team->nstreams; i++)
			if (o->streams[team->streams[i]].win == NONE)
				o->streams[team->streams[i]].win = o->nwins;
		o->nwins++;
	}
	o->copy_fallback = false;
	for (uint32_t s = 0; s < o->defs.nstreams; s++)
		if (o->streams[s].win == NONE && o->streams[s].copies) {
			o->streams[s].win = o->nwins;
			o->copy_fallback = true;
		}
}

/* A stream on the "device copies" window: in its CUDA COMM_GROUP. */
static bool copy_stream(const struct otf2out *o, uint32_t s)
{
	return o->copy_fallback && o->streams[s].win == o->nwins;
}

static int write_copies_group(struct otf2out *o, OTF2_GlobalDefWriter *d, struct groups *g,
			      const uint32_t *pos)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < o->defs.nstreams; s++)
		if (copy_stream(o, s))
			g->members[n++] = pos[s];
	return write_group(d, g->copies = g->next++, OTF2_GROUP_TYPE_COMM_GROUP,
			   OTF2_PARADIGM_CUDA, n, g->members);
}

/* A device paradigm's LOCATIONS group: the device streams of its teams, in stream order. */
static int write_devices_group(struct otf2out *o, OTF2_GlobalDefWriter *d, struct groups *g,
			       const char *name, OTF2_Paradigm paradigm)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < o->defs.nstreams; s++) {
		bool in = false;

		for (uint32_t t = 0; t < o->defs.ncomms && !in && !o->defs.streams[s].host; t++) {
			const struct ls_comm *team = &o->defs.comms[t];

			if (team->paradigm && !strcmp(team->paradigm, name))
				for (uint32_t i = 0; i < team->nstreams && !in; i++)
					in = team->streams[i] == s;
		}
		if (in)
			g->members[n++] = o->streams[s].loc;
	}
	return write_named_group(d, g->next++, fixed(o, names_of(paradigm)->devices),
				 OTF2_GROUP_TYPE_LOCATIONS, OTF2_PARADIGM_UNKNOWN, n, g->members);
}

/*
 * Teams of streams (CUDA, OpenMP, ...), as Score-P writes them: per
 * paradigm a COMM_LOCATIONS group of every stream in its teams, in stream
 * order, and per team a COMM_GROUP of positions in it, in rank order. The
 * CUDA one holds the device copies' streams too, and their group.
 */
static int write_team_groups(struct otf2out *o, OTF2_GlobalDefWriter *d, struct groups *g)
{
	uint32_t *pos = malloc((o->defs.nstreams + 1) * sizeof(*pos));
	bool *done = calloc(o->defs.ncomms + 1, sizeof(*done));
	int rc = pos && done ? 0 : otf2out_fail(o, LS_ERR_NOMEM, "out of memory");

	for (uint32_t c = 0; rc == 0 && c < o->defs.ncomms; c++) {
		const char *name = o->defs.comms[c].paradigm;
		OTF2_Paradigm paradigm = name ? otf2_paradigm_by_name(name) : OTF2_PARADIGM_MPI;
		uint32_t n = 0;

		if (!name || done[c])
			continue;
		for (uint32_t s = 0; s < o->defs.nstreams; s++)
			pos[s] = paradigm == OTF2_PARADIGM_CUDA && copy_stream(o, s) ? 0 : NONE;
		for (uint32_t t = c; t < o->defs.ncomms; t++)
			if (o->defs.comms[t].paradigm && !strcmp(o->defs.comms[t].paradigm, name))
				for (uint32_t i = 0; i < o->defs.comms[t].nstreams; i++)
					pos[o->defs.comms[t].streams[i]] = 0;
		for (uint32_t s = 0; s < o->defs.nstreams; s++)
			if (pos[s] != NONE) {
				pos[s] = n;
				g->members[n++] = o->streams[s].loc;
			}
		rc = write_named_group(d, g->next++, fixed(o, names_of(paradigm)->locations),
				       OTF2_GROUP_TYPE_COMM_LOCATIONS, paradigm, n, g->members);
		for (uint32_t t = c; rc == 0 && t < o->defs.ncomms; t++) {
			const struct ls_comm *team = &o->defs.comms[t];

			if (!team->paradigm || strcmp(team->paradigm, name))
				continue;
			for (uint32_t i = 0; i < team->nstreams; i++)
				g->members[i] = pos[team->streams[i]];
			done[t] = true;
			rc = write_named_group(d, g->of_comm[t] = g->next++,
					       fixed(o, names_of(paradigm)->group),
					       OTF2_GROUP_TYPE_COMM_GROUP, paradigm, team->nstreams,
					       g->members);
		}
		if (rc == 0 && names_of(paradigm)->devices)
			rc = write_devices_group(o, d, g, name, paradigm);
		if (rc == 0 && paradigm == OTF2_PARADIGM_CUDA && o->copy_fallback)
			rc = write_copies_group(o, d, g, pos);
	}
	free(pos);
	free(done);
	return rc;
}

/*
 * One group per MPI communicator; one COMM_SELF group for all of
 * MPI_COMM_SELF's.
 */
static int write_comm_groups(struct otf2out *o, OTF2_GlobalDefWriter *d, struct groups *g)
{
	for (uint32_t c = 0; c < o->defs.ncomms; c++) {
		const struct ls_comm *comm = &o->defs.comms[c];

		if (comm->paradigm)
			continue;	/* a team: write_team_groups */
		if (comm->n == 0) {
			if (g->self == NONE && write_group(d, g->self = g->next++,
							   OTF2_GROUP_TYPE_COMM_SELF,
							   OTF2_PARADIGM_MPI, 0, NULL) < 0)
				return LS_ERR_IO;
			g->of_comm[c] = g->self;
			continue;
		}
		for (uint32_t r = 0; r < comm->n; r++)
			if ((g->members[r] = o->procs[comm->members[r]].world) == NONE)
				return otf2out_fail(o, LS_ERR_SYNTAX, "process %" PRIu64
						    " is a member of comm %" PRIu64
						    " but has no stream: OTF2 cannot place it",
						    o->defs.procs[comm->members[r]].id, comm->id);
		g->of_comm[c] = g->next++;
		if (write_group(d, g->of_comm[c], OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
				comm->n, g->members) < 0)
			return LS_ERR_IO;
	}
	return 0;
}

/* Without CUDA teams, the "device copies" window has CUDA groups of its own. */
static int write_copy_groups(struct otf2out *o, OTF2_GlobalDefWriter *d, struct groups *g)
{
	uint32_t n = 0, *pos = malloc((o->defs.nstreams + 1) * sizeof(*pos));
	int rc;

	if (!pos)
		return otf2out_fail(o, LS_ERR_NOMEM, "out of memory");
	for (uint32_t s = 0; s < o->defs.nstreams; s++)
		if (copy_stream(o, s)) {
			pos[s] = n;
			g->members[n++] = o->streams[s].loc;
		}
	rc = write_group(d, g->next++, OTF2_GROUP_TYPE_COMM_LOCATIONS,
			 OTF2_PARADIGM_CUDA, n, g->members);
	if (rc == 0)
		rc = write_copies_group(o, d, g, pos);
	free(pos);
	return rc;
}

static int by_comm_id(const void *a, const void *b, void *data)
{
	const struct ls_comm *comms = data;
	uint64_t x = comms[*(const uint32_t *)a].id, y = comms[*(const uint32_t *)b].id;

	return (x > y) - (x < y);
}

static int write_comm(OTF2_GlobalDefWriter *d, OTF2_CommRef ref, OTF2_StringRef name,
		      uint32_t group)
{
	return OTF2_GlobalDefWriter_WriteComm(d, ref, name, group, OTF2_UNDEFINED_COMM,
					      OTF2_COMM_FLAG_NONE) == OTF2_SUCCESS ? 0 : LS_ERR_IO;
}

/*
 * Communicators by id, the ids between them filled; the windows of device
 * copies, on teams of streams, then on "device copies" where needed.
 */
static int write_comms(struct otf2out *o, OTF2_GlobalDefWriter *d, struct groups *g)
{
	uint32_t *order = (uint32_t *)g->members;	/* room for every comm */
	OTF2_CommRef next = 0;

	for (uint32_t c = 0; c < o->defs.ncomms; c++)
		order[c] = c;
	qsort_r(order, o->defs.ncomms, sizeof(*order), by_comm_id, o->defs.comms);
	for (uint32_t i = 0; i < o->defs.ncomms; i++) {
		uint32_t c = order[i];
		OTF2_CommRef ref = (OTF2_CommRef)o->defs.comms[c].id;

		for (; next < ref; next++) {
			if (g->unused == NONE &&
			    (write_group(d, g->next++, OTF2_GROUP_TYPE_COMM_LOCATIONS,
					 OTF2_PARADIGM_USER, 0, NULL) < 0 ||
			     write_group(d, g->unused = g->next++, OTF2_GROUP_TYPE_COMM_GROUP,
					 OTF2_PARADIGM_USER, 0, NULL) < 0))
				return LS_ERR_IO;
			if (write_comm(d, next, 0, g->unused) < 0)
				return LS_ERR_IO;
		}
		if (write_comm(d, ref, o->comm_names[c], g->of_comm[c]) < 0)
			return LS_ERR_IO;
		next = ref + 1;
	}
	for (uint32_t c = 0, w = 0; c < o->defs.ncomms; c++)
		if (window_team(o, &o->defs.comms[c]) &&
		    OTF2_GlobalDefWriter_WriteRmaWin(d, w++, 0, (OTF2_CommRef)o->defs.comms[c].id,
						     OTF2_RMA_WIN_FLAG_NONE) != OTF2_SUCCESS)
			return LS_ERR_IO;
	if (o->copy_fallback &&
	    (write_comm(d, next, fixed(o, "device copies"), g->copies) < 0 ||
	     OTF2_GlobalDefWriter_WriteRmaWin(d, o->nwins, 0, next,
					      OTF2_RMA_WIN_FLAG_NONE) != OTF2_SUCCESS))
		return LS_ERR_IO;
	return 0;
}

static int write_groups(struct otf2out *o, OTF2_GlobalDefWriter *d)
{
	struct groups g = { 0, NONE, NONE, NONE, NONE, NULL, NULL };
	size_t room = o->defs.nstreams > o->defs.ncomms ? o->defs.nstreams : o->defs.ncomms;
	int rc = 0;

	/* members: a group of streams, of every comm's members, or every comm */
	for (uint32_t c = 0; c < o->defs.ncomms; c++)
		if (o->defs.comms[c].n > room)
			room = o->defs.comms[c].n;

	g.members = malloc((room + 1) * sizeof(*g.members));
	g.of_comm = malloc((o->defs.ncomms + 1) * sizeof(*g.of_comm));
	if (!g.members || !g.of_comm)
		rc = otf2out_fail(o, LS_ERR_NOMEM, "out of memory");
	if (rc == 0 && o->defs.ncomms)
		rc = write_world(o, d, &g);
	if (rc == 0)
		rc = write_comm_groups(o, d, &g);
	if (rc == 0)
		rc = write_team_groups(o, d, &g);
	if (rc == 0 && o->copy_fallback && g.copies == NONE)
		rc = write_copy_groups(o, d, &g);
	if (rc == 0)
		rc = write_comms(o, d, &g);
	free(g.members);
	free(g.of_comm);
	return rc;
}

/* One metric class of one member, written at any time (asynchronous). */
static int write_metric(OTF2_GlobalDefWriter *d, uint32_t ref, OTF2_StringRef name,
			OTF2_StringRef descr, OTF2_MetricMode mode, OTF2_Type type,
			OTF2_StringRef unit)
{
	OTF2_MetricMemberRef member = ref;

	if (OTF2_GlobalDefWriter_WriteMetricMember(d, ref, name, descr, OTF2_METRIC_TYPE_OTHER,
						   mode, type, OTF2_BASE_DECIMAL, 0,
						   unit) != OTF2_SUCCESS ||
	    OTF2_GlobalDefWriter_WriteMetricClass(d, ref, 1, &member, OTF2_METRIC_ASYNCHRONOUS,
						  OTF2_RECORDER_KIND_ABSTRACT) != OTF2_SUCCESS)
		return LS_ERR_IO;
	return 0;
}

const char *const otf2out_metric_names[M__COUNT] = {
	[M_CRIT] = "Critical Path", [M_BLAME] = "Blame", [M_WAIT] = "Waiting Time",
	[M_IDLE_BLAME] = "GPU Idle Blame", [M_IDLE] = "GPU Idle Time",
};

static const struct {
	const char *descr, *unit;
	OTF2_MetricMode mode;
	OTF2_Type type;
} analysis_metrics[M__COUNT] = {
	[M_CRIT] = { "1 while the stream is on the critical path (tr-critpath)",
		     "boolean", OTF2_METRIC_ABSOLUTE_NEXT, OTF2_TYPE_UINT64 },
	[M_BLAME] = { "waiting time the activity ending here caused (tr-waits)",
		      "s", OTF2_METRIC_ABSOLUTE_LAST, OTF2_TYPE_DOUBLE },
	[M_WAIT] = { "time in a wait state since the value before (tr-waits)",
		     "s", OTF2_METRIC_ABSOLUTE_LAST, OTF2_TYPE_DOUBLE },
	[M_IDLE_BLAME] = { "GPU idle time of its process while the activity ending here ran (tr-waits)",
			   "s", OTF2_METRIC_ABSOLUTE_LAST, OTF2_TYPE_DOUBLE },
	[M_IDLE] = { "time the GPU stream (blame_sync) or every GPU stream of the process (gpu_idle) was idle since the value before (tr-waits)",
		     "s", OTF2_METRIC_ABSOLUTE_LAST, OTF2_TYPE_DOUBLE },
};

static int write_metrics(struct otf2out *o, OTF2_GlobalDefWriter *d)
{
	for (uint32_t i = 0; i < o->ncounters; i++) {
		const struct out_counter *c = &o->counters[i];

		if (write_metric(d, (uint32_t)c->id, c->name, 0, OTF2_METRIC_ABSOLUTE_POINT,
				 c->type, c->unit) < 0)
			return LS_ERR_IO;
	}
	for (int m = 0; m < M__COUNT; m++) {
		const char *name = otf2out_metric_names[m], *descr = analysis_metrics[m].descr;
		const char *unit = analysis_metrics[m].unit;

		if (o->metrics[m] &&
		    write_metric(d, otf2out_metric_ref(o, (enum metric)m),
				 fixed(o, name), fixed(o, descr), analysis_metrics[m].mode,
				 analysis_metrics[m].type, fixed(o, unit)) < 0)
			return LS_ERR_IO;
	}
	return 0;
}

/* The attributes tr-read takes CUDA's fields from, and the pattern's. */
static const struct {
	const char *name, *descr;
	OTF2_Type type;
} attributes[A__COUNT] = {
	[A_STREAM_REF] = { "CUDA_STREAM_REF", "the GPU stream the call refers to", OTF2_TYPE_LOCATION },
	[A_EVENT_REF] = { "CUDA_EVENT_REF", "the CUDA event the call refers to", OTF2_TYPE_UINT64 },
	[A_RESULT] = { "CUDA_DRV_API_RESULT", "the call's return code", OTF2_TYPE_INT64 },
	[A_PATTERN] = { "Wait State", "the wait-state pattern (tr-waits)", OTF2_TYPE_STRING },
};

void otf2out_number_attributes(struct otf2out *o)
{
	uint32_t next = 0;

	o->uses[A_PATTERN] = true;	/* the waiting-time metric's, where there is one */
	for (int a = 0; a < A__COUNT; a++)
		o->attr[a] = o->uses[a] ? next++ : NONE;
}

static int write_attributes(struct otf2out *o, OTF2_GlobalDefWriter *d)
{
	for (int a = 0; a < A__COUNT; a++)
		if (o->attr[a] != NONE &&
		    OTF2_GlobalDefWriter_WriteAttribute(d, o->attr[a],
				fixed(o, attributes[a].name), fixed(o, attributes[a].descr),
				attributes[a].type) != OTF2_SUCCESS)
			return LS_ERR_IO;
	if (OTF2_GlobalDefWriter_WriteParameter(d, P_CALLSITE,
						fixed(o, "callsite id"),
						OTF2_PARAMETER_TYPE_UINT64) != OTF2_SUCCESS)
		return LS_ERR_IO;
	return 0;
}

static int make_fixed_strings(struct otf2out *o)
{
	static const char *const more[] = {
		"CUDA_NULL_STREAM", "callsite id", "machine", "device copies",
	};
	bool ok = true;

	for (int m = 0; m < M__COUNT; m++)
		ok &= fixed(o, otf2out_metric_names[m]) != NONE &&
		      fixed(o, analysis_metrics[m].descr) != NONE &&
		      fixed(o, analysis_metrics[m].unit) != NONE;
	for (int a = 0; a < A__COUNT; a++)
		ok &= fixed(o, attributes[a].name) != NONE && fixed(o, attributes[a].descr) != NONE;
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		ok &= fixed(o, more[i]) != NONE;
	for (size_t i = 0; i < sizeof(team_names) / sizeof(team_names[0]); i++)
		ok &= fixed(o, team_names[i].locations) != NONE && fixed(o, team_names[i].group) != NONE;
	return ok ? 0 : otf2out_fail(o, LS_ERR_NOMEM, "out of memory");
}

/* Strings first, so that every definition comes after the strings it names. */
int otf2out_write_definitions(struct otf2out *o)
{
	OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(o->archive);
	OTF2_TimeStamp length = o->any_event ? (OTF2_TimeStamp)(o->max_t - o->min_t) + 1 : 0;
	int rc;

	/* the input trace's, where it holds every event (its start at t = 0) */
	if (o->length && (!o->any_event || (o->min_t >= 0 && (uint64_t)o->max_t < o->length)))
		length = o->length;

	if (!d)
		return LS_ERR_IO;
	if ((rc = make_fixed_strings(o)) < 0)
		return rc;
	if (OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000u, o->shift, length,
						      o->has_epoch ? (uint64_t)o->epoch
								   : OTF2_UNDEFINED_TIMESTAMP) != OTF2_SUCCESS)
		return LS_ERR_IO;
	for (uint32_t i = 0; i < o->strings.n; i++)
		if (OTF2_GlobalDefWriter_WriteString(d, i, o->strings.v[i]) != OTF2_SUCCESS)
			return LS_ERR_IO;
	if (OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, fixed(o, "machine"), fixed(o, "machine"),
						     OTF2_UNDEFINED_SYSTEM_TREE_NODE) != OTF2_SUCCESS)
		return LS_ERR_IO;
	if ((rc = write_locations(o, d)) < 0 || (rc = write_regions(o, d)) < 0 ||
	    (rc = write_groups(o, d)) < 0 || (rc = write_metrics(o, d)) < 0 ||
	    (rc = write_attributes(o, d)) < 0)
		return rc;
	return 0;
}
