extension Scenario {
    /// A catalogue name, or a composition of segments written as text:
    ///
    ///     still:20,walk:120@1.8*0.25/hand,bus:60,stairs-up:3/pocket,elevator-down:2,wave:15
    ///
    /// Each item is `KIND[:N][@CADENCE][*AMPLITUDE][~MIN-MAX][/HOLDING]`, where N is seconds, or floors for
    /// stairs-up, stairs-down, elevator-up and elevator-down; cadence is steps/s (or waves/s),
    /// amplitude g, MIN-MAX the seconds between steps of an irregular walk (each step's interval
    /// drawn from that range: `walk:8~0.3-2/lower-back`; the cadence then defaults to
    /// 2 / (MIN + MAX)), holding one of `DeviceHolding.names`. Kinds: still, stroll, walk, run, bus, wave,
    /// stairs-up, stairs-down, elevator-up, elevator-down, transition, face+z … face-x.
    /// Throws `SimulationError` naming the bad item and showing the syntax.
    public static func resolve(_ text: String) throws -> Scenario {
        if let named = Scenario.named(text) { return named }
        // Any of the item marks makes a composition: `walk@2`, `walk/pocket` and `walk*0.3` are
        // items (KIND alone is allowed), and were refused as "unknown scenario".
        guard text.contains(where: { ":,@*~/".contains($0) }) else {
            throw SimulationError(message: text.isEmpty ? "no scenario given" : "unknown scenario '\(text)'",
                                  fix: "use one of: \(allNames.joined(separator: ", ")), or compose one, e.g. still:10,walk:60,stairs-up:2")
        }
        // Empty items ("walk:10,,run:5", a trailing comma) are refused, not skipped: a lost item
        // is a segment the user asked for and would not get.
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        if let empty = items.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }) {
            throw SimulationError(message: "item \(empty + 1) of \(items.count) in the composition '\(text)' is empty",
                                  fix: "remove the extra comma, or put a segment there, e.g. walk:10,still:5,run:5")
        }
        let segments = try items.map { try segment(from: String($0)) }
        // Named as written: "simulated custom" told a user of `--simulate walk:60` (or the
        // daemon's journal) nothing of what was played.
        return Scenario(name: text, segments: segments)
    }

    /// Steps (or waves) per second a composition may ask for: human gait spans about 0.5 steps/s (a
    /// shuffle) to under 5 (a sprint), and `--stride` takes 0.5–4; 0.1–5 keeps slow-motion tests
    /// possible, and at 5 a step still spans 20 samples at 100 Hz.
    public static let cadenceRange = 0.1...5.0
    /// Bounce amplitude limit in g: the simulated accelerometer clips at ±16 g (`SensorErrorModel`),
    /// so a larger bounce is a flat line at full scale, not a gait.
    public static let maximumAmplitude = 16.0
    /// Seconds between two steps an irregular walk may ask for: the inverse of `cadenceRange`.
    public static let stepIntervalRange = (1 / cadenceRange.upperBound)...(1 / cadenceRange.lowerBound)
    /// Longest segment, seconds: a week.
    public static let maximumSeconds = 7.0 * 24 * 3600
    /// Most floors in one stairs or elevator segment: the tallest building (Burj Khalifa) has 163.
    public static let maximumFloors = 200
    /// The kinds whose `:N` counts floors, not seconds.
    static let floorKindNames: Set<String> = ["stairs-up", "stairs-down", "elevator-up", "elevator-down"]

    /// Kind names accepted in compositions.
    public static let segmentKindNames = ["still", "stroll", "walk", "run", "bus", "wave", "stairs-up", "stairs-down",
                                          "elevator-up", "elevator-down", "transition"] + FaceUp.allCases.map { "face" + $0.rawValue }
        + Segment.Vehicle.allCases.map(\.rawValue)

    private static func segment(from item: String) throws -> Segment {
        func bad(_ why: String) -> SimulationError {
            SimulationError(message: "bad scenario item '\(item)': \(why)",
                            fix: "write KIND[:SECONDS or FLOORS][@CADENCE][*AMPLITUDE][~MIN-MAX][/HOLDING], e.g. walk:60@1.8/pocket or walk:8~0.3-2/lower-back; kinds: \(segmentKindNames.joined(separator: ", "))")
        }
        let written = item.filter { !$0.isWhitespace }
        var rest = Substring(written)
        var holding: DeviceHolding?
        if let slash = rest.firstIndex(of: "/") {
            let name = String(rest[rest.index(after: slash)...])
            guard let h = DeviceHolding(name: name) else { throw bad("unknown holding '\(name)' (\(DeviceHolding.names.joined(separator: ", ")))") }
            holding = h
            rest = rest[..<slash]
        }
        // The kind as written, for messages that name what its numbers take.
        let kindName = String(rest.prefix { !":@*~".contains($0) })
        func number(after mark: Character) throws -> Double? {
            guard let i = rest.firstIndex(of: mark) else { return nil }
            let text = String(rest[rest.index(after: i)...])
            rest = rest[..<i]
            guard let v = DecimalParser.parse(text), v.isFinite, v > 0 else {
                // After ':' (inf, nan, 1e400, -5, 0) the range and its unit, for the kind written.
                guard mark == ":" else { throw bad(outOfRange(text, after: mark)) }
                throw bad("'\(text)' after ':' is not \(countRange(String(rest)))")
            }
            // Range checks come before any integer conversion: `walk:10@1e300` planned steps
            // forever (ignoring SIGTERM) while `@1000` or `*1e300` gave 0 steps.
            if mark == "@", !Self.cadenceRange.contains(v) { throw bad(outOfRange(text, after: mark)) }
            if mark == "*", v > Self.maximumAmplitude { throw bad(outOfRange(text, after: mark)) }
            return v
        }
        /// `@` and `*` out of range (`@fast`, `@0`, `@1000`, `*-1`, `*20`): the unit, the range
        /// with its reason, and the item as it should be written, the bad value replaced.
        /// Called just after `rest` was cut at `mark`, so `rest.endIndex` is where the mark stands.
        func outOfRange(_ text: String, after mark: Character) -> String {
            let textEnd = written.index(rest.endIndex, offsetBy: 1 + text.count)
            let fixed = { (good: String) in "\(written[..<rest.endIndex])\(mark)\(good)\(written[textEnd...])" }
            if mark == "@" {
                let unit = kindName == "wave" ? "waves" : "steps"
                return "'\(text)' after '@' is not a cadence in \(unit) per second from \(Self.cadenceRange.lowerBound.asWritten) to \(Self.cadenceRange.upperBound.asWritten) "
                    + "(human gait spans about 0.5 steps/s, a shuffle, to under 5, a sprint); e.g. \(fixed("1.8"))"
            }
            return "'\(text)' after '*' is not an amplitude in g, more than 0 and at most \(Self.maximumAmplitude.asWritten) "
                + "(the simulated accelerometer's full scale); e.g. \(fixed("0.25"))"
        }
        /// What `KIND:N` takes, with its unit and range: floors for the stairs and elevators.
        func countRange(_ kind: String) -> String {
            floorKindNames.contains(kind)
                ? "a whole number of floors from 1 to \(Self.maximumFloors)"
                : "a duration in seconds, more than 0 and at most \(Int(Self.maximumSeconds)) (a week)"
        }
        var intervals: ClosedRange<Double>?
        if let tilde = rest.firstIndex(of: "~") {
            let text = String(rest[rest.index(after: tilde)...])
            rest = rest[..<tilde]
            let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { DecimalParser.parse(String($0)) }
            guard bounds.count == 2, let low = bounds[0], let high = bounds[1], low.isFinite, high.isFinite, low > 0, low <= high else {
                throw bad("'~\(text)' is not a range of seconds between steps, e.g. ~0.3-2")
            }
            guard Self.stepIntervalRange.contains(low), Self.stepIntervalRange.contains(high) else {
                throw bad("steps \(low)–\(high) s apart are outside \(Self.stepIntervalRange.lowerBound)–\(Self.stepIntervalRange.upperBound) s")
            }
            intervals = low...high
        }
        let amplitude = try number(after: "*")
        let cadence = try number(after: "@")
        let count = try number(after: ":")
        // Range checks come before any integer conversion: `walk:1e300` trapped in `Int(_:)`.
        if let count, count > Self.maximumSeconds {
            throw bad("\(count.asWritten) after ':' is too large: \(String(rest)) takes \(countRange(String(rest)))")
        }
        // Safe: count ≤ maximumSeconds here.
        let floors = Int((count ?? 1).rounded())
        let kind: Segment.Kind
        switch String(rest) {
        case "still": kind = .still
        case "stroll": kind = .stroll
        case "walk": kind = .walk
        case "run": kind = .run
        case "bus": kind = .bus
        case let name where Segment.Vehicle(rawValue: name) != nil: kind = .ride(Segment.Vehicle(rawValue: name)!)
        case "wave": kind = .wave
        case "transition": kind = .transition
        case "stairs-up": kind = .stairsUp(floors: floors)
        case "stairs-down": kind = .stairsDown(floors: floors)
        case "elevator-up": kind = .elevatorUp(floors: floors)
        case "elevator-down": kind = .elevatorDown(floors: floors)
        case let other:
            guard other.hasPrefix("face"), let face = FaceUp(rawValue: String(other.dropFirst(4))) else {
                throw bad("unknown kind '\(other)'")
            }
            kind = .face(face)
        }
        let countsFloors = Self.floorKindNames.contains(String(rest))
        if countsFloors, let count, count != count.rounded() { throw bad("floors must be a whole number") }
        if countsFloors, let count, count > Double(Self.maximumFloors) {
            throw bad("\(Int(count)) floors is more than \(Self.maximumFloors), taller than any building")
        }
        if intervals != nil {
            switch kind {
            case .stroll, .walk: break
            default: throw bad("irregular steps (~MIN-MAX) are for walk and stroll")
            }
        }
        var segment = Segment(kind, seconds: countsFloors ? nil : count,
                              cadence: cadence ?? intervals.map { 2 / ($0.lowerBound + $0.upperBound) },
                              amplitude: amplitude, holding: holding)
        segment.stepIntervals = intervals
        return segment
    }
}
