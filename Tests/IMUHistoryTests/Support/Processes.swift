import Foundation

/// Runs a command to its end; returns its exit status and combined output.
@discardableResult
func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    guard (try? process.run()) != nil else { return (-1, "\(executable) cannot be started") }
    let data = Result { try pipe.fileHandleForReading.readToEnd() ?? Data() }
    process.waitUntilExit()
    switch data {
    case .success(let data): return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    case .failure(let error): return (-1, "\(executable)'s output cannot be read: \(error)")
    }
}

/// Where `swift build`/`swift test` put the executables: beside the running test bundle.
func builtExecutable(_ name: String) -> String? {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return nil
}

/// Mounts a tmpfs with `options` (for example "size=64k,ro") at a new directory `name` in `dir`
/// and returns its path, or prints why it is skipped (mounting needs root) and returns nil.
/// The caller unmounts it: `defer { run("/bin/umount", [mountPoint]) }`.
func mountedTmpfs(_ options: String, named name: String, in dir: TempDir) throws -> String? {
    let mountPoint = dir.path(name)
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    let mounted = run("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", mountPoint])
    guard mounted.status == 0 else {
        print("skipped: cannot mount a tmpfs (\(options)) here (needs root): \(mounted.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        return nil
    }
    return mountPoint
}
