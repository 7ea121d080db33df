import Foundation

/// The tools `make install` and `make deb` ship: the Makefile's TOOLS, asked from make itself
/// (`make print-tools`), so the tests follow the one list the packaging uses.
enum ShippedTools {
    static let names: [String] = {
        let r = try? runCommand("/usr/bin/env", ["make", "-s", "--no-print-directory", "-C", ToolRunner.packageRoot.path, "print-tools"])
        guard let r, r.status == 0 else { return [] }
        return r.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
    }()
}

/// Runs a program to completion with its output captured (for helper scripts, not the tools).
func runCommand(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                directory: String? = nil) throws -> ToolResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    p.environment = env
    if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = FileManager.default.createFile(atPath: dir + "/out", contents: nil)
    _ = FileManager.default.createFile(atPath: dir + "/err", contents: nil)
    p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/out"))
    p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/err"))
    p.standardInput = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    return ToolResult(status: p.terminationStatus,
                      stdout: (try? String(contentsOfFile: dir + "/out", encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: dir + "/err", encoding: .utf8)) ?? "")
}

/// Is `program` on PATH?
func onPath(_ program: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
    }
}

/// The long options (`--name`) a tool's `--help` lists in its Options section.
func helpOptions(_ tool: String) throws -> [String] {
    let help = try ToolRunner.run(tool, ["--help"])
    var inOptions = false
    var options: [String] = []
    for line in help.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
        if line == "Options:" { inOptions = true; continue }
        if inOptions && line.isEmpty { break }
        if inOptions, let match = line.firstMatch(of: /^ {2}(?:-\S, | {4})--([A-Za-z0-9][A-Za-z0-9-]*)/) {
            options.append(String(match.1))
        }
    }
    return options
}
