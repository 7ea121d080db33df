import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The calibration store could not read or write a file.
public struct CalibrationStoreError: DiagnosableError, Equatable {
    public var path: String
    public var operation: String
    public var errorNumber: Int32
    /// What the path is when it is a FIFO, device or socket (`SmallFile.kind(ofMode:)`), else nil.
    public var notARegularFile: String?

    public static func io(path: String, operation: String, errno: Int32) -> CalibrationStoreError {
        CalibrationStoreError(path: path, operation: operation, errorNumber: errno)
    }

    /// A read refused before opening: `path` is `kind` (a FIFO read as an empty file, /dev/zero as
    /// "File too large", and /dev/null as "not JSON").
    public static func notARegularFile(path: String, kind: String) -> CalibrationStoreError {
        CalibrationStoreError(path: path, operation: "read", errorNumber: 0, notARegularFile: kind)
    }

    public var description: String {
        // "cannot read …/profile.json: Is a directory" read as a damaged file, and its fix said
        // imu-calibrate --reset, which removes a calibration file, never a directory.
        if let kind = errorNumber == EISDIR ? "a directory" : notARegularFile {
            return "cannot \(operation) \(path.escapedOnOneLine): it is \(kind), where imukit keeps \(savedFile) as one small JSON file"
        }
        return "cannot \(operation) \(path.escapedOnOneLine): \(String(cString: strerror(errorNumber)))"
    }

    /// What imukit keeps at `path`: the walker profile (`WalkerProfileStore`, profile.json in the
    /// imukit directory) or a calibration (`CalibrationStore`, a file under calibration/).
    var savedFile: String { isWalkerProfile ? "your walker profile" : "a calibration" }
    var isWalkerProfile: Bool { path.hasSuffix("/profile.json") && !path.contains("/calibration/") }

    var isPermission: Bool { isPermissionDenied(errno: errorNumber) }

    /// A saved file (calibration, profile: a few KiB), read whole; at most 1 MiB, so a path that
    /// is a device or a huge file never fills memory. Failures keep their errno (EFBIG: too large).
    static func readSmall(_ path: String) throws(CalibrationStoreError) -> Data {
        do { return Data(try SmallFile.read(path, limit: 1 << 20)) } catch {
            switch error {
            case .system(let e): throw .io(path: path, operation: "read", errno: e)
            case .tooLarge: throw .io(path: path, operation: "read", errno: EFBIG)
            case .notARegularFile(let kind): throw .notARegularFile(path: path, kind: kind)
            }
        }
    }

    /// Writes a saved file (calibration, profile) with `AtomicFile`; its failure becomes this
    /// error with the same path, step and errno, so the message and the store's fix are kept.
    static func writeAtomically(_ text: String, to path: String) throws(CalibrationStoreError) {
        do { try AtomicFile.write(text, to: path) } catch {
            throw .io(path: error.path, operation: error.operation, errno: error.errorNumber)
        }
    }

