import Foundation

/// Runs a `/bin/sh` script for tests that need what a shell gives a user: pipes, FIFOs, closed
/// descriptors, `ulimit`. `$BIN` is the directory of the built tools; the script's exit status,
/// standard output and standard error are returned like `ToolRunner.run`'s.
enum ShellRunner {
    static func run(_ script: String, directory: String? = nil, timeout: Double = 120) throws -> ToolResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        var env = ProcessInfo.processInfo.environment
        env["BIN"] = ToolRunner.binDirectory.path
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let outFile = FileManager.default.temporaryDirectory.appendingPathComponent("sh-out-\(UUID().uuidString)")
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("sh-err-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: outFile.path, contents: nil)
        FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outFile)
            try? FileManager.default.removeItem(at: errFile)
        }
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(-process.processIdentifier, SIGKILL)
            process.terminate()
            process.waitUntilExit()
            throw ToolTimeout(tool: "sh -c \(script)", seconds: timeout)
        }
        process.waitUntilExit()
        return ToolResult(status: process.terminationStatus,
                          stdout: (try? String(contentsOf: outFile, encoding: .utf8)) ?? "",
                          stderr: (try? String(contentsOf: errFile, encoding: .utf8)) ?? "")
    }
}
