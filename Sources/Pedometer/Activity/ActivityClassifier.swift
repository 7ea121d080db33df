/// Labels each analysis window (every second) from the signals every source has: the
/// accelerometer's gait analysis. No GPS is needed.
///
/// - walking / running: the step counter is counting (a bout is open; a gait-like window that
///   did not start a bout is not walking); running above 2.4 steps/s (walking
///   cadences top out around 2.2 steps/s, running starts around 2.5).
/// - stationary: under 0.012 g of vertical and horizontal variation (MEMS noise is a few mg; a
///   phone held in a still hand moves about 0.01 g).
/// - vehicle: sustained motion of moderate strength that the gait gate rejected: engine
///   vibration and sway of 0.02 to 0.3 g (stronger motion without gait is a phone being handled
///   or waved). The segmenter requires 20 s of it before a ride starts.
/// - unknown: everything else, such as a phone waved (medium confidence: clearly rhythmic but
///   not gait) or handled (low).
struct ActivityClassifier: Sendable {
    /// Thresholds (`StepSettings.activity`).
    var rules = ActivityRules()

    /// Whether `classify` may read the shape (`GaitWindow.shape`) of a window that is not gait:
    /// only motion of a vehicle's strength is told from standing in an elevator by it. The step
    /// counter measures a window's shape only where this or its own gate needs it.
    func readsShape(gaitDeviation: Double, horizontalDeviation: Double) -> Bool {
        rules.vehicleDeviation.contains(max(gaitDeviation, horizontalDeviation))
    }

    /// `justWalked`: a walk or run was being counted within the window (it ended in it).
    func classify(_ window: GaitWindow, justWalked: Bool = false) -> (ActivityClass, ActivityConfidence) {
        if window.counted, let estimate = window.estimate {
            let confidence: ActivityConfidence = estimate.regularity > 0.7 ? .high : .medium
            return (estimate.cadence > rules.runningCadence ? .running : .walking, confidence)
        }
        // Gait-like but not (yet) counted: the first window of a walk, or a vehicle's bounce
        // that did not pass the stricter start. Neither walking nor evidence of a ride.
        if window.isGait { return (.unknown, .low) }
        let strongest = max(window.gaitDeviation, window.horizontalDeviation)
        if strongest < rules.stillDeviation { return (.stationary, .high) }
        if strongest < 2 * rules.stillDeviation { return (.stationary, .medium) }
        if readsShape(gaitDeviation: window.gaitDeviation, horizontalDeviation: window.horizontalDeviation) {
            // Standing in an elevator: smooth, weak acceleration.
            if window.shape.rmsFrequency < rules.smoothFrequency { return (.stationary, .medium) }
            // Right after a walk or run, horizontal motion alone with the gait signal at the
            // sensor's noise is the gravity estimate settling (1 s low-pass, `GravityEstimator`)
            // after the last strides, or after the phone was turned as the user stopped: no
            // bounce, no vibration. Only then: a tram's smooth sway reads the same way for
            // minutes (the real-dev tram ride's windows measure under 0.012 g of |f| while
            // swaying 0.02 g and more), and a ride boarded on foot loses nothing by waiting one
            // window (`ActivitySegmenter` dates a vehicle from the stillness before it).
            if justWalked, window.gaitDeviation < rules.stillDeviation { return (.stationary, .medium) }
            // Standing and a foot strike in one window: a short walk starts or stops there.
            if window.standsAndSteps { return (.unknown, .low) }
            return (.vehicle, .medium)
        }
        // Strong rhythmic motion that is not gait (a phone waved) or strong handling.
        return (.unknown, window.wasRhythmic ? .medium : .low)
    }
}
