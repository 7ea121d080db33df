/// Where the device is and how it moves at one instant, before any sensor error.
struct MotionState {
    /// Acceleration of the device in the world frame, g (gravity not included).
    var acceleration: Vector3
    /// Altitude above sea level, m.
    var altitude: Double
    /// Standard deviation (g) of broadband vibration to add on top (road roughness), per sample.
    var roughness: Double
}

/// A scenario segment with every random choice already made: its motion is a pure function of time.
struct PlannedSegment: Sendable {
    var segment: Segment
    /// Start, s from the scenario start.
    var start: Double
    var duration: Double
    var end: Double { start + duration }

    /// Device → body rotation at the start of the blend and after it.
    var mountFrom: Quaternion
    var mountTo: Quaternion
    /// Seconds at the segment start over which the mount turns from `mountFrom` to `mountTo` (0 = none).
    var blendSeconds: Double

    /// Heading at the segment start, radians (counter-clockwise from east).
    var headingStart: Double
    var heading: HeadingProfile

    /// Altitude at the segment start, m.
    var altitudeStart: Double
    /// Altitude change over the segment, m.
    var altitudeChange: Double

    var gait: GaitPhase?
    /// Phase of the gait at the end of the segment, radians.
    var finalPhase: Double = 0
    var sway = SwayAmplitudes(pitchStep: 0, pitchStride: 0, rollStride: 0, yawStride: 0)
    /// Where the pivot the device swings about (hip, shoulder, wrist) sees the device, in the device
    /// frame, m; zero when the device does not swing. Fixed in the device frame: thigh and phone
    /// move as one rigid body, so the device's extra acceleration is the second derivative of
    /// q(t)·r (tangential α×r plus centripetal ω×(ω×r)), consistent with the gyroscope.
    var leverArm = Vector3.zero
    var stairs: StairLayout?
    var bus: BusProfile?
    var busVibration: BusVibration?
    var elevator: ElevatorProfile?
    /// Seed of the per-step strength variation.
    var stepSeed: UInt64 = 0
    /// Random phases (radians) for oscillations that must not line up between segments.
    var phases: [Double] = []
    /// Frequencies (Hz) of the injected shaking, one per world axis plus one for rotation.
    var shakeFrequencies: [Double] = []

    /// Seconds over which gaits, waving and rides fade in and out: the first and last step are gentler.
    static let rampSeconds = 0.4
    /// Seconds over which waving builds up and dies down: about two waves, since starting a ±4 cm
    /// wave within a fraction of one would take jolts of ~0.5 g.
    static let waveRampSeconds = 1.0
    /// Lift of the device during a transition, m (picked up a hand's height, illustrative).
    static let transitionLiftMeters = 0.08
}
