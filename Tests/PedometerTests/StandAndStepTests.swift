import Foundation
import Testing
@testable import Pedometer

/// A window that holds a second of standing and a foot strike is a person who stood and stepped,
/// never a ride (`GaitWindow.standsAndSteps`, `ActivityRules.startOrStopStrike`, docs/steps.md
/// "Activity labels"). Without it, the windows where short walks start and stop read as a
/// vehicle's vibration, the walks between pauses made a "ride" whose stricter start kept them
/// from counting (the real-dev short walks at the lower back).
@Suite struct StandAndStepTests {
    let rate = 50.0

    /// A heel strike at the lower back: a 0.1 s half-sine of `height` g on |f| − 1 g, and a
    /// horizontal jolt of a fifth of it, both at time `t` past the strike; 0 elsewhere.
    func strike(_ t: Double, height: Double) -> (vertical: Double, horizontal: Double) {
        guard t >= 0, t < 0.1 else { return (0, 0) }
        let v = height * sin(Double.pi * t / 0.1)
        return (v, 0.2 * v)
    }

    /// Runs the counter over (vertical, horizontal) ticks; returns its windows.
    func windows(_ ticks: [(Double, Double)]) -> [GaitWindow] {
        var counter = StepCounter(rateHz: rate, stride: StrideModel(height: 1.75))
        counter.startSegment(at: 0)
        var out: [GaitWindow] = []
        for (v, h) in ticks {
            if let w = counter.process(UserAcceleration(magnitude: v, horizontal: h), altitude: 0) { out.append(w) }
        }
        return out
    }

    /// Four walks of 5 strikes each, at irregular intervals of 0.5 to 1.1 s (the 0.3 to
    /// 2 s), between 4 s of standing (0.004 g at the lower back, within the 0.002 to 0.006 g
    /// measured there). The windows that hold an edge of a walk are part still and part
    /// strikes: none is labelled `vehicle`.
    @Test func shortWalksBetweenStandsAreNoRide() {
        let intervals = [0.5, 0.9, 0.6, 1.1]
        var times: [Double] = []
        var t = 4.0
        for _ in 0..<4 {
            times.append(t)
            for dt in intervals { t += dt; times.append(t) }
            t += 4
        }
        let count = Int((t + 4) * rate)
        let ticks = (0..<count).map { i -> (Double, Double) in
            let time = Double(i) / rate
            let standing = 0.004 * sin(2 * Double.pi * 0.3 * time)
            let hit = times.map { strike(time - $0, height: 0.4) }.reduce((0.0, 0.0)) { ($0.0 + $1.0, $0.1 + $1.1) }
            return (standing + hit.0, 0.005 + hit.1)
        }
        let all = windows(ticks)
        let classifier = ActivityClassifier()
        let edges = all.filter(\.standsAndSteps)
        #expect(!edges.isEmpty, "no window held both a stand and a strike")
        let vehicle = all.filter { classifier.classify($0).0 == .vehicle }.map(\.end)
        #expect(vehicle == [], "labelled vehicle at \(vehicle)")
    }

    /// A ride between its bumps never stands still: an engine's 0.03 g at 12 Hz (a vehicle keeps
    /// 0.015 to 0.05 g, `ChainRules.stillDeviation`) under bumps of 0.4 g every 1.3 s. Its windows
    /// stay `vehicle`.
    @Test func bumpsInAnEngineRumbleStayARide() {
        let count = Int(40 * rate)
        let ticks = (0..<count).map { i -> (Double, Double) in
            let time = Double(i) / rate
            let engine = 0.03 * sin(2 * Double.pi * 12.3 * time) * sqrt(2.0)
            let bump = strike(time.truncatingRemainder(dividingBy: 1.3), height: 0.4)
            return (engine + bump.vertical, 0.03 + 0.02 * sin(2 * Double.pi * 0.7 * time) + bump.horizontal)
        }
        let all = windows(ticks)
        #expect(all.allSatisfy { !$0.standsAndSteps })
        let classifier = ActivityClassifier()
        let vehicle = all.filter { classifier.classify($0).0 == .vehicle }
        #expect(!vehicle.isEmpty, "the rumble was never a vehicle: the premise failed")
    }
}
