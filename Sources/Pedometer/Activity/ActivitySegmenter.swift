/// Turns per-second labels into stable segments, like the pedometer seed's segmenter, plus
/// hysteresis for vehicles.
///
/// - Priority: a vehicle wins over stationary and unknown (a bus at a red light is both), so
///   inside a ride those labels are absorbed for up to `ActivityRules.vehicleHold` seconds.
/// - Minimum duration: a new activity replaces the current one only after it has held for
///   `ActivityRules.minimumDuration(for:)` seconds with at least medium confidence; shorter flickers are
///   absorbed into the surrounding segment. Rides by bicycle start and end without it
///   (`cyclingDecided`): `CyclingDetector` has its own hysteresis.
struct ActivitySegmenter: Sendable {
    /// Thresholds (`StepSettings.activity`).
    var rules = ActivityRules()

    init(rules: ActivityRules = ActivityRules()) { self.rules = rules }

    /// The segment in progress (after `finish`, the last one).
    private(set) var current: ActivitySegment?
    private var finished = false
    private var candidate: ActivityClass?
    private var candidateStart = 0.0
    private var candidateConfidence = ActivityConfidence.low
    /// The current segment is the stream's first, taken from its first label without the
    /// minimum duration a later segment needs, and that label's window did not vibrate as a
    /// vehicle's does (`ActivityRules.provenRideVibration`).
    private var unproven = false
    /// Seconds of the current segment labelled `vehicle` at medium confidence or more, while `unproven`.
    private var vehicleEvidence = 0.0

    /// Is the current segment a ride the step counter should treat as one (`StepCounter.inVehicle`):
    /// a vehicle segment that replaced another after `ActivityRules.vehicleMinimum` s, or the
    /// stream's first segment when its first window vibrated as a vehicle's does or once it has
    /// been labelled `vehicle` for that long (`ActivityRules.provenRideVibration`).
    ///
    /// Inlined: read once per window from `Pedometer.handle`, where a call took a copy of the
    /// whole segmenter first (a `memcpy` per window; callgrind, session 21).
    @inline(__always) var isProvenRide: Bool {
        guard current?.activity == .vehicle else { return false }
        return !unproven || vehicleEvidence >= rules.vehicleMinimum
    }

    /// Adds the label of the second ending at `time`, from a window whose gait signal deviated
    /// `gaitDeviation` g. Appends a finished segment to `events`.
    mutating func add(_ activity: ActivityClass, confidence: ActivityConfidence, start: Double, time: Double,
                      gaitDeviation: Double = .infinity, into events: inout [PedometerEvent]) {
        guard !finished else { return }
        let evidence = activity == .vehicle && confidence >= .medium ? time - (current?.end ?? start) : 0
        guard var segment = current else {
            current = ActivitySegment(start: start, end: time, activity: activity, confidence: confidence)
            unproven = gaitDeviation <= rules.provenRideVibration
            vehicleEvidence = evidence
            return
        }
        vehicleEvidence += evidence
        if activity == segment.activity {
            segment.end = time
            segment.confidence = max(segment.confidence, confidence)
            current = segment
            candidate = nil
            return
        }
        if candidate == .stationary, activity == .vehicle {
            // A vehicle that was standing still at first (a bus at its stop): the ride began then.
            candidate = .vehicle
            candidateConfidence = max(candidateConfidence, confidence)
        } else if candidate != activity {
            candidate = activity
            candidateStart = start
            candidateConfidence = confidence
        } else {
            candidateConfidence = max(candidateConfidence, confidence)
        }
        var needed = rules.minimumDuration(for: activity)
        if segment.activity == .vehicle, activity == .stationary || activity == .unknown {
            needed = rules.vehicleHold
        }
        if cyclingDecided(from: segment.activity, to: activity) { needed = 0 }
        if time - candidateStart >= needed, candidateConfidence >= .medium {
            segment.end = candidateStart
            events.append(.activity(segment))
            current = ActivitySegment(start: candidateStart, end: time, activity: activity, confidence: candidateConfidence)
            candidate = nil
            unproven = false
        } else {
            segment.end = time
            current = segment
        }
    }

    /// A ride's start and end are `CyclingDetector`'s, already with hysteresis (4 pedalling
    /// windows of 8 to start; 3 unexplained gait windows, or 45 s idle, to end): a second minimum
    /// here would only add its seconds to the lag. Into cycling that holds for the IMU's label
    /// (the vote gives cycling at medium confidence or more only with it); out of it, for the
    /// step counter's walk or run that the release lets through.
    private func cyclingDecided(from current: ActivityClass, to next: ActivityClass) -> Bool {
        next == .cycling || (current == .cycling && (next == .walking || next == .running))
    }

    /// Ends the stream at `time` (the last sample): emits the final segment, extended to it.
    mutating func finish(at time: Double, into events: inout [PedometerEvent]) {
        if var segment = current {
            segment.end = Swift.max(segment.end, time)
            current = segment
            events.append(.activity(segment))
        }
        candidate = nil
        finished = true
    }
}
