import Foundation
import IMUCLI

/// The output file could not be written (exit 1; nothing half-written is left behind).
struct OutputError: DiagnosableError {
    var path: String
    var reason: String
    var description: String { "cannot write \(path): \(reason)" }
    var exitStatus: ExitStatus { .runtimeFailure }
    var fix: String? { "choose a writable place with -o, e.g. -o /tmp/plot.svg" }
}

enum OutputFile {
    /// Writes `text` whole: to a temporary file beside `path`, renamed over it at the end, so a
    /// failure (full disk, no permission) never leaves an empty or cut-off plot. "-" is stdout.
    static func write(_ text: String, to path: String) throws {
        if path == "-" {
            Terminal.standardOutput.write(text)
            Terminal.standardOutput.flush()
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? error.localizedDescription
            throw OutputError(path: path, reason: reason)
        }
    }
}
