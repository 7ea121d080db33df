/// A journey for activity fusion: legs on foot, on a bicycle or in a car, each with its true
/// activity and ground speed, and whether a GNSS receiver has a fix there.
public struct Journey: Sendable, Equatable {
    public struct Leg: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// On foot (or standing): the simulator's segment (walk, run, stroll, still).
            case foot(Segment)
            /// On a treadmill: the segment's gait, going nowhere.
            case treadmill(Segment)
            /// Pedalling at `crankHz` revolutions per second.
            case cycle(RidePlacement, crankHz: Double)
            /// In a car or bus (the simulator's bus motion), device held as `holding`.
            case drive(DeviceHolding)
        }
        public var kind: Kind
        public var seconds: Double
        /// True ground speed, m/s.
        public var speed: Double
        /// A receiver has a fix (false: a tunnel, an underground car park).
        public var hasFix: Bool

        public init(_ kind: Kind, seconds: Double, speed: Double, hasFix: Bool = true) {
            self.kind = kind
            self.seconds = seconds
            self.speed = speed
            self.hasFix = hasFix
        }

        /// The true activity (docs/CONTRACTS.md §3 names).
        public var activity: String {
            switch kind {
            case .foot(let s), .treadmill(let s): return s.activity
            case .cycle: return "cycling"
            case .drive: return "vehicle"
            }
        }
    }

    public var name: String
    /// What the activity seed says the classification should be.
    public var expectation: String
    public var legs: [Leg]

    public init(name: String, expectation: String, legs: [Leg]) {
        self.name = name
        self.expectation = expectation
        self.legs = legs
    }

    /// Total length, s.
    public var seconds: Double { legs.reduce(0) { $0 + $1.seconds } }
}
