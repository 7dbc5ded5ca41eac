/*
 * Fuzz targets: tr-read's readers of files over damaged inputs, one target
 * each (make fuzz builds this file with FUZZ_TRLOGIN, FUZZ_KINETOIN or
 * FUZZ_NSYSIN): the input is one file (a tr-record log, a Kineto trace
 * plain or gzip, an Nsight export), read as the only input into a stream
 * written to /dev/null. The seeds (tests/fuzz/run): the logs of
 * tests/data/trlog/; bench/gen-kineto's traces and the corpus's; small
 * Nsight exports made with sqlite3.
 */
#include <fcntl.h>
#include <unistd.h>

#if defined(FUZZ_TRLOGIN)
#include "../../formats/trlog/trlogin.h"
#define READ trlogin_read
#elif defined(FUZZ_KINETOIN)
#include "../../formats/kineto/kinetoin.h"
#define READ kinetoin_read
#elif defined(FUZZ_NSYSIN)
#include "../../formats/nsys/nsysin.h"
#define READ nsysin_read
#endif
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ls_stage self = { "fuzz-reader", TR_VERSION, 0, NULL };
	struct ls_front_options opt = LS_FRONT_OPTIONS_INIT;
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
	READ(paths, 1, &self, &front, &w, err, sizeof(err));
	ls_front_release(&front);
	ls_writer_flush(&w);
	ls_writer_release(&w);
	close(out);
	close(in);
	return 0;
}
