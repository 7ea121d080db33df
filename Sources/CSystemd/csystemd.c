// Trampolines into libsystemd.so.0, loaded on first use (include/CSystemd.h says why). Each
// function below has the signature the systemd headers declare (the compiler checks it against
// them) and calls the function of the same name in the loaded libsystemd. They are hidden: they
// serve this executable's own calls and are not exported, so the libraries that need libsystemd
// themselves (libdbus, loaded by libgps) bind to the real one.
#include "CSystemd.h"

#include "COnDemand.h"
#include <errno.h>

/// Marks a trampoline hidden (the header's declarations stay as they are, and so do libc's).
#define CSYSTEMD_HIDDEN __attribute__((visibility("hidden")))

/// libsystemd's run-time name (Debian libsystemd0).
#define CSYSTEMD_SONAME "libsystemd.so.0"

// Every libsystemd function IMUKit calls, as X(name, return type, parameters, arguments), in three
// lists because their trampolines differ in what they return when libsystemd cannot be loaded.
#define CSYSTEMD_INT(X) \
    X(sd_bus_add_match, int, (sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback, void *userdata), (bus, slot, match, callback, userdata)) \
    X(sd_bus_add_object, int, (sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t callback, void *userdata), (bus, slot, path, callback, userdata)) \
    X(sd_bus_call, int, (sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply), (bus, m, usec, ret_error, reply)) \
    X(sd_bus_creds_get_euid, int, (sd_bus_creds *c, uid_t *euid), (c, euid)) \
    X(sd_bus_creds_get_supplementary_gids, int, (sd_bus_creds *c, const gid_t **gids), (c, gids)) \
    X(sd_bus_creds_get_unique_name, int, (sd_bus_creds *c, const char **name), (c, name)) \
    X(sd_bus_error_set, int, (sd_bus_error *e, const char *name, const char *message), (e, name, message)) \
    X(sd_bus_flush, int, (sd_bus *bus), (bus)) \
    X(sd_bus_get_events, int, (sd_bus *bus), (bus)) \
    X(sd_bus_get_fd, int, (sd_bus *bus), (bus)) \
    X(sd_bus_get_name_creds, int, (sd_bus *bus, const char *name, uint64_t mask, sd_bus_creds **creds), (bus, name, mask, creds)) \
    X(sd_bus_get_timeout, int, (sd_bus *bus, uint64_t *timeout_usec), (bus, timeout_usec)) \
    X(sd_bus_match_signal, int, (sd_bus *bus, sd_bus_slot **ret, const char *sender, const char *path, const char *interface, const char *member, sd_bus_message_handler_t callback, void *userdata), (bus, ret, sender, path, interface, member, callback, userdata)) \
    X(sd_bus_message_append_basic, int, (sd_bus_message *m, char type, const void *p), (m, type, p)) \
    X(sd_bus_message_close_container, int, (sd_bus_message *m), (m)) \
    X(sd_bus_message_enter_container, int, (sd_bus_message *m, char type, const char *contents), (m, type, contents)) \
    X(sd_bus_message_exit_container, int, (sd_bus_message *m), (m)) \
    X(sd_bus_message_has_signature, int, (sd_bus_message *m, const char *signature), (m, signature)) \
    X(sd_bus_message_new_method_call, int, (sd_bus *bus, sd_bus_message **m, const char *destination, const char *path, const char *interface, const char *member), (bus, m, destination, path, interface, member)) \
    X(sd_bus_message_new_method_return, int, (sd_bus_message *call, sd_bus_message **m), (call, m)) \
    X(sd_bus_message_new_signal, int, (sd_bus *bus, sd_bus_message **m, const char *path, const char *interface, const char *member), (bus, m, path, interface, member)) \
    X(sd_bus_message_open_container, int, (sd_bus_message *m, char type, const char *contents), (m, type, contents)) \
    X(sd_bus_message_peek_type, int, (sd_bus_message *m, char *type, const char **contents), (m, type, contents)) \
    X(sd_bus_message_read_basic, int, (sd_bus_message *m, char type, void *p), (m, type, p)) \
    X(sd_bus_message_skip, int, (sd_bus_message *m, const char *types), (m, types)) \
    X(sd_bus_new, int, (sd_bus **ret), (ret)) \
    X(sd_bus_open_system, int, (sd_bus **ret), (ret)) \
    X(sd_bus_open_user, int, (sd_bus **ret), (ret)) \
    X(sd_bus_process, int, (sd_bus *bus, sd_bus_message **r), (bus, r)) \
    X(sd_bus_query_sender_creds, int, (sd_bus_message *m, uint64_t mask, sd_bus_creds **creds), (m, mask, creds)) \
    X(sd_bus_reply_method_error, int, (sd_bus_message *call, const sd_bus_error *e), (call, e)) \
    X(sd_bus_request_name, int, (sd_bus *bus, const char *name, uint64_t flags), (bus, name, flags)) \
    X(sd_bus_send, int, (sd_bus *bus, sd_bus_message *m, uint64_t *cookie), (bus, m, cookie)) \
    X(sd_bus_service_name_is_valid, int, (const char *p), (p)) \
    X(sd_bus_set_address, int, (sd_bus *bus, const char *address), (bus, address)) \
    X(sd_bus_set_bus_client, int, (sd_bus *bus, int b), (bus, b)) \
    X(sd_bus_start, int, (sd_bus *bus), (bus)) \
    X(sd_bus_wait, int, (sd_bus *bus, uint64_t timeout_usec), (bus, timeout_usec)) \
    X(sd_journal_sendv, int, (const struct iovec *iov, int n), (iov, n)) \
    X(sd_journal_stream_fd, int, (const char *identifier, int priority, int level_prefix), (identifier, priority, level_prefix)) \
    X(sd_notify, int, (int unset_environment, const char *state), (unset_environment, state)) \
    X(sd_watchdog_enabled, int, (int unset_environment, uint64_t *usec), (unset_environment, usec))

