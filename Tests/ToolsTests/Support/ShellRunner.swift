import Foundation

/// Runs a `/bin/sh` script for tests that need what a shell gives a user: pipes, FIFOs, closed
/// descriptors, `ulimit`. `$BIN` is the directory of the built tools; the script's exit status,
/// standard output and standard error are returned like `ToolRunner.run`'s.
enum ShellRunner {
    static func run(_ script: String, directory: String? = nil, timeout: Double = 120) throws -> ToolResult {
        try ToolRunner.run(executable: "/bin/sh", ["-c", script], environment: ["BIN": ToolRunner.binDirectory.path],
                           directory: directory, timeout: timeout)
    }
}
