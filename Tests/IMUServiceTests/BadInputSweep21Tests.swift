import Foundation
@testable import IMUService
@testable import IMUServiceClient
import Testing

/// Session 20's sweep, the library side (the tools' side is ToolsTests/BadInputSweep21Tests).
@Suite struct BadInputSweep21Tests {
    /// An unreachable bus named neither where it was looked for nor the variable that chose it.
    /// The value comes from the environment, so it is escaped before a terminal sees it.
    @Test(arguments: [
        (BusAddress.system, ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/x\u{1B}[2J"], " at unix:path=/x\\x1B[2J (from DBUS_SYSTEM_BUS_ADDRESS)",
         "is a dbus-daemon listening there? correct DBUS_SYSTEM_BUS_ADDRESS, or unset it"),
        (BusAddress.system, [:], " at unix:path=/run/dbus/system_bus_socket (DBUS_SYSTEM_BUS_ADDRESS is not set)",
         "is dbus running? (systemctl status dbus); a private bus is named with DBUS_SYSTEM_BUS_ADDRESS=unix:path=SOCKET"),
        (BusAddress.system, ["DBUS_SYSTEM_BUS_ADDRESS": ""], " at unix:path=/run/dbus/system_bus_socket (DBUS_SYSTEM_BUS_ADDRESS is not set)",
         "is dbus running?"),
        (BusAddress.session, ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/b"], " at unix:path=/tmp/b (from DBUS_SESSION_BUS_ADDRESS)",
         "is there a session bus? correct DBUS_SESSION_BUS_ADDRESS, or unset it"),
        (BusAddress.session, [:], " (DBUS_SESSION_BUS_ADDRESS is not set, so it is looked for in XDG_RUNTIME_DIR)",
         "is there a session bus? (it needs a login session, which sets DBUS_SESSION_BUS_ADDRESS"),
        (BusAddress.address("unix:path=/tmp/b"), ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/x"], "", "is a dbus-daemon listening at unix:path=/tmp/b?"),
    ])
    func anUnreachableBusNamesTheVariableThatChoseIt(bus: BusAddress, environment: [String: String], place: String, fix: String) {
        #expect(bus.whereText(environment: environment) == place)
        #expect(BusConnection.fix(bus, environment: environment).hasPrefix(fix), "\(BusConnection.fix(bus, environment: environment))")
        // The session bus's fix never sends a user to the system bus's variable, and back.
        if bus == .session { #expect(!BusConnection.fix(bus, environment: environment).contains("DBUS_SYSTEM_BUS_ADDRESS")) }
        if bus == .system { #expect(!BusConnection.fix(bus, environment: environment).contains("DBUS_SESSION_BUS_ADDRESS")) }
    }

    /// The bus interface took a `from` of year 1 (-6.2e16 µs) and answered with totals.
    @Test(arguments: [(-62_135_596_800.0, 0.0, "from_usec (-62135596800000000) is before 1970-01-01"), (-1.0, 10.0, "from_usec (-1000000) is before 1970-01-01"),
                      (10.0, 10.0, "to_usec (10000000) does not come after from_usec (10000000): the interval must end after it starts"),
                      (0.0, 10.0, nil)] as [(Double, Double, String?)])
    func aQueryBefore1970IsRefused(from: Double, to: Double, problem: String?) {
        let answer = StepServiceObject.checkInterval(Date(timeIntervalSince1970: from), Date(timeIntervalSince1970: to))
        #expect(answer?.hasPrefix(problem ?? "") ?? (problem == nil), "\(answer ?? "nil")")
        #expect((answer == nil) == (problem == nil), "\(answer ?? "nil")")
    }

    /// A config that is a FIFO was read as empty (defaults, without a word); the kind is named.
    @Test func aConfigThatIsAFIFOIsRefusedWithoutBlocking() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sweep21-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #require(mkfifo(dir + "/stepd.conf", 0o600) == 0)
        #expect(throws: ConfigError(path: dir + "/stepd.conf", line: nil,
                                    message: "is a named pipe (FIFO), not a regular file: the config must be a regular file",
                                    fix: "point --config at a file on disk, e.g. --config /etc/imukit/stepd.conf (data/stepd.conf is the template)")) {
            try ServiceConfig.load(path: dir + "/stepd.conf", required: true)
        }
        #expect(throws: ConfigError(path: dir, line: nil, message: "is a directory, not a config file", fix: "name the file, e.g. --config \(dir)/stepd.conf"),
                "a directory keeps its own message") { try ServiceConfig.load(path: dir, required: true) }
    }
}
