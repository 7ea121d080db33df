import Foundation

/// A built tool started in the background, for tests that signal it mid-run (SIGKILL, SIGTERM,
/// SIGINT) instead of waiting for it to finish.
final class ToolProcess {
    let process = Process()
    let stderrPath: String
    let stdoutPath: String

    /// `.build/<config>/` beside the running test bundle, else `.build/debug` under the package root.
    static let binDirectory: URL = {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = me.deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("imu-record").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug")
    }()

    init(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = Self.binDirectory.appendingPathComponent(tool)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        stderrPath = NSTemporaryDirectory() + "tool-err-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        stdoutPath = NSTemporaryDirectory() + "tool-out-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits up to `timeout` seconds; kills the tool and returns nil when it does not exit.
    func wait(timeout: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { send(SIGKILL); process.waitUntilExit(); return nil }
        return process.terminationStatus
    }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    /// Runs `tool` to completion: (exit status, stdout, stderr); status nil on timeout.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: Double = 60) throws -> (status: Int32?, stdout: String, stderr: String) {
        let p = try ToolProcess(tool, arguments, environment: environment)
        let status = p.wait(timeout: timeout)
        return (status, p.stdout, p.stderr)
    }

    deinit {
        if process.isRunning { send(SIGKILL) }
        try? FileManager.default.removeItem(atPath: stderrPath)
        try? FileManager.default.removeItem(atPath: stdoutPath)
    }
}

/// A fresh empty directory for one test.
func scratchDirectory() throws -> String {
    let dir = NSTemporaryDirectory() + "imukit-tools-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
