/*
 * Writing a record stream as an OTF2 archive, in two passes over the same
 * records: the first takes the definitions and the analysis results and
 * checks every event; the second writes the events, with the analysis
 * results as metrics on their streams ("Critical Path", "Blame",
 * "Waiting Time", "GPU Idle Blame", "GPU Idle Time"), then the definitions. What tr-read reads back from the
 * archive is the stream written, for every stream tr-read writes.
 */
#ifndef OTF2OUT_H
#define OTF2OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../libstream/record.h"

/* What writing found, for --stats and the losses reported once. */
struct otf2out_report {
	uint64_t events;		/* event records written */
	uint64_t samples[5];		/* analysis metric values, by otf2out_metric_names */
	uint64_t left_out[LS_K__COUNT];	/* records OTF2 has no place for, by kind (0: unknown kinds) */
	uint64_t roles_by_name;		/* regions whose role OTF2 cannot carry */
	uint64_t blame_unplaced;	/* blame on activities never entered or never left */
	uint64_t blame_streamless;	/* blame records without the blamed activity's stream */
	uint64_t corr_unplaced;		/* corr on a leave without its enter's, or not on the leave */
	uint64_t cut_strings;		/* names longer than OTF2OUT_STRING_MAX bytes, cut */
};

/* The longest name written: libotf2 writes no record past its chunk (1 MiB here). */
#define OTF2OUT_STRING_MAX 65536

/*
 * The analysis metrics' names, in the order of otf2out_report.samples:
 * critical path, blame, waiting time, GPU idle blame, GPU idle time.
 */
extern const char *const otf2out_metric_names[5];

struct otf2out;

/* A writer, or NULL when out of memory. */
struct otf2out *otf2out_new(void);

/*
 * Pass 1: take one record. Returns 0, or a negative error with a one-line
 * message (what is wrong with this record) in otf2out_error.
 */
int otf2out_take(struct otf2out *o, const struct ls_record *rec);

/*
 * After pass 1: create the archive dir/name.otf2 (dir must exist, the
 * archive must not). Returns 0 or a negative error.
 */
int otf2out_open(struct otf2out *o, const char *dir, const char *name);

/*
 * After otf2out_open: how many passes 2 the archive takes. libotf2 holds
 * a buffer of its own for every stream being written (256 KiB or more);
 * a trace of many streams is written a share of its streams per pass, so
 * that those buffers stay under OTF2OUT_BUFFERS bytes.
 */
uint32_t otf2out_rounds(const struct otf2out *o);

#define OTF2OUT_BUFFERS (UINT64_C(512) << 20)

/* Begin pass 2 number round (0 to otf2out_rounds - 1): 0, or a negative error with its message. */
int otf2out_begin_round(struct otf2out *o, uint32_t round);

/*
 * Pass 2: write one record (the same records as pass 1, in order): of the
 * round's streams, the rest only counted as their order needs.
 */
int otf2out_write(struct otf2out *o, const struct ls_record *rec);

/* End the round: its streams' events written out. Returns 0 or a negative error. */
int otf2out_end_round(struct otf2out *o);

/* Write the definitions and close the archive. Returns 0 or a negative error. */
int otf2out_close(struct otf2out *o);

const char *otf2out_error(const struct otf2out *o);
const struct otf2out_report *otf2out_report(const struct otf2out *o);

/* Free everything; an archive still open is closed as it is. */
void otf2out_free(struct otf2out *o);

#endif
