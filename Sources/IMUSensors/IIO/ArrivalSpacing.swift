/// CLOCK_BOOTTIME times for the scans of a buffer block that carries no usable kernel timestamp
/// (no timestamp channel, or a clock that cannot be mapped to CLOCK_BOOTTIME).
///
/// A block's scans are spread evenly over the time since the previous block arrived: the rate the
/// buffer really delivers, whatever the trigger runs at. Spacing them at the rate asked for instead
/// made a trigger faster than `--rate` stamp each block over a longer span than it took to arrive,
/// so every block started before the previous one ended and half its scans were dropped as
/// "time not increasing". Each block lies in (previous arrival, this arrival], so times always
/// increase. Only the first block, with nothing before it, uses the nominal period.
struct ArrivalSpacing {
    /// Period assumed for the first block (s): 1 / the rate asked for.
    let nominalPeriodSeconds: Double
    private var previousArrivalSeconds: Double?
    /// The delivered period (s) the latest block was spread at; nil until a second block arrived.
    private(set) var periodSeconds: Double?

    init(nominalPeriodSeconds: Double) { self.nominalPeriodSeconds = nominalPeriodSeconds }

    /// Times (s, CLOCK_BOOTTIME, oldest first) for `count` scans of a block that arrived at
    /// `arrivalSeconds`; the last scan is stamped at the arrival.
    mutating func times(count: Int, arrivalSeconds: Double) -> [Double] {
        guard count > 0 else { return [] }
        defer { previousArrivalSeconds = arrivalSeconds }
        guard let previous = previousArrivalSeconds, arrivalSeconds > previous else {
            return (0..<count).map { arrivalSeconds - Double(count - 1 - $0) * nominalPeriodSeconds }
        }
        let period = (arrivalSeconds - previous) / Double(count)
        periodSeconds = period
        return (0..<count).map { arrivalSeconds - Double(count - 1 - $0) * period }
    }
}
