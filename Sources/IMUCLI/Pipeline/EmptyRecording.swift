import IMUCore

/// A recording that ended without a single sample (a header, comment lines): replaying it gave
/// "0 steps" and exit 0, an answer that measured nothing. A bad file (exit 2), as `imu-plot` says too.
public struct EmptyRecording: DiagnosableError {
    public var path: String
    public init(path: String) { self.path = path }
    public var description: String {
        "\(path == "-" ? RecordingReader.standardInput : path): the recording has no samples (only a header): there is nothing to count"
    }
    public var exitStatus: ExitStatus { .usage }
    public var fix: String? { "record one first (imu-record -d 60 -o walk.csv), or check that this is the file you meant" }
}
