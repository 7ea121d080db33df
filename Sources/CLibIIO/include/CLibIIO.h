// libiio 0.24 (Debian: libiio-dev to build, libiio0 to run). Swift calls libiio's C API as
// declared in <iio.h>; clibiio.c defines each function IMUKit calls as a one-line trampoline into
// libiio.so.0, which it loads with dlopen the first time a context is created (IIOContext). So a
// process that never opens an `iio:` source never maps libiio, nor what only libiio loads
// (libxml2, ICU, libusb, libudev, avahi): about 2 ms of every start and 1.3 MB of RSS
// (docs/memory.md). No logic beyond loading: the API is libiio's own.
#ifndef CLIBIIO_H
#define CLIBIIO_H
#include <iio.h>

/// Loads libiio.so.0 and binds every libiio function IMUKit calls; later calls return at once.
/// Thread-safe. Returns NULL when libiio is ready, else why not (dlerror's text, or the name of a
/// function libiio lacks), a string that lives as long as the process.
const char *clibiio_load(void);
#endif
