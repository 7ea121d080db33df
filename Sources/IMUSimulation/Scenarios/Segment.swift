/// One stretch of a scenario: what the person does, for how long, and how the device is held.
public struct Segment: Sendable, Equatable {
    public enum Kind: Sendable, Equatable, Hashable {
        /// Device at rest (on a table, or held perfectly still).
        case still
        /// Slow walk (default 1.6 steps/s, 0.18 g bounce, as in the pedometer seed article).
        case stroll
        /// Walk (default 1.8 steps/s, 0.25 g bounce).
        case walk
        /// Run (default 2.8 steps/s, 0.8 g bounce).
        case run
        /// Climbing stairs on foot: 3 m per floor, ~0.17 m per step.
        case stairsUp(floors: Int)
        /// Going down stairs on foot.
        case stairsDown(floors: Int)
        /// Riding an elevator up: pressure changes, no steps.
        case elevatorUp(floors: Int)
        /// Riding an elevator down.
        case elevatorDown(floors: Int)
        /// Sitting on a bus: sway, engine vibration, accelerations, braking, red-light stops, turns.
        case bus
        /// Riding another vehicle (`Vehicle`): its own vibration model on the bus's speed profile.
        case ride(Vehicle)
        /// Standing and waving the phone up and down (default 2 Hz, 0.6 g): smooth, no heel strikes, no steps.
        case wave
        /// Resting on one face (six-position calibration).
        case face(FaceUp)
        /// Picking the device up and turning it to the next segment's orientation.
        case transition
    }

    /// Vehicles other than the default bus, each with its own shaking (`BusVibration.init(vehicle:…)`).
    public enum Vehicle: String, Sendable, Equatable, Hashable, CaseIterable {
        /// A city bus on soft air suspension: body bounce in the walking band (1.2–2 Hz), little rumble.
        case cityBus = "city-bus"
        /// A tram: steel wheels on rail joints (a double knock every 1–3 s), high-pitched rumble.
        case tram
        /// A metro: smooth ride, strong surges, rumble at 20–60 Hz.
        case metro
        /// A car: firm suspension (1.2–1.8 Hz), engine at 20–40 Hz, road texture.
        case car
        /// A diesel bus modelled from physics, apart from the city bus: a random road (ISO 8608
        /// class B to C) under a 1 Hz air suspension, a six-cylinder engine whose firing rises
        /// with speed, longer stops (`RoadRide`). A check nothing was tuned on.
        case coach
    }

    public var kind: Kind
    /// Length in seconds.
    public var seconds: Double
    /// Steps per second for gaits; oscillations per second for `wave`; unused otherwise.
    public var cadence: Double
    /// Vertical bounce amplitude in g for gaits and `wave`; unused otherwise.
    public var amplitude: Double
    /// Device holding; nil = the kind's default (overridden by `SimulationOptions.holding`).
    public var holding: DeviceHolding?
    /// Shaking injected on top of the motion, peak g (0 = none): e.g. someone bumping the table during a face's rest.
    public var shake: Double
    /// Size of a walk's vertical bounce at twice the cadence, relative to the bounce at the
    /// cadence (walking kinds; running has its own push). 0.35 is the pedometer seed article's
    /// walk. A brisk walk's vertical ground force has two humps per step (loading at heel strike,
    /// push-off at the toe, each about 1.2 body weights, with a dip between), which can make the
    /// trunk's bounce at twice the cadence as large as, or larger than, the one at the cadence:
    /// the signal a counter may read at double the cadence.
    public var secondHarmonic: Double = Self.defaultSecondHarmonic
    /// The seed article's walking bounce: sin φ + 0.35 sin(2φ − 1.2).
    public static let defaultSecondHarmonic = 0.35
    /// Irregular steps (walking kinds): each step's interval drawn uniformly from this range, s,
    /// instead of a steady cadence with ±5 % wander (`GaitPhase`). Daily life walks with 0.3 to
    /// 2 s between steps within one walk (issue 14). nil = steady. Written `~0.3-2` in a composition.
    public var stepIntervals: ClosedRange<Double>?

    /// A segment with per-kind defaults for anything not given.
    public init(_ kind: Kind, seconds: Double? = nil, cadence: Double? = nil, amplitude: Double? = nil,
                holding: DeviceHolding? = nil, shake: Double = 0) {
        self.kind = kind
        let defaults = Self.defaults(for: kind)
        self.cadence = cadence ?? defaults.cadence
        self.amplitude = amplitude ?? defaults.amplitude
        self.holding = holding
        self.shake = shake
        self.seconds = seconds ?? Self.defaultSeconds(for: kind, cadence: self.cadence)
    }

