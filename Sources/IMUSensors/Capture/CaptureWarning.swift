#if canImport(Glibc)
import Glibc
#endif

/// One-line warnings from a capture thread ("warning: …" on standard error), written with one
/// write(2) so lines from different threads never interleave.
public enum CaptureWarning {
    public static let standardError: @Sendable (String) -> Void = { message in
        let line = Array("warning: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
