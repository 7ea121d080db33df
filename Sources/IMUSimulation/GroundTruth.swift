/// What really happened in a simulated scenario, for scoring detectors. Times are on the samples'
/// timeline (seconds, `SimulationOptions.startTime` + seconds into the scenario).
public struct GroundTruth: Sendable, Equatable {
    /// The instant of each true step (foot contact), s.
    public var stepTimes: [Double] = []
    /// Floors climbed or descended on foot (elevator rides are not floors, as with CMPedometer).
    public var floors: [FloorTruth] = []
    /// Activity stretches; neighbouring segments of the same class are merged.
    public var segments: [ActivityTruth] = []
    /// Rest periods of the six-position calibration scenario, in the order performed.
    public var faces: [FaceTruth] = []
    /// Walked/run distance on the ground, m (step length × steps).
    public var distanceMeters: Double = 0
    /// First and last instant of the scenario, s.
    public var startTime: Double = 0
    public var endTime: Double = 0

    public var steps: Int { stepTimes.count }
    public var floorsAscended: Int { floors.filter(\.up).count }
    public var floorsDescended: Int { floors.filter { !$0.up }.count }
    public var duration: Double { endTime - startTime }

    public init() {}
}

/// One floor passed on foot: when the 3 m boundary was crossed, and which way.
public struct FloorTruth: Sendable, Equatable {
    public var time: Double
    public var up: Bool
    public init(time: Double, up: Bool) { self.time = time; self.up = up }
}

/// One stretch of activity: "stationary", "walking", "running", "vehicle" or "unknown"
/// (the classes of docs/CONTRACTS.md §3).
public struct ActivityTruth: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var activity: String
    public init(start: Double, end: Double, activity: String) {
        self.start = start; self.end = end; self.activity = activity
    }
}

/// One rest of the six-position scenario: which device axis pointed up, and when.
public struct FaceTruth: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var face: FaceUp
    /// True when shaking was injected during this rest (a rest the calibration must reject).
    public var shaken: Bool
    public init(start: Double, end: Double, face: FaceUp, shaken: Bool) {
        self.start = start; self.end = end; self.face = face; self.shaken = shaken
    }
}
