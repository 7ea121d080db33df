import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One calibration file per sensor, named after `SourceInfo.calibrationKey`:
/// user store `$XDG_CONFIG_HOME/imukit/calibration/` (default `~/.config/imukit/calibration/`),
/// system store `/etc/imukit/calibration/`. Lookups try the user store first, then the system one.
public struct CalibrationStore: Sendable {
    /// The system-wide base directory (`--system`).
    public static let systemDirectory = "/etc/imukit"

    /// `…/imukit` directories, most specific first; `writable` is where `save` writes.
    public let userDirectory: String?
    public let systemDirectory: String
    /// Save to and reset in the system store instead of the user's.
    public var system: Bool

    public init(userDirectory: String?, systemDirectory: String = CalibrationStore.systemDirectory, system: Bool = false) {
        self.userDirectory = userDirectory
        self.systemDirectory = systemDirectory
        self.system = system
    }

    /// The store as the XDG Base Directory spec places it: `$XDG_CONFIG_HOME/imukit`, or
    /// `$HOME/.config/imukit` when XDG_CONFIG_HOME is unset, empty or not absolute.
    /// `IMUKIT_SYSTEM_CONFIG_DIR` overrides `/etc/imukit` (for tests and packaging).
    public static func standard(system: Bool = false,
                                environment: [String: String] = ProcessInfo.processInfo.environment) -> CalibrationStore {
        var user: String?
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            user = xdg + "/imukit"
        } else if let home = environment["HOME"], !home.isEmpty {
            user = home + "/.config/imukit"
        }
        let systemDir = environment["IMUKIT_SYSTEM_CONFIG_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? systemDirectory
        return CalibrationStore(userDirectory: user, systemDirectory: systemDir, system: system)
    }

    /// A file name for a key: letters, digits, '.', '-' and '_' kept, anything else (/, :, @) → '_'.
    public static func fileName(for key: String) -> String {
        let safe = key.unicodeScalars.map { u -> Character in
            let ok = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9") || u == "." || u == "-" || u == "_"
            return ok ? Character(u) : "_"
        }
        var name = String(safe)
        while name.hasPrefix(".") { name.removeFirst() }
        return (name.isEmpty ? "sensor" : name) + ".json"
    }

    /// Where `save` writes the calibration for `key`; nil without a home directory.
    public func path(for key: String) -> String? {
        let base = system ? systemDirectory : userDirectory
        return base.map { "\($0)/calibration/\(Self.fileName(for: key))" }
    }

    /// The paths searched for `key`, in lookup order.
    public func searchPaths(for key: String) -> [String] {
        [userDirectory, systemDirectory].compactMap { $0 }.map { "\($0)/calibration/\(Self.fileName(for: key))" }
    }

    /// The keys of the calibrations saved in both stores, sorted, each once; files that cannot be
    /// read as a calibration are left out (`load` names them when asked for).
    public func savedKeys() -> [String] {
        let dirs = [userDirectory, systemDirectory].compactMap { $0.map { $0 + "/calibration" } }
        var keys: Set<String> = []
        for dir in dirs {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".json") {
                let path = dir + "/" + name
                if let data = try? CalibrationStoreError.readSmall(path), let c = try? Calibration(jsonData: data, path: path) { keys.insert(c.key) }
            }
        }
        return keys.sorted()
    }

    /// The calibration for `key` and the file it came from; nil when none is saved.
    /// A file that exists but cannot be parsed is an error, never silently ignored.
    public func load(key: String) throws -> (calibration: Calibration, path: String)? {
        for path in searchPaths(for: key) {
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let calibration = try Calibration(jsonData: try CalibrationStoreError.readSmall(path), path: path)
            return (calibration, path)
        }
        return nil
    }

    /// Saves atomically (temporary file + rename); returns the path written.
    @discardableResult
    public func save(_ calibration: Calibration) throws -> String {
        guard let path = path(for: calibration.key) else {
            throw NoConfigDirectoryError(what: "the calibration")
        }
        let directory = AtomicFile.directory(of: path)
        try Self.makeDirectories(directory)
        try CalibrationStoreError.writeAtomically(calibration.jsonText(pretty: true), to: path)
        return path
    }

    /// mkdir -p, keeping errno so a permission problem is reported as one (also imu-stepd's state
    /// directory, which may be relative to where it was started).
    public static func makeDirectories(_ path: String) throws(CalibrationStoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw .io(path: prefix, operation: "create directory", errno: errno)
            }
        }
    }

    /// Removes the saved calibration for `key` from the selected store; returns the path removed,
    /// nil when there was none.
    @discardableResult
    public func reset(key: String) throws -> String? {
        guard let path = path(for: key), FileManager.default.fileExists(atPath: path) else { return nil }
        if unlink(path) != 0 { throw CalibrationStoreError.io(path: path, operation: "remove", errno: errno) }
        return path
    }
}
