import Foundation

/// The walker's own figures for the pedometer, kept between runs: height (for the default
/// stride), the stride line through two calibrated paces, and the height of one floor. Saved as
/// `imukit/profile.json` in the user's config directory (beside `calibration/`).
public struct WalkerProfile: Sendable, Equatable {
    /// Body height, m.
    public var heightMeters: Double?
    /// Two calibrated paces, each (cadence steps/s, metres per step).
    public var paces: [(cadence: Double, stride: Double)]?
    /// Height of one floor, m.
    public var floorHeightMeters: Double?

    public init(heightMeters: Double? = nil, paces: [(cadence: Double, stride: Double)]? = nil, floorHeightMeters: Double? = nil) {
        self.heightMeters = heightMeters
        self.paces = paces
        self.floorHeightMeters = floorHeightMeters
    }

    public static func == (a: WalkerProfile, b: WalkerProfile) -> Bool {
        a.heightMeters == b.heightMeters && a.floorHeightMeters == b.floorHeightMeters
            && a.paces?.map { [$0.cadence, $0.stride] } == b.paces?.map { [$0.cadence, $0.stride] }
    }

    /// `other`'s figures where it has them, this profile's elsewhere. A stride line replaces a
    /// height and the other way round: the newer one is what the walker meant.
    public func updated(with other: WalkerProfile) -> WalkerProfile {
        var out = self
        if let h = other.heightMeters { out.heightMeters = h; out.paces = nil }
        if let p = other.paces { out.paces = p; out.heightMeters = nil }
        if let f = other.floorHeightMeters { out.floorHeightMeters = f }
        return out
    }

    /// One line for the user: "stride 1.8:0.702,2.81:1.091, floors of 3.5 m".
    public var summary: String {
        var parts: [String] = []
        if let h = heightMeters { parts.append("height \(h) m") }
        if let p = paces { parts.append("stride " + p.map { "\($0.cadence):\($0.stride)" }.joined(separator: ",")) }
        if let f = floorHeightMeters { parts.append("floors of \(f) m") }
        return parts.isEmpty ? "nothing set" : parts.joined(separator: ", ")
    }

    /// The JSON form (keys sorted, one per line).
    public var jsonText: String {
        var object: [String: Any] = ["version": 1]
        if let h = heightMeters { object["height_m"] = h }
        if let p = paces { object["paces"] = p.map { ["cadence_steps_per_s": $0.cadence, "stride_m": $0.stride] } }
        if let f = floorHeightMeters { object["floor_height_m"] = f }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads the JSON form; `path` only names the file in errors.
    public init(jsonData data: Data, path: String) throws(WalkerProfileError) {
        func fail(_ reason: String) -> WalkerProfileError { WalkerProfileError(path: path, reason: reason) }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw fail("not a JSON object")
        }
        func number(_ key: String, in range: ClosedRange<Double>) throws(WalkerProfileError) -> Double? {
            guard let value = object[key] else { return nil }
            guard let n = value as? Double, range.contains(n) else { throw fail("\(key) must be a number in \(range)") }
            return n
        }
        heightMeters = try number("height_m", in: 0.5...2.5)
        floorHeightMeters = try number("floor_height_m", in: 1...10)
        if let list = object["paces"] {
            guard let items = list as? [[String: Any]], items.count == 2 else { throw fail("paces must hold two paces") }
            var paces: [(cadence: Double, stride: Double)] = []
            for item in items {
                guard let c = item["cadence_steps_per_s"] as? Double, let s = item["stride_m"] as? Double,
                      (0.5...4).contains(c), (0.2...2.5).contains(s) else {
                    throw fail("each pace needs cadence_steps_per_s (0.5–4) and stride_m (0.2–2.5)")
                }
                paces.append((c, s))
            }
            self.paces = paces
        } else {
            paces = nil
        }
    }
}

/// A walker profile file that cannot be used. Exit 2, like any malformed input.
public struct WalkerProfileError: DiagnosableError, Equatable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): not a walker profile: \(reason)" }
    public var fix: String? { "correct it, or delete it and save your figures again: imu-steps --stride … --remember" }
    public var exitStatus: ExitStatus { .usage }
}

/// Where the walker profile lives: `profile.json` in the user's imukit config directory.
public enum WalkerProfileStore {
    /// The profile file for `environment` (XDG_CONFIG_HOME, else HOME); nil without either.
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        CalibrationStore.standard(environment: environment).userDirectory.map { $0 + "/profile.json" }
    }

    /// The saved profile and its path; nil when none is saved. A damaged file is an error.
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> (profile: WalkerProfile, path: String)? {
        guard let path = path(environment: environment), FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CalibrationStoreError.io(path: path, operation: "read", errno: EACCES)
        }
        return (try WalkerProfile(jsonData: data, path: path), path)
    }

    /// Saves `profile` atomically; returns the path.
    @discardableResult
    public static func save(_ profile: WalkerProfile, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        guard let path = path(environment: environment) else {
            throw CalibrationStoreError.io(path: "~/.config/imukit/profile.json", operation: "find (HOME is not set)", errno: ENOENT)
        }
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CalibrationStoreError.io(path: directory, operation: "create", errno: EACCES)
        }
        try AtomicFile.write(profile.jsonText, to: path)
        return path
    }
}
