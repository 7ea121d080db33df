/// Labels each analysis window (every second) from the signals every source has: the
/// accelerometer's gait analysis. No GPS is needed.
///
/// - walking / running: the step counter's gait verdict; running above 2.4 steps/s (walking
///   cadences top out around 2.2 steps/s, running starts around 2.5).
/// - stationary: under 0.012 g of vertical and horizontal variation (MEMS noise is a few mg; a
///   phone held in a still hand moves about 0.01 g).
/// - vehicle: sustained, irregular motion of moderate strength without gait: engine vibration and
///   sway of 0.02 to 0.3 g that does not repeat like steps (a bus measures regularity 0.34 in the
///   pedometer seed, gait about 0.9).
/// - unknown: everything else, such as a phone waved or handled.
struct ActivityClassifier: Sendable {
    static let runningCadence = 2.4          // steps/s
    static let stillDeviation = 0.012        // g
    static let vehicleDeviation = 0.02...0.3 // g
    static let vehicleMaximumRegularity = 0.6

    func classify(_ window: GaitWindow, inBout: Bool) -> (ActivityClass, ActivityConfidence) {
        if window.isGait, let estimate = window.estimate {
            let confidence: ActivityConfidence = estimate.regularity > 0.7 ? .high : .medium
            return (estimate.cadence > Self.runningCadence ? .running : .walking, confidence)
        }
        let strongest = max(window.verticalDeviation, window.horizontalDeviation)
        if strongest < Self.stillDeviation { return (.stationary, .high) }
        if strongest < 2 * Self.stillDeviation { return (.stationary, .medium) }
        let regularity = window.estimate?.regularity ?? 0
        if Self.vehicleDeviation.contains(strongest), regularity < Self.vehicleMaximumRegularity {
            return (.vehicle, .medium)
        }
        return (.unknown, .low)
    }
}
