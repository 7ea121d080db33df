import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The optional mount-matrix file, `~/.config/imukit/mount.conf` (or `$XDG_CONFIG_HOME/imukit/`):
/// one `KEY = MATRIX` per line in the kernel's syntax, `#` comments. KEY is a source's
/// calibration key (`i2c-1-0x68-mpu6050`), a chip name (`mpu6050`) or `default`; the most
/// specific wins. A `--mount` flag overrides the file.
///
///     # MPU-6050 breakout glued rotated by 90° in the case
///     mpu6050 = 0, 1, 0; -1, 0, 0; 0, 0, 1
public struct MountConfig: Sendable {
    public var entries: [String: MountMatrix]

    public init(entries: [String: MountMatrix] = [:]) { self.entries = entries }

    /// Bytes read at most: a mount.conf is a few lines of about 40 bytes; 64 KiB is over a
    /// thousand of them, and keeps a path that names a device or a huge file out of memory.
    static let sizeLimit = 1 << 16

    /// The default path.
    public static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (homeDirectory + "/.config")
        return base + "/imukit/mount.conf"
    }

    /// $HOME, else the password database's entry for this user, else "/".
    static var homeDirectory: String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }

    /// Parses the file's text; throws naming the line that is wrong.
    public init(text: String, path: String) throws(MountConfigError) {
        var entries: [String: MountMatrix] = [:]
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !line.trimmedWhitespace.isEmpty else { continue }
            guard let eq = line.firstIndex(of: "="),
                  let m = MountMatrix(kernelText: String(line[line.index(after: eq)...])), m.isRotation else {
                throw MountConfigError(path: path, line: i + 1, text: String(raw))
            }
            entries[line[..<eq].trimmedWhitespace] = m
        }
        self.entries = entries
    }

    /// Loads the file; an absent file is an empty configuration. One that cannot be read (permission,
    /// a directory, over `sizeLimit`, not UTF-8) is an error naming it, never taken as empty: the
    /// matrices the user wrote would silently not apply.
    public static func load(path: String = defaultPath) throws(MountConfigError) -> MountConfig {
        let bytes: [UInt8]
        do { bytes = try SmallFile.read(path, limit: sizeLimit) } catch {
            switch error {
            case .system(ENOENT): return MountConfig()
            case .system(let code): throw MountConfigError(path: path, unreadable: code)
            case .tooLarge: throw MountConfigError(path: path, unreadable: EFBIG)
            case .notARegularFile(let kind): throw MountConfigError(path: path, line: 0, text: "it is \(kind), not a text file")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw MountConfigError(path: path, line: 0, text: "not UTF-8 text")
        }
        return try MountConfig(text: text, path: path)
    }

    /// The matrix for the first key present, else nil.
    public func matrix(for keys: [String]) -> MountMatrix? {
        for k in keys + ["default"] { if let m = entries[k] { return m } }
        return nil
    }
}

/// A line of mount.conf that is not `KEY = nine numbers`, or a mount.conf that cannot be read.
public struct MountConfigError: DiagnosableError, RetryableError {
    public var path: String
    /// The line that is wrong, from 1; 0 when the file as a whole is (unreadable, not text).
    public var line: Int
    /// The line as written, or what is wrong with the file.
    public var text: String
    /// errno of the failed read, nil when the file was read.
    public var errorNumber: Int32?

    public init(path: String, line: Int, text: String) {
        self.path = path
        self.line = line
        self.text = text
    }

    /// The file could not be read: errno `code` (EFBIG for one over `MountConfig.sizeLimit`).
    init(path: String, unreadable code: Int32) {
        self.init(path: path, line: 0, text: code == EFBIG ? "larger than \(MountConfig.sizeLimit) bytes" : String(cString: strerror(code)))
        errorNumber = code
    }

    var isPermission: Bool { errorNumber.map { isPermissionDenied(errno: $0) } ?? false }

    public var description: String {
        guard line > 0 else { return "cannot read the mount matrix file \(path.escapedForTerminal): \(text.escapedForTerminal)" }
        return "\(path.escapedForTerminal):\(line): not a mount matrix line (three rows of three numbers forming a rotation): '\(text.escapedForTerminal)'"
    }

    public var exitStatus: ExitStatus { isPermission ? .noSensor : .usage }

    public var fix: String? {
        let file = path.escapedForTerminal
        if isPermission { return "make \(file) readable by you (ls -l \(file) shows its owner and mode), or remove it" }
        guard line > 0 else { return "replace \(file) with a text file of KEY = MATRIX lines (e.g. mpu6050 = 0, 1, 0; -1, 0, 0; 0, 0, 1), or remove it" }
        return "correct line \(line) of \(file) to KEY = r1c1, r1c2, r1c3; r2c1, r2c2, r2c3; r3c1, r3c2, r3c3 (e.g. mpu6050 = 0, 1, 0; -1, 0, 0; 0, 0, 1), or remove the line"
    }

    /// Permanent (`RetryableError`): the file says the same until a person edits, removes or
    /// chmods it, as the fix says. Transient: a read that failed with EIO or for want of
    /// descriptors or memory.
    public var isPermanent: Bool {
        guard let code = errorNumber else { return true }
        return isPermission || [EISDIR, EFBIG, ENOTDIR, ELOOP, ENAMETOOLONG].contains(code)
    }
}
