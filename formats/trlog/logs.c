/*
 * Opening tr-record's logs: the folders and files given, each log mapped
 * and read once for what the stream's definitions need (its process, run,
 * threads, communicators, clock synchronizations, the functions it
 * called) and for where its valid records end.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../libstream/error.h"
#include "../../libstream/idset.h"
#include "../../libstream/roles.h"
#include "../../libstream/vec.h"
#include "trlogin_private.h"

/* --- decoding fields --- */

static bool cur_item(struct cur *c, struct mp_item *it)
{
	long k = c->bad ? 0 : mp_head(c->p, c->end, it);

	if (k <= 0) {
		c->bad = true;
		return false;
	}
	c->p += k;
	return true;
}

int64_t cur_int(struct cur *c)
{
	struct mp_item it;

	if (!cur_item(c, &it))
		return 0;
	if (it.type == MP_INT)
		return it.v.i;
	if (it.type == MP_UINT && it.v.u <= INT64_MAX)
		return (int64_t)it.v.u;
	c->bad = true;
	return 0;
}

uint64_t cur_uint(struct cur *c)
{
	struct mp_item it;

	if (!cur_item(c, &it))
		return 0;
	if (it.type == MP_UINT)
		return it.v.u;
	c->bad = true;
	return 0;
}

uint32_t cur_array(struct cur *c)
{
	struct mp_item it;

	if (!cur_item(c, &it))
		return 0;
	if (it.type == MP_ARRAY)
		return it.v.n;
	c->bad = true;
	return 0;
}

void cur_str(struct cur *c, char *buf, size_t n)
{
	struct mp_item it;

	buf[0] = '\0';
	if (!cur_item(c, &it))
		return;
	if (it.type != MP_STR) {
		c->bad = true;
		return;
	}
	snprintf(buf, n, "%.*s", (int)it.v.s.n, it.v.s.p);
}

char *cur_strdup(struct cur *c)
{
	struct mp_item it;
	char *s;

	if (!cur_item(c, &it))
		return NULL;
	if (it.type != MP_STR || !(s = malloc(it.v.s.n + 1))) {
		c->bad = c->bad || it.type != MP_STR;
		return NULL;
	}
	memcpy(s, it.v.s.p, it.v.s.n);
	s[it.v.s.n] = '\0';
	return s;
}

void cur_skip(struct cur *c)
{
	long k = c->bad ? 0 : mp_skip(c->p, c->end);

	if (k <= 0)
		c->bad = true;
	else
		c->p += k;
}

static bool key_is(const struct mp_item *key, const char *name)
{
	return key->type == MP_STR && key->v.s.n == strlen(name) && !memcmp(key->v.s.p, name, key->v.s.n);
}

/* --- the header --- */


static bool a_time(int64_t t)
{
	return t >= 0 && t < MAX_T;
}


/* The header map: its fields into l, body set. Returns 0 or an error (message in err). */
static int read_header(struct trlogin *in, struct log *l)
{
	struct cur c = { l->map, l->map ? l->map + l->size : NULL, !l->map };
	struct mp_item it, key;
	uint64_t major = 0;
	char format[16] = "";

	if (!cur_item(&c, &it) || it.type != MP_MAP) {
		snprintf(in->err, in->errlen, "%s: not a tr-record log (no header)", l->path);
		return LS_ERR_SYNTAX;
	}
	l->launcher_rank = -1;
	for (uint32_t i = 0; i < it.v.n && !c.bad; i++) {
		if (!cur_item(&c, &key))
			break;
		if (key_is(&key, "format"))
			cur_str(&c, format, sizeof(format));
		else if (key_is(&key, "major"))
			major = cur_uint(&c);
		else if (key_is(&key, "minor"))
			l->minor = cur_uint(&c);
		else if (key_is(&key, "host"))
			cur_str(&c, l->host, sizeof(l->host));
		else if (key_is(&key, "program"))
			cur_str(&c, l->program, sizeof(l->program));
		else if (key_is(&key, "job"))
			cur_str(&c, l->job, sizeof(l->job));
		else if (key_is(&key, "pid"))
			l->pid = cur_int(&c);
		else if (key_is(&key, "start"))
			l->start = cur_int(&c);
		else if (key_is(&key, "realtime"))
			l->realtime = cur_int(&c);	/* where not a time, unknown: 0 */
		else if (key_is(&key, "launcher_rank"))
			l->launcher_rank = cur_int(&c);
		else
			cur_skip(&c);
	}
	if (c.bad || strcmp(format, "trlog") != 0 || !a_time(l->start)) {
		snprintf(in->err, in->errlen, "%s: not a tr-record log (its header is not one)", l->path);
		return LS_ERR_SYNTAX;
	}
	if (major != TRLOG_MAJOR) {
		snprintf(in->err, in->errlen,
			 "%s: a log of format %llu.%llu, which this tr-read (of format %d.%d) does not read%s",
			 l->path, (unsigned long long)major, (unsigned long long)l->minor, TRLOG_MAJOR,
			 TRLOG_MINOR, major > TRLOG_MAJOR ? ": read it with a newer tr-read" : "");
		return LS_ERR_VERSION;
	}
	if (!a_time(l->realtime))
		l->realtime = 0;
	l->body = (size_t)(c.p - l->map);
	l->last_t = l->start;
	return 0;
}

