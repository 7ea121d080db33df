/// An elevator ride: wait, a minimum-jerk ride of whole floors, wait.
struct ElevatorProfile: Sendable {
    /// Standing in the car before the ride starts and after it stops, s (doors closing/opening).
    static let waitSeconds = 4.0
    /// Ride seconds per metre: a minimum-jerk profile peaks at 1.875·H/T, so 1.25 s/m gives a
    /// 1.5 m/s top speed, typical of low-rise traction elevators (illustrative).
    static let secondsPerMeter = 1.25

    static func rideSeconds(floors: Int) -> Double {
        max(4, secondsPerMeter * Segment.floorHeightMeters * Double(max(floors, 0)))
    }

    /// Segment time the ride starts, s.
    var rideStart: Double
    /// Ride length, s.
    var rideSeconds: Double
    /// Height change, m (negative going down).
    var heightChange: Double

    /// Altitude change since the segment start (m) and vertical acceleration (m/s²) at τ.
    func motion(at tau: Double) -> (height: Double, acceleration: Double) {
        let u = (tau - rideStart) / rideSeconds
        return (heightChange * Easing.minimumJerk(u),
                heightChange * Easing.minimumJerkAcceleration(u) / (rideSeconds * rideSeconds))
    }
}
