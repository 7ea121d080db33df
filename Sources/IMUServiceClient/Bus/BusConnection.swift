import CSystemd
import IMUCore
#if canImport(Glibc)
import Glibc
#endif

/// Which bus to talk on. `.system` honours `DBUS_SYSTEM_BUS_ADDRESS` (sd-bus does), which is how
/// the tests point daemon and clients at a private `dbus-daemon`.
public enum BusAddress: Sendable, Equatable, CustomStringConvertible {
    case system
    case session
    /// An explicit address, e.g. `unix:path=/tmp/bus`.
    case address(String)

    public var description: String {
        switch self {
        case .system: "system"
        case .session: "session"
        case let .address(a): a
        }
    }

    /// sd-bus's own address of the system bus, used while DBUS_SYSTEM_BUS_ADDRESS is unset.
    public static let defaultSystemAddress = "unix:path=/run/dbus/system_bus_socket"

    /// The environment variable that points `.system` or `.session` at another bus; nil for an
    /// explicit address, which reads none.
    public var variable: String? {
        switch self {
        case .system: "DBUS_SYSTEM_BUS_ADDRESS"
        case .session: "DBUS_SESSION_BUS_ADDRESS"
        case .address: nil
        }
    }

    /// The variable's value, when it is set and not empty (sd-bus ignores an empty one).
    public func variableValue(environment: [String: String]? = nil) -> String? {
        guard let variable else { return nil }
        let value = environment.map { $0[variable] } ?? getenv(variable).map { String(cString: $0) }
        return value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where the connection goes and why, for a message: "at ADDR (DBUS_SYSTEM_BUS_ADDRESS)", or
    /// "at unix:path=/run/dbus/system_bus_socket (DBUS_SYSTEM_BUS_ADDRESS is not set)". A session
    /// bus without its variable is found through XDG_RUNTIME_DIR, said as such.
    public func whereText(environment: [String: String]? = nil) -> String {
        guard let variable else { return "" }
        if let value = variableValue(environment: environment) { return " at \(value.escapedValue) (from \(variable))" }
        return self == .system ? " at \(Self.defaultSystemAddress) (\(variable) is not set)"
            : " (\(variable) is not set, so it is looked for in XDG_RUNTIME_DIR)"
    }
}

/// One sd-bus connection. Not Sendable: sd-bus objects belong to the thread that uses them.
public final class BusConnection {
    public let raw: OpaquePointer

    public init(_ address: BusAddress) throws {
        var bus: OpaquePointer?
        var r: Int32
        switch address {
        case .system: r = sd_bus_open_system(&bus)
        case .session: r = sd_bus_open_user(&bus)
        case let .address(text):
            r = sd_bus_new(&bus)
            if r >= 0 { r = text.withCString { sd_bus_set_address(bus, $0) } }
            if r >= 0 { r = sd_bus_set_bus_client(bus, 1) }
            if r >= 0 { r = sd_bus_start(bus) }
        }
        guard r >= 0, let bus else {
            if let bus { sd_bus_unref(bus) }
            throw BusError(.noBus, "cannot connect to the \(address) D-Bus\(address.whereText()): \(Errno.text(-r))", fix: Self.fix(address))
        }
        raw = bus
    }

    deinit { sd_bus_flush_close_unref(raw) }

    /// What to check when `address` cannot be reached. Every bus was told to check the system
    /// bus and DBUS_SYSTEM_BUS_ADDRESS, which a session bus or an explicit address never reads.
    /// A variable that names a bus nobody listens at is the likely cause once it is set: the fix
    /// says to correct or unset it (the message names it and its value).
    static func fix(_ address: BusAddress, environment: [String: String]? = nil) -> String {
        let set = address.variableValue(environment: environment) != nil
        switch address {
        case .system where set:
            return "is a dbus-daemon listening there? correct DBUS_SYSTEM_BUS_ADDRESS, or unset it to use the machine's system bus (systemctl status dbus)"
        case .system:
            return "is dbus running? (systemctl status dbus); a private bus is named with DBUS_SYSTEM_BUS_ADDRESS=unix:path=SOCKET"
        case .session where set:
            return "is there a session bus? correct DBUS_SESSION_BUS_ADDRESS, or unset it (systemctl --user status dbus); a service uses bus = system"
        case .session:
            return "is there a session bus? (it needs a login session, which sets DBUS_SESSION_BUS_ADDRESS: systemctl --user status dbus); a service uses bus = system"
        case let .address(text):
            return "is a dbus-daemon listening at \(text.escapedValue)? (dbus-daemon --config-file=… --address=\(text.escapedValue)); or use bus = system"
        }
    }

