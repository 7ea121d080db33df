import IMUCore

/// What can go wrong with MQTT publishing, each with the thing it concerns and the fix.
public enum PublishError: DiagnosableError, Equatable {
    /// A setting in the config file (origin: "FILE:LINE" or "FILE") is unusable.
    case invalidSetting(String, String, fix: String)
    /// The credentials file is missing, unreadable, malformed or readable by others; the errno
    /// when it could not be read (permission denied exits 3, docs/CONTRACTS.md §4).
    case credentials(path: String, problem: String, fix: String, errorNumber: Int32 = 0)
    /// libmosquitto refused a call (code, what was being done).
    case library(String, code: Int32)

    public var exitStatus: ExitStatus {
        switch self {
        case .credentials(_, _, _, let code) where isPermissionDenied(errno: code): .noSensor
        case .invalidSetting, .credentials: .usage
        case .library: .runtimeFailure
        }
    }

    public var fix: String? {
        switch self {
        case .invalidSetting(_, _, let fix), .credentials(_, _, let fix, _): fix
        case .library: nil
        }
    }

    /// errno when a file could not be read, else 0.
    public var errorNumber: Int32 {
        if case .credentials(_, _, _, let code) = self { return code }
        return 0
    }

    public var description: String {
        switch self {
        // The fix is `fix`, which every report prints on its own line (it was here too: printed twice).
        case .invalidSetting(let origin, let problem, _): "\(origin): \(problem)"
        case .credentials(let path, let problem, _, _): "MQTT credentials \(path.escapedForTerminal): \(problem)"
        case .library(let what, let code): "MQTT: \(what) failed: \(MosquittoLibrary.describe(code))"
        }
    }
}
