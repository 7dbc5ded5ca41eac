/*
 * The log of one recorded process (docs/trlog.md): opened when the
 * collector is loaded, in the folder tr-record names (TR_RECORD_DIR),
 * under the process's MPI rank where the launcher says it and its pid
 * otherwise; created exclusively, so that nothing is ever replaced.
 * Records are built in one buffer under a lock and written out when it
 * fills, a second after the last write-out, at MPI_Init, MPI_Finalize,
 * MPI_Abort and at exit, and by the signals that end the process
 * (signals.c).
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

/* Write out what the buffer holds (at MPI_Init, MPI_Finalize, MPI_Abort). */
void rec_flush(void);

/*
 * The process is ending by signal signo (or MPI_Abort: 0): write out
 * every whole record the buffer holds and a TRLOG_SIGNAL record, and
 * record nothing more. Safe in a signal handler, on any thread, the one
 * holding the log's lock included (it takes no lock: a write-out under
 * way on another thread is waited for, one on this thread goes on where
 * it was interrupted); only the first call writes.
 */
void rec_dying(int signo);

/*
 * Write the log out when a signal ends the process (signals.c): first
 * (when the collector loads) the signals at their default; then (after
 * MPI_Init) also those MPI took, chained to its handlers.
 */
void rec_take_signals(bool first);

/* Say something about recording on stderr, once per process, as "tr-record: ...". */
void rec_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
