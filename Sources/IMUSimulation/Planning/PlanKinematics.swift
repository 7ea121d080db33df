extension Plan {
    /// Half-width of the central differences that turn the orientation trajectory into a rate and
    /// a lever-arm acceleration, s.
    static let derivativeStep = 1e-4

    /// The device's true motion at scenario time `t` (s), plus the broadband vibration level (g)
    /// the simulator adds as noise. `hint` is a segment index to start searching from.
    func motion(at t: Double, hint: Int) -> (motion: TrueMotion, roughness: Double) {
        let index = segmentIndex(at: t, hint: hint)
        let segment = segments[index]
        func orientation(_ time: Double) -> Quaternion {
            let i = segmentIndex(at: time, hint: index)
            return segments[i].orientation(time - segments[i].start)
        }
        // Gyroscope: ω = 2·vec(q*·q̇), from q(t ± h).
        let h = Self.derivativeStep
        let before = orientation(t - h)
        var after = orientation(t + h)
        if before.dot(after) < 0 { after = Quaternion(w: -after.w, x: -after.x, y: -after.y, z: -after.z) }
        let rate = (before.conjugate * after).rotationVector / (2 * h)
        var state = segment.translation(t - segment.start)
        let attitude: Quaternion
        if segment.leverArm == .zero {
            attitude = (before + after).normalized      // within O(h²) of q(t): far below 1 µrad
        } else {
            // A device swinging about a pivot: second central difference of q(t)·r (m/s²). Rounding
            // (~ε·|r|/h² ≈ 3·10⁻⁸ m/s²) and truncation (~h²·ω⁴·|r|/12) are both negligible.
            attitude = orientation(t)
            let r = segment.leverArm
            let lever = (before.rotate(r) - 2 * attitude.rotate(r) + after.rotate(r)) / (h * h)
            state.acceleration += lever / Units.standardGravity
        }
        return (TrueMotion(attitude: attitude, rotationRate: rate, acceleration: state.acceleration, altitude: state.altitude),
                state.roughness)
    }
}