    /// Does anyone own `name` on this bus?
    public func hasOwner(_ name: String) throws -> Bool { try owner(of: name) != nil }

    /// The unique name (":1.42") of `name`'s owner, nil when nobody owns it (the bus daemon's
    /// `GetNameOwner`, which sd_bus_get_name_creds(3) asks).
    public func owner(of name: String) throws -> String? {
        var creds: OpaquePointer?
        let r = name.withCString { sd_bus_get_name_creds(raw, $0, UInt64(SD_BUS_CREDS_UNIQUE_NAME), &creds) }
        defer { if let creds { sd_bus_creds_unref(creds) } }
        if r == -ENXIO || r == -ESRCH || r == -ENOENT { return nil }
        guard r >= 0 else { throw BusError(.failed, "asking the bus who owns \(name): \(Errno.text(-r))") }
        var unique: UnsafePointer<CChar>?
        // A unique name owns itself; the bus daemon's own name has no unique name to report.
        guard sd_bus_creds_get_unique_name(creds, &unique) >= 0, let unique else { return name }
        return String(cString: unique)
    }

    /// A blocking method call with a timeout in seconds. `fill` appends the arguments.
    public func call<T>(destination: String, path: String, interface: String, member: String,
                        timeoutSeconds: Double, fill: (BusMessage) throws -> Void = { _ in },
                        read: (BusMessage) throws -> T) throws -> T {
        var m: OpaquePointer?
        try BusMessage.check(sd_bus_message_new_method_call(raw, &m, destination, path, interface, member), "building \(member)")
        defer { sd_bus_message_unref(m) }
        try fill(BusMessage(m!))
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let r = sd_bus_call(raw, m, UInt64(timeoutSeconds * 1_000_000), &error, &reply)
        defer { if let reply { sd_bus_message_unref(reply) } }
        guard r >= 0, let reply else {
            let name = error.name.map { String(cString: $0) }
            let text = error.message.map { String(cString: $0) } ?? Errno.text(-r)
            if name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                throw BusError(.serviceNotRunning, "the step daemon imu-stepd is not running (nothing owns \(destination) on the bus)",
                               fix: BusError.notRunningFix)
            }
            // A daemon that is stopped (SIGSTOP), stuck or swamped: "QueryTotals: Connection timed out" named neither it nor a fix.
            if -r == ETIMEDOUT || name == "org.freedesktop.DBus.Error.NoReply" || name == "org.freedesktop.DBus.Error.Timeout" {
                throw BusError(.failed, "the step daemon imu-stepd (\(destination)) did not answer \(member) within \(timeoutSeconds < 1000 && timeoutSeconds == timeoutSeconds.rounded() ? "\(Int(timeoutSeconds))" : "\(timeoutSeconds)") s",
                               fix: "see what it is doing: systemctl status imu-stepd (journalctl -u imu-stepd); restart it if it is stuck: sudo systemctl restart imu-stepd")
            }
            if let name { throw BusError(.remote, "\(member): \(text)", remoteName: name) }
            throw BusError(.failed, "\(member) on \(destination): \(text)")
        }
        return try read(BusMessage(reply))
    }

    /// Processes what is pending; true when something was handled (call again).
    @discardableResult
    public func process() throws -> Bool {
        let r = sd_bus_process(raw, nil)
        guard r >= 0 else { throw BusError(.failed, "the D-Bus connection failed: \(Errno.text(-r))") }
        return r > 0
    }

    /// Waits up to `seconds` for something to process.
    public func wait(seconds: Double) {
        _ = sd_bus_wait(raw, UInt64(max(0, seconds) * 1_000_000))
    }
}

/// errno text without locale surprises.
public enum Errno {
    public static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
