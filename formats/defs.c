/* The process and stream definitions the readers write (defs.h). */
#include "defs.h"

int fmt_write_process(struct ls_writer *w, uint64_t id, const char *name, int64_t rank)
{
	ls_build_begin(w, rank >= 0 ? 4 : 3);
	ls_put_str(w, LS_F_K, "process");
	ls_put_u64(w, LS_F_ID, id);
	ls_put_str(w, LS_F_NAME, name);
	if (rank >= 0)
		ls_put_u64(w, LS_F_RANK, (uint64_t)rank);
	return ls_build_end(w);
}

int fmt_write_stream(struct ls_front *front, struct ls_writer *w, const struct fmt_stream *s)
{
	int rc;

	if ((rc = ls_front_stream(front, s->id, s->process)) < 0)
		return rc;
	ls_build_begin(w, 5 + (s->device >= 0) + (s->native >= 0) + s->null);
	ls_put_str(w, LS_F_K, "stream");
	ls_put_u64(w, LS_F_ID, s->id);
	ls_put_u64(w, LS_F_PROCESS, s->process);
	ls_put_str(w, LS_F_NAME, s->name);
	ls_put_str(w, LS_F_TYPE, s->gpu ? "gpu" : "host");
	if (s->device >= 0)
		ls_put_u64(w, LS_F_DEVICE, (uint64_t)s->device);
	if (s->native >= 0)
		ls_put_u64(w, LS_F_NATIVE, (uint64_t)s->native);
	if (s->null)
		ls_put_bool(w, LS_F_NULL_STREAM, true);
	return ls_build_end(w);
}
