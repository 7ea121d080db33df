import CSystemd
import IMUCore
import IMUServiceClient

/// sd_notify(3): READY=1 once the bus name is owned, STATUS= lines, WATCHDOG=1 pings.
/// Outside systemd (no NOTIFY_SOCKET) every call does nothing.
public struct SystemdNotifier: Sendable {
    /// The watchdog interval systemd asked for (WatchdogSec=), in seconds; nil when off.
    public let watchdogSeconds: Double?

    public init() {
        var usec: UInt64 = 0
        watchdogSeconds = sd_watchdog_enabled(0, &usec) > 0 ? Double(usec) / 1_000_000 : nil
    }

    public func ready(status: String) { send(["READY=1", "STATUS=\(status)"]) }
    public func status(_ text: String) { send(["STATUS=\(text)"]) }
    public func watchdog() { send(["WATCHDOG=1"]) }
    public func stopping() { send(["STOPPING=1"]) }

    private func send(_ assignments: [String]) {
        _ = sd_notify(0, Self.message(assignments))
    }

    /// The state string sd_notify(3) sends: one VARIABLE=VALUE per line, each escaped on its own
    /// (`escapedOnOneLine` turns newlines into a visible `\n`), so that a newline inside a STATUS
    /// text can never start a line of its own, and the separators stay real newlines: systemd
    /// reads a "READY=1\\nSTATUS=…" line as no READY at all (make test-systemd found that).
    static func message(_ assignments: [String]) -> String {
        assignments.map(\.escapedOnOneLine).joined(separator: "\n")
    }
}
