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
