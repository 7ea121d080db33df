// Debian's libgps (libgps-dev to build, libgps28 to run): the gpsd client library. Swift calls its C
// API as <gps.h> declares it; cgps.c defines each function IMUKit calls as a one-line trampoline
// into libgps.so.28, loaded with dlopen on the first call. So a run without --gps never maps libgps
// nor what it loads (libdbus, and through it libsystemd's own dependencies): part of about 1 ms of
// every start (docs/memory.md). No logic beyond loading.
#ifndef CGPS_H
#define CGPS_H
#include <gps.h>

// The report-field masks are 64-bit shift macros; named constants import cleanly.
static const gps_mask_t cgps_speed_set = SPEED_SET;
static const gps_mask_t cgps_mode_set = MODE_SET;

/// Loads libgps.so.28 and binds every function IMUKit calls; later calls return at once.
/// Thread-safe. Returns NULL when libgps is ready, else why not (dlerror's text, or the name of a
/// function it lacks), a string that lives as long as the process. Every trampoline calls it: when
/// libgps cannot be loaded, gps_open fails as libgps does (-1, errno ELIBACC), gps_errstr returns
/// that reason, and the other functions (reached only through an open connection) return -1/false.
const char *cgps_load(void);
#endif