#define CSYSTEMD_POINTER(X) \
    X(sd_bus_creds_unref, sd_bus_creds *, (sd_bus_creds *c), (c)) \
    X(sd_bus_flush_close_unref, sd_bus *, (sd_bus *bus), (bus)) \
    X(sd_bus_message_get_interface, const char *, (sd_bus_message *m), (m)) \
    X(sd_bus_message_get_member, const char *, (sd_bus_message *m), (m)) \
    X(sd_bus_message_get_signature, const char *, (sd_bus_message *m, int complete), (m, complete)) \
    X(sd_bus_message_ref, sd_bus_message *, (sd_bus_message *m), (m)) \
    X(sd_bus_message_unref, sd_bus_message *, (sd_bus_message *m), (m)) \
    X(sd_bus_slot_unref, sd_bus_slot *, (sd_bus_slot *slot), (slot)) \
    X(sd_bus_unref, sd_bus *, (sd_bus *bus), (bus))

#define CSYSTEMD_VOID(X) \
    X(sd_bus_error_free, void, (sd_bus_error *e), (e))

#define CSYSTEMD_FUNCTIONS(X) CSYSTEMD_INT(X) CSYSTEMD_POINTER(X) CSYSTEMD_VOID(X)

// One pointer per function, typed from the header's own declaration; set on first use by ondemand_load.
CSYSTEMD_FUNCTIONS(ONDEMAND_POINTER)

static struct ondemand_library library = ONDEMAND_LIBRARY(CSYSTEMD_SONAME, CSYSTEMD_FUNCTIONS);

const char *csystemd_load(void) { return ondemand_load(&library); }

#define CSYSTEMD_INT_TRAMPOLINE(name, ret, params, args) \
    CSYSTEMD_HIDDEN ret name params { return csystemd_load() ? -ELIBACC : p_##name args; }
CSYSTEMD_INT(CSYSTEMD_INT_TRAMPOLINE)
#define CSYSTEMD_POINTER_TRAMPOLINE(name, ret, params, args) \
    CSYSTEMD_HIDDEN ret name params { return csystemd_load() ? NULL : p_##name args; }
CSYSTEMD_POINTER(CSYSTEMD_POINTER_TRAMPOLINE)
#define CSYSTEMD_VOID_TRAMPOLINE(name, ret, params, args) \
    CSYSTEMD_HIDDEN void name params { if (!csystemd_load()) p_##name args; }
CSYSTEMD_VOID(CSYSTEMD_VOID_TRAMPOLINE)