    public var fix: String? {
        if isPermission && operation == "read" {
            return "make \(path.escapedOnOneLine) readable by you (ls -l \(path.escapedOnOneLine) shows its owner and mode), or remove it"
        }
        if isPermission {
            if path.hasPrefix(CalibrationStore.systemDirectory) { return "the system-wide store needs root: sudo imu-calibrate --system …" }
            // Creating, renaming and removing a file change its directory: the directory's mode
            // decides, not the file's (the file need not exist yet).
            let directory = AtomicFile.directory(of: path).isEmpty ? "." : AtomicFile.directory(of: path)
            let owner = "make \(directory.escapedOnOneLine) writable by you (ls -ld \(directory.escapedOnOneLine) shows its owner and mode)"
            return operation == "remove" ? "\(owner), or ask its owner to remove \(path.escapedOnOneLine)"
                : "\(owner), or set XDG_CONFIG_HOME to a directory you own"
        }
        if errorNumber == ENOSPC || errorNumber == EDQUOT {
            // The file (calibration, --remember's profile) was not written; the old one, if any, is kept.
            let directory = AtomicFile.directory(of: path)
            let elsewhere = path.hasPrefix(CalibrationStore.systemDirectory) ? "" : ", or set XDG_CONFIG_HOME to a directory on another one"
            return "free some space on the file system of \(directory.escapedOnOneLine) (df -h \(directory.escapedOnOneLine))\(elsewhere); \(path.escapedOnOneLine) was left as it was"
        }
        if errorNumber == ENOTDIR, let file = Self.fileOnTheWay(to: path) {
            // XDG_CONFIG_HOME naming a file: the file is in the way, not `path` (which cannot exist).
            return "\(file.escapedOnOneLine) is a file where a directory is needed: move it out of the way, or set XDG_CONFIG_HOME to a directory you own"
        }
        if errorNumber == EISDIR || notARegularFile != nil {
            let elsewhere = path.hasPrefix(CalibrationStore.systemDirectory) ? "" : ", or set XDG_CONFIG_HOME to another directory so the file is kept elsewhere"
            let remove = notARegularFile == nil ? "remove the directory (rmdir \(path.escapedOnOneLine), when it is empty)" : "remove it (rm \(path.escapedOnOneLine))"
            return "\(remove) or move it away, so the file can be written there\(elsewhere); then "
                + (isWalkerProfile ? "save your figures again: imu-steps --height … --remember" : "calibrate again")
        }
        if isDamagedPath {
            return isWalkerProfile
                ? "move \(path.escapedOnOneLine) out of the way (imukit saves your walker profile there as a small JSON file), then save it again: imu-steps --height … --remember"
                : "move \(path.escapedOnOneLine) out of the way (imukit saves a small JSON file there: imu-calibrate --reset removes a calibration), then calibrate or save again"
        }
        // Any other failure to save in the user's directory (XDG_CONFIG_HOME=/proc: "cannot create
        // directory /proc/imukit: No such file or directory", a read-only file system) had no fix.
        if operation != "read" && !path.hasPrefix(CalibrationStore.systemDirectory) {
            return "set XDG_CONFIG_HOME to a directory you own on a writable disk (imukit saves in XDG_CONFIG_HOME/imukit, else ~/.config/imukit)"
        }
        return nil
    }

    /// The first leading part of `path` that exists and is not a directory (what ENOTDIR meant).
    static func fileOnTheWay(to path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/").dropLast() {
            prefix += "/" + part
            var st = stat()
            guard stat(prefix, &st) == 0 else { return nil }
            if st.st_mode & S_IFMT != S_IFDIR { return path.hasPrefix("/") ? prefix : String(prefix.dropFirst(2)) }
        }
        return nil
    }

    /// The path names something that is not a small regular file imukit could have written: a
    /// directory (EISDIR), a file over the 1 MiB read limit (EFBIG), a path through a file
    /// (ENOTDIR), a symbolic-link loop (ELOOP) or a name too long (ENAMETOOLONG).
    /// A FIFO, device or socket (`notARegularFile`) is one too.
    var isDamagedPath: Bool { notARegularFile != nil || [EISDIR, EFBIG, ENOTDIR, ELOOP, ENAMETOOLONG].contains(errorNumber) }

    /// docs/CONTRACTS.md §4: permission problems exit 3; a path that is no saved file
    /// (`isDamagedPath`: a directory, a file over 1 MiB, a FIFO or device, a path through a file)
    /// is a bad file, 2, like a saved file whose content is damaged (`WalkerProfileError`,
    /// `CalibrationError`); other I/O errors (EIO, a file gone between look and read) 1.
    public var exitStatus: ExitStatus { isPermission ? .noSensor : isDamagedPath ? .usage : .runtimeFailure }
}

extension CalibrationStoreError: RetryableError {
    /// Permanent (`RetryableError`) when only a person mends it: permission denied on a saved file
    /// (no udev rule gives a configuration file to a group later, unlike a device node) and a path
    /// that is no saved file (`isDamagedPath`). Transient: a file that vanished between the look
    /// and the read (ENOENT), EIO, no descriptors or memory left for a moment.
    public var isPermanent: Bool { isPermission || isDamagedPath }
}

/// Nowhere to save: neither XDG_CONFIG_HOME (absolute) nor HOME is set, so there is no
/// `~/.config/imukit`. Exit 2: the environment the tool was started in needs fixing.
public struct NoConfigDirectoryError: DiagnosableError, Equatable {
    /// What could not be saved, e.g. "your walker profile".
    public var what: String
    public init(what: String) { self.what = what }
    public var description: String {
        "cannot save \(what): neither HOME nor XDG_CONFIG_HOME is set, so there is no ~/.config/imukit to save to"
    }
    public var fix: String? { "set HOME to your home directory (e.g. HOME=/home/pi), or XDG_CONFIG_HOME to a directory you own" }
    public var exitStatus: ExitStatus { .usage }
}
