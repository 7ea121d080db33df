import Foundation
import Testing
@testable import Pedometer

@Suite struct OrientationTests {
    /// A tilted device bouncing vertically: "down" is found from the accelerometer alone, the
    /// gait signal is the bounce and nothing of it leaks into the horizontal part.
    @Test func accelerometerGravityFindsDownAndUserAcceleration() {
        var estimator = GravityEstimator(interval: 0.02)
        let down = Vector3(0, 0.6, 0.8)   // tilted device, 1 g
        var worstMagnitudeError = 0.0, lastHorizontal = 1.0
        for i in 0..<500 {
            // 0.2 g vertical bounce at 2 Hz on top of gravity.
            let bounce = 0.2 * sin(2 * Double.pi * 2 * Double(i) * 0.02)
            let user = estimator.update(acceleration: down * (1 + bounce))
            worstMagnitudeError = max(worstMagnitudeError, abs(user.magnitude - bounce))
            lastHorizontal = user.horizontal
        }
        #expect(worstMagnitudeError < 1e-9)
        #expect(lastHorizontal < 0.01)
    }

    /// A sideways sway of 0.1 g at 1 Hz on a level device: the 1 s low-pass keeps "down" within a
    /// few degrees, so the horizontal part reads the sway (0.1 g amplitude) and not gravity.
    @Test func horizontalMotionIsMeasuredAroundGravity() {
        var estimator = GravityEstimator(interval: 0.02)
        var peak = 0.0
        for i in 0..<1000 {
            let sway = 0.1 * sin(2 * Double.pi * Double(i) * 0.02)
            let user = estimator.update(acceleration: Vector3(sway, 0, 1))
            if i > 250 { peak = max(peak, user.horizontal) }
        }
        // The low-pass passes about 16 % of a 1 Hz sway (gain 1/√(1 + (2π·1 s·1 Hz)²)), which tilts
        // "down" towards it and trims the reading to ≈ 0.1 × (1 − 0.16) g at worst.
        #expect(peak > 0.08 && peak < 0.105, "peak horizontal \(peak) g")
    }
}
