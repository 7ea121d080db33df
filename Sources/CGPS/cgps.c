// Trampolines into libgps.so.28, loaded on first use (include/CGPS.h says why). Each function
// below has the signature <gps.h> declares (the compiler checks it against the header) and calls
// the function of the same name in the loaded libgps. They are hidden: not exported, so libgps's
// calls to its own functions never bind to them.
#include "CGPS.h"

#include "COnDemand.h"
#include <errno.h>

/// Marks a trampoline hidden (the header's declarations stay as they are, and so do libc's).
#define CGPS_HIDDEN __attribute__((visibility("hidden")))

/// libgps's run-time name (Debian 12's libgps28, gpsd 3.22). Its number changes with gpsd's API,
/// so a build against another gpsd stops here instead of failing at run time.
#define CGPS_SONAME "libgps.so.28"
#if GPSD_API_MAJOR_VERSION != 11
#error "gps.h is not gpsd 3.22's (API 11, libgps.so.28): set CGPS_SONAME to this gpsd's libgps soname"
#endif

// Every libgps function IMUKit calls, as X(name, return type, parameters, arguments, value when
// libgps cannot be loaded).
#define CGPS_FUNCTIONS(X) \
    X(gps_open, int, (const char *host, const char *port, struct gps_data_t *data), (host, port, data), (errno = ELIBACC, -1)) \
    X(gps_close, int, (struct gps_data_t *data), (data), -1) \
    X(gps_read, int, (struct gps_data_t *data, char *message, int message_len), (data, message, message_len), -1) \
    X(gps_waiting, bool, (const struct gps_data_t *data, int timeout), (data, timeout), false) \
    X(gps_stream, int, (struct gps_data_t *data, unsigned int flags, void *d), (data, flags, d), -1) \
    X(gps_errstr, const char *, (const int code), (code), cgps_load())

// One pointer per function, typed from the header's own declaration; set on first use by ondemand_load.
CGPS_FUNCTIONS(ONDEMAND_POINTER)

static struct ondemand_library library = ONDEMAND_LIBRARY(CGPS_SONAME, CGPS_FUNCTIONS);

const char *cgps_load(void) { return ondemand_load(&library); }

#define CGPS_TRAMPOLINE(name, ret, params, args, failed) \
    CGPS_HIDDEN ret name params { return cgps_load() ? (failed) : p_##name args; }
CGPS_FUNCTIONS(CGPS_TRAMPOLINE)
