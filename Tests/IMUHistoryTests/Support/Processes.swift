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
