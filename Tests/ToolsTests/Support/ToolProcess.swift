import Foundation

/// A built tool started in the background, for tests that signal it mid-run (SIGKILL, SIGTERM,
/// SIGINT); `ToolRunner.run` is for tools run to completion.
final class ToolProcess {
    let process = Process()
    let stderrPath: String
    let stdoutPath: String

    /// Starts `tool`; its stdout and stderr go to files, or to `terminal` when given (a pty, so the
    /// tool sees a TTY and draws in place).
    init(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
         terminal: PseudoTerminal? = nil) throws {
        process.executableURL = URL(fileURLWithPath: ToolRunner.path(tool))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        stderrPath = NSTemporaryDirectory() + "tool-err-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        stdoutPath = NSTemporaryDirectory() + "tool-out-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        if let terminal {
            process.standardOutput = terminal.slave
            process.standardError = terminal.slave
        }
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

    /// Polls `condition` every 10 ms until it holds (true), the tool exits or `timeout` seconds
    /// pass (false). For a test that must act once the tool has done something, not after a
    /// fixed sleep that a loaded machine can outlast.
    func waitUntil(timeout: Double = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            if !process.isRunning { return condition() }
            usleep(10_000)
        }
        return false
    }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

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
