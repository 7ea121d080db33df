import IMUCore

/// Which part of a recording to draw, in seconds after its first sample (`--from`, `--to`).
public struct PlotSpan: Sendable, Equatable {
    public var from: Double?
    public var to: Double?

    public init(from: Double? = nil, to: Double? = nil) {
        self.from = from
        self.to = to
    }

    /// The whole recording.
    public static let all = PlotSpan()
}

/// A bad `--from`/`--to` found once the recording's length is known.
public struct PlotSpanError: DiagnosableError {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var exitStatus: ExitStatus { .usage }
    public var fix: String? { "give --from and --to in seconds after the recording's first sample (or m:ss), inside its length" }
}
