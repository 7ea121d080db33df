import IMUCore

/// Why the daemon cannot start or carry on. Each names the thing and the fix.
public enum ServiceError: DiagnosableError, Equatable {
    /// Another imu-stepd holds the lock.
    case alreadyRunning(path: String, owner: String)
    case lock(path: String, reason: String, fix: String)
    /// Another process owns the bus name.
    case nameTaken(name: String, bus: String)
    case bus(String, fix: String)
    /// The state directory is missing or not writable; `config` is the settings file that could name another.
    case stateDirectory(path: String, config: String, reason: String)

    public var description: String {
        switch self {
        case let .alreadyRunning(path, owner): "another imu-stepd is already running\(owner): it holds \(path)"
        case let .lock(path, reason, _): "cannot lock \(path): \(reason)"
        case let .nameTaken(name, bus): "another process already owns \(name) on the \(bus) bus"
        case let .bus(text, _): text
        case let .stateDirectory(path, _, reason): "state directory \(path.escapedOnOneLine): \(reason)"
        }
    }

    public var fix: String? {
        switch self {
        case .alreadyRunning: "one daemon counts for everyone: query it with imu-steps --today, or stop it with: sudo systemctl stop imu-stepd"
        case let .lock(_, _, fix): fix
        case .nameTaken: "stop the other daemon first (busctl status io.github.imukit.StepService1 shows it)"
        case let .bus(_, fix): fix
        // "sudo install -d -o imu-stepd /dev/null" was the fix for a file named as the directory.
        // The config's path comes from --config as typed: escaped on one line, so a newline in it
        // cannot start a line of its own (a fake "fix:") in the message.
        case let .stateDirectory(path, config, reason) where reason == Self.notADirectory:
            "set state_directory in \(config.escapedOnOneLine) to a directory (imu-stepd's own is /var/lib/imu-stepd); \(path.escapedOnOneLine) is a file (ls -ld \(path.escapedOnOneLine))"
        case let .stateDirectory(path, config, reason) where reason.hasSuffix(Self.readOnly):
            "set state_directory in \(config.escapedOnOneLine) to a directory on a writable file system, or remount it read-write (findmnt -T \(path.escapedOnOneLine))"
        case let .stateDirectory(path, config, _):
            "create it (systemd does, from StateDirectory=imu-stepd) or set state_directory in \(config.escapedOnOneLine); sudo install -d -o imu-stepd \(path.escapedOnOneLine)"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        // docs/CONTRACTS.md §4: permission denied is 3, a bad setting 2 (both were 1).
        case let .stateDirectory(_, _, reason) where reason.hasPrefix(Self.notWritable) || reason.contains("ermission denied"): .noSensor
        case let .stateDirectory(_, _, reason) where reason == Self.notADirectory: .usage
        default: .runtimeFailure
        }
    }

    /// The reasons `StepDaemon.prepareStateDirectory` gives.
    public static let notWritable = "is not writable by this user"
    public static let notADirectory = "is not a directory"
    public static let readOnly = "file system mounted read-only"
}
