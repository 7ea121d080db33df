import Foundation

struct ToolOutput {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the package's built tools (beside the test bundle) and other programs, capturing output.
enum BuiltTool {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The directory holding imu-plot: where `swift build`/`swift test` put executables.
    static let directory: URL = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("imu-plot").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug")
    }()

    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolOutput {
        try runExecutable(directory.appendingPathComponent(tool).path, arguments, environment: environment, timeout: 300)
    }

    /// Runs `path`; a program still running after `timeout` s is killed and the test fails.
    static func runExecutable(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                              timeout: Double) throws -> ToolOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let tmp = FileManager.default.temporaryDirectory
        let out = tmp.appendingPathComponent("plot-out-\(UUID().uuidString)"), err = tmp.appendingPathComponent("plot-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)   // a hung tool may never see SIGTERM
            process.waitUntilExit()
            throw InflateError(description: "\(path) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return ToolOutput(status: process.terminationStatus,
                          stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                          stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// A fresh temporary directory for one test's files.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-plot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// xmllint's path, nil when libxml2-utils is absent.
    static let xmllint: String? = ["/usr/bin/xmllint", "/bin/xmllint"].first { FileManager.default.isExecutableFile(atPath: $0) }
}
