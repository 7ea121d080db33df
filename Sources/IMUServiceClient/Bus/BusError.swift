import IMUCore

/// A D-Bus failure a person can act on: the daemon is not running, access denied, a call failed.
public struct BusError: DiagnosableError, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No bus to connect to (no system bus on this machine, or a bad address).
        case noBus
        /// The bus is there, the daemon is not.
        case serviceNotRunning
        /// The daemon answered with a D-Bus error (its name is in `remoteName`).
        case remote
        /// Anything else sd-bus reported (negative errno).
        case failed
    }
    public var kind: Kind
    public var message: String
    public var remoteName: String?
    public var fix: String?

    public init(_ kind: Kind, _ message: String, remoteName: String? = nil, fix: String? = nil) {
        self.kind = kind
        self.message = message
        self.remoteName = remoteName
        self.fix = fix
    }

    public var description: String { message }
    public var exitStatus: ExitStatus { kind == .remote && remoteName == StepServiceNames.Errors.invalidArgs ? .usage : .runtimeFailure }

    static let notRunningFix = "start it with: sudo systemctl enable --now imu-stepd (docs/service.md)"
}
