/*
 * The signals that end a recorded process: the log's whole records are
 * written out first (rec_dying), then the signal goes on as it would
 * have. Taken where the program leaves them to their default when the
 * collector loads (a program's own handler, installed later, replaces
 * this one: its exit() still writes the log out), and again after
 * MPI_Init for those MPI took over (Open MPI's for crashes), chained to
 * them. The termination signals are the ones mpirun sends the other
 * ranks when one aborts or dies, and a batch system at its time limit.
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "log.h"

static const int ending[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU };
static const int crashing[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS };
#define ENDING (sizeof(ending) / sizeof(ending[0]))
#define CRASHING (sizeof(crashing) / sizeof(crashing[0]))

/* What each signal did before this handler took it (by signal number). */
static struct sigaction before[NSIG];

static bool is_crash(int sig)
{
	for (size_t i = 0; i < CRASHING; i++)
		if (crashing[i] == sig)
			return true;
	return false;
}

static void on_signal(int sig, siginfo_t *info, void *ctx)
{
	const struct sigaction *was = &before[sig];
	bool default_action = !(was->sa_flags & SA_SIGINFO) && was->sa_handler == SIG_DFL;

	/* a handler of MPI's or the program's may let a termination signal pass: then it records on */
	if (default_action || is_crash(sig))
		rec_dying(sig);
	if (default_action) {
		/* as it was, and again: pending until this returns, then the default ends the process */
		sigaction(sig, was, NULL);
		raise(sig);
	} else if (was->sa_flags & SA_SIGINFO) {
		was->sa_sigaction(sig, info, ctx);
	} else if (was->sa_handler != SIG_IGN) {
		was->sa_handler(sig);
	}
}

/* Take sig unless it is ignored, or already this handler's; first: only where it is at its default. */
static void take(int sig, bool first)
{
	struct sigaction now, mine = { .sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK };

	if (sigaction(sig, NULL, &now) < 0 || (now.sa_flags & SA_SIGINFO ? now.sa_sigaction == on_signal :
						   now.sa_handler == SIG_IGN) ||
	    (first && (now.sa_flags & SA_SIGINFO || now.sa_handler != SIG_DFL)))
		return;
	mine.sa_sigaction = on_signal;
	sigemptyset(&mine.sa_mask);
	before[sig] = now;
	sigaction(sig, &mine, NULL);
}

void rec_take_signals(bool first)
{
	for (size_t i = 0; i < ENDING; i++)
		take(ending[i], first);
	for (size_t i = 0; i < CRASHING; i++)
		take(crashing[i], first);
}
