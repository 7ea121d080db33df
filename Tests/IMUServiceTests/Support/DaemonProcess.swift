import Foundation

/// The built imu-stepd, started in the background on a private bus with its own config file.
final class DaemonProcess {
    let process = Process()
    let logPath: String
    let configPath: String

    static let binDirectory: URL = {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = me.deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("imu-stepd").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        return PrivateBus.packageRoot.appendingPathComponent(".build/debug")
    }()

    static func tool(_ name: String) -> String { binDirectory.appendingPathComponent(name).path }

    /// `settings` are extra stepd.conf lines; the bus and a fresh state directory are filled in.
    /// `logReaderGone`: standard output and error on a pipe whose reader has already gone (the
    /// log is then lost, `log` stays empty).
    /// `clock`: the `clock =` setting (`trust` unless a test needs the machine's own judgement).
    /// `environment`: variables set for the daemon over this process's (a `TZ` of its own).
    init(bus: PrivateBus, stateDirectory: String, settings: [String], logReaderGone: Bool = false, clock: String = "trust",
         environment: [String: String] = [:]) throws {
        configPath = stateDirectory + "-\(UUID().uuidString.prefix(6)).conf"
        let lines = ["bus = \(bus.address)", "state_directory = \(stateDirectory)", "clock = \(clock)"] + settings
        try lines.joined(separator: "\n").write(toFile: configPath, atomically: true, encoding: .utf8)
        logPath = configPath + ".log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: Self.tool("imu-stepd"))
        process.arguments = ["--config", configPath]
        var env = ProcessInfo.processInfo.environment
        env["IMUKIT_LOG_STDERR"] = "1"
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.merge(environment) { $1 }
        process.environment = env
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = log
        process.standardError = log
        var fds: [Int32] = [0, 0]
        if logReaderGone && pipe(&fds) == 0 {
            close(fds[0])
            let gone = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
            process.standardOutput = gone
            process.standardError = gone
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits up to `timeout` s; nil when it is still running (then killed).
    func wait(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { send(SIGKILL); process.waitUntilExit(); return nil }
        // Polling isRunning alone leaves Foundation's run-loop source holding the Process (a cycle
        // LeakSanitizer reports); waitUntilExit returns at once and releases it.
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { send(SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: configPath)
        try? FileManager.default.removeItem(atPath: logPath)
    }
}

func scratch() throws -> String {
    let dir = NSTemporaryDirectory() + "imukit-stepd-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

/// "x 68" → 68; "s \"running\"" → "running".
func busValue(_ text: String) -> String {
    var parts = text.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { return text }
    if parts[1].hasPrefix("\"") && parts[1].hasSuffix("\"") { parts[1] = String(parts[1].dropFirst().dropLast()) }
    return parts[1]
}
