/*
 * OTF2 global definitions: strings, regions (with their roles), location
 * groups as processes, locations as streams, MPI communicators, metrics,
 * the attributes and parameters Score-P uses for CUDA.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/roles.h"
#include "diagnose.h"
#include "otf2in_private.h"
#include "vocab.h"

const char *otf2in_string(const struct otf2in *in, OTF2_StringRef ref)
{
	if (ref < in->strings.n && in->strings.v[ref])
		return in->strings.v[ref];
	return "";
}

#define RESERVE_OR_FAIL(t, i) do { \
	int rc_ = TABLE_RESERVE(t, i); \
	if (rc_ < 0) { \
		otf2in_fail(in, rc_, "definition with id %" PRIu64 " out of range", (uint64_t)(i)); \
		return OTF2_CALLBACK_INTERRUPT; \
	} \
} while (0)

static OTF2_CallbackCode on_clock(void *data, uint64_t resolution, uint64_t offset,
				  uint64_t length, uint64_t realtime)
{
	struct otf2in *in = data;

	in->length = length;
	in->resolution = resolution;
	in->offset = offset;
	in->realtime = realtime;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_string(void *data, OTF2_StringRef self, const char *s)
{
	struct otf2in *in = data;

	RESERVE_OR_FAIL(in->strings, self);
	free(in->strings.v[self]);
	if (!(in->strings.v[self] = strdup(s))) {
		otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_region(void *data, OTF2_RegionRef self, OTF2_StringRef name,
				   OTF2_StringRef canonical, OTF2_StringRef descr,
				   OTF2_RegionRole role, OTF2_Paradigm paradigm,
				   OTF2_RegionFlag flags, OTF2_StringRef file,
				   uint32_t begin, uint32_t end)
{
	struct otf2in *in = data;
	struct region *r;

	(void)canonical, (void)descr, (void)flags, (void)file, (void)begin, (void)end;
	RESERVE_OR_FAIL(in->regions, self);
	r = &in->regions.v[self];
	r->name = otf2in_string(in, name);
	r->paradigm = otf2_paradigm_name(paradigm);
	r->role = otf2_classify(r->name, role, paradigm, &r->dir);
	r->defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location_group(void *data, OTF2_LocationGroupRef self,
					   OTF2_StringRef name, OTF2_LocationGroupType type,
					   OTF2_SystemTreeNodeRef parent,
					   OTF2_LocationGroupRef creator)
{
	struct otf2in *in = data;
	struct location_group *g;

	(void)parent;
	RESERVE_OR_FAIL(in->lgroups, self);
	g = &in->lgroups.v[self];
	g->name = otf2in_string(in, name);
	g->type = type;
	g->creator = creator == OTF2_UNDEFINED_LOCATION_GROUP ? NONE : creator;
	g->defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *data, OTF2_LocationRef self, OTF2_StringRef name,
				     OTF2_LocationType type, uint64_t events,
				     OTF2_LocationGroupRef group)
{
	struct otf2in *in = data;
	struct location *l;

	in->events_total += events;
	if (ls_vec_room(&in->locs, &in->locs_cap, in->nlocs, sizeof(*in->locs)) < 0) {
		otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	l = &in->locs[in->nlocs];
	memset(l, 0, sizeof(*l));
	l->ref = self;
	l->events = events;
	l->stream = in->nlocs++;
	l->group = group;
	l->name = otf2in_string(in, name);
	l->type = type == OTF2_LOCATION_TYPE_ACCELERATOR_STREAM ? LOC_GPU :
		  type == OTF2_LOCATION_TYPE_METRIC ? LOC_METRIC : LOC_HOST;
	return OTF2_CALLBACK_SUCCESS;
}

/* A copy of n items of size bytes (at least one byte allocated), or NULL. */
static void *copy_array(const void *items, uint32_t n, size_t size)
{
	void *p = malloc(n ? (size_t)n * size : 1);

	if (p && n)
		memcpy(p, items, (size_t)n * size);
	return p;
}

