import CSystemd
import IMUCore
import IMUServiceClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Logging to the journal (sd_journal_sendv) when systemd runs the daemon, else to standard error
/// as "imu-stepd: LEVEL: message". The daemon writes no log files of its own.
public struct ServiceLog: Sendable {
    public enum Level: Int32, Sendable {
        // syslog(3) priorities.
        case error = 3, warning = 4, notice = 5, info = 6
        var word: String {
            switch self {
            case .error: "error"
            case .warning: "warning"
            case .notice: "notice"
            case .info: "info"
            }
        }
    }
    let identifier: String
    let toJournal: Bool

    /// Journal when stderr is the journal's stream (systemd sets JOURNAL_STREAM, sd_journal_stream_fd(3)).
    public init(identifier: String = "imu-stepd", environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.identifier = identifier
        toJournal = environment["JOURNAL_STREAM"] != nil && environment["IMUKIT_LOG_STDERR"] == nil
    }

    public func error(_ text: String) { log(.error, text) }
    public func warning(_ text: String) { log(.warning, text) }
    public func notice(_ text: String) { log(.notice, text) }
    public func info(_ text: String) { log(.info, text) }

    public func log(_ level: Level, _ text: String) {
        let message = text.escapedOnOneLine
        if toJournal {
            let fields = ["MESSAGE=\(message)", "PRIORITY=\(level.rawValue)", "SYSLOG_IDENTIFIER=\(identifier)"]
            let strings = fields.map { strdup($0)! }
            defer { strings.forEach { free($0) } }
            var iov = strings.map { iovec(iov_base: UnsafeMutableRawPointer($0), iov_len: strlen($0)) }
            if sd_journal_sendv(&iov, Int32(iov.count)) >= 0 { return }
        }
        // write(2), not FileHandle.write, which traps on EPIPE: with standard error on a closed pipe
        // (SIGPIPE ignored by `ToolMain`, and by systemd's IgnoreSIGPIPE=yes default) the line is
        // dropped and the service keeps counting steps without its log reader.
        _ = AtomicFile.writeAll(Array(standardErrorLine(level, text).utf8), to: STDERR_FILENO)
    }

    /// "imu-stepd: warning: …\n": the whole message on one line, escaped and never cut (a cut
    /// at 200 characters dropped the fix of a long sensor message).
    func standardErrorLine(_ level: Level, _ text: String) -> String {
        "\(identifier): \(level.word): \(text.escapedOnOneLine)\n"
    }
}
