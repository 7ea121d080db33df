import IMUCore

/// A recording that ended without a single sample (a header, comment lines): replaying it gave
/// "0 steps" and exit 0, an answer that measured nothing. A bad file (exit 2), said the same way
/// by imu-steps, imu-plot and imu-record, each naming the file.
public struct EmptyRecording: DiagnosableError {
    public var path: String
    /// What the tool would have done with samples: "count", "plot", "record".
    public var purpose: String
    public init(path: String, purpose: String = "count") {
        self.path = path
        self.purpose = purpose
    }
    public var description: String {
        "\(path == "-" ? RecordingReader.standardInput : path): the recording has no samples (only a header): there is nothing to \(purpose)"
    }
    public var exitStatus: ExitStatus { .usage }
    public var fix: String? { "record one first (imu-record -d 60 -o walk.csv), or check that this is the file you meant" }
}
