// SQLite 3 (Debian libsqlite3-dev). Swift calls its C API directly; this header imports it and
// spells the one macro Swift cannot import: SQLITE_TRANSIENT is a cast of -1 to a function pointer.
#include <sqlite3.h>

static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