/* --- the records, once --- */

/* The dense id of the communicator key, made with members where new. */
static int comm_define(struct trlogin *in, struct log *l, int64_t local, uint64_t key, struct cur *c)
{
	uint32_t n = cur_array(c), id, *members;
	int rc;

	if (c->bad || local < 0 || local > (1 << 24) || !(members = malloc(sizeof(*members) * (n ? n : 1))))
		return c->bad || local < 0 || local > (1 << 24) ? LS_ERR_SYNTAX : LS_ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		members[i] = (uint32_t)cur_uint(c);
	if (!ls_idmap_get(&in->comm_ix, key, &id)) {
		id = in->ncomms;
		if ((rc = ls_vec_room(&in->comms, &in->comms_cap, in->ncomms, sizeof(*in->comms))) < 0 ||
		    (rc = ls_idmap_put(&in->comm_ix, key, id)) < 0) {
			free(members);
			return rc;
		}
		in->comms[in->ncomms++] = (struct comm_def){ key, members, n, -1, false };
	} else {
		struct comm_def *d = &in->comms[id];

		if (d->n != n || memcmp(d->members, members, sizeof(*members) * n))
			d->differs = true;
		free(members);
	}
	if ((uint32_t)local < l->ncomm && l->comm[local] != UINT32_MAX && l->comm[local] != id)
		return LS_ERR_SYNTAX;	/* one local number for two communicators */
	if ((uint32_t)local >= l->ncomm) {
		uint32_t want = (uint32_t)local + 16;
		uint32_t *grown = realloc(l->comm, sizeof(*grown) * want);

		if (!grown)
			return LS_ERR_NOMEM;
		for (uint32_t i = l->ncomm; i < want; i++)
			grown[i] = UINT32_MAX;
		l->comm = grown;
		l->ncomm = want;
	}
	l->comm[local] = id;
	return 0;
}

/* The first call of MPI function fn: its region (role from the name table, else mpi_other), its collective's op. */
static int fn_region(struct trlogin *in, uint64_t fn)
{
	enum ls_role role = ls_role_by_name(trlog_fn_name[fn], NULL);
	const char *name = trlog_fn_name[fn];

	in->fn_used[fn] = true;
	for (size_t k = 0; name[4 + k] && k < sizeof(in->fn_op[fn]) - 1; k++)
		in->fn_op[fn][k] = (char)tolower((unsigned char)name[4 + k]);
	return fmt_region(&in->regions, name, role == LS_R_UNKNOWN ? LS_R_MPI_OTHER : role, "mpi", NULL, &in->fn_region[fn]);
}

/* A peer or root: a world rank of l's run, or TRLOG_NO_RANK. */
static bool a_rank(const struct log *l, int64_t r)
{
	return r == TRLOG_NO_RANK || (r >= 0 && r < (1 << 24) && (!l->mpi || (uint64_t)r < l->size_of_world));
}

/* A local communicator number: one the process made, or none (-1). */
static bool a_comm(int64_t local)
{
	return local >= -1 && local < (1 << 24);
}

/*
 * A list of requests [[req, how, comm, peer, tag, bytes], ...]: each a
 * known completion (or start) of a request named once. Returns 0 or an
 * error (LS_ERR_SYNTAX: damaged).
 */
