/* What each pattern means and what usually causes it (pattern-words.h). */
#include "pattern-words.h"

static const struct pattern_words words[LS_P__COUNT] = {
	[LS_P_LATE_SENDER] = { "a receive waited for its message's send to begin",
			       "the sender had more work before the send than the receiver before the receive" },
	[LS_P_LATE_SENDER_WRONG_ORDER] = { "a receive waited for a late send while an earlier message "
					   "to the same process was already on its way",
					   "messages received in another order than they were sent" },
	[LS_P_LATE_RECEIVER] = { "a blocking send waited until its receive was posted",
				 "a synchronous (or too large to buffer) send to a process that posts its "
				 "receive late" },
	[LS_P_WAIT_NXN] = { "a member of an all-to-all collective waited for the last member to enter",
			    "work unevenly spread over the processes before the collective" },
	[LS_P_WAIT_BARRIER] = { "a barrier's member waited for the last member to enter",
				"work unevenly spread over the processes before the barrier" },
	[LS_P_LATE_BROADCAST] = { "a non-root of a broadcast or scatter waited for the root",
				  "the root had more to do before the collective" },
	[LS_P_EARLY_REDUCE] = { "the root of a reduce or gather waited for the last contributor",
				"contributors with more work before the collective than the root" },
	[LS_P_EARLY_SCAN] = { "a member of a scan waited for a member before it",
			      "lower ranks with more work before the scan" },
	[LS_P_WAIT_INIT] = { "MPI_Init waited for the last process to start",
			     "processes started at different times, or work before MPI_Init" },
	[LS_P_WAIT_FINALIZE] = { "MPI_Finalize waited for the last process to finish",
				 "work unevenly spread: some processes ended their share early" },
	[LS_P_BLAME_KERNEL] = { "a host call that synchronizes with the GPU waited for GPU work to end",
				"a synchronization (or blocking copy) placed before the GPU work is done and "
				"the host has nothing else to do" },
	[LS_P_BLAME_SYNC] = { "a GPU stream sat idle from the end of its work until the host "
			      "synchronized with it",
			      "the host synchronizing late, so no new work was given in the meantime" },
	[LS_P_EVENT_QUERY] = { "an unsuccessful query of a CUDA event while its work still ran",
			       "polling for GPU work instead of doing host work meanwhile" },
	[LS_P_STREAM_QUERY] = { "an unsuccessful query of a GPU stream while its work still ran",
				"polling for GPU work instead of doing host work meanwhile" },
	[LS_P_NULL_STREAM] = { "GPU work held back by work on the default (null) stream",
			       "the legacy default stream, which serializes with every other stream" },
	[LS_P_STREAM_WAIT] = { "GPU work held back by a stream wait on another stream's work",
			       "a dependency between streams, the other stream's work being late" },
	[LS_P_GPU_IDLE] = { "every GPU stream of a process sat idle while its host threads ran",
			    "host work between kernels that is not overlapped with GPU work" },
	[LS_P_OMP_BARRIER] = { "an OpenMP thread waited at a barrier for the last thread",
			       "loop iterations or tasks unevenly spread over the threads" },
	[LS_P_OMP_LOCK] = { "an OpenMP thread waited for a lock another thread held",
			    "a contended lock or critical section" },
	[LS_P_OMP_FORK_JOIN] = { "the master thread waited at the end of a parallel region for the "
				 "last team thread", "uneven work among the threads of the region" },
};

const struct pattern_words *pattern_words(enum ls_pattern p)
{
	return &words[p];
}
