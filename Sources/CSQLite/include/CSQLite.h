// SQLite 3 (Debian libsqlite3-dev to build, libsqlite3-0 to run). Swift calls its C API as
// <sqlite3.h> declares it; csqlite.c defines each function IMUKit calls as a one-line trampoline
// into libsqlite3.so.0, loaded with dlopen on the first call, so a tool that never opens the
// history never maps it (docs/memory.md). This header also spells what Swift cannot import.
#ifndef CSQLITE_H
#define CSQLITE_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast of -1 to a function pointer, a macro Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// sqlite3_db_config is variadic, which Swift cannot call. Turns the checkpoint a closing last
/// connection runs on and off, so a file that is refused is closed without a byte written to it.
int csqlite_no_checkpoint_on_close(sqlite3 *db, int on);

/// Loads libsqlite3.so.0 and binds every function IMUKit calls; later calls return at once.
/// Thread-safe. Returns NULL when SQLite is ready, else why not (dlerror's text, or the name of a
/// function it lacks), a string that lives as long as the process. Every trampoline calls it: when
/// SQLite cannot be loaded, sqlite3_open/_v2 fail with SQLITE_CANTOPEN and a NULL handle,
/// sqlite3_errstr/errmsg return that reason, and the other functions (reached only through an open
/// handle) return SQLITE_CANTOPEN, 0 or NULL.
const char *csqlite_load(void);
#endif
