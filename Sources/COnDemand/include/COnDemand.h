// Loading a Debian library on first use: what CLibIIO, CSQLite, CSystemd and CGPS share. Each of
// those targets lists the functions IMUKit calls (an X-macro), keeps one pointer per function and
// defines a hidden trampoline of the same name that calls through it; this binds the pointers.
#ifndef CONDEMAND_H
#define CONDEMAND_H
#include <stddef.h>

/// dlopen(3)s `soname` (RTLD_NOW | RTLD_LOCAL) and dlsym(3)s each of `names` into the pointer
/// `slots[i]` points at. Returns 1 when every function is bound; else 0, with why in `problem`
/// (dlerror's text, or "SONAME has no NAME"). Call it once (pthread_once): it keeps no state.
int ondemand_bind(const char *soname, const char *const names[], void **const slots[], size_t count,
                  char *problem, size_t problem_size);

/// One function's name and slot, for the `names` and `slots` tables of ondemand_bind. X-macro
/// entries start (name, return type, ...), and the pointer to `name` is `p_name`.
#define ONDEMAND_NAME(name, ...) #name,
#define ONDEMAND_SLOT_ADDRESS(name, ...) (void **)&p_##name,
#endif
