/// A named sequence of segments: what the simulated person does, in order.
public struct Scenario: Sendable, Equatable {
    public var name: String
    public var segments: [Segment]

    public init(name: String, segments: [Segment]) {
        self.name = name
        self.segments = segments
    }

    /// Total length in seconds.
    public var seconds: Double { segments.reduce(0) { $0 + ($1.seconds.isFinite ? max(0, $1.seconds) : 0) } }

    /// A catalogue scenario by name (see `allNames`), or nil.
    public static func named(_ name: String) -> Scenario? {
        ScenarioCatalogue.scenario(named: name)
    }

    /// Names `named(_:)` knows, in a sensible order for help text.
    public static var allNames: [String] { ScenarioCatalogue.names }
}

extension Scenario {
    /// One line for people, in the composition syntax of `resolve(_:)` with rounded figures, e.g.
    /// "still:20, walk:120@1.8/hand, bus:60 (385 s)".
    public var summary: String {
        func number(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String((x * 10).rounded() / 10) }
        let items = segments.map { s -> String in
            var text = s.kindName
            switch s.kind {
            case .stairsUp(let n), .stairsDown(let n), .elevatorUp(let n), .elevatorDown(let n): text += ":\(n)"
            default: text += ":" + number(s.seconds)
            }
            if s.isGait || s.kind == .wave { text += "@" + number(s.cadence) }
            if let h = s.holding, let name = h.name { text += "/" + name }
            return text
        }
        return items.joined(separator: ", ") + " (\(number(seconds)) s)"
    }
}
