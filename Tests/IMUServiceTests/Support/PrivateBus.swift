import DaemonGuard
import Foundation

/// A real dbus-daemon on a private socket, configured like Debian's system bus (deny by default)
/// plus the service's policy file from data/. Killed when the value goes away, or when the test
/// process dies (`GuardedDaemon`).
final class PrivateBus {
    let directory: String
    let address: String
    private var daemon: GuardedDaemon?
    private let configPath: String
    private let socket: String

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Nil (with the reason) when dbus-daemon is not installed: the caller skips.
    /// `allowOwning`: more names any process may own (e.g. iio-sensor-proxy's, for a stand-in).
    /// `policy`: the service's policy file's text to use in place of data/'s (an older one).
    static func start(allowOwning: [String] = [], policy: String? = nil) throws -> PrivateBus? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else { return nil }
        return try PrivateBus(allowOwning: allowOwning, policyText: policy)
    }

    private init(allowOwning: [String], policyText: String?) throws {
        directory = NSTemporaryDirectory() + "imukit-bus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        socket = directory + "/bus"
        var policy = Self.packageRoot.appendingPathComponent("data/io.github.imukit.StepService1.conf").path
        if let policyText {
            policy = directory + "/policy.conf"
            try policyText.write(toFile: policy, atomically: true, encoding: .utf8)
        }
        let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <deny own="*"/>\(allowOwning.map { "\n    <allow own=\"\($0)\"/>" }.joined())
            <deny send_type="method_call"/>
            <allow send_type="signal"/>
            <allow send_requested_reply="true" send_type="method_return"/>
            <allow send_requested_reply="true" send_type="error"/>
            <allow receive_type="method_call"/>
            <allow receive_type="method_return"/>
            <allow receive_type="error"/>
            <allow receive_type="signal"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
          </policy>
          <policy user="root">
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Monitoring"/>
          </policy>
          <include>\(policy)</include>
        </busconfig>
        """
        configPath = directory + "/bus.conf"
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        address = "unix:path=\(socket)"
        try launch()
    }

    private func launch() throws {
        daemon = try GuardedDaemon("/usr/bin/dbus-daemon", ["--config-file=\(configPath)", "--nofork", "--nopidfile"])
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(20_000) }
        chmod(socket, 0o777)
        // The daemon binds the socket before it listens: until then a connection is refused.
        _ = Self.waitFor(max(0, deadline.timeIntervalSinceNow)) { (try? busctl(["list"], timeout: 5).status) == 0 }
    }

    /// Kills the bus daemon (as a crash or `systemctl restart dbus` would): every connection drops.
    /// (SIGKILL: dbus-daemon with <type>system</type> ignores SIGTERM, it expects systemd to stop it.)
    func kill9() {
        guard let daemon else { return }
        daemon.stop()
        self.daemon = nil
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// The bus daemon's process ID and process group, 0 when killed.
    var pid: pid_t { daemon?.pid ?? 0 }

    /// Starts the bus daemon again on the same address after `kill9()`.
    func restart() throws {
        kill9()
        try launch()
    }

    deinit {
        kill9()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs busctl on this bus, as another program would; `asUser` runs it through setpriv.
    func busctl(_ arguments: [String], asUser: String? = nil, timeout: Double = 30) throws -> Run {
        var argv = ["/usr/bin/busctl", "--address=\(address)"] + arguments
        if let asUser { argv = ["/usr/bin/setpriv", "--reuid=\(asUser)", "--regid=\(asUser)", "--clear-groups"] + argv }
        return try Run.command(argv, timeout: timeout)
    }

    /// `busctl call` on the service object.
    func call(_ member: String, _ signature: String = "", _ args: [String] = [], asUser: String? = nil,
              interface: String = "io.github.imukit.StepService1") throws -> Run {
        try busctl(["call", "io.github.imukit.StepService1", "/io/github/imukit/StepService1", interface, member]
                   + (signature.isEmpty ? [] : [signature] + args), asUser: asUser)
    }

    func property(_ name: String) throws -> String {
        let r = try busctl(["get-property", "io.github.imukit.StepService1", "/io/github/imukit/StepService1",
                            "io.github.imukit.StepService1", name])
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls `condition` every 100 ms for up to `seconds`.
    static func waitFor(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try condition() { return true }
            usleep(100_000)
        } while Date() < deadline
        return false
    }
}

/// A finished command: status, output and how long it took.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double

    /// Runs a command to its end (SIGKILL after `timeout` seconds).
    static func command(_ argv: [String], environment: [String: String] = [:], timeout: Double = 30) throws -> Run {
        try supervised(argv, environment: environment) { p, _ in
            let deadline = Date().addingTimeInterval(timeout)
            while p.isRunning && Date() < deadline { usleep(5_000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
    }

    /// Runs a command that follows until interrupted (`imu-steps --json` on the daemon): polls its
    /// output every 0.1 s until `done(stdout, stderr)` holds or `deadline` seconds pass, then sends
    /// SIGINT (Ctrl-C) and waits up to 10 s more for it to end (SIGKILL after that). A fixed sleep
    /// before Ctrl-C was either too short on a loaded machine or too long everywhere else.
    static func interrupting(_ argv: [String], environment: [String: String] = [:], deadline: Double = 30,
                             when done: (_ stdout: String, _ stderr: String) -> Bool) throws -> Run {
        try supervised(argv, environment: environment) { p, output in
            _ = PrivateBus.waitFor(deadline) { !p.isRunning || { let o = output(); return done(o.stdout, o.stderr) }() }
            if p.isRunning { kill(p.processIdentifier, SIGINT) }
            let end = Date().addingTimeInterval(10)
            while p.isRunning && Date() < end { usleep(5_000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
    }

    /// Starts `argv` with its output in two temporary files and standard input from /dev/null, hands
    /// the running process and a reader of its output so far to `supervise` (which ends it), then
    /// waits for its exit.
    private static func supervised(_ argv: [String], environment: [String: String],
                                   supervise: (Process, _ output: () -> (stdout: String, stderr: String)) -> Void) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = NSTemporaryDirectory() + "run-out-\(UUID().uuidString)", err = out + ".err"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        p.standardInput = FileHandle.nullDevice
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        let start = Date()
        try p.run()
        supervise(p) { (read(out), read(err)) }
        p.waitUntilExit()
        return Run(status: p.terminationStatus, stdout: read(out), stderr: read(err), seconds: Date().timeIntervalSince(start))
    }
}
