// glibc's <sys/timex.h> (adjtimex, struct timex, STA_UNSYNC), which Swift's Glibc module leaves out.
// Used only to ask the kernel whether the wall clock is synchronised; no library to link.
#include <sys/timex.h>
