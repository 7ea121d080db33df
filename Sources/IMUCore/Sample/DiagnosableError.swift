/// Exit codes shared by all tools (docs/CONTRACTS.md §4).
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// Sensor lost, I/O error.
    case runtimeFailure = 1
    /// Bad flag, bad file, bad address.
    case usage = 2
    /// No sensor found, or permission denied.
    case noSensor = 3
}

/// An error a person can act on: it says what went wrong with which thing, and how to fix it.
public protocol DiagnosableError: Error, CustomStringConvertible, Sendable {
    /// Which exit code a tool ends with when this error stops it.
    var exitStatus: ExitStatus { get }
    /// The fix, e.g. "sudo usermod -aG i2c $USER, then log in again". Nil when there is none to give.
    var fix: String? { get }
}

extension DiagnosableError {
    public var fix: String? { nil }
}