static int requests_ok(struct trlogin *in, const struct log *l, struct cur *c, uint64_t most_how)
{
	uint32_t n = cur_array(c);
	int rc = 0;

	ls_idset_clear(&in->reqs_seen);
	for (uint32_t i = 0; i < n && rc == 0 && !c->bad; i++) {
		uint32_t k = cur_array(c);
		uint64_t req = cur_uint(c), how = cur_uint(c);
		int64_t comm = cur_int(c), peer = cur_int(c);

		cur_int(c);	/* tag */
		cur_int(c);	/* bytes */
		for (uint32_t extra = 6; extra < k; extra++)
			cur_skip(c);
		if (c->bad || k < 6 || how > most_how || !a_comm(comm) || !a_rank(l, peer))
			return LS_ERR_SYNTAX;
		if ((rc = ls_idset_add(&in->reqs_seen, req)) == 0)
			return LS_ERR_SYNTAX;	/* one request twice */
		rc = rc < 0 ? rc : 0;
	}
	return c->bad ? LS_ERR_SYNTAX : rc;
}

/*
 * The arguments of a call of function fn (n: the record's elements) as
 * docs/trlog.md gives them by the function's class, read from a copy of
 * c. Returns 0 or an error (LS_ERR_SYNTAX: damaged).
 */
static int call_args_ok(struct trlogin *in, const struct log *l, uint64_t fn, uint32_t n, const struct cur *at)
{
	static const uint32_t nargs[] = {
		[TRLOG_C_PLAIN] = 0, [TRLOG_C_SEND] = 4, [TRLOG_C_RECV] = 4, [TRLOG_C_SENDRECV] = 7,
		[TRLOG_C_ISEND] = 5, [TRLOG_C_IRECV] = 2, [TRLOG_C_COMPLETE] = 1, [TRLOG_C_COLL] = 4,
		[TRLOG_C_ICOLL] = 5, [TRLOG_C_COMM] = 2, [TRLOG_C_START] = 1,
	};
	enum trlog_class cls = trlog_fn_class[fn];
	struct cur c = *at;
	int64_t v[7];

	if (n < 5 + nargs[cls])
		return LS_ERR_SYNTAX;	/* an argument missing */
	switch (cls) {
	case TRLOG_C_COMPLETE:
		return requests_ok(in, l, &c, TRLOG_REQ_CANCELLED);
	case TRLOG_C_START:
		return requests_ok(in, l, &c, TRLOG_REQ_RECV);
	case TRLOG_C_IRECV:
		v[0] = cur_int(&c);
		cur_uint(&c);
		return c.bad || !a_comm(v[0]) ? LS_ERR_SYNTAX : 0;
	case TRLOG_C_COMM:
		v[0] = cur_int(&c);
		v[1] = cur_int(&c);
		return c.bad || !a_comm(v[0]) || !a_comm(v[1]) ? LS_ERR_SYNTAX : 0;
	case TRLOG_C_PLAIN:
		return 0;
	default:
		break;
	}
	/* comm, then peers, tags and bytes (a send's peer, a receive's source, a collective's root), a request */
	for (uint32_t i = 0; i < nargs[cls] && i < 7; i++)
		v[i] = cls != TRLOG_C_ISEND && cls != TRLOG_C_ICOLL ? cur_int(&c) : i < 4 ? cur_int(&c) : (int64_t)cur_uint(&c);
	if (c.bad || !a_comm(v[0]) || !a_rank(l, v[1]) || (cls == TRLOG_C_SENDRECV && !a_rank(l, v[4])))
		return LS_ERR_SYNTAX;
	return 0;
}

