// libsystemd (Debian libsystemd-dev to build, libsystemd0 to run): sd-bus for D-Bus,
// sd_notify/sd_watchdog_enabled for the service manager, sd_journal_sendv for logging. Swift calls
// the C API as <systemd/*.h> declare it; csystemd.c defines each function IMUKit calls as a
// one-line trampoline into libsystemd.so.0, loaded with dlopen on the first call. So a tool that
// never talks to D-Bus (imu-steps --replay, say) never maps libsystemd nor what it loads (libcap,
// libgcrypt, liblzma, libzstd, liblz4): about 1 ms of every start (docs/memory.md). No logic
// beyond loading. SD_JOURNAL_SUPPRESS_LOCATION makes sd_journal_sendv a plain function, not a macro.
#ifndef CSYSTEMD_H
#define CSYSTEMD_H
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/timex.h>
#include <poll.h>

/// Loads libsystemd.so.0 and binds every function IMUKit calls; later calls return at once.
/// Thread-safe. Returns NULL when libsystemd is ready, else why not (dlerror's text, or the name of
/// a function it lacks), a string that lives as long as the process. Every trampoline calls it:
/// when libsystemd cannot be loaded, functions that return an int return -ELIBACC ("cannot access
/// a needed shared library", sd-bus's negative-errno convention), those that return a pointer NULL.
const char *csystemd_load(void);
#endif
