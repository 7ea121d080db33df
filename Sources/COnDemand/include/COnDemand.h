// Loading a Debian library on first use: what CLibIIO, CSQLite, CSystemd and CGPS share. Each of
// those targets lists the functions IMUKit calls as an X-macro whose entries start (name, ...),
// keeps one pointer p_NAME per function (ONDEMAND_POINTER), describes the library with
// ONDEMAND_LIBRARY, and defines a hidden trampoline of each name that calls ondemand_load first.
#ifndef CONDEMAND_H
#define CONDEMAND_H
#include <pthread.h>
#include <stddef.h>

/// A library to load on first use, and what became of it. Fill it with ONDEMAND_LIBRARY.
struct ondemand_library {
    const char *soname;            ///< the run-time name, e.g. "libsqlite3.so.0"
    const char *const *names;      ///< the functions to bind
    void **const *slots;           ///< where each function's address goes
    size_t count;
    pthread_mutex_t lock;          ///< held while the library is loaded
    int state;                     ///< 0 not tried, 1 bound, 2 failed (read with __atomic_load_n)
    char problem[512];             ///< why it failed: dlerror's text, or "SONAME has no NAME"
};

/// dlopen(3)s the library (RTLD_NOW | RTLD_LOCAL) and dlsym(3)s every function into its slot, on
/// the first call only; later calls return at once. Thread-safe. NULL when every function is
/// bound, else why not (a string that lives as long as the library description).
const char *ondemand_load(struct ondemand_library *library);

#define ONDEMAND_POINTER(name, ...) static __typeof__(&name) p_##name;
#define ONDEMAND_NAME(name, ...) #name,
#define ONDEMAND_SLOT_ADDRESS(name, ...) (void **)&p_##name,
/// The description of `soname` whose functions FUNCTIONS lists (after their ONDEMAND_POINTERs).
#define ONDEMAND_LIBRARY(soname_, FUNCTIONS) { \
    .soname = (soname_), \
    .names = (const char *const[]){ FUNCTIONS(ONDEMAND_NAME) }, \
    .slots = (void **const[]){ FUNCTIONS(ONDEMAND_SLOT_ADDRESS) }, \
    .count = sizeof (const char *const[]){ FUNCTIONS(ONDEMAND_NAME) } / sizeof (const char *), \
    .lock = PTHREAD_MUTEX_INITIALIZER }
#endif
