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

    /// Loads the file; an absent file is an empty configuration.
    public static func load(path: String = defaultPath) throws(MountConfigError) -> MountConfig {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return MountConfig() }
        return try MountConfig(text: text, path: path)
    }

    /// The matrix for the first key present, else nil.
    public func matrix(for keys: [String]) -> MountMatrix? {
        for k in keys + ["default"] { if let m = entries[k] { return m } }
        return nil
    }
}

/// A line of mount.conf that is not `KEY = nine numbers`.
public struct MountConfigError: DiagnosableError {
    public var path: String
    public var line: Int
    public var text: String
    public var description: String { "\(path.escapedForTerminal):\(line): not a mount matrix line (three rows of three numbers forming a rotation): '\(text.escapedForTerminal)'" }
    public var exitStatus: ExitStatus { .usage }
    public var fix: String? { "write KEY = r1c1, r1c2, r1c3; r2c1, r2c2, r2c3; r3c1, r3c2, r3c3 (e.g. mpu6050 = 0, 1, 0; -1, 0, 0; 0, 0, 1)" }
}
