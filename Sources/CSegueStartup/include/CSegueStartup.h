// Linking this module installs, before main runs, SIGINT and SIGTERM handlers that end the process with status
// 130. No output can exist yet then; main replaces them with the job's own handlers.
#ifndef SEGUE_STARTUP_H
#define SEGUE_STARTUP_H
void segue_startup_linked(void);
// Writes out what stdio holds for standard output (Swift's print writes there): 0 when every byte was written,
// else the errno of the failed write (EIO where stdio kept none), including one that failed earlier in the run.
int segue_flush_standard_output(void);
#endif
