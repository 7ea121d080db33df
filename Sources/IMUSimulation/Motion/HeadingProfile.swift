/// The walker's (or vehicle's) heading over a segment: constant, except for smooth turns.
/// Turns never overlap; each follows a minimum-jerk profile, so the yaw rate starts and ends at zero.
struct HeadingProfile: Sendable {
    struct Turn: Sendable {
        /// Segment time the turn starts, s.
        var start: Double
        /// Length of the turn, s.
        var duration: Double
        /// Heading change, radians (positive = to the left, counter-clockwise seen from above).
        var angle: Double
    }

    private(set) var turns: [Turn] = []
    /// Heading change completed before each turn, radians.
    private var completedBefore: [Double] = []

    init(turns: [Turn] = []) {
        var total = 0.0
        for turn in turns.sorted(by: { $0.start < $1.start }) {
            self.turns.append(turn)
            completedBefore.append(total)
            total += turn.angle
        }
        totalChange = total
    }

    /// Heading change over the whole segment, radians.
    let totalChange: Double

    /// Heading change since the segment start (radians) and its rate (rad/s) at segment time τ.
    func heading(at tau: Double) -> (angle: Double, rate: Double) {
        // Last turn starting at or before τ (binary search: a day-long walk has thousands of turns).
        var low = 0, high = turns.count
        while low < high {
            let mid = (low + high) / 2
            if turns[mid].start <= tau { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return (0, 0) }
        let turn = turns[low - 1]
        let u = (tau - turn.start) / turn.duration
        return (completedBefore[low - 1] + turn.angle * Easing.minimumJerk(u),
                turn.angle * Easing.minimumJerkRate(u) / turn.duration)
    }
}
