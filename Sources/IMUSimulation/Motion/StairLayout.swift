/// A switchback staircase walked over a segment: flights of risers, each half a floor high, with a
/// flat landing between flights where the walker turns round. Positions are measured in steps
/// taken since the segment start (step phase / 2π), so the altitude is a function of the gait.
struct StairLayout: Sendable {
    /// Flights climbed (two per floor).
    let flights: Int
    /// Steps on each flight's risers (fractional when the segment's length asks for it).
    let risersPerFlight: Double
    /// Flat steps on each landing between flights.
    let landingSteps: Double
    /// Height of one flight, m.
    static let flightHeight = Segment.floorHeightMeters / 2
    /// Flat steps across a half-floor landing (illustrative: two paces while turning round).
    static let stepsPerLanding = 2.0

    /// Lays out `floors` floors over `steps` steps. Landings are dropped when the segment is too
    /// short for them (fewer than two risers per flight would remain).
    init(floors: Int, steps: Double) {
        flights = max(floors, 0) * 2
        let landings = Double(max(flights - 1, 0))
        let withLandings = flights > 0 ? (steps - landings * Self.stepsPerLanding) / Double(flights) : 0
        if withLandings >= 2 {
            landingSteps = Self.stepsPerLanding
            risersPerFlight = withLandings
        } else {
            landingSteps = 0
            risersPerFlight = flights > 0 ? steps / Double(flights) : 0
        }
    }

    /// Height climbed (m, ≥ 0) after `progress` steps.
    func height(afterSteps progress: Double) -> Double {
        guard flights > 0, risersPerFlight > 0 else { return 0 }
        let period = risersPerFlight + landingSteps
        let flight = min(Double(flights - 1), max(0, (progress / period).rounded(.down)))
        let into = progress - flight * period
        return (flight + Self.rounded(into / risersPerFlight, corner: min(0.5, risersPerFlight / 4) / risersPerFlight))
            * Self.flightHeight
    }

    /// Share of a flight climbed at fraction u of its risers, with the start and end of the flight
    /// rounded over `2δ` (half a step each side: the body speeds up into and slows out of the
    /// climb, so the vertical velocity has no jumps). C¹, 0 at u ≤ 0 and 1 at u ≥ 1.
    static func rounded(_ u: Double, corner delta: Double) -> Double {
        let scale = 1 - 2 * delta
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        if u < 2 * delta { return u * u / (4 * delta) / scale }
        if u > 1 - 2 * delta { return (1 - 2 * delta - (1 - u) * (1 - u) / (4 * delta)) / scale }
        return (u - delta) / scale
    }

    /// Steps taken when the `k`-th floor (1-based) is reached: the end of flight 2k.
    func stepsAtFloor(_ k: Int) -> Double {
        Double(2 * k - 1) * (risersPerFlight + landingSteps) + risersPerFlight
    }

    /// Steps taken at the middle of landing `j` (1-based, between flights j and j + 1).
    func stepsAtLanding(_ j: Int) -> Double {
        Double(j) * (risersPerFlight + landingSteps) - landingSteps / 2
    }
}