    /// Height of one floor in metres (the convention; CMPedometer uses about 3 m too).
    public static let floorHeightMeters = 3.0
    /// Rise of one stair step in metres (a typical 17 cm riser).
    public static let stairRiseMeters = 0.17

    /// Cadence (steps/s) and bounce (g) defaults. Stroll, walk and run follow the pedometer seed
    /// article's synthetic gait; stairs are illustrative (climbing is slower than walking,
    /// descending has harder impacts).
    static func defaults(for kind: Kind) -> (cadence: Double, amplitude: Double) {
        switch kind {
        case .stroll: return (1.6, 0.18)
        case .walk: return (1.8, 0.25)
        case .run: return (2.8, 0.8)
        case .stairsUp: return (1.6, 0.3)
        case .stairsDown: return (1.9, 0.35)
        case .wave: return (2.0, 0.6)
        default: return (0, 0)
        }
    }

    static func defaultSeconds(for kind: Kind, cadence: Double) -> Double {
        switch kind {
        case .still, .bus, .ride: return 60
        case .stroll, .walk: return 120
        case .run: return 90
        case .wave: return 15
        case .face: return 10
        case .transition: return 3
        case .stairsUp(let floors), .stairsDown(let floors):
            // One step per riser, plus the flat steps across the landings between half-floor flights.
            let risers = Double(max(floors, 0)) * floorHeightMeters / stairRiseMeters
            let landings = Double(max(2 * floors - 1, 0)) * StairLayout.stepsPerLanding
            return max(1, (risers + landings) / max(cadence, 0.1))
        case .elevatorUp(let floors), .elevatorDown(let floors):
            return ElevatorProfile.waitSeconds * 2 + ElevatorProfile.rideSeconds(floors: floors)
        }
    }

    /// The holding used when neither the segment nor the options name one.
    var defaultHolding: DeviceHolding {
        switch kind {
        case .still, .face, .transition: return .faceUp
        case .walk, .stairsUp, .stairsDown: return .frontPocket
        case .run: return .armband
        case .stroll, .elevatorUp, .elevatorDown, .bus, .ride, .wave: return .inHand
        }
    }

    /// The kind's name as in scenario compositions ("walk", "stairs-up", "face+z", …).
    public var kindName: String {
        switch kind {
        case .still: return "still"
        case .stroll: return "stroll"
        case .walk: return "walk"
        case .run: return "run"
        case .stairsUp: return "stairs-up"
        case .stairsDown: return "stairs-down"
        case .elevatorUp: return "elevator-up"
        case .elevatorDown: return "elevator-down"
        case .bus: return "bus"
        case .ride(let vehicle): return vehicle.rawValue
        case .wave: return "wave"
        case .face(let f): return "face" + f.rawValue
        case .transition: return "transition"
        }
    }

    /// Ground-truth activity class (docs/CONTRACTS.md §3 names).
    var activity: String {
        switch kind {
        case .still, .face, .elevatorUp, .elevatorDown: return "stationary"
        case .stroll, .walk, .stairsUp, .stairsDown: return "walking"
        case .run: return "running"
        case .bus, .ride: return "vehicle"
        case .wave, .transition: return "unknown"
        }
    }

    /// True for kinds that take steps.
    var isGait: Bool {
        switch kind {
        case .stroll, .walk, .run, .stairsUp, .stairsDown: return true
        default: return false
        }
    }

    /// Weight of the heel-strike spike in the vertical bounce (the seed article uses 0.8 for all gaits).
    /// Climbing stairs lands softly on the forefoot, descending lands hard (illustrative relative figures).
    var heelStrike: Double {
        switch kind {
        case .stairsUp: return 0.4
        case .stairsDown: return 1.2
        case .run: return 0.4      // on top of a stance push that already peaks near 3 g
        case .stroll: return 0.6
        default: return 0.8
        }
    }

    /// Length of one step in metres on the ground, for the distance truth: ~0.41 × height for a
    /// walk scaling up with cadence (illustrative; stairs use a 0.28 m tread).
    var stepLengthMeters: Double {
        switch kind {
        case .stairsUp, .stairsDown: return 0.28
        case .run: return 1.1
        case .stroll, .walk: return 0.45 + 0.14 * cadence
        default: return 0
        }
    }
}