static OTF2_CallbackCode on_group(void *data, OTF2_GroupRef self, OTF2_StringRef name,
				  OTF2_GroupType type, OTF2_Paradigm paradigm,
				  OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
	struct otf2in *in = data;
	struct group *g;

	(void)name, (void)flags;
	RESERVE_OR_FAIL(in->groups, self);
	g = &in->groups.v[self];
	free(g->members);
	g->members = copy_array(members, n, sizeof(*members));
	if (!g->members) {
		otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	g->n = n;
	g->type = type;
	g->paradigm = paradigm;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *data, OTF2_CommRef self, OTF2_StringRef name,
				 OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
	struct otf2in *in = data;

	(void)parent, (void)flags;
	RESERVE_OR_FAIL(in->comms, self);
	in->comms.v[self].name = otf2in_string(in, name);
	in->comms.v[self].group = group;
	in->comms.v[self].defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_attribute(void *data, OTF2_AttributeRef self, OTF2_StringRef name,
				      OTF2_StringRef descr, OTF2_Type type)
{
	struct otf2in *in = data;
	const char *s = otf2in_string(in, name);

	(void)descr, (void)type;
	if (strcmp(s, "CUDA_STREAM_REF") == 0 || strcmp(s, "HIP_STREAM_REF") == 0)
		in->attr_stream_ref = self;
	else if (strcmp(s, "CUDA_EVENT_REF") == 0 || strcmp(s, "HIP_EVENT_REF") == 0)
		in->attr_event_ref = self;
	else if (strcmp(s, "CUDA_DRV_API_RESULT") == 0 || strcmp(s, "HIP_API_RESULT") == 0)
		in->attr_result = self;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_parameter(void *data, OTF2_ParameterRef self, OTF2_StringRef name,
				      OTF2_ParameterType type)
{
	struct otf2in *in = data;

	(void)type;
	if (strcmp(otf2in_string(in, name), "callsite id") == 0)
		in->param_callsite = self;
	return OTF2_CALLBACK_SUCCESS;
}

/* CUDA_NULL_STREAM (Score-P 1-8) or hipNullStream (Score-P 9) marks the null stream. */
static OTF2_CallbackCode on_location_property(void *data, OTF2_LocationRef location,
					      OTF2_StringRef name, OTF2_Type type,
					      OTF2_AttributeValue value)
{
	struct otf2in *in = data;
	const char *s = otf2in_string(in, name);
	bool set;

	if (strcmp(s, "CUDA_NULL_STREAM") != 0 && strcmp(s, "hipNullStream") != 0)
		return OTF2_CALLBACK_SUCCESS;
	if (type == OTF2_TYPE_STRING)
		set = strcmp(otf2in_string(in, value.stringRef), "0") != 0 &&
		      strcmp(otf2in_string(in, value.stringRef), "false") != 0;
	else
		set = value.uint64 != 0 || type == OTF2_TYPE_NONE;
	for (uint32_t i = 0; i < in->nlocs; i++)
		if (in->locs[i].ref == location)
			in->locs[i].null_stream = set;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_metric_member(void *data, OTF2_MetricMemberRef self,
					  OTF2_StringRef name, OTF2_StringRef descr,
					  OTF2_MetricType type, OTF2_MetricMode mode,
					  OTF2_Type value_type, OTF2_Base base,
					  int64_t exponent, OTF2_StringRef unit)
{
	struct otf2in *in = data;

	(void)descr, (void)type, (void)mode, (void)value_type, (void)base, (void)exponent;
	RESERVE_OR_FAIL(in->members, self);
	in->members.v[self].name = otf2in_string(in, name);
	in->members.v[self].unit = otf2in_string(in, unit);
	in->members.v[self].defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_metric_class(void *data, OTF2_MetricRef self, uint8_t n,
					 const OTF2_MetricMemberRef *members,
					 OTF2_MetricOccurrence occurrence,
					 OTF2_RecorderKind recorder)
{
	struct otf2in *in = data;
	struct metric *m;

	(void)occurrence, (void)recorder;
	RESERVE_OR_FAIL(in->metrics, self);
	m = &in->metrics.v[self];
	free(m->members);
	m->members = copy_array(members, n, sizeof(*members));
	if (!m->members) {
		otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	m->n = n;
	m->class_ref = NONE;
	m->defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_metric_instance(void *data, OTF2_MetricRef self,
					    OTF2_MetricRef class_ref, OTF2_LocationRef recorder,
					    OTF2_MetricScope scope_type, uint64_t scope)
{
	struct otf2in *in = data;

	(void)recorder, (void)scope_type, (void)scope;
	RESERVE_OR_FAIL(in->metrics, self);
	in->metrics.v[self].class_ref = class_ref;
	in->metrics.v[self].defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static uint32_t loc_hash(uint64_t ref, uint32_t mask)
{
	return (uint32_t)((ref * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & mask;
}

/* Every event looks its location up: an open-addressing table of refs. */
static int index_locations(struct otf2in *in)
{
	uint32_t size = 16;

	while (size < 2 * in->nlocs)
		size *= 2;
	in->loc_slot = calloc(size, sizeof(*in->loc_slot));
	if (!in->loc_slot)
		return otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
	in->loc_mask = size - 1;
	for (uint32_t i = 0; i < in->nlocs; i++) {
		uint32_t h = loc_hash(in->locs[i].ref, in->loc_mask);

		while (in->loc_slot[h])
			h = (h + 1) & in->loc_mask;
		in->loc_slot[h] = i + 1;
	}
	return 0;
}

/* A defined group that is a process of its own, not an accelerator
 * group (Score-P 9) belonging to the process that created it. */
static bool owns_process(const struct otf2in *in, const struct location_group *g)
{
	return g->defined && (g->type != OTF2_LOCATION_GROUP_TYPE_ACCELERATOR ||
			      g->creator == NONE || g->creator >= in->lgroups.n);
}

/*
 * Processes are the groups that own one, in definition order. A location
 * of a group never defined (a damaged archive) belongs to none: it is
 * left out, with its events.
 */
static void derive_processes(struct otf2in *in)
{
	for (uint32_t i = 0; i < in->lgroups.n; i++)
		if (owns_process(in, &in->lgroups.v[i]))
			in->lgroups.v[i].process = in->nprocesses++;
	for (uint32_t i = 0; i < in->lgroups.n; i++) {
		struct location_group *g = &in->lgroups.v[i];

		if (g->defined && !owns_process(in, g))
			g->process = in->lgroups.v[g->creator].process;
	}
	for (uint32_t i = 0; i < in->nlocs; i++) {
		struct location *l = &in->locs[i];

		l->orphan = l->group >= in->lgroups.n || !in->lgroups.v[l->group].defined;
		in->report.orphan_locations += l->orphan;
	}
}

/* Each rank of an MPI communicator a process, and no process twice. */
static bool placeable(const struct comm *c, uint32_t nprocesses)
{
	bool ok = true;
	uint8_t *seen = calloc(nprocesses ? nprocesses : 1, 1);

	for (uint32_t r = 0; seen && ok && r < c->n; r++) {
		ok = c->process[r] < nprocesses && !seen[c->process[r]];
		if (ok)
			seen[c->process[r]] = 1;
	}
	ok = ok && seen;
	free(seen);
	return ok;
}

/*
 * A team of locations (CUDA, OpenMP, ...): its COMM_GROUP lists ranks,
 * which index its paradigm's COMM_LOCATIONS group; each rank a stream, and
 * the team's processes those of its streams, each once. *placed is false
 * where a rank is no stream. Returns 0, or LS_ERR_NOMEM.
 */
static int derive_team(struct otf2in *in, struct comm *c, const struct group *g, bool *placed)
{
	const struct group *locs = NULL;

	for (uint32_t i = 0; i < in->groups.n && !locs; i++)
		if (in->groups.v[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
		    in->groups.v[i].paradigm == g->paradigm)
			locs = &in->groups.v[i];
	c->paradigm = otf2_paradigm_name(g->paradigm);
	c->stream = malloc((g->n ? g->n : 1) * sizeof(*c->stream));
	c->process = malloc((g->n ? g->n : 1) * sizeof(*c->process));
	if (!c->stream || !c->process)
		return otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
	*placed = locs != NULL;
	for (uint32_t r = 0; *placed && r < g->n; r++) {
		const struct location *l = g->members[r] < locs->n ?
					   otf2in_location(in, locs->members[g->members[r]]) : NULL;
		uint32_t p = l ? in->lgroups.v[l->group].process : NONE, k = 0;

		if (!l) {
			*placed = false;
			break;
		}
		c->stream[c->nstreams++] = l->stream;
		while (k < c->n && c->process[k] != p)
			k++;
		if (k == c->n)
			c->process[c->n++] = p;
	}
	return 0;
}

/*
 * An MPI communicator's group lists ranks, which index the MPI
 * COMM_LOCATIONS group; each location there belongs to a process. Other
 * communicators are teams of locations (derive_team).
 */
static int derive_comms(struct otf2in *in)
{
	const struct group *world = NULL;

	for (uint32_t i = 0; i < in->groups.n; i++)
		if (in->groups.v[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
		    in->groups.v[i].paradigm == OTF2_PARADIGM_MPI)
			world = &in->groups.v[i];
	for (uint32_t i = 0; i < in->comms.n; i++) {
		struct comm *c = &in->comms.v[i];
		const struct group *g;

		if (!c->defined)
			continue;
		g = c->group < in->groups.n ? &in->groups.v[c->group] : NULL;
		c->mpi = g && g->paradigm == OTF2_PARADIGM_MPI &&
			 (g->type == OTF2_GROUP_TYPE_COMM_GROUP ||
			  g->type == OTF2_GROUP_TYPE_COMM_SELF);
		c->written = c->mpi;
		if (!c->mpi && g && g->type == OTF2_GROUP_TYPE_COMM_GROUP) {
			if (derive_team(in, c, g, &c->written) < 0)
				return in->status;
			in->report.comms_unplaced += !c->written;
			continue;
		}
		if (!c->mpi || g->type == OTF2_GROUP_TYPE_COMM_SELF)
			continue;
		c->process = malloc((g->n ? g->n : 1) * sizeof(*c->process));
		if (!c->process)
			return otf2in_fail(in, LS_ERR_NOMEM, "out of memory");
		for (uint32_t r = 0; r < g->n; r++) {
			struct location *l = NULL;

			if (world && g->members[r] < world->n)
				l = otf2in_location(in, world->members[g->members[r]]);
			c->process[r] = l ? in->lgroups.v[l->group].process : NONE;
		}
		c->n = g->n;
		if (!placeable(c, in->nprocesses)) {
			c->written = false;
			in->report.comms_unplaced++;
		}
	}
	return 0;
}

int otf2in_read_definitions(struct otf2in *in, OTF2_Reader *reader)
{
	OTF2_GlobalDefReader *defs = OTF2_Reader_GetGlobalDefReader(reader);
	OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
	uint64_t count;
	OTF2_ErrorCode rc;

	if (!defs || !cb) {
		if (cb)
			OTF2_GlobalDefReaderCallbacks_Delete(cb);
		return otf2in_fail_definitions(in, in->otf2_msg);
	}
	in->attr_stream_ref = in->attr_event_ref = in->attr_result = NONE;
	in->param_callsite = NONE;
	OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
	OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_location_group);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
	OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
	OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
	OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, on_attribute);
	OTF2_GlobalDefReaderCallbacks_SetParameterCallback(cb, on_parameter);
	OTF2_GlobalDefReaderCallbacks_SetLocationPropertyCallback(cb, on_location_property);
	OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, on_metric_member);
	OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, on_metric_class);
	OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(cb, on_metric_instance);
	OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, cb, in);
	OTF2_GlobalDefReaderCallbacks_Delete(cb);
	rc = OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &count);
	OTF2_Reader_CloseGlobalDefReader(reader, defs);
	if (in->status < 0)
		return in->status;
	if (rc != OTF2_SUCCESS)
		return otf2in_fail_definitions(in, in->otf2_msg[0] ? in->otf2_msg
					       : OTF2_Error_GetDescription(rc));
	if (in->resolution == 0)
		return otf2in_fail(in, LS_ERR_SYNTAX, "no clock properties (timer resolution)");

	if (index_locations(in) < 0)
		return in->status;
	derive_processes(in);
	return derive_comms(in);
}

struct location *otf2in_location(struct otf2in *in, OTF2_LocationRef ref)
{
	if (!in->loc_slot)
		return NULL;
	for (uint32_t h = loc_hash(ref, in->loc_mask); in->loc_slot[h]; h = (h + 1) & in->loc_mask) {
		struct location *l = &in->locs[in->loc_slot[h] - 1];

		if (l->ref == ref)
			return l->orphan ? NULL : l;
	}
	return NULL;
}

/* The process of a location that is not an orphan. */
static uint32_t location_process(const struct otf2in *in, const struct location *l)
{
	return in->lgroups.v[l->group].process;
}

/* "CUDA[0:7]", "HIP[1:0]": device and native stream id, when the name says. */
static bool parse_gpu_name(const char *name, unsigned *device, unsigned *native)
{
	const char *b = strchr(name, '[');

	return b && sscanf(b, "[%u:%u]", device, native) == 2;
}

static int write_process(struct otf2in *in, uint32_t id, const struct location_group *g)
{
		unsigned rank;
	bool has_rank = sscanf(g->name, "MPI Rank %u", &rank) == 1;

	ls_build_begin(in->w, has_rank ? 4 : 3);
	ls_put_str(in->w, LS_F_K, "process");
	ls_put_u64(in->w, LS_F_ID, id);
	ls_put_str(in->w, LS_F_NAME, g->name);
	if (has_rank)
		ls_put_u64(in->w, LS_F_RANK, rank);
	return ls_build_end(in->w);
}

static int write_stream(struct otf2in *in, const struct location *l)
{
		unsigned device = 0, native = 0;
	bool gpu_ids = l->type == LOC_GPU && parse_gpu_name(l->name, &device, &native);
	const struct location_group *g = &in->lgroups.v[l->group];
	bool context = !owns_process(in, g);

	ls_build_begin(in->w, 6 + (gpu_ids ? 2 : 0) + (l->null_stream ? 1 : 0) + context);
	ls_put_str(in->w, LS_F_K, "stream");
	ls_put_u64(in->w, LS_F_ID, l->stream);
	ls_put_u64(in->w, LS_F_PROCESS, location_process(in, l));
	ls_put_str(in->w, LS_F_NAME, l->name);
	ls_put_str(in->w, LS_F_TYPE, l->type == LOC_GPU ? "gpu" : l->type == LOC_METRIC ? "metric" : "host");
	ls_put_u64(in->w, LS_F_LOCATION, l->ref);	/* for tr-otf2, and the tools that read its archive */
	if (gpu_ids) {
		ls_put_u64(in->w, LS_F_DEVICE, device);
		ls_put_u64(in->w, LS_F_NATIVE, native);
	}
	if (l->null_stream) {
		ls_put_bool(in->w, LS_F_NULL_STREAM, true);
	}
	if (context)	/* an accelerator's location group, of its creator's process */
		ls_put_str(in->w, LS_F_CONTEXT, g->name);
	return ls_build_end(in->w);
}

static int write_region(struct otf2in *in, uint32_t id, const char *name,
			enum ls_role role, const char *paradigm, const char *dir)
{
	ls_build_begin(in->w, 5 + (dir != NULL));
	ls_put_str(in->w, LS_F_K, "region");
	ls_put_u64(in->w, LS_F_ID, id);
	ls_put_str(in->w, LS_F_NAME, name);
	ls_put_str(in->w, LS_F_ROLE, ls_role_name(role));
	ls_put_str(in->w, LS_F_PARADIGM, paradigm);
	if (dir)
		ls_put_str(in->w, LS_F_DIR, dir);
	return ls_build_end(in->w);
}

static int write_comm(struct otf2in *in, uint32_t id, const struct comm *c)
{
	ls_build_begin(in->w, c->mpi ? 4 : 6);
	ls_put_str(in->w, LS_F_K, "comm");
	ls_put_u64(in->w, LS_F_ID, id);
	ls_put_str(in->w, LS_F_NAME, c->name);
	ls_put_uints(in->w, LS_F_MEMBERS, c->process, c->n);
	if (!c->mpi) {
		ls_put_str(in->w, LS_F_PARADIGM, c->paradigm);
		ls_put_uints(in->w, LS_F_STREAMS, c->stream, c->nstreams);
	}
	return ls_build_end(in->w);
}

static int write_counter(struct otf2in *in, uint32_t id, const struct metric_member *m)
{
	ls_build_begin(in->w, m->unit[0] ? 4 : 3);
	ls_put_str(in->w, LS_F_K, "counter");
	ls_put_u64(in->w, LS_F_ID, id);
	ls_put_str(in->w, LS_F_NAME, m->name);
	if (m->unit[0])
		ls_put_str(in->w, LS_F_UNIT, m->unit);
	return ls_build_end(in->w);
}

/* Score-P writes device copies as RMA records; they become activities in
 * two regions of ours, after the archive's own (and the team start). */
static int add_copy_regions(struct otf2in *in)
{
	uint32_t first = in->regions.n;
	int rc;

	while (first > 0 && !in->regions.v[first - 1].defined)
		first--;
	if ((rc = TABLE_RESERVE(in->regions, first + 1)) < 0)
		return rc;
	in->region_htod = first;
	in->region_dtoh = first + 1;
	in->regions.v[first] = (struct region){ "memcpy HtoD", "gpu", LS_R_DEV_MEMCPY, "htod", true };
	in->regions.v[first + 1] = (struct region){ "memcpy DtoH", "gpu", LS_R_DEV_MEMCPY, "dtoh", true };
	return 0;
}

/*
 * The OpenMP runtime's team start (tr-critpath's fork transits), a region
 * of ours right after the archive's own where it has OpenMP regions and
 * not this one (an archive tr-otf2 wrote has it by name, with this id).
 */
static int add_team_start_region(struct otf2in *in)
{
	bool openmp = false;
	uint32_t n = in->regions.n;
	int rc;

	while (n > 0 && !in->regions.v[n - 1].defined)
		n--;
	for (uint32_t i = 0; i < n; i++) {
		const struct region *r = &in->regions.v[i];

		if (r->defined && r->role == LS_R_OMP_TEAM_START)
			return 0;
		openmp |= r->defined && ls_role_group(r->role) == LS_G_OMP;
	}
	if (!openmp)
		return 0;
	if ((rc = TABLE_RESERVE(in->regions, n)) < 0)
		return rc;
	in->regions.v[n] = (struct region){ LS_TEAM_START_NAME, "openmp", LS_R_OMP_TEAM_START, NULL, true };
	return 0;
}

/*
 * The trace's length in ns, as its clock properties give it (0: none, or
 * none that fits): tools that read the archive take it for the run time,
 * and records tr-read leaves out (RMA windows, the program's begin and
 * end) may lie past the last event.
 */
static uint64_t trace_length(const struct otf2in *in)
{
	__int128 ns;

	if (!in->resolution || in->length > UINT64_MAX - in->offset)
		return 0;
	ns = otf2in_ticks_to_ns(in, in->offset + in->length);
	return ns > 0 && ns < (__int128)LS_TIME_MAX ? (uint64_t)ns : 0;
}

int otf2in_write_definitions(struct otf2in *in, const char *path)
{
	char producer[64];
	int rc;

	snprintf(producer, sizeof(producer), "tr-read %s", TR_VERSION);
	if ((rc = ls_write_header_length(in->w, producer, path, in->stage, trace_length(in))) < 0)
		return rc;
	for (uint32_t i = 0; i < in->lgroups.n; i++) {
		const struct location_group *g = &in->lgroups.v[i];

		if (owns_process(in, g) && (rc = write_process(in, g->process, g)) < 0)
			return rc;
	}
	ls_front_processes(in->front, in->nprocesses);
	for (uint32_t i = 0; i < in->nlocs; i++) {
		struct location *l = &in->locs[i];

		if (l->orphan)
			continue;
		if ((rc = ls_front_stream(in->front, l->stream, location_process(in, l))) < 0 ||
		    (rc = write_stream(in, l)) < 0)
			return rc;
	}
	if ((rc = add_team_start_region(in)) < 0 || (rc = add_copy_regions(in)) < 0)
		return rc;
	for (uint32_t i = 0; i < in->regions.n; i++) {
		const struct region *r = &in->regions.v[i];

		if (r->defined &&
		    ((rc = ls_front_region(in->front, i, r->role)) < 0 ||
		     (rc = write_region(in, i, r->name, r->role, r->paradigm, r->dir)) < 0))
			return rc;
	}
	for (uint32_t i = 0; i < in->comms.n; i++)
		if (in->comms.v[i].written &&
		    (rc = write_comm(in, i, &in->comms.v[i])) < 0)
			return rc;
	for (uint32_t i = 0; i < in->members.n; i++)
		if (in->members.v[i].defined &&
		    (rc = write_counter(in, i, &in->members.v[i])) < 0)
			return rc;
	return 0;
}
