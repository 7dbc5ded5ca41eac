/*
 * The program's own threads' CUDA records: a runtime or driver call (its
 * name, times, correlation id and result), an NVTX range pushed or popped.
 */
#include "../../formats/trlog/trlog.h"
#include "../../libstream/enc.h"
#include "../log.h"
#include "../names.h"
#include "cudarec.h"

void rec_cuda_api(const char *name, int64_t t0, int64_t t1, uint32_t corr, int64_t result)
{
	uint64_t thread;
	struct ls_buf *b = rec_begin(&thread);
	int64_t id;

	if (!b)
		return;
	id = rec_name(b, name);
	ls_enc_array(b, 7);
	ls_enc_uint(b, TRLOG_CUDA_API);
	ls_enc_uint(b, thread);
	ls_enc_int(b, id);
	ls_enc_int(b, t0);
	ls_enc_int(b, t1);
	ls_enc_uint(b, corr);
	ls_enc_int(b, result);
	rec_end();
}

void rec_cuda_range(const char *name, int64_t t)
{
	uint64_t thread;
	struct ls_buf *b = rec_begin(&thread);
	int64_t id;

	if (!b)
		return;
	id = name ? rec_name(b, name) : -1;
	ls_enc_array(b, 4);
	ls_enc_uint(b, TRLOG_RANGE);
	ls_enc_uint(b, thread);
	ls_enc_int(b, t);
	ls_enc_int(b, id);
	rec_end();
}
