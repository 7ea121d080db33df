import Foundation
import Testing
@testable import Pedometer

@Suite struct OrientationTests {
    @Test func quaternionRotatesAndComposes() {
        let quarter = Quaternion.exponential(Vector3(0, 0, Double.pi / 2))
        let x = quarter.rotate(Vector3(1, 0, 0))
        #expect(length(x - Vector3(0, 1, 0)) < 1e-12)
        let half = quarter * quarter
        #expect(length(half.rotate(Vector3(1, 0, 0)) - Vector3(-1, 0, 0)) < 1e-12)
        #expect(length(quarter.inverseRotate(x) - Vector3(1, 0, 0)) < 1e-12)
        let q = Quaternion.rotation(from: Vector3(1, 0, 0), to: Vector3(0, 0, 1))
        #expect(length(q.rotate(Vector3(1, 0, 0)) - Vector3(0, 0, 1)) < 1e-12)
    }

    /// Turning the device about x by 90° over 2 s: the gyro-driven estimate must follow at once,
    /// checked against the direction the accelerometer reads at every instant.
    @Test func gyroFilterFollowsRotationWithoutLag() {
        var estimator = GravityEstimator(interval: 0.02)
        let rate = Double.pi / 4   // rad/s about device x
        var q = Quaternion.identity   // device → world
        var worst = 0.0
        for i in 0..<300 {
            let t = Double(i) * 0.02
            let w = t >= 2 && t < 4 ? Vector3(rate, 0, 0) : .zero
            q = (q * Quaternion.exponential(w * 0.02)).normalized
            let up = q.inverseRotate(Vector3(0, 0, 1))   // gravity reaction in the device frame
            let result = estimator.update(acceleration: up, rotationRate: w)
            worst = max(worst, length(result.up - up))
            #expect(abs(result.vertical) < 0.02)
        }
        #expect(worst < 0.05, "worst direction error \(worst)")
    }

    /// Coning: the rotation axis itself turns (ω = A(cos Ωt, sin Ωt, 0)), so rotations over
    /// consecutive ticks do not commute. The filter runs on pairs of ticks; both ticks of every
    /// pair must stay on the true "up", integrated here in 20 sub-steps per tick. Measured: 0.034
    /// with the pair's coning correction; 0.060 for a filter stepping every tick without one.
    @Test func pairedFilterFollowsConingMotionOnEveryTick() {
        var estimator = GravityEstimator(interval: 0.02)
        let amplitude = 3.0, coningRate = 2 * Double.pi * 1.5   // rad/s; a brisk wobble
        var q = Quaternion.rotation(from: Vector3(0, 0.6, 0.8), to: Vector3(0, 0, 1))
        var worst = [0.0, 0.0]   // odd and even ticks
        for i in 0..<500 {
            var meanRate = Vector3.zero
            for k in 0..<20 {
                let t = (Double(i) + (Double(k) + 0.5) / 20) * 0.02
                let w = amplitude * Vector3(_cos(coningRate * t), _sin(coningRate * t), 0)
                q = q * Quaternion.exponential(w * 0.001)
                meanRate += w / 20
            }
            q = q.normalized
            let up = q.inverseRotate(Vector3(0, 0, 1))
            let result = estimator.update(acceleration: up, rotationRate: meanRate)
            worst[i % 2] = max(worst[i % 2], length(result.up - up))
        }
        #expect(worst[0] < 0.045 && worst[1] < 0.045, "worst direction error on odd/even ticks \(worst)")
    }

    @Test func gyroBiasIsLearnedAtRest() {
        var estimator = GravityEstimator(interval: 0.02)
        let bias = Vector3(0.02, -0.01, 0.015)
        for _ in 0..<500 { _ = estimator.update(acceleration: Vector3(0, 0, 1), rotationRate: bias) }
        #expect(length(estimator.gyroBias - bias) < 0.002)
    }

    @Test func accelerometerOnlyFallbackFindsDownAndUserAcceleration() {
        var estimator = GravityEstimator(interval: 0.02)
        let down = Vector3(0, 0.6, 0.8)   // tilted device, 1 g
        var last = UserAcceleration(vertical: 0, magnitude: 0, horizontal: 0, up: .zero)
        for i in 0..<500 {
            // 0.2 g vertical bounce at 2 Hz on top of gravity.
            let bounce = 0.2 * sin(2 * Double.pi * 2 * Double(i) * 0.02)
            last = estimator.update(acceleration: down * (1 + bounce), rotationRate: nil)
        }
        #expect(length(last.up - down) < 0.02)
        #expect(last.horizontal < 0.01)
    }
}
