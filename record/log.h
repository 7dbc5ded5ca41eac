/*
 * The log of one recorded process (docs/trlog.md): opened when the
 * collector is loaded, in the folder tr-record names (TR_RECORD_DIR),
 * under the process's MPI rank where the launcher says it and its pid
 * otherwise; created exclusively, so that nothing is ever replaced.
 * Records are built in one buffer under a lock and written out when it
 * fills, at MPI_Finalize and at exit.
 */
#ifndef REC_LOG_H
#define REC_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/buf.h"

/* Now, on the clock of every record: CLOCK_MONOTONIC, in ns. */
int64_t rec_now(void);

/* Whether the log is open (recording goes on). */
bool rec_on(void);

/*
 * Start a record: takes the log's lock, and returns the buffer to encode
 * into (libstream/enc.h), or NULL where recording is off (nothing taken).
 * *thread is the calling thread's number (0 for the first one recording);
 * a thread's first record is preceded by its TRLOG_THREAD record. thread
 * NULL: a record of no thread of the program's (CUPTI's activity records).
 */
struct ls_buf *rec_begin(uint64_t *thread);

/* End the record started: writes the buffer out if full; drops the lock. */
void rec_end(void);

/* Write out what the buffer holds (at MPI_Finalize). */
void rec_flush(void);

/* Say something about recording on stderr, once per process, as "tr-record: ...". */
void rec_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
