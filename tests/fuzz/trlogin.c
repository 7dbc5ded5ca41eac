/*
 * Fuzz target: tr-read's reader of tr-record logs over damaged logs. The
 * input is one log, read as the only log of its run into a stream written
 * to /dev/null. The seeds (tests/fuzz/run) are the logs of
 * tests/data/trlog/.
 */
#include <fcntl.h>
#include <unistd.h>

#include "../../formats/trlog/trlogin.h"
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ls_stage self = { "fuzz-trlogin", TR_VERSION, 0, NULL };
	struct ls_front_options opt = { LS_RANGES_INIT, LS_RANGES_INIT, false, 0, 0, 0 };
	struct ls_front_report report;
	struct ls_front front;
	struct ls_writer w;
	char path[64], err[512];
	const char *paths[1] = { path };
	int in = fuzz_input(data, size, path, sizeof(path)), out;

	if (in < 0)
		return 0;
	out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ls_writer_init(&w, out, LS_FMT_MSGPACK);
	ls_front_init(&front, &w, &opt, &report);
	trlogin_read(paths, 1, &self, &front, &w, err, sizeof(err));
	ls_front_release(&front);
	ls_writer_flush(&w);
	ls_writer_release(&w);
	close(out);
	close(in);
	return 0;
}