/* One record of l, at c (which ends where it ends). Returns 0, or an error (damaged: LS_ERR_SYNTAX). */
static int first_look(struct trlogin *in, struct log *l, struct cur *c)
{
	uint32_t n = cur_array(c);
	uint64_t type = n ? cur_uint(c) : 0;
	int64_t t0, t1;
	uint64_t thread, fn;
	int rc;

	switch (type) {
	case TRLOG_INIT: {
		uint64_t rank = cur_uint(c), size = cur_uint(c);

		/* a log damaged here is no rank's: the launcher's rank may still place it (check_run) */
		cur_str(c, l->run, sizeof(l->run));
		if (c->bad || rank >= size || size > (1 << 24) || !l->run[0])
			return LS_ERR_SYNTAX;
		l->mpi = true;
		l->rank = rank;
		l->size_of_world = size;
		break;
	}
	case TRLOG_SYNC: {
		uint64_t phase = cur_uint(c);
		struct sync s = { true, 0, 0, 0 };

		s.t = cur_int(c);
		s.offset = cur_int(c);
		s.rtt = cur_int(c);
		if (!a_time(s.t) || s.offset <= -MAX_OFFSET || s.offset >= MAX_OFFSET || s.rtt < 0 || s.rtt >= MAX_OFFSET)
			return LS_ERR_SYNTAX;
		if (phase <= TRLOG_SYNC_FINALIZE && !c->bad)
			l->sync[phase] = s;
		break;
	}
	case TRLOG_COMM: {
		int64_t local = cur_int(c);
		uint64_t key = cur_uint(c);

		return c->bad ? LS_ERR_SYNTAX : comm_define(in, l, local, key, c);
	}
	case TRLOG_THREAD:
		thread = cur_uint(c);
		if (!c->bad && thread >= l->nthreads && thread < (1 << 16))
			l->nthreads = thread + 1;
		break;
	case TRLOG_CALL:
		thread = cur_uint(c);
		fn = cur_uint(c);
		t0 = cur_int(c);
		t1 = cur_int(c);
		if (c->bad || thread >= (1 << 16) || !a_time(t0) || !a_time(t1) || t1 < t0)
			return LS_ERR_SYNTAX;
		if (fn < TRLOG_NFN && (rc = call_args_ok(in, l, fn, n, c)) < 0)
			return rc;
		if (thread >= l->nthreads)
			l->nthreads = thread + 1;
		if (fn < TRLOG_NFN && !in->fn_used[fn] && (rc = fn_region(in, fn)) < 0)
			return rc;
		if (fn < TRLOG_NFN && trlog_fn_class[fn] == TRLOG_C_COMM) {
			int64_t made;

			cur_int(c);
			made = cur_int(c);
			if (!c->bad && made >= 0 && (uint64_t)made < l->ncomm && l->comm[made] != UINT32_MAX)
				in->comms[l->comm[made]].fn = (int)fn;
		}
		if (t1 > l->last_t)
			l->last_t = t1;
		break;
	case TRLOG_SIGNAL: {
		int64_t t = cur_int(c);
		uint64_t signo = cur_uint(c);

		if (c->bad || !a_time(t) || signo >= 128)
			return LS_ERR_SYNTAX;
		l->ended_by = (int)signo + 1;
		if (t > l->last_t)
			l->last_t = t;
		break;
	}
	case TRLOG_END:
		l->end_t = cur_int(c);
		l->ended = !c->bad && a_time(l->end_t);
		if (!l->ended)
			return LS_ERR_SYNTAX;
		break;
	case TRLOG_NAME:
	case TRLOG_CUDA_API:
	case TRLOG_GPU_CONTEXT:
	case TRLOG_GPU_KERNEL:
	case TRLOG_GPU_COPY:
	case TRLOG_GPU_SET:
	case TRLOG_GPU_SYNC:
	case TRLOG_GPU_EVENT:
	case TRLOG_RANGE:
		return trlog_cuda_look(in, l, type, c);
	case TRLOG_OMP:
		return trlog_omp_look(in, l, c);
	case TRLOG_FLUSH:
		thread = cur_uint(c);
		t0 = cur_int(c);
		t1 = cur_int(c);
		if (c->bad || thread >= (1 << 16) || !a_time(t0) || !a_time(t1) || t1 < t0)
			return LS_ERR_SYNTAX;
		if (thread >= l->nthreads)
			l->nthreads = thread + 1;
		if (t1 > l->last_t)
			l->last_t = t1;
		return fmt_region(&in->regions, TRLOG_FLUSH_REGION, LS_R_CPU, "measurement", NULL, &in->flush_region);
	default:
		if (l->minor <= TRLOG_MINOR)
			return LS_ERR_SYNTAX;
		in->newer_records++;	/* a record type of a newer minor version */
		return 0;
	}
	return c->bad ? LS_ERR_SYNTAX : 0;
}

static int scan(struct trlogin *in, struct log *l)
{
	size_t at = l->body;
	int rc;

	while (at < l->size) {
		long k = mp_skip(l->map + at, l->map + l->size);
		struct cur c;

		if (k == 0) {
			l->cut = true;
			break;
		}
		c = (struct cur){ l->map + at, l->map + at + (k > 0 ? k : 0), false };
		if (k < 0 || (rc = first_look(in, l, &c)) == LS_ERR_SYNTAX) {
			l->damaged = true;
			break;
		}
		if (rc < 0) {
			snprintf(in->err, in->errlen, "%s: out of memory", l->path);
			return rc;
		}
		at += (size_t)k;
	}
	l->end = at;
	in->cut += l->cut;
	in->damaged += l->damaged;
	in->unended += !l->ended;
	/* the first named, unless a SIGTERM (what mpirun sends the others when one dies) and this one is not */
	if (l->ended_by && (!in->signalled++ || (in->signalled_term && l->ended_by != SIGTERM + 1))) {
		in->signalled_term = l->ended_by == SIGTERM + 1;
		const char *sig = l->ended_by > 1 ? sigabbrev_np(l->ended_by - 1) : NULL;

		snprintf(in->signalled_first, sizeof(in->signalled_first), "%s by %s%s", l->name,
			 l->ended_by == 1 ? "MPI_Abort" : sig ? "SIG" : "signal ", sig ? sig : "");
		if (l->ended_by > 1 && !sig)
			snprintf(in->signalled_first, sizeof(in->signalled_first), "%s by signal %d", l->name,
				 l->ended_by - 1);
	}
	if (!l->ended)
		l->end_t = l->last_t;
	return 0;
}

