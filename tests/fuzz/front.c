/*
 * Fuzz target: the reader front. The bytes are a reader's calls: each
 * three of them an event (stream, enter or leave, time) or the word that
 * no earlier time will come; the front holds at most 16 events in memory,
 * so most runs go through sorted runs on disk. What it writes is read
 * back and must be every event added, numbered 0, 1, ..., in (t, s)
 * order; anything else aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../libstream/front.h"
#include "../../libstream/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ls_front_options opt = { LS_RANGES_INIT, LS_RANGES_INIT, false, 0, 0,
					16 * sizeof(struct ls_event), 0, 0 };
	struct ls_front_report report;
	struct ls_front f;
	struct ls_writer w;
	struct ls_reader r;
	struct ls_record rec;
	int fd = memfd_create("front", 0);
	uint64_t added = 0, next = 0, id, s, last_s = 0;
	int64_t until = INT64_MIN, t, last_t = INT64_MIN;
	char path[64];

	if (fd < 0)
		return 0;
	ls_writer_init(&w, fd, LS_FMT_MSGPACK);
	ls_front_init(&f, &w, &opt, &report);
	for (uint64_t k = 0; k < 4; k++)
		if (ls_front_stream(&f, k, k / 2) < 0)
			abort();
	for (size_t i = 0; i + 3 <= size; i += 3) {
		int64_t at = data[i + 1] | data[i + 2] << 8;

		if (data[i] & 8) {
			if (ls_front_until(&f, at) < 0)
				abort();
			until = at > until ? at : until;
		} else if (at >= until) {
			struct ls_event *ev = ls_front_add(&f, data[i] & 3, at,
							   data[i] & 4 ? LS_K_LEAVE : LS_K_ENTER);

			if (!ev)
				abort();
			ev->region = data[i] >> 4;
			added++;
		}
	}
	if (ls_front_finish(&f) < 0 || ls_writer_flush(&w) < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	lseek(fd, 0, SEEK_SET);
	if (ls_reader_open(&r, path) < 0)
		abort();
	while (ls_read(&r, &rec) > 0) {
		if (ls_get_u64(&rec, LS_F_ID, &id) < 0 || ls_get_i64(&rec, LS_F_T, &t) < 0 ||
		    ls_get_u64(&rec, LS_F_S, &s) < 0)
			abort();
		if (id != next++ || t < last_t || (t == last_t && s < last_s))
			abort();
		last_t = t;
		last_s = s;
	}
	if (next != added || report.kinds[LS_K_ENTER] + report.kinds[LS_K_LEAVE] != added)
		abort();
	ls_reader_release(&r);
	ls_front_release(&f);
	ls_writer_release(&w);
	close(fd);
	return 0;
}
