// Trampolines into libsqlite3.so.0, loaded on first use (include/CSQLite.h says why). Each
// function below has the signature <sqlite3.h> declares (the compiler checks it against the
// header) and calls the function of the same name in the loaded library. They are hidden: not
// exported, so SQLite's calls to its own functions never bind to them.
#include "CSQLite.h"

#include "COnDemand.h"

/// Marks a trampoline hidden (the header's declarations stay as they are, and so do libc's).
#define CSQLITE_HIDDEN __attribute__((visibility("hidden")))

/// SQLite's run-time name (Debian libsqlite3-0).
#define CSQLITE_SONAME "libsqlite3.so.0"

// Every SQLite function IMUKit calls, as X(name, return type, parameters, arguments, value when
// SQLite cannot be loaded).
#define CSQLITE_FUNCTIONS(X) \
    X(sqlite3_open, int, (const char *filename, sqlite3 **db), (filename, db), (*db = NULL, SQLITE_CANTOPEN)) \
    X(sqlite3_open_v2, int, (const char *filename, sqlite3 **db, int flags, const char *vfs), (filename, db, flags, vfs), (*db = NULL, SQLITE_CANTOPEN)) \
    X(sqlite3_errstr, const char *, (int code), (code), csqlite_load()) \
    X(sqlite3_errmsg, const char *, (sqlite3 *db), (db), csqlite_load()) \
    X(sqlite3_system_errno, int, (sqlite3 *db), (db), 0) \
    X(sqlite3_extended_result_codes, int, (sqlite3 *db, int onoff), (db, onoff), SQLITE_CANTOPEN) \
    X(sqlite3_get_autocommit, int, (sqlite3 *db), (db), 0) \
    X(sqlite3_close, int, (sqlite3 *db), (db), SQLITE_CANTOPEN) \
    X(sqlite3_close_v2, int, (sqlite3 *db), (db), SQLITE_CANTOPEN) \
    X(sqlite3_exec, int, (sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *context, char **errmsg), \
      (db, sql, callback, context, errmsg), SQLITE_CANTOPEN) \
    X(sqlite3_prepare_v2, int, (sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail), \
      (db, sql, bytes, statement, tail), SQLITE_CANTOPEN) \
    X(sqlite3_bind_double, int, (sqlite3_stmt *statement, int index, double value), (statement, index, value), SQLITE_CANTOPEN) \
    X(sqlite3_bind_int64, int, (sqlite3_stmt *statement, int index, sqlite3_int64 value), (statement, index, value), SQLITE_CANTOPEN) \
    X(sqlite3_bind_text, int, (sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)), \
      (statement, index, text, bytes, destructor), SQLITE_CANTOPEN) \
    X(sqlite3_clear_bindings, int, (sqlite3_stmt *statement), (statement), SQLITE_CANTOPEN) \
    X(sqlite3_step, int, (sqlite3_stmt *statement), (statement), SQLITE_CANTOPEN) \
    X(sqlite3_reset, int, (sqlite3_stmt *statement), (statement), SQLITE_CANTOPEN) \
    X(sqlite3_finalize, int, (sqlite3_stmt *statement), (statement), SQLITE_CANTOPEN) \
    X(sqlite3_column_double, double, (sqlite3_stmt *statement, int column), (statement, column), 0) \
    X(sqlite3_column_int64, sqlite3_int64, (sqlite3_stmt *statement, int column), (statement, column), 0) \
    X(sqlite3_column_text, const unsigned char *, (sqlite3_stmt *statement, int column), (statement, column), NULL)

// One pointer per function, typed from the header's own declaration; set on first use by ondemand_load.
CSQLITE_FUNCTIONS(ONDEMAND_POINTER)
/// The variadic sqlite3_db_config, called only through csqlite_no_checkpoint_on_close.
static __typeof__(&sqlite3_db_config) p_sqlite3_db_config;
#define CSQLITE_BOUND(X) CSQLITE_FUNCTIONS(X) X(sqlite3_db_config)

static struct ondemand_library library = ONDEMAND_LIBRARY(CSQLITE_SONAME, CSQLITE_BOUND);

const char *csqlite_load(void) { return ondemand_load(&library); }

#define CSQLITE_TRAMPOLINE(name, ret, params, args, failed) \
    CSQLITE_HIDDEN ret name params { return csqlite_load() ? (failed) : p_##name args; }
CSQLITE_FUNCTIONS(CSQLITE_TRAMPOLINE)

int csqlite_no_checkpoint_on_close(sqlite3 *db, int on) {
    if (csqlite_load()) return SQLITE_CANTOPEN;
    return p_sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