/* --- opening --- */

static int add_log(struct trlogin *in, const char *path)
{
	struct log *l;
	struct stat st;
	int fd, rc;

	if ((rc = ls_vec_room(&in->logs, &in->logs_cap, in->nlogs, sizeof(*in->logs))) < 0)
		return rc;
	l = &in->logs[in->nlogs];
	memset(l, 0, sizeof(*l));
	if (!(l->path = strdup(path)))
		return LS_ERR_NOMEM;
	l->name = strrchr(l->path, '/') ? strrchr(l->path, '/') + 1 : l->path;
	in->nlogs++;
	/* not blocking: a named pipe is refused, not waited on */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0 || fstat(fd, &st) < 0) {
		snprintf(in->err, in->errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return LS_ERR_IO;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(in->err, in->errlen, "%s: not a tr-record log (%s, not a file)", path,
			 S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a named pipe" : "a device or socket");
		close(fd);
		return LS_ERR_SYNTAX;
	}
	l->size = (size_t)st.st_size;
	l->map = l->size ? mmap(NULL, l->size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (l->size && l->map == MAP_FAILED) {
		l->map = NULL;
		snprintf(in->err, in->errlen, "%s: %s", path, strerror(errno));
		return LS_ERR_IO;
	}
	if ((rc = read_header(in, l)) < 0 ||
	    (rc = fmt_region(&in->regions, l->program[0] ? l->program : "program", LS_R_CPU, "user", NULL,
			       &l->root_region)) < 0)
		return rc;
	return scan(in, l);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The logs in folder dir, in the order of their names; named (the path
 * in its messages) unless it is the input, whose path the caller puts
 * before them.
 */
static int add_folder(struct trlogin *in, const char *dir, bool named)
{
	char **names = NULL, path[4096];
	uint32_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d = opendir(dir);
	int rc = 0;

	if (!d) {
		snprintf(in->err, in->errlen, "%s%s%s", named ? dir : "", named ? ": " : "", strerror(errno));
		return LS_ERR_IO;
	}
	while ((e = readdir(d)) && rc == 0) {
		struct stat st;

		if (!trlog_named(e->d_name))
			continue;
		/* only files: a folder or a pipe named like a log is no log (a pipe would block) */
		if (fstatat(dirfd(d), e->d_name, &st, 0) == 0 && !S_ISREG(st.st_mode)) {
			in->not_files++;
			continue;
		}
		if ((rc = ls_vec_room(&names, &cap, n, sizeof(*names))) == 0 &&
		    !(names[n++] = strdup(e->d_name)))
			rc = LS_ERR_NOMEM;
	}
	closedir(d);
	if (rc == 0 && n == 0) {
		snprintf(in->err, in->errlen, "%s%sholds no tr-record log (NAME%s)", named ? dir : "",
			 named ? ": " : "", TRLOG_SUFFIX);
		rc = LS_ERR_SYNTAX;
	}
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (uint32_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (rc == 0)
			rc = add_log(in, path);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* The run a log belongs to: MPI's, or the process's own. */
static void run_of(const struct log *l, char *buf, size_t n)
{
	if (l->mpi)
		snprintf(buf, n, "%s", l->run);
	else
		snprintf(buf, n, "%s-%lld-%lld", l->host, (long long)l->pid, (long long)l->start);
}

static int by_rank(const void *a, const void *b)
{
	const struct log *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * A log without MPI's record, of a rank the launcher named in a job:
 * a process that died (MPI_Abort, a signal, a crash) before the record
 * was written out, or whose log is damaged before it.
 */
static bool died_early(const struct log *l)
{
	return !l->mpi && l->launcher_rank >= 0 && l->job[0];
}

/*
 * Such logs of the run's job taken as its ranks: the launcher's rank is
 * the world rank. The run is that of a log with MPI's record and the
 * same job, or where no log has one and all died early in one job, the
 * job's. Counted, the first of them named (in->early, in->early_name).
 */
static void adopt_early(struct trlogin *in)
{
	const struct log *ref = NULL;
	uint64_t size = 0;

	for (uint32_t i = 0; i < in->nlogs && !ref; i++)
		if (in->logs[i].mpi && in->logs[i].job[0])
			ref = &in->logs[i];
	for (uint32_t i = 0; i < in->nlogs && !ref; i++)
		if (!died_early(&in->logs[i]) || strcmp(in->logs[i].job, in->logs[0].job))
			return;
		else if ((uint64_t)in->logs[i].launcher_rank >= size)
			size = (uint64_t)in->logs[i].launcher_rank + 1;
	for (uint32_t i = 0; i < in->nlogs; i++) {
		struct log *l = &in->logs[i];

		if (!died_early(l) || (ref && (strcmp(l->job, ref->job) ||
					      (uint64_t)l->launcher_rank >= ref->size_of_world)))
			continue;
		l->mpi = true;
		l->rank = (uint64_t)l->launcher_rank;
		l->size_of_world = ref ? ref->size_of_world : size;
		if (ref)
			snprintf(l->run, sizeof(l->run), "%s", ref->run);
		else
			snprintf(l->run, sizeof(l->run), "job %.72s", l->job);
		if (!in->early++)
			snprintf(in->early_name, sizeof(in->early_name), "%s", l->name);
	}
}

/* All logs of one run, each rank once; processes numbered by rank. */
static int check_run(struct trlogin *in)
{
	char first[320], other[320];

	adopt_early(in);
	run_of(&in->logs[0], first, sizeof(first));
	for (uint32_t i = 1; i < in->nlogs; i++) {
		const struct log *a = &in->logs[0], *b = &in->logs[i];

		run_of(b, other, sizeof(other));
		if (!strcmp(first, other))
			continue;
		if ((a->damaged && !a->mpi) || (b->damaged && !b->mpi))
			snprintf(in->err, in->errlen,
				 "%s is damaged before MPI_Init's record, which names its run: give the other logs by name",
				 a->damaged && !a->mpi ? a->name : b->name);
		else
			snprintf(in->err, in->errlen,
				 "%s and %s are logs of two runs (%s, %s): give the logs of one run",
				 a->name, b->name, first, other);
		return LS_ERR_SYNTAX;
	}
	if (!in->logs[0].mpi)
		return 0;
	qsort(in->logs, in->nlogs, sizeof(*in->logs), by_rank);
	for (uint32_t i = 0; i < in->nlogs; i++) {
		if (i && in->logs[i].rank == in->logs[i - 1].rank) {
			snprintf(in->err, in->errlen, "%s and %s are logs of one rank (%llu)",
				 in->logs[i - 1].name, in->logs[i].name, (unsigned long long)in->logs[i].rank);
			return LS_ERR_SYNTAX;
		}
		in->logs[i].process = (uint32_t)in->logs[i].rank;
	}
	if (in->logs[0].size_of_world > in->nlogs)
		in->ranks_missing = in->logs[0].size_of_world - in->nlogs;
	return 0;
}

int trlog_open(struct trlogin *in, const char *const *paths, int n)
{
	struct stat st;
	int rc = 0;

	for (int i = 0; i < n && rc == 0; i++) {
		if (stat(paths[i], &st) < 0) {
			snprintf(in->err, in->errlen, "%s: %s", paths[i], strerror(errno));
			return LS_ERR_IO;
		}
		rc = S_ISDIR(st.st_mode) ? add_folder(in, paths[i], i > 0) : add_log(in, paths[i]);
	}
	return rc < 0 ? rc : check_run(in);
}

void trlog_close(struct trlogin *in)
{
	for (uint32_t i = 0; i < in->nlogs; i++) {
		if (in->logs[i].map)
			munmap(in->logs[i].map, in->logs[i].size);
		free(in->logs[i].path);
		free(in->logs[i].comm);
		trlog_cuda_release(&in->logs[i]);
	}
	for (uint32_t i = 0; i < in->ncomms; i++)
		free(in->comms[i].members);
	free(in->logs);
	free(in->comms);
	ls_idset_release(&in->reqs_seen);
	ls_idmap_release(&in->comm_ix);
	fmt_regions_release(&in->regions);
}
