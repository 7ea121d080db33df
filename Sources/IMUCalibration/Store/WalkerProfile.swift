import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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
        var pairs: [(key: String, json: String)] = [("version", String(Self.formatVersion))]
        if let h = heightMeters { pairs.append(("height_m", JSONText.number(h))) }
        if let p = paces {
            let items = p.map { JSONText.pretty(object: [("cadence_steps_per_s", JSONText.number($0.cadence)),
                                                         ("stride_m", JSONText.number($0.stride))], level: 2) }
            pairs.append(("paces", JSONText.pretty(array: items, level: 1)))
        }
        if let f = floorHeightMeters { pairs.append(("floor_height_m", JSONText.number(f))) }
        return JSONText.pretty(object: pairs) + "\n"
    }

    /// Reads the JSON form; `path` only names the file in errors. The figures get the same checks
    /// as the command line (`checkPace`, `checkPaces`).
    public init(jsonData data: Data, path: String) throws(WalkerProfileError) {
        func fail(_ reason: String) -> WalkerProfileError { WalkerProfileError(path: path, reason: reason) }
        // The reader's reason and byte offset: "1e999" was "not a JSON object" in a file that is one.
        let parsed: JSONValue
        do { parsed = try JSONValue.parse(data) } catch { throw fail("not JSON: \(error)") }
        guard let object = parsed.object else { throw fail("not a JSON object") }
        func number(_ key: String, in range: ClosedRange<Double>) throws(WalkerProfileError) -> Double? {
            guard let value = object[key] else { return nil }
            guard let n = value.number, range.contains(n) else {
                throw fail("\(key) must be a number from \(range.lowerBound.asWritten) to \(range.upperBound.asWritten)")
            }
            return n
        }
        guard object["version"]?.number == Double(Self.formatVersion) else {
            throw fail("\"version\" must be \(Self.formatVersion) (the only profile format there is)")
        }
        heightMeters = try number("height_m", in: Self.heights)
        floorHeightMeters = try number("floor_height_m", in: Self.floorHeights)
        if let list = object["paces"] {
            guard heightMeters == nil else {
                throw fail("height_m and paces cannot both be set: the stride comes from one or the other")
            }
            guard let items = list.array?.compactMap(\.object), items.count == 2, list.array?.count == 2 else {
                throw fail("paces must hold two paces")
            }
            var paces: [(cadence: Double, stride: Double)] = []
            for item in items {
                guard let c = item["cadence_steps_per_s"]?.number, let s = item["stride_m"]?.number else {
                    throw fail("each pace needs cadence_steps_per_s and stride_m, both numbers")
                }
                paces.append((c, s))
            }
            if let problem = Self.checkPaces(paces[0], paces[1]) { throw fail(problem) }
            self.paces = paces
        } else {
            paces = nil
        }
    }

    /// The profile format written and read.
    public static let formatVersion = 1
    /// Body heights accepted, m.
    public static let heights = 0.5...2.5
    /// Floor heights accepted, m (a low storey to a lobby).
    public static let floorHeights = 1.0...10.0
    /// Plausible human paces: 0.5 to 4 steps/s (a stroll to a sprint) and 0.2 to 2.5 m per step.
    public static let cadences = 0.5...4.0
    public static let strides = 0.2...2.5
    /// Two paces closer than this (steps/s) give no usable line: a small counting error would
    /// tilt it wildly (0.01 steps/s apart turned 0.2 and 2.5 m into 6 m per step).
    public static let smallestCadenceSpread = 0.1
    /// The stride line must stay within `strides` over the cadences people walk and run at
    /// (1 to 3 steps/s; the pedometer seed's paces span 1.6 to 2.8).
    public static let checkedCadences = 1.0...3.0

    /// Why one pace (cadence steps/s, metres per step) is implausible, or nil when it is fine.
    public static func checkPace(cadence: Double, stride: Double) -> String? {
        guard cadences.contains(cadence), strides.contains(stride) else {
            // Rounded as --walked measures and --stride takes them: a quotient of counts printed
            // whole ("2.0881240264075367:0.17761989342806395") read as a fault, not a pace.
            return "pace \(String(cFormat: "%.2f", cadence)):\(String(cFormat: "%.3f", stride)) (steps/s:metres per step) is outside 0.5–4 steps/s and 0.2–2.5 m per step"
        }
        return nil
    }

    /// Why two paces make no plausible stride line, or nil when they do.
    public static func checkPaces(_ first: (cadence: Double, stride: Double), _ second: (cadence: Double, stride: Double)) -> String? {
        for p in [first, second] {
            if let problem = checkPace(cadence: p.cadence, stride: p.stride) { return problem }
        }
        guard abs(first.cadence - second.cadence) >= smallestCadenceSpread else {
            return "the two paces need cadences at least \(smallestCadenceSpread) steps/s apart"
        }
        let slope = (second.stride - first.stride) / (second.cadence - first.cadence)
        for c in [checkedCadences.lowerBound, checkedCadences.upperBound] {
            let stride = first.stride + slope * (c - first.cadence)
            guard strides.contains(stride) else {
                return "the two paces give \((stride * 100).rounded() / 100) m per step at \(c) steps/s (outside 0.2–2.5 m): measure them again"
            }
        }
        return nil
    }
}

/// A walker profile file that cannot be used. Exit 2, like any malformed input.
public struct WalkerProfileError: DiagnosableError, Equatable {
    public var path: String
    public var reason: String
    public var description: String { "\(path.escapedOnOneLine): not a walker profile: \(reason)" }
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
        return (try WalkerProfile(jsonData: try CalibrationStoreError.readSmall(path), path: path), path)
    }

    /// Saves `profile` atomically; returns the path.
    @discardableResult
    public static func save(_ profile: WalkerProfile, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        guard let path = path(environment: environment) else {
            throw NoConfigDirectoryError(what: "your walker profile (--remember)")
        }
        let directory = AtomicFile.directory(of: path)
        try CalibrationStore.makeDirectories(directory)   // the real errno: a full disk is not "permission denied"
        try CalibrationStoreError.writeAtomically(profile.jsonText, to: path)
        return path
    }
}
