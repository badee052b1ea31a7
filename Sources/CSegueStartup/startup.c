#include <signal.h>
#include <unistd.h>
#include "CSegueStartup.h"

static void segue_exit_interrupted(int signal_number) {
    (void)signal_number;
    _exit(130);
}

// Runs when the executable is loaded, before the Swift runtime and main: a signal in a job's first
// milliseconds ends it as any interruption does (130), not with the default action (143).
__attribute__((constructor)) static void segue_early_signals(void) {
    signal(SIGINT, segue_exit_interrupted);
    signal(SIGTERM, segue_exit_interrupted);
    // SIGHUP (a closed terminal) too, unless it was ignored at exec, as `nohup` asks: that job outlives its terminal.
    struct sigaction hangup;
    if (sigaction(SIGHUP, NULL, &hangup) == 0 && hangup.sa_handler != SIG_IGN) {
        signal(SIGHUP, segue_exit_interrupted);
    }
}

void segue_startup_linked(void) {}
