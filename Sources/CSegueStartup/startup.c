#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>
#include "CSegueStartup.h"

static void segue_exit_interrupted(int signal_number) {
    (void)signal_number;
    _exit(130);
}

// Runs when the executable is loaded, before the Swift runtime and main: a signal in a job's first
// milliseconds ends it as any interruption does (130), not with the default action (143).
__attribute__((constructor)) static void segue_early_signals(void) {
    // Under an address-space limit (`ulimit -v`) every thread's malloc arena reserves 64 MiB that the limit
    // counts, and a frame's allocation then failed (an abort) in a job the memory check had accepted: one
    // arena, so that what the job may use is what MemoryBudget counts.
    struct rlimit space;
    if (getrlimit(RLIMIT_AS, &space) == 0 && space.rlim_cur != RLIM_INFINITY) {
        mallopt(M_ARENA_MAX, 1);
    }

    signal(SIGINT, segue_exit_interrupted);
    signal(SIGTERM, segue_exit_interrupted);
    // SIGHUP (a closed terminal) too, unless it was ignored at exec, as `nohup` asks: that job outlives its terminal.
    struct sigaction hangup;
    if (sigaction(SIGHUP, NULL, &hangup) == 0 && hangup.sa_handler != SIG_IGN) {
        signal(SIGHUP, segue_exit_interrupted);
    }
}

void segue_startup_linked(void) {}

int segue_flush_standard_output(void) {
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
    return errno != 0 ? errno : EIO;
}
