#include "CStandardDescriptors.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int closed_at_start = 0;

// Runs when the executable is loaded, before main and before any library opens a descriptor.
__attribute__((constructor)) static void occupy_closed_standard_descriptors(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            closed_at_start |= 1 << fd;
            int null = open("/dev/null", O_RDONLY);   // lowest free number: fd itself
            if (null >= 0 && null != fd) { dup2(null, fd); close(null); }
        }
    }
}

int cstd_closed_at_start(void) { return closed_at_start; }
