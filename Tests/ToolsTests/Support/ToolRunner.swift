import Foundation

/// Runs the package's built tools as a user would, capturing output and exit code.
struct ToolResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

enum ToolRunner {
    /// The package root, found from this file's location (Tests/ToolsTests/Support/…).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where `swift build`/`swift test` put the executables: beside the running test bundle.
    static let binDirectory: URL = {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = me.deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("imu-steps").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug")
    }()

    static func path(_ tool: String) -> String { binDirectory.appendingPathComponent(tool).path }

    /// Runs `tool` with `arguments`, killing it after `timeout` seconds so a hung tool fails the test.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: Double = 120) throws -> ToolResult {
        try run(executable: path(tool), arguments, environment: environment, timeout: timeout)
    }

    /// Runs any executable the same way, optionally in `directory`.
    static func run(executable: String, _ arguments: [String], environment: [String: String] = [:],
                    directory: String? = nil, timeout: Double = 120) throws -> ToolResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let outFile = FileManager.default.temporaryDirectory.appendingPathComponent("tool-out-\(UUID().uuidString)")
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("tool-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
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
            // SIGKILL: a tool stuck in a loop may never see SIGTERM (and test-runner children inherit it blocked).
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw ToolTimeout(tool: (executable as NSString).lastPathComponent, seconds: timeout)
        }
        process.waitUntilExit()
        return ToolResult(status: process.terminationStatus,
                          stdout: (try? String(contentsOf: outFile, encoding: .utf8)) ?? "",
                          stderr: (try? String(contentsOf: errFile, encoding: .utf8)) ?? "")
    }

    /// Runs `scripts/ensure-deps.sh build` with only `bin` (fake commands) before /usr/bin:/bin on
    /// PATH and nothing else in its environment: its exit status and standard error.
    static func ensureDeps(fakeBin bin: String) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [packageRoot.appendingPathComponent("scripts/ensure-deps.sh").path, "build"]
        p.environment = ["PATH": bin + ":/usr/bin:/bin"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: try err.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    /// Writes `text` to a fresh temporary file named `name` and returns its path.
    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-tools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

struct ToolTimeout: Error, CustomStringConvertible {
    var tool: String
    var seconds: Double
    var description: String { "\(tool) did not finish within \(seconds) s" }
}

/// Parses JSON Lines output into dictionaries.
func jsonObjects(_ result: ToolResult) throws -> [[String: Any]] {
    try result.lines.filter { !$0.isEmpty }.map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw ToolTimeout(tool: "not an object: \(line)", seconds: 0)
        }
        return object
    }
}
