/// What really happened in a simulated scenario, for scoring detectors. Times are on the samples'
/// timeline (seconds, `SimulationOptions.startTime` + seconds into the scenario).
public struct GroundTruth: Sendable, Equatable {
    /// The instant of each true step (foot contact), s. In the signal, the heel-strike spike follows
    /// 0.3 rad of step phase later (≈ 27 ms at 1.8 steps/s) and the broad bounce peaks a quarter step
    /// later (≈ 140 ms), so a peak detector's times lag these by up to ~0.15 s at a walk.
    public var stepTimes: [Double] = []
    /// Floors climbed or descended on foot (elevator rides are not floors, as with CMPedometer).
    public var floors: [FloorTruth] = []
    /// Activity stretches; neighbouring segments of the same class are merged.
    public var segments: [ActivityTruth] = []
    /// Each stretch of walking, running or stair climbing, with its pace.
    public var gaits: [GaitTruth] = []
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

/// One stretch of gait: how many steps, how fast, how far (for cadence, stride and pace checks).
public struct GaitTruth: Sendable, Equatable {
    public var start: Double
    public var end: Double
    /// "stroll", "walk", "run", "stairs-up" or "stairs-down".
    public var kind: String
    public var steps: Int
    /// Mean cadence, steps per second (steps ÷ time from first to last step).
    public var cadence: Double
    /// Ground covered per step, m.
    public var stepLengthMeters: Double
    public var distanceMeters: Double { Double(steps) * stepLengthMeters }
    public init(start: Double, end: Double, kind: String, steps: Int, cadence: Double, stepLengthMeters: Double) {
        self.start = start; self.end = end; self.kind = kind; self.steps = steps
        self.cadence = cadence; self.stepLengthMeters = stepLengthMeters
    }
}
