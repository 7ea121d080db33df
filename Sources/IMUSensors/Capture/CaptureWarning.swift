import IMUCore

/// One-line warnings from a capture thread ("warning: …" on standard error), each written whole
/// (`StandardErrorLine`) so lines from different threads never interleave.
public enum CaptureWarning {
    public static let standardError: @Sendable (String) -> Void = { message in
        StandardErrorLine.write("warning: \(message)\n")
    }
}
