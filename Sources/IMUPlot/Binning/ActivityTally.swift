import Pedometer

/// Seconds of each (activity, confidence) pair in one slice of time. A fixed-size vector, so a bin
/// never allocates.
struct ActivityTally: Sendable, Equatable {
    /// Lane `classIndex × 3 + confidenceIndex`; 5 classes × 3 confidences = 15 of 16 lanes.
    private var seconds = SIMD16<Double>(repeating: 0)

    static let classes: [ActivityClass] = [.stationary, .walking, .running, .vehicle, .unknown]
    static let confidences: [ActivityConfidence] = [.low, .medium, .high]

    mutating func add(_ activity: ActivityClass, _ confidence: ActivityConfidence, seconds s: Double) {
        seconds[Self.lane(activity, confidence)] += s
    }

    mutating func merge(_ other: ActivityTally) { seconds += other.seconds }

    var totalSeconds: Double { seconds.sum() }

    /// The class covering most of the slice, and the confidence it mostly had; nil when empty.
    var dominant: (activity: ActivityClass, confidence: ActivityConfidence)? {
        guard totalSeconds > 0 else { return nil }
        var best = 0, bestSeconds = -1.0
        for (c, _) in Self.classes.enumerated() {
            let s = seconds[c * 3] + seconds[c * 3 + 1] + seconds[c * 3 + 2]
            if s > bestSeconds { best = c; bestSeconds = s }
        }
        var conf = 0
        for k in 1..<3 where seconds[best * 3 + k] > seconds[best * 3 + conf] { conf = k }
        return (Self.classes[best], Self.confidences[conf])
    }

    private static func lane(_ a: ActivityClass, _ c: ActivityConfidence) -> Int {
        let ai = classes.firstIndex(of: a) ?? 4
        let ci = confidences.firstIndex(of: c) ?? 0
        return ai * 3 + ci
    }
}
