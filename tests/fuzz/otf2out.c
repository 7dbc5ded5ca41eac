/*
 * Fuzz target: tr-otf2's writer. Any bytes, read as a stream, taken in a
 * first pass; if they pass, an archive written from a second pass into a
 * fresh folder under TMPDIR (a tmpfs is best), then removed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../cmd/output/staging.h"
#include "../../formats/otf2/otf2out.h"
#include "../../libstream/reader.h"
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every record of the stream at path through each: 0, or -1 at the first it refuses. */
static int pass(struct otf2out *o, const char *path,
		int (*each)(struct otf2out *, const struct ls_record *))
{
	struct ls_reader r;
	struct ls_record rec;
	int rc;

	if (ls_reader_open(&r, path) < 0)
		return -1;
	while ((rc = ls_read(&r, &rec)) > 0 && each(o, &rec) == 0)
		;
	ls_reader_release(&r);
	return rc == 0 ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	char path[64], dir[4096];
	int in = fuzz_input(data, size, path, sizeof(path));
	struct otf2out *o = otf2out_new();

	snprintf(dir, sizeof(dir), "%s/fuzz-otf2out-XXXXXX", tmp ? tmp : "/tmp");
	if (in >= 0 && o && pass(o, path, otf2out_take) == 0 && mkdtemp(dir)) {
		if (otf2out_open(o, dir, "a") == 0 && pass(o, path, otf2out_write) == 0)
			otf2out_close(o);
		otf2out_free(o);
		o = NULL;
		staging_remove_tree(dir);
	}
	otf2out_free(o);
	if (in >= 0)
		close(in);
	return 0;
}
