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
    /// The fix when it is not about --from/--to (a recording with no samples at all).
    private var otherFix: String?
    public init(_ message: String, fix: String? = nil) {
        self.message = message
        self.otherFix = fix
    }
    public var description: String { message }
    public var exitStatus: ExitStatus { .usage }
    public var fix: String? { otherFix ?? "give --from and --to in seconds after the recording's first sample (or m:ss), inside its length" }
}
