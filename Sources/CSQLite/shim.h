// SQLite 3 (Debian libsqlite3-dev). Swift calls its C API directly; this header imports it and
// spells the one macro Swift cannot import: SQLITE_TRANSIENT is a cast of -1 to a function pointer.
#include <sqlite3.h>

static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call. Turns the checkpoint a closing last
// connection runs on and off, so a file that is refused is closed without a byte written to it.
static inline int csqlite_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
