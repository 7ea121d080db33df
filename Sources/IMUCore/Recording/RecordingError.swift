/// A problem in a recording file, reported as `FILE:LINE: what is wrong` (docs/CONTRACTS.md §2).
public struct RecordingError: DiagnosableError, Equatable {
    /// File name as given by the user.
    public var file: String
    /// 1-based line number; 0 when the problem concerns the whole file (e.g. it cannot be opened).
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
    public var exitStatus: ExitStatus { .usage }
}
