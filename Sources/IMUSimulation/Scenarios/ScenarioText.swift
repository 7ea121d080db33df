extension Scenario {
    /// A catalogue name, or a composition of segments written as text:
    ///
    ///     still:20,walk:120@1.8*0.25/hand,bus:60,stairs-up:3/pocket,elevator-down:2,wave:15
    ///
    /// Each item is `KIND[:N][@CADENCE][*AMPLITUDE][/HOLDING]`, where N is seconds, or floors for
    /// stairs-up, stairs-down, elevator-up and elevator-down; cadence is steps/s (or waves/s),
    /// amplitude g, holding one of `DeviceHolding.names`. Kinds: still, stroll, walk, run, bus, wave,
    /// stairs-up, stairs-down, elevator-up, elevator-down, transition, face+z … face-x.
    /// Throws `SimulationError` naming the bad item and showing the syntax.
    public static func resolve(_ text: String) throws -> Scenario {
        if let named = Scenario.named(text) { return named }
        guard text.contains(":") || text.contains(",") else {
            throw SimulationError(message: text.isEmpty ? "no scenario given" : "unknown scenario '\(text)'",
                                  fix: "use one of: \(allNames.joined(separator: ", ")), or compose one, e.g. still:10,walk:60,stairs-up:2")
        }
        let segments = try text.split(separator: ",").map { try segment(from: String($0)) }
        return Scenario(name: "custom", segments: segments)
    }

    /// Kind names accepted in compositions.
    public static let segmentKindNames = ["still", "stroll", "walk", "run", "bus", "wave", "stairs-up", "stairs-down",
                                          "elevator-up", "elevator-down", "transition"] + FaceUp.allCases.map { "face" + $0.rawValue }
        + Segment.Vehicle.allCases.map(\.rawValue)

    private static func segment(from item: String) throws -> Segment {
        func bad(_ why: String) -> SimulationError {
            SimulationError(message: "bad scenario item '\(item)': \(why)",
                            fix: "write KIND[:SECONDS or FLOORS][@CADENCE][*AMPLITUDE][/HOLDING], e.g. walk:60@1.8/pocket; kinds: \(segmentKindNames.joined(separator: ", "))")
        }
        var rest = Substring(item.filter { !$0.isWhitespace })
        var holding: DeviceHolding?
        if let slash = rest.firstIndex(of: "/") {
            let name = String(rest[rest.index(after: slash)...])
            guard let h = DeviceHolding(name: name) else { throw bad("unknown holding '\(name)' (\(DeviceHolding.names.joined(separator: ", ")))") }
            holding = h
            rest = rest[..<slash]
        }
        func number(after mark: Character) throws -> Double? {
            guard let i = rest.firstIndex(of: mark) else { return nil }
            let text = String(rest[rest.index(after: i)...])
            rest = rest[..<i]
            guard let v = DecimalParser.parse(text), v.isFinite, v > 0 else { throw bad("'\(text)' after '\(mark)' is not a positive number") }
            return v
        }
        let amplitude = try number(after: "*")
        let cadence = try number(after: "@")
        let count = try number(after: ":")
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
        let countsFloors: Bool
        switch kind {
        case .stairsUp, .stairsDown, .elevatorUp, .elevatorDown: countsFloors = true
        default: countsFloors = false
        }
        if countsFloors, let count, count != count.rounded() { throw bad("floors must be a whole number") }
        if count != nil, count! > 7 * 24 * 3600 { throw bad("longer than a week") }
        return Segment(kind, seconds: countsFloors ? nil : count, cadence: cadence, amplitude: amplitude, holding: holding)
    }
}
