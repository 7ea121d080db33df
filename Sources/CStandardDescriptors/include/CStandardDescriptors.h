// Standard input, output and error closed when the tool started (`>&-`, `<&-`): checked by a
// constructor that runs before Swift's runtime and Dispatch open their own descriptors, which
// would otherwise take numbers 0-2 (an epoll descriptor as standard output: writes failed with
// "Invalid argument", and `--replay -` read it). Each closed one is given /dev/null, opened
// read-only: reads see end of file, writes fail with EBADF.
#ifndef CSTANDARD_DESCRIPTORS_H
#define CSTANDARD_DESCRIPTORS_H
/// Bit N set: descriptor N (0, 1 or 2) was closed at start.
int cstd_closed_at_start(void);
#endif
