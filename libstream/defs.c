/* Keeping the definitions of a stream, by id and by dense index. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "defs.h"
#include "utf8.h"
#include "vec.h"

void ls_defs_init(struct ls_defs *d)
{
	memset(d, 0, sizeof(*d));
}

/* Register id in m as the next index n. */
static int define(struct ls_idmap *m, uint64_t id, uint32_t n,
		  const char **why)
{
	uint32_t old;

	if (ls_idmap_get(m, id, &old)) {
		*why = "definition id defined twice";
		return LS_ERR_SYNTAX;
	}
	return ls_idmap_put(m, id, n);
}

/* The name rec gives, a copy (NULL: none given). Returns 0 or LS_ERR_NOMEM. */
static int name_of(const struct ls_record *rec, char **name)
{
	const char *s;
	uint32_t n;

	*name = NULL;
	if (ls_get_str(rec, LS_F_NAME, &s, &n) < 0)
		return 0;
	return (*name = strndup(s, n)) ? 0 : LS_ERR_NOMEM;
}

static int take_process(struct ls_defs *d, const struct ls_record *rec,
			uint64_t id, const char **why)
{
	char *name;
	int rc;

	if ((rc = ls_vec_room(&d->procs, &d->procs_cap, d->nprocs, sizeof(*d->procs))) < 0 ||
	    (rc = define(&d->proc_ix, id, d->nprocs, why)) < 0 || (rc = name_of(rec, &name)) < 0)
		return rc;
	d->procs[d->nprocs] = (struct ls_process){ .id = id, .name = name,
						   .ranked = ls_has(rec, LS_F_RANK) };
	d->ranked += ls_has(rec, LS_F_RANK);
	d->nprocs++;
	return 1;
}

static int take_stream(struct ls_defs *d, const struct ls_record *rec,
		       uint64_t id, const char **why)
{
	uint64_t process, device;
	const char *type;
	char *name;
	uint32_t p, n;
	enum ls_stream_type st;
	struct ls_process *pr;
	bool host, null;
	int rc;

	if (ls_get_u64(rec, LS_F_PROCESS, &process) < 0 ||
	    ls_get_str(rec, LS_F_TYPE, &type, &n) < 0) {
		*why = "stream without a valid 'process' or 'type'";
		return LS_ERR_SYNTAX;
	}
	if ((p = ls_index(&d->proc_ix, process)) == LS_NONE) {
		*why = "stream of an undefined process";
		return LS_ERR_SYNTAX;
	}
	st = ls_stream_type_lookup(type, n);
	host = st == LS_ST_HOST;
	pr = &d->procs[p];
	if ((rc = ls_vec_room(&d->streams, &d->streams_cap, d->nstreams, sizeof(*d->streams))) < 0 ||
	    (host && (rc = ls_vec_room(&pr->hosts, &pr->hosts_cap, pr->nhosts,
				       sizeof(*pr->hosts))) < 0) ||
	    (rc = define(&d->stream_ix, id, d->nstreams, why)) < 0 || (rc = name_of(rec, &name)) < 0)
		return rc;
	if (ls_get_u64(rec, LS_F_DEVICE, &device) < 0)
		device = 0;
	if (ls_get_bool(rec, LS_F_NULL_STREAM, &null) < 0)
		null = false;
	d->streams[d->nstreams++] = (struct ls_stream){
		.id = id, .name = name, .process = p, .host = host,
		.first_host = host && !pr->nhosts,
		.gpu = st == LS_ST_GPU,
		.null = null, .device = device,
	};
	if (host)
		pr->hosts[pr->nhosts++] = d->nstreams - 1;
	return 1;
}

/* The direction a copy region's dir names. */
static uint8_t copy_dir(const char *dir, uint32_t n)
{
	switch (ls_copy_dir_lookup(dir, n)) {
	case LS_CD_HTOD:
		return LS_DIR_HTOD;
	case LS_CD_DTOH:
		return LS_DIR_DTOH;
	default:
		return LS_DIR_OTHER;
	}
}

static int take_region(struct ls_defs *d, const struct ls_record *rec,
		       uint64_t id, const char **why)
{
	const char *role, *dir;
	uint32_t n, ndir;
	int rc;

	if (ls_get_str(rec, LS_F_ROLE, &role, &n) < 0) {
		*why = "region without a valid 'role'";
		return LS_ERR_SYNTAX;
	}
	if ((rc = ls_vec_room(&d->roles, &d->roles_cap, d->nregions, 1)) < 0 ||
	    (rc = ls_vec_room(&d->dirs, &d->dirs_cap, d->nregions, 1)) < 0 ||
	    (rc = ls_vec_room(&d->region_ids, &d->region_ids_cap, d->nregions,
			      sizeof(*d->region_ids))) < 0 ||
	    (rc = define(&d->region_ix, id, d->nregions, why)) < 0)
		return rc;
	d->dirs[d->nregions] = ls_get_str(rec, LS_F_DIR, &dir, &ndir) < 0 ?
			       LS_DIR_NONE : copy_dir(dir, ndir);
	/* a role of a newer minor version is plain host code to this one */
	d->region_ids[d->nregions] = id;
	d->roles[d->nregions++] = (uint8_t)ls_role_lookup(role, n);
	return 1;
}

/* What a list of a comm holds, and what to say of it where it is wrong. */
struct list_of {
	enum ls_field field;
	const char *bad, *undefined, *twice;
};

static const struct list_of members_of = { LS_F_MEMBERS, "comm without a valid 'members' array",
	"comm member that is not a defined process", "comm that lists a process twice" };
