// Nothing to call: linking this module installs, before main runs, SIGINT and SIGTERM handlers that end the
// process with status 130. No output can exist yet then; main replaces them with the job's own handlers.
#ifndef SEGUE_STARTUP_H
#define SEGUE_STARTUP_H
void segue_startup_linked(void);
#endif
