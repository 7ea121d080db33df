/// Why an I²C source could not be opened or stopped.
public struct I2CSourceError: DiagnosableError, RetryableError {
    public enum Reason: Sendable, Equatable {
        /// The `--source` text is not an I²C spec.
        case badSpec
        /// Nothing usable answered.
        case noSensor
        /// Something answered but is not a supported chip (left untouched).
        case unsupported
        /// The sensor stopped answering mid-run and did not come back.
        case lost
    }
    public var reason: Reason
    public var message: String
    public var suggestedFix: String?

    public init(_ reason: Reason, _ message: String, fix: String? = nil) {
        self.reason = reason
        self.message = message
        self.suggestedFix = fix
    }

    /// Permanent (`RetryableError`): a spec that does not parse, a chip that answers with an ID no
    /// driver knows (another chip at that address). Transient: nothing answered (a loose wire, a
    /// sensor not powered yet) and a sensor lost mid-run.
    public var isPermanent: Bool {
        switch reason {
        case .badSpec, .unsupported: return true
        case .noSensor, .lost: return false
        }
    }

    public var description: String { message }
    public var fix: String? { suggestedFix }
    public var exitStatus: ExitStatus {
        switch reason {
        case .badSpec: return .usage
        case .noSensor, .unsupported: return .noSensor
        case .lost: return .runtimeFailure
        }
    }
}
