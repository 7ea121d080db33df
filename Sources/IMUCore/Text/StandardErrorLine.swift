import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Lines for standard error from below the tools: capture threads' warnings, a replay's notes.
/// A tool routes them through its ordered output (`ToolMain`: standard output's lines handed over
/// first, one writer thread), so with `2>&1` a warning keeps its place among the lines printed
/// before it. Unrouted (the daemon, tests), each line is one write(2), so lines from different
/// threads never interleave.
public enum StandardErrorLine {
    private static let destination = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Sends every later line through `write` (text with its newline).
    public static func route(through write: @escaping @Sendable (String) -> Void) {
        destination.withLock { $0 = write }
    }

    /// Writes `text` (one or more whole lines), escaped for the terminal: it quotes file names
    /// and device names (a replay's "FILE: dropped 1 sample …" note wrote a name holding ESC [2J
    /// as it was, clearing the user's screen).
    public static func write(_ text: String) {
        let text = text.escapedForTerminal
        if let routed = destination.withLock({ $0 }) { return routed(text) }
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}
