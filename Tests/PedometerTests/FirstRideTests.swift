import Testing
@testable import Pedometer

/// A ride the stream starts in is taken from one 4 s window; the step counter treats it as a
/// ride (a stricter start, no short walk counted strike by strike) only once it has shown it is
/// one (`ActivitySegmenter.isProvenRide`, `ActivityRules.provenRideVibration`, docs/activity.md).
@Suite struct FirstRideTests {
    /// Labels `activity` once a second from `from` to `to` (s), each from a window whose gait
    /// signal deviated `gaitDeviation` g.
    private func label(_ segmenter: inout ActivitySegmenter, _ activity: ActivityClass, from: Int, to: Int,
                       gaitDeviation: Double) {
        var events: [PedometerEvent] = []
        for t in from..<to {
            segmenter.add(activity, confidence: .medium, start: Double(t), time: Double(t + 1),
                          gaitDeviation: gaitDeviation, into: &events)
        }
    }

    /// Standing before a walk at the lower back: 0.012 g of |f| (real-dev s03_t1, tuned), below
    /// an engine's and a road's 0.015 g. The segment is a vehicle's from the first second, but no
    /// ride for the step counter until it has been labelled `vehicle` for the 20 s any ride needs.
    @Test func aStillFirstWindowIsNoRideUntilTwentySecondsOfVehicle() {
        let rules = ActivityRules()
        var segmenter = ActivitySegmenter(rules: rules)
        label(&segmenter, .vehicle, from: 0, to: 1, gaitDeviation: 0.012)
        #expect(segmenter.current?.activity == .vehicle)
        #expect(!segmenter.isProvenRide)
        // Unknown seconds (a walk's gait windows before it opens) are no evidence of a ride.
        label(&segmenter, .unknown, from: 1, to: 11, gaitDeviation: 0.1)
        label(&segmenter, .vehicle, from: 11, to: 11 + Int(rules.vehicleMinimum) - 2, gaitDeviation: 0.012)
        #expect(segmenter.current?.activity == .vehicle)
        #expect(!segmenter.isProvenRide)
        label(&segmenter, .vehicle, from: 11 + Int(rules.vehicleMinimum) - 2, to: 11 + Int(rules.vehicleMinimum), gaitDeviation: 0.012)
        #expect(segmenter.isProvenRide)
    }

    /// A bus's first window vibrates (0.075 g of |f|, the real-dev Bratislava bus): a ride at once.
    @Test func aVibratingFirstWindowIsARideAtOnce() {
        var segmenter = ActivitySegmenter()
        label(&segmenter, .vehicle, from: 0, to: 1, gaitDeviation: 0.075)
        #expect(segmenter.isProvenRide)
    }

    /// A ride that replaced another segment has had its 20 s of evidence: a ride at once.
    @Test func aLaterRideIsProvenByItsMinimumDuration() {
        var segmenter = ActivitySegmenter()
        label(&segmenter, .stationary, from: 0, to: 10, gaitDeviation: 0.004)
        label(&segmenter, .vehicle, from: 10, to: 40, gaitDeviation: 0.004)
        #expect(segmenter.current?.activity == .vehicle)
        #expect(segmenter.isProvenRide)
    }
}
