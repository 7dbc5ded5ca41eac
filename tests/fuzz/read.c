/*
 * Fuzz target: the stream decoder. Any bytes, read as a stream (msgpack or
 * NDJSON, as ls_read tells them apart), each record checked against the
 * contract (tr-cat --check) and written on as msgpack and as NDJSON.
 */
#include <fcntl.h>
#include <unistd.h>

#include "../../libstream/check.h"
#include "../../libstream/reader.h"
#include "../../libstream/writer.h"
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int in, out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	struct ls_reader r;
	struct ls_writer mp, js;
	struct ls_checker c;
	struct ls_record rec;
	char path[64], msg[256];
	bool checking = true;

	if ((in = fuzz_input(data, size, path, sizeof(path))) < 0 || out < 0 ||
	    ls_reader_open(&r, path) < 0)
		return 0;
	ls_writer_init(&mp, out, LS_FMT_MSGPACK);
	ls_writer_init(&js, out, LS_FMT_JSON);
	ls_checker_init(&c);
	while (ls_read(&r, &rec) > 0) {
		if (checking && ls_check(&c, &rec, msg, sizeof(msg)) < 0)
			checking = false;
		if (ls_write_record(&mp, &rec) < 0)
			break;
		ls_write_record(&js, &rec);	/* binary and ext values have no JSON form */
	}
	ls_writer_flush(&mp);
	ls_writer_flush(&js);
	ls_checker_release(&c);
	ls_writer_release(&mp);
	ls_writer_release(&js);
	ls_reader_release(&r);
	close(in);
	close(out);
	return 0;
}
