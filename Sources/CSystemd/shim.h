// libsystemd (Debian libsystemd-dev): sd-bus for D-Bus, sd_notify/sd_watchdog_enabled for the
// service manager, sd_journal_sendv for logging. Swift calls the C API directly; this header only
// imports it. SD_JOURNAL_SUPPRESS_LOCATION makes sd_journal_sendv a plain function, not a macro.
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/timex.h>
#include <poll.h>