static const struct list_of streams_of = { LS_F_STREAMS, "comm without a valid 'streams' array",
	"comm stream that is not a defined stream", "comm that lists a stream twice" };

/*
 * List l of rec as indices (*out, malloc'd, *n of them) of the ids ix
 * defines, each once (seen keeps them: index -> position).
 */
static int take_list(const struct ls_record *rec, const struct list_of *l,
		     const struct ls_idmap *ix, uint32_t **out, uint32_t *n,
		     struct ls_idmap *seen, const char **why)
{
	struct ls_iter items;
	struct mp_item m;
	int rc;

	*out = NULL;
	*n = 0;
	if (ls_array_field(rec, l->field, &items) < 0) {
		*why = l->bad;
		return LS_ERR_SYNTAX;
	}
	if (items.left && !(*out = malloc(items.left * sizeof(**out))))
		return LS_ERR_NOMEM;
	while (ls_array_next(&items, &m, NULL, NULL)) {
		uint32_t x;

		if (m.type != MP_UINT || (x = ls_index(ix, m.v.u)) == LS_NONE) {
			*why = l->undefined;
			return LS_ERR_SYNTAX;
		}
		if (ls_index(seen, x) != LS_NONE) {
			*why = l->twice;
			return LS_ERR_SYNTAX;
		}
		if ((rc = ls_idmap_put(seen, x, *n)) < 0)
			return rc;
		(*out)[(*n)++] = x;
	}
	return 0;
}

/* A team of streams: its paradigm, and its streams, each of a member process. */
static int take_team(struct ls_defs *d, const struct ls_record *rec, struct ls_comm *c,
		     const char **why)
{
	struct ls_idmap seen = LS_IDMAP_INIT;
	const char *name;
	uint32_t n;
	int rc;

	if (ls_get_str(rec, LS_F_PARADIGM, &name, &n) < 0 || (n == 3 && !memcmp(name, "mpi", 3)))
		return 0;
	if (!(c->paradigm = strndup(name, n)))
		return LS_ERR_NOMEM;
	if (!ls_has(rec, LS_F_STREAMS))
		return 0;
	rc = take_list(rec, &streams_of, &d->stream_ix, &c->streams, &c->nstreams, &seen, why);
	ls_idmap_release(&seen);
	for (uint32_t i = 0; rc == 0 && i < c->nstreams; i++)
		if (ls_comm_rank(c, d->streams[c->streams[i]].process) == LS_NONE) {
			*why = "comm stream whose process is not a member";
			rc = LS_ERR_SYNTAX;
		}
	return rc;
}

static void release_comm(struct ls_comm *c)
{
	ls_idmap_release(&c->rank_of);
	free(c->members);
	free(c->paradigm);
	free(c->streams);
}

static int take_comm(struct ls_defs *d, const struct ls_record *rec,
		     uint64_t id, const char **why)
{
	struct ls_comm c = { .id = id, .rank_of = LS_IDMAP_INIT };
	int rc;

	if (!ls_has(rec, LS_F_MEMBERS)) {
		*why = members_of.bad;
		return LS_ERR_SYNTAX;
	}
	if ((rc = take_list(rec, &members_of, &d->proc_ix, &c.members, &c.n, &c.rank_of,
			    why)) < 0 ||
	    (rc = take_team(d, rec, &c, why)) < 0 ||
	    (rc = ls_vec_room(&d->comms, &d->comms_cap, d->ncomms, sizeof(*d->comms))) < 0 ||
	    (rc = define(&d->comm_ix, id, d->ncomms, why)) < 0) {
		release_comm(&c);
		return rc;
	}
	d->comms[d->ncomms++] = c;
	return 1;
}

int ls_defs_take(struct ls_defs *d, const struct ls_record *rec,
		 const char **why)
{
	const char *name;
	uint64_t id;
	uint32_t n;

	if (!(LS_DEFS_KINDS & LS_KIND_BIT(rec->kind)))
		return 0;
	if (ls_get_u64(rec, LS_F_ID, &id) < 0) {
		*why = "definition without a valid 'id'";
		return LS_ERR_SYNTAX;
	}
	if (ls_get_str(rec, LS_F_NAME, &name, &n) == 0 && !ls_utf8_valid(name, n)) {
		*why = "name that is not valid UTF-8";	/* what a picture or report would carry on */
		return LS_ERR_SYNTAX;
	}
	switch (rec->kind) {
	case LS_K_PROCESS:
		return take_process(d, rec, id, why);
	case LS_K_STREAM:
		return take_stream(d, rec, id, why);
	case LS_K_REGION:
		return take_region(d, rec, id, why);
	default:
		return take_comm(d, rec, id, why);
	}
}

void ls_defs_release(struct ls_defs *d)
{
	for (uint32_t i = 0; i < d->ncomms; i++)
		release_comm(&d->comms[i]);
	free(d->comms);
	free(d->roles);
	free(d->dirs);
	free(d->region_ids);
	for (uint32_t i = 0; i < d->nstreams; i++)
		free(d->streams[i].name);
	free(d->streams);
	for (uint32_t i = 0; i < d->nprocs; i++) {
		free(d->procs[i].hosts);
		free(d->procs[i].name);
	}
	free(d->procs);
	ls_idmap_release(&d->proc_ix);
	ls_idmap_release(&d->stream_ix);
	ls_idmap_release(&d->region_ix);
	ls_idmap_release(&d->comm_ix);
	ls_defs_init(d);
}
